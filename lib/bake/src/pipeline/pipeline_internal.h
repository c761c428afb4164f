// Shared by the pipeline's whole-level and tiled bakes.
#pragma once

#include <clearway/bake.h>

namespace clearway::bake {

// The roadmap asset (and its SVG preview, drawn by `render_svg`, when svg_path is set) written
// atomically; *bytes = asset size. An svg_path without a renderer is refused before anything is
// written.
Error writeRoadmapOutputs(const Roadmap& rm, const std::string& output_path, const std::string& svg_path,
                          RoadmapRenderer render_svg, size_t* bytes);

} // namespace clearway::bake
