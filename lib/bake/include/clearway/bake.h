// clearway bake library: offline level processing (mesh import, walkable footprint, assets).
//
// Errors are returned as values (Error); nothing throws across this API. Logging goes through a
// LogContext the caller provides (the tools back it with spdlog), so the library never prints.
// CGAL and Assimp stay inside the .cpp files: including this header is cheap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clearway::bake {

// ---------------------------------------------------------------------------------------------
// Errors and logging

enum class ErrorCode {
    None = 0,
    InvalidOption,     // an option value is out of range
    FileNotFound,      // input path does not exist
    ReadFailed,        // exists but could not be read / parsed by the importer
    EmptyMesh,         // the file holds no triangles
    NonFiniteVertex,   // NaN or Inf in the vertex data
    NoWalkableSurface, // nothing an agent can stand on
    WriteFailed,       // output could not be written (nothing is left behind)
    Internal,          // a geometric invariant failed; the message names where
};

struct Error {
    ErrorCode code = ErrorCode::None;
    std::string message; // names the file and the problem
    explicit operator bool() const { return code != ErrorCode::None; }
};

// Exit code a tool returns for an error: 0 ok, 2 bad input, 3 bake failure, 4 I/O.
int exitCodeFor(const Error& error);

enum class LogLevel { Debug, Info, Warn, Error };

class LogContext {
  public:
    virtual ~LogContext() = default;
    virtual void log(LogLevel level, const std::string& message) = 0;
};

// Discards everything; for tests and library callers that do not care.
LogContext& silentLog();

// ---------------------------------------------------------------------------------------------
// Options

enum class UpAxis : uint8_t { Y = 0, Z = 1 };

struct ImportOptions {
    UpAxis up = UpAxis::Y;
    double scale = 1.0;        // world units -> metres
    double agent_height = 2.0; // metres of free space the agent needs above the surface
    double max_slope_deg = 45; // steepest walkable surface, degrees from horizontal
    double max_step = 0.4;     // metres: obstacles and ledges up to this height are stepped over
    double epsilon = 0.01;     // metres: boundaries are simplified no further than this
    // Threads the bake may use (0: every core). The output is byte-identical for any value, so
    // it is neither hashed (canonicalString) nor stored in assets.
    unsigned threads = 0;
};

ImportOptions defaultImportOptions();
// Checks ranges; the message names the option.
Error validate(const ImportOptions& options);
// Canonical text of the options (hashed into assets so --if-changed style checks are exact).
std::string canonicalString(const ImportOptions& options);

// ---------------------------------------------------------------------------------------------
// Geometry types. Internal frame: right-handed, Z up, metres. For Y-up input a world point
// (x, y, z) maps to (x, -z, y) * scale, which keeps handedness (a rotation, not a mirror).

struct Vec2 {
    double x = 0, y = 0;
};
struct Vec3 {
    double x = 0, y = 0, z = 0;
};

// Triangle soup in the internal frame, in absolute coordinates (double keeps 5 km offsets exact).
struct Mesh {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices; // 3 per triangle
    std::string source_name;       // file name, for messages
    uint64_t source_hash = 0;      // FNV-1a 64 of the file bytes (0 for generated meshes)
    size_t triangleCount() const { return indices.size() / 3; }
};

// World (file) coordinates -> internal frame, and back.
Vec3 worldToInternal(const Vec3& world, const ImportOptions& options);
Vec3 internalToWorld(const Vec3& internal, const ImportOptions& options);

// Reads any format Assimp reads. Node transforms are applied, polygons triangulated. Rejects a
// missing/unreadable file, zero triangles and non-finite vertices with a message naming the file.
Error loadMesh(const std::string& path, const ImportOptions& options, Mesh* out, LogContext& log);

// Builds a Mesh from world-space triangles (tests, generators). Same validation as loadMesh.
Error meshFromTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                        const ImportOptions& options, const std::string& name, Mesh* out);

// ---------------------------------------------------------------------------------------------
// Footprint

// A closed ring of ground-plane points in local coordinates. Outer rings counter-clockwise,
// holes clockwise; the last vertex is not repeated. Rings never cross; a ring may touch itself
// or another ring at a shared vertex (two rooms meeting at a corner).
using Ring = std::vector<Vec2>;

struct PolygonWithHoles {
    Ring outer;
    std::vector<Ring> holes;
};

struct SurfaceTriangle {
    uint32_t a = 0, b = 0, c = 0;
};

struct FootprintLayer {
    std::vector<PolygonWithHoles> polygons;
    // Triangulated walkable surface covering the layer (local x, y, z): height lookups.
    std::vector<Vec3> surface_vertices;
    std::vector<SurfaceTriangle> surface_triangles;
    double area = 0; // m^2, of the polygons as stored
    double height_min = 0, height_max = 0;
};

// Portal segment between two layers. Which side of the segment each layer lies on is not
// stored: test a point a little to either side against the layers' polygons.
struct Connection {
    uint32_t layer_a = 0, layer_b = 0;
    Vec2 p0, p1;               // portal segment, local ground-plane coordinates
    double z_a0 = 0, z_a1 = 0; // surface height on layer_a at p0, p1
    double z_b0 = 0, z_b1 = 0; // surface height on layer_b at p0, p1
};

