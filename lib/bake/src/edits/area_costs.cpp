// Designer areas on the roadmap's edges (Nieuwenhuisen et al. 2004 "Conclusions": weights): each
// edge's cost per metre, and its cost split by the area types and flags its pieces lie in.
#include "edits/edits_internal.h"

#include <clearway/bake/geometry.h>

#include <algorithm>

namespace clearway::bake::edits_detail {

namespace {

using namespace geometry;

// The stretches of piece a-b between the borders of `areas`: fn(share of the piece, its midpoint)
// for each, in order along the piece.
template <typename Fn>
void forEachStretch(const std::vector<const RoadmapArea*>& areas, Vec2 a, Vec2 b, Fn fn) {
    std::vector<double> ts{0.0, 1.0};
    for (const RoadmapArea* area : areas) {
        const Ring& r = area->polygon;
        for (size_t i = 0; i < r.size(); ++i) {
            const Vec2 c = r[i], d = r[(i + 1) % r.size()];
            const Vec2 u{b.x - a.x, b.y - a.y}, v{d.x - c.x, d.y - c.y};
            const double den = u.x * v.y - u.y * v.x;
            if (den == 0) continue;
            const double t = ((c.x - a.x) * v.y - (c.y - a.y) * v.x) / den;
            const double s = ((c.x - a.x) * u.y - (c.y - a.y) * u.x) / den;
            if (t > 0 && t < 1 && s >= 0 && s <= 1) ts.push_back(t);
        }
    }
    std::sort(ts.begin(), ts.end());
    for (size_t k = 0; k + 1 < ts.size(); ++k) {
        const double tm = (ts[k] + ts[k + 1]) / 2;
        fn(ts[k + 1] - ts[k], Vec2{a.x + (b.x - a.x) * tm, a.y + (b.y - a.y) * tm});
    }
}

// Adds piece a-b's stretches to `spans` (one per type and flags, in order of first appearance)
// and returns its cost: length-weighted product of the weights of the areas it is in. The last
// area over a stretch gives its type; its flags are those of every area over it (walk outside).
double addPiece(const std::vector<const RoadmapArea*>& areas, Vec2 a, Vec2 b,
                std::vector<EdgeAreaSpan>* spans) {
    const double length = dist(a, b);
    double total = 0;
    forEachStretch(areas, a, b, [&](double share, Vec2 m) {
        double w = 1;
        EdgeAreaSpan span;
        bool in_area = false;
        for (const RoadmapArea* area : areas)
            if (insideRing(area->polygon, m)) {
                w *= area->weight;
                span.type = area->type;
                span.flags = uint16_t((in_area ? span.flags : 0) | area->flags);
                in_area = true;
            }
        const double cost = w * share * length;
        total += cost;
        auto same = std::find_if(spans->begin(), spans->end(), [&](const EdgeAreaSpan& s) {
            return s.type == span.type && s.flags == span.flags;
        });
        if (same == spans->end()) same = spans->insert(spans->end(), span);
        same->cost += cost;
    });
    return total;
}

} // namespace

void computeAreaCosts(Roadmap* roadmap) {
    Roadmap& rm = *roadmap;
    rm.edge_weights.clear();
    rm.edge_span_starts.clear();
    rm.edge_spans.clear();
    if (rm.areas.empty()) return;
    std::vector<std::vector<const RoadmapArea*>> by_layer(rm.footprint.layers.size());
    for (const RoadmapArea& area : rm.areas)
        by_layer[area.layer].push_back(&area);
    std::vector<EdgeAreaSpan> spans;
    for (const RoadmapEdge& e : rm.edges) {
        const uint32_t layer = rm.vertices[e.a].layer;
        double length = 0, weighted = 0;
        spans.clear();
        if (!e.portal && rm.vertices[e.b].layer == layer)
            for (size_t k = 0; k + 1 < e.points.size(); ++k) {
                length += dist(e.points[k], e.points[k + 1]);
                weighted += addPiece(by_layer[layer], e.points[k], e.points[k + 1], &spans);
            }
        rm.edge_weights.push_back(length > 0 ? weighted / length : 1.0);
        rm.edge_span_starts.push_back(uint32_t(rm.edge_spans.size()));
        // One span of type 0 with the walk flag is what an empty range says.
        if (!(spans.size() == 1 && spans[0].type == 0 && spans[0].flags == 1))
            rm.edge_spans.insert(rm.edge_spans.end(), spans.begin(), spans.end());
    }
    rm.edge_span_starts.push_back(uint32_t(rm.edge_spans.size()));
}

} // namespace clearway::bake::edits_detail
