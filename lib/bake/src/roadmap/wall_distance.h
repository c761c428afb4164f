// Exact distances from circular arcs and segments to wall segments, with the cheap bounds that let
// a caller skip walls that cannot lower its minimum (the blends' and merges' clearance tests).
#pragma once

#include <clearway/bake.h>
#include <clearway/bake/geometry.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace clearway::bake::roadmap_detail {

using namespace geometry;

// Arc: centre, radius, start angle and signed sweep (ccw positive).
struct Arc {
    Vec2 centre;
    double radius, start, sweep;
    Vec2 e0, e1; // arcPoint at start and at start + sweep, computed once (setEnds)
    Vec2 u0, u1; // their directions from the centre: (cos, sin) of those angles
};

// std::fmod(x, 2 pi) for every x, without the library call below 4 pi: fmod returns x itself
// below 2 pi and x - 2 pi below 4 pi, which the subtraction gives exactly there (Sterbenz).
inline double fmodTwoPi(double x) {
    constexpr double kTwoPi = 2 * M_PI;
    const double a = std::abs(x);
    if (a < kTwoPi) return x;
    if (a < 2 * kTwoPi) return std::copysign(a - kTwoPi, x);
    return std::fmod(x, kTwoPi);
}

inline bool angleOnArc(const Arc& arc, double angle) {
    double rel = angle - arc.start;
    if (arc.sweep >= 0) {
        rel = fmodTwoPi(fmodTwoPi(rel) + 2 * M_PI);
        return rel <= arc.sweep;
    }
    rel = fmodTwoPi(fmodTwoPi(-rel) + 2 * M_PI);
    return rel <= -arc.sweep;
}

// angleOnArc(arc, atan2(u.y, u.x)) for u = p - centre. On a minor arc the sides of u from the
// end directions decide it without the atan2 when u is more than 1e-12 rad inside or outside
// them; the answers of both ways carry errors near 1e-15 rad (atan2, the wrap, the end directions'
// cos and sin), so where one decides, the other agrees. Nearer an end the atan2 decides.
inline bool onArc(const Arc& arc, double ux, double uy) {
    if (std::abs(arc.sweep) < M_PI - 1e-3) {
        const double sense = arc.sweep >= 0 ? 1.0 : -1.0;
        const double from_start = sense * (arc.u0.x * uy - arc.u0.y * ux);
        const double to_end = sense * (ux * arc.u1.y - uy * arc.u1.x);
        const double tolerance = 1e-12 * std::sqrt(ux * ux + uy * uy);
        if (from_start > tolerance && to_end > tolerance) return true;
        if (from_start < -tolerance || to_end < -tolerance) return false;
    }
    return angleOnArc(arc, std::atan2(uy, ux));
}

// The ends as arcPoint(start) and arcPoint(start + sweep), centre + radius (cos, sin), with
// their directions kept.
inline void setEnds(Arc& arc) {
    const double end = arc.start + arc.sweep;
    arc.u0 = {std::cos(arc.start), std::sin(arc.start)};
    arc.u1 = {std::cos(end), std::sin(end)};
    arc.e0 = {arc.centre.x + arc.radius * arc.u0.x, arc.centre.y + arc.radius * arc.u0.y};
    arc.e1 = {arc.centre.x + arc.radius * arc.u1.x, arc.centre.y + arc.radius * arc.u1.y};
}

// The minimum of dist(p[k], q[k]) over k. hypot runs only where the squared length is within
// rounding of the smallest: any other is larger after hypot's rounding too. When even the
// smallest is beyond skip_above (by more than rounding), INFINITY: every dist is above it.
template <size_t N>
double minDistance(const std::array<Vec2, N>& p, const std::array<Vec2, N>& q, double skip_above = INFINITY) {
    std::array<double, N> squared;
    double least = INFINITY;
    for (size_t k = 0; k < N; ++k) {
        const double dx = p[k].x - q[k].x, dy = p[k].y - q[k].y;
        squared[k] = dx * dx + dy * dy;
        least = std::min(least, squared[k]);
    }
    if (least > skip_above * skip_above * (1 + 1e-12)) return INFINITY;
    const double limit = least * (1 + 1e-12) + 1e-300;
    double best = INFINITY;
    for (size_t k = 0; k < N; ++k)
        if (!(squared[k] > limit)) best = std::min(best, dist(p[k], q[k]));
    return best;
}

