// The A* route's shortest path with clearance through its corridor: portals from the asset's
// point sides, the funnel over them (corridor_funnel.cpp), lines and arcs round the wrapped discs.
// The Explicit Corridor Map (Geraerts, "Planning short paths with clearance using explicit
// corridors", 2010).
#include "path_query.h"

#include <utility>

namespace clearway {
namespace detail {

namespace {

// Where a route changes layer: the pairs of layers it crosses between, in order, and the
// footprint's connections (the boundary pieces between two layers, often a polyline of them).
struct LayerCrossings {
    static constexpr uint32_t kMax = 4;
    const fb::Footprint* footprint = nullptr;
    uint32_t from[kMax] = {}, to[kMax] = {};
    uint32_t count = 0;

    static bool between(const fb::Connection& c, uint32_t a, uint32_t b) {
        return (c.layer_a() == a && c.layer_b() == b) || (c.layer_a() == b && c.layer_b() == a);
    }
    // A side on the boundary the route crosses: each layer's medial axis took it for a wall, so a
    // side there names no wall (the floor goes on across it). Within a millimetre: the connection
    // and the layer's ring edge along it were each rounded to float, and simplified within the
    // bake's epsilon.
    // (Out of line: only routes that change layer pay for it.)
    bool onBoundary(P left, P right) const;
};

bool LayerCrossings::onBoundary(P left, P right) const {
    for (const fb::Connection* c : *footprint->connections())
        for (uint32_t k = 0; k < count; ++k) {
            if (!between(*c, from[k], to[k])) continue;
            const P c0{c->x0(), c->y0()}, c1{c->x1(), c->y1()};
            if (pointSegment2(left, c0, c1, nullptr) <= 1e-6 || pointSegment2(right, c0, c1, nullptr) <= 1e-6)
                return true;
        }
    return false;
}

// Portals along the route. Each side keeps the preferred clearance where the corridor is that
// wide, the corridor's own half-width where it is not, never less than the radius, and never so
// much that its disc would swallow an end (an end nearer the wall than the preferred clearance).
struct PortalList {
    CorridorPortal* p;
    uint32_t n, capacity;
    double radius, preferred;
    P start, goal;
    bool overflow, narrow;
    bool exact = true; // every edge's corridor known exactly (else every line is checked)

    double sideRadius(P wall, double clearance) const {
        if (!(preferred > radius)) return radius; // the common case: no distances needed
        const double wide = minOf(minOf(preferred, clearance), minOf(norm(start - wall), norm(goal - wall)));
        return maxOf(radius, wide);
    }
    // The point `r` from the wall towards `at`, `length` = |at - wall| away.
    static P towards(P wall, P at, double length, double r) {
        return length > 0.0 ? wall + (at - wall) * (r / length) : wall;
    }
    LayerCrossings crossings = {}; // the route's changes of layer, in order
    bool gap = false;              // a stretch of unknown corridor since the last portal

