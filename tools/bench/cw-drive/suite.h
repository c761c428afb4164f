// The simulation suite: bakes each level in-process, plans routes with findPath at each vehicle's
// radius and drives every vehicle along them with every controller: the columns of Table I.
#pragma once

#include "simulation.h"

#include <clearway/tool_cli.h>

namespace clearway::drive {

// A baked level, loaded as a game loads it.
struct Level {
    std::string name;
    std::vector<uint64_t> bytes; // 8-byte aligned roadmap asset
    RoadmapView view;
    std::vector<uint8_t> scratch_memory;
    PathScratch* scratch = nullptr;
    std::vector<WallGrid> walls; // per layer
    FootprintView footprint;     // the roadmap's embedded footprint, for Directional A*
};

// Route sets reported apart: flat (every track point at one height), slope (the ground rises or falls
// along some vehicle's track) and cross-layer (some vehicle's findPath route changes layer).
enum RouteGroup : uint8_t { kFlatRoutes, kSlopeRoutes, kCrossLayerRoutes, kRouteGroupCount };
inline constexpr const char* kRouteGroupNames[kRouteGroupCount] = {"flat", "slope", "cross_layer"};

// One start/goal pair, with each vehicle's track between them.
struct Route {
    size_t level;
    uint32_t layer; // of the start
    RouteGroup group = kFlatRoutes;
    double length; // of the smooth route at the largest vehicle radius
    Track smooth[kVehicleCount], raw[kVehicleCount];
    // Vehicles not driven: no findPath route at their radius (cross-layer routes only: the others need
    // one for every vehicle), or one steeper than they climb with a quarter of their acceleration to
    // spare (vehicle.h: climbableSine), where gradient-aware route planning would not send them.
    bool no_route[kVehicleCount] = {}, unclimbable[kVehicleCount] = {};
};

// One column of Table I.
struct Column {
    std::string name;
    uint32_t trials = 0, stuck_trials = 0, stuck = 0, teleports = 0, backoffs = 0, arrived = 0,
             clean_arrivals = 0, gear_changes = 0;
    uint32_t stuck_by_vehicle[kVehicleCount] = {};
    double cte_sum = 0, time_sum = 0, speed_sum = 0;
    uint64_t steps = 0, inside = 0;
    void add(size_t vehicle, const Trial& t) {
        ++trials;
        stuck_trials += t.stuck > 0 ? 1 : 0;
        stuck += t.stuck;
        teleports += t.teleports;
        backoffs += t.backoffs;
        gear_changes += t.gear_changes;
        arrived += t.arrived ? 1 : 0;
        clean_arrivals += t.arrived && t.stuck == 0 ? 1 : 0;
        stuck_by_vehicle[vehicle] += t.stuck;
        cte_sum += t.cte_sum;
        time_sum += t.time;
        speed_sum += t.speed_sum;
        steps += t.steps;
        inside += t.inside;
    }
    double cteMean() const { return steps ? cte_sum / double(steps) : 0.0; }
    double timeMean() const { return trials ? time_sum / trials : 0.0; }
    double insidePercent() const { return steps ? 100.0 * double(inside) / double(steps) : 0.0; }
    double speedMean() const { return steps ? speed_sum / double(steps) : 0.0; }
    void merge(const Column& o); // adds another seed's trials (suite.cpp)
};

struct DriveOptions {
    // Mesh paths, or generated box levels "boxes:<count>:<seed>" (suite.cpp: generatedBoxes).
    std::vector<std::string> levels;
    uint32_t routes_per_level = 3;
    std::vector<uint64_t> seeds{3}; // one Table I per seed, then the spread over them
    std::string label;              // names the route set in the report (e.g. tuning, held-aside)
    std::string svg_dir;
    bool raw = true;          // also the raw-polyline columns
    bool list_trials = false; // one line per trial
    int only_route = -1;
    std::string only_vehicle, trace;
    std::string gear_turns = "cusps"; // tight, cusps or off
    // The baseline drives the same planned gear-turn routes as the clearway columns (like for like);
    // false: it drives the findPath route wherever the clearway columns drive a planned one.
    bool baseline_gear_turns = true;
    bool slopes = true;              // the vehicles feel the ground's slope (false: planar, as before)
    uint32_t cross_layer_routes = 0; // per level with portals, drawn apart from the single-layer ones
    SimOptions sim;
};

// Table I of one seed.
struct TableI {
    uint64_t seed = 0;
    std::vector<Route> routes;
    Column cols[5] = {{"baseline"}, {"clearway"}, {"clearway_tuned"}, {"baseline_raw"}, {"clearway_raw"}};
    std::vector<std::string> trial_lines; // --trials
    uint32_t planned_routes = 0;          // vehicle routes the clearway columns drive as planned gear turns
    // Per route group: the baseline's and the clearway column's trials, and the vehicle routes not
    // driven (Route: no_route, unclimbable).
    Column groups[kRouteGroupCount][2];
    uint32_t group_routes[kRouteGroupCount] = {}, no_route[kRouteGroupCount] = {},
             unclimbable[kRouteGroupCount] = {};
};
inline constexpr size_t kBaseline = 0, kClearway = 1, kClearwayTuned = 2, kBaselineRaw = 3, kClearwayRaw = 4;

struct Suite {
    std::vector<Level> levels;
    std::vector<TableI> tables; // one per seed, in --seeds order
    TableI pooled;              // every seed's columns summed (no routes)
};

// Bakes the levels, then per seed finds the routes and drives every trial (suite.cpp).
bake::Error runSuite(const DriveOptions& options, Suite* suite, cli::SpdlogContext& log);
// Table I (pooled over the seeds), the per-seed rows and the spread, as markdown or one JSON object
// (report.cpp).
void printReport(const DriveOptions& options, const Suite& suite, bool json);

// Stuck ratio of a column to its baseline; a baseline without stuck events counts as 1, so the
// column's events then count in full.
inline double stuckRatio(const Column& c, const Column& baseline) {
    return double(c.stuck) / double(std::max(baseline.stuck, 1u));
}
struct Spread {
    double mean = 0, sd = 0, min = 0, max = 0; // sd: sample standard deviation (0 for one value)
};
Spread spreadOf(const std::vector<double>& values); // report.cpp
// "A-B" (inclusive), "N" (N seeds from `first`) or "a,b,c"; false when malformed (suite.cpp).
bool parseSeeds(const std::string& text, uint64_t first, std::vector<uint64_t>* seeds);

} // namespace clearway::drive
