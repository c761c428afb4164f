// findPath: A* over the roadmap between snapped endpoints, the corner list, blends and arcs.
// Everything runs on a view verified by loadRoadmap, so indices are trusted; work is in double.
#include "path_query.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <new>
#include <utility>

namespace clearway {

namespace {

using namespace ::clearway::detail;
using Corner = detail::PathCorner;

// Trim length of the stored blend for turning from edge_in to edge_out at v (either stored order),
// 0 when there is none or it has no arc.
double storedBlendTrim(const fb::Roadmap& rm, const PathScratch& s, uint32_t v, uint32_t in, uint32_t out,
                       double radius) {
    const auto* blends = rm.blends();
    const fb::RoadmapVertex* vx = rm.vertices()->Get(v);
    const P c{vx->x(), vx->y()};
    for (uint32_t k = s.blend_start[v]; k < s.blend_start[v + 1]; ++k) {
        const fb::Blend* b = blends->Get(s.blend_ids[k]);
        if (!((b->edge_in() == in && b->edge_out() == out) || (b->edge_in() == out && b->edge_out() == in)))
            continue;
        // Its own exact clearance: one of the edges may be used only in part (a snap).
        if (!(b->radius() > 0.0f) || double(b->min_clearance()) < radius) return 0.0;
        const double l_in = norm(P{b->in_x(), b->in_y()} - c), l_out = norm(P{b->out_x(), b->out_y()} - c);
        return l_in < l_out ? l_in : l_out;
    }
    return 0.0;
}

struct CornerList {
    Corner* c;
    uint32_t n, capacity;
    bool overflow;

