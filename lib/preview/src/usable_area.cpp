// The usable area of a level for an agent of one radius: each layer's walkable footprint minus the
// points closer than the radius to its solid walls (connections are open), sampled on a raster,
// and its connected parts (flood fill: 4-neighbours in a layer, across layers through the connections).
#include "inspect_internal.h"

#include <algorithm>
#include <cmath>

namespace clearway::bake::inspect {

namespace {

struct Segment {
    double ax, ay, bx, by;
};

double distanceSquared(double px, double py, const Segment& s) {
    const double dx = s.bx - s.ax, dy = s.by - s.ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - s.ax) * dx + (py - s.ay) * dy) / len2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    const double ex = s.ax + t * dx - px, ey = s.ay + t * dy - py;
    return ex * ex + ey * ey;
}

// The pieces of a ring edge that are walls: the edge minus the parts lying on one of the layer's
// connections (a portal is walked through; a connection may cover only part of an edge).
void addSolidPieces(const Segment& e, const std::vector<Segment>& portals, std::vector<Segment>* walls) {
    constexpr double kTolerance = 1e-3; // metres: ring vertices and portal ends are floats
    const double dx = e.bx - e.ax, dy = e.by - e.ay, len2 = dx * dx + dy * dy;
    if (!(len2 > 0)) return;
    std::vector<std::pair<double, double>> covered; // parameter intervals along the edge
    for (const Segment& p : portals) {
        const double len = std::sqrt(len2);
        const double off0 = std::abs((p.ax - e.ax) * dy - (p.ay - e.ay) * dx) / len;
        const double off1 = std::abs((p.bx - e.ax) * dy - (p.by - e.ay) * dx) / len;
        if (off0 > kTolerance || off1 > kTolerance) continue;
        const double t0 = ((p.ax - e.ax) * dx + (p.ay - e.ay) * dy) / len2;
        const double t1 = ((p.bx - e.ax) * dx + (p.by - e.ay) * dy) / len2;
        const double slack = kTolerance / len;
        covered.push_back({std::min(t0, t1) - slack, std::max(t0, t1) + slack});
    }
    std::sort(covered.begin(), covered.end());
    double from = 0;
    for (const auto& [t0, t1] : covered) {
        if (t0 > from)
            walls->push_back({e.ax + from * dx, e.ay + from * dy, e.ax + std::min(t0, 1.0) * dx,
                              e.ay + std::min(t0, 1.0) * dy});
        from = std::max(from, t1);
        if (from >= 1) return;
    }
    walls->push_back({e.ax + from * dx, e.ay + from * dy, e.bx, e.by});
}

struct LayerEdges {
    std::vector<Segment> edges;
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
};

LayerEdges layerEdges(const FootprintView& fp, uint32_t l) {
    FootprintLayerInfo layer{};
    footprintLayer(fp, l, &layer);
    LayerEdges out;
    for (uint32_t r = 0; r < layer.ring_count; ++r) {
        const Vec2f* ring = nullptr;
        uint32_t n = 0;
        footprintRing(fp, l, r, &ring, &n);
        for (uint32_t i = 0; i < n; ++i) {
            const Vec2f a = ring[i], b = ring[(i + 1) % n];
            out.edges.push_back({a.x, a.y, b.x, b.y});
            out.lo_x = std::min(out.lo_x, double(a.x)), out.hi_x = std::max(out.hi_x, double(a.x));
            out.lo_y = std::min(out.lo_y, double(a.y)), out.hi_y = std::max(out.hi_y, double(a.y));
        }
    }
    return out;
}

// Cells whose centre lies inside the layer (even-odd over every ring, one scanline per row).
void fillInside(const std::vector<Segment>& edges, UsableGrid* g) {
    std::vector<double> crossings;
    for (uint32_t j = 0; j < g->ny; ++j) {
        const double y = g->y0 + (j + 0.5) * g->cell;
        crossings.clear();
        for (const Segment& e : edges)
            if ((e.ay <= y) != (e.by <= y))
                crossings.push_back(e.ax + (y - e.ay) * (e.bx - e.ax) / (e.by - e.ay));
        std::sort(crossings.begin(), crossings.end());
        for (size_t k = 0; k + 1 < crossings.size(); k += 2) {
            const double i0 = std::ceil((crossings[k] - g->x0) / g->cell - 0.5);
            const double i1 = std::floor((crossings[k + 1] - g->x0) / g->cell - 0.5);
            for (int64_t i = std::max<int64_t>(0, int64_t(i0));
                 i <= std::min<int64_t>(g->nx - 1, int64_t(i1)); ++i)
                g->state[size_t(j) * g->nx + size_t(i)] = UsableGrid::Usable;
        }
    }
}

