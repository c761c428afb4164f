// Internal to lib/runtime: plane geometry on verified assets, the path scratch layout and the
// wall grid shared by path.cpp (routes), path_snap.cpp, path_scratch.cpp, walls*.cpp (distances,
// corridors) and shorten.cpp.
#pragma once

#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace clearway {
namespace detail {

namespace fb = ::clearway::schema;

constexpr double kInf = std::numeric_limits<double>::infinity();
// Shortest line between two arcs: a line's heading comes from its endpoints, so a shorter one
// would carry rounding noise into the path's tangent. A piece shorter than 3 kMinLine holds no
// arcs at its ends (findPath leaves both corners sharp), so shortening never leaves one.
constexpr double kMinLine = 1e-4;

template <typename T> inline uint32_t sizeOf(const flatbuffers::Vector<T>* v) {
    return v ? v->size() : 0;
}

inline const fb::Roadmap* root(const RoadmapView& view) {
    return view.data ? fb::GetRoadmap(view.data) : nullptr;
}

struct P {
    double x, y;
};
inline P operator-(P a, P b) {
    return {a.x - b.x, a.y - b.y};
}
inline P operator+(P a, P b) {
    return {a.x + b.x, a.y + b.y};
}
inline P operator*(P a, double s) {
    return {a.x * s, a.y * s};
}
inline double dot(P a, P b) {
    return a.x * b.x + a.y * b.y;
}
inline double cross(P a, P b) {
    return a.x * b.y - a.y * b.x;
}
// std::fmin / std::fmax for numbers that are not NaN (one minsd / maxsd; GCC cannot inline the
// library calls without -ffast-math): the same value for every such input but signed zeros.
inline double minOf(double a, double b) {
    return b < a ? b : a;
}
inline double maxOf(double a, double b) {
    return b > a ? b : a;
}
inline double norm(P a) {
    return std::sqrt(dot(a, a));
}
inline P pt(const fb::Vec2* v) {
    return {v->x(), v->y()};
}

// Squared distance from p to segment a-b, and the parameter of the closest point.
inline double pointSegment2(P p, P a, P b, double* t_out) {
    const P d = b - a;
    const double len2 = dot(d, d);
    double t = len2 > 0.0 ? dot(p - a, d) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    if (t_out) *t_out = t;
    const P q = a + d * t - p;
    return dot(q, q);
}

inline double orient(P a, P b, P c) {
    return cross(b - a, c - a);
}

inline bool onSegment(P a, P b, P p) {
    return p.x >= (a.x < b.x ? a.x : b.x) && p.x <= (a.x > b.x ? a.x : b.x) &&
           p.y >= (a.y < b.y ? a.y : b.y) && p.y <= (a.y > b.y ? a.y : b.y);
}

inline bool segmentsIntersect(P a, P b, P c, P d) {
    const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) ||
           (o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b));
}

inline double segmentSegment2(P a, P b, P c, P d) {
    if (segmentsIntersect(a, b, c, d)) return 0.0;
    double m = pointSegment2(a, c, d, nullptr);
    double v = pointSegment2(b, c, d, nullptr);
    m = v < m ? v : m;
    v = pointSegment2(c, a, b, nullptr);
    m = v < m ? v : m;
    v = pointSegment2(d, a, b, nullptr);
    return v < m ? v : m;
}

inline const fb::Layer* layerOf(const fb::Roadmap& rm, uint32_t layer) {
    return rm.footprint()->layers()->Get(layer);
}

// Calls fn(a, b) for every wall (ring edge) of the layer; stops when fn returns false.
template <typename Fn> inline bool forEachWall(const fb::Layer& layer, Fn fn) {
    const auto* rings = layer.rings();
    const auto* verts = layer.boundary_vertices();
    for (uint32_t r = 0, nr = sizeOf(rings); r < nr; ++r) {
        const fb::Ring* ring = rings->Get(r);
        const uint32_t first = ring->first_vertex(), n = ring->vertex_count();
        for (uint32_t i = 0; i < n; ++i) {
            const P a = pt(verts->Get(first + i));
            const P b = pt(verts->Get(first + (i + 1 == n ? 0 : i + 1)));
            if (!fn(a, b)) return false;
        }
    }
    return true;
}

// Even-odd over every ring: outer rings and holes of non-overlapping polygons.
inline bool insideLayer(const fb::Layer& layer, P p) {
    bool inside = false;
    forEachWall(layer, [&](P a, P b) {
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
            inside = !inside;
        return true;
    });
    return inside;
}

