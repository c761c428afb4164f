// Roadmap queries: nearest usable roadmap point (edge grid) and findPath (snap, A*, blends).
// Everything runs on a view verified by loadRoadmap, so indices are trusted; work is in double.
#include "path_internal.h"

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

constexpr uint32_t kNone = 0xffffffffu;
constexpr uint32_t kStartBackward = 0xfffffffeu; // start leaves its edge towards vertex a
constexpr uint32_t kStartForward = 0xfffffffdu;  // ... towards vertex b
constexpr uint32_t kClosed = 0xffffffffu;
// Candidates tried per endpoint when the nearest roadmap point is not visible in a straight line.
constexpr uint32_t kSnapCandidates = 8;
// Points closer than this are the same corner.
constexpr double kSamePoint = 1e-6;

// One layer's walls, queried through the scratch's wall grid.
struct LayerWalls {
    const fb::Roadmap& rm;
    const PathScratch& s;
    uint32_t layer;
};

// No wall touches a-b and every wall is at least `radius` away from it.
bool segmentClear(const LayerWalls& walls, P a, P b, double radius) {
    return wallsSegmentClear(walls.rm, walls.s, walls.layer, a, b, radius);
}

bool usableForSnap(const fb::Roadmap& rm, const fb::RoadmapEdge& e, uint32_t layer, double radius) {
    return !e.portal() && double(e.min_clearance()) >= radius &&
           rm.vertices()->Get(e.a())->layer() == layer && rm.vertices()->Get(e.b())->layer() == layer;
}

// Closest point of edge e's polyline to p.
RoadmapPoint closestOnEdge(const fb::Roadmap& rm, uint32_t edge, P p) {
    const fb::RoadmapEdge* e = rm.edges()->Get(edge);
    const auto* points = rm.points();
    RoadmapPoint best{edge, 0, 0.0, {0, 0}, kInf};
    double best2 = kInf;
    for (uint32_t k = 0; k + 1 < e->point_count(); ++k) {
        const P a = pt(points->Get(e->first_point() + k)), b = pt(points->Get(e->first_point() + k + 1));
        double t;
        const double d2 = pointSegment2(p, a, b, &t);
        if (d2 < best2) {
            best2 = d2;
            const P q = a + (b - a) * t;
            best = RoadmapPoint{edge, k, t, {q.x, q.y}, 0.0};
        }
    }
    best.distance = std::sqrt(best2);
    return best;
}

// Up to `max` nearest usable edges (one point each), sorted by distance: grid cells in growing
// square rings around p until the ring's distance exceeds the max-th best. With a scratch, its
// per-edge copy decides usability, and an edge whose bounding box is already farther than the
// max-th best is not measured (it would be rejected below anyway).
uint32_t nearestCandidates(const fb::Roadmap& rm, const PathScratch* scratch, uint32_t layer, P p,
                           double radius, RoadmapPoint* out, uint32_t max) {
    const fb::EdgeGrid* grid = rm.grid();
    const double cs = grid->cell_size(), min_x = grid->min_x(), min_y = grid->min_y();
    const int64_t nx = grid->cells_x(), ny = grid->cells_y();
    auto cellOf = [](double v, int64_t n) {
        if (!(v > 0.0)) return int64_t(0);
        return v >= double(n - 1) ? n - 1 : int64_t(v);
    };
    const int64_t ci = cellOf((p.x - min_x) / cs, nx), cj = cellOf((p.y - min_y) / cs, ny);
    const auto* start = grid->cell_start();
    const auto* cell_edges = grid->cell_edges();
    const uint32_t* layer_start =
        scratch ? scratch->snap_cell_start + size_t(layer) * size_t(nx * ny + 1) : nullptr;
    uint32_t count = 0;
    // Far above the rounding of both distances, so the box test never rejects an edge that the
    // exact comparison below would keep.
    const double margin = 1e-9 * (1.0 + std::fabs(p.x) + std::fabs(p.y));

    // A new search round for edge_seen (cleared when the counter wraps).
    uint32_t round = 0;
    if (scratch) {
        uint32_t* seen = scratch->edge_seen;
        if (++seen[0] == 0) {
            std::memset(seen + 1, 0, size_t(scratch->edge_count) * sizeof(uint32_t));
            seen[0] = 1;
        }
        round = seen[0];
    }
    auto consider = [&](uint32_t edge) {
        if (scratch) {
            // Seen before in this search: whatever it got then (rejected, or a candidate kept
            // or pushed out by nearer ones), the bounds have only tightened since.
            if (scratch->edge_seen[1 + edge] == round) return;
            scratch->edge_seen[1 + edge] = round;
            const EdgeSnap& es = scratch->edge_snap[edge];
            if (!(es.min_clearance >= radius)) return; // the layer list holds only this layer's edges
            if (count == max) {
                // Ternaries, not std::fmax (a library call here); all values are finite.
                const double dx = es.x0 > p.x ? es.x0 - p.x : (p.x > es.x1 ? p.x - es.x1 : 0.0);
                const double dy = es.y0 > p.y ? es.y0 - p.y : (p.y > es.y1 ? p.y - es.y1 : 0.0);
                if (std::sqrt(dx * dx + dy * dy) - margin > out[max - 1].distance) return;
            }
        } else if (!usableForSnap(rm, *rm.edges()->Get(edge), layer, radius)) {
            return;
        }
        for (uint32_t i = 0; i < count; ++i)
            if (out[i].edge == edge) return; // already measured over its whole polyline
        const RoadmapPoint c = closestOnEdge(rm, edge, p);
        if (count == max && c.distance >= out[max - 1].distance) return;
        uint32_t i = count < max ? count++ : max - 1;
        for (; i > 0 && out[i - 1].distance > c.distance; --i)
            out[i] = out[i - 1];
        out[i] = c;
    };
    auto visit = [&](int64_t i, int64_t j) {
        if (i < 0 || j < 0 || i >= nx || j >= ny) return;
        const uint32_t c = uint32_t(j * nx + i);
        if (layer_start) {
            for (uint32_t k = layer_start[c], end = layer_start[c + 1]; k < end; ++k)
                consider(scratch->snap_cell_edges[k]);
            return;
        }
        for (uint32_t k = start->Get(c), end = start->Get(c + 1); k < end; ++k)
            consider(cell_edges->Get(k));
    };

    const int64_t max_ring = (nx > ny ? nx : ny);
    for (int64_t r = 0; r <= max_ring; ++r) {
        if (r == 0) {
            visit(ci, cj);
        } else {
            // Only the ring's cells inside the grid: a long thin grid must not cost its square.
            const int64_t i0 = ci - r > 0 ? ci - r : 0, i1 = ci + r < nx - 1 ? ci + r : nx - 1;
            const int64_t j0 = cj - r + 1 > 0 ? cj - r + 1 : 0,
                          j1 = cj + r - 1 < ny - 1 ? cj + r - 1 : ny - 1;
            for (const int64_t j : {cj - r, cj + r})
                if (j >= 0 && j < ny)
                    for (int64_t i = i0; i <= i1; ++i)
                        visit(i, j);
            for (const int64_t i : {ci - r, ci + r})
                if (i >= 0 && i < nx)
                    for (int64_t j = j0; j <= j1; ++j)
                        visit(i, j);
        }
        // Cells not visited yet lie beyond one of the square's sides that still has cells.
        double bound = kInf;
        bool more = false;
        if (ci - r > 0) more = true, bound = minOf(bound, maxOf(0.0, p.x - (min_x + double(ci - r) * cs)));
        if (ci + r + 1 < nx)
            more = true, bound = minOf(bound, maxOf(0.0, min_x + double(ci + r + 1) * cs - p.x));
        if (cj - r > 0) more = true, bound = minOf(bound, maxOf(0.0, p.y - (min_y + double(cj - r) * cs)));
        if (cj + r + 1 < ny)
            more = true, bound = minOf(bound, maxOf(0.0, min_y + double(cj + r + 1) * cs - p.y));
        if (!more) break;
        // The baker assigned cells in double and stored floats: allow for that rounding.
        if (count == max && out[max - 1].distance <= bound - 1e-4 * cs) break;
    }
    return count;
}

