// cw-recast-compare: the walkable area clearway reports, eroded by the agent radius, next to the
// area of a Recast navmesh built for the same mesh and agent.
//
//   cw-recast-compare MESH.obj --footprint MESH.cwfp [--cell-size 0.1] [--radius 0.6] [--json]
//
// Recast runs RecastDemo's "Solo Mesh" pipeline with its default settings except the cell size.
// Its area is measured on the detail mesh (triangles projected onto XZ) and on the polygon mesh.
// Why the numbers differ (the residue is what the comparison is for):
//  - Recast voxelises: a cell counts when a walkable triangle overlaps it, so open edges can gain
//    up to a cell; its climb is floor(0.9 / cellHeight 0.2) = 4 cells = 0.8 m.
//  - Before eroding, Recast removes the cells next to drops deeper than the climb (ledges) and a
//    wall's own cells, so axis-aligned edges erode by radius + one cell.
//  - It erodes by ceil(radius / cs) cells with a 2-3 chamfer distance, which overestimates
//    diagonal distances (by up to 6%): 45-degree walls erode by less than the radius.
//  - It drops regions under regionMinSize^2 cells and simplifies contours by up to edgeMaxError
//    cells; clearway keeps every piece, exact to its epsilon.
// The radius-0 Recast build separates the voxelisation/filter part from the erosion part.
// Exit codes: 0 ok, 2 bad input, 3 Recast failed, 4 I/O (as clearway::bake::exitCodeFor).
#include "clearway/bake.h"

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <Recast.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace bake = clearway::bake;

namespace {

// Y-up triangle soup, as Recast wants it.
struct ObjMesh {
    std::vector<float> verts; // x, y, z per vertex
    std::vector<int> tris;    // 3 per triangle
    int vertexCount() const { return static_cast<int>(verts.size() / 3); }
    int triangleCount() const { return static_cast<int>(tris.size() / 3); }
};

// Minimal OBJ reader: `v` and `f` lines only; n-gons are fan-triangulated; `v/vt/vn`, `v//vn`
// and negative (relative) indices are accepted. Everything else (vt, vn, o, g, usemtl) is ignored.
bake::Error loadObj(const std::string& path, ObjMesh* out) {
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
            out->verts.insert(out->verts.end(), {float(x), float(y), float(z)});
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
};

struct RecastResult {
    double detail_area = 0; // m^2, detail triangles projected onto XZ
    double poly_area = 0;   // m^2, polygon mesh (XZ)
    int polys = 0, detail_tris = 0, walkable_radius_cells = 0, grid_w = 0, grid_h = 0;
    double seconds = 0;
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

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Compares clearway's eroded walkable area with a Recast navmesh of the same mesh"};
    std::string mesh_path, footprint_path;
    RecastSettings settings;
    double cell_size = 0.1, radius = 0.6;
    bool json = false;
    app.add_option("mesh", mesh_path, "Y-up OBJ mesh (the file cw-import read)")->required();
    app.add_option("--footprint", footprint_path,
                   ".cwfp written by `cw-import MESH -o OUT.cwfp --max-step 0.9`");
    app.add_option("--cell-size", cell_size, "Recast cell size, metres")->check(CLI::Range(0.01, 10.0));
    app.add_option("--radius", radius, "agent radius, metres (Recast agentRadius and the erosion)")
        ->check(CLI::Range(0.0, 100.0));
    app.add_flag("--json", json, "print one JSON object instead of a table");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }
    // Logs go to stderr: stdout carries only the table or the JSON object.
    spdlog::set_default_logger(spdlog::stderr_color_mt("cw-recast-compare"));
    spdlog::set_pattern("%n: %^%l%$: %v");
    settings.cell_size = static_cast<float>(cell_size);
    settings.agent_radius = static_cast<float>(radius);

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

    if (json) {
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
