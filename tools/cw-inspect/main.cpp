// cw-inspect: what a baked asset (.cwfp, .cwrm, .cwtt) holds, verified by the runtime's loaders,
// and a picture of it (SVG, or an HTML page with pan, zoom and path queries).
#include <clearway/tool_cli.h>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{"Summarise and verify a baked asset: footprint (.cwfp), roadmap (.cwrm) or trim table\n"
                 "(.cwtt), recognised by its file identifier. The runtime's verifying loaders check it;\n"
                 "a corrupt or truncated file is bad input. --svg / --html draw it: walls, layers,\n"
                 "connections, the roadmap coloured by clearance and its blends, or the trim trajectories;\n"
                 "the HTML page pans (drag), zooms (wheel) and answers two-click path queries. " +
                 std::string(cli::kExitCodesHelp)};
    bake::InspectRequest request;
    cli::CommonFlags flags;
    bool verify = false;
    app.add_option("asset", request.path, "Asset written by cw-import, cw-bake, cw-roadmap or cw-trims")
        ->required();
    app.add_option("--svg", request.svg_path, "Write the drawing as SVG");
    app.add_option("--html", request.html_path, "Write the drawing as a self-contained HTML page");
    app.add_option("--radius", request.preview.radius,
                   "Agent radius (m) for the usable area and its unreachable islands (summary and drawings;\n"
                   "default: the roadmap's min clearance if baked with one, else 0.5)")
        ->check(CLI::NonNegativeNumber);
    app.add_flag("--verify", verify, "Only verify: print the asset kind and the loader's status");
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-inspect");
    log.configure(flags);
    bake::InspectSummary summary;
    if (bake::Error e = bake::inspectFile(request, &summary, log)) return cli::fail(log, e);
    if (flags.quiet) return 0;
    if (verify)
        std::printf("%s", flags.json ? (bake::inspectVerifyJson(summary) + "\n").c_str()
                                     : bake::inspectVerifyText(summary).c_str());
    else
        std::printf("%s", flags.json ? (bake::inspectJson(summary) + "\n").c_str()
                                     : bake::inspectText(summary).c_str());
    return 0;
}
