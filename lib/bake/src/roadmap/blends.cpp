// Circular blends: at each vertex, an arc tangent to every pair of its edges, shrunk until it keeps
// the clearance of the edges it joins (Nieuwenhuisen, Kamphuis, Mooijekind, Overmars, "Automatic
// construction of roadmaps for path planning in games", 2004).
#include "core/parallel.h"
#include "roadmap/roadmap_stages.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace clearway::bake::roadmap_detail {

namespace {

// End data of edge e seen from vertex v: the first polyline piece leaving v.
struct EdgeEnd {
    Vec2 from, next;
};
EdgeEnd endAt(const RoadmapEdge& e, uint32_t v) {
    if (e.a == v) return {e.points[0], e.points[1]};
    return {e.points.back(), e.points[e.points.size() - 2]};
}

Vec2 unit(Vec2 from, Vec2 to) {
    const double len = dist(from, to);
    return len > 0 ? Vec2{(to.x - from.x) / len, (to.y - from.y) / len} : Vec2{0, 0};
}

// An edge's first piece at a vertex: its length and direction (unit() of it).
struct FirstPiece {
    double length;
    Vec2 direction;
};

// One task per vertex: a vertex writes one blend per pair of its non-portal edges, in pair
// order, at its own offset in the vertex-ordered list (no per-vertex lists).
std::vector<size_t> blendOffsets(const Roadmap& rm, const Incidence& incidence) {
    std::vector<size_t> first(rm.vertices.size() + 1, 0);
    for (uint32_t v = 0; v < rm.vertices.size(); ++v) {
        size_t pairs = 0;
        const uint32_t* incident = incidence.at(v);
        for (size_t i = 0; i < incidence.size(v); ++i)
            for (size_t j = i + 1; j < incidence.size(v); ++j)
                pairs += !rm.edges[incident[i]].portal && !rm.edges[incident[j]].portal;
        first[v + 1] = first[v] + pairs;
    }
    return first;
}

// Each edge's first piece at v, read once per vertex, not once per pair (portals left unset).
void readFirstPieces(const Roadmap& rm, const Incidence& incidence, uint32_t v,
                     std::vector<FirstPiece>* out) {
    std::vector<FirstPiece>& ends = *out;
    const uint32_t* incident = incidence.at(v);
    ends.resize(incidence.size(v));
    for (size_t i = 0; i < incidence.size(v); ++i) {
        const RoadmapEdge& e = rm.edges[incident[i]];
        if (e.portal) continue;
        const EdgeEnd end = endAt(e, v);
        const double len = dist(end.from, end.next);
        ends[i] = {len, len > 0 ? Vec2{(end.next.x - end.from.x) / len, (end.next.y - end.from.y) / len}
                                : Vec2{0, 0}};
    }
}

// The longest first arc at v: half the shorter first piece of a pair, over its non-portal pairs.
double longestFirstArc(const Roadmap& rm, const Incidence& incidence, uint32_t v,
                       const std::vector<FirstPiece>& ends) {
    const uint32_t* incident = incidence.at(v);
    double first_length = 0;
    for (size_t i = 0; i < incidence.size(v); ++i)
        for (size_t j = i + 1; j < incidence.size(v); ++j) {
            if (rm.edges[incident[i]].portal || rm.edges[incident[j]].portal) continue;
            first_length = std::max(first_length, std::min(ends[i].length, ends[j].length) / 2);
        }
    return first_length;
}

// A minor arc lies in the disk on its chord, within sqrt(2) times its length of pv. The walls
// that can be nearest to one of this vertex's arcs are gathered once, sorted by their distance d
// from pv: a wall is at least d - reach from an arc within reach of pv, so each arc reads only the
// walls up to its minimum + reach (one grid search per vertex, not one per arc). An arc the
// gathered walls cannot provably decide takes the grid search, which gives the same exact
// minimum: `extra` only sets the cost. sqrt(2) times the longest first arc covers every arc whose
// clearance is at most pv's; the few others (an arc is rarely further from the walls than its
// vertex) take the grid search.
class VertexWalls {
  public:
    VertexWalls(const Walls& walls, Vec2 pv, double first_length,
                std::vector<std::pair<double, uint32_t>>* near)
        : walls_(walls), pv_(pv), near_(*near), extra_(std::sqrt(2.0) * first_length),
          pv_clearance_(walls.around(pv, extra_, near)) {}

