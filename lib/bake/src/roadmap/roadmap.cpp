// From footprint to roadmap asset: per-layer medial axis, heights, chain merging, circular
// blends, joins across layer connections, the edge grid, and the asset / previews.
#include <clearway/bake.h>
#include <clearway/schema/roadmap_generated.h>

#include "assets/asset_internal.h"
#include <clearway/bake/geometry.h>
#include "core/parallel.h"
#include "roadmap/roadmap_internal.h"

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <sys/stat.h>

namespace clearway::bake {

namespace fb = clearway::schema;

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

using namespace geometry;
Vec2 xy(const Vec3& v) {
    return {v.x, v.y};
}

// Arc: centre, radius, start angle and signed sweep (ccw positive).
struct Arc {
    Vec2 centre;
    double radius, start, sweep;
    Vec2 e0, e1; // arcPoint at start and at start + sweep, computed once (setEnds)
    Vec2 u0, u1; // their directions from the centre: (cos, sin) of those angles
};

// std::fmod(x, 2 pi) for every x, without the library call below 4 pi: fmod returns x itself
// below 2 pi and x - 2 pi below 4 pi, which the subtraction gives exactly there (Sterbenz).
double fmodTwoPi(double x) {
    constexpr double kTwoPi = 2 * M_PI;
    const double a = std::abs(x);
    if (a < kTwoPi) return x;
    if (a < 2 * kTwoPi) return std::copysign(a - kTwoPi, x);
    return std::fmod(x, kTwoPi);
}

bool angleOnArc(const Arc& arc, double angle) {
    double rel = angle - arc.start;
    if (arc.sweep >= 0) {
        rel = fmodTwoPi(fmodTwoPi(rel) + 2 * M_PI);
        return rel <= arc.sweep;
    }
    rel = fmodTwoPi(fmodTwoPi(-rel) + 2 * M_PI);
    return rel <= -arc.sweep;
}

// angleOnArc(arc, atan2(u.y, u.x)) for u = p - centre. On a minor arc the sides of u from the
// end directions decide it without the atan2 when u is more than 1e-12 rad inside or outside
// them; the answers of both ways carry errors near 1e-15 rad (atan2, the wrap, the end directions'
// cos and sin), so where one decides, the other agrees. Nearer an end the atan2 decides.
bool onArc(const Arc& arc, double ux, double uy) {
    if (std::abs(arc.sweep) < M_PI - 1e-3) {
        const double sense = arc.sweep >= 0 ? 1.0 : -1.0;
        const double from_start = sense * (arc.u0.x * uy - arc.u0.y * ux);
        const double to_end = sense * (ux * arc.u1.y - uy * arc.u1.x);
        const double tolerance = 1e-12 * std::sqrt(ux * ux + uy * uy);
        if (from_start > tolerance && to_end > tolerance) return true;
        if (from_start < -tolerance || to_end < -tolerance) return false;
    }
    return angleOnArc(arc, std::atan2(uy, ux));
}

// The ends as arcPoint(start) and arcPoint(start + sweep), centre + radius (cos, sin), with
// their directions kept.
void setEnds(Arc& arc) {
    const double end = arc.start + arc.sweep;
    arc.u0 = {std::cos(arc.start), std::sin(arc.start)};
    arc.u1 = {std::cos(end), std::sin(end)};
    arc.e0 = {arc.centre.x + arc.radius * arc.u0.x, arc.centre.y + arc.radius * arc.u0.y};
    arc.e1 = {arc.centre.x + arc.radius * arc.u1.x, arc.centre.y + arc.radius * arc.u1.y};
}

// The minimum of dist(p[k], q[k]) over k. hypot runs only where the squared length is within
// rounding of the smallest: any other is larger after hypot's rounding too.
template <size_t N> double minDistance(const std::array<Vec2, N>& p, const std::array<Vec2, N>& q) {
    std::array<double, N> squared;
    double least = INFINITY;
    for (size_t k = 0; k < N; ++k) {
        const double dx = p[k].x - q[k].x, dy = p[k].y - q[k].y;
        squared[k] = dx * dx + dy * dy;
        least = std::min(least, squared[k]);
    }
    const double limit = least * (1 + 1e-12) + 1e-300;
    double best = INFINITY;
    for (size_t k = 0; k < N; ++k)
        if (!(squared[k] > limit)) best = std::min(best, dist(p[k], q[k]));
    return best;
}

double pointArc(Vec2 p, const Arc& arc) {
    if (onArc(arc, p.x - arc.centre.x, p.y - arc.centre.y)) return std::abs(dist(p, arc.centre) - arc.radius);
    return minDistance<2>({p, p}, {arc.e0, arc.e1}); // min(dist(p, e0), dist(p, e1))
}

// Exact distance between a circular arc and a segment: the minimum is at an endpoint of one of
// them, at a crossing (0), or where the segment's closest point to the centre is radial to the arc.
// A wall that cannot cross the arc and lies beyond skip_above of a disk holding it cannot lower a
// minimum of skip_above: it returns INFINITY before any atan2 / sincos (the same minimum).
double arcSegment(const Arc& arc, Vec2 a, Vec2 b, double skip_above = INFINITY, Vec2 disk_centre = {},
                  double disk_reach = 0) {
    // Circle-line crossings inside both ranges (tested first: they decide the answer alone).
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double fx = a.x - arc.centre.x, fy = a.y - arc.centre.y;
    const double A = dx * dx + dy * dy, B = 2 * (fx * dx + fy * dy),
                 C = fx * fx + fy * fy - arc.radius * arc.radius;
    const double disc = B * B - 4 * A * C;
    bool may_cross = false;
    if (A > 0 && disc >= 0) {
        for (double sign : {-1.0, 1.0}) {
            const double t = (-B + sign * std::sqrt(disc)) / (2 * A);
            if (t < 0 || t > 1) continue;
            may_cross = true;
            const Vec2 p{a.x + t * dx, a.y + t * dy};
            if (onArc(arc, p.x - arc.centre.x, p.y - arc.centre.y)) return 0;
        }
    }
    if (!may_cross && skip_above < INFINITY) {
        // Every value below is a distance from a wall point to (within rounding) an arc point, so
        // at least the distance from the wall to the disk; the margin covers the rounding.
        const Vec2 q = closestOnSegment(disk_centre, a, b);
        const double limit = skip_above + disk_reach +
                             1e-9 * (1 + arc.radius + std::abs(arc.centre.x) + std::abs(arc.centre.y));
        if ((q.x - disk_centre.x) * (q.x - disk_centre.x) + (q.y - disk_centre.y) * (q.y - disk_centre.y) >
            limit * limit)
            return INFINITY;
    }
    const Vec2 e0 = arc.e0, e1 = arc.e1;
    double best = minDistance<2>({e0, e1}, {closestOnSegment(e0, a, b), closestOnSegment(e1, a, b)});
    // pointArc(p) is at least | |p - centre| - radius | (the arc lies on its circle; the margin
    // covers rounding). A term whose bound is not below the minimum so far, or not below
    // skip_above, cannot lower the caller's minimum: its atan2 is skipped.
    const double margin = 1e-9 * (1 + arc.radius + std::abs(arc.centre.x) + std::abs(arc.centre.y) +
                                  std::abs(a.x) + std::abs(a.y) + std::abs(b.x) + std::abs(b.y));
    // The bound is taken with sqrt, not hypot (a few ulps apart, far inside a second margin): it
    // passes every term the hypot bound passes, and any further term it lets through is no lower
    // than that bound's limit, so it cannot change what the caller keeps.
    for (const Vec2 p : {a, b}) {
        const double to_centre = std::sqrt((p.x - arc.centre.x) * (p.x - arc.centre.x) +
                                           (p.y - arc.centre.y) * (p.y - arc.centre.y));
        if (std::abs(to_centre - arc.radius) - 2 * margin < std::min(best, skip_above))
            best = std::min(best, pointArc(p, arc));
    }
    const Vec2 foot = closestOnSegment(arc.centre, a, b);
    // hypot only where the sqrt estimate (within 1e-12 of it, relative) does not already fail
    // the test: the same terms pass.
    const double foot_squared =
        (foot.x - arc.centre.x) * (foot.x - arc.centre.x) + (foot.y - arc.centre.y) * (foot.y - arc.centre.y);
    const double foot_estimate = std::sqrt(foot_squared), slack = 1e-12 * foot_estimate + 1e-300;
    if (foot_estimate + slack < arc.radius || foot_estimate - slack - arc.radius >= best) return best;
    const double to_foot = dist(foot, arc.centre);
    if (to_foot >= arc.radius && to_foot - arc.radius < best &&
        onArc(arc, foot.x - arc.centre.x, foot.y - arc.centre.y))
        best = to_foot - arc.radius;
    return best;
}

// geometry::segmentSegmentDistance(a, b, c, d), except that a segment c-d that does not cross a-b
// and whose box lies beyond skip_above of a-b's box returns INFINITY before the four hypot calls.
double segmentWallDistance(Vec2 a, Vec2 b, Vec2 c, Vec2 d, double skip_above) {
    // The box test first: segments whose boxes are apart cannot cross (nor pass the crossing
    // test, whose rounding is far below the margin), so it needs no orientation test.
    if (skip_above < INFINITY) {
        const double gx =
            std::max({0.0, std::min(c.x, d.x) - std::max(a.x, b.x), std::min(a.x, b.x) - std::max(c.x, d.x)});
        const double gy =
            std::max({0.0, std::min(c.y, d.y) - std::max(a.y, b.y), std::min(a.y, b.y) - std::max(c.y, d.y)});
        const double limit =
            skip_above + 1e-9 * (1 + std::abs(a.x) + std::abs(a.y) + std::abs(c.x) + std::abs(c.y));
        if (gx * gx + gy * gy > limit * limit) return INFINITY;
    }
    const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
    return minDistance<4>({a, b, c, d}, {closestOnSegment(a, c, d), closestOnSegment(b, c, d),
                                         closestOnSegment(c, a, b), closestOnSegment(d, a, b)});
}

// Nearest-wall queries for one layer, bucketed on a grid (exact distances, pruned search).
class Walls {
  public:
    explicit Walls(std::vector<WallSegment> walls) : walls_(std::move(walls)) {
        Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
        for (const WallSegment& w : walls_)
            for (Vec2 p : {w.a, w.b}) {
                lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
                hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
            }
        if (walls_.empty()) lo = hi = {0, 0};
        min_ = lo;
        cell_ = std::max(std::sqrt(std::max((hi.x - lo.x) * (hi.y - lo.y), 1e-6) /
                                   double(std::max<size_t>(walls_.size(), 1))) *
                             2,
                         1e-3);
        nx_ = std::max(1, int((hi.x - lo.x) / cell_) + 1);
        ny_ = std::max(1, int((hi.y - lo.y) / cell_) + 1);
        margin_ = 1e-9 * (1 + std::abs(lo.x) + std::abs(lo.y) + double(nx_ + ny_) * cell_);
        // One flat list, counted first (no vector per cell); each cell's walls ascend.
        cell_start_.assign(size_t(nx_) * ny_ + 1, 0);
        auto each_cell = [&](const WallSegment& w, auto&& f) {
            const int j1 = cy(std::max(w.a.y, w.b.y)), i0 = cx(std::min(w.a.x, w.b.x)),
                      i1 = cx(std::max(w.a.x, w.b.x));
            for (int j = cy(std::min(w.a.y, w.b.y)); j <= j1; ++j)
                for (int k = i0; k <= i1; ++k)
                    f(size_t(j) * nx_ + k);
        };
        for (const WallSegment& w : walls_)
            each_cell(w, [&](size_t c) { ++cell_start_[c + 1]; });
        for (size_t c = 0; c + 1 < cell_start_.size(); ++c)
            cell_start_[c + 1] += cell_start_[c];
        cell_walls_.resize(cell_start_.back());
        std::vector<uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
        for (uint32_t i = 0; i < walls_.size(); ++i)
            each_cell(walls_[i], [&](size_t c) { cell_walls_[fill[c]++] = i; });
    }
    const std::vector<WallSegment>& all() const { return walls_; }

