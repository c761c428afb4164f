// Internal to lib/runtime: one findPath query's state, shared by path.cpp (snaps, A*, the corner
// list, blends) and path_corridor.cpp (the corridor funnel's path).
#pragma once

#include "obstacles.h"
#include "path_internal.h"

#include <cmath>
#include <cstring>

namespace clearway {
namespace detail {

using Corner = PathCorner;

inline uint32_t otherEnd(const fb::RoadmapEdge& e, uint32_t v) {
    return e.a() == v ? e.b() : e.a();
}

// Turn at a corner from unit u to unit w: signed angle, + counter-clockwise.
inline double turnAngle(P u, P w) {
    return std::atan2(cross(u, w), dot(u, w));
}

// A segment with every byte zero, padding included: callers compare paths byte for byte.
inline PathSegment zeroSegment() {
    PathSegment seg;
    std::memset(&seg, 0, sizeof seg);
    return seg;
}

// A line from a to b on `layer` (`portal`: along a connection between layers).
inline PathSegment lineSegment(P a, P b, uint32_t layer, bool portal = false) {
    PathSegment seg = zeroSegment();
    seg.type = PathSegmentType::Line;
    seg.portal = portal;
    seg.layer = layer;
    seg.start = Vec2d{a.x, a.y};
    seg.end = Vec2d{b.x, b.y};
    seg.length = norm(b - a);
    return seg;
}

// An arc from a to b round `center` of radius r, turning by the signed angle `sweep`.
inline PathSegment arcSegment(P a, P b, P center, double r, double sweep, uint32_t layer) {
    PathSegment arc = zeroSegment();
    arc.type = PathSegmentType::Arc;
    arc.layer = layer;
    arc.start = Vec2d{a.x, a.y};
    arc.end = Vec2d{b.x, b.y};
    arc.center = Vec2d{center.x, center.y};
    arc.radius = r;
    arc.sweep = sweep;
    arc.length = r * std::fabs(sweep);
    return arc;
}

struct Emitter {
    PathSegment* out;
    uint32_t max, count;
    double length = 0; // of every segment emitted, stored or not
    void emit(const PathSegment& s) {
        if (count < max) out[count] = s;
        ++count;
        length += s.length;
    }
};

// A path along the roadmap longer than this times the straight line between the ends gives way
// to that line when it keeps the radius: the preferred clearance is worth a bend, not a detour
// (a 2.8 m hop past a wall corner came out as a 17.5 m tour round the roadmap). The factor is the
// length bound the roadmap paper sets for paths kept at twice the radius (Nieuwenhuisen et al. 2004).
constexpr double kDetourFactor = 1.10;

// How one findPath stretch treats off-mesh links (path_links.cpp). `allowed`: A* may cross them;
// when the route found crosses one, the first it crosses (link, entered at vertex `from`, left at
// `to`) is set and nothing is emitted: findPathLinked plans the stretch before it without links.
struct LinkUse {
    bool allowed;
    uint32_t link, from, to;
};

// One findPath query: its arguments, what the ends allow of the straight line, and what each
// step hands on to the next (the snapped ends, the A* result, the corner list).
struct PathQuery {
    const fb::Roadmap& rm;
    PathScratch& s;
    PathEndpoint start, goal;
    double radius, preferred_clearance;
    P ps, pg;
    Emitter emitter;
    uint32_t* out_count;
    // +infinity asks for the medial-axis path itself: retract onto the axis, follow it, retract to
    // the goal. No straight line stands in for it, however clear (in a convex room the line keeps
    // only the smaller clearance of its ends), except as the answer where the roadmap has none or
    // where the medial path would turn back on itself (no arc fits a reversal).
    bool medial;
    // Visible in a straight line: nothing shorter exists.
    // Above the radius, the line must also keep the preferred clearance the two ends allow.
    double line_clearance;
    KnownClearance known[2]; // shortening needs them again
    // The line at the radius alone, asked only when the roadmap gives no path or a detour (or, for
    // the medial path, no path or a reversal).
    bool line_may_do;
    // Snapped ends, their edges and how far along them.
    RoadmapPoint qs, qg;
    uint8_t dirs_s, dirs_g;
    const fb::RoadmapEdge* es;
    const fb::RoadmapEdge* eg;
    double s_along, g_along, len_s, len_g;
    P goal_snap;
    // A*: the best cost, the vertex the goal is reached from (kNone: along the shared edge).
    double best;
    uint32_t best_vertex;
    bool goal_from_a;
    uint32_t route_count;
    bool start_forward;
    // The corner list, each final corner's turn (NaN: not computed yet) and piece geometry.
    Corner* c;
    uint32_t n;
    bool shorten;
    // The corridor path came from more clearance than asked for (corridorPath's wider tries).
    bool corridor_wider = false;
    double* turns;
    PieceGeom* pieces;
    const ActiveFilter* filter = nullptr; // findPath's query filter; null: none
    const ObstacleRoute* obstacles = nullptr; // findPathAvoiding's closed edges; null: none
    bool shared_edge_closed = false;          // an obstacle lies between ends on one edge
    LinkUse* links = nullptr;                 // null: the asset has no links