// The arc a path takes at a corner: tangent to unit `u` (the incoming direction) at
// corner - u * trim, turning by the signed angle `turn` onto the outgoing piece.
struct CornerArc {
    P center, start;
    double radius;
};
inline CornerArc cornerArc(P corner, P u, double turn, double trim) {
    const double r = trim / std::tan(0.5 * std::fabs(turn));
    const P start = corner - u * trim;
    const P left{-u.y, u.x};
    return CornerArc{start + (turn > 0 ? left : left * -1.0) * r, start, r};
}

// Corner of the path polyline before blending.
struct PathCorner {
    enum Kind : uint8_t { Interior, Vertex, Snap, Endpoint } kind; // higher wins when two coincide
    bool portal; // the piece after this corner runs along a portal edge
    uint32_t layer;
    uint32_t vertex, edge_in, edge_out;
    // Tangent sweeps: when the corner last moved and was last computed (a corner whose neighbours
    // have not moved since it was computed would get the same answer again). Placed in what
    // would be padding.
    uint32_t sweep_moved;
    double x, y;
    double trim; // arc starts/ends this far from the corner along both pieces
                 // Shortening only: the wall point the corner wraps (arc centre), the arc radius, and where
                 // the corner was before the tangent construction moved it.
    bool pinned, inserted; // inserted: the second corner of a corner that wraps two wall points
    uint32_t sweep_done;
    double pin_x, pin_y, pin_radius, pin_side; // side: +1 the turn is to the left
    double relaxed_x, relaxed_y;
    double relax_slack; // how far from a wall the relaxation may have stopped (its last step)
};

// Uniform grid over one layer's walls: cell (i, j) lists every wall passing through it (a wall
// is listed in each cell it touches). Built once per asset in pathSharedInit.
struct WallGrid {
    double min_x, min_y, cell;
    uint32_t nx, ny;
    uint32_t first_cell;  // into PathShared::wall_cell_start
    uint32_t first_piece; // the layer's first WallRef::id
    const flatbuffers::Vector<const fb::Vec2*>* boundary; // the layer's boundary vertices
};

// PathShared::wall_centre_inside: a cell's centre lies outside the layer, inside it, or too near a
// wall to answer the inside test for the cell's points.
enum : uint8_t { kCentreOutside = 0, kCentreInside = 1, kCentreUnknown = 2 };

// A piece [t0, t1] of the ring edge from boundary vertex a to b. Open pieces lie on a connection
// to another layer (a portal, as in the bake's solidLayerWalls): clearance queries skip them,
// the inside test counts them like any ring edge.
struct WallRef {
    uint32_t a, b;
    float t0, t1;
    uint32_t open;
    uint32_t id; // the piece's index among all layers' pieces (a piece is listed in several cells)
};

// A solid wall piece with its ends already in double (pieceStart/pieceEnd of its WallRef, the same
// doubles): the clearance queries read 32 contiguous bytes per wall instead of two FlatBuffers
// vertices and the float interpolation.
struct WallSeg {
    P c, d;
    float x0, y0, x1, y1; // bounding box, rounded outwards: most walls are rejected on it alone
    uint32_t id;          // WallRef::id
};

// Bounding box of the solid wall pieces' parts inside one wall-grid cell (rounded outwards; empty:
// +inf / -inf): a segment test passes over a cell whose walls all lie far from it there.
struct CellBox {
    float x0, y0, x1, y1;
};

// One incident edge of a vertex with what A* reads of it, copied at init so the search touches
// one array instead of the FlatBuffers edge table (cost = length * weight, the same double).
struct AdjEntry {
    uint32_t edge, other; // the edge, and its other end
    double cost;
    float min_clearance;    // the asset's floats, exact: no rounding in the copies
    float other_x, other_y; // the other end's position: its heuristic without another lookup
    uint32_t step;          // the edge's ChainStep when it lies on a chain, else kNone
    // For query filters: the edge's area flags and type when all of it lies in
    // one (type, flags); mixed_areas: it has several spans, read from the asset (path_filter.cpp).
    uint16_t area_flags;
    uint8_t area_type;
    uint8_t mixed_areas;
};

// One way across an off-mesh link from a vertex, copied at init (path_links.cpp): A* relaxes it as
// an extra edge (cost: the straight 3D distance between the ends plus the link's cost).
struct LinkAdj {
    uint32_t link, other;
    double cost;
    float max_radius;
    uint16_t flags;
    uint8_t area_type;
};