    // Minimum of distance(wall, best so far) over walls, for a shape within `reach` of `centre`;
    // distance may return anything above the best so far for a wall that cannot lower it. Once
    // the minimum is below stop_below the caller only needs to know that: it returns early.
    template <class Distance>
    double nearest(Vec2 centre, double reach, Distance&& distance, double stop_below = -INFINITY) const {
        if (walls_.empty()) return INFINITY;
        double best = INFINITY;
        const int ci = cx(centre.x), cj = cy(centre.y);
        // Rings beyond the grid only matter when the centre lies outside it.
        const int off = int(std::ceil(std::max({min_.x - centre.x, centre.x - (min_.x + nx_ * cell_),
                                                min_.y - centre.y, centre.y - (min_.y + ny_ * cell_), 0.0}) /
                                      cell_));
        for (int ring = 0; ring <= std::max(nx_, ny_) + off; ++ring) {
            if (best < (ring - 1 - off) * cell_ - reach) break;
            for (int j = std::max(cj - ring, 0); j <= std::min(cj + ring, ny_ - 1); ++j) {
                // The ring's cells only: whole rows at its top and bottom, two cells between.
                const int step = j == cj - ring || j == cj + ring ? 1 : 2 * ring;
                for (int i = ci - ring; i <= ci + ring; i += step) {
                    if (i < 0 || i >= nx_) continue;
                    // A cell further than best + reach from the centre holds no wall that could
                    // lower the minimum (the margin covers the cell bounds' rounding).
                    if (best < INFINITY) {
                        const double x0 = min_.x + i * cell_, y0 = min_.y + j * cell_;
                        const double gx = std::max({0.0, x0 - centre.x, centre.x - (x0 + cell_)});
                        const double gy = std::max({0.0, y0 - centre.y, centre.y - (y0 + cell_)});
                        const double limit = best + reach + margin_;
                        if (gx * gx + gy * gy > limit * limit) continue;
                    }
                    const size_t c = size_t(j) * nx_ + i;
                    for (uint32_t k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
                        const uint32_t w = cell_walls_[k];
                        best = std::min(best, distance(walls_[w], w, best));
                        if (best < stop_below) return best;
                    }
                }
            }
        }
        return best;
    }
    // Exact clearance of a-b; a value below stop_below only promises to be below it.
    double segmentClearance(Vec2 a, Vec2 b, double stop_below = -INFINITY) const {
        return nearest(
            {(a.x + b.x) / 2, (a.y + b.y) / 2}, dist(a, b) / 2,
            [&](const WallSegment& w, uint32_t, double best) {
                return segmentWallDistance(a, b, w.a, w.b, best);
            },
            stop_below);
    }
    // The arc lies within disk_reach of disk_centre; a value below stop_below only promises that.
    double arcClearance(const Arc& arc, Vec2 near, double reach, Vec2 disk_centre, double disk_reach,
                        double stop_below) const {
        return nearest(
            near, reach,
            [&](const WallSegment& w, uint32_t, double best) {
                return arcSegment(arc, w.a, w.b, best, disk_centre, disk_reach);
            },
            stop_below);
    }
    double pointClearance(Vec2 p) const {
        return nearest(
            p, 0, [&](const WallSegment& w, uint32_t, double) { return pointSegmentDistance(p, w.a, w.b); });
    }
    // The walls within `extra` of p's nearest one, as (distance from p, wall), nearest first; the
    // smallest distance is returned (INFINITY without walls). Every other wall is further from p
    // than that plus extra. The distances are sqrt, not hypot: callers only compare them with a
    // margin.
    double around(Vec2 p, double extra, std::vector<std::pair<double, uint32_t>>* out) const {
        out->clear();
        const double best = nearest(p, extra, [&](const WallSegment& w, uint32_t index, double so_far) {
            const Vec2 c = closestOnSegment(p, w.a, w.b);
            const double d = std::sqrt((p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y));
            if (!(d > so_far + extra)) out->push_back({d, index});
            return d;
        });
        out->erase(
            std::remove_if(out->begin(), out->end(), [&](const auto& c) { return c.first > best + extra; }),
            out->end());
        std::sort(out->begin(), out->end()); // a wall in several cells comes once per cell
        out->erase(std::unique(out->begin(), out->end()), out->end());
        return best;
    }
    const WallSegment& operator[](uint32_t i) const { return walls_[i]; }

