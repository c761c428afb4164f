// Camera motion (Nieuwenhuisen et al. 2004 "Planning camera motions"): the speed diagram against hand-computed
// trapezoid and triangle profiles, its caps and acceleration bounds on a real findPath result, and
// the look-ahead view rotating C1 where following the tangent would jump.
#include <clearway/motion.h>

#include "allocation_counter.h"
#include "door_level.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace clearway;

namespace {

constexpr double kPi = 3.14159265358979323846;

PathSegment line(double x0, double y0, double x1, double y1) {
    PathSegment s{};
    s.type = PathSegmentType::Line;
    s.start = {x0, y0};
    s.end = {x1, y1};
    s.length = std::hypot(x1 - x0, y1 - y0);
    return s;
}

struct Diagram {
    std::vector<SpeedKnot> knots;
    SpeedDiagram d{};
    Status build(const std::vector<PathSegment>& path, const CameraSettings& settings) {
        knots.assign(speedDiagramMaxKnots(uint32_t(path.size())), SpeedKnot{});
        return buildSpeedDiagram(path.data(), uint32_t(path.size()), settings, knots.data(),
                                 uint32_t(knots.size()), &d);
    }
};

// Segment index holding arc length s (the last for the end).
uint32_t segmentAt(const std::vector<PathSegment>& path, double s) {
    double base = 0;
    for (uint32_t i = 0; i + 1 < path.size(); ++i) {
        if (s < base + path[i].length) return i;
        base += path[i].length;
    }
    return uint32_t(path.size() - 1);
}

double wrap(double a) {
    return std::remainder(a, 2 * kPi);
}

} // namespace

