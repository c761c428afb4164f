// findPathAvoiding: findPath's path checked against the temporary obstacles, each stretch that meets
// one replaced by the shortest way round it (tangent lines and arcs of the obstacle grown by the
// radius), else A* again with the roadmap edges that obstacle reaches closed.
#include "obstacles.h"
#include "path_query.h"

#include <algorithm>
#include <cstring>

namespace clearway {

namespace detail {

void obstacleRestrictEnds(PathQuery& q) {
    const ObstacleRoute& o = *q.obstacles;
    if (obstacleStretchClosed(o, q.qs, false, nullptr)) q.dirs_s &= uint8_t(~kTowardsA);
    if (obstacleStretchClosed(o, q.qs, true, nullptr)) q.dirs_s &= uint8_t(~kTowardsB);
    if (obstacleStretchClosed(o, q.qg, false, nullptr)) q.dirs_g &= uint8_t(~kTowardsA);
    if (obstacleStretchClosed(o, q.qg, true, nullptr)) q.dirs_g &= uint8_t(~kTowardsB);
    if (q.qs.edge == q.qg.edge)
        q.shared_edge_closed = obstacleStretchClosed(o, q.qs, q.g_along >= q.s_along, &q.qg);
}

namespace {

// Obstacles close together are passed as one: the convex hull of all of them, grown.
constexpr uint32_t kMaxCluster = 4, kMaxHull = 4 * kMaxCluster;
struct Cluster {
    const Obstacle* members[kMaxCluster];
    uint32_t n;
    P centres[kMaxHull]; // the hull discs, counter-clockwise
    uint32_t hull;
    double r; // their common radius
    bool has(const Obstacle* o) const {
        for (uint32_t k = 0; k < n; ++k)
            if (members[k] == o) return true;
        return false;
    }
};
// Lines and arcs of one way round a cluster: the line kept before it, a line and an arc per hull
// disc, the last line and the line kept after it.
constexpr uint32_t kDetourPieces = 2 * kMaxHull + 3;
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

// The discs a cluster grown by the radius is the convex hull of, counter-clockwise (Andrew's
// monotone chain over their centres), with the largest of their radii for all: a disc grown a
// little more only keeps more clearance.
void hullDiscs(Cluster* c, double radius) {
    P points[kMaxHull];
    uint32_t m = 0;
    c->r = 0.0;
    for (uint32_t k = 0; k < c->n; ++k) {
        const Obstacle& o = *c->members[k];
        if (o.box)
            for (uint32_t j = 0; j < 4; ++j)
                points[m++] = o.corners[j];
        else
            points[m++] = o.centre;
        c->r = maxOf(c->r, o.box ? radius : o.radius + radius);
    }
    std::sort(points, points + m, [](P a, P b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    P hull[2 * kMaxHull];
    uint32_t h = 0;
    for (uint32_t pass = 0; pass < 2; ++pass) { // lower hull left to right, then upper right to left
        const uint32_t floor = h;
        for (uint32_t k = 0; k < m; ++k) {
            const P p = points[pass ? m - 1 - k : k];
            while (h >= floor + 2 && orient(hull[h - 2], hull[h - 1], p) <= 0.0)
                --h;
            hull[h++] = p;
        }
        --h; // each chain's last point starts the other
    }
    c->hull = 0;
    for (uint32_t k = 0; k < h && c->hull < kMaxHull; ++k)
        if (c->hull == 0 || hull[k].x != c->centres[c->hull - 1].x || hull[k].y != c->centres[c->hull - 1].y)
            c->centres[c->hull++] = hull[k];
    if (c->hull == 0) c->centres[c->hull++] = points[0];
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
bool buildDetour(const Cluster& c, P a, P b, uint32_t layer, int side, Detour* d) {
    const P* centres = c.centres;
    const double r = c.r;
    const uint32_t n = c.hull;
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

// Obstacle o comes closer than the radius to the segment.
bool meets(const Avoidance& av, const PathSegment& seg, const Obstacle& o) {
    if (o.layer != seg.layer) return false;
    const P a{seg.start.x, seg.start.y}, b{seg.end.x, seg.end.y}, c{seg.center.x, seg.center.y};
    const double d = seg.type == PathSegmentType::Arc ? obstacleArcDistance(o, c, seg.radius, a, seg.sweep)
                                                      : obstacleSegmentDistance(o, a, b);
    return d < av.radius - kObstacleSlop;
}

// No obstacle of the segment's layer comes closer than the radius; else *hit is the one met first
// along it (by its centre's position along the line, or round the arc).
bool segmentClearOfObstacles(const Avoidance& av, const PathSegment& seg, const Obstacle** hit) {
    const P a{seg.start.x, seg.start.y}, b{seg.end.x, seg.end.y}, c{seg.center.x, seg.center.y};
    const bool arc = seg.type == PathSegmentType::Arc;
    const double x0 = arc ? c.x - seg.radius : minOf(a.x, b.x), x1 = arc ? c.x + seg.radius : maxOf(a.x, b.x);
    const double y0 = arc ? c.y - seg.radius : minOf(a.y, b.y), y1 = arc ? c.y + seg.radius : maxOf(a.y, b.y);
    double first = kInf;
    *hit = nullptr;
    for (uint32_t k = 0; k < av.capacity; ++k) {
        const Obstacle& o = av.slots[k];
        if (o.id == 0 || o.layer != seg.layer) continue;
        const double reach = o.bound + av.radius;
        if (o.centre.x + reach < x0 || o.centre.x - reach > x1 || o.centre.y + reach < y0 ||
            o.centre.y - reach > y1)
            continue;
        if (!meets(av, seg, o)) continue;
        const double order = arc ? angleAlong(c, a, seg.sweep, o.centre) : dot(o.centre - a, b - a);
        if (order < first || !*hit) first = order, *hit = &o;
    }
    return !*hit;
}

// Every piece of the detour keeps the radius from the walls, from avoided designer areas (lines)
// and from every obstacle; the kept stretches of the line it leaves (pieces before `from`, from
// `to` on) are the path's own and are checked with the rest of it. *blocker: an obstacle that
// failed it (null: a wall did).
bool detourClear(const Avoidance& av, const Detour& d, uint32_t from, uint32_t to, const Obstacle** blocker) {
    for (uint32_t k = from; k < to; ++k) {
        const PathSegment& seg = d.seg[k];
        const P a{seg.start.x, seg.start.y}, b{seg.end.x, seg.end.y};
        if (!segmentClearOfObstacles(av, seg, blocker)) return false;
        if (seg.type == PathSegmentType::Line) {
            if (!segmentClear(LayerWalls{av.rm, av.s, seg.layer}, a, b, av.radius) ||
                !areasAllow(av.rm, av.s, seg.layer, a, b))
                return false;
        } else if (!wallsArcClear(av.rm, av.s, seg.layer, P{seg.center.x, seg.center.y}, a, seg.sweep,
                                  av.radius)) {
            return false;
        }
    }
    return true;
}

// The shortest clear way round the cluster from out[first].start to out[last].end, into *best
// (length kInf: none). On a single line the way may also leave the line and return to it nearer
// the cluster (the line's ends may lie beside walls the tangents from them would cut), a few
// reaches away. *blocker: an obstacle outside the cluster that failed a way round.
void bestDetour(const Avoidance& av, const Cluster& c, const PathSegment* out, uint32_t first, uint32_t last,
                Detour* best, const Obstacle** blocker) {
    const P a{out[first].start.x, out[first].start.y}, b{out[last].end.x, out[last].end.y};
    const uint32_t layer = out[first].layer;
    P mid{0, 0};
    for (uint32_t k = 0; k < c.hull; ++k)
        mid = mid + c.centres[k] * (1.0 / c.hull);
    double reach = 0.0;
    for (uint32_t k = 0; k < c.hull; ++k)
        reach = maxOf(reach, norm(c.centres[k] - mid) + c.r);
    const double length = norm(b - a);
    const P u = length > 0.0 ? (b - a) * (1.0 / length) : P{0, 0};
    const double along = dot(mid - a, u);
    const bool one_line = first == last && out[first].type == PathSegmentType::Line;
    best->length = kInf;
    Detour side{};
    for (const double keep : {kInf, 8.0, 4.0, 2.0, 1.25}) {
        if (keep < kInf && !one_line) break;
        const P from = keep < kInf && along - keep * reach > 0.0 ? a + u * (along - keep * reach) : a;
        const P to = keep < kInf && along + keep * reach < length ? a + u * (along + keep * reach) : b;
        if (keep < kInf && from.x == a.x && from.y == a.y && to.x == b.x && to.y == b.y) continue;
        for (const int s : {+1, -1}) {
            side.n = 0, side.length = 0.0;
            if (norm(from - a) > 0.0) side.emit(lineSegment(a, from, layer));
            const uint32_t own = side.n;
            if (!buildDetour(c, from, to, layer, s, &side)) continue;
            const uint32_t own_end = side.n;
            if (norm(b - to) > 0.0) side.emit(lineSegment(to, b, layer));
            const Obstacle* hit = nullptr;
            if (!(side.length < best->length)) continue;
            if (detourClear(av, side, own, own_end, &hit))
                *best = side;
            else if (hit && !c.has(hit) && !*blocker)
                *blocker = hit;
        }
    }
}

// The stretch of the path from out[first] that meets obstacle o, replaced by the shortest clear way
// round it; where another obstacle blocks every way, round both (a cluster of up to kMaxCluster).
// Blocked (*c: the cluster) when no way round is clear or an end lies in the cluster.
enum class Replace { Done, Blocked, TooSmall };
Replace replaceStretch(const Avoidance& av, const Obstacle& o, uint32_t start, PathSegment* out,
                       uint32_t* count, uint32_t max, Cluster* blocked) {
    Cluster& c = *blocked;
    c.n = 0;
    c.members[c.n++] = &o;
    Detour best{};
    uint32_t first = start, last = start;
    for (;;) {
        hullDiscs(&c, av.radius);
        auto meetsAny = [&](const PathSegment& seg) {
            for (uint32_t k = 0; k < c.n; ++k)
                if (meets(av, seg, *c.members[k])) return true;
            return false;
        };
        auto inside = [&](const Vec2d& v) {
            const P p{v.x, v.y};
            for (uint32_t k = 0; k < c.hull; ++k)
                if (norm(p - c.centres[k]) < c.r) return true;
            for (uint32_t k = 0; k < c.n; ++k)
                if (obstaclePointDistance(*c.members[k], p) < av.radius) return true;
            return false;
        };
        first = start, last = start;
        while (last + 1 < *count && meetsAny(out[last + 1]))
            ++last;
        while (first > 0 && inside(out[first].start))
            --first;
        while (last + 1 < *count && inside(out[last].end))
            ++last;
        if (inside(out[first].start) || inside(out[last].end)) return Replace::Blocked;
        for (uint32_t k = first; k <= last; ++k)
            if (out[k].portal || out[k].layer != out[first].layer) return Replace::Blocked;
        const Obstacle* blocker = nullptr;
        bestDetour(av, c, out, first, last, &best, &blocker);
        if (best.length < kInf) break;
        if (!blocker || c.n == kMaxCluster) return Replace::Blocked;
        c.members[c.n++] = blocker;
    }
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

// Replaces every stretch of out[0..*count) that meets an obstacle. Blocked: the obstacles of
// *blocked have no clear way round.
Replace avoidObstacles(const Avoidance& av, PathSegment* out, uint32_t* count, uint32_t max,
                       Cluster* blocked) {
    constexpr uint32_t kMaxReplacements = 64;
    uint32_t k = 0;
    for (uint32_t replaced = 0; k < *count;) {
        const Obstacle* hit = nullptr;
        if (segmentClearOfObstacles(av, out[k], &hit)) {
            ++k;
            continue;
        }
        if (++replaced > kMaxReplacements) return Replace::Blocked;
        const Replace r = replaceStretch(av, *hit, k, out, count, max, blocked);
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
    double preferred = preferred_clearance;
    for (uint32_t round = 0;; ++round) {
        const Status status = findPathWith(view, scratch, start, goal, radius, preferred, out, out_count,
                                           max_segments, prepared, round > 0 ? &route : nullptr);
        if (status != Status::Ok) return status;
        const Avoidance av{*route.rm, *scratch, slots, capacity, radius};
        if (!endpointFree(av, start) || !endpointFree(av, goal)) return Status::NotFound;
        Cluster blocked{};
        const Replace r = avoidObstacles(av, out, out_count, max_segments, &blocked);
        if (r == Replace::Done) return Status::Ok;
        if (r == Replace::TooSmall) return Status::BufferTooSmall;
        // A* again with the roadmap closed round the obstacles no way passed; none new: no path.
        const uint32_t before = route.forced_count;
        for (uint32_t k = 0; k < blocked.n && route.forced_count < kMaxForcedObstacles; ++k) {
            bool known = false;
            for (uint32_t f = 0; f < route.forced_count; ++f)
                known = known || route.forced[f] == blocked.members[k];
            if (!known) route.forced[route.forced_count++] = blocked.members[k];
        }
        // The shortening pulled the new route back past them: the medial-axis path of the same
        // roadmap keeps to its edges, which stay clear of those obstacles; then no path.
        if (route.forced_count == before) {
            if (!(preferred < kInf)) return Status::NotFound;
            preferred = kInf;
        }
    }
}

} // namespace clearway
