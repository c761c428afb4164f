// findPathPartial: Detour-style partial results. For an unreachable goal, the point nearest to it
// among the roadmap edges the start reaches at the radius (a flood from the start's snap).
#include "path_internal.h"

#include <cmath>

namespace clearway {

namespace {

using namespace ::clearway::detail;

// The best stand-in goal so far: on the goal's layer first, then nearest in the ground plane.
struct StandIn {
    RoadmapPoint point;
    uint32_t layer;
    bool found;

    void consider(const RoadmapPoint& candidate, uint32_t candidate_layer, uint32_t goal_layer) {
        if (found) {
            const bool other = candidate_layer != goal_layer, best_other = layer != goal_layer;
            if (other != best_other ? other : !(candidate.distance < point.distance)) return;
        }
        point = candidate, layer = candidate_layer, found = true;
    }
};

// Marks every vertex the start reaches over edges usable at `radius` and passed by `filter`, and over
// the off-mesh links findPath would cross (the A* state's stamps, the heap array as the queue), and
// offers each usable edge's point nearest to the goal.
void floodFromStart(const fb::Roadmap& rm, PathScratch& s, const RoadmapPoint& start_snap, uint8_t directions,
                    P goal, uint32_t goal_layer, double radius, const ActiveFilter* filter, StandIn* best) {
    if (++s.generation == 0) {
        for (uint32_t v = 0; v < s.vertex_count; ++v)
            s.nodes[v].stamp = 0;
        s.generation = 1;
    }
    s.heap_size = 0;
    auto reach = [&](uint32_t v) {
        if (s.nodes[v].stamp == s.generation) return;
        s.nodes[v].stamp = s.generation;
        s.heap[s.heap_size++].v = v;
    };
    const fb::RoadmapEdge& start_edge = *rm.edges()->Get(start_snap.edge);
    if (directions & kTowardsA) reach(start_edge.a());
    if (directions & kTowardsB) reach(start_edge.b());
    for (uint32_t head = 0; head < s.heap_size; ++head) {
        const uint32_t v = s.heap[head].v;
        for (uint32_t k = s.adj_start[v], end = s.adj_start[v + 1]; k < end; ++k) {
            const AdjEntry& a = s.adj[k];
            if (double(a.min_clearance) < radius || !(a.cost < kInf)) continue; // as A* skips them
            double cost;
            if (filter && !filteredCost(rm, *filter, a, &cost)) continue;
            const uint32_t layer = s.edge_snap[a.edge].layer;
            if (layer != kNone) best->consider(closestOnEdge(rm, a.edge, goal), layer, goal_layer);
            reach(a.other);
        }
        for (uint32_t k = s.link_count ? s.link_start[v] : 0, end = s.link_count ? s.link_start[v + 1] : 0;
             k < end; ++k) {
            const LinkAdj& l = s.link_adj[k];
            if (radius <= double(l.max_radius) && (!filter || flagsPass(*filter, l.flags))) reach(l.other);
        }
    }
}

// The stand-in goal for findPathPartial; false when the start itself has no way onto the roadmap.
bool nearestReachable(const fb::Roadmap& rm, PathScratch& s, PathEndpoint start, PathEndpoint goal,
                      double radius, bool medial, const ActiveFilter* filter, PathEndpoint* out) {
    const P ps{start.x, start.y}, pg{goal.x, goal.y};
    RoadmapPoint start_snap;
    uint8_t directions;
    if (!wallsInside(rm, s, start.layer, ps) ||
        !snap(rm, s, start.layer, ps, radius, medial, &start_snap, &directions, filter))
        return false;
    StandIn best{};
    // The snap point itself: the start's edge may be usable only in part.
    RoadmapPoint at_snap = start_snap;
    at_snap.distance = norm(P{start_snap.position.x, start_snap.position.y} - pg);
    best.consider(at_snap, start.layer, goal.layer);
    floodFromStart(rm, s, start_snap, directions, pg, goal.layer, radius, filter, &best);
    *out = PathEndpoint{best.point.position.x, best.point.position.y, best.layer};
    return best.found;
}

// findPathPartial under a prepared filter (null: none).
Status findPathPartialWith(const RoadmapView& view, PathScratch* scratch, PathEndpoint start,
                           PathEndpoint goal, double radius, double preferred_clearance, PathSegment* out,
                           uint32_t* out_count, uint32_t max_segments, const ActiveFilter* filter) {
    const Status status = findPathWith(view, scratch, start, goal, radius, preferred_clearance, out,
                                       out_count, max_segments, filter);
    if (status != Status::NotFound) return status; // findPath validated the arguments
    PathEndpoint stand_in;
    if (!nearestReachable(*root(view), *scratch, start, goal, radius, !(preferred_clearance < kInf), filter,
                          &stand_in))
        return Status::NotFound;
    const Status partial = findPathWith(view, scratch, start, stand_in, radius, preferred_clearance, out,
                                        out_count, max_segments, filter);
    return partial == Status::Ok ? Status::Partial : partial;
}

} // namespace

Status findPathPartial(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                       double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                       uint32_t max_segments) {
    return findPathPartialWith(view, scratch, start, goal, radius, preferred_clearance, out, out_count,
                               max_segments, nullptr);
}

Status findPathPartialFiltered(const RoadmapView& view, PathScratch* scratch, PathEndpoint start,
                               PathEndpoint goal, double radius, double preferred_clearance,
                               const QueryFilter& filter, PathSegment* out, uint32_t* out_count,
                               uint32_t max_segments) {
    if (checkQueryFilter(filter) != Status::Ok) return Status::InvalidArgument;
    ActiveFilter active;
    return findPathPartialWith(view, scratch, start, goal, radius, preferred_clearance, out, out_count,
                               max_segments, prepareFilter(filter, &active));
}

} // namespace clearway