bool finiteD(double v) {
    return std::isfinite(v);
}

// Along-polyline distance from vertex a to a point on the edge.
double alongEdge(const fb::Roadmap& rm, const RoadmapPoint& q) {
    const fb::RoadmapEdge* e = rm.edges()->Get(q.edge);
    const auto* points = rm.points();
    double s = 0.0;
    for (uint32_t k = 0; k < q.piece; ++k)
        s += norm(pt(points->Get(e->first_point() + k + 1)) - pt(points->Get(e->first_point() + k)));
    const double piece =
        norm(pt(points->Get(e->first_point() + q.piece + 1)) - pt(points->Get(e->first_point() + q.piece)));
    return s + q.t * piece;
}

// The edge's polyline from q to vertex a (towards_a) or b keeps `radius` from the walls: checked
// exactly piece by piece, for edges whose minimum clearance is too small as a whole.
bool partialClear(const fb::Roadmap& rm, const LayerWalls& walls, const RoadmapPoint& q, bool towards_a,
                  double radius) {
    const fb::RoadmapEdge* e = rm.edges()->Get(q.edge);
    const auto* points = rm.points();
    P cur{q.position.x, q.position.y};
    const int64_t n = e->point_count();
    for (int64_t k = towards_a ? int64_t(q.piece) : int64_t(q.piece) + 1; towards_a ? k >= 0 : k < n;
         k += towards_a ? -1 : 1) {
        const P next = pt(points->Get(e->first_point() + uint32_t(k)));
        if (!segmentClear(walls, cur, next, radius)) return false;
        cur = next;
    }
    return true;
}

constexpr uint8_t kTowardsA = 1, kTowardsB = 2;

// The retraction of free space onto its medial axis: from p, straight away from its nearest wall
// point, the clearance grows until the ray meets the axis, so that line keeps p's clearance. The
// first roadmap edge the ray crosses (edge grid cells along it) is where p retracts to; used when
// none of the nearest edges is in plain view (a point deep in a wide room whose nearest axis
// branches are behind corners).
bool retractionSnap(const fb::Roadmap& rm, const LayerWalls& walls, P p, double radius, RoadmapPoint* out,
                    uint8_t* directions) {
    P wall;
    if (wallsNearest(rm, walls.s, walls.layer, p, &wall) < radius) return false;
    const P away = p - wall;
    const double away_len = norm(away);
    if (!(away_len > 0.0)) return false;
    const P dir = away * (1.0 / away_len);

    const fb::EdgeGrid* grid = rm.grid();
    const double cs = grid->cell_size(), min_x = grid->min_x(), min_y = grid->min_y();
    const int64_t nx = grid->cells_x(), ny = grid->cells_y();
    const P size{cs * double(nx), cs * double(ny)};
    const double reach = norm(P{min_x, min_y} + size * 0.5 - p) + norm(size); // past the whole grid
    const auto* points = rm.points();
    double best_t = kInf;
    RoadmapPoint best{};
    int64_t last_cell = -1;
    // Only the stretch of the ray inside the grid's rectangle can meet a cell (slab test): on a
    // corrupt asset with a tiny grid far from p, stepping from p would take ~forever.
    double enter = 0.0, leave = reach;
    const double origin[2] = {p.x, p.y}, direction[2] = {dir.x, dir.y}, low[2] = {min_x, min_y},
                 high[2] = {min_x + size.x, min_y + size.y};
    for (int axis = 0; axis < 2; ++axis) {
        if (direction[axis] == 0.0) {
            if (!(origin[axis] >= low[axis] && origin[axis] <= high[axis])) return false;
            continue;
        }
        double t0 = (low[axis] - origin[axis]) / direction[axis],
               t1 = (high[axis] - origin[axis]) / direction[axis];
        if (t0 > t1) std::swap(t0, t1);
        enter = std::fmax(enter, t0);
        leave = std::fmin(leave, t1);
    }
    if (!(enter <= leave)) return false;
    const double step = 0.5 * cs;
    // Inside the rectangle the ray crosses at most its diagonal, < 2 (nx + ny) + 2 half-cell steps;
    // the cap also ends a loop whose step vanishes in rounding (a tiny cell far from p).
    const double max_steps = 2.0 * double(nx + ny) + 8.0;
    double steps_taken = 0.0;
    // Half-cell steps along the ray, on the same lattice from p wherever the rectangle starts; a
    // hit closer than the next step's start is final.
    for (double along = enter > step ? step * std::floor(enter / step) : 0.0;
         along <= std::fmin(leave + step, reach) && along <= best_t + cs && ++steps_taken <= max_steps;
         along += step) {
        const P q = p + dir * along;
        const double fi = std::floor((q.x - min_x) / cs), fj = std::floor((q.y - min_y) / cs);
        // Checked in double: a coordinate far outside would overflow the integer conversion.
        if (!(fi >= 0.0 && fj >= 0.0 && fi < double(nx) && fj < double(ny))) continue;
        const int64_t i = int64_t(fi), j = int64_t(fj);
        const int64_t cell = j * nx + i;
        if (cell == last_cell) continue;
        last_cell = cell;
        for (uint32_t k = grid->cell_start()->Get(uint32_t(cell)),
                      end = grid->cell_start()->Get(uint32_t(cell) + 1);
             k < end; ++k) {
            const uint32_t edge = grid->cell_edges()->Get(k);
            const fb::RoadmapEdge* e = rm.edges()->Get(edge);
            if (e->portal() || rm.vertices()->Get(e->a())->layer() != walls.layer ||
                rm.vertices()->Get(e->b())->layer() != walls.layer)
                continue;
            for (uint32_t piece = 0; piece + 1 < e->point_count(); ++piece) {
                const P a = pt(points->Get(e->first_point() + piece)),
                        b = pt(points->Get(e->first_point() + piece + 1));
                const P ab = b - a;
                const double den = cross(dir, ab);
                if (den == 0.0) continue;
                const double t = cross(a - p, ab) / den, u = cross(a - p, dir) / den;
                if (t < 0.0 || u < 0.0 || u > 1.0 || t >= best_t) continue;
                best_t = t;
                const P hit = a + ab * u;
                best = RoadmapPoint{edge, piece, u, {hit.x, hit.y}, t};
            }
        }
    }
    if (!(best_t < kInf) || !segmentClear(walls, p, P{best.position.x, best.position.y}, radius))
        return false;
    const fb::RoadmapEdge* e = rm.edges()->Get(best.edge);
    uint8_t dirs = kTowardsA | kTowardsB;
    if (double(e->min_clearance()) < radius)
        dirs = uint8_t((partialClear(rm, walls, best, true, radius) ? kTowardsA : 0) |
                       (partialClear(rm, walls, best, false, radius) ? kTowardsB : 0));
    if (!dirs) return false;
    *out = best;
    *directions = dirs;
    return true;
}

