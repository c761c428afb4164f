// clearway runtime: loads baked assets zero-copy and answers queries.
//
// Safe for untrusted input: every load verifies the bytes (FlatBuffers verifier plus semantic
// checks: identifier, version, indices in range, finite numbers) before any accessor reads them,
// so a truncated, modded or corrupted asset yields a status code, never a crash.
// C++17, no exceptions, no RTTI, no allocation: views point into the caller's memory, which must
// outlive them and may be a read-only mapping shared between instances.
#pragma once

#include <cstddef>
#include <cstdint>

namespace clearway {

enum class Status : int32_t {
    Ok = 0,
    InvalidArgument,    // null pointer, index out of range
    BufferTooSmall,     // output buffer cannot hold the result
    WrongAssetKind,     // file_identifier does not match (e.g. a roadmap passed as a footprint)
    UnsupportedVersion, // format_version newer than this runtime understands
    CorruptAsset,       // FlatBuffers verification or a semantic check failed
    NotFound,           // e.g. a point outside every layer
    // Appended values (existing callers that treat anything but Ok as failure stay correct):
    Partial,       // findPathPartial: the goal is unreachable; the path ends at the reachable
                   // roadmap point nearest to it
    PortalReached, // raycast / moveAlongSurface: the motion left the layer through a portal and
                   // stopped on its line (continue on the other layer: locatePoint)
    Blocked,       // raycast / moveAlongSurface: the start is already closer than the radius to a
                   // wall, so nothing moved (nearestValidPosition finds a free spot)
    ScratchTooSmall, // findPath: the route has more points than the scratch was sized for
                     // (pathScratchSizeForRoutes); a scratch for longer routes answers it
    CapacityReached, // obstacleAdd*: the obstacle set holds `capacity` obstacles already
};

// Short English description of a status ("asset is corrupt", ...).
const char* statusString(Status status);

// The checks every asset loader makes before the FlatBuffers verifier runs: `data` non-null and
// 8-byte aligned (assets hold doubles read in place; the verifier only checks alignment relative
// to the buffer start), a size the verifier accepts, and the 4-character file identifier
// (WrongAssetKind when another asset kind is passed). Exposed so loaders of new asset kinds
// (and lib/motion's) share one definition.
Status checkAssetBuffer(const void* data, size_t size, const char identifier[4]);

struct Vec2f {
    float x, y;
};
struct Vec3f {
    float x, y, z;
};
struct Vec3d {
    double x, y, z;
};

// ---------------------------------------------------------------------------------------------
// Footprint assets (.cwfp, schemas/footprint.fbs)

constexpr uint32_t kFootprintFormatVersion = 1;

struct FootprintView {
    const uint8_t* data = nullptr; // verified FlatBuffer, owned by the caller
    size_t size = 0;
};

// Verifies `size` bytes at `data` and fills `out`. Only Ok leaves `out` usable; on failure it is
// reset to an empty view. `data` must be 8-byte aligned (any malloc/new/mmap buffer is), else
// InvalidArgument: FlatBuffers reads doubles in place.
Status loadFootprint(const void* data, size_t size, FootprintView* out);

struct FootprintInfo {
    uint32_t format_version;
    uint32_t layer_count;
    uint32_t connection_count;
    uint64_t input_hash;
    uint64_t options_hash;
    Vec3d origin;              // internal-frame (Z-up, metres) position of local (0,0,0)
    double grid_spacing;       // boundary vertices are multiples of this
    uint8_t up_axis;           // 0 = Y-up source mesh, 1 = Z-up (an asset without options: Y-up)
    double scale;              // source units -> metres, > 0 (an asset without options: 1)
    const char* baker_version; // points into the asset (NUL-terminated), never null
};
Status footprintInfo(const FootprintView& view, FootprintInfo* out);

struct FootprintLayerInfo {
    uint32_t polygon_count;
    uint32_t ring_count;
    uint32_t boundary_vertex_count;
    uint32_t surface_vertex_count;
    uint32_t surface_triangle_count;
    double area; // m^2
    float height_min, height_max;
};
Status footprintLayer(const FootprintView& view, uint32_t layer, FootprintLayerInfo* out);

// Polygon `polygon` of a layer: its first ring is the outer boundary (counter-clockwise), the
// rest are holes (clockwise). Ring indices are layer-wide, for footprintRing().
Status footprintPolygon(const FootprintView& view, uint32_t layer, uint32_t polygon, uint32_t* first_ring,
                        uint32_t* ring_count);
// Zero-copy: *vertices points into the asset; *count vertices, the last not repeated.
Status footprintRing(const FootprintView& view, uint32_t layer, uint32_t ring, const Vec2f** vertices,
                     uint32_t* count);

struct FootprintConnection {
    uint32_t layer_a, layer_b;
    Vec2f p0, p1;     // portal segment, local ground-plane coordinates
    float z_a0, z_a1; // surface heights on layer_a at p0, p1
    float z_b0, z_b1; // surface heights on layer_b at p0, p1
};
Status footprintConnection(const FootprintView& view, uint32_t index, FootprintConnection* out);

// Height of layer `layer`'s walkable surface under local ground point (x, y): the surface triangle
// containing it, or the nearest one within `tolerance` metres (boundaries are simplified within
// the bake epsilon). NotFound when no triangle is that close (then *height is unchanged);
// InvalidArgument for a bad layer, non-finite x/y or a negative tolerance.
Status footprintHeightAt(const FootprintView& view, uint32_t layer, float x, float y, float tolerance,
                         float* height);

// Coordinate frames. World = the source mesh's coordinates. Internal = Z-up metres.
// Local = internal - origin (what the asset stores, in floats).
Vec3d footprintWorldToLocal(const FootprintInfo& info, Vec3d world);
Vec3d footprintLocalToWorld(const FootprintInfo& info, Vec3d local);

// ---------------------------------------------------------------------------------------------
// Roadmap assets (.cwrm, schemas/roadmap.fbs): the medial-axis roadmap plus its footprint

constexpr uint32_t kRoadmapFormatVersion = 1;

struct Vec2d {
    double x, y;
};

struct RoadmapView {
    const uint8_t* data = nullptr; // verified FlatBuffer, owned by the caller
    size_t size = 0;
};

// Same contract as loadFootprint: verifies everything (the embedded footprint with the same
// checks), never allocates; `data` must be 8-byte aligned.
Status loadRoadmap(const void* data, size_t size, RoadmapView* out);

struct RoadmapInfo {
    uint32_t format_version;
    uint32_t vertex_count, edge_count, point_count, blend_count;
    uint32_t layer_count; // of the embedded footprint
    uint64_t input_hash, options_hash;
    double min_clearance; // bake option: edges narrower than this were dropped
    double epsilon;       // bake option: chords within this of the exact parabolic arcs
    bool merge_chains;
    uint32_t grid_cells_x, grid_cells_y;
    float grid_cell_size;
    const char* baker_version; // points into the asset, never null
};
Status roadmapInfo(const RoadmapView& view, RoadmapInfo* out);

// The embedded footprint as a view into the same bytes: every footprint accessor works on it.
Status roadmapFootprint(const RoadmapView& view, FootprintView* out);

struct RoadmapVertexInfo {
    Vec3f position;  // local
    float clearance; // distance to the nearest wall
    uint32_t layer;
};
Status roadmapVertex(const RoadmapView& view, uint32_t index, RoadmapVertexInfo* out);

enum class ClearanceSite : uint8_t { Point = 0, Segment = 1, Walls = 2 };

struct RoadmapEdgeInfo {
    uint32_t a, b;       // vertex indices; the polyline runs from a to b
    const Vec2f* points; // zero-copy into the asset, point_count >= 2, both ends included
    uint32_t point_count;
    float min_clearance; // exact minimum distance to the walls along the polyline
    ClearanceSite site;  // clearance anywhere = distance to site_p0 (Point) or site_p0-site_p1 (Segment)
    bool portal;         // crosses a connection between layers
    Vec2f site_p0, site_p1;
    Vec2f left_a, right_a, left_b, right_b; // nearest wall points on either side at a and b
};
Status roadmapEdge(const RoadmapView& view, uint32_t index, RoadmapEdgeInfo* out);

// Nearest wall points left and right of one polyline point, relative to its edge's direction
// a -> b (the Explicit Corridor Map's closest obstacle points, Geraerts 2010). On medial-axis
// edges both lie the point's clearance away; between two points each stays on one wall feature.
// Not wall points on straight links: a portal edge holds the portal's two ends, a link to a portal
// vertex the portal's midpoint, a designer edge its own end points.
struct RoadmapPointSides {
    Vec2f left, right;
};
// Edge `index`'s sides, one per polyline point: *sides points into the asset (zero-copy), *count
// = the edge's point_count. NotFound for assets baked before sides were stored; InvalidArgument
// for a bad index or null outputs.
Status roadmapEdgeSides(const RoadmapView& view, uint32_t index, const RoadmapPointSides** sides,
                        uint32_t* count);

// How an edge's corridor is known. PointSides: its points' sides bound it exactly (medial-axis
// edges); Chain: a merged chain's straight edge, bounded by the samples of the chain it bypasses
// (Voronoi vertices with their sides, from a to b); Unchecked: joins, designer edges, tile cuts and
// every edge of older assets (findPath checks a path through them against the walls).
enum class EdgeCorridorKind : uint8_t { Unchecked = 0, PointSides = 1, Chain = 2 };
struct RoadmapCorridorPoint {
    Vec2f at;          // on the medial axis
    Vec2f left, right; // nearest wall points, relative to the edge's direction a -> b
};
// Edge `index`'s corridor kind and, for Chain edges, its samples (*points into the asset,
// zero-copy; null and 0 otherwise). InvalidArgument for a bad index or null outputs.
Status roadmapEdgeCorridor(const RoadmapView& view, uint32_t index, EdgeCorridorKind* kind,
                           const RoadmapCorridorPoint** points, uint32_t* count);

// Arc joining edge_in (arriving at vertex) and edge_out (leaving it), tangent to both; radius 0:
// no arc (collinear, or none keeps the clearance).
struct RoadmapBlend {
    uint32_t vertex, edge_in, edge_out;
    Vec2f center;
    float radius;
    Vec2f p_in, p_out;
    bool ccw; // sense from p_in to p_out
    float min_clearance;
};
Status roadmapBlend(const RoadmapView& view, uint32_t index, RoadmapBlend* out);

// Off-mesh links (Detour's off-mesh connections; designer `link` statements, docs/formats.md
// "Designer edits"): a jump, ladder, door, ... from vertex a to vertex b, possibly on another
// layer. findPath crosses one at `length + cost` (length: the straight 3D distance between the
// ends), for agents of radius <= max_radius, and emits it as a PathSegmentType::Link segment.
enum class LinkKind : uint8_t { Jump = 0, Ladder = 1, Door = 2, Teleport = 3, Custom = 4 };
struct RoadmapLinkInfo {
    uint32_t a, b;    // roadmap vertices: the start and the end
    Vec3f start, end; // their local positions
    uint32_t layer_a, layer_b;
    float cost;        // >= 0, added to length
    float max_radius;  // > 0, +infinity: any agent
    uint16_t flags;    // what query filters test (as an area's flags)
    uint8_t area_type; // 0 .. 63: which QueryFilter::area_cost multiplies its cost
    LinkKind kind;
    bool bidirectional; // else only a -> b
    double length;      // straight 3D distance from start to end
};
// 0 for an asset without links (or an empty view).
uint32_t roadmapLinkCount(const RoadmapView& view);
Status roadmapLink(const RoadmapView& view, uint32_t index, RoadmapLinkInfo* out);

struct RoadmapPoint {
    uint32_t edge;
    uint32_t piece; // polyline piece points[piece]..points[piece + 1]
    double t;       // 0..1 along that piece
    Vec2d position;
    double distance; // from the query point
};

// Closest point to local (x, y) on a non-portal edge of `layer` whose min_clearance >= radius,
// found through the asset's edge grid (cells in rings around the point, not every edge).
// NotFound when the layer has no such edge; InvalidArgument for bad layer / non-finite input.
Status nearestRoadmapPoint(const RoadmapView& view, uint32_t layer, double x, double y, double radius,
                           RoadmapPoint* out);

// ---------------------------------------------------------------------------------------------
// Path queries on a roadmap (Nieuwenhuisen et al. 2004 "Answering path queries")

// Memory for the path queries, in two parts. PathShared: what the queries read of one roadmap
// (adjacency, blend index, edge snap data, A* landmarks, the wall grid), built once per loaded
// roadmap and immutable afterwards, so any number of threads may read it at once. PathScratch: one
// thread's query state (A* nodes and heap, corners, stamps), pointing at a PathShared; one scratch
// per thread, never used by two threads at once. Queries never allocate. A game builds one
// PathShared per loaded roadmap and one scratch on it per query thread; pathScratchInit builds
// both parts into one block (a single-threaded caller's shortcut; the answers are the same).
struct PathShared;  // lives inside the caller's memory
struct PathScratch; // lives inside the caller's memory

Status pathSharedSize(const RoadmapView& view, size_t* bytes);
// `memory` needs `bytes` from pathSharedSize (any alignment); it and the view's bytes must outlive
// *out and every scratch on it. BufferTooSmall when `bytes` is less.
Status pathSharedInit(const RoadmapView& view, void* memory, size_t bytes, PathShared** out);
// A scratch on `shared` (for the roadmap it was built from; queries on another roadmap's view
// return InvalidArgument). `memory` needs `bytes` from pathScratchSizeShared (any alignment); it
// must outlive *out. BufferTooSmall when `bytes` is less.
Status pathScratchSizeShared(const PathShared* shared, size_t* bytes);
Status pathScratchInitShared(const PathShared* shared, void* memory, size_t bytes, PathScratch** out);
// The same for routes of at most `max_route_points` roadmap polyline points (0: any route, as
// above). The route's corner arrays (240 bytes per point) are most of a thread's scratch; a scratch
// sized by the routes a game asks for is a fraction of one sized for the whole level. A query whose
// route needs more returns ScratchTooSmall (nothing written); PathPhaseTimes::max_route_points says
// what a run of queries used.
Status pathScratchSizeForRoutes(const PathShared* shared, uint32_t max_route_points, size_t* bytes);
Status pathScratchInitForRoutes(const PathShared* shared, uint32_t max_route_points, void* memory, size_t bytes,
                                PathScratch** out);

// Both parts in one block: a PathShared for `view` and a scratch on it.
Status pathScratchSize(const RoadmapView& view, size_t* bytes);
// `memory` needs `bytes` from pathScratchSize (any alignment); it must outlive *out.
Status pathScratchInit(const RoadmapView& view, void* memory, size_t bytes, PathScratch** out);

struct PathEndpoint {
    double x, y; // local ground-plane coordinates
    uint32_t layer;
};

// Link: an off-mesh link crossed from start to end (roadmapLink(link) says which and what kind; the
// game plays its animation); it may end on another layer, which the next segment starts on.
enum class PathSegmentType : uint8_t { Line = 0, Arc = 1, Link = 2 };

struct PathSegment {
    PathSegmentType type;
    bool portal;    // runs along a connection between layers (then it ends on another layer)
    uint32_t layer; // layer at the start of the segment
    Vec2d start, end;
    Vec2d center;  // Arc only
    double radius; // Arc only, > 0
    double sweep;  // Arc only: signed angle, > 0 counter-clockwise
    double length; // Link: the straight 3D distance between its ends
    uint32_t link; // Link only: the link's index (roadmapLink); 0 otherwise
    uint32_t end_layer; // Link only: the layer its end lies on (the next segment's); 0 otherwise
};

// Path from start to goal keeping clearance >= radius from the layer walls (every ring of the
// footprint layer, portal pieces included): a straight line when one is clear (and enters no
// avoided designer area that neither end lies in; not for +infinity, below); else start ->
// nearest usable roadmap point reachable by a clear straight line (or, failing that, a visible
// point on a narrower edge whose way to one of its vertices is checked clear) -> A* over edges
// with min_clearance >= radius, cost = polyline length times the edge's designer-area weight
// (README "Designer edits"; 1 without areas) -> goal. Joins: the stored blends at
// roadmap vertices (scaled down where a piece is cut short; only blends whose own clearance >=
// radius), arcs checked against the walls at the two snap points, arcs checked against the focus
// at chord corners of parabolic edges; portal ends stay sharp. Consecutive segments share
// endpoints exactly; at every arc the headings match to rounding. *out_count is always the number
// needed: BufferTooSmall when it exceeds max_segments (then `out` holds the first max_segments).
// NotFound: start or goal outside the layer's footprint, no clear line to the roadmap, or no route
// at this radius.
//
// Shortening: the route is pulled taut inside its corridor. On assets with point sides (every bake
// since they exist), for routes on one layer without designer areas, this is the Explicit Corridor
// Map's shortest path with clearance (Geraerts 2010): a funnel over the portals between the nearest
// wall points left and right of the route, tightened onto discs round the wall points, every line
// checked against the walls; at preferred_clearance <= radius it is exactly the shortest path with
// that clearance inside the corridor. Above the radius each side keeps max(radius,
// min(preferred_clearance, the corridor's half-width there)) where a taut path allows (else less,
// down to the radius), so a path is never shorter than the one at the radius. Other routes take the
// polyline shortening (string pulling against the walls, arcs round the wall points it settles on),
// which keeps the clearance but is not exactly shortest. Above the radius the straight start-goal
// line must keep min(preferred_clearance, the clearance of both ends); at the radius alone it is
// still taken when the path along the roadmap is more than 1.10 times as long, or there is none.
//
// +infinity is the medial-axis path, the most clearance the roadmap offers: each end retracts
// onto the roadmap first (straight away from its nearest wall, where the clearance grows
// fastest; else the snaps above), the route follows the edges, with the joins above. No straight
// line stands in for it, however clear, except where the roadmap gives no route or the path would
// turn back on itself with no room for an arc (then the line at the radius, if clear). As in
// every mode, an end may snap onto part of a narrower edge (a spur into a corner), and the route
// then leaves it only towards the vertex its clear stretch reaches.
Status findPath(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                uint32_t max_segments);

// Query filters (Detour's dtQueryFilter): which parts of the roadmap a query may use and what
// each area type costs, given per query. Designer areas carry an area type (0 .. 63) and flags
// (docs/formats.md "Designer edits"); ground outside every area is type 0 with the walk flag, and
// an edge carries the types and flags of every stretch of it (assets baked before areas had types:
// every area type 0, flags kAreaFlagWalk).
constexpr uint32_t kAreaTypeCount = 64;
constexpr uint16_t kAreaFlagWalk = 1;

struct QueryFilter {
    // A stretch passes when its flags share a bit with include_flags and none with exclude_flags; an
    // edge is used only when all of its stretches pass (a closed door's edge is never crossed).
    uint16_t include_flags;
    uint16_t exclude_flags;
    // Cost multiplier per area type, on top of the baked area weights: finite and > 0. Multipliers
    // below 1 are allowed; A* then scales its heuristic by the smallest one so it stays admissible.
    float area_cost[kAreaTypeCount];
};

// The filter that reproduces findPath without one, bit for bit: include every flag, exclude none,
// every multiplier 1.
QueryFilter defaultQueryFilter();
// Ok, or InvalidArgument for a multiplier that is NaN, infinite, 0 or negative.
Status checkQueryFilter(const QueryFilter& filter);

// findPath under `filter`: A* skips the edges it excludes and multiplies each stretch's cost by its
// type's multiplier; the ends snap only onto edges it passes, by lines that enter no area it
// excludes (unless the end lies in it); straight lines and the shortening keep out of areas it
// excludes (unless an end lies in one) and out of areas it makes avoided (baked weight times
// multiplier > 1) that the route does not enter. InvalidArgument as findPath, and for a
// filter checkQueryFilter rejects. With defaultQueryFilter() every answer is findPath's.
// (Its own name, not a findPath overload: code that takes findPath's address keeps compiling.)
Status findPathFiltered(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                        double radius, double preferred_clearance, const QueryFilter& filter,
                        PathSegment* out, uint32_t* out_count, uint32_t max_segments);

// Diagnostics for benchmarks: findPath's wall-clock time split by phase, accumulated per thread
// while enabled (off by default: then each phase costs one branch). line: arguments, the ends'
// inside tests and the straight line; snap: both ends onto the roadmap; search: A* and the route;
// corridor: the route's portals; funnel: the funnel and its tightening; verify: every line
// checked against the walls (and the discs that adds); output: the segments
// of a funnel path; fallback: the polyline shortening, for assets without corridor sides and
// routes across layers or near avoided areas.
struct PathPhaseTimes {
    double line_us, snap_us, search_us, corridor_us, funnel_us, verify_us, output_us, fallback_us;
    uint64_t queries, straight_lines, funnel_paths, fallback_paths;
    uint32_t max_route_points; // the most route points (portals or corners) one query used
};
void pathPhaseTiming(bool enable);
// The times since the last call (or since timing was enabled), then reset to zero.
PathPhaseTimes pathPhaseTimesTake();

// findPath with Detour's partial results (DT_PARTIAL_RESULT): where findPath gives NotFound but the
// start itself is usable (inside its layer, a clear line to the roadmap at this radius), the goal is
// replaced by the point nearest to it in the ground plane (goal's layer first, then any layer) among
// the roadmap edges the start reaches at this radius (edges with min_clearance >= radius, and the
// off-mesh links findPath may cross; not portals), and the findPath result to that point is returned with
// status Partial: its last segment ends on that point. Everything findPath answers otherwise (Ok,
// BufferTooSmall, InvalidArgument) is returned unchanged, bit for bit; NotFound remains for a start
// outside its layer or with no clear way to the roadmap. findPath itself keeps NotFound for
// unreachable goals, so callers that test for it see no change.
Status findPathPartial(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                       double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                       uint32_t max_segments);
// findPathPartial under a query filter: the stand-in goal lies on an edge the filter passes, reached
// over edges it passes (a door it closes cuts off the rooms behind it), and both findPath calls are
// findPathFiltered's. With defaultQueryFilter() every answer is findPathPartial's.
Status findPathPartialFiltered(const RoadmapView& view, PathScratch* scratch, PathEndpoint start,
                               PathEndpoint goal, double radius, double preferred_clearance,
                               const QueryFilter& filter, PathSegment* out, uint32_t* out_count,
                               uint32_t max_segments);

// Temporary obstacles (Detour TileCache's obstacles, without a re-bake): discs and oriented boxes
// added and removed at run time in a set that lives in caller memory. findPathAvoiding keeps a
// path's clearance >= radius from them as from the walls (docs/runtime.md "Temporary obstacles").
struct ObstacleSet; // lives inside the caller's memory

// Bytes a set of `capacity` obstacles needs (any alignment; 0 for capacity 0 or > 65535).
size_t obstacleSetBytes(uint32_t capacity);
// An empty set in `memory`, which must outlive it. InvalidArgument: null pointers, capacity 0 or
// > 65535; BufferTooSmall: `bytes` below obstacleSetBytes(capacity).
Status obstacleSetInit(void* memory, size_t bytes, uint32_t capacity, ObstacleSet** out);
// A disc of radius `radius` >= 0 round `centre` on `layer` (local ground plane); *id names it for
// obstacleRemove. CapacityReached when the set is full (nothing added); InvalidArgument for null
// pointers, a non-finite angle, a negative radius, sizes above 1e6 m or a centre beyond 1e9 m
// (NaN included). The layer is checked by the queries (an
// obstacle on a layer the roadmap does not have is never met).
Status obstacleAddDisc(ObstacleSet* set, uint32_t layer, Vec2d centre, double radius, uint32_t* id);
// A box: `half_extents` (>= 0) along its own axes, turned by `angle` radians counter-clockwise.
Status obstacleAddBox(ObstacleSet* set, uint32_t layer, Vec2d centre, Vec2d half_extents, double angle,
                      uint32_t* id);
// Removes obstacle `id` (its slot is reused; the id is not). InvalidArgument for an unknown id.
Status obstacleRemove(ObstacleSet* set, uint32_t id);
// Obstacles in the set now.
uint32_t obstacleCount(const ObstacleSet* set);

// findPath (findPathFiltered with a non-null filter) whose path also keeps clearance >= radius from
// every obstacle of `obstacles` on the segment's layer (to rounding, 1e-9 m): a disc's centre at
// least its radius + `radius` away, a box at least `radius`. The obstacle-free path is computed
// first and kept, bit for bit, when it clears every obstacle (always with a null or empty set, so
// removing the obstacles restores findPath's path). Else, obstacle by obstacle along the path, the
// stretch that meets one is replaced by the shortest way round it grown by the radius (lines
// tangent to its arcs; a kink where the way leaves and rejoins the path), checked against the walls
// and every obstacle; obstacles that block each other's ways are passed as one (the convex hull of
// up to 4, every disc grown to the largest). Where no way round fits, A* runs again with the edges
// those obstacles reach closed, then once more for the medial-axis path (which keeps to the edges).
// NotFound as findPath, and when the start or goal lies within the radius of an obstacle or every
// reroute still meets one. BufferTooSmall: *out_count is at least the number needed (the ways round
// are known only once the whole path is: retry with that many). Never allocates.
Status findPathAvoiding(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                        double radius, double preferred_clearance, const QueryFilter* filter,
                        const ObstacleSet* obstacles, PathSegment* out, uint32_t* out_count,
                        uint32_t max_segments);

// ---------------------------------------------------------------------------------------------
// Path evaluation (Pinter 2001 Listing 2): pose at arc length along a findPath result

// Where an agent is on a path. Heights come from the footprint surface of the segment's layer
// (portal segments interpolate between the two layers' heights at their ends).
struct PathPose {
    Vec3d position;   // local coordinates (footprintLocalToWorld turns them into mesh coordinates)
    double heading;   // radians, counter-clockwise from +x of the ground plane
    double curvature; // signed 1/m: > 0 turning left, 0 on lines
    double s;         // arc length from the path start, clamped to [0, length]
    uint32_t layer;
    uint32_t segment; // index of the segment holding s
};

// Total length of segments[0..count), metres (0 for count 0 or a null pointer).
double pathTotalLength(const PathSegment* segments, uint32_t count);
// Pose at arc length s (clamped to the path). InvalidArgument for null pointers, count 0 or a
// non-finite s. `view` supplies the heights; a view without a usable surface there keeps z = 0
// and still returns Ok (the ground-plane pose is exact either way).
Status pathPoseAt(const RoadmapView& view, const PathSegment* segments, uint32_t count, double s,
                  PathPose* out);
// Poses every `step` metres from s = 0, plus the exact end. *out_count is the number needed:
// BufferTooSmall when it exceeds max_out (then `out` holds the first max_out).
Status pathSample(const RoadmapView& view, const PathSegment* segments, uint32_t count, double step,
                  PathPose* out, uint32_t* out_count, uint32_t max_out);

// ---------------------------------------------------------------------------------------------
// Walls and corridors: exact distances to the walls of a layer, through the wall grid the path
// data (PathShared) builds at init (no allocation per query)

// Distance from local (x, y) to the nearest wall of `layer` (every ring edge, portal pieces
// included) and the nearest wall point. InvalidArgument for a bad layer or non-finite input.
Status wallDistance(const RoadmapView& view, const PathScratch* scratch, uint32_t layer, double x, double y,
                    double* distance, Vec2d* nearest);

// Free space across a path at arc length s: along the left and right normals of the heading, the
// distance to the first wall (capped at `max_reach`), and the clearance (distance to the nearest
// wall in any direction). A group's corridor (Nieuwenhuisen et al. 2004) is these bounds capped by the group width.
struct CorridorSample {
    double s;
    Vec2d position;     // path point at s (local ground plane)
    Vec2d left_normal;  // unit vector to the left of the heading
    double left, right; // free distance along +left_normal and -left_normal, <= max_reach
    double clearance;   // distance to the nearest wall
    uint32_t layer;
};
Status pathCorridorAt(const RoadmapView& view, const PathScratch* scratch, const PathSegment* segments,
                      uint32_t count, double s, double max_reach, CorridorSample* out);

// Which layer a local 3D point stands on: among the layers whose footprint contains (x, y), the
// highest surface at most `step_up` above z (the floor under the point), else the lowest surface
// above it. `scratch` may be null (then every wall is scanned instead of the grid). NotFound when
// no layer contains the point.
Status locatePoint(const RoadmapView& view, const PathScratch* scratch, Vec3d local, double step_up,
                   PathEndpoint* out);

// ---------------------------------------------------------------------------------------------
// Character queries on one layer's walls (Detour's raycast, moveAlongSurface, findNearestPoly),
// exact in double against the layer's solid walls through the scratch's wall grid: the cost follows
// the length of the motion, not the size of the level. Portal pieces are not walls; a motion that
// crosses one stops on its line with PortalReached. Slop: a start within 1e-9 (relative to the
// coordinates' size) of the radius counts as touching, not inside, and a motion along a wall at
// exactly the radius (a slide) is not stopped by it.

struct RaycastHit {
    double distance; // how far the disc's centre moved, metres
    double t;        // distance / |end - start|, in [0, 1]; 1 when it reached `end`
    Vec2d position;  // the disc's centre where it stopped (on a portal line for PortalReached)
    Vec2d wall;      // the wall point it touches (Ok with t < 1 or Blocked); else = position
    Vec2d normal;    // unit, from the wall towards the disc (Ok with t < 1 or Blocked); else 0, 0
    bool hit;        // a wall stopped the disc before `end`
};

// Sweeps a disc of `radius` from local `start` towards `end` on `layer` and stops at the first wall
// it would touch while moving towards it. Ok: hit says whether a wall stopped it (then the centre
// is exactly `radius` from `wall`, to rounding); PortalReached: the centre crossed a portal piece
// (moving out of the layer) before any wall; Blocked: the start is closer than the radius to a wall
// (distance 0, the nearest wall point and the normal away from it); NotFound: start outside the
// layer (a start on a portal line counts when the motion goes into the layer). InvalidArgument:
// null pointers, a scratch of another roadmap, a bad layer, non-finite input or a negative radius.
Status raycast(const RoadmapView& view, const PathScratch* scratch, uint32_t layer, Vec2d start, Vec2d end,
               double radius, RaycastHit* hit);

// Character-controller step: moves a disc of `radius` from `start` towards `end`, sliding along
// the walls it meets (the remaining motion projected on the wall's tangent, up to 4 contacts; it
// stops in a corner where the slide would press into the previous wall). *result never lies closer
// than the radius to a wall (to rounding). Statuses as raycast's (PortalReached: *result on the
// portal line; Blocked: *result = start).
Status moveAlongSurface(const RoadmapView& view, const PathScratch* scratch, uint32_t layer, Vec2d start,
                        Vec2d end, double radius, Vec2d* result);

// The point nearest to local `point` with clearance >= radius from the walls, for spawn points and
// clicks off the walkable area. The layer is locatePoint's (the floor under the point) when the
// point lies on one and a free spot is found there; else every layer is tried and the one whose
// spot is nearest wins, counting heights like locatePoint (distance in 3D to the spot's surface
// height, with `step_up` free upwards). A point inside a wall or off the level moves onto it, then
// straight away from the nearest wall point until it is `radius` from it (repeated in corners).
// NotFound when no layer has such a spot near the point (a region narrower than 2 radius).
Status nearestValidPosition(const RoadmapView& view, const PathScratch* scratch, Vec3d point, double radius,
                            double step_up, PathEndpoint* out);

} // namespace clearway
