// What cw-make-samples writes: the analytic scenes as sample level meshes, generated box levels
// as roadmap assets (the large levels scripts/bake-diff compares between two builds), and flat
// grids as meshes (a finely tessellated floor, for timing the bake).
#pragma once

#include <clearway/bake.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clearway::samples {

struct SampleLevelsRequest {
    std::string folder = "samples/levels"; // must exist
    std::string glb_scene = "bridge";      // also written as <scene>-gltf.glb; "" for none
};
// Every scene as <folder>/<scene>.obj (and the GLB); `written` lists the files in order.
bake::Error writeSampleLevels(const SampleLevelsRequest& request, std::vector<std::string>* written,
                              bake::LogContext& log);

struct BoxLevelRequest {
    size_t walls = 0; // wall segments: 4 per box + 4
    uint64_t seed = 1;
    std::string output; // roadmap asset (.cwrm), written atomically
};
struct BoxLevelResult {
    std::string name; // the footprint's source name, e.g. "boxes-24-seed-1"
    bake::RoadmapStats stats;
    size_t bytes = 0;
};
// scenes::randomBoxesFootprint(walls, seed) through buildRoadmap with the default options, the
// same bytes `cw-bench child boxes N --seed S --write OUT` writes.
bake::Error writeBoxLevel(const BoxLevelRequest& request, BoxLevelResult* result, bake::LogContext& log);

struct GridLevelRequest {
    int cells = 1000;       // per side
    double cell_size = 0.1; // metres
    std::string output;     // Wavefront OBJ
};
// scenes::flatGrid(cells, cell_size) as an OBJ; `triangles` is its triangle count.
bake::Error writeGridLevel(const GridLevelRequest& request, size_t* triangles);

} // namespace clearway::samples
