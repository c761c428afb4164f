// Surface heights of roadmap vertices: the layer triangle under each one, found through a bucket
// grid over the triangles with the same answer (and bits) as the full scan.
#include "core/parallel.h"
#include "roadmap/roadmap_internal.h"
#include "roadmap/roadmap_stages.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace clearway::bake {

using namespace geometry;
using roadmap_detail::xy;

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

namespace roadmap_detail {

void setSurfaceHeights(Roadmap& rm, const Footprint& fp, unsigned threads) {
    // A pure function of each vertex, one slot each.
    std::vector<SurfaceIndex> surfaces;
    for (const FootprintLayer& layer : fp.layers)
        surfaces.emplace_back(layer);
    const unsigned height_threads = vertexLoopThreads(rm.vertices.size(), threads);
    parallel::forEach(rm.vertices.size(), height_threads, [&](size_t v) {
        RoadmapVertex& vertex = rm.vertices[v];
        vertex.position.z = surfaces[vertex.layer].height(xy(vertex.position));
    });
}

} // namespace roadmap_detail

} // namespace clearway::bake