    void push(Corner corner) {
        if (n > 0) {
            Corner& last = c[n - 1];
            if (std::fabs(last.x - corner.x) <= kSamePoint && std::fabs(last.y - corner.y) <= kSamePoint) {
                // One corner: the stronger kind (a snap's or endpoint's arc is checked against the
                // walls, a vertex's blend only fits two roadmap edges), at its own position; the
                // later one says what follows: the portal flag and the layer (a zero-length
                // connection edge merges its two ends, one per layer, into this corner).
                const bool portal = corner.portal;
                const uint32_t layer = corner.layer;
                if (corner.kind > last.kind) last = corner;
                last.portal = portal;
                last.layer = layer;
                return;
            }
        }
        if (n == capacity) {
            overflow = true;
            return;
        }
        c[n++] = corner;
    }
};

Corner makeCorner(Corner::Kind kind, P p, uint32_t layer, bool portal) {
    Corner c{};
    c.kind = kind;
    c.portal = portal;
    c.layer = layer;
    c.vertex = c.edge_in = c.edge_out = kNone;
    c.x = p.x;
    c.y = p.y;
    return c;
}

// Interior polyline points of edge e from index `from` to `to` (inclusive) in the given
// direction; nothing when the range is empty.
void pushInterior(CornerList& list, const fb::Roadmap& rm, uint32_t edge, int64_t from, int64_t to,
                  bool forward, uint32_t layer) {
    const fb::RoadmapEdge* e = rm.edges()->Get(edge);
    const auto* points = rm.points();
    if (forward ? from > to : from < to) return;
    for (int64_t k = from;; k += forward ? 1 : -1) {
        Corner c =
            makeCorner(Corner::Interior, pt(points->Get(e->first_point() + uint32_t(k))), layer, e->portal());
        c.edge_in = c.edge_out = edge;
        list.push(c);
        if (k == to) break;
    }
}

// Distance from `point` to the arc that leaves corner - u*trim along u and turns by `turn` onto
// the next piece (the arc findPath emits for that corner).
double focusToArc(P corner, P u, double turn, double trim, P point) {
    const CornerArc arc = cornerArc(corner, u, turn, trim);
    const double r = arc.radius;
    const P start = arc.start, center = arc.center;
    const double a0 = std::atan2(start.y - center.y, start.x - center.x);
    const double ap = std::atan2(point.y - center.y, point.x - center.x);
    double rel = turn > 0 ? ap - a0 : a0 - ap; // angle along the sweep direction
    rel = std::fmod(std::fmod(rel, 2 * 3.14159265358979323846) + 2 * 3.14159265358979323846,
                    2 * 3.14159265358979323846);
    if (rel <= std::fabs(turn)) return std::fabs(norm(point - center) - r);
    const double cs = std::cos(turn), sn = std::sin(turn);
    const P from = start - center;
    const P end = center + P{from.x * cs - from.y * sn, from.x * sn + from.y * cs};
    const double ds = norm(point - start), de = norm(point - end);
    return ds < de ? ds : de;
}

// The ends' wall distances and the clearance the straight line must keep; the designer areas the
// ends lie in. True when the straight line is the path.
bool straightLineWillDo(PathQuery& q) {
    q.line_clearance = q.radius;
    q.known[0] = {q.ps, kNone, 0.0};
    q.known[1] = {q.pg, kNone, 0.0};
    if (!q.medial && q.preferred_clearance > q.radius && q.start.layer == q.goal.layer) {
        q.known[0].distance = wallsNearest(q.rm, q.s, q.start.layer, q.ps, nullptr),
        q.known[0].layer = q.start.layer;
        q.known[1].distance = wallsNearest(q.rm, q.s, q.goal.layer, q.pg, nullptr),
        q.known[1].layer = q.goal.layer;
        const double ends = std::fmin(q.known[0].distance, q.known[1].distance);
        q.line_clearance = std::fmax(q.radius, std::fmin(q.preferred_clearance, ends));
    }
    // Designer areas: the line must not enter an avoided area that neither end lies in.
    clearAreaMarks(&q.s);
    markAreas(q.rm, &q.s, q.start.layer, q.ps, q.ps);
    markAreas(q.rm, &q.s, q.goal.layer, q.pg, q.pg);
    return !q.medial && q.start.layer == q.goal.layer &&
           segmentClear(LayerWalls{q.rm, q.s, q.start.layer}, q.ps, q.pg, q.line_clearance) &&
           areasAllow(q.rm, q.s, q.start.layer, q.ps, q.pg) &&
           (!q.obstacles || obstacleLineClear(*q.obstacles, q.start.layer, q.ps, q.pg));
}

// A* entering a chain at vertex v (cost gv) by its step `step`: walks on while the edges keep the
// radius and the vertices passed have no other usable edge, and relaxes the vertex it stops at
// (an end, or a vertex where the route may branch) and the goal edge's ends it passes. A vertex
// whose next edge is too narrow is a dead end: nothing to relax. The walk never crosses the
// start's or the goal's own edge: no shortest route runs over either end's whole edge (an end
// snapped onto a vertex would otherwise tie, to rounding, with the route that stops there).
// Under a query filter each edge costs what the filter makes it, and a closed one ends the walk
// (the same sums as edge by edge, so a filter that changes nothing answers bit for bit alike).
template <class Landmarks>
void walkChain(PathQuery& q, uint32_t v, double gv, uint32_t step, const Landmarks& landmarks, double scale) {
    PathScratch& s = q.s;
    const ChainStep& st = s.chain_steps[step];
    const ChainInfo& c = s.chains[st.chain];
    const ChainVertex* vertices = s.chain_vertices + c.first + st.chain;
    const ChainStep* steps = s.chain_steps + c.first;
    const uint32_t i = step - c.first, goal_a = q.eg->a(), goal_b = q.eg->b();
    double cost = 0.0;
    auto passable = [&](uint32_t j) {
        if (double(steps[j].clearance) < q.radius || steps[j].edge == q.qs.edge || steps[j].edge == q.qg.edge)
            return false;
        if (q.obstacles && obstacleClosesEdge(*q.obstacles, steps[j].edge)) return false;
        cost = steps[j].cost;
        return !q.filter || filteredCost(q.rm, *q.filter, s.adj[steps[j].entry], &cost);
    };
    const bool forward = vertices[i].v == v;
    const uint32_t parent = kChainParent + 2 * st.chain + (forward ? 0 : 1), via = forward ? i : i + 1;
    double g = gv;
    auto stopAt = [&](uint32_t at, bool end) {
        const uint32_t w = vertices[at].v;
        const bool goal_end = w == goal_a || w == goal_b;
        if (end || goal_end || !(double(vertices[at].lo) < q.radius)) {
            relax(
                &s, w, g,
                [&](uint32_t) { return landmarks(w, norm(s.vertex_xy[w] - q.goal_snap) * s.heuristic_scale) * scale; },
                parent, via);
        }
        return end || !(double(vertices[at].lo) < q.radius);
    };
    if (forward) {
        for (uint32_t j = i; j < c.count && passable(j); ++j) {
            g += cost;
            if (stopAt(j + 1, j + 1 == c.count)) return;
        }
    } else {
        for (uint32_t j = i + 1; j-- > 0 && passable(j);) {
            g += cost;
            if (stopAt(j, j == 0)) return;
        }
    }
}

// --- A* over usable edges; start and goal are points on edges, not vertices ---
void searchRoadmap(PathQuery& q) {
    PathScratch& s = q.s;
    const fb::RoadmapEdge &es = *q.es, &eg = *q.eg;
    const double s_along = q.s_along, g_along = q.g_along, len_s = q.len_s, len_g = q.len_g;
    const double radius = q.radius;
    const uint8_t dirs_s = q.dirs_s, dirs_g = q.dirs_g;
    const P goal_snap = q.goal_snap;
    if (++s.generation == 0) {
        for (uint32_t v = 0; v < s.vertex_count; ++v)
            s.nodes[v].stamp = 0;
        s.generation = 1;
    }
    s.heap_size = 0;
    // Costs are lengths times the edges' area weights (1 without designer areas); the heuristic
    // is scaled by the least weight so it never overestimates.
    // Landmarks: the goal's cost from each (through either end of its edge).
    // Off-mesh links shorten graph distances the landmarks do not know: then none is used.
    double goal_cost[kLandmarks];
    for (uint32_t l = 0; l < kLandmarks; ++l)
        goal_cost[l] =
            s.link_count
                ? kInf
                : minOf(s.landmark_dist[size_t(eg.a()) * kLandmarks + l] + g_along * s.edge_weight[q.qg.edge],
                        s.landmark_dist[size_t(eg.b()) * kLandmarks + l] +
                            (len_g - g_along) * s.edge_weight[q.qg.edge]);
    auto landmarks = [&](uint32_t v, double bound) {
        const double* d = s.landmark_dist + size_t(v) * kLandmarks;
        for (uint32_t l = 0; l < kLandmarks; ++l)
            if (d[l] < kInf && goal_cost[l] < kInf) bound = maxOf(bound, std::fabs(goal_cost[l] - d[l]));
        return bound;
    };
    // A filter's multipliers below 1 scale the heuristic down with the costs (1 without).
    const ActiveFilter* filter = q.filter;
    const double scale = filter ? filter->heuristic_scale : 1.0;
    auto h = [&](uint32_t v) {
        return landmarks(v, norm(s.vertex_xy[v] - goal_snap) * s.heuristic_scale) * scale;
    };
    double w_s = s.edge_weight[q.qs.edge], w_g = s.edge_weight[q.qg.edge];
    if (filter && !filter->plain_costs)
        w_s *= edgeCostFactor(q.rm, *filter, q.qs.edge), w_g *= edgeCostFactor(q.rm, *filter, q.qg.edge);
    double best = kInf;
    uint32_t best_vertex = kNone;
    bool goal_from_a = true;
    // Along a shared edge: one usable as a whole, or a partly clear one whose stretch between the
    // two snap points is clear (it lies within a clear way from one of them to a vertex; else
    // the route would run to that vertex and turn back).
    const bool goal_ahead = g_along >= s_along;
    if (q.qs.edge == q.qg.edge && !q.shared_edge_closed &&
        (double(es.min_clearance()) >= radius || (dirs_s & (goal_ahead ? kTowardsB : kTowardsA)) ||
         (dirs_g & (goal_ahead ? kTowardsA : kTowardsB)))) {
        best = std::fabs(s_along - g_along) * w_s;
        best_vertex = kNone;
    }
    if (dirs_s & kTowardsA) relax(&s, es.a(), s_along * w_s, h, kStartBackward);
    if (dirs_s & kTowardsB) relax(&s, es.b(), (len_s - s_along) * w_s, h, kStartForward);
    while (s.heap_size > 0) {
        if (s.heap[0].f >= best) break;
        const uint32_t v = heapPop(&s);
        const double gv = s.nodes[v].g;
        if (v == eg.a() && (dirs_g & kTowardsA) && gv + g_along * w_g < best)
            best = gv + g_along * w_g, best_vertex = v, goal_from_a = true;
        if (v == eg.b() && (dirs_g & kTowardsB) && gv + (len_g - g_along) * w_g < best)
            best = gv + (len_g - g_along) * w_g, best_vertex = v, goal_from_a = false;
        for (uint32_t k = s.adj_start[v], end = s.adj_start[v + 1]; k < end; ++k) {
            const AdjEntry& a = s.adj[k];
            if (double(a.min_clearance) < radius) continue;
            if (q.obstacles && obstacleClosesEdge(*q.obstacles, a.edge)) continue;
            if (a.step != kNone) {
                walkChain(q, v, gv, a.step, landmarks, scale);
                continue;
            }
            double cost = a.cost;
            if (filter && !filteredCost(q.rm, *filter, a, &cost)) continue;
            relax(
                &s, a.other, gv + cost,
                [&](uint32_t) {
                    return landmarks(a.other, norm(P{a.other_x, a.other_y} - goal_snap) * s.heuristic_scale) *
                           scale;
                },
                a.edge);
        }
        if (s.link_count && q.links && q.links->allowed) relaxLinks(q, v, gv, scale);
    }
    q.best = best;
    q.best_vertex = best_vertex;
    q.goal_from_a = goal_from_a;
}

// --- route: edges from the start edge's exit vertex to the goal edge's entry vertex ---
// False when the parents do not lead back to the start (they form a tree; guarded anyway).
bool traceRoute(PathQuery& q) {
    PathScratch& s = q.s;
    q.route_count = 0;
    q.start_forward = q.s_along <= q.g_along; // only for the shared-edge case
    if (q.best_vertex == kNone) return true;
    uint32_t v = q.best_vertex;
    uint32_t links_crossed = 0;
    while (s.nodes[v].parent != kStartBackward && s.nodes[v].parent != kStartForward) {
        const uint32_t parent = s.nodes[v].parent;
        if (parent == kLinkParent) { // the first link crossed is the last one met here
            const fb::RoadmapLink& link = *q.rm.links()->Get(s.nodes[v].via);
            if (++links_crossed > s.link_count) return false;
            *q.links = LinkUse{true, s.nodes[v].via, v == link.b() ? link.a() : link.b(), v};
            v = q.links->from;
            continue;
        }
        if (parent >= kChainParent) { // a chain walk, traced back from where it stopped
            const uint32_t chain = (parent - kChainParent) / 2;
            const bool forward = (parent & 1u) == 0;
            const ChainInfo& c = s.chains[chain];
            const ChainVertex* vertices = s.chain_vertices + c.first + chain;
            const uint32_t via = s.nodes[v].via;
            uint32_t at = via;
            do
                at = forward ? at + 1 : at - 1;
            while (vertices[at].v != v && at != (forward ? c.count : 0));
            if (vertices[at].v != v || q.route_count + (forward ? at - via : via - at) > s.edge_count) return false;
            for (; at != via; at = forward ? at - 1 : at + 1)
                s.route[q.route_count++] = s.chain_steps[c.first + (forward ? at - 1 : at)].edge;
            v = vertices[via].v;
            continue;
        }
        if (q.route_count == s.edge_count) return false;
        s.route[q.route_count++] = parent;
        v = otherEnd(*q.rm.edges()->Get(parent), v);
    }
    q.start_forward = s.nodes[v].parent == kStartForward;
    for (uint32_t i = 0; i < q.route_count / 2; ++i) {
        const uint32_t t = s.route[i];
        s.route[i] = s.route[q.route_count - 1 - i];
        s.route[q.route_count - 1 - i] = t;
    }
    return true;
}

// --- corners: start, snap, polylines, vertices, snap, goal ---
// False when the list overflows: only a scratch sized for shorter routes (pathScratchSizeForRoutes).
bool listCorners(PathQuery& q) {
    const fb::Roadmap& rm = q.rm;
    const RoadmapPoint &qs = q.qs, &qg = q.qg;
    const fb::RoadmapEdge &es = *q.es, &eg = *q.eg;
    const uint32_t start_layer = q.start.layer, goal_layer = q.goal.layer;
    CornerList list{q.s.corners, 0, q.s.corner_capacity, false};
    list.push(makeCorner(Corner::Endpoint, q.ps, start_layer, false));
    list.push(makeCorner(Corner::Snap, P{qs.position.x, qs.position.y}, start_layer, false));
    const int64_t ns = es.point_count(), ngp = eg.point_count();
    if (q.best_vertex == kNone) {
        if (q.start_forward)
            pushInterior(list, rm, qs.edge, int64_t(qs.piece) + 1, int64_t(qg.piece), true, start_layer);
        else
            pushInterior(list, rm, qs.edge, int64_t(qs.piece), int64_t(qg.piece) + 1, false, start_layer);
    } else {
        // Leave the start edge, then every route edge, arriving at a vertex each time.
        uint32_t at = q.start_forward ? es.b() : es.a();
        if (q.start_forward)
            pushInterior(list, rm, qs.edge, int64_t(qs.piece) + 1, ns - 2, true, start_layer);
        else
            pushInterior(list, rm, qs.edge, int64_t(qs.piece), 1, false, start_layer);
        uint32_t in = qs.edge;
        for (uint32_t i = 0; i <= q.route_count; ++i) {
            const uint32_t next = i < q.route_count ? q.s.route[i] : qg.edge;
            const fb::RoadmapEdge& ne = *rm.edges()->Get(next);
            const fb::RoadmapVertex* vx = rm.vertices()->Get(at);
            Corner c = makeCorner(Corner::Vertex, P{vx->x(), vx->y()}, vx->layer(), ne.portal());
            c.vertex = at;
            c.edge_in = in;
            c.edge_out = next;
            list.push(c);
            if (i == q.route_count) break;
            const bool forward = ne.a() == at;
            const int64_t n = ne.point_count();
            if (forward)
                pushInterior(list, rm, next, 1, n - 2, true, vx->layer());
            else
                pushInterior(list, rm, next, n - 2, 1, false, vx->layer());
            at = otherEnd(ne, at);
            in = next;
        }
        if (q.goal_from_a)
            pushInterior(list, rm, qg.edge, 1, int64_t(qg.piece), true, goal_layer);
        else
            pushInterior(list, rm, qg.edge, ngp - 2, int64_t(qg.piece) + 1, false, goal_layer);
    }
    list.push(makeCorner(Corner::Snap, q.goal_snap, goal_layer, false));
    list.push(makeCorner(Corner::Endpoint, q.pg, goal_layer, false));
    q.c = list.c;
    q.n = list.n;
    return !list.overflow;
}

// Pieces too short to hold an arc (a snap landing next to a polyline point, say) would leave
// a sharp corner: drop the inner corner when the piece that replaces the two stays clear.
void dropTinyPieces(PathQuery& q) {
    Corner* c = q.c;
    uint32_t& n = q.n;
    for (uint32_t i = 1; i + 1 < n;) {
        const P prev{c[i - 1].x, c[i - 1].y}, here{c[i].x, c[i].y}, next{c[i + 1].x, c[i + 1].y};
        const bool tiny = norm(here - prev) < 3 * kMinLine || norm(next - here) < 3 * kMinLine;
        if (!tiny || c[i - 1].portal || c[i].portal || c[i].kind == Corner::Endpoint ||
            c[i - 1].layer != c[i + 1].layer ||
            !segmentClear(LayerWalls{q.rm, q.s, c[i].layer}, prev, next, q.radius)) {
            ++i;
            continue;
        }
        for (uint32_t j = i; j + 1 < n; ++j)
            c[j] = c[j + 1];
        --n;
    }
}

// Corner positions are final from here on: each corner's turn is computed once (the
// shortening's per-corner clearances are no longer needed), and every piece's direction and
// length once (the steps below ask for each several times).
void measurePieces(PathQuery& q) {
    const Corner* c = q.c;
    const uint32_t n = q.n;
    q.turns = q.s.corner_clearance;
    for (uint32_t i = 0; i < n; ++i)
        q.turns[i] = std::numeric_limits<double>::quiet_NaN();
    q.pieces = q.s.pieces;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        const P d{c[i + 1].x - c[i].x, c[i + 1].y - c[i].y};
        const double len = norm(d);
        new (&q.pieces[i]) PieceGeom{len > 0.0 ? d * (1.0 / len) : P{0, 0}, len}; // the unit direction
    }
}

// --- trims: stored blends at vertices, checked arcs at snap points (medial path only) ---
void trimMedialCorners(PathQuery& q) {
    const fb::Roadmap& rm = q.rm;
    Corner* c = q.c;
    const PieceGeom* pieces = q.pieces;
    const double radius = q.radius;
    for (uint32_t i = 1; i + 1 < q.n; ++i) {
        // Corners that get no arc here skip the turn's atan2.
        if (c[i].kind == Corner::Endpoint ||
            (c[i].kind == Corner::Interior &&
             (c[i].edge_in == kNone || rm.edges()->Get(c[i].edge_in)->site() != fb::ClearanceSite::Point)))
            continue;
        const P u = pieces[i - 1].u, w = pieces[i].u;
        const double turn = std::fabs(q.turnAt(i, u, w));
        // Straight on (no arc needed) or turning back (no arc fits).
        if (turn < 1e-9 || turn > 3.14159265358979 - 1e-6) continue;
        const double room =
            0.5 * (q.pieceLength(i - 1) < q.pieceLength(i) ? q.pieceLength(i - 1) : q.pieceLength(i));
        if (c[i].kind == Corner::Vertex) {
            // A stored blend scaled towards its vertex stays in the region it already cleared.
            const double t = storedBlendTrim(rm, q.s, c[i].vertex, c[i].edge_in, c[i].edge_out, radius);
            c[i].trim = t < room ? t : room;
        } else if (c[i].kind == Corner::Snap) {
            c[i].trim = largestClearTrim(rm, q.s, c[i].layer, c[i].layer, P{c[i].x, c[i].y}, u,
                                         q.turnAt(i, u, w), room, radius);
        } else if (c[i].kind == Corner::Interior && c[i].edge_in != kNone) {
            // A chord corner of a parabola: clearance there is the distance to the focus, and an arc
            // bending towards the focus stays in its cell, so the exact focus-to-arc distance decides.
            const fb::RoadmapEdge& e = *rm.edges()->Get(c[i].edge_in);
            if (e.site() != fb::ClearanceSite::Point) continue;
            const P corner{c[i].x, c[i].y}, focus{e.site_x0(), e.site_y0()};
            const double signed_turn = q.turnAt(i, u, w);
            if (signed_turn * cross(u, focus - corner) <= 0.0) continue;
            double t = room;
            for (int attempt = 0; attempt < 12 && t > 1e-6; ++attempt, t *= 0.5) {
                if (focusToArc(corner, u, signed_turn, t, focus) >= radius) {
                    c[i].trim = t;
                    break;
                }
            }
        }
    }
}

// Corners still sharp (on the medial path: no stored blend, a merged chain's polyline corner;
// on both: where the path changes layer, the arc checked against both layers' walls): the
// largest arc that keeps the radius and fits beside its neighbours' arcs, so paths are
// tangent-continuous. Ends of a portal piece of non-zero length stay sharp.
// Corner k is one roundSharpCorners will round: it has no arc, is not a portal piece's end, turns,
// and (when shortening) changes layer.
bool needsArc(PathQuery& q, uint32_t k) {
    const Corner* c = q.c;
    if (k == 0 || k + 1 >= q.n || c[k].trim > 0.0 || c[k - 1].portal || c[k].portal) return false;
    if (q.shorten && c[k - 1].layer == c[k].layer) return false;
    const double turn = q.turnAt(k, q.pieces[k - 1].u, q.pieces[k].u);
    return std::fabs(turn) >= 1e-9 && std::fabs(turn) <= 3.14159265358979 - 1e-6;
}

void roundSharpCorners(PathQuery& q) {
    Corner* c = q.c;
    const PieceGeom* pieces = q.pieces;
    for (uint32_t i = 1; i + 1 < q.n; ++i) {
        const bool layer_change = c[i - 1].layer != c[i].layer;
        if (c[i].trim > 0.0 || c[i - 1].portal || c[i].portal || (q.shorten && !layer_change)) continue;
        const P u = pieces[i - 1].u, w = pieces[i].u;
        const double turn = q.turnAt(i, u, w);
        if (std::fabs(turn) < 1e-9 || std::fabs(turn) > 3.14159265358979 - 1e-6) continue;
        // Within what the neighbours' arcs leave of both pieces, and half the next piece when
        // the next corner is still to be rounded here (else this arc could take all of it and
        // leave that corner sharp); on the medial path also within half of each (the neighbours'
        // stored blends were sized that way).
        const double next_room =
            needsArc(q, i + 1) ? 0.5 * q.pieceLength(i) : q.pieceLength(i) - c[i + 1].trim;
        double room = std::fmin(q.pieceLength(i - 1) - c[i - 1].trim, next_room);
        if (!q.shorten) room = std::fmin(room, 0.5 * std::fmin(q.pieceLength(i - 1), q.pieceLength(i)));
        c[i].trim = largestClearTrim(q.rm, q.s, c[i - 1].layer, c[i].layer, P{c[i].x, c[i].y}, u, turn,
                                     std::fmax(room, 0.0), q.radius + 1e-5);
    }
}

// Keep every line between two arcs at least kMinLine long by shrinking trims (a smaller trim
// is a smaller arc inside the cleared region); pieces too short for that get no arcs.
void keepLinesBetweenArcs(PathQuery& q) {
    Corner* c = q.c;
    for (uint32_t i = 0; i + 1 < q.n; ++i) {
        const double len = q.pieceLength(i);
        if (len < 3 * kMinLine) {
            c[i].trim = c[i + 1].trim = 0.0;
            continue;
        }
        const double gap = len - c[i].trim - c[i + 1].trim;
        if (gap >= kMinLine || (c[i].trim == 0.0 && c[i + 1].trim == 0.0)) continue;
        const double cut = 0.5 * (kMinLine - gap);
        c[i].trim = c[i].trim > cut ? c[i].trim - cut : 0.0;
        c[i + 1].trim = c[i + 1].trim > cut ? c[i + 1].trim - cut : 0.0;
    }
}

// A corner with no arc that turns (outside portal pieces).
bool anySharpTurn(PathQuery& q) {
    const Corner* c = q.c;
    bool sharp = false;
    for (uint32_t i = 1; i + 1 < q.n && !sharp; ++i)
        sharp = !(c[i].trim > 0.0) && !c[i - 1].portal && !c[i].portal &&
                std::fabs(q.turnAt(i, q.pieces[i - 1].u, q.pieces[i].u)) >= 1e-9;
    return sharp;
}

// --- segments; each starts where the previous ended, so ends meet exactly ---
void emitSegments(PathQuery& q) {
    const Corner* c = q.c;
    const uint32_t n = q.n;
    P cursor = q.ps;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        const P b{c[i + 1].x, c[i + 1].y};
        const P u = q.pieces[i].u;
        const bool last = i + 2 == n;
        const P line_end = last ? q.pg : b - u * c[i + 1].trim;
        if (norm(line_end - cursor) > 0.0 || (last && q.emitter.count == 0)) {
            q.emitter.emit(lineSegment(cursor, line_end, c[i].layer, c[i].portal));
            cursor = line_end;
        }
        if (last || !(c[i + 1].trim > 0.0)) continue;
        // Arc tangent to u at the cursor, turning onto w.
        const P w = q.pieces[i + 1].u;
        const double turn = q.turnAt(i + 1, u, w);
        const double r = c[i + 1].trim / std::tan(0.5 * std::fabs(turn));
        const P left{-u.y, u.x};
        const P center = cursor + (turn > 0 ? left : left * -1.0) * r;
        // The end is the tangent point on the outgoing piece, not the start rotated about the
        // centre: a nearly straight corner has a centre kilometres away, whose rounding would
        // tilt the short line that follows.
        const P arc_end = b + w * c[i + 1].trim;
        q.emitter.emit(arcSegment(cursor, arc_end, center, r, turn, c[i + 1].layer));
        cursor = arc_end;
    }
}

