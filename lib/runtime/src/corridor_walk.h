// The corridor path's layers, shared by path_corridor.cpp (portals, funnel, output) and
// corridor_check.cpp (the walls the corridor does not name): the route's changes of layer, and a
// walk of the path in order, split where it changes layer (Geraerts 2010's corridor, across floors).
#pragma once

#include "path_query.h"

namespace clearway {
namespace detail {

// Where a route changes layer: the pairs of layers it crosses between, in order, and the
// footprint's connections (the boundary pieces between two layers, often a polyline of them).
struct LayerCrossings {
    static constexpr uint32_t kMax = 4;
    const BoundaryPiece* pieces = nullptr; // the footprint's connections by pair (PathShared)
    uint32_t piece_count = 0;
    uint32_t from[kMax] = {}, to[kMax] = {};
    uint32_t count = 0;
    // Crossing k's boundary: pieces[first[k] .. end[k]) (boundBoundaries).
    uint32_t first[kMax] = {}, end[kMax] = {};
    // The crossed boundaries' bounding box, grown by onBoundary's millimetre: most portals lie
    // outside it, and onBoundary then needs no walk over the crossed pairs' connections.
    double box_lo_x = kInf, box_lo_y = kInf, box_hi_x = -kInf, box_hi_y = -kInf;

    static bool between(const fb::Connection& c, uint32_t a, uint32_t b) {
        return (c.layer_a() == a && c.layer_b() == b) || (c.layer_a() == b && c.layer_b() == a);
    }
    // A side on the boundary the route crosses: each layer's medial axis took it for a wall, so a
    // side there names no wall (the floor goes on across it). Within a millimetre: the connection
    // and the layer's ring edge along it were each rounded to float, and simplified within the
    // bake's epsilon.
    // (Out of line: only routes that change layer pay for it.)
    bool onBoundary(P left, P right) const {
        return (nearBox(left) || nearBox(right)) && onBoundaryPieces(left, right);
    }
    // The bounding box above, once the crossings are known.
    void boundBoundaries();

private:
    bool nearBox(P p) const { return p.x >= box_lo_x && p.x <= box_hi_x && p.y >= box_lo_y && p.y <= box_hi_y; }
    bool onBoundaryPieces(P left, P right) const;
};

// The signed angle a path turns round `disc` from unit u_in to u_out: with the disc's side (left:
// counter-clockwise), past pi where it wraps that far; a rounding-sized turn the other way is kept
// as it is (no arc).
inline double wrapTurn(P u_in, P u_out, const CorridorWrap& disc) {
    const double turn = turnAngle(u_in, u_out);
    return turn * disc.side < -1e-7 ? turn + 2.0 * 3.14159265358979323846 * disc.side : turn;
}

// The path's layers, walked in path order: it crosses the route's boundaries between layers in
// their order, and each line or arc that meets the next one (any connection between those two
// layers) is split there.
struct LayerWalk {
    const LayerCrossings& crossings;
    uint32_t next = 0, layer;

    LayerWalk(const LayerCrossings& c, uint32_t start_layer) : crossings(c), layer(start_layer) {}

