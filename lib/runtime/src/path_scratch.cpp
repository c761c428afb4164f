// The path data: the asset-derived part shared by every thread (PathShared: pathSharedInit's
// copies of the roadmap — adjacency, blends, edge snap data, the wall grid — and the A* landmarks
// (ALT) computed there) and each thread's query state (PathScratch), with their layouts.
#include "path_internal.h"

#include <cstring>
#include <new>

namespace clearway {

namespace {

using namespace ::clearway::detail;
using Corner = detail::PathCorner;

// Landmarks by farthest points, per connected component of the whole graph: slot l of every
// vertex holds its cost from its own component's l-th landmark, so start, goal and every vertex
// A* reaches read the same landmark (a search never leaves its component). The first landmark is
// the vertex farthest from the component's first vertex; each next one the vertex farthest from
// its nearest landmark so far. One multi-source Dijkstra over every edge per slot, with A*'s own
// costs, on the search state of `s` (a work area: nodes, heap) and `order` (vertex_count entries).
void computeLandmarks(PathShared* shared, PathScratch* s, uint32_t* order) {
    const uint32_t nv = shared->vertex_count;
    shared->landmark_count = 0;
    if (nv == 0) return;
    // Vertices in breadth-first order per component, its first entry flagged. kPick marks the
    // vertex chosen as its component's next landmark until the next Dijkstra takes it.
    constexpr uint32_t kFirst = 0x80000000u, kPick = 0x40000000u, kVertex = 0x3fffffffu;
    if (nv > kVertex) { // no room for the flags: A* keeps the straight-line heuristic alone
        for (size_t i = 0; i < size_t(nv) * kLandmarks; ++i)
            shared->landmark_dist[i] = kInf;
        for (uint32_t v = 0; v < nv; ++v)
            shared->vertex_component[v] = 0;
        return;
    }
    // The adjacency the search walks, and the tables it fills.
    const uint32_t* adj_start = shared->adj_start;
    const AdjEntry* adj = shared->adj;
    double* landmark_dist = shared->landmark_dist;
    s->generation = 0;
    for (uint32_t v = 0; v < nv; ++v)
        s->nodes[v].stamp = 0;
    if (++s->generation == 0) s->generation = 1;
    uint32_t n = 0, components = 0;
    for (uint32_t root = 0; root < nv; ++root) {
        if (s->nodes[root].stamp == s->generation) continue;
        s->nodes[root].stamp = s->generation;
        const uint32_t component = components++;
        shared->vertex_component[root] = component;
        order[n++] = root | kFirst;
        for (uint32_t head = n - 1; head < n; ++head) {
            const uint32_t u = order[head] & kVertex;
            for (uint32_t k = adj_start[u], end = adj_start[u + 1]; k < end; ++k)
                if (s->nodes[adj[k].other].stamp != s->generation) {
                    s->nodes[adj[k].other].stamp = s->generation;
                    shared->vertex_component[adj[k].other] = component;
                    order[n++] = adj[k].other;
                }
        }
    }
    auto zero = [](uint32_t) { return 0.0; };
    // Costs from every vertex flagged `flag` into nodes[].g (stamped with the generation).
    auto dijkstra = [&](uint32_t flag) {
        if (++s->generation == 0) s->generation = 1;
        s->heap_size = 0;
        for (uint32_t i = 0; i < nv; ++i)
            if (order[i] & flag) relax(s, order[i] & kVertex, 0.0, zero, kStartForward);
        while (s->heap_size > 0) {
            const uint32_t v = heapPop(s);
            const double gv = s->nodes[v].g;
            for (uint32_t k = adj_start[v], end = adj_start[v + 1]; k < end; ++k)
                relax(s, adj[k].other, gv + adj[k].cost, zero, adj[k].edge);
        }
        for (uint32_t i = 0; i < nv; ++i)
            order[i] &= ~kPick;
    };
    // Flags the vertex of largest `far(v)` in each component (the first in order on ties).
    auto pickFarthest = [&](auto far) {
        uint32_t best = 0;
        double best_far = -1.0;
        for (uint32_t i = 0; i <= nv; ++i) {
            if (i == nv || (order[i] & kFirst)) {
                if (i > 0) order[best] |= kPick;
                if (i == nv) break;
                best_far = -1.0;
            }
            const double d = far(order[i] & kVertex);
            if (d > best_far) best_far = d, best = i;
        }
    };
    dijkstra(kFirst);
    pickFarthest([&](uint32_t v) { return s->nodes[v].g; });
    for (uint32_t l = 0; l < kLandmarks; ++l) {
        dijkstra(kPick);
        for (uint32_t v = 0; v < nv; ++v)
            landmark_dist[size_t(v) * kLandmarks + l] = s->nodes[v].g;
        shared->landmark_count = l + 1;
        pickFarthest([&](uint32_t v) {
            double d = kInf;
            for (uint32_t k = 0; k <= l; ++k)
                d = minOf(d, landmark_dist[size_t(v) * kLandmarks + k]);
            return d;
        });
    }
}

size_t alignUp(size_t v, size_t a) {
    return (v + a - 1) / a * a;
}

// Arrays placed one after another from `at`, each 8-byte aligned.
struct Placer {
    size_t at;
    size_t take(size_t bytes) {
        const size_t here = at;
        at = alignUp(at + bytes, 8);
        return here;
    }
};

// Shared layout: one header, the arrays the landmark search reads and fills, then the grids built
// after it. The search's work area (vertex order, A* nodes and heap) lies over those grids.
struct SharedLayout {
    size_t adj_start, adj, blend_start, blend_ids, edge_length, edge_weight, edge_snap, vertex_xy,
        landmark_dist, vertex_component, seed_start, seeds, chains, chain_steps, chain_vertices,
        snap_cell_start, snap_cell_edges, wall_grids, wall_cell_start, wall_cell_items, wall_solid_start,
        wall_solid_segs, wall_cell_box, wall_cell_pieces, wall_centre_inside, across_index, across,
        connection_next, connection_order, boundary_pieces, link_start, link_adj;
    size_t work_order, work_nodes, work_heap;
    size_t end; // bytes from the aligned start
    uint32_t wall_pieces;
};

SharedLayout sharedLayoutFor(const fb::Roadmap& rm) {
    const size_t v = sizeOf(rm.vertices()), e = sizeOf(rm.edges()), b = sizeOf(rm.blends());
    SharedLayout l{};
    Placer at{alignUp(sizeof(PathShared), 8)};
    l.adj_start = at.take((v + 1) * 4);
    l.adj = at.take(2 * e * sizeof(AdjEntry));
    l.blend_start = at.take((v + 1) * 4);
    l.blend_ids = at.take(b * 4);
    l.edge_length = at.take(e * 8);
    l.edge_weight = at.take(e * 8);
    l.edge_snap = at.take(e * sizeof(EdgeSnap));
    l.vertex_xy = at.take(v * sizeof(P));
    l.landmark_dist = at.take(v * kLandmarks * sizeof(double));
    l.vertex_component = at.take(v * 4);
    l.seed_start = at.take((e + 1) * 4);
    l.seeds = at.take(size_t(portalSeedCount(rm)) * sizeof(PortalSeed));
    l.chains = at.take((e / 2 + 1) * sizeof(ChainInfo));
    l.chain_steps = at.take(e * sizeof(ChainStep));
    l.chain_vertices = at.take((e + e / 2 + 1) * sizeof(ChainVertex));
    const size_t link_entries = linkEntryCount(rm); // nothing without links: the sizes stay
    l.link_start = at.take(link_entries ? (v + 1) * 4 : 0);
    l.link_adj = at.take(link_entries * sizeof(LinkAdj));
    Placer work{at.at};
    l.work_order = work.take(v * 4);
    l.work_nodes = work.take(v * sizeof(AStarNode));
    l.work_heap = work.take(v * sizeof(HeapEntry));
    const size_t grid_cells = size_t(rm.grid()->cells_x()) * size_t(rm.grid()->cells_y());
    l.snap_cell_start = at.take(kSnapClasses * sizeOf(rm.footprint()->layers()) * (grid_cells + 1) * 4);
    l.snap_cell_edges = at.take(kSnapClasses * sizeOf(rm.grid()->cell_edges()) * 4);
    uint64_t cell_entries = 0, items = 0, solid_items = 0, pieces = 0;
    wallGridSizes(rm, &cell_entries, &items, &solid_items, &pieces);
    l.wall_grids = at.take(sizeOf(rm.footprint()->layers()) * sizeof(WallGrid));
    l.wall_cell_start = at.take(size_t(cell_entries) * sizeof(uint32_t));
    l.wall_cell_items = at.take(size_t(items) * sizeof(WallRef));
    l.wall_solid_start = at.take(size_t(cell_entries) * sizeof(uint32_t));
    l.wall_solid_segs = at.take(size_t(solid_items) * sizeof(WallSeg));
    l.wall_cell_box = at.take(size_t(cell_entries) * sizeof(CellBox));
    l.wall_cell_pieces = at.take(size_t(cell_entries) * sizeof(CellBox));
    l.wall_centre_inside = at.take(size_t(cell_entries));
    l.across_index = at.take(e * 4);
    l.across = at.take(size_t(acrossEdgeCount(rm)) * sizeof(AcrossPortal));
    l.connection_next = at.take(size_t(connectionCount(rm)) * 8); // work space of the build
    l.connection_order = at.take(size_t(connectionCount(rm)) * 8); // the same
    l.boundary_pieces = at.take(size_t(connectionCount(rm)) * sizeof(BoundaryPiece));
    l.end = at.at > work.at ? at.at : work.at;
    l.wall_pieces = uint32_t(pieces);
    return l;
}

// What a thread's scratch is sized by.
struct ScratchCounts {
    size_t vertices, edges, areas, corner_capacity, wall_pieces;
};

// max_route_points 0: the whole roadmap's capacity; else that many points plus the ends and snaps.
ScratchCounts countsOf(const PathShared& s, uint32_t max_route_points) {
    const size_t capacity = max_route_points == 0 || size_t(max_route_points) + 8 > s.corner_capacity
                                ? s.corner_capacity
                                : size_t(max_route_points) + 8;
    return {s.vertex_count, s.edge_count, s.area_count, capacity, s.wall_piece_count};
}

// Each edge is walked at most once except the start/goal edge (twice, in parts), plus the two
// endpoints and two snap points.
uint32_t cornerCapacity(const fb::Roadmap& rm) {
    return uint32_t(2 * sizeOf(rm.points()) + 8);
}

// Scratch layout: one header, then the arrays, each 8-byte aligned.
struct ScratchLayout {
    size_t edge_seen, area_used, nodes, heap, route, corners, corner_clearance, relaxed_run,
        relaxed_requirement, wall_seen, seg_memo;
    size_t end; // bytes from the aligned start
};

ScratchLayout scratchLayoutFor(const ScratchCounts& n) {
    ScratchLayout l{};
    Placer at{alignUp(sizeof(PathScratch), 8)};
    l.edge_seen = at.take((n.edges + 1) * sizeof(uint32_t));
    l.area_used = at.take(n.areas);
    l.nodes = at.take(n.vertices * sizeof(AStarNode));
    l.heap = at.take(n.vertices * sizeof(HeapEntry));
    l.route = at.take((n.edges + 2) * 4);
    l.corners = at.take(n.corner_capacity * sizeof(Corner));
    l.corner_clearance = at.take(n.corner_capacity * sizeof(double));
    l.relaxed_run = at.take(n.corner_capacity * sizeof(Corner));
    l.relaxed_requirement = at.take(n.corner_capacity * sizeof(double));
    l.wall_seen = at.take((n.wall_pieces + 1) * sizeof(uint32_t));
    l.seg_memo = at.take(kSegMemoSlots * sizeof(SegMemo));
    l.end = at.at;
    return l;
}

ScratchLayout scratchLayoutFor(const fb::Roadmap& rm, const SharedLayout& shared) {
    return scratchLayoutFor(ScratchCounts{sizeOf(rm.vertices()), sizeOf(rm.edges()), sizeOf(rm.areas()),
                                          cornerCapacity(rm), shared.wall_pieces});
}

uint8_t* aligned(void* memory) {
    return reinterpret_cast<uint8_t*>(alignUp(reinterpret_cast<uintptr_t>(memory), 8));
}

// Counting sort: incident edges per vertex (self-loops left out), then blends per vertex, with
// `cursor` (vertex_count entries) as the fill position.
void buildVertexLists(const fb::Roadmap& rm, PathShared* s, uint32_t* cursor) {
    const uint32_t nv = s->vertex_count, ne = s->edge_count, nb = s->blend_count;
    const auto* edges = rm.edges();
    std::memset(s->adj_start, 0, (nv + 1) * sizeof(uint32_t));
    for (uint32_t e = 0; e < ne; ++e) {
        const fb::RoadmapEdge* edge = edges->Get(e);
        if (edge->a() == edge->b()) continue; // a loop never shortens a route
        ++s->adj_start[edge->a() + 1];
        ++s->adj_start[edge->b() + 1];
    }
    for (uint32_t v = 0; v < nv; ++v)
        s->adj_start[v + 1] += s->adj_start[v];
    for (uint32_t v = 0; v < nv; ++v)
        cursor[v] = s->adj_start[v];
    for (uint32_t e = 0; e < ne; ++e) {
        const fb::RoadmapEdge* edge = edges->Get(e);
        if (edge->a() == edge->b()) continue;
        s->adj[cursor[edge->a()]++].edge = e;
        s->adj[cursor[edge->b()]++].edge = e;
    }
    std::memset(s->blend_start, 0, (nv + 1) * sizeof(uint32_t));
    for (uint32_t b = 0; b < nb; ++b)
        ++s->blend_start[rm.blends()->Get(b)->vertex() + 1];
    for (uint32_t v = 0; v < nv; ++v)
        s->blend_start[v + 1] += s->blend_start[v];
    for (uint32_t v = 0; v < nv; ++v)
        cursor[v] = s->blend_start[v];
    for (uint32_t b = 0; b < nb; ++b)
        s->blend_ids[cursor[rm.blends()->Get(b)->vertex()]++] = b;
}

// Per edge: its polyline length, what snapping asks of it, and its A* cost per metre; then what
// A* reads of each incident edge.
void buildEdgeTables(const fb::Roadmap& rm, PathShared* s) {
    const uint32_t nv = s->vertex_count, ne = s->edge_count;
    const auto* edges = rm.edges();
    const auto* points = rm.points();
    for (uint32_t e = 0; e < ne; ++e) {
        const fb::RoadmapEdge* edge = edges->Get(e);
        double len = 0.0;
        for (uint32_t k = 0; k + 1 < edge->point_count(); ++k)
            len +=
                norm(pt(points->Get(edge->first_point() + k + 1)) - pt(points->Get(edge->first_point() + k)));
        s->edge_length[e] = len;
        EdgeSnap& snap = s->edge_snap[e];
        snap = EdgeSnap{kInf, kInf, -kInf, -kInf, double(edge->min_clearance()), kNone};
        for (uint32_t k = 0; k < edge->point_count(); ++k) {
            const P q = pt(points->Get(edge->first_point() + k));
            snap.x0 = std::fmin(snap.x0, q.x), snap.y0 = std::fmin(snap.y0, q.y);
            snap.x1 = std::fmax(snap.x1, q.x), snap.y1 = std::fmax(snap.y1, q.y);
        }
        const uint32_t la = rm.vertices()->Get(edge->a())->layer();
        if (!edge->portal() && la == rm.vertices()->Get(edge->b())->layer()) snap.layer = la;
    }
    // Designer areas: cost per metre of each edge, and the least of them for the heuristic.
    const auto* weights = rm.edge_weights();
    s->heuristic_scale = 1.0;
    for (uint32_t e = 0; e < ne; ++e) {
        s->edge_weight[e] = sizeOf(weights) == ne ? double(weights->Get(e)) : 1.0;
        if (s->edge_weight[e] < s->heuristic_scale) s->heuristic_scale = s->edge_weight[e];
    }
    for (uint32_t v = 0; v < nv; ++v) {
        const fb::RoadmapVertex* vx = rm.vertices()->Get(v);
        s->vertex_xy[v] = P{vx->x(), vx->y()};
        for (uint32_t k = s->adj_start[v]; k < s->adj_start[v + 1]; ++k) {
            AdjEntry& a = s->adj[k];
            const fb::RoadmapEdge* edge = edges->Get(a.edge);
            a.other = edge->a() == v ? edge->b() : edge->a();
            a.cost = s->edge_length[a.edge] * s->edge_weight[a.edge];
            a.min_clearance = edge->min_clearance();
            const fb::RoadmapVertex* other = rm.vertices()->Get(a.other);
            a.other_x = other->x(), a.other_y = other->y();
            edgeAreaKind(rm, a.edge, &a.area_flags, &a.area_type, &a.mixed_areas);
        }
    }
}

// The edge grid by clearance class and layer: each layer's snappable edges of the class, cell by
// cell in the asset's order.
void buildSnapGrid(const fb::Roadmap& rm, PathShared* s) {
    const fb::EdgeGrid* grid = rm.grid();
    const uint32_t cells = grid->cells_x() * grid->cells_y();
    uint32_t at = 0;
    for (uint32_t cls = 0; cls < kSnapClasses; ++cls)
        for (uint32_t layer = 0; layer < s->layer_count; ++layer) {
            uint32_t* start = s->snap_cell_start + (size_t(cls) * s->layer_count + layer) * (cells + 1);
            for (uint32_t c = 0; c < cells; ++c) {
                start[c] = at;
                for (uint32_t k = grid->cell_start()->Get(c); k < grid->cell_start()->Get(c + 1); ++k) {
                    const uint32_t edge = grid->cell_edges()->Get(k);
                    const EdgeSnap& snap = s->edge_snap[edge];
                    if (snap.layer == layer && inSnapClass(snap.min_clearance, cls)) s->snap_cell_edges[at++] = edge;
                }
            }
            start[cells] = at;
        }
}

// Builds the shared data at `base` (8-byte aligned, l.end bytes).
PathShared* sharedInitAt(const fb::Roadmap& rm, const uint8_t* data, uint8_t* base, const SharedLayout& l) {
    PathShared* s = new (base) PathShared{};
    s->data = data;
    s->vertex_count = sizeOf(rm.vertices());
    s->edge_count = sizeOf(rm.edges());
    s->blend_count = sizeOf(rm.blends());
    s->corner_capacity = cornerCapacity(rm);
    s->layer_count = sizeOf(rm.footprint()->layers());
    s->area_count = sizeOf(rm.areas());
    s->adj_start = reinterpret_cast<uint32_t*>(base + l.adj_start);
    s->adj = reinterpret_cast<AdjEntry*>(base + l.adj);
    s->blend_start = reinterpret_cast<uint32_t*>(base + l.blend_start);
    s->blend_ids = reinterpret_cast<uint32_t*>(base + l.blend_ids);
    s->edge_length = reinterpret_cast<double*>(base + l.edge_length);
    s->edge_weight = reinterpret_cast<double*>(base + l.edge_weight);
    s->edge_snap = reinterpret_cast<EdgeSnap*>(base + l.edge_snap);
    s->vertex_xy = reinterpret_cast<P*>(base + l.vertex_xy);
    s->landmark_dist = reinterpret_cast<double*>(base + l.landmark_dist);
    s->vertex_component = reinterpret_cast<uint32_t*>(base + l.vertex_component);
    s->seed_start = reinterpret_cast<uint32_t*>(base + l.seed_start);
    s->seeds = reinterpret_cast<PortalSeed*>(base + l.seeds);
    s->chains = reinterpret_cast<ChainInfo*>(base + l.chains);
    s->chain_steps = reinterpret_cast<ChainStep*>(base + l.chain_steps);
    s->chain_vertices = reinterpret_cast<ChainVertex*>(base + l.chain_vertices);
    s->snap_cell_start = reinterpret_cast<uint32_t*>(base + l.snap_cell_start);
    s->snap_cell_edges = reinterpret_cast<uint32_t*>(base + l.snap_cell_edges);
    s->wall_grids = reinterpret_cast<WallGrid*>(base + l.wall_grids);
    s->wall_cell_start = reinterpret_cast<uint32_t*>(base + l.wall_cell_start);
    s->wall_cell_items = reinterpret_cast<WallRef*>(base + l.wall_cell_items);
    s->wall_solid_start = reinterpret_cast<uint32_t*>(base + l.wall_solid_start);
    s->wall_solid_segs = reinterpret_cast<WallSeg*>(base + l.wall_solid_segs);
    s->wall_cell_box = reinterpret_cast<CellBox*>(base + l.wall_cell_box);
    s->wall_cell_pieces = reinterpret_cast<CellBox*>(base + l.wall_cell_pieces);
    s->wall_centre_inside = base + l.wall_centre_inside;
    s->across_index = reinterpret_cast<uint32_t*>(base + l.across_index);
    s->across = reinterpret_cast<AcrossPortal*>(base + l.across);
    s->boundary_pieces = reinterpret_cast<BoundaryPiece*>(base + l.boundary_pieces);
    if (l.link_adj != l.link_start) {
        s->link_start = reinterpret_cast<uint32_t*>(base + l.link_start);
        s->link_adj = reinterpret_cast<LinkAdj*>(base + l.link_adj);
    }
    // The work area lies over the grids, so they are built after the landmarks.
    uint32_t* order = reinterpret_cast<uint32_t*>(base + l.work_order);
    buildVertexLists(rm, s, order);
    buildEdgeTables(rm, s);
    buildLinkTables(rm, s);
    buildChains(s, order);
    buildPortalSeeds(rm, s);
    PathScratch work{};
    work.nodes = reinterpret_cast<AStarNode*>(base + l.work_nodes);
    work.heap = reinterpret_cast<HeapEntry*>(base + l.work_heap);
    computeLandmarks(s, &work, order);
    buildSnapGrid(rm, s);
    wallGridBuild(rm, s);
    PathScratch walls{};
    walls.wall_grids = s->wall_grids;
    walls.wall_cell_start = s->wall_cell_start;
    walls.wall_cell_items = s->wall_cell_items;
    walls.wall_centre_inside = s->wall_centre_inside;
    buildAcrossPortals(rm, s, walls, reinterpret_cast<uint32_t*>(base + l.connection_next),
                       reinterpret_cast<uint32_t*>(base + l.connection_order));
    return s;
}

// A thread's scratch on `shared` at `base` (8-byte aligned, l.end bytes).
PathScratch* scratchInitAt(const PathShared* shared, uint8_t* base, const ScratchLayout& l) {
    PathScratch* s = new (base) PathScratch{};
    const PathShared& sh = *shared;
    s->shared = shared;
    s->data = sh.data;
    s->vertex_count = sh.vertex_count;
    s->edge_count = sh.edge_count;
    s->blend_count = sh.blend_count;
    s->corner_capacity = sh.corner_capacity;
    s->layer_count = sh.layer_count;
    s->generation = 0;
    s->adj_start = sh.adj_start;
    s->adj = sh.adj;
    s->blend_start = sh.blend_start;
    s->blend_ids = sh.blend_ids;
    s->edge_length = sh.edge_length;
    s->edge_weight = sh.edge_weight;
    s->edge_snap = sh.edge_snap;
    s->snap_cell_start = sh.snap_cell_start;
    s->snap_cell_edges = sh.snap_cell_edges;
    s->heuristic_scale = sh.heuristic_scale;
    s->area_count = sh.area_count;
    s->vertex_xy = sh.vertex_xy;
    s->landmark_dist = sh.landmark_dist;
    s->vertex_component = sh.vertex_component;
    s->landmark_count = sh.landmark_count;
    s->seed_start = sh.seed_start;
    s->seeds = sh.seeds;
    s->across_index = sh.across_index;
    s->across = sh.across;
    s->boundary_pieces = sh.boundary_pieces;
    s->boundary_piece_count = sh.boundary_piece_count;
    s->chains = sh.chains;
    s->chain_steps = sh.chain_steps;
    s->chain_vertices = sh.chain_vertices;
    s->wall_grids = sh.wall_grids;
    s->wall_cell_start = sh.wall_cell_start;
    s->wall_cell_items = sh.wall_cell_items;
    s->wall_solid_start = sh.wall_solid_start;
    s->wall_solid_segs = sh.wall_solid_segs;
    s->wall_cell_box = sh.wall_cell_box;
    s->wall_cell_pieces = sh.wall_cell_pieces;
    s->wall_centre_inside = sh.wall_centre_inside;
    s->wall_piece_count = sh.wall_piece_count;
    s->link_count = sh.link_count;
    s->link_start = sh.link_start;
    s->link_adj = sh.link_adj;

    s->edge_seen = reinterpret_cast<uint32_t*>(base + l.edge_seen);
    std::memset(s->edge_seen, 0, (size_t(s->edge_count) + 1) * sizeof(uint32_t));
    s->area_used = base + l.area_used;
    std::memset(s->area_used, 0, s->area_count);
    s->nodes = reinterpret_cast<AStarNode*>(base + l.nodes);
    std::memset(s->nodes, 0, size_t(s->vertex_count) * sizeof(AStarNode)); // stamp 0: unreached
    s->heap = reinterpret_cast<HeapEntry*>(base + l.heap);
    s->route = reinterpret_cast<uint32_t*>(base + l.route);
    s->corners = reinterpret_cast<Corner*>(base + l.corners);
    s->corner_clearance = reinterpret_cast<double*>(base + l.corner_clearance);
    s->relaxed_run = reinterpret_cast<Corner*>(base + l.relaxed_run);
    s->relaxed_requirement = reinterpret_cast<double*>(base + l.relaxed_requirement);
    // Only shortenCorners uses relaxed_run, and findPath fills `pieces` after it returns.
    static_assert(sizeof(PieceGeom) <= sizeof(Corner), "pieces share relaxed_run's memory");
    s->pieces = reinterpret_cast<PieceGeom*>(base + l.relaxed_run);
    s->wall_seen = reinterpret_cast<uint32_t*>(base + l.wall_seen);
    std::memset(s->wall_seen, 0, (size_t(s->wall_piece_count) + 1) * sizeof(uint32_t));
    s->seg_memo = reinterpret_cast<SegMemo*>(base + l.seg_memo);
    std::memset(s->seg_memo, 0, kSegMemoSlots * sizeof(SegMemo));
    s->seg_memo_round = 0;
    return s;
}

} // namespace

// Every size leaves 8 bytes of slack to align the caller's pointer.

Status pathSharedSize(const RoadmapView& view, size_t* bytes) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !bytes) return Status::InvalidArgument;
    *bytes = sharedLayoutFor(*rm).end + 8;
    return Status::Ok;
}

