// Helpers shared by the baseline planners (baselines_*.cpp): seeded sampling, graph search,
// polyline bookkeeping. Plain doubles, no CGAL.
#pragma once

#include <clearway/eval.h>

#include <clearway/bake/geometry.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace clearway::bake::baselines {

// Calls fn(x, y) for every grid cell meeting the capsule of radius `pad` around segment ab.
// Row by row: a capsule point in row band [y0, y1] lies within pad (in x) of a segment point
// whose y is in [y0 - pad, y1 + pad].
template <class Fn> bool forEachCellOnCapsule(const FreeSpace& s, Vec2 a, Vec2 b, double pad, Fn&& fn) {
    const double ylo = std::min(a.y, b.y) - pad, yhi = std::max(a.y, b.y) + pad;
    const int row0 = std::max(0, int(std::floor((ylo - s.origin.y) / s.cell)));
    const int row1 = std::min(int(s.ny) - 1, int(std::floor((yhi - s.origin.y) / s.cell)));
    for (int row = row0; row <= row1; ++row) {
        const double band0 = s.origin.y + row * s.cell - pad, band1 = band0 + s.cell + 2 * pad;
        double xa, xb;
        const double dy = b.y - a.y;
        if (std::abs(dy) < 1e-300) {
            xa = std::min(a.x, b.x);
            xb = std::max(a.x, b.x);
        } else {
            double t0 = (band0 - a.y) / dy, t1 = (band1 - a.y) / dy;
            if (t0 > t1) std::swap(t0, t1);
            t0 = std::max(t0, 0.0);
            t1 = std::min(t1, 1.0);
            if (t0 > t1) continue;
            const double x0 = a.x + t0 * (b.x - a.x), x1 = a.x + t1 * (b.x - a.x);
            xa = std::min(x0, x1);
            xb = std::max(x0, x1);
        }
        const int col0 = std::max(0, int(std::floor((xa - pad - s.origin.x) / s.cell)));
        const int col1 = std::min(int(s.nx) - 1, int(std::floor((xb + pad - s.origin.x) / s.cell)));
        for (int col = col0; col <= col1; ++col)
            if (!fn(uint32_t(col), uint32_t(row))) return false;
    }
    return true;
}

// Portable uniform [0, 1): std::uniform_real_distribution differs between standard libraries.
inline double unit(std::mt19937_64& rng) {
    return double(rng() >> 11) * 0x1.0p-53;
}

// Uniform point in the free space's bounding box (its grid, which pads the walls).
inline Vec2 samplePoint(const FreeSpace& space, std::mt19937_64& rng) {
    const double w = space.cell * space.nx, h = space.cell * space.ny;
    const double x = space.origin.x + unit(rng) * w;
    const double y = space.origin.y + unit(rng) * h;
    return {x, y};
}

inline double polylineLength(const std::vector<Vec2>& points) {
    double length = 0;
    for (size_t i = 1; i < points.size(); ++i)
        length += geometry::dist(points[i - 1], points[i]);
    return length;
}

inline PlannedPath okPath(std::vector<Vec2> points) {
    PlannedPath path;
    path.status = PlanStatus::Ok;
    path.length = polylineLength(points);
    path.points = std::move(points);
    return path;
}

inline PlannedPath failedPath(PlanStatus status) {
    PlannedPath path;
    path.status = status;
    return path;
}

// Start/goal validity shared by every method (the same test findPath makes, up to tolerance).
inline PlanStatus checkEndpoints(const FreeSpace& space, Vec2 start, Vec2 goal) {
    if (!pointFree(space, start)) return PlanStatus::StartBlocked;
    if (!pointFree(space, goal)) return PlanStatus::GoalBlocked;
    return PlanStatus::Ok;
}

inline Error checkRadius(double radius, const char* method) {
    if (!(radius > 0) || !std::isfinite(radius))
        return {ErrorCode::InvalidOption, std::string(method) +
                                              ": agent radius must be a positive number (got " +
                                              std::to_string(radius) + ")"};
    return {};
}

// Lattice key for sorted-vector lookups (quadtree waypoints).
inline uint64_t latticeKey(uint32_t x, uint32_t y) {
    return (uint64_t(x) << 32) | y;
}

struct Link {
    uint32_t to;
    double cost;
};

// A* over nodes 0..n-1 plus a virtual source (edges `sources`) and a virtual target reached from
// `targets` (node, extra cost). `neighbours(node, out)` appends a node's links; `heuristic(node)`
// must be admissible. Returns the node sequence (without the virtual ends), empty when the target
// is unreachable. Ties break on node index, so the result is deterministic.
template <class Neighbours, class Heuristic>
std::vector<uint32_t> astar(size_t n, const std::vector<Link>& sources, const std::vector<Link>& targets,
                            Neighbours&& neighbours, Heuristic&& heuristic) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    constexpr uint32_t kNone = 0xffffffffu;
    std::vector<double> g(n, kInf);
    std::vector<uint32_t> from(n, kNone);
    std::vector<double> to_target(n, kInf);
    std::vector<uint8_t> closed(n, 0);
    for (const Link& t : targets)
        to_target[t.to] = std::min(to_target[t.to], t.cost);
    using Item = std::pair<double, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    for (const Link& s : sources) {
        if (s.cost < g[s.to]) {
            g[s.to] = s.cost;
            open.push({s.cost + heuristic(s.to), s.to});
        }
    }
    double best = kInf;
    uint32_t best_node = kNone;
    std::vector<Link> links;
    while (!open.empty()) {
        const auto [f, u] = open.top();
        open.pop();
        if (closed[u]) continue;
        if (f >= best) break; // the virtual target is settled
        closed[u] = 1;
        if (to_target[u] < kInf && g[u] + to_target[u] < best) {
            best = g[u] + to_target[u];
            best_node = u;
        }
        links.clear();
        neighbours(u, links);
        for (const Link& l : links) {
            const double c = g[u] + l.cost;
            if (c < g[l.to]) {
                g[l.to] = c;
                from[l.to] = u;
                open.push({c + heuristic(l.to), l.to});
            }
        }
    }
    std::vector<uint32_t> route;
    for (uint32_t v = best_node; v != kNone; v = from[v])
        route.push_back(v);
    return {route.rbegin(), route.rend()};
}

// Dense CSR from an edge list (both directions added by the caller).
inline void toCsr(size_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                  std::vector<uint32_t>* start, std::vector<uint32_t>* to) {
    start->assign(n + 1, 0);
    for (const auto& e : edges)
        ++(*start)[e.first + 1];
    for (size_t i = 0; i < n; ++i)
        (*start)[i + 1] += (*start)[i];
    to->assign(edges.size(), 0);
    std::vector<uint32_t> fill(start->begin(), start->end() - 1);
    for (const auto& e : edges)
        (*to)[fill[e.first]++] = e.second;
}

template <class T> size_t vectorBytes(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

} // namespace clearway::bake::baselines
