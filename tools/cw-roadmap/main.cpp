// cw-roadmap: footprint asset (.cwfp) -> medial-axis roadmap asset (.cwrm).
#include <clearway/tool_cli.h>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{
        "Compute the exact medial-axis roadmap of a footprint: clearance everywhere, circular blends,\n"
        "one bake for every agent radius. " +
        std::string(cli::kExitCodesHelp)};
    bake::RoadmapRequest request;
    request.roadmap_svg = bake::roadmapSvg; // drawn by lib/preview, only when --svg / --html is given
    request.roadmap_html = bake::roadmapHtml;
    cli::CommonFlags flags;
    app.add_option("footprint", request.input_path, "Footprint asset written by cw-import (.cwfp)")
        ->required();
    app.add_option("-o,--output", request.output_path, "Roadmap asset to write (.cwrm), atomically")
        ->required();
    app.add_option("--svg", request.svg_path, "Also write cw-inspect's SVG of the asset (legend, layers, clearance)");
    app.add_option("--html", request.html_path, "Also write cw-inspect's page: pan, zoom, paths by the runtime");
    cli::addRoadmapOptions(app, request.roadmap_options);
    cli::addIfChangedFlag(app, flags);
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-roadmap");
    log.configure(flags);
    if (cli::skipUnchanged(log, flags, request, cli::footprintRoadmapStamp, {request.svg_path, request.html_path})) return 0;
    bake::RoadmapResult result;
    if (bake::Error error = cli::runWithProgress(
            log, request.input_path, [&] { return bake::roadmapFromFootprint(request, &result, log); }))
        return cli::fail(log, error);
    cli::printRoadmapResult(result, request.output_path, flags);
    return 0;
}
