// The surface of flat whole pieces (surface_patches.cpp): a flat grid of any number of cells is
// stored as a few triangles over its own corners, holes and raised corners stay, and every point
// of the floor keeps the height its own triangles gave it.
#include "clearway/bake.h"
#include "scenes.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace clearway;
using namespace clearway::bake;

namespace {

Footprint bakeGrid(const scenes::Scene& grid, unsigned threads = 1) {
    ImportOptions options;
    options.threads = threads;
    Mesh mesh;
    REQUIRE_FALSE(meshFromTriangles(grid.positions, grid.indices, options, grid.name, &mesh));
    Footprint footprint;
    REQUIRE_FALSE(buildFootprint(mesh, options, &footprint, silentLog()));
    return footprint;
}

// Leaves out cell (i, j) of a flatGrid scene (its two triangles).
void dropCell(scenes::Scene& grid, int cells, int i, int j) {
    const auto first = grid.indices.begin() + 6 * (j * cells + i);
    grid.indices.erase(first, first + 6);
}

// Height of a ground point (local frame) on triangle (a, b, c), or NAN when outside it.
double heightOn(const Vec3& a, const Vec3& b, const Vec3& c, double x, double y) {
    const double d = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    const double u = ((b.x - x) * (c.y - y) - (b.y - y) * (c.x - x)) / d;
    const double v = ((c.x - x) * (a.y - y) - (c.y - y) * (a.x - x)) / d;
    const double w = 1 - u - v;
    constexpr double kSlack = 1e-9;
    if (u < -kSlack || v < -kSlack || w < -kSlack) return NAN;
    return u * a.z + v * b.z + w * c.z;
}

// The footprint surface's height under a local ground point, or NAN off the surface.
double surfaceHeight(const FootprintLayer& layer, double x, double y) {
    for (const SurfaceTriangle& t : layer.surface_triangles) {
        const double h = heightOn(layer.surface_vertices[t.a], layer.surface_vertices[t.b],
                                  layer.surface_vertices[t.c], x, y);
        if (!std::isnan(h)) return h;
    }
    return NAN;
}

// The mesh's height under a local ground point, from its own triangles (world Y up: internal
// (x, -z, y) minus the footprint's origin), or NAN where no triangle is.
double meshHeight(const scenes::Scene& grid, const Footprint& footprint, double x, double y) {
    auto local = [&](uint32_t v) {
        const Vec3& p = grid.positions[v];
        return Vec3{p.x - footprint.origin.x, -p.z - footprint.origin.y, p.y - footprint.origin.z};
    };
    for (size_t k = 0; k + 2 < grid.indices.size(); k += 3) {
        const double h =
            heightOn(local(grid.indices[k]), local(grid.indices[k + 1]), local(grid.indices[k + 2]), x, y);
        if (!std::isnan(h)) return h;
    }
    return NAN;
}

// Every point of a fine sample grid over the level has the mesh's height on the surface, and is
// off the surface where the mesh has no triangle.
void checkHeights(const scenes::Scene& grid, const Footprint& footprint, double side) {
    const FootprintLayer& layer = footprint.layers.at(0);
    for (double sx = 0.013; sx < side; sx += side / 37)
        for (double sz = 0.017; sz < side; sz += side / 41) {
            const double x = sx - footprint.origin.x, y = -sz - footprint.origin.y;
            const double expected = meshHeight(grid, footprint, x, y), got = surfaceHeight(layer, x, y);
            CAPTURE(sx);
            CAPTURE(sz);
            CHECK(std::isnan(expected) == std::isnan(got));
            if (!std::isnan(expected) && !std::isnan(got)) CHECK(std::abs(expected - got) < 1e-6);
        }
}

} // namespace

TEST_SUITE("bake/footprint") {
    TEST_CASE("a flat grid's surface is two triangles over its four corners, whatever the number of cells") {
        for (int cells : {2, 9, 60}) {
            CAPTURE(cells);
            const scenes::Scene grid = scenes::flatGrid(cells, 10.0 / cells);
            const Footprint fp = bakeGrid(grid);
            REQUIRE(fp.layers.size() == 1);
            const FootprintLayer& layer = fp.layers[0];
            REQUIRE(layer.polygons.size() == 1);
            CHECK(layer.polygons[0].outer.size() == 4);
            CHECK(layer.polygons[0].holes.empty());
            CHECK(layer.area == doctest::Approx(100.0).epsilon(1e-12));
            CHECK(layer.surface_triangles.size() == 2);
            CHECK(layer.surface_vertices.size() == 4);
            for (const Vec3& v : layer.surface_vertices)
                CHECK(v.z == -fp.origin.z);
            checkHeights(grid, fp, 10.0);
        }
    }

    TEST_CASE("a flat grid with a missing cell keeps the hole in its surface") {
        scenes::Scene grid = scenes::flatGrid(10, 1.0);
        dropCell(grid, 10, 3, 6);
        const Footprint fp = bakeGrid(grid);
        REQUIRE(fp.layers.size() == 1);
        const FootprintLayer& layer = fp.layers[0];
        CHECK(layer.polygons.at(0).holes.size() == 1);
        CHECK(layer.area == doctest::Approx(99.0).epsilon(1e-9));
        // 4 outer corners and 4 hole corners: 8 + 2 * 1 - 2 triangles.
        CHECK(layer.surface_triangles.size() == 8);
        checkHeights(grid, fp, 10.0);
    }

    TEST_CASE("a raised corner keeps its tilted triangles, the flat rest coalesces around them") {
        scenes::Scene grid = scenes::flatGrid(10, 1.0);
        grid.positions[4 * 11 + 5].y = 0.25; // an inner corner 0.25 m up: six tilted triangles
        const Footprint fp = bakeGrid(grid);
        REQUIRE(fp.layers.size() == 1);
        const FootprintLayer& layer = fp.layers[0];
        CHECK(layer.area == doctest::Approx(100.0).epsilon(1e-9));
        CHECK(layer.surface_triangles.size() > 6);
        CHECK(layer.surface_triangles.size() < 30);
        checkHeights(grid, fp, 10.0);
    }

    TEST_CASE("the coalesced surface is the same for 1 and 2 threads") {
        scenes::Scene grid = scenes::flatGrid(24, 0.5);
        dropCell(grid, 24, 20, 3);
        dropCell(grid, 24, 7, 11);
        grid.positions[9 * 25 + 9].y = 0.1;
        const std::vector<uint8_t> one = serializeFootprint(bakeGrid(grid, 1));
        const std::vector<uint8_t> two = serializeFootprint(bakeGrid(grid, 2));
        CHECK(one == two);
    }
}