bool validArguments(const fb::Roadmap* rm, const RoadmapView& view, const PathScratch* scratch,
                    PathEndpoint start, PathEndpoint goal, double radius, double preferred_clearance,
                    const PathSegment* out, const uint32_t* out_count, uint32_t max_segments) {
    if (std::isnan(preferred_clearance)) return false;
    if (!rm || !scratch || !out_count || (max_segments > 0 && !out)) return false;
    if (scratch->data != view.data) return false;
    if (!finiteD(start.x) || !finiteD(start.y) || !finiteD(goal.x) || !finiteD(goal.y)) return false;
    if (!(radius >= 0.0) || !finiteD(radius)) return false;
    const uint32_t layer_count = sizeOf(rm->footprint()->layers());
    return start.layer < layer_count && goal.layer < layer_count;
}

struct PhaseState {
    bool on;
    std::chrono::steady_clock::time_point last;
    PathPhaseTimes times;
};
thread_local PhaseState t_phases{};

} // namespace

void detail::phaseStart() {
    if (t_phases.on) t_phases.last = std::chrono::steady_clock::now();
}

void detail::phaseMark(Phase phase) {
    if (!t_phases.on) return;
    const auto now = std::chrono::steady_clock::now();
    const double us = std::chrono::duration<double, std::micro>(now - t_phases.last).count();
    t_phases.last = now;
    PathPhaseTimes& t = t_phases.times;
    double* slots[] = {&t.line_us,   &t.snap_us,   &t.search_us, &t.corridor_us,
                       &t.funnel_us, &t.verify_us, &t.output_us, &t.fallback_us};
    *slots[size_t(phase)] += us;
}

