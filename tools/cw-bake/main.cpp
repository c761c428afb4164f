// cw-bake: level mesh -> footprint -> medial-axis roadmap (.cwrm) in one process.
#include <clearway/tool_cli.h>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{
        "Bake a level mesh into a roadmap asset (import + exact medial axis + blends) in one process.\n" +
        std::string(cli::kExitCodesHelp)};
    bake::RoadmapRequest request;
    // Drawn by lib/preview (cw-inspect's renderer), only when --svg / --html is given. The pipeline
    // takes plain function pointers, so the --radius they draw with lives here.
    static bake::PreviewOptions preview;
    request.roadmap_svg = [](const bake::Roadmap& rm) { return bake::roadmapSvg(rm, preview); };
    request.roadmap_html = [](const bake::Roadmap& rm) { return bake::roadmapHtml(rm, preview); };
    cli::CommonFlags flags;
    app.add_option("mesh", request.input_path,
                   "Level mesh: any format Assimp reads (OBJ, glTF/GLB, FBX, PLY, ...)")
        ->required();
    app.add_option("-o,--output", request.output_path, "Roadmap asset to write (.cwrm), atomically")
        ->required();
    app.add_option("--svg", request.svg_path, "Also write cw-inspect's SVG of the asset (legend, layers, clearance)");
    app.add_option("--html", request.html_path, "Also write cw-inspect's page: pan, zoom, paths by the runtime");
    app.add_option("--radius", preview.radius,
                   "Agent radius (m) for the usable area and its islands in --svg / --html\n"
                   "(default: --min-clearance if > 0, else 0.5)")
        ->check(CLI::NonNegativeNumber);
    cli::addImportOptions(app, request.import_options);
    cli::addRoadmapOptions(app, request.roadmap_options);
    cli::addTileOptions(app, request);
    cli::addEditsOptions(app, request.edits_path, request.use_edits);
    cli::addIfChangedFlag(app, flags);
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-bake");
    log.configure(flags);
    if (cli::skipUnchanged(log, flags, request, cli::meshRoadmapStamp, {request.svg_path, request.html_path})) return 0;
    bake::RoadmapResult result;
    if (bake::Error error = cli::runWithProgress(log, request.input_path,
                                                 [&] { return bake::bakeLevel(request, &result, log); }))
        return cli::fail(log, error);
    cli::printRoadmapResult(result, request.output_path, flags);
    return 0;
}
