// cw-roadmap and cw-bake: footprint asset or mesh -> roadmap asset. The one place that chains the
// stages of a whole-level bake (import, footprint, designer edits, roadmap, asset); tiled bakes
// branch off to bakeTile.
#include <clearway/bake.h>
#include <clearway/runtime.h>

#include "pipeline/pipeline_internal.h"

#include <cstdio>

#include <chrono>

namespace clearway::bake {

Error checkOutputPaths(const std::vector<std::string>& inputs, const std::string& output_path,
                       const std::string& svg_path, const std::string& html_path) {
    OutputSet outputs(inputs);
    if (!output_path.empty()) outputs.add(output_path, nullptr, 0, "-o");
    if (!svg_path.empty()) outputs.add(svg_path, nullptr, 0, "--svg");
    if (!html_path.empty()) outputs.add(html_path, nullptr, 0, "--html");
    return outputs.check();
}

namespace {

// `load` is the runtime's loader of that kind of asset, into a View.
template <class View, class Load>
Error verifyAsset(const std::vector<uint8_t>& bytes, const std::string& name, const char* kind, Load&& load) {
    View view;
    const Status status = load(bytes.data(), bytes.size(), &view);
    if (status == Status::Ok) return {};
    return {ErrorCode::Internal, name + ": the " + kind + " asset fails the runtime's verification (" +
                                     statusString(status) + "); nothing was written"};
}

} // namespace

Error verifyFootprintAsset(const std::vector<uint8_t>& bytes, const std::string& name) {
    return verifyAsset<FootprintView>(bytes, name, "footprint", [](const uint8_t* data, size_t size, FootprintView* v) {
        return loadFootprint(data, size, v);
    });
}

Error verifyRoadmapAsset(const std::vector<uint8_t>& bytes, const std::string& name) {
    return verifyAsset<RoadmapView>(bytes, name, "roadmap", [](const uint8_t* data, size_t size, RoadmapView* v) {
        return loadRoadmap(data, size, v);
    });
}

Error writeRoadmapOutputs(const Roadmap& rm, const std::string& output_path, const std::string& svg_path,
                          RoadmapRenderer render_svg, size_t* bytes, const std::vector<std::string>& inputs,
                          const std::string& html_path, RoadmapRenderer render_html) {
    if ((!svg_path.empty() && !render_svg) || (!html_path.empty() && !render_html))
        return {ErrorCode::InvalidOption, "a preview needs a roadmap renderer (clearway/preview.h)"};
    if (Error e = checkOutputPaths(inputs, output_path, svg_path, html_path)) return e;
    const std::vector<uint8_t> asset = serializeRoadmap(rm);
    if (Error e = verifyRoadmapAsset(asset, output_path.empty() ? std::string("roadmap") : output_path)) return e;
    *bytes = asset.size();
    // OutputSet keeps pointers to the bytes: they live here until write() returns.
    const std::string svg = svg_path.empty() ? std::string() : render_svg(rm);
    const std::string html = html_path.empty() ? std::string() : render_html(rm);
    OutputSet outputs(inputs);
    if (!output_path.empty()) outputs.add(output_path, asset.data(), asset.size(), "-o");
    if (!svg_path.empty()) outputs.add(svg_path, svg, "--svg");
    if (!html_path.empty()) outputs.add(html_path, html, "--html");
    return outputs.write();
}

Error writeRoadmapOutputs(const Roadmap& rm, const std::string& output_path, const std::string& svg_path,
                          RoadmapRenderer render_svg, size_t* bytes) {
    return writeRoadmapOutputs(rm, output_path, svg_path, render_svg, bytes, {});
}

namespace {

// `units`: how the mesh's scale was chosen (null for a footprint asset's input: not known).
Error finishRoadmap(const RoadmapRequest& request, const std::vector<std::string>& inputs,
                    const Footprint& footprint, const ImportUnits* units, RoadmapResult* result, LogContext& log,
                    Clock::time_point start, const LevelEdits& edits = {}) {
    reportLevelSize(footprint, request.input_path, units, &result->size, &result->warnings, log);
    if (Error e = buildRoadmap(footprint, request.roadmap_options, &result->roadmap, &result->stats, log))
        return e;
    if (Error e = applyRoadmapEdits(edits, &result->roadmap, log)) return e;
    result->stats.vertices = result->roadmap.vertices.size(); // with the designer's nodes and edges
    result->stats.edges = result->roadmap.edges.size();
    const auto write_start = Clock::now();
    if (Error e = writeRoadmapOutputs(result->roadmap, request.output_path, request.svg_path, request.roadmap_svg,
                                      &result->bytes, inputs, request.html_path, request.roadmap_html))
        return e;
    result->seconds_write = secondsSince(write_start);
    result->seconds_total = secondsSince(start);
    return {};
}

Error roadmapFromFootprintUnguarded(const RoadmapRequest& request, RoadmapResult* result, LogContext& log) {
    const auto start = Clock::now();
    const std::vector<std::string> inputs = {request.input_path};
    if (Error e = checkOutputPaths(inputs, request.output_path, request.svg_path, request.html_path)) return e;
    Footprint footprint;
    if (Error e = readFootprintFile(request.input_path, &footprint)) return e;
    result->seconds_import = secondsSince(start);
    return finishRoadmap(request, inputs, footprint, nullptr, result, log, start);
}

Error bakeLevelUnguarded(const RoadmapRequest& request, RoadmapResult* result, LogContext& log) {
    const std::string edits_path = editsPathFor(request.input_path, request.edits_path, request.use_edits);
    const std::vector<std::string> inputs = {request.input_path, edits_path};
    // Refused in a second, not after the bake: an output that would replace the level, its
    // sidecar or the other output.
    if (Error e = checkOutputPaths(inputs, request.output_path, request.svg_path, request.html_path)) return e;
    if (request.tile_size != 0) return bakeTile(request, result, log); // cw-bake --tile-size (bake_tile.cpp)
    const auto start = Clock::now();
    LevelEdits edits; // designer sidecar (edits.cpp), read first so its errors come before the import
    if (!edits_path.empty())
        if (Error e = loadEdits(edits_path, &edits)) return e;
    Mesh mesh;
    if (Error e = loadMesh(request.input_path, request.import_options, &mesh, log)) return e;
    result->units = mesh.units;
    const ImportOptions options = optionsUsed(mesh, request.import_options); // the file's units, if declared
    const std::string up_warning = upAxisWarning(mesh, options);
    if (!up_warning.empty()) log.log(LogLevel::Warn, request.input_path + ": " + up_warning);
    Footprint built, footprint;
    if (Error e = buildFootprint(mesh, options, &built, log)) return e;
    if (Error e = applyFootprintEdits(edits, &built, log)) return e;
    built.input_hash = inputHashWithEdits(built.input_hash, edits);
    // Continue from exactly what the asset stores (floats), so cw-bake gives the same roadmap
    // as cw-import + cw-roadmap, and in-memory low bits (which follow CGAL's output order)
    // cannot reach the roadmap.
    const std::vector<uint8_t> footprint_bytes = serializeFootprint(built);
    if (Error e = verifyFootprintAsset(footprint_bytes, request.input_path)) return e;
    if (Error e = readFootprintBytes(footprint_bytes, request.input_path, &footprint)) return e;
    result->seconds_import = secondsSince(start);
    const Error e = finishRoadmap(request, inputs, footprint, &result->units, result, log, start, edits);
    if (!up_warning.empty()) result->warnings.insert(result->warnings.begin(), up_warning);
    return e;
}

} // namespace

Error roadmapFromFootprint(const RoadmapRequest& request, RoadmapResult* result, LogContext& log) {
    return catchOutOfMemory(request.input_path, [&] { return roadmapFromFootprintUnguarded(request, result, log); });
}

Error bakeLevel(const RoadmapRequest& request, RoadmapResult* result, LogContext& log) {
    return catchOutOfMemory(request.input_path, [&] { return bakeLevelUnguarded(request, result, log); });
}

void reportLevelSize(const Footprint& footprint, const std::string& name, const ImportUnits* units, LevelSize* size,
                     std::vector<std::string>* warnings, LogContext& log) {
    *size = levelSizeOf(footprint);
    *warnings = levelSizeWarnings(*size, footprint.options, units);
    char text[160];
    std::snprintf(text, sizeof text, ": %.4g m across, %.4g m2 walkable (world x %.4g .. %.4g, y %.4g .. %.4g, z %.4g .. %.4g)",
                  size->across, size->walkable_area, size->world_min.x, size->world_max.x, size->world_min.y,
                  size->world_max.y, size->world_min.z, size->world_max.z);
    log.log(LogLevel::Info, name + text);
    for (const std::string& w : *warnings)
        log.log(LogLevel::Warn, name + ": " + w);
}

} // namespace clearway::bake
