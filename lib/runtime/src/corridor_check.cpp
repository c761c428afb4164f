// The corridor path against the walls the corridor does not name: the stretches from the ends
// to the corridor, every line and arc where a corridor is not known exactly, wide arcs; each one
// too close gets a disc round the wall it meets and the path is tightened again (Geraerts,
// "Planning short paths with clearance using explicit corridors", 2010).
#include "corridor_walk.h"

#include <algorithm>

namespace clearway {
namespace detail {

void LayerCrossings::boundBoundaries() {
    constexpr double kNear = 1e-3; // onBoundaryPieces' millimetre
    for (uint32_t k = 0; k < count; ++k) {
        const uint64_t key = layerPairKey(from[k], to[k]);
        const BoundaryPiece* lo = std::lower_bound(
            pieces, pieces + piece_count, key, [](const BoundaryPiece& b, uint64_t v) { return b.pair < v; });
        const BoundaryPiece* hi = lo;
        while (hi < pieces + piece_count && hi->pair == key)
            ++hi;
        first[k] = uint32_t(lo - pieces), end[k] = uint32_t(hi - pieces);
        for (const BoundaryPiece* b = lo; b < hi; ++b) {
            box_lo_x = minOf(box_lo_x, b->x0 - kNear), box_lo_y = minOf(box_lo_y, b->y0 - kNear);
            box_hi_x = maxOf(box_hi_x, b->x1 + kNear), box_hi_y = maxOf(box_hi_y, b->y1 + kNear);
        }
    }
}

bool LayerCrossings::onBoundaryPieces(P left, P right) const {
    constexpr double kNear = 2e-3; // more than the sqrt of the 1e-6 below, and its rounding
    for (uint32_t k = 0; k < count; ++k)
        for (uint32_t i = first[k]; i < end[k]; ++i) {
            const BoundaryPiece& b = pieces[i];
            // A point within the millimetre of a piece lies in its box grown by it: most pieces
            // have neither side there.
            auto inBox = [&](P p) {
                return p.x >= b.x0 - kNear && p.x <= b.x1 + kNear && p.y >= b.y0 - kNear &&
                       p.y <= b.y1 + kNear;
            };
            if (!inBox(left) && !inBox(right)) continue;
            if (pointSegment2(left, b.c0, b.c1, nullptr) <= 1e-6 ||
                pointSegment2(right, b.c0, b.c1, nullptr) <= 1e-6)
                return true;
        }
    return false;
}

namespace {

// Rounds of wall checks (each adds a disc for every line that fails) before giving up.
constexpr uint32_t kLineChecks = 8;

// Where segment a -> b crosses the portal's line (through its two wall points), as a point of
// the segment; b when it does not cross it.
P portalCrossing(const CorridorPortal& portal, P a, P b) {
    const P d = portal.right - portal.left;
    const double den = cross(b - a, d);
    if (den == 0.0) return b;
    const double t = cross(portal.left - a, d) / den;
    return t > 0.0 && t < 1.0 ? a + (b - a) * t : b;
}

// An end's first disc wrapped by more than this (radians) means the route leaves that end
// backwards (it snapped to the far side of a thin wall): the polyline shortening, which is not
// bound to the corridor, finds the way that does not go round.
constexpr double kEndWrapLimit = 0.75 * 3.14159265358979323846;

// A stretch of the path on one layer closer than the clearance to that layer's walls: a line
// stretch of line `index` (from a to b), or an arc stretch round wraps[index] (from a by `sweep`).
// `portal`: the portal a disc added for it belongs to.
struct TooClose {
    bool arc;
    uint32_t index, layer, portal;
    P a, b;
    double sweep;
};

// Whether line j (from wraps[j - 1], or the start, into wraps[j], or the goal) runs only between
// portals whose sides bound the corridor: the tightening kept it clear of them there.
bool lineInCheckedCorridor(const CorridorPortal* portals, uint32_t count, bool all_checked,
                           const CorridorWrap* wraps, uint32_t n, uint32_t j) {
    if (count == 0) return false;
    if (all_checked) return true;
    const uint32_t first = j > 0 ? wraps[j - 1].portal : 0, last = j < n ? wraps[j].portal : count - 1;
    for (uint32_t i = first + 1; i <= last && i < count; ++i)
        if (portals[i].unchecked_before) return false;
    return true;
}

// Whether stretch a -> b of line j keeps the clearance. Where the corridor's sides bound the
// line only the stretches from an end to the corridor's first (last) portal need the walls.
bool lineStretchClear(const PathQuery& q, const CorridorPortal* portals, uint32_t count, bool checked,
                      uint32_t j, uint32_t n, P a, P b, uint32_t layer, double check) {
    if (!checked) return segmentClear(LayerWalls{q.rm, q.s, layer}, a, b, check);
    if (j == 0 && !segmentClear(LayerWalls{q.rm, q.s, layer}, a, portalCrossing(portals[0], a, b), check))
        return false;
    return j != n ||
           segmentClear(LayerWalls{q.rm, q.s, layer}, portalCrossing(portals[count - 1], b, a), b, check);
}

// The path's stretches too close to a wall: every line stretch (into `lines`, at most `room`), and,
// when none is, the first arc stretch. Between lines in a checked corridor an inner arc at the
// radius is clear by construction; a larger preferred radius sweeping wide, or an end's approach,
// may not be. False
// when an end disc wraps beyond kEndWrapLimit (nothing to repair: the route leaves that end
// backwards) or the path misses a boundary between layers the route crosses.
bool findTooClose(const PathQuery& q, const CorridorPortal* portals, uint32_t count,
                  const LayerCrossings& crossings, const CorridorWrap* wraps, uint32_t n, double check,
                  bool all_checked, TooClose* lines, uint32_t room, uint32_t* found, WalkStep* steps,
                  VerifyFailure* failure) {
    *found = 0;
    auto portalAt = [&](uint32_t j) { return j > 0 ? wraps[j - 1].portal : 0; };
    // One walk for both: the arcs are looked at until the first one too close (or an end wrapped
    // back), and count only when every line keeps the clearance.
    bool wrapped_back = false, arc_found = false;
    TooClose arc{};
    const bool crossed_all = walkPath(
        q, crossings, wraps, n,
        [&](uint32_t j, P a, P b, const LayerWalk& walk) {
            const bool checked = lineInCheckedCorridor(portals, count, all_checked, wraps, n, j);
            if (!lineStretchClear(q, portals, count, checked, j, n, a, b, walk.layer, check) && *found < room)
                lines[(*found)++] = TooClose{false, j, walk.layer, portalAt(j), a, b, 0.0};
            return true;
        },
        [&](uint32_t w, P a, P, double sweep, double turn, const LayerWalk& walk) {
            if (wrapped_back || arc_found) return true;
            if ((w == 0 || w + 1 == n) && std::fabs(turn) > kEndWrapLimit) {
                wrapped_back = true;
            } else if (!(w > 0 && w + 1 < n && wraps[w].r == q.radius &&
                         lineInCheckedCorridor(portals, count, all_checked, wraps, n, w) &&
                         lineInCheckedCorridor(portals, count, all_checked, wraps, n, w + 1)) &&
                       !wallsArcClear(q.rm, q.s, walk.layer, wraps[w].c, a, sweep, check)) {
                arc = TooClose{true, w, walk.layer, portalAt(w + 1), a, {}, sweep};
                arc_found = true;
            }
            return true;
        },
        steps);
    if (!crossed_all) {
        *failure = VerifyFailure::MissedBoundary;
        return false;
    }
    if (*found > 0) return true;
    if (wrapped_back) return false;
    if (arc_found) lines[(*found)++] = arc;
    return true;
}

// A disc for line stretch `line` (too close to a wall): round the wall vertex that intrudes most
// (a taut path wraps vertices; a point inside a wall piece would only creep along it), else the
// end nearer the line of the wall piece it comes near. False when the stretch crosses a wall
// outright (not a corridor path).
bool lineIntruder(const PathQuery& q, const TooClose& line, double check, CorridorWrap* out) {
    const P a = line.a, b = line.b;
    P left{}, right{};
    const P band[4] = {a, a, b, b};
    // Only a vertex on that side and inside the clearance (the search also names vertices beyond
    // the line, and the line's own tangent discs).
    auto intrudes = [&](P v, double side) {
        return side * cross(b - a, v - a) > 0.0 && pointSegment2(v, a, b, nullptr) < check * check;
    };
    bool l =
        wallsMostIntruding(q.rm, q.s, line.layer, a, b, q.radius, 1.0, band, &left) && intrudes(left, 1.0);
    bool r = wallsMostIntruding(q.rm, q.s, line.layer, a, b, q.radius, -1.0, band, &right) &&
             intrudes(right, -1.0);
    if (!l && !r) {
        P lc{}, ld{}, rc{}, rd{};
        l = wallsNearestToSegment(q.rm, q.s, line.layer, a, b, q.radius, 1.0, &left, &lc, &ld);
        r = wallsNearestToSegment(q.rm, q.s, line.layer, a, b, q.radius, -1.0, &right, &rc, &rd);
        auto nearerEnd = [&](P c, P d) {
            return pointSegment2(c, a, b, nullptr) <= pointSegment2(d, a, b, nullptr) ? c : d;
        };
        if (l) left = nearerEnd(lc, ld);
        if (r) right = nearerEnd(rc, rd);
    }
    if (!l && !r) return false;
    const bool use_left =
        l && (!r || pointSegment2(left, a, b, nullptr) <= pointSegment2(right, a, b, nullptr));
    *out = CorridorWrap{use_left ? left : right, q.radius, line.portal, int8_t(use_left ? 1 : -1), false};
    return true;
}

// A disc for arc stretch `arc` (round wraps[arc.index], too close to a wall): round a wall vertex
// closer than the clearance to it (not its own centre), searched along its chords on both sides,
// else the end of the nearest wall piece (not the centre). On the disc's side when inside its
// circle (a cluster of wall vertices: same radius), else on the other; *after: it comes after the
// disc. False when none is found.
bool arcIntruder(const PathQuery& q, const CorridorWrap* wraps, const TooClose& arc, double check,
                 CorridorWrap* out, bool* after) {
    const CorridorWrap disc = wraps[arc.index];
    const P end = disc.c + rotate(arc.a - disc.c, arc.sweep);
    const uint32_t pieces = 1 + uint32_t(std::fabs(arc.sweep) / 0.7853981633974483); // 45 degrees each
    const double sagitta = disc.r * (1.0 - std::cos(0.5 * arc.sweep / pieces));
    auto gap = [&](P v) { return pointArcDistance(disc.c, disc.r, arc.a, end, arc.sweep, v); };
    auto own = [&](P v) { return norm(v - disc.c) <= 1e-9 * (1.0 + norm(disc.c)); };
    auto chord = [&](uint32_t k, P* from, P* to) {
        *from = disc.c + rotate(arc.a - disc.c, arc.sweep * (k - 1) / pieces);
        *to = disc.c + rotate(arc.a - disc.c, arc.sweep * k / pieces);
    };
    double nearest = kInf; // below check for a vertex; any distance for a piece's end
    P found{};
    for (uint32_t k = 1; k <= pieces; ++k) {
        P from, to;
        chord(k, &from, &to);
        const P band[4] = {from, from, to, to};
        for (const double side : {1.0, -1.0}) {
            P v;
            if (wallsMostIntruding(q.rm, q.s, arc.layer, from, to, check + sagitta, side, band, &v) &&
                !own(v) && gap(v) < check && gap(v) < nearest)
                nearest = gap(v), found = v;
        }
    }
    // No vertex within the clearance: a wall piece's inside is. A taut path touches a straight
    // wall only at its ends: the end of the nearest such piece nearer the arc.
    for (uint32_t k = 1; k <= pieces && !(nearest < check); ++k) {
        P from, to;
        chord(k, &from, &to);
        for (const double side : {1.0, -1.0}) {
            P p, c, d;
            if (!wallsNearestToSegment(q.rm, q.s, arc.layer, from, to, check + sagitta, side, &p, &c, &d) ||
                !(gap(p) < check))
                continue;
            const double gc = own(c) ? kInf : gap(c), gd = own(d) ? kInf : gap(d);
            if (minOf(gc, gd) < nearest) nearest = minOf(gc, gd), found = gc <= gd ? c : d;
        }
    }
    if (!(nearest < kInf)) return false;
    const bool inside = norm(found - disc.c) < disc.r;
    // Inside the circle the line from the disc to it runs along centre to vertex: after the disc
    // when that direction lies within the arc's turn from its start direction. Outside: by where
    // along the arc it lies.
    if (inside) {
        const double sense = arc.sweep > 0.0 ? 1.0 : -1.0;
        const P r0 = arc.a - disc.c, heading{-r0.y * sense, r0.x * sense}, d = found - disc.c;
        const double a = std::atan2(cross(heading, d), dot(heading, d)) * sense;
        *after = a >= 0.0 && a <= std::fabs(arc.sweep);
    } else {
        *after = angleAlong(disc.c, arc.a, arc.sweep, found) > 0.5 * std::fabs(arc.sweep);
    }
    *out = CorridorWrap{found, inside ? disc.r : q.radius, arc.portal,
                        inside ? disc.side : int8_t(-disc.side), false};
    return true;
}

void insertWrap(CorridorWrap* wraps, uint32_t* n, uint32_t at, const CorridorWrap& w) {
    for (uint32_t k = *n; k > at; --k)
        wraps[k] = wraps[k - 1];
    wraps[at] = w;
    ++*n;
    if (at + 1 < *n) wraps[at + 1].clean = false;
}

} // namespace

// The path against the walls of the layers it crosses (see findTooClose for what is looked at).
// Each line that comes too close gets a disc round the wall point it meets, else the first arc
// that does; then the path is tightened again.
bool verifyCorridorPath(PathQuery& q, const CorridorPortal* portals, uint32_t count,
                        const LayerCrossings& crossings, bool exact, CorridorWrap* wraps, uint32_t* n,
                        uint32_t capacity, WalkStep* steps, VerifyFailure* failure) {
    *failure = VerifyFailure::Other;
    const double check = q.radius * (1.0 - 1e-9);
    constexpr uint32_t kRoom = 16;
    TooClose close[kRoom];
    for (uint32_t attempt = 0; attempt < kLineChecks; ++attempt) {
        uint32_t found = 0;
        if (!findTooClose(q, portals, count, crossings, wraps, *n, check, exact, close, kRoom, &found, steps,
                          failure))
            return false;
        if (found == 0) {
            *failure = VerifyFailure::None;
            return true;
        }
        if (*n + found > capacity) return false;
        for (uint32_t k = found; k-- > 0;) { // from the goal back: insertions keep lower indices
            CorridorWrap w;
            bool after = false;
            if (close[k].arc ? !arcIntruder(q, wraps, close[k], check, &w, &after)
                             : !lineIntruder(q, close[k], check, &w))
                return false;
            insertWrap(wraps, n, close[k].index + (after ? 1 : 0), w);
        }
        *n = corridorTighten(portals, count, q.ps, q.pg, wraps, *n, capacity);
        if (*n == kNone) {
            *failure = VerifyFailure::Unsettled;
            return false;
        }
    }
    *failure = VerifyFailure::Unsettled;
    return false;
}

} // namespace detail
} // namespace clearway
