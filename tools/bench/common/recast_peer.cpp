#include "recast_peer.h"

#include <DetourAlloc.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <string>

namespace clearway::bench {

namespace {

// Forwards Recast's warnings and errors (it reports failures only through the log).
class RecastLog : public rcContext {
  public:
    RecastLog() : rcContext(true) { enableTimer(false); }

  protected:
    void doLog(const rcLogCategory category, const char* msg, const int len) override {
        const std::string text(msg, static_cast<size_t>(len));
        if (category == RC_LOG_ERROR)
            spdlog::error("recast: {}", text);
        else if (category == RC_LOG_WARNING)
            spdlog::warn("recast: {}", text);
    }
};

// RAII for Recast's C-style allocations.
template <class T, void (*Free)(T*)> struct Owned {
    T* p;
    explicit Owned(T* ptr) : p(ptr) {}
    ~Owned() { Free(p); }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
};

bake::Error recastFailed(const char* step) {
    return bake::Error{bake::ErrorCode::Internal, std::string("recast: ") + step + " failed"};
}


// RecastDemo's step 8: walkable polygons get area "ground" and flag "walk", then one Detour tile.
bake::Error buildDetour(rcPolyMesh& pm, const rcPolyMeshDetail& dm, const rcConfig& cfg,
                        const RecastSettings& s, RecastResult* out) {
    for (int i = 0; i < pm.npolys; ++i)
        if (pm.areas[i] == RC_WALKABLE_AREA) pm.areas[i] = 0, pm.flags[i] = 1;
    dtNavMeshCreateParams params{};
    params.verts = pm.verts;
    params.vertCount = pm.nverts;
    params.polys = pm.polys;
    params.polyAreas = pm.areas;
    params.polyFlags = pm.flags;
    params.polyCount = pm.npolys;
    params.nvp = pm.nvp;
    params.detailMeshes = dm.meshes;
    params.detailVerts = dm.verts;
    params.detailVertsCount = dm.nverts;
    params.detailTris = dm.tris;
    params.detailTriCount = dm.ntris;
    params.walkableHeight = s.agent_height;
    params.walkableRadius = s.agent_radius;
    params.walkableClimb = s.agent_max_climb;
    rcVcopy(params.bmin, pm.bmin);
    rcVcopy(params.bmax, pm.bmax);
    params.cs = cfg.cs;
    params.ch = cfg.ch;
    params.buildBvTree = true;
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&params, &data, &size)) return recastFailed("dtCreateNavMeshData");
    dtNavMesh* nav = dtAllocNavMesh();
    if (!nav) {
        dtFree(data);
        return recastFailed("dtAllocNavMesh");
    }
    out->navmesh.reset(nav, dtFreeNavMesh); // owns `data` from here (DT_TILE_FREE_DATA)
    if (dtStatusFailed(nav->init(data, size, DT_TILE_FREE_DATA))) return recastFailed("dtNavMesh::init");
    out->navmesh_bytes = static_cast<size_t>(size);
    return {};
}

// Areas in the XZ plane: the polygon mesh (grid coordinates, shoelace) and the detail mesh (per
// sub-mesh, triangles index into that sub-mesh's vertices).
void measureAreas(const rcPolyMesh& pm, const rcPolyMeshDetail& dm, RecastResult* out) {
    double poly_cells = 0;
    for (int i = 0; i < pm.npolys; ++i) {
        const unsigned short* p = &pm.polys[i * 2 * pm.nvp];
        int n = 0;
        while (n < pm.nvp && p[n] != RC_MESH_NULL_IDX)
            ++n;
        double twice = 0;
        for (int j = 0; j < n; ++j) {
            const unsigned short* a = &pm.verts[p[j] * 3];
            const unsigned short* b = &pm.verts[p[(j + 1) % n] * 3];
            twice += double(a[0]) * b[2] - double(b[0]) * a[2];
        }
        poly_cells += std::abs(twice) * 0.5;
    }
    out->poly_area = poly_cells * double(pm.cs) * double(pm.cs);
    out->polys = pm.npolys;

    double detail = 0;
    for (int i = 0; i < dm.nmeshes; ++i) {
        const unsigned int vbase = dm.meshes[i * 4 + 0], tbase = dm.meshes[i * 4 + 2],
                           tcount = dm.meshes[i * 4 + 3];
        for (unsigned int t = 0; t < tcount; ++t) {
            const unsigned char* tri = &dm.tris[(tbase + t) * 4];
            const float* a = &dm.verts[(vbase + tri[0]) * 3];
            const float* b = &dm.verts[(vbase + tri[1]) * 3];
            const float* c = &dm.verts[(vbase + tri[2]) * 3];
            const double ux = double(b[0]) - a[0], uz = double(b[2]) - a[2];
            const double vx = double(c[0]) - a[0], vz = double(c[2]) - a[2];
            detail += std::abs(ux * vz - uz * vx) * 0.5;
        }
    }
    out->detail_area = detail;
    out->detail_tris = dm.ntris;
}

} // namespace