struct Footprint {
    ImportOptions options;
    Vec3 origin;             // internal-frame position of local (0,0,0)
    double grid_spacing = 0; // boundary vertices lie on multiples of this (exact in float)
    std::vector<FootprintLayer> layers;
    std::vector<Connection> connections;
    std::string source_name;
    uint64_t input_hash = 0;
    uint64_t options_hash = 0;
};

struct FootprintStats {
    size_t layers = 0, connections = 0, polygons = 0, holes = 0, vertices = 0;
    double walkable_area = 0;
};
FootprintStats statsOf(const Footprint& footprint);

// The exact walkable footprint of a mesh (see docs in README: slope, clearance, step, layers).
Error buildFootprint(const Mesh& mesh, const ImportOptions& options, Footprint* out, LogContext& log);

// ---------------------------------------------------------------------------------------------
// Assets and output

// FlatBuffers bytes (schemas/footprint.fbs). Deterministic: same footprint -> same bytes.
std::vector<uint8_t> serializeFootprint(const Footprint& footprint);
// Reads a .cwfp back into the bake-side structs (verifies it first).
Error readFootprintFile(const std::string& path, Footprint* out);
Error readFootprintBytes(const std::vector<uint8_t>& bytes, const std::string& name, Footprint* out);

// Writes to PATH.tmp-XXXX in the same folder, then renames: a reader never sees a partial file.
Error writeFileAtomic(const std::string& path, const void* data, size_t size);
Error writeFileAtomic(const std::string& path, const std::string& text);

// SVG preview: every layer in its own colour, holes, connections.
std::string footprintSvg(const Footprint& footprint);
// One JSON object, the shape documented for `cw-import --json`.
std::string footprintJson(const Footprint& footprint, double seconds);

// Area (m^2) left when every layer is eroded by a disc of `radius` (what an agent of that radius
// can reach with its centre). Connections are not walls: erosion does not bite at portals.
// NaN for a negative or NaN radius, or a footprint CGAL rejects (self-crossing ring).
double erodedArea(const Footprint& footprint, double radius);

// Writes world-space triangles in an Assimp export format ("obj", "gltf2", "glb2", "ply", "fbx",
// "stl", ...): used to produce sample levels and to test every importer path.
Error exportTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                      const std::string& format_id, const std::string& path);

uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = 1469598103934665603ull);
const char* bakerVersion();

// ---------------------------------------------------------------------------------------------
// Tool entry points (each tool's main() is a thin wrapper over one of these)

struct ImportRequest {
    std::string mesh_path;
    std::string output_path; // .cwfp
    std::string svg_path;    // optional
    ImportOptions options;
    std::string edits_path; // designer edits; empty: <mesh without extension>.cwedit when it exists
    bool use_edits = true;  // false: ignore every sidecar (--no-edits)
};

struct ImportResult {
    Footprint footprint;
    double seconds = 0;
};

Error importLevel(const ImportRequest& request, ImportResult* result, LogContext& log);

// ---------------------------------------------------------------------------------------------
// ===== roadmap (medial axis) =====

struct RoadmapOptions {
    double min_clearance = 0; // metres: drop medial-axis edges narrower than this (0 keeps all radii)
    double epsilon = 0.01;    // metres: parabolic arcs become chords within this distance
    bool merge_chains = true; // replace degree-2 chains by straight edges where clearance allows
    unsigned threads = 0;     // threads the bake may use (0: every core); not hashed, output identical
};
RoadmapOptions defaultRoadmapOptions();

struct WallSegment {
    Vec2 a, b;
};

// What a point's clearance is measured from along one edge: exactly the distance to this point
// (point sites and parabola foci) or segment (wall sites); Walls: a merged straight edge, whose
// clearance at a point is the distance to the nearest wall (only its minimum is stored).
enum class ClearanceSite : uint8_t { Point = 0, Segment = 1, Walls = 2 };

struct RoadmapVertex {
    Vec3 position; // local; z from the layer surface
    uint32_t layer = 0;
    double clearance = 0; // distance to the nearest wall
};

struct RoadmapEdge {
    uint32_t a = 0, b = 0;                 // vertex indices
    std::vector<Vec2> points;              // polyline from a to b (both included)
    double min_clearance = 0;              // minimum over the whole polyline (exact)
    ClearanceSite site = ClearanceSite::Walls;
    Vec2 site_p0, site_p1;                 // the point (p0) or segment (p0-p1)
    Vec2 left_a, right_a, left_b, right_b; // nearest wall points left/right of the edge at a and at b
    bool portal = false;                   // crosses a connection between layers
};

// Circular blend joining edge_in (arriving at vertex) to edge_out (leaving it): an arc tangent to
// both at p_in / p_out, so a path through the vertex is C1. Blends with radius 0 mean the two
// edges are collinear (no arc needed) or no blend keeps the clearance (sharp turn).
struct Blend {
    uint32_t vertex = 0, edge_in = 0, edge_out = 0;
    Vec2 center, p_in, p_out;
    double radius = 0;
    bool ccw = true;          // arc direction from p_in to p_out
    double min_clearance = 0; // exact minimum distance from the arc to the walls
};

// A designer's weighted area on one layer (see "Designer edits"): a path's cost per metre inside
// it is multiplied by `weight` (> 1 avoided, < 1 preferred; overlapping areas multiply).
struct RoadmapArea {
    uint32_t layer = 0;
    double weight = 1;
    Ring polygon; // local, counter-clockwise, simple
};