// Snap an endpoint: the nearest usable roadmap point that a straight, clear line reaches. Else
// a visible point on a narrower edge (a branch into a corner, say) from which the edge keeps the
// radius towards at least one of its vertices. *directions: which ways along the edge are clear.
// `retract_first` (the medial-axis path): the retraction is tried before the nearest edges, since
// along it the clearance grows as fast as it can.
bool snap(const fb::Roadmap& rm, const PathScratch& scratch, uint32_t layer, P p, double radius,
          bool retract_first, RoadmapPoint* out, uint8_t* directions) {
    RoadmapPoint candidates[kSnapCandidates];
    const LayerWalls walls{rm, scratch, layer};
    if (retract_first && retractionSnap(rm, walls, p, radius, out, directions)) return true;
    auto visible = [&](const RoadmapPoint& c) {
        return c.distance <= kSamePoint || segmentClear(walls, p, P{c.position.x, c.position.y}, radius);
    };
    // The nearest usable edge first: it is the first of the kSnapCandidates nearest (a later one
    // at the same distance sorts after it) and usually in view, and finding it alone visits fewer
    // cells and edges.
    uint32_t n = nearestCandidates(rm, &scratch, layer, p, radius, candidates, 1);
    if (n == 1 && visible(candidates[0])) {
        *out = candidates[0];
        *directions = kTowardsA | kTowardsB;
        return true;
    }
    n = nearestCandidates(rm, &scratch, layer, p, radius, candidates, kSnapCandidates);
    for (uint32_t i = 0; i < n; ++i) {
        if (visible(candidates[i])) {
            *out = candidates[i];
            *directions = kTowardsA | kTowardsB;
            return true;
        }
    }
    n = nearestCandidates(rm, &scratch, layer, p, -1.0, candidates, kSnapCandidates);
    for (uint32_t i = 0; i < n; ++i) {
        if (double(rm.edges()->Get(candidates[i].edge)->min_clearance()) >= radius) continue; // tried above
        if (!visible(candidates[i])) continue;
        const uint8_t dirs = uint8_t((partialClear(rm, walls, candidates[i], true, radius) ? kTowardsA : 0) |
                                     (partialClear(rm, walls, candidates[i], false, radius) ? kTowardsB : 0));
        if (dirs) {
            *out = candidates[i];
            *directions = dirs;
            return true;
        }
    }
    return !retract_first && retractionSnap(rm, walls, p, radius, out, directions);
}

// --- binary heap on f, with positions for decrease-key ---
// Sifting moves a hole and writes the moving entry once: the same comparisons, so the same heap,
// as swapping at every level.

void heapPlace(PathScratch* s, uint32_t i, HeapEntry e) {
    s->heap[i] = e;
    s->nodes[e.v].heap_pos = i;
}
void heapUp(PathScratch* s, uint32_t i) {
    const HeapEntry e = s->heap[i];
    while (i > 0) {
        const uint32_t parent = (i - 1) / 2;
        if (s->heap[parent].f <= e.f) break;
        heapPlace(s, i, s->heap[parent]);
        i = parent;
    }
    heapPlace(s, i, e);
}
void heapDown(PathScratch* s, uint32_t i) {
    const HeapEntry e = s->heap[i];
    const uint32_t n = s->heap_size;
    for (;;) {
        const uint32_t l = 2 * i + 1, r = l + 1;
        uint32_t m = i;
        double fm = e.f;
        if (l < n && s->heap[l].f < fm) m = l, fm = s->heap[l].f;
        if (r < n && s->heap[r].f < fm) m = r;
        if (m == i) break;
        heapPlace(s, i, s->heap[m]);
        i = m;
    }
    heapPlace(s, i, e);
}
uint32_t heapPop(PathScratch* s) {
    const uint32_t top = s->heap[0].v;
    --s->heap_size;
    if (s->heap_size) {
        s->heap[0] = s->heap[s->heap_size];
        heapDown(s, 0);
    }
    s->nodes[top].heap_pos = kClosed;
    return top;
}

// Lowers v's cost to g (heuristic h(v) added for f); ignores closed vertices and costs that are
// no better. The heuristic (a square root) is computed once per vertex and only when it is reached.
template <typename H> void relax(PathScratch* s, uint32_t v, double g, H h, uint32_t parent) {
    if (s->nodes[v].stamp == s->generation) {
        if (s->nodes[v].heap_pos == kClosed || g >= s->nodes[v].g) return;
        s->nodes[v].g = g;
        s->heap[s->nodes[v].heap_pos].f = g + s->nodes[v].h;
        s->nodes[v].parent = parent;
        heapUp(s, s->nodes[v].heap_pos);
        return;
    }
    s->nodes[v].stamp = s->generation;
    s->nodes[v].g = g;
    s->nodes[v].h = h(v);
    s->nodes[v].parent = parent;
    s->heap[s->heap_size] = HeapEntry{g + s->nodes[v].h, v};
    s->nodes[v].heap_pos = s->heap_size;
    heapUp(s, s->heap_size++);
}

