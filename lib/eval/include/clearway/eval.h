// clearway evaluation: path metrics shared by every benchmark, and the planners Mount's lecture
// "Motion Planning: Finding Paths" (CMSC 425) surveys, run next to findPath by cw-compare. Not part
// of the bake: nothing here is written into an asset.
#pragma once

#include <clearway/bake.h>

#include <limits>

namespace clearway {
struct PathSegment; // runtime.h: one line or arc of a findPath result
} // namespace clearway

namespace clearway::bake {

// One measure of path quality for every benchmark (cw-bench query, cw-compare), whatever produced
// the path (clearway's findPath, Detour's straight path): a ground-plane polyline against the walls
// of the layers it crosses. Code: lib/eval/src/path_metrics.cpp.

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

// The planners Mount's lecture surveys (potential field, uniform grid, quadtree, visibility graph, PRM,
// RRT) over one footprint layer and an agent radius, so cw-compare can run them next to findPath
// on the same queries. Each is a build step filling a plain struct and a query in the runtime's
// shape (start and goal in, polyline and status out). Free space is the same for all of them and
// for findPath: points inside the layer's polygons at distance >= radius from every ring edge
// (portal pieces included). Code: lib/eval/src/baselines_*.cpp, compare.cpp.

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

// Quadtree waypoints (Mount's lecture Fig. 3c): cells that are neither wholly free nor wholly blocked
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

// Budgets of the sampling planners that scale with the level, so that a large cluttered level gets
// as many samples per corridor as a small room (a fixed count starves the baselines). Two terms,
// the larger one wins, clamped to [floor, cap] (the cap bounds memory and build time):
//   by_area  = per_area * free_area / radius^2 (free_area: the part of the layer's bounding box at
//              clearance >= radius, Monte-Carlo with a fixed seed), samples per agent footprint;
//   by_walls = per_wall * walls (ring edges): each wall adds corners a path has to get round.
// PRM samples: per_area 1/8 (one per 2 m^2 at radius 0.5), per_wall 2, floor 200, cap 100,000.
// RRT iterations: per_area 2.5 (ten per m^2 at radius 0.5), per_wall 20, floor 2,000, cap 1,000,000.
// (The old fixed defaults were the area terms of the polygons' area, capped at 3,000 / 30,000.)
struct SamplingBudget {
    double free_area = 0; // m^2
    uint32_t walls = 0;
    uint32_t by_area = 0, by_walls = 0;
    uint32_t floor = 0, cap = 0;
    uint32_t count = 0;  // what the planner used: max(by_area, by_walls) clamped, or the option given
    bool given = false;  // the option set the count (no formula)
    bool capped = false; // the formula asked for more than the cap
};
double freeArea(const FreeSpace& space); // the Monte-Carlo estimate above
SamplingBudget prmSampleBudget(const FreeSpace& space);
SamplingBudget rrtIterationBudget(const FreeSpace& space);

// Probabilistic roadmap: `samples` free points (uniform in the bounding box, rejection, fixed
// seed), each joined to its k nearest when the segment is clear; queries join start and goal to
// their k nearest visible samples, then A*. Fails (NoPath) when the samples miss a passage.
struct PrmOptions {
    uint32_t samples = 0; // 0: prmSampleBudget
    uint32_t k = 10;
    uint64_t seed = 1;
};
struct PrmPlanner {
    FreeSpace space;
    PrmOptions options;
    SamplingBudget budget;
    std::vector<Vec2> nodes;
    std::vector<uint32_t> edge_start, edge_to; // CSR over nodes
};
Error buildPrm(const FootprintLayer& layer, double radius, const PrmOptions& options, PrmPlanner* out);
PlannedPath prmPath(const PrmPlanner& prm, Vec2 start, Vec2 goal);
size_t bytesOf(const PrmPlanner& prm);

// Rapidly-exploring random tree as Mount's lecture grows it: each sample (anywhere in the bounding box)
// is joined from the nearest point of the tree (an edge's interior splits it) by the longest
// clear piece of the segment towards it. One tree per polygon of the layer, rooted at a free point
// of it. Queries join start and goal to the nearest tree point they see and follow the tree.
struct RrtOptions {
    uint32_t iterations = 0; // 0: rrtIterationBudget
    uint64_t seed = 1;
};
struct RrtPlanner {
    FreeSpace space;
    RrtOptions options;
    SamplingBudget budget;
    std::vector<Vec2> vertices;
    std::vector<uint32_t> parent; // a root is its own parent
    std::vector<uint32_t> depth;  // edges to the root
};
Error buildRrt(const FootprintLayer& layer, double radius, const RrtOptions& options, RrtPlanner* out);
PlannedPath rrtPath(const RrtPlanner& rrt, Vec2 start, Vec2 goal);
size_t bytesOf(const RrtPlanner& rrt);

// Potential field (Mount's lecture): attraction to the goal (quadratic within conic_distance, conic
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
    std::string input_path;               // a mesh (imported with import_options) or a .cwfp footprint
    const Footprint* footprint = nullptr; // else this one, already built (cw-compare's generated levels)
    ImportOptions import_options;
    double radius = 0.5;
    uint32_t pairs = 100; // queries the visibility graph connects (start and goal on one layer)
    uint64_t seed = 1;
    std::string svg_path; // optional: the first query's paths from every method over the walls
    bool grid_smooth = true;
    // findPath's for the method medial-pc (medial always runs at the radius, like every baseline);
    // 0: the radius (shortest), +inf: the medial-axis path.
    double preferred_clearance = std::numeric_limits<double>::infinity();
    std::vector<CompareQuery> queries; // tests: these pairs instead of random ones (`pairs` unused)
    uint32_t prm_samples = 0, rrt_iterations = 0; // per layer; 0: their budgets (prmSampleBudget ...)
};
struct MethodStats {
    std::string name; // medial, visibility, grid, quadtree, prm, rrt, potential, medial-pc
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
    // prm (samples) and rrt (iterations): their budgets summed over the layers (capped: on any).
    SamplingBudget budget;
};
struct CompareResult {
    std::string level;
    double radius = 0;
    uint32_t layers = 0, pairs = 0, pairs_drawn = 0; // drawn: pairs tried, incl. ones not connected
    uint32_t pairs_common = 0;                       // pairs every method found a path for
    double preferred_clearance = 0;                  // medial-pc's operating point (medial's: radius)
    std::vector<MethodStats> methods;
};
// The same on a footprint already in memory (tests); svg_path and input_path of request unused.
Error compareFootprint(const Footprint& footprint, const CompareRequest& request, CompareResult* result,
                       LogContext& log, std::string* svg = nullptr);
Error compareMethods(const CompareRequest& request, CompareResult* result, LogContext& log);
std::string compareJson(const CompareResult& result);
std::string compareTable(const CompareResult& result); // Markdown, one row per method
// What the table compares: each row's operating point (preferred clearance) and the sampling
// planners' budgets with the terms of their formulas. Plain text, one line each.
std::string compareNotes(const CompareResult& result);

} // namespace clearway::bake
