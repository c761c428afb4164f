// Bucket grids the tile stage searches with: boxes of walls, surface triangles and rings by cell,
// and a layer's surface height at a ground point.
#include "tiles/tiles_internal.h"

namespace clearway::bake::tiling {

using namespace geometry;

void BoxGrid::build(const std::vector<Box>& boxes) {
    Box all;
    for (const Box& b : boxes)
        all.add({b.x0, b.y0}), all.add({b.x1, b.y1});
    if (boxes.empty()) all = {0, 0, 1, 1};
    lo_ = {all.x0, all.y0};
    const double w = std::max(all.x1 - all.x0, 1e-3), h = std::max(all.y1 - all.y0, 1e-3);
    const double n = double(std::max<size_t>(boxes.size(), 1));
    cell_ = std::max(std::sqrt(w * h / n) * 2, 1e-3);
    while ((w / cell_ + 1) * (h / cell_ + 1) > 4 * n + 64)
        cell_ *= 1.5;
    nx_ = int(w / cell_) + 1, ny_ = int(h / cell_) + 1;
    std::vector<uint32_t> count(size_t(nx_) * ny_ + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t i = 0; i < boxes.size(); ++i)
            for (int j = cy(boxes[i].y0); j <= cy(boxes[i].y1); ++j)
                for (int k = cx(boxes[i].x0); k <= cx(boxes[i].x1); ++k) {
                    const size_t c = size_t(j) * nx_ + k;
                    if (pass == 0)
                        ++count[c + 1];
                    else
                        items_[start_[c] + count[c]++] = i;
                }
        if (pass == 0) {
            start_.assign(count.begin(), count.end());
            std::partial_sum(start_.begin(), start_.end(), start_.begin());
            items_.resize(start_.back());
            std::fill(count.begin(), count.end(), 0);
        }
    }
}

SurfaceIndex::SurfaceIndex(const FootprintLayer& layer) : layer_(&layer) {
    std::vector<Box> boxes;
    for (const SurfaceTriangle& t : layer.surface_triangles) {
        Box b;
        for (uint32_t v : {t.a, t.b, t.c})
            b.add(xy(layer.surface_vertices[v]));
        boxes.push_back(b);
    }
    grid_.build(boxes);
}

double SurfaceIndex::heightAt(Vec2 p) const {
    const FootprintLayer& layer = *layer_;
    if (layer.surface_triangles.empty()) return layer.height_min;
    double best_distance = INFINITY, best_height = layer.height_min;
    bool found = false;
    const int off = grid_.offGrid(p);
    for (int ring = 0; !found; ++ring) {
        if (best_distance < (ring - 1 - off) * grid_.cell()) break;
        if (!grid_.visitRing(p, ring, [&](uint32_t i) {
                if (found) return;
                const SurfaceTriangle& t = layer.surface_triangles[i];
                const Vec3 &a = layer.surface_vertices[t.a], &b = layer.surface_vertices[t.b],
                           &c = layer.surface_vertices[t.c];
                const double det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
                if (det == 0) return;
                const double u = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / det;
                const double v = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / det;
                if (u >= -1e-9 && v >= -1e-9 && u + v <= 1 + 1e-9) {
                    best_height = a.z + u * (b.z - a.z) + v * (c.z - a.z);
                    found = true;
                    return;
                }
                const double d =
                    std::min({pointSegmentDistance(p, xy(a), xy(b)), pointSegmentDistance(p, xy(b), xy(c)),
                              pointSegmentDistance(p, xy(c), xy(a))});
                if (d < best_distance) {
                    best_distance = d;
                    const double cu = std::clamp(u, 0.0, 1.0), cv = std::clamp(v, 0.0, 1.0 - cu);
                    best_height = a.z + cu * (b.z - a.z) + cv * (c.z - a.z);
                }
            }))
            break;
    }
    return best_height;
}

} // namespace clearway::bake::tiling
