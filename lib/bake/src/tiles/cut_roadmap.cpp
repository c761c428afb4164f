// A tile's roadmap at its border: the axis of core + margin cut at the core's border (border
// vertices with their clearance and wall sides), and chain merging that keeps those vertices.
#include "tiles/tiles_internal.h"

#include "roadmap/roadmap_internal.h"

#include <map>
#include <tuple>

namespace clearway::bake::tiling {

using namespace geometry;

namespace {

// Nearest walls of one layer.
class WallIndex {
  public:
    explicit WallIndex(std::vector<WallSegment> walls) : walls_(std::move(walls)) {
        std::vector<Box> boxes;
        for (const WallSegment& w : walls_) {
            Box b;
            b.add(w.a), b.add(w.b);
            boxes.push_back(b);
        }
        grid_.build(boxes);
    }
    // Minimum of distance(wall) for a shape within `reach` of `centre`.
    template <class D> double nearest(Vec2 centre, double reach, D&& distance) const {
        double best = INFINITY;
        const int off = grid_.offGrid(centre);
        for (int ring = 0;; ++ring) {
            if (best < (ring - 1 - off) * grid_.cell() - reach) break;
            if (!grid_.visitRing(centre, ring,
                                 [&](uint32_t w) { best = std::min(best, distance(walls_[w])); }))
                break;
        }
        return best;
    }
    double pointClearance(Vec2 p) const {
        return nearest(p, 0, [&](const WallSegment& w) { return pointSegmentDistance(p, w.a, w.b); });
    }
    double segmentClearance(Vec2 a, Vec2 b) const {
        return nearest({(a.x + b.x) / 2, (a.y + b.y) / 2}, dist(a, b) / 2,
                       [&](const WallSegment& w) { return segmentSegmentDistance(a, b, w.a, w.b); });
    }
    // Nearest wall points left and right of direction `dir` at p (the nearest overall when a side
    // has none within the clearance).
    void sides(Vec2 p, Vec2 dir, Vec2* left, Vec2* right) const {
        const double r = pointClearance(p);
        const double reach = r + std::max(1e-6, 1e-6 * r);
        double best_l = INFINITY, best_r = INFINITY, best = INFINITY;
        Vec2 any = p;
        *left = *right = p;
        const int off = grid_.offGrid(p);
        for (int ring = 0;; ++ring) {
            if ((ring - 1 - off) * grid_.cell() > reach) break;
            if (!grid_.visitRing(p, ring, [&](uint32_t w) {
                    const Vec2 q = closestOnSegment(p, walls_[w].a, walls_[w].b);
                    const double d = dist(p, q);
                    if (d < best) best = d, any = q;
                    if (d > reach) return;
                    const double side = dir.x * (q.y - p.y) - dir.y * (q.x - p.x);
                    if (side > 0 && d < best_l) best_l = d, *left = q;
                    if (side < 0 && d < best_r) best_r = d, *right = q;
                }))
                break;
        }
        if (!std::isfinite(best_l)) *left = any;
        if (!std::isfinite(best_r)) *right = any;
    }

