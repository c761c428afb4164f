// The A* route's shortest path with clearance through its corridor: portals from the asset's
// point sides, the funnel over them (corridor_funnel.cpp), lines and arcs round the wrapped discs.
// The Explicit Corridor Map (Geraerts, "Planning short paths with clearance using explicit
// corridors", 2010).
#include "path_query.h"

namespace clearway {
namespace detail {

namespace {

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
    void push(P left, P right, P at) {
        // The same two wall points as the portal before (the edges meeting at a vertex, most
        // often): the same cut, once.
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
        p[n++] = CorridorPortal{left, right, towards(left, at, dl, rl), towards(right, at, dr, rr), rl, rr};
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

bool routeOnOneLayer(const PathQuery& q) {
    if (q.start.layer != q.goal.layer || q.es->portal() || q.eg->portal()) return false;
    for (uint32_t i = 0; i < q.route_count; ++i)
        if (q.rm.edges()->Get(q.s.route[i])->portal()) return false;
    return true;
}

// Every portal from the start snap to the goal snap, in the order the route crosses them.
bool listPortals(PathQuery& q, PortalList& list) {
    const fb::Roadmap& rm = q.rm;
    const RoadmapPoint &qs = q.qs, &qg = q.qg;
    const int64_t ns = q.es->point_count(), ng = q.eg->point_count();
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

// Lines tangent to the wrapped discs and arcs round them, from the start to the goal.
void emitWraps(PathQuery& q, const CorridorWrap* wraps, uint32_t count) {
    const CorridorWrap start{q.ps, 0.0, kNone, 0, true}, goal{q.pg, 0.0, kNone, 0, true};
    P cursor = q.ps, u_in{0, 0};
    for (uint32_t j = 0; j <= count; ++j) {
        const CorridorWrap& from = j == 0 ? start : wraps[j - 1];
        const CorridorTangent t = corridorTangent(from, j == count ? goal : wraps[j]);
        if (j > 0 && from.r > 0.0) {
            const double turn = wrapTurn(u_in, t.u, from);
            if (turn * from.side > 1e-12) {
                q.emitter.emit(arcSegment(cursor, t.from, from.c, from.r, turn, q.start.layer));
                cursor = t.from;
            }
        }
        const P end = j == count ? q.pg : t.to;
        if (norm(end - cursor) > 0.0 || (j == count && q.emitter.count == 0)) {
            q.emitter.emit(lineSegment(cursor, end, q.start.layer));
            cursor = end;
        }
        u_in = t.u;
    }
}

} // namespace

// An end's first disc wrapped by more than this (radians) means the route leaves that end
// backwards (it snapped to the far side of a thin wall): the polyline shortening, which is not
// bound to the corridor, finds the way that does not go round.
constexpr double kEndWrapLimit = 0.75 * 3.14159265358979323846;

// The first arc of the path that comes too close to a wall: its disc's index, where it starts
// and how far it turns. failing = n when every arc is clear; kNone when an end disc wraps beyond
// kEndWrapLimit (nothing to repair: the route leaves that end backwards).
struct ArcCheck {
    uint32_t failing;
    P start;
    double turn;
};

// Arcs against the walls: an arc round a wall point the sides name keeps the clearance from it,
// but a wall the sides do not name (an inexact corridor, an end's approach from outside it) or a
// larger preferred radius sweeping wide may stand close. In an exact corridor an inner arc at the
// radius is clear by construction.
ArcCheck checkArcs(const PathQuery& q, const CorridorWrap* wraps, uint32_t n, bool exact, double check) {
    const CorridorWrap start{q.ps, 0.0, kNone, 0, true}, goal{q.pg, 0.0, kNone, 0, true};
    CorridorTangent in = corridorTangent(start, n > 0 ? wraps[0] : goal);
    for (uint32_t j = 0; j < n; ++j) {
        const CorridorTangent out = corridorTangent(wraps[j], j + 1 < n ? wraps[j + 1] : goal);
        const double turn = wrapTurn(in.u, out.u, wraps[j]);
        if ((j == 0 || j + 1 == n) && std::fabs(turn) > kEndWrapLimit) return {kNone, {}, 0.0};
        const bool inner_at_radius = exact && j > 0 && j + 1 < n && wraps[j].r == q.radius;
        if (turn * wraps[j].side > 1e-12 && !inner_at_radius &&
            !wallsArcClear(q.rm, q.s, q.start.layer, wraps[j].c, in.to, turn, check))
            return {j, in.to, turn};
        in = out;
    }
    return {n, {}, 0.0};
}

// A wall vertex closer than the clearance to the failing arc (not its own centre), searched along
// the arc's chords on both sides: the path wraps it too, on the side of the disc when it lies inside
// the disc's circle, else on the other, before or after the disc by where along the arc it lies.
// False when none is found (or there is no room).
bool wrapArcIntruder(PathQuery& q, const ArcCheck& arc, CorridorWrap* wraps, uint32_t* n, uint32_t capacity,
                     double check) {
    const CorridorWrap disc = wraps[arc.failing];
    const P end = disc.c + rotate(arc.start - disc.c, arc.turn);
    const uint32_t pieces = 1 + uint32_t(std::fabs(arc.turn) / 0.7853981633974483); // 45 degrees each
    const double sagitta = disc.r * (1.0 - std::cos(0.5 * arc.turn / pieces));
    double nearest = kInf; // below check for a vertex; any distance for a piece's end
    P found{};
    P from = arc.start;
    for (uint32_t k = 1; k <= pieces; ++k) {
        const P to = disc.c + rotate(arc.start - disc.c, arc.turn * k / pieces);
        const P band[4] = {from, from, to, to};
        for (const double side : {1.0, -1.0}) {
            P v;
            if (!wallsMostIntruding(q.rm, q.s, q.start.layer, from, to, check + sagitta, side, band, &v))
                continue;
            if (norm(v - disc.c) <= 1e-9 * (1.0 + norm(disc.c))) continue;
            const double gap = pointArcDistance(disc.c, disc.r, arc.start, end, arc.turn, v);
            if (gap < check && gap < nearest) nearest = gap, found = v;
        }
        from = to;
    }
    // No vertex within the clearance: a wall piece's inside is. A taut path touches a straight
    // wall only at its ends: the end of the nearest such piece nearer the arc.
    from = arc.start;
    for (uint32_t k = 1; k <= pieces && !(nearest < check); ++k) {
        const P to = disc.c + rotate(arc.start - disc.c, arc.turn * k / pieces);
        for (const double side : {1.0, -1.0}) {
            P p, c, d;
            if (!wallsNearestToSegment(q.rm, q.s, q.start.layer, from, to, check + sagitta, side, &p, &c,
                                       &d) ||
                !(pointArcDistance(disc.c, disc.r, arc.start, end, arc.turn, p) < check))
                continue;
            // A piece leaving the disc's own wall point: its other end is the one to wrap.
            auto own = [&](P e) { return norm(e - disc.c) <= 1e-9 * (1.0 + norm(disc.c)); };
            const double gc = own(c) ? kInf : pointArcDistance(disc.c, disc.r, arc.start, end, arc.turn, c);
            const double gd = own(d) ? kInf : pointArcDistance(disc.c, disc.r, arc.start, end, arc.turn, d);
            if (minOf(gc, gd) < nearest) nearest = minOf(gc, gd), found = gc <= gd ? c : d;
        }
        from = to;
    }
    if (!(nearest < kInf) || *n == capacity) return false;
    const bool inside = norm(found - disc.c) < disc.r;
    const int8_t side = inside ? disc.side : int8_t(-disc.side);
    // Inside the circle (a wall vertex beside the disc's own, as in a cluster): the line from the
    // disc to it runs along centre to vertex, so it comes after the disc when that direction lies
    // within the arc's turn from the arc's start direction. Outside: by where along the arc it lies.
    bool after;
    if (inside) {
        const double sense = arc.turn > 0.0 ? 1.0 : -1.0;
        const P r0 = arc.start - disc.c, heading{-r0.y * sense, r0.x * sense}, d = found - disc.c;
        const double a = std::atan2(cross(heading, d), dot(heading, d)) * sense;
        after = a >= 0.0 && a <= std::fabs(arc.turn);
    } else {
        after = angleAlong(disc.c, arc.start, arc.turn, found) > 0.5 * std::fabs(arc.turn);
    }
    const uint32_t at = arc.failing + (after ? 1 : 0);
    for (uint32_t k = *n; k > at; --k)
        wraps[k] = wraps[k - 1];
    // A vertex inside the circle is part of the same wall feature: the same radius.
    wraps[at] = CorridorWrap{found, inside ? disc.r : q.radius, disc.portal, side, false};
    ++*n;
    if (at + 1 < *n) wraps[at + 1].clean = false;
    return true;
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

// Whether line a -> b keeps the clearance. In an exact corridor only the stretches from an end to
// the corridor's first (last) portal need the walls: between portals the corridor's sides bound
// the line, and the tightening kept it clear of them.
bool lineClear(const LayerWalls& walls, const CorridorPortal* portals, uint32_t count, bool exact,
               bool first_line, bool last_line, P a, P b, double check) {
    if (!exact || count == 0) return segmentClear(walls, a, b, check);
    if (first_line && !segmentClear(walls, a, portalCrossing(portals[0], a, b), check)) return false;
    return !last_line || segmentClear(walls, portalCrossing(portals[count - 1], b, a), b, check);
}

// Lines against the layer's walls through the wall grid (lineClear): every line when some edge's
// corridor is not known exactly (a wall its sides do not name can stand near a line there), else
// only where the start and goal reach the corridor from outside it. Each line that comes too close
// gets a disc round the wall point nearest it, and the path is tightened again.
bool verifyLines(PathQuery& q, const CorridorPortal* portals, uint32_t count, bool exact, CorridorWrap* wraps,
                 uint32_t* n, uint32_t capacity) {
    const LayerWalls walls{q.rm, q.s, q.start.layer};
    const double check = q.radius * (1.0 - 1e-9);
    const CorridorWrap start{q.ps, 0.0, kNone, 0, true}, goal{q.pg, 0.0, kNone, 0, true};
    for (uint32_t attempt = 0; attempt < kLineChecks; ++attempt) {
        bool added = false;
        for (uint32_t j = *n + 1; j-- > 0;) { // from the goal back: insertions keep lower indices
            const CorridorTangent t =
                corridorTangent(j == 0 ? start : wraps[j - 1], j == *n ? goal : wraps[j]);
            const P a = j == 0 ? q.ps : t.from, b = j == *n ? q.pg : t.to;
            if (lineClear(walls, portals, count, exact, j == 0, j == *n, a, b, check)) continue;
            // The wall vertex that intrudes most (a taut path wraps vertices; a point inside a wall
            // piece would only creep along it), else the nearest wall point.
            P left{}, right{};
            const P band[4] = {a, a, b, b};
            // Only a vertex on that side and inside the clearance (the search also names vertices
            // beyond the line, and the line's own tangent discs).
            auto intrudes = [&](P v, double side) {
                return side * cross(b - a, v - a) > 0.0 && pointSegment2(v, a, b, nullptr) < check * check;
            };
            bool l = wallsMostIntruding(q.rm, q.s, q.start.layer, a, b, q.radius, 1.0, band, &left) &&
                     intrudes(left, 1.0);
            bool r = wallsMostIntruding(q.rm, q.s, q.start.layer, a, b, q.radius, -1.0, band, &right) &&
                     intrudes(right, -1.0);
            if (!l && !r) {
                // No vertex within the band: the line comes near a wall piece's inside. A taut path
                // touches a straight wall only at its ends: the end nearer the line.
                P lc{}, ld{}, rc{}, rd{};
                l = wallsNearestToSegment(q.rm, q.s, q.start.layer, a, b, q.radius, 1.0, &left, &lc, &ld);
                r = wallsNearestToSegment(q.rm, q.s, q.start.layer, a, b, q.radius, -1.0, &right, &rc, &rd);
                auto nearerEnd = [&](P c, P d) {
                    return pointSegment2(c, a, b, nullptr) <= pointSegment2(d, a, b, nullptr) ? c : d;
                };
                if (l) left = nearerEnd(lc, ld);
                if (r) right = nearerEnd(rc, rd);
            }
            if ((!l && !r) || *n == capacity) return false; // crossing a wall outright: not a corridor path
            const bool use_left =
                l && (!r || pointSegment2(left, a, b, nullptr) <= pointSegment2(right, a, b, nullptr));
            const uint32_t portal = j > 0 ? wraps[j - 1].portal : 0;
            for (uint32_t k = *n; k > j; --k)
                wraps[k] = wraps[k - 1];
            wraps[j] =
                CorridorWrap{use_left ? left : right, q.radius, portal, int8_t(use_left ? 1 : -1), false};
            ++*n;
            if (j + 1 < *n) wraps[j + 1].clean = false;
            added = true;
        }
        if (!added) {
            const ArcCheck arc = checkArcs(q, wraps, *n, exact, check);
            if (arc.failing == *n) return true;
            if (arc.failing == kNone || !wrapArcIntruder(q, arc, wraps, n, capacity, check)) return false;
        }
        *n = corridorTighten(portals, count, q.ps, q.pg, wraps, *n, capacity);
        if (*n == kNone) return false;
    }
    return false;
}

// The corridor path, when the asset has the sides and the route allows it (one layer, no
// avoided areas); false leaves the emitter untouched for the polyline shortening.
bool corridorPath(PathQuery& q) {
    PathScratch& s = q.s;
    if (!q.rm.point_sides() || s.area_count > 0 || !routeOnOneLayer(q)) return false;
    // The funnel's arrays share the shortening's fallback memory, unused on this path.
    static_assert(sizeof(CorridorPortal) + sizeof(CorridorWrap) <= sizeof(Corner),
                  "portals and wraps fit in the relaxed-run array");
    auto* base = reinterpret_cast<unsigned char*>(s.relaxed_run);
    const uint32_t cap = s.corner_capacity;
    auto* wraps = reinterpret_cast<CorridorWrap*>(base + size_t(cap) * sizeof(CorridorPortal));
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
        if (n == kNone || !verifyLines(q, list.p + first, list.n - first, list.exact, wraps, &n, cap))
            continue;
        phaseRoutePoints(n);
        phaseMark(Phase::Verify);
        emitWraps(q, wraps, n);
        phaseMark(Phase::Output);
        return true;
    }
    return false;
}

} // namespace detail
} // namespace clearway
