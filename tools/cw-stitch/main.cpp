// cw-stitch: tile roadmap assets (cw-bake --tile-size) -> one world roadmap asset.
#include <clearway/tool_cli.h>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{"Join the tiles of one world (cw-bake --tile-size T --tile I,J) into one roadmap asset:\n"
                 "border vertices are welded, tile lines stop being walls, blends are recomputed.\n" +
                 std::string(cli::kExitCodesHelp)};
    bake::StitchRequest request;
    request.roadmap_svg = bake::roadmapSvg; // drawn by lib/preview, only when --svg is given
    cli::CommonFlags flags;
    app.add_option("tiles", request.tile_paths, "Tile assets (.cwrm) of one world, in any order")->required();
    app.add_option("-o,--output", request.output_path, "World roadmap asset to write (.cwrm), atomically")
        ->required();
    app.add_option("--svg", request.svg_path, "Also write an SVG preview of the world");
    app.add_option("--weld-epsilon", request.options.weld_epsilon,
                   "Metres: border vertices of neighbouring tiles closer than this are welded")
        ->capture_default_str();
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-stitch");
    log.configure(flags);
    bake::StitchResult result;
    if (bake::Error error = cli::runWithProgress(log, request.output_path,
                                                 [&] { return bake::stitchFiles(request, &result, log); }))
        return cli::fail(log, error);
    if (flags.json) {
        std::printf("%s\n", bake::stitchJson(result).c_str());
    } else if (!flags.quiet) {
        const bake::StitchStats& s = result.stats;
        std::printf(
            "%s: %zu tiles, %zu layers, %zu vertices, %zu edges, %zu blends, %zu border vertices welded, "
            "%zu unmatched, %zu bytes, %.2f s\n",
            request.output_path.c_str(), s.tiles, s.layers, s.vertices, s.edges, s.blends, s.welded,
            s.unmatched, result.bytes, result.seconds_total);
    }
    return 0;
}
