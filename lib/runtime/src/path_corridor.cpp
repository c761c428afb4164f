// The A* route's shortest path with clearance through its corridor: portals from the asset's
// point sides, the funnel over them (corridor_funnel.cpp), lines and arcs round the wrapped discs.
// The Explicit Corridor Map (Geraerts, "Planning short paths with clearance using explicit
// corridors", 2010).
#include "corridor_walk.h"

#include <algorithm>

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
    // The stretch since the last portal lies along an edge whose corridor was not checked, and
    // whether the edge being listed is such an edge.
    bool unchecked = false, edge_unchecked = false;
    // A last try after a missed boundary (corridorAttempt's Crossing::TurnBack): whether a route
    // goes round an end of a connection portal is read from the portal's line alone, and how many
    // portals round an end that added.
    bool turn_back = false;
    uint32_t turned = 0;
    bool exact = true; // no stretch open or unchecked: every line between portals is bounded
    // The portals listed before the route's first boundary between layers and after its last:
    // only those may be trimmed at the ends (a route that climbs a ramp and turns back over the
    // floor below passes portals behind its goal in plan, on the other layer).
    uint32_t before_crossing = kNone, after_crossing = 0;

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

    void skipped() { gap = true, exact = false; }
    // Where the route comes from: the last portal's middle, else the start.
    P behind() const { return n > 0 ? (p[n - 1].left_end + p[n - 1].right_end) * 0.5 : start; }
    // Before listing an edge's portals: whether the bake checked its corridor.
    void startEdge(fb::EdgeCorridor kind) {
        edge_unchecked = kind == fb::EdgeCorridor::Unchecked;
        unchecked = unchecked || edge_unchecked;
        exact = exact && !edge_unchecked;
    }
    void added() { // after a portal: what the stretch up to the next one is
        gap = false;
        unchecked = edge_unchecked;
    }
    // A portal whose wall points lie on a crossed boundary by design (a connection's two ends).
    void pushAcross(P left, P right) {
        if (n == capacity) {
            overflow = true;
            return;
        }
        const P middle = (left + right) * 0.5;
        const double half = norm(right - left) * 0.5;
        const double rl = sideRadius(left, half), rr = sideRadius(right, half);
        p[n++] = CorridorPortal{left, right, towards(left, middle, half, rl), towards(right, middle, half, rr),
                                rl, rr, gap, true};
        gap = true; // its sides say nothing about the stretch up to the next portal
    }
    // Before pushAcross(left, right) when the route comes from beyond that portal's line (`from`,
    // where the layer it leaves wraps round an end of the connections' polyline): a portal from the
    // end nearer `from` out along the line, so the funnel goes round that end first and meets the
    // portal from its own side. Its outer point is no wall (radius 0), far enough never to be
    // wrapped by a taut path.
    void pushAround(P left, P right, P from) {
        if (n == capacity) {
            overflow = true;
            return;
        }
        if (aroundPortal(left, right, from, gap, &p[n])) ++n;
        gap = true;
    }
    // The portal pushAround adds for the portal (left, right) and a point `beyond` on the far side
    // of one of its ends; false when the portal has no width. (Both sides of the line read it the
    // same way: a route coming from past the line, or one going back past it, meets it from the
    // side the line's own portal is not crossed from.)
    bool aroundPortal(P left, P right, P beyond, bool open_before, CorridorPortal* out) const {
        const bool round_left = norm(beyond - left) <= norm(beyond - right);
        const P end = round_left ? left : right, other = round_left ? right : left;
        const double width = norm(end - other);
        if (!(width > 0.0)) return false;
        const P outer = end + (end - other) * ((norm(beyond - end) + width) / width);
        const double r = sideRadius(end, 0.5 * width);
        const P inner = towards(end, outer, norm(outer - end), r);
        *out = round_left ? CorridorPortal{end, outer, inner, outer, r, 0.0, open_before, true}
                          : CorridorPortal{outer, end, outer, inner, 0.0, r, open_before, true};
        return true;
    }
    // Where the connection portals are in the list, for turnBackAfterCrossings.
    uint32_t across[LayerCrossings::kMax] = {};
    uint32_t across_count = 0;
    // Inlined into the edge walks (a call passing the points in registers and reloading them
    // costs a store-forwarding stall per portal: corridor phase 0.75 -> 1.8 us on dungeon).
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    void
    push(P left, P right, P at) {
        pushMeasured(left, right, at, norm(left - at), norm(right - at));
    }
    // The same with the distances from `at` to each side already known (dl, dr).
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    void
    pushMeasured(P left, P right, P at, double dl, double dr) {
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
        const double clearance = minOf(dl, dr);
        // A narrower edge near a snap (its clear stretch was checked, not its width).
        if (!(clearance >= radius * (1.0 - 1e-6) - 1e-9)) narrow = true;
        const double rl = sideRadius(left, clearance), rr = sideRadius(right, clearance);
        p[n++] = CorridorPortal{left,     right, towards(left, at, dl, rl), towards(right, at, dr, rr), rl, rr,
                                gap,      gap || unchecked};
        added();
    }
};

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

