// Roadmap loader and queries on a hand-built asset whose answers are known in closed form; every
// malformed asset yields a status (run under ASan+UBSan for the "never a crash" half).
#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "asset_robustness.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <random>
#include <utility>
#include <vector>

using namespace clearway;
namespace fb = clearway::schema;

namespace {

constexpr double kPi = 3.14159265358979323846;

// A 10 m square room with a 2 m pillar in the middle (4..6). The roadmap is the square loop at
// 2 m from the outer walls, (2,2) (8,2) (8,8) (2,8), clearance 2 everywhere, with a radius-1
// blend at each corner (90 degree turn, trimmed 1 m each way).
struct RoadmapSpec {
    const char* identifier = "CWRM";
    uint32_t format_version = kRoadmapFormatVersion;
    bool with_footprint = true;
    bool with_grid = true;
    std::vector<fb::RoadmapVertex> vertices;
    std::vector<fb::RoadmapEdge> edges;
    std::vector<fb::Vec2> points;
    std::vector<fb::Blend> blends;
    float grid_min_x = 2, grid_min_y = 2, grid_cell = 3;
    uint32_t cells_x = 2, cells_y = 2;
    std::vector<uint32_t> cell_start, cell_edges;
    std::vector<fb::Vec2> boundary;
    std::vector<fb::Ring> rings;
};

fb::RoadmapEdge edge(uint32_t a, uint32_t b, uint32_t first, uint32_t count, float clearance) {
    return fb::RoadmapEdge(a, b, first, count, clearance, fb::ClearanceSite::Walls, false, 0, 0, 0, 0, 0, 0,
                           0, 0, 0, 0, 0, 0);
}

RoadmapSpec validSpec() {
    RoadmapSpec s;
    s.vertices = {{2, 2, 0, 2, 0}, {8, 2, 0, 2, 0}, {8, 8, 0, 2, 0}, {2, 8, 0, 2, 0}};
    s.points = {{2, 2}, {8, 2}, {8, 2}, {8, 8}, {8, 8}, {2, 8}, {2, 8}, {2, 5}, {2, 2}};
    s.edges = {edge(0, 1, 0, 2, 2), edge(1, 2, 2, 2, 2), edge(2, 3, 4, 2, 2), edge(3, 0, 6, 3, 2)};
    // At each corner: in along the previous edge, out along the next, turning left.
    s.blends = {{1, 0, 1, 7, 3, 1, 7, 2, 8, 3, true, 2.2f},
                {2, 1, 2, 7, 7, 1, 8, 7, 7, 8, true, 2.2f},
                {3, 2, 3, 3, 7, 1, 3, 8, 2, 7, true, 2.2f},
                {0, 3, 0, 3, 3, 1, 2, 3, 3, 2, true, 2.2f}};
    // Cells of 3 m from (2,2): e0 runs along row 0, e1 column 1, e2 row 1, e3 column 0.
    s.cell_start = {0, 2, 4, 6, 8};
    s.cell_edges = {0, 3, 0, 1, 2, 3, 1, 2};
    s.boundary = {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {4, 4}, {4, 6}, {6, 6}, {6, 4}};
    s.rings = {{0, 4}, {4, 4}};
    return s;
}

std::vector<uint8_t> build(const RoadmapSpec& s) {
    flatbuffers::FlatBufferBuilder b;
    flatbuffers::Offset<fb::Footprint> footprint = 0;
    if (s.with_footprint) {
        std::vector<fb::Polygon> polygons = {{0, uint32_t(s.rings.size())}};
        std::vector<fb::Vec3> surface = {{0, 0, 0}, {10, 0, 0}, {10, 10, 0}, {0, 10, 0}};
        std::vector<fb::Triangle> triangles = {{0, 1, 2}, {0, 2, 3}};
        auto layer = fb::CreateLayer(b, b.CreateVectorOfStructs(s.boundary), b.CreateVectorOfStructs(s.rings),
                                     b.CreateVectorOfStructs(polygons), b.CreateVectorOfStructs(surface),
                                     b.CreateVectorOfStructs(triangles), 96.0, 0.0f, 0.0f);
        std::vector<flatbuffers::Offset<fb::Layer>> layers = {layer};
        const fb::Vec3d origin(100, 200, 0);
        footprint = fb::CreateFootprint(b, kFootprintFormatVersion, b.CreateString("test"), 1, 2, 0, &origin,
                                        0.25, b.CreateVector(layers));
    }
    flatbuffers::Offset<fb::EdgeGrid> grid = 0;
    if (s.with_grid)
        grid = fb::CreateEdgeGrid(b, s.grid_min_x, s.grid_min_y, s.grid_cell, s.cells_x, s.cells_y,
                                  b.CreateVector(s.cell_start), b.CreateVector(s.cell_edges));
    auto options = fb::CreateRoadmapOptions(b, 0.0, 0.01, true);
    auto root =
        fb::CreateRoadmap(b, s.format_version, b.CreateString("0.1.0"), 0x1234, 0x5678, options, footprint,
                          b.CreateVectorOfStructs(s.vertices), b.CreateVectorOfStructs(s.edges),
                          b.CreateVectorOfStructs(s.points), b.CreateVectorOfStructs(s.blends), grid);
    b.Finish(root, s.identifier);
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

Status loadSpec(const RoadmapSpec& spec) {
    const auto bytes = build(spec);
    RoadmapView view;
    return loadRoadmap(bytes.data(), bytes.size(), &view);
}

bool finite(double v) {
    return std::isfinite(v);
}

// Runs a findPath with a fresh scratch; segments in `out`.
Status plan(const RoadmapView& view, PathEndpoint from, PathEndpoint to, double radius,
            std::vector<PathSegment>* out, uint32_t max = 64, double preferred = INFINITY) {
    size_t bytes = 0;
    REQUIRE(pathScratchSize(view, &bytes) == Status::Ok);
    std::vector<uint8_t> memory(bytes);
    PathScratch* scratch = nullptr;
    REQUIRE(pathScratchInit(view, memory.data(), memory.size(), &scratch) == Status::Ok);
    out->assign(max, PathSegment{});
    uint32_t count = 0;
    const Status s = findPath(view, scratch, from, to, radius, preferred, out->data(), &count, max);
    out->resize(count < max ? count : max);
    return s;
}

// Calls every accessor and query on a loaded view; false if anything misbehaves.
bool walkEverything(const RoadmapView& view) {
    bool ok = true;
    auto expect = [&](bool c) { ok = ok && c; };
    const uint8_t* begin = view.data;
    const uint8_t* end = view.data + view.size;
    RoadmapInfo info;
    expect(roadmapInfo(view, &info) == Status::Ok);
    if (!ok) return false;
    expect(info.baker_version != nullptr);
    FootprintView fp;
    expect(roadmapFootprint(view, &fp) == Status::Ok);
    FootprintInfo fi;
    expect(footprintInfo(fp, &fi) == Status::Ok);
    expect(fi.layer_count == info.layer_count);
    for (uint32_t l = 0; l < fi.layer_count; ++l) {
        FootprintLayerInfo layer;
        expect(footprintLayer(fp, l, &layer) == Status::Ok);
        for (uint32_t r = 0; ok && r < layer.ring_count; ++r) {
            const Vec2f* verts;
            uint32_t count;
            expect(footprintRing(fp, l, r, &verts, &count) == Status::Ok);
            expect(reinterpret_cast<const uint8_t*>(verts) >= begin &&
                   reinterpret_cast<const uint8_t*>(verts + count) <= end);
        }
    }
    for (uint32_t v = 0; v < info.vertex_count; ++v) {
        RoadmapVertexInfo vi;
        expect(roadmapVertex(view, v, &vi) == Status::Ok);
        expect(vi.layer < info.layer_count);
    }
    for (uint32_t e = 0; e < info.edge_count; ++e) {
        RoadmapEdgeInfo ei;
        expect(roadmapEdge(view, e, &ei) == Status::Ok);
        if (!ok) return false;
        expect(ei.a < info.vertex_count && ei.b < info.vertex_count && ei.point_count >= 2);
        expect(reinterpret_cast<const uint8_t*>(ei.points) >= begin &&
               reinterpret_cast<const uint8_t*>(ei.points + ei.point_count) <= end);
        for (uint32_t i = 0; i < ei.point_count; ++i)
            expect(finite(ei.points[i].x) && finite(ei.points[i].y));
    }
    for (uint32_t b = 0; b < info.blend_count; ++b) {
        RoadmapBlend bl;
        expect(roadmapBlend(view, b, &bl) == Status::Ok);
        expect(bl.vertex < info.vertex_count && bl.edge_in < info.edge_count &&
               bl.edge_out < info.edge_count);
    }
    // Queries must end in a status on anything that loaded.
    size_t bytes = 0;
    expect(pathScratchSize(view, &bytes) == Status::Ok);
    if (!ok) return false;
    std::vector<uint8_t> memory(bytes);
    PathScratch* scratch = nullptr;
    expect(pathScratchInit(view, memory.data(), bytes, &scratch) == Status::Ok);
    if (!ok) return false;
    PathSegment segments[32];
    for (uint32_t l = 0; l < info.layer_count; ++l) {
        for (double y = -1; y <= 11; y += 3) {
            for (double x = -1; x <= 11; x += 3) {
                RoadmapPoint p;
                const Status s = nearestRoadmapPoint(view, l, x, y, 0.5, &p);
                expect(s == Status::Ok || s == Status::NotFound);
                if (s == Status::Ok) expect(p.edge < info.edge_count && finite(p.distance));
                uint32_t count = 0;
                const Status f = findPath(view, scratch, PathEndpoint{1, 5, 0}, PathEndpoint{x, y, l}, 0.3,
                                          INFINITY, segments, &count, 32);
                expect(f == Status::Ok || f == Status::NotFound || f == Status::BufferTooSmall);
                if (f == Status::Ok)
                    for (uint32_t i = 0; i < count; ++i)
                        expect(finite(segments[i].length) && finite(segments[i].end.x));
            }
        }
    }
    return ok;
}

// Distance from (x, y) to the nearest ring edge of the spec, brute force.
double wallDistance(const RoadmapSpec& spec, double x, double y) {
    double best = INFINITY;
    for (const fb::Ring& ring : spec.rings)
        for (uint32_t i = 0; i < ring.vertex_count(); ++i) {
            const fb::Vec2& a = spec.boundary[ring.first_vertex() + i];
            const fb::Vec2& b = spec.boundary[ring.first_vertex() + (i + 1) % ring.vertex_count()];
            const double dx = b.x() - a.x(), dy = b.y() - a.y();
            double t = ((x - a.x()) * dx + (y - a.y()) * dy) / (dx * dx + dy * dy);
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            best = std::fmin(best, std::hypot(a.x() + t * dx - x, a.y() + t * dy - y));
        }
    return best;
}

// Heading of a path segment at its start or end.
double heading(const PathSegment& s, bool at_end) {
    if (s.type == PathSegmentType::Line) return std::atan2(s.end.y - s.start.y, s.end.x - s.start.x);
    const Vec2d p = at_end ? s.end : s.start;
    return std::atan2(p.y - s.center.y, p.x - s.center.x) + (s.sweep > 0 ? kPi / 2 : -kPi / 2);
}

} // namespace

TEST_SUITE("runtime/roadmap") {

    TEST_CASE("accepts a valid roadmap and reports counts, vertices, edges, blends and grid") {
        const auto bytes = build(validSpec());
        RoadmapView view;
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        CHECK(view.data == bytes.data());
        RoadmapInfo info;
        REQUIRE(roadmapInfo(view, &info) == Status::Ok);
        CHECK(info.format_version == kRoadmapFormatVersion);
        CHECK(info.vertex_count == 4);
        CHECK(info.edge_count == 4);
        CHECK(info.point_count == 9);
        CHECK(info.blend_count == 4);
        CHECK(info.layer_count == 1);
        CHECK(info.input_hash == 0x1234);
        CHECK(info.options_hash == 0x5678);
        CHECK(info.grid_cells_x == 2);
        CHECK(info.grid_cell_size == 3.0f);
        CHECK(std::strcmp(info.baker_version, "0.1.0") == 0);

        RoadmapVertexInfo v;
        REQUIRE(roadmapVertex(view, 2, &v) == Status::Ok);
        CHECK(v.position.x == 8.0f);
        CHECK(v.position.y == 8.0f);
        CHECK(v.clearance == 2.0f);

        RoadmapEdgeInfo e;
        REQUIRE(roadmapEdge(view, 3, &e) == Status::Ok);
        CHECK(e.a == 3);
        CHECK(e.b == 0);
        REQUIRE(e.point_count == 3);
        CHECK(e.points[1].y == 5.0f);
        // Zero-copy: the polyline is the asset's own memory.
        CHECK(reinterpret_cast<const uint8_t*>(e.points) > bytes.data());
        CHECK(reinterpret_cast<const uint8_t*>(e.points + 3) <= bytes.data() + bytes.size());
        CHECK(e.site == ClearanceSite::Walls);

        RoadmapBlend b;
        REQUIRE(roadmapBlend(view, 0, &b) == Status::Ok);
        CHECK(b.vertex == 1);
        CHECK(b.radius == 1.0f);
        CHECK(b.ccw);

        CHECK(roadmapVertex(view, 4, &v) == Status::InvalidArgument);
        CHECK(roadmapEdge(view, 4, &e) == Status::InvalidArgument);
        CHECK(roadmapBlend(view, 4, &b) == Status::InvalidArgument);
        CHECK(roadmapInfo(RoadmapView{}, &info) == Status::InvalidArgument);
    }

    TEST_CASE("the embedded footprint works with every footprint accessor") {
        const auto bytes = build(validSpec());
        RoadmapView view;
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        FootprintView fp;
        REQUIRE(roadmapFootprint(view, &fp) == Status::Ok);
        FootprintInfo info;
        REQUIRE(footprintInfo(fp, &info) == Status::Ok);
        CHECK(info.layer_count == 1);
        CHECK(info.origin.x == 100.0);
        CHECK(info.grid_spacing == 0.25);
        const Vec2f* hole;
        uint32_t count;
        REQUIRE(footprintRing(fp, 0, 1, &hole, &count) == Status::Ok);
        CHECK(count == 4);
        CHECK(hole[2].x == 6.0f);
        float z = -1;
        CHECK(footprintHeightAt(fp, 0, 3, 3, 0, &z) == Status::Ok);
        CHECK(z == 0.0f);
    }

    TEST_CASE("rejects every truncated prefix") {
        const auto bytes = build(validSpec());
        const size_t accepted = test::acceptedPrefixes(bytes, [](const uint8_t* data, size_t size) {
            RoadmapView view;
            const bool ok = loadRoadmap(data, size, &view) == Status::Ok;
            CHECK((ok || view.data == nullptr));
            return ok;
        });
        CHECK(accepted == 0);
    }

    TEST_CASE("rejects the wrong identifier, versions, missing parts and bad arguments") {
        RoadmapSpec spec = validSpec();
        spec.identifier = "CWFP";
        CHECK(loadSpec(spec) == Status::WrongAssetKind);
        spec = validSpec();
        spec.format_version = kRoadmapFormatVersion + 1;
        CHECK(loadSpec(spec) == Status::UnsupportedVersion);
        spec.format_version = 0;
        CHECK(loadSpec(spec) == Status::CorruptAsset);
        spec = validSpec();
        spec.with_footprint = false;
        CHECK(loadSpec(spec) == Status::CorruptAsset);
        spec = validSpec();
        spec.with_grid = false;
        CHECK(loadSpec(spec) == Status::CorruptAsset);

        const auto bytes = build(validSpec());
        RoadmapView view;
        CHECK(loadRoadmap(nullptr, bytes.size(), &view) == Status::InvalidArgument);
        CHECK(loadRoadmap(bytes.data(), bytes.size(), nullptr) == Status::InvalidArgument);
        std::unique_ptr<uint8_t[]> storage(new uint8_t[bytes.size() + 8]);
        std::memcpy(storage.get() + 4, bytes.data(), bytes.size());
        CHECK(loadRoadmap(storage.get() + 4, bytes.size(), &view) == Status::InvalidArgument);
    }

    TEST_CASE("rejects out-of-range indices and non-finite numbers") {
        auto rejects = [](void (*mutate)(RoadmapSpec&)) {
            RoadmapSpec spec = validSpec();
            mutate(spec);
            return loadSpec(spec) == Status::CorruptAsset;
        };
        CHECK(rejects([](RoadmapSpec& s) { s.edges[1] = edge(1, 4, 2, 2, 2); }));           // vertex b
        CHECK(rejects([](RoadmapSpec& s) { s.edges[1] = edge(9, 2, 2, 2, 2); }));           // vertex a
        CHECK(rejects([](RoadmapSpec& s) { s.edges[3] = edge(3, 0, 7, 3, 2); }));           // past the points
        CHECK(rejects([](RoadmapSpec& s) { s.edges[3] = edge(3, 0, 0xffffffffu, 3, 2); })); // 32-bit wrap
        CHECK(rejects([](RoadmapSpec& s) { s.edges[0] = edge(0, 1, 0, 1, 2); }));           // one point
        CHECK(rejects([](RoadmapSpec& s) { s.edges[0] = edge(0, 1, 0, 2, NAN); }));
        CHECK(rejects([](RoadmapSpec& s) { s.edges[0] = edge(0, 1, 0, 2, -1); }));
        CHECK(rejects([](RoadmapSpec& s) {
            s.edges[0] = fb::RoadmapEdge(0, 1, 0, 2, 2, static_cast<fb::ClearanceSite>(3), false, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 0, 0);
        }));
        CHECK(rejects([](RoadmapSpec& s) { s.vertices[0] = fb::RoadmapVertex(2, 2, 0, 2, 1); })); // layer
        CHECK(rejects([](RoadmapSpec& s) { s.vertices[0] = fb::RoadmapVertex(2, INFINITY, 0, 2, 0); }));
        CHECK(rejects([](RoadmapSpec& s) { s.points[4] = fb::Vec2(NAN, 0); }));
        CHECK(rejects([](RoadmapSpec& s) { s.blends[0] = {4, 0, 1, 7, 3, 1, 7, 2, 8, 3, true, 2}; }));
        CHECK(rejects([](RoadmapSpec& s) { s.blends[0] = {1, 4, 1, 7, 3, 1, 7, 2, 8, 3, true, 2}; }));
        CHECK(rejects([](RoadmapSpec& s) { s.blends[0] = {1, 0, 7, 7, 3, 1, 7, 2, 8, 3, true, 2}; }));
        CHECK(rejects([](RoadmapSpec& s) { s.blends[0] = {1, 0, 1, 7, 3, NAN, 7, 2, 8, 3, true, 2}; }));
        CHECK(rejects([](RoadmapSpec& s) { s.cell_edges[5] = 4; }));                    // edge index
        CHECK(rejects([](RoadmapSpec& s) { s.cell_start = {0, 2, 1, 6, 8}; }));         // not monotone
        CHECK(rejects([](RoadmapSpec& s) { s.cell_start = {0, 2, 4, 6, 7}; }));         // end != size
        CHECK(rejects([](RoadmapSpec& s) { s.cell_start = {1, 2, 4, 6, 8}; }));         // start != 0
        CHECK(rejects([](RoadmapSpec& s) { s.cells_x = 3; }));                          // cell count
        CHECK(rejects([](RoadmapSpec& s) { s.cells_x = 0x80000000u, s.cells_y = 2; })); // product wraps
        CHECK(rejects([](RoadmapSpec& s) { s.grid_cell = 0; }));
        CHECK(rejects([](RoadmapSpec& s) { s.grid_min_x = NAN; }));
        // The embedded footprint gets the footprint loader's checks.
        CHECK(rejects([](RoadmapSpec& s) { s.rings[1] = fb::Ring(6, 4); }));
        CHECK(rejects([](RoadmapSpec& s) { s.boundary[2] = fb::Vec2(INFINITY, 10); }));
    }

    TEST_CASE("survives random byte corruption, queries included") {
        const auto valid = build(validSpec());
        constexpr int kIterations = 20000;
        const test::CorruptionCounts counts =
            test::corruptRandomly(valid, 20261122u, kIterations, [](const uint8_t* data, size_t size) {
                RoadmapView view;
                if (loadRoadmap(data, size, &view) != Status::Ok) return -1;
                return walkEverything(view) ? 1 : 0;
            });
        const int ok = counts.loaded, rejected = counts.rejected, walk_failures = counts.walk_failures;
        MESSAGE(kIterations, " corruptions: ", ok, " still valid, ", rejected, " rejected");
        CHECK(walk_failures == 0);
        CHECK(ok > 0);
        CHECK(rejected > 0);
    }

    TEST_CASE("nearest roadmap point uses the grid and respects layer and radius") {
        const auto bytes = build(validSpec());
        RoadmapView view;
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        RoadmapPoint p;
        REQUIRE(nearestRoadmapPoint(view, 0, 1, 5, 0.5, &p) == Status::Ok);
        CHECK(p.edge == 3);
        CHECK(p.position.x == doctest::Approx(2));
        CHECK(p.position.y == doctest::Approx(5));
        CHECK(p.distance == doctest::Approx(1));
        // Far outside the grid: still the closest edge (the square's top).
        REQUIRE(nearestRoadmapPoint(view, 0, 5, 40, 0.5, &p) == Status::Ok);
        CHECK(p.edge == 2);
        CHECK(p.distance == doctest::Approx(32));
        REQUIRE(nearestRoadmapPoint(view, 0, 9.5, 0.5, 0, &p) == Status::Ok);
        CHECK(p.position.x == doctest::Approx(8));
        CHECK(p.position.y == doctest::Approx(2));
        CHECK(nearestRoadmapPoint(view, 0, 1, 5, 2.5, &p) == Status::NotFound);
        CHECK(nearestRoadmapPoint(view, 1, 1, 5, 0, &p) == Status::InvalidArgument);
        CHECK(nearestRoadmapPoint(view, 0, NAN, 5, 0, &p) == Status::InvalidArgument);
        CHECK(nearestRoadmapPoint(view, 0, 1, 5, -1, &p) == Status::InvalidArgument);
    }

    TEST_CASE("a long thin edge grid costs its cells, not its square") {
        // One row of 2^20 empty cells: a ring search that walked whole squares would take ~1e12 steps.
        RoadmapSpec spec = validSpec();
        spec.cells_x = 1u << 20;
        spec.cells_y = 1;
        spec.cell_start.assign(spec.cells_x + 1, 0);
        spec.cell_edges.clear();
        const auto bytes = build(spec);
        RoadmapView view;
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        RoadmapPoint p;
        CHECK(nearestRoadmapPoint(view, 0, 1, 5, 0.5, &p) == Status::NotFound);
        CHECK(nearestRoadmapPoint(view, 0, 1e30, -1e30, 0.5, &p) == Status::NotFound);
        std::vector<PathSegment> path;
        CHECK(plan(view, {1, 5, 0}, {9, 5, 0}, 0.5, &path) == Status::NotFound);
    }

    TEST_CASE("findPath around the pillar: lines and blends with the hand-computed length") {
        const auto bytes = build(validSpec());
        RoadmapView view;
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        std::vector<PathSegment> path;
        REQUIRE(plan(view, {1, 5, 0}, {9, 5, 0}, 0.5, &path) == Status::Ok);
        // Connection line, snap arc (trim 0.5), edge, two corner blends (trim 1), edge, snap arc, line.
        REQUIRE(path.size() == 9);
        double length = 0;
        for (size_t i = 0; i < path.size(); ++i) {
            length += path[i].length;
            if (i) {
                CHECK(path[i].start.x == path[i - 1].end.x);
                CHECK(path[i].start.y == path[i - 1].end.y);
            }
        }
        CHECK(path.front().start.x == 1.0);
        CHECK(path.back().end.x == 9.0);
        CHECK(path[1].type == PathSegmentType::Arc);
        CHECK(path[1].radius == doctest::Approx(0.5));
        CHECK(path[3].type == PathSegmentType::Arc);
        CHECK(path[3].radius == doctest::Approx(1.0));
        CHECK(length == doctest::Approx(8 + 2 * 0.5 * kPi / 2 + 2 * 1.0 * kPi / 2).epsilon(1e-9));

        // A clear straight line is the whole answer, at any finite preferred clearance (it keeps
        // the clearance of its ends, 1 m); the medial path (+inf) follows the roadmap at 2 m.
        for (double preferred : {0.5, 1.0, 1e9}) {
            REQUIRE(plan(view, {1, 1, 0}, {9, 1.5, 0}, 0.5, &path, 64, preferred) == Status::Ok);
            REQUIRE(path.size() == 1);
            CHECK(path[0].type == PathSegmentType::Line);
            CHECK(path[0].length == doctest::Approx(std::hypot(8, 0.5)));
        }
        REQUIRE(plan(view, {1, 1, 0}, {9, 1.5, 0}, 0.5, &path) == Status::Ok);
        REQUIRE(path.size() > 1);
        double along_loop = 0;
        for (const PathSegment& s : path)
            if (s.type == PathSegmentType::Line && s.start.y == 2.0 && s.end.y == 2.0) along_loop += s.length;
        CHECK(along_loop > 4.0);
    }

    TEST_CASE("a shortened path wraps both pillar corners it passes, taut") {
        // From the middle of the west edge to the middle of the east one, round the 2 m pillar
        // (4..6): the shortest path keeping clearance q leaves (2,5) on the tangent to the disc
        // of radius q round one pillar corner, runs along the pillar side q away from it and
        // comes back symmetrically: 2 sqrt(5 - q^2) + 2 + 2 q (atan(1/2) + asin(q / sqrt(5))).
        // The route's four corners give no room to split one corner into two pins: relaxation
        // used to stall both against the first pillar corner and fall back to a path 1.8 m longer.
        const auto bytes = build(validSpec());
        RoadmapView view;
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        size_t bytes_needed = 0;
        REQUIRE(pathScratchSize(view, &bytes_needed) == Status::Ok);
        std::vector<uint8_t> memory(bytes_needed);
        PathScratch* scratch = nullptr;
        REQUIRE(pathScratchInit(view, memory.data(), bytes_needed, &scratch) == Status::Ok);
        auto taut = [](double q) {
            return 2 * std::sqrt(5 - q * q) + 2 + 2 * q * (std::atan(0.5) + std::asin(q / std::sqrt(5.0)));
        };
        // Preferred clearance 1; and 0.5 at radius 0.5, kept at the floor radius + 1e-5 + 2 %.
        for (const auto& [preferred, q] : {std::pair<double, double>{1.0, 1.0}, {0.5, 0.5 + 1e-5 + 0.01}}) {
            PathSegment out[32];
            uint32_t count = 0;
            REQUIRE(findPath(view, scratch, {2, 5, 0}, {8, 5, 0}, 0.5, preferred, out, &count, 32) ==
                    Status::Ok);
            double length = 0;
            int arcs_round_pillar = 0;
            for (uint32_t i = 0; i < count; ++i) {
                length += out[i].length;
                if (out[i].type != PathSegmentType::Arc) continue;
                const double cx = out[i].center.x, cy = out[i].center.y;
                if ((std::fabs(cx - 4) < 1e-6 || std::fabs(cx - 6) < 1e-6) &&
                    (std::fabs(cy - 4) < 1e-6 || std::fabs(cy - 6) < 1e-6) &&
                    out[i].radius == doctest::Approx(q).epsilon(1e-6))
                    ++arcs_round_pillar;
            }
            CHECK(arcs_round_pillar == 2);
            // Six tangent sweeps settle the corners to about 1e-8 m.
            CHECK(length == doctest::Approx(taut(q)).epsilon(1e-7));
        }
    }

    TEST_CASE("shortening keeps an arc at every corner where two route vertices lie a hair apart") {
        // A 20 m room with four 6 m pillars: 4 m gaps (clearance 2) meet at the centre (2.83). As
        // in a bake, the centre is two vertices 0.7 mm apart and the north gap's axis is 0.5 mm
        // off (float noise). With the preferred clearance above 2, pieces between the gaps keep
        // 2 only along the exact axes and the piece joining the centre vertices keeps 2.83, so
        // relaxation squeezed the two together (11 um) and the path turned 90 degrees there
        // without an arc. The taut path wraps the gap corner (8, 12) at radius 2.
        RoadmapSpec spec;
        spec.boundary = {{0, 0},  {20, 0}, {20, 20}, {0, 20},  {2, 2},   {2, 8},  {8, 8},
                         {8, 2},  {12, 2}, {12, 8},  {18, 8},  {18, 2},  {2, 12}, {2, 18},
                         {8, 18}, {8, 12}, {12, 12}, {12, 18}, {18, 18}, {18, 12}};
        spec.rings = {{0, 4}, {4, 4}, {8, 4}, {12, 4}, {16, 4}};
        const float nx = 10.0005f, ny = 9.9995f; // the second centre vertex; the north axis x = nx
        const float centre = float(std::sqrt(8.0)), second = float(std::hypot(nx - 8.0, ny - 8.0));
        spec.vertices = {{3, 10, 0, 2, 0},  {8, 10, 0, 2, 0},  {10, 10, 0, centre, 0}, {nx, ny, 0, second, 0},
                         {nx, 12, 0, 2, 0}, {nx, 17, 0, 2, 0}, {10, 8, 0, 2, 0},       {12, 10, 0, 2, 0}};
        spec.points = {{3, 10},  {8, 10},  {8, 10},  {10, 10}, {10, 10}, {nx, ny}, {nx, ny},
                       {nx, 12}, {nx, 12}, {nx, 17}, {10, 10}, {10, 8},  {nx, ny}, {12, 10}};
        spec.edges = {edge(0, 1, 0, 2, 2), edge(1, 2, 2, 2, 2), edge(2, 3, 4, 2, centre),
                      edge(3, 4, 6, 2, 2), edge(4, 5, 8, 2, 2), edge(2, 6, 10, 2, 2),
                      edge(3, 7, 12, 2, 2)};
        spec.blends = {};
        spec.grid_min_x = 0, spec.grid_min_y = 0, spec.grid_cell = 20, spec.cells_x = 1, spec.cells_y = 1;
        spec.cell_start = {0, 7};
        spec.cell_edges = {0, 1, 2, 3, 4, 5, 6};
        const auto bytes = build(spec);
        RoadmapView view;
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        size_t bytes_needed = 0;
        REQUIRE(pathScratchSize(view, &bytes_needed) == Status::Ok);
        std::vector<uint8_t> memory(bytes_needed);
        PathScratch* scratch = nullptr;
        REQUIRE(pathScratchInit(view, memory.data(), bytes_needed, &scratch) == Status::Ok);
        const double radius = 0.5;
        for (double preferred : {1e9, 5.0, double(INFINITY), 2.0, 1.0, 0.5}) {
            CAPTURE(preferred);
            PathSegment out[64];
            uint32_t count = 0;
            REQUIRE(findPath(view, scratch, {5, 10, 0}, {10, 16, 0}, radius, preferred, out, &count, 64) ==
                    Status::Ok);
            double length = 0, least = INFINITY;
            int wraps = 0;
            for (uint32_t i = 0; i < count; ++i) {
                const PathSegment& s = out[i];
                length += s.length;
                if (i)
                    CHECK(std::fabs(std::remainder(heading(s, false) - heading(out[i - 1], true), 2 * kPi)) <
                          1e-9);
                for (int k = 0; k <= 400; ++k) {
                    const double t = k / 400.0;
                    double x = s.start.x + t * (s.end.x - s.start.x),
                           y = s.start.y + t * (s.end.y - s.start.y);
                    if (s.type == PathSegmentType::Arc) {
                        const double a =
                            std::atan2(s.start.y - s.center.y, s.start.x - s.center.x) + t * s.sweep;
                        x = s.center.x + s.radius * std::cos(a), y = s.center.y + s.radius * std::sin(a);
                    }
                    least = std::fmin(least, wallDistance(spec, x, y));
                }
                wraps += s.type == PathSegmentType::Arc &&
                         std::hypot(s.center.x - 8, s.center.y - 12) < 1e-3 && std::fabs(s.radius - 2) < 1e-3;
            }
            CHECK(least >= radius);
            if (preferred >= 2 && preferred < INFINITY) {
                // 3 m east, a quarter circle of radius 2 round (8, 12), 4 m north.
                CHECK(wraps == 1);
                CHECK(length == doctest::Approx(7 + kPi).epsilon(1e-3));
            }
        }
    }

    TEST_CASE("findPath statuses: no path, outside, small buffer, bad arguments") {
        const auto bytes = build(validSpec());
        RoadmapView view;
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        std::vector<PathSegment> path;
        // Every edge has clearance 2: a 2.5 m radius has nowhere to go (and the line is blocked).
        CHECK(plan(view, {1, 5, 0}, {9, 5, 0}, 2.5, &path) == Status::NotFound);
        // Inside the pillar, and outside the room.
        CHECK(plan(view, {5, 5, 0}, {9, 5, 0}, 0.1, &path) == Status::NotFound);
        CHECK(plan(view, {-3, 5, 0}, {9, 5, 0}, 0.1, &path) == Status::NotFound);
        // Too close to the wall for the radius: no clear line to the roadmap.
        CHECK(plan(view, {0.2, 5, 0}, {9, 5, 0}, 0.5, &path) == Status::NotFound);

        size_t bytes_needed = 0;
        REQUIRE(pathScratchSize(view, &bytes_needed) == Status::Ok);
        std::vector<uint8_t> memory(bytes_needed);
        PathScratch* scratch = nullptr;
        CHECK(pathScratchInit(view, memory.data(), bytes_needed - 1, &scratch) == Status::BufferTooSmall);
        REQUIRE(pathScratchInit(view, memory.data(), bytes_needed, &scratch) == Status::Ok);
        PathSegment few[3];
        uint32_t count = 0;
        CHECK(findPath(view, scratch, {1, 5, 0}, {9, 5, 0}, 0.5, INFINITY, few, &count, 3) ==
              Status::BufferTooSmall);
        CHECK(count == 9);
        CHECK(findPath(view, scratch, {1, 5, 0}, {9, 5, 0}, -1, INFINITY, few, &count, 3) ==
              Status::InvalidArgument);
        CHECK(findPath(view, scratch, {NAN, 5, 0}, {9, 5, 0}, 0.5, INFINITY, few, &count, 3) ==
              Status::InvalidArgument);
        CHECK(findPath(view, scratch, {1, 5, 1}, {9, 5, 0}, 0.5, INFINITY, few, &count, 3) ==
              Status::InvalidArgument);
        CHECK(findPath(view, scratch, {1, 5, 0}, {9, 5, 0}, 0.5, INFINITY, few, nullptr, 3) ==
              Status::InvalidArgument);
        CHECK(findPath(view, nullptr, {1, 5, 0}, {9, 5, 0}, 0.5, INFINITY, few, &count, 3) ==
              Status::InvalidArgument);
        // A scratch belongs to the roadmap it was built for.
        const auto other = build(validSpec());
        RoadmapView other_view;
        REQUIRE(loadRoadmap(other.data(), other.size(), &other_view) == Status::Ok);
        CHECK(findPath(other_view, scratch, {1, 5, 0}, {9, 5, 0}, 0.5, INFINITY, few, &count, 3) ==
              Status::InvalidArgument);
    }
    // Allocation-free queries: test_allocation.cpp (this binary's counting operator new).

} // TEST_SUITE

namespace {

// Convex rooms whose medial axis is spurs from every corner (clearance 0 there) to the centre
// line: the roadmap a bake gives step_box, with no edge usable as a whole at any radius.
RoadmapSpec convexRoom(float w, float h) {
    RoadmapSpec s;
    s.boundary = {{0, 0}, {w, 0}, {w, h}, {0, h}};
    s.rings = {{0, 4}};
    const float c = 0.5f * h, x0 = c, x1 = w - c; // the centre line, clearance h / 2
    s.vertices = {{0, 0, 0, 0, 0}, {w, 0, 0, 0, 0}, {w, h, 0, 0, 0}, {0, h, 0, 0, 0}, {x0, c, 0, c, 0}};
    s.points = {{0, 0}, {x0, c}, {0, h}, {x0, c}, {w, 0}, {x1, c}, {w, h}, {x1, c}};
    s.edges = {edge(0, 4, 0, 2, 0), edge(3, 4, 2, 2, 0)};
    if (x1 > x0) {
        s.vertices.push_back({x1, c, 0, c, 0});
        s.points.push_back({x0, c});
        s.points.push_back({x1, c});
        s.edges.push_back(edge(1, 5, 4, 2, 0));
        s.edges.push_back(edge(2, 5, 6, 2, 0));
        s.edges.push_back(edge(4, 5, 8, 2, c));
    } else {
        s.edges.push_back(edge(1, 4, 4, 2, 0));
        s.edges.push_back(edge(2, 4, 6, 2, 0));
    }
    s.blends = {};
    s.grid_min_x = 0, s.grid_min_y = 0, s.grid_cell = w, s.cells_x = 1, s.cells_y = 1;
    s.cell_start = {0, uint32_t(s.edges.size())};
    for (uint32_t e = 0; e < s.edges.size(); ++e)
        s.cell_edges.push_back(e);
    return s;
}

// What a dense walk along a findPath result sees, brute force over every ring edge.
struct Walk {
    double length = 0, min_clearance = INFINITY, max_clearance = 0, mean_clearance = 0;
    double max_heading_jump = 0;                     // radians, between consecutive segments
    double max_x = -INFINITY, nearest_to = INFINITY; // to the point given
    bool joined = true;                              // every segment starts where the previous ended, exactly
};

Walk walk(const RoadmapSpec& spec, const std::vector<PathSegment>& path, Vec2d towards = {0, 0}) {
    Walk w;
    double weighted = 0;
    for (size_t i = 0; i < path.size(); ++i) {
        const PathSegment& s = path[i];
        if (i) {
            w.joined = w.joined && s.start.x == path[i - 1].end.x && s.start.y == path[i - 1].end.y;
            w.max_heading_jump =
                std::fmax(w.max_heading_jump,
                          std::fabs(std::remainder(heading(s, false) - heading(path[i - 1], true), 2 * kPi)));
        }
        const int n = 2 + int(s.length / 0.01);
        for (int k = 0; k <= n; ++k) {
            const double t = double(k) / n;
            double x = s.start.x + t * (s.end.x - s.start.x), y = s.start.y + t * (s.end.y - s.start.y);
            if (s.type == PathSegmentType::Arc) {
                const double a = std::atan2(s.start.y - s.center.y, s.start.x - s.center.x) + t * s.sweep;
                x = s.center.x + s.radius * std::cos(a), y = s.center.y + s.radius * std::sin(a);
            }
            const double d = wallDistance(spec, x, y);
            w.min_clearance = std::fmin(w.min_clearance, d), w.max_clearance = std::fmax(w.max_clearance, d);
            w.max_x = std::fmax(w.max_x, x);
            w.nearest_to = std::fmin(w.nearest_to, std::hypot(x - towards.x, y - towards.y));
            if (k > 0) weighted += d * s.length / n;
        }
        w.length += s.length;
    }
    w.mean_clearance = w.length > 0 ? weighted / w.length : 0;
    return w;
}

// What every findPath result must be: joined exactly, C1, and clear of the walls by the radius.
void checkJoinedSmoothClear(const Walk& w, double radius) {
    CHECK(w.joined);
    CHECK(w.max_heading_jump < 1e-9);
    CHECK(w.min_clearance >= radius);
}

// A spec built into an asset and loaded (the view points into `bytes`, so the fixture stays put).
struct LoadedSpec {
    RoadmapSpec spec;
    std::vector<uint8_t> bytes;
    RoadmapView view;
    explicit LoadedSpec(RoadmapSpec s) : spec(std::move(s)), bytes(build(spec)) {
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
    }
    LoadedSpec(const LoadedSpec&) = delete;
    LoadedSpec& operator=(const LoadedSpec&) = delete;
};

} // namespace

TEST_SUITE("runtime/medial path") {
    TEST_CASE("in a square room the medial path passes the centre with more clearance than the line") {
        // step_box: a convex 10 m room; every spur's clearance falls to 0 at its corner, so no edge
        // is usable as a whole. From (1.5, 3) to (8.5, 3): the line keeps 1.5 at its ends and has
        // a mean clearance of (2 * 1.5 * 2.25 + 4 * 3) / 7 = 2.679; the medial path retracts onto
        // the diagonals at (3, 3) and (7, 3) and turns at the centre (clearance 5).
        const LoadedSpec room(convexRoom(10, 10));
        const RoadmapSpec& spec = room.spec;
        const RoadmapView& view = room.view;
        std::vector<PathSegment> path;
        const double radius = 0.5;
        for (double preferred : {radius, 2 * radius, 1e9}) {
            CAPTURE(preferred);
            REQUIRE(plan(view, {1.5, 3, 0}, {8.5, 3, 0}, radius, &path, 64, preferred) == Status::Ok);
            REQUIRE(path.size() == 1);
            CHECK(path[0].length == doctest::Approx(7.0));
            CHECK(walk(spec, path).mean_clearance == doctest::Approx(2.679).epsilon(1e-3));
        }
        REQUIRE(plan(view, {1.5, 3, 0}, {8.5, 3, 0}, radius, &path) == Status::Ok);
        const Walk w = walk(spec, path, {5, 5});
        CHECK(path.front().start.x == 1.5);
        CHECK(path.front().start.y == 3.0);
        CHECK(path.back().end.x == 8.5);
        CHECK(path.back().end.y == 3.0);
        checkJoinedSmoothClear(w, radius);
        // The arc at the centre cuts the 90 degree turn by r (sqrt 2 - 1) with r = sqrt 2 (half the
        // 2.83 m pieces): 0.59 m from the centre, at clearance 4.41.
        CHECK(w.nearest_to < 0.6);
        CHECK(w.max_clearance > 4.4);
        CHECK(w.mean_clearance > 3.2);
        MESSAGE("medial path: ", w.length, " m, mean clearance ", w.mean_clearance, " (line 2.679)");

        // Both ends retract onto one spur: the path runs along the stretch between them, not to the
        // centre and back (a reversal no arc fits).
        REQUIRE(plan(view, {1.0, 1.5, 0}, {3.0, 2.5, 0}, radius, &path) == Status::Ok);
        const Walk spur = walk(spec, path);
        CHECK(path.size() > 1);
        checkJoinedSmoothClear(spur, radius);
        CHECK(spur.max_x < 3.2);         // (3, 3) is the goal's retraction; the centre is (5, 5)
        CHECK(spur.max_clearance > 2.6); // the line would keep at most 2.5 (the goal's)

        // The goal on the start's retraction: out to the centre and straight back has no arc, so
        // the line (that very retraction) is the path.
        REQUIRE(plan(view, {5, 1, 0}, {5, 2, 0}, radius, &path) == Status::Ok);
        REQUIRE(path.size() == 1);
        CHECK(path[0].length == 1.0);
    }

    TEST_CASE("a start whose only roadmap nearby is a spur into a corner snaps onto its clear part") {
        // A 20 x 10 m room: the centre line (5, 5)-(15, 5) keeps 5 m, the four corner spurs fall
        // to 0. From (1, 1.5) the retraction (away from the wall x = 0) meets the spur at
        // (1.5, 1.5); the spur is clear at the radius only towards the centre line, so the path
        // leaves that way.
        const LoadedSpec room(convexRoom(20, 10));
        const RoadmapSpec& spec = room.spec;
        const RoadmapView& view = room.view;
        std::vector<PathSegment> path;
        const double radius = 0.5;
        REQUIRE(plan(view, {1, 1.5, 0}, {19, 8.5, 0}, radius, &path) == Status::Ok);
        const Walk w = walk(spec, path, {5, 5});
        checkJoinedSmoothClear(w, radius);
        // Out along +x onto the spur, up the spur to the centre line, along it, down the far spur.
        REQUIRE(path.size() >= 5);
        CHECK(path[0].type == PathSegmentType::Line);
        CHECK(path[0].end.y == 1.5);
        CHECK(path[0].end.x > 1.0);
        CHECK(path[0].end.x < 1.5);
        CHECK(w.nearest_to < 0.6);
        CHECK(w.max_clearance > 4.9);
        CHECK(w.mean_clearance > 3.5);
        // The same start at finite preferred clearances: the straight line, clear and shorter.
        for (double preferred : {radius, 1e9}) {
            REQUIRE(plan(view, {1, 1.5, 0}, {19, 8.5, 0}, radius, &path, 64, preferred) == Status::Ok);
            CHECK(path.size() == 1);
        }
    }
}
