// Chain merging: degree-2 vertices bypassed by straight edges that keep the chain's clearance
// (Nieuwenhuisen, Kamphuis, Mooijekind, Overmars, "Automatic construction of roadmaps for path
// planning in games", 2004).
#include "roadmap/roadmap_stages.h"

#include <algorithm>
#include <numeric>

namespace clearway::bake::roadmap_detail {

namespace {

// Edge e's corridor travelled from vertex `from` to its other end, as the chain samples a merged
// edge keeps (a medial-axis edge bisects one pair of wall features, so its two ends bound it):
// f(point) for each, in order (no list of them built).
size_t corridorLength(const RoadmapEdge& e) {
    return e.corridor == EdgeCorridor::PointSides ? 2 : e.chain.size();
}
template <class F> void forCorridor(const RoadmapEdge& e, uint32_t from, F&& f) {
    auto point = [&](size_t k) { // k-th from a
        if (e.corridor != EdgeCorridor::PointSides) return e.chain[k];
        return k == 0 ? CorridorPoint{e.points.front(), e.sides.front()}
                      : CorridorPoint{e.points.back(), e.sides.back()};
    };
    const size_t n = corridorLength(e);
    for (size_t i = 0; i < n; ++i) {
        if (e.a == from) {
            f(point(i));
        } else {
            CorridorPoint p = point(n - 1 - i);
            p.sides = p.sides.reversed();
            f(p);
        }
    }
}

bool samePoint(const CorridorPoint& p, const CorridorPoint& q) {
    auto same = [](Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; };
    return same(p.at, q.at) && same(p.sides.left, q.sides.left) && same(p.sides.right, q.sides.right);
}

// The merged edge u -> w keeps the corridor of the chain it bypasses (through v), so a path along
// it is still bounded by the walls it passes, not only by those at u and w. e1's chain, which the
// merge drops, is taken over rather than copied: a chain merged again and again is not copied
// again each time.
void keepChainCorridor(RoadmapEdge& e1, const RoadmapEdge& e2, uint32_t u, uint32_t v, RoadmapEdge* merged) {
    if (e1.corridor == EdgeCorridor::Unchecked || e2.corridor == EdgeCorridor::Unchecked) return;
    std::vector<CorridorPoint>& chain = merged->chain;
    if (e1.corridor == EdgeCorridor::Chain) {
        // forCorridor(e1, u) in place: from a, or reversed with its sides swapped.
        chain = std::move(e1.chain);
        if (e1.a != u) {
            std::reverse(chain.begin(), chain.end());
            for (CorridorPoint& p : chain)
                p.sides = p.sides.reversed();
        }
        chain.reserve(chain.size() + corridorLength(e2));
    } else {
        chain.reserve(corridorLength(e1) + corridorLength(e2));
        forCorridor(e1, u, [&](const CorridorPoint& p) { chain.push_back(p); });
    }
    forCorridor(e2, v, [&](const CorridorPoint& p) {
        if (!samePoint(chain.back(), p)) chain.push_back(p);
    });
    merged->corridor = EdgeCorridor::Chain;
}

// The straight edge u -> w in place of e1 (u - v) and e2 (v - w), of the given clearance.
RoadmapEdge mergedEdge(RoadmapEdge& e1, const RoadmapEdge& e2, uint32_t u, uint32_t v, uint32_t w, Vec2 pu,
                       Vec2 pw, double clearance) {
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
    return merged;
}

// The edges while chains merge, numbered in the order they were made: the roadmap's own, then the
// merged ones. That is the order passes that each compact the list and append their merged edges
// give, so one compaction at the end gives the same list. Each vertex keeps its edges in number
// order; a merge replaces an edge at u and at w by the newest one (their degrees stay).
class ChainEdges {
  public:
    // What the merge test reads of an edge, side by side (the edges themselves are 200 bytes).
    struct Brief {
        uint32_t a, b;
        double min_clearance;
        bool portal;
    };
    explicit ChainEdges(Roadmap& rm)
        : rm_(rm), original_(uint32_t(rm.edges.size())), removed_(rm.edges.size(), false) {
        Incidence incidence(rm, false);
        degree_.resize(rm.vertices.size());
        size_t merges_at_most = 0; // each merge bypasses a vertex of degree 2, whose degree drops to 0
        for (uint32_t v = 0; v < degree_.size(); ++v) {
            degree_[v] = uint32_t(incidence.size(v));
            merges_at_most += degree_[v] == 2;
        }
        start_ = std::move(incidence.start);
        edges_ = std::move(incidence.edges);
        // Reserved once: growing them by doubling copies (and faults in) the lists again and again.
        // Only the pages written are touched.
        added_.reserve(merges_at_most);
        brief_.reserve(rm.edges.size() + merges_at_most);
        for (const RoadmapEdge& e : rm.edges)
            brief_.push_back({e.a, e.b, e.min_clearance, e.portal});
    }
    uint32_t degree(uint32_t v) const { return degree_[v]; }
    const uint32_t* at(uint32_t v) const { return edges_.data() + start_[v]; }
    RoadmapEdge& operator[](uint32_t e) { return e < original_ ? rm_.edges[e] : added_[e - original_]; }
    const Brief& brief(uint32_t e) const { return brief_[e]; }
    // merged replaces e1 (at u and v) and e2 (at v and w); their lists are freed (never read again).
    void merge(uint32_t e1, uint32_t e2, uint32_t v, RoadmapEdge merged) {
        const uint32_t id = original_ + uint32_t(added_.size());
        replace(merged.a, e1, id);
        replace(merged.b, e2, id);
        degree_[v] = 0;
        for (const uint32_t e : {e1, e2}) {
            removed_[e] = true;
            RoadmapEdge& gone = (*this)[e];
            std::vector<Vec2>().swap(gone.points);
            std::vector<WallSides>().swap(gone.sides);
            std::vector<CorridorPoint>().swap(gone.chain);
        }
        brief_.push_back({merged.a, merged.b, merged.min_clearance, merged.portal});
        added_.push_back(std::move(merged));
        removed_.push_back(false);
    }
    // The kept edges into rm.edges in number order (they fit its capacity: each merge drops one).
    void finish() {
        size_t kept = 0;
        for (uint32_t e = 0; e < original_; ++e)
            if (!removed_[e]) {
                if (kept != e) rm_.edges[kept] = std::move(rm_.edges[e]);
                ++kept;
            }
        rm_.edges.erase(rm_.edges.begin() + ptrdiff_t(kept), rm_.edges.end());
        for (uint32_t a = 0; a < added_.size(); ++a)
            if (!removed_[original_ + a]) rm_.edges.push_back(std::move(added_[a]));
    }

