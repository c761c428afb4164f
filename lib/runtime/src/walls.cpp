// Wall grid queries: exact distances from points, segments, arcs and rays to a layer's walls
// without scanning every wall. The grid is built into the path scratch at init (walls_grid.cpp),
// so queries never allocate.
#include "wall_cells.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace clearway {
namespace detail {

namespace {

constexpr double kPi = 3.14159265358979323846;

// A superset of forEachCellNear's cells, for queries whose answer does not depend on the order
// or repetition of the walls they see (wallsSegmentClear): reciprocals instead of divisions,
// with a margin far above the difference in rounding (1e-7 cell), so no cell of the exact
// span is missed.
template <typename Fn>
bool forEachCellNearLoose(const WallGrid& g, P a, P b, double pad, const uint32_t* bits, Fn fn) {
    const double inv_cell = 1.0 / g.cell;
    const double slack = pad + 1e-7 * g.cell;
    auto cellAt = [&](double v, double min, uint32_t n) { return clampedFloor((v - min) * inv_cell, n); };
    const int64_t j0 = cellAt(minOf(a.y, b.y) - slack, g.min_y, g.ny);
    const int64_t j1 = cellAt(maxOf(a.y, b.y) + slack, g.min_y, g.ny);
    const double dy = b.y - a.y, dx = b.x - a.x;
    // Row j's part of the segment: the line's x where it crosses the row's band, clipped to the
    // segment's x range (an empty part gives an empty column range).
    const double slope = dy != 0.0 ? dx / dy : 0.0;
    const double sx0 = minOf(a.x, b.x), sx1 = maxOf(a.x, b.x);
    for (int64_t j = j0; j <= j1; ++j) {
        double x_lo = sx0, x_hi = sx1;
        if (dy != 0.0) {
            const double ylo = g.min_y + double(j) * g.cell - slack,
                         yhi = g.min_y + double(j + 1) * g.cell + slack;
            const double xl = a.x + (ylo - a.y) * slope, xh = a.x + (yhi - a.y) * slope;
            x_lo = maxOf(x_lo, minOf(xl, xh)), x_hi = minOf(x_hi, maxOf(xl, xh));
        }
        const int64_t i0 = cellAt(x_lo - slack, g.min_x, g.nx);
        const int64_t i1 = cellAt(x_hi + slack, g.min_x, g.nx);
        if (!forEachOccupied(bits, g, j, i0, i1, fn)) return false;
    }
    return true;
}

const WallGrid& gridOf(const PathScratch& s, uint32_t layer) {
    return s.wall_grids[layer];
}

const uint32_t* occupancy(const PathScratch& s, const WallGrid& g) {
    return s.wall_solid_start + g.first_cell + g.nx * g.ny + 1;
}

template <typename Fn> bool forEachItem(const PathScratch& s, const WallGrid& g, uint32_t cell, Fn fn) {
    const uint32_t* start = s.wall_cell_start + g.first_cell;
    for (uint32_t k = start[cell], end = start[cell + 1]; k < end; ++k)
        if (!fn(s.wall_cell_items[k])) return false;
    return true;
}

// A new query round for PathScratch::wall_seen; returns its number.
uint32_t nextSeen(const PathScratch& s) {
    if (++s.wall_seen[0] == 0) {
        std::memset(s.wall_seen + 1, 0, s.wall_piece_count * sizeof(uint32_t));
        s.wall_seen[0] = 1;
    }
    return s.wall_seen[0];
}

// True the first time piece `id` is seen in query round `round`.
bool firstSight(const PathScratch& s, uint32_t id, uint32_t round) {
    if (s.wall_seen[1 + id] == round) return false;
    s.wall_seen[1 + id] = round;
    return true;
}

// The solid wall pieces listed in a cell.
template <typename Fn> bool forEachSolidSeg(const PathScratch& s, const WallGrid& g, uint32_t cell, Fn fn) {
    const uint32_t* start = s.wall_solid_start + g.first_cell;
    for (const WallSeg *w = s.wall_solid_segs + start[cell], *end = s.wall_solid_segs + start[cell + 1];
         w < end; ++w)
        if (!fn(*w)) return false;
    return true;
}

// The wall's box lies wholly outside [x0, x1] x [y0, y1] (non-short-circuit: one branch). The
// float box holds the exact one, so this rejects no wall that the exact box would keep.
inline bool boxOutside(const WallSeg& w, double x0, double y0, double x1, double y1) {
    return (double(w.x1) < x0) | (double(w.x0) > x1) | (double(w.y1) < y0) | (double(w.y0) > y1);
}

// The solid wall pieces listed in a cell, as segments c-d.
template <typename Fn> bool forEachSolid(const PathScratch& s, const WallGrid& g, uint32_t cell, Fn fn) {
    const uint32_t* start = s.wall_solid_start + g.first_cell;
    const WallSeg* segs = s.wall_solid_segs;
    for (uint32_t k = start[cell], end = start[cell + 1]; k < end; ++k)
        if (!fn(segs[k].c, segs[k].d)) return false;
    return true;
}

} // namespace

// Angle of point p round `center`, measured from `start` in the sweep's sense, in [0, 2 pi).
double angleAlong(P center, P start, double sweep, P p) {
    const P u = start - center, v = p - center;
    double a = std::atan2(cross(u, v), dot(u, v));
    if (sweep < 0) a = -a;
    return a < 0 ? a + 2 * kPi : a;
}

P rotate(P v, double angle) {
    const double c = std::cos(angle), s = std::sin(angle);
    return {v.x * c - v.y * s, v.x * s + v.y * c};
}

// angleAlong(center, start, sweep, p) <= |sweep|, `end` the arc's last point: by the signs of two
// cross products where the arc turns less than 3 radians (its wedge is convex) and p lies clearly
// inside or outside the wedge, else by the angle. The margin is far above the cross products'
// rounding, so the answer is the angle's, bit for bit, without an atan2 for most points.
bool withinSweep(P center, P start, P end, double sweep, P p) {
    if (std::fabs(sweep) <= 3.0) {
        const P u0 = start - center, u1 = end - center, v = p - center;
        const double sense = sweep < 0.0 ? -1.0 : 1.0;
        const double c0 = sense * cross(u0, v), c1 = sense * cross(v, u1);
        const double margin2 = 1e-18 * dot(u0, u0) * dot(v, v);
        auto clear = [&](double c) { return c * c > margin2; };
        if (c0 > 0.0 && c1 > 0.0 && clear(c0) && clear(c1)) return true;
        if ((c0 < 0.0 && clear(c0)) || (c1 < 0.0 && clear(c1))) return false;
    }
    return angleAlong(center, start, sweep, p) <= std::fabs(sweep);
}

double pointArcDistance(P center, double radius, P start, P end, double sweep, P p) {
    if (withinSweep(center, start, end, sweep, p)) return std::fabs(norm(p - center) - radius);
    return std::fmin(norm(p - start), norm(p - end));
}

namespace {

// Exact distance between a circular arc and segment c-d: 0 when they cross; else the smallest of
// the endpoint distances and the one interior critical pair (the segment's foot from the centre,
// outside the circle and within the sweep).
// `end` is center + rotate(start - center, sweep), computed once per arc by the caller.
double arcSegmentDistance(P center, double radius, P start, P end, double sweep, P c, P d) {
    const P dir = d - c;
    const double len2 = dot(dir, dir);
    if (len2 > 0.0) {
        // Line-circle intersections inside the segment and the sweep.
        const P f = c - center;
        const double B = dot(f, dir), C = dot(f, f) - radius * radius, disc = B * B - len2 * C;
        if (disc >= 0.0) {
            const double sq = std::sqrt(disc);
            for (const double t : {(-B - sq) / len2, (-B + sq) / len2})
                if (t >= 0.0 && t <= 1.0 && withinSweep(center, start, end, sweep, c + dir * t))
                    return 0.0;
        }
    }
    double best = std::fmin(pointArcDistance(center, radius, start, end, sweep, c),
                            pointArcDistance(center, radius, start, end, sweep, d));
    best = std::fmin(best, std::sqrt(pointSegment2(start, c, d, nullptr)));
    best = std::fmin(best, std::sqrt(pointSegment2(end, c, d, nullptr)));
    double t;
    pointSegment2(center, c, d, &t);
    const P foot = c + dir * t;
    const double df = norm(foot - center);
    if (t > 0.0 && t < 1.0 && df > radius && withinSweep(center, start, end, sweep, foot))
        best = std::fmin(best, df - radius);
    return best;
}

} // namespace

bool wallsSegmentClear(const fb::Roadmap&, const PathScratch& s, uint32_t layer, P a, P b, double clearance) {
    const WallGrid& g = gridOf(s, layer);
    const double r2 = clearance * clearance;
    const double lo_x = minOf(a.x, b.x) - clearance, hi_x = maxOf(a.x, b.x) + clearance;
    const double lo_y = minOf(a.y, b.y) - clearance, hi_y = maxOf(a.y, b.y) + clearance;
    // A wall whose ends both lie on one side of the line a-b, farther than the clearance, is
    // clear: only the exact test below decides the others. The margin (far above the rounding of
    // either test) keeps the answer bit for bit that of the exact test.
    const P ab = b - a;
    const double len = norm(ab);
    const double margin =
        1e-9 * (1.0 + std::fabs(a.x) + std::fabs(a.y) + std::fabs(b.x) + std::fabs(b.y) + clearance);
    const double band = (clearance + margin) * len;
    // Any wall closer than the clearance is listed in a cell of the exact span, so a superset
    // of cells changes nothing but the work.
    const uint32_t round = nextSeen(s);
    const uint32_t* start = s.wall_solid_start + g.first_cell;
    const CellBox* boxes = s.wall_cell_box + g.first_cell;
    return forEachCellNearLoose(g, a, b, clearance, occupancy(s, g), [&](uint32_t cell) {
        // A wall closer than the clearance is so within a cell listing it (a cell of the span):
        // a cell whose walls' parts all lie beyond the box or the band has none of them.
        const CellBox& box = boxes[cell];
        if ((double(box.x1) < lo_x) | (double(box.x0) > hi_x) | (double(box.y1) < lo_y) |
            (double(box.y0) > hi_y))
            return true;
        if (band > 0.0) {
            const double o00 = cross(ab, P{box.x0 - a.x, box.y0 - a.y}),
                         o01 = cross(ab, P{box.x0 - a.x, box.y1 - a.y});
            const double o10 = cross(ab, P{box.x1 - a.x, box.y0 - a.y}),
                         o11 = cross(ab, P{box.x1 - a.x, box.y1 - a.y});
            if ((o00 >= band && o01 >= band && o10 >= band && o11 >= band) ||
                (o00 <= -band && o01 <= -band && o10 <= -band && o11 <= -band))
                return true;
        }
        for (const WallSeg *w = s.wall_solid_segs + start[cell], *end = s.wall_solid_segs + start[cell + 1];
             w < end; ++w) {
            if (boxOutside(*w, lo_x, lo_y, hi_x, hi_y)) continue;
            const P c = w->c, d = w->d;
            const uint32_t id = w->id;
            const double oc = cross(ab, c - a), od = cross(ab, d - a);
            if (band > 0.0 && ((oc >= band && od >= band) || (oc <= -band && od <= -band))) continue;
            if (!firstSight(s, id, round)) continue; // measured in another cell, and clear
            const double d2 = segmentSegment2(a, b, c, d);
            if (!(d2 > 0.0 && d2 >= r2)) return false;
        }
        return true;
    });
}

bool wallsArcClear(const fb::Roadmap&, const PathScratch& s, uint32_t layer, P center, P start, double sweep,
                   double clearance) {
    const WallGrid& g = gridOf(s, layer);
    const double radius = norm(start - center);
    const P end = center + rotate(start - center, sweep);
    // Bounding box of the arc: its ends and the axis extremes it sweeps over.
    double x0 = minOf(start.x, end.x), x1 = maxOf(start.x, end.x);
    double y0 = minOf(start.y, end.y), y1 = maxOf(start.y, end.y);
    // An axis extreme counts when it lies in the arc's wedge (|sweep| <= pi: between the rays to
    // the ends), by sign tests instead of an atan2 each, with a margin that only ever adds one:
    // a larger box visits more cells and measures more walls, never changes the answer.
    const bool wedge = std::fabs(sweep) <= kPi;
    const double sense = sweep < 0 ? -1.0 : 1.0, tol = 1e-9 * radius * radius;
    const P u0 = start - center, u1 = end - center;
    const P axes[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (const P axis : axes) {
        const P q = center + axis * radius;
        const P v = axis * radius;
        if (wedge ? sense * cross(u0, v) >= -tol && sense * cross(v, u1) >= -tol
                  : angleAlong(center, start, sweep, q) <= std::fabs(sweep)) {
            x0 = minOf(x0, q.x), x1 = maxOf(x1, q.x);
            y0 = minOf(y0, q.y), y1 = maxOf(y1, q.y);
        }
    }
    const P lo{x0, y0}, hi{x1, y1};
    const int64_t i0 = cellOf(lo.x - clearance, g.min_x, g.cell, g.nx);
    const int64_t i1 = cellOf(hi.x + clearance, g.min_x, g.cell, g.nx);
    const int64_t j0 = cellOf(lo.y - clearance, g.min_y, g.cell, g.ny);
    const int64_t j1 = cellOf(hi.y + clearance, g.min_y, g.cell, g.ny);
    // A wall wholly outside the circle grown by the clearance, or wholly inside it shrunk by the
    // clearance, is clear of the arc; the margin is far above the rounding of the exact distance.
    const double margin = 1e-9 * (1.0 + std::fabs(center.x) + std::fabs(center.y) + radius + clearance);
    const double outer = radius + clearance + margin, inner = radius - clearance - margin;
    const double outer2 = outer * outer, inner2 = inner > 0.0 ? inner * inner : -1.0;
    // A wall from the arc's own centre (the wall vertex a path wraps: both its walls, at every
    // such arc) is exactly the radius from an arc that turns less than half a circle and ends
    // behind the centre's line square to the wall: its nearest point is the centre itself.
    const bool half_turn = std::fabs(sweep) < kPi && radius * (1.0 - 1e-12) >= clearance;
    auto fromCentre = [&](P end_at, P other) {
        return end_at.x == center.x && end_at.y == center.y && dot(u0, other - end_at) <= 0.0 &&
               dot(u1, other - end_at) <= 0.0;
    };
    const uint32_t round = nextSeen(s);
    const CellBox* boxes = s.wall_cell_box + g.first_cell;
    const uint32_t* bits = occupancy(s, g);
    for (int64_t j = j0; j <= j1; ++j) {
        const bool row_clear = forEachOccupied(bits, g, j, i0, i1, [&](uint32_t cell) {
            // As in wallsSegmentClear: a cell whose walls' parts all lie beyond the arc's box, or
            // outside the grown circle, or inside the shrunk one, has no wall that matters.
            const CellBox& box = boxes[cell];
            if ((double(box.x1) < x0 - clearance) | (double(box.x0) > x1 + clearance) |
                (double(box.y1) < y0 - clearance) | (double(box.y0) > y1 + clearance))
                return true;
            const double nx = maxOf(maxOf(double(box.x0) - center.x, center.x - double(box.x1)), 0.0);
            const double ny = maxOf(maxOf(double(box.y0) - center.y, center.y - double(box.y1)), 0.0);
            if (nx * nx + ny * ny >= outer2) return true;
            const double fx =
                maxOf(std::fabs(double(box.x0) - center.x), std::fabs(double(box.x1) - center.x));
            const double fy =
                maxOf(std::fabs(double(box.y0) - center.y), std::fabs(double(box.y1) - center.y));
            if (fx * fx + fy * fy <= inner2) return true;
            return forEachSolidSeg(s, g, cell, [&](const WallSeg& w) {
                if (boxOutside(w, x0 - clearance, y0 - clearance, x1 + clearance, y1 + clearance))
                    return true;
                const P c = w.c, d = w.d;
                const uint32_t id = w.id;
                if (pointSegment2(center, c, d, nullptr) >= outer2) return true;
                if (maxOf(dot(c - center, c - center), dot(d - center, d - center)) <= inner2) return true;
                if (!firstSight(s, id, round)) return true; // measured in another cell, and clear
                if (half_turn && (fromCentre(c, d) || fromCentre(d, c))) return true;
                const double dist = arcSegmentDistance(center, radius, start, end, sweep, c, d);
                return dist > 0.0 && dist >= clearance;
            });
        });
        if (!row_clear) return false;
    }
    return true;
}

double largestClearTrim(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, uint32_t other_layer,
                        P corner, P u, double turn, double room, double clearance) {
    double t = room;
    for (int step = 0; step < 24 && t > 1e-6; ++step, t *= 0.5) {
        const CornerArc arc = cornerArc(corner, u, turn, t);
        if (wallsArcClear(rm, s, layer, arc.center, arc.start, turn, clearance) &&
            (other_layer == layer ||
             wallsArcClear(rm, s, other_layer, arc.center, arc.start, turn, clearance)))
            return t;
    }
    return 0.0;
}

double wallsNearest(const fb::Roadmap&, const PathScratch& s, uint32_t layer, P p, P* nearest,
                    P* wall_direction) {
    const WallGrid& g = gridOf(s, layer);
    const int64_t ci = cellOf(p.x, g.min_x, g.cell, g.nx), cj = cellOf(p.y, g.min_y, g.cell, g.ny);
    double best2 = kInf;
    P best_point{p.x, p.y}, best_direction{0, 0};
    // A box already farther than the best holds no wall that can beat it (strictly); the factor
    // is far above the rounding of both squared distances.
    auto beyond = [&](float x0, float y0, float x1, float y1) {
        const double dx = maxOf(maxOf(x0 - p.x, p.x - x1), 0.0);
        const double dy = maxOf(maxOf(y0 - p.y, p.y - y1), 0.0);
        return dx * dx + dy * dy > best2 * (1.0 + 1e-9);
    };
    const CellBox* cell_pieces = s.wall_cell_pieces + g.first_cell;
    auto visit = [&](uint32_t cell) {
        // The cell's pieces' box bounds each piece's: when it is beyond, every piece is.
        const CellBox& box = cell_pieces[cell];
        if (beyond(box.x0, box.y0, box.x1, box.y1)) return true;
        return forEachSolidSeg(s, g, cell, [&](const WallSeg& w) {
            if (beyond(w.x0, w.y0, w.x1, w.y1)) return true;
            const P c = w.c, d = w.d;
            double t;
            const double d2 = pointSegment2(p, c, d, &t);
            if (d2 < best2) best2 = d2, best_point = c + (d - c) * t, best_direction = d - c;
            return true;
        });
    };
    const uint32_t* bits = occupancy(s, g);
    const uint32_t words = rowWords(g);
    auto occupied = [&](int64_t i, int64_t j) { return (bits[j * words + (i >> 5)] >> (i & 31)) & 1u; };
    const int64_t nx = g.nx, ny = g.ny, max_ring = nx > ny ? nx : ny;
    for (int64_t r = 0; r <= max_ring; ++r) {
        const int64_t i0 = ci - r > 0 ? ci - r : 0, i1 = ci + r < nx - 1 ? ci + r : nx - 1;
        const int64_t j0 = cj - r > 0 ? cj - r : 0, j1 = cj + r < ny - 1 ? cj + r : ny - 1;
        // Ring r's cells row by row, each row by column (its occupied cells only).
        for (int64_t j = j0; j <= j1; ++j) {
            if (j == cj - r || j == cj + r) {
                forEachOccupied(bits, g, j, i0, i1, visit);
                continue;
            }
            if (ci - r >= 0 && occupied(ci - r, j)) visit(uint32_t(j * nx + ci - r));
            if (ci + r < nx && occupied(ci + r, j)) visit(uint32_t(j * nx + ci + r));
        }
        // Unvisited cells lie beyond the square of rings 0..r: at least this far from p.
        double bound = kInf;
        if (ci - r > 0) bound = minOf(bound, p.x - (g.min_x + double(ci - r) * g.cell));
        if (ci + r + 1 < nx) bound = minOf(bound, g.min_x + double(ci + r + 1) * g.cell - p.x);
        if (cj - r > 0) bound = minOf(bound, p.y - (g.min_y + double(cj - r) * g.cell));
        if (cj + r + 1 < ny) bound = minOf(bound, g.min_y + double(cj + r + 1) * g.cell - p.y);
        if (!(bound < kInf)) break;
        if (bound > 0.0 && best2 <= bound * bound) break;
    }
    if (nearest) *nearest = best_point;
    if (wall_direction) *wall_direction = best_direction;
    return std::sqrt(best2);
}

bool wallsNearestToSegment(const fb::Roadmap&, const PathScratch& s, uint32_t layer, P a, P b, double reach,
                           double side, P* nearest, P* piece_start, P* piece_end) {
    const WallGrid& g = gridOf(s, layer);
    double best2 = reach * reach;
    bool found = false;
    // Every candidate below lies in the wall's bounding box: a box farther than `reach` from the
    // segment's in x or y offers none (the margin is far above the rounding of the distances).
    // Once a candidate is found, the same holds for its distance: the bounds below shrink to it
    // (a wall they reject now, they reject in any later cell too).
    const double pad_margin =
        1e-9 * (1.0 + std::fabs(a.x) + std::fabs(a.y) + std::fabs(b.x) + std::fabs(b.y));
    double pad = reach * (1.0 + 1e-9) + pad_margin;
    double lo_x = minOf(a.x, b.x) - pad, hi_x = maxOf(a.x, b.x) + pad;
    double lo_y = minOf(a.y, b.y) - pad, hi_y = maxOf(a.y, b.y) + pad;
    // Every candidate is a point of the wall: a wall with both ends clearly on the other side of
    // the line a-b, or farther than `reach` from it on this side, offers none. The margin covers
    // the rounding of the candidates computed between the ends.
    const P ab = b - a;
    const double ab_len = norm(ab);
    const double side_margin =
        1e-9 * (std::fabs(ab.x) + std::fabs(ab.y)) *
        (1.0 + std::fabs(a.x) + std::fabs(a.y) + std::fabs(b.x) + std::fabs(b.y) + reach);
    double beyond = pad * ab_len + side_margin;
    auto shrink = [&]() {
        pad = std::sqrt(best2) * (1.0 + 1e-9) + pad_margin;
        lo_x = minOf(a.x, b.x) - pad, hi_x = maxOf(a.x, b.x) + pad;
        lo_y = minOf(a.y, b.y) - pad, hi_y = maxOf(a.y, b.y) + pad;
        beyond = pad * ab_len + side_margin;
    };
    // A piece seen again in a later cell offers the same candidates, which never beat the best
    // (strictly): it is measured once, and the order of first sightings is unchanged.
    const uint32_t round = nextSeen(s);
    const CellBox* cell_pieces = s.wall_cell_pieces + g.first_cell;
    forEachCellNear(g, a, b, reach, occupancy(s, g), [&](uint32_t cell) {
        // Every piece of the cell fails the tests below when its pieces' box does (the corners'
        // side values bound the ends', with a margin for the rounding): pass over it.
        const CellBox& box = cell_pieces[cell];
        if ((double(box.x1) < lo_x) | (double(box.x0) > hi_x) | (double(box.y1) < lo_y) |
            (double(box.y0) > hi_y))
            return true;
        double lo = kInf, hi = -kInf;
        for (const P corner : {P{box.x0, box.y0}, P{box.x0, box.y1}, P{box.x1, box.y0}, P{box.x1, box.y1}}) {
            const double v = side * cross(ab, corner - a);
            lo = minOf(lo, v), hi = maxOf(hi, v);
        }
        if (hi < -2.0 * side_margin || lo > beyond + side_margin) return true;
        return forEachSolidSeg(s, g, cell, [&](const WallSeg& w) {
            if (boxOutside(w, lo_x, lo_y, hi_x, hi_y)) return true;
            const P c = w.c, d = w.d;
            const uint32_t id = w.id;
            const double sc = side * cross(ab, c - a), sd = side * cross(ab, d - a);
            if ((sc < -side_margin && sd < -side_margin) || (sc > beyond && sd > beyond)) return true;
            if (!firstSight(s, id, round)) return true;
            // The closest pair of two disjoint segments has an endpoint of one of them; keep
            // the wall-side point of each candidate pair.
            double t;
            const double d_a = pointSegment2(a, c, d, &t);
            const P on_a = c + (d - c) * t;
            const double d_b = pointSegment2(b, c, d, &t);
            const P on_b = c + (d - c) * t;
            const P candidates[4] = {c, d, on_a, on_b};
            const double dist2[4] = {pointSegment2(c, a, b, nullptr), pointSegment2(d, a, b, nullptr), d_a,
                                     d_b};
            const double before = best2;
            for (int k = 0; k < 4; ++k)
                if (dist2[k] < best2 && cross(b - a, candidates[k] - a) * side > 0.0) {
                    best2 = dist2[k];
                    *nearest = candidates[k];
                    if (piece_start) *piece_start = c;
                    if (piece_end) *piece_end = d;
                    found = true;
                }
            if (best2 < before) shrink();
            return true;
        });
    });
    return found;
}

bool wallsMostIntruding(const fb::Roadmap&, const PathScratch& s, uint32_t layer, P a, P b, double clearance,
                        double side, const P region[4], P* vertex) {
    const WallGrid& g = gridOf(s, layer);
    const double len = norm(b - a);
    if (!(len > 0.0)) return false;
    const P u = (b - a) * (1.0 / len);
    double best = 0.0;
    bool found = false;
    auto inTriangle = [](P p, P t0, P t1, P t2) {
        const double o0 = orient(t0, t1, p), o1 = orient(t1, t2, p), o2 = orient(t2, t0, p);
        return (o0 >= 0 && o1 >= 0 && o2 >= 0) || (o0 <= 0 && o1 <= 0 && o2 <= 0);
    };
    // A vertex that counts lies in the band (the segment's box grown by the clearance) or in the
    // region (its corners' box); the boxes get a margin far above the rounding of the exact tests.
    const double margin =
        1e-9 * (1.0 + std::fabs(a.x) + std::fabs(a.y) + std::fabs(b.x) + std::fabs(b.y) + clearance);
    double rx0 = region[0].x, ry0 = region[0].y, rx1 = region[0].x, ry1 = region[0].y;
    for (int k = 1; k < 4; ++k) {
        rx0 = minOf(rx0, region[k].x), ry0 = minOf(ry0, region[k].y);
        rx1 = maxOf(rx1, region[k].x), ry1 = maxOf(ry1, region[k].y);
    }
    rx0 -= margin, ry0 -= margin, rx1 += margin, ry1 += margin;
    const double bx0 = minOf(a.x, b.x) - clearance - margin, bx1 = maxOf(a.x, b.x) + clearance + margin;
    const double by0 = minOf(a.y, b.y) - clearance - margin, by1 = maxOf(a.y, b.y) + clearance + margin;
    // consider() keeps a vertex only when this holds (the same expressions, without the
    // triangles); `best` only grows, so a vertex failing it never counts later either.
    auto canIntrude = [&](P v) {
        const double along = dot(v - a, u);
        if (!(along >= 0.0 && along <= len)) return false;
        const double across = cross(u, v - a);
        if (!(clearance - side * across > best)) return false;
        return std::fabs(across) <= clearance || (v.x >= rx0 && v.x <= rx1 && v.y >= ry0 && v.y <= ry1);
    };
    auto consider = [&](P v) {
        const double along = dot(v - a, u);
        if (along < 0.0 || along > len) return;
        const double across = cross(u, v - a);
        if (std::fabs(across) > clearance && (v.x < rx0 || v.x > rx1 || v.y < ry0 || v.y > ry1 ||
                                              (!inTriangle(v, region[0], region[1], region[2]) &&
                                               !inTriangle(v, region[0], region[2], region[3]))))
            return;
        const double intrusion = clearance - side * across;
        if (intrusion > best) best = intrusion, *vertex = v, found = true;
    };

    // Cells of the band and of the region, row by row: in each row the columns from the band's
    // span to the spans of the region's two triangles (their edges clipped to the row). A vertex
    // that counts lies in one of them, so its cell is visited; far fewer cells than the band
    // grown to the region's farthest corner.
    // Spans by reciprocals, not divisions: the slack (1e-7 cell) is far above the difference.
    const double slack = 1e-7 * g.cell;
    struct Piece {
        P a, d;
        double inv_dy, pad;
    };
    auto piece = [](P p, P q, double pad) {
        return Piece{p, q - p, q.y != p.y ? 1.0 / (q.y - p.y) : 0.0, pad};
    };
    const Piece pieces[6] = {piece(a, b, clearance + slack),     piece(region[0], region[1], slack),
                             piece(region[1], region[2], slack), piece(region[2], region[0], slack),
                             piece(region[2], region[3], slack), piece(region[3], region[0], slack)};
    const int64_t j0 = cellOf(minOf(minOf(a.y, b.y) - clearance, ry0) - slack, g.min_y, g.cell, g.ny);
    const int64_t j1 = cellOf(maxOf(maxOf(a.y, b.y) + clearance, ry1) + slack, g.min_y, g.cell, g.ny);
    // As in wallsNearestToSegment, a piece seen again cannot win (strictly): measured once.
    const uint32_t round = nextSeen(s);
    const CellBox* cell_pieces = s.wall_cell_pieces + g.first_cell;
    const uint32_t* bits = occupancy(s, g);
    // Every row's span lies in the columns of the band's and the region's box (grown by more than
    // the rounding): a row with no occupied cell there needs no span.
    const int64_t bi0 = cellOf(minOf(minOf(a.x, b.x) - clearance, rx0) - 2.0 * slack, g.min_x, g.cell, g.nx);
    const int64_t bi1 = cellOf(maxOf(maxOf(a.x, b.x) + clearance, rx1) + 2.0 * slack, g.min_x, g.cell, g.nx);
    for (int64_t j = j0; j <= j1; ++j) {
        if (!rowOccupied(bits, g, j, bi0, bi1)) continue;
        const double row_lo = g.min_y + double(j) * g.cell, row_hi = g.min_y + double(j + 1) * g.cell;
        double x_lo = kInf, x_hi = -kInf;
        for (const Piece& q : pieces) {
            double t0 = 0.0, t1 = 1.0;
            if (q.d.y == 0.0) {
                if (q.a.y < row_lo - q.pad || q.a.y > row_hi + q.pad) continue;
            } else {
                double ta = (row_lo - q.pad - q.a.y) * q.inv_dy, tb = (row_hi + q.pad - q.a.y) * q.inv_dy;
                if (ta > tb) std::swap(ta, tb);
                t0 = maxOf(t0, ta), t1 = minOf(t1, tb);
                if (t0 > t1) continue;
            }
            const double xa = q.a.x + q.d.x * t0, xb = q.a.x + q.d.x * t1;
            x_lo = minOf(x_lo, minOf(xa, xb) - q.pad), x_hi = maxOf(x_hi, maxOf(xa, xb) + q.pad);
        }
        if (!(x_lo <= x_hi)) continue;
        const int64_t i0 = cellOf(x_lo, g.min_x, g.cell, g.nx), i1 = cellOf(x_hi, g.min_x, g.cell, g.nx);
        forEachOccupied(bits, g, j, i0, i1, [&](uint32_t cell) {
            // As in wallsNearestToSegment: a cell whose pieces' box meets neither the band's box
            // nor the region's, or lies wholly before or after the segment, or wholly beyond the
            // clearance less the best intrusion on this side, has only pieces the tests below
            // reject.
            const CellBox& box = cell_pieces[cell];
            if (((double(box.x1) < bx0) | (double(box.x0) > bx1) | (double(box.y1) < by0) |
                 (double(box.y0) > by1)) &&
                ((double(box.x1) < rx0) | (double(box.x0) > rx1) | (double(box.y1) < ry0) |
                 (double(box.y0) > ry1)))
                return true;
            double along_lo = kInf, along_hi = -kInf, across_lo = kInf;
            for (const P corner :
                 {P{box.x0, box.y0}, P{box.x0, box.y1}, P{box.x1, box.y0}, P{box.x1, box.y1}}) {
                const double along = dot(corner - a, u), across = side * cross(u, corner - a);
                along_lo = minOf(along_lo, along), along_hi = maxOf(along_hi, along);
                across_lo = minOf(across_lo, across);
            }
            if (along_hi < -margin || along_lo > len + margin || across_lo > clearance - best + margin)
                return true;
            return forEachSolidSeg(s, g, cell, [&](const WallSeg& w) {
                if (boxOutside(w, bx0, by0, bx1, by1) && boxOutside(w, rx0, ry0, rx1, ry1)) return true;
                const P c = w.c, d = w.d;
                const uint32_t id = w.id;
                // consider() keeps neither end: its foot is off the segment, or it does not intrude
                // more than the best, or it lies outside both the band and the region's box.
                if (!canIntrude(c) && !canIntrude(d)) return true;
                if (!firstSight(s, id, round)) return true;
                consider(c);
                consider(d);
                return true;
            });
        });
    }
    return found;
}

double wallsRay(const fb::Roadmap&, const PathScratch& s, uint32_t layer, P p, P dir, double max_reach) {
    const WallGrid& g = gridOf(s, layer);
    const P q = p + dir * max_reach;
    double best = max_reach;
    forEachCellNear(g, p, q, 0.0, occupancy(s, g), [&](uint32_t cell) {
        return forEachSolid(s, g, cell, [&](P c, P d) {
            const P e = d - c;
            const double den = cross(dir, e);
            if (den == 0.0) {
                // Parallel: only a collinear wall touching the ray matters; its nearer end is hit.
                if (orient(c, d, p) != 0.0) return true;
                for (const P x : {c, d}) {
                    const double t = dot(x - p, dir);
                    if (t >= 0.0 && t < best) best = t;
                }
                return true;
            }
            const double t = cross(c - p, e) / den, u = cross(c - p, dir) / den;
            if (t >= 0.0 && u >= 0.0 && u <= 1.0 && t < best) best = t;
            return true;
        });
    });
    return best;
}

namespace {

// Sign of the orientation of c against a -> b where it is clear: 0 when c lies within `near` of
// the line (the length a -> b measured in L1, which is no less) or the determinant within 1e-12 of
// its terms, far above the rounding of its evaluation.
int orientationSign(P a, P b, P c, double near) {
    const double l = (b.x - a.x) * (c.y - a.y), r = (b.y - a.y) * (c.x - a.x);
    const double det = l - r;
    const double bound =
        maxOf(1e-12 * (std::fabs(l) + std::fabs(r)), near * (std::fabs(b.x - a.x) + std::fabs(b.y - a.y)));
    return det > bound ? 1 : det < -bound ? -1 : 0;
}

// Whether p's cell answers the inside test from its centre: the centre's answer flipped by each
// ring edge the segment from the centre to p crosses. Only the edges listed in the cell can
// cross it (p lies inside the cell, off its border). False (*inside untouched) when the centre is
// no reference or a crossing is too near to call, within a billionth of the coordinates: there
// the row walk decides, as before the centres were kept.
bool insideFromCentre(const PathScratch& s, const flatbuffers::Vector<const fb::Vec2*>* verts,
                      const WallGrid& g, int64_t i, int64_t j, P p, bool* inside) {
    const uint32_t cell = uint32_t(j * int64_t(g.nx) + i);
    const uint8_t centre_inside = s.wall_centre_inside[g.first_cell + cell];
    if (centre_inside == kCentreUnknown) return false;
    const P c = cellCentre(g, i, j);
    const double margin = 0.5 * g.cell * (1.0 - 1e-6);
    if (!(std::fabs(p.x - c.x) < margin && std::fabs(p.y - c.y) < margin)) return false;
    const double near = 1e-9 * (1.0 + std::fabs(p.x) + std::fabs(p.y));
    const double x0 = minOf(c.x, p.x), x1 = maxOf(c.x, p.x), y0 = minOf(c.y, p.y), y1 = maxOf(c.y, p.y);
    bool odd = centre_inside == kCentreInside;
    uint32_t last_a = kNone, last_b = kNone;
    const uint32_t* start = s.wall_cell_start + g.first_cell;
    for (uint32_t k = start[cell], end = start[cell + 1]; k < end; ++k) {
        const WallRef& w = s.wall_cell_items[k];
        if (w.a == last_a && w.b == last_b) continue; // the edge's next piece: the edge is tested whole
        last_a = w.a, last_b = w.b;
        const P a = pt(verts->Get(w.a)), b = pt(verts->Get(w.b));
        if (maxOf(a.x, b.x) < x0 - near || minOf(a.x, b.x) > x1 + near || maxOf(a.y, b.y) < y0 - near ||
            minOf(a.y, b.y) > y1 + near || (a.x == b.x && a.y == b.y))
            continue;
        const int sa = orientationSign(c, p, a, near), sb = orientationSign(c, p, b, near);
        if (sa != 0 && sa == sb) continue;
        const int sc = orientationSign(a, b, c, near), sp = orientationSign(a, b, p, near);
        if (sc != 0 && sc == sp) continue;
        if (sa == 0 || sb == 0 || sc == 0 || sp == 0) return false;
        odd = !odd;
    }
    *inside = odd;
    return true;
}

} // namespace

bool wallsInside(const fb::Roadmap&, const PathScratch& s, uint32_t layer, P p) {
    const WallGrid& g = gridOf(s, layer);
    // Beyond the grid (which covers every boundary vertex) no ring can hold p; most points of a
    // level lie beyond the grids of the storeys they are not on.
    if (p.x < g.min_x || p.y < g.min_y || p.x > g.min_x + double(g.nx) * g.cell ||
        p.y > g.min_y + double(g.ny) * g.cell)
        return false;
    const auto* verts = g.boundary;
    const int64_t j = cellOf(p.y, g.min_y, g.cell, g.ny), ci = cellOf(p.x, g.min_x, g.cell, g.nx);
    bool inside;
    if (insideFromCentre(s, verts, g, ci, j, p, &inside)) return inside;
    // Crossings of the horizontal line through p by the ring edges, counted to the right (xc > p.x)
    // or to the left (xc < p.x), each in the one cell holding the crossing point (same test as
    // insideLayer). Every ring crosses the line an even number of times, so both sides have the
    // same parity unless a crossing is exactly at p.x.
    const uint32_t* starts = s.wall_cell_start + g.first_cell;
    auto count = [&](int64_t i0, int64_t i1, bool right, bool* at_p) {
        bool odd = false;
        for (int64_t i = i0; i <= i1; ++i)
            forEachCellCrossing(starts, s.wall_cell_items, verts, g, i, j, p.y, [&](double xc) {
                if (xc == p.x) *at_p = true;
                if (right ? p.x < xc : xc < p.x) odd = !odd;
            });
        return odd;
    };
    bool at_p = false;
    // The shorter walk; the rightward one (the reference) when the left one met a crossing at p.
    if (2 * ci < int64_t(g.nx)) {
        const bool odd = count(0, ci, false, &at_p);
        if (!at_p) return odd;
    }
    return count(ci, int64_t(g.nx) - 1, true, &at_p);
}

namespace {

// A motion counts as moving towards a wall it touches when the cosine between the motion and the
// wall's normal exceeds this: a slide along a wall at exactly the radius (the tangent projection
// leaves ~1e-16 of normal motion) or a graze past a wall's end does not stop.
constexpr double kApproach = 1e-9;

// The face of segment c-d (the side p is on): earliest contact of the moving disc with it.
void sweepFace(P p, P v, double speed, double r, double slop, P c, P d, SweepContact* best) {
    const P e = d - c;
    const double len = norm(e);
    if (!(len > 0.0)) return;
    const P n = P{-e.y, e.x} * (1.0 / len);
    const double s0 = dot(p - c, n), side = s0 < 0.0 ? -1.0 : 1.0;
    const double gap = side * s0 - r, rate = -side * dot(v, n); // rate > 0: towards the line
    double t;
    if (gap > slop) {
        if (!(rate > 0.0)) return;
        t = gap / rate;
    } else {
        if (!(rate > kApproach * speed)) return;
        t = 0.0;
    }
    if (!(t < best->t)) return;
    const double u = dot(p + v * t - c, e) / (len * len);
    if (u < 0.0 || u > 1.0) return; // the ends' circles decide there
    best->t = t, best->wall = c + e * u, best->normal = n * side;
}

// The circle of radius r round wall end x: earliest contact of the moving disc with it.
void sweepEnd(P p, P v, double speed, double r, double slop, P x, SweepContact* best) {
    const P f = p - x;
    const double dist = norm(f), b = dot(f, v);
    if (!(b < 0.0)) return; // not moving towards x
    double t = 0.0;
    if (dist - r > slop) {
        const double c = dot(f, f) - r * r, disc = b * b - dot(v, v) * c;
        if (disc < 0.0) return;
        t = c / (std::sqrt(disc) - b); // the smaller root, without cancellation
        if (!(-dot(p + v * t - x, v) > kApproach * speed * r)) return; // a graze
    } else if (!(-b > kApproach * speed * dist)) {
        return;
    }
    if (!(t < best->t)) return;
    const P at = p + v * t, away = at - x;
    const double away_len = norm(away);
    best->t = t, best->wall = x;
    best->normal = away_len > 0.0 ? away * (1.0 / away_len) : v * (-1.0 / speed);
}

} // namespace

void wallsSweep(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P p, P v, double radius,
                double slop, SweepContact* out) {
    const WallGrid& g = gridOf(s, layer);
    const P q = p + v;
    const double speed = norm(v);
    *out = SweepContact{kInf, p, P{0, 0}, kInf};
    if (!(speed > 0.0)) return;
    // A wall the disc touches is within the radius of the centre's line: listed in a cell of the
    // line thickened by the radius. A piece seen again gives the same contacts: measured once.
    const uint32_t round = nextSeen(s);
    forEachCellNear(g, p, q, radius, occupancy(s, g), [&](uint32_t cell) {
        return forEachSolidSeg(s, g, cell, [&](const WallSeg& w) {
            if (!firstSight(s, w.id, round)) return true;
            sweepFace(p, v, speed, radius, slop, w.c, w.d, out);
            sweepEnd(p, v, speed, radius, slop, w.c, out);
            sweepEnd(p, v, speed, radius, slop, w.d, out);
            return true;
        });
    });
    // Portal pieces the centre crosses going out (the layer lies left of every ring piece); a
    // centre on the portal line (a previous stop) counts when it moves out.
    const auto* verts = layerOf(rm, layer)->boundary_vertices();
    const double t_slop = slop / speed;
    forEachCellNear(g, p, q, 0.0, nullptr, [&](uint32_t cell) {
        return forEachItem(s, g, cell, [&](const WallRef& w) {
            if (!w.open) return true;
            const P c = pieceStart(verts, w), e = pieceEnd(verts, w) - c;
            const double den = cross(v, e);
            if (!(den > 0.0)) return true; // parallel, or going into the layer (v . left normal >= 0)
            const double t = cross(c - p, e) / den, u = cross(c - p, v) / den;
            if (t >= -t_slop && t <= 1.0 && u >= 0.0 && u <= 1.0)
                out->portal_t = minOf(out->portal_t, maxOf(t, 0.0));
            return true;
        });
    });
}

} // namespace detail

namespace {
using namespace ::clearway::detail;

constexpr uint32_t kNoLayer = 0xffffffffu;

bool scratchFits(const RoadmapView& view, const PathScratch* scratch) {
    return view.data && scratch && scratch->data == view.data;
}
} // namespace

Status wallDistance(const RoadmapView& view, const PathScratch* scratch, uint32_t layer, double x, double y,
                    double* distance, Vec2d* nearest) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !scratchFits(view, scratch) || !distance || !std::isfinite(x) || !std::isfinite(y))
        return Status::InvalidArgument;
    if (layer >= scratch->layer_count) return Status::InvalidArgument;
    P q;
    *distance = wallsNearest(*rm, *scratch, layer, P{x, y}, &q);
    if (nearest) *nearest = Vec2d{q.x, q.y};
    return Status::Ok;
}

