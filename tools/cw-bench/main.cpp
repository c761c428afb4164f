// cw-bench: clearway's benchmarks, next to Recast where Recast does the same job.
//
//   cw-bench recast-area MESH.obj --footprint MESH.cwfp [--cell-size 0.1] [--radius 0.6] [--json]
//   cw-bench bake [MESH...] [--boxes 1000,10000,100000] [--seed S] [--runs N] [--cell-size 0.3]
//                 [--max-step 0.9] [--json]
//   cw-bench query MESH... [--pairs 10000] [--seed 1] [--radius 0.6] [--cell-size 0.3] [--max-step 0.9]
//                  [--step 0.05] [--repeats 3] [--json]
//
// recast-area: the walkable area clearway reports, eroded by the agent radius, next to the area of
// a Recast navmesh built for the same mesh and agent. Recast runs RecastDemo's "Solo Mesh"
// pipeline with its default settings except the cell size. Its area is measured on the detail mesh
// (triangles projected onto XZ) and on the polygon mesh. Why the numbers differ (the residue is
// what the comparison is for):
//  - Recast voxelises: a cell counts when a walkable triangle overlaps it, so open edges can gain
//    up to a cell; its climb is floor(0.9 / cellHeight 0.2) = 4 cells = 0.8 m.
//  - Before eroding, Recast removes the cells next to drops deeper than the climb (ledges) and a
//    wall's own cells, so axis-aligned edges erode by radius + one cell.
//  - It erodes by ceil(radius / cs) cells with a 2-3 chamfer distance, which overestimates
//    diagonal distances (by up to 6%): 45-degree walls erode by less than the radius.
//  - It drops regions under regionMinSize^2 cells and simplifies contours by up to edgeMaxError
//    cells; clearway keeps every piece, exact to its epsilon.
// The radius-0 Recast build separates the voxelisation/filter part from the erosion part.
//
// bake: CPU time (getrusage user + sys) of the whole bake, per stage, and asset bytes.
//  - Per mesh: clearway's cw-bake pipeline (bake::bakeLevel: mesh -> footprint -> roadmap ->
//    bytes; no file written) next to Recast's solo-mesh bake of the same OBJ (load + RecastDemo's
//    handleBuild with its defaults, Detour navmesh data included). Target: <= 0.5x Recast.
//  - Per generated box level (bake::randomBoxesFootprint): buildRoadmap + serializeRoadmap next
//    to CGAL's bare Segment_Delaunay_graph_2 build on the same walls, and peak memory. Targets:
//    <= 1.3x the bare build, <= 1.5 KiB per wall segment.
// Every measurement runs in a fresh process (this executable re-run with the hidden `child`
// subcommand), so its peak RSS (ru_maxrss from wait4) is its own and no run warms the next.
// The library's stage clocks are wall time, which a busy machine inflates: stage CPU times come
// from a second pass through the same public steps (the total is pass 1, the real pipeline).
//
// query: clearway's findPath next to Detour on the same random start/goal pairs, at preferred
// clearance = radius and = 2x radius (issue 4, Benchmark). Both engines get the same triangles in
// the same local frame (the OBJ shifted by clearway's origin before the float conversion). A pair
// counts when both its points have clearance >= radius on their layer and lie on Detour's mesh,
// and both engines find a complete path; every rejected draw is counted by reason. Paths are
// measured with bake::measurePath against the solid walls (see runQueryMesh).
//
// Exit codes: 0 ok, 2 bad input, 3 Recast or a bake failed, 4 I/O (as clearway::bake::exitCodeFor).
// A missed target is reported ("miss"), not an error.
#include <clearway/bake_cli.h>
#include <clearway/runtime.h>

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace bake = clearway::bake;

namespace {

// ---------------------------------------------------------------------------------------------
// Recast (the one build both subcommands use)

// Y-up triangle soup, as Recast wants it.
struct ObjMesh {
    std::vector<float> verts; // x, y, z per vertex
    std::vector<int> tris;    // 3 per triangle
    int vertexCount() const { return static_cast<int>(verts.size() / 3); }
    int triangleCount() const { return static_cast<int>(tris.size() / 3); }
};

// Minimal OBJ reader: `v` and `f` lines only; n-gons are fan-triangulated; `v/vt/vn`, `v//vn`
// and negative (relative) indices are accepted. Everything else (vt, vn, o, g, usemtl) is ignored.
// `offset` is subtracted in double before the float conversion: Recast gets local coordinates
// (undulating.obj lies 5 km from the origin, where a float keeps only 0.5 mm).
bake::Error loadObj(const std::string& path, ObjMesh* out, bake::Vec3 offset = {}) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {bake::ErrorCode::FileNotFound, path + ": cannot open"};
    std::string line;
    size_t line_no = 0;
    std::vector<int> face;
    while (std::getline(in, line)) {
        ++line_no;
        std::istringstream ss(line);
        std::string tag;
        if (!(ss >> tag)) continue;
        if (tag == "v") {
            double x, y, z;
            if (!(ss >> x >> y >> z))
                return {bake::ErrorCode::ReadFailed, path + ":" + std::to_string(line_no) + ": bad vertex"};
            if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z))
                return {bake::ErrorCode::NonFiniteVertex,
                        path + ":" + std::to_string(line_no) + ": non-finite vertex"};
            out->verts.insert(out->verts.end(),
                              {float(x - offset.x), float(y - offset.y), float(z - offset.z)});
        } else if (tag == "f") {
            face.clear();
            std::string token;
            while (ss >> token) {
                // Only the position index matters: it ends at the first '/'.
                char* end = nullptr;
                const long idx = std::strtol(token.c_str(), &end, 10);
                const long n = out->vertexCount();
                const long resolved = idx < 0 ? n + idx : idx - 1;
                if (end == token.c_str() || idx == 0 || resolved < 0 || resolved >= n)
                    return {bake::ErrorCode::ReadFailed,
                            path + ":" + std::to_string(line_no) + ": bad face index '" + token + "'"};
                face.push_back(static_cast<int>(resolved));
            }
            if (face.size() < 3)
                return {bake::ErrorCode::ReadFailed,
                        path + ":" + std::to_string(line_no) + ": face with < 3 vertices"};
            for (size_t i = 1; i + 1 < face.size(); ++i)
                out->tris.insert(out->tris.end(), {face[0], face[i], face[i + 1]});
        }
    }
    if (in.bad()) return {bake::ErrorCode::ReadFailed, path + ": read error"};
    if (out->tris.empty()) return {bake::ErrorCode::EmptyMesh, path + ": no faces"};
    return {};
}

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

// RAII for Recast's C-style allocations.
template <class T, void (*Free)(T*)> struct Owned {
    T* p;
    explicit Owned(T* ptr) : p(ptr) {}
    ~Owned() { Free(p); }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
};

// Same steps and derived config as RecastDemo's Sample_SoloMesh::handleBuild (watershed regions).
bake::Error buildRecast(const ObjMesh& mesh, const RecastSettings& s, RecastResult* out) {
    const auto start = std::chrono::steady_clock::now();
    RecastLog ctx;
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
    const int nv = mesh.vertexCount(), nt = mesh.triangleCount();
    rcCalcBounds(mesh.verts.data(), nv, cfg.bmin, cfg.bmax);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
    out->walkable_radius_cells = cfg.walkableRadius;
    out->grid_w = cfg.width;
    out->grid_h = cfg.height;

    const auto fail = [](const char* step) {
        return bake::Error{bake::ErrorCode::Internal, std::string("recast: ") + step + " failed"};
    };

    Owned<rcHeightfield, rcFreeHeightField> solid(rcAllocHeightfield());
    if (!solid.p ||
        !rcCreateHeightfield(&ctx, *solid.p, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
        return fail("rcCreateHeightfield");
    std::vector<unsigned char> areas(static_cast<size_t>(nt), 0);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, mesh.verts.data(), nv, mesh.tris.data(), nt,
                            areas.data());
    if (!rcRasterizeTriangles(&ctx, mesh.verts.data(), nv, mesh.tris.data(), areas.data(), nt, *solid.p,
                              cfg.walkableClimb))
        return fail("rcRasterizeTriangles");
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid.p);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid.p);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid.p);

    Owned<rcCompactHeightfield, rcFreeCompactHeightfield> chf(rcAllocCompactHeightfield());
    if (!chf.p || !rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid.p, *chf.p))
        return fail("rcBuildCompactHeightfield");
    if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf.p)) return fail("rcErodeWalkableArea");
    if (!rcBuildDistanceField(&ctx, *chf.p)) return fail("rcBuildDistanceField");
    if (!rcBuildRegions(&ctx, *chf.p, 0, cfg.minRegionArea, cfg.mergeRegionArea))
        return fail("rcBuildRegions");

    Owned<rcContourSet, rcFreeContourSet> cset(rcAllocContourSet());
    if (!cset.p || !rcBuildContours(&ctx, *chf.p, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset.p))
        return fail("rcBuildContours");
    Owned<rcPolyMesh, rcFreePolyMesh> pmesh(rcAllocPolyMesh());
    if (!pmesh.p || !rcBuildPolyMesh(&ctx, *cset.p, cfg.maxVertsPerPoly, *pmesh.p))
        return fail("rcBuildPolyMesh");
    Owned<rcPolyMeshDetail, rcFreePolyMeshDetail> dmesh(rcAllocPolyMeshDetail());
    if (!dmesh.p || !rcBuildPolyMeshDetail(&ctx, *pmesh.p, *chf.p, cfg.detailSampleDist,
                                           cfg.detailSampleMaxError, *dmesh.p))
        return fail("rcBuildPolyMeshDetail");

    if (s.detour) {
        // RecastDemo: walkable polygons get area "ground" and flag "walk", then one Detour tile.
        rcPolyMesh& pm = *pmesh.p;
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
        params.detailMeshes = dmesh.p->meshes;
        params.detailVerts = dmesh.p->verts;
        params.detailVertsCount = dmesh.p->nverts;
        params.detailTris = dmesh.p->tris;
        params.detailTriCount = dmesh.p->ntris;
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
        if (!dtCreateNavMeshData(&params, &data, &size)) return fail("dtCreateNavMeshData");
        dtNavMesh* nav = dtAllocNavMesh();
        if (!nav) {
            dtFree(data);
            return fail("dtAllocNavMesh");
        }
        out->navmesh.reset(nav, dtFreeNavMesh); // owns `data` from here (DT_TILE_FREE_DATA)
        if (dtStatusFailed(nav->init(data, size, DT_TILE_FREE_DATA))) return fail("dtNavMesh::init");
        out->navmesh_bytes = static_cast<size_t>(size);
    }
    out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // Polygon mesh: vertices are grid coordinates; area from the shoelace in XZ.
    const rcPolyMesh& pm = *pmesh.p;
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

    // Detail mesh: per sub-mesh, triangles index into that sub-mesh's vertices.
    const rcPolyMeshDetail& dm = *dmesh.p;
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
    return {};
}

