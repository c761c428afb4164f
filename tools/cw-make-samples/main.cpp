// cw-make-samples: writes every analytic scene (samples/scenes) as a sample level, with `boxes`
// one generated box level as a roadmap asset, or with `grid` a flat grid mesh.
#include <clearway/preview/json_writer.h>
#include <clearway/tool_cli.h>

#include "make_samples.h"

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{"Write every analytic scene as an OBJ sample level (and one also as GLB, so the demo reads\n"
                 "glTF too). The expected footprint of each level is in its OBJ header.\n" +
                 std::string(cli::kExitCodesHelp)};
    samples::SampleLevelsRequest levels;
    app.add_option("-o,--output", levels.folder, "Folder to write <scene>.obj into (must exist)")
        ->capture_default_str();
    app.add_option("--glb", levels.glb_scene, "Scene also written as <scene>-gltf.glb (\"\" for none)")
        ->capture_default_str();
    samples::BoxLevelRequest boxes;
    CLI::App* boxes_cmd = app.add_subcommand(
        "boxes", "Instead: bake a generated level of non-overlapping boxes in a square room (the same "
                 "level for the same seed on every platform) into a roadmap asset");
    boxes_cmd->add_option("walls", boxes.walls, "Wall segments: 4 per box + 4")->required();
    boxes_cmd->add_option("--seed", boxes.seed, "Seed of the box layout")->capture_default_str();
    boxes_cmd->add_option("-o,--output", boxes.output, "Roadmap asset to write (.cwrm), atomically")
        ->required();
    boxes_cmd->fallthrough(); // --json, -q, -v after the subcommand
    samples::GridLevelRequest grid;
    CLI::App* grid_cmd = app.add_subcommand("grid", "Instead: write a flat square floor of N x N cells, two "
                                                    "triangles each, as an OBJ (a finely tessellated level)");
    grid_cmd->add_option("--cells", grid.cells, "Cells per side")->capture_default_str();
    grid_cmd->add_option("--cell-size", grid.cell_size, "Cell side, metres")->capture_default_str();
    grid_cmd->add_option("-o,--output", grid.output, "OBJ to write")->required();
    grid_cmd->fallthrough();
    cli::CommonFlags flags;
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-make-samples");
    log.configure(flags);
    if (boxes_cmd->parsed()) {
        samples::BoxLevelResult result;
        if (bake::Error e = samples::writeBoxLevel(boxes, &result, log)) return cli::fail(log, e);
        if (flags.json)
            std::printf("{\"output\": %s, \"level\": %s, \"walls\": %zu, \"vertices\": %zu, \"edges\": %zu, "
                        "\"bytes\": %zu}\n",
                        preview::jsonString(boxes.output).c_str(), preview::jsonString(result.name).c_str(),
                        result.stats.walls, result.stats.vertices, result.stats.edges, result.bytes);
        else if (!flags.quiet)
            std::printf("%s: %s, %zu walls, %zu vertices, %zu edges, %zu bytes\n", boxes.output.c_str(),
                        result.name.c_str(), result.stats.walls, result.stats.vertices, result.stats.edges,
                        result.bytes);
        return 0;
    }
    if (grid_cmd->parsed()) {
        size_t triangles = 0;
        if (bake::Error e = samples::writeGridLevel(grid, &triangles)) return cli::fail(log, e);
        if (flags.json)
            std::printf("{\"output\": %s, \"triangles\": %zu}\n", preview::jsonString(grid.output).c_str(),
                        triangles);
        else if (!flags.quiet)
            std::printf("%s: %zu triangles\n", grid.output.c_str(), triangles);
        return 0;
    }
    std::vector<std::string> written; // for --json
    if (bake::Error e = samples::writeSampleLevels(levels, &written, log)) return cli::fail(log, e);
    if (flags.json) {
        std::string files;
        for (const std::string& file : written)
            files += (files.empty() ? "" : ", ") + preview::jsonString(file);
        std::printf("{\"files\": [%s]}\n", files.c_str());
    }
    return 0;
}
