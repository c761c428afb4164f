// cw-bake-tolerance: compares two roadmap assets of one level baked by different builds, for changes
// that may move walls by less than --epsilon (the bake's promise) but not byte-identically.
// Prints one line: walkable area difference (bound: epsilon x wall length), the largest wall
// displacement (Hausdorff distance of the wall sets, bound: epsilon), roadmap vertex and edge
// counts, and the largest clearance change of a roadmap vertex matched to the old asset's nearest
// vertex within epsilon (bound: 2 epsilon, the vertex and the walls both moved). Exit 0 within
// tolerance, 1 beyond it, 2 bad input.
#include <clearway/runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace clearway;

struct Segment {
    double ax, ay, bx, by;
};

struct Asset {
    std::unique_ptr<double[]> storage; // 8-byte aligned bytes
    RoadmapView roadmap;
    FootprintView footprint;
    RoadmapInfo info{};
    std::vector<std::vector<Segment>> walls; // per layer
    double area = 0, wall_length = 0;
};

bool load(const char* path, Asset* out) {
    std::ifstream file(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.eof() && !file) return false;
    out->storage.reset(new double[bytes.size() / 8 + 1]);
    std::memcpy(out->storage.get(), bytes.data(), bytes.size());
    if (loadRoadmap(out->storage.get(), bytes.size(), &out->roadmap) != Status::Ok) return false;
    if (roadmapInfo(out->roadmap, &out->info) != Status::Ok) return false;
    if (roadmapFootprint(out->roadmap, &out->footprint) != Status::Ok) return false;
    out->walls.resize(out->info.layer_count);
    for (uint32_t layer = 0; layer < out->info.layer_count; ++layer) {
        FootprintLayerInfo li{};
        footprintLayer(out->footprint, layer, &li);
        out->area += li.area;
        for (uint32_t ring = 0; ring < li.ring_count; ++ring) {
            const Vec2f* v = nullptr;
            uint32_t n = 0;
            footprintRing(out->footprint, layer, ring, &v, &n);
            for (uint32_t i = 0; i < n; ++i) {
                const Vec2f a = v[i], b = v[(i + 1) % n];
                out->walls[layer].push_back({a.x, a.y, b.x, b.y});
                out->wall_length += std::hypot(double(b.x) - a.x, double(b.y) - a.y);
            }
        }
    }
    return true;
}

double segmentDistance(double px, double py, const Segment& s) {
    const double dx = s.bx - s.ax, dy = s.by - s.ay, len2 = dx * dx + dy * dy;
    const double t = len2 > 0 ? std::clamp(((px - s.ax) * dx + (py - s.ay) * dy) / len2, 0.0, 1.0) : 0.0;
    return std::hypot(s.ax + t * dx - px, s.ay + t * dy - py);
}

// Segments bucketed in square cells, for distance queries up to any range.
class SegmentGrid {
  public:
    SegmentGrid(const std::vector<Segment>& segments, double cell) : segments_(segments), cell_(cell) {
        min_x_ = min_y_ = INFINITY;
        double max_x = -INFINITY, max_y = -INFINITY;
        for (const Segment& s : segments) {
            min_x_ = std::min({min_x_, s.ax, s.bx}), max_x = std::max({max_x, s.ax, s.bx});
            min_y_ = std::min({min_y_, s.ay, s.by}), max_y = std::max({max_y, s.ay, s.by});
        }
        if (segments.empty()) return;
        cell_ = std::max(cell_, std::max(max_x - min_x_, max_y - min_y_) / 2048); // at most 2048^2 cells
        nx_ = int((max_x - min_x_) / cell_) + 1, ny_ = int((max_y - min_y_) / cell_) + 1;
        cells_.resize(size_t(nx_) * ny_);
        for (uint32_t i = 0; i < segments.size(); ++i) {
            const Segment& s = segments[i];
            for (int j = cellY(std::min(s.ay, s.by)); j <= cellY(std::max(s.ay, s.by)); ++j)
                for (int k = cellX(std::min(s.ax, s.bx)); k <= cellX(std::max(s.ax, s.bx)); ++k)
                    cells_[size_t(j) * nx_ + k].push_back(i);
        }
    }
    // Distance to the nearest segment, searched in growing rings of cells.
    double distance(double x, double y) const {
        if (segments_.empty()) return INFINITY;
        const int cx = cellX(x), cy = cellY(y);
        double best = INFINITY;
        for (int ring = 0; ring <= std::max(nx_, ny_); ++ring) {
            // Cells of this ring are at least (ring - 1) cells away.
            if (best <= (ring - 1) * cell_) break;
            for (int j = cy - ring; j <= cy + ring; ++j)
                for (int k = cx - ring; k <= cx + ring; ++k) {
                    if (std::max(std::abs(j - cy), std::abs(k - cx)) != ring) continue;
                    if (j < 0 || k < 0 || j >= ny_ || k >= nx_) continue;
                    for (uint32_t i : cells_[size_t(j) * nx_ + k])
                        best = std::min(best, segmentDistance(x, y, segments_[i]));
                }
        }
        return best;
    }

