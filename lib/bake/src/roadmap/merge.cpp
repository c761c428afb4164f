// Chain merging: degree-2 vertices bypassed by straight edges that keep the chain's clearance
// (Nieuwenhuisen, Kamphuis, Mooijekind, Overmars, "Automatic construction of roadmaps for path
// planning in games", 2004).
#include "roadmap/roadmap_stages.h"

#include <algorithm>

namespace clearway::bake::roadmap_detail {

namespace {

// Edge e's corridor travelled from vertex `from` to its other end, as the chain samples a merged
// edge keeps: a medial-axis edge bisects one pair of wall features, so its two ends bound it.
std::vector<CorridorPoint> corridorFrom(const RoadmapEdge& e, uint32_t from) {
    std::vector<CorridorPoint> c = e.chain;
    if (e.corridor == EdgeCorridor::PointSides)
        c = {{e.points.front(), e.sides.front()}, {e.points.back(), e.sides.back()}};
    if (e.a != from) {
        std::reverse(c.begin(), c.end());
        for (CorridorPoint& p : c)
            p.sides = p.sides.reversed();
    }
    return c;
}

bool samePoint(const CorridorPoint& p, const CorridorPoint& q) {
    auto same = [](Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; };
    return same(p.at, q.at) && same(p.sides.left, q.sides.left) && same(p.sides.right, q.sides.right);
}

// The merged edge u -> w keeps the corridor of the chain it bypasses (through v), so a path along
// it is still bounded by the walls it passes, not only by those at u and w.
void keepChainCorridor(const RoadmapEdge& e1, const RoadmapEdge& e2, uint32_t u, uint32_t v,
                       RoadmapEdge* merged) {
    if (e1.corridor == EdgeCorridor::Unchecked || e2.corridor == EdgeCorridor::Unchecked) return;
    merged->chain = corridorFrom(e1, u);
    for (const CorridorPoint& p : corridorFrom(e2, v))
        if (!samePoint(merged->chain.back(), p)) merged->chain.push_back(p);
    merged->corridor = EdgeCorridor::Chain;
}

} // namespace

void mergeChains(Roadmap& rm, const std::vector<Walls>& walls) {
    // Bypass degree-2 vertices while the straight replacement keeps the chain's clearance
    // (Nieuwenhuisen et al. 2004, "Improving the roadmap"). Edges that touch a wall (clearance 0) stay exact.
    // A vertex whose test failed keeps its two edges (and so fails again) until a merge at one
    // of its neighbours replaces one of them: vertex indices stay put across passes.
    std::vector<bool> rejected(rm.vertices.size(), false);
    for (bool changed = true; changed;) {
        changed = false;
        const Incidence incidence(rm, false);
        std::vector<bool> removed(rm.edges.size(), false), touched(rm.vertices.size(), false);
        std::vector<RoadmapEdge> added;
        for (uint32_t v = 0; v < rm.vertices.size(); ++v) {
            // rejected[v] first: the same test as in an earlier pass fails again, and the edges and
            // positions it would read are cache misses.
            if (incidence.size(v) != 2 || touched[v] || rejected[v]) continue;
            const uint32_t* incident = incidence.at(v);
            const RoadmapEdge& e1 = rm.edges[incident[0]];
            const RoadmapEdge& e2 = rm.edges[incident[1]];
            if (e1.portal || e2.portal || incident[0] == incident[1]) continue;
            const uint32_t u = e1.a == v ? e1.b : e1.a, w = e2.a == v ? e2.b : e2.a;
            if (u == w || u == v || w == v || touched[u] || touched[w]) continue;
            const double required = std::min(e1.min_clearance, e2.min_clearance);
            if (!(required > 0)) continue;
            const Vec2 pu = xy(rm.vertices[u].position), pw = xy(rm.vertices[w].position);
            const double clearance = walls[rm.vertices[v].layer].segmentClearance(pu, pw, required);
            if (clearance < required) {
                rejected[v] = true;
                continue;
            }
            RoadmapEdge merged;
            merged.a = u;
            merged.b = w;
            merged.points = {pu, pw};
            merged.min_clearance = clearance;
            merged.site = ClearanceSite::Walls;
            merged.left_a = e1.a == u ? e1.left_a : e1.right_b;
            merged.right_a = e1.a == u ? e1.right_a : e1.left_b;
            merged.left_b = e2.b == w ? e2.left_b : e2.right_a;
            merged.right_b = e2.b == w ? e2.right_b : e2.left_a;
            if (!e1.sides.empty() && !e2.sides.empty()) merged.setSidesFromEnds();
            keepChainCorridor(e1, e2, u, v, &merged);
            removed[incident[0]] = removed[incident[1]] = true;
            touched[u] = touched[v] = touched[w] = true;
            rejected[u] = rejected[w] = false; // their edges change
            added.push_back(std::move(merged));
            changed = true;
        }
        if (!changed) break;
        // Kept edges move forward in place, then the merged ones follow (no second edge list).
        size_t kept = 0;
        for (uint32_t e = 0; e < rm.edges.size(); ++e)
            if (!removed[e]) {
                if (kept != e) rm.edges[kept] = std::move(rm.edges[e]);
                ++kept;
            }
        rm.edges.erase(rm.edges.begin() + ptrdiff_t(kept), rm.edges.end());
        for (RoadmapEdge& e : added)
            rm.edges.push_back(std::move(e));
    }
    // Drop vertices left without edges, keeping order.
    std::vector<bool> used(rm.vertices.size(), false);
    for (const RoadmapEdge& e : rm.edges)
        used[e.a] = used[e.b] = true;
    std::vector<uint32_t> remap(rm.vertices.size(), UINT32_MAX);
    std::vector<RoadmapVertex> kept;
    kept.reserve(size_t(std::count(used.begin(), used.end(), true))); // the list the asset is written from
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (used[v]) remap[v] = uint32_t(kept.size()), kept.push_back(rm.vertices[v]);
    rm.vertices = std::move(kept);
    for (RoadmapEdge& e : rm.edges)
        e.a = remap[e.a], e.b = remap[e.b];
}

} // namespace clearway::bake::roadmap_detail