  private:
    int cx(double x) const { return std::clamp(int(std::floor((x - min_.x) / cell_)), 0, nx_ - 1); }
    int cy(double y) const { return std::clamp(int(std::floor((y - min_.y) / cell_)), 0, ny_ - 1); }
    std::vector<WallSegment> walls_;
    Vec2 min_;
    double cell_ = 1, margin_ = 0;
    int nx_ = 1, ny_ = 1;
    std::vector<uint32_t> cell_start_, cell_walls_;
};

} // namespace

double surfaceHeight(const FootprintLayer& layer, Vec2 p) {
    double best_distance = INFINITY, best_height = layer.height_min;
    for (const SurfaceTriangle& t : layer.surface_triangles) {
        const Vec3& a = layer.surface_vertices[t.a];
        const Vec3& b = layer.surface_vertices[t.b];
        const Vec3& c = layer.surface_vertices[t.c];
        const double det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
        if (det == 0) continue;
        const double u = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / det;
        const double v = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / det;
        if (u >= -1e-9 && v >= -1e-9 && u + v <= 1 + 1e-9) return a.z + u * (b.z - a.z) + v * (c.z - a.z);
        // Outside: height of the nearest point of the nearest triangle.
        const double d =
            std::min({pointSegmentDistance(p, xy(a), xy(b)), pointSegmentDistance(p, xy(b), xy(c)),
                      pointSegmentDistance(p, xy(c), xy(a))});
        if (d < best_distance) {
            best_distance = d;
            const double cu = std::clamp(u, 0.0, 1.0), cv = std::clamp(v, 0.0, 1.0 - std::clamp(u, 0.0, 1.0));
            best_height = a.z + cu * (b.z - a.z) + cv * (c.z - a.z);
        }
    }
    return best_height;
}

namespace {

// surfaceHeight's answer without testing every triangle of the layer for every vertex: the first
// triangle (in layer order) passing its containment test is among those whose box, widened by a
// margin, holds the point (thin triangles, whose test rounding could pass far away, are always
// tried); when none passes, the full scan finds the nearest as before.
class SurfaceIndex {
  public:
    explicit SurfaceIndex(const FootprintLayer& layer) : layer_(layer) {
        const size_t count = layer.surface_triangles.size();
        std::vector<std::array<double, 4>> boxes;
        std::vector<uint32_t> boxed;
        for (uint32_t i = 0; i < count; ++i) {
            const Vec3 &a = vertex(i, 0), &b = vertex(i, 1), &c = vertex(i, 2);
            const double det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
            if (det == 0) continue; // surfaceHeight skips these too
            const double x0 = std::min({a.x, b.x, c.x}), x1 = std::max({a.x, b.x, c.x});
            const double y0 = std::min({a.y, b.y, c.y}), y1 = std::max({a.y, b.y, c.y});
            const double diagonal = std::hypot(x1 - x0, y1 - y0);
            if (std::abs(det) < 1e-6 * diagonal * diagonal || !std::isfinite(diagonal)) {
                thin_.push_back(i);
                continue;
            }
            const double m = 1e-6 * diagonal + 1e-9;
            boxes.push_back({x0 - m, y0 - m, x1 + m, y1 + m});
            boxed.push_back(i);
        }
        if (boxes.empty()) return;
        lo_ = {INFINITY, INFINITY}, hi_ = {-INFINITY, -INFINITY};
        for (const auto& box : boxes)
            lo_ = {std::min(lo_.x, box[0]), std::min(lo_.y, box[1])},
            hi_ = {std::max(hi_.x, box[2]), std::max(hi_.y, box[3])};
        cell_ = std::max(std::sqrt((hi_.x - lo_.x) * (hi_.y - lo_.y) / double(boxes.size())) * 2, 1e-3);
        while ((hi_.x - lo_.x) / cell_ * (hi_.y - lo_.y) / cell_ > 4e6)
            cell_ *= 2;
        nx_ = int((hi_.x - lo_.x) / cell_) + 1;
        ny_ = int((hi_.y - lo_.y) / cell_) + 1;
        cells_.resize(size_t(nx_) * size_t(ny_));
        for (size_t k = 0; k < boxes.size(); ++k)
            for (int j = cy(boxes[k][1]); j <= cy(boxes[k][3]); ++j)
                for (int i = cx(boxes[k][0]); i <= cx(boxes[k][2]); ++i)
                    cells_[size_t(j) * nx_ + i].push_back(boxed[k]); // ascending: pushed in order
    }

    double height(Vec2 p) const {
        static const std::vector<uint32_t> none;
        const bool in_grid = !cells_.empty() && p.x >= lo_.x && p.x <= hi_.x && p.y >= lo_.y && p.y <= hi_.y;
        const std::vector<uint32_t>& cell = in_grid ? cells_[size_t(cy(p.y)) * nx_ + cx(p.x)] : none;
        // Both lists ascend: merge them so the first passing triangle is the scan's first.
        for (size_t i = 0, j = 0; i < cell.size() || j < thin_.size();) {
            const uint32_t t =
                j == thin_.size() || (i < cell.size() && cell[i] < thin_[j]) ? cell[i++] : thin_[j++];
            const Vec3 &a = vertex(t, 0), &b = vertex(t, 1), &c = vertex(t, 2);
            // The same arithmetic as surfaceHeight, so the same bits.
            const double det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
            const double u = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / det;
            const double v = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / det;
            if (u >= -1e-9 && v >= -1e-9 && u + v <= 1 + 1e-9) return a.z + u * (b.z - a.z) + v * (c.z - a.z);
        }
        return surfaceHeight(layer_, p); // inside no triangle: the nearest one
    }

