// libFuzzer target: roadmap assets (.cwrm). Any bytes end in a status from loadRoadmap; bytes it
// accepts must survive every accessor and the queries a game makes (nearest point, findPath with
// finite and infinite preferred clearance, pose sampling along the result), and the character
// queries (raycast, moveAlongSurface, nearestValidPosition, findPathPartial with and without a query
// filter) on arguments drawn from the input's hash, NaN, infinities, huge and negative values among
// them. Built with
// -DCLEARWAY_FUZZ=ON (scripts/fuzz).
#include <clearway/runtime.h>

#include "fuzz_support.h"

#include <cfloat>
#include <cmath>
#include <initializer_list>
#include <vector>

using namespace clearway;

namespace {

bool finite(double v) {
    return std::isfinite(v);
}

bool inside(const void* first, const void* last, const uint8_t* begin, const uint8_t* end) {
    return static_cast<const uint8_t*>(first) >= begin && static_cast<const uint8_t*>(last) <= end;
}

// An edge's point sides and corridor samples: zero-copy pointers inside the asset, finite values.
void walkCorridor(const RoadmapView& view, uint32_t e, uint32_t point_count, const uint8_t* begin,
                  const uint8_t* end) {
    const RoadmapPointSides* sides = nullptr;
    uint32_t count = 0;
    const Status st = roadmapEdgeSides(view, e, &sides, &count);
    CLEARWAY_FUZZ_REQUIRE(st == Status::Ok || st == Status::NotFound);
    if (st == Status::Ok) {
        CLEARWAY_FUZZ_REQUIRE(count == point_count && inside(sides, sides + count, begin, end));
        for (uint32_t i = 0; i < count; ++i)
            CLEARWAY_FUZZ_REQUIRE(finite(sides[i].left.x) && finite(sides[i].right.y));
    }
    EdgeCorridorKind kind;
    const RoadmapCorridorPoint* samples = nullptr;
    CLEARWAY_FUZZ_REQUIRE(roadmapEdgeCorridor(view, e, &kind, &samples, &count) == Status::Ok);
    CLEARWAY_FUZZ_REQUIRE(kind == EdgeCorridorKind::Chain ? count >= 2 : count == 0);
    if (count > 0) CLEARWAY_FUZZ_REQUIRE(inside(samples, samples + count, begin, end));
    for (uint32_t i = 0; i < count; ++i)
        CLEARWAY_FUZZ_REQUIRE(finite(samples[i].at.x) && finite(samples[i].left.y) &&
                              finite(samples[i].right.x));
}

void walkAccessors(const RoadmapView& view, const RoadmapInfo& info) {
    const uint8_t* begin = view.data;
    const uint8_t* end = view.data + view.size;
    FootprintView fp;
    CLEARWAY_FUZZ_REQUIRE(roadmapFootprint(view, &fp) == Status::Ok);
    FootprintInfo fi;
    CLEARWAY_FUZZ_REQUIRE(footprintInfo(fp, &fi) == Status::Ok && fi.layer_count == info.layer_count);
    for (uint32_t v = 0; v < info.vertex_count; ++v) {
        RoadmapVertexInfo vi;
        CLEARWAY_FUZZ_REQUIRE(roadmapVertex(view, v, &vi) == Status::Ok);
        CLEARWAY_FUZZ_REQUIRE(vi.layer < info.layer_count && finite(vi.position.x) && finite(vi.clearance));
    }
    for (uint32_t e = 0; e < info.edge_count; ++e) {
        RoadmapEdgeInfo ei;
        CLEARWAY_FUZZ_REQUIRE(roadmapEdge(view, e, &ei) == Status::Ok);
        CLEARWAY_FUZZ_REQUIRE(ei.a < info.vertex_count && ei.b < info.vertex_count && ei.point_count >= 2);
        CLEARWAY_FUZZ_REQUIRE(reinterpret_cast<const uint8_t*>(ei.points) >= begin &&
                              reinterpret_cast<const uint8_t*>(ei.points + ei.point_count) <= end);
        for (uint32_t i = 0; i < ei.point_count; ++i)
            CLEARWAY_FUZZ_REQUIRE(finite(ei.points[i].x) && finite(ei.points[i].y));
        walkCorridor(view, e, ei.point_count, begin, end);
    }
    for (uint32_t b = 0; b < info.blend_count; ++b) {
        RoadmapBlend bl;
        CLEARWAY_FUZZ_REQUIRE(roadmapBlend(view, b, &bl) == Status::Ok);
        CLEARWAY_FUZZ_REQUIRE(bl.vertex < info.vertex_count && bl.edge_in < info.edge_count &&
                              bl.edge_out < info.edge_count);
    }
    RoadmapVertexInfo past;
    CLEARWAY_FUZZ_REQUIRE(roadmapVertex(view, info.vertex_count, &past) == Status::InvalidArgument);
    const uint32_t links = roadmapLinkCount(view);
    for (uint32_t l = 0; l < links; ++l) {
        RoadmapLinkInfo li;
        CLEARWAY_FUZZ_REQUIRE(roadmapLink(view, l, &li) == Status::Ok);
        CLEARWAY_FUZZ_REQUIRE(li.a < info.vertex_count && li.b < info.vertex_count && li.a != li.b);
        CLEARWAY_FUZZ_REQUIRE(li.layer_a < info.layer_count && li.layer_b < info.layer_count);
        CLEARWAY_FUZZ_REQUIRE(finite(li.cost) && li.cost >= 0 && li.max_radius > 0 && finite(li.length));
        CLEARWAY_FUZZ_REQUIRE(li.flags != 0 && li.area_type < kAreaTypeCount);
    }
    RoadmapLinkInfo past_link;
    CLEARWAY_FUZZ_REQUIRE(roadmapLink(view, links, &past_link) == Status::InvalidArgument);
}

void checkPath(const RoadmapView& view, const PathSegment* segments, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i)
        CLEARWAY_FUZZ_REQUIRE(finite(segments[i].length) && segments[i].length >= 0 &&
                              finite(segments[i].end.x) && finite(segments[i].end.y));
    const double total = pathTotalLength(segments, count);
    PathPose pose;
    CLEARWAY_FUZZ_REQUIRE(pathPoseAt(view, segments, count, total * 0.5, &pose) == Status::Ok);
    CLEARWAY_FUZZ_REQUIRE(finite(pose.position.x) && finite(pose.heading));
    PathPose samples[16];
    uint32_t n = 0;
    const Status s = pathSample(view, segments, count, total / 12 + 1e-3, samples, &n, 16);
    CLEARWAY_FUZZ_REQUIRE(s == Status::Ok || s == Status::BufferTooSmall);
}

