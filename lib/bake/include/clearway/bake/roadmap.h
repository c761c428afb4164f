// Roadmap: the medial axis of every layer's walls with exact clearance, merged chains, circular
// blends and joins across layer connections (Nieuwenhuisen, Kamphuis and Overmars, "High quality
// navigation in computer games", 2007).
#pragma once

#include <clearway/bake/footprint.h>

#include <cmath>

namespace clearway::bake {

struct RoadmapOptions {
    double min_clearance = 0; // metres: drop medial-axis edges narrower than this (0 keeps all radii)
    double epsilon = 0.01;    // metres: parabolic arcs become chords within this distance
    bool merge_chains = true; // replace degree-2 chains by straight edges where clearance allows
    unsigned threads = 0;     // threads the bake may use (0: every core); not hashed, output identical
};
RoadmapOptions defaultRoadmapOptions();

struct WallSegment {
    Vec2 a, b;
};

// What a point's clearance is measured from along one edge: exactly the distance to this point
// (point sites and parabola foci) or segment (wall sites); Walls: a merged straight edge, whose
// clearance at a point is the distance to the nearest wall (only its minimum is stored).
enum class ClearanceSite : uint8_t { Point = 0, Segment = 1, Walls = 2 };

struct RoadmapVertex {
    Vec3 position; // local; z from the layer surface
    uint32_t layer = 0;
    double clearance = 0; // distance to the nearest wall
};

// Nearest wall points left and right of a polyline point, relative to its edge's direction a -> b
// (the Explicit Corridor Map's closest obstacle points, Geraerts, "Planning short paths with
// clearance using explicit corridors", 2010).
struct WallSides {
    Vec2 left, right;
    WallSides reversed() const { return {right, left}; } // seen travelling the other way
};

// How an edge's corridor is known (Geraerts 2010). PointSides: its own points' sides bound it
// exactly (medial-axis edges); Chain: a merged chain's straight edge, bounded by `chain`, the
// sides of the Voronoi vertices it bypasses; Unchecked: links, designer edges and tile cuts, whose
// sides are not all the walls' (the runtime checks a path through them against the walls).
enum class EdgeCorridor : uint8_t { Unchecked = 0, PointSides = 1, Chain = 2 };

struct CorridorPoint {
    Vec2 at;         // on the medial axis
    WallSides sides; // relative to the edge's direction a -> b
};

struct RoadmapEdge {
    uint32_t a = 0, b = 0;                 // vertex indices
    std::vector<Vec2> points;              // polyline from a to b (both included)
    // One per entry of points (empty: not tracked, the asset then has no point_sides). On
    // medial-axis edges both are the clearance away; joins and designer edges use the point itself.
    std::vector<WallSides> sides;
    double min_clearance = 0;              // minimum over the whole polyline (exact)
    ClearanceSite site = ClearanceSite::Walls;
    Vec2 site_p0, site_p1;                 // the point (p0) or segment (p0-p1)
    Vec2 left_a, right_a, left_b, right_b; // nearest wall points left/right of the edge at a and at b
    bool portal = false;                   // crosses a connection between layers
    EdgeCorridor corridor = EdgeCorridor::Unchecked;
    std::vector<CorridorPoint> chain;      // Chain: the bypassed corridor from a to b