  private:
    const Vec3& vertex(uint32_t t, int k) const {
        const SurfaceTriangle& s = layer_.surface_triangles[t];
        return layer_.surface_vertices[k == 0 ? s.a : k == 1 ? s.b : s.c];
    }
    int cx(double x) const { return std::clamp(int(std::floor((x - lo_.x) / cell_)), 0, nx_ - 1); }
    int cy(double y) const { return std::clamp(int(std::floor((y - lo_.y) / cell_)), 0, ny_ - 1); }
    const FootprintLayer& layer_;
    std::vector<uint32_t> thin_;
    Vec2 lo_, hi_;
    double cell_ = 1;
    int nx_ = 1, ny_ = 1;
    std::vector<std::vector<uint32_t>> cells_;
};

} // namespace

std::vector<WallSegment> solidLayerWalls(const Footprint& fp, uint32_t layer) {
    // Subtract every portal interval from the walls collinear with it (a ring edge may run on past
    // the portal: the upper floor's edge continues beside the stair top).
    const double tol = 1e-3;
    std::vector<WallSegment> out;
    for (const WallSegment& wall : layerWalls(fp.layers[layer])) {
        const double len = dist(wall.a, wall.b);
        std::vector<std::pair<double, double>> keep{{0.0, len}};
        if (len > 0)
            for (const Connection& c : fp.connections) {
                if (c.layer_a != layer && c.layer_b != layer) continue;
                if (pointSegmentDistance(c.p0, wall.a, wall.b) > tol ||
                    pointSegmentDistance(c.p1, wall.a, wall.b) > tol)
                    continue;
                const Vec2 u{(wall.b.x - wall.a.x) / len, (wall.b.y - wall.a.y) / len};
                double t0 = (c.p0.x - wall.a.x) * u.x + (c.p0.y - wall.a.y) * u.y;
                double t1 = (c.p1.x - wall.a.x) * u.x + (c.p1.y - wall.a.y) * u.y;
                if (t1 < t0) std::swap(t0, t1);
                std::vector<std::pair<double, double>> next;
                for (const auto& [k0, k1] : keep) {
                    if (t1 <= k0 || t0 >= k1) {
                        next.push_back({k0, k1});
                        continue;
                    }
                    if (t0 - k0 > tol) next.push_back({k0, t0});
                    if (k1 - t1 > tol) next.push_back({t1, k1});
                }
                keep = std::move(next);
            }
        for (const auto& [k0, k1] : keep) {
            const Vec2 u{(wall.b.x - wall.a.x) / std::max(len, 1e-300),
                         (wall.b.y - wall.a.y) / std::max(len, 1e-300)};
            out.push_back(
                {{wall.a.x + u.x * k0, wall.a.y + u.y * k0}, {wall.a.x + u.x * k1, wall.a.y + u.y * k1}});
        }
    }
    return out;
}

