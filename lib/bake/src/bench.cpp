// Benchmark helpers for cw-bench: generated box levels and CGAL's bare segment Voronoi build,
// the baseline the roadmap bake is measured against. CGAL stays in here (bake.h stays cheap).
#include <clearway/bake.h>

#include "medial_axis/segment_voronoi.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <tuple>
#include <utility>

namespace clearway::bake {

namespace {

// The same CGAL configuration as medialAxis() in roadmap.cpp, so the baseline is like for like.
using namespace voronoi;

// Copy of roadmap.cpp's Morton key: the insertion order changes CGAL's work, so it must match.

double cpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

// Uniform in [0, 1) from the top 53 bits: std::uniform_real_distribution is implementation-
// defined, and the levels must be the same on every standard library.
double unit(std::mt19937_64& rng) {
    return double(rng() >> 11) * 0x1p-53;
}

} // namespace

double bareSegmentDelaunaySeconds(const std::vector<WallSegment>& walls, double grid_spacing,
                                  size_t* segment_sites) {
    const double q = grid_spacing;
    std::vector<std::pair<GridKey, GridKey>> segs;
    segs.reserve(walls.size());
    for (const WallSegment& w : walls)
        segs.push_back({{std::llround(w.a.x / q), std::llround(w.a.y / q)},
                        {std::llround(w.b.x / q), std::llround(w.b.y / q)}});
    const double start = cpuSeconds();
    size_t sites = 0;
    {
        // The same insertion as medialAxis() (segment_voronoi.h).
        Sdg sdg;
        const size_t rejected = insertWalls(sdg, segs, q, nullptr);
        for (const GridSegment& s : segs)
            sites += !(s.first == s.second);
        sites -= rejected;
        // The diagram's destruction is inside the clock: the bake pays for it too.
    }
    const double seconds = cpuSeconds() - start;
    if (segment_sites) *segment_sites = sites;
    return seconds;
}

Footprint randomBoxesFootprint(size_t wall_segments, uint64_t seed) {
    const double q = std::ldexp(1.0, -14); // the import's grid for levels up to +-256 m
    const size_t boxes = wall_segments >= 4 ? (wall_segments - 4) / 4 : 0;
    // One box per 3 m cell of a square grid, in shuffled cells; a box never leaves its cell, so
    // boxes never overlap and corridors stay >= 0.2 m wide. 100k walls span +-240 m.
    const double cell = 3.0, margin = 0.1;
    const size_t cols = std::max<size_t>(1, size_t(std::ceil(std::sqrt(double(boxes)))));
    const size_t rows = std::max<size_t>(1, (boxes + cols - 1) / cols);
    const double half_w = 0.5 * cell * double(cols) + 1.5, half_h = 0.5 * cell * double(rows) + 1.5;
    std::mt19937_64 rng(seed);
    std::vector<size_t> cells(cols * rows);
    for (size_t i = 0; i < cells.size(); ++i)
        cells[i] = i;
    for (size_t i = cells.size(); i > 1; --i) // Fisher-Yates with our own index draw (portable)
        std::swap(cells[i - 1], cells[size_t(unit(rng) * double(i))]);
    auto snap = [q](double v) { return std::nearbyint(v / q) * q; };

    FootprintLayer layer;
    PolygonWithHoles poly;
    poly.outer = {{-half_w, -half_h}, {half_w, -half_h}, {half_w, half_h}, {-half_w, half_h}};
    double area = 4 * half_w * half_h;
    for (size_t b = 0; b < boxes; ++b) {
        const double cx0 = -0.5 * cell * double(cols) + cell * (double(cells[b] % cols) + 0.5);
        const double cy0 = -0.5 * cell * double(rows) + cell * (double(cells[b] / cols) + 0.5);
        const double hx = 0.25 + 0.65 * unit(rng), hy = 0.25 + 0.65 * unit(rng);
        const bool rotated = unit(rng) < 0.5;
        const double angle = rotated ? 1.5707963267948966 * unit(rng) : 0.0;
        const double c = std::cos(angle), s = std::sin(angle);
        // Half extents of the (rotated) box, so the jitter keeps it inside its cell.
        const double ex = std::abs(c) * hx + std::abs(s) * hy, ey = std::abs(s) * hx + std::abs(c) * hy;
        const double cx = cx0 + (2 * unit(rng) - 1) * (0.5 * cell - margin - ex);
        const double cy = cy0 + (2 * unit(rng) - 1) * (0.5 * cell - margin - ey);
        Ring hole;
        // Clockwise: (+,+), (+,-), (-,-), (-,+) in the box's frame.
        for (const auto& [u, v] : {std::pair{hx, hy}, {hx, -hy}, {-hx, -hy}, {-hx, hy}})
            hole.push_back({snap(cx + c * u - s * v), snap(cy + s * u + c * v)});
        double twice = 0;
        for (size_t i = 0; i < hole.size(); ++i)
            twice += hole[i].x * hole[(i + 1) % 4].y - hole[(i + 1) % 4].x * hole[i].y;
        area += 0.5 * twice; // negative: clockwise
        poly.holes.push_back(std::move(hole));
    }
    layer.polygons.push_back(std::move(poly));
    // A flat floor: two triangles over the outer square.
    layer.surface_vertices = {
        {-half_w, -half_h, 0}, {half_w, -half_h, 0}, {half_w, half_h, 0}, {-half_w, half_h, 0}};
    layer.surface_triangles = {{0, 1, 2}, {0, 2, 3}};
    layer.area = area;

    Footprint fp;
    fp.grid_spacing = q;
    fp.layers.push_back(std::move(layer));
    fp.source_name = "boxes-" + std::to_string(4 * boxes + 4) + "-seed-" + std::to_string(seed);
    return fp;
}

} // namespace clearway::bake
