// The path scratch: its layout, pathScratchInit's copies of the roadmap (adjacency, blends, edge
// snap data, the wall grid) and the A* landmarks (ALT) computed there.
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
// costs, on the scratch's search state (reset afterwards).
void computeLandmarks(PathScratch* s) {
    const uint32_t nv = s->vertex_count;
    s->landmark_count = 0;
    if (nv == 0) return;
    // Vertices in breadth-first order per component, its first entry flagged. kPick marks the
    // vertex chosen as its component's next landmark until the next Dijkstra takes it.
    constexpr uint32_t kFirst = 0x80000000u, kPick = 0x40000000u, kVertex = 0x3fffffffu;
    if (nv > kVertex) { // no room for the flags: A* keeps the straight-line heuristic alone
        for (size_t i = 0; i < size_t(nv) * kLandmarks; ++i)
            s->landmark_dist[i] = kInf;
        for (uint32_t v = 0; v < nv; ++v)
            s->vertex_component[v] = 0;
        return;
    }
    uint32_t* order = s->landmark_order;
    if (++s->generation == 0) s->generation = 1;
    uint32_t n = 0, components = 0;
    for (uint32_t root = 0; root < nv; ++root) {
        if (s->nodes[root].stamp == s->generation) continue;
        s->nodes[root].stamp = s->generation;
        const uint32_t component = components++;
        s->vertex_component[root] = component;
        order[n++] = root | kFirst;
        for (uint32_t head = n - 1; head < n; ++head) {
            const uint32_t u = order[head] & kVertex;
            for (uint32_t k = s->adj_start[u], end = s->adj_start[u + 1]; k < end; ++k)
                if (s->nodes[s->adj[k].other].stamp != s->generation) {
                    s->nodes[s->adj[k].other].stamp = s->generation;
                    s->vertex_component[s->adj[k].other] = component;
                    order[n++] = s->adj[k].other;
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
            for (uint32_t k = s->adj_start[v], end = s->adj_start[v + 1]; k < end; ++k)
                relax(s, s->adj[k].other, gv + s->adj[k].cost, zero, s->adj[k].edge);
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
            s->landmark_dist[size_t(v) * kLandmarks + l] = s->nodes[v].g;
        s->landmark_count = l + 1;
        pickFarthest([&](uint32_t v) {
            double d = kInf;
            for (uint32_t k = 0; k <= l; ++k)
                d = minOf(d, s->landmark_dist[size_t(v) * kLandmarks + k]);
            return d;
        });
    }
    for (uint32_t v = 0; v < nv; ++v)
        s->nodes[v].stamp = 0;
    s->generation = 0;
    s->heap_size = 0;
}

size_t alignUp(size_t v, size_t a) {
    return (v + a - 1) / a * a;
}

// Scratch layout: one header, then the arrays, each 8-byte aligned.
struct Layout {
    size_t adj_start, adj, blend_start, blend_ids, edge_length, edge_weight, edge_snap, edge_seen,
        snap_cell_start, snap_cell_edges, area_used, vertex_xy, landmark_dist, landmark_order,
        vertex_component, nodes, heap, route, corners, corner_clearance, relaxed_run, relaxed_requirement,
        wall_grids, wall_cell_start, wall_cell_items, wall_solid_start, wall_solid_segs, wall_cell_box,
        wall_cell_pieces, wall_seen, seg_memo;
    size_t total;
    uint32_t corner_capacity;
};

Layout layoutFor(const fb::Roadmap& rm) {
    const size_t v = sizeOf(rm.vertices()), e = sizeOf(rm.edges()), b = sizeOf(rm.blends()),
                 p = sizeOf(rm.points());
    Layout l{};
    size_t at = alignUp(sizeof(PathScratch), 8);
    auto take = [&](size_t bytes) {
        const size_t here = at;
        at = alignUp(at + bytes, 8);
        return here;
    };
    l.adj_start = take((v + 1) * 4);
    l.adj = take(2 * e * sizeof(AdjEntry));
    l.blend_start = take((v + 1) * 4);
    l.blend_ids = take(b * 4);
    l.edge_length = take(e * 8);
    l.edge_weight = take(e * 8);
    l.edge_snap = take(e * sizeof(EdgeSnap));
    l.edge_seen = take((e + 1) * sizeof(uint32_t));
    const size_t grid_cells = size_t(rm.grid()->cells_x()) * size_t(rm.grid()->cells_y());
    l.snap_cell_start = take(sizeOf(rm.footprint()->layers()) * (grid_cells + 1) * 4);
    l.snap_cell_edges = take(sizeOf(rm.grid()->cell_edges()) * 4);
    l.area_used = take(sizeOf(rm.areas()));
    l.vertex_xy = take(v * sizeof(P));
    l.landmark_dist = take(v * kLandmarks * sizeof(double));
    l.landmark_order = take(v * 4);
    l.vertex_component = take(v * 4);
    l.nodes = take(v * sizeof(AStarNode));
    l.heap = take(v * sizeof(HeapEntry));
    l.route = take((e + 2) * 4);
    // Each edge is walked at most once except the start/goal edge (twice, in parts), plus the
    // two endpoints and two snap points.
    l.corner_capacity = uint32_t(2 * p + 8);
    l.corners = take(size_t(l.corner_capacity) * sizeof(Corner));
    l.corner_clearance = take(size_t(l.corner_capacity) * sizeof(double));
    l.relaxed_run = take(size_t(l.corner_capacity) * sizeof(Corner));
    l.relaxed_requirement = take(size_t(l.corner_capacity) * sizeof(double));
    uint64_t cell_entries = 0, items = 0, solid_items = 0, pieces = 0;
    wallGridSizes(rm, &cell_entries, &items, &solid_items, &pieces);
    l.wall_grids = take(sizeOf(rm.footprint()->layers()) * sizeof(WallGrid));
    l.wall_cell_start = take(size_t(cell_entries) * sizeof(uint32_t));
    l.wall_cell_items = take(size_t(items) * sizeof(WallRef));
    l.wall_solid_start = take(size_t(cell_entries) * sizeof(uint32_t));
    l.wall_solid_segs = take(size_t(solid_items) * sizeof(WallSeg));
    l.wall_cell_box = take(size_t(cell_entries) * sizeof(CellBox));
    l.wall_cell_pieces = take(size_t(cell_entries) * sizeof(CellBox));
    l.wall_seen = take(size_t(pieces + 1) * sizeof(uint32_t));
    l.seg_memo = take(kSegMemoSlots * sizeof(SegMemo));
    l.total = at + 8; // slack to align the caller's pointer
    return l;
}

} // namespace

Status pathScratchSize(const RoadmapView& view, size_t* bytes) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !bytes) return Status::InvalidArgument;
    *bytes = layoutFor(*rm).total;
    return Status::Ok;
}