Status pathCorridorAt(const RoadmapView& view, const PathScratch* scratch, const PathSegment* segments,
                      uint32_t count, double s, double max_reach, CorridorSample* out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !scratchFits(view, scratch) || !out || !(max_reach >= 0.0) || !std::isfinite(max_reach))
        return Status::InvalidArgument;
    PathPose pose;
    const Status status = pathPoseAt(view, segments, count, s, &pose);
    if (status != Status::Ok) return status;
    if (pose.layer >= scratch->layer_count) return Status::InvalidArgument;
    const P p{pose.position.x, pose.position.y};
    const P left{-std::sin(pose.heading), std::cos(pose.heading)};
    CorridorSample c{};
    c.s = pose.s;
    c.position = Vec2d{p.x, p.y};
    c.left_normal = Vec2d{left.x, left.y};
    c.left = wallsRay(*rm, *scratch, pose.layer, p, left, max_reach);
    c.right = wallsRay(*rm, *scratch, pose.layer, p, left * -1.0, max_reach);
    c.clearance = wallsNearest(*rm, *scratch, pose.layer, p, nullptr);
    c.layer = pose.layer;
    *out = c;
    return Status::Ok;
}

Status locatePoint(const RoadmapView& view, const PathScratch* scratch, Vec3d local, double step_up,
                   PathEndpoint* out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !out || !std::isfinite(local.x) || !std::isfinite(local.y) || !std::isfinite(local.z) ||
        !(step_up >= 0.0) || !std::isfinite(step_up))
        return Status::InvalidArgument;
    if (scratch && scratch->data != view.data) return Status::InvalidArgument;
    FootprintView footprint;
    if (roadmapFootprint(view, &footprint) != Status::Ok) return Status::InvalidArgument;
    const P p{local.x, local.y};
    // The floor under the point (highest surface at most step_up above it), else the nearest one
    // above: a point given at eye height or slightly under a ramp still finds its floor.
    uint32_t below = kNoLayer, above = kNoLayer;
    double below_h = -kInf, above_h = kInf;
    const uint32_t layers = sizeOf(rm->footprint()->layers());
    auto inside = [&](uint32_t l) {
        return scratch ? wallsInside(*rm, *scratch, l, p) : insideLayer(*layerOf(*rm, l), p);
    };
    // Inside one layer's footprint alone: that is the floor, above or below (most points; the
    // heights only choose between floors over one another). The footprint is the union of the
    // layer's surface triangles, simplified within the bake's epsilon: a point inside it lies on
    // one of them within the 5 cm the height lookup allows.
    uint32_t first_inside = kNoLayer, second_inside = kNoLayer, insides = 0;
    for (uint32_t l = 0; l < layers && insides < 2; ++l) {
        if (!inside(l)) continue;
        (insides++ == 0 ? first_inside : second_inside) = l;
    }
    if (insides == 0) return Status::NotFound;
    if (insides == 1) {
        *out = PathEndpoint{p.x, p.y, first_inside};
        return Status::Ok;
    }
    for (uint32_t l = first_inside; l < layers; ++l) {
        // The two found above are known; the layers between them are not inside.
        if (l != first_inside && l != second_inside && (l < second_inside || !inside(l))) continue;
        float h;
        if (footprintHeightAt(footprint, l, float(p.x), float(p.y), 0.05f, &h) != Status::Ok) continue;
        if (double(h) <= local.z + step_up) {
            if (double(h) > below_h) below_h = h, below = l;
        } else if (double(h) < above_h) {
            above_h = h, above = l;
        }
    }
    const uint32_t layer = below != kNoLayer ? below : above;
    if (layer == kNoLayer) return Status::NotFound;
    *out = PathEndpoint{p.x, p.y, layer};
    return Status::Ok;
}

} // namespace clearway