// One tile of a tiled bake (cw-bake --tile-size; "Tiled worlds" in README). size 0: not a tile.
struct RoadmapTile {
    double size = 0, margin = 0;           // world (mesh file) units, in the horizontal plane of the world
    int32_t i = 0, j = 0;                  // the tile covers [i*size, (i+1)*size) x [j*size, (j+1)*size)
    std::vector<uint32_t> border_vertices; // vertices on the core's border (cut points), sorted
    uint32_t margin_reached = 0;           // core edges with clearance >= margin - 10 m (may differ untiled)
};

struct Roadmap {
    Footprint footprint; // walls and surfaces travel with the roadmap (one file per level)
    RoadmapOptions options;
    std::vector<RoadmapVertex> vertices;
    std::vector<RoadmapEdge> edges;
    std::vector<Blend> blends;
    uint64_t options_hash = 0;
    std::vector<RoadmapArea> areas;
    std::vector<double> edge_weights; // empty, or per edge: cost per metre (areas along it)
    RoadmapTile tile;                 // tile bakes only
};

struct RoadmapStats {
    size_t layers = 0, vertices = 0, edges = 0, arcs = 0, blends = 0, walls = 0;
    double seconds_voronoi = 0, seconds_roadmap = 0;
};

// Walls of a footprint layer: every boundary segment of its polygons.
std::vector<WallSegment> layerWalls(const FootprintLayer& layer);
// The same minus the pieces lying on a connection (a portal is walked through, not a wall). The
// roadmap's clearance guarantee (min_clearance, blends, joins) is against these.
std::vector<WallSegment> solidLayerWalls(const Footprint& footprint, uint32_t layer);

// Medial axis of `walls` restricted to `free_space` (a point is kept when it lies inside it).
// Walls may cross, touch, overlap or be degenerate: they are snap-rounded onto `grid_spacing`
// first and nothing is dropped (asserted: an error names the wall otherwise).
Error medialAxis(const std::vector<WallSegment>& walls, const std::vector<PolygonWithHoles>& free_space,
                 double grid_spacing, const RoadmapOptions& options, uint32_t layer,
                 std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges, size_t* wall_sites);

Error buildRoadmap(const Footprint& footprint, const RoadmapOptions& options, Roadmap* out, RoadmapStats* stats,
                   LogContext& log);

// Exact distance from a point / straight segment / circular arc to the nearest of `walls`.
double distanceToWalls(const std::vector<WallSegment>& walls, Vec2 p);

// Hash of the import + roadmap options, as a roadmap asset records it (options_hash): cw-bake
// --if-changed compares it with an existing asset's.
uint64_t roadmapOptionsHash(const ImportOptions& import_options, const RoadmapOptions& options);
std::vector<uint8_t> serializeRoadmap(const Roadmap& roadmap);
std::string roadmapSvg(const Roadmap& roadmap);

struct RoadmapRequest {
    std::string input_path;  // .cwfp (cw-roadmap) or a mesh (cw-bake)
    std::string output_path; // .cwrm
    std::string svg_path;
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
    size_t bytes = 0;
    double seconds_import = 0, seconds_write = 0, seconds_total = 0;
};
// cw-roadmap: footprint asset -> roadmap asset.
Error roadmapFromFootprint(const RoadmapRequest& request, RoadmapResult* result, LogContext& log);
// cw-bake: mesh -> footprint -> roadmap in one process.
Error bakeLevel(const RoadmapRequest& request, RoadmapResult* result, LogContext& log);
std::string roadmapJson(const RoadmapResult& result);

// ===== end roadmap =====

// ---------------------------------------------------------------------------------------------
// ===== trims (vehicle trim-trajectory tables) =====
// Vehicle control models (seed 001) pre-integrated into trim-trajectory tables (.cwtt,
// schemas/trims.fbs) with clearway::trims::integrateTrim, the integrator games run online.

// One angular-velocity axis: `samples` (odd, so 0 is a sample) rates over [-max_rate, +max_rate].
struct VehicleAxis {
    double max_rate = 0; // rad/s
    uint32_t samples = 1;
};

// The model spec (cw-trims MODEL.json); field meanings, units and limits in README.md.
struct VehicleModel {
    std::string name;
    int dimension = 2; // 2: yaw; 3: yaw + pitch (+ roll)
    VehicleAxis yaw, pitch, roll;
    double interval = 1.0; // s per control decision
    uint32_t steps = 20;   // Euler steps per interval
    double speed = 1.0;    // m/s the table is integrated at
    bool symmetric = true; // store half the trims, mirror the rest (y -> -y)
};

// Parses and validates a model spec. `source` names the file in messages, which also name the
// field and the problem ("boat.json: yaw.samples must be odd (got 4)").
Error parseVehicleModel(const std::string& json_text, const std::string& source, VehicleModel* out);
Error loadVehicleModel(const std::string& path, VehicleModel* out, uint64_t* input_hash);
Error validate(const VehicleModel& model, const std::string& source);
// Canonical text of the model (hashed into the table as options_hash).
std::string canonicalString(const VehicleModel& model);

struct TrimRecord {
    float position[3];
    float facing[3];
    float orientation[4]; // x, y, z, w
};

