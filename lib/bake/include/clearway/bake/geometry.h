// Small 2D distance helpers shared by the roadmap stages (plain doubles, no CGAL).
#pragma once

#include <clearway/bake/core.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

namespace clearway::bake::geometry {

inline double dist(Vec2 a, Vec2 b) {
    return std::hypot(a.x - b.x, a.y - b.y);
}

inline Vec2 closestOnSegment(Vec2 p, Vec2 a, Vec2 b) {
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    if (len2 == 0) return a;
    const double t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0);
    return {a.x + t * dx, a.y + t * dy};
}

inline double pointSegmentDistance(Vec2 p, Vec2 a, Vec2 b) {
    return dist(p, closestOnSegment(p, a, b));
}

// Twice the signed area of (o, a, b): > 0 when b is left of o -> a.
inline double cross(Vec2 o, Vec2 a, Vec2 b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// 0 when the segments cross; otherwise the smallest endpoint-to-segment distance.
inline double segmentSegmentDistance(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
    return std::min({pointSegmentDistance(a, c, d), pointSegmentDistance(b, c, d),
                     pointSegmentDistance(c, a, b), pointSegmentDistance(d, a, b)});
}

// The footprint's snap grid for a level reaching `extent` metres from its origin: a power of two
// with every local coordinate an exact float multiple (at most 2^22 steps each way).
inline double worldGridSpacing(double extent) {
    double q = std::ldexp(1.0, -14);
    while (std::max(extent, 1.0) / q >= std::ldexp(1.0, 22))
        q *= 2;
    return q;
}

inline bool lessVec(const Vec2& a, const Vec2& b) {
    return std::tie(a.x, a.y) < std::tie(b.x, b.y);
}

// CGAL's output order can follow memory addresses; assets must not. Start every ring at its
// smallest vertex, sort holes and polygons by that vertex (the footprint's canonical order). Any
// polygon type with `outer` and `holes` rings of points that `less` orders.
template <class PolygonT, class Less> void canonicalize(std::vector<PolygonT>& polygons, Less less) {
    using RingT = decltype(PolygonT::outer);
    auto rotate = [&](RingT& ring) {
        if (!ring.empty())
            std::rotate(ring.begin(), std::min_element(ring.begin(), ring.end(), less), ring.end());
    };
    for (PolygonT& p : polygons) {
        rotate(p.outer);
        for (RingT& h : p.holes)
            rotate(h);
        std::sort(p.holes.begin(), p.holes.end(),
                  [&](const RingT& a, const RingT& b) { return less(a[0], b[0]); });
    }
    std::sort(polygons.begin(), polygons.end(),
              [&](const PolygonT& a, const PolygonT& b) { return less(a.outer[0], b.outer[0]); });
}

inline void canonicalize(std::vector<PolygonWithHoles>& polygons) {
    canonicalize(polygons, lessVec);
}

} // namespace clearway::bake::geometry