// Across each off-mesh link (the first few): from near its start to near its end, plain and with a
// filter that closes it; Link segments must join their neighbours and carry a valid link index.
void linkQueries(const RoadmapView& view, PathScratch* scratch) {
    constexpr uint32_t kMaxSegments = 64;
    PathSegment segments[kMaxSegments];
    const uint32_t links = roadmapLinkCount(view);
    for (uint32_t l = 0; l < links && l < 4; ++l) {
        RoadmapLinkInfo li;
        CLEARWAY_FUZZ_REQUIRE(roadmapLink(view, l, &li) == Status::Ok);
        const PathEndpoint from{li.start.x + 0.1, li.start.y, li.layer_a};
        const PathEndpoint to{li.end.x - 0.1, li.end.y, li.layer_b};
        for (int closed = 0; closed < 2; ++closed) { // closed: with a one-segment buffer too
            QueryFilter filter = defaultQueryFilter();
            if (closed) filter.exclude_flags = li.flags;
            uint32_t count = 0;
            const Status f = findPathFiltered(view, scratch, from, to, 0.1, 0.1, filter, segments, &count,
                                              closed ? 1 : kMaxSegments);
            CLEARWAY_FUZZ_REQUIRE(f == Status::Ok || f == Status::NotFound || f == Status::BufferTooSmall);
            if (f != Status::Ok) continue;
            checkPath(view, segments, count);
            for (uint32_t i = 0; i < count; ++i) {
                if (segments[i].type != PathSegmentType::Link) continue;
                CLEARWAY_FUZZ_REQUIRE(segments[i].link < links);
                if (i > 0)
                    CLEARWAY_FUZZ_REQUIRE(segments[i - 1].end.x == segments[i].start.x &&
                                          segments[i - 1].end.y == segments[i].start.y);
            }
        }
    }
}