// ---------------------------------------------------------------------------------------------
// Output helpers

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\', out += c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else
            out += c;
    }
    return out + "\"";
}

// JSON has no NaN: a number, or null when it was not measured.
std::string jsonNumber(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", *v);
    return buf;
}

std::string show(std::optional<double> v, const char* fmt = "%.3f") {
    if (!v) return "-";
    if (!std::isfinite(*v)) return "NaN";
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, *v);
    return buf;
}

void setupLogger() {
    // Logs go to stderr: stdout carries only the table or the JSON object.
    spdlog::set_default_logger(spdlog::stderr_color_mt("cw-bench"));
    spdlog::set_pattern("%n: %^%l%$: %v");
}

// ---------------------------------------------------------------------------------------------
// recast-area

struct AreaArgs {
    std::string mesh_path, footprint_path;
    double cell_size = 0.1, radius = 0.6;
    bool json = false;
};

int runRecastArea(const AreaArgs& args) {
    RecastSettings settings;
    settings.cell_size = static_cast<float>(args.cell_size);
    settings.agent_radius = static_cast<float>(args.radius);
    const double cell_size = args.cell_size, radius = args.radius;
    const std::string& mesh_path = args.mesh_path;
    const std::string& footprint_path = args.footprint_path;

    ObjMesh mesh;
    if (bake::Error err = loadObj(mesh_path, &mesh)) {
        spdlog::error("{}", err.message);
        return bake::exitCodeFor(err);
    }

    // Load the footprint first: a bad asset should fail before the slow Recast build.
    std::optional<double> cw_area, cw_eroded, cw_seconds;
    size_t cw_layers = 0;
    if (!footprint_path.empty()) {
        bake::Footprint fp;
        if (bake::Error err = bake::readFootprintFile(footprint_path, &fp)) {
            spdlog::error("{}", err.message);
            return bake::exitCodeFor(err);
        }
        double area = 0;
        for (const bake::FootprintLayer& layer : fp.layers)
            area += layer.area;
        cw_area = area;
        cw_layers = fp.layers.size();
        const auto start = std::chrono::steady_clock::now();
        cw_eroded = bake::erodedArea(fp, radius);
        cw_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!std::isfinite(*cw_eroded)) spdlog::warn("{}: erosion failed (NaN)", footprint_path);
    }

    RecastResult rc, rc0;
    if (bake::Error err = buildRecast(mesh, settings, &rc)) {
        spdlog::error("{}: {}", mesh_path, err.message);
        return bake::exitCodeFor(err);
    }
    // Radius 0 separates the voxelisation/filter part of the difference from the erosion part.
    RecastSettings unEroded = settings;
    unEroded.agent_radius = 0;
    if (bake::Error err = buildRecast(mesh, unEroded, &rc0)) {
        spdlog::error("{}: {}", mesh_path, err.message);
        return bake::exitCodeFor(err);
    }

    std::optional<double> diff;
    if (cw_eroded && std::isfinite(*cw_eroded) && *cw_eroded > 0)
        diff = (rc.detail_area - *cw_eroded) / *cw_eroded * 100.0;

    if (args.json) {
        std::printf(
            "{\"mesh\":%s,\"triangles\":%d,\"cell_size\":%s,\"radius\":%s,\"walkable_radius_cells\":%d,"
            "\"recast_detail_area\":%s,\"recast_poly_area\":%s,\"recast_polys\":%d,\"recast_seconds\":%s,"
            "\"recast_uneroded_area\":%s,"
            "\"clearway_layers\":%zu,\"clearway_area\":%s,\"clearway_eroded_area\":%s,"
            "\"clearway_erode_seconds\":%s,\"difference_percent\":%s}\n",
            jsonString(mesh_path).c_str(), mesh.triangleCount(), jsonNumber(cell_size).c_str(),
            jsonNumber(radius).c_str(), rc.walkable_radius_cells, jsonNumber(rc.detail_area).c_str(),
            jsonNumber(rc.poly_area).c_str(), rc.polys, jsonNumber(rc.seconds).c_str(),
            jsonNumber(rc0.detail_area).c_str(), cw_layers, jsonNumber(cw_area).c_str(),
            jsonNumber(cw_eroded).c_str(), jsonNumber(cw_seconds).c_str(), jsonNumber(diff).c_str());
        return 0;
    }
    std::printf("mesh                     %s (%d triangles)\n", mesh_path.c_str(), mesh.triangleCount());
    std::printf("agent radius             %.3f m (Recast: %d cells of %.3f m)\n", radius,
                rc.walkable_radius_cells, cell_size);
    std::printf("recast detail area       %s m^2 (%d triangles)\n", show(rc.detail_area).c_str(),
                rc.detail_tris);
    std::printf("recast polymesh area     %s m^2 (%d polygons)\n", show(rc.poly_area).c_str(), rc.polys);
    std::printf("recast build             %s s (grid %d x %d)\n", show(rc.seconds).c_str(), rc.grid_w,
                rc.grid_h);
    std::printf("recast area, radius 0    %s m^2\n", show(rc0.detail_area).c_str());
    std::printf("clearway walkable area   %s m^2 (%zu layers)\n", show(cw_area).c_str(), cw_layers);
    std::printf("clearway eroded area     %s m^2\n", show(cw_eroded).c_str());
    std::printf("clearway erosion         %s s\n", show(cw_seconds).c_str());
    std::printf("recast vs eroded         %s %%\n", show(diff, "%+.2f").c_str());
    return 0;
}

// ---------------------------------------------------------------------------------------------
// bake: each measurement is a child process that prints one flat JSON object

double cpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// This process's own peak RSS (KiB) since exec: a cross-check of ru_maxrss, which also counts
// the pages a forked child shares with its parent before exec.
double peakRssKib() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr);
    return NAN;
}

struct ChildArgs {
    std::string kind, target;
    uint64_t seed = 1;
    double max_step = 0.9, cell_size = 0.3;
    std::string write; // boxes: also write the asset here (byte comparisons between builds)
};

// CPU seconds per stage. The library's stage clocks are wall time, which other processes on a
// shared machine inflate, so a second pass repeats the same public steps under CPU clocks.
struct StageCpu {
    double import = 0, voronoi = 0, roadmap = 0, write = 0;
};

// voronoi: medialAxis() of every layer, as buildRoadmap's first stage; roadmap: the rest of
// buildRoadmap (its CPU time minus that); write: serializeRoadmap.
bake::Error roadmapStages(const bake::Footprint& fp, const bake::RoadmapOptions& options, StageCpu* out) {
    const double t0 = cpuSeconds();
    {
        std::vector<bake::RoadmapVertex> vertices;
        std::vector<bake::RoadmapEdge> edges;
        for (uint32_t l = 0; l < fp.layers.size(); ++l) {
            size_t sites = 0;
            if (bake::Error e = bake::medialAxis(bake::layerWalls(fp.layers[l]), fp.layers[l].polygons,
                                                 fp.grid_spacing, options, l, &vertices, &edges, &sites))
                return e;
            (void)bake::solidLayerWalls(fp, l);
        }
    }
    const double t1 = cpuSeconds();
    bake::Roadmap rm;
    bake::RoadmapStats stats;
    if (bake::Error e = bake::buildRoadmap(fp, options, &rm, &stats, bake::silentLog())) return e;
    const double t2 = cpuSeconds();
    if (bake::serializeRoadmap(rm).empty()) return {bake::ErrorCode::Internal, "empty roadmap asset"};
    out->voronoi = t1 - t0;
    out->roadmap = std::max(0.0, (t2 - t1) - out->voronoi);
    out->write = cpuSeconds() - t2;
    return {};
}

