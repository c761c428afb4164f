// cw-query: one path query on a roadmap asset (.cwrm), answered by the runtime as a game would.
#include <clearway/tool_cli.h>

#include <cstdlib>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{
        "Find a path on a baked level: the layer under each point, then findPath (smooth line and arc\n"
        "segments keeping clearance >= radius), sampled every --step metres. Coordinates are the\n"
        "mesh's own (world) coordinates; distances are metres.\n"
        "No path is not an error (exit 0, found false, and why); a missing or corrupt asset, a point\n"
        "off the walkable area or a bad option is bad input. " +
        std::string(cli::kExitCodesHelp)};
    bake::QueryRequest request;
    cli::CommonFlags flags;
    std::string from, to, clearance;
    app.add_option("level", request.roadmap_path, "Roadmap asset written by cw-bake or cw-roadmap (.cwrm)")
        ->required();
    app.add_option("--from", from, "Start point x,y,z (world coordinates)")->required();
    app.add_option("--to", to, "Goal point x,y,z (world coordinates)")->required();
    app.add_option("--radius", request.radius, "Agent radius, metres: clearance kept from every wall")
        ->capture_default_str();
    app.add_option("--clearance", clearance,
                   "Preferred clearance, metres, where the corridor allows; inf keeps the medial-axis path "
                   "[default: the radius, i.e. the shortest path]");
    app.add_option("--step", request.step, "Metres between the sampled points of --json")
        ->capture_default_str();
    app.add_option("--step-up", request.step_up,
                   "A point stands on the highest floor at most this far above it (metres)")
        ->capture_default_str();
    app.add_option("--svg", request.svg_path, "Also write an SVG: walls, roadmap, the path, start and goal");
    app.add_option("--include-flags", request.include_flags,
                   "Query filter: use only parts of the roadmap carrying one of these area flags (decimal or "
                   "0x hex) [default: every flag]");
    app.add_option("--exclude-flags", request.exclude_flags,
                   "Query filter: never use parts carrying one of these area flags, e.g. a closed door's");
    app.add_option(
           "--area-cost", request.area_costs,
           "Query filter: TYPE=MULTIPLIER multiplies the cost of area type TYPE (0 .. 63), repeatable")
        ->allow_extra_args(false); // one per --area-cost: the level may follow
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv); // a bad or unknown option is bad input (2)

    cli::SpdlogContext log("cw-query");
    log.configure(flags); // with --json, errors are also printed as JSON on stdout
    if (bake::Error e = bake::parseQueryPoint(from, "--from", &request.from)) return cli::fail(log, e);
    if (bake::Error e = bake::parseQueryPoint(to, "--to", &request.to)) return cli::fail(log, e);
    if (!clearance.empty()) {
        char* end = nullptr;
        request.preferred_clearance = std::strtod(clearance.c_str(), &end); // accepts "inf"
        if (*end != '\0' || !(request.preferred_clearance >= 0))
            return cli::fail(log, {bake::ErrorCode::InvalidOption,
                                   "--clearance '" + clearance + "': expected a number >= 0 or inf"});
    }
    bake::QueryResult result;
    if (bake::Error e = bake::queryPath(request, &result, log)) return cli::fail(log, e);
    if (flags.json)
        std::printf("%s\n", bake::queryJson(result).c_str());
    else if (!flags.quiet)
        std::printf("%s", bake::queryText(result, request.roadmap_path).c_str());
    return 0;
}