namespace {

// End data of edge e seen from vertex v: the first polyline piece leaving v.
struct EdgeEnd {
    Vec2 from, next;
};
EdgeEnd endAt(const RoadmapEdge& e, uint32_t v) {
    if (e.a == v) return {e.points[0], e.points[1]};
    return {e.points.back(), e.points[e.points.size() - 2]};
}

Vec2 unit(Vec2 from, Vec2 to) {
    const double len = dist(from, to);
    return len > 0 ? Vec2{(to.x - from.x) / len, (to.y - from.y) / len} : Vec2{0, 0};
}

// Edges at each vertex, in edge order, as one flat list (no list per vertex): at(v) and size(v).
struct Incidence {
    std::vector<uint32_t> start, edges;
    Incidence(const Roadmap& rm, bool skip_loops) : start(rm.vertices.size() + 1, 0) {
        for (const RoadmapEdge& e : rm.edges)
            if (!(skip_loops && e.a == e.b)) ++start[e.a + 1], ++start[e.b + 1];
        for (size_t v = 0; v < rm.vertices.size(); ++v)
            start[v + 1] += start[v];
        edges.resize(start.back());
        std::vector<uint32_t> fill(start.begin(), start.end() - 1);
        for (uint32_t e = 0; e < rm.edges.size(); ++e)
            if (!(skip_loops && rm.edges[e].a == rm.edges[e].b))
                edges[fill[rm.edges[e].a]++] = e, edges[fill[rm.edges[e].b]++] = e;
    }
    size_t size(uint32_t v) const { return start[v + 1] - start[v]; }
    const uint32_t* at(uint32_t v) const { return edges.data() + start[v]; }
};

void mergeChains(Roadmap& rm, const std::vector<Walls>& walls) {
    // Bypass degree-2 vertices while the straight replacement keeps the chain's clearance
    // (Nieuwenhuisen et al. 2004, "Improving the roadmap"). Edges that touch a wall (clearance 0) stay exact.
    // A vertex whose test failed keeps its two edges (and so fails again) until a merge at one
    // of its neighbours replaces one of them: vertex indices stay put across passes.
    std::vector<bool> rejected(rm.vertices.size(), false);
    for (bool changed = true; changed;) {
        changed = false;
        const Incidence incidence(rm, false);
        std::vector<bool> removed(rm.edges.size(), false), touched(rm.vertices.size(), false);
        std::vector<RoadmapEdge> added;
        for (uint32_t v = 0; v < rm.vertices.size(); ++v) {
            // rejected[v] first: the same test as in an earlier pass fails again, and the edges and
            // positions it would read are cache misses.
            if (incidence.size(v) != 2 || touched[v] || rejected[v]) continue;
            const uint32_t* incident = incidence.at(v);
            const RoadmapEdge& e1 = rm.edges[incident[0]];
            const RoadmapEdge& e2 = rm.edges[incident[1]];
            if (e1.portal || e2.portal || incident[0] == incident[1]) continue;
            const uint32_t u = e1.a == v ? e1.b : e1.a, w = e2.a == v ? e2.b : e2.a;
            if (u == w || u == v || w == v || touched[u] || touched[w]) continue;
            const double required = std::min(e1.min_clearance, e2.min_clearance);
            if (!(required > 0)) continue;
            const Vec2 pu = xy(rm.vertices[u].position), pw = xy(rm.vertices[w].position);
            const double clearance = walls[rm.vertices[v].layer].segmentClearance(pu, pw, required);
            if (clearance < required) {
                rejected[v] = true;
                continue;
            }
            RoadmapEdge merged;
            merged.a = u;
            merged.b = w;
            merged.points = {pu, pw};
            merged.min_clearance = clearance;
            merged.site = ClearanceSite::Walls;
            merged.left_a = e1.a == u ? e1.left_a : e1.right_b;
            merged.right_a = e1.a == u ? e1.right_a : e1.left_b;
            merged.left_b = e2.b == w ? e2.left_b : e2.right_a;
            merged.right_b = e2.b == w ? e2.right_b : e2.left_a;
            removed[incident[0]] = removed[incident[1]] = true;
            touched[u] = touched[v] = touched[w] = true;
            rejected[u] = rejected[w] = false; // their edges change
            added.push_back(std::move(merged));
            changed = true;
        }
        if (!changed) break;
        // Kept edges move forward in place, then the merged ones follow (no second edge list).
        size_t kept = 0;
        for (uint32_t e = 0; e < rm.edges.size(); ++e)
            if (!removed[e]) {
                if (kept != e) rm.edges[kept] = std::move(rm.edges[e]);
                ++kept;
            }
        rm.edges.erase(rm.edges.begin() + ptrdiff_t(kept), rm.edges.end());
        for (RoadmapEdge& e : added)
            rm.edges.push_back(std::move(e));
    }
    // Drop vertices left without edges, keeping order.
    std::vector<bool> used(rm.vertices.size(), false);
    for (const RoadmapEdge& e : rm.edges)
        used[e.a] = used[e.b] = true;
    std::vector<uint32_t> remap(rm.vertices.size(), UINT32_MAX);
    std::vector<RoadmapVertex> kept;
    kept.reserve(size_t(std::count(used.begin(), used.end(), true))); // the list the asset is written from
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (used[v]) remap[v] = uint32_t(kept.size()), kept.push_back(rm.vertices[v]);
    rm.vertices = std::move(kept);
    for (RoadmapEdge& e : rm.edges)
        e.a = remap[e.a], e.b = remap[e.b];
}

// Threads for a loop over a roadmap's vertices. Below a few thousand vertices the loop runs on
// the calling thread: at 1k walls (1,937 vertices) starting oneTBB's workers cost about 1 ms of
// CPU and 0.9 MiB and the bake took no less wall time. The output is the same either way.
unsigned vertexLoopThreads(size_t vertices, unsigned threads) {
    return vertices < 4096 ? 1u : threads;
}

void addBlends(Roadmap& rm, const std::vector<Walls>& walls) {
    const Incidence incidence(rm, true);
    // One task per vertex: a vertex writes one blend per pair of its non-portal edges, in pair
    // order, at its own offset in the vertex-ordered list (no per-vertex lists).
    std::vector<size_t> first(rm.vertices.size() + 1, 0);
    for (uint32_t v = 0; v < rm.vertices.size(); ++v) {
        size_t pairs = 0;
        const uint32_t* incident = incidence.at(v);
        for (size_t i = 0; i < incidence.size(v); ++i)
            for (size_t j = i + 1; j < incidence.size(v); ++j)
                pairs += !rm.edges[incident[i]].portal && !rm.edges[incident[j]].portal;
        first[v + 1] = first[v] + pairs;
    }
    const size_t blends_before = rm.blends.size();
    rm.blends.resize(blends_before + first.back());
    const unsigned threads = vertexLoopThreads(rm.vertices.size(), rm.options.threads);
    parallel::forEach(rm.vertices.size(), threads, [&](size_t vertex) {
        const uint32_t v = uint32_t(vertex);
        struct Out {
            Blend* next;
            void push_back(const Blend& b) { *next++ = b; }
        } out{rm.blends.data() + blends_before + first[v]};
        const Vec2 pv = xy(rm.vertices[v].position);
        const uint32_t* incident = incidence.at(v);
        const Walls& layer_walls = walls[rm.vertices[v].layer];
        // Each edge's first piece, its length and direction (unit() of it), read once per vertex,
        // not once per pair.
        struct End {
            double length;
            Vec2 direction;
        };
        thread_local std::vector<End> ends;
        ends.resize(incidence.size(v));
        for (size_t i = 0; i < incidence.size(v); ++i) {
            const RoadmapEdge& e = rm.edges[incident[i]];
            if (e.portal) continue;
            const EdgeEnd end = endAt(e, v);
            const double len = dist(end.from, end.next);
            ends[i] = {len, len > 0 ? Vec2{(end.next.x - end.from.x) / len, (end.next.y - end.from.y) / len}
                                    : Vec2{0, 0}};
        }
        // A minor arc lies in the disk on its chord, within sqrt(2) times its length of pv. The
        // walls that can be nearest to one of this vertex's arcs are gathered once, sorted by their
        // distance d from pv: a wall is at least d - reach from an arc within reach of pv, so each
        // arc reads only the walls up to its minimum + reach (one grid search per vertex, not one
        // per arc). An arc the gathered walls cannot provably decide takes the grid search, which
        // gives the same exact minimum: `extra` only sets the cost. sqrt(2) times the longest
        // first arc covers every arc whose clearance is at most pv's; the few others (an arc is
        // rarely further from the walls than its vertex) take the grid search.
        double first_length = 0;
        for (size_t i = 0; i < incidence.size(v); ++i)
            for (size_t j = i + 1; j < incidence.size(v); ++j) {
                if (rm.edges[incident[i]].portal || rm.edges[incident[j]].portal) continue;
                first_length = std::max(first_length, std::min(ends[i].length, ends[j].length) / 2);
            }
        thread_local std::vector<std::pair<double, uint32_t>> near;
        const double extra = std::sqrt(2.0) * first_length;
        const double pv_clearance = layer_walls.around(pv, extra, &near);
        // The exact minimum over the walls of arcSegment, as Walls::arcClearance gives it: from
        // the gathered walls when they provably hold it, else by the grid search.
        auto arcClearance = [&](const Arc& arc, double length, Vec2 disk_centre, double disk_reach,
                                double required) {
            const double reach = std::sqrt((disk_centre.x - pv.x) * (disk_centre.x - pv.x) +
                                           (disk_centre.y - pv.y) * (disk_centre.y - pv.y)) +
                                 disk_reach;
            const double margin = 1e-9 * (1 + std::abs(pv.x) + std::abs(pv.y) + arc.radius +
                                          std::abs(arc.centre.x) + std::abs(arc.centre.y) + reach + extra +
                                          (std::isfinite(pv_clearance) ? pv_clearance : 0));
            double best = INFINITY;
            for (const auto& [d, w] : near) {
                if (d - reach - margin > best) break; // this wall and the rest stay above best
                const WallSegment& wall = layer_walls[w];
                if (best < INFINITY) {
                    // Further than best from the disk holding the arc: above best (arcSegment's
                    // own test, before its circle crossings and their atan2).
                    const Vec2 q = closestOnSegment(disk_centre, wall.a, wall.b);
                    const double limit = best + disk_reach + margin;
                    if ((q.x - disk_centre.x) * (q.x - disk_centre.x) +
                            (q.y - disk_centre.y) * (q.y - disk_centre.y) >
                        limit * limit)
                        continue;
                }
                best = std::min(best, arcSegment(arc, wall.a, wall.b, best, disk_centre, disk_reach));
                if (best < required) return best; // below: that is all the caller needs
            }
            // A wall not gathered is further than pv_clearance + extra from pv.
            if (std::isfinite(pv_clearance) && pv_clearance + extra - reach - margin >= best) return best;
            return layer_walls.arcClearance(arc, pv, length, disk_centre, disk_reach, required);
        };
        for (size_t i = 0; i < incidence.size(v); ++i)
            for (size_t j = i + 1; j < incidence.size(v); ++j) {
                const RoadmapEdge& ei = rm.edges[incident[i]];
                const RoadmapEdge& ej = rm.edges[incident[j]];
                if (ei.portal || ej.portal) continue;
                const Vec2 di = ends[i].direction, dj = ends[j].direction;
                Blend blend;
                blend.vertex = v;
                blend.edge_in = incident[i];
                blend.edge_out = incident[j];
                blend.p_in = blend.p_out = blend.center = pv;
                const double cos_angle = std::clamp(di.x * dj.x + di.y * dj.y, -1.0, 1.0);
                const double angle = std::acos(cos_angle); // between the two edges, 0..pi
                const double required = std::min(ei.min_clearance, ej.min_clearance);
                blend.min_clearance = rm.vertices[v].clearance;
                // Within 1e-4 rad of straight the arc radius would exceed 2e4 times its length:
                // the edges continue each other and need no arc.
                if (angle > M_PI - 1e-4 || angle < 1e-6) {
                    out.push_back(blend); // straight through (or folded back): no arc
                    continue;
                }
                // Start where the paper does (halfway along the first pieces) and shrink until
                // the arc keeps the clearance of the edges it joins.
                double length = std::min(ends[i].length, ends[j].length) / 2;
                // The same for every length (computed once: the same values as per attempt).
                const double tan_half = std::tan(angle / 2), cos_half = std::cos(angle / 2);
                const Vec2 bis = unit({0, 0}, {di.x + dj.x, di.y + dj.y});
                // Travelling in along -di, out along dj: the turn's sense gives the sweep sign.
                const bool ccw = cross({0, 0}, {-di.x, -di.y}, dj) > 0;
                for (int attempt = 0; attempt < 40 && length > 1e-5; ++attempt, length /= 2) {
                    const Vec2 p_in{pv.x + di.x * length, pv.y + di.y * length};
                    const Vec2 p_out{pv.x + dj.x * length, pv.y + dj.y * length};
                    const double radius = length * tan_half;
                    const double to_centre = length / cos_half;
                    const Vec2 centre{pv.x + bis.x * to_centre, pv.y + bis.y * to_centre};
                    Arc arc{};
                    arc.centre = centre;
                    arc.radius = radius;
                    arc.start = std::atan2(p_in.y - centre.y, p_in.x - centre.x);
                    const double end = std::atan2(p_out.y - centre.y, p_out.x - centre.x);
                    double sweep = end - arc.start;
                    if (ccw)
                        sweep = fmodTwoPi(fmodTwoPi(sweep) + 2 * M_PI);
                    else
                        sweep = -fmodTwoPi(fmodTwoPi(-sweep) + 2 * M_PI);
                    arc.sweep = sweep;
                    // A disk holding the arc for the walls' cheap bound: the circle through the
                    // ends of a minor arc, else the arc's own circle.
                    setEnds(arc);
                    const Vec2 e0 = arc.e0, e1 = arc.e1;
                    const bool minor = std::abs(arc.sweep) <= M_PI - 1e-3;
                    const Vec2 disk_centre = minor ? Vec2{(e0.x + e1.x) / 2, (e0.y + e1.y) / 2} : centre;
                    // sqrt, not hypot: the reaches only feed tests whose margins (1e-9, relative)
                    // are far above the ulps between the two.
                    const double disk_reach =
                        minor ? std::sqrt((e1.x - e0.x) * (e1.x - e0.x) + (e1.y - e0.y) * (e1.y - e0.y)) / 2
                              : radius;
                    const double clearance = arcClearance(arc, length, disk_centre, disk_reach, required);
                    if (clearance >= required) {
                        blend.center = centre;
                        blend.p_in = p_in;
                        blend.p_out = p_out;
                        blend.radius = radius;
                        blend.ccw = ccw;
                        blend.min_clearance = clearance;
                        break;
                    }
                }
                out.push_back(blend);
            }
    });
}

void joinLayers(Roadmap& rm, const Footprint& fp, const std::vector<Walls>& walls) {
    const uint32_t medial_count = uint32_t(rm.vertices.size());
    for (const Connection& c : fp.connections) {
        const Vec2 m{(c.p0.x + c.p1.x) / 2, (c.p0.y + c.p1.y) / 2};
        uint32_t ends[2] = {UINT32_MAX, UINT32_MAX};
        const uint32_t layers[2] = {c.layer_a, c.layer_b};
        const double heights[2] = {(c.z_a0 + c.z_a1) / 2, (c.z_b0 + c.z_b1) / 2};
        for (int side = 0; side < 2; ++side) {
            const uint32_t layer = layers[side];
            // Nearest medial-axis vertex of that layer the portal midpoint sees with positive
            // clearance. Zero-clearance vertices are leaves at wall corners (often the portal's own
            // ends) whose one edge has clearance 0, and earlier portal vertices may only chain to
            // such leaves: linking to either strands the portal for every radius > 0. A leaf is
            // still better than no link when the layer has nothing else in sight.
            double best = INFINITY, best_clearance = 0;
            uint32_t best_vertex = UINT32_MAX;
            for (int pass = 0; pass < 2 && best_vertex == UINT32_MAX; ++pass)
                for (uint32_t v = 0; v < medial_count; ++v) {
                    if (rm.vertices[v].layer != layer || (pass == 0 && rm.vertices[v].clearance <= 0))
                        continue;
                    const double d = dist(m, xy(rm.vertices[v].position));
                    if (d >= best) continue;
                    const double clearance = walls[layer].segmentClearance(m, xy(rm.vertices[v].position));
                    if (clearance <= 0) continue;
                    best = d, best_vertex = v, best_clearance = clearance;
                }
            if (best_vertex == UINT32_MAX) break;
            RoadmapVertex portal;
            portal.position = {m.x, m.y, heights[side]};
            portal.layer = layer;
            portal.clearance = walls[layer].pointClearance(m);
            ends[side] = uint32_t(rm.vertices.size());
            rm.vertices.push_back(portal);
            RoadmapEdge e;
            e.a = ends[side];
            e.b = best_vertex;
            e.points = {m, xy(rm.vertices[best_vertex].position)};
            e.min_clearance = best_clearance;
            e.site = ClearanceSite::Walls;
            e.left_a = e.right_a = e.left_b = e.right_b = m;
            rm.edges.push_back(e);
        }
        if (ends[0] == UINT32_MAX || ends[1] == UINT32_MAX) continue;
        RoadmapEdge across;
        across.a = ends[0];
        across.b = ends[1];
        across.points = {m, m};
        across.portal = true;
        across.min_clearance = std::min(rm.vertices[ends[0]].clearance, rm.vertices[ends[1]].clearance);
        across.site = ClearanceSite::Walls;
        across.left_a = across.left_b = c.p0;
        across.right_a = across.right_b = c.p1;
        rm.edges.push_back(across);
    }
}

// std::sort(list, less) for a strict total order (so the result is unique), cheaper when the
// list is a sorted run followed by a short tail: the second ordering of a bake finds the kept
// edges still in order and only the merged and joining ones after them.
template <class T, class Less> void sortSortedRun(std::vector<T>& list, Less less) {
    const auto run_end = std::is_sorted_until(list.begin(), list.end(), less);
    const size_t run = size_t(run_end - list.begin()), tail = list.size() - run;
    if (tail == 0) return;
    if (tail > list.size() / 2) {
        std::sort(list.begin(), list.end(), less);
        return;
    }
    std::vector<T> rest(run_end, list.end());
    std::sort(rest.begin(), rest.end(), less);
    // Merged from the back into place.
    size_t i = run, j = tail, k = list.size();
    while (j > 0)
        list[--k] = i > 0 && less(rest[j - 1], list[i - 1]) ? list[--i] : rest[--j];
}

// Canonical order (coordinates, not construction order) so assets are byte-identical.
void canonicalOrder(Roadmap& rm) {
    // Vertices by (layer, x, y, z, clearance); degenerate sites can leave two vertices at one
    // position, and their neighbours' positions (the signature) tell them apart without depending
    // on CGAL's (memory-ordered) construction order; the vertex number breaks the remaining ties,
    // which is what a stable sort of the numbers does. The keys sit side by side with their vertex
    // (no indirection per comparison).
    struct VertexKey {
        uint32_t layer;
        double x, y, z, clearance;
        uint32_t v;
    };
    std::vector<VertexKey> keyed(rm.vertices.size());
    for (uint32_t v = 0; v < keyed.size(); ++v) {
        const RoadmapVertex& x = rm.vertices[v];
        keyed[v] = {x.layer, x.position.x, x.position.y, x.position.z, x.clearance, v};
    }
    // std::tuple's order (only <, so -0 and 0 tie as before): -1, 0 (a tie) or 1.
    auto position_order = [](const VertexKey& a, const VertexKey& b) {
        if (a.layer != b.layer) return a.layer < b.layer ? -1 : 1;
        if (a.x < b.x) return -1;
        if (b.x < a.x) return 1;
        if (a.y < b.y) return -1;
        if (b.y < a.y) return 1;
        if (a.z < b.z) return -1;
        if (b.z < a.z) return 1;
        if (a.clearance < b.clearance) return -1;
        if (b.clearance < a.clearance) return 1;
        return 0;
    };
    sortSortedRun(keyed, [&](const VertexKey& a, const VertexKey& b) {
        const int order = position_order(a, b);
        return order != 0 ? order < 0 : a.v < b.v;
    });
    // Runs of tied positions are then ordered by signature and number: the order a sort by the
    // whole key gives. Signatures (each vertex's neighbour directions, sorted) are gathered only
    // for the vertices in such runs, which are few.
    std::vector<uint32_t> tied_slot(rm.vertices.size(), UINT32_MAX);
    uint32_t tied = 0;
    for (size_t i = 0; i + 1 < keyed.size(); ++i)
        if (position_order(keyed[i], keyed[i + 1]) == 0) {
            for (const size_t k : {i, i + 1})
                if (tied_slot[keyed[k].v] == UINT32_MAX) tied_slot[keyed[k].v] = tied++;
        }
    if (tied > 0) {
        std::vector<uint32_t> sig_start(tied + 1, 0);
        for (const RoadmapEdge& e : rm.edges)
            for (const uint32_t v : {e.a, e.b})
                if (tied_slot[v] != UINT32_MAX) ++sig_start[tied_slot[v] + 1];
        for (size_t t = 0; t < tied; ++t)
            sig_start[t + 1] += sig_start[t];
        std::vector<std::pair<double, double>> signature(sig_start.back());
        std::vector<uint32_t> fill(sig_start.begin(), sig_start.end() - 1);
        for (const RoadmapEdge& e : rm.edges) {
            if (tied_slot[e.a] != UINT32_MAX) {
                const Vec2 from_a = e.points.size() > 1 ? e.points[1] : e.points[0];
                signature[fill[tied_slot[e.a]]++] = {from_a.x, from_a.y};
            }
            if (tied_slot[e.b] != UINT32_MAX) {
                const Vec2 from_b = e.points.size() > 1 ? e.points[e.points.size() - 2] : e.points[0];
                signature[fill[tied_slot[e.b]]++] = {from_b.x, from_b.y};
            }
        }
        for (size_t t = 0; t < tied; ++t)
            std::sort(signature.begin() + sig_start[t], signature.begin() + sig_start[t + 1]);
        for (size_t i = 0; i < keyed.size();) {
            size_t j = i + 1;
            while (j < keyed.size() && position_order(keyed[i], keyed[j]) == 0)
                ++j;
            if (j - i > 1)
                std::sort(keyed.begin() + ptrdiff_t(i), keyed.begin() + ptrdiff_t(j),
                          [&](const VertexKey& a, const VertexKey& b) {
                              const uint32_t ta = tied_slot[a.v], tb = tied_slot[b.v];
                              const auto sa = signature.begin() + sig_start[ta],
                                         sa_end = signature.begin() + sig_start[ta + 1];
                              const auto sb = signature.begin() + sig_start[tb],
                                         sb_end = signature.begin() + sig_start[tb + 1];
                              if (std::lexicographical_compare(sa, sa_end, sb, sb_end)) return true;
                              if (std::lexicographical_compare(sb, sb_end, sa, sa_end)) return false;
                              return a.v < b.v;
                          });
            i = j;
        }
    }
    std::vector<uint32_t>().swap(tied_slot);
    std::vector<uint32_t> rank(keyed.size()), vertex_order(keyed.size());
    for (uint32_t i = 0; i < keyed.size(); ++i)
        rank[keyed[i].v] = i, vertex_order[i] = keyed[i].v;
    std::vector<VertexKey>().swap(keyed);
    // Permuted in place (no second vertex list beside the keys): position i takes vertex_order[i].
    for (size_t i = 0; i < vertex_order.size(); ++i) {
        if (vertex_order[i] == i || vertex_order[i] == UINT32_MAX) continue;
        const RoadmapVertex held = rm.vertices[i];
        size_t j = i;
        while (vertex_order[j] != i) {
            const size_t from = vertex_order[j];
            rm.vertices[j] = rm.vertices[from];
            vertex_order[j] = UINT32_MAX;
            j = from;
        }
        rm.vertices[j] = held;
        vertex_order[j] = UINT32_MAX;
    }
    std::vector<uint32_t>().swap(vertex_order);
    // Edges renumbered, turned to run from the lower vertex, and keyed, in one pass (each edge's
    // points are read once).
    struct EdgeKey {
        uint32_t a, b;
        size_t points;
        double x, y;
        uint32_t e;
    };
    std::vector<EdgeKey> keys(rm.edges.size());
    for (uint32_t i = 0; i < keys.size(); ++i) {
        RoadmapEdge& e = rm.edges[i];
        e.a = rank[e.a];
        e.b = rank[e.b];
        if (e.b < e.a) {
            std::swap(e.a, e.b);
            std::reverse(e.points.begin(), e.points.end());
            std::swap(e.left_a, e.right_b);
            std::swap(e.right_a, e.left_b);
        }
        keys[i] = {
            e.a, e.b, e.points.size(), e.points[e.points.size() / 2].x, e.points[e.points.size() / 2].y, i};
    }
    // Sort of compact keys, then the edges permuted in place: the same order as a stable sort of
    // the 152-byte edges themselves (the keys carry their edge number, which breaks ties), with
    // far fewer bytes moved.
    sortSortedRun(keys, [](const EdgeKey& p, const EdgeKey& q) {
        if (p.a != q.a) return p.a < q.a;
        if (p.b != q.b) return p.b < q.b;
        if (p.points != q.points) return p.points < q.points;
        if (p.x < q.x) return true;
        if (q.x < p.x) return false;
        if (p.y < q.y) return true;
        if (q.y < p.y) return false;
        return p.e < q.e;
    });
    std::vector<uint32_t> edge_order(keys.size());
    for (size_t i = 0; i < keys.size(); ++i)
        edge_order[i] = keys[i].e;
    std::vector<EdgeKey>().swap(keys);
    for (size_t i = 0; i < edge_order.size(); ++i) {
        // Follow the cycle through i: position j takes the edge edge_order[j].
        if (edge_order[i] == i || edge_order[i] == UINT32_MAX) continue;
        RoadmapEdge held = std::move(rm.edges[i]);
        size_t j = i;
        while (edge_order[j] != i) {
            const size_t from = edge_order[j];
            rm.edges[j] = std::move(rm.edges[from]);
            edge_order[j] = UINT32_MAX;
            j = from;
        }
        rm.edges[j] = std::move(held);
        edge_order[j] = UINT32_MAX;
    }
}

} // namespace