// Off the arc, a distance beyond skip_above (by more than rounding) is INFINITY, without hypot.
inline double pointArc(Vec2 p, const Arc& arc, double skip_above = INFINITY) {
    if (onArc(arc, p.x - arc.centre.x, p.y - arc.centre.y)) return std::abs(dist(p, arc.centre) - arc.radius);
    return minDistance<2>({p, p}, {arc.e0, arc.e1}, skip_above); // min(dist(p, e0), dist(p, e1))
}

// Exact distance between a circular arc and a segment: the minimum is at an endpoint of one of
// them, at a crossing (0), or where the segment's closest point to the centre is radial to the arc.
// A wall that cannot cross the arc and lies beyond skip_above of a disk holding it cannot lower a
// minimum of skip_above: it returns INFINITY before any atan2 / sincos (the same minimum).
inline double arcSegment(const Arc& arc, Vec2 a, Vec2 b, double skip_above = INFINITY, Vec2 disk_centre = {},
                         double disk_reach = 0) {
    // The wall's squared distance from the disk's centre; the margin covers rounding.
    const Vec2 q = closestOnSegment(disk_centre, a, b);
    const double to_disk =
        (q.x - disk_centre.x) * (q.x - disk_centre.x) + (q.y - disk_centre.y) * (q.y - disk_centre.y);
    const double disk_margin = 1e-9 * (1 + arc.radius + std::abs(arc.centre.x) + std::abs(arc.centre.y));
    // Circle-line crossings inside both ranges (tested first: they decide the answer alone). They
    // lie on the arc, so in the disk: a wall beyond the disk (most walls) has none to seek.
    bool may_cross = false;
    if (to_disk <= (disk_reach + disk_margin) * (disk_reach + disk_margin)) {
        const double dx = b.x - a.x, dy = b.y - a.y;
        const double fx = a.x - arc.centre.x, fy = a.y - arc.centre.y;
        const double A = dx * dx + dy * dy, B = 2 * (fx * dx + fy * dy),
                     C = fx * fx + fy * fy - arc.radius * arc.radius;
        const double disc = B * B - 4 * A * C;
        if (A > 0 && disc >= 0) {
            for (double sign : {-1.0, 1.0}) {
                const double t = (-B + sign * std::sqrt(disc)) / (2 * A);
                if (t < 0 || t > 1) continue;
                may_cross = true;
                const Vec2 p{a.x + t * dx, a.y + t * dy};
                if (onArc(arc, p.x - arc.centre.x, p.y - arc.centre.y)) return 0;
            }
        }
    }
    if (!may_cross && skip_above < INFINITY) {
        // Every value below is a distance from a wall point to (within rounding) an arc point, so
        // at least the distance from the wall to the disk.
        const double limit = skip_above + disk_reach + disk_margin;
        if (to_disk > limit * limit) return INFINITY;
    }
    // The wall's distances from the centre: at its ends, and at its foot (the nearest point).
    const double margin = 1e-9 * (1 + arc.radius + std::abs(arc.centre.x) + std::abs(arc.centre.y) +
                                  std::abs(a.x) + std::abs(a.y) + std::abs(b.x) + std::abs(b.y));
    const double a_to_centre =
        std::sqrt((a.x - arc.centre.x) * (a.x - arc.centre.x) + (a.y - arc.centre.y) * (a.y - arc.centre.y));
    const double b_to_centre =
        std::sqrt((b.x - arc.centre.x) * (b.x - arc.centre.x) + (b.y - arc.centre.y) * (b.y - arc.centre.y));
    const Vec2 foot = closestOnSegment(arc.centre, a, b);
    const double foot_squared =
        (foot.x - arc.centre.x) * (foot.x - arc.centre.x) + (foot.y - arc.centre.y) * (foot.y - arc.centre.y);
    const double foot_estimate = std::sqrt(foot_squared), slack = 1e-12 * foot_estimate + 1e-300;
    if (skip_above < INFINITY) {
        // Every wall point is at least this far from the arc's circle (outside it from the foot
        // on, inside it up to the further end), so from the arc: a wall beyond skip_above of the
        // circle cannot lower the minimum (the margin covers rounding).
        const double from_circle = foot_estimate >= arc.radius
                                       ? foot_estimate - arc.radius
                                       : arc.radius - std::max(a_to_centre, b_to_centre);
        if (from_circle - 2 * margin > skip_above) return INFINITY;
    }
    const Vec2 e0 = arc.e0, e1 = arc.e1;
    // Beyond skip_above the ends' distance needs no hypot: each use below takes the smaller of
    // best and skip_above or returns a value the caller's minimum (skip_above) already holds.
    double best =
        minDistance<2>({e0, e1}, {closestOnSegment(e0, a, b), closestOnSegment(e1, a, b)}, skip_above);
    // pointArc(p) is at least | |p - centre| - radius | (the arc lies on its circle; the margin
    // covers rounding). A term whose bound is not below the minimum so far, or not below
    // skip_above, cannot lower the caller's minimum: its atan2 is skipped.
    // The bound is taken with sqrt, not hypot (a few ulps apart, far inside a second margin): it
    // passes every term the hypot bound passes, and any further term it lets through is no lower
    // than that bound's limit, so it cannot change what the caller keeps.
    if (std::abs(a_to_centre - arc.radius) - 2 * margin < std::min(best, skip_above))
        best = std::min(best, pointArc(a, arc, std::min(best, skip_above)));
    if (std::abs(b_to_centre - arc.radius) - 2 * margin < std::min(best, skip_above))
        best = std::min(best, pointArc(b, arc, std::min(best, skip_above)));
    // hypot only where the sqrt estimate (within 1e-12 of it, relative) does not already fail
    // the test, nor put the term at or above skip_above (the caller's minimum): the same terms pass.
    if (foot_estimate + slack < arc.radius || foot_estimate - slack - arc.radius >= std::min(best, skip_above))
        return best;
    // Most feet lie off the arc: its test (cheap away from the ends) goes before the hypot.
    if (!onArc(arc, foot.x - arc.centre.x, foot.y - arc.centre.y)) return best;
    const double to_foot = dist(foot, arc.centre);
    if (to_foot >= arc.radius && to_foot - arc.radius < best) best = to_foot - arc.radius;
    return best;
}

