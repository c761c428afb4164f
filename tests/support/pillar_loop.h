// The hand-made roadmap of a 10 m room with a 2 m pillar (4..6): the square loop round the pillar
// at 2 m from the outer walls, e0 (2,2)-(8,2), e1 (8,2)-(8,8), e2 (8,8)-(2,8), e3 (2,8)-(2,5)-(2,2),
// clearance 2, radius-1 blends at the corners, a 2 x 2 edge grid. Tests add their own footprint.
#pragma once

#include <clearway/schema/roadmap_generated.h>

#include <cstdint>
#include <vector>

namespace clearway::test {

struct PillarLoopRoadmap {
    flatbuffers::Offset<schema::RoadmapOptions> options;
    flatbuffers::Offset<flatbuffers::Vector<const schema::RoadmapVertex*>> vertices;
    flatbuffers::Offset<flatbuffers::Vector<const schema::RoadmapEdge*>> edges;
    flatbuffers::Offset<flatbuffers::Vector<const schema::Vec2*>> points;
    flatbuffers::Offset<flatbuffers::Vector<const schema::Blend*>> blends;
    flatbuffers::Offset<schema::EdgeGrid> grid;
};

inline PillarLoopRoadmap pillarLoopRoadmap(flatbuffers::FlatBufferBuilder& b) {
    namespace fb = schema;
    auto edge = [](uint32_t a, uint32_t e, uint32_t first, uint32_t count) {
        return fb::RoadmapEdge(a, e, first, count, 2.0f, fb::ClearanceSite::Walls, false, 0, 0, 0, 0, 0, 0, 0,
                               0, 0, 0, 0, 0);
    };
    const std::vector<fb::RoadmapVertex> vertices = {
        {2, 2, 0, 2, 0}, {8, 2, 0, 2, 0}, {8, 8, 0, 2, 0}, {2, 8, 0, 2, 0}};
    const std::vector<fb::Vec2> points = {{2, 2}, {8, 2}, {8, 2}, {8, 8}, {8, 8},
                                          {2, 8}, {2, 8}, {2, 5}, {2, 2}};
    const std::vector<fb::RoadmapEdge> edges = {edge(0, 1, 0, 2), edge(1, 2, 2, 2), edge(2, 3, 4, 2),
                                                edge(3, 0, 6, 3)};
    const std::vector<fb::Blend> blends = {{1, 0, 1, 7, 3, 1, 7, 2, 8, 3, true, 2.2f},
                                           {2, 1, 2, 7, 7, 1, 8, 7, 7, 8, true, 2.2f},
                                           {3, 2, 3, 3, 7, 1, 3, 8, 2, 7, true, 2.2f},
                                           {0, 3, 0, 3, 3, 1, 2, 3, 3, 2, true, 2.2f}};
    const std::vector<uint32_t> cell_start = {0, 2, 4, 6, 8}, cell_edges = {0, 3, 0, 1, 2, 3, 1, 2};
    PillarLoopRoadmap out;
    out.grid = fb::CreateEdgeGrid(b, 2, 2, 3, 2, 2, b.CreateVector(cell_start), b.CreateVector(cell_edges));
    out.options = fb::CreateRoadmapOptions(b, 0.0, 0.01, true);
    out.vertices = b.CreateVectorOfStructs(vertices);
    out.edges = b.CreateVectorOfStructs(edges);
    out.points = b.CreateVectorOfStructs(points);
    out.blends = b.CreateVectorOfStructs(blends);
    return out;
}

} // namespace clearway::test