    void skipped() {
        exact = false;
        gap = true;
    }
    // Inlined into the edge walks (a call passing the points in registers and reloading them
    // costs a store-forwarding stall per portal: corridor phase 0.75 -> 1.8 us on dungeon).
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    void
    push(P left, P right, P at) {
        // A link's sides are its own points (left == right): no portal, and nothing known there.
        if ((left.x == right.x && left.y == right.y) ||
            (crossings.count > 0 && crossings.onBoundary(left, right)))
            return skipped();
        if (n > 0 && p[n - 1].left.x == left.x && p[n - 1].left.y == left.y && p[n - 1].right.x == right.x &&
            p[n - 1].right.y == right.y)
            return;
        if (n == capacity) {
            overflow = true;
            return;
        }
        const double dl = norm(left - at), dr = norm(right - at), clearance = minOf(dl, dr);
        // A narrower edge near a snap (its clear stretch was checked, not its width).
        if (!(clearance >= radius * (1.0 - 1e-6) - 1e-9)) narrow = true;
        const double rl = sideRadius(left, clearance), rr = sideRadius(right, clearance);
        p[n++] =
            CorridorPortal{left, right, towards(left, at, dl, rl), towards(right, at, dr, rr), rl, rr, gap};
        gap = false;
    }
};

// Rounds of wall checks (each adds a disc for every line that fails) before giving up.
constexpr uint32_t kLineChecks = 8;

struct Sides {
    P left, right;
};

Sides pointSides(const fb::Roadmap& rm, uint32_t index, bool forward) {
    const fb::PointSides* s = rm.point_sides()->Get(index);
    const P l{s->left_x(), s->left_y()}, r{s->right_x(), s->right_y()};
    return forward ? Sides{l, r} : Sides{r, l};
}

fb::EdgeCorridor corridorKind(const fb::Roadmap& rm, uint32_t edge) {
    return rm.edge_corridor() ? rm.edge_corridor()->Get(edge) : fb::EdgeCorridor::Unchecked;
}

// A merged chain's whole corridor in the direction of travel: its straight edge is not the
// medial axis, so a snap on it has no portal of its own; trimPortalEnds drops the samples an end
// has already passed.
void pushChainPortals(PortalList& list, const fb::Roadmap& rm, uint32_t edge, bool forward) {
    const uint32_t first = rm.corridor_starts()->Get(edge), end = rm.corridor_starts()->Get(edge + 1);
    for (uint32_t k = 0; k < end - first; ++k) {
        const fb::CorridorPoint* c = rm.corridor_points()->Get(forward ? first + k : end - 1 - k);
        const P l{c->left_x(), c->left_y()}, r{c->right_x(), c->right_y()};
        list.push(forward ? l : r, forward ? r : l, P{c->x(), c->y()});
    }
}

// Points from..to (inclusive) of an edge in the direction of travel; nothing when empty. Only
// the two ends: an edge is one bisector of two wall features (a parabola's chord points share
// them), so the portals between its ends cut the same region into thinner slices and add no
// wall piece the ends' do not already bound.
void pushPortals(PortalList& list, const fb::Roadmap& rm, uint32_t edge, int64_t from, int64_t to,
                 bool forward) {
    const fb::RoadmapEdge* e = rm.edges()->Get(edge);
    const fb::EdgeCorridor kind = corridorKind(rm, edge);
    if (kind == fb::EdgeCorridor::Unchecked) list.exact = false;
    // An across edge stands for the whole boundary between its layers (the path may cross it
    // anywhere): no portal, the layer walk splits the path where it crosses.
    if (e->portal()) return list.skipped();
    if (kind == fb::EdgeCorridor::Chain) return pushChainPortals(list, rm, edge, forward);
    if (forward ? from > to : from < to) return;
    for (const int64_t k : {from, to}) {
        const uint32_t index = e->first_point() + uint32_t(k);
        const Sides s = pointSides(rm, index, forward);
        list.push(s.left, s.right, pt(rm.points()->Get(index)));
        if (from == to) break;
    }
}

// The portal at a snapped end: both sides move linearly along one wall feature within a piece.
void pushSnapPortal(PortalList& list, const fb::Roadmap& rm, const RoadmapPoint& q, bool forward) {
    const fb::EdgeCorridor kind = corridorKind(rm, q.edge);
    if (kind == fb::EdgeCorridor::Unchecked) list.exact = false;
    if (kind == fb::EdgeCorridor::Chain) return; // its samples are listed with the edge's
    const uint32_t first = rm.edges()->Get(q.edge)->first_point() + q.piece;
    const Sides a = pointSides(rm, first, forward), b = pointSides(rm, first + 1, forward);
    list.push(a.left + (b.left - a.left) * q.t, a.right + (b.right - a.right) * q.t,
              P{q.position.x, q.position.y});
}

// Routes may change layer (the connection is a portal of the corridor), but an end snapped onto
// a connection's own edge has no corridor round it.
bool endsOffConnections(const PathQuery& q) {
    return !q.es->portal() && !q.eg->portal();
}

// Every portal from the start snap to the goal snap, in the order the route crosses them.
bool listPortals(PathQuery& q, PortalList& list) {
    const fb::Roadmap& rm = q.rm;
    const RoadmapPoint &qs = q.qs, &qg = q.qg;
    const int64_t ns = q.es->point_count(), ng = q.eg->point_count();
    list.crossings.footprint = rm.footprint();
    uint32_t at_vertex = q.start_forward ? q.es->b() : q.es->a();
    for (uint32_t i = 0; i < q.route_count; ++i) {
        const fb::RoadmapEdge& e = *rm.edges()->Get(q.s.route[i]);
        const uint32_t next = otherEnd(e, at_vertex);
        if (e.portal()) {
            LayerCrossings& c = list.crossings;
            if (c.count == LayerCrossings::kMax) return false; // not worth the room
            c.from[c.count] = rm.vertices()->Get(at_vertex)->layer();
            c.to[c.count++] = rm.vertices()->Get(next)->layer();
        }
        at_vertex = next;
    }
    pushSnapPortal(list, rm, qs, q.start_forward);
    if (q.best_vertex == kNone) {
        if (q.start_forward)
            pushPortals(list, rm, qs.edge, int64_t(qs.piece) + 1, int64_t(qg.piece), true);
        else
            pushPortals(list, rm, qs.edge, int64_t(qs.piece), int64_t(qg.piece) + 1, false);
    } else {
        if (q.start_forward)
            pushPortals(list, rm, qs.edge, int64_t(qs.piece) + 1, ns - 1, true);
        else
            pushPortals(list, rm, qs.edge, int64_t(qs.piece), 0, false);
        uint32_t at = q.start_forward ? q.es->b() : q.es->a();
        for (uint32_t i = 0; i < q.route_count; ++i) {
            const uint32_t edge = q.s.route[i];
            const fb::RoadmapEdge& e = *rm.edges()->Get(edge);
            const bool forward = e.a() == at;
            const int64_t n = e.point_count();
            pushPortals(list, rm, edge, forward ? 0 : n - 1, forward ? n - 1 : 0, forward);
            at = otherEnd(e, at);
        }
        if (q.goal_from_a)
            pushPortals(list, rm, qg.edge, 0, int64_t(qg.piece), true);
        else
            pushPortals(list, rm, qg.edge, ng - 1, int64_t(qg.piece) + 1, false);
    }
    pushSnapPortal(list, rm, qg, q.goal_from_a);
    return !list.overflow;
}

// Drops the portals the start has already passed and those beyond the goal: an end snaps onto
// the roadmap from the side, and a funnel must not turn back through a portal behind it.
void trimPortalEnds(PortalList& list, P start, P goal, uint32_t* first) {
    uint32_t a = 0, b = list.n;
    auto ahead = [&](uint32_t i, P point) {
        return cross(list.p[i].right_end - list.p[i].left_end, point - list.p[i].left_end);
    };
    while (a < b && ahead(a, start) > 0.0)
        ++a;
    while (b > a && ahead(b - 1, goal) < 0.0)
        --b;
    *first = a;
    list.n = b;
}

// One disc per wall point: where consecutive portals share a wall point (a vertex seen along a
// parabolic stretch) at different preferred radii, all take the smallest, so every portal stays
// open and the tightening sees one circle there, not several concentric ones.
void shareWallRadii(PortalList& list, uint32_t first) {
    for (int side = 0; side < 2; ++side) {
        auto wall = [&](uint32_t k) { return side == 0 ? list.p[k].left : list.p[k].right; };
        auto radius = [&](uint32_t k) -> double& {
            return side == 0 ? list.p[k].left_radius : list.p[k].right_radius;
        };
        auto end = [&](uint32_t k) -> P& { return side == 0 ? list.p[k].left_end : list.p[k].right_end; };
        for (uint32_t i = first; i < list.n;) {
            uint32_t j = i + 1;
            double smallest = radius(i);
            while (j < list.n && wall(j).x == wall(i).x && wall(j).y == wall(i).y)
                smallest = minOf(smallest, radius(j++));
            for (uint32_t k = i; k < j; ++k) {
                if (radius(k) > smallest) end(k) = wall(k) + (end(k) - wall(k)) * (smallest / radius(k));
                radius(k) = smallest;
            }
            i = j;
        }
    }
}

// The signed angle a path turns round `disc` from unit u_in to u_out: with the disc's side (left:
// counter-clockwise), past pi where it wraps that far; a rounding-sized turn the other way is kept
// as it is (no arc).
double wrapTurn(P u_in, P u_out, const CorridorWrap& disc) {
    const double turn = turnAngle(u_in, u_out);
    return turn * disc.side < -1e-7 ? turn + 2.0 * 3.14159265358979323846 * disc.side : turn;
}

// Where segment a -> b crosses the portal's line (through its two wall points), as a point of
// the segment; b when it does not cross it.
P portalCrossing(const CorridorPortal& portal, P a, P b) {
    const P d = portal.right - portal.left;
    const double den = cross(b - a, d);
    if (den == 0.0) return b;
    const double t = cross(portal.left - a, d) / den;
    return t > 0.0 && t < 1.0 ? a + (b - a) * t : b;
}

// The path's layers, walked in path order: it crosses the route's boundaries between layers in
// their order, and each line or arc that meets the next one (any connection between those two
// layers) is split there.
struct LayerWalk {
    const LayerCrossings& crossings;
    uint32_t next = 0, layer;