int runChild(const ChildArgs& args) {
    std::string out;
    char buf[512];
    auto add = [&](const char* key, double v) {
        std::snprintf(buf, sizeof buf, "%s\"%s\":%.9g", out.empty() ? "{" : ",", key, v);
        out += buf;
    };
    auto stages = [&](const StageCpu& s) {
        if (args.kind == "mesh") add("import", s.import);
        add("voronoi", s.voronoi);
        add("roadmap", s.roadmap);
        add("write", s.write);
    };
    auto failed = [](const bake::Error& e) {
        spdlog::error("{}", e.message);
        return bake::exitCodeFor(e);
    };
    if (args.kind == "mesh") {
        // Pass 1, the number that counts: the cw-bake pipeline itself (no file written).
        bake::RoadmapRequest request;
        request.input_path = args.target;
        request.import_options.max_step = args.max_step;
        // One thread, like Recast's build: CPU seconds then count work, not idle workers spinning.
        request.import_options.threads = 1;
        request.roadmap_options.threads = 1;
        bake::RoadmapResult r;
        const double cpu0 = cpuSeconds(), wall0 = wallSeconds();
        if (bake::Error e = bake::bakeLevel(request, &r, bake::silentLog())) return failed(e);
        add("cpu", cpuSeconds() - cpu0);
        add("wall", wallSeconds() - wall0);
        add("bytes", double(r.bytes));
        add("layers", double(r.stats.layers));
        add("walls", double(r.stats.walls));
        add("vertices", double(r.stats.vertices));
        add("edges", double(r.stats.edges));
        add("import_wall", r.seconds_import);
        add("voronoi_wall", r.stats.seconds_voronoi);
        add("roadmap_wall", r.stats.seconds_roadmap);
        add("write_wall", r.seconds_write);
        // Pass 2: the same steps as bakeLevel, one CPU clock per stage.
        StageCpu s;
        const double i0 = cpuSeconds();
        bake::Mesh mesh;
        bake::Footprint built, fp;
        if (bake::Error e =
                bake::loadMesh(request.input_path, request.import_options, &mesh, bake::silentLog()))
            return failed(e);
        if (bake::Error e = bake::buildFootprint(mesh, request.import_options, &built, bake::silentLog()))
            return failed(e);
        if (bake::Error e =
                bake::readFootprintBytes(bake::serializeFootprint(built), request.input_path, &fp))
            return failed(e);
        s.import = cpuSeconds() - i0;
        if (bake::Error e = roadmapStages(fp, request.roadmap_options, &s)) return failed(e);
        stages(s);
        // CGAL's bare segment Voronoi build of every layer's walls, as for the box levels: the
        // floor of the voronoi stage, which no bake that builds this diagram can go below.
        double sdg = 0;
        size_t sdg_walls = 0;
        for (const bake::FootprintLayer& layer : fp.layers) {
            const std::vector<bake::WallSegment> segments = bake::layerWalls(layer);
            size_t sites = 0;
            sdg += bake::bareSegmentDelaunaySeconds(segments, fp.grid_spacing, &sites);
            sdg_walls += sites;
        }
        add("sdg", sdg);
        add("sdg_walls", double(sdg_walls));
    } else if (args.kind == "recast") {
        RecastSettings settings;
        settings.cell_size = static_cast<float>(args.cell_size);
        settings.detour = true;
        const double cpu0 = cpuSeconds(), wall0 = wallSeconds();
        ObjMesh mesh;
        if (bake::Error e = loadObj(args.target, &mesh)) return failed(e);
        const double cpu1 = cpuSeconds();
        RecastResult rc;
        if (bake::Error e = buildRecast(mesh, settings, &rc)) {
            spdlog::error("{}: {}", args.target, e.message);
            return bake::exitCodeFor(e);
        }
        const double cpu2 = cpuSeconds(), wall2 = wallSeconds();
        add("cpu", cpu2 - cpu0);
        add("wall", wall2 - wall0);
        add("load_cpu", cpu1 - cpu0);
        add("build_cpu", cpu2 - cpu1);
        add("build_wall", rc.seconds);
        add("bytes", double(rc.navmesh_bytes));
        add("polys", rc.polys);
        add("triangles", mesh.triangleCount());
    } else if (args.kind == "boxes" || args.kind == "sdg") {
        const size_t walls = std::strtoull(args.target.c_str(), nullptr, 10);
        const double gen0 = cpuSeconds();
        const bake::Footprint fp = bake::randomBoxesFootprint(walls, args.seed);
        add("generate_cpu", cpuSeconds() - gen0);
        if (args.kind == "sdg") {
            const std::vector<bake::WallSegment> segments = bake::layerWalls(fp.layers[0]);
            size_t sites = 0;
            const double wall0 = wallSeconds();
            add("cpu", bake::bareSegmentDelaunaySeconds(segments, fp.grid_spacing, &sites));
            add("wall", wallSeconds() - wall0);
            add("walls", double(segments.size()));
            add("sites", double(sites));
            if (sites != segments.size()) {
                spdlog::error("{}: CGAL kept {} of {} walls", fp.source_name, sites, segments.size());
                return 3;
            }
        } else {
            // Pass 1: the whole roadmap bake of the footprint (what cw-roadmap does after reading).
            const bake::RoadmapOptions options = bake::defaultRoadmapOptions();
            const double cpu0 = cpuSeconds(), wall0 = wallSeconds();
            size_t bytes = 0;
            bake::RoadmapStats stats;
            {
                bake::Roadmap rm;
                if (bake::Error e = bake::buildRoadmap(fp, options, &rm, &stats, bake::silentLog()))
                    return failed(e);
                const std::vector<uint8_t> asset = bake::serializeRoadmap(rm);
                bytes = asset.size();
                if (!args.write.empty()) {
                    std::FILE* f = std::fopen(args.write.c_str(), "wb");
                    if (!f || std::fwrite(asset.data(), 1, asset.size(), f) != asset.size() ||
                        std::fclose(f) != 0) {
                        spdlog::error("{}: cannot write the asset", args.write);
                        return 1;
                    }
                }
            }
            add("cpu", cpuSeconds() - cpu0);
            add("wall", wallSeconds() - wall0);
            // The bake's own peak: pass 2 below runs in the heap pass 1 left behind, which can
            // peak higher than a bake in a fresh process does.
            add("bake_hwm_kib", peakRssKib());
            add("bytes", double(bytes));
            add("walls", double(stats.walls));
            add("vertices", double(stats.vertices));
            add("edges", double(stats.edges));
            add("voronoi_wall", stats.seconds_voronoi);
            add("roadmap_wall", stats.seconds_roadmap);
            // Pass 2: CPU per stage.
            StageCpu s;
            if (bake::Error e = roadmapStages(fp, options, &s)) return failed(e);
            stages(s);
        }
    } else if (args.kind != "idle") {
        spdlog::error("unknown child kind '{}'", args.kind);
        return 2;
    }
    add("hwm_kib", peakRssKib());
    std::printf("%s}\n", out.c_str());
    return 0;
}

struct ChildRun {
    int exit_code = 0;     // 0 ok; otherwise the child's exit code (or 3 if it crashed)
    std::string json;      // the child's one JSON object
    double maxrss_kib = 0; // ru_maxrss of the child
};

// Re-runs this executable as `cw-bench child ...` and collects its output and peak memory.
ChildRun spawnChild(const std::vector<std::string>& args) {
    ChildRun run;
    int fd[2];
    if (pipe(fd) != 0) return {4, "", 0};
    const pid_t pid = fork();
    if (pid < 0) return {4, "", 0};
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        std::vector<char*> argv;
        std::string self = "cw-bench";
        argv.push_back(self.data());
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv("/proc/self/exe", argv.data());
        _exit(4);
    }
    close(fd[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0)
        run.json.append(buf, size_t(n));
    close(fd[0]);
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
    run.maxrss_kib = double(ru.ru_maxrss); // KiB on Linux
    while (!run.json.empty() && (run.json.back() == '\n' || run.json.back() == '\r'))
        run.json.pop_back();
    return run;
}

// Value of "key" in a flat JSON object of numbers (the children's output); NaN when absent.
double field(const std::string& json, const char* key) {
    const std::string needle = std::string("\"") + key + "\":";
    const size_t at = json.find(needle);
    if (at == std::string::npos) return NAN;
    return std::strtod(json.c_str() + at + needle.size(), nullptr);
}

// N runs of one measurement. Every field is reported as its median over the runs (a shared
// machine makes single runs noisy), peak memory as the largest.
struct Measurement {
    int exit_code = 0;
    std::string json;      // per-field medians, as one flat JSON object
    double cpu = NAN;      // median CPU seconds
    double maxrss_kib = 0; // max over runs
    double peak_kib = 0;   // max over runs of the child's own peak (bake_hwm_kib, else hwm_kib)
    double at(const char* key) const { return field(json, key); }
};

Measurement measure(const std::vector<std::string>& args, int runs) {
    Measurement m;
    std::vector<std::string> outs;
    for (int i = 0; i < runs; ++i) {
        ChildRun r = spawnChild(args);
        if (r.exit_code != 0) {
            m.exit_code = r.exit_code;
            return m;
        }
        m.maxrss_kib = std::max(m.maxrss_kib, r.maxrss_kib);
        const double bake_hwm = field(r.json, "bake_hwm_kib");
        m.peak_kib = std::max(m.peak_kib, std::isnan(bake_hwm) ? field(r.json, "hwm_kib") : bake_hwm);
        outs.push_back(std::move(r.json));
    }
    // Keys in the order the child printed them.
    const std::string& first = outs.front();
    for (size_t at = first.find('"'); at != std::string::npos; at = first.find('"', first.find(',', at))) {
        const size_t end = first.find('"', at + 1);
        const std::string key = first.substr(at + 1, end - at - 1);
        std::vector<double> values;
        for (const std::string& o : outs)
            values.push_back(field(o, key.c_str()));
        std::sort(values.begin(), values.end());
        const size_t n = values.size();
        const double median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
        m.json += (m.json.empty() ? "{" : ",") + jsonString(key) + ":" + jsonNumber(median);
        if (first.find(',', at) == std::string::npos) break;
    }
    m.json += "}";
    m.cpu = m.at("cpu");
    return m;
}

struct BenchArgs {
    std::vector<std::string> meshes;
    std::vector<size_t> boxes{1000, 10000, 100000};
    uint64_t seed = 1;
    int runs = 3;
    double cell_size = 0.3, max_step = 0.9;
    bool json = false;
};

constexpr double kRecastTarget = 0.5, kSdgTarget = 1.3, kKibTarget = 1.5;

const char* verdict(double value, double target) {
    return std::isfinite(value) ? (value <= target ? "ok" : "miss") : "-";
}

