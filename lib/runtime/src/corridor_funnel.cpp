// The shortest path with clearance inside an A* route's corridor: the Explicit Corridor Map's
// funnel (Geraerts, "Planning short paths with clearance using explicit corridors", 2010).
// Every polyline point of the route carries its nearest wall points on the left and right
// (Roadmap.point_sides); between two points each side stays on one wall feature, so the
// corridor is cut into cells by the segments joining them (portals). The path crosses every
// portal in order and keeps its clearance from every wall point: a funnel whose vertices are
// discs round those points, walked once (linear in the corridor, no wall-grid queries), gives
// lines tangent to the discs and arcs round them.
#include "path_internal.h"

#include <cmath>

namespace clearway {
namespace detail {

namespace {

// A funnel vertex: the disc of radius r round wall point c that the path keeps on its `side`
// (+1 left, -1 right; 0 for the start and goal, r = 0).
struct Disc {
    P c;
    double r;
    double side;
};

bool sameDisc(const Disc& a, const Disc& b) {
    return a.c.x == b.c.x && a.c.y == b.c.y && a.side == b.side && a.r == b.r;
}

// Unit direction of the line that leaves disc a with a on its side and reaches disc b with b on
// its side. The touch points are c - n * (r * side), n the line's left normal, so the line
// satisfies n . (cb - ca) = kb - ka: a rotation of cb - ca by asin(-k / L). Discs too close for
// such a line (rounding, or preferred radii that overlap) get the limit, a perpendicular.
P tangentDirection(const Disc& a, const Disc& b) {
    const P d = b.c - a.c;
    const double l2 = dot(d, d);
    if (!(l2 > 0.0)) return P{0, 0};
    const double k = b.r * b.side - a.r * a.side;
    const double along = l2 > k * k ? std::sqrt(l2 - k * k) : 0.0;
    const P perp{-d.y, d.x};
    const P u = (d * along - perp * k) * (1.0 / l2);
    const double n = norm(u);
    return n > 0.0 ? u * (1.0 / n) : P{0, 0};
}

// Where a line of unit direction u touches disc a.
P touchPoint(const Disc& a, P u) {
    const P left{-u.y, u.x};
    return a.c - left * (a.r * a.side);
}

struct Funnel {
    const CorridorPortal* portals;
    uint32_t count; // portals; index `count` is the goal
    P start, goal;

    Disc left(uint32_t i) const {
        if (i == count) return Disc{goal, 0.0, 0.0};
        return Disc{portals[i].left, portals[i].left_radius, 1.0};
    }
    Disc right(uint32_t i) const {
        if (i == count) return Disc{goal, 0.0, 0.0};
        return Disc{portals[i].right, portals[i].right_radius, -1.0};
    }

    // Simple stupid funnel (Mononen's formulation of Lee and Preparata's) over discs: the apex
    // and both sides are discs, directions are tangents from the apex. When one side crosses
    // the other, the other side's disc becomes the next apex and the scan restarts after it.
    uint32_t run(CorridorWrap* wraps, uint32_t capacity) const {
        uint32_t n = 0;
        Disc apex{start, 0.0, 0.0}, l = apex, r = apex;
        uint32_t apex_i = 0, l_i = 0, r_i = 0;
        // A side that is the apex disc itself bounds nothing: the path may leave that disc in
        // any direction round it. The goal closes both sides at once.
        for (uint32_t i = 0; i <= count; ++i) {
            const Disc cr = right(i), cl = left(i);
            if (!sameDisc(cr, apex)) {
                const P d = tangentDirection(apex, cr);
                const bool r_apex = sameDisc(r, apex), l_apex = sameDisc(l, apex);
                if (r_apex || cross(tangentDirection(apex, r), d) >= 0.0) {
                    if (l_apex || sameDisc(cr, l) || cross(tangentDirection(apex, l), d) < 0.0) {
                        r = cr, r_i = i;
                    } else { // the right side crossed the left: the left disc is wrapped
                        if (n == capacity) return kNone;
                        wraps[n++] = CorridorWrap{l.c, l.r, l.side};
                        apex = l, apex_i = l_i;
                        r = l = apex, r_i = l_i = apex_i;
                        i = apex_i;
                        continue;
                    }
                }
            }
            if (!sameDisc(cl, apex)) {
                const P d = tangentDirection(apex, cl);
                const bool r_apex = sameDisc(r, apex), l_apex = sameDisc(l, apex);
                if (l_apex || cross(tangentDirection(apex, l), d) <= 0.0) {
                    if (r_apex || sameDisc(cl, r) || cross(tangentDirection(apex, r), d) > 0.0) {
                        l = cl, l_i = i;
                    } else {
                        if (n == capacity) return kNone;
                        wraps[n++] = CorridorWrap{r.c, r.r, r.side};
                        apex = r, apex_i = r_i;
                        r = l = apex, r_i = l_i = apex_i;
                        i = apex_i;
                        continue;
                    }
                }
            }
        }
        return n;
    }
};

} // namespace

uint32_t corridorFunnel(const CorridorPortal* portals, uint32_t count, P start, P goal, CorridorWrap* wraps,
                        uint32_t capacity) {
    const Funnel funnel{portals, count, start, goal};
    return funnel.run(wraps, capacity);
}

CorridorTangent corridorTangent(const CorridorWrap& from, const CorridorWrap& to) {
    const Disc a{from.c, from.r, from.side}, b{to.c, to.r, to.side};
    const P u = tangentDirection(a, b);
    return CorridorTangent{touchPoint(a, u), touchPoint(b, u), u};
}

} // namespace detail
} // namespace clearway
