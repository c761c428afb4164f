// Sampling planners (Mount's lecture "Adaptive Randomized Placement and PRMs", "RRTs"): fixed seeds,
// portable random numbers, so the same level gives the same roadmap / tree everywhere.
#include "baselines_internal.h"

#include <algorithm>
#include <cmath>

namespace clearway::bake {

using baselines::Link;
using geometry::closestOnSegment;
using geometry::dist;

namespace {

struct BudgetRule {
    double per_area, per_wall; // per radius^2 of free area, per wall
    uint32_t floor, cap;
};
constexpr BudgetRule kPrmBudget{1.0 / 8, 2, 200, 100000};
constexpr BudgetRule kRrtBudget{2.5, 20, 2000, 1000000};

SamplingBudget budgetOf(const FreeSpace& space, const BudgetRule& rule) {
    SamplingBudget b;
    b.free_area = freeArea(space);
    b.walls = uint32_t(space.walls.size());
    const double r2 = space.radius * space.radius;
    const double by_area = rule.per_area * b.free_area / r2, by_walls = rule.per_wall * b.walls;
    b.by_area = uint32_t(std::min(by_area, 4e9));
    b.by_walls = uint32_t(std::min(by_walls, 4e9));
    b.floor = rule.floor;
    b.cap = rule.cap;
    const double wanted = std::max({by_area, by_walls, double(rule.floor)});
    b.capped = wanted > rule.cap;
    b.count = uint32_t(std::min(wanted, double(rule.cap)));
    return b;
}

SamplingBudget givenBudget(uint32_t count) {
    SamplingBudget b;
    b.count = count;
    b.given = true;
    return b;
}

// Points in buckets of a uniform grid, for k-nearest queries that give exactly what sorting every
// point by (distance, index) gives.
class PointBuckets {
  public:
    explicit PointBuckets(const std::vector<Vec2>& points) : points_(points) {
        Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
        for (Vec2 p : points) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
        }
        if (points.empty()) lo = hi = {0, 0};
        const double w = std::max(hi.x - lo.x, 1e-9), h = std::max(hi.y - lo.y, 1e-9);
        cell_ = std::max(std::sqrt(w * h / std::max<double>(1, double(points.size()) / 4)), 1e-9);
        origin_ = lo;
        nx_ = int(std::floor(w / cell_)) + 1;
        ny_ = int(std::floor(h / cell_)) + 1;
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        for (uint32_t i = 0; i < points.size(); ++i)
            pairs.push_back({uint32_t(cellOf(points[i]).second * nx_ + cellOf(points[i]).first), i});
        std::sort(pairs.begin(), pairs.end());
        baselines::toCsr(size_t(nx_) * ny_, pairs, &start_, &ids_);
    }
    // The first `count` points by (distance to p, index), without `skip`.
    std::vector<uint32_t> nearest(Vec2 p, size_t count, int64_t skip = -1) const {
        std::vector<std::pair<double, uint32_t>> found;
        const auto [cx, cy] = cellOf(p);
        for (int ring = 0; ring <= std::max(nx_, ny_) + 1; ++ring) {
            for (int y = cy - ring; y <= cy + ring; ++y) {
                if (y < 0 || y >= ny_) continue;
                const bool edge_row = y == cy - ring || y == cy + ring;
                for (int x = cx - ring; x <= cx + ring; x += edge_row || ring == 0 ? 1 : 2 * ring) {
                    if (x < 0 || x >= nx_) continue;
                    const size_t c = size_t(y) * nx_ + x;
                    for (uint32_t k = start_[c]; k < start_[c + 1]; ++k)
                        if (int64_t(ids_[k]) != skip) found.push_back({dist(points_[ids_[k]], p), ids_[k]});
                }
            }
            // Every point not seen yet is at least ring * cell away (p may lie anywhere in its cell).
            if (count == 0) break;
            if (found.size() >= count) {
                std::nth_element(found.begin(), found.begin() + (count - 1), found.end());
                if (found[count - 1].first < ring * cell_) break;
            }
        }
        count = std::min(count, found.size());
        std::partial_sort(found.begin(), found.begin() + count, found.end());
        std::vector<uint32_t> out;
        for (size_t i = 0; i < count; ++i)
            out.push_back(found[i].second);
        return out;
    }

