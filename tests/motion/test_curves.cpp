// Curves: arc-then-line and Dubins paths against hand-derived lengths, an independent textbook
// implementation, symmetry, the edge cases where published libraries fail, and pose continuity.
#include <clearway/motion.h>

#include "golden_section.h"

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <random>

using namespace clearway;

namespace {

constexpr double kPi = 3.14159265358979323846;

double angleDiff(double a, double b) {
    return std::remainder(a - b, 2.0 * kPi);
}

PathSample endOf(const CurvePath& path) {
    PathSample s{};
    REQUIRE(pathSampleAtDistance(path.pieces, path.count, path.length, &s) == Status::Ok);
    return s;
}

// The path must end on the goal pose: the real test that every word's geometry is right.
void checkReaches(const CurvePath& path, const Pose2d& to, double tolerance) {
    const PathSample end = endOf(path);
    CHECK(std::fabs(end.x - to.x) <= tolerance);
    CHECK(std::fabs(end.y - to.y) <= tolerance);
    CHECK(std::fabs(angleDiff(end.heading, to.heading)) <= 1e-9);
}

// Samples the path densely: positions move no further than the distance driven, headings turn no
// more than curvature * distance (continuity at the joints between pieces included).
void checkContinuous(const CurvePath& path) {
    const int samples = 2000;
    PathSample prev{};
    REQUIRE(pathSampleAtDistance(path.pieces, path.count, 0.0, &prev) == Status::Ok);
    double max_k = 0.0;
    for (uint32_t i = 0; i < path.count; ++i)
        max_k = std::fmax(max_k, std::fabs(path.pieces[i].curvature));
    const double step = path.length / samples;
    for (int i = 1; i <= samples; ++i) {
        PathSample s{};
        REQUIRE(pathSampleAtDistance(path.pieces, path.count, i * step, &s) == Status::Ok);
        const double moved = std::hypot(s.x - prev.x, s.y - prev.y);
        CHECK(moved <= step * (1.0 + 1e-9) + 1e-12);
        CHECK(std::fabs(angleDiff(s.heading, prev.heading)) <= max_k * step * (1.0 + 1e-9) + 1e-12);
        prev = s;
    }
}

// Independent reference: the textbook (alpha, beta, d) formulas of Shkel & Lumelsky as in
// Walker's dubins.c; returns the normalised length or -1 when infeasible.
double mod2pi(double a) {
    a = std::fmod(a, 2.0 * kPi);
    return a < 0.0 ? a + 2.0 * kPi : a;
}
double referenceWordLength(const Pose2d& from, const Pose2d& to, double r, int word) {
    const double dx = to.x - from.x, dy = to.y - from.y;
    const double d = std::hypot(dx, dy) / r;
    const double th = mod2pi(std::atan2(dy, dx));
    const double a = mod2pi(from.heading - th), b = mod2pi(to.heading - th);
    const double sa = std::sin(a), sb = std::sin(b), ca = std::cos(a), cb = std::cos(b),
                 cab = std::cos(a - b);
    double t, p, q;
    switch (word) {
    case 0: { // LSL
        const double p2 = 2 + d * d - 2 * cab + 2 * d * (sa - sb);
        if (p2 < 0) return -1;
        const double tmp = std::atan2(cb - ca, d + sa - sb);
        t = mod2pi(-a + tmp), p = std::sqrt(p2), q = mod2pi(b - tmp);
        break;
    }
    case 1: { // RSR
        const double p2 = 2 + d * d - 2 * cab + 2 * d * (sb - sa);
        if (p2 < 0) return -1;
        const double tmp = std::atan2(ca - cb, d - sa + sb);
        t = mod2pi(a - tmp), p = std::sqrt(p2), q = mod2pi(-b + tmp);
        break;
    }
    case 2: { // LSR
        const double p2 = -2 + d * d + 2 * cab + 2 * d * (sa + sb);
        if (p2 < 0) return -1;
        p = std::sqrt(p2);
        const double tmp = std::atan2(-ca - cb, d + sa + sb) - std::atan2(-2.0, p);
        t = mod2pi(-a + tmp), q = mod2pi(-b + tmp);
        break;
    }
    case 3: { // RSL
        const double p2 = d * d - 2 + 2 * cab - 2 * d * (sa + sb);
        if (p2 < 0) return -1;
        p = std::sqrt(p2);
        const double tmp = std::atan2(ca + cb, d - sa - sb) - std::atan2(2.0, p);
        t = mod2pi(a - tmp), q = mod2pi(b - tmp);
        break;
    }
    case 4: { // RLR
        const double tmp = (6 - d * d + 2 * cab + 2 * d * (sa - sb)) / 8;
        if (std::fabs(tmp) > 1) return -1;
        p = mod2pi(2 * kPi - std::acos(tmp));
        t = mod2pi(a - std::atan2(ca - cb, d - sa + sb) + p / 2);
        q = mod2pi(a - b - t + p);
        break;
    }
    default: { // LRL
        const double tmp = (6 - d * d + 2 * cab + 2 * d * (sb - sa)) / 8;
        if (std::fabs(tmp) > 1) return -1;
        p = mod2pi(2 * kPi - std::acos(tmp));
        t = mod2pi(-a - std::atan2(ca - cb, d + sa - sb) + p / 2);
        q = mod2pi(b - a - t + p);
        break;
    }
    }
    return (t + p + q) * r;
}

} // namespace