// Landmarks by farthest points, per connected component of the whole graph: slot l of every
// vertex holds its cost from its own component's l-th landmark, so start, goal and every vertex
// A* reaches read the same landmark (a search never leaves its component). The first landmark is
// the vertex farthest from the component's first vertex; each next one the vertex farthest from
// its nearest landmark so far. One multi-source Dijkstra over every edge per slot, with A*'s own
// costs, on the scratch's search state (reset afterwards).
void computeLandmarks(PathScratch* s) {
    const uint32_t nv = s->vertex_count;
    s->landmark_count = 0;
    if (nv == 0) return;
    // Vertices in breadth-first order per component, its first entry flagged. kPick marks the
    // vertex chosen as its component's next landmark until the next Dijkstra takes it.
    constexpr uint32_t kFirst = 0x80000000u, kPick = 0x40000000u, kVertex = 0x3fffffffu;
    if (nv > kVertex) { // no room for the flags: A* keeps the straight-line heuristic alone
        for (size_t i = 0; i < size_t(nv) * kLandmarks; ++i)
            s->landmark_dist[i] = kInf;
        for (uint32_t v = 0; v < nv; ++v)
            s->vertex_component[v] = 0;
        return;
    }
    uint32_t* order = s->landmark_order;
    if (++s->generation == 0) s->generation = 1;
    uint32_t n = 0, components = 0;
    for (uint32_t root = 0; root < nv; ++root) {
        if (s->nodes[root].stamp == s->generation) continue;
        s->nodes[root].stamp = s->generation;
        const uint32_t component = components++;
        s->vertex_component[root] = component;
        order[n++] = root | kFirst;
        for (uint32_t head = n - 1; head < n; ++head) {
            const uint32_t u = order[head] & kVertex;
            for (uint32_t k = s->adj_start[u], end = s->adj_start[u + 1]; k < end; ++k)
                if (s->nodes[s->adj[k].other].stamp != s->generation) {
                    s->nodes[s->adj[k].other].stamp = s->generation;
                    s->vertex_component[s->adj[k].other] = component;
                    order[n++] = s->adj[k].other;
                }
        }
    }
    auto zero = [](uint32_t) { return 0.0; };
    // Costs from every vertex flagged `flag` into nodes[].g (stamped with the generation).
    auto dijkstra = [&](uint32_t flag) {
        if (++s->generation == 0) s->generation = 1;
        s->heap_size = 0;
        for (uint32_t i = 0; i < nv; ++i)
            if (order[i] & flag) relax(s, order[i] & kVertex, 0.0, zero, kStartForward);
        while (s->heap_size > 0) {
            const uint32_t v = heapPop(s);
            const double gv = s->nodes[v].g;
            for (uint32_t k = s->adj_start[v], end = s->adj_start[v + 1]; k < end; ++k)
                relax(s, s->adj[k].other, gv + s->adj[k].cost, zero, s->adj[k].edge);
        }
        for (uint32_t i = 0; i < nv; ++i)
            order[i] &= ~kPick;
    };
    // Flags the vertex of largest `far(v)` in each component (the first in order on ties).
    auto pickFarthest = [&](auto far) {
        uint32_t best = 0;
        double best_far = -1.0;
        for (uint32_t i = 0; i <= nv; ++i) {
            if (i == nv || (order[i] & kFirst)) {
                if (i > 0) order[best] |= kPick;
                if (i == nv) break;
                best_far = -1.0;
            }
            const double d = far(order[i] & kVertex);
            if (d > best_far) best_far = d, best = i;
        }
    };
    dijkstra(kFirst);
    pickFarthest([&](uint32_t v) { return s->nodes[v].g; });
    for (uint32_t l = 0; l < kLandmarks; ++l) {
        dijkstra(kPick);
        for (uint32_t v = 0; v < nv; ++v)
            s->landmark_dist[size_t(v) * kLandmarks + l] = s->nodes[v].g;
        s->landmark_count = l + 1;
        pickFarthest([&](uint32_t v) {
            double d = kInf;
            for (uint32_t k = 0; k <= l; ++k)
                d = minOf(d, s->landmark_dist[size_t(v) * kLandmarks + k]);
            return d;
        });
    }
    for (uint32_t v = 0; v < nv; ++v)
        s->nodes[v].stamp = 0;
    s->generation = 0;
    s->heap_size = 0;
}

size_t alignUp(size_t v, size_t a) {
    return (v + a - 1) / a * a;
}

// Scratch layout: one header, then the arrays, each 8-byte aligned.
struct Layout {
    size_t adj_start, adj, blend_start, blend_ids, edge_length, edge_weight, edge_snap, edge_seen,
        snap_cell_start, snap_cell_edges, area_used, vertex_xy, landmark_dist, landmark_order,
        vertex_component, nodes, heap, route, corners, corner_clearance, relaxed_run, relaxed_requirement,
        wall_grids, wall_cell_start, wall_cell_items, wall_solid_start, wall_solid_segs, wall_cell_box,
        wall_cell_pieces, wall_seen, seg_memo;
    size_t total;
    uint32_t corner_capacity;
};

Layout layoutFor(const fb::Roadmap& rm) {
    const size_t v = sizeOf(rm.vertices()), e = sizeOf(rm.edges()), b = sizeOf(rm.blends()),
                 p = sizeOf(rm.points());
    Layout l{};
    size_t at = alignUp(sizeof(PathScratch), 8);
    auto take = [&](size_t bytes) {
        const size_t here = at;
        at = alignUp(at + bytes, 8);
        return here;
    };
    l.adj_start = take((v + 1) * 4);
    l.adj = take(2 * e * sizeof(AdjEntry));
    l.blend_start = take((v + 1) * 4);
    l.blend_ids = take(b * 4);
    l.edge_length = take(e * 8);
    l.edge_weight = take(e * 8);
    l.edge_snap = take(e * sizeof(EdgeSnap));
    l.edge_seen = take((e + 1) * sizeof(uint32_t));
    const size_t grid_cells = size_t(rm.grid()->cells_x()) * size_t(rm.grid()->cells_y());
    l.snap_cell_start = take(sizeOf(rm.footprint()->layers()) * (grid_cells + 1) * 4);
    l.snap_cell_edges = take(sizeOf(rm.grid()->cell_edges()) * 4);
    l.area_used = take(sizeOf(rm.areas()));
    l.vertex_xy = take(v * sizeof(P));
    l.landmark_dist = take(v * kLandmarks * sizeof(double));
    l.landmark_order = take(v * 4);
    l.vertex_component = take(v * 4);
    l.nodes = take(v * sizeof(AStarNode));
    l.heap = take(v * sizeof(HeapEntry));
    l.route = take((e + 2) * 4);
    // Each edge is walked at most once except the start/goal edge (twice, in parts), plus the
    // two endpoints and two snap points.
    l.corner_capacity = uint32_t(2 * p + 8);
    l.corners = take(size_t(l.corner_capacity) * sizeof(Corner));
    l.corner_clearance = take(size_t(l.corner_capacity) * sizeof(double));
    l.relaxed_run = take(size_t(l.corner_capacity) * sizeof(Corner));
    l.relaxed_requirement = take(size_t(l.corner_capacity) * sizeof(double));
    uint64_t cell_entries = 0, items = 0, solid_items = 0, pieces = 0;
    wallGridSizes(rm, &cell_entries, &items, &solid_items, &pieces);
    l.wall_grids = take(sizeOf(rm.footprint()->layers()) * sizeof(WallGrid));
    l.wall_cell_start = take(size_t(cell_entries) * sizeof(uint32_t));
    l.wall_cell_items = take(size_t(items) * sizeof(WallRef));
    l.wall_solid_start = take(size_t(cell_entries) * sizeof(uint32_t));
    l.wall_solid_segs = take(size_t(solid_items) * sizeof(WallSeg));
    l.wall_cell_box = take(size_t(cell_entries) * sizeof(CellBox));
    l.wall_cell_pieces = take(size_t(cell_entries) * sizeof(CellBox));
    l.wall_seen = take(size_t(pieces + 1) * sizeof(uint32_t));
    l.seg_memo = take(kSegMemoSlots * sizeof(SegMemo));
    l.total = at + 8; // slack to align the caller's pointer
    return l;
}

} // namespace

Status nearestRoadmapPoint(const RoadmapView& view, uint32_t layer, double x, double y, double radius,
                           RoadmapPoint* out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !out || !finiteD(x) || !finiteD(y) || !(radius >= 0.0) || !finiteD(radius))
        return Status::InvalidArgument;
    if (layer >= sizeOf(rm->footprint()->layers())) return Status::InvalidArgument;
    RoadmapPoint best;
    if (nearestCandidates(*rm, nullptr, layer, P{x, y}, radius, &best, 1) == 0) return Status::NotFound;
    *out = best;
    return Status::Ok;
}

Status pathScratchSize(const RoadmapView& view, size_t* bytes) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !bytes) return Status::InvalidArgument;
    *bytes = layoutFor(*rm).total;
    return Status::Ok;
}