    // The exact minimum over the walls of arcSegment, as Walls::arcClearance gives it: from the
    // gathered walls when they provably hold it, else by the grid search.
    double arcClearance(const Arc& arc, double length, Vec2 disk_centre, double disk_reach,
                        double required) const {
        const Vec2 pv = pv_;
        const double reach = std::sqrt((disk_centre.x - pv.x) * (disk_centre.x - pv.x) +
                                       (disk_centre.y - pv.y) * (disk_centre.y - pv.y)) +
                             disk_reach;
        const double margin = 1e-9 * (1 + std::abs(pv.x) + std::abs(pv.y) + arc.radius +
                                      std::abs(arc.centre.x) + std::abs(arc.centre.y) + reach + extra_ +
                                      (std::isfinite(pv_clearance_) ? pv_clearance_ : 0));
        double best = INFINITY;
        for (const auto& [d, w] : near_) {
            if (d - reach - margin > best) break; // this wall and the rest stay above best
            // arcSegment first tests the wall's distance from the disk holding the arc.
            const WallSegment& wall = walls_[w];
            best = std::min(best, arcSegment(arc, wall.a, wall.b, best, disk_centre, disk_reach));
            if (best < required) return best; // below: that is all the caller needs
        }
        // A wall not gathered is further than pv_clearance + extra from pv.
        if (std::isfinite(pv_clearance_) && pv_clearance_ + extra_ - reach - margin >= best) return best;
        return walls_.arcClearance(arc, pv, length, disk_centre, disk_reach, required);
    }

    // Whether a gathered wall is provably (by more than `margin`) nearer p than `distance`.
    bool nearerThan(Vec2 p, double distance, double margin) const {
        const double from_pv = std::sqrt((p.x - pv_.x) * (p.x - pv_.x) + (p.y - pv_.y) * (p.y - pv_.y));
        const double limit = distance - margin;
        if (!(limit > 0)) return false;
        for (const auto& [d, w] : near_) {
            if (d - from_pv > limit) break; // this wall and the rest are further from p
            const WallSegment& wall = walls_[w];
            const Vec2 q = closestOnSegment(p, wall.a, wall.b);
            if ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) < limit * limit) return true;
        }
        return false;
    }

  private:
    const Walls& walls_;
    Vec2 pv_;
    const std::vector<std::pair<double, uint32_t>>& near_;
    double extra_, pv_clearance_;
};

// The turn between the edges leaving along di and dj, the same for every arc length (computed
// once: the same values as per attempt).
struct Turn {
    double tan_half, cos_half;
    Vec2 bisector;
    bool ccw;
};

// The blend arc tangent to both edges `length` from pv, and a disk holding it for the walls'
// cheap bound: the circle through the ends of a minor arc, else the arc's own circle.
struct BlendArc {
    Vec2 p_in, p_out;
    Arc arc;
    Vec2 disk_centre;
    double disk_reach;
};
BlendArc blendArc(Vec2 pv, Vec2 di, Vec2 dj, double length, const Turn& turn) {
    const Vec2 p_in{pv.x + di.x * length, pv.y + di.y * length};
    const Vec2 p_out{pv.x + dj.x * length, pv.y + dj.y * length};
    const double radius = length * turn.tan_half;
    const double to_centre = length / turn.cos_half;
    const Vec2 bis = turn.bisector;
    const Vec2 centre{pv.x + bis.x * to_centre, pv.y + bis.y * to_centre};
    Arc arc{};
    arc.centre = centre;
    arc.radius = radius;
    arc.start = std::atan2(p_in.y - centre.y, p_in.x - centre.x);
    const double end = std::atan2(p_out.y - centre.y, p_out.x - centre.x);
    double sweep = end - arc.start;
    if (turn.ccw)
        sweep = fmodTwoPi(fmodTwoPi(sweep) + 2 * M_PI);
    else
        sweep = -fmodTwoPi(fmodTwoPi(-sweep) + 2 * M_PI);
    arc.sweep = sweep;
    setEnds(arc);
    const Vec2 e0 = arc.e0, e1 = arc.e1;
    const bool minor = std::abs(arc.sweep) <= M_PI - 1e-3;
    const Vec2 disk_centre = minor ? Vec2{(e0.x + e1.x) / 2, (e0.y + e1.y) / 2} : centre;
    // sqrt, not hypot: the reaches only feed tests whose margins (1e-9, relative) are far above
    // the ulps between the two.
    const double disk_reach =
        minor ? std::sqrt((e1.x - e0.x) * (e1.x - e0.x) + (e1.y - e0.y) * (e1.y - e0.y)) / 2 : radius;
    return {p_in, p_out, arc, disk_centre, disk_reach};
}

