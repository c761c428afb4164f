#include "make_samples.h"

#include "scenes.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace clearway::samples {

bake::Error writeSampleLevels(const SampleLevelsRequest& request, std::vector<std::string>* written,
                              bake::LogContext& log) {
    const std::vector<scenes::Scene> all = scenes::allScenes();
    const std::string& glb_scene = request.glb_scene;
    if (!glb_scene.empty() &&
        std::none_of(all.begin(), all.end(), [&](const scenes::Scene& s) { return s.name == glb_scene; }))
        return {bake::ErrorCode::InvalidOption, "--glb: no scene named '" + glb_scene + "'"};
    const std::filesystem::path folder(request.folder);
    if (!std::filesystem::is_directory(folder))
        return {bake::ErrorCode::WriteFailed, request.folder + ": no such folder"};
    for (const scenes::Scene& scene : all) {
        const std::string obj = (folder / (scene.name + ".obj")).string();
        try {
            scenes::writeObj(scene, obj);
        } catch (const std::exception& e) {
            return {bake::ErrorCode::WriteFailed, e.what()};
        }
        log.log(bake::LogLevel::Info, obj + ": " + std::to_string(scene.indices.size() / 3) + " triangles");
        written->push_back(obj);
        if (scene.name != glb_scene) continue;
        // A different base name, so the demo's outputs for the OBJ and the GLB do not collide.
        const std::string glb = (folder / (scene.name + "-gltf.glb")).string();
        if (bake::Error e = bake::exportTriangles(scene.positions, scene.indices, "glb2", glb)) return e;
        log.log(bake::LogLevel::Info, glb + ": " + std::to_string(scene.indices.size() / 3) + " triangles");
        written->push_back(glb);
    }
    return {};
}

bake::Error writeBoxLevel(const BoxLevelRequest& request, BoxLevelResult* result, bake::LogContext& log) {
    const bake::Footprint footprint = scenes::randomBoxesFootprint(request.walls, request.seed);
    result->name = footprint.source_name;
    bake::Roadmap roadmap;
    if (bake::Error e =
            bake::buildRoadmap(footprint, bake::defaultRoadmapOptions(), &roadmap, &result->stats, log))
        return e;
    const std::vector<uint8_t> asset = bake::serializeRoadmap(roadmap);
    result->bytes = asset.size();
    return bake::writeFileAtomic(request.output, asset.data(), asset.size());
}

bake::Error writeGridLevel(const GridLevelRequest& request, size_t* triangles) {
    if (request.cells < 1 || request.cells > 20000 || !(request.cell_size > 0))
        return {bake::ErrorCode::InvalidOption, "grid: --cells must be 1..20000 and --cell-size positive"};
    const scenes::Scene scene = scenes::flatGrid(request.cells, request.cell_size);
    try {
        scenes::writeObj(scene, request.output);
    } catch (const std::exception& e) {
        return {bake::ErrorCode::WriteFailed, e.what()};
    }
    *triangles = scene.indices.size() / 3;
    return {};
}

} // namespace clearway::samples
