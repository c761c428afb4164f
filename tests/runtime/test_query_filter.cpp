// Query filters (Detour's dtQueryFilter): include / exclude flags and per-area-type cost
// multipliers given per findPath query, on the pillar loop with a door area whose answers are known
// in closed form; the default filter answers as findPath without one, bit for bit, on the sample
// levels; bad filters and bad span data are rejected; a filtered query never allocates.
#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "allocation_counter.h"
#include "loaded_roadmap.h"
#include "shared_path_data.h"
#include "test_files.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace clearway;
namespace fb = clearway::schema;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr uint16_t kDoor = 8;
constexpr uint8_t kDoorType = 5;

// The pillar loop (tests/support/pillar_loop.h: a 10 m room, a 2 m pillar at 4..6, the roadmap the
// square loop at 2 m from the outer walls, e0 along the bottom y = 2) with a door area over x 3 .. 7,
// y 1 .. 3 (weight 0.5, type 5, flags walk | door): 4 of e0's 6 m lie in it. e0's baked cost is
// 2 + 4 * 0.5 = 4 (weight 4 / 6); its spans: 2 in type 0 with the walk flag, 2 in the door.
struct DoorLevel {
    std::vector<uint32_t> span_starts = {0, 2, 2, 2, 2};
    std::vector<fb::EdgeAreaSpan> spans = {{2.0f, kAreaFlagWalk, 0},
                                           {2.0f, kAreaFlagWalk | kDoor, kDoorType}};
    std::vector<uint8_t> area_types = {kDoorType};
    std::vector<uint16_t> area_flags = {kAreaFlagWalk | kDoor};
    std::vector<fb::WeightedArea> areas = {fb::WeightedArea(0, 0.5f, 0, 4)};
    std::vector<fb::Vec2> area_vertices = {{3, 1}, {7, 1}, {7, 3}, {3, 3}};
};

// The door level with a second door over e1 (x 7 .. 9, y 3 .. 7, weight 1: for filters alone):
// closing both cuts the corner (8,2) off from the rest of the loop.
DoorLevel twoDoors() {
    DoorLevel d;
    d.span_starts = {0, 2, 5, 5, 5};
    d.spans.push_back({1.0f, kAreaFlagWalk, 0});
    d.spans.push_back({4.0f, kAreaFlagWalk | kDoor, kDoorType});
    d.spans.push_back({1.0f, kAreaFlagWalk, 0});
    d.area_types.push_back(kDoorType);
    d.area_flags.push_back(kAreaFlagWalk | kDoor);
    d.areas.push_back(fb::WeightedArea(0, 1.0f, 4, 4));
    d.area_vertices.insert(d.area_vertices.end(), {{7, 3}, {9, 3}, {9, 7}, {7, 7}});
    return d;
}