// The blend at v from edge ei (index edge_in) to ej (edge_out), whose first pieces are in and out.
Blend blendPair(const Roadmap& rm, uint32_t v, uint32_t edge_in, uint32_t edge_out, const FirstPiece& in,
                const FirstPiece& out, const VertexWalls& walls) {
    const RoadmapEdge& ei = rm.edges[edge_in];
    const RoadmapEdge& ej = rm.edges[edge_out];
    const Vec2 pv = xy(rm.vertices[v].position);
    const Vec2 di = in.direction, dj = out.direction;
    Blend blend;
    blend.vertex = v;
    blend.edge_in = edge_in;
    blend.edge_out = edge_out;
    blend.p_in = blend.p_out = blend.center = pv;
    const double cos_angle = std::clamp(di.x * dj.x + di.y * dj.y, -1.0, 1.0);
    const double angle = std::acos(cos_angle); // between the two edges, 0..pi
    const double required = std::min(ei.min_clearance, ej.min_clearance);
    blend.min_clearance = rm.vertices[v].clearance;
    // Within 1e-4 rad of straight the arc radius would exceed 2e4 times its length: the edges
    // continue each other and need no arc.
    if (angle > M_PI - 1e-4 || angle < 1e-6) return blend; // straight through (or folded back): no arc
    // Start where the paper does (halfway along the first pieces) and shrink until the arc keeps
    // the clearance of the edges it joins.
    double length = std::min(in.length, out.length) / 2;
    // Travelling in along -di, out along dj: the turn's sense gives the sweep sign.
    const Turn turn{std::tan(angle / 2), std::cos(angle / 2), unit({0, 0}, {di.x + dj.x, di.y + dj.y}),
                    cross({0, 0}, {-di.x, -di.y}, dj) > 0};
    for (int attempt = 0; attempt < 40 && length > 1e-5; ++attempt, length /= 2) {
        // The arc's middle (on the bisector, between the centre and pv) provably nearer a wall
        // than required fails the attempt: its clearance is no more than that (the margin
        // covers the rounding of both).
        const double radius = length * turn.tan_half, to_centre = length / turn.cos_half;
        const Vec2 middle{pv.x + turn.bisector.x * (to_centre - radius),
                          pv.y + turn.bisector.y * (to_centre - radius)};
        if (walls.nearerThan(middle, required,
                             1e-9 * (1 + std::abs(pv.x) + std::abs(pv.y) + to_centre + required)))
            continue;
        const BlendArc b = blendArc(pv, di, dj, length, turn);
        const double clearance = walls.arcClearance(b.arc, length, b.disk_centre, b.disk_reach, required);
        if (clearance >= required) {
            blend.center = b.arc.centre;
            blend.p_in = b.p_in;
            blend.p_out = b.p_out;
            blend.radius = b.arc.radius;
            blend.ccw = turn.ccw;
            blend.min_clearance = clearance;
            break;
        }
    }
    return blend;
}

// Every blend at v, written from out on in pair order.
void blendVertex(const Roadmap& rm, const Incidence& incidence, const Walls& layer_walls, uint32_t v,
                 Blend* out) {
    const Vec2 pv = xy(rm.vertices[v].position);
    const uint32_t* incident = incidence.at(v);
    thread_local std::vector<FirstPiece> ends;
    readFirstPieces(rm, incidence, v, &ends);
    thread_local std::vector<std::pair<double, uint32_t>> near;
    const VertexWalls walls(layer_walls, pv, longestFirstArc(rm, incidence, v, ends), &near);
    for (size_t i = 0; i < incidence.size(v); ++i)
        for (size_t j = i + 1; j < incidence.size(v); ++j) {
            if (rm.edges[incident[i]].portal || rm.edges[incident[j]].portal) continue;
            *out++ = blendPair(rm, v, incident[i], incident[j], ends[i], ends[j], walls);
        }
}

} // namespace

void addBlends(Roadmap& rm, const std::vector<Walls>& walls) {
    const Incidence incidence(rm, true);
    const std::vector<size_t> first = blendOffsets(rm, incidence);
    const size_t blends_before = rm.blends.size();
    rm.blends.resize(blends_before + first.back());
    const unsigned threads = vertexLoopThreads(rm.vertices.size(), rm.options.threads);
    parallel::forEach(rm.vertices.size(), threads, [&](size_t vertex) {
        const uint32_t v = uint32_t(vertex);
        // What blendVertex reads first misses in cache: the edges of the vertex 16 ahead, then
        // 8 ahead the first pieces of their point lists. (In the loop itself: GCC drops calls to
        // a function that only prefetches.)
        if (vertex + 16 < rm.vertices.size())
            for (size_t i = 0; i < incidence.size(v + 16); ++i) {
                const RoadmapEdge& e = rm.edges[incidence.at(v + 16)[i]];
                __builtin_prefetch(&e.a);
                __builtin_prefetch(&e.portal);
            }
        if (vertex + 8 < rm.vertices.size())
            for (size_t i = 0; i < incidence.size(v + 8); ++i) {
                const RoadmapEdge& e = rm.edges[incidence.at(v + 8)[i]];
                if (!e.points.empty()) __builtin_prefetch(e.a == v + 8 ? &e.points.front() : &e.points.back() - 1);
            }
        blendVertex(rm, incidence, walls[rm.vertices[v].layer], v,
                    rm.blends.data() + blends_before + first[v]);
    });
}

} // namespace clearway::bake::roadmap_detail
