// cw-import: any mesh Assimp reads -> exact multi-layer walkable footprint (.cwfp).
#include <clearway/tool_cli.h>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{"Extract the exact walkable footprint of a level mesh, split into floor layers.\n" +
                 std::string(cli::kExitCodesHelp)};
    bake::ImportRequest request;
    request.options = bake::defaultImportOptions();
    request.footprint_svg = bake::footprintSvg; // drawn by lib/preview, only when --svg is given
    cli::CommonFlags flags;
    app.add_option("mesh", request.mesh_path,
                   "Level mesh: any format Assimp reads (OBJ, glTF/GLB, FBX, PLY, ...)")
        ->required();
    app.add_option("-o,--output", request.output_path, "Footprint asset to write (.cwfp), atomically")
        ->required();
    app.add_option("--svg", request.svg_path, "Also write an SVG preview: layers, holes, connections");
    cli::addImportOptions(app, request.options);
    cli::addEditsOptions(app, request.edits_path, request.use_edits);
    cli::addIfChangedFlag(app, flags);
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-import");
    log.configure(flags);
    if (cli::skipUnchanged(log, flags, request, cli::importStamp, {request.svg_path})) return 0;
    bake::ImportResult result;
    if (bake::Error error = cli::runWithProgress(log, request.mesh_path,
                                                 [&] { return bake::importLevel(request, &result, log); }))
        return cli::fail(log, error);
    cli::printImportResult(result, request.output_path, flags);
    return 0;
}
