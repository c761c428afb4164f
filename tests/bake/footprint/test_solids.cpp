// Closed solids whatever their faces' winding: a box on a floor keeps the floor under it out of
// the footprint when its faces point inward (all of them, or only the sides: a common export
// fault), exactly as when they point outward.
#include "clearway/bake.h"
#include "same_footprint.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>

using namespace clearway::bake;
using clearway::bake::testing::checkSameFootprint;

namespace {

// Y-up world: a 10 x 10 m floor quad, and a closed 2 x 2 x 3 m box on it (taller than the agent,
// so only its walls cut the floor; its top is a walkable island 3 m up). Its faces point outward
// unless flipped.
Footprint floorWithBox(bool flip_sides, bool flip_top_and_bottom) {
    std::vector<Vec3> positions = {{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}};
    std::vector<uint32_t> indices = {0, 2, 1, 0, 3, 2}; // facing +y
    const double x0 = -1, x1 = 1, z0 = -1, z1 = 1, h = 3;
    const uint32_t b = uint32_t(positions.size());
    for (double y : {0.0, h})
        for (const auto& [x, z] : std::array<std::pair<double, double>, 4>{{{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}}})
            positions.push_back({x, y, z});
    // Quads (a, b, c, d) counter-clockwise seen from outside.
    const auto quad = [&](std::array<uint32_t, 4> q, bool flip) {
        const std::array<uint32_t, 6> tris = {q[0], q[1], q[2], q[0], q[2], q[3]};
        for (size_t k = 0; k < 6; k += 3)
            indices.insert(indices.end(), {b + tris[k], b + tris[k + (flip ? 2 : 1)], b + tris[k + (flip ? 1 : 2)]});
    };
    quad({4, 7, 6, 5}, flip_top_and_bottom); // top, +y
    quad({0, 1, 2, 3}, flip_top_and_bottom); // bottom, -y
    quad({0, 4, 5, 1}, flip_sides);          // z = z0, -z
    quad({1, 5, 6, 2}, flip_sides);          // x = x1, +x
    quad({2, 6, 7, 3}, flip_sides);          // z = z1, +z
    quad({3, 7, 4, 0}, flip_sides);          // x = x0, -x
    ImportOptions options;
    Mesh mesh;
    REQUIRE_FALSE(meshFromTriangles(positions, indices, options, "floor-with-box", &mesh));
    Footprint fp;
    REQUIRE_FALSE(buildFootprint(mesh, options, &fp, silentLog()));
    return fp;
}

} // namespace

TEST_SUITE("bake/footprint") {
    TEST_CASE("a closed box outward: the floor under it is not walkable, its top is") {
        // One layer (the top overlaps no floor left): the floor with the box's hole, and the top.
        const Footprint fp = floorWithBox(false, false);
        REQUIRE(fp.layers.size() == 1);
        const FootprintLayer& layer = fp.layers[0];
        REQUIRE(layer.polygons.size() == 2);
        const bool floor_first = layer.polygons[0].outer.size() == 4 && layer.polygons[0].holes.size() == 1;
        const PolygonWithHoles& floor = layer.polygons[floor_first ? 0 : 1];
        const PolygonWithHoles& top = layer.polygons[floor_first ? 1 : 0];
        REQUIRE(floor.holes.size() == 1);
        CHECK(top.holes.empty());
        // The box's hole: 2 x 2 m and its wall strips (a few kWallHalfWidth wide).
        CHECK(layer.area < 100 + 0.01);
        CHECK(layer.area > 100 - 0.05);
        for (const Vec2& p : floor.holes[0]) {
            CHECK(std::abs(p.x) == doctest::Approx(1).epsilon(0.01));
            CHECK(std::abs(p.y) == doctest::Approx(1).epsilon(0.01));
        }
        CHECK(layer.height_max - layer.height_min == doctest::Approx(3)); // floor and top
    }

    TEST_CASE("a closed box counts as solid with every face flipped or only its sides") {
        const Footprint outward = floorWithBox(false, false);
        SUBCASE("every face flipped") { checkSameFootprint(floorWithBox(true, true), outward); }
        SUBCASE("side faces flipped") { checkSameFootprint(floorWithBox(true, false), outward); }
        SUBCASE("top and bottom flipped") { checkSameFootprint(floorWithBox(false, true), outward); }
    }
}
