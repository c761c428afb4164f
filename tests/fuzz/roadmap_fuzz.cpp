// libFuzzer target: roadmap assets (.cwrm). Any bytes end in a status from loadRoadmap; bytes it
// accepts must survive every accessor and the queries a game makes (nearest point, findPath with
// finite and infinite preferred clearance, pose sampling along the result). Built with
// -DCLEARWAY_FUZZ=ON (scripts/fuzz).
#include <clearway/runtime.h>

#include "fuzz_support.h"

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

// Queries between points a game would pick: roadmap vertices, nudged off the roadmap.
void runQueries(const RoadmapView& view, const RoadmapInfo& info) {
    if (info.vertex_count == 0 || info.layer_count == 0) return;
    size_t bytes = 0;
    CLEARWAY_FUZZ_REQUIRE(pathScratchSize(view, &bytes) == Status::Ok);
    std::vector<uint8_t> memory(bytes);
    PathScratch* scratch = nullptr;
    CLEARWAY_FUZZ_REQUIRE(pathScratchInit(view, memory.data(), bytes, &scratch) == Status::Ok);
    constexpr uint32_t kMaxSegments = 64;
    PathSegment segments[kMaxSegments];
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
    runQueries(view, info);
    return 0;
}