TEST_CASE("arc-then-line: hand-derived lengths") {
    const Pose2d origin{0, 0, 0};
    CurvePath path{};
    TurnSide side{};

    SUBCASE("straight ahead: no turn, the line is the distance") {
        REQUIRE(shortestArcLine(origin, 10, 0, 2, &path, &side) == Status::Ok);
        CHECK(side == TurnSide::Left); // tie goes left
        CHECK(path.length == doctest::Approx(10).epsilon(1e-15));
        CHECK(path.pieces[0].length == 0.0);
    }
    SUBCASE("point at 90 degrees on the turning circle: a quarter circle, no line") {
        REQUIRE(shortestArcLine(origin, 3, 3, 3, &path, &side) == Status::Ok);
        CHECK(side == TurnSide::Left);
        CHECK(path.pieces[0].length == doctest::Approx(1.5 * kPi).epsilon(1e-12));
        CHECK(path.pieces[1].length == doctest::Approx(0).epsilon(1e-12));
        REQUIRE(shortestArcLine(origin, 3, -3, 3, &path, &side) == Status::Ok);
        CHECK(side == TurnSide::Right);
        CHECK(path.length == doctest::Approx(1.5 * kPi).epsilon(1e-12));
    }
    SUBCASE("point behind at distance D: turn pi + 2 atan(r/D), then a line of length D") {
        const double r = 2, D = 5;
        REQUIRE(arcLineToPoint(origin, -D, 0, r, TurnSide::Left, &path) == Status::Ok);
        CHECK(path.pieces[0].length == doctest::Approx(r * (kPi + 2 * std::atan(r / D))).epsilon(1e-12));
        CHECK(path.pieces[1].length == doctest::Approx(D).epsilon(1e-12));
        CurvePath right{};
        REQUIRE(arcLineToPoint(origin, -D, 0, r, TurnSide::Right, &right) == Status::Ok);
        CHECK(right.length == doctest::Approx(path.length).epsilon(1e-14));
    }
    SUBCASE("inside the turning circle on one side: only the other side reaches it") {
        CHECK(arcLineToPoint(origin, 0.5, 1.0, 1.0, TurnSide::Left, &path) == Status::NotFound);
        REQUIRE(shortestArcLine(origin, 0.5, 1.0, 1.0, &path, &side) == Status::Ok);
        CHECK(side == TurnSide::Right);
    }
    SUBCASE("bad input") {
        CHECK(arcLineToPoint(origin, 1, 1, 0, TurnSide::Left, &path) == Status::InvalidArgument);
        CHECK(arcLineToPoint(origin, NAN, 1, 1, TurnSide::Left, &path) == Status::InvalidArgument);
        CHECK(arcLineToPoint(origin, 1, 1, 1, TurnSide::Left, nullptr) == Status::InvalidArgument);
        CHECK(shortestDubins(origin, Pose2d{1, 1, INFINITY}, 1, &path, nullptr) == Status::InvalidArgument);
    }
}