// Queries between points a game would pick: roadmap vertices, nudged off the roadmap.
void runQueries(const RoadmapView& view, const RoadmapInfo& info, PathScratch* scratch) {
    constexpr uint32_t kMaxSegments = 64;
    PathSegment segments[kMaxSegments];
    linkQueries(view, scratch);
    const uint32_t picks = info.vertex_count < 6 ? info.vertex_count : 6;
    for (uint32_t i = 0; i < picks; ++i) {
        RoadmapVertexInfo a, b;
        CLEARWAY_FUZZ_REQUIRE(roadmapVertex(view, (i * 7919u) % info.vertex_count, &a) == Status::Ok);
        CLEARWAY_FUZZ_REQUIRE(roadmapVertex(view, (i * 104729u + 1) % info.vertex_count, &b) == Status::Ok);
        const double radius = 0.1 + 0.2 * i;
        RoadmapPoint p;
        const Status n =
            nearestRoadmapPoint(view, a.layer, a.position.x + 0.7, a.position.y - 0.4, radius, &p);
        CLEARWAY_FUZZ_REQUIRE(n == Status::Ok || n == Status::NotFound);
        if (n == Status::Ok) CLEARWAY_FUZZ_REQUIRE(p.edge < info.edge_count && finite(p.distance));
        const PathEndpoint from{a.position.x + 0.25, a.position.y + 0.25, a.layer};
        const PathEndpoint to{b.position.x - 0.25, b.position.y, b.layer};
        for (double preferred : {radius, 2 * radius, double(INFINITY)}) {
            uint32_t count = 0;
            const Status f =
                findPath(view, scratch, from, to, radius, preferred, segments, &count, kMaxSegments);
            CLEARWAY_FUZZ_REQUIRE(f == Status::Ok || f == Status::NotFound || f == Status::BufferTooSmall);
            if (f == Status::Ok) checkPath(view, segments, count);
        }
    }
}

// Query arguments from the input's bytes: a splitmix64 stream seeded with their FNV-1a hash, so
// every mutation also varies the arguments. One value in three is a special one.
class Arguments {
  public:
    Arguments(const uint8_t* data, size_t size) {
        for (size_t i = 0; i < size; ++i)
            state_ = (state_ ^ data[i]) * 0x100000001b3ull;
    }
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1.0p-53; }
    // `ordinary`, or NaN, an infinity, a huge, negative, zero or subnormal value.
    double value(double ordinary) {
        const double special[] = {NAN, INFINITY, -INFINITY, 1e300, -DBL_MAX, -ordinary - 1, 0.0, 5e-324};
        const uint64_t pick = next() % 24;
        return pick < 8 ? special[pick] : ordinary;
    }

  private:
    uint64_t state_ = 0xcbf29ce484222325ull;
};

bool finite(Vec2d p) {
    return finite(p.x) && finite(p.y);
}

// How close to the radius a disc may end: the runtime's slop (1e-9 relative) and the rounding of a
// few slides, relative to the coordinates' size.
bool keepsRadius(const RoadmapView& view, const PathScratch* scratch, uint32_t layer, Vec2d p,
                 double radius) {
    double distance = 0;
    CLEARWAY_FUZZ_REQUIRE(wallDistance(view, scratch, layer, p.x, p.y, &distance, nullptr) == Status::Ok);
    return distance >= radius - 1e-6 * (1.0 + std::fabs(p.x) + std::fabs(p.y) + radius);
}

