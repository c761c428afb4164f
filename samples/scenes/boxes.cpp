// Generated box levels: the large, reproducible footprints the roadmap tests, the bake benchmark
// (cw-bench) and the byte comparison of two builds (scripts/bake-diff) share.
#include "scenes.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>

namespace clearway::scenes {

namespace {

// Uniform in [0, 1) from the top 53 bits: std::uniform_real_distribution is implementation-
// defined, and the levels must be the same on every standard library.
double unit(std::mt19937_64& rng) {
    return double(rng() >> 11) * 0x1p-53;
}

} // namespace

bake::Footprint randomBoxesFootprint(size_t wall_segments, uint64_t seed) {
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

    bake::FootprintLayer layer;
    bake::PolygonWithHoles poly;
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
        bake::Ring hole;
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

    bake::Footprint fp;
    fp.grid_spacing = q;
    fp.layers.push_back(std::move(layer));
    fp.source_name = "boxes-" + std::to_string(4 * boxes + 4) + "-seed-" + std::to_string(seed);
    return fp;
}

void scaleFootprint(bake::Footprint* fp, double scale) {
    const double q = fp->grid_spacing > 0 ? fp->grid_spacing : std::ldexp(1.0, -14);
    auto scaled = [&](bake::Vec2 p) -> bake::Vec2 {
        return {std::nearbyint(p.x * scale / q) * q, std::nearbyint(p.y * scale / q) * q};
    };
    for (bake::FootprintLayer& layer : fp->layers) {
        for (bake::PolygonWithHoles& poly : layer.polygons) {
            for (bake::Vec2& p : poly.outer)
                p = scaled(p);
            for (bake::Ring& hole : poly.holes)
                for (bake::Vec2& p : hole)
                    p = scaled(p);
        }
        for (bake::Vec3& v : layer.surface_vertices) {
            const bake::Vec2 p = scaled({v.x, v.y});
            v = {p.x, p.y, v.z};
        }
        layer.area *= scale * scale;
    }
}

} // namespace clearway::scenes
