// A hand-built roadmap level for the camera and group tests (the motion tests do not link the
// bake library): room A (0..12 x 0..12), a 0.4 m wall at x = 12..12.4 with a 2 m doorway
// (y = 5..7), room B (12.4..24 x 0..12) and a 6 m corridor going north (18..24 x 12..30). The
// roadmap runs (6,6) -> door (12.2,6) -> (21,6) -> (21,27) with a radius-2 blend at the corner;
// clearances are the exact distances to these walls (1 in the doorway, 3 in the corridor).
#pragma once

#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace doorlevel {

namespace fb = clearway::schema;

// The walkable polygon, counter-clockwise.
inline const std::vector<fb::Vec2>& boundary() {
    static const std::vector<fb::Vec2> b = {{0, 0},     {12, 0},  {12, 5},  {12.4f, 5}, {12.4f, 0},
                                            {24, 0},    {24, 30}, {18, 30}, {18, 12},   {12.4f, 12},
                                            {12.4f, 7}, {12, 7},  {12, 12}, {0, 12}};
    return b;
}

inline std::vector<uint8_t> build() {
    flatbuffers::FlatBufferBuilder b;
    const std::vector<fb::Ring> rings = {{0, uint32_t(boundary().size())}};
    const std::vector<fb::Polygon> polygons = {{0, 1}};
    // Flat floor: two triangles over the bounding box (heights are only read inside the polygon).
    const std::vector<fb::Vec3> surface = {{0, 0, 0}, {24, 0, 0}, {24, 30, 0}, {0, 30, 0}};
    const std::vector<fb::Triangle> triangles = {{0, 1, 2}, {0, 2, 3}};
    auto layer = fb::CreateLayer(b, b.CreateVectorOfStructs(boundary()), b.CreateVectorOfStructs(rings),
                                 b.CreateVectorOfStructs(polygons), b.CreateVectorOfStructs(surface),
                                 b.CreateVectorOfStructs(triangles), 144 + 0.8 + 139.2 + 108, 0.0f, 0.0f);
    std::vector<flatbuffers::Offset<fb::Layer>> layers = {layer};
    const fb::Vec3d origin(0, 0, 0);
    auto footprint = fb::CreateFootprint(b, clearway::kFootprintFormatVersion, b.CreateString("test"), 1, 2,
                                         0, &origin, 1.0 / 1024, b.CreateVector(layers));
    auto edge = [](uint32_t a, uint32_t e, uint32_t first, float clearance) {
        return fb::RoadmapEdge(a, e, first, 2, clearance, fb::ClearanceSite::Walls, false, 0, 0, 0, 0, 0, 0,
                               0, 0, 0, 0, 0, 0);
    };
    const std::vector<fb::RoadmapVertex> vertices = {
        {6, 6, 0, 6, 0}, {12.2f, 6, 0, 1, 0}, {21, 6, 0, 3, 0}, {21, 27, 0, 3, 0}};
    const std::vector<fb::Vec2> points = {{6, 6}, {12.2f, 6}, {12.2f, 6}, {21, 6}, {21, 6}, {21, 27}};
    const std::vector<fb::RoadmapEdge> edges = {edge(0, 1, 0, 1), edge(1, 2, 2, 1), edge(2, 3, 4, 3)};
    // Corner (21,6): in along e1 heading east, out along e2 heading north; trim 2, turning left.
    const std::vector<fb::Blend> blends = {{2, 1, 2, 19, 8, 2, 19, 6, 21, 8, true, 3}};
    const std::vector<uint32_t> cell_start = {0, 3}, cell_edges = {0, 1, 2};
    auto grid = fb::CreateEdgeGrid(b, 0, 0, 30, 1, 1, b.CreateVector(cell_start), b.CreateVector(cell_edges));
    auto options = fb::CreateRoadmapOptions(b, 0.0, 0.01, true);
    auto root =
        fb::CreateRoadmap(b, clearway::kRoadmapFormatVersion, b.CreateString("0.1.0"), 1, 2, options,
                          footprint, b.CreateVectorOfStructs(vertices), b.CreateVectorOfStructs(edges),
                          b.CreateVectorOfStructs(points), b.CreateVectorOfStructs(blends), grid);
    b.Finish(root, "CWRM");
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

inline double pointSegment(double px, double py, double ax, double ay, double bx, double by) {
    const double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return std::hypot(ax + t * dx - px, ay + t * dy - py);
}

// Brute-force distance to the walls (every boundary edge), independent of the runtime's grid.
inline double wallDistance(double x, double y) {
    const auto& v = boundary();
    double best = INFINITY;
    for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i++)
        best = std::fmin(best, pointSegment(x, y, v[j].x(), v[j].y(), v[i].x(), v[i].y()));
    return best;
}

inline bool inside(double x, double y) {
    const auto& v = boundary();
    bool in = false;
    for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i++)
        if ((v[i].y() > y) != (v[j].y() > y) &&
            x < (v[j].x() - v[i].x()) * (y - v[i].y()) / (v[j].y() - v[i].y()) + v[i].x())
            in = !in;
    return in;
}

// The asset, loaded, with a path scratch.
struct Level {
    std::vector<uint8_t> bytes = build();
    clearway::RoadmapView view;
    std::vector<uint8_t> memory;
    clearway::PathScratch* scratch = nullptr;
    Level() {
        REQUIRE(clearway::loadRoadmap(bytes.data(), bytes.size(), &view) == clearway::Status::Ok);
        size_t size = 0;
        REQUIRE(clearway::pathScratchSize(view, &size) == clearway::Status::Ok);
        memory.resize(size);
        REQUIRE(clearway::pathScratchInit(view, memory.data(), size, &scratch) == clearway::Status::Ok);
    }
    // findPath from room A to the end of the corridor (through the doorway and round the corner).
    std::vector<clearway::PathSegment> path(double radius, clearway::PathEndpoint from = {3, 3, 0},
                                            clearway::PathEndpoint to = {21, 28, 0}) const {
        std::vector<clearway::PathSegment> out(256);
        uint32_t count = 0;
        REQUIRE(clearway::findPath(view, scratch, from, to, radius, INFINITY, out.data(), &count,
                                   uint32_t(out.size())) == clearway::Status::Ok);
        out.resize(count);
        return out;
    }
};

} // namespace doorlevel
