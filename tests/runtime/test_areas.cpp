// Designer areas in a roadmap asset (README "Designer edits"): the loader rejects bad weights and
// area polygons, findPath's A* pays each edge's weight per metre, and shortened paths keep out of
// avoided areas their route did not enter. Hand-built asset with answers known in closed form.
#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "pillar_loop.h"

#include <cmath>
#include <vector>

using namespace clearway;
namespace fb = clearway::schema;

namespace {

constexpr double kPi = 3.14159265358979323846;

// A 10 m square room with a 2 m pillar in the middle (4..6); the roadmap is the square loop at
// 2 m from the outer walls: e0 (2,2)-(8,2), e1 (8,2)-(8,8), e2 (8,8)-(2,8), e3 (2,8)-(2,5)-(2,2),
// clearance 2, radius-1 blends at the corners.
struct AreaSpec {
    std::vector<float> edge_weights;
    std::vector<fb::WeightedArea> areas;
    std::vector<fb::Vec2> area_vertices;
};

std::vector<uint8_t> build(const AreaSpec& s) {
    flatbuffers::FlatBufferBuilder b;
    const std::vector<fb::Vec2> boundary = {{0, 0}, {10, 0}, {10, 10}, {0, 10},
                                            {4, 4}, {4, 6},  {6, 6},   {6, 4}};
    const std::vector<fb::Ring> rings = {{0, 4}, {4, 4}};
    const std::vector<fb::Polygon> polygons = {{0, 2}};
    const std::vector<fb::Vec3> surface = {{0, 0, 0}, {10, 0, 0}, {10, 10, 0}, {0, 10, 0}};
    const std::vector<fb::Triangle> triangles = {{0, 1, 2}, {0, 2, 3}};
    auto layer = fb::CreateLayer(b, b.CreateVectorOfStructs(boundary), b.CreateVectorOfStructs(rings),
                                 b.CreateVectorOfStructs(polygons), b.CreateVectorOfStructs(surface),
                                 b.CreateVectorOfStructs(triangles), 96.0, 0.0f, 0.0f);
    std::vector<flatbuffers::Offset<fb::Layer>> layers = {layer};
    const fb::Vec3d origin(0, 0, 0);
    auto footprint = fb::CreateFootprint(b, kFootprintFormatVersion, b.CreateString("test"), 1, 2, 0, &origin,
                                         0.25, b.CreateVector(layers));
    const test::PillarLoopRoadmap loop = test::pillarLoopRoadmap(b);
    auto weights = s.edge_weights.empty() ? 0 : b.CreateVector(s.edge_weights);
    auto areas = s.areas.empty() ? 0 : b.CreateVectorOfStructs(s.areas);
    auto area_vertices = s.area_vertices.empty() ? 0 : b.CreateVectorOfStructs(s.area_vertices);
    auto root = fb::CreateRoadmap(b, kRoadmapFormatVersion, b.CreateString("0.1.0"), 1, 2, loop.options,
                                  footprint, loop.vertices, loop.edges, loop.points, loop.blends, loop.grid,
                                  weights, areas, area_vertices);
    fb::FinishRoadmapBuffer(b, root);
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

Status loadStatus(const AreaSpec& spec) {
    const std::vector<uint8_t> bytes = build(spec);
    RoadmapView view;
    return loadRoadmap(bytes.data(), bytes.size(), &view);
}

// Rectangle x0..x1 by y0..y1 appended to the spec as an area (counter-clockwise).
void addArea(AreaSpec& s, float weight, float x0, float y0, float x1, float y1) {
    s.areas.emplace_back(0, weight, uint32_t(s.area_vertices.size()), 4);
    for (const fb::Vec2& p : {fb::Vec2(x0, y0), fb::Vec2(x1, y0), fb::Vec2(x1, y1), fb::Vec2(x0, y1)})
        s.area_vertices.push_back(p);
}

struct Planned {
    Status status;
    std::vector<PathSegment> segments;
    double length = 0, min_y = INFINITY, max_y = -INFINITY;
    std::vector<PathPose> poses;
};

Planned plan(const AreaSpec& spec, PathEndpoint from, PathEndpoint to, double radius, double preferred) {
    const std::vector<uint8_t> bytes = build(spec);
    RoadmapView view;
    REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
    size_t size = 0;
    REQUIRE(pathScratchSize(view, &size) == Status::Ok);
    std::vector<uint8_t> memory(size);
    PathScratch* scratch = nullptr;
    REQUIRE(pathScratchInit(view, memory.data(), memory.size(), &scratch) == Status::Ok);
    Planned out;
    out.segments.resize(256);
    uint32_t count = 0;
    out.status = findPath(view, scratch, from, to, radius, preferred, out.segments.data(), &count, 256);
    out.segments.resize(count);
    if (out.status != Status::Ok) return out;
    out.length = pathTotalLength(out.segments.data(), count);
    out.poses.resize(4096);
    uint32_t poses = 0;
    REQUIRE(pathSample(view, out.segments.data(), count, 0.02, out.poses.data(), &poses, 4096) == Status::Ok);
    out.poses.resize(poses);
    for (const PathPose& p : out.poses)
        out.min_y = std::fmin(out.min_y, p.position.y), out.max_y = std::fmax(out.max_y, p.position.y);
    return out;
}

} // namespace

TEST_SUITE("runtime/designer areas") {
    TEST_CASE("the loader accepts areas and edge weights, and rejects bad ones") {
        AreaSpec good;
        good.edge_weights = {7, 1, 1, 1};
        addArea(good, 10, 3, 1, 7, 3);
        CHECK(loadStatus(good) == Status::Ok);
        CHECK(loadStatus(AreaSpec{}) == Status::Ok); // no areas at all: an asset without edits

        auto with = [&](auto change) {
            AreaSpec s = good;
            change(s);
            return loadStatus(s);
        };
        CHECK(with([](AreaSpec& s) { s.edge_weights[0] = 0; }) == Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.edge_weights[1] = -2; }) == Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.edge_weights[2] = NAN; }) == Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.edge_weights[3] = INFINITY; }) == Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.edge_weights.pop_back(); }) ==
              Status::CorruptAsset); // not one per edge
        CHECK(with([](AreaSpec& s) { s.areas[0] = fb::WeightedArea(0, 0.0f, 0, 4); }) ==
              Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.areas[0] = fb::WeightedArea(0, -1.0f, 0, 4); }) ==
              Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.areas[0] = fb::WeightedArea(0, NAN, 0, 4); }) == Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.areas[0] = fb::WeightedArea(0, INFINITY, 0, 4); }) ==
              Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.areas[0] = fb::WeightedArea(1, 2.0f, 0, 4); }) ==
              Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.areas[0] = fb::WeightedArea(0, 2.0f, 1, 4); }) ==
              Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.areas[0] = fb::WeightedArea(0, 2.0f, 0, 2); }) ==
              Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.areas[0] = fb::WeightedArea(0, 2.0f, 0xffffffffu, 4); }) ==
              Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.area_vertices[2] = fb::Vec2(NAN, 1); }) == Status::CorruptAsset);
        CHECK(with([](AreaSpec& s) { s.area_vertices[2] = fb::Vec2(1, 9e15f); }) == Status::CorruptAsset);
    }

    TEST_CASE("A* pays each edge's weight per metre: a weighted bottom edge sends the path over the top") {
        // From (2,5) to (8,5), the pillar between: down and round (3 + 6 + 3 m) or up and round,
        // equally long. Either way the medial path is 2 + 4 + 2 m of lines and two quarter circles
        // of radius 1: 8 + pi.
        const PathEndpoint from{2, 5, 0}, to{8, 5, 0};
        AreaSpec avoided; // weight 10 on 4 of e0's 6 m: (4 * 10 + 2) / 6 = 7 per metre
        avoided.edge_weights = {7, 1, 1, 1};
        addArea(avoided, 10, 3, 1, 7, 3);
        const Planned top = plan(avoided, from, to, 0.5, INFINITY);
        REQUIRE(top.status == Status::Ok);
        CHECK(top.length == doctest::Approx(8 + kPi).epsilon(1e-6));
        CHECK(top.max_y > 7.9);
        CHECK(top.min_y > 4.9);

        AreaSpec preferred; // weight 0.1 there: (4 * 0.1 + 2) / 6 = 0.4 per metre
        preferred.edge_weights = {0.4f, 1, 1, 1};
        addArea(preferred, 0.1f, 3, 1, 7, 3);
        const Planned bottom = plan(preferred, from, to, 0.5, INFINITY);
        REQUIRE(bottom.status == Status::Ok);
        CHECK(bottom.length == doctest::Approx(8 + kPi).epsilon(1e-6));
        CHECK(bottom.min_y < 2.1);
        CHECK(bottom.max_y < 5.1);

        // The same preference on the top edge flips it back.
        AreaSpec top_preferred;
        top_preferred.edge_weights = {1, 1, 0.4f, 1};
        addArea(top_preferred, 0.1f, 3, 7, 7, 9);
        CHECK(plan(top_preferred, from, to, 0.5, INFINITY).max_y > 7.9);
    }

    TEST_CASE("shortening keeps out of an avoided area the route did not enter") {
        // Route over the top (the bottom edge weighs 7 per metre), along y = 8. Shortened at
        // clearance 0.5 the path cuts down towards the pillar's top (y = 6); an avoided band
        // y 6.2 .. 7.2 over x 3 .. 7, away from the route, must keep it above the band.
        const PathEndpoint from{2, 5, 0}, to{8, 5, 0};
        auto inBand = [](const PathPose& p) {
            return p.position.x > 3 + 1e-9 && p.position.x < 7 - 1e-9 && p.position.y > 6.2 + 1e-9 &&
                   p.position.y < 7.2 - 1e-9;
        };
        AreaSpec base;
        base.edge_weights = {7, 1, 1, 1};
        addArea(base, 10, 3, 1, 7, 3);
        const Planned taut = plan(base, from, to, 0.5, 0.5);
        REQUIRE(taut.status == Status::Ok);
        bool entered = false;
        for (const PathPose& p : taut.poses)
            entered |= inBand(p);
        CHECK(entered); // without the band the shortened path crosses it

        AreaSpec band = base;
        addArea(band, 2, 3, 6.2f, 7, 7.2f);
        const Planned kept = plan(band, from, to, 0.5, 0.5);
        REQUIRE(kept.status == Status::Ok);
        for (const PathPose& p : kept.poses)
            CHECK_MESSAGE(!inBand(p), "pose at s = " << p.s << " (" << p.position.x << ", " << p.position.y
                                                     << ") is inside the avoided band");
        CHECK(kept.min_y > 4.9);
        CHECK(kept.length > taut.length);
        CHECK(kept.length <= 8 + kPi + 1e-9); // never longer than the route it shortens
        MESSAGE("shortened lengths: " << taut.length << " m free, " << kept.length << " m round the band");

        // A straight line start-goal that crosses an avoided area neither end is in is not taken.
        AreaSpec open; // (3,3) to (7,3) is in plain view below the pillar
        const Planned straight = plan(open, {3, 3, 0}, {7, 3, 0}, 0.5, 0.5);
        REQUIRE(straight.status == Status::Ok);
        CHECK(straight.segments.size() == 1);
        AreaSpec blocked;
        addArea(blocked, 3, 4.5f, 2.2f, 5.5f, 3.5f); // clear of the route along y = 2
        blocked.edge_weights = {1, 1, 1, 1};
        const Planned detour = plan(blocked, {3, 3, 0}, {7, 3, 0}, 0.5, 0.5);
        REQUIRE(detour.status == Status::Ok);
        CHECK(detour.segments.size() > 1);
    }
}
