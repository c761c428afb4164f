// Uniform grid and quadtree waypoints (Mount's lecture "Waypoints and Road Maps", Fig. 3b and 3c).
#include "baselines_internal.h"

#include <algorithm>
#include <cmath>

namespace clearway::bake {

using baselines::Link;
using geometry::dist;

namespace {

constexpr int kMoveX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kMoveY[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr double kMaxCells = 16e6;

// Drops waypoints while the segment that skips them is clear (greedy line of sight).
std::vector<Vec2> smoothLineOfSight(const FreeSpace& space, const std::vector<Vec2>& points) {
    if (points.size() < 3) return points;
    std::vector<Vec2> out{points.front()};
    size_t anchor = 0;
    for (size_t k = 2; k < points.size(); ++k) {
        if (!segmentFree(space, points[anchor], points[k])) {
            anchor = k - 1;
            out.push_back(points[anchor]);
        }
    }
    out.push_back(points.back());
    return out;
}

} // namespace

Error buildGrid(const FootprintLayer& layer, double radius, const GridOptions& options, GridPlanner* out) {
    if (Error e = baselines::checkRadius(radius, "grid")) return e;
    GridPlanner g;
    g.space = buildFreeSpace(layer, radius);
    g.options = options;
    g.cell = options.cell > 0 ? options.cell : radius / 2;
    const FreeSpace& s = g.space;
    const double w = s.cell * s.nx, h = s.cell * s.ny;
    g.nx = uint32_t(std::ceil(w / g.cell));
    g.ny = uint32_t(std::ceil(h / g.cell));
    if (double(g.nx) * g.ny > kMaxCells)
        return {ErrorCode::InvalidOption, "grid: " + std::to_string(g.nx) + " x " + std::to_string(g.ny) +
                                              " cells of " + std::to_string(g.cell) + " m is too many"};
    g.origin = {s.origin.x + g.cell / 2, s.origin.y + g.cell / 2};
    const size_t n = size_t(g.nx) * g.ny;
    std::vector<double> clearance(n, -1); // < 0: not free
    for (uint32_t y = 0; y < g.ny; ++y)
        for (uint32_t x = 0; x < g.nx; ++x) {
            const Vec2 p{g.origin.x + x * g.cell, g.origin.y + y * g.cell};
            if (!insideFootprint(s, p)) continue;
            const double c = clearanceAt(s, p);
            if (c >= radius - kPlanTolerance) clearance[size_t(y) * g.nx + x] = c;
        }
    g.moves.assign(n, 0);
    for (uint32_t y = 0; y < g.ny; ++y)
        for (uint32_t x = 0; x < g.nx; ++x) {
            const size_t i = size_t(y) * g.nx + x;
            if (clearance[i] < 0) continue;
            const Vec2 p{g.origin.x + x * g.cell, g.origin.y + y * g.cell};
            for (int d = 0; d < 4; ++d) { // the other four are the neighbours' mirror moves
                const int qx = int(x) + kMoveX[d], qy = int(y) + kMoveY[d];
                if (qx < 0 || qy < 0 || qx >= int(g.nx) || qy >= int(g.ny)) continue;
                const size_t j = size_t(qy) * g.nx + size_t(qx);
                if (clearance[j] < 0) continue;
                const double len = d % 2 ? g.cell * std::sqrt(2.0) : g.cell;
                // Every point of the move is within len / 2 of an end (clearance is 1-Lipschitz).
                const Vec2 q{g.origin.x + qx * g.cell, g.origin.y + qy * g.cell};
                if (std::min(clearance[i], clearance[j]) - len / 2 >= radius || segmentFree(s, p, q)) {
                    g.moves[i] |= uint8_t(1u << d);
                    g.moves[j] |= uint8_t(1u << (d + 4));
                }
            }
        }
    *out = std::move(g);
    return {};
}

PlannedPath gridPath(const GridPlanner& g, Vec2 start, Vec2 goal) {
    if (PlanStatus st = baselines::checkEndpoints(g.space, start, goal); st != PlanStatus::Ok)
        return baselines::failedPath(st);
    auto center = [&](uint32_t i) {
        return Vec2{g.origin.x + (i % g.nx) * g.cell, g.origin.y + (i / g.nx) * g.cell};
    };
    // Free centres within 2 cells that the point sees.
    auto join = [&](Vec2 p) {
        std::vector<Link> links;
        const int cx = int(std::lround((p.x - g.origin.x) / g.cell)),
                  cy = int(std::lround((p.y - g.origin.y) / g.cell));
        for (int y = cy - 2; y <= cy + 2; ++y)
            for (int x = cx - 2; x <= cx + 2; ++x) {
                if (x < 0 || y < 0 || x >= int(g.nx) || y >= int(g.ny)) continue;
                const uint32_t i = uint32_t(y) * g.nx + uint32_t(x);
                if (g.moves[i] == 0) continue; // blocked or isolated
                if (segmentFree(g.space, p, center(i))) links.push_back({i, dist(p, center(i))});
            }
        return links;
    };
    const std::vector<Link> sources = join(start), targets = join(goal);
    if (sources.empty() || targets.empty()) return baselines::failedPath(PlanStatus::NoPath);
    const std::vector<uint32_t> route = baselines::astar(
        size_t(g.nx) * g.ny, sources, targets,
        [&](uint32_t u, std::vector<Link>& links) {
            const int x = int(u % g.nx), y = int(u / g.nx);
            for (int d = 0; d < 8; ++d)
                if (g.moves[u] & (1u << d))
                    links.push_back({uint32_t((y + kMoveY[d]) * int(g.nx) + x + kMoveX[d]),
                                     d % 2 ? g.cell * std::sqrt(2.0) : g.cell});
        },
        [&](uint32_t u) { return dist(center(u), goal); });
    if (route.empty()) return baselines::failedPath(PlanStatus::NoPath);
    std::vector<Vec2> points{start};
    for (uint32_t i : route)
        points.push_back(center(i));
    points.push_back(goal);
    if (g.options.smooth) points = smoothLineOfSight(g.space, points);
    return baselines::okPath(std::move(points));
}

size_t bytesOf(const GridPlanner& g) {
    return bytesOf(g.space) + baselines::vectorBytes(g.moves);
}

// ---------------------------------------------------------------------------------------------
// Quadtree

namespace {

struct LatticeIndex {
    const QuadtreePlanner& t;
    int64_t find(int64_t x, int64_t y) const {
        if (x < 0 || y < 0 || x > 0xffffffffll || y > 0xffffffffll) return -1;
        const uint64_t key = baselines::latticeKey(uint32_t(x), uint32_t(y));
        const auto it = std::lower_bound(t.waypoint_keys.begin(), t.waypoint_keys.end(), key);
        if (it == t.waypoint_keys.end() || *it != key) return -1;
        return t.waypoint_ids[size_t(it - t.waypoint_keys.begin())];
    }
};

// Waypoints on a leaf's boundary: corners and hanging vertices, side by side (side 0..3).
void leafBoundary(const QuadtreePlanner& t, const QuadtreePlanner::Cell& c,
                  std::vector<std::pair<uint32_t, int>>* out) {
    out->clear();
    const LatticeIndex index{t};
    const int64_t x0 = c.x, y0 = c.y, s = c.size;
    for (int64_t k = 0; k < s; ++k) { // each lattice point once: corner k = 0 belongs to its side
        const int64_t px[4] = {x0 + k, x0 + s, x0 + s - k, x0};
        const int64_t py[4] = {y0, y0 + k, y0 + s, y0 + s - k};
        for (int side = 0; side < 4; ++side) {
            const int64_t id = index.find(px[side], py[side]);
            if (id >= 0) out->push_back({uint32_t(id), side * 2 + (k == 0 ? 1 : 0)});
        }
    }
}

} // namespace

Error buildQuadtree(const FootprintLayer& layer, double radius, const QuadtreeOptions& options,
                    QuadtreePlanner* out) {
    if (Error e = baselines::checkRadius(radius, "quadtree")) return e;
    QuadtreePlanner t;
    t.space = buildFreeSpace(layer, radius);
    t.options = options;
    t.unit = options.min_cell > 0 ? options.min_cell : radius / 2;
    const FreeSpace& s = t.space;
    t.origin = s.origin;
    const double extent = std::max(s.cell * s.nx, s.cell * s.ny) / t.unit;
    if (extent > double(1u << 30))
        return {ErrorCode::InvalidOption, "quadtree: min cell " + std::to_string(t.unit) + " m is too small"};
    uint32_t size = 1;
    while (double(size) < extent)
        size *= 2;
    t.cells.push_back({0, 0, size, -1, 1});
    std::vector<uint32_t> leaves;
    for (size_t i = 0; i < t.cells.size(); ++i) { // breadth first: children are appended
        const QuadtreePlanner::Cell c = t.cells[i];
        const double half = 0.5 * c.size * t.unit, half_diag = half * std::sqrt(2.0);
        const Vec2 centre{t.origin.x + c.x * t.unit + half, t.origin.y + c.y * t.unit + half};
        const bool inside = insideFootprint(s, centre);
        const double clear = clearanceAt(s, centre);
        uint8_t kind = 1;
        if (inside && clear >= radius + half_diag)
            kind = 0;
        else if ((!inside && clear >= half_diag) || (inside && clear + half_diag < radius))
            kind = 2;
        t.cells[i].kind = kind;
        if (kind == 1 && c.size > 1) {
            t.cells[i].child = int32_t(t.cells.size());
            const uint32_t h = c.size / 2;
            for (uint32_t k = 0; k < 4; ++k)
                t.cells.push_back({c.x + (k & 1) * h, c.y + (k >> 1) * h, h, -1, 1});
        } else if (kind != 2) {
            leaves.push_back(uint32_t(i));
        }
    }
    // Waypoints: leaf corners in free space (a wholly free leaf's corners are free).
    std::vector<std::pair<uint64_t, Vec2>> corners;
    for (uint32_t i : leaves) {
        const QuadtreePlanner::Cell& c = t.cells[i];
        for (uint32_t k = 0; k < 4; ++k) {
            const uint32_t x = c.x + (k & 1) * c.size, y = c.y + (k >> 1) * c.size;
            const Vec2 p{t.origin.x + x * t.unit, t.origin.y + y * t.unit};
            if (c.kind == 0 || pointFree(s, p)) corners.push_back({baselines::latticeKey(x, y), p});
        }
    }
    std::sort(corners.begin(), corners.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [key, p] : corners) {
        if (!t.waypoint_keys.empty() && t.waypoint_keys.back() == key) continue;
        t.waypoint_keys.push_back(key);
        t.waypoint_ids.push_back(uint32_t(t.waypoints.size()));
        t.waypoints.push_back(p);
    }
    // Edges inside each leaf: unchecked in a free leaf (it is convex and wholly clear), checked in
    // a mixed one. Points on one side only join their neighbours along it.
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    std::vector<std::pair<uint32_t, int>> boundary;
    for (uint32_t i : leaves) {
        const QuadtreePlanner::Cell& c = t.cells[i];
        leafBoundary(t, c, &boundary);
        for (size_t a = 0; a < boundary.size(); ++a)
            for (size_t b = a + 1; b < boundary.size(); ++b) {
                const auto [ia, sa] = boundary[a];
                const auto [ib, sb] = boundary[b];
                const bool corner_a = sa & 1, corner_b = sb & 1;
                // Same side, neither a corner joining its side: only if adjacent on the lattice.
                if (sa / 2 == sb / 2 && !corner_a && !corner_b &&
                    dist(t.waypoints[ia], t.waypoints[ib]) > t.unit * 1.5)
                    continue;
                if (c.kind == 1 && !segmentFree(s, t.waypoints[ia], t.waypoints[ib])) continue;
                edges.push_back({ia, ib});
                edges.push_back({ib, ia});
            }
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    baselines::toCsr(t.waypoints.size(), edges, &t.edge_start, &t.edge_to);
    *out = std::move(t);
    return {};
}

PlannedPath quadtreePath(const QuadtreePlanner& t, Vec2 start, Vec2 goal) {
    if (PlanStatus st = baselines::checkEndpoints(t.space, start, goal); st != PlanStatus::Ok)
        return baselines::failedPath(st);
    // The leaf's boundary waypoints plus every waypoint within 2 units, if in sight.
    auto join = [&](Vec2 p) {
        std::vector<Link> links;
        std::vector<uint32_t> candidates;
        const double ux = (p.x - t.origin.x) / t.unit, uy = (p.y - t.origin.y) / t.unit;
        uint32_t cell = 0;
        while (t.cells[cell].child >= 0) {
            const QuadtreePlanner::Cell& c = t.cells[cell];
            const double h = c.size / 2.0;
            cell = uint32_t(c.child) + (ux >= c.x + h ? 1 : 0) + (uy >= c.y + h ? 2 : 0);
        }
        std::vector<std::pair<uint32_t, int>> boundary;
        leafBoundary(t, t.cells[cell], &boundary);
        for (const auto& b : boundary)
            candidates.push_back(b.first);
        const LatticeIndex index{t};
        for (int64_t y = int64_t(std::floor(uy)) - 2; y <= int64_t(std::floor(uy)) + 3; ++y)
            for (int64_t x = int64_t(std::floor(ux)) - 2; x <= int64_t(std::floor(ux)) + 3; ++x)
                if (int64_t id = index.find(x, y); id >= 0) candidates.push_back(uint32_t(id));
        std::sort(candidates.begin(), candidates.end());
        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        for (uint32_t id : candidates)
            if (segmentFree(t.space, p, t.waypoints[id])) links.push_back({id, dist(p, t.waypoints[id])});
        return links;
    };
    const std::vector<Link> sources = join(start), targets = join(goal);
    if (sources.empty() || targets.empty()) return baselines::failedPath(PlanStatus::NoPath);
    const std::vector<uint32_t> route = baselines::astar(
        t.waypoints.size(), sources, targets,
        [&](uint32_t u, std::vector<Link>& links) {
            for (uint32_t k = t.edge_start[u]; k < t.edge_start[u + 1]; ++k)
                links.push_back({t.edge_to[k], dist(t.waypoints[u], t.waypoints[t.edge_to[k]])});
        },
        [&](uint32_t u) { return dist(t.waypoints[u], goal); });
    if (route.empty()) return baselines::failedPath(PlanStatus::NoPath);
    std::vector<Vec2> points{start};
    for (uint32_t i : route)
        points.push_back(t.waypoints[i]);
    points.push_back(goal);
    return baselines::okPath(std::move(points));
}

size_t bytesOf(const QuadtreePlanner& t) {
    using baselines::vectorBytes;
    return bytesOf(t.space) + vectorBytes(t.cells) + vectorBytes(t.waypoints) + vectorBytes(t.waypoint_keys) +
           vectorBytes(t.waypoint_ids) + vectorBytes(t.edge_start) + vectorBytes(t.edge_to);
}

} // namespace clearway::bake