TEST_SUITE("motion/camera") {
    TEST_CASE("a straight path gives the hand-computed trapezoid, a short one the triangle") {
        CameraSettings c = cameraDefaults();
        c.max_speed = 5;
        c.max_accel = 2;
        c.max_decel = 4;
        Diagram dg;
        // 20 m: accelerate 6.25 m (2.5 s), cruise 10.625 m at 5 m/s (2.125 s), brake 3.125 m (1.25 s).
        REQUIRE(dg.build({line(0, 0, 20, 0)}, c) == Status::Ok);
        REQUIRE(dg.d.count == 4);
        CHECK(dg.d.knots[1].s == doctest::Approx(6.25));
        CHECK(dg.d.knots[1].v == doctest::Approx(5));
        CHECK(dg.d.knots[1].t == doctest::Approx(2.5));
        CHECK(dg.d.knots[2].s == doctest::Approx(16.875));
        CHECK(dg.d.knots[2].t == doctest::Approx(4.625));
        CHECK(dg.d.length == 20);
        CHECK(dg.d.duration == doctest::Approx(5.875).epsilon(1e-12));
        CHECK(dg.d.knots[0].v == 0);
        CHECK(dg.d.knots[3].v == 0);
        double s, v, a;
        REQUIRE(speedDiagramAtTime(dg.d, 1.0, &s, &v, &a) == Status::Ok);
        CHECK(s == doctest::Approx(1.0)); // a t^2 / 2
        CHECK(v == doctest::Approx(2.0));
        CHECK(a == doctest::Approx(2.0));
        REQUIRE(speedDiagramAtTime(dg.d, 5.875 - 0.5, &s, &v, &a) == Status::Ok);
        CHECK(s == doctest::Approx(20 - 0.5)); // d t^2 / 2 before the end
        CHECK(v == doctest::Approx(2.0));
        CHECK(a == doctest::Approx(-4.0));

        // 4 m never reaches 5 m/s: the ramps meet at x = D L / (A + D) = 8/3, v^2 = 2 A x.
        REQUIRE(dg.build({line(0, 0, 4, 0)}, c) == Status::Ok);
        REQUIRE(dg.d.count == 3);
        const double apex = std::sqrt(2 * 2 * 8.0 / 3);
        CHECK(dg.d.knots[1].s == doctest::Approx(8.0 / 3));
        CHECK(dg.d.knots[1].v == doctest::Approx(apex));
        CHECK(dg.d.duration == doctest::Approx(apex / 2 + apex / 4));

        // Given end speeds: start at 3 m/s, end at 1 m/s on the 20 m line.
        c.start_speed = 3;
        c.end_speed = 1;
        REQUIRE(dg.build({line(0, 0, 20, 0)}, c) == Status::Ok);
        CHECK(dg.d.knots[0].v == doctest::Approx(3));
        CHECK(dg.d.knots[dg.d.count - 1].v == doctest::Approx(1));
        // (25 - 9) / 4 m accelerating in 1 s, (25 - 1) / 8 m braking in 1 s, the rest at 5 m/s.
        CHECK(dg.d.duration == doctest::Approx(1 + 1 + (20 - 4 - 3) / 5.0));
    }

    TEST_CASE("on a findPath route: never above the arc caps, acceleration within bounds, rest to rest") {
        const doorlevel::Level level;
        const std::vector<PathSegment> path = level.path(0.3);
        uint32_t arcs = 0;
        for (const PathSegment& s : path)
            arcs += s.type == PathSegmentType::Arc;
        REQUIRE(arcs >= 1);
        const CameraSettings c = cameraDefaults();
        Diagram dg;
        REQUIRE(dg.build(path, c) == Status::Ok);
        CHECK(dg.d.length == doctest::Approx(pathTotalLength(path.data(), uint32_t(path.size()))));

        // Exact phases: constant acceleration within [-decel, accel].
        for (uint32_t k = 1; k < dg.d.count; ++k) {
            const SpeedKnot &a = dg.d.knots[k - 1], &b = dg.d.knots[k];
            REQUIRE(b.s > a.s);
            REQUIRE(b.t > a.t);
            const double acc = (b.v * b.v - a.v * a.v) / (2 * (b.s - a.s));
            CHECK(acc <= c.max_accel * (1 + 1e-9));
            CHECK(acc >= -c.max_decel * (1 + 1e-9));
        }
        // Dense samples along s: below the cap of the segment there; the cap binds somewhere.
        bool cap_reached = false;
        for (double s = 0; s <= dg.d.length; s += 0.005) {
            double v;
            REQUIRE(speedAtDistance(dg.d, s, &v) == Status::Ok);
            const double cap = cameraSpeedCap(c, path[segmentAt(path, s)]);
            CHECK(v <= cap + 1e-9);
            cap_reached = cap_reached || (v > cap - 1e-6 && cap < c.max_speed);
        }
        CHECK(cap_reached);
        // Finite differences in time: |dv/dt| within the bounds, s(t) consistent with v.
        const double dt = 1e-3;
        double prev_s = 0, prev_v = 0;
        for (double t = dt; t <= dg.d.duration; t += dt) {
            double s, v;
            REQUIRE(speedDiagramAtTime(dg.d, t, &s, &v, nullptr) == Status::Ok);
            CHECK((v - prev_v) / dt <= c.max_accel + 1e-6);
            CHECK((v - prev_v) / dt >= -c.max_decel - 1e-6);
            CHECK(s - prev_s == doctest::Approx(0.5 * (v + prev_v) * dt).epsilon(1e-6));
            CHECK(v <= cameraSpeedCap(c, path[segmentAt(path, s)]) + 1e-9);
            prev_s = s;
            prev_v = v;
        }
        double s, v;
        REQUIRE(speedDiagramAtTime(dg.d, 0, &s, &v, nullptr) == Status::Ok);
        CHECK(s == 0);
        CHECK(v == 0);
        REQUIRE(speedDiagramAtTime(dg.d, dg.d.duration, &s, &v, nullptr) == Status::Ok);
        CHECK(s == dg.d.length);
        CHECK(v == 0);
    }

    TEST_CASE("the look-ahead view turns C1, the tangent view jumps in rate where an arc begins") {
        const doorlevel::Level level;
        const std::vector<PathSegment> path = level.path(0.3);
        const CameraSettings c = cameraDefaults();
        Diagram dg;
        REQUIRE(dg.build(path, c) == Status::Ok);
        const uint32_t n = uint32_t(path.size());

        // Yaw and its rate at fine steps. C1 means the rate itself changes by O(h) per step; the
        // tangent (the direction of motion) changes rate by v / R at once when an arc begins.
        const double h = 1e-3;
        double max_jump = 0, max_rate_change = 0, max_tangent_rate_change = 0, min_look = INFINITY;
        CameraPose prev{}, pose{};
        double prev_rate = 0, prev_tangent = 0, prev_tangent_rate = 0;
        REQUIRE(cameraPoseAt(level.view, path.data(), n, dg.d, c, 0, &prev) == Status::Ok);
        PathPose tangent;
        REQUIRE(pathPoseAt(level.view, path.data(), n, 0, &tangent) == Status::Ok);
        prev_tangent = tangent.heading;
        const int steps = int(dg.d.duration / h);
        for (int k = 1; k <= steps; ++k) {
            REQUIRE(cameraPoseAt(level.view, path.data(), n, dg.d, c, k * h, &pose) == Status::Ok);
            const double jump = std::fabs(wrap(pose.yaw - prev.yaw));
            const double rate = wrap(pose.yaw - prev.yaw) / h;
            max_jump = std::fmax(max_jump, jump);
            if (k > 1) max_rate_change = std::fmax(max_rate_change, std::fabs(rate - prev_rate));
            REQUIRE(pathPoseAt(level.view, path.data(), n, pose.s, &tangent) == Status::Ok);
            const double tangent_rate = wrap(tangent.heading - prev_tangent) / h;
            if (k > 1)
                max_tangent_rate_change =
                    std::fmax(max_tangent_rate_change, std::fabs(tangent_rate - prev_tangent_rate));
            min_look = std::fmin(
                min_look, std::hypot(pose.target.x - pose.position.x, pose.target.y - pose.position.y));
            // The view is a unit vector, at eye height over a flat floor.
            CHECK(std::hypot(pose.forward.x, pose.forward.y, pose.forward.z) == doctest::Approx(1));
            CHECK(pose.position.z == doctest::Approx(c.eye_height));
            prev = pose;
            prev_rate = rate;
            prev_tangent = tangent.heading;
            prev_tangent_rate = tangent_rate;
        }
        MESSAGE("yaw: max step " << max_jump << " rad, max rate change per step " << max_rate_change
                                 << " rad/s (tangent view: " << max_tangent_rate_change << " rad/s)");
        CHECK(max_jump < 0.01);
        CHECK(max_rate_change < 0.02);
        CHECK(max_tangent_rate_change > 0.3);
        CHECK(min_look > 0.1); // the target never meets the camera, even at rest at either end

        // Around every arc start, at 1e-5 s: the rate still changes only by O(h).
        double arc_start = 0;
        for (const PathSegment& seg : path) {
            if (seg.type == PathSegmentType::Arc) {
                // Time the camera reaches the arc: bisection on s(t).
                double lo = 0, hi = dg.d.duration;
                for (int it = 0; it < 100; ++it) {
                    const double mid = 0.5 * (lo + hi);
                    double s;
                    REQUIRE(speedDiagramAtTime(dg.d, mid, &s, nullptr, nullptr) == Status::Ok);
                    (s < arc_start ? lo : hi) = mid;
                }
                const double hh = 1e-5;
                double r_prev = 0, worst = 0;
                CameraPose a, b;
                for (int k = -50; k <= 50; ++k) {
                    REQUIRE(cameraPoseAt(level.view, path.data(), n, dg.d, c, lo + k * hh, &a) == Status::Ok);
                    REQUIRE(cameraPoseAt(level.view, path.data(), n, dg.d, c, lo + (k + 1) * hh, &b) ==
                            Status::Ok);
                    const double r = wrap(b.yaw - a.yaw) / hh;
                    if (k > -50) worst = std::fmax(worst, std::fabs(r - r_prev));
                    r_prev = r;
                }
                CHECK(worst < 1e-3);
            }
            arc_start += seg.length;
        }

        // Both ends: at rest, looking along the path.
        REQUIRE(cameraPoseAt(level.view, path.data(), n, dg.d, c, 0, &pose) == Status::Ok);
        CHECK(pose.speed == 0);
        CHECK(pose.position.x == path.front().start.x);
        REQUIRE(cameraPoseAt(level.view, path.data(), n, dg.d, c, 1e9, &pose) == Status::Ok);
        CHECK(pose.speed == 0);
        CHECK(pose.time == dg.d.duration);
        CHECK(pose.position.x == doctest::Approx(path.back().end.x));
        CHECK(pose.position.y == doctest::Approx(path.back().end.y));
        REQUIRE(pathPoseAt(level.view, path.data(), n, 1e9, &tangent) == Status::Ok);
        CHECK(std::fabs(wrap(pose.yaw - tangent.heading)) < 1e-9);
    }

    TEST_CASE("building the diagram and posing the camera never allocate") {
        const doorlevel::Level level;
        const std::vector<PathSegment> path = level.path(0.3);
        const uint32_t n = uint32_t(path.size());
        const CameraSettings c = cameraDefaults();
        std::vector<SpeedKnot> knots(speedDiagramMaxKnots(n));
        SpeedDiagram d{};
        int ok = 0;
        const long allocations = test::allocationsDuring([&] {
            ok +=
                buildSpeedDiagram(path.data(), n, c, knots.data(), uint32_t(knots.size()), &d) == Status::Ok;
            for (int k = 0; k <= 100; ++k) {
                CameraPose pose;
                double v;
                ok +=
                    cameraPoseAt(level.view, path.data(), n, d, c, d.duration * k / 100, &pose) == Status::Ok;
                ok += speedAtDistance(d, d.length * k / 100, &v) == Status::Ok;
            }
        });
        CHECK(allocations == 0);
        CHECK(ok == 1 + 2 * 101);
    }

    TEST_CASE("bad input: null, empty, invalid settings and segments, small buffers") {
        const std::vector<PathSegment> path = {line(0, 0, 10, 0)};
        CameraSettings c = cameraDefaults();
        SpeedKnot knots[8];
        SpeedDiagram d{};
        CHECK(speedDiagramMaxKnots(1) == 4);
        CHECK(buildSpeedDiagram(path.data(), 1, c, knots, 3, &d) == Status::BufferTooSmall);
        CHECK(buildSpeedDiagram(nullptr, 1, c, knots, 8, &d) == Status::InvalidArgument);
        CHECK(buildSpeedDiagram(path.data(), 0, c, knots, 8, &d) == Status::InvalidArgument);
        CHECK(buildSpeedDiagram(path.data(), 1, c, nullptr, 8, &d) == Status::InvalidArgument);
        CHECK(buildSpeedDiagram(path.data(), 1, c, knots, 8, nullptr) == Status::InvalidArgument);
        for (double CameraSettings::*field : {&CameraSettings::max_speed, &CameraSettings::max_lateral_accel,
                                              &CameraSettings::max_accel, &CameraSettings::max_decel}) {
            for (double bad : {0.0, -1.0, double(NAN), double(INFINITY)}) {
                CameraSettings b = c;
                b.*field = bad;
                CHECK(buildSpeedDiagram(path.data(), 1, b, knots, 8, &d) == Status::InvalidArgument);
            }
        }
        c.look_ahead = -1;
        CHECK(buildSpeedDiagram(path.data(), 1, c, knots, 8, &d) == Status::InvalidArgument);
        c = cameraDefaults();
        PathSegment bad = path[0];
        bad.length = NAN;
        CHECK(buildSpeedDiagram(&bad, 1, c, knots, 8, &d) == Status::InvalidArgument);
        bad = path[0];
        bad.type = PathSegmentType::Arc;
        bad.radius = 0;
        CHECK(buildSpeedDiagram(&bad, 1, c, knots, 8, &d) == Status::InvalidArgument);

        REQUIRE(buildSpeedDiagram(path.data(), 1, c, knots, 8, &d) == Status::Ok);
        double v;
        CHECK(speedAtDistance(d, NAN, &v) == Status::InvalidArgument);
        CHECK(speedAtDistance(d, 1, nullptr) == Status::InvalidArgument);
        CHECK(speedAtDistance(SpeedDiagram{}, 1, &v) == Status::InvalidArgument);
        CHECK(speedDiagramAtTime(d, INFINITY, nullptr, &v, nullptr) == Status::InvalidArgument);
        CameraPose pose;
        CHECK(cameraPoseAt(RoadmapView{}, path.data(), 1, d, c, NAN, &pose) == Status::InvalidArgument);
        CHECK(cameraPoseAt(RoadmapView{}, path.data(), 1, d, c, 1, nullptr) == Status::InvalidArgument);
        CHECK(cameraPoseAt(RoadmapView{}, nullptr, 1, d, c, 1, &pose) == Status::InvalidArgument);
        // No surface to read: the ground-plane motion at eye height.
        REQUIRE(cameraPoseAt(RoadmapView{}, path.data(), 1, d, c, 1, &pose) == Status::Ok);
        CHECK(pose.position.z == c.eye_height);

        // A path of zero length: one knot, duration 0, the camera looks along it.
        const std::vector<PathSegment> point = {line(2, 2, 2, 2)};
        REQUIRE(buildSpeedDiagram(point.data(), 1, c, knots, 8, &d) == Status::Ok);
        CHECK(d.count == 1);
        CHECK(d.duration == 0);
        REQUIRE(cameraPoseAt(RoadmapView{}, point.data(), 1, d, c, 3, &pose) == Status::Ok);
        CHECK(pose.position.x == 2);
        CHECK(pose.yaw == 0);
    }
}