TEST_CASE("arc-then-line: goal exactly on the turning circle at every angle") {
    // Published implementations return "unreachable" (h < r by rounding) or NaN (acos(r/h > 1)).
    const double r = 7.5;
    for (int i = 0; i < 3600; ++i) {
        const double a = 2 * kPi * i / 3600.0;
        const Pose2d from{1234.5, -987.25, 0.3};
        // Left circle centre, then the point at turning angle a on it.
        const double cx = from.x - r * std::sin(from.heading), cy = from.y + r * std::cos(from.heading);
        const double gx = cx + r * std::sin(from.heading + a), gy = cy - r * std::cos(from.heading + a);
        CurvePath path{};
        REQUIRE(arcLineToPoint(from, gx, gy, r, TurnSide::Left, &path) == Status::Ok);
        CHECK(path.pieces[1].length <= 1e-4 * r);
        // The only subtle one: near a = 0 (and 2*pi) the turn is ~0, never a full loop.
        const double expected = i == 0 ? 0.0 : a * r;
        CHECK(path.length == doctest::Approx(expected).epsilon(1e-6).scale(r));
        const PathSample end = endOf(path);
        CHECK(std::hypot(end.x - gx, end.y - gy) <= 1e-6);
    }
}

TEST_CASE("dubins: hand-derived lengths") {
    const Pose2d origin{0, 0, 0};
    CurvePath path{};
    DubinsWord word{};
    const double r = 2;
    SUBCASE("straight ahead") {
        REQUIRE(shortestDubins(origin, Pose2d{10, 0, 0}, r, &path, &word) == Status::Ok);
        CHECK(path.length == doctest::Approx(10).epsilon(1e-14));
        CHECK(word == DubinsWord::LSL);
    }
    SUBCASE("U-turn onto the left circle: a half circle, pi r") {
        REQUIRE(shortestDubins(origin, Pose2d{0, 2 * r, kPi}, r, &path, &word) == Status::Ok);
        CHECK(path.length == doctest::Approx(kPi * r).epsilon(1e-12));
        CHECK(word == DubinsWord::LSL);
        REQUIRE(shortestDubins(origin, Pose2d{0, -2 * r, kPi}, r, &path, &word) == Status::Ok);
        CHECK(path.length == doctest::Approx(kPi * r).epsilon(1e-12));
        CHECK(word == DubinsWord::RSR);
    }
    SUBCASE("wide U-turn: quarter, line w, quarter = pi r + w") {
        const double w = 3.25;
        REQUIRE(shortestDubins(origin, Pose2d{0, 2 * r + w, kPi}, r, &path, &word) == Status::Ok);
        CHECK(path.length == doctest::Approx(kPi * r + w).epsilon(1e-12));
        CHECK(word == DubinsWord::LSL);
        CHECK(path.pieces[0].length == doctest::Approx(0.5 * kPi * r).epsilon(1e-12));
    }
    SUBCASE("quarter turn") {
        REQUIRE(shortestDubins(origin, Pose2d{r, r, 0.5 * kPi}, r, &path, &word) == Status::Ok);
        CHECK(path.length == doctest::Approx(0.5 * kPi * r).epsilon(1e-12));
    }
    SUBCASE("lane change: S-curve of two arcs of angle acos(1 - h/(2r)) and no line") {
        const double h = 1.0; // lateral offset
        const double a = std::acos(1 - h / (2 * r));
        const double x = 2 * r * std::sin(a);
        REQUIRE(shortestDubins(origin, Pose2d{x, h, 0}, r, &path, &word) == Status::Ok);
        CHECK(word == DubinsWord::LSR);
        CHECK(path.length == doctest::Approx(2 * a * r).epsilon(1e-9));
    }
    SUBCASE("every word ends on the goal when it exists") {
        const Pose2d to{3, -1, 2.5};
        int found = 0;
        for (uint32_t w = 0; w < kDubinsWordCount; ++w) {
            if (dubinsPath(origin, to, r, static_cast<DubinsWord>(w), &path) != Status::Ok) continue;
            ++found;
            checkReaches(path, to, 1e-9);
        }
        CHECK(found >= 4);
        CHECK(dubinsPath(origin, Pose2d{100, 0, 0}, r, DubinsWord::LRL, &path) == Status::NotFound);
    }
}

