// The shortest forward path to a point (turn then line, or two opposite turns) against an
// independent numeric search over the first arc angle, and pathToPoint's methods.
#include <clearway/motion.h>

#include "golden_section.h"

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>

using namespace clearway;

namespace {

constexpr double kPi = 3.14159265358979323846;

// The shortest forward path found by root finding over the first arc angle t (left first, and
// right first by mirroring the goal). After an arc of t the vehicle either drives straight, and the
// goal must lie on that tangent ray (its lateral offset is 0), or turns the other way, and the goal
// must lie on that second circle (its distance to the circle's centre is R), or it is already at
// the goal (the arc alone). Each condition is sampled over [0, 2 pi] and every sign change bisected
// to the last bit; the arc alone is a V-shaped minimum of the distance, found by golden section.
// No closed-form tangent or circle intersection: nothing is shared with the library's formulas.
struct PointOracle {
    double length;
    PointPathKind kind;
    double runner_up; // the best length of the other family (infinity when it has none)
};

constexpr int kOracleSamples = 20000;

// Start frame (start at the origin heading +x, metres), left-first: the goal is (u, v).
struct LeftFirst {
    double u, v, r;
    double px(double t) const { return r * std::sin(t); }
    double py(double t) const { return r * (1.0 - std::cos(t)); }
    // Lateral offset of the goal from the tangent line after the arc (> 0 left of it), and how far
    // along it the goal lies.
    double lateral(double t) const { return std::cos(t) * (v - py(t)) - std::sin(t) * (u - px(t)); }
    double along(double t) const { return std::cos(t) * (u - px(t)) + std::sin(t) * (v - py(t)); }
    // The right-turn circle through the switch point: centre = switch point + r * right normal.
    double c2x(double t) const { return px(t) + r * std::sin(t); }
    double c2y(double t) const { return py(t) - r * std::cos(t); }
    double offCircle2(double t) const { return std::hypot(u - c2x(t), v - c2y(t)) - r; }
    double distance(double t) const { return std::hypot(u - px(t), v - py(t)); }
    // Clockwise angle from the switch point to the goal round the second circle.
    double secondTurn(double t) const {
        const double a_switch = std::atan2(py(t) - c2y(t), px(t) - c2x(t));
        const double a_goal = std::atan2(v - c2y(t), u - c2x(t));
        double sweep = std::fmod(a_switch - a_goal, 2.0 * kPi);
        return sweep < 0.0 ? sweep + 2.0 * kPi : sweep;
    }
};

template <typename F> double bisect(F f, double lo, double hi) {
    double flo = f(lo);
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        const double fm = f(mid);
        if ((fm <= 0.0) == (flo <= 0.0)) {
            lo = mid, flo = fm;
        } else {
            hi = mid;
        }
    }
    return std::fabs(f(lo)) <= std::fabs(f(hi)) ? lo : hi;
}

// Every sign change of f over the samples, bisected; calls found(t) for each root.
template <typename F, typename G> void forEachRoot(F f, G found) {
    double prev_t = 0.0, prev = f(0.0);
    for (int i = 1; i <= kOracleSamples; ++i) {
        const double t = 2.0 * kPi * i / kOracleSamples, ft = f(t);
        if (prev == 0.0)
            found(prev_t);
        else if ((prev < 0.0) != (ft < 0.0) && ft != 0.0)
            found(bisect(f, prev_t, t));
        prev_t = t, prev = ft;
    }
}

void searchLeftFirst(const LeftFirst& g, double* straight, double* turn_turn) {
    auto lateral = [&](double t) { return g.lateral(t); };
    forEachRoot(lateral, [&](double t) {
        const double along = g.along(t);
        if (along >= -1e-9 * g.r) *straight = std::fmin(*straight, g.r * t + std::fmax(along, 0.0));
    });
    auto off = [&](double t) { return g.offCircle2(t); };
    forEachRoot(off, [&](double t) { *turn_turn = std::fmin(*turn_turn, g.r * (t + g.secondTurn(t))); });
    // The arc alone: the goal on the first circle (a double root of both conditions above).
    int best = 0;
    double best_distance = INFINITY;
    for (int i = 0; i <= kOracleSamples; ++i) {
        const double d = g.distance(2.0 * kPi * i / kOracleSamples);
        if (d < best_distance) best_distance = d, best = i;
    }
    const double t =
        motiontest::goldenSectionMin([&](double x) { return g.distance(x); },
                                     2.0 * kPi * std::fmax(best - 1, 0) / kOracleSamples,
                                     2.0 * kPi * std::fmin(best + 1, kOracleSamples) / kOracleSamples, 1e-12)
            .x;
    if (g.distance(t) <= 1e-10 * g.r) *straight = std::fmin(*straight, g.r * t);
}

