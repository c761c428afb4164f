// cw-roadmap and cw-bake: footprint asset or mesh -> roadmap asset. The one place that chains the
// stages of a whole-level bake (import, footprint, designer edits, roadmap, asset); tiled bakes
// branch off to bakeTile.
#include <clearway/bake.h>

#include "pipeline/pipeline_internal.h"

#include <chrono>

namespace clearway::bake {

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

} // namespace

Error writeRoadmapOutputs(const Roadmap& rm, const std::string& output_path, const std::string& svg_path,
                          RoadmapRenderer render_svg, size_t* bytes) {
    if (!svg_path.empty() && !render_svg)
        return {ErrorCode::InvalidOption, "an SVG preview needs a roadmap renderer (clearway/preview.h)"};
    const std::vector<uint8_t> asset = serializeRoadmap(rm);
    *bytes = asset.size();
    if (!output_path.empty())
        if (Error e = writeFileAtomic(output_path, asset.data(), asset.size())) return e;
    if (!svg_path.empty())
        if (Error e = writeFileAtomic(svg_path, render_svg(rm))) return e;
    return {};
}

namespace {

Error finishRoadmap(const RoadmapRequest& request, const Footprint& footprint, RoadmapResult* result,
                    LogContext& log, Clock::time_point start, const LevelEdits& edits = {}) {
    if (Error e = buildRoadmap(footprint, request.roadmap_options, &result->roadmap, &result->stats, log))
        return e;
    if (Error e = applyRoadmapEdits(edits, &result->roadmap, log)) return e;
    result->stats.vertices = result->roadmap.vertices.size(); // with the designer's nodes and edges
    result->stats.edges = result->roadmap.edges.size();
    const auto write_start = Clock::now();
    if (Error e = writeRoadmapOutputs(result->roadmap, request.output_path, request.svg_path, request.roadmap_svg,
                                        &result->bytes))
        return e;
    result->seconds_write = secondsSince(write_start);
    result->seconds_total = secondsSince(start);
    return {};
}

} // namespace

Error roadmapFromFootprint(const RoadmapRequest& request, RoadmapResult* result, LogContext& log) {
    const auto start = Clock::now();
    Footprint footprint;
    if (Error e = readFootprintFile(request.input_path, &footprint)) return e;
    result->seconds_import = secondsSince(start);
    return finishRoadmap(request, footprint, result, log, start);
}

Error bakeLevel(const RoadmapRequest& request, RoadmapResult* result, LogContext& log) {
    if (request.tile_size != 0) return bakeTile(request, result, log); // cw-bake --tile-size (bake_tile.cpp)
    const auto start = Clock::now();
    LevelEdits edits; // designer sidecar (edits.cpp), read first so its errors come before the import
    const std::string edits_path = editsPathFor(request.input_path, request.edits_path, request.use_edits);
    if (!edits_path.empty())
        if (Error e = loadEdits(edits_path, &edits)) return e;
    Mesh mesh;
    if (Error e = loadMesh(request.input_path, request.import_options, &mesh, log)) return e;
    Footprint built, footprint;
    if (Error e = buildFootprint(mesh, request.import_options, &built, log)) return e;
    if (Error e = applyFootprintEdits(edits, &built, log)) return e;
    built.input_hash = inputHashWithEdits(built.input_hash, edits);
    // Continue from exactly what the asset stores (floats), so cw-bake gives the same roadmap
    // as cw-import + cw-roadmap, and in-memory low bits (which follow CGAL's output order)
    // cannot reach the roadmap.
    if (Error e = readFootprintBytes(serializeFootprint(built), request.input_path, &footprint)) return e;
    result->seconds_import = secondsSince(start);
    return finishRoadmap(request, footprint, result, log, start, edits);
}

} // namespace clearway::bake
