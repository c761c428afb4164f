// Visibility graph on the walls offset by the agent radius: the exact shortest path with
// clearance = radius, the oracle cw-compare measures every method's length against.
//
// The free space eroded by r is bounded by wall offsets and by arcs of radius r round the reflex
// wall vertices (seen from free space). A shortest path is taut: straight pieces tangent to those
// circles and arcs along them, in one sense of travel per circle. So the nodes are tangent points
// with a sense (ccw or cw round the circle), the edges are clear bitangents (built once) and clear
// arcs between consecutive tangent points of one circle and sense; start and goal add their
// tangents per query. Lengths are exact (arcs as r * angle); every clearance test is exact in
// double (point/segment/arc against segment distances) and forgives kPlanTolerance, so the oracle
// is the shortest path at clearance radius - 1e-9 m: it can only be shorter than the true one where
// a gap is within 2e-9 m of 2 r wide.
#include "baselines_internal.h"

#include <algorithm>
#include <cmath>

namespace clearway::bake {

using baselines::Link;
using geometry::cross;
using geometry::dist;
using geometry::pointSegmentDistance;

namespace {

constexpr double kTwoPi = 6.283185307179586;

Vec2 sub(Vec2 a, Vec2 b) {
    return {a.x - b.x, a.y - b.y};
}
double crossv(Vec2 a, Vec2 b) {
    return a.x * b.y - a.y * b.x;
}

// Sense of travel round centre c for a path passing tangent point t in direction dir.
bool senseAt(Vec2 c, Vec2 t, Vec2 dir) {
    return crossv(dir, sub(c, t)) > 0;
}

double wrap(double a) {
    a = std::fmod(a, kTwoPi);
    return a < 0 ? a + kTwoPi : a;
}

// Signed sweep from angle a0 to a1 in the given sense: [0, 2pi) ccw, (-2pi, 0] cw.
double sweepBetween(double a0, double a1, bool ccw) {
    return ccw ? wrap(a1 - a0) : -wrap(a0 - a1);
}

bool angleOnArc(double phi, double a0, double sweep) {
    return sweep >= 0 ? wrap(phi - a0) <= sweep : wrap(a0 - phi) <= -sweep;
}

double pointArcDistance(Vec2 q, Vec2 c, double r, double a0, double sweep) {
    const double d = dist(q, c);
    if (d > 0 && angleOnArc(std::atan2(q.y - c.y, q.x - c.x), a0, sweep)) return std::abs(d - r);
    const Vec2 p0{c.x + r * std::cos(a0), c.y + r * std::sin(a0)};
    const Vec2 p1{c.x + r * std::cos(a0 + sweep), c.y + r * std::sin(a0 + sweep)};
    return std::min(dist(q, p0), dist(q, p1));
}

// Exact distance between the arc (centre c, radius r, from angle a0 by sweep) and segment ab:
// the minimum over the arc's ends, the segment's ends, the arc point facing the foot of c on the
// segment, and the circle/segment crossings on the arc (0).
double arcSegmentDistance(Vec2 c, double r, double a0, double sweep, Vec2 a, Vec2 b) {
    const Vec2 p0{c.x + r * std::cos(a0), c.y + r * std::sin(a0)};
    const Vec2 p1{c.x + r * std::cos(a0 + sweep), c.y + r * std::sin(a0 + sweep)};
    double best = std::min(pointSegmentDistance(p0, a, b), pointSegmentDistance(p1, a, b));
    best = std::min({best, pointArcDistance(a, c, r, a0, sweep), pointArcDistance(b, c, r, a0, sweep)});
    const Vec2 ab = sub(b, a);
    const double len2 = ab.x * ab.x + ab.y * ab.y;
    if (len2 > 0) {
        const Vec2 ac = sub(c, a);
        const double t = (ac.x * ab.x + ac.y * ab.y) / len2;
        if (t > 0 && t < 1) {
            const Vec2 f{a.x + t * ab.x, a.y + t * ab.y};
            const double d = dist(f, c);
            if (d > 0 && angleOnArc(std::atan2(f.y - c.y, f.x - c.x), a0, sweep))
                best = std::min(best, std::abs(d - r));
            // Crossings: |a + s ab - c| = r, s = t +- sqrt(r^2 - d^2) / |ab|.
            if (d < r) {
                const double h = std::sqrt(r * r - d * d) / std::sqrt(len2);
                for (double s : {t - h, t + h}) {
                    if (s < 0 || s > 1) continue;
                    const Vec2 q{a.x + s * ab.x, a.y + s * ab.y};
                    if (angleOnArc(std::atan2(q.y - c.y, q.x - c.x), a0, sweep)) return 0;
                }
            }
        }
    }
    return best;
}

bool arcFree(const VisibilityGraph& g, uint32_t disc, double a0, double sweep) {
    const Vec2 c = g.discs[disc];
    const double r = g.space.radius;
    for (uint32_t w : g.disc_walls[disc]) {
        const WallSegment& wall = g.space.walls[w];
        if (arcSegmentDistance(c, r, a0, sweep, wall.a, wall.b) < r - kPlanTolerance) return false;
    }
    return true;
}

struct RawEdge {
    uint32_t from, to;
    double length;
    bool arc;
    bool operator<(const RawEdge& o) const { return from < o.from || (from == o.from && to < o.to); }
};

// Tangent points from a point p outside circle (c, r): up to two. On the circle: p itself.
int pointTangents(Vec2 p, Vec2 c, double r, Vec2 out[2]) {
    const double d = dist(p, c);
    if (d < r - kPlanTolerance) return 0;
    if (d <= r + 1e-12) {
        out[0] = p;
        return 1;
    }
    const Vec2 e{(p.x - c.x) / d, (p.y - c.y) / d}, n{-e.y, e.x};
    const double cb = r / d, sb = std::sqrt(std::max(0.0, 1 - cb * cb));
    out[0] = {c.x + r * (cb * e.x + sb * n.x), c.y + r * (cb * e.y + sb * n.y)};
    out[1] = {c.x + r * (cb * e.x - sb * n.x), c.y + r * (cb * e.y - sb * n.y)};
    return 2;
}

} // namespace

Error buildVisibilityGraph(const FootprintLayer& layer, double radius, const VisibilityOptions& options,
                           VisibilityGraph* out) {
    if (Error e = baselines::checkRadius(radius, "visibility graph")) return e;
    VisibilityGraph g;
    g.space = buildFreeSpace(layer, radius);
    g.options = options;
    const double r = radius;

    // Reflex vertices seen from free space: free space is left of every ring (outer ccw, holes cw),
    // so a right turn. Their ring neighbours prune tangents that would cut into the corner.
    std::vector<Vec2> prev, next;
    auto addRing = [&](const Ring& ring) {
        const size_t n = ring.size();
        for (size_t i = 0; i < n; ++i) {
            const Vec2 a = ring[(i + n - 1) % n], v = ring[i], b = ring[(i + 1) % n];
            if (cross(a, v, b) < 0) {
                g.discs.push_back(v);
                prev.push_back(a);
                next.push_back(b);
            }
        }
    };
    for (const PolygonWithHoles& poly : layer.polygons) {
        addRing(poly.outer);
        for (const Ring& hole : poly.holes)
            addRing(hole);
    }
    const FreeSpace& space = g.space;
    g.disc_walls.resize(g.discs.size());
    for (size_t i = 0; i < g.discs.size(); ++i) {
        std::vector<uint32_t>& list = g.disc_walls[i];
        const Vec2 c = g.discs[i];
        const int x0 = std::max(0, int(std::floor((c.x - 2 * r - space.origin.x) / space.cell)));
        const int x1 =
            std::min(int(space.nx) - 1, int(std::floor((c.x + 2 * r - space.origin.x) / space.cell)));
        const int y0 = std::max(0, int(std::floor((c.y - 2 * r - space.origin.y) / space.cell)));
        const int y1 =
            std::min(int(space.ny) - 1, int(std::floor((c.y + 2 * r - space.origin.y) / space.cell)));
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) {
                const uint32_t cell = uint32_t(y) * space.nx + uint32_t(x);
                for (uint32_t k = space.cell_start[cell]; k < space.cell_start[cell + 1]; ++k) {
                    const WallSegment& w = space.walls[space.cell_walls[k]];
                    if (pointSegmentDistance(c, w.a, w.b) <= 2 * r + kPlanTolerance)
                        list.push_back(space.cell_walls[k]);
                }
            }
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }

