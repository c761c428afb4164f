// cw-bench query: clearway's findPath next to Detour on the same random start/goal pairs, at
// preferred clearance = radius and = 2x radius, then along the medial axis itself; then raycast and
// moveAlongSurface next to Detour's from the same starts. Measured in query_bench.cpp and
// character_bench.cpp, reported in query_report.cpp.
#pragma once

#include "cw_bench.h"
#include "recast_peer.h"

#include <clearway/runtime.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

namespace clearway::bench {

// The query benchmark's targets: length <= 1.02x Detour's at preferred clearance = radius, <= 1.10x
// with mean clearance >= 2x Detour's at 2x radius; time <= 1.5x Detour's whole query on every mesh.
constexpr double kNearLengthTarget = 1.02, kWideLengthTarget = 1.10, kClearanceTarget = 2.0,
                 kQueryTimeTarget = 1.5;
// Preferred clearances (times the radius) of the monotonicity check: the length at the radius
// must not exceed the length at any of them.
constexpr double kMonotoneFactors[] = {1.25, 1.5, 2.0, 3.0, 5.0};

struct PathSide {
    std::vector<double> micros;
    std::vector<bake::PathMetrics> metrics;
};

struct QueryPass {
    double preferred = 0;
    size_t clearway_failures = 0; // accepted pairs findPath did not answer at this preferred clearance
    PathSide cw, dt;
    // Over the pairs both answered.
    double cw_mean_us = NAN, cw_p99_us = NAN, dt_mean_us = NAN, dt_p99_us = NAN, time_ratio = NAN;
    double cw_locate_mean_us = NAN; // of cw_mean_us: the two locatePoint calls
    double length_ratio_mean = NAN, length_ratio_p99 = NAN, length_ratio_max = NAN;
    double cw_min_clearance = NAN, cw_mean_clearance = NAN, dt_min_clearance = NAN, dt_mean_clearance = NAN;
    double cw_mean_min_clearance = NAN, dt_mean_min_clearance = NAN, clearance_ratio = NAN;
    size_t cw_discontinuities = 0, dt_discontinuities = 0, cw_paths_with_discontinuity = 0,
           dt_paths_with_discontinuity = 0;
    double cw_max_jump_deg = 0, dt_max_jump_deg = 0;
    double length_target = NAN;
    bool clearance_target = false;
    bool medial = false; // preferred = +inf: the medial-axis path, no targets
    // findPath's own phases (pathPhaseTiming, one untimed-loop run over every pair), per query.
    clearway::PathPhaseTimes phases{};
};

// Monotonicity in the preferred clearance over every pair: at the radius never longer than at a
// larger preferred clearance (kMonotoneFactors), beyond 1e-6 m.
struct MonotoneCheck {
    size_t comparisons = 0, violations = 0;
    double worst_excess = 0; // metres
};

// raycast and moveAlongSurface next to Detour's (character_bench.cpp): one ray per pair, from the
// pair's start (clearance >= radius, on Detour's mesh) in a random direction, a random length up to
// QueryArgs::ray_length.
struct CharacterQueries {
    size_t rays = 0;
    // clearway's rays: stopped by a wall, reached the end, Blocked at the start, stopped on a portal
    // whose far side locatePoint did not give (or after kMaxRayLegs layers); portals crossed.
    size_t cw_hits = 0, cw_free = 0, cw_blocked = 0, cw_stopped_at_portal = 0, cw_portals_crossed = 0;
    // Detour's: a wall hit (t < 1), reached the end (t = FLT_MAX), no start polygon or a failure.
    size_t dt_hits = 0, dt_free = 0, dt_failed = 0;
    double cw_ray_mean_us = NAN, cw_ray_p99_us = NAN, dt_ray_mean_us = NAN, dt_ray_p99_us = NAN,
           ray_time_ratio = NAN;
    // Over the rays both answered (clearway hit or free, Detour hit or free): the share where both
    // say hit or both say free, and |distance travelled by clearway - by Detour|, metres.
    size_t compared = 0, agreed = 0;
    double distance_diff_median = NAN, distance_diff_p90 = NAN, cw_mean_distance = NAN,
           dt_mean_distance = NAN;
    // moveAlongSurface along the same rays (one layer: a portal stops clearway's, counted).
    size_t cw_moves_ok = 0, cw_moves_portal = 0, cw_moves_other = 0, dt_moves_ok = 0;
    double cw_move_mean_us = NAN, cw_move_p99_us = NAN, dt_move_mean_us = NAN, dt_move_p99_us = NAN,
           move_time_ratio = NAN;
    // Over the moves both answered Ok: ground-plane distance between the two end points, metres.
    size_t moves_compared = 0;
    double move_diff_median = NAN, move_diff_p90 = NAN;
};

// A ray's start: a local point with the layer it was drawn on, and the same point in Detour's frame.
struct RayStart {
    bake::Vec3 p;
    float d[3];
};

// Times and compares the character queries from `starts` on a loaded roadmap and Detour's navmesh.
CharacterQueries runCharacterQueries(const QueryArgs& args, const clearway::RoadmapView& view,
                                     const clearway::PathScratch* scratch, Detour& dt,
                                     const std::vector<RayStart>& starts);

// Temporary obstacles next to Detour TileCache's (obstacle_bench.cpp): the same discs added to
// clearway's obstacle set and, as cylinders grown by the agent radius (TileCache does not erode
// obstacles), to a dtTileCache of the same triangles; the time to add them (TileCache: addObstacle
// plus update until the navmesh is up to date) and to remove them, and path queries with them.
constexpr int kBenchObstacles = 32;
constexpr double kBenchObstacleRadius = 0.5;
struct ObstacleQueries {
    size_t obstacles = 0;
    int tiles = 0, tile_layers = 0;
    double tilecache_build_s = NAN;
    // Per obstacle, the fastest of `repeats` runs of adding (removing) all of them.
    double cw_add_us = NAN, dt_add_us = NAN, add_ratio = NAN, cw_remove_us = NAN, dt_remove_us = NAN;
    // Path queries with the obstacles in place: clearway 2x locatePoint + findPathAvoiding, Detour
    // 2x findNearestPoly + findPath + findStraightPath on the TileCache navmesh.
    size_t pairs = 0, cw_ok = 0, dt_ok = 0, cw_changed = 0; // changed: differs from findPath's path
    double cw_mean_us = NAN, cw_p99_us = NAN, dt_mean_us = NAN, dt_p99_us = NAN, time_ratio = NAN;
    double cw_plain_mean_us = NAN; // the same pairs, findPath without obstacles
};
// A pair's ends (the same point in both frames).
struct QueryEnds {
    RayStart from, to;
};
ObstacleQueries runObstacleQueries(const QueryArgs& args, const clearway::RoadmapView& view,
                                   clearway::PathScratch* scratch, const ObjMesh& mesh,
                                   const std::vector<QueryEnds>& pairs);

// Per-query clocks and statistics (query_bench.cpp).
double sinceMicros(std::chrono::steady_clock::time_point t0);
double percentile(std::vector<double> v, double q);
double mean(const std::vector<double>& v);

struct QueryMesh {
    std::string name;
    size_t layers = 0, detour_polys = 0;
    double walkable_area = 0;
    size_t points_drawn = 0, rejected_near_wall = 0, rejected_off_detour = 0;
    size_t rejected_locate = 0; // locatePoint names another layer than the one sampled (or none)
    size_t pairs_drawn = 0, rejected_clearway = 0, rejected_detour = 0, rejected_both = 0;
    // Of rejected_clearway: Detour's path there passes a wall closer than the radius (measured), so
    // refusing is right; the rest are pairs clearway misses although Detour found a clear way.
    size_t rejected_clearway_narrow = 0;
    size_t pairs = 0;
    // findPath's memory: the roadmap's shared path data (once per asset) and one thread's scratch.
    size_t path_shared_bytes = 0, path_scratch_bytes = 0;
    // The most route points one query of the run used, and a scratch sized for such routes
    // (pathScratchSizeForRoutes): what a game would give each thread for these queries.
    uint32_t max_route_points = 0;
    size_t path_scratch_bytes_for_routes = 0;
    size_t scratch_for_routes_differences = 0; // pairs x passes it answered otherwise (expected 0)
    std::vector<QueryPass> passes;
    MonotoneCheck monotone;
    CharacterQueries character;
    ObstacleQueries obstacles;
};

// Bakes the mesh, builds Detour's navmesh of the same triangles, draws the pairs and runs every pass.
bake::Error runQueryMesh(const QueryArgs& args, const std::string& mesh_path, QueryMesh* out);

} // namespace clearway::bench