    PathQuery(const fb::Roadmap& roadmap, PathScratch& scratch, PathEndpoint from, PathEndpoint to,
              double clearance_radius, double preferred, PathSegment* out, uint32_t max_segments,
              uint32_t* count)
        : rm(roadmap), s(scratch), start(from), goal(to), radius(clearance_radius),
          preferred_clearance(preferred), ps{from.x, from.y}, pg{to.x, to.y}, emitter{out, max_segments, 0},
          out_count(count), medial(!(preferred < kInf)) {}

    Status finish() {
        *out_count = emitter.count;
        return emitter.count > emitter.max ? Status::BufferTooSmall : Status::Ok;
    }
    Status emitLine() {
        emitter = Emitter{emitter.out, emitter.max, 0};
        emitter.emit(lineSegment(ps, pg, start.layer));
        return finish();
    }
    bool lineAtRadius() const {
        return line_may_do && segmentClear(LayerWalls{rm, s, start.layer}, ps, pg, radius) &&
               areasAllow(rm, s, start.layer, ps, pg) &&
               (!obstacles || obstacleLineClear(*obstacles, start.layer, ps, pg));
    }
    double turnAt(uint32_t i, P u, P w) { // u, w: the unit pieces into and out of corner i
        if (turns[i] != turns[i]) turns[i] = turnAngle(u, w);
        return turns[i];
    }
    double pieceLength(uint32_t i) const {
        return pieces[i].length;
    }
};

// pathPhaseTiming's clock (path.cpp): phaseMark charges the time since the previous mark to
// `phase`; nothing happens while timing is off.
enum class Phase : uint8_t { Line, Snap, Search, Corridor, Funnel, Verify, Output, Fallback, Count };
enum class PathKind : uint8_t { StraightLine, Funnel, Fallback };
void phaseStart();
void phaseMark(Phase phase);
void phaseCount(PathKind kind);
// The route points (portals or corners) a query used, for PathPhaseTimes::max_route_points.
void phaseRoutePoints(uint32_t points);

// path.cpp: findPath over one stretch (links: null, or how it treats off-mesh links).
Status findPathStretch(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                       double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                       uint32_t max_segments, const ActiveFilter* filter, const ObstacleRoute* obstacles,
                       LinkUse* links);
// path_links.cpp: findPath on an asset with links: stretches without links joined by Link segments.
Status findPathLinked(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                      double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                      uint32_t max_segments, const ActiveFilter* filter, const ObstacleRoute* obstacles);
// A* from vertex v (cost gv): relaxes the links leaving it that the query may cross; `scale`: the
// filter's heuristic scale.
void relaxLinks(PathQuery& q, uint32_t v, double gv, double scale);

// path_corridor.cpp: the route's shortest path with clearance through its corridor, emitted; false
// (nothing emitted) when the asset has no corridor sides or the route leaves one layer.
bool corridorPath(PathQuery& q);

// obstacles_route.cpp: under findPathAvoiding's closed edges, the ways along the snapped ends' own
// edges that pass an obstacle are taken away (dirs_s, dirs_g, shared_edge_closed).
void obstacleRestrictEnds(PathQuery& q);

} // namespace detail
} // namespace clearway