  private:
    std::pair<int, int> cellOf(Vec2 p) const {
        return {std::clamp(int(std::floor((p.x - origin_.x) / cell_)), 0, nx_ - 1),
                std::clamp(int(std::floor((p.y - origin_.y) / cell_)), 0, ny_ - 1)};
    }
    const std::vector<Vec2>& points_;
    Vec2 origin_;
    double cell_ = 1;
    int nx_ = 1, ny_ = 1;
    std::vector<uint32_t> start_, ids_;
};

bool insideRings(const PolygonWithHoles& poly, Vec2 p) {
    bool inside = false;
    auto ring = [&](const Ring& r) {
        for (size_t i = 0, j = r.size() - 1; i < r.size(); j = i++)
            if ((r[i].y > p.y) != (r[j].y > p.y) &&
                p.x < r[j].x + (p.y - r[j].y) / (r[i].y - r[j].y) * (r[i].x - r[j].x))
                inside = !inside;
    };
    ring(poly.outer);
    for (const Ring& h : poly.holes)
        ring(h);
    return inside;
}

} // namespace

double freeArea(const FreeSpace& space) {
    constexpr uint32_t kSamples = 8192;
    std::mt19937_64 rng(0x5eedf4ee);
    uint32_t free = 0;
    for (uint32_t i = 0; i < kSamples; ++i)
        free += pointFree(space, baselines::samplePoint(space, rng));
    return space.cell * space.nx * space.cell * space.ny * free / kSamples;
}

SamplingBudget prmSampleBudget(const FreeSpace& space) {
    return budgetOf(space, kPrmBudget);
}

SamplingBudget rrtIterationBudget(const FreeSpace& space) {
    return budgetOf(space, kRrtBudget);
}

Error buildPrm(const FootprintLayer& layer, double radius, const PrmOptions& options, PrmPlanner* out) {
    if (Error e = baselines::checkRadius(radius, "prm")) return e;
    if (options.k == 0) return {ErrorCode::InvalidOption, "prm: k must be at least 1"};
    PrmPlanner prm;
    prm.space = buildFreeSpace(layer, radius);
    prm.options = options;
    prm.budget = options.samples ? givenBudget(options.samples) : prmSampleBudget(prm.space);
    const uint32_t samples = prm.budget.count;
    std::mt19937_64 rng(options.seed);
    for (uint64_t tries = 0; prm.nodes.size() < samples && tries < 100ull * samples; ++tries) {
        const Vec2 p = baselines::samplePoint(prm.space, rng);
        if (pointFree(prm.space, p)) prm.nodes.push_back(p);
    }
    std::vector<std::pair<uint32_t, uint32_t>> candidates;
    const PointBuckets buckets(prm.nodes);
    for (uint32_t i = 0; i < prm.nodes.size(); ++i)
        for (uint32_t j : buckets.nearest(prm.nodes[i], options.k, i))
            candidates.push_back({std::min(i, j), std::max(i, j)});
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    for (const auto& [a, b] : candidates)
        if (segmentFree(prm.space, prm.nodes[a], prm.nodes[b])) {
            edges.push_back({a, b});
            edges.push_back({b, a});
        }
    std::sort(edges.begin(), edges.end());
    baselines::toCsr(prm.nodes.size(), edges, &prm.edge_start, &prm.edge_to);
    *out = std::move(prm);
    return {};
}

PlannedPath prmPath(const PrmPlanner& prm, Vec2 start, Vec2 goal) {
    if (PlanStatus st = baselines::checkEndpoints(prm.space, start, goal); st != PlanStatus::Ok)
        return baselines::failedPath(st);
    // Up to k visible samples among the 3k nearest (bucketing costs what one scan would).
    const PointBuckets buckets(prm.nodes);
    auto join = [&](Vec2 p) {
        std::vector<Link> links;
        for (uint32_t i : buckets.nearest(p, 3 * size_t(prm.options.k))) {
            if (links.size() >= prm.options.k) break;
            if (segmentFree(prm.space, p, prm.nodes[i])) links.push_back({i, dist(p, prm.nodes[i])});
        }
        return links;
    };
    const std::vector<Link> sources = join(start), targets = join(goal);
    if (sources.empty() || targets.empty()) return baselines::failedPath(PlanStatus::NoPath);
    const std::vector<uint32_t> route = baselines::astar(
        prm.nodes.size(), sources, targets,
        [&](uint32_t u, std::vector<Link>& links) {
            for (uint32_t k = prm.edge_start[u]; k < prm.edge_start[u + 1]; ++k)
                links.push_back({prm.edge_to[k], dist(prm.nodes[u], prm.nodes[prm.edge_to[k]])});
        },
        [&](uint32_t u) { return dist(prm.nodes[u], goal); });
    if (route.empty()) return baselines::failedPath(PlanStatus::NoPath);
    std::vector<Vec2> points{start};
    for (uint32_t i : route)
        points.push_back(prm.nodes[i]);
    points.push_back(goal);
    return baselines::okPath(std::move(points));
}

