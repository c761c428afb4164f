// Joins across layer connections: a portal vertex on each side of every connection, linked to the
// nearest medial-axis vertex it sees and to its twin across the connection.
#include "roadmap/roadmap_stages.h"

#include <algorithm>

namespace clearway::bake::roadmap_detail {

void joinLayers(Roadmap& rm, const Footprint& fp, const std::vector<Walls>& walls) {
    const uint32_t medial_count = uint32_t(rm.vertices.size());
    std::vector<std::pair<double, uint32_t>> candidates;
    for (const Connection& c : fp.connections) {
        const Vec2 m{(c.p0.x + c.p1.x) / 2, (c.p0.y + c.p1.y) / 2};
        uint32_t ends[2] = {UINT32_MAX, UINT32_MAX};
        const uint32_t layers[2] = {c.layer_a, c.layer_b};
        const double heights[2] = {(c.z_a0 + c.z_a1) / 2, (c.z_b0 + c.z_b1) / 2};
        for (int side = 0; side < 2; ++side) {
            const uint32_t layer = layers[side];
            // Nearest medial-axis vertex of that layer the portal midpoint sees with positive
            // clearance. Zero-clearance vertices are leaves at wall corners (often the portal's own
            // ends) whose one edge has clearance 0, and earlier portal vertices may only chain to
            // such leaves: linking to either strands the portal for every radius > 0. A leaf is
            // still better than no link when the layer has nothing else in sight.
            // Candidates nearest first, ties by index: the first whose segment to the midpoint has
            // positive clearance wins, so each side costs one wall search, not one per closer vertex.
            double best_clearance = 0;
            uint32_t best_vertex = UINT32_MAX;
            for (int pass = 0; pass < 2 && best_vertex == UINT32_MAX; ++pass) {
                candidates.clear();
                for (uint32_t v = 0; v < medial_count; ++v)
                    if (rm.vertices[v].layer == layer && (pass == 1 || rm.vertices[v].clearance > 0))
                        candidates.push_back({dist(m, xy(rm.vertices[v].position)), v});
                std::sort(candidates.begin(), candidates.end());
                for (const auto& [d, v] : candidates) {
                    const double clearance = walls[layer].segmentClearance(m, xy(rm.vertices[v].position));
                    if (clearance <= 0) continue;
                    best_vertex = v, best_clearance = clearance;
                    break;
                }
            }
            if (best_vertex == UINT32_MAX) break;
            RoadmapVertex portal;
            portal.position = {m.x, m.y, heights[side]};
            portal.layer = layer;
            portal.clearance = walls[layer].pointClearance(m);
            ends[side] = uint32_t(rm.vertices.size());
            rm.vertices.push_back(portal);
            RoadmapEdge e;
            e.a = ends[side];
            e.b = best_vertex;
            e.points = {m, xy(rm.vertices[best_vertex].position)};
            e.min_clearance = best_clearance;
            e.site = ClearanceSite::Walls;
            e.left_a = e.right_a = e.left_b = e.right_b = m;
            e.setSidesFromEnds();
            rm.edges.push_back(e);
        }
        if (ends[0] == UINT32_MAX || ends[1] == UINT32_MAX) continue;
        RoadmapEdge across;
        across.a = ends[0];
        across.b = ends[1];
        across.points = {m, m};
        across.portal = true;
        across.min_clearance = std::min(rm.vertices[ends[0]].clearance, rm.vertices[ends[1]].clearance);
        across.site = ClearanceSite::Walls;
        across.left_a = across.left_b = c.p0;
        across.right_a = across.right_b = c.p1;
        across.setSidesFromEnds();
        rm.edges.push_back(across);
    }
}

} // namespace clearway::bake::roadmap_detail
