// Chains of degree-2 vertices walked without the heap: a route along a corridor passes many
// medial-axis vertices where nothing branches off at the agent's radius (the spurs into the
// corners are narrower), and each would otherwise cost A* a heap push and pop. Built once into
// the shared data; which vertices a walk may pass depends on the query's radius.
#include "path_internal.h"

namespace clearway {
namespace detail {

namespace {

// A vertex's two widest incident edges (ties: the earlier adjacency entry) and the widest of the
// others (-1 when it has none): adjacency entries, kNone when it has fewer edges.
struct Through {
    uint32_t k0 = kNone, k1 = kNone;
    float others = -1.0f;
};

Through throughPair(const PathShared& s, uint32_t v) {
    Through t;
    for (uint32_t k = s.adj_start[v]; k < s.adj_start[v + 1]; ++k) {
        const float c = s.adj[k].min_clearance;
        if (t.k0 == kNone || c > s.adj[t.k0].min_clearance) {
            if (t.k1 != kNone) t.others = maxOf(t.others, s.adj[t.k1].min_clearance);
            t.k1 = t.k0, t.k0 = k;
        } else if (t.k1 == kNone || c > s.adj[t.k1].min_clearance) {
            if (t.k1 != kNone) t.others = maxOf(t.others, s.adj[t.k1].min_clearance);
            t.k1 = k;
        } else {
            t.others = maxOf(t.others, c);
        }
    }
    return t;
}

// Whether a walk may pass over v between its two widest edges: two distinct edges to other
// vertices with the same cost per metre (a designer area's edge keeps its own step), and no
// off-mesh link leaving v (A* must stop there to take it).
bool innerVertex(const PathShared& s, uint32_t v, const Through& t) {
    if (t.k1 == kNone || (s.link_start && s.link_start[v] != s.link_start[v + 1])) return false;
    const AdjEntry &a = s.adj[t.k0], &b = s.adj[t.k1];
    return a.edge != b.edge && a.other != v && b.other != v && a.other != b.other &&
           s.edge_weight[a.edge] == s.edge_weight[b.edge];
}

// The adjacency entry of `edge` at vertex v.
uint32_t entryOf(const PathShared& s, uint32_t v, uint32_t edge) {
    for (uint32_t k = s.adj_start[v]; k < s.adj_start[v + 1]; ++k)
        if (s.adj[k].edge == edge) return k;
    return kNone;
}

// Walks from v along adjacency entry k while the vertex reached is inner and joins the edge to
// another; records the chain when it has two edges or more. `taken`: per vertex, already inside a
// chain (in the scratch's node stamps, free at init).
void walkChain(PathShared* s, uint32_t v, uint32_t k, uint32_t* taken, uint32_t* steps_used) {
    const uint32_t chain = s->chain_count, first = *steps_used;
    ChainVertex* vertices = s->chain_vertices + first + chain;
    vertices[0] = ChainVertex{v, float(kInf)};
    uint32_t count = 0, entry = k;
    for (;;) {
        if (first + count == s->edge_count) return; // never: every edge is on one chain at most
        const AdjEntry& a = s->adj[entry];
        s->chain_steps[first + count] = ChainStep{a.cost, a.min_clearance, a.edge, chain, entry};
        const uint32_t next = a.other;
        ++count;
        const Through t = throughPair(*s, next);
        const uint32_t back = entryOf(*s, next, a.edge);
        const uint32_t out = back == t.k0 ? t.k1 : t.k0;
        // The walk also stops before an edge a chain already holds: a chain that closed a loop at
        // its start leaves that vertex untaken, and another walk may come through it.
        if (next == v || taken[next] || !innerVertex(*s, next, t) || (back != t.k0 && back != t.k1) ||
            s->adj[out].step != kNone) {
            vertices[count] = ChainVertex{next, float(kInf)};
            break;
        }
        vertices[count] = ChainVertex{next, t.others};
        taken[next] = 1;
        entry = out;
    }
    if (count < 2) return; // one edge is its own step (and nothing was taken)
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t from = vertices[i].v, to = vertices[i + 1].v, edge = s->chain_steps[first + i].edge;
        s->adj[entryOf(*s, from, edge)].step = first + i;
        s->adj[entryOf(*s, to, edge)].step = first + i;
    }
    s->chains[s->chain_count++] = ChainInfo{first, count};
    *steps_used += count;
}

} // namespace

void buildChains(PathShared* s, uint32_t* taken) {
    const uint32_t nv = s->vertex_count;
    s->chain_count = 0;
    for (uint32_t k = 0; k < s->adj_start[nv]; ++k)
        s->adj[k].step = kNone;
    if (s->edge_count >= 0x40000000u) return; // no room for the parent markers: no chains
    for (uint32_t v = 0; v < nv; ++v)
        taken[v] = 0;
    uint32_t steps_used = 0;
    for (uint32_t v = 0; v < nv; ++v) {
        const Through t = throughPair(*s, v);
        const bool inner = innerVertex(*s, v, t);
        for (uint32_t k = s->adj_start[v]; k < s->adj_start[v + 1]; ++k) {
            // Chains start where one ends; each is found from both ends, the second walk stops
            // at once on a taken vertex (or a chain of one edge: nothing to record).
            if ((inner && (k == t.k0 || k == t.k1)) || s->adj[k].step != kNone) continue;
            walkChain(s, v, k, taken, &steps_used);
        }
    }
}

} // namespace detail
} // namespace clearway
