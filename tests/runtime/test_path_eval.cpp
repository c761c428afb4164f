// Path evaluation (Pinter 2001 Listing 2): poses on hand-made segments checked by hand, heights from
// a sloped surface and across a portal, continuity on real findPath results, sampling, bad input.
#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "loaded_roadmap.h"

#include <cmath>
#include <cstdint>
#include <vector>

using namespace clearway;
namespace fb = clearway::schema;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Layer 0: a 10 m room (0..10) with a 2 m pillar (4..6), its floor a ramp z = 0.1 x. Layer 1: a
// flat deck at z = 5 over x 10..14. The roadmap is the loop round the pillar at 2 m from the outer
// walls with radius-1 blends (as in test_roadmap.cpp).
std::vector<uint8_t> rampRoom() {
    flatbuffers::FlatBufferBuilder b;
    const std::vector<fb::Vec2> boundary0 = {{0, 0}, {10, 0}, {10, 10}, {0, 10},
                                             {4, 4}, {4, 6},  {6, 6},   {6, 4}};
    const std::vector<fb::Vec2> boundary1 = {{10, 0}, {14, 0}, {14, 10}, {10, 10}};
    std::vector<flatbuffers::Offset<fb::Layer>> layers = {
        test::quadLayer(b, boundary0, {{0, 4}, {4, 4}}, {{0, 0, 0}, {10, 0, 1}, {10, 10, 1}, {0, 10, 0}},
                        96.0, 0, 1),
        test::quadLayer(b, boundary1, {{0, 4}}, {{10, 0, 5}, {14, 0, 5}, {14, 10, 5}, {10, 10, 5}}, 40.0, 5,
                        5)};
    const fb::Vec3d origin(0, 0, 0);
    auto footprint = fb::CreateFootprint(b, kFootprintFormatVersion, b.CreateString("test"), 1, 2, 0, &origin,
                                         0.25, b.CreateVector(layers));

    return test::pillarLoopAsset(b, footprint);
}

struct Level : test::LoadedRoadmap {
    Level() : LoadedRoadmap(rampRoom()) {}
};

PathSegment line(double x0, double y0, double x1, double y1, uint32_t layer = 0, bool portal = false) {
    PathSegment s{};
    s.type = PathSegmentType::Line;
    s.portal = portal;
    s.layer = layer;
    s.start = {x0, y0};
    s.end = {x1, y1};
    s.length = std::hypot(x1 - x0, y1 - y0);
    return s;
}

// Arc from `start` about `center`, turning `sweep` radians (> 0 counter-clockwise).
PathSegment arc(Vec2d start, Vec2d center, double sweep) {
    PathSegment s{};
    s.type = PathSegmentType::Arc;
    s.start = start;
    s.center = center;
    s.radius = std::hypot(start.x - center.x, start.y - center.y);
    const double a = std::atan2(start.y - center.y, start.x - center.x) + sweep;
    s.end = {center.x + s.radius * std::cos(a), center.y + s.radius * std::sin(a)};
    s.sweep = sweep;
    s.length = s.radius * std::fabs(sweep);
    return s;
}

double angleDiff(double a, double b) {
    return std::fabs(std::remainder(a - b, 2 * kPi));
}

} // namespace