// Where the route changes layer along an across edge, the corridor's sides are the walls at the
// two ends of the connections' polyline it crosses (the floor goes on across every piece of it):
// a portal between those ends makes the path reach the boundary, instead of turning back before
// it through the stretch whose sides lay on the boundary and were dropped (its AcrossPortal). The
// side of the crossed piece the route comes from is the one where the layer it leaves lies, probed
// at init; where the probes did not tell (a feature within the centimetre), the side of the last
// portal's middle, else of the start: far from the piece that may be the wrong one (a polyline of
// connections bent round a ramp's foot puts the last portal beyond the line through the piece),
// and the path would wrap the polyline's end on the side where the wall goes on. False when the
// edge meets no connection between its layers, or their polyline is a closed loop.
bool pushConnectionPortal(PortalList& list, const PathScratch& s, uint32_t edge, bool forward) {
    if (s.across_index[edge] == kNone) return false;
    const AcrossPortal& x = s.across[s.across_index[edge]];
    const P c0 = x.c0, c1 = x.c1;
    const double side =
        x.side[forward ? 0 : 1] != 0 ? double(x.side[forward ? 0 : 1]) : cross(c1 - c0, list.behind() - c0);
    if (side == 0.0) return false;
    // Coming from the left of c0 -> c1, the route crosses it to the right: c1's end is on its left.
    const P left = side > 0.0 ? x.end1 : x.end0, right = side > 0.0 ? x.end0 : x.end1;
    // The route comes from beyond both the crossed piece and the portal's line: round an end. (A
    // start there may lie between the polyline and that line: the trimming decides.) On the last
    // try beyond the line alone: past a bent polyline the crossed piece's own line may not tell.
    const P behind = list.behind();
    const bool beyond_piece = side * cross(c1 - c0, behind - c0) < 0.0;
    if (list.n > 0 && (beyond_piece || list.turn_back) && cross(right - left, behind - left) > 0.0) {
        list.pushAround(left, right, behind);
        list.turned += !beyond_piece;
    }
    list.pushAcross(left, right);
    if (!list.overflow && list.across_count < LayerCrossings::kMax)
        list.across[list.across_count++] = list.n - 1;
    return true;
}

// Points from..to (inclusive) of an edge in the direction of travel; nothing when empty. Only
// the two ends: an edge is one bisector of two wall features (a parabola's chord points share
// them), so the portals between its ends cut the same region into thinner slices and add no
// wall piece the ends' do not already bound. For the start and goal edges (never across edges).
void pushPortals(PortalList& list, const fb::Roadmap& rm, uint32_t edge, int64_t from, int64_t to,
                 bool forward) {
    const fb::RoadmapEdge* e = rm.edges()->Get(edge);
    const fb::EdgeCorridor kind = corridorKind(rm, edge);
    list.startEdge(kind);
    if (kind == fb::EdgeCorridor::Chain) return pushChainPortals(list, rm, edge, forward);
    if (forward ? from > to : from < to) return;
    for (const int64_t k : {from, to}) {
        const uint32_t index = e->first_point() + uint32_t(k);
        const Sides s = pointSides(rm, index, forward);
        list.push(s.left, s.right, pt(rm.points()->Get(index)));
        if (from == to) break;
    }
}