// Least distance from the path's poses (every 1/400 of it) to a disc's centre or a box.
struct FuzzObstacle {
    bool box;
    uint32_t layer;
    Vec2d centre, half;
    double radius, angle;
};
double obstacleDistance(const FuzzObstacle& o, const PathPose& pose) {
    const double dx = pose.position.x - o.centre.x, dy = pose.position.y - o.centre.y;
    if (!o.box) return std::hypot(dx, dy) - o.radius;
    const double c = std::cos(o.angle), s = std::sin(o.angle);
    const double u = std::fabs(dx * c + dy * s) - o.half.x, v = std::fabs(-dx * s + dy * c) - o.half.y;
    return std::hypot(std::fmax(u, 0.0), std::fmax(v, 0.0));
}

// findPathAvoiding round up to 4 obstacles drawn near the ends (some of them invalid, refused):
// statuses in the documented set, and a path keeps the radius from every obstacle on its layer.
void avoidingQuery(const RoadmapView& view, const RoadmapInfo& info, PathScratch* scratch, Arguments& args,
                   PathEndpoint from, PathEndpoint to, double radius, double preferred) {
    alignas(8) uint8_t memory[1024];
    ObstacleSet* set = nullptr;
    CLEARWAY_FUZZ_REQUIRE(obstacleSetBytes(4) <= sizeof(memory));
    CLEARWAY_FUZZ_REQUIRE(obstacleSetInit(memory, sizeof(memory), 4, &set) == Status::Ok);
    FuzzObstacle kept[4];
    uint32_t n = 0;
    const uint32_t tries = uint32_t(args.next() % 6);
    for (uint32_t k = 0; k < tries; ++k) {
        const double t = args.uniform(0, 1);
        FuzzObstacle o{args.next() % 2 == 0,
                       args.next() % 4 == 0 ? to.layer : from.layer,
                       Vec2d{args.value(from.x + t * (to.x - from.x) + args.uniform(-1, 1)),
                             args.value(from.y + t * (to.y - from.y) + args.uniform(-1, 1))},
                       Vec2d{args.value(args.uniform(0, 1)), args.value(args.uniform(0, 1))},
                       args.value(args.uniform(0, 1)),
                       args.value(args.uniform(-4, 4))};
        uint32_t id = 0;
        auto size = [](double v) { return v >= 0 && v <= 1e6; };
        const bool valid = std::fabs(o.centre.x) <= 1e9 && std::fabs(o.centre.y) <= 1e9 &&
                           (o.box ? size(o.half.x) && size(o.half.y) && finite(o.angle) : size(o.radius));
        const Status a = o.box ? obstacleAddBox(set, o.layer, o.centre, o.half, o.angle, &id)
                               : obstacleAddDisc(set, o.layer, o.centre, o.radius, &id);
        CLEARWAY_FUZZ_REQUIRE(a == (!valid   ? Status::InvalidArgument
                                    : n == 4 ? Status::CapacityReached
                                             : Status::Ok));
        if (a == Status::Ok) kept[n++] = o;
    }
    constexpr uint32_t kMaxSegments = 64;
    PathSegment segments[kMaxSegments];
    uint32_t count = 0;
    const Status f = findPathAvoiding(view, scratch, from, to, radius, preferred, nullptr, set, segments,
                                      &count, kMaxSegments);
    CLEARWAY_FUZZ_REQUIRE(f == Status::Ok || f == Status::NotFound || f == Status::BufferTooSmall ||
                          f == Status::InvalidArgument || f == Status::ScratchTooSmall);
    if (f != Status::Ok || count == 0) return;
    checkPath(view, segments, count);
    const double total = pathTotalLength(segments, count);
    static PathPose poses[402];
    uint32_t sampled = 0;
    CLEARWAY_FUZZ_REQUIRE(pathSample(view, segments, count, total / 400 + 1e-9, poses, &sampled, 402) ==
                          Status::Ok);
    for (uint32_t k = 0; k < sampled; ++k)
        for (uint32_t o = 0; o < n; ++o) {
            const PathSegment& seg = segments[poses[k].segment];
            if (seg.portal || kept[o].layer != seg.layer || kept[o].layer >= info.layer_count) continue;
            const double slack =
                1e-6 * (1.0 + std::fabs(poses[k].position.x) + std::fabs(poses[k].position.y) + radius);
            CLEARWAY_FUZZ_REQUIRE(obstacleDistance(kept[o], poses[k]) >= radius - slack);
        }
}