struct TrimTable {
    VehicleModel model;
    uint32_t controls = 0;
    std::vector<TrimRecord> trims;  // in trims::trimSlot order (the canonical half when symmetric)
    double max_chord_deviation = 0; // metres at model.speed
    uint64_t input_hash = 0, options_hash = 0;
    std::string source_name;
};

// Integrates every stored trim. Deterministic: the same model gives the same bytes.
Error bakeTrims(const VehicleModel& model, TrimTable* out, LogContext& log);
std::vector<uint8_t> serializeTrims(const TrimTable& table);

struct TrimsRequest {
    std::string model_path;
    std::string output_path; // .cwtt
};
struct TrimsResult {
    TrimTable table;
    size_t file_bytes = 0;
    double seconds = 0; // integration + serialisation
};
Error bakeTrimsFile(const TrimsRequest& request, TrimsResult* result, LogContext& log);
// One JSON object, the shape documented for `cw-trims --json`.
std::string trimsJson(const TrimsResult& result);
// ===== end trims =====

// ---------------------------------------------------------------------------------------------
// ===== bench =====
// Helpers for cw-bench (lib/bake/src/bench.cpp): generated levels and the bare CGAL baseline.

// A one-layer footprint: a square outer ring around (wall_segments - 4) / 4 non-overlapping box
// holes (half axis-aligned, half rotated), every vertex on the 2^-14 m grid, flat floor at z = 0.
// Walls = 4 per box + 4. The same seed gives the same level on every platform.
Footprint randomBoxesFootprint(size_t wall_segments, uint64_t seed);

// CPU seconds (user + sys) to build, then destroy, CGAL's Segment_Delaunay_graph_2 over `walls`
// exactly as medialAxis() does (same traits, points in Morton order, then segments), without
// clearway's checks or medial-axis extraction. Walls must be on the grid and crossing-free.
// `segment_sites` (optional) receives the number of segments CGAL accepted.
double bareSegmentDelaunaySeconds(const std::vector<WallSegment>& walls, double grid_spacing,
                                  size_t* segment_sites = nullptr);
// ===== end bench =====

// ---------------------------------------------------------------------------------------------
// ===== path metrics =====
// One measure of path quality for every benchmark (cw-bench query, cw-compare), whatever produced
// the path (clearway's findPath, Detour's straight path): a ground-plane polyline against the walls
// of the layers it crosses. Code: lib/bake/src/path_metrics.cpp.

} // namespace clearway::bake
namespace clearway {
struct PathSegment; // runtime.h: one line or arc of a findPath result
} // namespace clearway
namespace clearway::bake {

// Nearest-wall distance through a uniform grid over the walls: built once per layer, then queried
// millions of times (10,000 paths x dense samples). Exact: the same value as distanceToWalls.
class WallGrid {
  public:
    WallGrid() = default;
    // cell_size 0: about one wall per cell over the walls' bounding box.
    explicit WallGrid(const std::vector<WallSegment>& walls, double cell_size = 0);
    // Distance from p to the nearest wall; +infinity without walls. Thread-safe (const, no state).
    double distance(Vec2 p) const;
    size_t wallCount() const { return walls_.size(); }