Status pathScratchInit(const RoadmapView& view, void* memory, size_t bytes, PathScratch** out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !memory || !out) return Status::InvalidArgument;
    const Layout l = layoutFor(*rm);
    if (bytes < l.total) return Status::BufferTooSmall;
    uint8_t* base = reinterpret_cast<uint8_t*>(alignUp(reinterpret_cast<uintptr_t>(memory), 8));
    PathScratch* s = new (base) PathScratch{};
    s->data = view.data;
    s->vertex_count = sizeOf(rm->vertices());
    s->edge_count = sizeOf(rm->edges());
    s->blend_count = sizeOf(rm->blends());
    s->corner_capacity = l.corner_capacity;
    s->generation = 0;
    s->adj_start = reinterpret_cast<uint32_t*>(base + l.adj_start);
    s->adj = reinterpret_cast<AdjEntry*>(base + l.adj);
    s->blend_start = reinterpret_cast<uint32_t*>(base + l.blend_start);
    s->blend_ids = reinterpret_cast<uint32_t*>(base + l.blend_ids);
    s->edge_length = reinterpret_cast<double*>(base + l.edge_length);
    s->edge_weight = reinterpret_cast<double*>(base + l.edge_weight);
    s->edge_snap = reinterpret_cast<EdgeSnap*>(base + l.edge_snap);
    s->edge_seen = reinterpret_cast<uint32_t*>(base + l.edge_seen);
    std::memset(s->edge_seen, 0, (size_t(s->edge_count) + 1) * sizeof(uint32_t));
    s->snap_cell_start = reinterpret_cast<uint32_t*>(base + l.snap_cell_start);
    s->snap_cell_edges = reinterpret_cast<uint32_t*>(base + l.snap_cell_edges);
    s->area_count = sizeOf(rm->areas());
    s->area_used = base + l.area_used;
    s->vertex_xy = reinterpret_cast<P*>(base + l.vertex_xy);
    s->landmark_dist = reinterpret_cast<double*>(base + l.landmark_dist);
    s->landmark_order = reinterpret_cast<uint32_t*>(base + l.landmark_order);
    s->vertex_component = reinterpret_cast<uint32_t*>(base + l.vertex_component);
    s->nodes = reinterpret_cast<AStarNode*>(base + l.nodes);
    s->heap = reinterpret_cast<HeapEntry*>(base + l.heap);
    s->route = reinterpret_cast<uint32_t*>(base + l.route);
    s->corners = reinterpret_cast<Corner*>(base + l.corners);
    s->corner_clearance = reinterpret_cast<double*>(base + l.corner_clearance);
    s->relaxed_run = reinterpret_cast<Corner*>(base + l.relaxed_run);
    s->relaxed_requirement = reinterpret_cast<double*>(base + l.relaxed_requirement);
    // Only shortenCorners uses relaxed_run, and findPath fills `pieces` after it returns.
    static_assert(sizeof(PieceGeom) <= sizeof(Corner), "pieces share relaxed_run's memory");
    s->pieces = reinterpret_cast<PieceGeom*>(base + l.relaxed_run);
    s->wall_grids = reinterpret_cast<WallGrid*>(base + l.wall_grids);
    s->wall_cell_start = reinterpret_cast<uint32_t*>(base + l.wall_cell_start);
    s->wall_cell_items = reinterpret_cast<WallRef*>(base + l.wall_cell_items);
    s->wall_solid_start = reinterpret_cast<uint32_t*>(base + l.wall_solid_start);
    s->wall_solid_segs = reinterpret_cast<WallSeg*>(base + l.wall_solid_segs);
    s->wall_cell_box = reinterpret_cast<CellBox*>(base + l.wall_cell_box);
    s->wall_cell_pieces = reinterpret_cast<CellBox*>(base + l.wall_cell_pieces);
    s->wall_seen = reinterpret_cast<uint32_t*>(base + l.wall_seen);
    s->seg_memo = reinterpret_cast<SegMemo*>(base + l.seg_memo);
    std::memset(s->seg_memo, 0, kSegMemoSlots * sizeof(SegMemo));
    s->seg_memo_round = 0;
    s->layer_count = sizeOf(rm->footprint()->layers());
    wallGridBuild(*rm, s);
    std::memset(s->wall_seen, 0, (size_t(s->wall_piece_count) + 1) * sizeof(uint32_t));

    const uint32_t nv = s->vertex_count, ne = s->edge_count, nb = s->blend_count;
    const auto* edges = rm->edges();
    const auto* points = rm->points();
    // Counting sort: incident edges per vertex, then blends per vertex.
    std::memset(s->adj_start, 0, (nv + 1) * sizeof(uint32_t));
    for (uint32_t e = 0; e < ne; ++e) {
        const fb::RoadmapEdge* edge = edges->Get(e);
        if (edge->a() == edge->b()) continue; // a loop never shortens a route
        ++s->adj_start[edge->a() + 1];
        ++s->adj_start[edge->b() + 1];
    }
    for (uint32_t v = 0; v < nv; ++v)
        s->adj_start[v + 1] += s->adj_start[v];
    for (uint32_t v = 0; v < nv; ++v)
        s->nodes[v].stamp = s->adj_start[v]; // fill cursor, reset below
    for (uint32_t e = 0; e < ne; ++e) {
        const fb::RoadmapEdge* edge = edges->Get(e);
        if (edge->a() == edge->b()) continue;
        s->adj[s->nodes[edge->a()].stamp++].edge = e;
        s->adj[s->nodes[edge->b()].stamp++].edge = e;
    }
    std::memset(s->blend_start, 0, (nv + 1) * sizeof(uint32_t));
    for (uint32_t b = 0; b < nb; ++b)
        ++s->blend_start[rm->blends()->Get(b)->vertex() + 1];
    for (uint32_t v = 0; v < nv; ++v)
        s->blend_start[v + 1] += s->blend_start[v];
    for (uint32_t v = 0; v < nv; ++v)
        s->nodes[v].stamp = s->blend_start[v];
    for (uint32_t b = 0; b < nb; ++b)
        s->blend_ids[s->nodes[rm->blends()->Get(b)->vertex()].stamp++] = b;
    for (uint32_t v = 0; v < nv; ++v)
        s->nodes[v].stamp = 0;

    for (uint32_t e = 0; e < ne; ++e) {
        const fb::RoadmapEdge* edge = edges->Get(e);
        double len = 0.0;
        for (uint32_t k = 0; k + 1 < edge->point_count(); ++k)
            len +=
                norm(pt(points->Get(edge->first_point() + k + 1)) - pt(points->Get(edge->first_point() + k)));
        s->edge_length[e] = len;
        EdgeSnap& snap = s->edge_snap[e];
        snap = EdgeSnap{kInf, kInf, -kInf, -kInf, double(edge->min_clearance()), kNone};
        for (uint32_t k = 0; k < edge->point_count(); ++k) {
            const P q = pt(points->Get(edge->first_point() + k));
            snap.x0 = std::fmin(snap.x0, q.x), snap.y0 = std::fmin(snap.y0, q.y);
            snap.x1 = std::fmax(snap.x1, q.x), snap.y1 = std::fmax(snap.y1, q.y);
        }
        const uint32_t la = rm->vertices()->Get(edge->a())->layer();
        if (!edge->portal() && la == rm->vertices()->Get(edge->b())->layer()) snap.layer = la;
    }
    // The edge grid by layer: each layer's snappable edges, cell by cell in the asset's order.
    {
        const fb::EdgeGrid* grid = rm->grid();
        const uint32_t cells = grid->cells_x() * grid->cells_y();
        uint32_t at = 0;
        for (uint32_t layer = 0; layer < s->layer_count; ++layer) {
            uint32_t* start = s->snap_cell_start + size_t(layer) * (cells + 1);
            for (uint32_t c = 0; c < cells; ++c) {
                start[c] = at;
                for (uint32_t k = grid->cell_start()->Get(c); k < grid->cell_start()->Get(c + 1); ++k) {
                    const uint32_t edge = grid->cell_edges()->Get(k);
                    if (s->edge_snap[edge].layer == layer) s->snap_cell_edges[at++] = edge;
                }
            }
            start[cells] = at;
        }
    }
    // Designer areas: cost per metre of each edge, and the least of them for the heuristic.
    const auto* weights = rm->edge_weights();
    s->heuristic_scale = 1.0;
    for (uint32_t e = 0; e < ne; ++e) {
        s->edge_weight[e] = sizeOf(weights) == ne ? double(weights->Get(e)) : 1.0;
        if (s->edge_weight[e] < s->heuristic_scale) s->heuristic_scale = s->edge_weight[e];
    }
    for (uint32_t v = 0; v < nv; ++v) {
        const fb::RoadmapVertex* vx = rm->vertices()->Get(v);
        s->vertex_xy[v] = P{vx->x(), vx->y()};
        for (uint32_t k = s->adj_start[v]; k < s->adj_start[v + 1]; ++k) {
            AdjEntry& a = s->adj[k];
            const fb::RoadmapEdge* edge = edges->Get(a.edge);
            a.other = edge->a() == v ? edge->b() : edge->a();
            a.cost = s->edge_length[a.edge] * s->edge_weight[a.edge];
            a.min_clearance = edge->min_clearance();
            const fb::RoadmapVertex* other = rm->vertices()->Get(a.other);
            a.other_x = other->x(), a.other_y = other->y();
        }
    }
    computeLandmarks(s);
    *out = s;
    return Status::Ok;
}

