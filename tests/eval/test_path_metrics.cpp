// Path metrics (bake::measurePath, WallGrid, pathPolyline): hand-checked lengths, clearances,
// heading discontinuities and curvature on paths whose geometry is known in closed form.
#include <clearway/eval.h>
#include <clearway/runtime.h>

#include "scenes.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace clearway;
using namespace clearway::bake;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Closed rectangle [x0, x1] x [y0, y1] as four walls.
std::vector<WallSegment> box(double x0, double y0, double x1, double y1) {
    return {{{x0, y0}, {x1, y0}}, {{x1, y0}, {x1, y1}}, {{x1, y1}, {x0, y1}}, {{x0, y1}, {x0, y0}}};
}

PathSegment line(Vec2d a, Vec2d b, uint32_t layer = 0) {
    PathSegment s{};
    s.type = PathSegmentType::Line;
    s.layer = layer;
    s.start = a;
    s.end = b;
    s.length = std::hypot(b.x - a.x, b.y - a.y);
    return s;
}

PathSegment arc(Vec2d center, double radius, double a0, double sweep, uint32_t layer = 0) {
    PathSegment s{};
    s.type = PathSegmentType::Arc;
    s.layer = layer;
    s.center = center;
    s.radius = radius;
    s.sweep = sweep;
    s.start = {center.x + radius * std::cos(a0), center.y + radius * std::sin(a0)};
    s.end = {center.x + radius * std::cos(a0 + sweep), center.y + radius * std::sin(a0 + sweep)};
    s.length = radius * std::abs(sweep);
    return s;
}

} // namespace

TEST_SUITE("path metrics measure clearance against the walls") {
    TEST_CASE("a straight path down the middle of a 2 m corridor has clearance 1 everywhere") {
        const WallGrid walls(box(0, 0, 10, 2));
        const PathMetrics m = measurePath({{1, 1}, {9, 1}}, walls);
        CHECK(m.length == doctest::Approx(8).epsilon(1e-12));
        CHECK(m.min_clearance == doctest::Approx(1).epsilon(1e-12));
        CHECK(m.mean_clearance == doctest::Approx(1).epsilon(1e-12));
        CHECK(m.heading_discontinuities == 0);
        CHECK(m.max_curvature == 0);
        CHECK(m.sample_count == 161); // 8 m / 0.05 m pieces, both ends
    }

    TEST_CASE("off-centre and diagonal paths: clearance is the distance to the nearer wall") {
        const WallGrid walls(box(0, 0, 10, 2));
        const PathMetrics low = measurePath({{1, 0.5}, {9, 0.5}}, walls);
        CHECK(low.min_clearance == doctest::Approx(0.5).epsilon(1e-12));
        CHECK(low.mean_clearance == doctest::Approx(0.5).epsilon(1e-12));
        // y from 0.5 to 1.5: clearance min(y, 2 - y) rises to 1 at the middle and falls back, so
        // its arc-length mean is 0.75 (the midpoint is a sample: 162 pieces).
        const PathMetrics diagonal = measurePath({{1, 0.5}, {9, 1.5}}, walls);
        CHECK(diagonal.length == doctest::Approx(std::sqrt(65.0)).epsilon(1e-12));
        CHECK(diagonal.min_clearance == doctest::Approx(0.5).epsilon(1e-12));
        CHECK(diagonal.mean_clearance == doctest::Approx(0.75).epsilon(1e-12));
    }

    TEST_CASE("each sample uses the walls of its layer, a piece changing layer switches halfway") {
        // Layer 0 has a wall 1 m below the path, layer 1 a wall 2 m above it.
        using Walls = std::vector<WallSegment>;
        const std::vector<WallGrid> walls{WallGrid(Walls{{{-10, 0}, {10, 0}}}),
                                          WallGrid(Walls{{{-10, 3}, {10, 3}}})};
        const PathMetrics m = measurePath({{0, 1}, {1, 1}}, {0, 1}, walls);
        CHECK(m.min_clearance == doctest::Approx(1).epsilon(1e-12));
        // 20 pieces: samples 0..10 read 1 m, 11..20 read 2 m; trapezoid = (0.5 + 0.075 + 0.9) / 1.
        CHECK(m.mean_clearance == doctest::Approx(1.475).epsilon(1e-12));
    }

    TEST_CASE("the wall grid gives exactly the brute-force distance, inside and outside the walls") {
        const Footprint fp = scenes::randomBoxesFootprint(1000, 3);
        const std::vector<WallSegment> segments = layerWalls(fp.layers[0]);
        const WallGrid grid(segments);
        REQUIRE(grid.wallCount() == segments.size());
        double lo = INFINITY, hi = -INFINITY;
        for (const WallSegment& w : segments)
            lo = std::min({lo, w.a.x, w.a.y}), hi = std::max({hi, w.a.x, w.a.y});
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> coord(lo - 20, hi + 20);
        for (int i = 0; i < 5000; ++i) {
            const Vec2 p{coord(rng), coord(rng)};
            CHECK(grid.distance(p) == distanceToWalls(segments, p));
        }
        CHECK(std::isinf(WallGrid().distance({0, 0})));
    }

    TEST_CASE("degenerate input: no points, one point, repeated points") {
        const WallGrid walls(box(0, 0, 4, 4));
        CHECK(std::isnan(measurePath({}, walls).min_clearance));
        const PathMetrics one = measurePath({{1, 2}}, walls);
        CHECK(one.length == 0);
        CHECK(one.min_clearance == 1);
        CHECK(one.mean_clearance == 1);
        const PathMetrics repeated = measurePath({{1, 2}, {1, 2}, {3, 2}, {3, 2}}, walls);
        CHECK(repeated.length == doctest::Approx(2).epsilon(1e-12));
        CHECK(repeated.heading_discontinuities == 0);
    }
}

