// Mesh loading: OBJ through clearway's own reader (obj_reader.cpp), every other format through
// Assimp; either becomes one triangle soup in the internal frame.
#include <clearway/bake.h>

#include "import/import_internal.h"

#include <assimp/DefaultLogger.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sys/stat.h>

namespace clearway::bake {

namespace {

Error checkFinite(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices,
                  const std::string& name) {
    for (size_t i = 0; i < indices.size(); ++i) {
        const Vec3& p = positions[indices[i]];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            return {ErrorCode::NonFiniteVertex, name + ": vertex " + std::to_string(indices[i]) +
                                                    " of triangle " + std::to_string(i / 3) +
                                                    " is not a finite number (NaN or Inf)"};
        }
    }
    return {};
}

void logWeldAndDuplicates(const detail::WeldSummary& weld, double tolerance, size_t dropped,
                          const ImportOptions& options, const std::string& name, LogContext& log) {
    std::string text;
    if (weld.welded_vertices) {
        char welded[160];
        std::snprintf(welded, sizeof welded,
                      "welded %zu vertices within %.3g m of another (%zu triangles collapsed)",
                      weld.welded_vertices, tolerance, weld.collapsed_triangles);
        text = welded;
    }
    if (dropped)
        text += (text.empty() ? "dropped " : ", dropped ") + std::to_string(dropped) +
                " duplicate triangles (same corners as an earlier one)";
    if (!text.empty()) log.log(LogLevel::Info, name + ": " + text);
    // Welding is transitive: only a chain of close vertices can move one this far.
    if (weld.farthest_move > options.epsilon / 4) {
        char far[256];
        std::snprintf(far, sizeof far,
                      ": welding moved a vertex %.3g m, more than a quarter of --epsilon %.3g m (a chain of "
                      "vertices each within %.3g m of the next)",
                      weld.farthest_move, options.epsilon, tolerance);
        log.log(LogLevel::Warn, name + far);
    }
}

// The triangles validated and moved into the internal frame with `units` (out->units; an Info line
// on `log` says them).
Error meshInUnits(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices,
                  detail::ParsedPrecision precision, const ImportUnits& units, const ImportOptions& options,
                  const std::string& name, Mesh* out, LogContext& log) {
    if (indices.empty()) return {ErrorCode::EmptyMesh, name + ": mesh has no triangles"};
    ImportOptions used = options;
    used.up = units.up, used.scale = units.scale;
    if (Error e = detail::meshFromParsedTriangles(positions, indices, precision, used, name, out, log)) return e;
    out->units = units;
    log.log(LogLevel::Info, name + ": " + unitsText(units));
    return {};
}

} // namespace

namespace detail {

unsigned configureImporter(Assimp::Importer& importer) {
    // Points and lines are dropped (SortByPType + the flag below); node transforms are baked into
    // the vertices so instanced props land where the level places them.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    // Validation runs before the other steps: a reader that builds an inconsistent scene from a
    // malformed file (an OFF whose face list is cut short) is an import error, not an ai_assert
    // abort inside Triangulate (found by tests/fuzz/import_fuzz).
    return aiProcess_ValidateDataStructure;
}

Error postProcess(Assimp::Importer& importer, const std::string& name, const aiScene** out) {
    // Readers can build faces validation lets through but Triangulate asserts on (a PLY whose
    // face counts were mangled: a face without indices, so the mesh was flagged as having
    // polygons), and Debian's Assimp turns that assert into an abort (found by
    // tests/fuzz/import_fuzz). So faces are checked and the flags recomputed from them first. The
    // importer owns the scene and lets post-processing change it; GetScene hands it out as const.
    aiScene* scene = const_cast<aiScene*>(importer.GetScene());
    for (unsigned m = 0; scene && m < scene->mNumMeshes; ++m) {
        aiMesh* mesh = scene->mMeshes[m];
        unsigned types = 0;
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const unsigned n = mesh->mFaces[f].mNumIndices;
            if (n == 0 || !mesh->mFaces[f].mIndices)
                return {ErrorCode::ReadFailed, name + ": cannot import mesh: face " + std::to_string(f) +
                                                   " of mesh " + std::to_string(m) + " has no vertices"};
            types |= n == 1   ? aiPrimitiveType_POINT
                     : n == 2 ? aiPrimitiveType_LINE
                     : n == 3 ? aiPrimitiveType_TRIANGLE
                              : aiPrimitiveType_POLYGON;
        }
        mesh->mPrimitiveTypes = types;
    }
    *out = importer.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                        aiProcess_PreTransformVertices | aiProcess_SortByPType);
    if (!*out) return {ErrorCode::ReadFailed, name + ": cannot import mesh: " + importer.GetErrorString()};
    return {};
}

