// Polygons across cut lines: ring edges on a tile border line are netted (opposite directions
// cancel), the rest chained into rings again, and each hole given to the outer ring holding it.
#include "tiles/tiles_internal.h"

#include <map>
#include <tuple>
#include <unordered_map>

namespace clearway::bake::tiling {

using namespace geometry;

namespace {

struct Directed {
    Vec2 a, b;
};
// Per line: (from, to, +1/-1) along the line's coordinate.
using LineIntervals = std::map<std::pair<int, double>, std::vector<std::tuple<double, double, int>>>;

Box boxOf(const Ring& ring) {
    Box b;
    for (Vec2 p : ring)
        b.add(p);
    return b;
}

// Polygons no cut line touches go to `out` as they are; the edges of the others go to `edges`, or
// to `on_line` when they lie on a cut line.
void splitAtLines(std::vector<PolygonWithHoles>& polygons, const CutLines& lines,
                  std::vector<PolygonWithHoles>* out, std::vector<Directed>* edges, LineIntervals* on_line) {
    for (PolygonWithHoles& polygon : polygons) {
        bool touched = false;
        auto scan = [&](const Ring& r) {
            for (size_t i = 0; i < r.size() && !touched; ++i)
                touched = lines.touches(r[i], r[(i + 1) % r.size()]);
        };
        scan(polygon.outer);
        for (const Ring& h : polygon.holes)
            scan(h);
        if (!touched) {
            out->push_back(std::move(polygon));
            continue;
        }
        auto add = [&](const Ring& r) {
            for (size_t i = 0; i < r.size(); ++i) {
                const Vec2 a = r[i], b = r[(i + 1) % r.size()];
                if (a.x == b.x && a.y == b.y) continue;
                if (a.x == b.x && lines.onX(a.x))
                    (*on_line)[{0, a.x}].push_back(
                        {std::min(a.y, b.y), std::max(a.y, b.y), b.y > a.y ? 1 : -1});
                else if (a.y == b.y && lines.onY(a.y))
                    (*on_line)[{1, a.y}].push_back(
                        {std::min(a.x, b.x), std::max(a.x, b.x), b.x > a.x ? 1 : -1});
                else
                    edges->push_back({a, b});
            }
        };
        add(polygon.outer);
        for (const Ring& h : polygon.holes)
            add(h);
    }
}

// Net coverage along each line: what one side's free space meets and the other's does not.
void netLineEdges(const LineIntervals& on_line, std::vector<Directed>* edges) {
    for (auto& [line, intervals] : on_line) {
        std::vector<std::pair<double, int>> events;
        for (const auto& [lo, hi, sign] : intervals)
            events.push_back({lo, sign}), events.push_back({hi, -sign});
        std::sort(events.begin(), events.end());
        int cover = 0;
        for (size_t k = 0; k < events.size();) {
            const double at = events[k].first;
            while (k < events.size() && events[k].first == at)
                cover += events[k++].second;
            if (k == events.size() || cover == 0) continue;
            const double next = events[k].first;
            const int axis = line.first; // a structured binding cannot be captured in C++17
            const double offset = line.second;
            auto point = [axis, offset](double t) { return axis == 0 ? Vec2{offset, t} : Vec2{t, offset}; };
            for (int n = 0; n < std::abs(cover); ++n)
                edges->push_back(cover > 0 ? Directed{point(at), point(next)}
                                           : Directed{point(next), point(at)});
        }
    }
}

// Vertices a cut line left in the middle of a straight wall.
void dropStraightCutVertices(Ring& ring, const CutLines& lines) {
    for (bool changed = true; changed && ring.size() > 3;) {
        changed = false;
        for (size_t i = 0; i < ring.size() && ring.size() > 3; ++i) {
            const Vec2 p = ring[(i + ring.size() - 1) % ring.size()], v = ring[i],
                       n = ring[(i + 1) % ring.size()];
            if (!lines.onAny(v)) continue;
            const double l1 = dist(p, v), l2 = dist(v, n);
            if (std::abs(cross(p, v, n)) <= 1e-12 * l1 * l2 + 1e-18 &&
                (v.x - p.x) * (n.x - v.x) + (v.y - p.y) * (n.y - v.y) > 0) {
                ring.erase(ring.begin() + i);
                changed = true;
            }
        }
    }
}

// Chain: leaving a vertex, take the first outgoing edge clockwise from the way back, so rings
// that touch at a vertex come out as separate rings.
std::vector<Ring> chainRings(const std::vector<Directed>& edges, const CutLines& lines) {
    std::unordered_map<std::pair<double, double>, std::vector<uint32_t>, PairHash> outgoing;
    for (uint32_t e = 0; e < edges.size(); ++e)
        outgoing[{edges[e].a.x, edges[e].a.y}].push_back(e);
    std::vector<bool> used(edges.size(), false);
    std::vector<Ring> rings;
    for (uint32_t first = 0; first < edges.size(); ++first) {
        if (used[first]) continue;
        Ring ring;
        uint32_t e = first;
        while (true) {
            used[e] = true;
            ring.push_back(edges[e].a);
            const Vec2 at = edges[e].b;
            if (at.x == edges[first].a.x && at.y == edges[first].a.y) break;
            const auto it = outgoing.find({at.x, at.y});
            if (it == outgoing.end()) break;
            const double back = std::atan2(edges[e].a.y - at.y, edges[e].a.x - at.x);
            uint32_t best = UINT32_MAX;
            double best_turn = INFINITY;
            for (uint32_t c : it->second) {
                if (used[c]) continue;
                double turn = back - std::atan2(edges[c].b.y - at.y, edges[c].b.x - at.x);
                while (turn <= 0)
                    turn += 2 * M_PI;
                while (turn > 2 * M_PI)
                    turn -= 2 * M_PI;
                if (turn < best_turn) best_turn = turn, best = c;
            }
            if (best == UINT32_MAX) break;
            e = best;
        }
        dropStraightCutVertices(ring, lines);
        if (ring.size() >= 3 && ringArea(ring) != 0) rings.push_back(std::move(ring));
    }
    return rings;
}

// Outer rings counter-clockwise, holes clockwise; a hole goes to the smallest outer holding it.
void assembleRings(std::vector<Ring>& rings, std::vector<PolygonWithHoles>* out) {
    std::vector<uint32_t> outers, holes;
    for (uint32_t r = 0; r < rings.size(); ++r)
        (ringArea(rings[r]) > 0 ? outers : holes).push_back(r);
    std::vector<Box> outer_boxes;
    for (uint32_t o : outers)
        outer_boxes.push_back(boxOf(rings[o]));
    BoxGrid grid;
    grid.build(outer_boxes);
    const size_t base = out->size();
    for (uint32_t o : outers) {
        PolygonWithHoles p;
        p.outer = rings[o];
        out->push_back(std::move(p));
    }
    for (uint32_t h : holes) {
        const Box hb = boxOf(rings[h]);
        std::vector<uint32_t> candidates;
        grid.visitBox(hb, [&](uint32_t k) {
            if (outer_boxes[k].contains(hb)) candidates.push_back(k);
        });
        std::sort(candidates.begin(), candidates.end());
        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        uint32_t chosen = UINT32_MAX;
        if (candidates.size() == 1) {
            chosen = candidates[0];
        } else {
            double best_area = INFINITY;
            for (uint32_t k : candidates) {
                bool inside = true;
                for (Vec2 v : rings[h]) {
                    bool boundary = false;
                    const bool in = insideRing(rings[outers[k]], v, &boundary);
                    if (!boundary) {
                        inside = in;
                        break;
                    }
                }
                const double area = ringArea(rings[outers[k]]);
                if (inside && area < best_area) best_area = area, chosen = k;
            }
        }
        if (chosen != UINT32_MAX) (*out)[base + chosen].holes.push_back(std::move(rings[h]));
    }
}

} // namespace

std::vector<PolygonWithHoles> rebuildPolygons(std::vector<PolygonWithHoles> polygons, const CutLines& lines) {
    std::vector<PolygonWithHoles> out;
    std::vector<Directed> edges;
    LineIntervals on_line;
    splitAtLines(polygons, lines, &out, &edges, &on_line);
    if (edges.empty() && on_line.empty()) return out;
    netLineEdges(on_line, &edges);
    std::vector<Ring> rings = chainRings(edges, lines);
    assembleRings(rings, &out);
    return out;
}

} // namespace clearway::bake::tiling