// A route edge run over as a whole: its seeds (buildPortalSeeds) in the direction of travel, the
// same portals pushPortals gives it without measuring them again. Inlined into the route walk, as
// PortalList::push (out of line it costs about a thousand instructions per dungeon query).
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline void
pushWholeEdge(PortalList& list, const PathScratch& s, const fb::Roadmap& rm, uint32_t edge, bool forward) {
    const fb::RoadmapEdge* e = rm.edges()->Get(edge);
    list.startEdge(corridorKind(rm, edge));
    // An across edge stands for the whole boundary between its layers (the path may cross it
    // anywhere): one portal between the walls at its ends; the layer walk splits the path where
    // it crosses.
    if (e->portal()) {
        if (list.before_crossing == kNone) list.before_crossing = list.n;
        list.skipped();
        if (!pushConnectionPortal(list, s, edge, forward)) list.skipped();
        list.after_crossing = list.n;
        return;
    }
    const uint32_t first = s.seed_start[edge], end = s.seed_start[edge + 1];
    for (uint32_t k = 0; k < end - first; ++k) {
        const PortalSeed& seed = s.seeds[forward ? first + k : end - 1 - k];
        const P l{seed.left_x, seed.left_y}, r{seed.right_x, seed.right_y}, at{seed.at_x, seed.at_y};
        if (forward)
            list.pushMeasured(l, r, at, seed.to_left, seed.to_right);
        else
            list.pushMeasured(r, l, at, seed.to_right, seed.to_left);
    }
}

// The portal at a snapped end: both sides move linearly along one wall feature within a piece.
void pushSnapPortal(PortalList& list, const fb::Roadmap& rm, const RoadmapPoint& q, bool forward) {
    const fb::EdgeCorridor kind = corridorKind(rm, q.edge);
    list.startEdge(kind);
    if (kind == fb::EdgeCorridor::Chain) return; // its samples are listed with the edge's
    const uint32_t first = rm.edges()->Get(q.edge)->first_point() + q.piece;
    const Sides a = pointSides(rm, first, forward), b = pointSides(rm, first + 1, forward);
    list.push(a.left + (b.left - a.left) * q.t, a.right + (b.right - a.right) * q.t,
              P{q.position.x, q.position.y});
}

// Routes may change layer (the layer walk splits the path at the boundary), but an end snapped onto
// a connection's own edge has no corridor round it.
bool endsOffConnections(const PathQuery& q) {
    return !q.es->portal() && !q.eg->portal();
}

// After a connection portal, a route that goes back behind it (the next portal, or the goal, lies
// before the portal's line: it crosses the polyline of connections and turns back round one of its
// ends, as off a raised floor's side onto the floor beside it) meets next a portal from that end
// out along the line, as pushAround's on the way in: else the next portal lies behind the funnel's
// apex and the funnel, which only turns within a half-plane, cuts straight past the boundary.
void turnBackAfterCrossings(PortalList& list) {
    for (uint32_t k = list.across_count; k-- > 0;) {
        const uint32_t at = list.across[k];
        const CorridorPortal& portal = list.p[at];
        const P next = at + 1 < list.n ? (list.p[at + 1].left_end + list.p[at + 1].right_end) * 0.5 : list.goal;
        if (!(cross(portal.right - portal.left, next - portal.left) < 0.0)) continue;
        if (list.n == list.capacity) {
            list.overflow = true;
            return;
        }
        CorridorPortal around;
        if (!list.aroundPortal(portal.left, portal.right, next, true, &around)) continue;
        for (uint32_t i = list.n; i > at + 1; --i)
            list.p[i] = list.p[i - 1];
        list.p[at + 1] = around;
        ++list.n;
        if (at + 1 <= list.after_crossing) ++list.after_crossing;
        ++list.turned;
    }
}