    // The corner at disc i lies behind the tangent line at t (direction dir): both ring neighbours
    // on the far side of the parallel through the vertex. Else the tangent point is not clear anyway.
    auto tangentAtCorner = [&](uint32_t i, Vec2 t, Vec2 dir) {
        const Vec2 v = g.discs[i];
        const double side = crossv(dir, sub(t, v));
        for (Vec2 q : {prev[i], next[i]}) {
            const Vec2 vq = sub(q, v);
            const double s = crossv(dir, vq);
            if (s * side > 1e-12 * std::hypot(vq.x, vq.y) * std::abs(side)) return false;
        }
        return true;
    };

    std::vector<RawEdge> raw;
    auto addNode = [&](uint32_t disc, bool ccw, Vec2 p) {
        const Vec2 c = g.discs[disc];
        g.nodes.push_back({disc, ccw, wrap(std::atan2(p.y - c.y, p.x - c.x)), p});
        return uint32_t(g.nodes.size() - 1);
    };
    // A clear tangent t1 -> t2 gives two directed edges, one per direction of travel.
    auto addTangent = [&](uint32_t i, uint32_t j, Vec2 t1, Vec2 t2) {
        const Vec2 dir = sub(t2, t1);
        if (!tangentAtCorner(i, t1, dir) || !tangentAtCorner(j, t2, dir)) return;
        if (!segmentFree(space, t1, t2)) return;
        const bool s1 = senseAt(g.discs[i], t1, dir), s2 = senseAt(g.discs[j], t2, dir);
        const double len = dist(t1, t2);
        const uint32_t a = addNode(i, s1, t1), b = addNode(j, s2, t2);
        const uint32_t ra = addNode(j, !s2, t2), rb = addNode(i, !s1, t1);
        raw.push_back({a, b, len, false});
        raw.push_back({ra, rb, len, false});
    };
    for (uint32_t i = 0; i < g.discs.size(); ++i) {
        for (uint32_t j = i + 1; j < g.discs.size(); ++j) {
            const Vec2 c1 = g.discs[i], c2 = g.discs[j];
            const double d = dist(c1, c2);
            if (d < 1e-12) continue;
            const Vec2 u{(c2.x - c1.x) / d, (c2.y - c1.y) / d}, n{-u.y, u.x};
            for (double s : {1.0, -1.0}) // outer tangents
                addTangent(i, j, {c1.x + s * r * n.x, c1.y + s * r * n.y},
                           {c2.x + s * r * n.x, c2.y + s * r * n.y});
            if (d > 2 * r) { // inner tangents, crossing between the circles
                const double cb = 2 * r / d, sb = std::sqrt(std::max(0.0, 1 - cb * cb));
                for (double s : {1.0, -1.0}) {
                    const Vec2 w{cb * u.x + s * sb * n.x, cb * u.y + s * sb * n.y};
                    addTangent(i, j, {c1.x + r * w.x, c1.y + r * w.y}, {c2.x - r * w.x, c2.y - r * w.y});
                }
            }
        }
    }