size_t bytesOf(const PrmPlanner& prm) {
    using baselines::vectorBytes;
    return bytesOf(prm.space) + vectorBytes(prm.nodes) + vectorBytes(prm.edge_start) +
           vectorBytes(prm.edge_to);
}

// ---------------------------------------------------------------------------------------------
// RRT

namespace {

// Nearest point of the forest to p: on edge (v, parent v), or vertex v of a lone root.
struct TreePoint {
    uint32_t vertex = 0;
    Vec2 point;
    double distance = INFINITY;
};

std::vector<TreePoint> treePointsByDistance(const RrtPlanner& t, Vec2 p, size_t count) {
    std::vector<TreePoint> all;
    all.reserve(t.vertices.size());
    for (uint32_t v = 0; v < t.vertices.size(); ++v) {
        const Vec2 q = closestOnSegment(p, t.vertices[v], t.vertices[t.parent[v]]);
        all.push_back({v, q, dist(p, q)});
    }
    count = std::min(count, all.size());
    std::partial_sort(all.begin(), all.begin() + count, all.end(),
                      [](const TreePoint& a, const TreePoint& b) {
                          return a.distance < b.distance || (a.distance == b.distance && a.vertex < b.vertex);
                      });
    all.resize(count);
    return all;
}

// Tree edges (v, parent v) in the free space's grid, for nearest-point queries while growing.
struct EdgeGrid {
    const FreeSpace& s;
    const RrtPlanner& t;
    std::vector<std::vector<uint32_t>> cells;

    EdgeGrid(const FreeSpace& space, const RrtPlanner& tree)
        : s(space), t(tree), cells(size_t(space.nx) * space.ny) {}
    void add(uint32_t v) {
        baselines::forEachCellOnCapsule(s, t.vertices[v], t.vertices[t.parent[v]], 0,
                                        [&](uint32_t x, uint32_t y) {
                                            cells[size_t(y) * s.nx + x].push_back(v);
                                            return true;
                                        });
    }
    // Rings of cells round p (a sample: inside the grid) until the best point found is nearer than
    // the next ring.
    TreePoint nearest(Vec2 p) const {
        TreePoint best;
        const int cx = std::clamp(int(std::floor((p.x - s.origin.x) / s.cell)), 0, int(s.nx) - 1);
        const int cy = std::clamp(int(std::floor((p.y - s.origin.y) / s.cell)), 0, int(s.ny) - 1);
        const int max_ring = int(std::max(s.nx, s.ny));
        for (int ring = 0; ring <= max_ring; ++ring) {
            for (int y = cy - ring; y <= cy + ring; ++y) {
                if (y < 0 || y >= int(s.ny)) continue;
                const bool edge_row = y == cy - ring || y == cy + ring;
                for (int x = cx - ring; x <= cx + ring; x += edge_row || ring == 0 ? 1 : 2 * ring) {
                    if (x < 0 || x >= int(s.nx)) continue;
                    for (uint32_t v : cells[size_t(y) * s.nx + x]) {
                        const Vec2 q = closestOnSegment(p, t.vertices[v], t.vertices[t.parent[v]]);
                        const double d = dist(p, q);
                        if (d < best.distance || (d == best.distance && v < best.vertex)) best = {v, q, d};
                    }
                }
            }
            if (best.distance <= ring * s.cell) break; // the next ring is at least this far
        }
        return best;
    }
};

uint32_t rootOf(const RrtPlanner& t, uint32_t v) {
    while (t.parent[v] != v)
        v = t.parent[v];
    return v;
}

} // namespace