// Chains of edges through vertices A* need not stop at: each inner vertex joins the chain's two
// edges there, its widest; its other edges are at most `lo` wide. A* entering a chain walks it
// without the heap while the edges keep the radius and the inner vertices have no other usable
// edge (lo < radius), and relaxes only where it stops (path_chains.cpp).
struct ChainInfo {
    uint32_t first; // its edges at steps[first ..], its vertices at vertices[first + chain id ..]
    uint32_t count; // edges (>= 2)
};
struct ChainStep { // edge i of a chain: from vertex i to vertex i + 1
    double cost;
    float clearance;
    uint32_t edge, chain;
    uint32_t entry; // the edge's AdjEntry at vertex i (what a query filter reads of it)
};
// A portal an edge's corridor gives a route that runs over the whole edge, in the edge's direction
// a -> b: its wall points (left of the direction), its route point and the distances from it to
// each, measured once at init (the asset's floats, exact).
struct PortalSeed {
    float left_x, left_y, right_x, right_y, at_x, at_y;
    double to_left, to_right;
};
// An across edge's portal (pushConnectionPortal), built once per asset: the connection piece the
// edge crosses (else the one nearest its middle) and the far ends of that piece's polyline of
// connections; the side of c0 -> c1 the route comes from, for each direction of travel, where
// probes either side of the piece tell (+1 left, -1 right, 0 they do not).
struct AcrossPortal {
    P c0, c1, end0, end1;
    int8_t side[2]; // [0] travelling from the edge's vertex a, [1] from b
};
// A connection between two layers as a route crossing them reads it (LayerCrossings): its ends,
// their box, and its pair of layers (lower first, as one key); the footprint's connections sorted
// by that key, so a route's crossings each read only their own pair's.
struct BoundaryPiece {
    P c0, c1;
    double x0, y0, x1, y1;
    uint64_t pair;
};
inline uint64_t layerPairKey(uint32_t a, uint32_t b) {
    return a < b ? uint64_t(a) << 32 | b : uint64_t(b) << 32 | a;
}
struct ChainVertex {
    uint32_t v;
    float lo; // the widest edge not on the chain (-1: none); the ends: +inf (a walk stops there)
};

// What snapping asks of an edge, copied at init: the layer it can be snapped to (both ends on
// it, not a portal; else 0xffffffff), its minimum clearance, and its polyline's bounding box, so
// edges farther than the candidates already found are passed over without measuring them.
struct EdgeSnap {
    double x0, y0, x1, y1;
    double min_clearance;
    uint32_t layer;
};

// A* state of one vertex, in one 32-byte record: relaxing an edge touches one cache line.
struct AStarNode {
    double g;
    double h;          // heuristic, computed when the vertex is first reached (same value later)
    uint32_t parent;   // edge index, or a start marker
    uint32_t stamp;    // state is valid when stamp == PathScratch::generation (no clearing)
    uint32_t heap_pos; // kClosed once expanded
    uint32_t via;      // parent is a chain: the chain vertex index its walk started from
};

// A* heap slot: the vertex and its f, kept together so sifting reads no other array.
struct HeapEntry {
    double f;
    uint32_t v;
};

// A segment clearance test the shortening already made in this query (Run::clear).
struct SegMemo {
    double ax, ay, bx, by, clearance;
    uint32_t layer;
    uint32_t round; // valid when == PathScratch::seg_memo_round
    uint32_t clear;
};
constexpr uint32_t kSegMemoSlots = 256; // a power of two

// A piece of the final corner list: its unit direction and length, computed once.
struct PieceGeom {
    P u;
    double length;
};

// findPath's markers (path.cpp, path_snap.cpp, path_scratch.cpp): no vertex / edge / layer, the
// A* parent of a vertex reached from the start's own edge, a vertex A* has expanded.
constexpr uint32_t kNone = 0xffffffffu;
constexpr uint32_t kStartBackward = 0xfffffffeu; // start leaves its edge towards vertex a
constexpr uint32_t kStartForward = 0xfffffffdu;  // ... towards vertex b
constexpr uint32_t kClosed = 0xffffffffu;
// The A* parent of a vertex reached across an off-mesh link (AStarNode::via: the link).
constexpr uint32_t kLinkParent = 0xfffffffcu;
// Points closer than this are the same corner.
constexpr double kSamePoint = 1e-6;
// Which ways along its edge a snapped endpoint may leave (snap's *directions).
constexpr uint8_t kTowardsA = 1, kTowardsB = 2;

// A* landmarks (ALT): graph distances from a few vertices of each component over every edge, at
// pathSharedInit.
constexpr uint32_t kLandmarks = 4;

} // namespace detail