std::vector<uint8_t> build(const DoorLevel& d) {
    flatbuffers::FlatBufferBuilder b;
    const std::vector<fb::Vec2> boundary = {{0, 0}, {10, 0}, {10, 10}, {0, 10},
                                            {4, 4}, {4, 6},  {6, 6},   {6, 4}};
    auto layer = test::quadLayer(b, boundary, {{0, 4}, {4, 4}},
                                 {{0, 0, 0}, {10, 0, 0}, {10, 10, 0}, {0, 10, 0}}, 96.0, 0.0f, 0.0f);
    std::vector<flatbuffers::Offset<fb::Layer>> layers = {layer};
    const fb::Vec3d origin(0, 0, 0);
    auto footprint = fb::CreateFootprint(b, kFootprintFormatVersion, b.CreateString("test"), 1, 2, 0, &origin,
                                         0.25, b.CreateVector(layers));
    const test::PillarLoopRoadmap loop = test::pillarLoopRoadmap(b);
    const std::vector<float> weights = {4.0f / 6.0f, 1, 1, 1};
    auto root = fb::CreateRoadmap(b, kRoadmapFormatVersion, b.CreateString("0.1.0"), 1, 2, loop.options,
                                  footprint, loop.vertices, loop.edges, loop.points, loop.blends, loop.grid,
                                  b.CreateVector(weights), b.CreateVectorOfStructs(d.areas),
                                  b.CreateVectorOfStructs(d.area_vertices), 0, 0, 0, 0, 0,
                                  d.area_types.empty() ? 0 : b.CreateVector(d.area_types),
                                  d.area_flags.empty() ? 0 : b.CreateVector(d.area_flags),
                                  d.span_starts.empty() ? 0 : b.CreateVector(d.span_starts),
                                  d.span_starts.empty() ? 0 : b.CreateVectorOfStructs(d.spans));
    fb::FinishRoadmapBuffer(b, root);
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

struct Planned {
    Status status;
    std::vector<PathSegment> segments;
    double length = 0, min_y = INFINITY, max_y = -INFINITY;
    bool in_door = false; // a pose strictly inside the door area
};

Planned plan(test::LoadedRoadmap& level, PathEndpoint from, PathEndpoint to, double radius, double preferred,
             const QueryFilter* filter) {
    Planned out;
    out.segments.resize(256);
    uint32_t count = 0;
    out.status = filter ? findPathFiltered(level.view, level.scratch, from, to, radius, preferred, *filter,
                                           out.segments.data(), &count, 256)
                        : findPath(level.view, level.scratch, from, to, radius, preferred,
                                   out.segments.data(), &count, 256);
    out.segments.resize(out.status == Status::Ok ? count : 0);
    if (out.status != Status::Ok) return out;
    out.length = pathTotalLength(out.segments.data(), count);
    std::vector<PathPose> poses(4096);
    uint32_t n = 0;
    REQUIRE(pathSample(level.view, out.segments.data(), count, 0.02, poses.data(), &n, 4096) == Status::Ok);
    for (uint32_t i = 0; i < n; ++i) {
        const Vec3d p = poses[i].position;
        out.min_y = std::fmin(out.min_y, p.y), out.max_y = std::fmax(out.max_y, p.y);
        out.in_door |= p.x > 3 + 1e-9 && p.x < 7 - 1e-9 && p.y > 1 + 1e-9 && p.y < 3 - 1e-9;
    }
    return out;
}

QueryFilter doorCost(float multiplier) {
    QueryFilter f = defaultQueryFilter();
    f.area_cost[kDoorType] = multiplier;
    return f;
}

// Every field, bit for bit.
bool same(const Planned& a, const Planned& b) {
    return test::sameBits(test::PathAnswer{a.status, a.segments}, test::PathAnswer{b.status, b.segments});
}

} // namespace

