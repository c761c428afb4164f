// findPathAvoiding: findPath's path checked against the temporary obstacles, each stretch that meets
// one replaced by the shortest way round it (tangent lines and arcs of the obstacle grown by the
// radius), else A* again with the roadmap edges that obstacle reaches closed.
#include "obstacles.h"
#include "path_query.h"

#include <cstring>

namespace clearway {

namespace detail {

void obstacleRestrictEnds(PathQuery& q) {
    const ObstacleRoute& o = *q.obstacles;
    if (obstacleStretchClosed(o, q.qs, false, nullptr)) q.dirs_s &= uint8_t(~kTowardsA);
    if (obstacleStretchClosed(o, q.qs, true, nullptr)) q.dirs_s &= uint8_t(~kTowardsB);
    if (obstacleStretchClosed(o, q.qg, false, nullptr)) q.dirs_g &= uint8_t(~kTowardsA);
    if (obstacleStretchClosed(o, q.qg, true, nullptr)) q.dirs_g &= uint8_t(~kTowardsB);
    if (q.qs.edge == q.qg.edge) q.shared_edge_closed = obstacleStretchClosed(o, q.qs, q.g_along >= q.s_along, &q.qg);
}

namespace {

// Lines and arcs of one way round an obstacle: at most a line and an arc per box corner and the
// last line.
constexpr uint32_t kDetourPieces = 9;
struct Detour {
    PathSegment seg[kDetourPieces];
    uint32_t n;
    double length;
    void emit(const PathSegment& s) {
        seg[n++] = s;
        length += s.length;
    }
};

// What one query checks pieces against.
struct Avoidance {
    const fb::Roadmap& rm;
    const PathScratch& s;
    const Obstacle* slots;
    uint32_t capacity;
    double radius;
};

P leftOf(P d) {
    return P{-d.y, d.x};
}

// The discs an obstacle grown by the radius is the convex hull of (counter-clockwise), and their
// common radius.
uint32_t hullDiscs(const Obstacle& o, double radius, P* centres, double* r) {
    if (!o.box) {
        centres[0] = o.centre, *r = o.radius + radius;
        return 1;
    }
    for (uint32_t k = 0; k < 4; ++k)
        centres[k] = o.corners[k];
    *r = radius;
    return 4;
}

// The tangent from point p to the disc (c, r) keeping the disc on side `side` (+1 left) of the
// motion: the touch point; p itself when p lies on or in the disc.
P tangentFrom(P p, P c, double r, int side, P* dir) {
    const P v = c - p;
    const double d = norm(v), t2 = d * d - r * r;
    *dir = d > 0.0 ? v * (1.0 / d) : P{1, 0};
    if (!(t2 > 0.0)) return p;
    *dir = rotate(*dir, -side * std::asin(r / d));
    return p + *dir * std::sqrt(t2);
}

// The disc among centres[0..n) the tangent from p meets first going round on `side`: the one whose
// tangent turns furthest to the right (side +1) or left (-1).
uint32_t firstDisc(P p, const P* centres, uint32_t n, double r, int side) {
    uint32_t best = 0;
    P best_dir;
    tangentFrom(p, centres[0], r, side, &best_dir);
    for (uint32_t k = 1; k < n; ++k) {
        P dir;
        tangentFrom(p, centres[k], r, side, &dir);
        if (side * cross(dir, best_dir) > 0.0) best = k, best_dir = dir;
    }
    return best;
}

// The arc round c from *cursor to b turning on `side` (none when they coincide or r is 0; then
// the cursor stays); false when b lies behind the cursor.
bool addArc(Detour* d, P* cursor, P b, P c, double r, int side, uint32_t layer) {
    const P ea = *cursor - c, eb = b - c;
    const double sweep = std::atan2(cross(ea, eb), dot(ea, eb));
    if (side * sweep < -1e-9) return false;
    if (side * sweep > 1e-12 && r > 0.0) {
        d->emit(arcSegment(*cursor, b, c, r, sweep, layer));
        *cursor = b;
    }
    return true;
}

// The shortest way from a to b with the grown obstacle on `side` of the motion: a tangent onto the
// hull disc met first, round the hull discs in order to the one b's tangent leaves, then to b.
bool buildDetour(const Obstacle& o, double radius, P a, P b, uint32_t layer, int side, Detour* d) {
    P centres[4];
    double r;
    const uint32_t n = hullDiscs(o, radius, centres, &r);
    d->n = 0, d->length = 0.0;
    const uint32_t first = firstDisc(a, centres, n, r, side), last = firstDisc(b, centres, n, r, -side);
    P dir;
    P cursor = tangentFrom(a, centres[first], r, side, &dir);
    if (norm(cursor - a) > 0.0) d->emit(lineSegment(a, cursor, layer));
    for (uint32_t k = first, steps = 0; k != last; k = (k + n + uint32_t(side)) % n) {
        if (++steps > n) return false;
        const uint32_t next = (k + n + uint32_t(side)) % n;
        const P u = centres[next] - centres[k];
        const P off = leftOf(u * (1.0 / norm(u))) * (-side * r);
        if (!addArc(d, &cursor, centres[k] + off, centres[k], r, side, layer)) return false;
        d->emit(lineSegment(cursor, centres[next] + off, layer));
        cursor = centres[next] + off;
    }
    // Leaving the last disc towards b: b's tangent onto it, with the disc on the other side.
    const P exit = tangentFrom(b, centres[last], r, -side, &dir);
    if (!addArc(d, &cursor, exit, centres[last], r, side, layer)) return false;
    if (norm(b - cursor) > 0.0) d->emit(lineSegment(cursor, b, layer));
    return d->n > 0;
}

bool segmentClearOfObstacles(const Avoidance& av, const PathSegment& seg, const Obstacle** hit) {
    const P a{seg.start.x, seg.start.y}, b{seg.end.x, seg.end.y}, c{seg.center.x, seg.center.y};
    const bool arc = seg.type == PathSegmentType::Arc;
    const double x0 = arc ? c.x - seg.radius : minOf(a.x, b.x), x1 = arc ? c.x + seg.radius : maxOf(a.x, b.x);
    const double y0 = arc ? c.y - seg.radius : minOf(a.y, b.y), y1 = arc ? c.y + seg.radius : maxOf(a.y, b.y);
    for (uint32_t k = 0; k < av.capacity; ++k) {
        const Obstacle& o = av.slots[k];
        if (o.id == 0 || o.layer != seg.layer) continue;
        const double reach = o.bound + av.radius;
        if (o.centre.x + reach < x0 || o.centre.x - reach > x1 || o.centre.y + reach < y0 || o.centre.y - reach > y1)
            continue;
        const double d =
            arc ? obstacleArcDistance(o, c, seg.radius, a, seg.sweep) : obstacleSegmentDistance(o, a, b);
        if (d < av.radius - kObstacleSlop) {
            *hit = &o;
            return false;
        }
    }
    return true;
}

// Every piece of the detour keeps the radius from the walls, from avoided designer areas (lines)
// and from every obstacle.
bool detourClear(const Avoidance& av, const Detour& d) {
    for (uint32_t k = 0; k < d.n; ++k) {
        const PathSegment& seg = d.seg[k];
        const P a{seg.start.x, seg.start.y}, b{seg.end.x, seg.end.y};
        const Obstacle* hit;
        if (!segmentClearOfObstacles(av, seg, &hit)) return false;
        if (seg.type == PathSegmentType::Line) {
            if (!segmentClear(LayerWalls{av.rm, av.s, seg.layer}, a, b, av.radius) ||
                !areasAllow(av.rm, av.s, seg.layer, a, b))
                return false;
        } else if (!wallsArcClear(av.rm, av.s, seg.layer, P{seg.center.x, seg.center.y}, a, seg.sweep, av.radius)) {
            return false;
        }
    }
    return true;
}

// The stretch first..last of the path round obstacle o, widened until its ends keep the radius.
// False when no way round it is clear (then *blocked = o).
enum class Replace { Done, Blocked, TooSmall };
Replace replaceStretch(const Avoidance& av, const Obstacle& o, uint32_t first, PathSegment* out, uint32_t* count,
                       uint32_t max) {
    uint32_t last = first;
    for (uint32_t k = first + 1; k < *count; ++k) {
        const Obstacle* hit = nullptr;
        if (!segmentClearOfObstacles(av, out[k], &hit) && hit == &o) last = k;
    }
    auto inside = [&](const Vec2d& p) { return obstaclePointDistance(o, P{p.x, p.y}) < av.radius; };
    while (first > 0 && inside(out[first].start))
        --first;
    while (last + 1 < *count && inside(out[last].end))
        ++last;
    if (inside(out[first].start) || inside(out[last].end)) return Replace::Blocked;
    for (uint32_t k = first; k <= last; ++k)
        if (out[k].portal || out[k].layer != out[first].layer) return Replace::Blocked;
    const P a{out[first].start.x, out[first].start.y}, b{out[last].end.x, out[last].end.y};
    Detour best{}, side{};
    best.length = kInf;
    for (const int s : {+1, -1})
        if (buildDetour(o, av.radius, a, b, out[first].layer, s, &side) && side.length < best.length &&
            detourClear(av, side))
            best = side;
    if (!(best.length < kInf)) return Replace::Blocked;
    const uint32_t removed = last - first + 1, total = *count - removed + best.n;
    if (total > max) {
        *count = total;
        return Replace::TooSmall;
    }
    std::memmove(out + first + best.n, out + last + 1, (*count - last - 1) * sizeof(PathSegment));
    std::memcpy(out + first, best.seg, best.n * sizeof(PathSegment));
    *count = total;
    return Replace::Done;
}

// Replaces every stretch of out[0..*count) that meets an obstacle. Blocked: *blocked has no clear
// way round.
Replace avoidObstacles(const Avoidance& av, PathSegment* out, uint32_t* count, uint32_t max,
                       const Obstacle** blocked) {
    constexpr uint32_t kMaxReplacements = 64;
    uint32_t k = 0;
    for (uint32_t replaced = 0; k < *count;) {
        const Obstacle* hit = nullptr;
        if (segmentClearOfObstacles(av, out[k], &hit)) {
            ++k;
            continue;
        }
        *blocked = hit;
        if (++replaced > kMaxReplacements) return Replace::Blocked;
        const Replace r = replaceStretch(av, *hit, k, out, count, max);
        if (r != Replace::Done) return r;
        k = 0; // the stretch may have widened backwards: check the new path from its start
    }
    return Replace::Done;
}

bool endpointFree(const Avoidance& av, PathEndpoint p) {
    for (uint32_t k = 0; k < av.capacity; ++k)
        if (av.slots[k].id != 0 && av.slots[k].layer == p.layer &&
            obstaclePointDistance(av.slots[k], P{p.x, p.y}) < av.radius - kObstacleSlop)
            return false;
    return true;
}

} // namespace

} // namespace detail

Status findPathAvoiding(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                        double radius, double preferred_clearance, const QueryFilter* filter,
                        const ObstacleSet* obstacles, PathSegment* out, uint32_t* out_count,
                        uint32_t max_segments) {
    using namespace detail;
    if (filter && checkQueryFilter(*filter) != Status::Ok) return Status::InvalidArgument;
    ActiveFilter active;
    const ActiveFilter* prepared = filter ? prepareFilter(*filter, &active) : nullptr;
    if (obstacleCount(obstacles) == 0)
        return findPathWith(view, scratch, start, goal, radius, preferred_clearance, out, out_count,
                            max_segments, prepared);
    uint32_t capacity;
    const Obstacle* slots = obstacleSlots(obstacles, &capacity);
    ObstacleRoute route{obstacles, root(view), scratch, radius, {}, 0};
    for (uint32_t round = 0;; ++round) {
        const Status status = findPathWith(view, scratch, start, goal, radius, preferred_clearance, out, out_count,
                                           max_segments, prepared, round > 0 ? &route : nullptr);
        if (status != Status::Ok) return status;
        const Avoidance av{*route.rm, *scratch, slots, capacity, radius};
        if (!endpointFree(av, start) || !endpointFree(av, goal)) return Status::NotFound;
        const Obstacle* blocked = nullptr;
        const Replace r = avoidObstacles(av, out, out_count, max_segments, &blocked);
        if (r == Replace::Done) return Status::Ok;
        if (r == Replace::TooSmall) return Status::BufferTooSmall;
        for (uint32_t f = 0; f < route.forced_count; ++f)
            if (route.forced[f] == blocked) return Status::NotFound;
        if (route.forced_count == kMaxForcedObstacles) return Status::NotFound;
        route.forced[route.forced_count++] = blocked;
    }
}

} // namespace clearway