    LayerWalk(const LayerCrossings& c, uint32_t start_layer) : crossings(c), layer(start_layer) {}

    void crossNext() { layer = crossings.to[next++]; }
    // Calls meet(c0, c1) for every connection of the next boundary.
    template <class Meet> void forEachPiece(Meet&& meet) const {
        for (const fb::Connection* c : *crossings.footprint->connections())
            if (LayerCrossings::between(*c, crossings.from[next], crossings.to[next]))
                meet(P{c->x0(), c->y0()}, P{c->x1(), c->y1()});
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

// Walks the path's lines and arcs in order, each split where it changes layer (false as well
// when the path does not cross every boundary the route crosses):
// line(j, a, b, walk) for the stretches of line j (into wraps[j], or the goal for j = n), and
// arc(w, from, to, sweep, turn, walk) for those of the arc round wraps[w] (`turn` its whole turn).
// False as soon as a callback is.
template <class Line, class Arc>
bool walkPath(const PathQuery& q, const LayerCrossings& crossings, const CorridorWrap* wraps, uint32_t n,
              Line&& line, Arc&& arc) {
    LayerWalk walk(crossings, q.start.layer);
    const CorridorWrap start{q.ps, 0.0, kNone, 0, true}, goal{q.pg, 0.0, kNone, 0, true};
    P cursor = q.ps, u_in{0, 0};
    for (uint32_t j = 0; j <= n; ++j) {
        const CorridorWrap& from = j == 0 ? start : wraps[j - 1];
        const CorridorTangent t = corridorTangent(from, j == n ? goal : wraps[j]);
        if (j > 0 && from.r > 0.0) {
            const double turn = wrapTurn(u_in, t.u, from);
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

// Lines tangent to the wrapped discs and arcs round them, from the start to the goal.
void emitWraps(PathQuery& q, const LayerCrossings& crossings, const CorridorWrap* wraps, uint32_t count) {
    walkPath(
        q, crossings, wraps, count,
        [&](uint32_t j, P a, P b, const LayerWalk& walk) {
            if (norm(b - a) > 0.0 || (j == count && q.emitter.count == 0))
                q.emitter.emit(lineSegment(a, b, walk.layer));
            return true;
        },
        [&](uint32_t w, P a, P b, double sweep, double, const LayerWalk& walk) {
            if (sweep != 0.0) q.emitter.emit(arcSegment(a, b, wraps[w].c, wraps[w].r, sweep, walk.layer));
            return true;
        });
}

} // namespace

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

// Whether stretch a -> b of line j needs the walls. In an exact corridor only the stretches from
// an end to the corridor's first (last) portal do: between portals the corridor's sides bound the
// line, and the tightening kept it clear of them.
bool lineStretchClear(const PathQuery& q, const CorridorPortal* portals, uint32_t count, bool exact,
                      uint32_t j, uint32_t n, P a, P b, uint32_t layer, double check) {
    if (!exact || count == 0) return segmentClear(LayerWalls{q.rm, q.s, layer}, a, b, check);
    if (j == 0 && !segmentClear(LayerWalls{q.rm, q.s, layer}, a, portalCrossing(portals[0], a, b), check))
        return false;
    return j != n ||
           segmentClear(LayerWalls{q.rm, q.s, layer}, portalCrossing(portals[count - 1], b, a), b, check);
}

// The path's stretches too close to a wall: every line stretch (into `lines`, at most `room`), and,
// when none is, the first arc stretch. In an exact corridor an inner arc at the radius is clear by
// construction; a larger preferred radius sweeping wide, or an end's approach, may not be. False
// when an end disc wraps beyond kEndWrapLimit (nothing to repair: the route leaves that end
// backwards) or the path misses a boundary between layers the route crosses.
bool findTooClose(const PathQuery& q, const CorridorPortal* portals, uint32_t count,
                  const LayerCrossings& crossings, bool exact, const CorridorWrap* wraps, uint32_t n,
                  double check, TooClose* lines, uint32_t room, uint32_t* found) {
    *found = 0;
    auto portalAt = [&](uint32_t j) { return j > 0 ? wraps[j - 1].portal : 0; };
    const bool crossed_all = walkPath(
        q, crossings, wraps, n,
        [&](uint32_t j, P a, P b, const LayerWalk& walk) {
            if (!lineStretchClear(q, portals, count, exact, j, n, a, b, walk.layer, check) && *found < room)
                lines[(*found)++] = TooClose{false, j, walk.layer, portalAt(j), a, b, 0.0};
            return true;
        },
        [](uint32_t, P, P, double, double, const LayerWalk&) { return true; });
    if (!crossed_all) return false;
    if (*found > 0) return true;
    bool wrapped_back = false;
    walkPath(
        q, crossings, wraps, n, [](uint32_t, P, P, const LayerWalk&) { return true; },
        [&](uint32_t w, P a, P, double sweep, double turn, const LayerWalk& walk) {
            if ((w == 0 || w + 1 == n) && std::fabs(turn) > kEndWrapLimit) return !(wrapped_back = true);
            if ((exact && w > 0 && w + 1 < n && wraps[w].r == q.radius) ||
                wallsArcClear(q.rm, q.s, walk.layer, wraps[w].c, a, sweep, check))
                return true;
            lines[(*found)++] = TooClose{true, w, walk.layer, portalAt(w + 1), a, {}, sweep};
            return false;
        });
    return !wrapped_back;
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

// The path against the walls of the layers it crosses (see findTooClose for what is looked at).
// Each line that comes too close gets a disc round the wall point it meets, else the first arc
// that does; then the path is tightened again.
bool verifyLines(PathQuery& q, const CorridorPortal* portals, uint32_t count, const LayerCrossings& crossings,
                 bool exact, CorridorWrap* wraps, uint32_t* n, uint32_t capacity) {
    const double check = q.radius * (1.0 - 1e-9);
    constexpr uint32_t kRoom = 16;
    TooClose close[kRoom];
    for (uint32_t attempt = 0; attempt < kLineChecks; ++attempt) {
        uint32_t found = 0;
        if (!findTooClose(q, portals, count, crossings, exact, wraps, *n, check, close, kRoom, &found))
            return false;
        if (found == 0) return true;
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
        if (*n == kNone) return false;
    }
    return false;
}

// The corridor path, when the asset has the sides and the route allows it (no avoided areas, no
// turn round a connection's end); false leaves the emitter untouched for the polyline shortening.
bool corridorPath(PathQuery& q) {
    PathScratch& s = q.s;
    if (!q.rm.point_sides() || s.area_count > 0 || !endsOffConnections(q)) return false;
    // The funnel's arrays share the polyline shortening's memory, unused on this path.
    static_assert(sizeof(CorridorPortal) <= sizeof(Corner) && sizeof(CorridorWrap) <= sizeof(Corner),
                  "portals and wraps fit in the corner arrays");
    auto* base = reinterpret_cast<unsigned char*>(s.relaxed_run);
    const uint32_t cap = s.corner_capacity;
    auto* wraps = reinterpret_cast<CorridorWrap*>(s.corners);
    // Preferred radii that overlap across a narrow stretch can leave no taut path: the extra
    // clearance is halved, then dropped (the radius alone always settles), so the answer stays
    // in this corridor and never beats the one at the radius.
    const double extra = maxOf(0.0, q.preferred_clearance - q.radius);
    for (const double share : {1.0, 0.5, 0.0}) {
        if (share < 1.0 && !(extra > 0.0)) break;
        PortalList list{reinterpret_cast<CorridorPortal*>(base),
                        0,
                        cap,
                        q.radius,
                        q.radius + share * extra,
                        q.ps,
                        q.pg,
                        false,
                        false};
        const bool listed = listPortals(q, list);
        phaseRoutePoints(list.n);
        if (!listed || list.narrow) return false;
        uint32_t first = 0;
        trimPortalEnds(list, q.ps, q.pg, &first);
        if (list.preferred > q.radius) shareWallRadii(list, first);
        phaseMark(Phase::Corridor);
        uint32_t n = corridorFunnel(list.p + first, list.n - first, q.ps, q.pg, wraps, cap);
        phaseMark(Phase::Funnel);
        if (n == kNone ||
            !verifyLines(q, list.p + first, list.n - first, list.crossings, list.exact, wraps, &n, cap))
            continue;
        phaseRoutePoints(n);
        phaseMark(Phase::Verify);
        emitWraps(q, list.crossings, wraps, n);
        phaseMark(Phase::Output);
        return true;
    }
    return false;
}

} // namespace detail
} // namespace clearway