  private:
    std::vector<WallSegment> walls_;
    std::vector<uint32_t> cell_start_, cell_walls_; // CSR: walls overlapping each cell
    Vec2 min_;
    double cell_ = 1;
    int nx_ = 0, ny_ = 0;
};

struct PathMetricsOptions {
    double step = 0.05; // m: clearance is sampled at every vertex and at most this far apart
    // Degrees: a vertex turning by more than this is a heading discontinuity. The threshold is
    // relative to the sampling: a C1 curve of radius R sampled every h metres turns h / R per
    // vertex, so at h = step = 0.05 m every arc with R >= step / threshold (1.43 m at 2 degrees)
    // stays below it; pathPolyline() samples tighter arcs more finely (at most threshold / 2 per
    // piece), so no arc of a findPath result counts. Consecutive vertices above it count as one
    // discontinuity (a kink that the sampling cut across) whose jump is their summed turn.
    double discontinuity_deg = 2.0;
};

struct PathMetrics {
    double length = 0;                  // m, ground plane
    double min_clearance = 0;           // m, minimum over the samples (+inf without walls)
    double mean_clearance = 0;          // m, arc-length weighted (trapezoid over the samples)
    size_t heading_discontinuities = 0; // see PathMetricsOptions::discontinuity_deg
    double max_heading_jump_deg = 0;    // largest discontinuity (0 when there is none)
    double max_curvature = 0;           // 1/m, over the smooth vertices (circle through 3 points)
    size_t sample_count = 0;            // clearance samples taken
};

// Metrics of `points` (local ground plane, in path order). `layers` is empty (every point on layer
// 0) or holds one layer per point; each clearance sample uses walls[layer] (solidLayerWalls, so a
// portal is not a wall), and a piece whose ends lie on different layers uses the first end's layer
// for its first half, the second end's for the rest. Repeated points are skipped.
PathMetrics measurePath(const std::vector<Vec2>& points, const std::vector<uint32_t>& layers,
                        const std::vector<WallGrid>& walls, const PathMetricsOptions& options = {});
PathMetrics measurePath(const std::vector<Vec2>& points, const WallGrid& walls,
                        const PathMetricsOptions& options = {});

// Dense polyline of a findPath result: every segment's ends are vertices (a C0 joint stays one
// vertex with its whole turn), lines are cut into pieces <= step, arcs into pieces <= step that
// turn by <= discontinuity_deg / 2. `layers` (optional) receives each point's layer: the
// segment's, and for the end of a portal segment the next segment's.
std::vector<Vec2> pathPolyline(const clearway::PathSegment* segments, uint32_t count,
                               const PathMetricsOptions& options = {}, std::vector<uint32_t>* layers = nullptr);
// ===== end path metrics =====

// ---------------------------------------------------------------------------------------------
// ===== in-memory import (lib/bake/src/import_memory.cpp) =====

// loadMesh for bytes already in memory. `format_hint` is the file extension Assimp would see
// ("obj", "glb", "ply", "stl", "off", ...; it picks the reader when the bytes do not say); `name`
// is used in messages. Only these bytes are read: references to other files (OBJ materials, glTF
// external buffers) are not followed. Same validation as loadMesh; source_hash hashes the bytes.
Error loadMeshFromMemory(const void* data, size_t size, const std::string& format_hint,
                         const ImportOptions& options, const std::string& name, Mesh* out, LogContext& log);
// ===== end in-memory import =====

// ---------------------------------------------------------------------------------------------
// ===== baselines (issue 7) =====
// The planners seed 002 surveys (potential field, uniform grid, quadtree, visibility graph, PRM,
// RRT) over one footprint layer and an agent radius, so cw-compare can run them next to findPath
// on the same queries. Each is a build step filling a plain struct and a query in the runtime's
// shape (start and goal in, polyline and status out). Free space is the same for all of them and
// for findPath: points inside the layer's polygons at distance >= radius from every ring edge
// (portal pieces included). Code: lib/bake/src/baselines_*.cpp, compare.cpp.

// Clearance every check forgives (metres): double rounding, not geometry.
constexpr double kPlanTolerance = 1e-9;

// One layer's walls in a uniform grid: exact clearance, inside and segment tests without a scan.
struct FreeSpace {
    std::vector<WallSegment> walls; // every ring edge of the layer (layerWalls)
    double radius = 0;
    Vec2 origin;     // grid corner (walls' bounding box, padded)
    double cell = 1; // grid cell size, metres
    uint32_t nx = 0, ny = 0;
    std::vector<uint32_t> cell_start, cell_walls; // CSR: walls meeting cell (x, y) = index y * nx + x
    std::vector<uint32_t> row_start, row_walls;   // CSR: walls whose y-span meets grid row y
    double area = 0;                              // m^2 of the layer's polygons
};
FreeSpace buildFreeSpace(const FootprintLayer& layer, double radius);
bool insideFootprint(const FreeSpace& space, Vec2 p);     // inside the layer's polygons (even-odd)
double clearanceAt(const FreeSpace& space, Vec2 p);       // exact distance to the nearest wall
bool pointFree(const FreeSpace& space, Vec2 p);           // inside and clearance >= radius
bool segmentFree(const FreeSpace& space, Vec2 a, Vec2 b); // pointFree(a) and all of ab keeps radius
size_t bytesOf(const FreeSpace& space);

enum class PlanStatus : uint8_t {
    Ok = 0,
    StartBlocked, // start outside the layer or closer than the radius to a wall
    GoalBlocked,
    NoPath,       // the method's structure does not connect them (not necessarily the level)
    LocalMinimum, // potential field: the descent stopped at a minimum that is not the goal
    StepLimit,    // potential field: no arrival within max_steps
};
const char* planStatusString(PlanStatus status);

struct PlannedPath {
    PlanStatus status = PlanStatus::NoPath;
    std::vector<Vec2> points; // start .. goal; empty unless Ok
    double length = 0;        // metres: exact for the visibility graph (arcs as arcs), else of points
};

// Visibility graph on the walls offset by the radius: the exact shortest path with clearance
// radius. It bends only on circles of the radius around reflex wall vertices, so its nodes are
// the tangent points of the bitangents between those circles (and of the tangents from start and
// goal), each with a sense of travel, and its edges are the clear tangent segments plus the clear
// arcs between consecutive tangent points of one circle and sense. Arcs are exact in `length`;
// `points` samples them every arc_step_deg (chords: clearance dips by radius*(1-cos(step/2))).
struct VisibilityOptions {
    double arc_step_deg = 1.0;
};
struct VisibilityGraph {
    struct Node {
        uint32_t disc = 0;
        bool ccw = true; // sense of travel round the disc
        double angle = 0;
        Vec2 point;
    };
    struct Edge {
        uint32_t to = 0;
        double length = 0;
        bool arc = false;
    };
    FreeSpace space;
    VisibilityOptions options;
    std::vector<Vec2> discs;                       // reflex wall vertices (circle centres)
    std::vector<std::vector<uint32_t>> disc_walls; // walls within 2 radius of each disc (arc checks)
    std::vector<Node> nodes;
    std::vector<uint32_t> edge_start; // CSR over nodes
    std::vector<Edge> edges;
    std::vector<std::vector<uint32_t>> chains; // per disc * 2 + ccw: its nodes by increasing angle
};
Error buildVisibilityGraph(const FootprintLayer& layer, double radius, const VisibilityOptions& options,
                           VisibilityGraph* out);
PlannedPath visibilityPath(const VisibilityGraph& graph, Vec2 start, Vec2 goal);
size_t bytesOf(const VisibilityGraph& graph);

// Uniform grid: cell centres in free space, 8-connected moves whose segment is clear, A*
// (Euclidean heuristic), then optional line-of-sight smoothing (drop a waypoint while the segment
// past it is clear). Start and goal join every free centre within 2 cells they see.
struct GridOptions {
    double cell = 0; // metres; 0: radius / 2
    bool smooth = true;
};
struct GridPlanner {
    FreeSpace space;
    GridOptions options;
    Vec2 origin; // centre of cell (0, 0)
    double cell = 0;
    uint32_t nx = 0, ny = 0;
    // Per cell: bit d set when the move to neighbour d is clear, d = 0..7 counter-clockwise from +x:
    // (1,0) (1,1) (0,1) (-1,1) (-1,0) (-1,-1) (0,-1) (1,-1).
    std::vector<uint8_t> moves;
};
Error buildGrid(const FootprintLayer& layer, double radius, const GridOptions& options, GridPlanner* out);
PlannedPath gridPath(const GridPlanner& grid, Vec2 start, Vec2 goal);
size_t bytesOf(const GridPlanner& grid);

// Quadtree waypoints (seed 002 Fig. 3c): cells that are neither wholly free nor wholly blocked
// are split down to min_cell; waypoints are the free corners of the leaves (hanging ones
// included), joined within each leaf (without a check in a wholly free leaf); A*, no smoothing.
struct QuadtreeOptions {
    double min_cell = 0; // metres; 0: radius / 2
};
struct QuadtreePlanner {
    struct Cell {
        uint32_t x = 0, y = 0, size = 0; // in units of min_cell
        int32_t child = -1;              // first of four children, or -1 for a leaf
        uint8_t kind = 0;                // 0 free, 1 mixed, 2 blocked
    };
    FreeSpace space;
    QuadtreeOptions options;
    Vec2 origin;
    double unit = 0;         // min_cell
    std::vector<Cell> cells; // cells[0] is the root
    std::vector<Vec2> waypoints;
    std::vector<uint64_t> waypoint_keys;       // sorted lattice keys (x << 32 | y) ...
    std::vector<uint32_t> waypoint_ids;        // ... and their waypoint
    std::vector<uint32_t> edge_start, edge_to; // CSR over waypoints
};
Error buildQuadtree(const FootprintLayer& layer, double radius, const QuadtreeOptions& options,
                    QuadtreePlanner* out);
PlannedPath quadtreePath(const QuadtreePlanner& tree, Vec2 start, Vec2 goal);
size_t bytesOf(const QuadtreePlanner& tree);

// Probabilistic roadmap: `samples` free points (uniform in the bounding box, rejection, fixed
// seed), each joined to its k nearest when the segment is clear; queries join start and goal to
// their k nearest visible samples, then A*. Fails (NoPath) when the samples miss a passage.
struct PrmOptions {
    uint32_t samples = 0; // 0: one per 2 m^2 of the layer, 200..3000
    uint32_t k = 10;
    uint64_t seed = 1;
};
struct PrmPlanner {
    FreeSpace space;
    PrmOptions options;
    std::vector<Vec2> nodes;
    std::vector<uint32_t> edge_start, edge_to; // CSR over nodes
};
Error buildPrm(const FootprintLayer& layer, double radius, const PrmOptions& options, PrmPlanner* out);
PlannedPath prmPath(const PrmPlanner& prm, Vec2 start, Vec2 goal);
size_t bytesOf(const PrmPlanner& prm);

// Rapidly-exploring random tree as seed 002 grows it: each sample (anywhere in the bounding box)
// is joined from the nearest point of the tree (an edge's interior splits it) by the longest
// clear piece of the segment towards it. One tree per polygon of the layer, rooted at a free point
// of it. Queries join start and goal to the nearest tree point they see and follow the tree.
struct RrtOptions {
    uint32_t iterations = 0; // 0: ten per m^2 of the layer, 2000..30000
    uint64_t seed = 1;
};
struct RrtPlanner {
    FreeSpace space;
    RrtOptions options;
    std::vector<Vec2> vertices;
    std::vector<uint32_t> parent; // a root is its own parent
    std::vector<uint32_t> depth;  // edges to the root
};
Error buildRrt(const FootprintLayer& layer, double radius, const RrtOptions& options, RrtPlanner* out);
PlannedPath rrtPath(const RrtPlanner& rrt, Vec2 start, Vec2 goal);
size_t bytesOf(const RrtPlanner& rrt);

// Potential field (seed 002): attraction to the goal (quadratic within conic_distance, conic
// beyond) plus, per wall within `influence` of the agent's disc, repulsion / 2 * (1/d - 1/influence)^2
// with d = clearance - radius, faded by (distance to goal / influence)^2 near the goal (so a goal
// next to a wall is still the minimum). Gradient descent with a fixed step along -grad: a step
// must lower the potential and stay clear, else it is halved; when it falls below step / 1024, or
// 100 steps move less than one step, the descent sits in a minimum that is not the goal:
// LocalMinimum. The goal is reached once it is within a step and in sight.
struct PotentialOptions {
    double step = 0;           // metres; 0: radius / 4
    double attraction = 1;     // gain of the goal term
    double repulsion = 0.02;   // gain of each wall term
    double influence = 1.5;    // metres of clearance beyond the radius a wall still pushes
    double conic_distance = 2; // metres: attraction grows linearly beyond this
    uint32_t max_steps = 20000;
};
struct PotentialPlanner {
    FreeSpace space;
    PotentialOptions options;
};
Error buildPotentialField(const FootprintLayer& layer, double radius, const PotentialOptions& options,
                          PotentialPlanner* out);
PlannedPath potentialPath(const PotentialPlanner& field, Vec2 start, Vec2 goal);
size_t bytesOf(const PotentialPlanner& field);

// cw-compare: every method on the same random queries of one level.
struct CompareQuery {
    uint32_t layer = 0;
    Vec2 start, goal;
};
struct CompareRequest {
    std::string input_path; // a mesh (imported with import_options) or a .cwfp footprint
    ImportOptions import_options;
    double radius = 0.5;
    uint32_t pairs = 100; // queries the visibility graph connects (start and goal on one layer)
    uint64_t seed = 1;
    std::string svg_path; // optional: the first query's paths from every method over the walls
    bool grid_smooth = true;
    double preferred_clearance = 0;    // findPath's; 0: the radius (shortest), +inf: the medial-axis path
    std::vector<CompareQuery> queries; // tests: these pairs instead of random ones (`pairs` unused)
};
struct MethodStats {
    std::string name; // medial, visibility, grid, quadtree, prm, rrt, potential
    double build_seconds = 0;
    size_t bytes = 0;
    double query_us_mean = 0, query_us_p99 = 0;
    uint32_t queries = 0, successes = 0;
    double success_rate = 0; // successes / queries (every query is one the visibility graph solves)
    double length_ratio_mean = 0, length_ratio_max = 0; // to the visibility graph's length
    double min_clearance = 0, mean_clearance = 0;       // over successful paths (mean: per path, averaged)
    double mean_clearance_common = 0;   // the same mean over the pairs every method solved (pairs_common)
    size_t heading_discontinuities = 0; // summed over successful paths
    double max_heading_jump_deg = 0, max_curvature = 0;
    uint32_t local_minima = 0; // potential field failures that were local minima
};
struct CompareResult {
    std::string level;
    double radius = 0;
    uint32_t layers = 0, pairs = 0, pairs_drawn = 0; // drawn: pairs tried, incl. ones not connected
    uint32_t pairs_common = 0;                       // pairs every method found a path for
    std::vector<MethodStats> methods;
};
// The same on a footprint already in memory (tests); svg_path and input_path of request unused.
Error compareFootprint(const Footprint& footprint, const CompareRequest& request, CompareResult* result,
                       LogContext& log, std::string* svg = nullptr);
Error compareMethods(const CompareRequest& request, CompareResult* result, LogContext& log);
std::string compareJson(const CompareResult& result);
std::string compareTable(const CompareResult& result); // Markdown, one row per method
// ===== end baselines =====

// ---------------------------------------------------------------------------------------------
// ===== query (cw-query; lib/bake/src/query.cpp) =====
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
// ===== end query =====

// ---------------------------------------------------------------------------------------------
// ===== inspect (cw-inspect; lib/bake/src/inspect.cpp) =====
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
    // Trims only.
    InspectTrims trims;
};