void detail::phaseCount(PathKind kind) {
    if (!t_phases.on) return;
    PathPhaseTimes& t = t_phases.times;
    ++(kind == PathKind::StraightLine ? t.straight_lines
       : kind == PathKind::Funnel     ? t.funnel_paths
                                      : t.fallback_paths);
}

void detail::phaseRoutePoints(uint32_t points) {
    if (t_phases.on && points > t_phases.times.max_route_points) t_phases.times.max_route_points = points;
}

void pathPhaseTiming(bool enable) {
    t_phases.on = enable;
}

PathPhaseTimes pathPhaseTimesTake() {
    const PathPhaseTimes t = t_phases.times;
    t_phases.times = PathPhaseTimes{};
    return t;
}

Status findPath(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                uint32_t max_segments) {
    return findPathWith(view, scratch, start, goal, radius, preferred_clearance, out, out_count, max_segments,
                        nullptr);
}

Status detail::findPathWith(const RoadmapView& view, PathScratch* scratch, PathEndpoint start,
                            PathEndpoint goal, double radius, double preferred_clearance, PathSegment* out,
                            uint32_t* out_count, uint32_t max_segments, const ActiveFilter* filter,
                            const ObstacleRoute* obstacles) {
    if (scratch && scratch->data == view.data && scratch->link_count)
        return findPathLinked(view, scratch, start, goal, radius, preferred_clearance, out, out_count,
                              max_segments, filter, obstacles);
    return findPathStretch(view, scratch, start, goal, radius, preferred_clearance, out, out_count,
                           max_segments, filter, obstacles, nullptr);
}

