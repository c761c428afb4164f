// The roadmap stages that buildRoadmap and finishRoadmapGraph run in turn, one file each in this
// folder, and the small pieces they share. Internal to lib/bake/src/roadmap.
#pragma once

#include "roadmap/walls.h"

#include <vector>

namespace clearway::bake::roadmap_detail {

inline Vec2 xy(const Vec3& v) {
    return {v.x, v.y};
}

// Threads for a loop over a roadmap's vertices. Below a few thousand vertices the loop runs on
// the calling thread: at 1k walls (1,937 vertices) starting oneTBB's workers cost about 1 ms of
// CPU and 0.9 MiB and the bake took no less wall time. The output is the same either way.
inline unsigned vertexLoopThreads(size_t vertices, unsigned threads) {
    return vertices < 4096 ? 1u : threads;
}

// Edges at each vertex, in edge order, as one flat list (no list per vertex): at(v) and size(v).
struct Incidence {
    std::vector<uint32_t> start, edges;
    Incidence(const Roadmap& rm, bool skip_loops) : start(rm.vertices.size() + 1, 0) {
        for (const RoadmapEdge& e : rm.edges)
            if (!(skip_loops && e.a == e.b)) ++start[e.a + 1], ++start[e.b + 1];
        for (size_t v = 0; v < rm.vertices.size(); ++v)
            start[v + 1] += start[v];
        edges.resize(start.back());
        std::vector<uint32_t> fill(start.begin(), start.end() - 1);
        for (uint32_t e = 0; e < rm.edges.size(); ++e)
            if (!(skip_loops && rm.edges[e].a == rm.edges[e].b))
                edges[fill[rm.edges[e].a]++] = e, edges[fill[rm.edges[e].b]++] = e;
    }
    size_t size(uint32_t v) const { return start[v + 1] - start[v]; }
    const uint32_t* at(uint32_t v) const { return edges.data() + start[v]; }
};

// Canonical order (coordinates, not construction order) so assets are byte-identical (order.cpp).
void canonicalOrder(Roadmap& rm);

// Straight edges in place of degree-2 chains where they keep the clearance (merge.cpp).
void mergeChains(Roadmap& rm, const std::vector<Walls>& walls);

// Portal vertices at every layer connection, joined to their layers' medial axes (joins.cpp).
void joinLayers(Roadmap& rm, const Footprint& fp, const std::vector<Walls>& walls);

// Every vertex's z from its layer's surface (heights.cpp).
void setSurfaceHeights(Roadmap& rm, const Footprint& fp, unsigned threads);

// A circular blend for every pair of non-portal edges at each vertex, appended to rm.blends
// (blends.cpp).
void addBlends(Roadmap& rm, const std::vector<Walls>& walls);

} // namespace clearway::bake::roadmap_detail
