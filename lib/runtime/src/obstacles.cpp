// Temporary obstacles (Detour TileCache's obstacles, kept apart from the baked roadmap): the set in
// caller memory, exact distances from discs and boxes to path lines and arcs, and the A* hooks.
#include "obstacles.h"

#include <cstring>

namespace clearway {

struct ObstacleSet {
    uint32_t magic, capacity, count, serial;
    detail::Obstacle* slots;
};

namespace detail {

namespace {

constexpr uint32_t kSetMagic = 0x4f425354u; // "OBST"
constexpr uint32_t kMaxCapacity = 65535;

bool insideBox(const Obstacle& o, P p) {
    const P d = p - o.centre;
    return std::fabs(dot(d, o.u)) <= o.half.x && std::fabs(dot(d, o.v)) <= o.half.y;
}

// A point in the box's own frame (its axes, from its centre).
P boxLocal(const Obstacle& o, P p) {
    const P d = p - o.centre;
    return P{dot(d, o.u), dot(d, o.v)};
}

// Distance from a point in the box's frame to the box.
double boxLocalDistance(const Obstacle& o, P q) {
    return std::hypot(maxOf(std::fabs(q.x) - o.half.x, 0.0), maxOf(std::fabs(q.y) - o.half.y, 0.0));
}

// Exact distance from the arc (start, sweep round `center`, all in the box's frame) to the box: 0
// when the arc crosses one of its sides; else the nearest pair has an end of the arc, a corner of the
// box, or one of the arc's points farthest along the box's axes (where it runs parallel to a side).
double arcToBox(const Obstacle& o, P center, double radius, P start, P end, double sweep) {
    auto onArc = [&](P p) { return angleAlong(center, start, sweep, p) <= std::fabs(sweep); };
    for (uint32_t axis = 0; axis < 2; ++axis) {
        const double side = axis ? o.half.y : o.half.x, across = axis ? o.half.x : o.half.y;
        const double c_along = axis ? center.y : center.x, c_across = axis ? center.x : center.y;
        for (const double at : {-side, side}) {
            const double off = at - c_along;
            if (std::fabs(off) > radius) continue;
            const double h = std::sqrt(radius * radius - off * off);
            for (const double w : {c_across - h, c_across + h})
                if (std::fabs(w) <= across && onArc(axis ? P{w, at} : P{at, w})) return 0.0;
        }
    }
    double best = minOf(boxLocalDistance(o, start), boxLocalDistance(o, end));
    for (const P corner :
         {P{-o.half.x, -o.half.y}, P{o.half.x, -o.half.y}, P{o.half.x, o.half.y}, P{-o.half.x, o.half.y}})
        best = minOf(best, pointArcDistance(center, radius, start, end, sweep, corner));
    for (const P dir : {P{1, 0}, P{0, 1}, P{-1, 0}, P{0, -1}}) {
        const P extreme = center + dir * radius;
        if (onArc(extreme)) best = minOf(best, boxLocalDistance(o, extreme));
    }
    return best;
}

// Obstacles stay within these (metres): far beyond any level, yet the exact tests' products of
// coordinates stay far from overflow and their rounding far below the slop.
constexpr double kMaxObstacleCoordinate = 1e9, kMaxObstacleSize = 1e6;
bool placeable(Vec2d p) {
    return std::fabs(p.x) <= kMaxObstacleCoordinate && std::fabs(p.y) <= kMaxObstacleCoordinate;
}
bool sizeable(double v) {
    return v >= 0.0 && v <= kMaxObstacleSize;
}

ObstacleSet* checkedSet(ObstacleSet* set) {
    return set && set->magic == kSetMagic ? set : nullptr;
}

Status addObstacle(ObstacleSet* set, const Obstacle& o, uint32_t* id) {
    set = checkedSet(set);
    if (!set || !id) return Status::InvalidArgument;
    if (set->count == set->capacity) return Status::CapacityReached;
    uint32_t slot = 0;
    while (set->slots[slot].id != 0)
        ++slot;
    set->serial = set->serial % kMaxCapacity + 1; // 1 .. 65535, never 0
    set->slots[slot] = o;
    set->slots[slot].id = *id = (set->serial << 16) | slot;
    ++set->count;
    return Status::Ok;
}

} // namespace

double obstaclePointDistance(const Obstacle& o, P p) {
    if (!o.box) return norm(p - o.centre) - o.radius;
    if (insideBox(o, p)) return 0.0;
    double best = kInf;
    for (uint32_t k = 0; k < 4; ++k)
        best = minOf(best, pointSegment2(p, o.corners[k], o.corners[(k + 1) & 3], nullptr));
    return std::sqrt(best);
}

double obstacleSegmentDistance(const Obstacle& o, P a, P b) {
    if (!o.box) return std::sqrt(pointSegment2(o.centre, a, b, nullptr)) - o.radius;
    if (insideBox(o, a)) return 0.0;
    double best = kInf;
    for (uint32_t k = 0; k < 4; ++k)
        best = minOf(best, segmentSegment2(a, b, o.corners[k], o.corners[(k + 1) & 3]));
    return std::sqrt(best);
}

double obstacleArcDistance(const Obstacle& o, P center, double radius, P start, double sweep) {
    const P end = center + rotate(start - center, sweep);
    if (!o.box) return pointArcDistance(center, radius, start, end, sweep, o.centre) - o.radius;
    return arcToBox(o, boxLocal(o, center), radius, boxLocal(o, start), boxLocal(o, end), sweep);
}

const Obstacle* obstacleSlots(const ObstacleSet* set, uint32_t* capacity) {
    *capacity = set && set->magic == kSetMagic ? set->capacity : 0;
    return *capacity ? set->slots : nullptr;
}

namespace {

// The polyline of `edge` from point index `from` (at parameter t along piece `from`) onwards in
// direction `step` (+1 towards b), up to piece `until_piece` at `until_t` (or the end), comes
// within the radius of a forced obstacle.
bool stretchClosed(const ObstacleRoute& o, uint32_t edge, uint32_t piece, double t, int step,
                   uint32_t until_piece, double until_t) {
    const fb::RoadmapEdge* e = o.rm->edges()->Get(edge);
    const auto* points = o.rm->points();
    const uint32_t first = e->first_point(), pieces = e->point_count() - 1;
    auto at = [&](uint32_t k, double u) {
        const P a = pt(points->Get(first + k)), b = pt(points->Get(first + k + 1));
        return a + (b - a) * u;
    };
    for (uint32_t f = 0; f < o.forced_count; ++f) {
        const Obstacle& ob = *o.forced[f];
        P from = at(piece, t);
        for (uint32_t k = piece;;) {
            const bool last = k == until_piece;
            const P to = last       ? at(k, until_t)
                         : step > 0 ? pt(points->Get(first + k + 1))
                                    : pt(points->Get(first + k));
            if (obstacleSegmentDistance(ob, from, to) < o.radius + kObstacleSlop) return true;
            if (last) break;
            from = to;
            if (step > 0 ? k + 1 >= pieces : k == 0) break;
            k = uint32_t(int64_t(k) + step);
        }
    }
    return false;
}

} // namespace

bool obstacleClosesEdge(const ObstacleRoute& o, uint32_t edge) {
    const EdgeSnap& box = o.s->edge_snap[edge];
    bool near = false;
    for (uint32_t f = 0; f < o.forced_count && !near; ++f) {
        const Obstacle& ob = *o.forced[f];
        const double reach = ob.bound + o.radius;
        near = ob.centre.x + reach >= box.x0 && ob.centre.x - reach <= box.x1 &&
               ob.centre.y + reach >= box.y0 && ob.centre.y - reach <= box.y1;
    }
    if (!near) return false;
    const uint32_t pieces = o.rm->edges()->Get(edge)->point_count() - 1;
    return stretchClosed(o, edge, 0, 0.0, +1, pieces - 1, 1.0);
}

bool obstacleStretchClosed(const ObstacleRoute& o, const RoadmapPoint& from, bool towards_b,
                           const RoadmapPoint* until) {
    const uint32_t pieces = o.rm->edges()->Get(from.edge)->point_count() - 1;
    const uint32_t end_piece = until ? until->piece : towards_b ? pieces - 1 : 0;
    const double end_t = until ? until->t : towards_b ? 1.0 : 0.0;
    return stretchClosed(o, from.edge, from.piece, from.t, towards_b ? +1 : -1, end_piece, end_t);
}

bool obstacleLineClear(const ObstacleRoute& o, uint32_t layer, P a, P b) {
    uint32_t capacity;
    const Obstacle* slots = obstacleSlots(o.set, &capacity);
    for (uint32_t k = 0; k < capacity; ++k)
        if (slots[k].id != 0 && slots[k].layer == layer &&
            obstacleSegmentDistance(slots[k], a, b) < o.radius - kObstacleSlop)
            return false;
    return true;
}

} // namespace detail

size_t obstacleSetBytes(uint32_t capacity) {
    if (capacity == 0 || capacity > detail::kMaxCapacity) return 0;
    return sizeof(ObstacleSet) + alignof(detail::Obstacle) + size_t(capacity) * sizeof(detail::Obstacle);
}

Status obstacleSetInit(void* memory, size_t bytes, uint32_t capacity, ObstacleSet** out) {
    if (!memory || !out || capacity == 0 || capacity > detail::kMaxCapacity) return Status::InvalidArgument;
    if (bytes < obstacleSetBytes(capacity)) return Status::BufferTooSmall;
    uintptr_t at = reinterpret_cast<uintptr_t>(memory);
    at = (at + alignof(ObstacleSet) - 1) & ~uintptr_t(alignof(ObstacleSet) - 1);
    ObstacleSet* set = reinterpret_cast<ObstacleSet*>(at);
    at = (at + sizeof(ObstacleSet) + alignof(detail::Obstacle) - 1) &
         ~uintptr_t(alignof(detail::Obstacle) - 1);
    *set = ObstacleSet{detail::kSetMagic, capacity, 0, 0, reinterpret_cast<detail::Obstacle*>(at)};
    std::memset(static_cast<void*>(set->slots), 0, size_t(capacity) * sizeof(detail::Obstacle));
    *out = set;
    return Status::Ok;
}

Status obstacleAddDisc(ObstacleSet* set, uint32_t layer, Vec2d centre, double radius, uint32_t* id) {
    if (!detail::placeable(centre) || !detail::sizeable(radius)) return Status::InvalidArgument;
    detail::Obstacle o{};
    o.layer = layer;
    o.centre = detail::P{centre.x, centre.y};
    o.radius = o.bound = radius;
    return detail::addObstacle(set, o, id);
}

Status obstacleAddBox(ObstacleSet* set, uint32_t layer, Vec2d centre, Vec2d half_extents, double angle,
                      uint32_t* id) {
    using detail::P;
    if (!detail::placeable(centre) || !detail::sizeable(half_extents.x) ||
        !detail::sizeable(half_extents.y) || !detail::finiteD(angle))
        return Status::InvalidArgument;
    detail::Obstacle o{};
    o.box = true;
    o.layer = layer;
    o.centre = P{centre.x, centre.y};
    o.half = P{half_extents.x, half_extents.y};
    o.u = P{std::cos(angle), std::sin(angle)};
    o.v = P{-o.u.y, o.u.x};
    const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (uint32_t k = 0; k < 4; ++k)
        o.corners[k] = o.centre + o.u * (sx[k] * o.half.x) + o.v * (sy[k] * o.half.y);
    // The corners' distance from the centre, rounded up past the corners' own rounding.
    o.bound = detail::norm(o.half) * (1.0 + 1e-12) + 1e-12;
    return detail::addObstacle(set, o, id);
}

Status obstacleRemove(ObstacleSet* set, uint32_t id) {
    set = detail::checkedSet(set);
    const uint32_t slot = id & 0xffffu;
    if (!set || id == 0 || slot >= set->capacity || set->slots[slot].id != id) return Status::InvalidArgument;
    set->slots[slot].id = 0;
    --set->count;
    return Status::Ok;
}

uint32_t obstacleCount(const ObstacleSet* set) {
    return set && set->magic == detail::kSetMagic ? set->count : 0;
}

} // namespace clearway
