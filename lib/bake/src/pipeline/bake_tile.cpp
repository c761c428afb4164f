// cw-bake --tile-size: one tile of a level baked from its geometry plus a margin. Chains import,
// clipping the mesh to the tile + margin, footprint, roadmap, cutting it at the tile border
// (tiles/), and writing the tile asset.
//
// Why a tile is exact where the clearance is below the margin: a medial-axis point of the core
// with clearance r < margin has every wall within r inside core + margin, and the artificial walls
// where the mesh was clipped are at least the margin away; so the tile sees the same nearest walls
// as the whole world there, and its axis is the world's.
#include <clearway/bake.h>
#include <clearway/runtime.h>

#include "pipeline/pipeline_internal.h"
#include "tiles/tiles_internal.h"

#include <chrono>
#include <cmath>

namespace clearway::bake {

Error bakeTile(const RoadmapRequest& request, RoadmapResult* result, LogContext& log) {
    const auto start = Clock::now();
    const std::string& name = request.input_path;
    const double size = request.tile_size;
    if (!(size > 0) || !std::isfinite(size))
        return {ErrorCode::InvalidOption,
                "--tile-size must be a positive number of world units (got " + tiling::num(size) + ")"};
    Mesh mesh;
    if (Error e = loadMesh(request.input_path, request.import_options, &mesh, log)) return e;
    result->units = mesh.units;
    // The scale the mesh was read with (an option, or the file's declaration).
    const ImportOptions options = optionsUsed(mesh, request.import_options);
    const double scale = options.scale;
    const double margin =
        request.tile_margin < 0 ? size / 4 + tiling::kSolidProbeReach / scale : request.tile_margin;
    if (!(margin * scale > tiling::kSolidProbeReach) || !std::isfinite(margin))
        return {ErrorCode::InvalidOption,
                "--tile-margin must exceed 10 m (" + tiling::num(tiling::kSolidProbeReach / scale) +
                    " world units): the footprint's solid test looks 10 m around every floor point (got " +
                    tiling::num(request.tile_margin) + ")"};
    Vec3 origin;
    double q;
    tiling::Box box;
    tiling::worldFrame(mesh, &origin, &q, &box);
    // Which tiles the mesh spans, in world units of the horizontal plane.
    const Vec3 lo = internalToWorld({box.x0, box.y0, 0}, options),
               hi = internalToWorld({box.x1, box.y1, 0}, options);
    auto horizontal = [&](const Vec3& w) {
        return options.up == UpAxis::Y ? Vec2{w.x, w.z} : Vec2{w.x, w.y};
    };
    const Vec2 wa = horizontal(lo), wb = horizontal(hi);
    // Half-open tiles: a mesh ending exactly on a tile line does not reach the next tile.
    auto first = [&](double lo) { return int64_t(std::floor(lo / size)); };
    auto last = [&](double lo, double hi) { return std::max(first(lo), int64_t(std::ceil(hi / size)) - 1); };
    const int64_t i0 = first(std::min(wa.x, wb.x)), i1 = last(std::min(wa.x, wb.x), std::max(wa.x, wb.x));
    const int64_t j0 = first(std::min(wa.y, wb.y)), j1 = last(std::min(wa.y, wb.y), std::max(wa.y, wb.y));
    const char* v_axis = options.up == UpAxis::Y ? "z" : "y";
    if (request.tile_i < i0 || request.tile_i > i1 || request.tile_j < j0 || request.tile_j > j1)
        return {ErrorCode::InvalidOption,
                name + ": tile " + std::to_string(request.tile_i) + "," + std::to_string(request.tile_j) +
                    " of size " + tiling::num(size) + " lies outside the mesh, which spans tiles " +
                    std::to_string(i0) + ".." + std::to_string(i1) + " (world x) by " + std::to_string(j0) +
                    ".." + std::to_string(j1) + " (world " + v_axis + ")"};
    const tiling::Rect core = tiling::tileCore(options, size, request.tile_i, request.tile_j, origin, q);
    const double margin_local = margin * options.scale;
    // A core point's footprint depends on the geometry up to kSolidProbeReach away, its axis on
    // the footprint within its clearance: exact below this clearance.
    const double exact_clearance = margin_local - tiling::kSolidProbeReach;
    const tiling::Rect outer = tiling::grow(core, margin_local);
    const tiling::Rect outer_abs{outer.x0 + origin.x, outer.y0 + origin.y, outer.x1 + origin.x,
                                 outer.y1 + origin.y};
    const Mesh clipped = tiling::clipMesh(mesh, outer_abs);
    mesh = Mesh();
    log.log(LogLevel::Debug,
            name + ": tile " + std::to_string(request.tile_i) + "," + std::to_string(request.tile_j) + ": " +
                std::to_string(clipped.triangleCount()) + " triangles in the tile and its margin");
    if (clipped.triangleCount() == 0)
        return {ErrorCode::NoWalkableSurface, name + ": tile " + std::to_string(request.tile_i) + "," +
                                                  std::to_string(request.tile_j) + " holds no geometry"};
    Footprint built, footprint;
    if (Error e = buildFootprint(clipped, options, &built, log)) return e;
    const std::vector<uint8_t> footprint_bytes = serializeFootprint(built);
    if (Error e = verifyFootprintAsset(footprint_bytes, name)) return e;
    if (Error e = readFootprintBytes(footprint_bytes, name, &footprint)) return e;
    tiling::moveFootprint(footprint, origin, q);
    result->seconds_import = secondsSince(start);

    // The axis of core + margin without chain merging: a merged edge could cross the border
    // elsewhere than the neighbour's; merging runs after the cut, with the border pinned.
    RoadmapOptions axis_options = request.roadmap_options;
    axis_options.merge_chains = false;
    Roadmap rm;
    if (Error e = buildRoadmap(footprint, axis_options, &rm, &result->stats, log)) return e;
    const auto cut_start = Clock::now();
    uint32_t margin_reached = 0;
    tiling::cutRoadmap(rm, core, exact_clearance, &margin_reached);
    rm.options = request.roadmap_options;
    std::vector<bool> pinned(rm.vertices.size(), false);
    for (uint32_t v : tiling::borderVertices(rm, core))
        pinned[v] = true;
    tiling::finishPinned(rm, pinned);
    rm.footprint = tiling::clipFootprint(rm.footprint, core);
    rm.footprint.source_name = footprint.source_name;
    rm.options_hash = roadmapOptionsHash(options, request.roadmap_options);
    rm.tile.size = size, rm.tile.margin = margin, rm.tile.i = request.tile_i, rm.tile.j = request.tile_j;
    rm.tile.border_vertices = tiling::borderVertices(rm, core);
    rm.tile.margin_reached = margin_reached;
    if (margin_reached > 0)
        log.log(LogLevel::Warn, name + ": tile " + std::to_string(request.tile_i) + "," +
                                    std::to_string(request.tile_j) + ": " + std::to_string(margin_reached) +
                                    " roadmap edges have clearance >= the margin minus 10 m (" +
                                    tiling::num(exact_clearance) +
                                    " m); there the stitched world may differ from an untiled bake");
    result->stats.seconds_roadmap += secondsSince(cut_start);
    result->stats.layers = rm.footprint.layers.size();
    result->stats.vertices = rm.vertices.size();
    result->stats.edges = rm.edges.size();
    result->stats.arcs = result->stats.blends = 0;
    for (const RoadmapEdge& e : rm.edges)
        result->stats.arcs += e.points.size() > 2;
    for (const Blend& b : rm.blends)
        result->stats.blends += b.radius > 0;
    const auto write_start = Clock::now();
    if (Error e = writeRoadmapOutputs(rm, request.output_path, request.svg_path, request.roadmap_svg,
                                      &result->bytes, {}, request.html_path, request.roadmap_html))
        return e;
    result->roadmap = std::move(rm);
    result->seconds_write = secondsSince(write_start);
    result->seconds_total = secondsSince(start);
    return {};
}

} // namespace clearway::bake