TEST_CASE("dubins: edge cases where published libraries fail") {
    CurvePath path{};
    DubinsWord word{};
    SUBCASE("start == goal: length 0") {
        for (double h : {0.0, 1.0, -2.5, kPi, -kPi}) {
            const Pose2d p{5, -3, h};
            REQUIRE(shortestDubins(p, p, 1.5, &path, &word) == Status::Ok);
            CHECK(path.length == 0.0);
        }
    }
    SUBCASE("same point, headings 1e-9 apart: one loop of about 2 pi r, no NaN, ends on the goal") {
        const double r = 3;
        for (double dh : {1e-9, -1e-9, 1e-12}) {
            const Pose2d from{10, 20, 0.7}, to{10, 20, 0.7 + dh};
            REQUIRE(shortestDubins(from, to, r, &path, &word) == Status::Ok);
            CHECK(std::isfinite(path.length));
            if (std::fabs(dh) < 1e-11) {
                CHECK(path.length <= 1e-10); // below rounding: the same pose
            } else {
                CHECK(path.length == doctest::Approx(2 * kPi * r).epsilon(1e-6));
                checkReaches(path, to, 1e-8);
            }
        }
    }
    SUBCASE("headings 1e-9 apart along a line: essentially straight") {
        const Pose2d from{0, 0, 0.25}, to{100 * std::cos(0.25), 100 * std::sin(0.25), 0.25 + 1e-9};
        REQUIRE(shortestDubins(from, to, 5, &path, &word) == Status::Ok);
        CHECK(path.length == doctest::Approx(100).epsilon(1e-9));
        checkReaches(path, to, 1e-7);
    }
    SUBCASE("goal pose exactly on the start's turning circle: a single arc") {
        const double r = 4;
        for (int i = 1; i < 360; ++i) {
            const double a = 2 * kPi * i / 360.0;
            const Pose2d to{r * std::sin(a), r - r * std::cos(a), a};
            REQUIRE(shortestDubins(Pose2d{0, 0, 0}, to, r, &path, &word) == Status::Ok);
            // Short arcs are LSL; past a certain angle turning the other way round (RLR) is shorter.
            CHECK(path.length <= a * r * (1 + 1e-12));
            if (a < kPi) CHECK(path.length == doctest::Approx(a * r).epsilon(1e-9));
            checkReaches(path, to, 1e-9);
        }
    }
    SUBCASE("tiny radius: the straight distance plus the turns") {
        const double r = 1e-9;
        REQUIRE(shortestDubins(Pose2d{0, 0, 0}, Pose2d{0, 50, kPi / 2}, r, &path, &word) == Status::Ok);
        CHECK(path.length == doctest::Approx(50).epsilon(1e-9));
        checkReaches(path, Pose2d{0, 50, kPi / 2}, 1e-7);
    }
    SUBCASE("huge distance and coordinates far from the origin") {
        const Pose2d from{4e6, -3e6, 1.0}, to{4e6 + 3e6, -3e6 - 4e6, -2.0};
        REQUIRE(shortestDubins(from, to, 10, &path, &word) == Status::Ok);
        CHECK(path.length >= 5e6);
        CHECK(path.length <= 5e6 + 2 * kPi * 10 * 2);
        checkReaches(path, to, 1e-3);
        // Translation invariance: the same problem at the origin gives the same length.
        CurvePath here{};
        REQUIRE(shortestDubins(Pose2d{0, 0, 1.0}, Pose2d{3e6, -4e6, -2.0}, 10, &here, nullptr) == Status::Ok);
        CHECK(here.length == doctest::Approx(path.length).epsilon(1e-12));
    }
    SUBCASE("circles exactly tangent (LSR/RSL with no line)") {
        const double r = 1;
        // Goal right circle touching the start's left circle: centres (0,1) and (0,3) -> pose (0,2,pi)
        // heading west is on the right circle (0,3)? Right of heading pi is +y: centre (0,3).
        REQUIRE(dubinsPath(Pose2d{0, 0, 0}, Pose2d{0, 2, kPi}, r, DubinsWord::LSR, &path) == Status::Ok);
        CHECK(path.pieces[1].length <= 1e-6);
        checkReaches(path, Pose2d{0, 2, kPi}, 1e-9);
    }
}

