// Canonical order of a roadmap's vertices and edges (coordinates, not construction order), so
// assets are byte-identical whatever order CGAL and the threads built them in.
#include "roadmap/roadmap_stages.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace clearway::bake::roadmap_detail {

namespace {

// std::sort(list, less) for a strict total order (so the result is unique), cheaper when the
// list is a sorted run followed by a short tail: the second ordering of a bake finds the kept
// vertices still in order. sort_all(list) sorts a list that is not.
template <class T, class Less, class SortAll>
void sortSortedRun(std::vector<T>& list, Less less, SortAll&& sort_all) {
    const auto run_end = std::is_sorted_until(list.begin(), list.end(), less);
    const size_t run = size_t(run_end - list.begin()), tail = list.size() - run;
    if (tail == 0) return;
    if (tail > list.size() / 2) {
        sort_all(list);
        return;
    }
    std::vector<T> rest(run_end, list.end());
    std::sort(rest.begin(), rest.end(), less);
    // Merged from the back into place.
    size_t i = run, j = tail, k = list.size();
    while (j > 0)
        list[--k] = i > 0 && less(rest[j - 1], list[i - 1]) ? list[--i] : rest[--j];
}

// A vertex's sort key, side by side with its number (no indirection per comparison; 40 bytes).
struct VertexKey {
    double x, y, z, clearance;
    uint32_t layer, v;
};

VertexKey vertexKey(const Roadmap& rm, uint32_t v) {
    const RoadmapVertex& x = rm.vertices[v];
    return {x.position.x, x.position.y, x.position.z, x.clearance, x.layer, v};
}

// std::tuple's order of (layer, x, y, z, clearance) (only <, so -0 and 0 tie): -1, 0 (a tie) or 1.
int positionOrder(const VertexKey& a, const VertexKey& b) {
    if (a.layer != b.layer) return a.layer < b.layer ? -1 : 1;
    if (a.x < b.x) return -1;
    if (b.x < a.x) return 1;
    if (a.y < b.y) return -1;
    if (b.y < a.y) return 1;
    if (a.z < b.z) return -1;
    if (b.z < a.z) return 1;
    if (a.clearance < b.clearance) return -1;
    if (b.clearance < a.clearance) return 1;
    return 0;
}

// std::sort(keyed, less) of every vertex's key, by slices of x (the order's first term within a
// layer): each key is written straight into its slice (counted first), then each slice is sorted.
// Slices are monotone in x and hold equal x together, so the result is the same. Several layers
// or a non-finite x: std::sort.
template <class Less> void sortBySlicesOfX(const Roadmap& rm, std::vector<VertexKey>& keyed, Less less) {
    const size_t n = keyed.size();
    double lo = INFINITY, hi = -INFINITY;
    bool plain = true;
    for (const VertexKey& k : keyed) {
        lo = std::min(lo, k.x), hi = std::max(hi, k.x);
        plain = plain && std::isfinite(k.x) && k.layer == keyed[0].layer;
    }
    const double width = (hi - lo) / double(n);
    if (!plain || !std::isfinite(width) || !(width > 0)) {
        std::sort(keyed.begin(), keyed.end(), less);
        return;
    }
    auto slice = [&](double x) { return std::min(size_t((x - lo) / width), n - 1); };
    std::vector<uint32_t> slice_end(n, 0); // counts, then each slice's end as keys go in
    for (const VertexKey& k : keyed)
        ++slice_end[slice(k.x)];
    for (size_t i = 1; i < n; ++i)
        slice_end[i] += slice_end[i - 1];
    for (uint32_t v = uint32_t(n); v-- > 0;) // from the back: each slice fills downwards
        keyed[--slice_end[slice(rm.vertices[v].position.x)]] = vertexKey(rm, v);
    // slice_end[i] is now slice i's start.
    for (size_t i = 0; i < n; ++i) {
        const size_t end = i + 1 < n ? slice_end[i + 1] : n;
        if (end - slice_end[i] > 1) std::sort(keyed.begin() + slice_end[i], keyed.begin() + end, less);
    }
}

// Vertices by position, then number: what a stable sort of the numbers by position gives.
std::vector<VertexKey> sortedVertexKeys(const Roadmap& rm) {
    std::vector<VertexKey> keyed(rm.vertices.size());
    for (uint32_t v = 0; v < keyed.size(); ++v)
        keyed[v] = vertexKey(rm, v);
    auto less = [&](const VertexKey& a, const VertexKey& b) {
        const int order = positionOrder(a, b);
        return order != 0 ? order < 0 : a.v < b.v;
    };
    sortSortedRun(keyed, less, [&](std::vector<VertexKey>& list) { sortBySlicesOfX(rm, list, less); });
    return keyed;
}

// Runs of tied positions are then ordered by signature and number: the order a sort by the
// whole key gives. Signatures (each vertex's neighbour directions, sorted) are gathered only
// for the vertices in such runs, which are few.
void orderTiedPositions(const Roadmap& rm, std::vector<VertexKey>& keyed) {
    std::vector<uint32_t> tied_slot(rm.vertices.size(), UINT32_MAX);
    uint32_t tied = 0;
    for (size_t i = 0; i + 1 < keyed.size(); ++i)
        if (positionOrder(keyed[i], keyed[i + 1]) == 0) {
            for (const size_t k : {i, i + 1})
                if (tied_slot[keyed[k].v] == UINT32_MAX) tied_slot[keyed[k].v] = tied++;
        }
    if (tied == 0) return;
    std::vector<uint32_t> sig_start(tied + 1, 0);
    for (const RoadmapEdge& e : rm.edges)
        for (const uint32_t v : {e.a, e.b})
            if (tied_slot[v] != UINT32_MAX) ++sig_start[tied_slot[v] + 1];
    for (size_t t = 0; t < tied; ++t)
        sig_start[t + 1] += sig_start[t];
    std::vector<std::pair<double, double>> signature(sig_start.back());
    std::vector<uint32_t> fill(sig_start.begin(), sig_start.end() - 1);
    for (const RoadmapEdge& e : rm.edges) {
        if (tied_slot[e.a] != UINT32_MAX) {
            const Vec2 from_a = e.points.size() > 1 ? e.points[1] : e.points[0];
            signature[fill[tied_slot[e.a]]++] = {from_a.x, from_a.y};
        }
        if (tied_slot[e.b] != UINT32_MAX) {
            const Vec2 from_b = e.points.size() > 1 ? e.points[e.points.size() - 2] : e.points[0];
            signature[fill[tied_slot[e.b]]++] = {from_b.x, from_b.y};
        }
    }
    for (size_t t = 0; t < tied; ++t)
        std::sort(signature.begin() + sig_start[t], signature.begin() + sig_start[t + 1]);
    for (size_t i = 0; i < keyed.size();) {
        size_t j = i + 1;
        while (j < keyed.size() && positionOrder(keyed[i], keyed[j]) == 0)
            ++j;
        if (j - i > 1)
            std::sort(keyed.begin() + ptrdiff_t(i), keyed.begin() + ptrdiff_t(j),
                      [&](const VertexKey& a, const VertexKey& b) {
                          const uint32_t ta = tied_slot[a.v], tb = tied_slot[b.v];
                          const auto sa = signature.begin() + sig_start[ta],
                                     sa_end = signature.begin() + sig_start[ta + 1];
                          const auto sb = signature.begin() + sig_start[tb],
                                     sb_end = signature.begin() + sig_start[tb + 1];
                          if (std::lexicographical_compare(sa, sa_end, sb, sb_end)) return true;
                          if (std::lexicographical_compare(sb, sb_end, sa, sa_end)) return false;
                          return a.v < b.v;
                      });
        i = j;
    }
}

// Permuted in place (no second list beside the keys): position i takes the element order[i].
// order is used up (UINT32_MAX marks a placed position).
template <class T> void permuteInPlace(std::vector<T>& list, std::vector<uint32_t>& order) {
    // The elements a cycle reads are scattered: each is fetched kAhead steps early, by a second
    // walk along the cycle (in the loop itself: GCC drops calls to a function that only prefetches).
    constexpr int kAhead = 8;
    for (size_t i = 0; i < order.size(); ++i) {
        // Follow the cycle through i: position j takes the element order[j].
        if (order[i] == i || order[i] == UINT32_MAX) continue;
        T held = std::move(list[i]);
        size_t j = i, ahead = i;
        for (int step = 0; step < kAhead && order[ahead] != i; ++step)
            ahead = order[ahead];
        while (order[j] != i) {
            if (order[ahead] != i) {
                ahead = order[ahead];
                for (size_t byte = 0; byte < sizeof(T); byte += 64)
                    __builtin_prefetch(reinterpret_cast<const char*>(&list[ahead]) + byte);
            }
            const size_t from = order[j];
            list[j] = std::move(list[from]);
            order[j] = UINT32_MAX;
            j = from;
        }
        list[j] = std::move(held);
        order[j] = UINT32_MAX;
    }
}

// Edges renumbered by rank, turned to run from the lower vertex, and keyed, in one pass (each
// edge's points are read once); returns the edge order. The keys are sorted compactly: the same
// order as a stable sort of the 152-byte edges themselves (the keys carry their edge number, which
// breaks ties), with far fewer bytes moved. Each key is written straight into its lower vertex's
// bucket (counted first), so only the few keys sharing a lower vertex are compared.
std::vector<uint32_t> turnAndOrderEdges(Roadmap& rm, const std::vector<uint32_t>& rank) {
    struct EdgeKey { // 32 bytes
        uint32_t a, b, points, e;
        double x, y;
    };
    std::vector<uint32_t> bucket_start(rank.size() + 1, 0);
    for (const RoadmapEdge& e : rm.edges)
        ++bucket_start[std::min(rank[e.a], rank[e.b]) + 1];
    for (size_t v = 0; v < rank.size(); ++v)
        bucket_start[v + 1] += bucket_start[v];
    std::vector<EdgeKey> keys(rm.edges.size());
    for (uint32_t i = 0; i < keys.size(); ++i) {
        // The middle point of an edge's list (on the heap, scattered), fetched a few edges early.
        if (i + 8 < keys.size()) {
            const std::vector<Vec2>& ahead = rm.edges[i + 8].points;
            if (!ahead.empty()) __builtin_prefetch(&ahead[ahead.size() / 2]);
        }
        RoadmapEdge& e = rm.edges[i];
        e.a = rank[e.a];
        e.b = rank[e.b];
        if (e.b < e.a) {
            std::swap(e.a, e.b);
            std::reverse(e.points.begin(), e.points.end());
            std::swap(e.left_a, e.right_b);
            std::swap(e.right_a, e.left_b);
            std::reverse(e.sides.begin(), e.sides.end());
            for (WallSides& s : e.sides)
                s = s.reversed();
            std::reverse(e.chain.begin(), e.chain.end());
            for (CorridorPoint& c : e.chain)
                c.sides = c.sides.reversed();
        }
        const Vec2 middle = e.points[e.points.size() / 2];
        keys[bucket_start[e.a]++] = {e.a, e.b, uint32_t(e.points.size()), i, middle.x, middle.y};
    }
    std::vector<uint32_t>().swap(bucket_start);
    auto less = [](const EdgeKey& p, const EdgeKey& q) {
        if (p.a != q.a) return p.a < q.a;
        if (p.b != q.b) return p.b < q.b;
        if (p.points != q.points) return p.points < q.points;
        if (p.x < q.x) return true;
        if (q.x < p.x) return false;
        if (p.y < q.y) return true;
        if (q.y < p.y) return false;
        return p.e < q.e;
    };
    // Each bucket (a vertex's few edges) by insertion.
    for (size_t i = 1; i < keys.size(); ++i)
        if (less(keys[i], keys[i - 1])) {
            const EdgeKey held = keys[i];
            size_t j = i;
            for (; j > 0 && less(held, keys[j - 1]); --j)
                keys[j] = keys[j - 1];
            keys[j] = held;
        }
    std::vector<uint32_t> edge_order(keys.size());
    for (size_t i = 0; i < keys.size(); ++i)
        edge_order[i] = keys[i].e;
    return edge_order;
}

} // namespace

void canonicalOrder(Roadmap& rm) {
    // Vertices by (layer, x, y, z, clearance); degenerate sites can leave two vertices at one
    // position, and their neighbours' positions (the signature) tell them apart without depending
    // on CGAL's (memory-ordered) construction order; the vertex number breaks the remaining ties,
    // which is what a stable sort of the numbers does.
    std::vector<VertexKey> keyed = sortedVertexKeys(rm);
    orderTiedPositions(rm, keyed);
    std::vector<uint32_t> rank(keyed.size()), vertex_order(keyed.size());
    for (uint32_t i = 0; i < keyed.size(); ++i)
        rank[keyed[i].v] = i, vertex_order[i] = keyed[i].v;
    std::vector<VertexKey>().swap(keyed);
    permuteInPlace(rm.vertices, vertex_order);
    std::vector<uint32_t>().swap(vertex_order);
    std::vector<uint32_t> edge_order = turnAndOrderEdges(rm, rank);
    permuteInPlace(rm.edges, edge_order);
}

} // namespace clearway::bake::roadmap_detail
