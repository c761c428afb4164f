// cw-import's one library call: mesh file -> footprint asset (+ optional SVG preview).
// Chains import, footprint and designer edits.
#include <clearway/bake.h>

#include "pipeline/pipeline_internal.h"

#include <chrono>

namespace clearway::bake {

namespace {

Error importLevelUnguarded(const ImportRequest& request, ImportResult* result, LogContext& log) {
    if (!request.svg_path.empty() && !request.footprint_svg)
        return {ErrorCode::InvalidOption, "an SVG preview needs ImportRequest::footprint_svg (clearway/preview.h)"};
    const auto start = std::chrono::steady_clock::now();
    LevelEdits edits; // designer sidecar (edits.cpp): obstacles cut the footprint
    const std::string edits_path = editsPathFor(request.mesh_path, request.edits_path, request.use_edits);
    const std::vector<std::string> inputs = {request.mesh_path, edits_path};
    if (Error e = checkOutputPaths(inputs, request.output_path, request.svg_path)) return e;
    if (!edits_path.empty())
        if (Error e = loadEdits(edits_path, &edits)) return e;
    Mesh mesh;
    if (Error e = loadMesh(request.mesh_path, request.options, &mesh, log)) return e;
    result->units = mesh.units;
    const ImportOptions options = optionsUsed(mesh, request.options); // the file's units, if declared
    const std::string up_warning = upAxisWarning(mesh, options);
    if (!up_warning.empty()) log.log(LogLevel::Warn, request.mesh_path + ": " + up_warning);
    Footprint footprint;
    if (Error e = buildFootprint(mesh, options, &footprint, log)) return e;
    if (Error e = applyFootprintEdits(edits, &footprint, log)) return e;
    footprint.input_hash = inputHashWithEdits(footprint.input_hash, edits);
    const std::vector<uint8_t> bytes = serializeFootprint(footprint);
    if (Error e = verifyFootprintAsset(bytes, request.mesh_path)) return e;
    const std::string svg = request.svg_path.empty() ? std::string() : request.footprint_svg(footprint);
    OutputSet outputs(inputs); // the asset and its preview: both or neither
    if (!request.output_path.empty()) outputs.add(request.output_path, bytes.data(), bytes.size(), "-o");
    if (!request.svg_path.empty()) outputs.add(request.svg_path, svg, "--svg");
    if (Error e = outputs.write()) return e;
    reportLevelSize(footprint, request.mesh_path, &result->units, &result->size, &result->warnings, log);
    if (!up_warning.empty()) result->warnings.insert(result->warnings.begin(), up_warning);
    result->footprint = std::move(footprint);
    result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const FootprintStats s = statsOf(result->footprint);
    log.log(LogLevel::Info, request.mesh_path + ": " + std::to_string(s.layers) + " layers, " +
                                std::to_string(s.connections) + " connections, " +
                                std::to_string(s.walkable_area) + " m2 walkable");
    return {};
}

} // namespace

Error importLevel(const ImportRequest& request, ImportResult* result, LogContext& log) {
    return catchOutOfMemory(request.mesh_path, [&] { return importLevelUnguarded(request, result, log); });
}

} // namespace clearway::bake
