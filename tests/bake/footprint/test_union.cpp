// The union of whole pieces (walkable triangles nothing blocks) over their shared edges: flat
// quad grids become their outlines (a square is 4 vertices whatever the number of cells), holes
// and layers stay, and the result does not depend on the thread count.
#include "clearway/bake.h"
#include "same_footprint.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

using namespace clearway::bake;

namespace {

// Y-up triangles of a flat grid of `cells` x `cells` square cells of side `size`, its corner at
// (x0, z0) and height y, each cell two triangles facing up; cells that `skip` names are left out.
void addGrid(int cells, double size, double x0, double z0, double y, std::vector<Vec3>& positions,
             std::vector<uint32_t>& indices, const std::function<bool(int, int)>& skip = {}) {
    const uint32_t base = uint32_t(positions.size());
    for (int j = 0; j <= cells; ++j)
        for (int i = 0; i <= cells; ++i)
            positions.push_back({x0 + i * size, y, z0 + j * size});
    for (int j = 0; j < cells; ++j)
        for (int i = 0; i < cells; ++i) {
            if (skip && skip(i, j)) continue;
            const uint32_t a = base + uint32_t(j * (cells + 1) + i), b = a + 1;
            const uint32_t c = a + uint32_t(cells + 1), d = c + 1;
            indices.insert(indices.end(), {a, c, d, a, d, b});
        }
}

Footprint footprintOf(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices,
                      unsigned threads = 1) {
    ImportOptions options;
    options.threads = threads;
    Mesh mesh;
    REQUIRE_FALSE(meshFromTriangles(positions, indices, options, "grid", &mesh));
    Footprint footprint;
    REQUIRE_FALSE(buildFootprint(mesh, options, &footprint, silentLog()));
    return footprint;
}

Footprint gridFootprint(int cells, double size, const std::function<bool(int, int)>& skip = {}) {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices;
    addGrid(cells, size, 0, 0, 0, positions, indices, skip);
    return footprintOf(positions, indices);
}

double ringArea(const Ring& ring) {
    double twice = 0;
    for (size_t k = 0; k < ring.size(); ++k) {
        const Vec2 &a = ring[k], &b = ring[(k + 1) % ring.size()];
        twice += a.x * b.y - b.x * a.y;
    }
    return twice / 2;
}

} // namespace

