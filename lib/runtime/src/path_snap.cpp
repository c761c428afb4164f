// Snapping query endpoints onto the roadmap: nearest usable edges through the edge grid, and the
// retraction onto the medial axis (Nieuwenhuisen, Kamphuis, Mooijekind, Overmars 2004); nearestRoadmapPoint.
#include "path_internal.h"

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace clearway {
namespace detail {

namespace {

// Candidates tried per endpoint when the nearest roadmap point is not visible in a straight line.
constexpr uint32_t kSnapCandidates = 8;

bool usableForSnap(const fb::Roadmap& rm, const fb::RoadmapEdge& e, uint32_t layer, double radius) {
    return !e.portal() && double(e.min_clearance()) >= radius &&
           rm.vertices()->Get(e.a())->layer() == layer && rm.vertices()->Get(e.b())->layer() == layer;
}

// Up to `max` nearest usable edges (one point each), sorted by distance: grid cells in growing
// square rings around p until the ring's distance exceeds the max-th best. With a scratch, its
// per-edge copy decides usability, and an edge whose bounding box is already farther than the
// max-th best is not measured (it would be rejected below anyway).
uint32_t nearestCandidates(const fb::Roadmap& rm, const PathScratch* scratch, uint32_t layer, P p,
                           double radius, RoadmapPoint* out, uint32_t max,
                           const ActiveFilter* filter = nullptr) {
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
        scratch ? scratch->snap_cell_start +
                      (size_t(snapClass(radius)) * scratch->layer_count + layer) * size_t(nx * ny + 1)
                : nullptr;
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
                const double reach = out[max - 1].distance + margin;
                if (dx * dx + dy * dy > reach * reach) return;
            }
        } else if (!usableForSnap(rm, *rm.edges()->Get(edge), layer, radius)) {
            return;
        }
        if (filter && !edgePasses(rm, *filter, edge)) return;
        for (uint32_t i = 0; i < count; ++i)
            if (out[i].edge == edge) return; // already measured over its whole polyline
        const RoadmapPoint c = closestOnEdge(rm, edge, p);
        if (count == max && c.distance >= out[max - 1].distance) return;
        uint32_t i = count < max ? count++ : max - 1;
        for (; i > 0 && out[i - 1].distance > c.distance; --i)
            out[i] = out[i - 1];
        out[i] = c;
    };
    // The baker assigned cells in double and stored floats: allow for that rounding.
    const double slack = 1e-4 * cs;
    auto visit = [&](int64_t i, int64_t j) {
        if (i < 0 || j < 0 || i >= nx || j >= ny) return;
        if (count == max) {
            // A cell farther than the max-th best holds no edge that would be kept (any edge it
            // lists that comes nearer is listed where it does); its edges are not even looked at.
            const double cx0 = min_x + double(i) * cs, cy0 = min_y + double(j) * cs;
            const double dx = maxOf(0.0, maxOf(cx0 - p.x, p.x - (cx0 + cs)));
            const double dy = maxOf(0.0, maxOf(cy0 - p.y, p.y - (cy0 + cs)));
            const double reach = out[max - 1].distance + slack;
            if (dx * dx + dy * dy > reach * reach) return;
        }
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
        if (count == max && out[max - 1].distance <= bound - slack) break;
    }
    return count;
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

} // namespace

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

// Snap an endpoint: the nearest usable roadmap point that a straight, clear line reaches. Else
// a visible point on a narrower edge (a branch into a corner, say) from which the edge keeps the
// radius towards at least one of its vertices. *directions: which ways along the edge are clear.
// `retract_first` (the medial-axis path): the retraction is tried before the nearest edges, since
// along it the clearance grows as fast as it can.
bool snap(const fb::Roadmap& rm, const PathScratch& scratch, uint32_t layer, P p, double radius,
          bool retract_first, RoadmapPoint* out, uint8_t* directions, const ActiveFilter* filter) {
    RoadmapPoint candidates[kSnapCandidates];
    const LayerWalls walls{rm, scratch, layer};
    // Under a filter the line onto the roadmap, like the edges, keeps out of the areas it closes.
    auto open = [&](const RoadmapPoint& c) {
        return !filter || closedAreasAllow(rm, *filter, layer, p, P{c.position.x, c.position.y});
    };
    auto retracted = [&] {
        return retractionSnap(rm, walls, p, radius, out, directions) &&
               (!filter || edgePasses(rm, *filter, out->edge)) && open(*out);
    };
    if (retract_first && retracted()) return true;
    auto visible = [&](const RoadmapPoint& c) {
        return (c.distance <= kSamePoint || segmentClear(walls, p, P{c.position.x, c.position.y}, radius)) &&
               open(c);
    };
    // The nearest usable edge first: it is the first of the kSnapCandidates nearest (a later one
    // at the same distance sorts after it) and usually in view, and finding it alone visits fewer
    // cells and edges.
    uint32_t n = nearestCandidates(rm, &scratch, layer, p, radius, candidates, 1, filter);
    if (n == 1 && visible(candidates[0])) {
        *out = candidates[0];
        *directions = kTowardsA | kTowardsB;
        return true;
    }
    n = nearestCandidates(rm, &scratch, layer, p, radius, candidates, kSnapCandidates, filter);
    for (uint32_t i = 0; i < n; ++i) {
        if (visible(candidates[i])) {
            *out = candidates[i];
            *directions = kTowardsA | kTowardsB;
            return true;
        }
    }
    n = nearestCandidates(rm, &scratch, layer, p, -1.0, candidates, kSnapCandidates, filter);
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
    return !retract_first && retracted();
}

} // namespace detail

using namespace ::clearway::detail;

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

} // namespace clearway