Status pathScratchInit(const RoadmapView& view, void* memory, size_t bytes, PathScratch** out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !memory || !out) return Status::InvalidArgument;
    const Layout l = layoutFor(*rm);
    if (bytes < l.total) return Status::BufferTooSmall;
    uint8_t* base = reinterpret_cast<uint8_t*>(alignUp(reinterpret_cast<uintptr_t>(memory), 8));
    PathScratch* s = new (base) PathScratch{};
    s->data = view.data;
    s->vertex_count = sizeOf(rm->vertices());
    s->edge_count = sizeOf(rm->edges());
    s->blend_count = sizeOf(rm->blends());
    s->corner_capacity = l.corner_capacity;
    s->generation = 0;
    s->adj_start = reinterpret_cast<uint32_t*>(base + l.adj_start);
    s->adj = reinterpret_cast<AdjEntry*>(base + l.adj);
    s->blend_start = reinterpret_cast<uint32_t*>(base + l.blend_start);
    s->blend_ids = reinterpret_cast<uint32_t*>(base + l.blend_ids);
    s->edge_length = reinterpret_cast<double*>(base + l.edge_length);
    s->edge_weight = reinterpret_cast<double*>(base + l.edge_weight);
    s->edge_snap = reinterpret_cast<EdgeSnap*>(base + l.edge_snap);
    s->edge_seen = reinterpret_cast<uint32_t*>(base + l.edge_seen);
    std::memset(s->edge_seen, 0, (size_t(s->edge_count) + 1) * sizeof(uint32_t));
    s->snap_cell_start = reinterpret_cast<uint32_t*>(base + l.snap_cell_start);
    s->snap_cell_edges = reinterpret_cast<uint32_t*>(base + l.snap_cell_edges);
    s->area_count = sizeOf(rm->areas());
    s->area_used = base + l.area_used;
    s->vertex_xy = reinterpret_cast<P*>(base + l.vertex_xy);
    s->landmark_dist = reinterpret_cast<double*>(base + l.landmark_dist);
    s->landmark_order = reinterpret_cast<uint32_t*>(base + l.landmark_order);
    s->vertex_component = reinterpret_cast<uint32_t*>(base + l.vertex_component);
    s->nodes = reinterpret_cast<AStarNode*>(base + l.nodes);
    s->heap = reinterpret_cast<HeapEntry*>(base + l.heap);
    s->route = reinterpret_cast<uint32_t*>(base + l.route);
    s->corners = reinterpret_cast<Corner*>(base + l.corners);
    s->corner_clearance = reinterpret_cast<double*>(base + l.corner_clearance);
    s->relaxed_run = reinterpret_cast<Corner*>(base + l.relaxed_run);
    s->relaxed_requirement = reinterpret_cast<double*>(base + l.relaxed_requirement);
    // Only shortenCorners uses relaxed_run, and findPath fills `pieces` after it returns.
    static_assert(sizeof(PieceGeom) <= sizeof(Corner), "pieces share relaxed_run's memory");
    s->pieces = reinterpret_cast<PieceGeom*>(base + l.relaxed_run);
    s->wall_grids = reinterpret_cast<WallGrid*>(base + l.wall_grids);
    s->wall_cell_start = reinterpret_cast<uint32_t*>(base + l.wall_cell_start);
    s->wall_cell_items = reinterpret_cast<WallRef*>(base + l.wall_cell_items);
    s->wall_solid_start = reinterpret_cast<uint32_t*>(base + l.wall_solid_start);
    s->wall_solid_segs = reinterpret_cast<WallSeg*>(base + l.wall_solid_segs);
    s->wall_cell_box = reinterpret_cast<CellBox*>(base + l.wall_cell_box);
    s->wall_cell_pieces = reinterpret_cast<CellBox*>(base + l.wall_cell_pieces);
    s->wall_seen = reinterpret_cast<uint32_t*>(base + l.wall_seen);
    s->seg_memo = reinterpret_cast<SegMemo*>(base + l.seg_memo);
    std::memset(s->seg_memo, 0, kSegMemoSlots * sizeof(SegMemo));
    s->seg_memo_round = 0;
    s->layer_count = sizeOf(rm->footprint()->layers());
    wallGridBuild(*rm, s);
    std::memset(s->wall_seen, 0, (size_t(s->wall_piece_count) + 1) * sizeof(uint32_t));

    const uint32_t nv = s->vertex_count, ne = s->edge_count, nb = s->blend_count;
    const auto* edges = rm->edges();
    const auto* points = rm->points();
    // Counting sort: incident edges per vertex, then blends per vertex.
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
        s->nodes[v].stamp = s->adj_start[v]; // fill cursor, reset below
    for (uint32_t e = 0; e < ne; ++e) {
        const fb::RoadmapEdge* edge = edges->Get(e);
        if (edge->a() == edge->b()) continue;
        s->adj[s->nodes[edge->a()].stamp++].edge = e;
        s->adj[s->nodes[edge->b()].stamp++].edge = e;
    }
    std::memset(s->blend_start, 0, (nv + 1) * sizeof(uint32_t));
    for (uint32_t b = 0; b < nb; ++b)
        ++s->blend_start[rm->blends()->Get(b)->vertex() + 1];
    for (uint32_t v = 0; v < nv; ++v)
        s->blend_start[v + 1] += s->blend_start[v];
    for (uint32_t v = 0; v < nv; ++v)
        s->nodes[v].stamp = s->blend_start[v];
    for (uint32_t b = 0; b < nb; ++b)
        s->blend_ids[s->nodes[rm->blends()->Get(b)->vertex()].stamp++] = b;
    for (uint32_t v = 0; v < nv; ++v)
        s->nodes[v].stamp = 0;

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
        const uint32_t la = rm->vertices()->Get(edge->a())->layer();
        if (!edge->portal() && la == rm->vertices()->Get(edge->b())->layer()) snap.layer = la;
    }
    // The edge grid by layer: each layer's snappable edges, cell by cell in the asset's order.
    {
        const fb::EdgeGrid* grid = rm->grid();
        const uint32_t cells = grid->cells_x() * grid->cells_y();
        uint32_t at = 0;
        for (uint32_t layer = 0; layer < s->layer_count; ++layer) {
            uint32_t* start = s->snap_cell_start + size_t(layer) * (cells + 1);
            for (uint32_t c = 0; c < cells; ++c) {
                start[c] = at;
                for (uint32_t k = grid->cell_start()->Get(c); k < grid->cell_start()->Get(c + 1); ++k) {
                    const uint32_t edge = grid->cell_edges()->Get(k);
                    if (s->edge_snap[edge].layer == layer) s->snap_cell_edges[at++] = edge;
                }
            }
            start[cells] = at;
        }
    }
    // Designer areas: cost per metre of each edge, and the least of them for the heuristic.
    const auto* weights = rm->edge_weights();
    s->heuristic_scale = 1.0;
    for (uint32_t e = 0; e < ne; ++e) {
        s->edge_weight[e] = sizeOf(weights) == ne ? double(weights->Get(e)) : 1.0;
        if (s->edge_weight[e] < s->heuristic_scale) s->heuristic_scale = s->edge_weight[e];
    }
    for (uint32_t v = 0; v < nv; ++v) {
        const fb::RoadmapVertex* vx = rm->vertices()->Get(v);
        s->vertex_xy[v] = P{vx->x(), vx->y()};
        for (uint32_t k = s->adj_start[v]; k < s->adj_start[v + 1]; ++k) {
            AdjEntry& a = s->adj[k];
            const fb::RoadmapEdge* edge = edges->Get(a.edge);
            a.other = edge->a() == v ? edge->b() : edge->a();
            a.cost = s->edge_length[a.edge] * s->edge_weight[a.edge];
            a.min_clearance = edge->min_clearance();
            const fb::RoadmapVertex* other = rm->vertices()->Get(a.other);
            a.other_x = other->x(), a.other_y = other->y();
        }
    }
    computeLandmarks(s);
    *out = s;
    return Status::Ok;
}

} // namespace clearway