namespace {

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

uint32_t otherEnd(const fb::RoadmapEdge& e, uint32_t v) {
    return e.a() == v ? e.b() : e.a();
}

// Turn at a corner from unit u to unit w: signed angle, + counter-clockwise.
double turnAngle(P u, P w) {
    return std::atan2(cross(u, w), dot(u, w));
}

P unit(P d) {
    const double n = norm(d);
    return n > 0.0 ? d * (1.0 / n) : P{0, 0};
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

struct Emitter {
    PathSegment* out;
    uint32_t max, count;
    double length = 0; // of every segment emitted, stored or not
    void emit(const PathSegment& s) {
        if (count < max) out[count] = s;
        ++count;
        length += s.length;
    }
};

// A path along the roadmap longer than this times the straight line between the ends gives way
// to that line when it keeps the radius: the preferred clearance is worth a bend, not a detour
// (a 2.8 m hop past a wall corner came out as a 17.5 m tour round the roadmap). The factor is the
// length bound the roadmap paper sets for paths kept at twice the radius (Nieuwenhuisen et al. 2004).
constexpr double kDetourFactor = 1.10;

} // namespace

Status findPath(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                uint32_t max_segments) {
    const fb::Roadmap* rm = root(view);
    if (std::isnan(preferred_clearance)) return Status::InvalidArgument;
    if (!rm || !scratch || !out_count || (max_segments > 0 && !out)) return Status::InvalidArgument;
    if (scratch->data != view.data) return Status::InvalidArgument;
    if (!finiteD(start.x) || !finiteD(start.y) || !finiteD(goal.x) || !finiteD(goal.y))
        return Status::InvalidArgument;
    if (!(radius >= 0.0) || !finiteD(radius)) return Status::InvalidArgument;
    const uint32_t layer_count = sizeOf(rm->footprint()->layers());
    if (start.layer >= layer_count || goal.layer >= layer_count) return Status::InvalidArgument;
    *out_count = 0;

    PathScratch& s = *scratch;
    const P ps{start.x, start.y}, pg{goal.x, goal.y};
    const LayerWalls start_layer{*rm, s, start.layer};
    if (!wallsInside(*rm, s, start.layer, ps) || !wallsInside(*rm, s, goal.layer, pg))
        return Status::NotFound;

    Emitter emitter{out, max_segments, 0};
    auto finish = [&]() {
        *out_count = emitter.count;
        return emitter.count > max_segments ? Status::BufferTooSmall : Status::Ok;
    };

    // +infinity asks for the medial-axis path itself: retract onto the axis, follow it, retract to
    // the goal. No straight line stands in for it, however clear (in a convex room the line keeps
    // only the smaller clearance of its ends), except as the answer where the roadmap has none or
    // where the medial path would turn back on itself (no arc fits a reversal).
    const bool medial = !(preferred_clearance < kInf);
    // Visible in a straight line: nothing shorter exists.
    // Above the radius, the line must also keep the preferred clearance the two ends allow.
    double line_clearance = radius;
    KnownClearance known[2] = {{ps, kNone, 0.0}, {pg, kNone, 0.0}}; // shortening needs them again
    if (!medial && preferred_clearance > radius && start.layer == goal.layer) {
        known[0].distance = wallsNearest(*rm, s, start.layer, ps, nullptr), known[0].layer = start.layer;
        known[1].distance = wallsNearest(*rm, s, goal.layer, pg, nullptr), known[1].layer = goal.layer;
        const double ends = std::fmin(known[0].distance, known[1].distance);
        line_clearance = std::fmax(radius, std::fmin(preferred_clearance, ends));
    }
    // Designer areas: the line must not enter an avoided area that neither end lies in.
    clearAreaMarks(&s);
    markAreas(*rm, &s, start.layer, ps, ps);
    markAreas(*rm, &s, goal.layer, pg, pg);
    auto emitLine = [&]() {
        PathSegment seg{};
        seg.type = PathSegmentType::Line;
        seg.layer = start.layer;
        seg.start = Vec2d{ps.x, ps.y};
        seg.end = Vec2d{pg.x, pg.y};
        seg.length = norm(pg - ps);
        emitter = Emitter{out, max_segments, 0};
        emitter.emit(seg);
        return finish();
    };
    if (!medial && start.layer == goal.layer && segmentClear(start_layer, ps, pg, line_clearance) &&
        areasAllow(*rm, s, start.layer, ps, pg))
        return emitLine();
    // The line at the radius alone, asked only when the roadmap gives no path or a detour (or, for
    // the medial path, no path or a reversal).
    const bool line_may_do = start.layer == goal.layer && (medial || line_clearance > radius);
    auto lineAtRadius = [&]() {
        return line_may_do && segmentClear(start_layer, ps, pg, radius) &&
               areasAllow(*rm, s, start.layer, ps, pg);
    };

    RoadmapPoint qs, qg;
    uint8_t dirs_s = 0, dirs_g = 0;
    if (!snap(*rm, s, start.layer, ps, radius, medial, &qs, &dirs_s) ||
        !snap(*rm, s, goal.layer, pg, radius, medial, &qg, &dirs_g))
        return lineAtRadius() ? emitLine() : Status::NotFound;
    const auto* edges = rm->edges();
    const auto* vertices = rm->vertices();
    const fb::RoadmapEdge& es = *edges->Get(qs.edge);
    const fb::RoadmapEdge& eg = *edges->Get(qg.edge);
    // Ends in different parts of the graph: no route at any radius, without searching the start's
    // whole part first (a click on an island).
    if (s.vertex_component[es.a()] != s.vertex_component[eg.a()])
        return lineAtRadius() ? emitLine() : Status::NotFound;

    const double s_along = alongEdge(*rm, qs), g_along = alongEdge(*rm, qg);
    const double len_s = s.edge_length[qs.edge], len_g = s.edge_length[qg.edge];
    const P goal_snap{qg.position.x, qg.position.y};

    // --- A* over usable edges; start and goal are points on edges, not vertices ---
    if (++s.generation == 0) {
        for (uint32_t v = 0; v < s.vertex_count; ++v)
            s.nodes[v].stamp = 0;
        s.generation = 1;
    }
    s.heap_size = 0;
    // Costs are lengths times the edges' area weights (1 without designer areas); the heuristic
    // is scaled by the least weight so it never overestimates.
    // Landmarks: the goal's cost from each (through either end of its edge).
    double goal_cost[kLandmarks];
    for (uint32_t l = 0; l < kLandmarks; ++l)
        goal_cost[l] = minOf(
            s.landmark_dist[size_t(eg.a()) * kLandmarks + l] + g_along * s.edge_weight[qg.edge],
            s.landmark_dist[size_t(eg.b()) * kLandmarks + l] + (len_g - g_along) * s.edge_weight[qg.edge]);
    auto landmarks = [&](uint32_t v, double bound) {
        const double* d = s.landmark_dist + size_t(v) * kLandmarks;
        for (uint32_t l = 0; l < kLandmarks; ++l)
            if (d[l] < kInf && goal_cost[l] < kInf) bound = maxOf(bound, std::fabs(goal_cost[l] - d[l]));
        return bound;
    };
    auto h = [&](uint32_t v) { return landmarks(v, norm(s.vertex_xy[v] - goal_snap) * s.heuristic_scale); };
    const double w_s = s.edge_weight[qs.edge], w_g = s.edge_weight[qg.edge];
    double best = kInf;
    uint32_t best_vertex = kNone;
    bool goal_from_a = true;
    // Along a shared edge: one usable as a whole, or a partly clear one whose stretch between the
    // two snap points is clear (it lies within a clear way from one of them to a vertex; else
    // the route would run to that vertex and turn back).
    const bool goal_ahead = g_along >= s_along;
    if (qs.edge == qg.edge &&
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
            relax(
                &s, a.other, gv + a.cost,
                [&](uint32_t) {
                    return landmarks(a.other, norm(P{a.other_x, a.other_y} - goal_snap) * s.heuristic_scale);
                },
                a.edge);
        }
    }
    if (!(best < kInf)) return lineAtRadius() ? emitLine() : Status::NotFound;