  private:
    // At vertex x, edge `from` leaves and `to` (the newest) joins the end of its list.
    void replace(uint32_t x, uint32_t from, uint32_t to) {
        uint32_t* list = edges_.data() + start_[x];
        uint32_t* last = list + degree_[x] - 1;
        uint32_t* slot = std::find(list, last, from);
        std::copy(slot + 1, last + 1, slot);
        *last = to;
    }
    Roadmap& rm_;
    uint32_t original_;
    std::vector<RoadmapEdge> added_;
    std::vector<Brief> brief_;
    std::vector<bool> removed_;
    std::vector<uint32_t> start_, edges_, degree_;
};

} // namespace

void mergeChains(Roadmap& rm, const std::vector<Walls>& walls) {
    // Bypass degree-2 vertices while the straight replacement keeps the chain's clearance
    // (Nieuwenhuisen et al. 2004, "Improving the roadmap"). Edges that touch a wall (clearance 0) stay exact.
    // A vertex whose test failed keeps its two edges (and so fails again) until a merge at one
    // of its neighbours replaces one of them: vertex indices stay put across passes.
    // Each pass visits its candidates in vertex order and merges no two chains that share a
    // vertex. A vertex the pass passed over for a static reason (degree, portals, a failed test)
    // is passed over again until a merge touches it, so the next pass visits only the vertices
    // this one touched and those it passed over for a touched neighbour: the same merges as
    // visiting every vertex in every pass.
    ChainEdges edges(rm);
    std::vector<bool> rejected(rm.vertices.size(), false), touched(rm.vertices.size(), false);
    // The wall that failed a vertex's last test: when a merge beside it changes one of its edges,
    // that wall mostly fails the new test too, and alone it proves the failure (the walls'
    // minimum is no larger) without the grid search.
    std::vector<uint32_t> failed_by(rm.vertices.size(), UINT32_MAX);
    std::vector<uint32_t> candidates(rm.vertices.size()), next, touched_list;
    std::iota(candidates.begin(), candidates.end(), 0u);
    while (!candidates.empty()) {
        next.clear();
        // Degree and rejection only change for vertices a merge touches (passed over below), so
        // the candidates are those of degree 2 not yet rejected.
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                        [&](uint32_t v) { return edges.degree(v) != 2 || rejected[v]; }),
                         candidates.end());
        for (size_t k = 0; k < candidates.size(); ++k) {
            // A candidate's edges and its neighbours' positions are scattered: the edges are
            // fetched 16 candidates early, the positions at their ends 8 early. (In the loop
            // itself: GCC drops calls to a function that only prefetches.)
            if (k + 16 < candidates.size()) {
                const uint32_t* ahead = edges.at(candidates[k + 16]);
                __builtin_prefetch(&edges.brief(ahead[0]));
                __builtin_prefetch(&edges.brief(ahead[1]));
            }
            if (k + 8 < candidates.size()) {
                const uint32_t x = candidates[k + 8];
                for (const ChainEdges::Brief* e : {&edges.brief(edges.at(x)[0]), &edges.brief(edges.at(x)[1])})
                    __builtin_prefetch(&rm.vertices[e->a == x ? e->b : e->a]);
            }
            const uint32_t v = candidates[k];
            // rejected[v] first: the same test as in an earlier pass fails again, and the edges and
            // positions it would read are cache misses.
            if (edges.degree(v) != 2 || touched[v] || rejected[v]) continue;
            const uint32_t* incident = edges.at(v);
            const uint32_t i1 = incident[0], i2 = incident[1];
            const ChainEdges::Brief& e1 = edges.brief(i1);
            const ChainEdges::Brief& e2 = edges.brief(i2);
            if (e1.portal || e2.portal || i1 == i2) continue;
            const uint32_t u = e1.a == v ? e1.b : e1.a, w = e2.a == v ? e2.b : e2.a;
            if (u == w || u == v || w == v) continue;
            if (touched[u] || touched[w]) {
                next.push_back(v);
                continue;
            }
            const double required = std::min(e1.min_clearance, e2.min_clearance);
            if (!(required > 0)) continue;
            const Vec2 pu = xy(rm.vertices[u].position), pw = xy(rm.vertices[w].position);
            const Walls& layer_walls = walls[rm.vertices[v].layer];
            if (failed_by[v] != UINT32_MAX) {
                const WallSegment& wall = layer_walls[failed_by[v]];
                if (segmentWallDistance(pu, pw, wall.a, wall.b, INFINITY) < required) {
                    rejected[v] = true;
                    continue;
                }
            }
            const double clearance = layer_walls.segmentClearance(pu, pw, required, &failed_by[v]);
            if (clearance < required) {
                rejected[v] = true;
                continue;
            }
            edges.merge(i1, i2, v, mergedEdge(edges[i1], edges[i2], u, v, w, pu, pw, clearance));
            for (const uint32_t x : {u, v, w})
                touched[x] = true, touched_list.push_back(x);
            rejected[u] = rejected[w] = false; // their edges change
        }
        if (touched_list.empty()) break;
        for (const uint32_t x : touched_list)
            touched[x] = false, next.push_back(x);
        touched_list.clear();
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
        candidates.swap(next);
    }
    edges.finish();
    // Drop vertices left without edges, keeping order.
    std::vector<bool> used(rm.vertices.size(), false);
    for (const RoadmapEdge& e : rm.edges)
        used[e.a] = used[e.b] = true;
    // In place: a second list would be faulted in afresh (the caller releases the unused capacity).
    std::vector<uint32_t> remap(rm.vertices.size(), UINT32_MAX);
    uint32_t kept = 0;
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (used[v]) remap[v] = kept, rm.vertices[kept++] = rm.vertices[v];
    rm.vertices.resize(kept);
    for (RoadmapEdge& e : rm.edges)
        e.a = remap[e.a], e.b = remap[e.b];
}

} // namespace clearway::bake::roadmap_detail