std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const size_t dot = name.find_last_of('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

int runBake(const BenchArgs& args) {
    const std::string seed = std::to_string(args.seed);
    char max_step[32], cell_size[32];
    std::snprintf(max_step, sizeof max_step, "%.17g", args.max_step);
    std::snprintf(cell_size, sizeof cell_size, "%.17g", args.cell_size);
    int status = 0;
    auto note = [&](const Measurement& m, const std::string& what) {
        if (m.exit_code == 0) return true;
        spdlog::error("{} failed (exit {})", what, m.exit_code);
        if (status == 0) status = m.exit_code;
        return false;
    };

    // The process floor (libraries, runtime): subtracted to show what the bake itself holds.
    const Measurement idle = measure({"child", "idle"}, 1);
    note(idle, "idle process");

    struct MeshRow {
        std::string name;
        Measurement cw, rc;
        double ratio = NAN, sdg_ratio = NAN;
    };
    std::vector<MeshRow> mesh_rows;
    for (const std::string& mesh : args.meshes) {
        MeshRow row;
        row.name = baseName(mesh);
        spdlog::info("{}: clearway bake x{}", row.name, args.runs);
        row.cw = measure({"child", "mesh", mesh, "--max-step", max_step}, args.runs);
        note(row.cw, mesh + ": clearway bake");
        spdlog::info("{}: Recast solo-mesh bake x{}", row.name, args.runs);
        row.rc = measure({"child", "recast", mesh, "--cell-size", cell_size}, args.runs);
        note(row.rc, mesh + ": Recast bake");
        row.ratio = row.cw.cpu / row.rc.cpu;
        row.sdg_ratio = row.cw.at("sdg") / row.rc.cpu;
        mesh_rows.push_back(std::move(row));
    }

    struct BoxRow {
        size_t walls = 0;
        Measurement cw, sdg;
        double ratio = NAN, kib_per_wall = NAN, net_kib_per_wall = NAN, sdg_net_kib_per_wall = NAN;
        double marginal_kib_per_wall = NAN, sdg_marginal_kib_per_wall = NAN;
    };
    std::vector<BoxRow> box_rows;
    // The same work on the smallest level (one square room, 4 walls): the code, library and
    // allocator pages any bake touches, which do not grow with the level. Memory above it is what
    // each further wall costs.
    Measurement floor_bake, floor_sdg;
    if (!args.boxes.empty()) {
        floor_bake = measure({"child", "boxes", "4", "--seed", seed}, 1);
        note(floor_bake, "boxes 4: bake");
        floor_sdg = measure({"child", "sdg", "4", "--seed", seed}, 1);
        note(floor_sdg, "boxes 4: bare CGAL build");
    }
    for (size_t walls : args.boxes) {
        BoxRow row;
        row.walls = walls;
        const std::string n = std::to_string(walls);
        spdlog::info("boxes {}: roadmap bake x{}", walls, args.runs);
        row.cw = measure({"child", "boxes", n, "--seed", seed}, args.runs);
        note(row.cw, "boxes " + n + ": bake");
        spdlog::info("boxes {}: bare CGAL Segment_Delaunay_graph_2 x{}", walls, args.runs);
        row.sdg = measure({"child", "sdg", n, "--seed", seed}, args.runs);
        note(row.sdg, "boxes " + n + ": bare CGAL build");
        row.ratio = row.cw.cpu / row.sdg.cpu;
        const double segs = row.cw.at("walls");
        if (row.cw.exit_code == 0 && segs > 0) {
            // VmHWM of each child (the bake's after pass 1), the idle process's likewise.
            row.kib_per_wall = row.cw.peak_kib / segs;
            row.net_kib_per_wall = (row.cw.peak_kib - idle.peak_kib) / segs;
            if (row.sdg.exit_code == 0) row.sdg_net_kib_per_wall = (row.sdg.peak_kib - idle.peak_kib) / segs;
            if (floor_bake.exit_code == 0)
                row.marginal_kib_per_wall = (row.cw.peak_kib - floor_bake.peak_kib) / (segs - 4);
            if (row.sdg.exit_code == 0 && floor_sdg.exit_code == 0)
                row.sdg_marginal_kib_per_wall = (row.sdg.peak_kib - floor_sdg.peak_kib) / (segs - 4);
        }
        box_rows.push_back(std::move(row));
    }

    auto obj = [](const Measurement& m) { return m.exit_code == 0 ? m.json : std::string("null"); };
    if (args.json) {
        std::printf("{\"runs\":%d,\"seed\":%llu,\"recast_cell_size\":%s,\"max_step\":%s,\"idle_rss_kib\":%s,"
                    "\"targets\":{\"recast_ratio\":%g,\"sdg_ratio\":%g,\"kib_per_wall\":%g},\"meshes\":[",
                    args.runs, static_cast<unsigned long long>(args.seed), jsonNumber(args.cell_size).c_str(),
                    jsonNumber(args.max_step).c_str(), jsonNumber(idle.maxrss_kib).c_str(), kRecastTarget,
                    kSdgTarget, kKibTarget);
        for (size_t i = 0; i < mesh_rows.size(); ++i) {
            const MeshRow& r = mesh_rows[i];
            std::printf("%s{\"mesh\":%s,\"clearway\":%s,\"clearway_rss_kib\":%s,\"recast\":%s,\"ratio\":%s,"
                        "\"bare_sdg_ratio\":%s}",
                        i ? "," : "", jsonString(r.name).c_str(), obj(r.cw).c_str(),
                        jsonNumber(r.cw.maxrss_kib).c_str(), obj(r.rc).c_str(), jsonNumber(r.ratio).c_str(),
                        jsonNumber(r.sdg_ratio).c_str());
        }
        std::printf("],\"boxes\":[");
        for (size_t i = 0; i < box_rows.size(); ++i) {
            const BoxRow& r = box_rows[i];
            std::printf("%s{\"walls\":%zu,\"bake\":%s,\"bare_sdg\":%s,\"ratio\":%s,\"peak_rss_kib\":%s,"
                        "\"bare_sdg_peak_rss_kib\":%s,\"kib_per_wall\":%s,\"net_kib_per_wall\":%s,"
                        "\"bare_sdg_net_kib_per_wall\":%s,\"marginal_kib_per_wall\":%s,"
                        "\"bare_sdg_marginal_kib_per_wall\":%s}",
                        i ? "," : "", r.walls, obj(r.cw).c_str(), obj(r.sdg).c_str(),
                        jsonNumber(r.ratio).c_str(), jsonNumber(r.cw.peak_kib).c_str(),
                        jsonNumber(r.sdg.peak_kib).c_str(), jsonNumber(r.kib_per_wall).c_str(),
                        jsonNumber(r.net_kib_per_wall).c_str(), jsonNumber(r.sdg_net_kib_per_wall).c_str(),
                        jsonNumber(r.marginal_kib_per_wall).c_str(),
                        jsonNumber(r.sdg_marginal_kib_per_wall).c_str());
        }
        std::printf("]}\n");
        return status;
    }

    auto num = [](double v, const char* fmt) {
        return show(std::isfinite(v) ? std::optional<double>(v) : std::nullopt, fmt);
    };
    if (!mesh_rows.empty()) {
        std::printf(
            "| mesh | triangles | clearway CPU s | import s | voronoi s | roadmap s | write s | asset bytes "
            "| Recast CPU s | Recast navmesh bytes | clearway / Recast | ≤ %.1f× | walls | bare CGAL SDG CPU "
            "s "
            "| bare SDG / Recast |\n",
            kRecastTarget);
        std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
        for (const MeshRow& r : mesh_rows) {
            std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                        r.name.c_str(), num(r.rc.at("triangles"), "%.0f").c_str(),
                        num(r.cw.cpu, "%.3f").c_str(), num(r.cw.at("import"), "%.3f").c_str(),
                        num(r.cw.at("voronoi"), "%.3f").c_str(), num(r.cw.at("roadmap"), "%.3f").c_str(),
                        num(r.cw.at("write"), "%.3f").c_str(), num(r.cw.at("bytes"), "%.0f").c_str(),
                        num(r.rc.cpu, "%.3f").c_str(), num(r.rc.at("bytes"), "%.0f").c_str(),
                        num(r.ratio, "%.1f×").c_str(), verdict(r.ratio, kRecastTarget),
                        num(r.cw.at("sdg_walls"), "%.0f").c_str(), num(r.cw.at("sdg"), "%.3f").c_str(),
                        num(r.sdg_ratio, "%.2f×").c_str());
        }
        std::printf("\n");
    }
    if (!box_rows.empty()) {
        std::printf(
            "| walls | bake CPU s | voronoi s | roadmap s | write s | bare CGAL SDG CPU s | bake / "
            "bare | ≤ %.1f× "
            "| peak RSS MiB | KiB / wall | KiB / wall above idle | ≤ %.1f KiB | bare SDG KiB / wall "
            "above idle | KiB / wall above a 4-wall bake | bare SDG KiB / wall above a 4-wall build |\n",
            kSdgTarget, kKibTarget);
        std::printf("|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---:|\n");
        for (const BoxRow& r : box_rows) {
            std::printf("| %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                        r.walls, num(r.cw.cpu, "%.3f").c_str(), num(r.cw.at("voronoi"), "%.3f").c_str(),
                        num(r.cw.at("roadmap"), "%.3f").c_str(), num(r.cw.at("write"), "%.3f").c_str(),
                        num(r.sdg.cpu, "%.3f").c_str(), num(r.ratio, "%.2f×").c_str(),
                        verdict(r.ratio, kSdgTarget), num(r.cw.peak_kib / 1024, "%.1f").c_str(),
                        num(r.kib_per_wall, "%.2f").c_str(), num(r.net_kib_per_wall, "%.2f").c_str(),
                        verdict(r.net_kib_per_wall, kKibTarget), num(r.sdg_net_kib_per_wall, "%.2f").c_str(),
                        num(r.marginal_kib_per_wall, "%.2f").c_str(),
                        num(r.sdg_marginal_kib_per_wall, "%.2f").c_str());
        }
        std::printf("\n");
    }
    std::printf(
        "CPU = user + sys of the measured work in a fresh process, median of %d run%s; stage columns are CPU "
        "seconds of a second pass through the same steps.\n",
        args.runs, args.runs == 1 ? "" : "s");
    if (!mesh_rows.empty())
        std::printf(
            "Meshes: clearway = cw-bake pipeline (--max-step %g, Recast's climb), asset not written; Recast "
            "= "
            "OBJ load + RecastDemo solo-mesh build (its defaults, cell size %g m) + Detour navmesh data. "
            "Bare CGAL SDG = CGAL's segment Voronoi build of every layer's walls alone (the voronoi "
            "stage's floor).\n",
            args.max_step, args.cell_size);
    if (!box_rows.empty())
        std::printf(
            "Boxes: seed %llu; bake = buildRoadmap + serializeRoadmap of the generated footprint; bare = "
            "CGAL Segment_Delaunay_graph_2 over the same walls, inserted as the bake does. Peak RSS = "
            "VmHWM of the bake process after the bake (before the per-stage pass), largest of the runs; "
            "\"above idle\" subtracts an idle cw-bench process (%.1f MiB); \"above a 4-wall bake\" "
            "subtracts the same work on one square room (%.1f MiB bake, %.1f MiB bare build): the pages "
            "every bake touches whatever its size.\n",
            static_cast<unsigned long long>(args.seed), idle.peak_kib / 1024, floor_bake.peak_kib / 1024,
            floor_sdg.peak_kib / 1024);
    return status;
}

