// Mesh loading from bytes in memory (archives, downloads, the importer fuzzer): the same OBJ reader,
// importer setup and scene walk as loadMesh, with the file system shut off.
#include <clearway/bake.h>

#include "import/import_internal.h"

#include <assimp/IOSystem.hpp>

#include <algorithm>
#include <cstring>

namespace clearway::bake {

namespace {

// Assimp's memory reader hands every other file name (an OBJ's mtllib, a glTF's external buffer)
// to the importer's previous IO system. This one has no files, so the result depends on the bytes
// alone and a crafted input cannot make the importer read /dev/zero or anything else on disk.
class NoFiles : public Assimp::IOSystem {
  public:
    bool Exists(const char*) const override { return false; }
    char getOsSeparator() const override { return '/'; }
    Assimp::IOStream* Open(const char*, const char*) override { return nullptr; }
    void Close(Assimp::IOStream*) override {}
};

} // namespace

Error loadMeshFromMemory(const void* data, size_t size, const std::string& format_hint,
                         const ImportOptions& options, const std::string& name, Mesh* out, LogContext& log) {
    if (Error e = validate(options)) return e;
    if (!data || size == 0) return {ErrorCode::EmptyMesh, name + ": no bytes"};
    // Assimp copies the hint into a fixed buffer of this size and picks the importer by it.
    if (format_hint.empty() || format_hint.size() > Assimp::Importer::MaxLenHint ||
        format_hint.find_first_of("./\\") != std::string::npos)
        return {ErrorCode::InvalidOption,
                name + ": format hint '" + format_hint + "' is not a file extension"};

    Mesh mesh;
    if (detail::readsObj(format_hint)) {
        if (Error e = detail::meshFromObj(static_cast<const char*>(data), size, options, name, &mesh, log)) return e;
    } else {
        Assimp::Importer importer;
        importer.SetIOHandler(new NoFiles); // owned by the importer
        const size_t head_size = std::min(size, detail::kDeclaredCountsHeadBytes);
        if (Error e = detail::checkDeclaredCounts(importer, "." + format_hint, static_cast<const char*>(data),
                                                  head_size, size, name))
            return e;
        if (Error e = detail::checkGltfPrimitives("." + format_hint, static_cast<const char*>(data), size, name))
            return e;
        const aiScene* scene =
            importer.ReadFileFromMemory(data, size, detail::configureImporter(importer), format_hint.c_str());
        if (!scene) return {ErrorCode::ReadFailed, name + ": cannot import mesh: " + importer.GetErrorString()};
        if (Error e = detail::postProcess(importer, name, &scene)) return e;
        if (Error e = detail::meshFromScene(*scene, options, name, &mesh, log)) return e;
    }
    mesh.source_hash = fnv1a64(data, size);
    log.log(LogLevel::Info, name + ": " + std::to_string(mesh.triangleCount()) + " triangles, " +
                                std::to_string(mesh.positions.size()) + " vertices");
    *out = std::move(mesh);
    return {};
}

} // namespace clearway::bake