PointOracle shortestToPointBySearch(const Pose2d& from, double gx, double gy, double r) {
    const double dx = gx - from.x, dy = gy - from.y, c = std::cos(from.heading), s = std::sin(from.heading);
    const double u = c * dx + s * dy, v = -s * dx + c * dy;
    double straight = INFINITY, turn_turn = INFINITY;
    if (std::hypot(u, v) == 0.0) return PointOracle{0.0, PointPathKind::TurnStraight, INFINITY};
    searchLeftFirst(LeftFirst{u, v, r}, &straight, &turn_turn);
    searchLeftFirst(LeftFirst{u, -v, r}, &straight, &turn_turn); // right first: the mirror image
    if (straight <= turn_turn) return PointOracle{straight, PointPathKind::TurnStraight, turn_turn};
    return PointOracle{turn_turn, PointPathKind::TurnTurn, straight};
}

double angleDiff(double a, double b) {
    return std::remainder(a - b, 2.0 * kPi);
}

// Forward only, pieces at full lock or straight, and C1 with curvature at most 1/r: sampled, the
// position moves no further than the distance driven and the heading turns no more than it / r.
void checkDrivable(const CurvePath& path, double r) {
    for (uint32_t i = 0; i < path.count; ++i) {
        CHECK(path.pieces[i].direction == 1);
        const double k = std::fabs(path.pieces[i].curvature);
        CHECK((k == 0.0 || std::fabs(k * r - 1.0) <= 1e-15));
    }
    const int samples = 1000;
    const double step = path.length / samples;
    PathSample prev{};
    REQUIRE(pathSampleAtDistance(path.pieces, path.count, 0.0, &prev) == Status::Ok);
    for (int i = 1; i <= samples; ++i) {
        PathSample s{};
        REQUIRE(pathSampleAtDistance(path.pieces, path.count, i * step, &s) == Status::Ok);
        CHECK(std::hypot(s.x - prev.x, s.y - prev.y) <= step * (1.0 + 1e-9) + 1e-12);
        CHECK(std::fabs(angleDiff(s.heading, prev.heading)) <= step / r * (1.0 + 1e-9) + 1e-12);
        prev = s;
    }
}

} // namespace