TEST_CASE("dubins: mirror symmetry, bounds and an independent reference on random poses") {
    std::mt19937 rng(20240611);
    std::uniform_real_distribution<double> pos(-20, 20), head(-kPi, kPi), rad(0.2, 6);
    int disagreements = 0;
    for (int i = 0; i < 5000; ++i) {
        const Pose2d from{pos(rng), pos(rng), head(rng)}, to{pos(rng), pos(rng), head(rng)};
        const double r = rad(rng);
        CurvePath best{};
        DubinsWord word{};
        REQUIRE(shortestDubins(from, to, r, &best, &word) == Status::Ok);
        checkReaches(best, to, 1e-9 * (1 + best.length));

        // Brute force over all six words (and each word's own end pose).
        double min_length = INFINITY, reference_min = INFINITY;
        for (uint32_t w = 0; w < kDubinsWordCount; ++w) {
            CurvePath p{};
            const double ref = referenceWordLength(from, to, r, static_cast<int>(w));
            if (ref >= 0) reference_min = std::fmin(reference_min, ref);
            if (dubinsPath(from, to, r, static_cast<DubinsWord>(w), &p) != Status::Ok) continue;
            checkReaches(p, to, 1e-9 * (1 + p.length));
            min_length = std::fmin(min_length, p.length);
            if (ref >= 0) CHECK(p.length <= ref + 1e-9 * (1 + ref)); // never worse than the textbook
        }
        CHECK(best.length == min_length);
        if (std::fabs(reference_min - best.length) > 1e-9 * (1 + best.length)) ++disagreements;

        // Mirror the problem across the x axis: same length, mirrored word.
        CurvePath mirror{};
        DubinsWord mirror_word{};
        REQUIRE(shortestDubins(Pose2d{from.x, -from.y, -from.heading}, Pose2d{to.x, -to.y, -to.heading}, r,
                               &mirror, &mirror_word) == Status::Ok);
        CHECK(mirror.length == doctest::Approx(best.length).epsilon(1e-12));

        // Bounds: at least the straight distance; at most arc-then-line to the point and then the
        // Dubins path that fixes the heading there (triangle inequality).
        CHECK(best.length >= std::hypot(to.x - from.x, to.y - from.y) * (1 - 1e-12));
        CurvePath arc{};
        if (shortestArcLine(from, to.x, to.y, r, &arc, nullptr) == Status::Ok) {
            const PathSample there = endOf(arc);
            CurvePath fix{};
            REQUIRE(shortestDubins(Pose2d{there.x, there.y, there.heading}, to, r, &fix, nullptr) ==
                    Status::Ok);
            CHECK(best.length <= arc.length + fix.length + 1e-9);
        }
    }
    CHECK(disagreements == 0);
}

