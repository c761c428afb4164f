// Hand-made one-layer footprints for tests whose expected answers are computed by hand: a flat
// floor given as an outer ring and holes, vertices on the import grid (exact in binary).
#pragma once

#include <clearway/bake.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace clearway::test {

inline bake::Footprint footprintOf(const bake::Ring& outer, const std::vector<bake::Ring>& holes = {}) {
    auto area = [](const bake::Ring& r) {
        double twice = 0;
        for (size_t i = 0; i < r.size(); ++i)
            twice += r[i].x * r[(i + 1) % r.size()].y - r[(i + 1) % r.size()].x * r[i].y;
        return 0.5 * twice;
    };
    bake::FootprintLayer layer;
    layer.area = area(outer);
    for (const bake::Ring& h : holes)
        layer.area += area(h);
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (bake::Vec2 p : outer)
        x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    layer.polygons.push_back(bake::PolygonWithHoles{outer, holes});
    layer.surface_vertices = {{x0, y0, 0}, {x1, y0, 0}, {x1, y1, 0}, {x0, y1, 0}};
    layer.surface_triangles = {{0, 1, 2}, {0, 2, 3}};
    bake::Footprint fp;
    fp.grid_spacing = std::ldexp(1.0, -14);
    fp.layers.push_back(layer);
    fp.source_name = "hand-made";
    return fp;
}

// Counter-clockwise rectangle (an outer ring); reversed() makes it a hole.
inline bake::Ring rect(double x0, double y0, double x1, double y1) {
    return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}
inline bake::Ring reversed(bake::Ring r) {
    return {r.rbegin(), r.rend()};
}

} // namespace clearway::test
