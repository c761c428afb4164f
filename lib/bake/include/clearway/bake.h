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

struct Roadmap {
    Footprint footprint; // walls and surfaces travel with the roadmap (one file per level)
    RoadmapOptions options;
    std::vector<RoadmapVertex> vertices;
    std::vector<RoadmapEdge> edges;
    std::vector<Blend> blends;
    uint64_t options_hash = 0;
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

std::vector<uint8_t> serializeRoadmap(const Roadmap& roadmap);
std::string roadmapSvg(const Roadmap& roadmap);

struct RoadmapRequest {
    std::string input_path;  // .cwfp (cw-roadmap) or a mesh (cw-bake)
    std::string output_path; // .cwrm
    std::string svg_path;
    ImportOptions import_options;
    RoadmapOptions roadmap_options;
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

} // namespace clearway::bake