// Kind from the 4-byte file identifier (CWFP, CWRM, CWTT), never the extension; then that kind's
// runtime loader. `data` must be 8-byte aligned. ReadFailed (bad input, exit 2) naming `name` and
// the loader's status ("asset is corrupt", ...) for anything that does not verify.
Error inspectAssetBytes(const void* data, size_t size, const std::string& name, InspectSummary* out);
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
std::string inspectSvg(const void* data, size_t size);
// The same SVG in one HTML page without any network access: drag pans, the wheel zooms, a
// checkbox per layer, and for roadmaps a radius input plus click-two-points path queries (A* in
// the page over the exported roadmap graph, edges usable when min clearance >= radius).
std::string inspectHtml(const void* data, size_t size, const std::string& title);
// The roadmap colour ramp: 0xRRGGBB for a clearance on a legend running 0 .. max_clearance (the
// drawings use InspectSummary::clearance_max, at least 0.1 m). Red = tight, through orange,
// yellow and green, to blue = wide.
uint32_t clearanceColour(double clearance, double max_clearance);

struct InspectRequest {
    std::string path;
    std::string svg_path, html_path; // optional
};
// cw-inspect: reads and verifies request.path, writes the pictures asked for.
Error inspectFile(const InspectRequest& request, InspectSummary* out, LogContext& log);
// ===== end inspect =====