  private:
    std::vector<WallSegment> walls_;
    BoxGrid grid_;
};

// The parts of an edge's polyline inside the core, cut at the border; from_a / to_b: the piece
// starts at the edge's first point / ends at its last. sides: the points' wall sides (when the
// edge has them).
struct Piece {
    std::vector<Vec2> points;
    std::vector<WallSides> sides;
    bool from_a = false, to_b = false;
};

// Between two points both sides stay on one wall feature, whose nearest point moves linearly
// along the chord: the sides at a cut are interpolated exactly.
WallSides sidesAt(const std::vector<WallSides>& S, size_t k, double t) {
    auto lerp = [t](Vec2 p, Vec2 q) { return Vec2{p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)}; };
    if (t == 0) return S[k];
    if (t == 1) return S[k + 1];
    return {lerp(S[k].left, S[k + 1].left), lerp(S[k].right, S[k + 1].right)};
}

std::vector<Piece> piecesInCore(const std::vector<Vec2>& P, const std::vector<WallSides>& S,
                                const Rect& core) {
    const bool with_sides = S.size() == P.size();
    std::vector<Piece> pieces;
    bool open = false;
    for (size_t k = 0; k + 1 < P.size(); ++k) {
        double t0 = 0, t1 = 1;
        bool inside = clipSegment(P[k], P[k + 1], core, &t0, &t1);
        Vec2 s = P[k], f = P[k + 1];
        if (inside) {
            const Vec3 p3{P[k].x, P[k].y, 0}, q3{P[k + 1].x, P[k + 1].y, 0};
            auto cut = [&](double t) {
                Vec2 c{P[k].x + t * (P[k + 1].x - P[k].x), P[k].y + t * (P[k + 1].y - P[k].y)};
                c = snapToBorder(c, core, 1e-7);
                // Recompute on the border line from canonical endpoints (neighbours agree).
                const double lines[2][2] = {{core.x0, core.x1}, {core.y0, core.y1}};
                for (int axis = 0; axis < 2; ++axis)
                    for (double line : lines[axis])
                        if ((axis == 0 ? c.x : c.y) == line &&
                            (axis == 0 ? P[k].x != P[k + 1].x : P[k].y != P[k + 1].y))
                            c = snapToBorder(xy(crossAt(p3, q3, axis, line)), core, 1e-7);
                return c;
            };
            if (t0 > 0) s = cut(t0);
            if (t1 < 1) f = cut(t1);
            // Along the top or right border: the neighbour's piece.
            if ((s.x == core.x1 && f.x == core.x1) || (s.y == core.y1 && f.y == core.y1)) inside = false;
            if (P[k].x == P[k + 1].x && P[k].y == P[k + 1].y) // a portal edge: one tile keeps it
                inside = core.contains(P[k]) && P[k].x != core.x1 && P[k].y != core.y1;
        }
        if (!inside) {
            open = false;
            continue;
        }
        if (!open || t0 > 0) {
            pieces.push_back({{s}, {}, k == 0 && t0 == 0, false});
            if (with_sides) pieces.back().sides.push_back(sidesAt(S, k, t0));
            open = true;
        }
        pieces.back().points.push_back(f);
        if (with_sides) pieces.back().sides.push_back(sidesAt(S, k, t1));
        if (t1 < 1) {
            open = false;
        } else if (k + 2 == P.size()) {
            pieces.back().to_b = true;
        }
    }
    return pieces;
}

} // namespace

