// cw-bench child: one measurement in a fresh process (its peak RSS is its own and no run warms
// the next), printed as one flat JSON object of numbers that `bake` collects (measure.cpp).
#include "cw_bench.h"
#include "recast_peer.h"

#include "scenes.h"

#include <clearway/preview/json_writer.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace clearway::bench {

namespace {

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

// The child's one flat JSON object of numbers, keys in the order they are added.
class JsonLine {
  public:
    void add(const char* key, double v) {
        out_ += (out_.empty() ? "{" : ",") + preview::jsonString(key) + ":" + preview::jsonNumber(v, 9);
    }
    void addStages(const StageCpu& s, bool with_import) {
        if (with_import) add("import", s.import);
        add("voronoi", s.voronoi);
        add("roadmap", s.roadmap);
        add("write", s.write);
    }
    const std::string& text() const { return out_; }

  private:
    std::string out_;
};

int failed(const bake::Error& e) {
    spdlog::error("{}", e.message);
    return bake::exitCodeFor(e);
}

// A mesh through the cw-bake pipeline (pass 1, the number that counts; no file written), then the
// same steps under one CPU clock per stage (pass 2) and CGAL's bare build of every layer's walls.
int measureMesh(const ChildArgs& args, JsonLine& out) {
    auto add = [&out](const char* key, double v) { out.add(key, v); };
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
    if (bake::Error e = bake::loadMesh(request.input_path, request.import_options, &mesh, bake::silentLog()))
        return failed(e);
    if (bake::Error e = bake::buildFootprint(mesh, bake::optionsUsed(mesh, request.import_options), &built,
                                             bake::silentLog()))
        return failed(e);
    if (bake::Error e = bake::readFootprintBytes(bake::serializeFootprint(built), request.input_path, &fp))
        return failed(e);
    s.import = cpuSeconds() - i0;
    if (bake::Error e = roadmapStages(fp, request.roadmap_options, &s)) return failed(e);
    out.addStages(s, true);
    // CGAL's bare segment Voronoi build of every layer's walls, as for the box levels: the
    // floor of the voronoi stage, which no bake that builds this diagram can go below.
    double sdg = 0;
    size_t sdg_walls = 0;
    for (const bake::FootprintLayer& layer : fp.layers) {
        const std::vector<bake::WallSegment> segments = bake::layerWalls(layer);
        size_t sites = 0;
        sdg += bench::bareSegmentDelaunaySeconds(segments, fp.grid_spacing, &sites);
        sdg_walls += sites;
    }
    add("sdg", sdg);
    add("sdg_walls", double(sdg_walls));
    return 0;
}

// Recast's solo-mesh bake of the same OBJ: load + build + Detour navmesh data.
int measureRecast(const ChildArgs& args, JsonLine& out) {
    auto add = [&out](const char* key, double v) { out.add(key, v); };
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
    return 0;
}

// CGAL's bare segment Voronoi build over a box level's walls.
int measureBareVoronoi(const bake::Footprint& fp, JsonLine& out) {
    auto add = [&out](const char* key, double v) { out.add(key, v); };
    const std::vector<bake::WallSegment> segments = bake::layerWalls(fp.layers[0]);
    size_t sites = 0;
    const double wall0 = wallSeconds();
    add("cpu", bench::bareSegmentDelaunaySeconds(segments, fp.grid_spacing, &sites));
    add("wall", wallSeconds() - wall0);
    add("walls", double(segments.size()));
    add("sites", double(sites));
    if (sites != segments.size()) {
        spdlog::error("{}: CGAL kept {} of {} walls", fp.source_name, sites, segments.size());
        return 3;
    }
    return 0;
}

// The roadmap bake of a box level's footprint (what cw-roadmap does after reading), then its CPU
// per stage. `write`: the asset also goes to that file (scripts/bake-diff compares old builds'
// output this way; new builds write it with `cw-make-samples boxes`).
int measureBoxesBake(const ChildArgs& args, const bake::Footprint& fp, JsonLine& out) {
    auto add = [&out](const char* key, double v) { out.add(key, v); };
    const bake::RoadmapOptions options = bake::defaultRoadmapOptions();
    const double cpu0 = cpuSeconds(), wall0 = wallSeconds();
    size_t bytes = 0;
    bake::RoadmapStats stats;
    {
        bake::Roadmap rm;
        if (bake::Error e = bake::buildRoadmap(fp, options, &rm, &stats, bake::silentLog())) return failed(e);
        const std::vector<uint8_t> asset = bake::serializeRoadmap(rm);
        bytes = asset.size();
        if (!args.write.empty())
            if (bake::Error e = bake::writeFileAtomic(args.write, asset.data(), asset.size()))
                return failed(e);
    }
    add("cpu", cpuSeconds() - cpu0);
    add("wall", wallSeconds() - wall0);
    // The bake's own peak: pass 2 below runs in the heap pass 1 left behind, which can peak higher
    // than a bake in a fresh process does.
    add("bake_hwm_kib", peakRssKib());
    add("bytes", double(bytes));
    add("walls", double(stats.walls));
    add("vertices", double(stats.vertices));
    add("edges", double(stats.edges));
    add("voronoi_wall", stats.seconds_voronoi);
    add("roadmap_wall", stats.seconds_roadmap);
    StageCpu s;
    if (bake::Error e = roadmapStages(fp, options, &s)) return failed(e);
    out.addStages(s, false);
    return 0;
}

} // namespace

int runChild(const ChildArgs& args) {
    JsonLine out;
    int status = 0;
    if (args.kind == "mesh") {
        status = measureMesh(args, out);
    } else if (args.kind == "recast") {
        status = measureRecast(args, out);
    } else if (args.kind == "boxes" || args.kind == "sdg") {
        const size_t walls = std::strtoull(args.target.c_str(), nullptr, 10);
        const double gen0 = cpuSeconds();
        const bake::Footprint fp = scenes::randomBoxesFootprint(walls, args.seed);
        out.add("generate_cpu", cpuSeconds() - gen0);
        status = args.kind == "sdg" ? measureBareVoronoi(fp, out) : measureBoxesBake(args, fp, out);
    } else if (args.kind != "idle") {
        spdlog::error("unknown child kind '{}'", args.kind);
        return 2;
    }
    if (status != 0) return status;
    out.add("hwm_kib", peakRssKib());
    std::printf("%s}\n", out.text().c_str());
    return 0;
}

} // namespace clearway::bench