namespace {

// The polyline shortening (or, at +inf, the medial path) of the route's corners, emitted; false
// with *status when the query ends otherwise (the scratch too small, or the straight line).
bool polylinePath(PathQuery& q, Status* status) {
    const bool listed = listCorners(q);
    phaseRoutePoints(q.n);
    if (!listed) {
        *status = Status::ScratchTooSmall;
        return false;
    }
    if (q.shorten)
        shortenCorners(q.rm, &q.s, &q.n, q.radius, q.preferred_clearance, q.known);
    else
        dropTinyPieces(q);
    if (!q.shorten)
        for (uint32_t i = 0; i < q.n; ++i)
            q.c[i].trim = 0.0;
    measurePieces(q);
    if (!q.shorten) trimMedialCorners(q);
    roundSharpCorners(q);
    keepLinesBetweenArcs(q);

    // The medial path turning back on itself (an end on the other's retraction, say) has a corner
    // no arc fits: the straight line, when it keeps the radius, is then the path (on one
    // retraction it is that very path).
    if (q.medial && q.line_may_do && anySharpTurn(q) && q.lineAtRadius()) {
        *status = q.emitLine();
        return false;
    }
    emitSegments(q);
    return true;
}

// A corridor path from a wider try keeps the radius but need not be the shortest that does: the
// polyline shortening's, when it is shorter and fits after it in the caller's buffer, replaces it.
// True when it did.
bool keptShorterPolyline(PathQuery& q) {
    const Emitter funnel = q.emitter;
    if (funnel.count >= funnel.max) return false;
    q.emitter = Emitter{funnel.out + funnel.count, funnel.max - funnel.count, 0};
    Status status = Status::Ok;
    const bool polyline = polylinePath(q, &status);
    if (!polyline || q.emitter.count > q.emitter.max || !(q.emitter.length < funnel.length)) {
        q.emitter = funnel;
        return false;
    }
    std::memmove(funnel.out, q.emitter.out, q.emitter.count * sizeof(PathSegment));
    q.emitter = Emitter{funnel.out, funnel.max, q.emitter.count, q.emitter.length};
    return true;
}

} // namespace