Error buildRoadmap(const Footprint& footprint, const RoadmapOptions& options, Roadmap* out,
                   RoadmapStats* stats, LogContext& log) {
    if (!(options.min_clearance >= 0) || !std::isfinite(options.min_clearance))
        return {ErrorCode::InvalidOption, "--min-clearance must be >= 0 metres"};
    if (!(options.epsilon > 0) || options.epsilon > 1)
        return {ErrorCode::InvalidOption, "--epsilon must be in (0, 1] metres"};
    try {
        Roadmap rm; // its footprint is copied last, into the holes the stages leave
        rm.options = options;
        RoadmapStats local;
        const auto voronoi_start = Clock::now();
        // Medial axis and solid walls per layer, one task per layer into its own slot (each its
        // own CGAL diagram). Appending the slots in layer order with offset indices gives exactly
        // what building the layers one after another into one list gives.
        const size_t layer_count = footprint.layers.size();
        struct LayerAxis {
            std::vector<RoadmapVertex> vertices;
            std::vector<RoadmapEdge> edges;
            std::vector<WallSegment> solid_walls;
            size_t sites = 0;
            Error error;
        };
        std::vector<LayerAxis> axes(layer_count);
        parallel::forEach(layer_count, options.threads, [&](size_t l) {
            LayerAxis& axis = axes[l];
            try {
                axis.error = medialAxisTakingWalls(
                    layerWalls(footprint.layers[l]), footprint.layers[l].polygons, footprint.grid_spacing,
                    options, uint32_t(l), &axis.vertices, &axis.edges, &axis.sites);
                if (!axis.error) axis.solid_walls = solidLayerWalls(footprint, uint32_t(l));
            } catch (const std::exception& e) {
                // The first failing layer is reported, whichever thread failed first.
                axis.error = {ErrorCode::Internal, std::string("geometry kernel failure: ") + e.what()};
            }
        });
        std::vector<Walls> walls;
        for (size_t l = 0; l < layer_count; ++l) {
            LayerAxis& axis = axes[l];
            if (axis.error) return {axis.error.code, footprint.source_name + ": " + axis.error.message};
            const uint32_t base = uint32_t(rm.vertices.size());
            for (RoadmapEdge& e : axis.edges)
                e.a += base, e.b += base;
            if (rm.edges.empty() && rm.vertices.empty()) {
                rm.vertices.swap(axis.vertices); // the first layer's lists as they are (no copy)
                rm.edges.swap(axis.edges);
            } else {
                rm.vertices.insert(rm.vertices.end(), axis.vertices.begin(), axis.vertices.end());
                rm.edges.insert(rm.edges.end(), std::make_move_iterator(axis.edges.begin()),
                                std::make_move_iterator(axis.edges.end()));
            }
            std::vector<RoadmapVertex>().swap(axis.vertices);
            std::vector<RoadmapEdge>().swap(axis.edges);
            local.walls += axis.sites;
            walls.emplace_back(std::move(axis.solid_walls));
        }
        axes.clear();
        local.seconds_voronoi = secondsSince(voronoi_start);
        const auto roadmap_start = Clock::now();
        // Per-step wall time, logged at debug level (cw-roadmap --verbose).
        auto step_start = roadmap_start;
        std::string timings;
        auto lap = [&](const char* step) {
            char text[64];
            std::snprintf(text, sizeof text, "%s %.3f s; ", step, secondsSince(step_start));
            timings += text;
            step_start = Clock::now();
        };
        // Canonical order before anything that visits vertices in order (chain merging).
        canonicalOrder(rm);
#ifdef __GLIBC__
        // The ordering's keys are freed: return their pages before merging allocates its own.
        malloc_trim(0);
#endif
        if (options.merge_chains) mergeChains(rm, walls);
#ifdef __GLIBC__
        // The copy below needs room for a second edge list: hand the free pages the stages left
        // in the heap back first, so the copy does not stack on top of them.
        malloc_trim(0);
#endif
        rm.edges.shrink_to_fit();    // merging leaves the medial axis's capacity behind
        rm.vertices.shrink_to_fit(); // likewise without merging (ordering permutes in place)
        lap("merge");
        joinLayers(rm, footprint, walls);
        lap("join");
        // Heights: a pure function of each vertex, one slot each.
        std::vector<SurfaceIndex> surfaces;
        for (const FootprintLayer& layer : footprint.layers)
            surfaces.emplace_back(layer);
        const unsigned height_threads = vertexLoopThreads(rm.vertices.size(), options.threads);
        parallel::forEach(rm.vertices.size(), height_threads, [&](size_t v) {
            RoadmapVertex& vertex = rm.vertices[v];
            vertex.position.z = surfaces[vertex.layer].height(xy(vertex.position));
        });
        lap("heights");
        canonicalOrder(rm);
        addBlends(rm, walls);
        lap("blends");
        log.log(LogLevel::Debug, footprint.source_name + ": roadmap voronoi " +
                                     std::to_string(local.seconds_voronoi) + " s; " + timings);
        rm.options_hash = roadmapOptionsHash(footprint.options, options);
        local.seconds_roadmap = secondsSince(roadmap_start);
        local.layers = footprint.layers.size();
        local.vertices = rm.vertices.size();
        local.edges = rm.edges.size();
        for (const RoadmapEdge& e : rm.edges)
            local.arcs += e.points.size() > 2;
        for (const Blend& b : rm.blends)
            local.blends += b.radius > 0;
        log.log(LogLevel::Debug, footprint.source_name + ": roadmap " + std::to_string(local.vertices) +
                                     " vertices, " + std::to_string(local.edges) + " edges, " +
                                     std::to_string(local.walls) + " walls");
#ifdef __GLIBC__
        {
            // The edges' point lists were allocated by the medial axis among blocks the stages
            // have freed since (merging freed many of the lists too): they pin pages that are
            // mostly holes. Freed together and taken again in order, they fill the heap densely.
            std::vector<uint32_t> sizes(rm.edges.size());
            size_t count = 0;
            for (size_t e = 0; e < rm.edges.size(); ++e)
                sizes[e] = uint32_t(rm.edges[e].points.size()), count += sizes[e];
            std::vector<Vec2> all;
            all.reserve(count);
            for (RoadmapEdge& e : rm.edges) {
                all.insert(all.end(), e.points.begin(), e.points.end());
                std::vector<Vec2>().swap(e.points);
            }
            malloc_trim(0);
            const Vec2* next = all.data();
            for (size_t e = 0; e < rm.edges.size(); ++e) {
                rm.edges[e].points.assign(next, next + sizes[e]);
                next += sizes[e];
            }
        }
#endif
        rm.footprint = footprint;
        *out = std::move(rm);
        if (stats) *stats = local;
#ifdef __GLIBC__
        // The stages' temporaries leave free pages inside the heap that glibc keeps resident;
        // return them, so whatever the caller builds next (the asset) does not stack on top.
        malloc_trim(0);
#endif
        return {};
    } catch (const std::exception& e) {
        return {ErrorCode::Internal, footprint.source_name + ": geometry kernel failure: " + e.what()};
    }
}


void finishRoadmapGraph(Roadmap& rm) {
    std::vector<Walls> walls;
    for (uint32_t l = 0; l < rm.footprint.layers.size(); ++l)
        walls.emplace_back(solidLayerWalls(rm.footprint, l));
    canonicalOrder(rm);
    if (rm.options.merge_chains) mergeChains(rm, walls);
    canonicalOrder(rm);
    rm.blends.clear();
    addBlends(rm, walls);
}

} // namespace clearway::bake