// What the path queries read of one asset, derived from it alone (adjacency, blend index, edge
// snap data and lengths, A* landmarks and components, the wall grid): built once by pathSharedInit
// (or inside pathScratchInit's one block), then only read, by any number of threads at once.
struct PathShared {
    const uint8_t* data; // the roadmap this was built for
    uint32_t vertex_count, edge_count, blend_count, corner_capacity, layer_count, area_count;
    uint32_t wall_piece_count;
    uint32_t landmark_count;
    double heuristic_scale;
    uint32_t* adj_start;
    detail::AdjEntry* adj;
    uint32_t* blend_start;
    uint32_t* blend_ids;
    double* edge_length;
    double* edge_weight;
    detail::EdgeSnap* edge_snap;
    uint32_t* snap_cell_start;
    uint32_t* snap_cell_edges;
    detail::P* vertex_xy;
    double* landmark_dist;
    uint32_t* vertex_component;
    uint32_t* seed_start;              // per edge + 1: its portal seeds (buildPortalSeeds)
    detail::PortalSeed* seeds;
    uint32_t* across_index;            // per edge: its AcrossPortal, or kNone (buildAcrossPortals)
    detail::AcrossPortal* across;
    detail::BoundaryPiece* boundary_pieces; // the footprint's connections by pair of layers
    uint32_t boundary_piece_count;
    detail::ChainInfo* chains;         // buildChains: at most edge_count / 2
    detail::ChainStep* chain_steps;    // at most edge_count
    detail::ChainVertex* chain_vertices; // at most edge_count + edge_count / 2
    uint32_t chain_count;
    detail::WallGrid* wall_grids;
    uint32_t* wall_cell_start;
    detail::WallRef* wall_cell_items;
    uint32_t* wall_solid_start;
    detail::WallSeg* wall_solid_segs;
    detail::CellBox* wall_cell_box;
    detail::CellBox* wall_cell_pieces;
    uint8_t* wall_centre_inside; // per cell (as wall_cell_start): kCentreOutside / Inside / Unknown
    // Off-mesh links leaving each vertex: link_adj[link_start[v] .. link_start[v + 1]); both null
    // without links.
    uint32_t link_count;
    uint32_t* link_start;
    detail::LinkAdj* link_adj;
};

// One thread's query state, and const views of its PathShared's arrays under the names the queries
// read (filled from `shared` at init).
struct PathScratch {
    const PathShared* shared;
    const uint8_t* data; // the roadmap this scratch was built for
    uint32_t vertex_count, edge_count, blend_count, corner_capacity, layer_count;
    uint32_t generation; // vertex state is valid when stamp == generation (no clearing per query)
    uint32_t heap_size;
    const uint32_t* adj_start;   // vertex_count + 1
    const detail::AdjEntry* adj; // incident edges, self-loops left out
    const uint32_t* blend_start; // vertex_count + 1
    const uint32_t* blend_ids;   // blends grouped by vertex
    const double* edge_length;   // polyline length per edge
    const double* edge_weight;   // A* cost per metre of each edge (designer areas; 1 without)
    const detail::EdgeSnap* edge_snap;
    // Per edge, the last snap search that considered it ([0] is the search counter): an edge is
    // listed in every cell it crosses, and a second look never changes the candidates. Written
    // through const scratch like wall_seen.
    uint32_t* edge_seen;
    // The asset's edge grid split by layer (only edges snapping can use, in the asset's order):
    // per layer cells + 1 starts, at layer * (cells + 1). Layers stacked over one another would
    // otherwise make every snap walk the other storeys' edges. Three such grids one after the
    // other (snapClass): every edge, those wider than 0, those at least kSnapWide wide; a query
    // walks the narrowest that still holds every edge its radius may use (the spurs into the
    // corners, 0 wide, are 40 % of a roadmap's edges).
    const uint32_t* snap_cell_start;
    const uint32_t* snap_cell_edges;
    double heuristic_scale; // the smallest edge weight (<= 1), so the A* heuristic stays admissible
    uint32_t area_count;
    uint8_t* area_used;         // per designer area: the route (or a straight line's ends) enters it
    const detail::P* vertex_xy; // vertex positions in double, for the heuristic
    // Per vertex, its cost distance from each landmark over all edges (+inf: not connected), at
    // v * kLandmarks + l: |d_L(goal) - d_L(v)| bounds the cost from v to the goal at any radius
    // (a radius only removes edges), so A* may take the largest of these and the straight line.
    const double* landmark_dist;
    const uint32_t* vertex_component; // connected component of the whole graph (every edge)
    uint32_t landmark_count;
    const uint32_t* seed_start;      // edge_count + 1
    const detail::PortalSeed* seeds; // the portals of each whole edge, in its direction
    const uint32_t* across_index;
    const detail::AcrossPortal* across;
    const detail::BoundaryPiece* boundary_pieces;
    uint32_t boundary_piece_count;
    const detail::ChainInfo* chains; // chains of edges A* walks without the heap (ChainInfo)
    const detail::ChainStep* chain_steps;
    const detail::ChainVertex* chain_vertices;
    detail::AStarNode* nodes; // per vertex
    detail::HeapEntry* heap;
    uint32_t* route;                    // edges of the found route, in order
    detail::PathCorner* corners;        // path polyline before blending
    double* corner_clearance;           // shortening: wall distance at each corner; then findPath's
                                        // cache of each final corner's turn (NaN: not computed yet)
    detail::PathCorner* relaxed_run;    // shortening: one run's relaxed polyline, the fallback
    double* relaxed_requirement;        // and the clearance each of its pieces keeps
    detail::PieceGeom* pieces;          // findPath: each final piece's direction and length, in
                                        // relaxed_run's memory (used only while shortening)
    const detail::WallGrid* wall_grids; // layer_count
    const uint32_t* wall_cell_start;    // per layer nx * ny + 1 entries, at wall_grids[l].first_cell
    const detail::WallRef* wall_cell_items;
    const uint32_t* wall_solid_start; // same indexing as wall_cell_start: the solid pieces of each cell
    const detail::WallSeg* wall_solid_segs;
    const detail::CellBox* wall_cell_box; // same indexing as wall_cell_start (the last entry unused)
    // The same for the whole pieces listed in each cell (not only their parts inside it): a
    // search that rejects every piece of a cell may pass over the cell without changing the
    // order in which it meets the others.
    const detail::CellBox* wall_cell_pieces;
    const uint8_t* wall_centre_inside;
    // Per wall piece, the last query that measured it ([0] is the query counter): a piece listed
    // in several cells is measured once. Written through const scratch: only the queries use it
    // (findPath's, raycast's), and a scratch serves one thread.
    uint32_t* wall_seen;
    uint32_t wall_piece_count;
    detail::SegMemo* seg_memo; // kSegMemoSlots
    uint32_t seg_memo_round;   // shortenCorners calls: the memo's query stamp
    uint32_t link_count;       // PathShared's off-mesh link tables
    const uint32_t* link_start;
    const detail::LinkAdj* link_adj;
};