// One character query of each kind; every status in its documented set, InvalidArgument exactly
// for the arguments documented as invalid, finite answers that keep their promises.
void characterQueries(const RoadmapView& view, const RoadmapInfo& info, PathScratch* scratch,
                      Arguments& args) {
    RoadmapVertexInfo a, b;
    CLEARWAY_FUZZ_REQUIRE(roadmapVertex(view, uint32_t(args.next() % info.vertex_count), &a) == Status::Ok);
    CLEARWAY_FUZZ_REQUIRE(roadmapVertex(view, uint32_t(args.next() % info.vertex_count), &b) == Status::Ok);
    const Vec2d start{args.value(a.position.x + args.uniform(-3, 3)),
                      args.value(a.position.y + args.uniform(-3, 3))};
    const Vec2d end{args.value(b.position.x + args.uniform(-3, 3)),
                    args.value(b.position.y + args.uniform(-3, 3))};
    const double radius = args.value(args.uniform(0, 2));
    const uint32_t layer = args.next() % 8 == 0 ? info.layer_count : a.layer;
    const bool valid =
        finite(start) && finite(end) && radius >= 0 && finite(radius) && layer < info.layer_count;

    RaycastHit hit;
    const Status r = raycast(view, scratch, layer, start, end, radius, &hit);
    CLEARWAY_FUZZ_REQUIRE((r == Status::InvalidArgument) == !valid);
    CLEARWAY_FUZZ_REQUIRE(r == Status::Ok || r == Status::PortalReached || r == Status::Blocked ||
                          r == Status::NotFound || r == Status::InvalidArgument);
    if (r == Status::Ok || r == Status::PortalReached || r == Status::Blocked) {
        CLEARWAY_FUZZ_REQUIRE(hit.t >= 0 && hit.t <= 1 && finite(hit.distance) && hit.distance >= 0);
        CLEARWAY_FUZZ_REQUIRE(finite(hit.position) && finite(hit.wall) && finite(hit.normal));
        if (r == Status::Ok && hit.hit)
            CLEARWAY_FUZZ_REQUIRE(std::fabs(std::hypot(hit.normal.x, hit.normal.y) - 1) < 1e-9);
        if (r != Status::Blocked)
            CLEARWAY_FUZZ_REQUIRE(keepsRadius(view, scratch, layer, hit.position, radius));
    }

    Vec2d moved{NAN, NAN};
    const Status m = moveAlongSurface(view, scratch, layer, start, end, radius, &moved);
    CLEARWAY_FUZZ_REQUIRE((m == Status::InvalidArgument) == !valid);
    CLEARWAY_FUZZ_REQUIRE(m == Status::Ok || m == Status::PortalReached || m == Status::Blocked ||
                          m == Status::NotFound || m == Status::InvalidArgument);
    if (m == Status::Blocked) CLEARWAY_FUZZ_REQUIRE(moved.x == start.x && moved.y == start.y);
    if (m == Status::Ok || m == Status::PortalReached)
        CLEARWAY_FUZZ_REQUIRE(finite(moved) && keepsRadius(view, scratch, layer, moved, radius));

    const Vec3d point{start.x, start.y, args.value(a.position.z + args.uniform(-1, 2))};
    const double step_up = args.value(args.uniform(0, 1));
    PathEndpoint spot{NAN, NAN, 0};
    const Status v = nearestValidPosition(view, scratch, point, radius, step_up, &spot);
    const bool valid_spot = finite(point.x) && finite(point.y) && finite(point.z) && radius >= 0 &&
                            finite(radius) && step_up >= 0 && finite(step_up);
    CLEARWAY_FUZZ_REQUIRE((v == Status::InvalidArgument) == !valid_spot);
    CLEARWAY_FUZZ_REQUIRE(v == Status::Ok || v == Status::NotFound || v == Status::InvalidArgument);
    if (v == Status::Ok)
        CLEARWAY_FUZZ_REQUIRE(spot.layer < info.layer_count && finite(spot.x) && finite(spot.y) &&
                              keepsRadius(view, scratch, spot.layer, {spot.x, spot.y}, radius));

    constexpr uint32_t kMaxSegments = 64;
    PathSegment segments[kMaxSegments];
    uint32_t count = 0;
    const PathEndpoint from{start.x, start.y, layer}, to{end.x, end.y, b.layer};
    const double preferred = args.value(args.uniform(0, 3));
    const uint32_t max_segments = args.next() % 4 == 0 ? uint32_t(args.next() % 3) : kMaxSegments;
    // Half the queries under a query filter drawn from the input (random flags, a few multipliers,
    // some of them NaN, infinite, 0 or negative), the default one included.
    const bool filtered = args.next() % 2 == 0;
    QueryFilter filter = defaultQueryFilter();
    if (filtered && args.next() % 4 != 0) {
        filter.include_flags = uint16_t(args.next());
        filter.exclude_flags = args.next() % 3 == 0 ? uint16_t(args.next()) : 0;
        for (int k = 0; k < 3; ++k)
            filter.area_cost[args.next() % kAreaTypeCount] = float(args.value(args.uniform(0.1, 4)));
    }
    const bool valid_filter = !filtered || checkQueryFilter(filter) == Status::Ok;
    const Status f = filtered ? findPathPartialFiltered(view, scratch, from, to, radius, preferred, filter,
                                                        segments, &count, max_segments)
                              : findPathPartial(view, scratch, from, to, radius, preferred, segments, &count,
                                                max_segments);
    CLEARWAY_FUZZ_REQUIRE((f == Status::InvalidArgument) ==
                          (!valid || std::isnan(preferred) || !valid_filter));
    CLEARWAY_FUZZ_REQUIRE(f == Status::Ok || f == Status::Partial || f == Status::NotFound ||
                          f == Status::BufferTooSmall || f == Status::InvalidArgument);
    // An empty path: the start already is the goal (Ok) or the reachable point nearest it (Partial).
    if (f == Status::Ok || f == Status::Partial) CLEARWAY_FUZZ_REQUIRE(count <= max_segments);
    if ((f == Status::Ok || f == Status::Partial) && count > 0) checkPath(view, segments, count);
    avoidingQuery(view, info, scratch, args, from, to, radius, preferred);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const fuzz::AlignedCopy copy(data, size);
    RoadmapView view;
    const Status s = loadRoadmap(copy.bytes.get(), copy.size, &view);
    CLEARWAY_FUZZ_REQUIRE(s == Status::Ok || s == Status::CorruptAsset || s == Status::WrongAssetKind ||
                          s == Status::UnsupportedVersion);
    if (s != Status::Ok) return 0;
    RoadmapInfo info;
    CLEARWAY_FUZZ_REQUIRE(roadmapInfo(view, &info) == Status::Ok && info.baker_version != nullptr);
    walkAccessors(view, info);
    if (info.vertex_count == 0 || info.layer_count == 0) return 0;
    size_t bytes = 0;
    CLEARWAY_FUZZ_REQUIRE(pathScratchSize(view, &bytes) == Status::Ok);
    std::vector<uint8_t> memory(bytes);
    PathScratch* scratch = nullptr;
    CLEARWAY_FUZZ_REQUIRE(pathScratchInit(view, memory.data(), bytes, &scratch) == Status::Ok);
    runQueries(view, info, scratch);
    Arguments args(data, size);
    for (int i = 0; i < 8; ++i)
        characterQueries(view, info, scratch, args);
    return 0;
}