void cutRoadmap(Roadmap& rm, const Rect& core, double margin, uint32_t* margin_reached) {
    const Footprint& fp = rm.footprint;
    // Left/right wall points see every ring edge; clearance of joins (Walls sites) is against the
    // solid walls, as joinLayers measures it.
    std::vector<WallIndex> walls, solid;
    std::vector<SurfaceIndex> surfaces;
    for (uint32_t l = 0; l < fp.layers.size(); ++l) {
        walls.emplace_back(layerWalls(fp.layers[l]));
        solid.emplace_back(solidLayerWalls(fp, l));
        surfaces.emplace_back(fp.layers[l]);
    }
    std::vector<RoadmapVertex> vertices;
    std::vector<RoadmapEdge> edges;
    std::vector<uint32_t> kept(rm.vertices.size(), UINT32_MAX);
    std::map<std::tuple<uint32_t, double, double>, uint32_t> border; // (layer, x, y) -> vertex
    auto keepVertex = [&](uint32_t v) {
        if (kept[v] == UINT32_MAX) kept[v] = uint32_t(vertices.size()), vertices.push_back(rm.vertices[v]);
        return kept[v];
    };
    auto borderVertex = [&](Vec2 p, uint32_t layer, const RoadmapEdge& e) {
        const auto key = std::make_tuple(layer, p.x, p.y);
        if (auto it = border.find(key); it != border.end()) return it->second;
        RoadmapVertex v;
        v.layer = layer;
        v.position = {p.x, p.y, surfaces[layer].heightAt(p)};
        if (e.site == ClearanceSite::Point)
            v.clearance = dist(p, e.site_p0);
        else if (e.site == ClearanceSite::Segment)
            v.clearance = pointSegmentDistance(p, e.site_p0, e.site_p1);
        else
            v.clearance = solid[layer].pointClearance(p);
        border[key] = uint32_t(vertices.size());
        vertices.push_back(v);
        return uint32_t(vertices.size() - 1);
    };
    *margin_reached = 0;
    for (const RoadmapEdge& e : rm.edges) {
        const uint32_t layer = rm.vertices[e.a].layer;
        const std::vector<Piece> pieces = piecesInCore(e.points, e.sides, core);
        for (const Piece& piece : pieces) {
            if (piece.points.size() < 2) continue;
            const bool zero_length = piece.points.front().x == piece.points.back().x &&
                                     piece.points.front().y == piece.points.back().y &&
                                     !(piece.from_a && piece.to_b);
            if (zero_length) continue;
            RoadmapEdge c = e;
            c.points = piece.points;
            c.sides = piece.sides;
            c.a = piece.from_a ? keepVertex(e.a) : borderVertex(c.points.front(), layer, e);
            c.b = piece.to_b ? keepVertex(e.b) : borderVertex(c.points.back(), layer, e);
            if (!(piece.from_a && piece.to_b)) {
                // A cut end's sides come from the walls near the cut, not from the Voronoi
                // diagram: the runtime checks paths through this piece against the walls.
                c.corridor = EdgeCorridor::Unchecked;
                c.chain.clear();
                double m = INFINITY;
                for (size_t k = 0; k + 1 < c.points.size(); ++k) {
                    const Vec2 a = c.points[k], b = c.points[k + 1];
                    if (e.site == ClearanceSite::Point)
                        m = std::min(m, pointSegmentDistance(e.site_p0, a, b));
                    else if (e.site == ClearanceSite::Segment)
                        m = std::min(m, segmentSegmentDistance(a, b, e.site_p0, e.site_p1));
                    else
                        m = std::min(m, solid[layer].segmentClearance(a, b));
                }
                c.min_clearance = m;
                const size_t n = c.points.size();
                if (!piece.from_a)
                    walls[layer].sides(c.points[0],
                                       {c.points[1].x - c.points[0].x, c.points[1].y - c.points[0].y},
                                       &c.left_a, &c.right_a);
                if (!piece.to_b)
                    walls[layer].sides(
                        c.points[n - 1],
                        {c.points[n - 1].x - c.points[n - 2].x, c.points[n - 1].y - c.points[n - 2].y},
                        &c.left_b, &c.right_b);
            }
            if (std::max(vertices[c.a].clearance, vertices[c.b].clearance) >= margin) ++*margin_reached;
            edges.push_back(std::move(c));
        }
    }
    rm.vertices = std::move(vertices);
    rm.edges = std::move(edges);
    rm.blends.clear();
}

void finishPinned(Roadmap& rm, const std::vector<bool>& pinned) {
    const size_t real = rm.edges.size();
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (pinned[v]) {
            RoadmapEdge loop;
            loop.a = loop.b = v;
            loop.points = {xy(rm.vertices[v].position), xy(rm.vertices[v].position)};
            loop.min_clearance = -1; // marks the pin
            rm.edges.push_back(loop);
        }
    if (rm.edges.size() == real) return finishRoadmapGraph(rm);
    finishRoadmapGraph(rm);
    std::vector<uint32_t> remap(rm.edges.size(), UINT32_MAX);
    std::vector<RoadmapEdge> edges;
    for (uint32_t e = 0; e < rm.edges.size(); ++e)
        if (!(rm.edges[e].a == rm.edges[e].b && rm.edges[e].min_clearance == -1))
            remap[e] = uint32_t(edges.size()), edges.push_back(std::move(rm.edges[e]));
    rm.edges = std::move(edges);
    std::vector<Blend> blends;
    for (Blend b : rm.blends) {
        if (remap[b.edge_in] == UINT32_MAX || remap[b.edge_out] == UINT32_MAX) continue;
        b.edge_in = remap[b.edge_in], b.edge_out = remap[b.edge_out];
        blends.push_back(b);
    }
    rm.blends = std::move(blends);
}

std::vector<uint32_t> borderVertices(const Roadmap& rm, const Rect& core) {
    std::vector<uint32_t> out;
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (core.onBorder(xy(rm.vertices[v].position))) out.push_back(v);
    return out;
}

} // namespace clearway::bake::tiling