// Clears the cells whose centre lies closer than `radius` to the wall segment.
void erodeAround(const Segment& w, double radius, UsableGrid* g) {
    const double h = g->cell;
    auto index = [&](double v, double origin, uint32_t n, auto rounding) {
        return std::clamp<int64_t>(int64_t(rounding((v - origin) / h - 0.5)), 0, int64_t(n) - 1);
    };
    const auto floor_ = [](double v) { return std::floor(v); };
    const auto ceil_ = [](double v) { return std::ceil(v); };
    const int64_t i0 = index(std::min(w.ax, w.bx) - radius, g->x0, g->nx, ceil_);
    const int64_t i1 = index(std::max(w.ax, w.bx) + radius, g->x0, g->nx, floor_);
    const int64_t j0 = index(std::min(w.ay, w.by) - radius, g->y0, g->ny, ceil_);
    const int64_t j1 = index(std::max(w.ay, w.by) + radius, g->y0, g->ny, floor_);
    for (int64_t j = j0; j <= j1; ++j)
        for (int64_t i = i0; i <= i1; ++i) {
            uint8_t& cell = g->state[size_t(j) * g->nx + size_t(i)];
            if (cell && distanceSquared(g->x0 + (i + 0.5) * h, g->y0 + (j + 0.5) * h, w) < radius * radius)
                cell = UsableGrid::Outside;
        }
}

// Cells of every layer in one index space.
struct CellIndex {
    std::vector<size_t> offset; // first index of each layer, then the total
    explicit CellIndex(const UsableMap& map) {
        offset.push_back(0);
        for (const UsableGrid& g : map.layers)
            offset.push_back(offset.back() + g.state.size());
    }
    uint32_t layerOf(size_t cell) const {
        return uint32_t(std::upper_bound(offset.begin(), offset.end(), cell) - offset.begin() - 1);
    }
};

using Links = std::vector<std::pair<uint32_t, uint32_t>>; // cell pairs, both ways, sorted