  private:
    int cellX(double x) const { return std::clamp(int(std::floor((x - min_x_) / cell_)), 0, nx_ - 1); }
    int cellY(double y) const { return std::clamp(int(std::floor((y - min_y_) / cell_)), 0, ny_ - 1); }
    const std::vector<Segment>& segments_;
    double cell_, min_x_, min_y_;
    int nx_ = 1, ny_ = 1;
    std::vector<std::vector<uint32_t>> cells_;
};

// Largest distance from a point of `from` (sampled every `step`) to the walls in `to`.
double directedHausdorff(const std::vector<Segment>& from, const SegmentGrid& to, double step) {
    double worst = 0;
    for (const Segment& s : from) {
        const double len = std::hypot(s.bx - s.ax, s.by - s.ay);
        const int n = std::max(1, int(std::ceil(len / step)));
        for (int i = 0; i <= n; ++i) {
            const double t = double(i) / n;
            worst = std::max(worst, to.distance(s.ax + t * (s.bx - s.ax), s.ay + t * (s.by - s.ay)));
        }
    }
    return worst;
}

struct ClearanceChange {
    double largest = 0; // over matched vertices
    uint32_t matched = 0;
};

// Vertices of `a` matched to the nearest vertex of `b` on the same layer within `reach`, and the
// largest change of the stored clearance between the two.
ClearanceChange clearanceChange(const Asset& a, const Asset& b, double reach) {
    std::vector<RoadmapVertexInfo> others(b.info.vertex_count);
    for (uint32_t i = 0; i < b.info.vertex_count; ++i)
        roadmapVertex(b.roadmap, i, &others[i]);
    std::sort(others.begin(), others.end(), [](const RoadmapVertexInfo& p, const RoadmapVertexInfo& q) {
        return p.position.x < q.position.x;
    });
    ClearanceChange out;
    for (uint32_t i = 0; i < a.info.vertex_count; ++i) {
        RoadmapVertexInfo v{};
        roadmapVertex(a.roadmap, i, &v);
        const RoadmapVertexInfo* nearest = nullptr;
        double best = reach;
        auto it = std::lower_bound(others.begin(), others.end(), v.position.x - reach,
                                   [](const RoadmapVertexInfo& p, double x) { return p.position.x < x; });
        for (; it != others.end() && it->position.x <= v.position.x + reach; ++it) {
            const double d =
                std::hypot(double(it->position.x) - v.position.x, double(it->position.y) - v.position.y);
            if (it->layer == v.layer && d <= best) best = d, nearest = &*it;
        }
        if (!nearest) continue;
        ++out.matched;
        out.largest = std::max(out.largest, std::abs(double(nearest->clearance) - v.clearance));
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    double epsilon = 0.01;
    std::vector<const char*> paths;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--epsilon") == 0 && i + 1 < argc)
            epsilon = std::atof(argv[++i]);
        else
            paths.push_back(argv[i]);
    }
    if (paths.size() != 2 || !(epsilon > 0)) {
        std::fprintf(stderr, "usage: cw-bake-tolerance [--epsilon M (0.01)] OLD.cwrm NEW.cwrm\n");
        return 2;
    }
    Asset old_asset, new_asset;
    if (!load(paths[0], &old_asset) || !load(paths[1], &new_asset)) {
        std::fprintf(stderr, "cw-bake-tolerance: cannot load %s or %s as roadmap assets\n", paths[0],
                     paths[1]);
        return 2;
    }
    const bool same_layers = old_asset.info.layer_count == new_asset.info.layer_count;
    double hausdorff = INFINITY;
    if (same_layers) {
        std::vector<SegmentGrid> old_grids, new_grids;
        for (uint32_t layer = 0; layer < old_asset.info.layer_count; ++layer) {
            old_grids.emplace_back(old_asset.walls[layer], 1.0);
            new_grids.emplace_back(new_asset.walls[layer], 1.0);
        }
        hausdorff = 0;
        // Samples every epsilon / 10 along the walls (at most ~4 million per asset).
        const double step =
            std::max(epsilon / 10, std::max(old_asset.wall_length, new_asset.wall_length) / 4e6);
        for (uint32_t layer = 0; layer < old_asset.info.layer_count; ++layer) {
            hausdorff =
                std::max(hausdorff, directedHausdorff(old_asset.walls[layer], new_grids[layer], step));
            hausdorff =
                std::max(hausdorff, directedHausdorff(new_asset.walls[layer], old_grids[layer], step));
        }
    }
    const ClearanceChange clearance = clearanceChange(new_asset, old_asset, epsilon);
    const double area_change = std::abs(new_asset.area - old_asset.area);
    const double area_bound = epsilon * old_asset.wall_length;
    // Walls are stored in floats: allow their rounding on top of epsilon.
    const double float_slack = 1e-5;
    const bool within = same_layers && area_change <= area_bound && hausdorff <= epsilon + float_slack &&
                        clearance.largest <= 2 * epsilon + float_slack;
    std::printf("%s area %+.6f m2 (bound %.3f) walls %.3g m layers %u/%u vertices %u/%u edges %u/%u "
                "clearance %.3g m (%u vertices matched)\n",
                within ? "within" : "BEYOND", new_asset.area - old_asset.area, area_bound, hausdorff,
                old_asset.info.layer_count, new_asset.info.layer_count, old_asset.info.vertex_count,
                new_asset.info.vertex_count, old_asset.info.edge_count, new_asset.info.edge_count,
                clearance.largest, clearance.matched);
    return within ? 0 : 1;
}
