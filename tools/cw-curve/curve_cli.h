// cw-curve's work: the shortest path (or arc-then-line) to a point and the Dubins path for a vehicle
// with a turning radius, and optionally a drivable Directional A* path on a baked footprint (Pinter,
// "Toward More Realistic Pathfinding", 2001), or timings of each (curve_bench.cpp).
#pragma once

#include <clearway/motion.h>
#include <clearway/tool_cli.h>

#include <cstdint>
#include <string>
#include <vector>

namespace clearway::curve {

struct AStarOptions {
    std::string footprint;
    uint32_t layer = 0;
    double cell = 0.5;
    double vehicle_radius = 1.0;
    bool reverse = false;
    uint32_t max_expansions = 0;
};

struct CurveRequest {
    std::string from_text, to_text; // "x,y,heading" and "x,y" or "x,y,heading"
    double radius = 0.0;
    std::string method = "shortest"; // to a point: shortest (turn-turn too) or arc-line (Pinter 2001)
    AStarOptions astar;
    uint32_t bench_queries = 0; // > 0: time this many random queries instead
};
// Every option but the common flags.
void addCurveOptions(CLI::App& app, CurveRequest& request);

// The asset and a Directional A* workspace built on one of its layers.
struct Planner {
    std::vector<uint64_t> asset; // 8-byte aligned for loadFootprint
    clearway::FootprintView view;
    clearway::DirectionalAStarSettings settings;
    clearway::DirectionalGrid grid{};
    std::vector<uint64_t> workspace;
    clearway::DirectionalAStar* search = nullptr;
    double init_ms = 0.0;
};

// The parsed request and, with --footprint, the planner; then the paths.
struct Curves {
    Pose2d start{};
    std::vector<double> to; // x, y[, heading]
    double radius = 0.0;
    PointPathMethod method = PointPathMethod::Shortest; // which path to the point `arc` holds
    Planner planner;
    CurvePath arc{}, dubins{};
    Status arc_status = Status::NotFound;
    TurnSide side = TurnSide::Left;
    PointPathKind kind = PointPathKind::TurnStraight;
    DubinsWord word = DubinsWord::LSL;
    std::vector<PathPiece> route;
    DirectionalAStarResult route_result{};
    Status route_status = Status::NotFound;
    double route_ms = 0.0;
    bool hasHeading() const { return to.size() == 3; }
    bool shortest() const { return method == PointPathMethod::Shortest; }
};

// Checks the numbers and builds the planner; InvalidOption or ReadFailed errors.
bake::Error prepareCurves(const CurveRequest& request, Curves* curves, cli::SpdlogContext& log);
// Arc-then-line, Dubins (with a goal heading) and the Directional A* route (with a planner).
bake::Error solveCurves(Curves* curves, cli::SpdlogContext& log);
// The paths as text (nothing with --quiet) or as one JSON object.
void printCurves(const Curves& curves, const cli::CommonFlags& flags);

// --bench: timings of random queries (fixed seeds), printed (curve_bench.cpp).
void benchCurves(uint32_t queries, double radius, bool json);
void benchAStar(Planner& p, uint32_t queries, bool json);

} // namespace clearway::curve
