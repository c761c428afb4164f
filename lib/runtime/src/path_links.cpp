// Off-mesh links in findPath (Detour's off-mesh connections): the per-vertex link tables, A*'s
// relaxation across links, and the path split at every link crossed into stretches planned (and
// shortened) without links, joined by Link segments.
#include "path_query.h"

#include <cstddef>
#include <cstring>

namespace clearway {

// Paths are compared byte for byte (findPathPartial's answers against findPath's): no padding.
static_assert(sizeof(PathSegment) == offsetof(PathSegment, end_layer) + sizeof(uint32_t),
              "PathSegment ends without padding");

namespace detail {

namespace {

// Calls fn(from, to, link) for every way across a link: a -> b, and b -> a when bidirectional.
template <typename Fn> void forEachLinkWay(const fb::Roadmap& rm, Fn fn) {
    const auto* links = rm.links();
    for (uint32_t i = 0, n = sizeOf(links); i < n; ++i) {
        const fb::RoadmapLink& l = *links->Get(i);
        fn(l.a(), l.b(), i);
        if (l.bidirectional()) fn(l.b(), l.a(), i);
    }
}

PathEndpoint endpointAt(const fb::Roadmap& rm, uint32_t vertex) {
    const fb::RoadmapVertex& v = *rm.vertices()->Get(vertex);
    return PathEndpoint{double(v.x()), double(v.y()), v.layer()};
}

double linkLength(const fb::Roadmap& rm, const fb::RoadmapLink& link) {
    const fb::RoadmapVertex &a = *rm.vertices()->Get(link.a()), &b = *rm.vertices()->Get(link.b());
    const double dx = double(b.x()) - a.x(), dy = double(b.y()) - a.y(), dz = double(b.z()) - a.z();
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// The Link segment for crossing `use.link` from use.from to use.to.
PathSegment linkSegment(const fb::Roadmap& rm, const LinkUse& use) {
    const PathEndpoint a = endpointAt(rm, use.from), b = endpointAt(rm, use.to);
    PathSegment seg = zeroSegment();
    seg.type = PathSegmentType::Link;
    seg.layer = a.layer;
    seg.start = Vec2d{a.x, a.y};
    seg.end = Vec2d{b.x, b.y};
    seg.length = linkLength(rm, *rm.links()->Get(use.link));
    seg.link = use.link;
    seg.end_layer = b.layer;
    return seg;
}

} // namespace

uint32_t linkEntryCount(const fb::Roadmap& rm) {
    uint32_t entries = 0;
    forEachLinkWay(rm, [&](uint32_t, uint32_t, uint32_t) { ++entries; });
    return entries;
}

// Counting sort of the ways across links by the vertex they leave.
void buildLinkTables(const fb::Roadmap& rm, PathShared* s) {
    s->link_count = s->link_start ? sizeOf(rm.links()) : 0;
    if (!s->link_count) return;
    const uint32_t nv = s->vertex_count;
    std::memset(s->link_start, 0, (size_t(nv) + 1) * sizeof(uint32_t));
    forEachLinkWay(rm, [&](uint32_t from, uint32_t, uint32_t) { ++s->link_start[from + 1]; });
    for (uint32_t v = 0; v < nv; ++v)
        s->link_start[v + 1] += s->link_start[v];
    // Filled through link_start[from] as the cursor, then shifted back by one vertex.
    forEachLinkWay(rm, [&](uint32_t from, uint32_t to, uint32_t i) {
        const fb::RoadmapLink& l = *rm.links()->Get(i);
        s->link_adj[s->link_start[from]++] =
            LinkAdj{i, to, linkLength(rm, l) + double(l.cost()), l.max_radius(), l.flags(), l.type()};
    });
    for (uint32_t v = nv; v > 0; --v)
        s->link_start[v] = s->link_start[v - 1];
    s->link_start[0] = 0;
}

// A link costs at least the straight distance between its ends (times the filter's multiplier,
// which `scale` bounds from below), so the straight-line heuristic stays admissible and consistent.
void relaxLinks(PathQuery& q, uint32_t v, double gv, double scale) {
    PathScratch& s = q.s;
    for (uint32_t k = s.link_start[v], end = s.link_start[v + 1]; k < end; ++k) {
        const LinkAdj& l = s.link_adj[k];
        if (q.radius > double(l.max_radius)) continue;
        double cost = l.cost;
        if (q.filter) {
            if (!flagsPass(*q.filter, l.flags)) continue;
            if (!q.filter->plain_costs) cost *= q.filter->cost[l.area_type];
        }
        relax(
            &s, l.other, gv + cost,
            [&](uint32_t w) { return norm(s.vertex_xy[w] - q.goal_snap) * s.heuristic_scale * scale; },
            kLinkParent, l.link);
    }
}

// Each round plans from `from` to the goal with links; when the route crosses one, the stretch to
// its start is planned again without links (a part of a shortest route is a shortest route, and
// this one crosses no link) and shortened on its own, the Link segment follows, and the next
// round starts at the link's end. A round crosses at least one link, so link_count + 1 rounds end
// any route (a shortest one crosses each link once at most).
Status findPathLinked(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                      double radius, double preferred_clearance, PathSegment* out, uint32_t* out_count,
                      uint32_t max_segments, const ActiveFilter* filter, const ObstacleRoute* obstacles) {
    if (!out_count) return Status::InvalidArgument;
    const fb::Roadmap& rm = *root(view);
    uint32_t total = 0;
    PathEndpoint from = start;
    auto stretch = [&](PathEndpoint to, LinkUse* use) {
        uint32_t count = 0;
        const bool room = total < max_segments;
        const Status st = findPathStretch(view, scratch, from, to, radius, preferred_clearance,
                                          room ? out + total : nullptr, &count,
                                          room ? max_segments - total : 0, filter, obstacles, use);
        if (st == Status::Ok || st == Status::BufferTooSmall) total += count;
        return st == Status::BufferTooSmall ? Status::Ok : st;
    };
    for (uint32_t round = 0; round <= scratch->link_count; ++round) {
        LinkUse use{true, kNone, kNone, kNone};
        Status st = stretch(goal, &use);
        if (st == Status::Ok && use.link != kNone) {
            const PathEndpoint link_start = endpointAt(rm, use.from);
            if (from.layer != link_start.layer || from.x != link_start.x || from.y != link_start.y) {
                LinkUse off{false, kNone, kNone, kNone};
                st = stretch(link_start, &off);
            }
        }
        if (st != Status::Ok) {
            *out_count = 0;
            return st;
        }
        if (use.link == kNone) {
            *out_count = total;
            return total > max_segments ? Status::BufferTooSmall : Status::Ok;
        }
        if (total < max_segments) out[total] = linkSegment(rm, use);
        ++total;
        from = endpointAt(rm, use.to);
    }
    *out_count = 0;
    return Status::NotFound;
}

} // namespace detail
} // namespace clearway
