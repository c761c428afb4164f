// cw-make-samples: writes every analytic scene (samples/scenes) as a sample level.
#include <clearway/bake_cli.h>

#include "scenes.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{"Write every analytic scene as an OBJ sample level (and one also as GLB, so the demo reads\n"
                 "glTF too). The expected footprint of each level is in its OBJ header.\n"
                 "Exit codes: 0 ok, 2 bad option, 4 I/O error."};
    std::string folder = "samples/levels";
    std::string glb_scene = "bridge";
    app.add_option("-o,--output", folder, "Folder to write <scene>.obj into (must exist)")
        ->capture_default_str();
    app.add_option("--glb", glb_scene, "Scene also written as <scene>-gltf.glb (\"\" for none)")
        ->capture_default_str();
    bool quiet = false;
    app.add_flag("-q,--quiet", quiet, "Log only errors");
    CLI11_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-make-samples");
    log.setVerbosity(false, quiet);
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
        if (scene.name != glb_scene) continue;
        // A different base name, so the demo's outputs for the OBJ and the GLB do not collide.
        const std::string glb = (std::filesystem::path(folder) / (scene.name + "-gltf.glb")).string();
        if (bake::Error e = bake::exportTriangles(scene.positions, scene.indices, "glb2", glb))
            return cli::fail(log, e);
        log.log(bake::LogLevel::Info, glb + ": " + std::to_string(scene.indices.size() / 3) + " triangles");
    }
    return 0;
}