namespace detail {

// path_links.cpp: how many link entries the off-mesh links give (0 without links), and the
// tables (before buildChains: a vertex a link leaves is never passed over by a chain walk).
uint32_t linkEntryCount(const fb::Roadmap& rm);
void buildLinkTables(const fb::Roadmap& rm, PathShared* s);

// path_chains.cpp: the chains (ChainInfo) of the shared data's adjacency, after buildEdgeTables;
// `taken`: vertex_count words of work space.
void buildChains(PathShared* s, uint32_t* taken);
// path_corridor.cpp: how many portal seeds the roadmap's edges give, and the seeds themselves.
uint32_t portalSeedCount(const fb::Roadmap& rm);
void buildPortalSeeds(const fb::Roadmap& rm, PathShared* s);
// The across edges' portals (AcrossPortal): how many edges are across edges, and the portals, after
// the wall grid (`walls`: a scratch view of it, for the probes).
uint32_t acrossEdgeCount(const fb::Roadmap& rm);
// The polylines of connections: for each connection end (2 k: piece k's first end, 2 k + 1: its
// second) the end of the piece a walk goes on to from there, or kNone (`order`: 2 × connections
// words of work space); and the far end of the polyline from end `from`.
void linkConnectionEnds(const flatbuffers::Vector<const fb::Connection*>& pieces, uint32_t* next,
                        uint32_t* order);
P stretchEnd(const flatbuffers::Vector<const fb::Connection*>& pieces, const uint32_t* next, uint32_t from);
uint32_t connectionCount(const fb::Roadmap& rm);
// `next`, `order`: 2 × connectionCount words of work space each.
void buildAcrossPortals(const fb::Roadmap& rm, PathShared* s, const PathScratch& walls, uint32_t* next,
                        uint32_t* order);
// The snap grids by minimum clearance (PathScratch::snap_cell_start): 0 every edge, 1 wider
// than 0, 2 at least kSnapWide; the grid a search at `radius` may walk.
constexpr uint32_t kSnapClasses = 3;
constexpr double kSnapWide = 0.5;
inline uint32_t snapClass(double radius) {
    return radius >= kSnapWide ? 2 : radius > 0.0 ? 1 : 0;
}
inline bool inSnapClass(double min_clearance, uint32_t cls) {
    return cls == 0 || (cls == 1 ? min_clearance > 0.0 : min_clearance >= kSnapWide);
}
// A* parents of a chain walk: kChainParent + 2 * chain + (1 when it ran from vertex end1 towards
// end0), with AStarNode::via the chain vertex index it started from.
constexpr uint32_t kChainParent = 0x80000000u;

// walls.cpp. Every query is exact in double on the layer's float walls; "walls" are the solid
// ring pieces (portals excluded) except for wallsInside.
// Sizes the grids of every layer need (cell starts, items, solid items, distinct pieces), and their
// construction into the shared data `s`.
void wallGridSizes(const fb::Roadmap& rm, uint64_t* cell_entries, uint64_t* items, uint64_t* solid_items,
                   uint64_t* pieces);
void wallGridBuild(const fb::Roadmap& rm, PathShared* s);
// No wall touches a-b and every wall is at least `clearance` away from it.
bool wallsSegmentClear(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P a, P b,
                       double clearance);
// Arc geometry (walls.cpp): angle of p round `center` from `start` in the sweep's sense, in
// [0, 2 pi); v turned by `angle`; distance from p to the arc from `start` to `end` by `sweep`.
double angleAlong(P center, P start, double sweep, P p);
P rotate(P v, double angle);
double pointArcDistance(P center, double radius, P start, P end, double sweep, P p);
// Every wall at least `clearance` from the arc starting at `start` round `center` by `sweep`
// radians (> 0 counter-clockwise).
bool wallsArcClear(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P center, P start,
                   double sweep, double clearance);
// The largest trim <= room (halving from room, down to 1e-6) whose corner arc keeps `clearance`
// from every wall of `layer` and of `other_layer` (a corner where the path changes layer lies on
// both); 0 when none does.
double largestClearTrim(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, uint32_t other_layer,
                        P corner, P u, double turn, double room, double clearance);
// Nearest wall point; distance kInf for a layer without walls. `wall_direction`: the wall piece
// holding it, end minus start (the layer lies to its left).
double wallsNearest(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P p, P* nearest,
                    P* wall_direction = nullptr);
// The wall point nearest to segment a-b among those within `reach` of it and strictly on side
// `side` of the line a->b (+1 left, -1 right); false when there is none. piece_start / piece_end
// (optional): the ends of the wall piece holding it.
bool wallsNearestToSegment(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P a, P b,
                           double reach, double side, P* nearest, P* piece_start = nullptr,
                           P* piece_end = nullptr);
// The wall vertex (an end of a solid wall piece) that intrudes most into the band of half-width
// `clearance` on side `side` of segment a-b: the largest clearance - side * (signed distance to
// the line, + to the left), over vertices whose foot lies within the segment and that lie within
// `clearance` of it or inside quadrilateral `region` (where the segment swept from a clear path).
// False when no vertex intrudes.
bool wallsMostIntruding(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P a, P b,
                        double clearance, double side, const P region[4], P* vertex);
// Distance along unit `dir` from p to the first wall, capped at max_reach.
double wallsRay(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P p, P dir, double max_reach);
// Even-odd inside test over the layer's rings, through the grid row of p.
bool wallsInside(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P p);
// A disc sweep (walls.cpp): where a disc of some radius moving from p by v (t in [0, 1]) first
// touches a solid wall while moving towards it, and where its centre first crosses a portal piece
// outwards. kInf: none.
struct SweepContact {
    double t;
    P wall, normal; // the wall point touched; unit, from it towards the disc
    double portal_t;
};
// `slop`: a disc this close to touching a wall counts as touching (it then stops only when it
// moves towards the wall); the caller has checked the start keeps radius - slop.
void wallsSweep(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P p, P v, double radius,
                double slop, SweepContact* out);

// Wall distance at a point the caller already measured (wallsNearest), so it is not measured
// again; layer kNone: nothing known.
struct KnownClearance {
    P p;
    uint32_t layer;
    double distance;
};

// shorten.cpp: pulls corners[0..*count) taut keeping the clearance rule of findPath, and sets
// each corner's trim (arc size). Corners may move and be removed; portal pieces stay. `known`:
// the two endpoints' wall distances when findPath measured them.
void shortenCorners(const fb::Roadmap& rm, PathScratch* s, uint32_t* count, double radius,
                    double preferred_clearance, const KnownClearance known[2]);

// A query filter prepared for one findPath query (path_filter.cpp). findPath without a filter, or
// with the default one, has none (null), so its answers stay bit for bit.
struct ActiveFilter {
    uint16_t include, exclude;
    bool plain_costs;       // every multiplier 1
    double heuristic_scale; // min(1, the smallest multiplier): the A* heuristic stays admissible
    double cost[kAreaTypeCount];
};
// Null for the default filter (nothing to apply), else `out` prepared from `filter` (checked).
const ActiveFilter* prepareFilter(const QueryFilter& filter, ActiveFilter* out);
inline bool flagsPass(const ActiveFilter& f, uint16_t flags) {
    return (flags & f.include) != 0 && (flags & f.exclude) == 0;
}
// Every span of edge `edge` passes; and its cost per baked cost (the multipliers weighted by its
// spans' baked costs).
bool edgePasses(const fb::Roadmap& rm, const ActiveFilter& f, uint32_t edge);
double edgeCostFactor(const fb::Roadmap& rm, const ActiveFilter& f, uint32_t edge);
// An edge of the A* adjacency under the filter: false when excluded, else its cost in *cost.
inline bool filteredCost(const fb::Roadmap& rm, const ActiveFilter& f, const AdjEntry& a, double* cost) {
    if (!a.mixed_areas) {
        if (!flagsPass(f, a.area_flags)) return false;
        *cost = f.plain_costs ? a.cost : a.cost * f.cost[a.area_type];
        return true;
    }
    if (!edgePasses(rm, f, a.edge)) return false;
    *cost = f.plain_costs ? a.cost : a.cost * edgeCostFactor(rm, f, a.edge);
    return true;
}
// findPath (path.cpp) under a prepared filter (null: none), routing round `obstacles`' closed
// edges (obstacles.h; null: none).
struct ObstacleRoute;
Status findPathWith(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                    double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                    uint32_t max_segments, const ActiveFilter* filter,
                    const ObstacleRoute* obstacles = nullptr);
// The area flags and type of an edge with one span (else *mixed), for its AdjEntry.
void edgeAreaKind(const fb::Roadmap& rm, uint32_t edge, uint16_t* flags, uint8_t* type, uint8_t* mixed);

// Per designer area, PathScratch::area_used holds these bits: kAreaAvoided, set for each query
// (prepareAreas): a line may not enter it unless the route does; kAreaEntered: the route (or a
// straight line's ends) enters it.
constexpr uint8_t kAreaEntered = 1, kAreaAvoided = 2;
// Avoided: baked weight times the filter's multiplier > 1 (weight > 1 without a filter), or its
// flags fail the filter. Clears every mark.
void prepareAreas(const fb::Roadmap& rm, PathScratch* s, const ActiveFilter* filter);

// shorten.cpp, designer areas: a line the query makes up (the straight start-goal line, a
// shortened piece) must not enter an avoided area (kAreaAvoided) the route itself did not enter.
// Clears every area's kAreaEntered mark.
void clearAreaMarks(PathScratch* s);
// Marks (kAreaEntered) every avoided area of `layer` that segment a-b (a point when a == b) touches.
void markAreas(const fb::Roadmap& rm, PathScratch* s, uint32_t layer, P a, P b);
// No unmarked avoided area of `layer` touches a-b.
bool areasAllow(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P a, P b);
// Segment a-b (a point when a == b) touches area polygon `area`: an end inside, or a boundary edge
// meeting it (shorten.cpp).
bool touchesArea(const fb::Roadmap& rm, const fb::WeightedArea& area, P a, P b);
// An end's line onto the roadmap under `filter`: it touches no area on `layer` whose flags the
// filter fails, except one the end itself lies in (a unit standing in a closed door walks out).
bool closedAreasAllow(const fb::Roadmap& rm, const ActiveFilter& filter, uint32_t layer, P end, P onto);

// corridor_funnel.cpp: the Explicit Corridor Map's funnel (Geraerts 2010). A portal joins the
// nearest wall points left and right of one route point (direction of travel); the path keeps
// left_radius from `left` and right_radius from `right`; the *_end points are the portal's ends
// on the corridor shrunk by those radii (moved that far towards the route point).
// `open_before`: the corridor between the previous portal and this one is not known (a join or
// a crossed boundary between layers came between): it bounds nothing there. `unchecked_before`:
// that stretch is open, or lies along an edge whose corridor the bake did not check (its sides
// may not bound it): a line across it is checked against the walls.
struct CorridorPortal {
    P left, right, left_end, right_end;
    double left_radius, right_radius;
    bool open_before, unchecked_before;
};
// A disc the path wraps: centre, radius, side (+1 kept on the path's left, -1 right), and the
// portal whose side it lies on (kNone for the start and goal, radius 0). `clean`: the line
// arriving at it was checked and neither of its discs has changed since (tightening only).
struct CorridorWrap {
    P c;
    double r;
    uint32_t portal;
    int8_t side;
    bool clean;
};
// The line from disc `from` to disc `to` keeping each on its side: touch points, unit direction.
struct CorridorTangent {
    P from, to, u;
};
// The discs the shortest path from `start` to `goal` through portals[0..count) wraps, in order,
// into wraps; kNone when `capacity` is too small or tightening does not settle.
uint32_t corridorFunnel(const CorridorPortal* portals, uint32_t count, P start, P goal, CorridorWrap* wraps,
                        uint32_t capacity);
// Tightening alone, from wraps[0..n) (a disc the caller added, say): the new count, or kNone.
uint32_t corridorTighten(const CorridorPortal* portals, uint32_t count, P start, P goal, CorridorWrap* wraps,
                         uint32_t n, uint32_t capacity);
CorridorTangent corridorTangent(const CorridorWrap& from, const CorridorWrap& to);

inline bool finiteD(double v) {
    return std::isfinite(v);
}

// One layer's walls, queried through the scratch's wall grid.
struct LayerWalls {
    const fb::Roadmap& rm;
    const PathScratch& s;
    uint32_t layer;
};

// No wall touches a-b and every wall is at least `radius` away from it.
static inline bool segmentClear(const LayerWalls& walls, P a, P b, double radius) {
    return wallsSegmentClear(walls.rm, walls.s, walls.layer, a, b, radius);
}

// path_snap.cpp. Snap an endpoint: the nearest usable roadmap point that a straight, clear line reaches. Else
// a visible point on a narrower edge (a branch into a corner, say) from which the edge keeps the
// radius towards at least one of its vertices. *directions: which ways along the edge are clear.
// `retract_first` (the medial-axis path): the retraction is tried before the nearest edges, since
// along it the clearance grows as fast as it can.
// `filter`: only edges it passes.
bool snap(const fb::Roadmap& rm, const PathScratch& scratch, uint32_t layer, P p, double radius,
          bool retract_first, RoadmapPoint* out, uint8_t* directions, const ActiveFilter* filter = nullptr);
// Along-polyline distance from vertex a to a point on the edge.
double alongEdge(const fb::Roadmap& rm, const RoadmapPoint& q);
// Closest point of an edge's polyline to p (distance filled in).
RoadmapPoint closestOnEdge(const fb::Roadmap& rm, uint32_t edge, P p);

// --- binary heap on f, with positions for decrease-key ---
// Sifting moves a hole and writes the moving entry once: the same comparisons, so the same heap,
// as swapping at every level.

static inline void heapPlace(PathScratch* s, uint32_t i, HeapEntry e) {
    s->heap[i] = e;
    s->nodes[e.v].heap_pos = i;
}
static inline void heapUp(PathScratch* s, uint32_t i) {
    const HeapEntry e = s->heap[i];
    while (i > 0) {
        const uint32_t parent = (i - 1) / 2;
        if (s->heap[parent].f <= e.f) break;
        heapPlace(s, i, s->heap[parent]);
        i = parent;
    }
    heapPlace(s, i, e);
}
static inline void heapDown(PathScratch* s, uint32_t i) {
    const HeapEntry e = s->heap[i];
    const uint32_t n = s->heap_size;
    for (;;) {
        const uint32_t l = 2 * i + 1, r = l + 1;
        uint32_t m = i;
        double fm = e.f;
        if (l < n && s->heap[l].f < fm) m = l, fm = s->heap[l].f;
        if (r < n && s->heap[r].f < fm) m = r;
        if (m == i) break;
        heapPlace(s, i, s->heap[m]);
        i = m;
    }
    heapPlace(s, i, e);
}
static inline uint32_t heapPop(PathScratch* s) {
    const uint32_t top = s->heap[0].v;
    --s->heap_size;
    if (s->heap_size) {
        s->heap[0] = s->heap[s->heap_size];
        heapDown(s, 0);
    }
    s->nodes[top].heap_pos = kClosed;
    return top;
}

// Lowers v's cost to g (heuristic h(v) added for f); ignores closed vertices and costs that are
// no better. The heuristic (a square root) is computed once per vertex and only when it is reached.
template <typename H>
static inline void relax(PathScratch* s, uint32_t v, double g, H h, uint32_t parent, uint32_t via = 0) {
    if (s->nodes[v].stamp == s->generation) {
        if (s->nodes[v].heap_pos == kClosed || g >= s->nodes[v].g) return;
        s->nodes[v].g = g;
        s->heap[s->nodes[v].heap_pos].f = g + s->nodes[v].h;
        s->nodes[v].parent = parent;
        s->nodes[v].via = via;
        heapUp(s, s->nodes[v].heap_pos);
        return;
    }
    s->nodes[v].stamp = s->generation;
    s->nodes[v].g = g;
    s->nodes[v].h = h(v);
    s->nodes[v].parent = parent;
    s->nodes[v].via = via;
    s->heap[s->heap_size] = HeapEntry{g + s->nodes[v].h, v};
    s->nodes[v].heap_pos = s->heap_size;
    heapUp(s, s->heap_size++);
}

} // namespace detail
} // namespace clearway