// geometry::segmentSegmentDistance(a, b, c, d), except that a segment c-d that does not cross a-b
// and whose box lies beyond skip_above of a-b's box returns INFINITY before the four hypot calls.
inline double segmentWallDistance(Vec2 a, Vec2 b, Vec2 c, Vec2 d, double skip_above) {
    // The box test first: segments whose boxes are apart cannot cross (nor pass the crossing
    // test, whose rounding is far below the margin), so it needs no orientation test.
    if (skip_above < INFINITY) {
        const double gx =
            std::max({0.0, std::min(c.x, d.x) - std::max(a.x, b.x), std::min(a.x, b.x) - std::max(c.x, d.x)});
        const double gy =
            std::max({0.0, std::min(c.y, d.y) - std::max(a.y, b.y), std::min(a.y, b.y) - std::max(c.y, d.y)});
        const double limit =
            skip_above + 1e-9 * (1 + std::abs(a.x) + std::abs(a.y) + std::abs(c.x) + std::abs(c.y));
        if (gx * gx + gy * gy > limit * limit) return INFINITY;
    }
    const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
    return minDistance<4>({a, b, c, d},
                          {closestOnSegment(a, c, d), closestOnSegment(b, c, d), closestOnSegment(c, a, b),
                           closestOnSegment(d, a, b)},
                          skip_above);
}

} // namespace clearway::bake::roadmap_detail
