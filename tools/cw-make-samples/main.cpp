// cw-make-samples: writes every analytic scene (samples/scenes) as a sample level.
#include <clearway/bake_cli.h>

#include "scenes.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{"Write every analytic scene as an OBJ sample level (and one also as GLB, so the demo reads\n"
                 "glTF too). The expected footprint of each level is in its OBJ header.\n" +
                 std::string(cli::kExitCodesHelp)};
    std::string folder = "samples/levels";
    std::string glb_scene = "bridge";
    app.add_option("-o,--output", folder, "Folder to write <scene>.obj into (must exist)")
        ->capture_default_str();
    app.add_option("--glb", glb_scene, "Scene also written as <scene>-gltf.glb (\"\" for none)")
        ->capture_default_str();
    cli::CommonFlags flags;
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-make-samples");
    log.configure(flags);
    std::vector<std::string> written; // for --json
    const std::vector<scenes::Scene> all = scenes::allScenes();
    if (!glb_scene.empty() &&
        std::none_of(all.begin(), all.end(), [&](const scenes::Scene& s) { return s.name == glb_scene; }))
        return cli::fail(log, {bake::ErrorCode::InvalidOption, "--glb: no scene named '" + glb_scene + "'"});
    if (!std::filesystem::is_directory(folder))
        return cli::fail(log, {bake::ErrorCode::WriteFailed, folder + ": no such folder"});
    for (const scenes::Scene& scene : all) {
        const std::string obj = (std::filesystem::path(folder) / (scene.name + ".obj")).string();
        try {
            scenes::writeObj(scene, obj);
        } catch (const std::exception& e) {
            return cli::fail(log, {bake::ErrorCode::WriteFailed, e.what()});
        }
        log.log(bake::LogLevel::Info, obj + ": " + std::to_string(scene.indices.size() / 3) + " triangles");
        written.push_back(obj);
        if (scene.name != glb_scene) continue;
        // A different base name, so the demo's outputs for the OBJ and the GLB do not collide.
        const std::string glb = (std::filesystem::path(folder) / (scene.name + "-gltf.glb")).string();
        if (bake::Error e = bake::exportTriangles(scene.positions, scene.indices, "glb2", glb))
            return cli::fail(log, e);
        log.log(bake::LogLevel::Info, glb + ": " + std::to_string(scene.indices.size() / 3) + " triangles");
        written.push_back(glb);
    }
    if (flags.json) {
        std::string files;
        for (const std::string& file : written)
            files += (files.empty() ? "" : ", ") + cli::jsonQuote(file);
        std::printf("{\"files\": [%s]}\n", files.c_str());
    }
    return 0;
}