rcConfig recastConfig(const ObjMesh& mesh, const RecastSettings& s) {
    rcConfig cfg{};
    cfg.cs = s.cell_size;
    cfg.ch = s.cell_height;
    cfg.walkableSlopeAngle = s.agent_max_slope;
    cfg.walkableHeight = static_cast<int>(std::ceil(s.agent_height / cfg.ch));
    cfg.walkableClimb = static_cast<int>(std::floor(s.agent_max_climb / cfg.ch));
    cfg.walkableRadius = static_cast<int>(std::ceil(s.agent_radius / cfg.cs));
    cfg.maxEdgeLen = static_cast<int>(s.edge_max_len / s.cell_size);
    cfg.maxSimplificationError = s.edge_max_error;
    cfg.minRegionArea = static_cast<int>(s.region_min_size * s.region_min_size);
    cfg.mergeRegionArea = static_cast<int>(s.region_merge_size * s.region_merge_size);
    cfg.maxVertsPerPoly = s.verts_per_poly;
    cfg.detailSampleDist = s.detail_sample_dist < 0.9f ? 0 : s.cell_size * s.detail_sample_dist;
    cfg.detailSampleMaxError = s.cell_height * s.detail_sample_max_error;
    rcCalcBounds(mesh.verts.data(), mesh.vertexCount(), cfg.bmin, cfg.bmax);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
    return cfg;
}

bake::Error buildRecast(const ObjMesh& mesh, const RecastSettings& s, RecastResult* out) {
    const auto start = std::chrono::steady_clock::now();
    RecastLog ctx;
    rcConfig cfg = recastConfig(mesh, s);
    const int nv = mesh.vertexCount(), nt = mesh.triangleCount();
    out->walkable_radius_cells = cfg.walkableRadius;
    out->grid_w = cfg.width;
    out->grid_h = cfg.height;

    Owned<rcHeightfield, rcFreeHeightField> solid(rcAllocHeightfield());
    if (!solid.p ||
        !rcCreateHeightfield(&ctx, *solid.p, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
        return recastFailed("rcCreateHeightfield");
    std::vector<unsigned char> areas(static_cast<size_t>(nt), 0);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, mesh.verts.data(), nv, mesh.tris.data(), nt,
                            areas.data());
    if (!rcRasterizeTriangles(&ctx, mesh.verts.data(), nv, mesh.tris.data(), areas.data(), nt, *solid.p,
                              cfg.walkableClimb))
        return recastFailed("rcRasterizeTriangles");
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid.p);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid.p);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid.p);

    Owned<rcCompactHeightfield, rcFreeCompactHeightfield> chf(rcAllocCompactHeightfield());
    if (!chf.p || !rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid.p, *chf.p))
        return recastFailed("rcBuildCompactHeightfield");
    if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf.p)) return recastFailed("rcErodeWalkableArea");
    if (!rcBuildDistanceField(&ctx, *chf.p)) return recastFailed("rcBuildDistanceField");
    if (!rcBuildRegions(&ctx, *chf.p, 0, cfg.minRegionArea, cfg.mergeRegionArea))
        return recastFailed("rcBuildRegions");

    Owned<rcContourSet, rcFreeContourSet> cset(rcAllocContourSet());
    if (!cset.p || !rcBuildContours(&ctx, *chf.p, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset.p))
        return recastFailed("rcBuildContours");
    Owned<rcPolyMesh, rcFreePolyMesh> pmesh(rcAllocPolyMesh());
    if (!pmesh.p || !rcBuildPolyMesh(&ctx, *cset.p, cfg.maxVertsPerPoly, *pmesh.p))
        return recastFailed("rcBuildPolyMesh");
    Owned<rcPolyMeshDetail, rcFreePolyMeshDetail> dmesh(rcAllocPolyMeshDetail());
    if (!dmesh.p || !rcBuildPolyMeshDetail(&ctx, *pmesh.p, *chf.p, cfg.detailSampleDist,
                                           cfg.detailSampleMaxError, *dmesh.p))
        return recastFailed("rcBuildPolyMeshDetail");
    if (s.detour) {
        if (bake::Error e = buildDetour(*pmesh.p, *dmesh.p, cfg, s, out)) return e;
    }
    out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    measureAreas(*pmesh.p, *dmesh.p, out);
    return {};
}

void toDetour(const bake::Vec3& local, float* out) {
    out[0] = float(local.x), out[1] = float(local.z), out[2] = float(-local.y);
}
bake::Vec3 fromDetour(const float* d) {
    return {double(d[0]), -double(d[2]), double(d[1])};
}

bool Detour::path(const float* a, const float* b, int straight_options, int max_straight) {
    dtPolyRef ra = 0, rb = 0;
    float na[3], nb[3];
    query->findNearestPoly(a, kPickExtents, &filter, &ra, na);
    query->findNearestPoly(b, kPickExtents, &filter, &rb, nb);
    npolys = nstraight = 0;
    if (!ra || !rb) return false;
    const dtStatus s = query->findPath(ra, rb, na, nb, &filter, polys, &npolys, kMaxPolys);
    if (dtStatusFailed(s) || npolys == 0) return false;
    const dtStatus t = query->findStraightPath(na, nb, polys, npolys, straight.data(), flags.data(),
                           refs.data(), &nstraight, max_straight, straight_options);
    return !dtStatusFailed(t) && !(s & DT_PARTIAL_RESULT) && !(t & DT_BUFFER_TOO_SMALL) &&
           polys[npolys - 1] == rb;
}

} // namespace clearway::bench