Status pathSharedInit(const RoadmapView& view, void* memory, size_t bytes, PathShared** out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !memory || !out) return Status::InvalidArgument;
    const SharedLayout l = sharedLayoutFor(*rm);
    if (bytes < l.end + 8) return Status::BufferTooSmall;
    *out = sharedInitAt(*rm, view.data, aligned(memory), l);
    return Status::Ok;
}

Status pathScratchSizeShared(const PathShared* shared, size_t* bytes) {
    return pathScratchSizeForRoutes(shared, 0, bytes);
}

Status pathScratchInitShared(const PathShared* shared, void* memory, size_t bytes, PathScratch** out) {
    return pathScratchInitForRoutes(shared, 0, memory, bytes, out);
}

Status pathScratchSizeForRoutes(const PathShared* shared, uint32_t max_route_points, size_t* bytes) {
    if (!shared || !bytes) return Status::InvalidArgument;
    *bytes = scratchLayoutFor(countsOf(*shared, max_route_points)).end + 8;
    return Status::Ok;
}

Status pathScratchInitForRoutes(const PathShared* shared, uint32_t max_route_points, void* memory, size_t bytes,
                                PathScratch** out) {
    if (!shared || !memory || !out) return Status::InvalidArgument;
    const ScratchCounts counts = countsOf(*shared, max_route_points);
    const ScratchLayout l = scratchLayoutFor(counts);
    if (bytes < l.end + 8) return Status::BufferTooSmall;
    *out = scratchInitAt(shared, aligned(memory), l);
    (*out)->corner_capacity = uint32_t(counts.corner_capacity);
    return Status::Ok;
}

// One block: the shared data, then the scratch on it.
Status pathScratchSize(const RoadmapView& view, size_t* bytes) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !bytes) return Status::InvalidArgument;
    const SharedLayout shared = sharedLayoutFor(*rm);
    *bytes = shared.end + scratchLayoutFor(*rm, shared).end + 8;
    return Status::Ok;
}

Status pathScratchInit(const RoadmapView& view, void* memory, size_t bytes, PathScratch** out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !memory || !out) return Status::InvalidArgument;
    const SharedLayout shared = sharedLayoutFor(*rm);
    const ScratchLayout scratch = scratchLayoutFor(*rm, shared);
    if (bytes < shared.end + scratch.end + 8) return Status::BufferTooSmall;
    uint8_t* base = aligned(memory);
    *out = scratchInitAt(sharedInitAt(*rm, view.data, base, shared), base + shared.end, scratch);
    return Status::Ok;
}

} // namespace clearway
