// AvoidWalls: a footprint layer's rings in a grid, against hand-built cases and brute force; and a
// search that keeps a boat inside a room.
#include <clearway/motion.h>

#include <clearway/schema/footprint_generated.h>

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace clearway;
using namespace clearway::trims;
namespace fbf = clearway::schema;

namespace trimtest {
Model model2d(uint32_t samples, double max_rate, double speed, uint32_t steps);
std::vector<uint8_t> buildTable(const Model& m, bool symmetric);
} // namespace trimtest

namespace {

// A 100 x 60 m room (0..100, 0..60) with a 20 x 20 m pillar at (40..60, 20..40).
std::vector<uint8_t> roomAsset() {
    flatbuffers::FlatBufferBuilder b;
    const std::vector<fbf::Vec2> boundary = {{0, 0},   {100, 0}, {100, 60}, {0, 60},
                                             {40, 20}, {40, 40}, {60, 40},  {60, 20}};
    const std::vector<fbf::Ring> rings = {{0, 4}, {4, 4}};
    const std::vector<fbf::Polygon> polygons = {{0, 2}};
    const std::vector<fbf::Vec3> surface = {{0, 0, 0}, {100, 0, 0}, {100, 60, 0}, {0, 60, 0}};
    const std::vector<fbf::Triangle> triangles = {{0, 1, 2}, {0, 2, 3}};
    auto layer = fbf::CreateLayer(b, b.CreateVectorOfStructs(boundary), b.CreateVectorOfStructs(rings),
                                  b.CreateVectorOfStructs(polygons), b.CreateVectorOfStructs(surface),
                                  b.CreateVectorOfStructs(triangles), 5600.0, 0.0f, 0.0f);
    std::vector<flatbuffers::Offset<fbf::Layer>> layers = {layer};
    auto root = fbf::CreateFootprint(b, kFootprintFormatVersion, b.CreateString("0.1.0"), 1, 2, 0, nullptr,
                                     0.25, b.CreateVector(layers), 0, b.CreateString("room"));
    b.Finish(root, "CWFP");
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

struct Room {
    std::vector<uint8_t> bytes = roomAsset();
    FootprintView view;
    std::vector<uint64_t> memory;
    WallGrid grid;
    explicit Room(float cell = 4.0f) {
        REQUIRE(loadFootprint(bytes.data(), bytes.size(), &view) == Status::Ok);
        WallGridSettings s = defaultWallGridSettings();
        s.cell = cell;
        size_t size = 0;
        REQUIRE(wallGridMemorySize(view, 0, s, &size) == Status::Ok);
        memory.assign(size / 8 + 1, 0);
        REQUIRE(buildWallGrid(view, 0, s, memory.data(), size, &grid) == Status::Ok);
    }
};

double pointSegment(double px, double py, double ax, double ay, double bx, double by) {
    const double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
    t = std::fmin(1, std::fmax(0, t));
    return std::hypot(ax + t * dx - px, ay + t * dy - py);
}

// Minimum distance from the walls along the chord, sampled densely (independent of the grid code).
double sampledClosest(Vec2f p0, Vec2f p1) {
    const double walls[8][4] = {{0, 0, 100, 0},   {100, 0, 100, 60}, {100, 60, 0, 60}, {0, 60, 0, 0},
                                {40, 20, 40, 40}, {40, 40, 60, 40},  {60, 40, 60, 20}, {60, 20, 40, 20}};
    double best = 1e300;
    for (int i = 0; i <= 4000; ++i) {
        const double t = i / 4000.0, x = p0.x + (p1.x - p0.x) * t, y = p0.y + (p1.y - p0.y) * t;
        for (const auto& w : walls)
            best = std::fmin(best, pointSegment(x, y, w[0], w[1], w[2], w[3]));
    }
    return best;
}

} // namespace

TEST_SUITE("trims walls") {
    TEST_CASE("walls: clear chords pass, crossings and near misses hit, backing away is free") {
        Room room;
        CHECK(room.grid.edge_count == 8);
        CHECK(!wallGridHitsSegment(room.grid, {10, 10}, {30, 10}, 2.0f));
        CHECK(wallGridHitsSegment(room.grid, {90, 30}, {110, 30}, 0.0f)); // through the outer wall
        CHECK(wallGridHitsSegment(room.grid, {30, 30}, {50, 30}, 0.0f));  // into the pillar
        CHECK(!wallGridHitsSegment(room.grid, {30, 45}, {70, 45}, 4.5f)); // 5 m above the pillar
        CHECK(wallGridHitsSegment(room.grid, {30, 45}, {70, 45}, 5.5f));
        CHECK(wallGridHitsSegment(room.grid, {10, 10}, {10, 1}, 2.0f)); // stops 1 m from the wall
        // Starting 1 m from the wall with a 2 m radius: moving away is free, closer is a hit.
        CHECK(!wallGridHitsSegment(room.grid, {10, 1}, {10, 8}, 2.0f));
        CHECK(wallGridHitsSegment(room.grid, {10, 1}, {14, 0.5f}, 2.0f));
        // Outside the grid entirely: no walls there.
        CHECK(!wallGridHitsSegment(room.grid, {500, 500}, {510, 500}, 2.0f));
        AvoidWalls avoid{&room.grid, 1.5f, 0.5f};
        Segment s{};
        s.duration = 1;
        s.p0 = {30, 45, 7};
        s.p1 = {70, 45, 7};
        CHECK(avoidWallsGoodness(avoid, s) == 1.0f);
        s.p1 = {70, 41, 7};
        CHECK(avoidWallsGoodness(avoid, s) == 0.0f);
        CHECK(behaviour(&avoid).evaluate(&avoid, s) == 0.0f);
    }

    TEST_CASE("walls: the grid agrees with a sampled distance for random chords and cell sizes") {
        for (float cell : {1.0f, 4.0f, 30.0f, 500.0f}) {
            Room room(cell);
            std::mt19937 rng(9);
            std::uniform_real_distribution<float> x(-10, 110), y(-10, 70), d(-12, 12), r(0, 3);
            int hits = 0, checked = 0;
            for (int i = 0; i < 1500; ++i) {
                const Vec2f p0{x(rng), y(rng)}, p1{p0.x + d(rng), p0.y + d(rng)};
                const float radius = r(rng);
                const double start = sampledClosest(p0, p0), closest = sampledClosest(p0, p1);
                if (std::fabs(closest - radius) < 0.02 || std::fabs(start - radius) < 0.02)
                    continue;                 // too close to call
                if (start < radius) continue; // the overlap rule is checked by hand above
                const bool expected = closest < radius;
                CHECK(wallGridHitsSegment(room.grid, p0, p1, radius) == expected);
                hits += expected;
                ++checked;
            }
            MESSAGE("cell ", cell, ": ", hits, " of ", checked, " chords hit");
            CHECK(hits > 50);
            CHECK(checked - hits > 50);
        }
    }

    TEST_CASE("walls: bad layer or cell size, short buffer") {
        Room room;
        size_t size = 0;
        WallGridSettings s = defaultWallGridSettings();
        CHECK(wallGridMemorySize(room.view, 1, s, &size) == Status::InvalidArgument);
        s.cell = 0;
        CHECK(wallGridMemorySize(room.view, 0, s, &size) == Status::InvalidArgument);
        s.cell = 1e-4f; // 10^6 x 6 10^5 cells
        CHECK(wallGridMemorySize(room.view, 0, s, &size) == Status::InvalidArgument);
        s = defaultWallGridSettings();
        REQUIRE(wallGridMemorySize(room.view, 0, s, &size) == Status::Ok);
        std::vector<uint64_t> mem(size / 8 + 1);
        WallGrid g;
        CHECK(buildWallGrid(room.view, 0, s, mem.data(), size - 1, &g) == Status::BufferTooSmall);
        CHECK(buildWallGrid(FootprintView{}, 0, s, mem.data(), size, &g) == Status::InvalidArgument);
    }

    TEST_CASE("walls: a boat seeking across the room goes round the pillar and never touches a wall") {
        Room room;
        const auto bytes = trimtest::buildTable(trimtest::model2d(17, 0.8, 8.0, 20), true);
        TableView table;
        REQUIRE(loadTable(bytes.data(), bytes.size(), &table) == Status::Ok);
        SearchSettings s = defaultSearchSettings();
        s.prune_zero = true;
        std::vector<uint64_t> mem(searchWorkspaceSize(table, s) / 8 + 1);
        SearchWorkspace ws;
        REQUIRE(initSearchWorkspace(table, s, mem.data(), mem.size() * 8, &ws) == Status::Ok);
        Seek seek{{90, 30, 0}};
        AvoidWalls walls{&room.grid, 2.0f, table.max_chord_deviation};
        const Behaviour parts[2] = {behaviour(&seek), behaviour(&walls)};
        Composite both{parts, 2};
        VehicleState state{{8, 30, 0}, {0, 0, 0, 1}, 8.0f, straightControl(table.model)};
        uint32_t plan[32], plan_length = 0;
        int k = 0;
        for (; k < 40; ++k) {
            const float dx = state.position.x - 90, dy = state.position.y - 30;
            if (std::sqrt(dx * dx + dy * dy) < 8) break;
            SearchResult r;
            REQUIRE(search(&ws, state, behaviour(&both), plan, 32, &r, plan_length > 1 ? plan + 1 : nullptr,
                           plan_length > 1 ? plan_length - 1 : 0) == Status::Ok);
            plan_length = r.plan_length;
            VehicleState next;
            REQUIRE(applyTrim(table, state, r.first_control, &next) == Status::Ok);
            CHECK(!wallGridHitsSegment(room.grid, {state.position.x, state.position.y},
                                       {next.position.x, next.position.y}, 2.0f));
            state = next;
        }
        MESSAGE("reached the far side in ", k, " decisions");
        CHECK(k < 40);
    }
}