    void crossNext() { layer = crossings.to[next++]; }
    // Calls meet(c0, c1) for every connection of the next boundary (none when a mutated asset's
    // route crosses a portal edge while its footprint lists no connections).
    template <class Meet> void forEachPiece(Meet&& meet) const {
        for (uint32_t i = crossings.first[next]; i < crossings.end[next]; ++i)
            meet(crossings.pieces[i].c0, crossings.pieces[i].c1);
    }
    // Where a -> b first meets the next boundary, as the fraction along it in (0, 1].
    bool lineMeets(P a, P b, double* t) const {
        if (next >= crossings.count) return false;
        *t = kInf;
        const P d = b - a;
        forEachPiece([&](P l, P r) {
            const P e = r - l;
            const double den = cross(d, e);
            if (den == 0.0) return;
            const double along = cross(l - a, e) / den, on = cross(l - a, d) / den;
            if (along > 0.0 && along <= 1.0 && on >= 0.0 && on <= 1.0) *t = minOf(*t, along);
        });
        return *t < kInf;
    }
    // Where the arc round c (radius r) from `start` by `sweep` first meets the next boundary, as the
    // angle along it in (0, |sweep|].
    bool arcMeets(P c, double r, P start, double sweep, double* angle) const {
        if (next >= crossings.count) return false;
        *angle = kInf;
        forEachPiece([&](P l, P rr) {
            const P e = rr - l, f = l - c;
            const double a = dot(e, e), b = 2.0 * dot(e, f), disc = b * b - 4.0 * a * (dot(f, f) - r * r);
            if (!(a > 0.0) || disc < 0.0) return;
            for (const double sign : {-1.0, 1.0}) {
                const double on = (-b + sign * std::sqrt(disc)) / (2.0 * a);
                const double along = on >= 0.0 && on <= 1.0 ? angleAlong(c, start, sweep, l + e * on) : kInf;
                if (along > 0.0 && along <= std::fabs(sweep)) *angle = minOf(*angle, along);
            }
        });
        return *angle < kInf;
    }
    // fn(a, b, layer) for each stretch of line a -> b on one layer; false as soon as fn is.
    template <class Fn> bool line(P a, P b, Fn&& fn) {
        for (double t; lineMeets(a, b, &t); crossNext()) {
            const P x = a + (b - a) * t;
            if (!fn(a, x, layer)) return false;
            a = x;
        }
        return fn(a, b, layer);
    }
    // fn(from, to, sweep, layer) for each stretch of the arc on one layer.
    template <class Fn> bool arc(P c, double r, P start, P end, double sweep, Fn&& fn) {
        for (double angle; arcMeets(c, r, start, sweep, &angle); crossNext()) {
            const double part = sweep > 0.0 ? angle : -angle;
            const P x = c + rotate(start - c, part);
            if (!fn(start, x, part, layer)) return false;
            start = x, sweep -= part;
        }
        return fn(start, end, sweep, layer);
    }
};

// One step of walkPath over wraps[0..n): line j's tangent and the whole turn of the arc before it
// (j > 0). The check's last walk keeps them for the output's walk over the same discs.
struct WalkStep {
    CorridorTangent t;
    double turn;
};

// Walks the path's lines and arcs in order, each split where it changes layer (false as well
// when the path does not cross every boundary the route crosses):
// line(j, a, b, walk) for the stretches of line j (into wraps[j], or the goal for j = n), and
// arc(w, from, to, sweep, turn, walk) for those of the arc round wraps[w] (`turn` its whole turn).
// False as soon as a callback is. `record` (n + 1 steps): the steps walked are kept there;
// `replay`: steps an earlier walk over the same wraps kept, read instead of computed again.
template <class Line, class Arc>
bool walkPath(const PathQuery& q, const LayerCrossings& crossings, const CorridorWrap* wraps, uint32_t n,
              Line&& line, Arc&& arc, WalkStep* record = nullptr, const WalkStep* replay = nullptr) {
    LayerWalk walk(crossings, q.start.layer);
    const CorridorWrap start{q.ps, 0.0, kNone, 0, true}, goal{q.pg, 0.0, kNone, 0, true};
    P cursor = q.ps, u_in{0, 0};
    for (uint32_t j = 0; j <= n; ++j) {
        const CorridorWrap& from = j == 0 ? start : wraps[j - 1];
        WalkStep step;
        if (replay) {
            step = replay[j];
        } else {
            step.t = corridorTangent(from, j == n ? goal : wraps[j]);
            step.turn = j > 0 && from.r > 0.0 ? wrapTurn(u_in, step.t.u, from) : 0.0;
        }
        if (record) record[j] = step;
        const CorridorTangent& t = step.t;
        if (j > 0 && from.r > 0.0) {
            const double turn = step.turn;
            if (turn * from.side > 1e-12) {
                if (!walk.arc(from.c, from.r, cursor, t.from, turn, [&](P a, P b, double sweep, uint32_t) {
                        return arc(j - 1, a, b, sweep, turn, walk);
                    }))
                    return false;
                cursor = t.from;
            }
        }
        const P end = j == n ? q.pg : t.to;
        if (!walk.line(cursor, end, [&](P a, P b, uint32_t) { return line(j, a, b, walk); })) return false;
        cursor = end, u_in = t.u;
    }
    // A path that never crosses a boundary the route crosses would end on the wrong layer (one
    // floor above another in plan): not a path of this route.
    return walk.next == crossings.count;
}

// Why a corridor path was not verified: it missed a boundary between layers the route crosses;
// the tightening did not settle after a disc was added; or anything else.
enum class VerifyFailure { None, MissedBoundary, Unsettled, Other };

// The path against the walls of the layers it crosses, repaired with discs round the walls it
// meets and tightened again (corridor_check.cpp); false when it does not settle, and *failure says
// why. `exact`: no portal has an open or unchecked stretch before it (else each line looks at its
// own portals).
// `steps` (capacity + 1, or null): the steps of the last walk, over the wraps it returns with.
bool verifyCorridorPath(PathQuery& q, const CorridorPortal* portals, uint32_t count,
                        const LayerCrossings& crossings, bool exact, CorridorWrap* wraps, uint32_t* n,
                        uint32_t capacity, WalkStep* steps, VerifyFailure* failure);

} // namespace detail
} // namespace clearway
