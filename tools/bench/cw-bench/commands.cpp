// cw-bench's subcommands and their options.
#include "cw_bench.h"

namespace clearway::bench {

CLI::App* addRecastAreaCommand(CLI::App& app, AreaArgs& args) {
    CLI::App* cmd = app.add_subcommand(
        "recast-area", "Compares clearway's eroded walkable area with a Recast navmesh of the same mesh");
    cmd->add_option("mesh", args.mesh_path, "Y-up OBJ mesh (the file cw-import read)")->required();
    cmd->add_option("--footprint", args.footprint_path,
                    ".cwfp written by `cw-import MESH -o OUT.cwfp --max-step 0.9`");
    cmd->add_option("--cell-size", args.cell_size, "Recast cell size, metres")->check(CLI::Range(0.01, 10.0));
    cmd->add_option("--radius", args.radius, "agent radius, metres (Recast agentRadius and the erosion)")
        ->check(CLI::Range(0.0, 100.0));
    cmd->add_flag("--json", args.json, "print one JSON object instead of a table");
    return cmd;
}

CLI::App* addBakeCommand(CLI::App& app, BenchArgs& args) {
    CLI::App* cmd = app.add_subcommand(
        "bake", "Bake CPU time per stage and asset bytes next to Recast (meshes) and to CGAL's bare segment "
                "Voronoi build (generated box levels), with peak memory");
    cmd->add_option("meshes", args.meshes, "Y-up OBJ meshes (baked by clearway and by Recast)");
    cmd->add_option("--boxes", args.boxes, "Wall-segment counts of the generated box levels (0: none)")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--seed", args.seed, "Seed of the box levels")->capture_default_str();
    cmd->add_option("--runs", args.runs, "Runs per measurement (median CPU time is reported)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    cmd->add_option("--cell-size", args.cell_size, "Recast cell size, metres (RecastDemo default 0.3)")
        ->check(CLI::Range(0.01, 10.0))
        ->capture_default_str();
    cmd->add_option("--fine-cell-size", args.fine_cell_size,
                    "Recast's second, finer cell size, metres (nearer clearway's accuracy)")
        ->check(CLI::Range(0.01, 10.0))
        ->capture_default_str();
    cmd->add_option("--max-step", args.max_step, "clearway max step, metres (Recast's climb is 0.9)")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    cmd->add_flag("--json", args.json, "print one JSON object instead of markdown tables");
    return cmd;
}

CLI::App* addQueryCommand(CLI::App& app, QueryArgs& args) {
    CLI::App* cmd = app.add_subcommand(
        "query",
        "findPath next to Detour (2x findNearestPoly + findPath + findStraightPath) on the same random "
        "start/goal pairs: time per query, length ratio, clearance, heading discontinuities; then raycast "
        "and "
        "moveAlongSurface next to Detour's from the pairs' starts");
    cmd->add_option("meshes", args.meshes, "Y-up OBJ meshes (baked by clearway and by Recast)")->required();
    cmd->add_option("--pairs", args.pairs, "start/goal pairs reachable in both, per mesh")
        ->check(CLI::Range(size_t(1), size_t(10000000)))
        ->capture_default_str();
    cmd->add_option("--seed", args.seed, "seed of the pairs")->capture_default_str();
    cmd->add_option("--radius", args.radius, "agent radius, metres (both engines)")
        ->check(CLI::Range(0.01, 100.0))
        ->capture_default_str();
    cmd->add_option("--cell-size", args.cell_size, "Recast cell size, metres (RecastDemo default 0.3)")
        ->check(CLI::Range(0.01, 10.0))
        ->capture_default_str();
    cmd->add_option("--max-step", args.max_step, "clearway max step = Recast climb, metres")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    cmd->add_option("--step", args.step, "path metrics: clearance sample spacing, metres")
        ->check(CLI::Range(0.001, 10.0))
        ->capture_default_str();
    cmd->add_option("--repeats", args.repeats, "timed runs of every query; each keeps its fastest")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cmd->add_option("--ray-length", args.ray_length,
                    "raycast / moveAlongSurface next to Detour's: longest ray from a pair's start, metres")
        ->check(CLI::Range(0.01, 1000.0))
        ->capture_default_str();
    cmd->add_flag("--json", args.json, "print one JSON object instead of markdown tables");
    return cmd;
}

// One measurement in a fresh process (used by `bake` and by old builds in scripts/bake-diff; not for
// people).
CLI::App* addChildCommand(CLI::App& app, ChildArgs& args) {
    CLI::App* cmd = app.add_subcommand("child", "one measurement (internal)")->group("");
    cmd->add_option("kind", args.kind)->required();
    cmd->add_option("target", args.target);
    cmd->add_option("--seed", args.seed);
    cmd->add_option("--max-step", args.max_step);
    cmd->add_option("--cell-size", args.cell_size);
    cmd->add_option("--write", args.write);
    return cmd;
}

} // namespace clearway::bench