Status detail::findPathStretch(const RoadmapView& view, PathScratch* scratch, PathEndpoint start,
                               PathEndpoint goal, double radius, double preferred_clearance, PathSegment* out,
                               uint32_t* out_count, uint32_t max_segments, const ActiveFilter* filter,
                               const ObstacleRoute* obstacles, LinkUse* links) {
    const fb::Roadmap* rm = root(view);
    if (!validArguments(rm, view, scratch, start, goal, radius, preferred_clearance, out, out_count,
                        max_segments))
        return Status::InvalidArgument;
    *out_count = 0;

    phaseStart();
    if (t_phases.on) ++t_phases.times.queries;
    PathScratch& s = *scratch;
    const P ps{start.x, start.y}, pg{goal.x, goal.y};
    if (!wallsInside(*rm, s, start.layer, ps) || !wallsInside(*rm, s, goal.layer, pg))
        return Status::NotFound;

    PathQuery q(*rm, s, start, goal, radius, preferred_clearance, out, max_segments, out_count);
    q.filter = filter;
    q.obstacles = obstacles;
    q.links = links;
    prepareAreas(*rm, &s, filter);
    if (straightLineWillDo(q)) {
        phaseMark(Phase::Line);
        phaseCount(PathKind::StraightLine);
        return q.emitLine();
    }
    phaseMark(Phase::Line);
    q.line_may_do = start.layer == goal.layer && (q.medial || q.line_clearance > radius);

    if (!snap(*rm, s, start.layer, ps, radius, q.medial, &q.qs, &q.dirs_s, filter) ||
        !snap(*rm, s, goal.layer, pg, radius, q.medial, &q.qg, &q.dirs_g, filter))
        return q.lineAtRadius() ? q.emitLine() : Status::NotFound;
    q.es = rm->edges()->Get(q.qs.edge);
    q.eg = rm->edges()->Get(q.qg.edge);
    // Ends in different parts of the graph: no route at any radius, without searching the start's
    // whole part first (a click on an island).
    // (Links join parts: then the search finds out.)
    if (!links && s.vertex_component[q.es->a()] != s.vertex_component[q.eg->a()])
        return q.lineAtRadius() ? q.emitLine() : Status::NotFound;
    q.s_along = alongEdge(*rm, q.qs), q.g_along = alongEdge(*rm, q.qg);
    q.len_s = s.edge_length[q.qs.edge], q.len_g = s.edge_length[q.qg.edge];
    q.goal_snap = P{q.qg.position.x, q.qg.position.y};
    if (obstacles) obstacleRestrictEnds(q);

    phaseMark(Phase::Snap);
    searchRoadmap(q);
    if (!(q.best < kInf)) return q.lineAtRadius() ? q.emitLine() : Status::NotFound;
    if (!traceRoute(q)) return Status::NotFound;
    // A route across a link: the caller plans around it; a clear line at the radius beats any link.
    if (links && links->link != kNone) {
        if (!q.lineAtRadius()) return Status::Ok;
        links->link = kNone;
        return q.emitLine();
    }
    phaseMark(Phase::Search);
    q.shorten = preferred_clearance < kInf;
    if (q.shorten && corridorPath(q)) {
        phaseCount(q.corridor_wider && keptShorterPolyline(q) ? PathKind::Fallback : PathKind::Funnel);
        if (q.line_may_do && q.emitter.length > kDetourFactor * norm(pg - ps) && q.lineAtRadius())
            return q.emitLine();
        return q.finish();
    }
    Status status = Status::Ok;
    if (!polylinePath(q, &status)) return status;
    phaseMark(Phase::Fallback);
    phaseCount(PathKind::Fallback);
    if (!q.medial && q.line_may_do && q.emitter.length > kDetourFactor * norm(pg - ps) && q.lineAtRadius())
        return q.emitLine();
    return q.finish();
}

} // namespace clearway
