// cw-drive: the simulation suite of de Schaetzen and Sestini, "Efficient Ground Vehicle Path
// Following in Game AI" (2023). Bakes each level in-process, plans routes with findPath at each
// vehicle's radius, drives six kinematic-bicycle vehicles along them with the clearway follower
// and the paper's heuristic baseline (and along the same routes as raw vertex-to-vertex
// polylines), and prints the paper's Table I. Where a route bends tighter than a vehicle turns and
// its cheapest drivable route needs a gear change, the clearway columns drive a Directional A*
// route with reverse moves (a planned multi-point turn) instead.
#include "suite.h"

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{
        "Drive six kinematic-bicycle vehicles along findPath routes with the clearway follower and the\n"
        "baseline of de Schaetzen and Sestini (2023); print Table I.\n"
        "Exit codes: 0 ok, 2 bad input, 3 bake failure or no route."};
    drive::DriveOptions o;
    cli::CommonFlags flags;
    uint64_t seed = 3;
    std::string seeds;
    app.add_option("--levels", o.levels,
                   "Level meshes (OBJ, glTF, ...), or boxes:<count>:<seed> for a generated box level "
                   "(samples/scenes randomBoxesFootprint, scaled 4x)")
        ->required();
    app.add_option("--routes", o.routes_per_level, "Routes per level")->capture_default_str();
    app.add_option("--seed", seed, "Random seed of the start/goal pairs")->capture_default_str();
    app.add_option("--seeds", seeds,
                   "Run the suite once per seed and report the spread: A-B (inclusive), N (N seeds from "
                   "--seed) or a,b,c");
    app.add_option("--label", o.label, "Name of this route set in the report (e.g. tuning, held-aside)");
    app.add_option("--dt", o.sim.dt, "Simulation time step, s")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--svg", o.svg_dir,
                   "Write one SVG per route and vehicle 0 (walls, route, both trajectories)");
    app.add_flag("!--no-raw", o.raw, "Skip the raw-polyline runs");
    app.add_flag("--trials", o.list_trials,
                 "Also print one line per trial (level, route, vehicle, controller)");
    app.add_option("--route", o.only_route, "Only drive route N (index as in --trials and the SVG names)");
    app.add_option("--vehicle", o.only_vehicle, "Only drive this vehicle (car, truck, ...)");
    app.add_option("--trace", o.trace, "Print every frame of this controller's trials to stderr")
        ->check(CLI::IsMember({"baseline", "clearway"}));
    app.add_option("--gear-turns", o.gear_turns,
                   "Clearway columns: plan a Directional A* route with reverse moves (multi-point turns) "
                   "where the findPath route bends tighter than the vehicle turns (tight), only where that "
                   "route needs a gear change (cusps), or never (off)")
        ->capture_default_str()
        ->check(CLI::IsMember({"tight", "cusps", "off"}));
    std::string baseline_gears = "on";
    app.add_option("--baseline-gear-turns", baseline_gears,
                   "Baseline columns: drive the same planned gear-turn routes as the clearway columns (on: "
                   "like for like) or the findPath route there (off)")
        ->capture_default_str()
        ->check(CLI::IsMember({"on", "off"}));
    std::string slopes = "on";
    app.add_option("--slopes", slopes,
                   "on: the vehicles feel the ground's slope along their heading (gravity from the surface "
                   "heights under both axles) and skip routes steeper than they climb; off: planar vehicles")
        ->capture_default_str()
        ->check(CLI::IsMember({"on", "off"}));
    app.add_option("--cross-layer-routes", o.cross_layer_routes,
                   "Routes per level (with more than one layer) that cross a portal, reported as their own group")
        ->capture_default_str();
    cli::addCommonFlags(app, flags);
    CLI11_PARSE(app, argc, argv);
    o.baseline_gear_turns = baseline_gears == "on";
    o.slopes = slopes == "on";
    o.seeds = {seed};
    if (!seeds.empty() && !drive::parseSeeds(seeds, seed, &o.seeds)) {
        std::fprintf(stderr, "cw-drive: --seeds %s: expected A-B, N or a,b,c\n", seeds.c_str());
        return 2;
    }

    cli::SpdlogContext log("cw-drive");
    log.setVerbosity(flags.verbose, flags.quiet); // no JSON errors: --json is for the table
    drive::Suite suite;
    if (bake::Error e = drive::runSuite(o, &suite, log)) return cli::fail(log, e);
    drive::printReport(o, suite, flags.json);
    return 0;
}
