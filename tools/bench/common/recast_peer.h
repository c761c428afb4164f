// Recast and Detour as the benchmarks' peer: a solo-mesh navmesh build (RecastDemo's pipeline and
// defaults) and the query a game makes on it. The one adapter cw-bench's subcommands share.
#pragma once

#include "obj_mesh.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>

#include <memory>
#include <vector>

namespace clearway::bench {

// RecastDemo's defaults (Sample::resetCommonSettings) except the cell size, which is 0.3 there:
// recast-area uses 0.1 for area accuracy, bake keeps 0.3.
struct RecastSettings {
    float cell_size = 0.1f;
    float cell_height = 0.2f;
    float agent_height = 2.0f;
    float agent_radius = 0.6f;
    float agent_max_climb = 0.9f;
    float agent_max_slope = 45.0f;
    float region_min_size = 8;
    float region_merge_size = 20;
    float edge_max_len = 12.0f;
    float edge_max_error = 1.3f;
    int verts_per_poly = 6;
    float detail_sample_dist = 6.0f;
    float detail_sample_max_error = 1.0f;
    bool detour = false; // also build the Detour navmesh data (RecastDemo's step 8, the asset)
};

struct RecastResult {
    double detail_area = 0; // m^2, detail triangles projected onto XZ
    double poly_area = 0;   // m^2, polygon mesh (XZ)
    int polys = 0, detail_tris = 0, walkable_radius_cells = 0, grid_w = 0, grid_h = 0;
    double seconds = 0;                 // wall clock of the build (not the area measurement)
    size_t navmesh_bytes = 0;           // Detour tile data, when built
    std::shared_ptr<dtNavMesh> navmesh; // the Detour navmesh, when built (queries use it)
};

// RecastDemo's derived configuration (cells, not metres) for the mesh's bounds.
rcConfig recastConfig(const ObjMesh& mesh, const RecastSettings& s);

// Same steps and derived config as RecastDemo's Sample_SoloMesh::handleBuild (watershed regions).
bake::Error buildRecast(const ObjMesh& mesh, const RecastSettings& s, RecastResult* out);

// RecastDemo's query settings (Sample_TileMesh / NavMeshTesterTool): 2048 nodes, 256 polygons and
// straight-path points, search box half extents (2, 4, 2).
constexpr int kMaxNodes = 2048, kMaxPolys = 256, kMaxStraight = 256;
constexpr float kPickExtents[3] = {2, 4, 2};
// Straight-path buffer of the (untimed) measured paths: large, so none is cut short.
constexpr int kMaxStraightAll = 4096;

// Detour works in the mesh's Y-up frame shifted to clearway's origin: Detour (x, y, z) = clearway
// local (x, -z, y), the inverse of the import's Y-up rotation (no mirror).
void toDetour(const bake::Vec3& local, float* out);
bake::Vec3 fromDetour(const float* d);

// A Detour query on a built navmesh, with its per-query buffers allocated once.
struct Detour {
    std::shared_ptr<dtNavMesh> nav;
    std::unique_ptr<dtNavMeshQuery, void (*)(dtNavMeshQuery*)> query{nullptr, dtFreeNavMeshQuery};
    dtQueryFilter filter; // RecastDemo: every flag, every area cost 1
    dtPolyRef polys[kMaxPolys];
    int npolys = 0;
    std::vector<float> straight = std::vector<float>(size_t(kMaxStraightAll) * 3);
    std::vector<unsigned char> flags = std::vector<unsigned char>(kMaxStraightAll);
    std::vector<dtPolyRef> refs = std::vector<dtPolyRef>(kMaxStraightAll);
    int nstraight = 0;

    // What a game does per query: 2x findNearestPoly + findPath + findStraightPath. True when the
    // path reaches the goal's polygon (not a partial result, no buffer ran out).
    bool path(const float* a, const float* b, int straight_options, int max_straight);
};

} // namespace clearway::bench
