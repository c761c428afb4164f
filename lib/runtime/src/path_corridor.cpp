// The A* route's shortest path with clearance through its corridor: portals from the asset's
// point sides, the funnel over them (corridor_funnel.cpp), lines and arcs round the wrapped discs.
// The Explicit Corridor Map (Geraerts, "Planning short paths with clearance using explicit
// corridors", 2010).
#include "path_query.h"

namespace clearway {
namespace detail {

namespace {

// Portals along the route, with the clearance of the route point each one crosses.
struct PortalList {
    CorridorPortal* p;
    double* clearance;
    uint32_t n, capacity;
    bool overflow;

    void push(P left, P right, P at) {
        if (n == capacity) {
            overflow = true;
            return;
        }
        p[n] = CorridorPortal{left, right, 0.0, 0.0};
        clearance[n++] = minOf(norm(left - at), norm(right - at));
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

// Points from..to (inclusive) of an edge in the direction of travel; nothing when empty.
void pushPortals(PortalList& list, const fb::Roadmap& rm, uint32_t edge, int64_t from, int64_t to, bool forward) {
    const fb::RoadmapEdge* e = rm.edges()->Get(edge);
    if (forward ? from > to : from < to) return;
    for (int64_t k = from;; k += forward ? 1 : -1) {
        const uint32_t index = e->first_point() + uint32_t(k);
        const Sides s = pointSides(rm, index, forward);
        list.push(s.left, s.right, pt(rm.points()->Get(index)));
        if (k == to) break;
    }
}

// The portal at a snapped end: both sides move linearly along one wall feature within a piece.
void pushSnapPortal(PortalList& list, const fb::Roadmap& rm, const RoadmapPoint& q, bool forward) {
    const uint32_t first = rm.edges()->Get(q.edge)->first_point() + q.piece;
    const Sides a = pointSides(rm, first, forward), b = pointSides(rm, first + 1, forward);
    list.push(a.left + (b.left - a.left) * q.t, a.right + (b.right - a.right) * q.t, P{q.position.x, q.position.y});
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
    while (a < b && cross(list.p[a].right - list.p[a].left, start - list.p[a].left) > 0.0)
        ++a;
    while (b > a && cross(list.p[b - 1].right - list.p[b - 1].left, goal - list.p[b - 1].left) < 0.0)
        --b;
    *first = a;
    list.n = b;
}

// Each side's disc radius: the preferred clearance where the corridor is that wide, the
// corridor's own half-width where it is not, never below the radius. A wall point that several
// portals share keeps one disc (the smallest of their radii, so every portal stays open), and
// a disc never swallows an end (an end closer to the wall than the preferred clearance).
bool portalRadii(PortalList& list, uint32_t first, double radius, double preferred, P start, P goal) {
    const double slack = radius * 1e-6 + 1e-9;
    for (uint32_t i = first; i < list.n; ++i) {
        if (!(list.clearance[i] >= radius - slack)) return false; // a narrower edge near a snap
        CorridorPortal& p = list.p[i];
        const double wide = maxOf(radius, minOf(preferred, list.clearance[i]));
        p.left_radius = maxOf(radius, minOf(wide, minOf(norm(start - p.left), norm(goal - p.left))));
        p.right_radius = maxOf(radius, minOf(wide, minOf(norm(start - p.right), norm(goal - p.right))));
    }
    if (!(preferred > radius)) return true;
    for (int side = 0; side < 2; ++side) {
        for (uint32_t i = first; i < list.n;) {
            auto centre = [&](uint32_t k) { return side == 0 ? list.p[k].left : list.p[k].right; };
            auto rad = [&](uint32_t k) -> double& { return side == 0 ? list.p[k].left_radius : list.p[k].right_radius; };
            uint32_t j = i + 1;
            double smallest = rad(i);
            while (j < list.n && centre(j).x == centre(i).x && centre(j).y == centre(i).y)
                smallest = minOf(smallest, rad(j++));
            for (uint32_t k = i; k < j; ++k)
                rad(k) = smallest;
            i = j;
        }
    }
    return true;
}

// Lines tangent to the wrapped discs and arcs round them, from the start to the goal.
void emitWraps(PathQuery& q, const CorridorWrap* wraps, uint32_t count) {
    const CorridorWrap start{q.ps, 0.0, 0.0}, goal{q.pg, 0.0, 0.0};
    P cursor = q.ps, u_in{0, 0};
    for (uint32_t j = 0; j <= count; ++j) {
        const CorridorWrap& from = j == 0 ? start : wraps[j - 1];
        const CorridorTangent t = corridorTangent(from, j == count ? goal : wraps[j]);
        if (j > 0 && from.r > 0.0) {
            double turn = turnAngle(u_in, t.u);
            if (turn * from.side < -1e-7) turn += 2.0 * 3.14159265358979323846 * from.side;
            if (turn * from.side > 1e-12) {
                PathSegment arc{};
                arc.type = PathSegmentType::Arc;
                arc.layer = q.start.layer;
                arc.start = Vec2d{cursor.x, cursor.y};
                arc.end = Vec2d{t.from.x, t.from.y};
                arc.center = Vec2d{from.c.x, from.c.y};
                arc.radius = from.r;
                arc.sweep = turn;
                arc.length = from.r * std::fabs(turn);
                q.emitter.emit(arc);
                cursor = t.from;
            }
        }
        const P end = j == count ? q.pg : t.to;
        if (norm(end - cursor) > 0.0 || (j == count && q.emitter.count == 0)) {
            PathSegment seg{};
            seg.type = PathSegmentType::Line;
            seg.layer = q.start.layer;
            seg.start = Vec2d{cursor.x, cursor.y};
            seg.end = Vec2d{end.x, end.y};
            seg.length = norm(end - cursor);
            q.emitter.emit(seg);
            cursor = end;
        }
        u_in = t.u;
    }
}

} // namespace

// The corridor path, when the asset has the sides and the route allows it (one layer, no
// avoided areas); false leaves the emitter untouched for the polyline shortening.
bool corridorPath(PathQuery& q) {
    PathScratch& s = q.s;
    if (!q.rm.point_sides() || s.area_count > 0 || !routeOnOneLayer(q)) return false;
    // The funnel's arrays share the shortening's fallback memory, unused on this path.
    static_assert(sizeof(CorridorPortal) + sizeof(double) + sizeof(CorridorWrap) <= sizeof(Corner),
                  "portals, clearances and wraps fit in the relaxed-run array");
    auto* base = reinterpret_cast<unsigned char*>(s.relaxed_run);
    const uint32_t cap = s.corner_capacity;
    PortalList list{reinterpret_cast<CorridorPortal*>(base),
                    reinterpret_cast<double*>(base + size_t(cap) * sizeof(CorridorPortal)), 0, cap, false};
    auto* wraps = reinterpret_cast<CorridorWrap*>(base + size_t(cap) * (sizeof(CorridorPortal) + sizeof(double)));
    if (!listPortals(q, list)) return false;
    uint32_t first = 0;
    trimPortalEnds(list, q.ps, q.pg, &first);
    const double preferred = maxOf(q.radius, q.preferred_clearance);
    if (!portalRadii(list, first, q.radius, preferred, q.ps, q.pg)) return false;
    phaseMark(Phase::Corridor);
    const uint32_t n = corridorFunnel(list.p + first, list.n - first, q.ps, q.pg, wraps, cap);
    if (n == kNone) return false;
    // The ends reach the corridor from outside it: their legs are the only pieces to check.
    const CorridorWrap start{q.ps, 0.0, 0.0}, goal{q.pg, 0.0, 0.0};
    const CorridorTangent first_leg = corridorTangent(start, n > 0 ? wraps[0] : goal);
    const CorridorTangent last_leg = corridorTangent(n > 0 ? wraps[n - 1] : start, goal);
    const LayerWalls walls{q.rm, s, q.start.layer};
    const double check = q.radius * (1.0 - 1e-9);
    if (!segmentClear(walls, q.ps, first_leg.to, check) || !segmentClear(walls, last_leg.from, q.pg, check))
        return false;
    phaseMark(Phase::Funnel);
    emitWraps(q, wraps, n);
    phaseMark(Phase::Output);
    return true;
}

} // namespace detail
} // namespace clearway