Error buildRrt(const FootprintLayer& layer, double radius, const RrtOptions& options, RrtPlanner* out) {
    if (Error e = baselines::checkRadius(radius, "rrt")) return e;
    RrtPlanner t;
    t.space = buildFreeSpace(layer, radius);
    t.options = options;
    const FreeSpace& s = t.space;
    std::mt19937_64 rng(options.seed);
    // One root per polygon: the first free sample of its bounding box inside it.
    for (const PolygonWithHoles& poly : layer.polygons) {
        Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
        for (Vec2 p : poly.outer) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
        }
        for (int tries = 0; tries < 2000; ++tries) {
            const Vec2 p{lo.x + baselines::unit(rng) * (hi.x - lo.x),
                         lo.y + baselines::unit(rng) * (hi.y - lo.y)};
            if (insideRings(poly, p) && pointFree(s, p)) {
                t.parent.push_back(uint32_t(t.vertices.size()));
                t.vertices.push_back(p);
                break;
            }
        }
    }
    t.budget = options.iterations ? givenBudget(options.iterations) : rrtIterationBudget(s);
    const uint32_t iterations = t.budget.count;
    const double min_extension = std::max(1e-3, radius / 20);
    EdgeGrid grid(s, t);
    for (uint32_t v = 0; v < t.vertices.size(); ++v)
        grid.add(v);
    for (uint32_t it = 0; it < iterations && !t.vertices.empty(); ++it) {
        const Vec2 p = baselines::samplePoint(s, rng);
        const TreePoint q = grid.nearest(p);
        // Longest clear piece from q towards p (bisection to 1e-4 of the segment).
        double lo = 0, hi = 1;
        if (segmentFree(s, q.point, p)) {
            lo = 1;
        } else {
            for (int k = 0; k < 14; ++k) {
                const double mid = 0.5 * (lo + hi);
                const Vec2 m{q.point.x + mid * (p.x - q.point.x), q.point.y + mid * (p.y - q.point.y)};
                (segmentFree(s, q.point, m) ? lo : hi) = mid;
            }
        }
        const Vec2 end{q.point.x + lo * (p.x - q.point.x), q.point.y + lo * (p.y - q.point.y)};
        if (dist(q.point, end) < min_extension) continue;
        // Attach at q: a tree vertex, or a new vertex splitting edge (v, parent v).
        uint32_t at = q.vertex;
        const uint32_t up = t.parent[q.vertex];
        if (dist(q.point, t.vertices[q.vertex]) > 1e-12) {
            if (up != q.vertex && dist(q.point, t.vertices[up]) <= 1e-12) {
                at = up;
            } else { // q.vertex's cells still cover its shortened edge
                at = uint32_t(t.vertices.size());
                t.vertices.push_back(q.point);
                t.parent.push_back(up);
                t.parent[q.vertex] = at;
                grid.add(at);
            }
        }
        t.parent.push_back(at);
        t.vertices.push_back(end);
        grid.add(uint32_t(t.vertices.size() - 1));
    }
    t.depth.assign(t.vertices.size(), 0);
    for (uint32_t v = 0; v < t.vertices.size(); ++v) {
        uint32_t d = 0;
        for (uint32_t u = v; t.parent[u] != u; u = t.parent[u])
            ++d;
        t.depth[v] = d;
    }
    *out = std::move(t);
    return {};
}

PlannedPath rrtPath(const RrtPlanner& t, Vec2 start, Vec2 goal) {
    if (PlanStatus st = baselines::checkEndpoints(t.space, start, goal); st != PlanStatus::Ok)
        return baselines::failedPath(st);
    auto attach = [&](Vec2 p, TreePoint* out) {
        for (const TreePoint& q : treePointsByDistance(t, p, 32))
            if (segmentFree(t.space, p, q.point)) {
                *out = q;
                return true;
            }
        return false;
    };
    TreePoint a, b;
    if (!attach(start, &a) || !attach(goal, &b) || rootOf(t, a.vertex) != rootOf(t, b.vertex))
        return baselines::failedPath(PlanStatus::NoPath);
    // Tree route a.vertex -> lowest common ancestor -> b.vertex.
    std::vector<uint32_t> up_a, up_b;
    uint32_t u = a.vertex, v = b.vertex;
    while (t.depth[u] > t.depth[v]) {
        up_a.push_back(u);
        u = t.parent[u];
    }
    while (t.depth[v] > t.depth[u]) {
        up_b.push_back(v);
        v = t.parent[v];
    }
    while (u != v) {
        up_a.push_back(u);
        up_b.push_back(v);
        u = t.parent[u];
        v = t.parent[v];
    }
    up_a.push_back(u);
    std::vector<uint32_t> route(up_a);
    route.insert(route.end(), up_b.rbegin(), up_b.rend());
    // An attach point lies on the edge to the vertex's parent: skip the vertex when the route
    // continues to that parent.
    std::vector<Vec2> points{start, a.point};
    const bool same_edge = a.vertex == b.vertex;
    size_t first = 0, last = route.size();
    if (!same_edge) {
        if (route.size() >= 2 && route[1] == t.parent[a.vertex]) first = 1;
        if (route.size() >= 2 && route[route.size() - 2] == t.parent[b.vertex]) last = route.size() - 1;
        for (size_t k = first; k < last; ++k)
            points.push_back(t.vertices[route[k]]);
    }
    points.push_back(b.point);
    points.push_back(goal);
    // Drop repeated points (an attach point on a vertex).
    std::vector<Vec2> unique{points.front()};
    for (size_t k = 1; k < points.size(); ++k)
        if (dist(points[k], unique.back()) > 1e-12) unique.push_back(points[k]);
    return baselines::okPath(std::move(unique));
}

size_t bytesOf(const RrtPlanner& t) {
    using baselines::vectorBytes;
    return bytesOf(t.space) + vectorBytes(t.vertices) + vectorBytes(t.parent) + vectorBytes(t.depth);
}

} // namespace clearway::bake
