// cw-bench-trims: the scenarios of Go, Vu and Kuffner, "Autonomous behaviors for interactive
// vehicle animations" (2004, section 4), flown with clearway's trim search. For each scenario and
// strategy: mean goodness of the selected segments, time per decision (median, p95), node
// expansions per decision, heap allocations during decisions.
#include "trims_bench.h"

#ifndef CLEARWAY_SAMPLES_DIR
#define CLEARWAY_SAMPLES_DIR "samples"
#endif

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{
        "Fly the scenarios of Go, Vu and Kuffner (2004): 2D/3D seek through asteroids, 2D dynamic pursuit,\n"
        "3D pursuit, 3D meet; with single-step, uniform and adaptive trim search, and report quality and\n"
        "time per decision.\n"
        "Exit codes: 0 ok, 2 bad input, 3 failure, 4 I/O error."};
    trims_bench::TrimsBenchOptions o;
    o.vehicle2d = std::string(CLEARWAY_SAMPLES_DIR) + "/vehicles/boat.json";
    o.vehicle3d = std::string(CLEARWAY_SAMPLES_DIR) + "/vehicles/spacecraft.json";
    cli::CommonFlags flags;
    app.add_option("--runs", o.runs, "Randomised runs per scenario and strategy")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    app.add_option("--seed", o.seed, "Seed of the scenario layouts and of the adaptive permutation")
        ->capture_default_str();
    app.add_option("--scenario", o.only_scenario, "all, 2d-seek, 3d-seek, 2d-pursuit, 3d-pursuit or 3d-meet")
        ->capture_default_str()
        ->check(CLI::IsMember({"all", "2d-seek", "3d-seek", "2d-pursuit", "3d-pursuit", "3d-meet"}));
    app.add_option(
           "--strategy", o.only_strategy,
           "all, single, uniform, adaptive (the paper's three) or adaptive+ (adaptive with warm start and "
           "dead-end pruning)")
        ->capture_default_str()
        ->check(CLI::IsMember({"all", "single", "uniform", "adaptive", "adaptive+"}));
    app.add_option("--vehicle-2d", o.vehicle2d, "Model spec of the 2D vehicle (17 controls in the paper)")
        ->capture_default_str();
    app.add_option("--vehicle-3d", o.vehicle3d, "Model spec of the 3D vehicle (121 controls in the paper)")
        ->capture_default_str();
    app.add_option("--nodes", o.overrides.nodes,
                   "Visited-state budget of uniform and adaptive [default: 16384 uniform; adaptive 512 in "
                   "2D, 1024 in 3D]");
    app.add_option("--skip", o.overrides.skip,
                   "Skip factor of uniform and adaptive [default: uniform 2 in 2D, 4 in 3D; adaptive 1 / 2]");
    app.add_option("--depth", o.overrides.depth, "Search depth limit in intervals [default: 16]");
    app.add_option("--min-leaf", o.overrides.min_leaf, "Minimum depth of the chosen state [default: 4]");
    app.add_option("--optimism", o.overrides.optimism, "Optimism factor f in [-1, 1] [default: 0.9]");
    app.add_option("--discount", o.overrides.discount, "Discount d in (0, 1) [default: 0.9]");
    app.add_option("--collapse", o.overrides.collapse, "Adaptive collapse factor c in (0, 1] [default: 0.5]");
    app.add_option("--damping", o.overrides.damping,
                   "Bias towards straighter controls, [0, 1) [default: 0.03]");
    app.add_flag("--prune", o.overrides.prune,
                 "Never expand a state whose segment scored 0 (a collision is a dead end)");
    app.add_option("--svg", o.svg_dir,
                   "Write one SVG trajectory plot (first run, seen from above) per scenario and strategy "
                   "into this folder");
    app.add_option(
           "--profile", o.profile_every,
           "Also print, per ship role and bucket of this many decisions, the mean goodness, distance to "
           "the goal, facing's angle off it, facing turned per second and the mean goodness so far")
        ->check(CLI::Range(1, 1000));
    app.add_flag(
        "--fig7", o.fig7,
        "The paper's Fig. 7 with caps that never bind: single, uniform and adaptive on 2D and 3D seek, "
        "every search run to exhaustion at --fig7-depth-2d / -3d under the safety cap --fig7-cap "
        "(column 'capped' counts the decisions it stopped); 5 runs unless --runs is given");
    app.add_option("--fig7-depth-2d", o.fig7_depth_2d, "--fig7: search depth in 2D")
        ->capture_default_str()
        ->check(CLI::Range(1, 16));
    app.add_option("--fig7-depth-3d", o.fig7_depth_3d, "--fig7: search depth in 3D")
        ->capture_default_str()
        ->check(CLI::Range(1, 16));
    app.add_option("--fig7-cap", o.fig7_cap, "--fig7: visited-state safety cap of every search")
        ->capture_default_str()
        ->check(CLI::Range(64, 1 << 24));
    cli::addCommonFlags(app, flags);
    CLI11_PARSE(app, argc, argv);
    if (o.fig7 && app.count("--runs") == 0) o.runs = 5;
    cli::SpdlogContext log("cw-bench-trims");
    log.setVerbosity(flags.verbose, flags.quiet);
    return trims_bench::runTrimsBench(o, flags, log);
}