// ---------------------------------------------------------------------------------------------
// ===== designer edits (lib/bake/src/edits.cpp; README "Designer edits") =====
// A line-based sidecar next to the mesh (<mesh without extension>.cwedit) with fake obstacles,
// weighted areas and manual roadmap nodes and edges, in the mesh's world coordinates. cw-import
// and cw-bake pick it up; its bytes are part of the assets' input hash. Every problem is an Error
// (ReadFailed, exit code 2) whose message is "FILE:LINE: what is wrong".

// Polygons use the two horizontal world axes (x, z with --up y; x, y with --up z), `floor` and
// node heights the up axis; everything in mesh units (--scale applies).
struct EditPolygon {
    uint32_t line = 0;
    std::vector<Vec2> points; // world horizontal coordinates, as written (any winding)
    bool has_floor = false;
    double floor = 0; // world up coordinate: the layer whose surface is nearest this height there
};
struct EditArea {
    EditPolygon polygon;
    double weight = 1; // > 0
};
struct EditNode {
    uint32_t line = 0;
    std::string name; // empty for a point written directly in an edge statement
    Vec3 world;
};
struct EditEdge {
    uint32_t line = 0;
    uint32_t a = 0, b = 0; // indices into LevelEdits::nodes
};
struct LevelEdits {
    std::string source; // the file, for messages; empty: no edits
    std::string text;   // its bytes (hashed into the assets' input hash)
    std::vector<EditPolygon> obstacles;
    std::vector<EditArea> areas;
    std::vector<EditNode> nodes;
    std::vector<EditEdge> edges;
};

