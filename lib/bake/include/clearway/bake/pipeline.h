// Pipeline: the tools' one library call each. The only place that chains the stages (import,
// footprint, edits, medial axis, roadmap, tiles, assets) and chooses a tiled or a whole bake.
#pragma once

#include <clearway/bake/tiles.h>
#include <clearway/bake/trims.h>

namespace clearway::bake {

// Previews are drawn by lib/preview (clearway/preview.h), never by the bake itself: a tool that
// writes an SVG next to an asset passes the renderer in its request (as Recast leaves drawing to
// DebugUtils). A request with an svg_path and no renderer is refused (InvalidOption).
using FootprintRenderer = std::string (*)(const Footprint& footprint);
using RoadmapRenderer = std::string (*)(const Roadmap& roadmap);

// ---------------------------------------------------------------------------------------------
// Tool entry points (each tool's main() is a thin wrapper over one of these)

struct ImportRequest {
    std::string mesh_path;
    std::string output_path; // .cwfp
    std::string svg_path;    // optional
    FootprintRenderer footprint_svg = nullptr; // draws svg_path (footprintSvg from clearway/preview.h)
    ImportOptions options;
    std::string edits_path; // designer edits; empty: <mesh without extension>.cwedit when it exists
    bool use_edits = true;  // false: ignore every sidecar (--no-edits)
};

struct ImportResult {
    Footprint footprint;
    double seconds = 0;
    LevelSize size;                    // also logged, with any levelSizeWarnings
    std::vector<std::string> warnings; // levelSizeWarnings
    ImportUnits units;                 // the up axis and scale used, and why (Mesh::units)
};

Error importLevel(const ImportRequest& request, ImportResult* result, LogContext& log);

struct RoadmapRequest {
    std::string input_path;  // .cwfp (cw-roadmap) or a mesh (cw-bake)
    std::string output_path; // .cwrm
    std::string svg_path;
    RoadmapRenderer roadmap_svg = nullptr; // draws svg_path (roadmapSvg from clearway/preview.h)
    std::string html_path;                 // optional: the interactive page (cw-inspect --html's)
    RoadmapRenderer roadmap_html = nullptr; // draws html_path (roadmapHtml from clearway/preview.h)
    ImportOptions import_options;
    RoadmapOptions roadmap_options;
    std::string edits_path; // cw-bake: designer edits; empty: <mesh without extension>.cwedit if present
    bool use_edits = true;  // false: ignore every sidecar (--no-edits)
    // cw-bake --tile-size/--tile/--tile-margin (world units; margin < 0: the default, size / 4 + 10 m).
    double tile_size = 0; // 0: bake the whole level
    int32_t tile_i = 0, tile_j = 0;
    double tile_margin = -1;
};
struct RoadmapResult {
    Roadmap roadmap;
    RoadmapStats stats;
    LevelSize size;                    // also logged, with any levelSizeWarnings
    std::vector<std::string> warnings; // levelSizeWarnings
    ImportUnits units;                 // cw-bake: the up axis and scale used, and why (empty whys: cw-roadmap)
    size_t bytes = 0;
    double seconds_import = 0, seconds_write = 0, seconds_total = 0;
};
// cw-roadmap: footprint asset -> roadmap asset.
Error roadmapFromFootprint(const RoadmapRequest& request, RoadmapResult* result, LogContext& log);
// cw-bake: mesh -> footprint -> roadmap in one process.
Error bakeLevel(const RoadmapRequest& request, RoadmapResult* result, LogContext& log);

// cw-bake --tile-size: one tile (request.tile_*) of request.input_path -> request.output_path.
// bakeLevel calls this when request.tile_size != 0.
Error bakeTile(const RoadmapRequest& request, RoadmapResult* result, LogContext& log);

struct StitchRequest {
    std::vector<std::string> tile_paths;
    std::string output_path; // .cwrm
    std::string svg_path;
    RoadmapRenderer roadmap_svg = nullptr; // draws svg_path
    StitchOptions options;
};
struct StitchResult {
    Roadmap roadmap;
    StitchStats stats;
    size_t bytes = 0;
    double seconds_read = 0, seconds_stitch = 0, seconds_total = 0;
};
// cw-stitch: reads every tile, stitches, writes the world asset atomically.
Error stitchFiles(const StitchRequest& request, StitchResult* result, LogContext& log);

} // namespace clearway::bake