Error meshFromScene(const aiScene& scene, const ImportOptions& options, const std::string& name, Mesh* out,
                    LogContext& log) {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
        const aiMesh* mesh = scene.mMeshes[m];
        if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
        const auto base = static_cast<uint32_t>(positions.size());
        for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
            const aiVector3D& p = mesh->mVertices[v];
            positions.push_back({p.x, p.y, p.z});
        }
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const aiFace& face = mesh->mFaces[f];
            if (face.mNumIndices != 3) continue;
            for (int k = 0; k < 3; ++k)
                indices.push_back(base + face.mIndices[k]);
        }
    }
    return meshInUnits(positions, indices, ParsedPrecision::Float, unitsFor(&scene, options, name, log), options,
                       name, out, log);
}

Error meshFromObj(const char* bytes, size_t size, const ImportOptions& options, const std::string& name, Mesh* out,
                  LogContext& log) {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices;
    if (Error e = readObj(bytes, size, name, &positions, &indices)) return e;
    // An OBJ declares no units.
    return meshInUnits(positions, indices, ParsedPrecision::Double, unitsFor(nullptr, options, name, log), options,
                       name, out, log);
}

bool readsObj(const std::string& extension) {
    const size_t n = extension.size();
    auto is = [&](size_t from_end, char lower) { return std::tolower(uint8_t(extension[n - from_end])) == lower; };
    return n >= 3 && (n == 3 || extension[n - 4] == '.') && is(3, 'o') && is(2, 'b') && is(1, 'j');
}

} // namespace detail

Error meshFromTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                        const ImportOptions& options, const std::string& name, Mesh* out, LogContext& log) {
    return detail::meshFromParsedTriangles(world_positions, indices, detail::ParsedPrecision::Float, options, name,
                                           out, log);
}

Error detail::meshFromParsedTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                                      ParsedPrecision precision, const ImportOptions& options,
                                      const std::string& name, Mesh* out, LogContext& log) {
    if (Error e = validate(options)) return e;
    if (indices.size() < 3 || indices.size() % 3 != 0)
        return {ErrorCode::EmptyMesh, name + ": mesh has no triangles"};
    for (uint32_t index : indices)
        if (index >= world_positions.size())
            return {ErrorCode::ReadFailed,
                    name + ": triangle index " + std::to_string(index) + " out of range"};
    if (Error e = checkFinite(world_positions, indices, name)) return e;
    if (Error e = detail::checkParsedPrecision(world_positions, indices, precision, options, name)) return e;
    Mesh mesh;
    mesh.source_name = name;
    mesh.positions.reserve(world_positions.size());
    for (const Vec3& p : world_positions)
        mesh.positions.push_back(worldToInternal(p, options));
    mesh.indices = indices;
    mesh.units = detail::unitsFor(nullptr, options, name, log);
    // Vertices within epsilon / 1000 (10 um at the default 1 cm) are one: far below anything the
    // bake resolves (boundaries are simplified by up to epsilon), far above float noise near the
    // origin, and a level modelled to the millimetre keeps every vertex. Copies of a face nudged by
    // less than that become exact duplicates, which overlap stages would otherwise pair up n^2.
    const double weld_tolerance = options.epsilon / 1000;
    const detail::WeldSummary weld = detail::weldCloseVertices(mesh.positions, weld_tolerance, &mesh.indices);
    const size_t dropped = detail::dropDuplicateTriangles(mesh.positions, &mesh.indices);
    logWeldAndDuplicates(weld, weld_tolerance, dropped, options, name, log);
    // Every triangle collapsed in the weld or was a copy of another: nothing left to bake.
    if (mesh.indices.empty())
        return {ErrorCode::EmptyMesh, name + ": mesh has no triangles left after welding its vertices and "
                                             "dropping duplicate triangles"};
    *out = std::move(mesh);
    return {};
}