// Every portal from the start snap to the goal snap, in the order the route crosses them.
bool listPortals(PathQuery& q, PortalList& list) {
    const fb::Roadmap& rm = q.rm;
    const RoadmapPoint &qs = q.qs, &qg = q.qg;
    const int64_t ns = q.es->point_count(), ng = q.eg->point_count();
    list.crossings.pieces = q.s.boundary_pieces;
    list.crossings.piece_count = q.s.boundary_piece_count;
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
    if (list.crossings.count > 0) list.crossings.boundBoundaries();
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
            pushWholeEdge(list, q.s, rm, edge, forward);
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

// Whether `point` lies beside a portal whose wall points both lie towards `end_side` (> 0 behind the
// portal, < 0 ahead): the portal of a branch into a shallow corner (its two walls meet at more than
// 90 degrees of floor), whose region towards the walls is the wedge between them and the route
// point, not the half-plane past its line. An end snapped onto such a branch from beside the wedge
// has not come through that portal (its straight line to the snap is checked against the walls).
bool besideCornerPortal(const CorridorPortal& portal, P point, double end_side) {
    const P u = portal.left_end - portal.left, v = portal.right_end - portal.right; // towards the route point
    if (!(dot(u, v) > 0.0) || !(end_side * cross(portal.right_end - portal.left_end, u) > 0.0)) return false;
    const P l = portal.left, r = portal.right;
    return cross(u, point - l) * cross(u, r - l) < 0.0 || cross(v, point - r) * cross(v, l - r) < 0.0;
}

// Drops the portals the start has already passed and those beyond the goal: an end snaps onto
// the roadmap from the side, and a funnel must not turn back through a portal behind it (nor
// through a corner branch's portal it lies beside, besideCornerPortal). With
// `keep_crossing`, only the portals before the route's first boundary between layers and after its
// last go: a route that climbs a ramp and turns back over the floor below passes portals behind its
// goal (or start) in plan, on the other layer. False when that keeps nothing more.
bool trimPortalEnds(PortalList& list, P start, P goal, bool keep_crossing, uint32_t* first) {
    const uint32_t start_limit = keep_crossing ? list.before_crossing : kNone;
    const uint32_t goal_limit = keep_crossing ? list.after_crossing : 0;
    uint32_t a = 0, b = list.n;
    auto ahead = [&](uint32_t i, P point) {
        return cross(list.p[i].right_end - list.p[i].left_end, point - list.p[i].left_end);
    };
    bool kept = false;
    while (a < b && (ahead(a, start) > 0.0 || besideCornerPortal(list.p[a], start, 1.0))) {
        if (a >= start_limit) {
            kept = true;
            break;
        }
        ++a;
    }
    while (b > a && (ahead(b - 1, goal) < 0.0 || besideCornerPortal(list.p[b - 1], goal, -1.0))) {
        if (b <= goal_limit) {
            kept = true;
            break;
        }
        --b;
    }
    *first = a;
    list.n = b;
    return !keep_crossing || kept;
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

// Lines tangent to the wrapped discs and arcs round them, from the start to the goal. An end on the
// circle of the disc next to it (to rounding) would leave a line of ~1e-8 m there whose direction
// is rounding noise, a kink at its joint with the arc: the arc runs from the start (to the goal)
// itself instead, turned by the rounding more or less.
void emitWraps(PathQuery& q, const LayerCrossings& crossings, const CorridorWrap* wraps, uint32_t count,
               const WalkStep* steps) {
    auto negligible = [](P a, P b) { return norm(b - a) < kSamePoint; };
    auto turnFrom = [](P c, P from, P to) {
        return std::atan2(cross(from - c, to - c), dot(from - c, to - c));
    };
    bool pending_start = false, goal_on_arc = false; // a tiny first line held back; the goal reached
    P pending_end{};
    auto flushStart = [&](uint32_t layer) {
        if (pending_start) q.emitter.emit(lineSegment(q.ps, pending_end, layer));
        pending_start = false;
    };
    walkPath(
        q, crossings, wraps, count,
        [&](uint32_t j, P a, P b, const LayerWalk& walk) {
            if (j == 0 && count > 0 && a.x == q.ps.x && a.y == q.ps.y && negligible(a, b)) {
                pending_start = true, pending_end = b;
                return true;
            }
            flushStart(walk.layer);
            if (goal_on_arc && j == count) return true;
            if (norm(b - a) > 0.0 || (j == count && q.emitter.count == 0))
                q.emitter.emit(lineSegment(a, b, walk.layer));
            return true;
        },
        [&](uint32_t w, P a, P b, double sweep, double, const LayerWalk& walk) {
            if (sweep == 0.0) return true;
            const P c = wraps[w].c;
            if (pending_start && w == 0 && a.x == pending_end.x && a.y == pending_end.y &&
                walk.layer == q.start.layer) {
                sweep += turnFrom(c, q.ps, a), a = q.ps, pending_start = false;
            }
            flushStart(walk.layer);
            if (w + 1 == count && walk.layer == q.goal.layer && negligible(b, q.pg)) {
                sweep += turnFrom(c, b, q.pg), b = q.pg, goal_on_arc = true;
            }
            q.emitter.emit(arcSegment(a, b, c, wraps[w].r, sweep, walk.layer));
            return true;
        },
        nullptr, steps);
}

// Calls seed(left, right, at) for each portal of edge `edge` run over as a whole from a to b
// (pushPortals' choice: a chain's corridor samples, else the sides at the polyline's two ends).
template <class Seed> void forEachSeed(const fb::Roadmap& rm, uint32_t edge, Seed&& seed) {
    const fb::RoadmapEdge* e = rm.edges()->Get(edge);
    if (e->portal() || !rm.point_sides()) return;
    if (corridorKind(rm, edge) == fb::EdgeCorridor::Chain) {
        for (uint32_t k = rm.corridor_starts()->Get(edge); k < rm.corridor_starts()->Get(edge + 1); ++k) {
            const fb::CorridorPoint* c = rm.corridor_points()->Get(k);
            seed(P{c->left_x(), c->left_y()}, P{c->right_x(), c->right_y()}, P{c->x(), c->y()});
        }
        return;
    }
    const uint32_t n = e->point_count();
    for (const uint32_t k : {0u, n - 1}) {
        const Sides sides = pointSides(rm, e->first_point() + k, true);
        seed(sides.left, sides.right, pt(rm.points()->Get(e->first_point() + k)));
        if (n < 2) break;
    }
}

// One corridor path at preferred radius `preferred`: Answered; Unsettled (the tightening did not
// settle); MissedBoundary (the path missed a boundary between layers the route crosses: the
// trimming may have dropped it, or the route turns back behind a connection portal); Retry (no
// clear path in this corridor at these radii for another reason, or the portals the crossing
// asks for change nothing); GiveUp (the route has no corridor the funnel can use).
enum class Attempt { Answered, Unsettled, MissedBoundary, Retry, GiveUp };

// What an attempt after a missed boundary changes: KeepCrossing trims only the portals before the
// route's first boundary and after its last; TurnBack adds a portal round the end of a connection
// portal the route turns back behind (turnBackAfterCrossings). Only after a miss: the funnel
// answers most such routes without them, and those answers stay as they are.
enum class Crossing { Plain, KeepCrossing, TurnBack };

Attempt corridorAttempt(PathQuery& q, unsigned char* base, uint32_t cap, CorridorWrap* wraps, double preferred,
                        Crossing crossing) {
    PortalList list{reinterpret_cast<CorridorPortal*>(base), 0, cap, q.radius, preferred, q.ps, q.pg, false, false};
    list.turn_back = crossing == Crossing::TurnBack;
    const bool listed = listPortals(q, list);
    phaseRoutePoints(list.n);
    if (!listed || list.narrow) return Attempt::GiveUp;
    const bool keep_crossing = crossing == Crossing::KeepCrossing;
    if (keep_crossing && list.before_crossing == kNone) return Attempt::Retry;
    if (list.turn_back) {
        turnBackAfterCrossings(list);
        if (list.overflow) return Attempt::GiveUp;
        if (list.turned == 0) return Attempt::Retry;
    }
    uint32_t first = 0;
    if (!trimPortalEnds(list, q.ps, q.pg, keep_crossing, &first)) return Attempt::Retry;
    if (list.preferred > q.radius) shareWallRadii(list, first);
    phaseMark(Phase::Corridor);
    uint32_t n = corridorFunnel(list.p + first, list.n - first, q.ps, q.pg, wraps, cap);
    phaseMark(Phase::Funnel);
    if (n == kNone) return Attempt::Unsettled;
    // The check's walk keeps its steps in the wraps' memory past the wraps, where there is room
    // for them (a corner is larger than a wrap); the output walks the same wraps again.
    WalkStep* steps =
        (size_t(cap) + 1) * sizeof(WalkStep) <= size_t(cap) * (sizeof(Corner) - sizeof(CorridorWrap))
            ? reinterpret_cast<WalkStep*>(wraps + cap)
            : nullptr;
    VerifyFailure failure;
    if (!verifyCorridorPath(q, list.p + first, list.n - first, list.crossings, list.exact, wraps, &n, cap,
                            steps, &failure))
        return failure == VerifyFailure::MissedBoundary ? Attempt::MissedBoundary
               : failure == VerifyFailure::Unsettled    ? Attempt::Unsettled
                                                        : Attempt::Retry;
    phaseRoutePoints(n);
    phaseMark(Phase::Verify);
    emitWraps(q, list.crossings, wraps, n, steps);
    phaseMark(Phase::Output);
    return Attempt::Answered;
}

} // namespace

uint32_t portalSeedCount(const fb::Roadmap& rm) {
    uint32_t count = 0;
    for (uint32_t e = 0; e < sizeOf(rm.edges()); ++e)
        forEachSeed(rm, e, [&](P, P, P) { ++count; });
    return count;
}

void buildPortalSeeds(const fb::Roadmap& rm, PathShared* s) {
    uint32_t at = 0;
    for (uint32_t e = 0; e < s->edge_count; ++e) {
        s->seed_start[e] = at;
        forEachSeed(rm, e, [&](P l, P r, P point) {
            s->seeds[at++] = PortalSeed{float(l.x), float(l.y), float(r.x), float(r.y), float(point.x),
                                        float(point.y), norm(l - point), norm(r - point)};
        });
    }
    s->seed_start[s->edge_count] = at;
}

uint32_t acrossEdgeCount(const fb::Roadmap& rm) {
    uint32_t count = 0;
    for (uint32_t e = 0; e < sizeOf(rm.edges()); ++e)
        count += rm.edges()->Get(e)->portal() ? 1u : 0u;
    return count;
}

namespace {

// Connection ends (2 k + 0: piece k's (x0, y0), 2 k + 1: its (x1, y1)) and the pieces that meet
// there. Two ends meet within a millimetre (as onBoundary).
P connectionEnd(const flatbuffers::Vector<const fb::Connection*>& pieces, uint32_t end) {
    const fb::Connection& c = *pieces.Get(end / 2);
    return end % 2 == 0 ? P{c.x0(), c.y0()} : P{c.x1(), c.y1()};
}

// Ends sorted into cells of 4 mm, so the ends within a millimetre of one lie in its cell or the
// eight round it.
constexpr double kEndCell = 4e-3;
struct EndCell {
    int64_t x, y;
    bool operator<(const EndCell& o) const { return x < o.x || (x == o.x && y < o.y); }
};
EndCell endCellOf(P p) {
    auto cell = [](double v) {
        const double f = std::floor(v / kEndCell); // NaN and the far away share the last cell
        return f > -4e18 && f < 4e18 ? int64_t(f) : INT64_MAX;
    };
    return EndCell{cell(p.x), cell(p.y)};
}

} // namespace

// For each connection end, the piece a walk along their polyline goes on to from it (see
// stretchEnd) as the end it arrives at, or kNone: the lowest-numbered other piece between the same
// two layers, longer than a millimetre, with an end within a millimetre of it (its first end
// before its second). `order`: 2 × connections words of work space.
void linkConnectionEnds(const flatbuffers::Vector<const fb::Connection*>& pieces, uint32_t* next,
                        uint32_t* order) {
    const uint32_t ends = 2 * pieces.size();
    for (uint32_t e = 0; e < ends; ++e)
        order[e] = e;
    std::sort(order, order + ends, [&](uint32_t a, uint32_t b) {
        const EndCell ca = endCellOf(connectionEnd(pieces, a)), cb = endCellOf(connectionEnd(pieces, b));
        return ca < cb || (!(cb < ca) && a < b);
    });
    for (uint32_t e = 0; e < ends; ++e) {
        const P end = connectionEnd(pieces, e);
        const fb::Connection& own = *pieces.Get(e / 2);
        const EndCell at = endCellOf(end);
        uint32_t best = kNone;
        for (int64_t dx = -1; dx <= 1; ++dx)
            for (int64_t dy = -1; dy <= 1; ++dy) {
                if ((dx != 0 && (at.x == INT64_MAX || at.x + dx == INT64_MAX)) ||
                    (dy != 0 && (at.y == INT64_MAX || at.y + dy == INT64_MAX)))
                    continue;
                const EndCell cell{at.x + dx, at.y + dy};
                const uint32_t* first =
                    std::lower_bound(order, order + ends, cell, [&](uint32_t a, const EndCell& c) {
                        return endCellOf(connectionEnd(pieces, a)) < c;
                    });
                for (const uint32_t* f = first; f < order + ends; ++f) {
                    const EndCell fc = endCellOf(connectionEnd(pieces, *f));
                    if (fc.x != cell.x || fc.y != cell.y) break;
                    const uint32_t k = *f / 2;
                    if (k == e / 2 || (best != kNone && k >= best / 2)) continue;
                    const fb::Connection& c = *pieces.Get(k);
                    if (!LayerCrossings::between(c, own.layer_a(), own.layer_b())) continue;
                    const P c0{c.x0(), c.y0()}, c1{c.x1(), c.y1()};
                    if (dot(c1 - c0, c1 - c0) <= 1e-6) continue;
                    if (dot(c0 - end, c0 - end) <= 1e-6)
                        best = 2 * k + 1; // arrives at its far end, c1
                    else if (dot(c1 - end, c1 - end) <= 1e-6)
                        best = 2 * k;
                }
            }
        next[e] = best;
    }
}

// Follows the connections from end `from` of a piece along the pieces that meet there, each
// time the lowest-numbered one (linkConnectionEnds): the far end of their polyline. A closed loop
// stops after as many steps as there are pieces.
P stretchEnd(const flatbuffers::Vector<const fb::Connection*>& pieces, const uint32_t* next, uint32_t from) {
    uint32_t at = from;
    for (uint32_t steps = 0; steps < pieces.size() && next[at] != kNone; ++steps)
        at = next[at];
    return connectionEnd(pieces, at);
}

namespace {

// The across edge's portal (see AcrossPortal); false when it meets no connection between its
// layers, or their polyline is a closed loop. `by_pair`: the connections sorted by layerPairKey.
bool findAcrossPortal(const fb::Roadmap& rm, const PathScratch& walls, const uint32_t* next,
                      const uint32_t* by_pair, const fb::RoadmapEdge& e, AcrossPortal* out) {
    const fb::Footprint* fp = rm.footprint();
    if (!fp || !fp->connections()) return false;
    const uint32_t layer_a = rm.vertices()->Get(e.a())->layer(), layer_b = rm.vertices()->Get(e.b())->layer();
    const P a = pt(rm.points()->Get(e.first_point()));
    const P b = pt(rm.points()->Get(e.first_point() + e.point_count() - 1));
    // The piece the edge crosses; else the one nearest its middle (the lowest-numbered of equals).
    uint32_t piece = kNone;
    double nearest = kInf;
    const auto& pieces = *fp->connections();
    const uint64_t key = layerPairKey(layer_a, layer_b);
    auto pairOf = [&](uint32_t k) {
        return layerPairKey(pieces.Get(k)->layer_a(), pieces.Get(k)->layer_b());
    };
    const uint32_t* first = std::lower_bound(by_pair, by_pair + pieces.size(), key,
                                             [&](uint32_t k, uint64_t v) { return pairOf(k) < v; });
    for (const uint32_t* it = first; it < by_pair + pieces.size() && pairOf(*it) == key; ++it) {
        const uint32_t k = *it;
        const fb::Connection& c = *pieces.Get(k);
        const P c0{c.x0(), c.y0()}, c1{c.x1(), c.y1()};
        const double d2 =
            segmentsIntersect(a, b, c0, c1) ? -1.0 : pointSegment2((a + b) * 0.5, c0, c1, nullptr);
        if (d2 < nearest) nearest = d2, piece = k;
    }
    if (piece == kNone) return false;
    const fb::Connection& c = *pieces.Get(piece);
    out->c0 = P{c.x0(), c.y0()}, out->c1 = P{c.x1(), c.y1()};
    out->end0 = stretchEnd(pieces, next, 2 * piece);
    out->end1 = stretchEnd(pieces, next, 2 * piece + 1);
    if (dot(out->end1 - out->end0, out->end1 - out->end0) <= 1e-6) return false;
    // The side where the layer the route leaves lies, probed a centimetre either side of the
    // piece's middle.
    constexpr double kProbe = 0.01; // metres
    const P along = out->c1 - out->c0, middle = (out->c0 + out->c1) * 0.5;
    const double length = norm(along);
    for (const uint32_t from : {0u, 1u}) {
        out->side[from] = 0;
        if (!(length > 0.0)) continue;
        const uint32_t layer = from == 0 ? layer_a : layer_b;
        const P off = P{-along.y, along.x} * (kProbe / length);
        const bool left = wallsInside(rm, walls, layer, middle + off),
                   right = wallsInside(rm, walls, layer, middle - off);
        if (left != right) out->side[from] = left ? 1 : -1;
    }
    return true;
}

} // namespace

uint32_t connectionCount(const fb::Roadmap& rm) {
    return rm.footprint() ? sizeOf(rm.footprint()->connections()) : 0;
}

void buildAcrossPortals(const fb::Roadmap& rm, PathShared* s, const PathScratch& walls, uint32_t* next,
                        uint32_t* order) {
    const fb::Footprint* fp = rm.footprint();
    const uint32_t connections = connectionCount(rm);
    s->boundary_piece_count = connections;
    if (connections > 0) {
        linkConnectionEnds(*fp->connections(), next, order);
        // Then the work space holds the connections by pair: an across edge looks at its pair's
        // alone (a level's many floors would otherwise make every edge scan every connection).
        const auto& pieces = *fp->connections();
        for (uint32_t k = 0; k < connections; ++k)
            order[k] = k;
        std::sort(order, order + connections, [&](uint32_t x, uint32_t y) {
            const uint64_t kx = layerPairKey(pieces.Get(x)->layer_a(), pieces.Get(x)->layer_b());
            const uint64_t ky = layerPairKey(pieces.Get(y)->layer_a(), pieces.Get(y)->layer_b());
            return kx < ky || (kx == ky && x < y);
        });
        for (uint32_t i = 0; i < connections; ++i) {
            const fb::Connection& c = *pieces.Get(order[i]);
            s->boundary_pieces[i] =
                BoundaryPiece{P{c.x0(), c.y0()},          P{c.x1(), c.y1()},          minOf(c.x0(), c.x1()),
                              minOf(c.y0(), c.y1()),      maxOf(c.x0(), c.x1()),      maxOf(c.y0(), c.y1()),
                              layerPairKey(c.layer_a(), c.layer_b())};
        }
    }
    uint32_t at = 0;
    for (uint32_t e = 0; e < s->edge_count; ++e) {
        s->across_index[e] = kNone;
        const fb::RoadmapEdge& edge = *rm.edges()->Get(e);
        if (!edge.portal()) continue;
        AcrossPortal x{};
        if (findAcrossPortal(rm, walls, next, order, edge, &x))
            s->across[at] = x, s->across_index[e] = at;
        ++at;
    }
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
    // clearance is halved, then dropped, all in this corridor, so the answer never beats the one
    // at the radius.
    const double extra = maxOf(0.0, q.preferred_clearance - q.radius);
    auto attempt = [&](double preferred) {
        Attempt a = corridorAttempt(q, base, cap, wraps, preferred, Crossing::Plain);
        if (a != Attempt::MissedBoundary) return a;
        a = corridorAttempt(q, base, cap, wraps, preferred, Crossing::KeepCrossing);
        if (a == Attempt::MissedBoundary || a == Attempt::Retry)
            a = corridorAttempt(q, base, cap, wraps, preferred, Crossing::TurnBack);
        return a;
    };
    for (const double share : {1.0, 0.5, 0.0}) {
        if (share < 1.0 && !(extra > 0.0)) break;
        const Attempt a = attempt(q.radius + share * extra);
        if (a == Attempt::Answered || a == Attempt::GiveUp) return a == Attempt::Answered;
    }
    // The tightening does not settle at or near the radius (wall vertices a rounding apart where
    // two layers' walls meet, wrapped over and over), or the path found does not hold: more
    // clearance in the same corridor still keeps the radius. Each wider preferred clearance is
    // tried as a query asking for it would try it (the whole extra, then half of it), so the
    // answer here is the one that query gives, and no longer.
    double tried[8];
    uint32_t tried_count = 0;
    for (const double wider : {1.25, 1.5, 2.0}) {
        const double wider_extra = (wider - 1.0) * q.radius;
        if (!(extra < wider_extra)) continue;
        for (const double share : {1.0, 0.5}) {
            const double preferred = q.radius + share * wider_extra;
            if (!(preferred > q.radius + extra) ||
                std::find(tried, tried + tried_count, preferred) != tried + tried_count)
                continue;
            tried[tried_count++] = preferred;
            if (attempt(preferred) == Attempt::Answered) return q.corridor_wider = true;
        }
    }
    return false;
}

} // namespace detail
} // namespace clearway
