// Nearest-wall queries for one layer on a bucket grid: exact clearance of points, segments and
// arcs, with the search pruned by the best distance so far.
#pragma once

#include "core/flat_buckets.h"
#include "roadmap/wall_distance.h"

#include <utility>
#include <vector>

namespace clearway::bake::roadmap_detail {

// Per thread: the walls the current Walls::around or segmentClearance search has measured (a wall in
// several cells is measured once). Search numbers only grow, so marks left by earlier searches
// never match.
struct SeenWalls {
    uint32_t search = 0;
    std::vector<uint32_t> mark;
    // A new search over `walls` walls: the marks it sets are the number returned.
    uint32_t start(size_t walls) {
        if (mark.size() < walls) mark.resize(walls, 0);
        if (++search == 0) std::fill(mark.begin(), mark.end(), 0), search = 1;
        return search;
    }
};
inline SeenWalls& seenWalls() {
    thread_local SeenWalls seen;
    return seen;
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
        // Cells of 1.4 times the side of the mean area per wall: of 1, 1.2, 1.4, 1.6 and 2 times,
        // the fewest instructions for the blends' and the merges' searches together (box levels
        // and peer meshes alike). Any size gives the same answers.
        cell_ = std::max(std::sqrt(std::max((hi.x - lo.x) * (hi.y - lo.y), 1e-6) /
                                   double(std::max<size_t>(walls_.size(), 1))) *
                             1.4,
                         1e-3);
        nx_ = std::max(1, int((hi.x - lo.x) / cell_) + 1);
        ny_ = std::max(1, int((hi.y - lo.y) / cell_) + 1);
        margin_ = 1e-9 * (1 + std::abs(lo.x) + std::abs(lo.y) + double(nx_ + ny_) * cell_);
        // One flat list, counted first (no vector per cell); each cell's walls ascend.
        auto each_cell = [&](const WallSegment& w, auto&& f) {
            const int j1 = cy(std::max(w.a.y, w.b.y)), i0 = cx(std::min(w.a.x, w.b.x)),
                      i1 = cx(std::max(w.a.x, w.b.x));
            for (int j = cy(std::min(w.a.y, w.b.y)); j <= j1; ++j)
                for (int k = i0; k <= i1; ++k)
                    f(size_t(j) * nx_ + k);
        };
        fillBuckets(
            size_t(nx_) * ny_, uint32_t(walls_.size()), [&](uint32_t i, auto&& f) { each_cell(walls_[i], f); },
            &cell_start_, &cell_walls_);
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
                // A cell further than best + reach from the centre holds no wall that could
                // lower the minimum (the margin covers the cell bounds' rounding); a row that far
                // away in y is passed over whole.
                const double y0 = min_.y + j * cell_;
                const double gy = std::max({0.0, y0 - centre.y, centre.y - (y0 + cell_)});
                if (gy > best + reach + margin_) continue;
                // The ring's cells only: whole rows at its top and bottom, two cells between.
                const int step = j == cj - ring || j == cj + ring ? 1 : 2 * ring;
                for (int i = ci - ring; i <= ci + ring; i += step) {
                    if (i < 0 || i >= nx_) continue;
                    if (best < INFINITY) {
                        const double x0 = min_.x + i * cell_;
                        const double gx = std::max({0.0, x0 - centre.x, centre.x - (x0 + cell_)});
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
    // Exact clearance of a-b; a value below stop_below only promises to be below it, and names in
    // *below (when given) the wall that is nearer than stop_below.
    double segmentClearance(Vec2 a, Vec2 b, double stop_below = -INFINITY, uint32_t* below = nullptr) const {
        SeenWalls& seen = seenWalls();
        const uint32_t search = seen.start(walls_.size());
        uint32_t* mark = seen.mark.data();
        return nearest(
            {(a.x + b.x) / 2, (a.y + b.y) / 2}, dist(a, b) / 2,
            [&](const WallSegment& w, uint32_t index, double best) {
                // Met in an earlier cell: its distance is in already.
                if (mark[index] == search) return double(INFINITY);
                mark[index] = search;
                const double d = segmentWallDistance(a, b, w.a, w.b, best);
                if (below && d < stop_below) *below = index;
                return d;
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
        SeenWalls& seen = seenWalls();
        const uint32_t search = seen.start(walls_.size());
        uint32_t* mark = seen.mark.data();
        const double best = nearest(p, extra, [&](const WallSegment& w, uint32_t index, double so_far) {
            // Met in an earlier cell: its distance is in already (INFINITY cannot lower the minimum).
            if (mark[index] == search) return double(INFINITY);
            mark[index] = search;
            const Vec2 c = closestOnSegment(p, w.a, w.b);
            const double d = std::sqrt((p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y));
            if (!(d > so_far + extra)) out->push_back({d, index});
            return d;
        });
        out->erase(
            std::remove_if(out->begin(), out->end(), [&](const auto& c) { return c.first > best + extra; }),
            out->end());
        std::sort(out->begin(), out->end());
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

} // namespace clearway::bake::roadmap_detail