// Usable cells of both layers within 1.5 cells of a point on a connection are linked.
Links connectionLinks(const FootprintView& fp, uint32_t connections, const UsableMap& map,
                      const CellIndex& index) {
    Links links;
    std::vector<uint32_t> near;
    for (uint32_t c = 0; c < connections; ++c) {
        FootprintConnection con{};
        footprintConnection(fp, c, &con);
        const double len = std::hypot(double(con.p1.x) - con.p0.x, double(con.p1.y) - con.p0.y);
        const int steps = std::max(1, int(std::ceil(len / (0.5 * map.cell))));
        for (int k = 0; k <= steps; ++k) {
            const double t = double(k) / steps;
            const double qx = con.p0.x + t * (double(con.p1.x) - con.p0.x);
            const double qy = con.p0.y + t * (double(con.p1.y) - con.p0.y);
            near.clear();
            for (const uint32_t l : {con.layer_a, con.layer_b}) {
                if (l >= map.layers.size()) continue;
                const UsableGrid& g = map.layers[l];
                const int64_t ci = int64_t(std::floor((qx - g.x0) / g.cell)),
                              cj = int64_t(std::floor((qy - g.y0) / g.cell));
                for (int64_t j = cj - 2; j <= cj + 2; ++j)
                    for (int64_t i = ci - 2; i <= ci + 2; ++i) {
                        if (i < 0 || j < 0 || i >= int64_t(g.nx) || j >= int64_t(g.ny)) continue;
                        const size_t cell = size_t(j) * g.nx + size_t(i);
                        const double dx = g.x0 + (i + 0.5) * g.cell - qx, dy = g.y0 + (j + 0.5) * g.cell - qy;
                        if (g.state[cell] && dx * dx + dy * dy <= 2.25 * g.cell * g.cell)
                            near.push_back(uint32_t(index.offset[l] + cell));
                    }
            }
            for (size_t n = 1; n < near.size(); ++n)
                links.push_back({near[0], near[n]}), links.push_back({near[n], near[0]});
        }
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    return links;
}

constexpr uint32_t kNoPart = UINT32_MAX;

// Each usable cell's connected part (flood fill over 4-neighbours in a layer and the links);
// parts are numbered in the order of their first cell.
std::vector<uint32_t> labelParts(const UsableMap& map, const CellIndex& index, const Links& links,
                                 uint32_t* count) {
    std::vector<uint32_t> label(index.offset.back(), kNoPart), stack;
    uint32_t parts = 0;
    auto usable = [&](size_t cell) {
        const uint32_t l = index.layerOf(cell);
        return map.layers[l].state[cell - index.offset[l]] != UsableGrid::Outside;
    };
    auto visit = [&](size_t cell) {
        if (label[cell] != kNoPart || !usable(cell)) return;
        label[cell] = parts;
        stack.push_back(uint32_t(cell));
    };
    for (size_t first = 0; first < label.size(); ++first) {
        if (label[first] != kNoPart || !usable(first)) continue;
        visit(first);
        while (!stack.empty()) {
            const uint32_t cell = stack.back();
            stack.pop_back();
            const uint32_t l = index.layerOf(cell);
            const UsableGrid& g = map.layers[l];
            const size_t local = cell - index.offset[l], i = local % g.nx, j = local / g.nx;
            if (i > 0) visit(cell - 1);
            if (i + 1 < g.nx) visit(cell + 1);
            if (j > 0) visit(cell - g.nx);
            if (j + 1 < g.ny) visit(cell + g.nx);
            for (auto it = std::lower_bound(links.begin(), links.end(), std::make_pair(cell, 0u));
                 it != links.end() && it->first == cell; ++it)
                visit(it->second);
        }
        ++parts;
    }
    *count = parts;
    return label;
}

struct Part {
    uint64_t cells = 0;
    std::vector<std::pair<uint32_t, uint64_t>> layer_cells; // (layer, cells)
    uint32_t main_layer = 0;                                // the layer holding most of it
};

std::vector<Part> partsOf(const CellIndex& index, const std::vector<uint32_t>& label, uint32_t count) {
    std::vector<Part> parts(count);
    for (size_t cell = 0; cell < label.size(); ++cell) {
        if (label[cell] == kNoPart) continue;
        Part& p = parts[label[cell]];
        const uint32_t l = index.layerOf(cell);
        ++p.cells;
        if (p.layer_cells.empty() || p.layer_cells.back().first != l) p.layer_cells.push_back({l, 0});
        ++p.layer_cells.back().second;
    }
    for (Part& p : parts)
        p.main_layer = std::max_element(p.layer_cells.begin(), p.layer_cells.end(), [](auto& a, auto& b) {
                           return a.second < b.second;
                       })->first;
    return parts;
}

// The part's cell nearest to its centroid on the layer: a usable point inside it.
Vec2 representativePoint(const UsableGrid& g, const uint32_t* layer_label, uint32_t part) {
    double sx = 0, sy = 0, n = 0;
    for (int pass = 0; pass < 2; ++pass) {
        double best = INFINITY;
        Vec2 at;
        for (uint32_t j = 0; j < g.ny; ++j)
            for (uint32_t i = 0; i < g.nx; ++i) {
                if (layer_label[size_t(j) * g.nx + i] != part) continue;
                const double x = g.x0 + (i + 0.5) * g.cell, y = g.y0 + (j + 0.5) * g.cell;
                if (pass == 0) {
                    sx += x, sy += y, n += 1;
                } else if (const double d = (x - sx / n) * (x - sx / n) + (y - sy / n) * (y - sy / n);
                           d < best) {
                    best = d, at = {x, y};
                }
            }
        if (pass == 1) return at;
    }
    return {};
}

// The largest part, the islands (the other parts of at least 8 cells and kMinIslandArea) and the
// grids' island cells marked.
void findIslands(const FootprintView& fp, uint32_t connections, UsableMap* map, UsableArea* out) {
    const CellIndex index(*map);
    uint32_t count = 0;
    const std::vector<uint32_t> label =
        labelParts(*map, index, connectionLinks(fp, connections, *map, index), &count);
    const std::vector<Part> parts = partsOf(index, label, count);
    if (parts.empty()) return;
    const double cell_area = map->cell * map->cell;
    const uint32_t largest =
        uint32_t(std::max_element(parts.begin(), parts.end(),
                                  [](const Part& a, const Part& b) { return a.cells < b.cells; }) -
                 parts.begin());
    const uint64_t min_cells = uint64_t(std::ceil(std::max(8.0, kMinIslandArea / cell_area)));
    FootprintInfo info{};
    footprintInfo(fp, &info);
    auto describe = [&](uint32_t part) {
        const Part& p = parts[part];
        UsablePart out;
        out.layer = p.main_layer;
        out.area = double(p.cells) * cell_area;
        const Vec2 at =
            representativePoint(map->layers[p.main_layer], label.data() + index.offset[p.main_layer], part);
        float z = 0;
        footprintHeightAt(fp, p.main_layer, float(at.x), float(at.y), 1.0f, &z);
        out.point = {at.x, at.y, double(z)};
        const Vec3d w = footprintLocalToWorld(info, {at.x, at.y, double(z)});
        out.world = {w.x, w.y, w.z};
        return out;
    };
    out->reachable = describe(largest);
    std::vector<bool> island(count, false);
    for (uint32_t part = 0; part < count; ++part)
        if (part != largest && parts[part].cells >= min_cells) {
            island[part] = true;
            out->islands.push_back(describe(part));
        }
    std::stable_sort(out->islands.begin(), out->islands.end(),
                     [](const UsablePart& a, const UsablePart& b) { return a.area > b.area; });
    for (uint32_t l = 0; l < map->layers.size(); ++l) {
        UsableGrid& g = map->layers[l];
        for (size_t c = 0; c < g.state.size(); ++c)
            if (g.state[c] && island[label[index.offset[l] + c]]) g.state[c] = UsableGrid::Island;
    }
}

// Raster spacing: a quarter of the radius (so 4-neighbours never step over a wall: two centres
// both `radius` from every wall and a cell apart have no wall between them), at most 1/500 of the
// level's longest side, unless `asked` (> 0) gives it; at least what keeps the level's layers
// under kMaxCells cells.
double cellFor(const std::vector<LayerEdges>& layers, double radius, double asked) {
    constexpr double kMaxCells = 8e6;
    double longest = 0, boxes = 0;
    for (const LayerEdges& e : layers) {
        if (!(e.lo_x <= e.hi_x)) continue;
        const double w = e.hi_x - e.lo_x, h = e.hi_y - e.lo_y;
        longest = std::max({longest, w, h});
        boxes += w * h;
    }
    double cell = asked > 0 ? asked : longest / 500;
    if (radius > 0 && !(asked > 0)) cell = std::min(cell, radius / 4);
    return std::max({cell, std::sqrt(boxes / kMaxCells), 1e-4});
}

} // namespace