TEST_SUITE("bake/footprint") {
    TEST_CASE("a flat grid of any number of cells is one square of 4 vertices with the exact area") {
        for (int cells : {1, 7, 40}) {
            CAPTURE(cells);
            const Footprint fp = gridFootprint(cells, 10.0 / cells);
            REQUIRE(fp.layers.size() == 1);
            REQUIRE(fp.layers[0].polygons.size() == 1);
            const PolygonWithHoles& square = fp.layers[0].polygons[0];
            CHECK(square.outer.size() == 4);
            CHECK(square.holes.empty());
            CHECK(fp.layers[0].area == doctest::Approx(100.0).epsilon(1e-12));
            CHECK(std::abs(ringArea(square.outer)) == doctest::Approx(100.0).epsilon(1e-12));
        }
    }

    TEST_CASE("an L-shaped grid gives the L: 6 vertices, three quarters of the square") {
        // 10 x 10 cells of 1 m without the 5 x 5 corner block.
        const Footprint fp = gridFootprint(10, 1.0, [](int i, int j) { return i >= 5 && j >= 5; });
        REQUIRE(fp.layers.size() == 1);
        REQUIRE(fp.layers[0].polygons.size() == 1);
        CHECK(fp.layers[0].polygons[0].outer.size() == 6);
        CHECK(fp.layers[0].polygons[0].holes.empty());
        CHECK(fp.layers[0].area == doctest::Approx(75.0).epsilon(1e-12));
    }

    TEST_CASE("a grid with a missing cell keeps the cell as a square hole") {
        const Footprint fp = gridFootprint(10, 1.0, [](int i, int j) { return i == 3 && j == 6; });
        REQUIRE(fp.layers.size() == 1);
        REQUIRE(fp.layers[0].polygons.size() == 1);
        const PolygonWithHoles& p = fp.layers[0].polygons[0];
        CHECK(p.outer.size() == 4);
        REQUIRE(p.holes.size() == 1);
        CHECK(p.holes[0].size() == 4);
        CHECK(std::abs(ringArea(p.holes[0])) == doctest::Approx(1.0).epsilon(1e-12));
        CHECK(fp.layers[0].area == doctest::Approx(99.0).epsilon(1e-12));
    }

    TEST_CASE("a grid with one cell under a closed box keeps the cell as a hole, within epsilon") {
        // A 1 x 1 x 3 m box on cell (3, 6): its floor is inside a solid, its walls cut the
        // neighbouring cells by the wall half-width; its top is a walkable island 3 m up.
        std::vector<Vec3> positions;
        std::vector<uint32_t> indices;
        addGrid(10, 1.0, 0, 0, 0, positions, indices);
        const uint32_t b = uint32_t(positions.size());
        for (double y : {0.0, 3.0})
            for (const auto& [x, z] :
                 std::array<std::pair<double, double>, 4>{{{3, 6}, {4, 6}, {4, 7}, {3, 7}}})
                positions.push_back({x, y, z});
        // Quads counter-clockwise seen from outside: top, bottom, then the four sides.
        const std::array<std::array<uint32_t, 4>, 6> quads = {
            {{4, 7, 6, 5}, {0, 1, 2, 3}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}}};
        for (const auto& q : quads)
            indices.insert(indices.end(), {b + q[0], b + q[1], b + q[2], b + q[0], b + q[2], b + q[3]});
        const Footprint fp = footprintOf(positions, indices);
        const PolygonWithHoles* floor = nullptr;
        for (const FootprintLayer& layer : fp.layers)
            for (const PolygonWithHoles& p : layer.polygons)
                if (!p.holes.empty()) floor = &p;
        REQUIRE(floor != nullptr);
        CHECK(floor->outer.size() == 4);
        CHECK(std::abs(ringArea(floor->outer)) == doctest::Approx(100.0).epsilon(1e-12));
        REQUIRE(floor->holes.size() == 1);
        CHECK(std::abs(std::abs(ringArea(floor->holes[0])) - 1.0) < 4 * 0.01); // walls within epsilon
    }

    TEST_CASE("two grids meeting along a line with T-junctions (coarse next to fine) are one rectangle") {
        std::vector<Vec3> positions;
        std::vector<uint32_t> indices;
        addGrid(2, 5.0, 0, 0, 0, positions, indices);   // 10 x 10 m in 4 cells
        addGrid(20, 0.5, 10, 0, 0, positions, indices); // 10 x 10 m in 400 cells, to its right
        const Footprint fp = footprintOf(positions, indices);
        REQUIRE(fp.layers.size() == 1);
        REQUIRE(fp.layers[0].polygons.size() == 1);
        CHECK(fp.layers[0].polygons[0].outer.size() == 4);
        CHECK(fp.layers[0].area == doctest::Approx(200.0).epsilon(1e-12));
    }

    TEST_CASE("two stacked flat grids stay on separate layers, each its own square") {
        // 3 m apart: more than the agent height, so the lower grid is free under the upper one.
        std::vector<Vec3> positions;
        std::vector<uint32_t> indices;
        addGrid(8, 1.0, 0, 0, 0, positions, indices);
        addGrid(8, 1.0, 0, 0, 3, positions, indices);
        const Footprint fp = footprintOf(positions, indices);
        REQUIRE(fp.layers.size() == 2);
        for (const FootprintLayer& layer : fp.layers) {
            REQUIRE(layer.polygons.size() == 1);
            CHECK(layer.polygons[0].outer.size() == 4);
            CHECK(layer.area == doctest::Approx(64.0).epsilon(1e-12));
        }
        const double low = std::min(fp.layers[0].height_max, fp.layers[1].height_max);
        const double high = std::max(fp.layers[0].height_min, fp.layers[1].height_min);
        CHECK(high - low == 3.0); // local heights: the frame's origin is the level's rounded centre
    }

    TEST_CASE("the grid union is the same for 1 and 2 threads") {
        std::vector<Vec3> positions;
        std::vector<uint32_t> indices;
        addGrid(30, 0.5, 0, 0, 0, positions, indices, [](int i, int j) { return (i * 7 + j * 3) % 11 == 0; });
        addGrid(12, 0.5, 2, 2, 2.5, positions, indices, [](int i, int j) { return i > 8 && j < 4; });
        const Footprint one = footprintOf(positions, indices, 1);
        const Footprint two = footprintOf(positions, indices, 2);
        clearway::bake::testing::checkSameFootprint(two, one);
        for (size_t l = 0; l < one.layers.size(); ++l)
            CHECK(one.layers[l].surface_triangles.size() == two.layers[l].surface_triangles.size());
    }

} // TEST_SUITE
