// Walls onto the footprint grid for the segment Voronoi diagram: an exact crossing check, and
// CGAL's iterated snap rounding for walls that are off the grid or cross.
#include "core/flat_buckets.h"
#include "medial_axis/medial_axis_steps.h"

#include <CGAL/Cartesian.h>
#include <CGAL/MP_Float.h>
#include <CGAL/Quotient.h>
#include <CGAL/Snap_rounding_2.h>
#include <CGAL/Snap_rounding_traits_2.h>

#include <list>
#include <utility>

namespace clearway::bake::medial_axis_detail {

namespace {

// Whether two segments on the integer grid (exact) cross, or touch anywhere but at shared
// endpoints (T-junctions, overlaps): either needs rounding.
bool conflict(const GridSegment& s, const GridSegment& t) {
    auto orient = [](const GridKey& a, const GridKey& b, const GridKey& c) {
        const __int128 v =
            static_cast<__int128>(b.x - a.x) * (c.y - a.y) - static_cast<__int128>(b.y - a.y) * (c.x - a.x);
        return v > 0 ? 1 : v < 0 ? -1 : 0;
    };
    auto between = [](const GridKey& a, const GridKey& b, const GridKey& p) {
        return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
               p.y <= std::max(a.y, b.y);
    };
    const int o1 = orient(s.first, s.second, t.first), o2 = orient(s.first, s.second, t.second);
    const int o3 = orient(t.first, t.second, s.first), o4 = orient(t.first, t.second, s.second);
    if (o1 * o2 < 0 && o3 * o4 < 0) return true;
    const bool shared = s.first == t.first || s.first == t.second || s.second == t.first || s.second == t.second;
    if (o1 == 0 && between(s.first, s.second, t.first) && !(t.first == s.first || t.first == s.second)) return true;
    if (o2 == 0 && between(s.first, s.second, t.second) && !(t.second == s.first || t.second == s.second))
        return true;
    if (o3 == 0 && between(t.first, t.second, s.first) && !(s.first == t.first || s.first == t.second)) return true;
    if (o4 == 0 && between(t.first, t.second, s.second) && !(s.second == t.first || s.second == t.second))
        return true;
    if (o1 == 0 && o2 == 0 && shared) {
        // Collinear and sharing an endpoint: overlapping unless they point apart.
        const GridKey common = (s.first == t.first || s.first == t.second) ? s.first : s.second;
        const GridKey so = common == s.first ? s.second : s.first;
        const GridKey to = common == t.first ? t.second : t.first;
        if ((so.x - common.x) * (to.x - common.x) + (so.y - common.y) * (to.y - common.y) > 0) return true;
    }
    return false;
}

// Crossing check on the integer grid (exact): no zero-length segment and no conflicting pair.
// Only pairs whose boxes meet (closed) can conflict, and those share a cell of a bucket grid over
// the segments' boxes: each cell's pairs are tested (a pair in several cells more than once).
bool crossingFree(const std::vector<GridSegment>& segs) {
    struct Box {
        int64_t x0, x1, y0, y1;
    };
    std::vector<Box> boxes(segs.size());
    Box all{INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN};
    for (uint32_t i = 0; i < segs.size(); ++i) {
        const auto& s = segs[i];
        if (s.first == s.second) return false;
        boxes[i] = {std::min(s.first.x, s.second.x), std::max(s.first.x, s.second.x),
                    std::min(s.first.y, s.second.y), std::max(s.first.y, s.second.y)};
        all = {std::min(all.x0, boxes[i].x0), std::max(all.x1, boxes[i].x1), std::min(all.y0, boxes[i].y0),
               std::max(all.y1, boxes[i].y1)};
    }
    if (segs.size() < 2) return true;
    // About one cell per segment: cells of a side `cell` (doubles: the spans may exceed int64).
    const double width = double(all.x1) - double(all.x0) + 1, height = double(all.y1) - double(all.y0) + 1;
    double cell = std::max(1.0, std::sqrt(width * height / double(segs.size())));
    while ((std::floor(width / cell) + 1) * (std::floor(height / cell) + 1) > 4.0 * double(segs.size()))
        cell *= 2;
    const size_t nx = size_t(std::floor(width / cell)) + 1, ny = size_t(std::floor(height / cell)) + 1;
    auto cx = [&](int64_t x) { return std::min(nx - 1, size_t((double(x) - double(all.x0)) / cell)); };
    auto cy = [&](int64_t y) { return std::min(ny - 1, size_t((double(y) - double(all.y0)) / cell)); };
    std::vector<uint32_t> cell_start, cell_segs;
    fillBuckets(
        nx * ny, uint32_t(segs.size()),
        [&](uint32_t i, auto&& f) {
            for (size_t j = cy(boxes[i].y0); j <= cy(boxes[i].y1); ++j)
                for (size_t k = cx(boxes[i].x0); k <= cx(boxes[i].x1); ++k)
                    f(j * nx + k);
        },
        &cell_start, &cell_segs);
    for (size_t c = 0; c + 1 < cell_start.size(); ++c)
        for (uint32_t m = cell_start[c]; m < cell_start[c + 1]; ++m) {
            const Box& a = boxes[cell_segs[m]];
            for (uint32_t n = m + 1; n < cell_start[c + 1]; ++n) {
                const Box& b = boxes[cell_segs[n]];
                // Disjoint boxes: no crossing and no touching (every conflict needs a common point).
                if (b.x0 > a.x1 || b.x1 < a.x0 || b.y0 > a.y1 || b.y1 < a.y0) continue;
                if (conflict(segs[cell_segs[m]], segs[cell_segs[n]])) return false;
            }
        }
    return true;
}

// Segments turned to run from their lower end, sorted, without duplicates or zero-length pieces.
void dedupe(std::vector<GridSegment>& segs) {
    for (auto& s : segs)
        if (s.second < s.first) std::swap(s.first, s.second);
    std::sort(segs.begin(), segs.end());
    segs.erase(std::unique(segs.begin(), segs.end()), segs.end());
    segs.erase(std::remove_if(segs.begin(), segs.end(), [](const auto& s) { return s.first == s.second; }),
               segs.end());
}

// CGAL's iterated snap rounding of the walls onto the grid: it splits crossings and never drops a
// piece.
std::vector<GridSegment> snapRound(const std::vector<WallSegment>& walls, double q) {
    std::vector<GridSegment> out;
    using SrKernel = CGAL::Cartesian<CGAL::Quotient<CGAL::MP_Float>>;
    using SrTraits = CGAL::Snap_rounding_traits_2<SrKernel>;
    std::list<SrKernel::Segment_2> input;
    std::vector<std::pair<GridKey, GridKey>> posts; // zero-length walls: CGAL's sweep rejects them
    for (const WallSegment& w : walls) {
        if (w.a.x == w.b.x && w.a.y == w.b.y) {
            const GridKey k{std::llround(w.a.x / q), std::llround(w.a.y / q)};
            posts.push_back({k, k});
            continue;
        }
        // Shift by half a pixel: CGAL's pixel i spans [i q, (i+1) q), we want centres on i q.
        input.push_back(SrKernel::Segment_2(SrKernel::Point_2(w.a.x / q + 0.5, w.a.y / q + 0.5),
                                            SrKernel::Point_2(w.b.x / q + 0.5, w.b.y / q + 0.5)));
    }
    std::list<std::list<SrKernel::Point_2>> polylines;
    CGAL::snap_rounding_2<SrTraits>(input.begin(), input.end(), polylines, 1.0, true, true, 1);
    for (const auto& polyline : polylines) {
        GridKey prev{};
        bool first = true;
        for (const auto& p : polyline) {
            const GridKey k{std::llround(CGAL::to_double(p.x())), std::llround(CGAL::to_double(p.y()))};
            if (!first && !(k == prev)) out.push_back({prev, k});
            prev = k;
            first = false;
        }
        if (polyline.size() == 1) {
            // A wall shorter than a pixel is a point obstacle: keep it as a point-sized wall.
            out.push_back({prev, prev});
        }
    }
    // Iterated snap rounding leaves overlaps only as identical pieces: dedupe removes them.
    std::vector<std::pair<GridKey, GridKey>> points;
    for (const auto& s : out)
        if (s.first == s.second) points.push_back(s);
    points.insert(points.end(), posts.begin(), posts.end());
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    dedupe(out);
    out.insert(out.end(), points.begin(), points.end());
    return out;
}

} // namespace

// Walls onto the grid, without crossings, overlaps, duplicates or zero-length pieces. Walls
// already on the grid and free of crossings (every footprint) pass through unchanged; others go
// through CGAL's iterated snap rounding, which splits crossings and never drops a piece.
// *unchanged tells whether the walls passed through (the pieces are exactly the input's).
std::vector<std::pair<GridKey, GridKey>> prepareWalls(const std::vector<WallSegment>& walls, double q,
                                                      bool* unchanged) {
    *unchanged = false;
    std::vector<std::pair<GridKey, GridKey>> out;
    bool on_grid = true;
    for (const WallSegment& w : walls)
        for (Vec2 p : {w.a, w.b})
            on_grid = on_grid && std::nearbyint(p.x / q) * q == p.x && std::nearbyint(p.y / q) * q == p.y;
    if (on_grid) {
        out.reserve(walls.size());
        for (const WallSegment& w : walls)
            out.push_back({{std::llround(w.a.x / q), std::llround(w.a.y / q)},
                           {std::llround(w.b.x / q), std::llround(w.b.y / q)}});
    }
    if (on_grid) {
        dedupe(out);
        if (crossingFree(out)) {
            *unchanged = true;
            return out;
        }
        out.clear();
    }
    return snapRound(walls, q);
}

} // namespace clearway::bake::medial_axis_detail
