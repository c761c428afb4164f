// Surface heights of roadmap vertices: the layer triangle under each one, else the nearest, found
// through a bucket grid over the triangles with the same answer (and bits) as the full scan.
#include "core/parallel.h"
#include "roadmap/roadmap_internal.h"
#include "roadmap/roadmap_stages.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace clearway::bake {

using namespace geometry;
using roadmap_detail::xy;

namespace {

// Triangle t of the layer seen from p: inside (with the height there), or the distance to its
// nearest edge and the height of its nearest point. The one arithmetic of every lookup below, so
// the index and the full scan give the same bits. t's determinant must not be 0. Without
// `nearest_too`, an outside view is only that (distance infinite).
struct TriangleView {
    bool inside;
    double height, distance;
};

TriangleView viewTriangle(const FootprintLayer& layer, const SurfaceTriangle& t, Vec2 p, bool nearest_too = true) {
    const Vec3& a = layer.surface_vertices[t.a];
    const Vec3& b = layer.surface_vertices[t.b];
    const Vec3& c = layer.surface_vertices[t.c];
    const double det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
    const double u = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / det;
    const double v = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / det;
    if (u >= -1e-9 && v >= -1e-9 && u + v <= 1 + 1e-9) return {true, a.z + u * (b.z - a.z) + v * (c.z - a.z), 0};
    if (!nearest_too) return {false, 0, INFINITY};
    // Outside: height of the nearest point of the nearest triangle.
    const double d = std::min({pointSegmentDistance(p, xy(a), xy(b)), pointSegmentDistance(p, xy(b), xy(c)),
                               pointSegmentDistance(p, xy(c), xy(a))});
    const double cu = std::clamp(u, 0.0, 1.0), cv = std::clamp(v, 0.0, 1.0 - std::clamp(u, 0.0, 1.0));
    return {false, a.z + cu * (b.z - a.z) + cv * (c.z - a.z), d};
}

bool flat(const FootprintLayer& layer, const SurfaceTriangle& t) {
    const Vec3& a = layer.surface_vertices[t.a];
    const Vec3& b = layer.surface_vertices[t.b];
    const Vec3& c = layer.surface_vertices[t.c];
    return (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y) == 0;
}

// The nearest triangle so far, ties to the lowest index: the full scan keeps the first one met.
struct Nearest {
    double distance = INFINITY, height;
    uint32_t triangle = UINT32_MAX;
    void offer(uint32_t t, const TriangleView& view) {
        if (view.distance < distance ||
            (triangle != UINT32_MAX && view.distance == distance && t < triangle))
            distance = view.distance, height = view.height, triangle = t;
    }
};

} // namespace

double surfaceHeight(const FootprintLayer& layer, Vec2 p) {
    Nearest nearest;
    nearest.height = layer.height_min;
    for (uint32_t t = 0; t < layer.surface_triangles.size(); ++t) {
        if (flat(layer, layer.surface_triangles[t])) continue;
        const TriangleView view = viewTriangle(layer, layer.surface_triangles[t], p);
        if (view.inside) return view.height;
        nearest.offer(t, view);
    }
    return nearest.height;
}

