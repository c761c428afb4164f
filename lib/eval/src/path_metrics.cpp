// Path metrics shared by the benchmarks: length, clearance against the walls (through a grid, so
// 10,000 densely sampled paths take seconds), heading discontinuities and curvature.
#include <clearway/eval.h>
#include <clearway/runtime.h>

#include <clearway/bake/geometry.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clearway::bake {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;
// Points closer than this are one point: a zero-length piece has no heading.
constexpr double kSamePoint = 1e-9;

double turnBetween(Vec2 u, Vec2 w) {
    return std::atan2(u.x * w.y - u.y * w.x, u.x * w.x + u.y * w.y);
}

} // namespace

WallGrid::WallGrid(const std::vector<WallSegment>& walls, double cell_size) : walls_(walls) {
    if (walls_.empty()) return;
    double x0 = kInf, y0 = kInf, x1 = -kInf, y1 = -kInf;
    for (const WallSegment& w : walls_) {
        x0 = std::min({x0, w.a.x, w.b.x});
        y0 = std::min({y0, w.a.y, w.b.y});
        x1 = std::max({x1, w.a.x, w.b.x});
        y1 = std::max({y1, w.a.y, w.b.y});
    }
    const double w = std::max(x1 - x0, 1e-3), h = std::max(y1 - y0, 1e-3);
    // About one wall per cell: a query then tests a handful of walls near the point.
    cell_ = cell_size > 0 ? cell_size : std::max(std::sqrt(w * h / double(walls_.size())), 1e-3);
    nx_ = std::max(1, int(std::min(std::ceil(w / cell_), 4096.0)));
    ny_ = std::max(1, int(std::min(std::ceil(h / cell_), 4096.0)));
    cell_ = std::max(cell_, std::max(w / nx_, h / ny_)); // the 4096 cap widens cells, never shrinks the grid
    min_ = {x0, y0};

    // A wall goes into every cell of its bounding box that it passes within half a cell diagonal
    // of the cell centre (the cells it touches, and a few neighbours: never too few).
    const double reach = cell_ * 0.70710678118654752 + 1e-9;
    std::vector<std::pair<uint32_t, uint32_t>> pairs; // (cell, wall)
    for (uint32_t i = 0; i < walls_.size(); ++i) {
        const WallSegment& s = walls_[i];
        const int cx0 = std::clamp(int((std::min(s.a.x, s.b.x) - x0) / cell_), 0, nx_ - 1);
        const int cx1 = std::clamp(int((std::max(s.a.x, s.b.x) - x0) / cell_), 0, nx_ - 1);
        const int cy0 = std::clamp(int((std::min(s.a.y, s.b.y) - y0) / cell_), 0, ny_ - 1);
        const int cy1 = std::clamp(int((std::max(s.a.y, s.b.y) - y0) / cell_), 0, ny_ - 1);
        for (int cy = cy0; cy <= cy1; ++cy)
            for (int cx = cx0; cx <= cx1; ++cx) {
                const Vec2 centre{x0 + (cx + 0.5) * cell_, y0 + (cy + 0.5) * cell_};
                if (cx0 == cx1 || cy0 == cy1 || geometry::pointSegmentDistance(centre, s.a, s.b) <= reach)
                    pairs.emplace_back(uint32_t(cy * nx_ + cx), i);
            }
    }
    std::sort(pairs.begin(), pairs.end());
    cell_start_.assign(size_t(nx_) * ny_ + 1, 0);
    cell_walls_.resize(pairs.size());
    for (size_t k = 0; k < pairs.size(); ++k) {
        ++cell_start_[pairs[k].first + 1];
        cell_walls_[k] = pairs[k].second;
    }
    for (size_t c = 1; c < cell_start_.size(); ++c)
        cell_start_[c] += cell_start_[c - 1];
}

double WallGrid::distance(Vec2 p) const {
    if (walls_.empty()) return kInf;
    const int cx = std::clamp(int(std::floor((p.x - min_.x) / cell_)), 0, nx_ - 1);
    const int cy = std::clamp(int(std::floor((p.y - min_.y) / cell_)), 0, ny_ - 1);
    double best = kInf;
    auto visit = [&](int x, int y) {
        if (x < 0 || y < 0 || x >= nx_ || y >= ny_) return;
        const uint32_t c = uint32_t(y * nx_ + x);
        for (uint32_t k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
            const WallSegment& s = walls_[cell_walls_[k]];
            best = std::min(best, geometry::pointSegmentDistance(p, s.a, s.b));
        }
    };
    visit(cx, cy);
    for (int ring = 1; ring <= std::max(nx_, ny_); ++ring) {
        // Cells of ring d are at least d - 1 cells away from p (also when p lies outside the grid:
        // its cell was clamped towards it).
        if (best <= (ring - 1) * cell_) break;
        const int x0 = cx - ring, x1 = cx + ring, y0 = cy - ring, y1 = cy + ring;
        for (int x = x0; x <= x1; ++x) {
            visit(x, y0);
            visit(x, y1);
        }
        for (int y = y0 + 1; y < y1; ++y) {
            visit(x0, y);
            visit(x1, y);
        }
    }
    return best;
}