TEST_SUITE("point curve") {
    TEST_CASE("point curve: 0.5 m ahead and 3 m left at radius 3 is two turns of 16.64 m") {
        const Pose2d origin{0, 0, 0};
        CurvePath path{};
        PointPathKind kind{};
        REQUIRE(shortestPathToPoint(origin, 0.5, 3.0, 3.0, &path, &kind) == Status::Ok);
        const PointOracle oracle = shortestToPointBySearch(origin, 0.5, 3.0, 3.0);
        MESSAGE("shortest ", path.length, " m, independent search ", oracle.length, " m");
        CHECK(kind == PointPathKind::TurnTurn);
        CHECK(oracle.kind == PointPathKind::TurnTurn);
        CHECK(path.length == doctest::Approx(16.64).epsilon(5e-4));
        CHECK(std::fabs(path.length - oracle.length) <= 1e-9 * oracle.length);
        // Right a little, then the long left turn.
        CHECK(path.pieces[0].curvature < 0.0);
        CHECK(path.pieces[1].curvature > 0.0);
        PathSample end{};
        REQUIRE(pathSampleAtDistance(path.pieces, path.count, path.length, &end) == Status::Ok);
        CHECK(std::fabs(end.x - 0.5) <= 1e-12);
        CHECK(std::fabs(end.y - 3.0) <= 1e-12);
        checkDrivable(path, 3.0);
        // The seed's method stays available and still takes the far side.
        CurvePath arc_line{};
        REQUIRE(pathToPoint(origin, 0.5, 3.0, 3.0, &arc_line, PointPathMethod::ArcLine) == Status::Ok);
        CHECK(arc_line.length == doctest::Approx(21.17).epsilon(5e-4));
    }

    TEST_CASE("point curve: matches an independent search to 1e-9 inside, on and just outside both circles") {
        // Goals on polar grids around both turning circles' centres (start frame, in radii): the
        // centre region, inside, exactly on, 1e-6 radii either side of the circle and of the 3-radii
        // reach of two turns, and beyond.
        const double rings[] = {0.0, 0.3, 0.7,      0.999999, 1.0,      1.000001,
                                1.3, 2.0, 2.999999, 3.0,      3.000001, 4.5};
        const double radii[] = {1.0, 3.0};
        const Pose2d starts[] = {{0, 0, 0}, {12.5, -4.0, 2.2}};
        const int angles = 24;
        int checked = 0, turn_turn = 0, kind_checked = 0;
        double max_error = 0.0, max_relative = 0.0;
        for (double r : radii)
            for (const Pose2d& s : starts)
                for (double centre_side : {1.0, -1.0})
                    for (double ring : rings)
                        for (int k = 0; k < angles; ++k) {
                            const double a = 2.0 * kPi * k / angles + 0.05;
                            const double lu = r * ring * std::cos(a);
                            const double lv = r * (centre_side + ring * std::sin(a));
                            const double c = std::cos(s.heading), sn = std::sin(s.heading);
                            const double gx = s.x + c * lu - sn * lv, gy = s.y + sn * lu + c * lv;
                            CurvePath path{};
                            PointPathKind kind{};
                            REQUIRE(shortestPathToPoint(s, gx, gy, r, &path, &kind) == Status::Ok);
                            const PointOracle oracle = shortestToPointBySearch(s, gx, gy, r);
                            INFO("r " << r << " start " << s.x << "," << s.y << " side " << centre_side
                                      << " ring " << ring << " k " << k << " got " << path.length
                                      << " oracle " << oracle.length);
                            const double error = std::fabs(path.length - oracle.length);
                            CHECK(error <= 1e-9 * std::fmax(1.0, oracle.length));
                            max_error = std::fmax(max_error, error);
                            max_relative = std::fmax(max_relative, error / std::fmax(1.0, oracle.length));
                            // The family too, where the other one is clearly longer (a single arc,
                            // the other piece ~0, is either).
                            const bool single_arc =
                                std::fmin(path.pieces[0].length, path.pieces[1].length) <= 1e-6 * r;
                            if (oracle.runner_up - oracle.length > 1e-6 * r && !single_arc) {
                                CHECK(kind == oracle.kind);
                                ++kind_checked;
                            }
                            PathSample end{};
                            REQUIRE(pathSampleAtDistance(path.pieces, path.count, path.length, &end) ==
                                    Status::Ok);
                            CHECK(std::hypot(end.x - gx, end.y - gy) <= 1e-9 * (1.0 + r));
                            checkDrivable(path, r);
                            turn_turn += kind == PointPathKind::TurnTurn;
                            ++checked;
                        }
        MESSAGE(checked, " goals, ", turn_turn,
                " by two turns, largest difference from the independent search ", max_error, " m (",
                max_relative, " relative), family checked on ", kind_checked);
        CHECK(checked == 2 * 2 * 2 * 12 * angles);
        CHECK(turn_turn > checked / 10);
        CHECK(kind_checked > checked / 2);
    }

    TEST_CASE("point curve: pathToPoint picks the method, Shortest by default") {
        const Pose2d from{3.0, -2.0, 0.4};
        CurvePath by_method{}, direct{};
        for (double gx : {-6.0, 3.5, 9.0})
            for (double gy : {-4.0, 0.0, 1.5}) {
                REQUIRE(pathToPoint(from, gx, gy, 2.0, &by_method) == Status::Ok);
                REQUIRE(shortestPathToPoint(from, gx, gy, 2.0, &direct, nullptr) == Status::Ok);
                CHECK(by_method.length == direct.length);
                const Status arc = pathToPoint(from, gx, gy, 2.0, &by_method, PointPathMethod::ArcLine);
                REQUIRE(shortestArcLine(from, gx, gy, 2.0, &direct, nullptr) == arc);
                if (arc == Status::Ok) CHECK(by_method.length == direct.length);
            }
        // Inside the left turning circle arc-then-line goes round the right one; two turns are shorter.
        REQUIRE(pathToPoint(Pose2d{0, 0, 0}, 0.5, 1.0, 1.0, &by_method, PointPathMethod::ArcLine) ==
                Status::Ok);
        REQUIRE(pathToPoint(Pose2d{0, 0, 0}, 0.5, 1.0, 1.0, &direct) == Status::Ok);
        CHECK(direct.length < by_method.length - 0.5);
        CHECK(pathToPoint(Pose2d{0, 0, 0}, 1, 1, 0.0, &by_method) == Status::InvalidArgument);
        CHECK(pathToPoint(Pose2d{0, 0, 0}, 1, 1, 1.0, &by_method, static_cast<PointPathMethod>(7)) ==
              Status::InvalidArgument);
    }
}