    // Arcs between consecutive tangent points of one circle and sense.
    g.chains.assign(g.discs.size() * 2, {});
    for (uint32_t k = 0; k < g.nodes.size(); ++k)
        g.chains[g.nodes[k].disc * 2 + (g.nodes[k].ccw ? 1 : 0)].push_back(k);
    for (std::vector<uint32_t>& chain : g.chains) {
        std::sort(chain.begin(), chain.end(), [&](uint32_t a, uint32_t b) {
            return g.nodes[a].angle < g.nodes[b].angle || (g.nodes[a].angle == g.nodes[b].angle && a < b);
        });
        if (chain.size() < 2) continue;
        for (size_t k = 0; k < chain.size(); ++k) {
            const uint32_t lo = chain[k], hi = chain[(k + 1) % chain.size()];
            const bool ccw = g.nodes[lo].ccw;
            const uint32_t from = ccw ? lo : hi, to = ccw ? hi : lo;
            const double sweep = sweepBetween(g.nodes[from].angle, g.nodes[to].angle, ccw);
            if (arcFree(g, g.nodes[from].disc, g.nodes[from].angle, sweep))
                raw.push_back({from, to, std::abs(sweep) * r, true});
        }
    }
    std::sort(raw.begin(), raw.end());
    g.edge_start.assign(g.nodes.size() + 1, 0);
    for (const RawEdge& e : raw)
        ++g.edge_start[e.from + 1];
    for (size_t i = 0; i < g.nodes.size(); ++i)
        g.edge_start[i + 1] += g.edge_start[i];
    g.edges.reserve(raw.size());
    for (const RawEdge& e : raw)
        g.edges.push_back({e.to, e.length, e.arc});
    *out = std::move(g);
    return {};
}

