#include "surfaces.h"

#include <algorithm>
#include <cmath>

namespace clearway::bench {

Surfaces::Surfaces(const bake::Footprint& fp) {
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    double total = 0;
    for (uint32_t l = 0; l < fp.layers.size(); ++l) {
        const bake::FootprintLayer& layer = fp.layers[l];
        for (const bake::SurfaceTriangle& t : layer.surface_triangles) {
            Tri tri{layer.surface_vertices[t.a], layer.surface_vertices[t.b], layer.surface_vertices[t.c], l};
            const double area = 0.5 * std::abs((tri.b.x - tri.a.x) * (tri.c.y - tri.a.y) -
                                               (tri.b.y - tri.a.y) * (tri.c.x - tri.a.x));
            if (!(area > 0)) continue;
            total += area;
            tris_.push_back(tri);
            cumulative_.push_back(total);
            for (const bake::Vec3& v : {tri.a, tri.b, tri.c}) {
                x0 = std::min(x0, v.x), y0 = std::min(y0, v.y);
                x1 = std::max(x1, v.x), y1 = std::max(y1, v.y);
            }
        }
    }
    if (tris_.empty()) return;
    x0_ = x0, y0_ = y0;
    cell_ = std::max(std::sqrt((x1 - x0) * (y1 - y0) / double(tris_.size())), 0.05);
    nx_ = std::max(1, int(std::ceil((x1 - x0) / cell_)));
    ny_ = std::max(1, int(std::ceil((y1 - y0) / cell_)));
    cells_.resize(size_t(nx_) * ny_);
    for (uint32_t i = 0; i < tris_.size(); ++i) {
        const Tri& t = tris_[i];
        const int cx0 = cellX(std::min({t.a.x, t.b.x, t.c.x})), cx1 = cellX(std::max({t.a.x, t.b.x, t.c.x}));
        const int cy0 = cellY(std::min({t.a.y, t.b.y, t.c.y})), cy1 = cellY(std::max({t.a.y, t.b.y, t.c.y}));
        for (int y = cy0; y <= cy1; ++y)
            for (int x = cx0; x <= cx1; ++x)
                cells_[size_t(y) * nx_ + x].push_back(i);
    }
}

void Surfaces::sample(Rng& rng, bake::Vec3* p, uint32_t* layer) const {
    const double pick = rng.uniform() * cumulative_.back();
    const size_t i =
        std::min(size_t(std::upper_bound(cumulative_.begin(), cumulative_.end(), pick) - cumulative_.begin()),
                 tris_.size() - 1);
    const Tri& t = tris_[i];
    const double r1 = std::sqrt(rng.uniform()), r2 = rng.uniform();
    const double wa = 1 - r1, wb = r1 * (1 - r2), wc = r1 * r2;
    *p = {wa * t.a.x + wb * t.b.x + wc * t.c.x, wa * t.a.y + wb * t.b.y + wc * t.c.y,
          wa * t.a.z + wb * t.b.z + wc * t.c.z};
    *layer = t.layer;
}

bool Surfaces::locate(bake::Vec3 p, uint32_t* layer) const {
    if (tris_.empty()) return false;
    double best = INFINITY;
    for (uint32_t i : cells_[size_t(cellY(p.y)) * nx_ + cellX(p.x)]) {
        const Tri& t = tris_[i];
        // Barycentric coordinates; a small negative tolerance keeps points on shared edges.
        const double d = (t.b.y - t.c.y) * (t.a.x - t.c.x) + (t.c.x - t.b.x) * (t.a.y - t.c.y);
        const double u = ((t.b.y - t.c.y) * (p.x - t.c.x) + (t.c.x - t.b.x) * (p.y - t.c.y)) / d;
        const double v = ((t.c.y - t.a.y) * (p.x - t.c.x) + (t.a.x - t.c.x) * (p.y - t.c.y)) / d;
        const double w = 1 - u - v;
        if (u < -1e-6 || v < -1e-6 || w < -1e-6) continue;
        const double dz = std::abs(u * t.a.z + v * t.b.z + w * t.c.z - p.z);
        if (dz < best) best = dz, *layer = t.layer;
    }
    return best < INFINITY;
}

} // namespace clearway::bench
