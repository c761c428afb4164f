// What cw-inspect's files share: the drawing frame and layout, the level and trims drawings, and
// the number format of its summaries.
#pragma once

#include <clearway/motion.h>
#include <clearway/preview.h>
#include <clearway/preview/json_writer.h>
#include <clearway/preview/svg_writer.h>
#include <clearway/runtime.h>

namespace clearway::bake::inspect {

// Numbers in the summary, the JSON and the drawing transform: 10 significant digits, the same
// text on every run.
inline std::string num(double v) {
    return preview::jsonNumber(v);
}

constexpr double kDrawingPixels = 1000; // longest side of the level
constexpr double kMargin = 24;
constexpr double kLegendWidth = 250;
constexpr double kLegendHeight = 470; // the HTML controls go below it

struct Frame {
    double s = 1, tx = 0, ty = 0;    // pixel = (tx + s x, ty - s y)
    double width = 0, height = 0;    // drawing area, pixels
    double total_w = 0, total_h = 0; // with the legend column
};

// The document, its clip path, the ramp gradient, background and legend column; coordinates in
// millimetres with trailing zeros dropped (keeps the HTML small).
preview::SvgWriter svgOpen(const Frame& f);

// The legend column beside the drawing: its group with the bold title at the top (the caller
// adds entries below y = 42 and closes the group), and the colour ramp bar at (x, y).
constexpr double kLegendX = 16; // right of the drawing area
void legendOpen(preview::SvgWriter& svg, const Frame& f, const std::string& title);
void rampBar(preview::SvgWriter& svg, double x, double y);

// The usable-area raster of one layer: cell (i, j) has its centre at (x0 + (i + 0.5) cell,
// y0 + (j + 0.5) cell), row-major.
struct UsableGrid {
    enum State : uint8_t { Outside = 0, Usable = 1, Island = 2 };
    double x0 = 0, y0 = 0, cell = 1;
    uint32_t nx = 0, ny = 0;
    std::vector<uint8_t> state;
};
struct UsableMap {
    double cell = 0;
    std::vector<UsableGrid> layers;
};
constexpr double kDefaultPreviewRadius = 0.5; // metres, cw-query's default radius
constexpr double kMinIslandArea = 0.01;       // m^2: smaller unreachable parts are raster specks
// "N unreachable island(s)", for the summary and the legend.
inline std::string unreachableIslands(size_t n) {
    return std::to_string(n) + (n == 1 ? " unreachable island" : " unreachable islands");
}
// The radius when none is asked for, and why (for UsableArea::radius_source).
double defaultPreviewRadius(const InspectSummary& s, std::string* source);
// The usable area of a verified footprint for `radius` (>= 0) on a raster of `cell` metres (0:
// automatic), with the raster for the drawing (islands' cells marked Island).
UsableArea usableArea(const FootprintView& fp, double radius, double cell, UsableMap* map);

// inspectAssetBytes, also handing out the usable-area raster.
Error inspectBytes(const void* data, size_t size, const std::string& name, const PreviewOptions& options,
                   InspectSummary* out, UsableMap* map);

// Floors, walls, connections and (for roadmaps, rm != null) roadmap and blends of a verified level,
// with the usable area of `usable`.
std::string levelSvg(const FootprintView& fp, const RoadmapView* rm, const InspectSummary& s,
                     const UsableMap& usable, const std::string& title, Frame* frame_out);
// One panel per initial control (see trimPanels), every trajectory from it in top view.
std::string trimsSvg(const trims::TableView& view, const InspectSummary& s, const std::string& title,
                     Frame* frame_out);

// The page's WebAssembly runtime (lib/preview/wasm/page_runtime.cpp, built by emscripten into one
// script defining ClearwayRuntime), or "" when clearway was built without emscripten.
const char* pageRuntimeScript();

} // namespace clearway::bake::inspect
