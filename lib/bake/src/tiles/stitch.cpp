// cw-stitch's welding: tiles of one world joined into one roadmap. Floor pieces that meet across
// a tile border share a world layer, the footprints are netted across the tile lines, and the
// roadmaps are welded at their border vertices.
#include "tiles/tiles_internal.h"

#include "core/union_find.h"

#include "roadmap/roadmap_internal.h"

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>

namespace clearway::bake {

using namespace geometry;
using namespace tiling;

namespace {

using Tiles = std::vector<const Roadmap*>;

// Tile order (i, j) makes the result independent of the argument order.
void orderTiles(const std::vector<Roadmap>& tiles_in, const std::vector<std::string>& names_in, Tiles* tiles,
                std::vector<std::string>* names) {
    std::vector<uint32_t> order(tiles_in.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::make_pair(tiles_in[a].tile.i, tiles_in[a].tile.j) <
               std::make_pair(tiles_in[b].tile.i, tiles_in[b].tile.j);
    });
    for (uint32_t k : order)
        tiles->push_back(&tiles_in[k]),
            names->push_back(k < names_in.size() ? names_in[k] : "tile " + std::to_string(k));
}

// Tiles of one world: same mesh, options, tile size, margin and origin; no tile twice.
Error checkOneWorld(const Tiles& tiles, const std::vector<std::string>& names) {
    const Roadmap& first = *tiles[0];
    for (size_t t = 0; t < tiles.size(); ++t) {
        const Roadmap& r = *tiles[t];
        if (!(r.tile.size > 0))
            return {ErrorCode::InvalidOption, names[t] + ": not a tile (baked without --tile-size)"};
        auto differs = [&](const std::string& what) {
            return Error{ErrorCode::InvalidOption,
                         names[t] + ": " + what + " differs from " + names[0] +
                             "'s: tiles of one world need the same mesh, options, tile size and margin"};
        };
        if (r.footprint.input_hash != first.footprint.input_hash) return differs("the input mesh");
        if (r.options_hash != first.options_hash) return differs("the bake options");
        if (r.tile.size != first.tile.size) return differs("the tile size (" + num(r.tile.size) + ")");
        if (r.tile.margin != first.tile.margin)
            return differs("the tile margin (" + num(r.tile.margin) + ")");
        if (r.footprint.origin.x != first.footprint.origin.x ||
            r.footprint.origin.y != first.footprint.origin.y ||
            r.footprint.origin.z != first.footprint.origin.z)
            return differs("the world origin");
        if (t > 0 && r.tile.i == tiles[t - 1]->tile.i && r.tile.j == tiles[t - 1]->tile.j)
            return {ErrorCode::InvalidOption, names[t] + ": tile " + std::to_string(r.tile.i) + "," +
                                                  std::to_string(r.tile.j) + " is given twice (also " +
                                                  names[t - 1] + ")"};
    }
    return {};
}

// The border lines of every tile's core.
CutLines tileLines(const Tiles& tiles, const ImportOptions& io, double q) {
    CutLines lines;
    for (const Roadmap* r : tiles) {
        const Rect core = tileCore(io, r->tile.size, r->tile.i, r->tile.j, r->footprint.origin, q);
        lines.x.insert(lines.x.end(), {core.x0, core.x1});
        lines.y.insert(lines.y.end(), {core.y0, core.y1});
    }
    for (auto* v : {&lines.x, &lines.y}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    return lines;
}

// Nodes: every polygon of every tile layer. Polygons whose border edges meet from opposite
// sides at one height are one piece of floor.
struct Node {
    uint32_t tile, layer, polygon;
};

UnionFind floorPieces(const Tiles& tiles, const std::vector<Node>& nodes, const CutLines& lines,
                      double tolerance) {
    UnionFind pieces(nodes.size());
    struct BorderEdge {
        double lo, hi, height;
        int sign;
        uint32_t node;
    };
    std::map<std::pair<int, double>, std::vector<BorderEdge>> on_line;
    for (uint32_t n = 0; n < nodes.size(); ++n) {
        const Roadmap& r = *tiles[nodes[n].tile];
        const FootprintLayer& layer = r.footprint.layers[nodes[n].layer];
        const Ring& ring = layer.polygons[nodes[n].polygon].outer;
        std::unique_ptr<SurfaceIndex> surface;
        for (size_t i = 0; i < ring.size(); ++i) {
            const Vec2 a = ring[i], b = ring[(i + 1) % ring.size()];
            if (!lines.touches(a, b)) continue;
            if (!surface) surface = std::make_unique<SurfaceIndex>(layer);
            const double h = surface->heightAt({(a.x + b.x) / 2, (a.y + b.y) / 2});
            if (a.x == b.x)
                on_line[{0, a.x}].push_back(
                    {std::min(a.y, b.y), std::max(a.y, b.y), h, b.y > a.y ? 1 : -1, n});
            else
                on_line[{1, a.y}].push_back(
                    {std::min(a.x, b.x), std::max(a.x, b.x), h, b.x > a.x ? 1 : -1, n});
        }
    }
    for (auto& [line, edges] : on_line) {
        std::sort(edges.begin(), edges.end(),
                  [](const BorderEdge& x, const BorderEdge& y) { return x.lo < y.lo; });
        for (size_t a = 0; a < edges.size(); ++a)
            for (size_t b = a + 1; b < edges.size() && edges[b].lo < edges[a].hi; ++b)
                if (edges[a].sign != edges[b].sign && std::min(edges[a].hi, edges[b].hi) > edges[b].lo &&
                    std::abs(edges[a].height - edges[b].height) <= tolerance)
                    pieces.join(edges[a].node, edges[b].node);
    }
    return pieces;
}

// The world layer of every tile polygon, and which tile layers each world layer holds.
struct WorldLayers {
    explicit WorldLayers(const Tiles& t) : tiles(t) {}
    const Tiles& tiles;
    std::vector<Node> nodes;
    std::vector<std::vector<uint32_t>> first_node; // per tile, per layer: first node
    std::vector<uint32_t> node_layer;
    std::vector<std::map<uint32_t, uint32_t>> layer_tiles; // world layer: tile -> tile layer
    std::vector<std::vector<uint32_t>> single_layer;       // UINT32_MAX: the polygons differ

    uint32_t count() const { return uint32_t(layer_tiles.size()); }

    // Which world layer a point of a tile layer is on: the only one, or the polygon holding it.
    uint32_t at(uint32_t t, uint32_t l, Vec2 p) const {
        if (l >= single_layer[t].size()) return UINT32_MAX;
        const uint32_t n0 = first_node[t][l];
        const size_t count = tiles[t]->footprint.layers[l].polygons.size();
        if (count == 0) return UINT32_MAX;
        if (single_layer[t][l] != UINT32_MAX) return single_layer[t][l];
        double best = INFINITY;
        uint32_t chosen = node_layer[n0];
        for (size_t k = 0; k < count; ++k) {
            const Ring& ring = tiles[t]->footprint.layers[l].polygons[k].outer;
            bool boundary = false;
            if (insideRing(ring, p, &boundary)) return node_layer[n0 + k];
            for (size_t i = 0; i < ring.size(); ++i) {
                const double d = pointSegmentDistance(p, ring[i], ring[(i + 1) % ring.size()]);
                if (d < best) best = d, chosen = node_layer[n0 + k];
            }
        }
        return chosen;
    }
};

// World layers: first fit of the pieces; a layer never takes two layers of one tile (they may
// overlap), and tiles never overlap each other.
void assignWorldLayers(UnionFind& pieces, WorldLayers* w) {
    const std::vector<Node>& nodes = w->nodes;
    std::vector<std::map<uint32_t, uint32_t>>& layer_tiles = w->layer_tiles;
    w->node_layer.assign(nodes.size(), UINT32_MAX);
    std::map<uint32_t, std::vector<uint32_t>> groups;
    for (uint32_t n = 0; n < nodes.size(); ++n)
        groups[pieces.find(n)].push_back(n);
    for (const auto& [root, members] : groups) {
        uint32_t chosen = UINT32_MAX;
        for (uint32_t l = 0; l < layer_tiles.size() && chosen == UINT32_MAX; ++l) {
            bool fits = true;
            for (uint32_t n : members) {
                const auto it = layer_tiles[l].find(nodes[n].tile);
                if (it != layer_tiles[l].end() && it->second != nodes[n].layer) fits = false;
            }
            // Members of one group may hold two layers of one tile (a ramp folding back): fine.
            if (fits) chosen = l;
        }
        if (chosen == UINT32_MAX) chosen = uint32_t(layer_tiles.size()), layer_tiles.emplace_back();
        for (uint32_t n : members) {
            w->node_layer[n] = chosen;
            layer_tiles[chosen].emplace(nodes[n].tile, nodes[n].layer);
        }
    }
}

WorldLayers worldLayers(const Tiles& tiles, const CutLines& lines, double height_tolerance) {
    WorldLayers w(tiles);
    w.first_node.resize(tiles.size());
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (uint32_t l = 0; l < tiles[t]->footprint.layers.size(); ++l) {
            w.first_node[t].push_back(uint32_t(w.nodes.size()));
            for (uint32_t p = 0; p < tiles[t]->footprint.layers[l].polygons.size(); ++p)
                w.nodes.push_back({t, l, p});
        }
    UnionFind pieces = floorPieces(tiles, w.nodes, lines, height_tolerance);
    assignWorldLayers(pieces, &w);
    w.single_layer.resize(tiles.size());
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (uint32_t l = 0; l < tiles[t]->footprint.layers.size(); ++l) {
            const uint32_t n0 = w.first_node[t][l];
            const size_t count = tiles[t]->footprint.layers[l].polygons.size();
            uint32_t single = count ? w.node_layer[n0] : UINT32_MAX;
            for (size_t k = 1; k < count; ++k)
                if (w.node_layer[n0 + k] != w.node_layer[n0]) single = UINT32_MAX;
            w.single_layer[t].push_back(single);
        }
    return w;
}

// The world footprint: each world layer's polygons netted across the tile lines with the surface
// triangles of its tile layers, and the connections between world layers.
Footprint stitchFootprint(const Roadmap& first, const WorldLayers& w, const CutLines& lines, double q) {
    const Tiles& tiles = w.tiles;
    Footprint fp;
    fp.options = first.footprint.options;
    fp.origin = first.footprint.origin;
    fp.grid_spacing = q;
    fp.source_name = first.footprint.source_name;
    fp.input_hash = first.footprint.input_hash;
    fp.options_hash = first.footprint.options_hash;
    fp.layers.resize(w.count());
    std::vector<std::vector<PolygonWithHoles>> soup(w.count());
    for (uint32_t n = 0; n < w.nodes.size(); ++n)
        soup[w.node_layer[n]].push_back(
            tiles[w.nodes[n].tile]->footprint.layers[w.nodes[n].layer].polygons[w.nodes[n].polygon]);
    for (uint32_t l = 0; l < w.count(); ++l) {
        FootprintLayer& layer = fp.layers[l];
        layer.polygons = rebuildPolygons(std::move(soup[l]), lines);
        for (const auto& [t, tl] : w.layer_tiles[l]) {
            const FootprintLayer& src = tiles[t]->footprint.layers[tl];
            const uint32_t base = uint32_t(layer.surface_vertices.size());
            layer.surface_vertices.insert(layer.surface_vertices.end(), src.surface_vertices.begin(),
                                          src.surface_vertices.end());
            for (const SurfaceTriangle& tri : src.surface_triangles) {
                const Vec3 &a = src.surface_vertices[tri.a], &b = src.surface_vertices[tri.b],
                           &c = src.surface_vertices[tri.c];
                if (w.at(t, tl, {(a.x + b.x + c.x) / 3, (a.y + b.y + c.y) / 3}) != l) continue;
                layer.surface_triangles.push_back({base + tri.a, base + tri.b, base + tri.c});
            }
        }
        layerStats(layer);
    }
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (const Connection& c : tiles[t]->footprint.connections) {
            const Vec2 m{(c.p0.x + c.p1.x) / 2, (c.p0.y + c.p1.y) / 2};
            Connection k = c;
            k.layer_a = w.at(t, c.layer_a, m), k.layer_b = w.at(t, c.layer_b, m);
            if (k.layer_a == UINT32_MAX || k.layer_b == UINT32_MAX || k.layer_a == k.layer_b) continue;
            fp.connections.push_back(k);
        }
    return fp;
}

// Every tile's roadmap vertices, on their world layers.
struct TileVertices {
    std::vector<uint32_t> base; // per tile: its first vertex
    std::vector<RoadmapVertex> vertices;
    std::vector<uint32_t> tile;
    std::vector<bool> is_border;
};

TileVertices tileVertices(const WorldLayers& w) {
    TileVertices out;
    for (uint32_t t = 0; t < w.tiles.size(); ++t) {
        out.base.push_back(uint32_t(out.vertices.size()));
        for (const RoadmapVertex& v : w.tiles[t]->vertices) {
            RoadmapVertex x = v;
            x.layer = w.at(t, v.layer, xy(v.position));
            if (x.layer == UINT32_MAX) x.layer = 0;
            out.vertices.push_back(x);
            out.tile.push_back(t);
            out.is_border.push_back(false);
        }
        for (uint32_t v : w.tiles[t]->tile.border_vertices)
            out.is_border[out.base[t] + v] = true;
    }
    return out;
}

// Border vertices of different tiles within eps on one world layer at one height are one vertex.
UnionFind weldBorderVertices(const TileVertices& tv, double eps, double height_tolerance,
                             StitchStats* stats) {
    const std::vector<RoadmapVertex>& vertices = tv.vertices;
    UnionFind weld(vertices.size());
    std::unordered_map<std::pair<double, double>, std::vector<uint32_t>, PairHash> cells;
    for (uint32_t v = 0; v < vertices.size(); ++v) {
        if (!tv.is_border[v]) continue;
        const double cx = std::floor(vertices[v].position.x / eps),
                     cy = std::floor(vertices[v].position.y / eps);
        for (double dx = -1; dx <= 1; ++dx)
            for (double dy = -1; dy <= 1; ++dy) {
                const auto it = cells.find({cx + dx, cy + dy});
                if (it == cells.end()) continue;
                for (uint32_t u : it->second)
                    if (tv.tile[u] != tv.tile[v] && vertices[u].layer == vertices[v].layer &&
                        dist(xy(vertices[u].position), xy(vertices[v].position)) <= eps &&
                        std::abs(vertices[u].position.z - vertices[v].position.z) <= height_tolerance)
                        weld.join(u, v);
            }
        cells[{cx, cy}].push_back(v);
    }
    std::vector<uint32_t> set_size(vertices.size(), 0);
    for (uint32_t v = 0; v < vertices.size(); ++v)
        if (tv.is_border[v]) ++set_size[weld.find(v)];
    for (uint32_t v = 0; v < vertices.size(); ++v)
        if (tv.is_border[v]) (set_size[weld.find(v)] > 1 ? stats->welded : stats->unmatched) += 1;
    return weld;
}

// One world vertex per welded set (the smallest clearance of its members) and every tile edge
// between them.
void addWeldedGraph(const Tiles& tiles, const TileVertices& tv, UnionFind& weld, Roadmap* world) {
    std::vector<uint32_t> index(tv.vertices.size(), UINT32_MAX);
    for (uint32_t v = 0; v < tv.vertices.size(); ++v) {
        const uint32_t r = weld.find(v);
        if (r == v) {
            index[v] = uint32_t(world->vertices.size());
            world->vertices.push_back(tv.vertices[v]);
        } else {
            RoadmapVertex& rep = world->vertices[index[r]];
            rep.clearance = std::min(rep.clearance, tv.vertices[v].clearance);
        }
    }
    std::set<std::tuple<uint32_t, uint32_t, std::vector<std::pair<double, double>>>> seen;
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (const RoadmapEdge& e : tiles[t]->edges) {
            RoadmapEdge x = e;
            x.a = index[weld.find(tv.base[t] + e.a)];
            x.b = index[weld.find(tv.base[t] + e.b)];
            x.points.front() = xy(world->vertices[x.a].position);
            x.points.back() = xy(world->vertices[x.b].position);
            // An end the weld moved is no longer where its sides were measured.
            auto moved = [](Vec2 p, Vec2 q) { return p.x != q.x || p.y != q.y; };
            if (moved(x.points.front(), e.points.front()) || moved(x.points.back(), e.points.back())) {
                x.corridor = EdgeCorridor::Unchecked;
                x.chain.clear();
            }
            // A piece both tiles kept (it lies on their common border): once.
            std::vector<std::pair<double, double>> key;
            for (Vec2 p : x.points)
                key.push_back({p.x, p.y});
            if (x.b < x.a) std::reverse(key.begin(), key.end());
            if (!seen.insert({std::min(x.a, x.b), std::max(x.a, x.b), key}).second) continue;
            world->edges.push_back(std::move(x));
        }
}

void countWorld(const Tiles& tiles, const Roadmap& world, StitchStats* stats) {
    for (const Roadmap* r : tiles)
        stats->margin_reached += r->tile.margin_reached;
    stats->tiles = tiles.size();
    stats->layers = world.footprint.layers.size();
    for (const FootprintLayer& layer : world.footprint.layers)
        for (const PolygonWithHoles& p : layer.polygons) {
            stats->walls += p.outer.size();
            for (const Ring& h : p.holes)
                stats->walls += h.size();
        }
    stats->vertices = world.vertices.size();
    stats->edges = world.edges.size();
    for (const Blend& b : world.blends)
        stats->blends += b.radius > 0;
}

} // namespace

Error stitchTiles(const std::vector<Roadmap>& tiles_in, const std::vector<std::string>& names_in,
                  const StitchOptions& options, Roadmap* out, StitchStats* stats_out, LogContext& log) {
    if (tiles_in.empty()) return {ErrorCode::InvalidOption, "cw-stitch: no tiles given"};
    if (!(options.weld_epsilon > 0)) return {ErrorCode::InvalidOption, "--weld-epsilon must be > 0 metres"};
    Tiles tiles;
    std::vector<std::string> names;
    orderTiles(tiles_in, names_in, &tiles, &names);
    if (Error e = checkOneWorld(tiles, names)) return e;
    const Roadmap& first = *tiles[0];
    const ImportOptions& io = first.footprint.options;
    double q = 0;
    for (const Roadmap* r : tiles)
        q = std::max(q, r->footprint.grid_spacing);
    const CutLines lines = tileLines(tiles, io, q);
    const double height_tolerance = std::max(io.max_step, 0.05);
    const WorldLayers layers = worldLayers(tiles, lines, height_tolerance);

    Roadmap world;
    world.footprint = stitchFootprint(first, layers, lines, q);
    // Roadmap: every tile's vertices and edges, border vertices welded to their neighbours'.
    StitchStats stats;
    const TileVertices vertices = tileVertices(layers);
    UnionFind weld = weldBorderVertices(vertices, options.weld_epsilon, height_tolerance, &stats);
    addWeldedGraph(tiles, vertices, weld, &world);
    // Unwelded border vertices at the world's edge stay degree-1 leaves; nothing else to pin.
    world.options = first.options;
    world.options_hash = first.options_hash;
    finishRoadmapGraph(world);
    countWorld(tiles, world, &stats);
    log.log(LogLevel::Debug, "stitched " + std::to_string(stats.tiles) +
                                 " tiles: " + std::to_string(stats.welded) + " border vertices welded, " +
                                 std::to_string(stats.unmatched) + " unmatched");
    *out = std::move(world);
    if (stats_out) *stats_out = stats;
    return {};
}

} // namespace clearway::bake
