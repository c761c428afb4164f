// Mesh loading through Assimp: any format it reads becomes one triangle soup in the internal frame.
#include <clearway/bake.h>

#include "import/import_internal.h"

#include <assimp/DefaultLogger.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
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
    if (indices.empty()) return {ErrorCode::EmptyMesh, name + ": mesh has no triangles"};
    const ImportUnits units = unitsFor(&scene, options, name, log);
    ImportOptions used = options;
    used.up = units.up, used.scale = units.scale;
    if (Error e = meshFromTriangles(positions, indices, used, name, out, log)) return e;
    out->units = units;
    log.log(LogLevel::Info, name + ": " + unitsText(units));
    return {};
}

} // namespace detail

Error meshFromTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                        const ImportOptions& options, const std::string& name, Mesh* out, LogContext& log) {
    if (Error e = validate(options)) return e;
    if (indices.size() < 3 || indices.size() % 3 != 0)
        return {ErrorCode::EmptyMesh, name + ": mesh has no triangles"};
    for (uint32_t index : indices)
        if (index >= world_positions.size())
            return {ErrorCode::ReadFailed,
                    name + ": triangle index " + std::to_string(index) + " out of range"};
    if (Error e = checkFinite(world_positions, indices, name)) return e;
    if (Error e = detail::checkFloatPrecision(world_positions, indices, options, name)) return e;
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
    *out = std::move(mesh);
    return {};
}

namespace {

// The file at `path` read by `importer` (no post-processing yet), with its bytes' hash.
Error readScene(const std::string& path, Assimp::Importer& importer, const aiScene** scene, uint64_t* hash) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return {ErrorCode::FileNotFound, path + ": no such file"};
    if (!S_ISREG(info.st_mode)) return {ErrorCode::ReadFailed, path + ": not a regular file"};

    std::ifstream stream(path, std::ios::binary);
    if (!stream) return {ErrorCode::ReadFailed, path + ": cannot open file for reading"};
    if (Error e = detail::checkDeclaredCountsOfFile(importer, path, stream, uint64_t(info.st_size))) return e;
    // Hash the exact bytes: assets record what they were baked from.
    const std::vector<char> bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    if (bytes.empty()) return {ErrorCode::EmptyMesh, path + ": file is empty"};
    *hash = fnv1a64(bytes.data(), bytes.size());

    *scene = importer.ReadFile(path, detail::configureImporter(importer));
    if (!*scene) return {ErrorCode::ReadFailed, path + ": cannot import mesh: " + importer.GetErrorString()};
    return {};
}

} // namespace

Error unitsOfFile(const std::string& path, const ImportOptions& options, ImportUnits* out) {
    Assimp::Importer importer;
    const aiScene* scene = nullptr;
    uint64_t hash = 0;
    if (Error e = readScene(path, importer, &scene, &hash)) return e;
    *out = detail::unitsFor(scene, options, path, silentLog());
    return {};
}

Error loadMesh(const std::string& path, const ImportOptions& options, Mesh* out, LogContext& log) {
    if (Error e = validate(options)) return e;
    Assimp::Importer importer;
    const aiScene* scene = nullptr;
    uint64_t hash = 0;
    if (Error e = readScene(path, importer, &scene, &hash)) return e;
    if (Error e = detail::postProcess(importer, path, &scene)) return e;

    Mesh mesh;
    if (Error e = detail::meshFromScene(*scene, options, path, &mesh, log)) return e;
    mesh.source_hash = hash;
    log.log(LogLevel::Info, path + ": " + std::to_string(mesh.triangleCount()) + " triangles, " +
                                std::to_string(mesh.positions.size()) + " vertices");
    *out = std::move(mesh);
    return {};
}

} // namespace clearway::bake