double defaultPreviewRadius(const InspectSummary& s, std::string* source) {
    if (s.kind == AssetKind::Roadmap && s.roadmap_options.min_clearance > 0) {
        *source = "the roadmap's min clearance";
        return s.roadmap_options.min_clearance;
    }
    *source = "default: the asset stores no agent radius";
    return kDefaultPreviewRadius;
}

UsableArea usableArea(const FootprintView& fp, double radius, double cell, UsableMap* map) {
    FootprintInfo info{};
    footprintInfo(fp, &info);
    std::vector<LayerEdges> layers;
    for (uint32_t l = 0; l < info.layer_count; ++l)
        layers.push_back(layerEdges(fp, l));
    UsableArea out;
    out.radius = radius;
    out.cell = map->cell = cellFor(layers, radius, cell);
    map->layers.assign(info.layer_count, UsableGrid{});
    for (uint32_t l = 0; l < info.layer_count; ++l) {
        const LayerEdges& e = layers[l];
        UsableGrid& g = map->layers[l];
        g.cell = map->cell;
        if (e.edges.empty()) continue;
        g.x0 = e.lo_x, g.y0 = e.lo_y;
        g.nx = uint32_t(std::max(1.0, std::ceil((e.hi_x - e.lo_x) / g.cell)));
        g.ny = uint32_t(std::max(1.0, std::ceil((e.hi_y - e.lo_y) / g.cell)));
        g.state.assign(size_t(g.nx) * g.ny, UsableGrid::Outside);
        fillInside(e.edges, &g);
        std::vector<Segment> portals;
        for (uint32_t c = 0; c < info.connection_count; ++c) {
            FootprintConnection con{};
            footprintConnection(fp, c, &con);
            if (con.layer_a == l || con.layer_b == l)
                portals.push_back({con.p0.x, con.p0.y, con.p1.x, con.p1.y});
        }
        std::vector<Segment> walls;
        for (const Segment& edge : e.edges)
            addSolidPieces(edge, portals, &walls);
        if (radius > 0)
            for (const Segment& w : walls)
                erodeAround(w, radius, &g);
    }
    for (const UsableGrid& g : map->layers) {
        const double cells = double(std::count(g.state.begin(), g.state.end(), UsableGrid::Usable));
        out.layer_area.push_back(cells * (map->cell * map->cell));
        out.area += out.layer_area.back();
    }
    findIslands(fp, info.connection_count, map, &out);
    return out;
}

} // namespace clearway::bake::inspect