TEST_SUITE("runtime/query filter") {
    TEST_CASE("excluding the door's flag closes it: the medial path goes the long way round") {
        // From (2,5) to (8,5) round the pillar: the bottom costs 3 + 4 + 3 = 10 (the door's weight
        // 0.5), the top 12; either way the medial path is 8 + pi long (2 + 4 + 2 m of lines, two
        // quarter circles of radius 1).
        test::LoadedRoadmap level(build(DoorLevel{}));
        const PathEndpoint from{2, 5, 0}, to{8, 5, 0};
        const Planned plain = plan(level, from, to, 0.5, INFINITY, nullptr);
        REQUIRE(plain.status == Status::Ok);
        CHECK(plain.min_y < 2.1);
        CHECK(plain.length == doctest::Approx(8 + kPi).epsilon(1e-6));

        QueryFilter closed = defaultQueryFilter();
        closed.exclude_flags = kDoor;
        const Planned round = plan(level, from, to, 0.5, INFINITY, &closed);
        REQUIRE(round.status == Status::Ok);
        CHECK(round.max_y > 7.9);
        CHECK(round.min_y > 4.9);
        CHECK(round.length == doctest::Approx(8 + kPi).epsilon(1e-6));
        CHECK_FALSE(round.in_door);

        // Including only the door's flag leaves no ground to walk on: no route (the straight line
        // crosses the pillar).
        QueryFilter door_only = defaultQueryFilter();
        door_only.include_flags = kDoor;
        CHECK(plan(level, from, to, 0.5, INFINITY, &door_only).status == Status::NotFound);
        // Excluding a flag nothing carries changes nothing.
        QueryFilter other = defaultQueryFilter();
        other.exclude_flags = 0x100;
        CHECK(same(plan(level, from, to, 0.5, INFINITY, &other), plain));
    }

    TEST_CASE("a closed door on the straight line: no line through it, the ends snap past it") {
        // (2.5,2) to (7.5,2) is in plain view below the pillar, through the door area. Closed, the
        // line may not enter it, nor the ends snap onto e0: the path goes over the pillar.
        test::LoadedRoadmap level(build(DoorLevel{}));
        const PathEndpoint from{2.5, 2, 0}, to{7.5, 2, 0};
        for (const double preferred : {0.5, 1.0, double(INFINITY)}) {
            CAPTURE(preferred);
            const Planned open = plan(level, from, to, 0.5, preferred, nullptr);
            REQUIRE(open.status == Status::Ok);
            if (preferred < INFINITY) CHECK(open.segments.size() == 1);
            if (preferred < INFINITY) CHECK(open.max_y < 2.1);
            QueryFilter closed = defaultQueryFilter();
            closed.exclude_flags = kDoor;
            const Planned round = plan(level, from, to, 0.5, preferred, &closed);
            REQUIRE(round.status == Status::Ok);
            CHECK(round.max_y > 6.5);
            CHECK_FALSE(round.in_door);
            CHECK(round.length > 2 * std::hypot(2.5, 4.5)); // up to y = 6.5 and back down
        }
    }

    TEST_CASE("a cost multiplier on the door's type flips the route exactly where the costs cross") {
        // With multiplier m on type 5 the bottom costs 3 + (2 + 2 m) + 3 = 8 + 2 m against the top's 12:
        // the bottom below m = 2, the top above.
        test::LoadedRoadmap level(build(DoorLevel{}));
        const PathEndpoint from{2, 5, 0}, to{8, 5, 0};
        for (const float m : {0.25f, 1.0f, 1.5f, 1.99f}) {
            CAPTURE(m);
            const QueryFilter f = doorCost(m);
            const Planned p = plan(level, from, to, 0.5, INFINITY, &f);
            REQUIRE(p.status == Status::Ok);
            CHECK(p.min_y < 2.1);
            CHECK(p.max_y < 5.1);
        }
        for (const float m : {2.01f, 3.0f, 100.0f}) {
            CAPTURE(m);
            const QueryFilter f = doorCost(m);
            const Planned p = plan(level, from, to, 0.5, INFINITY, &f);
            REQUIRE(p.status == Status::Ok);
            CHECK(p.max_y > 7.9);
            CHECK(p.min_y > 4.9);
            CHECK(p.length == doctest::Approx(8 + kPi).epsilon(1e-6));
        }
        // The same with the ground dearer instead: type 0 at 0.5 makes the bottom 3 + (1 + 1) + 3 = 8
        // against 6: the top, with a heuristic scaled down by 0.5 (still the right answer).
        QueryFilter ground = defaultQueryFilter();
        ground.area_cost[0] = 0.5f;
        const Planned p = plan(level, from, to, 0.5, INFINITY, &ground);
        REQUIRE(p.status == Status::Ok);
        CHECK(p.max_y > 7.9);
    }

    TEST_CASE("the default filter answers as findPath without one, bit for bit, on the sample levels") {
        const std::string seeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/roadmap/";
        const QueryFilter defaults = defaultQueryFilter();
        // A filter that is not the default but passes everything at the baked costs: the filtered
        // search itself (flags checked on every edge) must answer the same.
        QueryFilter unused_flag = defaults;
        unused_flag.exclude_flags = 0x8000;
        int compared = 0, routes = 0, differ = 0;
        for (const char* name : {"box_room", "two_storey", "bridge", "bridge-edits", "low_overhang"}) {
            CAPTURE(name);
            test::LoadedRoadmap level(test::readFile(seeds + name + ".cwrm"));
            RoadmapInfo info;
            REQUIRE(roadmapInfo(level.view, &info) == Status::Ok);
            std::mt19937_64 rng(2211);
            std::uniform_real_distribution<double> unit(0.0, 1.0);
            auto endpoint = [&] {
                RoadmapVertexInfo v;
                roadmapVertex(level.view, uint32_t(rng() % info.vertex_count), &v);
                const double r = 0.5 * v.clearance * unit(rng), angle = 2 * kPi * unit(rng);
                return PathEndpoint{v.position.x + r * std::cos(angle), v.position.y + r * std::sin(angle),
                                    v.layer};
            };
            for (int i = 0; i < 300; ++i) {
                const double radius = i % 3 == 0 ? 0.2 : (i % 3 == 1 ? 0.3 : 0.45);
                const double preferred = i % 4 == 0 ? double(INFINITY) : (i % 4 == 1 ? radius : 2.0 * radius);
                const PathEndpoint a = endpoint(), b = endpoint();
                const Planned plain = plan(level, a, b, radius, preferred, nullptr);
                const Planned filtered = plan(level, a, b, radius, preferred, &defaults);
                const Planned checked = plan(level, a, b, radius, preferred, &unused_flag);
                differ += !same(plain, filtered) + !same(plain, checked);
                routes += plain.segments.size() > 1;
                ++compared;
            }
        }
        MESSAGE(compared << " queries, " << routes << " along the roadmap");
        CHECK(routes > 100);
        CHECK(differ == 0);
    }

    TEST_CASE("a NaN, infinite, zero or negative multiplier is InvalidArgument, and so is bad span data") {
        test::LoadedRoadmap level(build(DoorLevel{}));
        std::vector<PathSegment> out(64);
        uint32_t count = 7;
        for (const float bad : {NAN, INFINITY, -INFINITY, 0.0f, -1.0f}) {
            CAPTURE(bad);
            QueryFilter f = defaultQueryFilter();
            f.area_cost[63] = bad;
            CHECK(checkQueryFilter(f) == Status::InvalidArgument);
            CHECK(findPathFiltered(level.view, level.scratch, {2, 5, 0}, {8, 5, 0}, 0.5, INFINITY, f,
                                   out.data(), &count, 64) == Status::InvalidArgument);
        }
        CHECK(checkQueryFilter(defaultQueryFilter()) == Status::Ok);
        CHECK(checkQueryFilter(doorCost(0.01f)) == Status::Ok);

        // The loader: spans and kinds as the schema says, else CorruptAsset.
        auto load = [](const DoorLevel& d) {
            const std::vector<uint8_t> bytes = build(d);
            RoadmapView view;
            return loadRoadmap(bytes.data(), bytes.size(), &view);
        };
        CHECK(load(DoorLevel{}) == Status::Ok);
        DoorLevel old; // an asset baked before area types: none of the four fields
        old.span_starts.clear(), old.area_types.clear(), old.area_flags.clear();
        CHECK(load(old) == Status::Ok);
        auto with = [&](auto change) {
            DoorLevel d;
            change(d);
            return load(d);
        };
        CHECK(with([](DoorLevel& d) { d.area_types[0] = 64; }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.area_flags[0] = 0; }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.area_flags.push_back(1); }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.spans[1] = fb::EdgeAreaSpan(NAN, 1, 0); }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.spans[1] = fb::EdgeAreaSpan(-1, 1, 0); }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.spans[1] = fb::EdgeAreaSpan(1, 0, 0); }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.spans[1] = fb::EdgeAreaSpan(1, 1, 64); }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.span_starts = {0, 2, 1, 2, 2}; }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.span_starts = {0, 2, 2, 2, 3}; }) == Status::CorruptAsset);
        CHECK(with([](DoorLevel& d) { d.span_starts.pop_back(); }) == Status::CorruptAsset);
    }

    TEST_CASE("a partial path under a filter ends where the doors it closes cut the way") {
        // Both doors closed, the goal by the corner (8,2) is cut off: from (2,5) on e3 the start
        // reaches e3 and e2, whose point nearest to the goal is the corner (2,2) (6.22 m off, (8,8)
        // is 6.50 m): the path ends there, 3 m of e3 straight down.
        test::LoadedRoadmap level(build(twoDoors()));
        const PathEndpoint from{2, 5, 0}, to{8.2, 1.5, 0};
        std::vector<PathSegment> path(256), plain(256);
        uint32_t count = 0, plain_count = 0;
        const QueryFilter defaults = defaultQueryFilter();
        REQUIRE(findPathPartialFiltered(level.view, level.scratch, from, to, 0.5, 0.5, defaults, path.data(),
                                        &count, 256) == Status::Ok);
        REQUIRE(findPathPartial(level.view, level.scratch, from, to, 0.5, 0.5, plain.data(), &plain_count,
                                256) == Status::Ok);
        path.resize(count), plain.resize(plain_count);
        CHECK(test::sameBits(test::PathAnswer{Status::Ok, path}, test::PathAnswer{Status::Ok, plain}));

        QueryFilter closed = defaultQueryFilter();
        closed.exclude_flags = kDoor;
        // findPath finds no way: the goal's line onto the roadmap may not cross a closed door either
        // (before the fix the goal snapped to (2,2) through door one and the path ran through it).
        CHECK(plan(level, from, to, 0.5, 0.5, &closed).status == Status::NotFound);
        for (const double preferred : {0.5, double(INFINITY)}) {
            CAPTURE(preferred);
            path.assign(256, PathSegment{});
            REQUIRE(findPathPartialFiltered(level.view, level.scratch, from, to, 0.5, preferred, closed,
                                            path.data(), &count, 256) == Status::Partial);
            CHECK(path[count - 1].end.x == doctest::Approx(2).epsilon(1e-9));
            CHECK(path[count - 1].end.y == doctest::Approx(2).epsilon(1e-9));
            CHECK(pathTotalLength(path.data(), count) == doctest::Approx(3).epsilon(1e-9));
        }
        // Without the filter the partial path is findPath's own: the door is open.
        CHECK(findPathPartial(level.view, level.scratch, from, to, 0.5, 0.5, path.data(), &count, 256) ==
              Status::Ok);
        closed.area_cost[3] = NAN;
        CHECK(findPathPartialFiltered(level.view, level.scratch, from, to, 0.5, 0.5, closed, path.data(),
                                      &count, 256) == Status::InvalidArgument);
    }

    TEST_CASE("a filtered findPath and a filtered partial path never allocate") {
        test::LoadedRoadmap level(build(DoorLevel{}));
        test::LoadedRoadmap doors(build(twoDoors()));
        std::vector<PathSegment> out(64);
        QueryFilter closed = doorCost(3.0f);
        closed.exclude_flags = kDoor;
        Status statuses[4];
        uint32_t count = 0;
        const long allocations = test::allocationsDuring([&] {
            statuses[0] = findPathFiltered(level.view, level.scratch, {2, 5, 0}, {8, 5, 0}, 0.5, INFINITY,
                                           closed, out.data(), &count, 64);
            statuses[1] = findPathFiltered(level.view, level.scratch, {2.5, 2, 0}, {7.5, 2, 0}, 0.5, 0.5,
                                           closed, out.data(), &count, 64);
            statuses[2] = findPathFiltered(level.view, level.scratch, {2, 5, 0}, {8, 5, 0}, 0.5, 0.5,
                                           doorCost(0.5f), out.data(), &count, 64);
            statuses[3] = findPathPartialFiltered(doors.view, doors.scratch, {2, 5, 0}, {8.2, 1.5, 0}, 0.5,
                                                  0.5, closed, out.data(), &count, 64);
        });
        CHECK(allocations == 0);
        for (int i = 0; i < 3; ++i)
            CHECK(statuses[i] == Status::Ok);
        CHECK(statuses[3] == Status::Partial);
    }
}
