// cw-import: any mesh Assimp reads -> exact multi-layer walkable footprint (.cwfp).
#include <clearway/bake_cli.h>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{"Extract the exact walkable footprint of a level mesh, split into floor layers.\n"
                 "Exit codes: 0 ok, 2 bad input, 3 bake failure, 4 I/O error."};
    bake::ImportRequest request;
    request.options = bake::defaultImportOptions();
    cli::CommonFlags flags;
    app.add_option("mesh", request.mesh_path,
                   "Level mesh: any format Assimp reads (OBJ, glTF/GLB, FBX, PLY, ...)")
        ->required();
    app.add_option("-o,--output", request.output_path, "Footprint asset to write (.cwfp), atomically")
        ->required();
    app.add_option("--svg", request.svg_path, "Also write an SVG preview: layers, holes, connections");
    cli::addImportOptions(app, request.options);
    cli::addCommonFlags(app, flags);
    CLI11_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-import");
    log.setVerbosity(flags.verbose, flags.quiet);
    bake::ImportResult result;
    if (bake::Error error = bake::importLevel(request, &result, log)) return cli::fail(log, error);
    if (flags.json) {
        std::printf("%s\n", bake::footprintJson(result.footprint, result.seconds).c_str());
    } else if (!flags.quiet) {
        const bake::FootprintStats s = bake::statsOf(result.footprint);
        std::printf("%s: %zu layers, %zu connections, %.3f m2 walkable, %zu polygons, %zu holes, %zu "
                    "vertices, %.2f s\n",
                    request.output_path.c_str(), s.layers, s.connections, s.walkable_area, s.polygons,
                    s.holes, s.vertices, result.seconds);
    }
    return 0;
}
