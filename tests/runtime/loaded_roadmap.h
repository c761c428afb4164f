// Test helpers for roadmap assets: hand-built layers, the pillar loop's roadmap finished round a
// footprint, and an asset loaded with its path scratch (the view points into `bytes`, which the struct owns).
#pragma once

#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "pillar_loop.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace clearway::test {

// A layer of one polygon (its rings, the outer one first) whose surface is two triangles over the
// 4 corners of `surface`.
inline flatbuffers::Offset<schema::Layer> quadLayer(flatbuffers::FlatBufferBuilder& b,
                                                    const std::vector<schema::Vec2>& boundary,
                                                    const std::vector<schema::Ring>& rings,
                                                    const std::vector<schema::Vec3>& surface, double area,
                                                    float height_min, float height_max) {
    const std::vector<schema::Polygon> polygons = {{0, uint32_t(rings.size())}};
    const std::vector<schema::Triangle> triangles = {{0, 1, 2}, {0, 2, 3}};
    return schema::CreateLayer(b, b.CreateVectorOfStructs(boundary), b.CreateVectorOfStructs(rings),
                               b.CreateVectorOfStructs(polygons), b.CreateVectorOfStructs(surface),
                               b.CreateVectorOfStructs(triangles), area, height_min, height_max);
}

// The asset bytes: `footprint` (built in `b`) with the pillar loop roadmap.
inline std::vector<uint8_t> pillarLoopAsset(flatbuffers::FlatBufferBuilder& b,
                                            flatbuffers::Offset<schema::Footprint> footprint) {
    const PillarLoopRoadmap loop = pillarLoopRoadmap(b);
    auto root =
        schema::CreateRoadmap(b, kRoadmapFormatVersion, b.CreateString("0.1.0"), 1, 2, loop.options,
                              footprint, loop.vertices, loop.edges, loop.points, loop.blends, loop.grid);
    b.Finish(root, "CWRM");
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

struct LoadedRoadmap {
    std::vector<uint8_t> bytes;
    RoadmapView view;
    std::vector<uint8_t> memory;
    PathScratch* scratch = nullptr;
    explicit LoadedRoadmap(std::vector<uint8_t> asset) : bytes(std::move(asset)) {
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        size_t size = 0;
        REQUIRE(pathScratchSize(view, &size) == Status::Ok);
        memory.resize(size);
        REQUIRE(pathScratchInit(view, memory.data(), size, &scratch) == Status::Ok);
    }
};

} // namespace clearway::test