TEST_CASE("arc-then-line: left/right mirror symmetry and the Dubins lower bound") {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> pos(-30, 30), head(-kPi, kPi), rad(0.5, 8);
    for (int i = 0; i < 3000; ++i) {
        const Pose2d from{pos(rng), pos(rng), head(rng)};
        const double gx = pos(rng), gy = pos(rng), r = rad(rng);
        CurvePath left{}, mirrored{};
        const Status sl = arcLineToPoint(from, gx, gy, r, TurnSide::Left, &left);
        const Status sm =
            arcLineToPoint(Pose2d{from.x, -from.y, -from.heading}, gx, -gy, r, TurnSide::Right, &mirrored);
        REQUIRE(sl == sm);
        if (sl != Status::Ok) continue;
        CHECK(left.length == doctest::Approx(mirrored.length).epsilon(1e-12));
        const PathSample end = endOf(left);
        CHECK(std::hypot(end.x - gx, end.y - gy) <= 1e-9 * (1 + left.length));
        // Any Dubins path ending at the point with some heading is at least as long as the
        // best arc-then-line when the point lies outside both circles (CS is optimal then).
        CurvePath best{}, dubins{};
        CurvePath right{};
        if (arcLineToPoint(from, gx, gy, r, TurnSide::Right, &right) != Status::Ok) continue;
        REQUIRE(shortestArcLine(from, gx, gy, r, &best, nullptr) == Status::Ok);
        REQUIRE(shortestDubins(from, Pose2d{gx, gy, head(rng)}, r, &dubins, nullptr) == Status::Ok);
        CHECK(dubins.length >= best.length - 1e-9);
    }
}

TEST_CASE("path: pose continuity, time sampling and polyline") {
    CurvePath path{};
    REQUIRE(shortestDubins(Pose2d{1, 2, 0.3}, Pose2d{-4, 6, -2.0}, 2.5, &path, nullptr) == Status::Ok);
    checkContinuous(path);
    std::mt19937 rng(99);
    std::uniform_real_distribution<double> pos(-10, 10), head(-kPi, kPi);
    for (int i = 0; i < 50; ++i) {
        REQUIRE(shortestDubins(Pose2d{pos(rng), pos(rng), head(rng)}, Pose2d{pos(rng), pos(rng), head(rng)},
                               1.7, &path, nullptr) == Status::Ok);
        checkContinuous(path);
    }

    SUBCASE("time sampling is distance = speed * time; ends clamp") {
        PathSample a{}, b{};
        REQUIRE(pathSampleAtTime(path.pieces, path.count, 2.0, 1.25, &a) == Status::Ok);
        REQUIRE(pathSampleAtDistance(path.pieces, path.count, 2.5, &b) == Status::Ok);
        CHECK(a.x == b.x);
        CHECK(a.heading == b.heading);
        REQUIRE(pathSampleAtDistance(path.pieces, path.count, -5, &a) == Status::Ok);
        CHECK(a.x == path.pieces[0].start.x);
        REQUIRE(pathSampleAtDistance(path.pieces, path.count, 1e9, &a) == Status::Ok);
        REQUIRE(pathSampleAtDistance(path.pieces, path.count, path.length, &b) == Status::Ok);
        CHECK(a.x == b.x);
        CHECK(pathSampleAtDistance(path.pieces, 0, 1, &a) == Status::InvalidArgument);
    }
    SUBCASE("reversing piece: the body keeps its heading sense, the vehicle moves backwards") {
        PathPiece back{Pose2d{0, 0, 0}, 2.0, 0.0, -1};
        PathSample s{};
        REQUIRE(pathSampleAtDistance(&back, 1, 2.0, &s) == Status::Ok);
        CHECK(s.x == doctest::Approx(-2));
        CHECK(s.heading == doctest::Approx(0));
        // Reversing with the wheels left swings the nose clockwise.
        back.curvature = 1.0;
        back.length = kPi / 2;
        REQUIRE(pathSampleAtDistance(&back, 1, back.length, &s) == Status::Ok);
        CHECK(s.heading == doctest::Approx(-kPi / 2));
        CHECK(s.x == doctest::Approx(-1));
        CHECK(s.y == doctest::Approx(1));
    }
    SUBCASE("polyline every 0.5 m includes both ends") {
        Vec2f points[256];
        uint32_t n = 0;
        REQUIRE(pathToPolyline(path.pieces, path.count, 0.5, points, &n, 256) == Status::Ok);
        CHECK(n == static_cast<uint32_t>(std::ceil(path.length / 0.5)) + 1);
        PathSample end = endOf(path);
        CHECK(points[n - 1].x == doctest::Approx(end.x).epsilon(1e-5));
        CHECK(pathToPolyline(path.pieces, path.count, 0.5, points, &n, 3) == Status::BufferTooSmall);
    }
}