    // --- route: edges from the start edge's exit vertex to the goal edge's entry vertex ---
    uint32_t route_count = 0;
    bool start_forward = s_along <= g_along; // only for the shared-edge case
    if (best_vertex != kNone) {
        uint32_t v = best_vertex;
        while (s.nodes[v].parent != kStartBackward && s.nodes[v].parent != kStartForward) {
            if (route_count == s.edge_count) return Status::NotFound; // parents form a tree; guard anyway
            const uint32_t e = s.nodes[v].parent;
            s.route[route_count++] = e;
            v = otherEnd(*edges->Get(e), v);
        }
        start_forward = s.nodes[v].parent == kStartForward;
        for (uint32_t i = 0; i < route_count / 2; ++i) {
            const uint32_t t = s.route[i];
            s.route[i] = s.route[route_count - 1 - i];
            s.route[route_count - 1 - i] = t;
        }
    }

    // --- corners: start, snap, polylines, vertices, snap, goal ---
    CornerList list{s.corners, 0, s.corner_capacity, false};
    list.push(makeCorner(Corner::Endpoint, ps, start.layer, false));
    list.push(makeCorner(Corner::Snap, P{qs.position.x, qs.position.y}, start.layer, false));
    const int64_t ns = es.point_count(), ngp = eg.point_count();
    if (best_vertex == kNone) {
        if (start_forward)
            pushInterior(list, *rm, qs.edge, int64_t(qs.piece) + 1, int64_t(qg.piece), true, start.layer);
        else
            pushInterior(list, *rm, qs.edge, int64_t(qs.piece), int64_t(qg.piece) + 1, false, start.layer);
    } else {
        // Leave the start edge, then every route edge, arriving at a vertex each time.
        uint32_t at = start_forward ? es.b() : es.a();
        if (start_forward)
            pushInterior(list, *rm, qs.edge, int64_t(qs.piece) + 1, ns - 2, true, start.layer);
        else
            pushInterior(list, *rm, qs.edge, int64_t(qs.piece), 1, false, start.layer);
        uint32_t in = qs.edge;
        for (uint32_t i = 0; i <= route_count; ++i) {
            const uint32_t next = i < route_count ? s.route[i] : qg.edge;
            const fb::RoadmapEdge& ne = *edges->Get(next);
            const fb::RoadmapVertex* vx = vertices->Get(at);
            Corner c = makeCorner(Corner::Vertex, P{vx->x(), vx->y()}, vx->layer(), ne.portal());
            c.vertex = at;
            c.edge_in = in;
            c.edge_out = next;
            list.push(c);
            if (i == route_count) break;
            const bool forward = ne.a() == at;
            const int64_t n = ne.point_count();
            if (forward)
                pushInterior(list, *rm, next, 1, n - 2, true, vx->layer());
            else
                pushInterior(list, *rm, next, n - 2, 1, false, vx->layer());
            at = otherEnd(ne, at);
            in = next;
        }
        if (goal_from_a)
            pushInterior(list, *rm, qg.edge, 1, int64_t(qg.piece), true, goal.layer);
        else
            pushInterior(list, *rm, qg.edge, ngp - 2, int64_t(qg.piece) + 1, false, goal.layer);
    }
    list.push(makeCorner(Corner::Snap, goal_snap, goal.layer, false));
    list.push(makeCorner(Corner::Endpoint, pg, goal.layer, false));
    if (list.overflow) return Status::NotFound; // cannot happen on a verified asset (capacity bound)

    Corner* c = list.c;
    uint32_t n = list.n;
    const bool shorten = preferred_clearance < kInf;
    if (shorten) shortenCorners(*rm, &s, &n, radius, preferred_clearance, known);

    // Pieces too short to hold an arc (a snap landing next to a polyline point, say) would leave
    // a sharp corner: drop the inner corner when the piece that replaces the two stays clear.
    for (uint32_t i = 1; !shorten && i + 1 < n;) {
        const P prev{c[i - 1].x, c[i - 1].y}, here{c[i].x, c[i].y}, next{c[i + 1].x, c[i + 1].y};
        const bool tiny = norm(here - prev) < 3 * kMinLine || norm(next - here) < 3 * kMinLine;
        if (!tiny || c[i - 1].portal || c[i].portal || c[i].kind == Corner::Endpoint ||
            c[i - 1].layer != c[i + 1].layer ||
            !segmentClear(LayerWalls{*rm, s, c[i].layer}, prev, next, radius)) {
            ++i;
            continue;
        }
        for (uint32_t j = i; j + 1 < n; ++j)
            c[j] = c[j + 1];
        --n;
    }

