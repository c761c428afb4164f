// erodedArea: hand-checked Minkowski differences of small footprints.
#include "clearway/bake.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace clearway::bake;

namespace {

const double kPi = 3.14159265358979323846;

Ring square(double x0, double y0, double x1, double y1) {
    return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

Ring clockwise(Ring ring) {
    return Ring(ring.rbegin(), ring.rend());
}

FootprintLayer layerOf(PolygonWithHoles pwh, double area) {
    FootprintLayer layer;
    layer.polygons.push_back(std::move(pwh));
    layer.area = area;
    return layer;
}

// The measure rounds corners with 96-gons: far inside 1e-3 relative.
void checkArea(double got, double want) {
    INFO("got " << got << ", want " << want);
    CHECK(std::abs(got - want) <= 1e-3 * std::max(1.0, std::abs(want)));
}

} // namespace

TEST_SUITE("bake/measure") {
    TEST_CASE("a 10x10 square eroded by 1 is the 8x8 square") {
        Footprint fp;
        fp.layers.push_back(layerOf({square(0, 0, 10, 10), {}}, 100));
        checkArea(erodedArea(fp, 1.0), 64.0);
    }

    TEST_CASE("radius 0 returns the layer area") {
        Footprint fp;
        fp.layers.push_back(layerOf({square(0, 0, 10, 10), {}}, 100));
        checkArea(erodedArea(fp, 0.0), 100.0);
    }

    TEST_CASE("a hole grows by the radius with rounded corners") {
        // 10x10 with a centred 2x2 hole, r = 0.5: outer becomes 9x9, the hole becomes the 2x2
        // square dilated by 0.5 = 4 + 4 * 2 * 0.5 + pi * 0.25.
        Footprint fp;
        fp.layers.push_back(layerOf({square(0, 0, 10, 10), {clockwise(square(4, 4, 6, 6))}}, 96));
        checkArea(erodedArea(fp, 0.5), 81.0 - (4.0 + 4.0 + kPi * 0.25));
    }

    TEST_CASE("reflex corners of the outer ring erode to arcs") {
        // L-shape: 10x10 minus the 5x5 top-right quadrant. Eroded by 1 it is the 8x8 square minus
        // the top-right quadrant dilated by 1 around the reflex corner at (5, 5), clipped to it:
        // 64 - (4 * 4 [x, y >= 5] + 2 * 4 * 1 [strips] + pi / 4 [rounded corner]).
        Footprint fp;
        fp.layers.push_back(layerOf({{{0, 0}, {10, 0}, {10, 5}, {5, 5}, {5, 10}, {0, 10}}, {}}, 75));
        checkArea(erodedArea(fp, 1.0), 64.0 - (16.0 + 8.0 + kPi / 4));
    }

    TEST_CASE("a radius larger than the half-width leaves nothing") {
        Footprint fp;
        fp.layers.push_back(layerOf({square(0, 0, 10, 2), {}}, 20));
        CHECK(erodedArea(fp, 1.5) == doctest::Approx(0.0));
        CHECK(erodedArea(fp, 6.0) == doctest::Approx(0.0));
    }

    TEST_CASE("a portal between two layers does not erode") {
        Footprint fp;
        fp.layers.push_back(layerOf({square(0, 0, 10, 10), {}}, 100));
        fp.layers.push_back(layerOf({square(10, 0, 20, 10), {}}, 100));
        Connection portal;
        portal.layer_a = 0;
        portal.layer_b = 1;
        portal.p0 = {10, 0};
        portal.p1 = {10, 10};
        fp.connections.push_back(portal);
        // Each layer keeps 9 (x, open on the portal side) by 8 (y) = 72.
        checkArea(erodedArea(fp, 1.0), 2 * 72.0);

        // Without the portal both layers erode on all four sides.
        fp.connections.clear();
        checkArea(erodedArea(fp, 1.0), 2 * 64.0);
    }

    TEST_CASE("several polygons and layers add up") {
        Footprint fp;
        FootprintLayer layer = layerOf({square(0, 0, 10, 10), {}}, 200);
        layer.polygons.push_back({square(20, 0, 30, 10), {}});
        fp.layers.push_back(layer);
        fp.layers.push_back(layerOf({square(0, 0, 4, 4), {}}, 16)); // overlaps layer 0 in plan: separate
        checkArea(erodedArea(fp, 1.0), 64.0 + 64.0 + 4.0);
    }

    TEST_CASE("a ring pinched at a vertex erodes as its two lobes") {
        // Two 4x4 squares touching at (4, 4), written as one ring through the shared corner.
        Footprint fp;
        fp.layers.push_back(
            layerOf({{{0, 0}, {4, 0}, {4, 4}, {8, 4}, {8, 8}, {4, 8}, {4, 4}, {0, 4}}, {}}, 32));
        checkArea(erodedArea(fp, 1.0), 2 * 4.0);
    }

    TEST_CASE("a self-intersecting ring gives NaN") {
        Footprint fp;
        fp.layers.push_back(layerOf({{{0, 0}, {4, 4}, {4, 0}, {0, 4}}, {}}, 0));
        CHECK(std::isnan(erodedArea(fp, 0.5)));
    }

    TEST_CASE("bad radius gives NaN, never throws") {
        Footprint fp;
        fp.layers.push_back(layerOf({square(0, 0, 10, 10), {}}, 100));
        CHECK(std::isnan(erodedArea(fp, -1.0)));
        CHECK(std::isnan(erodedArea(fp, std::nan(""))));
        CHECK(erodedArea(Footprint{}, 0.6) == 0.0);
    }
}