namespace {

// Independent value for the shortest forward path to a point: the shortest Dubins path to the
// point, minimised over the arrival heading (dense scan, then golden-section refinement of the
// best bracket). Shares no code with shortestPathToPoint beyond the Dubins words and arc-then-line,
// which the tests above check against their own references.
double shortestToPointByHeadingScan(const Pose2d& from, double gx, double gy, double radius) {
    // Dubins words forgive ~1e-10 radii of rounding where circles touch; a heading where that
    // slack makes a path that misses the point (beyond rounding) is not an answer: it would be
    // shorter by about the miss.
    const double reach = 1e-13 * (radius + std::fabs(from.x) + std::fabs(from.y));
    auto length = [&](double heading) {
        CurvePath path{};
        REQUIRE(shortestDubins(from, Pose2d{gx, gy, heading}, radius, &path, nullptr) == Status::Ok);
        const PathSample end = endOf(path);
        return std::hypot(end.x - gx, end.y - gy) <= reach ? path.length : INFINITY;
    };
    const int samples = 7200;
    int best = 0;
    double best_length = INFINITY;
    for (int i = 0; i < samples; ++i) {
        const double l = length(2.0 * kPi * i / samples);
        if (l < best_length) best_length = l, best = i;
    }
    const motiontest::Minimum refined = motiontest::goldenSectionMin(length, 2.0 * kPi * (best - 1) / samples,
                                                                     2.0 * kPi * (best + 1) / samples, 1e-13);
    double result = std::fmin(best_length, refined.value);
    // A goal exactly on a turning circle is reached by the arc alone, at one arrival heading where
    // the Dubins distance drops discontinuously (just inside the circle it is a loop longer): no
    // scan finds an isolated point, so those headings are tried as well.
    for (TurnSide side : {TurnSide::Left, TurnSide::Right}) {
        CurvePath arc{};
        if (arcLineToPoint(from, gx, gy, radius, side, &arc) != Status::Ok) continue;
        result = std::fmin(result, length(endOf(arc).heading));
    }
    return result;
}

} // namespace

TEST_CASE("point curve: a goal inside the turning circle is reached by two turns, shorter than arc-then-line") {
    const Pose2d origin{0, 0, 0};
    CurvePath arc{}, best{};
    REQUIRE(shortestArcLine(origin, 0.5, 3.0, 3.0, &arc, nullptr) == Status::Ok);
    PointPathKind kind{};
    REQUIRE(shortestPathToPoint(origin, 0.5, 3.0, 3.0, &best, &kind) == Status::Ok);
    CHECK(kind == PointPathKind::TurnTurn);
    CHECK(arc.length == doctest::Approx(21.17).epsilon(1e-3));
    CHECK(best.length == doctest::Approx(16.64).epsilon(1e-3));
    CHECK(std::fabs(best.length - shortestToPointByHeadingScan(origin, 0.5, 3.0, 3.0)) <= 1e-9);
    const PathSample end = endOf(best);
    CHECK(std::fabs(end.x - 0.5) <= 1e-9);
    CHECK(std::fabs(end.y - 3.0) <= 1e-9);
    checkContinuous(best);
}