TEST_SUITE("runtime/path evaluation") {
    TEST_CASE("a line then a quarter arc: hand-checked position, heading, curvature and height") {
        const Level level;
        // (1,1) -> (5,1), then left about (5,3) with radius 2 to (7,3).
        const PathSegment path[] = {line(1, 1, 5, 1), arc({5, 1}, {5, 3}, kPi / 2)};
        CHECK(pathTotalLength(path, 2) == doctest::Approx(4 + kPi));
        PathPose p;
        REQUIRE(pathPoseAt(level.view, path, 2, 2.0, &p) == Status::Ok);
        CHECK(p.position.x == doctest::Approx(3));
        CHECK(p.position.y == doctest::Approx(1));
        CHECK(p.position.z == doctest::Approx(0.3).epsilon(1e-6)); // ramp z = 0.1 x
        CHECK(p.heading == doctest::Approx(0));
        CHECK(p.curvature == 0);
        CHECK(p.segment == 0);
        CHECK(p.s == 2.0);

        // Half way round the arc: angle -pi/4 on the circle, heading pi/4.
        REQUIRE(pathPoseAt(level.view, path, 2, 4 + kPi / 2, &p) == Status::Ok);
        CHECK(p.segment == 1);
        CHECK(p.position.x == doctest::Approx(5 + std::sqrt(2.0)));
        CHECK(p.position.y == doctest::Approx(3 - std::sqrt(2.0)));
        CHECK(p.position.z == doctest::Approx(0.1 * (5 + std::sqrt(2.0))).epsilon(1e-6));
        CHECK(p.heading == doctest::Approx(kPi / 4));
        CHECK(p.curvature == doctest::Approx(0.5));

        // The end, and s clamped on both sides.
        REQUIRE(pathPoseAt(level.view, path, 2, 100.0, &p) == Status::Ok);
        CHECK(p.s == doctest::Approx(4 + kPi));
        CHECK(p.position.x == path[1].end.x);
        CHECK(p.position.y == path[1].end.y);
        CHECK(p.heading == doctest::Approx(kPi / 2));
        REQUIRE(pathPoseAt(level.view, path, 2, -3.0, &p) == Status::Ok);
        CHECK(p.s == 0.0);
        CHECK(p.position.x == 1.0);
        CHECK(p.position.y == 1.0);
        CHECK(p.position.z == doctest::Approx(0.1).epsilon(1e-6));

        // A right turn: negative curvature, heading pointing down at the end.
        const PathSegment right[] = {line(1, 9, 5, 9), arc({5, 9}, {5, 7}, -kPi / 2)};
        REQUIRE(pathPoseAt(level.view, right, 2, 4 + kPi / 2, &p) == Status::Ok);
        CHECK(p.position.x == doctest::Approx(5 + std::sqrt(2.0)));
        CHECK(p.position.y == doctest::Approx(7 + std::sqrt(2.0)));
        CHECK(p.heading == doctest::Approx(-kPi / 4));
        CHECK(p.curvature == doctest::Approx(-0.5));
        REQUIRE(pathPoseAt(level.view, right, 2, 4 + kPi, &p) == Status::Ok);
        CHECK(p.heading == doctest::Approx(-kPi / 2));
    }

    TEST_CASE("a portal segment blends the heights of the two layers") {
        const Level level;
        // Layer 0 ramp at x = 9 is 0.9 high; the deck (layer 1) is at 5.
        const PathSegment path[] = {line(9, 5, 11, 5, 0, true), line(11, 5, 13, 5, 1)};
        PathPose p;
        REQUIRE(pathPoseAt(level.view, path, 2, 0.0, &p) == Status::Ok);
        CHECK(p.position.z == doctest::Approx(0.9).epsilon(1e-6));
        CHECK(p.layer == 0);
        REQUIRE(pathPoseAt(level.view, path, 2, 1.0, &p) == Status::Ok);
        CHECK(p.position.z == doctest::Approx(0.5 * (0.9 + 5)).epsilon(1e-6));
        REQUIRE(pathPoseAt(level.view, path, 2, 2.0, &p) == Status::Ok);
        CHECK(p.position.z == doctest::Approx(5));
        CHECK(p.layer == 1);
        REQUIRE(pathPoseAt(level.view, path, 2, 3.0, &p) == Status::Ok);
        CHECK(p.position.z == doctest::Approx(5));

        // No footprint to read heights from: the ground-plane pose, z = 0.
        REQUIRE(pathPoseAt(RoadmapView{}, path, 2, 3.0, &p) == Status::Ok);
        CHECK(p.position.x == doctest::Approx(12));
        CHECK(p.position.z == 0.0);
    }

    TEST_CASE("findPath results: position and heading continuous across every join") {
        Level level;
        const PathEndpoint pairs[][2] = {
            {{1, 5, 0}, {9, 5, 0}}, {{1, 1, 0}, {9, 9, 0}}, {{5, 1, 0}, {5, 9, 0}}, {{9, 9, 0}, {1, 2, 0}}};
        for (const auto& pair : pairs) {
            PathSegment path[32];
            uint32_t count = 0;
            REQUIRE(findPath(level.view, level.scratch, pair[0], pair[1], 0.5, INFINITY, path, &count, 32) ==
                    Status::Ok);
            REQUIRE(count >= 1);
            PathPose first, last;
            REQUIRE(pathPoseAt(level.view, path, count, 0.0, &first) == Status::Ok);
            CHECK(first.position.x == pair[0].x);
            CHECK(first.position.y == pair[0].y);
            REQUIRE(pathPoseAt(level.view, path, count, 1e9, &last) == Status::Ok);
            CHECK(last.position.x == pair[1].x);
            CHECK(last.position.y == pair[1].y);
            // Either side of every join, a nanometre apart.
            double join = 0;
            for (uint32_t i = 0; i + 1 < count; ++i) {
                join += path[i].length;
                PathPose before, after;
                REQUIRE(pathPoseAt(level.view, path, count, join - 1e-9, &before) == Status::Ok);
                REQUIRE(pathPoseAt(level.view, path, count, join + 1e-9, &after) == Status::Ok);
                CHECK(before.segment == i);
                CHECK(after.segment == i + 1);
                CHECK(std::hypot(after.position.x - before.position.x, after.position.y - before.position.y) <
                      1e-8);
                CHECK(std::fabs(after.position.z - before.position.z) < 1e-6);
                CHECK(angleDiff(after.heading, before.heading) < 1e-7);
            }
            // Dense samples: consecutive poses never further apart than the step, heading turning at
            // most step * |curvature|.
            const double step = 0.01;
            std::vector<PathPose> poses(4096);
            uint32_t n = 0;
            REQUIRE(pathSample(level.view, path, count, step, poses.data(), &n, uint32_t(poses.size())) ==
                    Status::Ok);
            for (uint32_t k = 1; k < n; ++k) {
                const PathPose &a = poses[k - 1], &b = poses[k];
                const double ds = b.s - a.s;
                CHECK(std::hypot(b.position.x - a.position.x, b.position.y - a.position.y) <= ds + 1e-9);
                const double kmax = std::fmax(std::fabs(a.curvature), std::fabs(b.curvature));
                CHECK(angleDiff(b.heading, a.heading) <= ds * kmax + 1e-7);
            }
        }
    }

    TEST_CASE("sampling: every step from 0, then the exact end, count and small buffers") {
        const Level level;
        const PathSegment path[] = {line(1, 1, 5, 1), arc({5, 1}, {5, 3}, kPi / 2)};
        const double total = 4 + kPi;
        PathPose poses[32];
        uint32_t n = 0;
        REQUIRE(pathSample(level.view, path, 2, 0.5, poses, &n, 32) == Status::Ok);
        REQUIRE(n == 16); // 0, 0.5, ..., 7.0, then 7.1416
        for (uint32_t k = 0; k + 1 < n; ++k)
            CHECK(poses[k].s == k * 0.5);
        CHECK(poses[n - 1].s == doctest::Approx(total));
        CHECK(poses[n - 1].position.x == path[1].end.x);
        CHECK(poses[n - 1].position.y == path[1].end.y);

        // An end that falls on a step is not repeated.
        const PathSegment straight[] = {line(1, 1, 5, 1)};
        REQUIRE(pathSample(level.view, straight, 1, 0.5, poses, &n, 32) == Status::Ok);
        CHECK(n == 9);
        CHECK(poses[8].s == 4.0);
        CHECK(poses[7].s == 3.5);

        // Too small a buffer: the count needed, the first max_out filled.
        PathPose few[5];
        CHECK(pathSample(level.view, path, 2, 0.5, few, &n, 5) == Status::BufferTooSmall);
        CHECK(n == 16);
        CHECK(few[4].s == 2.0);
        CHECK(pathSample(level.view, path, 2, 0.5, nullptr, &n, 0) == Status::BufferTooSmall);
        CHECK(n == 16);

        // A zero-length path is one pose.
        const PathSegment point[] = {line(3, 3, 3, 3)};
        REQUIRE(pathSample(level.view, point, 1, 0.5, poses, &n, 32) == Status::Ok);
        CHECK(n == 1);
        CHECK(poses[0].position.x == 3.0);
    }

    TEST_CASE("bad input: null, empty, non-finite, bad step") {
        const Level level;
        const PathSegment path[] = {line(1, 1, 5, 1), arc({5, 1}, {5, 3}, kPi / 2)};
        PathPose p, poses[8];
        uint32_t n = 0;
        CHECK(pathTotalLength(nullptr, 3) == 0.0);
        CHECK(pathTotalLength(path, 0) == 0.0);
        CHECK(pathPoseAt(level.view, nullptr, 2, 1.0, &p) == Status::InvalidArgument);
        CHECK(pathPoseAt(level.view, path, 0, 1.0, &p) == Status::InvalidArgument);
        CHECK(pathPoseAt(level.view, path, 2, NAN, &p) == Status::InvalidArgument);
        CHECK(pathPoseAt(level.view, path, 2, INFINITY, &p) == Status::InvalidArgument);
        CHECK(pathPoseAt(level.view, path, 2, 1.0, nullptr) == Status::InvalidArgument);
        for (double step : {0.0, -1.0, double(NAN), double(INFINITY), 1e-300})
            CHECK(pathSample(level.view, path, 2, step, poses, &n, 8) == Status::InvalidArgument);
        CHECK(pathSample(level.view, path, 2, 0.5, poses, nullptr, 8) == Status::InvalidArgument);
        CHECK(pathSample(level.view, path, 2, 0.5, nullptr, &n, 8) == Status::InvalidArgument);
        CHECK(pathSample(level.view, nullptr, 2, 0.5, poses, &n, 8) == Status::InvalidArgument);

        // Corrupt segments: NaN coordinates, negative length, an arc without a radius.
        PathSegment bad[2] = {path[0], path[1]};
        bad[0].end.x = NAN;
        CHECK(pathPoseAt(level.view, bad, 2, 1.0, &p) == Status::InvalidArgument);
        bad[0] = path[0];
        bad[0].length = -1;
        CHECK(pathPoseAt(level.view, bad, 2, 1.0, &p) == Status::InvalidArgument);
        bad[0] = path[0];
        bad[1].radius = 0;
        CHECK(pathSample(level.view, bad, 2, 0.5, poses, &n, 8) == Status::InvalidArgument);
        bad[1] = path[1];
        bad[1].type = PathSegmentType(7);
        CHECK(pathPoseAt(level.view, bad, 2, 1.0, &p) == Status::InvalidArgument);
    }
}
