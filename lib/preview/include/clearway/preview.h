// clearway previews: what tools show people. SVG and HTML drawings of assets, the JSON and text
// summaries the tools print, cw-inspect and cw-query. The bake never draws: tools pass these
// renderers into the pipeline requests (RoadmapRequest::roadmap_svg, ...).
#pragma once

#include <clearway/bake.h>

namespace clearway::bake {

struct PreviewOptions; // below, with cw-inspect's summary

// The previews every tool writes next to its asset: the asset itself (serialized) drawn by
// cw-inspect's renderer, so cw-import --svg, cw-bake --svg/--html and cw-inspect show the same
// picture (renderers for ImportRequest::footprint_svg, RoadmapRequest::roadmap_svg / roadmap_html).
std::string footprintSvg(const Footprint& footprint);
std::string roadmapSvg(const Roadmap& roadmap);
std::string roadmapHtml(const Roadmap& roadmap);
// The same with a chosen usable-area radius (cw-bake --radius).
std::string roadmapSvg(const Roadmap& roadmap, const PreviewOptions& options);
std::string roadmapHtml(const Roadmap& roadmap, const PreviewOptions& options);
// One JSON object, the shape documented for `cw-import --json` (with "units" when given).
std::string footprintJson(const Footprint& footprint, double seconds, const ImportUnits* units = nullptr);
// `"units": {"up", "up_source", "up_why", "scale", "scale_source", "scale_why"}` (a fragment): the
// up axis and scale a mesh was read with, and why.
std::string unitsJson(const ImportUnits& units);

std::string roadmapJson(const RoadmapResult& result);
// `"size": {...}, "warnings": [...]` for the bake summaries (no braces around: a fragment).
std::string levelSizeJson(const LevelSize& size, const std::vector<std::string>& warnings);
// One JSON object, the shape documented for `cw-trims --json`.
std::string trimsJson(const TrimsResult& result);
std::string stitchJson(const StitchResult& result);

// One path query on a baked roadmap asset, answered with the runtime alone (loadRoadmap,
// locatePoint, findPath, pathSample, wallDistance) exactly as a game would, in the mesh's own
// (world) coordinates. Distances (radius, clearance, step, lengths) are metres.

struct QueryRequest {
    std::string roadmap_path;         // .cwrm
    Vec3 from, to;                    // world (mesh file) coordinates
    double radius = 0.5;              // agent radius, > 0
    double preferred_clearance = -1;  // findPath's; < 0: the radius (shortest); +inf: the medial-axis path
    double step = 0.25;               // metres between sampled points, > 0
    double step_up = 0.4;             // a point's floor: the highest surface at most this above it
    std::string svg_path;             // optional preview
    // findPath's query filter (runtime.md "Query filters"), as written: flags decimal or 0x hex
    // (empty: include every flag, exclude none), area costs "TYPE=MULTIPLIER" (type 0 .. 63).
    std::string include_flags, exclude_flags;
    std::vector<std::string> area_costs;
};

struct QuerySegment {
    bool arc = false;
    bool portal = false; // runs along a connection between layers
    uint32_t layer = 0;  // layer at the segment's start
    Vec3 start, end;     // world, on the walkable surface
    Vec3 center;         // arcs: world, at the start's height
    double radius = 0;   // arcs, metres
    double sweep = 0;    // arcs: radians, > 0 counter-clockwise seen from above
    double length = 0;   // metres
    bool link = false;   // an off-mesh link (runtime.md "Off-mesh links"): jump, ladder, door, ...
    uint32_t link_index = 0; // links: its roadmapLink index
};

struct QueryResult {
    bool found = false;
    std::string reason; // why not, when !found
    uint32_t from_layer = 0, to_layer = 0;
    double radius = 0, preferred_clearance = 0, step = 0;
    double length = 0;        // metres
    double min_clearance = 0; // metres: wallDistance at the samples (their layer's solid walls)
    std::vector<QuerySegment> segments;
    std::vector<Vec3> points; // world, every `step` metres from the start, plus the end
};

// "x,y,z" -> *out; InvalidOption naming `option` for anything but three finite numbers.
Error parseQueryPoint(const std::string& text, const std::string& option, Vec3* out);
// The query on roadmap bytes already in memory (8-byte aligned); `name` names them in messages.
// "No path" is a result (found = false, with a reason), not an error. Errors: a corrupt asset
// (ReadFailed), bad request values or a start/goal that no layer contains (InvalidOption).
// `svg` (optional) receives the preview: walls, faint roadmap, the path with its arcs, start, goal.
Error queryRoadmapBytes(const void* data, size_t size, const std::string& name, const QueryRequest& request,
                        QueryResult* result, std::string* svg = nullptr);
// cw-query: reads request.roadmap_path, queries, writes request.svg_path when set.
Error queryPath(const QueryRequest& request, QueryResult* result, LogContext& log);
// `cw-query --json`: {"found", "length", "min_clearance", "from_layer", "to_layer", "segments",
// "points"} (+ "reason" when not found); numbers with 10 significant digits, deterministic.
std::string queryJson(const QueryResult& result);
// The human summary: one line, then one line per segment.
std::string queryText(const QueryResult& result, const std::string& level);

// What a baked asset holds, checked by the runtime's own verifying loaders (loadFootprint,
// loadRoadmap, trims::loadTable), and a picture of it for designers: an SVG and a self-contained
// HTML page (pan, zoom, layer toggles, and a two-click path query over the roadmap in the page).

enum class AssetKind : uint8_t { Footprint = 0, Roadmap = 1, Trims = 2 };
const char* assetKindName(AssetKind kind); // "footprint", "roadmap", "trims"

struct InspectLayer {
    uint32_t polygons = 0, holes = 0, walls = 0; // walls: boundary segments
    double area = 0;                             // m^2
    double height_min = 0, height_max = 0;       // local z of the surface
    uint32_t vertices = 0, edges = 0;            // roadmap only
    double clearance_min = 0, clearance_max = 0; // roadmap only: over its non-portal edges' minima
};

struct InspectTrims {
    std::string vehicle;
    uint32_t dimension = 2, controls = 0, trims = 0, steps = 0;
    uint32_t samples[3] = {1, 1, 1};  // yaw, pitch, roll
    double max_rate[3] = {0, 0, 0};   // rad/s
    double interval = 0, speed = 0;   // s, m/s
    bool symmetric = false;
    double max_chord_deviation = 0;   // metres at the bake speed
    double reach_min = 0, reach_max = 0; // straight distance covered by one trim, metres
};

// The usable area for an agent of one radius: each layer's walkable footprint eroded by the
// radius (the points at least `radius` from the layer's solid walls; connections are open, not
// walls), sampled at the centres of a square raster of `cell` metres, so each area is within about
// (the usable region's perimeter x cell) of the exact one. Its connected parts join 4-neighbouring
// cells of a layer and, across layers, the cells on both sides of a connection: the medial-axis
// roadmap's edges with clearance >= radius connect exactly these parts (it is their retract).
// Islands are the parts other than the largest (of at least 8 cells and 0.01 m^2).
struct UsablePart {
    uint32_t layer = 0; // the layer holding most of it
    double area = 0;    // m^2
    Vec3 point;         // a usable point of it (near its middle), local; z = the floor's height
    Vec3 world;         // the same point in the mesh's own coordinates
};

struct UsableArea {
    double radius = 0;               // metres
    std::string radius_source;       // "--radius", "the roadmap's min clearance" or the default's reason
    double cell = 0;                 // raster spacing, metres
    double area = 0;                 // m^2, every layer
    std::vector<double> layer_area;  // m^2 per layer
    UsablePart reachable;            // the largest connected part (area 0 when nothing is usable)
    std::vector<UsablePart> islands; // unreachable parts, largest first
};

// What the drawings and summaries show beyond the asset itself.
struct PreviewOptions {
    double radius = -1; // usable area for this agent radius (metres); < 0: the roadmap's min
                        // clearance when it was baked with one, else 0.5 (cw-query's default)
    double cell = 0;    // usable-area raster spacing, metres; 0: min(radius / 4, level size / 500);
                        // never finer than 8 million cells over the level's layers
};

struct InspectSummary {
    std::string file;
    size_t bytes = 0;
    AssetKind kind = AssetKind::Footprint;
    std::string status = "ok"; // the loader's statusString
    uint32_t format_version = 0;
    std::string baker_version, source_name;
    uint64_t input_hash = 0, options_hash = 0;
    // Footprint and roadmap (a roadmap embeds its footprint).
    ImportOptions import_options;
    RoadmapOptions roadmap_options; // roadmap only
    Vec3 origin;                    // internal-frame position of local (0,0,0)
    double grid_spacing = 0;
    uint32_t connections = 0, walls = 0;
    std::vector<InspectLayer> layers;
    Vec3 local_min, local_max; // boundary and surface bounds, local frame (z up)
    Vec3 world_min, world_max; // the same box in the mesh's own coordinates (origin and up axis undone)
    // Roadmap only.
    uint32_t vertices = 0, edges = 0, portal_edges = 0, points = 0, blends = 0, arcs = 0; // arcs: radius > 0
    double clearance_min = 0, clearance_max = 0; // over non-portal edges' min_clearance
    // Footprint and roadmap: what an agent of the preview radius can use and reach.
    UsableArea usable;
    // Trims only.
    InspectTrims trims;
};

// Kind from the 4-byte file identifier (CWFP, CWRM, CWTT), never the extension; then that kind's
// runtime loader. `data` must be 8-byte aligned. ReadFailed (bad input, exit 2) naming `name` and
// the loader's status ("asset is corrupt", ...) for anything that does not verify.
// InvalidOption for a non-finite options.radius or a negative or non-finite options.cell.
Error inspectAssetBytes(const void* data, size_t size, const std::string& name, InspectSummary* out,
                        const PreviewOptions& options = {});
// Human summary (several lines) and one JSON object with the same content.
std::string inspectText(const InspectSummary& summary);
std::string inspectJson(const InspectSummary& summary);
// "NAME: KIND asset, verified (ok)" / {"file", "kind", "bytes", "status"}.
std::string inspectVerifyText(const InspectSummary& summary);
std::string inspectVerifyJson(const InspectSummary& summary);

// Drawings of verified bytes (empty when they do not verify). Footprints and roadmaps: each layer's
// floor in its own tint, walls black, connections magenta, roadmap edges coloured by clearance
// (legend), blends purple. Trims: one panel per initial control (all of them up to 25, else a
// selection), every trajectory from it in top view. The drawing group carries
// data-transform="s tx ty": local (x, y) is at pixel (tx + s x, ty - s y) of the SVG.
// Levels also show the usable area for options.radius (teal) and its unreachable islands (red
// hatch, each ringed), with both in the legend.
std::string inspectSvg(const void* data, size_t size, const std::string& title = "asset",
                       const PreviewOptions& options = {});
// The same SVG in one HTML page without any network access: drag pans, the wheel zooms, a
// checkbox per layer, and for roadmaps a radius input plus click-two-points path queries (A* in
// the page over the exported roadmap graph, edges usable when min clearance >= radius).
// The page's radius input starts at the usable area's radius.
std::string inspectHtml(const void* data, size_t size, const std::string& title,
                        const PreviewOptions& options = {});
// The roadmap colour ramp: 0xRRGGBB for a clearance on a legend running 0 .. max_clearance (the
// drawings use InspectSummary::clearance_max, at least 0.1 m). Red = tight, through orange,
// yellow and green, to blue = wide.
uint32_t clearanceColour(double clearance, double max_clearance);

struct InspectRequest {
    std::string path;
    std::string svg_path, html_path; // optional
    PreviewOptions preview;
};
// cw-inspect: reads and verifies request.path, writes the pictures asked for.
Error inspectFile(const InspectRequest& request, InspectSummary* out, LogContext& log);

} // namespace clearway::bake