namespace {

// The file at `path`, a regular file, open in `stream`; its size in *size.
Error openRegularFile(const std::string& path, std::ifstream* stream, uint64_t* size) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return {ErrorCode::FileNotFound, path + ": no such file"};
    if (!S_ISREG(info.st_mode)) return {ErrorCode::ReadFailed, path + ": not a regular file"};
    stream->open(path, std::ios::binary);
    if (!*stream) return {ErrorCode::ReadFailed, path + ": cannot open file for reading"};
    *size = uint64_t(info.st_size);
    return {};
}

// The rest of `stream`'s bytes, and their hash: assets record what they were baked from.
Error readBytes(const std::string& path, std::ifstream& stream, std::vector<char>* bytes, uint64_t* hash) {
    // In blocks: a character at a time was a tenth of a second per 30 MB.
    bytes->clear();
    std::vector<char> block(1 << 16);
    while (stream.read(block.data(), std::streamsize(block.size())) || stream.gcount() > 0)
        bytes->insert(bytes->end(), block.data(), block.data() + stream.gcount());
    if (bytes->empty()) return {ErrorCode::EmptyMesh, path + ": file is empty"};
    *hash = fnv1a64(bytes->data(), bytes->size());
    return {};
}

// The file at `path` read by `importer` (no post-processing yet), with its bytes' hash.
Error readScene(const std::string& path, Assimp::Importer& importer, const aiScene** scene, uint64_t* hash) {
    std::ifstream stream;
    uint64_t size = 0;
    if (Error e = openRegularFile(path, &stream, &size)) return e;
    if (Error e = detail::checkDeclaredCountsOfFile(importer, path, stream, size)) return e;
    std::vector<char> bytes;
    if (Error e = readBytes(path, stream, &bytes, hash)) return e;
    if (Error e = detail::checkGltfPrimitives(path, bytes.data(), bytes.size(), path)) return e;

    *scene = importer.ReadFile(path, detail::configureImporter(importer));
    if (!*scene) return {ErrorCode::ReadFailed, path + ": cannot import mesh: " + importer.GetErrorString()};
    return {};
}

// The OBJ file at `path`, read by clearway's reader.
Error loadObj(const std::string& path, const ImportOptions& options, Mesh* out, LogContext& log) {
    std::ifstream stream;
    uint64_t size = 0;
    std::vector<char> bytes;
    uint64_t hash = 0;
    if (Error e = openRegularFile(path, &stream, &size)) return e;
    if (Error e = readBytes(path, stream, &bytes, &hash)) return e;
    if (Error e = detail::meshFromObj(bytes.data(), bytes.size(), options, path, out, log)) return e;
    out->source_hash = hash;
    return {};
}

} // namespace

Error unitsOfFile(const std::string& path, const ImportOptions& options, ImportUnits* out) {
    if (detail::readsObj(path)) { // an OBJ declares no units, but a file that does not read is an error
        Mesh mesh;
        if (Error e = loadObj(path, options, &mesh, silentLog())) return e;
        *out = mesh.units;
        return {};
    }
    Assimp::Importer importer;
    const aiScene* scene = nullptr;
    uint64_t hash = 0;
    if (Error e = readScene(path, importer, &scene, &hash)) return e;
    *out = detail::unitsFor(scene, options, path, silentLog());
    return {};
}

Error loadMesh(const std::string& path, const ImportOptions& options, Mesh* out, LogContext& log) {
    if (Error e = validate(options)) return e;
    Mesh mesh;
    if (detail::readsObj(path)) {
        if (Error e = loadObj(path, options, &mesh, log)) return e;
    } else {
        Assimp::Importer importer;
        const aiScene* scene = nullptr;
        uint64_t hash = 0;
        if (Error e = readScene(path, importer, &scene, &hash)) return e;
        if (Error e = detail::postProcess(importer, path, &scene)) return e;
        if (Error e = detail::meshFromScene(*scene, options, path, &mesh, log)) return e;
        mesh.source_hash = hash;
    }
    log.log(LogLevel::Info, path + ": " + std::to_string(mesh.triangleCount()) + " triangles, " +
                                std::to_string(mesh.positions.size()) + " vertices");
    *out = std::move(mesh);
    return {};
}

} // namespace clearway::bake