    // A two-point edge's sides from its end values (merged chains, joins, designer edges).
    void setSidesFromEnds() { sides = {{left_a, right_a}, {left_b, right_b}}; }
};

// Circular blend joining edge_in (arriving at vertex) to edge_out (leaving it): an arc tangent to
// both at p_in / p_out, so a path through the vertex is C1. Blends with radius 0 mean the two
// edges are collinear (no arc needed) or no blend keeps the clearance (sharp turn).
struct Blend {
    uint32_t vertex = 0, edge_in = 0, edge_out = 0;
    Vec2 center, p_in, p_out;
    double radius = 0;
    bool ccw = true;          // arc direction from p_in to p_out
    double min_clearance = 0; // exact minimum distance from the arc to the walls
};

// A designer's weighted area on one layer (see "Designer edits"): a path's cost per metre inside
// it is multiplied by `weight` (> 1 avoided, < 1 preferred; overlapping areas multiply).
// `type` (0 .. 63) and `flags` are what query filters select on (runtime.md "Query filters").
struct RoadmapArea {
    uint32_t layer = 0;
    double weight = 1;
    Ring polygon; // local, counter-clockwise, simple
    uint8_t type = 0;
    uint16_t flags = 1; // bit 0: walk, what the ground outside every area carries
};

// Part of an edge's cost that lies in one area type with one set of flags (schemas/roadmap.fbs
// EdgeAreaSpan): metres times the area weights there.
struct EdgeAreaSpan {
    double cost = 0;
    uint16_t flags = 1;
    uint8_t type = 0;
};

// Off-mesh link (Detour's off-mesh connection, schemas/roadmap.fbs RoadmapLink): crossed from
// vertex a to vertex b (and back when bidirectional) at the straight 3D distance between them plus
// `cost`, by agents of radius <= max_radius.
enum class LinkKind : uint8_t { Jump = 0, Ladder = 1, Door = 2, Teleport = 3, Custom = 4 };
struct RoadmapLink {
    uint32_t a = 0, b = 0;
    double cost = 0;
    double max_radius = INFINITY;
    uint16_t flags = 1;
    uint8_t type = 0;
    LinkKind kind = LinkKind::Custom;
    bool bidirectional = true;
};

// One tile of a tiled bake (cw-bake --tile-size; "Tiled worlds" in README). size 0: not a tile.
struct RoadmapTile {
    double size = 0, margin = 0;           // world (mesh file) units, in the horizontal plane of the world
    int32_t i = 0, j = 0;                  // the tile covers [i*size, (i+1)*size) x [j*size, (j+1)*size)
    std::vector<uint32_t> border_vertices; // vertices on the core's border (cut points), sorted
    uint32_t margin_reached = 0;           // core edges with clearance >= margin - 10 m (may differ untiled)
};

struct Roadmap {
    Footprint footprint; // walls and surfaces travel with the roadmap (one file per level)
    RoadmapOptions options;
    std::vector<RoadmapVertex> vertices;
    std::vector<RoadmapEdge> edges;
    std::vector<Blend> blends;
    uint64_t options_hash = 0;
    std::vector<RoadmapArea> areas;
    std::vector<double> edge_weights; // empty, or per edge: cost per metre (areas along it)
    // Empty, or per edge its spans edge_spans[edge_span_starts[e] .. edge_span_starts[e + 1]).
    std::vector<uint32_t> edge_span_starts;
    std::vector<EdgeAreaSpan> edge_spans;
    RoadmapTile tile;                 // tile bakes only
    std::vector<RoadmapLink> links;   // designer links (empty: none written)
};

struct RoadmapStats {
    size_t layers = 0, vertices = 0, edges = 0, arcs = 0, blends = 0, walls = 0;
    double seconds_voronoi = 0, seconds_roadmap = 0;
};

// Walls of a footprint layer: every boundary segment of its polygons.
std::vector<WallSegment> layerWalls(const FootprintLayer& layer);
// The same minus the pieces lying on a connection (a portal is walked through, not a wall). The
// roadmap's clearance guarantee (min_clearance, blends, joins) is against these.
std::vector<WallSegment> solidLayerWalls(const Footprint& footprint, uint32_t layer);

Error buildRoadmap(const Footprint& footprint, const RoadmapOptions& options, Roadmap* out, RoadmapStats* stats,
                   LogContext& log);

// Exact distance from a point / straight segment / circular arc to the nearest of `walls`.
double distanceToWalls(const std::vector<WallSegment>& walls, Vec2 p);

} // namespace clearway::bake