    // --- trims: stored blends at vertices, checked arcs at snap points (medial path only) ---
    if (!shorten)
        for (uint32_t i = 0; i < n; ++i)
            c[i].trim = 0.0;
    // Corner positions are final from here on: each corner's turn is computed once (the
    // shortening's per-corner clearances are no longer needed).
    double* turns = s.corner_clearance;
    for (uint32_t i = 0; i < n; ++i)
        turns[i] = std::numeric_limits<double>::quiet_NaN();
    auto turnAt = [&](uint32_t i, P u, P w) { // u, w: the unit pieces into and out of corner i
        if (turns[i] != turns[i]) turns[i] = turnAngle(u, w);
        return turns[i];
    };
    // Every piece's direction and length, once (the loops below ask for each several times).
    PieceGeom* pieces = s.pieces;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        const P d{c[i + 1].x - c[i].x, c[i + 1].y - c[i].y};
        const double len = norm(d);
        new (&pieces[i]) PieceGeom{len > 0.0 ? d * (1.0 / len) : P{0, 0}, len}; // unit(d), as below
    }
    auto pieceLength = [&](uint32_t i) { return pieces[i].length; };
    for (uint32_t i = 1; !shorten && i + 1 < n; ++i) {
        // Corners that get no arc here skip the turn's atan2.
        if (c[i].kind == Corner::Endpoint ||
            (c[i].kind == Corner::Interior &&
             (c[i].edge_in == kNone || rm->edges()->Get(c[i].edge_in)->site() != fb::ClearanceSite::Point)))
            continue;
        const P u = pieces[i - 1].u, w = pieces[i].u;
        const double turn = std::fabs(turnAt(i, u, w));
        // Straight on (no arc needed) or turning back (no arc fits).
        if (turn < 1e-9 || turn > 3.14159265358979 - 1e-6) continue;
        const double room = 0.5 * (pieceLength(i - 1) < pieceLength(i) ? pieceLength(i - 1) : pieceLength(i));
        if (c[i].kind == Corner::Vertex) {
            // A stored blend scaled towards its vertex stays in the region it already cleared.
            const double t = storedBlendTrim(*rm, s, c[i].vertex, c[i].edge_in, c[i].edge_out, radius);
            c[i].trim = t < room ? t : room;
        } else if (c[i].kind == Corner::Snap) {
            c[i].trim = largestClearTrim(*rm, s, c[i].layer, c[i].layer, P{c[i].x, c[i].y}, u,
                                         turnAt(i, u, w), room, radius);
        } else if (c[i].kind == Corner::Interior && c[i].edge_in != kNone) {
            // A chord corner of a parabola: clearance there is the distance to the focus, and an arc
            // bending towards the focus stays in its cell, so the exact focus-to-arc distance decides.
            const fb::RoadmapEdge& e = *rm->edges()->Get(c[i].edge_in);
            if (e.site() != fb::ClearanceSite::Point) continue;
            const P corner{c[i].x, c[i].y}, focus{e.site_x0(), e.site_y0()};
            const double signed_turn = turnAt(i, u, w);
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

    // Corners still sharp (on the medial path: no stored blend, a merged chain's polyline corner;
    // on both: where the path changes layer, the arc checked against both layers' walls): the
    // largest arc that keeps the radius and fits beside its neighbours' arcs, so paths are
    // tangent-continuous. Ends of a portal piece of non-zero length stay sharp.
    for (uint32_t i = 1; i + 1 < n; ++i) {
        const bool layer_change = c[i - 1].layer != c[i].layer;
        if (c[i].trim > 0.0 || c[i - 1].portal || c[i].portal || (shorten && !layer_change)) continue;
        const P u = pieces[i - 1].u, w = pieces[i].u;
        const double turn = turnAt(i, u, w);
        if (std::fabs(turn) < 1e-9 || std::fabs(turn) > 3.14159265358979 - 1e-6) continue;
        // Within what the neighbours' arcs leave of both pieces; on the medial path also within
        // half of each (the neighbours' stored blends were sized that way).
        double room = std::fmin(pieceLength(i - 1) - c[i - 1].trim, pieceLength(i) - c[i + 1].trim);
        if (!shorten) room = std::fmin(room, 0.5 * std::fmin(pieceLength(i - 1), pieceLength(i)));
        c[i].trim = largestClearTrim(*rm, s, c[i - 1].layer, c[i].layer, P{c[i].x, c[i].y}, u, turn,
                                     std::fmax(room, 0.0), radius + 1e-5);
    }

    // Keep every line between two arcs at least kMinLine long by shrinking trims (a smaller trim
    // is a smaller arc inside the cleared region); pieces too short for that get no arcs.
    for (uint32_t i = 0; i + 1 < n; ++i) {
        const double len = pieceLength(i);
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

    // The medial path turning back on itself (an end on the other's retraction, say) has a corner
    // no arc fits: the straight line, when it keeps the radius, is then the path (on one
    // retraction it is that very path).
    if (medial && line_may_do) {
        bool sharp = false;
        for (uint32_t i = 1; i + 1 < n && !sharp; ++i)
            sharp = !(c[i].trim > 0.0) && !c[i - 1].portal && !c[i].portal &&
                    std::fabs(turnAt(i, pieces[i - 1].u, pieces[i].u)) >= 1e-9;
        if (sharp && lineAtRadius()) return emitLine();
    }

    // --- segments; each starts where the previous ended, so ends meet exactly ---
    P cursor = ps;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        const P a{c[i].x, c[i].y}, b{c[i + 1].x, c[i + 1].y};
        const P u = pieces[i].u;
        const bool last = i + 2 == n;
        const P line_end = last ? pg : b - u * c[i + 1].trim;
        if (norm(line_end - cursor) > 0.0 || (last && emitter.count == 0)) {
            PathSegment seg{};
            seg.type = PathSegmentType::Line;
            seg.portal = c[i].portal;
            seg.layer = c[i].layer;
            seg.start = Vec2d{cursor.x, cursor.y};
            seg.end = Vec2d{line_end.x, line_end.y};
            seg.length = norm(line_end - cursor);
            emitter.emit(seg);
            cursor = line_end;
        }
        if (last || !(c[i + 1].trim > 0.0)) continue;
        // Arc tangent to u at the cursor, turning onto w.
        const P w = pieces[i + 1].u;
        const double turn = turnAt(i + 1, u, w);
        const double r = c[i + 1].trim / std::tan(0.5 * std::fabs(turn));
        const P left{-u.y, u.x};
        const P center = cursor + (turn > 0 ? left : left * -1.0) * r;
        // The end is the tangent point on the outgoing piece, not the start rotated about the
        // centre: a nearly straight corner has a centre kilometres away, whose rounding would
        // tilt the short line that follows.
        const P arc_end = b + w * c[i + 1].trim;
        PathSegment arc{};
        arc.type = PathSegmentType::Arc;
        arc.layer = c[i + 1].layer;
        arc.start = Vec2d{cursor.x, cursor.y};
        arc.end = Vec2d{arc_end.x, arc_end.y};
        arc.center = Vec2d{center.x, center.y};
        arc.radius = r;
        arc.sweep = turn;
        arc.length = r * std::fabs(turn);
        emitter.emit(arc);
        cursor = arc_end;
    }
    if (!medial && line_may_do && emitter.length > kDetourFactor * norm(pg - ps) && lineAtRadius())
        return emitLine();
    return finish();
}

} // namespace clearway