// ---------------------------------------------------------------------------------------------
// query: clearway's findPath next to Detour on the same start/goal pairs (issue 4, Benchmark)

struct QueryArgs {
    std::vector<std::string> meshes;
    size_t pairs = 10000;
    uint64_t seed = 1;
    double radius = 0.6;
    double cell_size = 0.3, max_step = 0.9;
    double step = 0.05; // metrics: clearance sample spacing
    int repeats = 3;    // timed runs per query (the fastest counts)
    bool json = false;
};

// Targets of issue 4: length <= 1.02x Detour's at preferred clearance = radius, <= 1.10x with mean
// clearance >= 2x Detour's at 2x radius; time <= 0.5x Detour's in both.
constexpr double kNearLengthTarget = 1.02, kWideLengthTarget = 1.10, kClearanceTarget = 2.0,
                 kQueryTimeTarget = 0.5;
// RecastDemo's query settings (Sample_TileMesh / NavMeshTesterTool): 2048 nodes, 256 polygons and
// straight-path points, search box half extents (2, 4, 2).
constexpr int kMaxNodes = 2048, kMaxPolys = 256, kMaxStraight = 256;
constexpr float kPickExtents[3] = {2, 4, 2};
// Straight-path buffer of the (untimed) measured paths: large, so none is cut short.
constexpr int kMaxStraightAll = 4096;
constexpr uint32_t kMaxSegments = 4096;
// A sample counts as on Detour's navmesh when a polygon lies under it within this height: half the
// agent height, so never another storey, yet above Recast's height error on steep bumpy ground
// (undulating.obj: its detail mesh, sampled every 1.8 m, sits up to 0.7 m off the surface).
constexpr double kOnNavmeshHeight = 1.0;

// Uniform [0, 1) from 53 bits of mt19937_64, whose sequence the standard fixes (unlike
// std::uniform_real_distribution's): the same seed draws the same pairs everywhere.
struct Rng {
    std::mt19937_64 engine;
    double uniform() { return double(engine() >> 11) * 0x1.0p-53; }
};

// The walkable surface of every layer (local frame): area-weighted random points, and the layer a
// 3D point stands on (the surface triangle under it whose height is closest).
class Surfaces {
  public:
    explicit Surfaces(const bake::Footprint& fp) {
        double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
        double total = 0;
        for (uint32_t l = 0; l < fp.layers.size(); ++l) {
            const bake::FootprintLayer& layer = fp.layers[l];
            for (const bake::SurfaceTriangle& t : layer.surface_triangles) {
                Tri tri{layer.surface_vertices[t.a], layer.surface_vertices[t.b], layer.surface_vertices[t.c],
                        l};
                const double area = 0.5 * std::abs((tri.b.x - tri.a.x) * (tri.c.y - tri.a.y) -
                                                   (tri.b.y - tri.a.y) * (tri.c.x - tri.a.x));
                if (!(area > 0)) continue;
                total += area;
                tris_.push_back(tri);
                cumulative_.push_back(total);
                for (const bake::Vec3& v : {tri.a, tri.b, tri.c}) {
                    x0 = std::min(x0, v.x), y0 = std::min(y0, v.y);
                    x1 = std::max(x1, v.x), y1 = std::max(y1, v.y);
                }
            }
        }
        if (tris_.empty()) return;
        x0_ = x0, y0_ = y0;
        cell_ = std::max(std::sqrt((x1 - x0) * (y1 - y0) / double(tris_.size())), 0.05);
        nx_ = std::max(1, int(std::ceil((x1 - x0) / cell_)));
        ny_ = std::max(1, int(std::ceil((y1 - y0) / cell_)));
        cells_.resize(size_t(nx_) * ny_);
        for (uint32_t i = 0; i < tris_.size(); ++i) {
            const Tri& t = tris_[i];
            const int cx0 = cellX(std::min({t.a.x, t.b.x, t.c.x})),
                      cx1 = cellX(std::max({t.a.x, t.b.x, t.c.x}));
            const int cy0 = cellY(std::min({t.a.y, t.b.y, t.c.y})),
                      cy1 = cellY(std::max({t.a.y, t.b.y, t.c.y}));
            for (int y = cy0; y <= cy1; ++y)
                for (int x = cx0; x <= cx1; ++x)
                    cells_[size_t(y) * nx_ + x].push_back(i);
        }
    }

    bool empty() const { return tris_.empty(); }

    void sample(Rng& rng, bake::Vec3* p, uint32_t* layer) const {
        const double pick = rng.uniform() * cumulative_.back();
        const size_t i = std::min(
            size_t(std::upper_bound(cumulative_.begin(), cumulative_.end(), pick) - cumulative_.begin()),
            tris_.size() - 1);
        const Tri& t = tris_[i];
        const double r1 = std::sqrt(rng.uniform()), r2 = rng.uniform();
        const double wa = 1 - r1, wb = r1 * (1 - r2), wc = r1 * r2;
        *p = {wa * t.a.x + wb * t.b.x + wc * t.c.x, wa * t.a.y + wb * t.b.y + wc * t.c.y,
              wa * t.a.z + wb * t.b.z + wc * t.c.z};
        *layer = t.layer;
    }

    bool locate(bake::Vec3 p, uint32_t* layer) const {
        if (tris_.empty()) return false;
        double best = INFINITY;
        for (uint32_t i : cells_[size_t(cellY(p.y)) * nx_ + cellX(p.x)]) {
            const Tri& t = tris_[i];
            // Barycentric coordinates; a small negative tolerance keeps points on shared edges.
            const double d = (t.b.y - t.c.y) * (t.a.x - t.c.x) + (t.c.x - t.b.x) * (t.a.y - t.c.y);
            const double u = ((t.b.y - t.c.y) * (p.x - t.c.x) + (t.c.x - t.b.x) * (p.y - t.c.y)) / d;
            const double v = ((t.c.y - t.a.y) * (p.x - t.c.x) + (t.a.x - t.c.x) * (p.y - t.c.y)) / d;
            const double w = 1 - u - v;
            if (u < -1e-6 || v < -1e-6 || w < -1e-6) continue;
            const double dz = std::abs(u * t.a.z + v * t.b.z + w * t.c.z - p.z);
            if (dz < best) best = dz, *layer = t.layer;
        }
        return best < INFINITY;
    }

  private:
    struct Tri {
        bake::Vec3 a, b, c;
        uint32_t layer;
    };
    int cellX(double x) const { return std::clamp(int((x - x0_) / cell_), 0, nx_ - 1); }
    int cellY(double y) const { return std::clamp(int((y - y0_) / cell_), 0, ny_ - 1); }
    std::vector<Tri> tris_;
    std::vector<double> cumulative_;
    double x0_ = 0, y0_ = 0, cell_ = 1;
    int nx_ = 1, ny_ = 1;
    std::vector<std::vector<uint32_t>> cells_;
};

// Detour works in the mesh's Y-up frame shifted to clearway's origin: Detour (x, y, z) = clearway
// local (x, -z, y), the inverse of the import's Y-up rotation (no mirror).
void toDetour(const bake::Vec3& local, float* out) {
    out[0] = float(local.x), out[1] = float(local.z), out[2] = float(-local.y);
}
bake::Vec3 fromDetour(const float* d) {
    return {double(d[0]), -double(d[2]), double(d[1])};
}

struct Detour {
    std::shared_ptr<dtNavMesh> nav;
    std::unique_ptr<dtNavMeshQuery, void (*)(dtNavMeshQuery*)> query{nullptr, dtFreeNavMeshQuery};
    dtQueryFilter filter; // RecastDemo: every flag, every area cost 1
    // Per-query buffers (allocated once).
    dtPolyRef polys[kMaxPolys];
    int npolys = 0;
    std::vector<float> straight = std::vector<float>(size_t(kMaxStraightAll) * 3);
    std::vector<unsigned char> flags = std::vector<unsigned char>(kMaxStraightAll);
    std::vector<dtPolyRef> refs = std::vector<dtPolyRef>(kMaxStraightAll);
    int nstraight = 0;

    // What a game does per query: 2x findNearestPoly + findPath + findStraightPath. True when the
    // path reaches the goal's polygon (not a partial result, no buffer ran out).
    bool path(const float* a, const float* b, int straight_options, int max_straight) {
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
};

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(std::ceil(q * double(v.size())) - 1))];
}