TEST_SUITE("path metrics count heading discontinuities and measure curvature") {
    TEST_CASE("an L with a 90 degree kink: one discontinuity of 90 degrees") {
        const WallGrid walls(box(0, 0, 20, 20));
        const PathMetrics m = measurePath({{2, 2}, {7, 2}, {7, 7}}, walls);
        CHECK(m.length == doctest::Approx(10).epsilon(1e-12));
        CHECK(m.heading_discontinuities == 1);
        CHECK(m.max_heading_jump_deg == doctest::Approx(90).epsilon(1e-12));
        CHECK(m.min_clearance == doctest::Approx(2).epsilon(1e-12));
    }

    TEST_CASE("the same L sampled every 5 cm without its corner: one discontinuity, not two") {
        // The chord across the corner turns 45 degrees at both of its ends: one kink of 90.
        std::vector<Vec2> pts;
        for (int k = 0; k < 200; ++k) {
            const double s = 0.025 + 0.05 * k;
            pts.push_back(s < 5 ? Vec2{2 + s, 2} : Vec2{7, 2 + (s - 5)});
        }
        const PathMetrics m = measurePath(pts, WallGrid(box(0, 0, 20, 20)));
        CHECK(m.heading_discontinuities == 1);
        CHECK(m.max_heading_jump_deg == doctest::Approx(90).epsilon(1e-9));
    }

    TEST_CASE("a half circle of radius 2 around a point wall: no discontinuity, curvature 1/2, clearance 2") {
        std::vector<WallSegment> segments = box(0, 0, 20, 20);
        segments.push_back({{10, 10}, {10, 10}}); // a point wall at the centre
        const PathSegment half = arc({10, 10}, 2, 0, kPi);
        std::vector<uint32_t> layers;
        const std::vector<Vec2> pts = pathPolyline(&half, 1, {}, &layers);
        REQUIRE(pts.size() == 181); // 1 degree per piece (half of the 2 degree threshold)
        CHECK(layers.size() == pts.size());
        CHECK(pts.front().x == half.start.x);
        CHECK(pts.back().x == half.end.x);
        const PathMetrics m = measurePath(pts, WallGrid(segments));
        CHECK(m.heading_discontinuities == 0);
        CHECK(m.max_curvature == doctest::Approx(0.5).epsilon(1e-9));
        CHECK(m.min_clearance == doctest::Approx(2).epsilon(1e-12));
        CHECK(m.mean_clearance == doctest::Approx(2).epsilon(1e-12));
        CHECK(m.length == doctest::Approx(2 * kPi).epsilon(1e-4)); // chords: 2.5e-5 short
    }

    TEST_CASE("line, tight arc of radius 0.2, line: C1, so no discontinuity, curvature 5") {
        const PathSegment segs[] = {line({0, 5}, {5, 5}), arc({5, 5.2}, 0.2, -kPi / 2, kPi / 2),
                                    line({5.2, 5.2}, {5.2, 8})};
        const std::vector<Vec2> pts = pathPolyline(segs, 3);
        for (size_t i = 0; i + 1 < pts.size(); ++i)
            CHECK(std::hypot(pts[i + 1].x - pts[i].x, pts[i + 1].y - pts[i].y) <= 0.05 + 1e-12);
        const PathMetrics m = measurePath(pts, WallGrid(box(0, 0, 20, 20)));
        CHECK(m.heading_discontinuities == 0);
        CHECK(m.max_curvature == doctest::Approx(5).epsilon(1e-9));
        CHECK(m.length == doctest::Approx(5 + 0.1 * kPi + 2.8).epsilon(1e-4));

        // The threshold is relative to the sampling: the same arc sampled every 5 cm turns
        // 0.05 / 0.2 rad = 14 degrees per vertex, more than an arc can at that step without
        // being a kink (R < 0.05 m / 2 degrees = 1.43 m): it counts as one discontinuity of 90.
        std::vector<Vec2> coarse{{0, 5}, {5, 5}};
        for (int k = 1; k <= 6; ++k) {
            const double angle = -kPi / 2 + (kPi / 2) * k / 6; // 6 pieces of 0.052 m
            coarse.push_back({5 + 0.2 * std::cos(angle), 5.2 + 0.2 * std::sin(angle)});
        }
        coarse.push_back({5.2, 8});
        const PathMetrics c = measurePath(coarse, WallGrid(box(0, 0, 20, 20)));
        CHECK(c.heading_discontinuities == 1);
        CHECK(c.max_heading_jump_deg == doctest::Approx(90).epsilon(1e-9));
    }

    TEST_CASE("portal segments: the end of a portal segment takes the next segment's layer") {
        PathSegment segs[] = {line({0, 0}, {1, 0}, 0), line({1, 0}, {2, 0}, 0), line({2, 0}, {3, 0}, 1)};
        segs[1].portal = true;
        std::vector<uint32_t> layers;
        const std::vector<Vec2> pts = pathPolyline(segs, 3, {}, &layers);
        REQUIRE(pts.size() == 61);
        CHECK(layers[20] == 0); // end of the first segment
        CHECK(layers[39] == 0);
        CHECK(layers[40] == 1); // end of the portal segment
        CHECK(layers[60] == 1);
    }
}