PlannedPath visibilityPath(const VisibilityGraph& g, Vec2 start, Vec2 goal) {
    if (PlanStatus s = baselines::checkEndpoints(g.space, start, goal); s != PlanStatus::Ok)
        return baselines::failedPath(s);
    if (segmentFree(g.space, start, goal)) return baselines::okPath({start, goal});
    const double r = g.space.radius;
    const uint32_t base = uint32_t(g.nodes.size());

    // Query nodes: tangent points from start (sources) and to goal (targets), in both senses
    // only as the tangent direction dictates.
    std::vector<VisibilityGraph::Node> extra;
    std::vector<Link> sources, targets;
    for (uint32_t i = 0; i < g.discs.size(); ++i) {
        const Vec2 c = g.discs[i];
        for (int end = 0; end < 2; ++end) {
            const Vec2 p = end == 0 ? start : goal;
            Vec2 t[2];
            const int count = pointTangents(p, c, r, t);
            for (int k = 0; k < count; ++k) {
                const double len = dist(p, t[k]);
                if (len > 0 && !segmentFree(g.space, p, t[k])) continue;
                const double angle = wrap(std::atan2(t[k].y - c.y, t[k].x - c.x));
                if (len == 0) { // on the circle: either sense
                    for (bool ccw : {false, true}) {
                        extra.push_back({i, ccw, angle, t[k]});
                        (end == 0 ? sources : targets).push_back({base + uint32_t(extra.size() - 1), 0.0});
                    }
                    continue;
                }
                const Vec2 dir = end == 0 ? sub(t[k], p) : sub(p, t[k]);
                extra.push_back({i, senseAt(c, t[k], dir), angle, t[k]});
                (end == 0 ? sources : targets).push_back({base + uint32_t(extra.size() - 1), len});
            }
        }
    }
    // Arcs from and to the query nodes along their chains.
    std::vector<std::vector<Link>> extra_out(extra.size());
    std::vector<std::pair<uint32_t, Link>> static_out; // static node -> query node
    {
        std::vector<uint32_t> order(extra.size());
        for (uint32_t k = 0; k < order.size(); ++k)
            order[k] = k;
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            const uint32_t ka = extra[a].disc * 2 + extra[a].ccw, kb = extra[b].disc * 2 + extra[b].ccw;
            return ka < kb || (ka == kb && a < b);
        });
        auto nodeAt = [&](uint32_t id) -> const VisibilityGraph::Node& {
            return id < base ? g.nodes[id] : extra[id - base];
        };
        for (size_t k = 0; k < order.size();) {
            const uint32_t key = extra[order[k]].disc * 2 + extra[order[k]].ccw;
            std::vector<uint32_t> chain = g.chains[key];
            for (; k < order.size() && extra[order[k]].disc * 2 + extra[order[k]].ccw == key; ++k)
                chain.push_back(base + order[k]);
            std::sort(chain.begin(), chain.end(), [&](uint32_t a, uint32_t b) {
                return nodeAt(a).angle < nodeAt(b).angle || (nodeAt(a).angle == nodeAt(b).angle && a < b);
            });
            if (chain.size() < 2) continue;
            for (size_t m = 0; m < chain.size(); ++m) {
                const uint32_t lo = chain[m], hi = chain[(m + 1) % chain.size()];
                if (lo < base && hi < base) continue; // static arc, already in the graph
                const bool ccw = nodeAt(lo).ccw;
                const uint32_t from = ccw ? lo : hi, to = ccw ? hi : lo;
                const double sweep = sweepBetween(nodeAt(from).angle, nodeAt(to).angle, ccw);
                if (!arcFree(g, nodeAt(from).disc, nodeAt(from).angle, sweep)) continue;
                const Link link{to, std::abs(sweep) * r};
                if (from >= base)
                    extra_out[from - base].push_back(link);
                else
                    static_out.push_back({from, link});
            }
        }
        std::sort(static_out.begin(), static_out.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    auto point = [&](uint32_t id) { return id < base ? g.nodes[id].point : extra[id - base].point; };
    const std::vector<uint32_t> route = baselines::astar(
        base + extra.size(), sources, targets,
        [&](uint32_t u, std::vector<Link>& links) {
            if (u >= base) {
                links = extra_out[u - base];
                return;
            }
            for (uint32_t k = g.edge_start[u]; k < g.edge_start[u + 1]; ++k)
                links.push_back({g.edges[k].to, g.edges[k].length});
            auto it = std::lower_bound(static_out.begin(), static_out.end(), u,
                                       [](const auto& e, uint32_t key) { return e.first < key; });
            for (; it != static_out.end() && it->first == u; ++it)
                links.push_back(it->second);
        },
        [&](uint32_t u) { return dist(point(u), goal); });
    if (route.empty()) return baselines::failedPath(PlanStatus::NoPath);

    // Polyline with arcs sampled; exact length from the node positions and arc angles.
    PlannedPath path;
    path.status = PlanStatus::Ok;
    path.points.push_back(start);
    double length = dist(start, point(route.front()));
    const double step = std::max(1e-3, g.options.arc_step_deg * kTwoPi / 360);
    for (size_t k = 0; k < route.size(); ++k) {
        const uint32_t id = route[k];
        const VisibilityGraph::Node& node = id < base ? g.nodes[id] : extra[id - base];
        if (k > 0) {
            const uint32_t pid = route[k - 1];
            const VisibilityGraph::Node& prevn = pid < base ? g.nodes[pid] : extra[pid - base];
            if (prevn.disc == node.disc && prevn.ccw == node.ccw) { // arc
                const double sweep = sweepBetween(prevn.angle, node.angle, node.ccw);
                const int pieces = std::max(1, int(std::ceil(std::abs(sweep) / step)));
                const Vec2 c = g.discs[node.disc];
                for (int m = 1; m < pieces; ++m) {
                    const double a = prevn.angle + sweep * m / pieces;
                    path.points.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
                }
                length += std::abs(sweep) * r;
            } else {
                length += dist(prevn.point, node.point);
            }
        }
        if (dist(path.points.back(), node.point) > 0) path.points.push_back(node.point);
    }
    length += dist(point(route.back()), goal);
    if (dist(path.points.back(), goal) > 0) path.points.push_back(goal);
    path.length = length;
    return path;
}

size_t bytesOf(const VisibilityGraph& g) {
    using baselines::vectorBytes;
    size_t bytes = bytesOf(g.space) + vectorBytes(g.discs) + vectorBytes(g.nodes) +
                   vectorBytes(g.edge_start) + vectorBytes(g.edges);
    for (const auto& v : g.disc_walls)
        bytes += sizeof(v) + vectorBytes(v);
    for (const auto& v : g.chains)
        bytes += sizeof(v) + vectorBytes(v);
    return bytes;
}

} // namespace clearway::bake