namespace {

// surfaceHeight's answer without testing every triangle of the layer for every vertex: the first
// triangle (in layer order) passing its containment test is among those whose box, widened by a
// margin, holds the point (thin triangles, whose test rounding could pass far away, are always
// tried); when none passes, the nearest triangle is searched ring by ring of grid cells around
// the point until no unsearched cell can hold one as near, ties to the lowest index as in the
// full scan.
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
        box_of_.assign(count, {0, 0, 0, 0});
        for (size_t k = 0; k < boxes.size(); ++k)
            box_of_[boxed[k]] = boxes[k];
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
        // Cell bounds and distances are rounded: a search stops only this much past the best.
        const double reach = std::max({std::abs(lo_.x), std::abs(lo_.y), std::abs(hi_.x), std::abs(hi_.y)});
        slack_ = 1e-9 * (1 + reach + cell_);
    }

    double height(Vec2 p) const {
        static const std::vector<uint32_t> none;
        const bool in_grid = !cells_.empty() && p.x >= lo_.x && p.x <= hi_.x && p.y >= lo_.y && p.y <= hi_.y;
        const std::vector<uint32_t>& cell = in_grid ? cells_[size_t(cy(p.y)) * nx_ + cx(p.x)] : none;
        // Both lists ascend: merge them so the first passing triangle is the scan's first.
        for (size_t i = 0, j = 0; i < cell.size() || j < thin_.size();) {
            const uint32_t t =
                j == thin_.size() || (i < cell.size() && cell[i] < thin_[j]) ? cell[i++] : thin_[j++];
            const TriangleView view = viewTriangle(layer_, layer_.surface_triangles[t], p, false);
            if (view.inside) return view.height;
        }
        return nearestHeight(p); // inside no triangle: the nearest one
    }

  private:
    // The full scan's nearest triangle: the thin ones, then the grid's rings around p's cell
    // (clamped into the grid) until the cells outside the searched block lie farther than the
    // best found (equal may still win on index, so only strictly farther ends the search).
    double nearestHeight(Vec2 p) const {
        Nearest nearest;
        nearest.height = layer_.height_min;
        const auto offer = [&](uint32_t t) { nearest.offer(t, viewTriangle(layer_, layer_.surface_triangles[t], p)); };
        for (uint32_t t : thin_)
            offer(t);
        if (cells_.empty()) return nearest.height;
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) return surfaceHeight(layer_, p);
        const int ci = cx(p.x), cj = cy(p.y);
        // A cell or a triangle's box farther than the best (plus the rounding slack) holds
        // nothing as near: skipped without viewing its triangles.
        const auto farther = [&](double x0, double y0, double x1, double y1) {
            const double gx = std::max({x0 - p.x, 0.0, p.x - x1}), gy = std::max({y0 - p.y, 0.0, p.y - y1});
            return std::hypot(gx, gy) - slack_ > nearest.distance;
        };
        const auto offer_cell = [&](int i, int j) {
            if (nearest.distance < INFINITY &&
                farther(lo_.x + i * cell_, lo_.y + j * cell_, lo_.x + (i + 1) * cell_, lo_.y + (j + 1) * cell_))
                return;
            for (uint32_t t : cells_[size_t(j) * nx_ + i]) {
                const std::array<double, 4>& box = box_of_[t];
                if (nearest.distance < INFINITY && farther(box[0], box[1], box[2], box[3])) continue;
                offer(t);
            }
        };
        for (int ring = 0;; ++ring) {
            const int i0 = std::max(ci - ring, 0), i1 = std::min(ci + ring, nx_ - 1);
            const int j0 = std::max(cj - ring, 0), j1 = std::min(cj + ring, ny_ - 1);
            for (int j = j0; j <= j1; ++j) {
                if (j == cj - ring || j == cj + ring) {
                    for (int i = i0; i <= i1; ++i)
                        offer_cell(i, j);
                    continue;
                }
                if (ci - ring >= 0) offer_cell(ci - ring, j);
                if (ci + ring < nx_) offer_cell(ci + ring, j);
            }
            if (i0 == 0 && i1 == nx_ - 1 && j0 == 0 && j1 == ny_ - 1) break;
            if (outsideDistance(p, i0, i1, j0, j1) - slack_ > nearest.distance) break;
        }
        return nearest.height;
    }

    // Distance from p to the grid's cells outside columns i0..i1 and rows j0..j1 (infinite when
    // there are none).
    double outsideDistance(Vec2 p, int i0, int i1, int j0, int j1) const {
        const double x0 = lo_.x, x1 = lo_.x + nx_ * cell_, y0 = lo_.y, y1 = lo_.y + ny_ * cell_;
        const auto to_box = [&](double bx0, double by0, double bx1, double by1) {
            return std::hypot(std::max({bx0 - p.x, 0.0, p.x - bx1}), std::max({by0 - p.y, 0.0, p.y - by1}));
        };
        double d = INFINITY;
        if (i0 > 0) d = std::min(d, to_box(x0, y0, lo_.x + i0 * cell_, y1));
        if (i1 < nx_ - 1) d = std::min(d, to_box(lo_.x + (i1 + 1) * cell_, y0, x1, y1));
        if (j0 > 0) d = std::min(d, to_box(x0, y0, x1, lo_.y + j0 * cell_));
        if (j1 < ny_ - 1) d = std::min(d, to_box(x0, lo_.y + (j1 + 1) * cell_, x1, y1));
        return d;
    }

  private:
    const Vec3& vertex(uint32_t t, int k) const {
        const SurfaceTriangle& s = layer_.surface_triangles[t];
        return layer_.surface_vertices[k == 0 ? s.a : k == 1 ? s.b : s.c];
    }
    // Clamped as doubles: a point far outside the grid must not overflow the int.
    int cx(double x) const { return int(std::clamp(std::floor((x - lo_.x) / cell_), 0.0, double(nx_ - 1))); }
    int cy(double y) const { return int(std::clamp(std::floor((y - lo_.y) / cell_), 0.0, double(ny_ - 1))); }
    const FootprintLayer& layer_;
    std::vector<uint32_t> thin_;
    std::vector<std::array<double, 4>> box_of_; // widened boxes of the grid's triangles
    Vec2 lo_, hi_;
    double cell_ = 1;
    int nx_ = 1, ny_ = 1;
    double slack_ = 0;
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
