// cw-curve: the shortest path to a point and Dubins path for a vehicle with a turning radius, and
// optionally a drivable Directional A* path on a baked footprint (curve_cli.cpp).
#include "curve_cli.h"

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{
        "Shortest path a vehicle with a turning radius can drive: to a point the shortest forward path,\n"
        "turn-line or turn-turn (Bui et al. 1994; --method arc-line: arc-then-line, Pinter, \"Toward\n"
        "More Realistic Pathfinding\", 2001) and, when the goal has a heading, the shortest Dubins\n"
        "path (LSL, RSR, LSR, RSL, RLR, LRL); with --footprint also a drivable path around the walls\n"
        "(Directional A*, Pinter 2001).\n" +
        std::string(cli::kExitCodesHelp)};
    curve::CurveRequest request;
    curve::addCurveOptions(app, request);
    cli::CommonFlags flags;
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);
    cli::SpdlogContext log("cw-curve");
    log.configure(flags);

    // Every error is bad input (exit 2), or an unreadable footprint; with --json also a JSON error.
    curve::Curves curves;
    if (bake::Error e = curve::prepareCurves(request, &curves, log)) return cli::fail(log, e);
    if (request.bench_queries > 0) {
        if (curves.planner.search)
            curve::benchAStar(curves.planner, request.bench_queries, flags.json);
        else
            curve::benchCurves(request.bench_queries, request.radius, flags.json);
        return 0;
    }
    if (bake::Error e = curve::solveCurves(&curves, log)) return cli::fail(log, e);
    curve::printCurves(curves, flags);
    return 0;
}