TEST_CASE("point curve: lengths match the heading-scan oracle on a grid inside, on and just outside the circles") {
    // Goals in the start frame on a polar grid around the left turning circle's centre: inside,
    // exactly on it, 1e-6 radii outside, out to 4 radii; two radii and three start poses (one far
    // from the origin, so the world-frame rounding is exercised too).
    const double radii[] = {1.0, 3.0};
    const Pose2d starts[] = {{0, 0, 0}, {12.5, -4.0, 2.2}, {5.0e4, 3.0e4, -1.1}};
    const double rings[] = {0.0, 0.3, 0.999999, 1.0, 1.000001, 1.5, 2.0, 2.999999, 3.0, 3.000001, 4.0};
    int checked = 0, turn_turn = 0;
    for (double r : radii)
        for (const Pose2d& s : starts)
            for (double ring : rings)
                for (int k = 0; k < 12; ++k) {
                    const double a = 2.0 * kPi * k / 12 + 0.1;
                    const double lu = ring * std::cos(a), lv = 1.0 + ring * std::sin(a); // start frame / r
                    const double c = std::cos(s.heading), sn = std::sin(s.heading);
                    const double gx = s.x + r * (c * lu - sn * lv), gy = s.y + r * (sn * lu + c * lv);
                    // Exactly on the circle the answer jumps (the arc alone; a loop just inside).
                    // 5e4 m from the origin the goal's rounding decides the side, and the API
                    // counts a point within rounding as on the circle: that case is pinned near
                    // the origin, where "on" is exact.
                    if (ring == 1.0 && std::fabs(s.x) > 1e3) continue;
                    CurvePath path{};
                    PointPathKind kind{};
                    REQUIRE(shortestPathToPoint(s, gx, gy, r, &path, &kind) == Status::Ok);
                    // The oracle solves the same problem moved to the origin (the subtraction is
                    // exact: Sterbenz), where its own endpoint check is tight.
                    const double oracle =
                        shortestToPointByHeadingScan(Pose2d{0, 0, s.heading}, gx - s.x, gy - s.y, r);
                    INFO("r " << r << " start " << s.x << "," << s.y << " ring " << ring << " k " << k);
                    CHECK(std::fabs(path.length - oracle) <= 1e-9 * std::fmax(1.0, oracle));
                    const PathSample end = endOf(path);
                    const double tolerance = 1e-9 * (1.0 + std::fabs(s.x) + std::fabs(s.y));
                    CHECK(std::fabs(end.x - gx) <= tolerance);
                    CHECK(std::fabs(end.y - gy) <= tolerance);
                    CurvePath arc{};
                    if (shortestArcLine(s, gx, gy, r, &arc, nullptr) == Status::Ok)
                        CHECK(path.length <= arc.length + 1e-12 * std::fmax(1.0, arc.length));
                    turn_turn += kind == PointPathKind::TurnTurn;
                    ++checked;
                }
    CHECK(checked == 2 * (3 * 11 - 1) * 12);
    CHECK(turn_turn > 0); // the grid reaches the region where two turns win
}

TEST_CASE("point curve: mirror symmetry and invalid input") {
    const Pose2d origin{0, 0, 0};
    CurvePath left{}, right{};
    REQUIRE(shortestPathToPoint(origin, 0.7, 1.9, 2.0, &left, nullptr) == Status::Ok);
    REQUIRE(shortestPathToPoint(origin, 0.7, -1.9, 2.0, &right, nullptr) == Status::Ok);
    CHECK(left.length == doctest::Approx(right.length).epsilon(1e-12));
    CHECK(left.pieces[0].curvature == -right.pieces[0].curvature);
    CurvePath out{};
    CHECK(shortestPathToPoint(origin, 1, 1, 0.0, &out, nullptr) == Status::InvalidArgument);
    CHECK(shortestPathToPoint(origin, NAN, 1, 1.0, &out, nullptr) == Status::InvalidArgument);
    CHECK(shortestPathToPoint(origin, 1, 1, 1.0, nullptr, nullptr) == Status::InvalidArgument);
    REQUIRE(shortestPathToPoint(origin, 0, 0, 1.0, &out, nullptr) == Status::Ok);
    CHECK(out.length == 0.0);
}