double mean(const std::vector<double>& v) {
    return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

struct PathSide {
    std::vector<double> micros;
    std::vector<bake::PathMetrics> metrics;
};

struct QueryPass {
    double preferred = 0;
    size_t clearway_failures = 0; // accepted pairs findPath did not answer at this preferred clearance
    PathSide cw, dt;
    // Over the pairs both answered.
    double cw_mean_us = NAN, cw_p99_us = NAN, dt_mean_us = NAN, dt_p99_us = NAN, time_ratio = NAN;
    double cw_locate_mean_us = NAN; // of cw_mean_us: the two locatePoint calls
    double length_ratio_mean = NAN, length_ratio_p99 = NAN, length_ratio_max = NAN;
    double cw_min_clearance = NAN, cw_mean_clearance = NAN, dt_min_clearance = NAN, dt_mean_clearance = NAN;
    double cw_mean_min_clearance = NAN, dt_mean_min_clearance = NAN, clearance_ratio = NAN;
    size_t cw_discontinuities = 0, dt_discontinuities = 0, cw_paths_with_discontinuity = 0,
           dt_paths_with_discontinuity = 0;
    double cw_max_jump_deg = 0, dt_max_jump_deg = 0;
    double length_target = NAN;
    bool clearance_target = false;
    bool medial = false; // preferred = +inf: the medial-axis path, no targets
};

struct QueryMesh {
    std::string name;
    size_t layers = 0, detour_polys = 0;
    double walkable_area = 0;
    size_t points_drawn = 0, rejected_near_wall = 0, rejected_off_detour = 0;
    size_t rejected_locate = 0; // locatePoint names another layer than the one sampled (or none)
    size_t pairs_drawn = 0, rejected_clearway = 0, rejected_detour = 0, rejected_both = 0;
    // Of rejected_clearway: Detour's path there passes a wall closer than the radius (measured), so
    // refusing is right; the rest are pairs clearway misses although Detour found a clear way.
    size_t rejected_clearway_narrow = 0;
    size_t pairs = 0;
    std::vector<QueryPass> passes;
};

volatile uint64_t g_sink = 0; // results of timed calls nothing else reads

double sinceMicros(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

bake::Error runQueryMesh(const QueryArgs& args, const std::string& mesh_path, QueryMesh* out) {
    out->name = baseName(mesh_path);
    // clearway: the cw-bake pipeline in memory, max step = Recast's climb.
    bake::RoadmapRequest request;
    request.input_path = mesh_path;
    request.import_options.max_step = args.max_step;
    bake::RoadmapResult baked;
    if (bake::Error e = bake::bakeLevel(request, &baked, bake::silentLog())) return e;
    const bake::Footprint& fp = baked.roadmap.footprint;
    out->layers = fp.layers.size();
    for (const bake::FootprintLayer& l : fp.layers)
        out->walkable_area += l.area;
    const std::vector<uint8_t> bytes = bake::serializeRoadmap(baked.roadmap);
    std::vector<uint64_t> asset((bytes.size() + 7) / 8); // 8-byte aligned, as the loader requires
    std::memcpy(asset.data(), bytes.data(), bytes.size());
    clearway::RoadmapView view;
    if (clearway::loadRoadmap(asset.data(), bytes.size(), &view) != clearway::Status::Ok)
        return {bake::ErrorCode::Internal, mesh_path + ": the baked roadmap does not load"};
    size_t scratch_bytes = 0;
    clearway::pathScratchSize(view, &scratch_bytes);
    std::vector<uint64_t> scratch_memory(scratch_bytes / 8 + 1);
    clearway::PathScratch* scratch = nullptr;
    if (clearway::pathScratchInit(view, scratch_memory.data(), scratch_bytes, &scratch) !=
        clearway::Status::Ok)
        return {bake::ErrorCode::Internal, mesh_path + ": pathScratchInit failed"};

    // Detour: the same triangles, shifted by clearway's origin (local coordinates, Y-up).
    ObjMesh obj;
    if (bake::Error e = loadObj(mesh_path, &obj, bake::internalToWorld(fp.origin, request.import_options)))
        return e;
    RecastSettings settings;
    settings.cell_size = float(args.cell_size);
    settings.agent_radius = float(args.radius);
    settings.agent_max_climb = float(args.max_step);
    settings.detour = true;
    RecastResult rc;
    if (bake::Error e = buildRecast(obj, settings, &rc)) return {e.code, mesh_path + ": " + e.message};
    out->detour_polys = size_t(rc.polys);
    Detour dt;
    dt.nav = rc.navmesh;
    dt.query.reset(dtAllocNavMeshQuery());
    if (!dt.query || dtStatusFailed(dt.query->init(dt.nav.get(), kMaxNodes)))
        return {bake::ErrorCode::Internal, mesh_path + ": dtNavMeshQuery::init failed"};

    // Walls: every ring (portals included) for the start/goal test, as findPath checks them; the
    // solid walls (portals are walked through) for the path metrics.
    std::vector<bake::WallGrid> all_walls, solid_walls;
    for (uint32_t l = 0; l < fp.layers.size(); ++l) {
        all_walls.emplace_back(bake::layerWalls(fp.layers[l]));
        solid_walls.emplace_back(bake::solidLayerWalls(fp, l));
    }
    const Surfaces surfaces(fp);
    if (surfaces.empty()) return {bake::ErrorCode::NoWalkableSurface, mesh_path + ": no walkable surface"};

    // Draws, uniform by area over every layer's surface. A point is kept when its clearance (every
    // wall of its layer) is >= radius, locatePoint names the layer it was drawn on, and a Detour
    // polygon lies under it within 1 m of its height (Recast erodes by radius + a cell, so a sample
    // near a wall can fall outside Detour's mesh); a pair is kept when both engines find a complete
    // path between its points (most rejected pairs join parts no walk connects).
    struct Endpoint {
        bake::Vec3 p;
        uint32_t layer;
        float d[3];
    };
    Rng rng{std::mt19937_64(args.seed)};
    auto drawPoint = [&](Endpoint* e) {
        for (;;) {
            ++out->points_drawn;
            surfaces.sample(rng, &e->p, &e->layer);
            if (all_walls[e->layer].distance({e->p.x, e->p.y}) < args.radius) {
                ++out->rejected_near_wall;
                continue;
            }
            clearway::PathEndpoint located{};
            if (clearway::locatePoint(view, scratch, {e->p.x, e->p.y, e->p.z}, args.max_step, &located) !=
                    clearway::Status::Ok ||
                located.layer != e->layer) {
                ++out->rejected_locate;
                continue;
            }
            toDetour(e->p, e->d);
            dtPolyRef ref = 0;
            float nearest[3];
            bool over = false;
            dt.query->findNearestPoly(e->d, kPickExtents, &dt.filter, &ref, nearest, &over);
            if (!ref || !over || std::abs(double(nearest[1]) - double(e->d[1])) > kOnNavmeshHeight) {
                ++out->rejected_off_detour;
                continue;
            }
            return;
        }
    };
    bake::PathMetricsOptions metric_options;
    metric_options.step = args.step;
    // Detour's path between the endpoints, measured. Its pieces are cut every `step` here, each
    // point located on the layer whose surface is nearest its interpolated height: a straight
    // piece can cross from one layer onto another anywhere (not only at its ends).
    std::vector<bake::Vec2> dense;
    std::vector<uint32_t> dense_layers;
    auto detourMetrics = [&](const Endpoint& a, const Endpoint& b) {
        dense.clear();
        dense_layers.clear();
        dt.path(a.d, b.d, 0, kMaxStraightAll);
        uint32_t layer = a.layer;
        for (int k = 0; k < dt.nstraight; ++k) {
            const bake::Vec3 q = fromDetour(&dt.straight[size_t(k) * 3]);
            const bake::Vec3 p = k > 0 ? fromDetour(&dt.straight[size_t(k - 1) * 3]) : q;
            const int n =
                k > 0 ? std::max(1, int(std::ceil(std::hypot(q.x - p.x, q.y - p.y) / args.step))) : 1;
            for (int j = k > 0 ? 1 : 0; j <= n; ++j) {
                const double t = double(j) / n;
                const bake::Vec3 r{p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t, p.z + (q.z - p.z) * t};
                surfaces.locate(r, &layer); // keeps the previous layer where no surface lies under r
                dense.push_back({r.x, r.y});
                dense_layers.push_back(layer);
            }
        }
        return bake::measurePath(dense, dense_layers, solid_walls, metric_options);
    };
    std::vector<std::pair<Endpoint, Endpoint>> pairs;
    std::vector<clearway::PathSegment> segments(kMaxSegments);
    uint32_t count = 0;
    // What a game does per query: the layer of each 3D point (locatePoint), then findPath.
    auto clearwayPath = [&](const Endpoint& a, const Endpoint& b, double preferred) {
        clearway::PathEndpoint from{}, to{};
        if (clearway::locatePoint(view, scratch, {a.p.x, a.p.y, a.p.z}, args.max_step, &from) !=
                clearway::Status::Ok ||
            clearway::locatePoint(view, scratch, {b.p.x, b.p.y, b.p.z}, args.max_step, &to) !=
                clearway::Status::Ok)
            return clearway::Status::NotFound;
        return clearway::findPath(view, scratch, from, to, args.radius, preferred, segments.data(), &count,
                                  kMaxSegments);
    };
    const size_t max_draws = args.pairs * 50 + 1000;
    while (pairs.size() < args.pairs && out->pairs_drawn < max_draws) {
        Endpoint a, b;
        drawPoint(&a);
        drawPoint(&b);
        ++out->pairs_drawn;
        const bool cw_ok = clearwayPath(a, b, args.radius) == clearway::Status::Ok;
        const bool dt_ok = dt.path(a.d, b.d, 0, kMaxStraight);
        if (cw_ok && dt_ok)
            pairs.emplace_back(a, b);
        else if (!cw_ok && !dt_ok)
            ++out->rejected_both;
        else if (!cw_ok) {
            ++out->rejected_clearway;
            const bake::PathMetrics dm = detourMetrics(a, b);
            out->rejected_clearway_narrow += dm.min_clearance < args.radius;
        } else
            ++out->rejected_detour;
    }
    out->pairs = pairs.size();
    if (pairs.size() < args.pairs)
        spdlog::warn("{}: only {} of {} pairs after {} draws", out->name, pairs.size(), args.pairs,
                     out->pairs_drawn);

    // Detour's paths do not depend on the preferred clearance: measured once.
    std::vector<bake::PathMetrics> dt_metrics(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i)
        dt_metrics[i] = detourMetrics(pairs[i].first, pairs[i].second);

    // The two passes, then the medial-axis path itself (preferred = +inf, no shortening):
    // not a target row, but the most clearance any path along the roadmap offers, so it shows how
    // far the clearance target is reachable at all.
    for (const double preferred : {args.radius, 2 * args.radius, double(INFINITY)}) {
        QueryPass pass;
        pass.preferred = preferred;
        pass.medial = std::isinf(preferred);
        std::vector<char> ok(pairs.size(), 0);
        // Timed loops, one engine at a time over every pair (each gets its own warm caches), run
        // `repeats` times; each query keeps its fastest run, so a time slice lost to another
        // process on a shared machine does not land in either engine's tail.
        pass.cw.micros.assign(pairs.size(), INFINITY);
        pass.dt.micros.assign(pairs.size(), INFINITY);
        std::vector<double> locate(pairs.size(), INFINITY);
        for (int r = 0; r < args.repeats; ++r) {
            for (size_t i = 0; i < pairs.size(); ++i) {
                const auto t0 = std::chrono::steady_clock::now();
                const clearway::Status s = clearwayPath(pairs[i].first, pairs[i].second, preferred);
                pass.cw.micros[i] = std::min(pass.cw.micros[i], sinceMicros(t0));
                ok[i] = s == clearway::Status::Ok;
            }
            for (size_t i = 0; i < pairs.size(); ++i) {
                const auto t0 = std::chrono::steady_clock::now();
                dt.path(pairs[i].first.d, pairs[i].second.d, 0, kMaxStraight);
                pass.dt.micros[i] = std::min(pass.dt.micros[i], sinceMicros(t0));
            }
            // The locatePoint share of clearway's time.
            for (size_t i = 0; i < pairs.size(); ++i) {
                const Endpoint &a = pairs[i].first, &b = pairs[i].second;
                clearway::PathEndpoint e{};
                const auto t0 = std::chrono::steady_clock::now();
                clearway::locatePoint(view, scratch, {a.p.x, a.p.y, a.p.z}, args.max_step, &e);
                g_sink = g_sink + e.layer;
                clearway::locatePoint(view, scratch, {b.p.x, b.p.y, b.p.z}, args.max_step, &e);
                g_sink = g_sink + e.layer;
                locate[i] = std::min(locate[i], sinceMicros(t0));
            }
        }
        pass.cw_locate_mean_us = mean(locate);
        // Untimed: clearway's paths again, measured.
        std::vector<double> ratios, cw_means, dt_means, cw_mins, dt_mins;
        std::vector<uint32_t> layers;
        pass.cw_min_clearance = pass.dt_min_clearance = INFINITY;
        size_t worst = SIZE_MAX; // pair with the largest length ratio, logged for a closer look
        double worst_ratio = 0, worst_cw = 0, worst_dt = 0;
        for (size_t i = 0; i < pairs.size(); ++i) {
            if (!ok[i]) {
                ++pass.clearway_failures;
                continue;
            }
            clearwayPath(pairs[i].first, pairs[i].second, preferred);
            const std::vector<bake::Vec2> pts =
                bake::pathPolyline(segments.data(), count, metric_options, &layers);
            const bake::PathMetrics cm = bake::measurePath(pts, layers, solid_walls, metric_options);
            const bake::PathMetrics& dm = dt_metrics[i];
            if (dm.length > 0) {
                ratios.push_back(cm.length / dm.length);
                if (ratios.back() > worst_ratio)
                    worst = i, worst_ratio = ratios.back(), worst_cw = cm.length, worst_dt = dm.length;
            }
            cw_means.push_back(cm.mean_clearance);
            dt_means.push_back(dm.mean_clearance);
            cw_mins.push_back(cm.min_clearance);
            dt_mins.push_back(dm.min_clearance);
            pass.cw_min_clearance = std::min(pass.cw_min_clearance, cm.min_clearance);
            pass.dt_min_clearance = std::min(pass.dt_min_clearance, dm.min_clearance);
            pass.cw_discontinuities += cm.heading_discontinuities;
            pass.dt_discontinuities += dm.heading_discontinuities;
            pass.cw_paths_with_discontinuity += cm.heading_discontinuities > 0;
            pass.dt_paths_with_discontinuity += dm.heading_discontinuities > 0;
            pass.cw_max_jump_deg = std::max(pass.cw_max_jump_deg, cm.max_heading_jump_deg);
            pass.dt_max_jump_deg = std::max(pass.dt_max_jump_deg, dm.max_heading_jump_deg);
        }
        if (worst != SIZE_MAX) {
            const bake::Vec3 &a = pairs[worst].first.p, &b = pairs[worst].second.p;
            spdlog::info(
                "{}: preferred {}: worst length ratio {:.3f}, pair {}: ({:.3f}, {:.3f}, {:.3f}) layer {} -> "
                "({:.3f}, {:.3f}, {:.3f}) layer {} (local coordinates), clearway {:.2f} m, Detour {:.2f} m",
                out->name, preferred, worst_ratio, worst, a.x, a.y, a.z, pairs[worst].first.layer, b.x, b.y,
                b.z, pairs[worst].second.layer, worst_cw, worst_dt);
        }
        pass.cw_mean_us = mean(pass.cw.micros);
        pass.cw_p99_us = percentile(pass.cw.micros, 0.99);
        pass.dt_mean_us = mean(pass.dt.micros);
        pass.dt_p99_us = percentile(pass.dt.micros, 0.99);
        pass.time_ratio = pass.cw_mean_us / pass.dt_mean_us;
        pass.length_ratio_mean = mean(ratios);
        pass.length_ratio_p99 = percentile(ratios, 0.99);
        pass.length_ratio_max = ratios.empty() ? NAN : *std::max_element(ratios.begin(), ratios.end());
        pass.cw_mean_clearance = mean(cw_means);
        pass.dt_mean_clearance = mean(dt_means);
        pass.cw_mean_min_clearance = mean(cw_mins);
        pass.dt_mean_min_clearance = mean(dt_mins);
        pass.clearance_ratio = pass.cw_mean_clearance / pass.dt_mean_clearance;
        const bool wide = preferred > args.radius;
        pass.length_target = pass.medial ? NAN : wide ? kWideLengthTarget : kNearLengthTarget;
        pass.clearance_target = wide && !pass.medial;
        out->passes.push_back(std::move(pass));
    }
    return {};
}

int runQuery(const QueryArgs& args) {
    std::vector<QueryMesh> rows;
    int status = 0;
    for (const std::string& mesh : args.meshes) {
        spdlog::info("{}: bake, Recast + Detour, {} pairs", baseName(mesh), args.pairs);
        QueryMesh row;
        if (bake::Error e = runQueryMesh(args, mesh, &row)) {
            spdlog::error("{}", e.message);
            if (status == 0) status = bake::exitCodeFor(e);
            continue;
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty()) return status; // every mesh failed: the errors say why
    auto n = [](double v) { return jsonNumber(v); };
    if (args.json) {
        std::printf(
            "{\"pairs\":%zu,\"seed\":%llu,\"radius\":%s,\"recast_cell_size\":%s,\"max_step\":%s,"
            "\"metrics_step\":%s,\"repeats\":%d,\"targets\":{\"time_ratio\":%g,\"length_ratio_near\":%g,"
            "\"length_ratio_wide\":%g,\"clearance_ratio_wide\":%g},\"meshes\":[",
            args.pairs, static_cast<unsigned long long>(args.seed), n(args.radius).c_str(),
            n(args.cell_size).c_str(), n(args.max_step).c_str(), n(args.step).c_str(), args.repeats,
            kQueryTimeTarget, kNearLengthTarget, kWideLengthTarget, kClearanceTarget);
        for (size_t i = 0; i < rows.size(); ++i) {
            const QueryMesh& r = rows[i];
            std::printf("%s{\"mesh\":%s,\"layers\":%zu,\"walkable_area\":%s,\"detour_polys\":%zu,"
                        "\"points_drawn\":%zu,\"rejected_near_wall\":%zu,\"rejected_locate\":%zu,\"rejected_"
                        "off_detour\":%zu,"
                        "\"pairs_drawn\":%zu,\"rejected_clearway_only\":%zu,\"rejected_clearway_only_detour_"
                        "narrower\":%zu,"
                        "\"rejected_detour_only\":%zu,"
                        "\"rejected_both\":%zu,\"pairs\":%zu,\"passes\":[",
                        i ? "," : "", jsonString(r.name).c_str(), r.layers, n(r.walkable_area).c_str(),
                        r.detour_polys, r.points_drawn, r.rejected_near_wall, r.rejected_locate,
                        r.rejected_off_detour, r.pairs_drawn, r.rejected_clearway, r.rejected_clearway_narrow,
                        r.rejected_detour, r.rejected_both, r.pairs);
            for (size_t k = 0; k < r.passes.size(); ++k) {
                const QueryPass& p = r.passes[k];
                std::printf(
                    "%s{\"preferred_clearance\":%s,\"medial\":%s,\"clearway_failures\":%zu,\"clearway_mean_"
                    "us\":%s,"
                    "\"clearway_locate_mean_us\":%s,"
                    "\"clearway_p99_us\":%s,\"detour_mean_us\":%s,\"detour_p99_us\":%s,\"time_ratio\":%s,"
                    "\"length_ratio_mean\":%s,\"length_ratio_p99\":%s,\"length_ratio_max\":%s,"
                    "\"clearway_min_clearance\":%s,\"clearway_mean_min_clearance\":%s,"
                    "\"clearway_mean_clearance\":%s,\"detour_min_clearance\":%s,"
                    "\"detour_mean_min_clearance\":%s,\"detour_mean_clearance\":%s,\"clearance_ratio\":%s,"
                    "\"clearway_discontinuities\":%zu,\"clearway_paths_with_discontinuity\":%zu,"
                    "\"clearway_max_jump_deg\":%s,\"detour_discontinuities\":%zu,"
                    "\"detour_paths_with_discontinuity\":%zu,\"detour_max_jump_deg\":%s}",
                    k ? "," : "", n(p.preferred).c_str(), p.medial ? "true" : "false", p.clearway_failures,
                    n(p.cw_mean_us).c_str(), n(p.cw_locate_mean_us).c_str(), n(p.cw_p99_us).c_str(),
                    n(p.dt_mean_us).c_str(), n(p.dt_p99_us).c_str(), n(p.time_ratio).c_str(),
                    n(p.length_ratio_mean).c_str(), n(p.length_ratio_p99).c_str(),
                    n(p.length_ratio_max).c_str(), n(p.cw_min_clearance).c_str(),
                    n(p.cw_mean_min_clearance).c_str(), n(p.cw_mean_clearance).c_str(),
                    n(p.dt_min_clearance).c_str(), n(p.dt_mean_min_clearance).c_str(),
                    n(p.dt_mean_clearance).c_str(), n(p.clearance_ratio).c_str(), p.cw_discontinuities,
                    p.cw_paths_with_discontinuity, n(p.cw_max_jump_deg).c_str(), p.dt_discontinuities,
                    p.dt_paths_with_discontinuity, n(p.dt_max_jump_deg).c_str());
            }
            std::printf("]}");
        }
        std::printf("]}\n");
        return status;
    }

    std::printf(
        "| mesh | layers | Detour polygons | pairs | rejected points: near a wall / other layer located / "
        "off Detour's mesh | rejected pairs: no clearway path (Detour's passes < radius) / no Detour "
        "path / neither |\n|---|---:|---:|---:|---|---|\n");
    for (const QueryMesh& r : rows)
        std::printf("| %s | %zu | %zu | %zu | %zu / %zu / %zu of %zu | %zu (%zu) / %zu / %zu of %zu |\n",
                    r.name.c_str(), r.layers, r.detour_polys, r.pairs, r.rejected_near_wall,
                    r.rejected_locate, r.rejected_off_detour, r.points_drawn, r.rejected_clearway,
                    r.rejected_clearway_narrow, r.rejected_detour, r.rejected_both, r.pairs_drawn);
    std::printf(
        "\n| mesh | preferred | clearway µs mean / p99 | of which locatePoint ×2 | Detour µs mean / p99 | "
        "time ratio | ≤ %.1f× "
        "| length ratio mean / p99 / max | target | min clearance clearway / Detour | mean clearance "
        "clearway / Detour | ratio | target | discontinuities clearway / Detour |\n",
        kQueryTimeTarget);
    std::printf("|---|---:|---:|---:|---:|---:|---|---:|---|---:|---:|---:|---|---:|\n");
    for (const QueryMesh& r : rows)
        for (const QueryPass& p : r.passes) {
            const bool length_ok = p.length_ratio_mean <= p.length_target;
            std::string target = p.medial ? "-"
                                          : std::string(length_ok ? "ok" : "miss") + " (≤ " +
                                                show(p.length_target, "%.2f") + ")";
            std::string clearance_target = "-";
            if (p.clearance_target)
                clearance_target = std::string(p.clearance_ratio >= kClearanceTarget ? "ok" : "miss") +
                                   " (≥ " + show(kClearanceTarget, "%.0f") + "×)";
            std::printf(
                "| %s | %s | %s / %s | %s | %s / %s | %s | %s | %s / %s / %s | %s | %s / %s | %s / %s | %s "
                "| %s | %zu / %zu |\n",
                r.name.c_str(), p.medial ? "∞ (medial path)" : show(p.preferred, "%.2f").c_str(),
                show(p.cw_mean_us, "%.1f").c_str(), show(p.cw_p99_us, "%.1f").c_str(),
                show(p.cw_locate_mean_us, "%.1f").c_str(), show(p.dt_mean_us, "%.1f").c_str(),
                show(p.dt_p99_us, "%.1f").c_str(), show(p.time_ratio, "%.2f×").c_str(),
                verdict(p.time_ratio, kQueryTimeTarget), show(p.length_ratio_mean, "%.3f").c_str(),
                show(p.length_ratio_p99, "%.3f").c_str(), show(p.length_ratio_max, "%.3f").c_str(),
                target.c_str(), show(p.cw_min_clearance, "%.3f").c_str(),
                show(p.dt_min_clearance, "%.3f").c_str(), show(p.cw_mean_clearance, "%.3f").c_str(),
                show(p.dt_mean_clearance, "%.3f").c_str(), show(p.clearance_ratio, "%.2f×").c_str(),
                clearance_target.c_str(), p.cw_discontinuities, p.dt_discontinuities);
            if (p.clearway_failures)
                spdlog::warn("{}: findPath failed on {} accepted pairs at preferred clearance {}", r.name,
                             p.clearway_failures, p.preferred);
        }
    std::printf(
        "\nSeed %llu, agent radius %g m, Recast cell size %g m (RecastDemo defaults otherwise), max step / "
        "climb %g m. Times: per query, the fastest of %d runs, whole query (clearway 2× locatePoint + "
        "findPath, "
        "the locatePoint pair's mean shown apart; Detour 2× "
        "findNearestPoly + findPath + findStraightPath). Clearance and discontinuities: bake::measurePath "
        "against the solid walls, samples every %g m, kinks above %g°.\n",
        static_cast<unsigned long long>(args.seed), args.radius, args.cell_size, args.max_step, args.repeats,
        args.step, bake::PathMetricsOptions{}.discontinuity_deg);
    return status;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"clearway benchmarks, next to Recast where Recast does the same job.\n"
                 "Exit codes: 0 ok, 2 bad input, 3 Recast or bake failure, 4 I/O error."};
    app.require_subcommand(1);

    AreaArgs area;
    CLI::App* area_cmd = app.add_subcommand(
        "recast-area", "Compares clearway's eroded walkable area with a Recast navmesh of the same mesh");
    area_cmd->add_option("mesh", area.mesh_path, "Y-up OBJ mesh (the file cw-import read)")->required();
    area_cmd->add_option("--footprint", area.footprint_path,
                         ".cwfp written by `cw-import MESH -o OUT.cwfp --max-step 0.9`");
    area_cmd->add_option("--cell-size", area.cell_size, "Recast cell size, metres")
        ->check(CLI::Range(0.01, 10.0));
    area_cmd->add_option("--radius", area.radius, "agent radius, metres (Recast agentRadius and the erosion)")
        ->check(CLI::Range(0.0, 100.0));
    area_cmd->add_flag("--json", area.json, "print one JSON object instead of a table");

    BenchArgs bench;
    CLI::App* bake_cmd = app.add_subcommand(
        "bake", "Bake CPU time per stage and asset bytes next to Recast (meshes) and to CGAL's bare segment "
                "Voronoi build (generated box levels), with peak memory");
    bake_cmd->add_option("meshes", bench.meshes, "Y-up OBJ meshes (baked by clearway and by Recast)");
    bake_cmd->add_option("--boxes", bench.boxes, "Wall-segment counts of the generated box levels (0: none)")
        ->delimiter(',')
        ->capture_default_str();
    bake_cmd->add_option("--seed", bench.seed, "Seed of the box levels")->capture_default_str();
    bake_cmd->add_option("--runs", bench.runs, "Runs per measurement (median CPU time is reported)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    bake_cmd->add_option("--cell-size", bench.cell_size, "Recast cell size, metres (RecastDemo default 0.3)")
        ->check(CLI::Range(0.01, 10.0))
        ->capture_default_str();
    bake_cmd->add_option("--max-step", bench.max_step, "clearway max step, metres (Recast's climb is 0.9)")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    bake_cmd->add_flag("--json", bench.json, "print one JSON object instead of markdown tables");

    QueryArgs query;
    CLI::App* query_cmd = app.add_subcommand(
        "query",
        "findPath next to Detour (2x findNearestPoly + findPath + findStraightPath) on the same random "
        "start/goal pairs: time per query, length ratio, clearance, heading discontinuities");
    query_cmd->add_option("meshes", query.meshes, "Y-up OBJ meshes (baked by clearway and by Recast)")
        ->required();
    query_cmd->add_option("--pairs", query.pairs, "start/goal pairs reachable in both, per mesh")
        ->check(CLI::Range(size_t(1), size_t(10000000)))
        ->capture_default_str();
    query_cmd->add_option("--seed", query.seed, "seed of the pairs")->capture_default_str();
    query_cmd->add_option("--radius", query.radius, "agent radius, metres (both engines)")
        ->check(CLI::Range(0.01, 100.0))
        ->capture_default_str();
    query_cmd->add_option("--cell-size", query.cell_size, "Recast cell size, metres (RecastDemo default 0.3)")
        ->check(CLI::Range(0.01, 10.0))
        ->capture_default_str();
    query_cmd->add_option("--max-step", query.max_step, "clearway max step = Recast climb, metres")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    query_cmd->add_option("--step", query.step, "path metrics: clearance sample spacing, metres")
        ->check(CLI::Range(0.001, 10.0))
        ->capture_default_str();
    query_cmd->add_option("--repeats", query.repeats, "timed runs of every query; each keeps its fastest")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    query_cmd->add_flag("--json", query.json, "print one JSON object instead of markdown tables");

    // One measurement in a fresh process (used by `bake`; not for people).
    ChildArgs child;
    CLI::App* child_cmd = app.add_subcommand("child", "one measurement (internal)")->group("");
    child_cmd->add_option("kind", child.kind)->required();
    child_cmd->add_option("target", child.target);
    child_cmd->add_option("--seed", child.seed);
    child_cmd->add_option("--max-step", child.max_step);
    child_cmd->add_option("--cell-size", child.cell_size);
    child_cmd->add_option("--write", child.write);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }
    setupLogger();
    if (area_cmd->parsed()) return runRecastArea(area);
    if (child_cmd->parsed()) return runChild(child);
    if (query_cmd->parsed()) return runQuery(query);
    bench.boxes.erase(std::remove(bench.boxes.begin(), bench.boxes.end(), size_t(0)), bench.boxes.end());
    return runBake(bench);
}