// "<dir>/<name without its last extension>.cwedit".
std::string defaultEditsPath(const std::string& mesh_path);
// The sidecar a request uses: `explicit_path` when set, else the default one when it exists;
// empty when there is none or `use_edits` is false.
std::string editsPathFor(const std::string& mesh_path, const std::string& explicit_path, bool use_edits);
Error parseEdits(const std::string& text, const std::string& source, LevelEdits* out);
// FileNotFound / ReadFailed naming the path, or parseEdits' errors.
Error loadEdits(const std::string& path, LevelEdits* out);
// A mesh's input hash with the sidecar's bytes folded in (unchanged without edits).
uint64_t inputHashWithEdits(uint64_t mesh_hash, const LevelEdits& edits);
// Obstacles cut the walkable area of their layers (exact booleans, boundary rounded onto the
// footprint grid, connections clipped); nodes and edges are checked against the result.
Error applyFootprintEdits(const LevelEdits& edits, Footprint* footprint, LogContext& log);
// On a roadmap built from the edited footprint: manual nodes (each linked to the nearest roadmap
// vertex it sees) and edges with exact clearance, the weighted areas and every edge's weight.
Error applyRoadmapEdits(const LevelEdits& edits, Roadmap* roadmap, LogContext& log);
// ===== end designer edits =====

// ---------------------------------------------------------------------------------------------
// ===== tiles (worlds larger than one bake; lib/bake/src/tiles.cpp, README "Tiled worlds") =====
// cw-bake --tile-size T --tile I,J bakes one square tile of a level's world horizontal plane (its
// geometry plus a margin) into a tile roadmap asset; cw-stitch welds tiles into one roadmap asset
// that equals the untiled bake up to subdivision wherever the clearance is below the margin.

// Reads a roadmap asset back into the bake-side structs (verifies it with the runtime's loader).
Error readRoadmapBytes(const std::vector<uint8_t>& bytes, const std::string& name, Roadmap* out);
Error readRoadmapFile(const std::string& path, Roadmap* out);

// cw-bake --tile-size: one tile (request.tile_*) of request.input_path -> request.output_path.
// bakeLevel calls this when request.tile_size != 0.
Error bakeTile(const RoadmapRequest& request, RoadmapResult* result, LogContext& log);

struct StitchOptions {
    double weld_epsilon = 1e-3; // metres: border vertices of neighbouring tiles closer than this are one
};
struct StitchStats {
    size_t tiles = 0, welded = 0; // welded: border vertices joined to a neighbour's
    size_t unmatched = 0;         // border vertices no other tile continues (the world's edge, or the margin)
    size_t margin_reached = 0;    // summed over the tiles
    size_t layers = 0, vertices = 0, edges = 0, blends = 0, walls = 0; // walls: footprint ring edges
};
// Joins tiles of one world (same mesh, options, tile size and margin; distinct I,J). `names`
// name the tiles in messages. The result is a plain roadmap asset (no tile record).
Error stitchTiles(const std::vector<Roadmap>& tiles, const std::vector<std::string>& names,
                  const StitchOptions& options, Roadmap* out, StitchStats* stats, LogContext& log);

struct StitchRequest {
    std::vector<std::string> tile_paths;
    std::string output_path; // .cwrm
    std::string svg_path;
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
std::string stitchJson(const StitchResult& result);

// "Same roadmap up to subdivision": the junctions (degree != 2) of both match one to one within
// position_epsilon (ground plane; heights within height_epsilon) and clearance_epsilon, and so do
// the chains of degree-2 vertices between them: same end junctions, minimum clearance within
// clearance_epsilon (closed loops without a junction are matched by clearance alone).
struct TopologyOptions {
    double position_epsilon = 0.01, height_epsilon = 0.05, clearance_epsilon = 0.01;
};
struct TopologyComparison {
    bool equal = false;
    size_t junctions_a = 0, junctions_b = 0, chains_a = 0, chains_b = 0;
    size_t unmatched_junctions = 0, unmatched_chains = 0;   // on either side
    double max_position_error = 0, max_clearance_error = 0; // over matched junctions and chains
    std::vector<std::string> differences; // the first few, in words (local coordinates of a)
};
TopologyComparison compareRoadmapTopology(const Roadmap& a, const Roadmap& b,
                                          const TopologyOptions& options = {});
// ===== end tiles =====

} // namespace clearway::bake
