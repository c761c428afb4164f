// cw-compare: clearway's medial-axis paths next to the baseline planners of Mount's CMSC 425
// lecture "Motion Planning: Finding Paths" (visibility graph = exact shortest path with clearance,
// grid, quadtree, PRM, RRT, potential field) on the same random queries of one level.
#include <clearway/tool_cli.h>

#include "scenes.h"

#include <cstdio>

namespace {

// "boxes:COUNT:SEED[:SCALE]": samples/scenes' randomBoxesFootprint (COUNT boxes in 3 m cells)
// scaled by SCALE (default 1). False when `spec` is not of that form.
bool generatedBoxes(const std::string& spec, clearway::bake::Footprint* out) {
    unsigned long count = 0, seed = 0;
    double scale = 1;
    char tail = 0;
    const int fields = std::sscanf(spec.c_str(), "boxes:%lu:%lu:%lf%c", &count, &seed, &scale, &tail);
    if ((fields != 2 && fields != 3) || count == 0 || !(scale > 0)) return false;
    *out = clearway::scenes::randomBoxesFootprint(4 * count + 4, seed);
    if (scale != 1) clearway::scenes::scaleFootprint(out, scale);
    out->source_name = spec;
    return true;
}

} // namespace

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{
        "Run every path planner on the same random start/goal pairs of a level and print build time,\n"
        "memory, query time, success rate, length against the exact shortest path, clearance and\n"
        "smoothness per method. Exit codes: 0 ok, 2 bad input, 3 bake failure, 4 I/O error."};
    bake::CompareRequest request;
    cli::CommonFlags flags;
    app.add_option("input", request.input_path,
                   "A mesh (any format cw-import reads), a footprint asset (.cwfp), or a generated level\n"
                   "boxes:COUNT:SEED[:SCALE] (COUNT boxes, one per 3 m cell, scaled by SCALE)")
        ->required();
    app.add_option("--radius", request.radius, "Agent radius, metres: clearance every path must keep")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--pairs", request.pairs, "Random start/goal pairs the visibility graph connects")
        ->capture_default_str()
        ->check(CLI::Range(1u, 1000000u));
    app.add_option("--seed", request.seed, "Seed of the pairs, the PRM samples and the RRT")
        ->capture_default_str();
    app.add_option("--svg", request.svg_path,
                   "Write an SVG of the first query: every method's path over the walls");
    app.add_option(
           "--preferred-clearance", request.preferred_clearance,
           "findPath's preferred clearance of the row medial-pc, metres (the row medial is always at the\n"
           "radius, like the baselines): 0 = the radius (shortest paths), inf = the medial-axis path")
        ->capture_default_str();
    app.add_option("--prm-samples", request.prm_samples,
                   "PRM samples per layer instead of the budget the level gives (0: the budget)");
    app.add_option("--rrt-iterations", request.rrt_iterations,
                   "RRT iterations per layer instead of the budget the level gives (0: the budget)");
    app.add_flag("!--no-smooth", request.grid_smooth, "Grid paths without line-of-sight smoothing");
    cli::addImportOptions(app, request.import_options);
    cli::addCommonFlags(app, flags);
    CLI11_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-compare");
    log.setVerbosity(flags.verbose, flags.quiet);
    bake::Footprint generated;
    if (generatedBoxes(request.input_path, &generated)) request.footprint = &generated;
    bake::CompareResult result;
    if (bake::Error error = bake::compareMethods(request, &result, log)) return cli::fail(log, error);
    if (flags.json) {
        std::printf("%s\n", bake::compareJson(result).c_str());
    } else if (!flags.quiet) {
        std::printf(
            "**%s**: %u layers, radius %g m, %u pairs (%u drawn), %u solved by every method\n\n%s\n%s\n",
            result.level.c_str(), result.layers, result.radius, result.pairs, result.pairs_drawn,
            result.pairs_common, bake::compareTable(result).c_str(), bake::compareNotes(result).c_str());
    }
    return 0;
}