namespace {

// Distance(p, layer) -> clearance of p on that layer.
template <typename Distance>
PathMetrics measure(const std::vector<Vec2>& input, const std::vector<uint32_t>& input_layers,
                    Distance distance, const PathMetricsOptions& options) {
    PathMetrics m;
    // Drop repeated points (with their layers): a zero-length piece has no heading.
    std::vector<Vec2> pts;
    std::vector<uint32_t> layers;
    pts.reserve(input.size());
    layers.reserve(input.size());
    for (size_t i = 0; i < input.size(); ++i) {
        const uint32_t layer = i < input_layers.size() ? input_layers[i] : 0;
        if (!pts.empty() && geometry::dist(pts.back(), input[i]) <= kSamePoint) {
            layers.back() = layer;
            continue;
        }
        pts.push_back(input[i]);
        layers.push_back(layer);
    }
    auto clearance = [&](Vec2 p, uint32_t layer) {
        ++m.sample_count;
        return distance(p, layer);
    };
    if (pts.empty()) {
        m.min_clearance = m.mean_clearance = NAN;
        return m;
    }

    // Clearance: samples at every vertex and every `step` in between; trapezoid for the mean.
    const double step = options.step > 0 ? options.step : 0.05;
    double prev = clearance(pts[0], layers[0]);
    m.min_clearance = prev;
    double integral = 0;
    for (size_t i = 0; i + 1 < pts.size(); ++i) {
        const Vec2 a = pts[i], b = pts[i + 1];
        const double len = geometry::dist(a, b);
        const int n = std::max(1, int(std::ceil(len / step - 1e-9)));
        for (int k = 1; k <= n; ++k) {
            const double t = double(k) / n;
            const Vec2 p = k == n ? b : Vec2{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
            const double c = clearance(p, t <= 0.5 ? layers[i] : layers[i + 1]);
            m.min_clearance = std::min(m.min_clearance, c);
            integral += 0.5 * (prev + c) * (len / n);
            prev = c;
        }
        m.length += len;
    }
    m.mean_clearance = m.length > 0 ? integral / m.length : m.min_clearance;

    // Headings: turn at every interior vertex; runs of consecutive large turns are one kink.
    const double threshold = options.discontinuity_deg * kPi / 180;
    double run = 0; // summed signed turn of the current run of large turns
    bool in_run = false;
    auto closeRun = [&]() {
        if (!in_run) return;
        ++m.heading_discontinuities;
        m.max_heading_jump_deg = std::max(m.max_heading_jump_deg, std::abs(run) * 180 / kPi);
        in_run = false;
        run = 0;
    };
    for (size_t i = 1; i + 1 < pts.size(); ++i) {
        const Vec2 a = pts[i - 1], b = pts[i], c = pts[i + 1];
        const double turn = turnBetween({b.x - a.x, b.y - a.y}, {c.x - b.x, c.y - b.y});
        if (std::abs(turn) > threshold) {
            in_run = true;
            run += turn;
            continue;
        }
        closeRun();
        // Curvature of the circle through a, b, c (exact for points on a circle, any spacing).
        const double ac = geometry::dist(a, c);
        if (ac > 0) m.max_curvature = std::max(m.max_curvature, 2 * std::abs(std::sin(turn)) / ac);
    }
    closeRun();
    return m;
}

} // namespace

PathMetrics measurePath(const std::vector<Vec2>& points, const std::vector<uint32_t>& layers,
                        const std::vector<WallGrid>& walls, const PathMetricsOptions& options) {
    return measure(
        points, layers,
        [&](Vec2 p, uint32_t layer) { return layer < walls.size() ? walls[layer].distance(p) : kInf; },
        options);
}

PathMetrics measurePath(const std::vector<Vec2>& points, const WallGrid& walls,
                        const PathMetricsOptions& options) {
    return measure(
        points, {}, [&](Vec2 p, uint32_t) { return walls.distance(p); }, options);
}

std::vector<Vec2> pathPolyline(const PathSegment* segments, uint32_t count, const PathMetricsOptions& options,
                               std::vector<uint32_t>* layers) {
    std::vector<Vec2> out;
    if (layers) layers->clear();
    if (!segments || count == 0) return out;
    const double step = options.step > 0 ? options.step : 0.05;
    const double max_turn = std::max(options.discontinuity_deg, 1e-3) * kPi / 180 / 2;
    auto push = [&](Vec2 p, uint32_t layer) {
        out.push_back(p);
        if (layers) layers->push_back(layer);
    };
    push({segments[0].start.x, segments[0].start.y}, segments[0].layer);
    for (uint32_t i = 0; i < count; ++i) {
        const PathSegment& s = segments[i];
        const uint32_t end_layer = s.portal && i + 1 < count ? segments[i + 1].layer : s.layer;
        const Vec2 a{s.start.x, s.start.y}, b{s.end.x, s.end.y};
        if (s.type == PathSegmentType::Arc && s.radius > 0) {
            const double arc_len = std::abs(s.sweep) * s.radius;
            const int n = std::max(1, int(std::max(std::ceil(arc_len / step - 1e-9),
                                                   std::ceil(std::abs(s.sweep) / max_turn - 1e-9))));
            const double a0 = std::atan2(a.y - s.center.y, a.x - s.center.x);
            for (int k = 1; k < n; ++k) {
                const double angle = a0 + s.sweep * k / n;
                push({s.center.x + s.radius * std::cos(angle), s.center.y + s.radius * std::sin(angle)},
                     s.layer);
            }
        } else {
            const int n = std::max(1, int(std::ceil(geometry::dist(a, b) / step - 1e-9)));
            for (int k = 1; k < n; ++k) {
                const double t = double(k) / n;
                push({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t}, s.layer);
            }
        }
        push(b, end_layer);
    }
    return out;
}

} // namespace clearway::bake
