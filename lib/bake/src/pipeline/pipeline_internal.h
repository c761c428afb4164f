// Shared by the pipeline's whole-level and tiled bakes.
#pragma once

#include <clearway/bake.h>

#include <chrono>

namespace clearway::bake {

// Stage timings in the results (seconds of wall time).
using Clock = std::chrono::steady_clock;
inline double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// The roadmap asset (and its SVG preview, drawn by `render_svg`, when svg_path is set) written
// as one OutputSet: both or neither; *bytes = asset size. An svg_path without a renderer is
// refused before anything is written, and so is an output that would replace one of `inputs`
// (the level and its designer-edits sidecar) or the other output.
Error writeRoadmapOutputs(const Roadmap& rm, const std::string& output_path, const std::string& svg_path,
                          RoadmapRenderer render_svg, size_t* bytes, const std::vector<std::string>& inputs,
                          const std::string& html_path = {}, RoadmapRenderer render_html = nullptr);
// Without inputs to protect (bakeTile, whose inputs bakeLevel checks first).
Error writeRoadmapOutputs(const Roadmap& rm, const std::string& output_path, const std::string& svg_path,
                          RoadmapRenderer render_svg, size_t* bytes);

// The runtime must accept what a run writes: a footprint or roadmap asset its loader refuses is a
// bake bug, reported as Internal (exit 3) with nothing written, never left for a game to find.
Error verifyFootprintAsset(const std::vector<uint8_t>& bytes, const std::string& name);
Error verifyRoadmapAsset(const std::vector<uint8_t>& bytes, const std::string& name);

// OutputSet::check for a run's asset (-o) and preview (--svg) before any work is done. Empty paths
// are not outputs: library callers leave them empty to get the result without files.
Error checkOutputPaths(const std::vector<std::string>& inputs, const std::string& output_path,
                       const std::string& svg_path, const std::string& html_path = {});

// The level's size and plausibility warnings, logged (Info: size; Warn: each warning).
// `units`: how the mesh's scale was chosen (null: not known, as for a footprint asset's input).
void reportLevelSize(const Footprint& footprint, const std::string& name, const ImportUnits* units, LevelSize* size,
                     std::vector<std::string>* warnings, LogContext& log);

} // namespace clearway::bake
