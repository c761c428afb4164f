// Off-mesh links (Detour's off-mesh connections) in the designer sidecar: a link's options, and how
// a link's end joins the roadmap: at the nearest point of the nearest edge it sees, splitting that
// edge there, so the link is reached from where it stands (a designer node's join to the nearest
// vertex can be a long detour along an open floor's medial axis).
#include <clearway/bake.h>

#include <clearway/bake/geometry.h>
#include "edits/edits_internal.h"
#include "roadmap/roadmap_internal.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <tuple>

namespace clearway::bake::edits_detail {

namespace {

using geometry::dist;

// Where a vertex joins an edge: piece k (points[k] .. points[k + 1]) at q.
struct EdgeSpot {
    double distance;
    uint32_t edge;
    size_t piece;
    Vec2 q;
};

WallSides lerpSides(const WallSides& a, const WallSides& b, double t) {
    auto lerp = [t](Vec2 u, Vec2 v) { return Vec2{u.x + (v.x - u.x) * t, u.y + (v.y - u.y) * t}; };
    return {lerp(a.left, b.left), lerp(a.right, b.right)};
}

// The exact minimum clearance of a medial-axis edge's polyline (clearance anywhere = distance to
// its site); an edge whose site is Walls keeps what it has (a lower bound for any part of it).
double polylineClearance(const RoadmapEdge& edge) {
    if (edge.site == ClearanceSite::Walls) return edge.min_clearance;
    double least = INFINITY;
    for (size_t k = 0; k + 1 < edge.points.size(); ++k)
        least = std::min(
            least, edge.site == ClearanceSite::Point
                       ? geometry::pointSegmentDistance(edge.site_p0, edge.points[k], edge.points[k + 1])
                       : geometry::segmentSegmentDistance(edge.points[k], edge.points[k + 1], edge.site_p0,
                                                          edge.site_p1));
    return least;
}

// Splits edge e at spot.q with vertex v: e keeps a -> v, a new edge v -> b is appended, and the
// blends at b that name e name the new edge. Each half gets its own exact minimum clearance (a
// spur into a corner is narrow only at the corner's end) and becomes Unchecked: the wall sides at
// q are interpolated, so the runtime checks lines across them against the walls.
void splitEdge(Roadmap& rm, const EdgeSpot& spot, uint32_t v) {
    RoadmapEdge& first = rm.edges[spot.edge];
    RoadmapEdge second = first;
    const size_t k = spot.piece;
    const Vec2 p0 = first.points[k], p1 = first.points[k + 1];
    const double len = dist(p0, p1), t = len > 0 ? dist(p0, spot.q) / len : 0.0;
    const bool tracked = first.sides.size() == first.points.size();
    const WallSides at =
        tracked ? lerpSides(first.sides[k], first.sides[k + 1], t) : WallSides{spot.q, spot.q};
    first.points.resize(k + 1);
    first.points.push_back(spot.q);
    second.points.erase(second.points.begin(), second.points.begin() + long(k + 1));
    second.points.insert(second.points.begin(), spot.q);
    if (tracked) {
        first.sides.resize(k + 1);
        first.sides.push_back(at);
        second.sides.erase(second.sides.begin(), second.sides.begin() + long(k + 1));
        second.sides.insert(second.sides.begin(), at);
    }
    first.b = v;
    second.a = v;
    first.left_b = second.left_a = at.left;
    first.right_b = second.right_a = at.right;
    first.corridor = second.corridor = EdgeCorridor::Unchecked;
    first.chain.clear();
    second.chain.clear();
    first.min_clearance = polylineClearance(first);
    second.min_clearance = polylineClearance(second);
    const uint32_t old_b = second.b, added = uint32_t(rm.edges.size());
    rm.edges.push_back(std::move(second));
    for (Blend& blend : rm.blends)
        if (blend.vertex == old_b) {
            if (blend.edge_in == spot.edge) blend.edge_in = added;
            if (blend.edge_out == spot.edge) blend.edge_out = added;
        }
}

} // namespace

bool parseLinkOptions(const std::vector<std::string>& tokens, EditLink* link, std::string* problem) {
    static const char* const kinds[] = {"jump", "ladder", "door", "teleport", "custom"};
    for (size_t i = 3; i < tokens.size(); i += 2) {
        const std::string& word = tokens[i];
        if (word == "oneway") {
            link->bidirectional = false;
            --i; // takes no value
            continue;
        }
        if (word == "type" || word == "flags") {
            if (!parseTypeOrFlags(tokens, i, &link->type, &link->flags, problem)) return false;
            continue;
        }
        const std::string value = i + 1 < tokens.size() ? tokens[i + 1] : "";
        if (word == "kind") {
            const auto* found = std::find(std::begin(kinds), std::end(kinds), value);
            if (found == std::end(kinds)) {
                *problem = "kind must be jump, ladder, door, teleport or custom, got '" + value + "'";
                return false;
            }
            link->kind = LinkKind(found - std::begin(kinds));
        } else if (word == "cost" || word == "width") {
            double v = 0;
            if (!parseNumber(value, &v, problem)) {
                *problem = word + ": " + *problem;
                return false;
            }
            if (word == "cost" ? !(v >= 0) : !(v > 0)) {
                *problem = word == "cost"
                               ? "cost must be >= 0 (metres added to the link's length), got " + value
                               : "width must be > 0, got " + value;
                return false;
            }
            (word == "cost" ? link->cost : link->width) = v;
        } else {
            *problem = "unknown option '" + word + "' (expected oneway, kind, cost, width, flags or type)";
            return false;
        }
    }
    return true;
}

bool joinAtNearestEdge(Roadmap* roadmap, uint32_t vertex, const Footprint& fp,
                       const std::vector<WallSegment>& solid, const std::vector<WallSegment>& rings) {
    Roadmap& rm = *roadmap;
    const RoadmapVertex node = rm.vertices[vertex];
    const Vec2 p{node.position.x, node.position.y};
    std::vector<EdgeSpot> spots;
    for (uint32_t e = 0; e < rm.edges.size(); ++e) {
        const RoadmapEdge& edge = rm.edges[e];
        if (edge.portal || edge.a == vertex || edge.b == vertex || rm.vertices[edge.a].layer != node.layer ||
            rm.vertices[edge.b].layer != node.layer)
            continue;
        EdgeSpot best{INFINITY, e, 0, p};
        for (size_t k = 0; k + 1 < edge.points.size(); ++k) {
            const Vec2 q = geometry::closestOnSegment(p, edge.points[k], edge.points[k + 1]);
            if (dist(p, q) < best.distance) best = {dist(p, q), e, k, q};
        }
        if (best.distance < INFINITY) spots.push_back(best);
    }
    std::sort(spots.begin(), spots.end(), [](const EdgeSpot& x, const EdgeSpot& y) {
        return std::tie(x.distance, x.edge) < std::tie(y.distance, y.edge);
    });
    for (const EdgeSpot& spot : spots) {
        if (spot.distance > 0 && segmentToWalls(rings, p, spot.q) <= 0) continue;
        const RoadmapEdge& edge = rm.edges[spot.edge];
        // At an end of the edge: join that vertex; else split the edge at the spot.
        uint32_t at = dist(spot.q, edge.points.front()) == 0  ? edge.a
                      : dist(spot.q, edge.points.back()) == 0 ? edge.b
                                                              : UINT32_MAX;
        if (at == UINT32_MAX) {
            at = spot.distance > 0 ? uint32_t(rm.vertices.size()) : vertex;
            if (at != vertex) {
                const FootprintLayer& layer = fp.layers[node.layer];
                rm.vertices.push_back({{spot.q.x, spot.q.y, surfaceHeight(layer, spot.q)},
                                       node.layer,
                                       distanceToWalls(solid, spot.q)});
            }
            splitEdge(rm, spot, at);
        }
        if (at == vertex) return true;
        RoadmapEdge join;
        join.a = vertex;
        join.b = at;
        join.points = {p, {rm.vertices[at].position.x, rm.vertices[at].position.y}};
        join.min_clearance = spot.distance > 0 ? segmentToWalls(solid, p, join.points[1]) : node.clearance;
        join.site = ClearanceSite::Walls;
        join.left_a = join.right_a = join.points[0];
        join.left_b = join.right_b = join.points[1];
        join.setSidesFromEnds();
        rm.edges.push_back(join);
        return true;
    }
    return false;
}

} // namespace clearway::bake::edits_detail
