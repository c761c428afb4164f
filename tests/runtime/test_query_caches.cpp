// What findPath and locatePoint remember in the path scratch between and within queries (wall
// and edge stamps, the shortening's segment memo, the tangent rounds' caches, the shorter walk of
// the inside test) and what pathScratchInit precomputes for A* (landmark distances) saves work and
// never changes an answer: on the sample levels, every answer equals that of a fresh scratch,
// whatever the scratch answered before, A* answers the same without its landmarks, and the grid's
// inside test equals the plain one.
#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include "shared_path_data.h"
#include "test_files.h"

// The scratch layout (landmark table, adjacency), to check what the search precomputes.
#include "../../lib/runtime/src/path_internal.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace clearway;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/roadmap/";

using Scratch = test::OwnScratch; // standalone: pathScratchInit's one block

struct Query {
    PathEndpoint from, to;
    double radius, preferred;
};

struct Answer {
    Status status;
    std::vector<PathSegment> segments;
};

Answer answer(const RoadmapView& view, PathScratch* scratch, const Query& q) {
    Answer a;
    a.segments.resize(512);
    uint32_t count = 0;
    a.status = findPath(view, scratch, q.from, q.to, q.radius, q.preferred, a.segments.data(), &count,
                        uint32_t(a.segments.size()));
    a.segments.resize(a.status == Status::Ok ? count : 0);
    return a;
}

// Every field, exactly (== on doubles: bit for bit but for signed zeros).
bool same(const Answer& a, const Answer& b) {
    if (a.status != b.status || a.segments.size() != b.segments.size()) return false;
    for (size_t i = 0; i < a.segments.size(); ++i) {
        const PathSegment &s = a.segments[i], &t = b.segments[i];
        if (s.type != t.type || s.portal != t.portal || s.layer != t.layer || s.start.x != t.start.x ||
            s.start.y != t.start.y || s.end.x != t.end.x || s.end.y != t.end.y || s.center.x != t.center.x ||
            s.center.y != t.center.y || s.radius != t.radius || s.sweep != t.sweep || s.length != t.length)
            return false;
    }
    return true;
}

double length(const Answer& a) {
    double sum = 0;
    for (const PathSegment& s : a.segments)
        sum += s.length;
    return sum;
}

// A committed sample roadmap (tests/fuzz/seeds), loaded; `bytes` must outlive the view.
RoadmapView loadSeed(const std::string& level, std::vector<uint8_t>* bytes) {
    *bytes = test::readFile(kSeeds + level + ".cwrm");
    REQUIRE(!bytes->empty());
    RoadmapView view;
    REQUIRE(loadRoadmap(bytes->data(), bytes->size(), &view) == Status::Ok);
    return view;
}

// A random point inside the free disc of a random roadmap vertex (within half its clearance).
PathEndpoint endpointNearVertex(const RoadmapView& view, uint32_t vertex_count, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    RoadmapVertexInfo v;
    roadmapVertex(view, uint32_t(rng() % vertex_count), &v);
    const double r = 0.5 * v.clearance * unit(rng), angle = 6.283185307179586 * unit(rng);
    return PathEndpoint{v.position.x + r * std::cos(angle), v.position.y + r * std::sin(angle), v.layer};
}

} // namespace

TEST_SUITE("runtime/query caches") {
    TEST_CASE("a findPath answer does not depend on what the scratch answered before") {
        for (const char* name : {"box_room", "two_storey", "bridge", "bridge-edits", "low_overhang"}) {
            const std::string level = name;
            CAPTURE(level);
            std::vector<uint8_t> bytes;
            const RoadmapView view = loadSeed(level, &bytes);
            RoadmapInfo info;
            REQUIRE(roadmapInfo(view, &info) == Status::Ok);
            REQUIRE(info.vertex_count > 1);
            // Endpoints near roadmap vertices (inside the free disc the vertex clearance gives),
            // in the three modes, at three radii.
            std::mt19937_64 rng(20261122);
            auto endpoint = [&]() { return endpointNearVertex(view, info.vertex_count, rng); };
            std::vector<Query> queries;
            for (int i = 0; i < 120; ++i) {
                const double radius = i % 3 == 0 ? 0.2 : (i % 3 == 1 ? 0.3 : 0.45);
                const double preferred = i % 4 == 0 ? double(INFINITY) : (i % 4 == 1 ? radius : 2.0 * radius);
                queries.push_back({endpoint(), endpoint(), radius, preferred});
            }
            // Each query on its own fresh scratch: the reference.
            std::vector<Answer> fresh;
            int paths = 0;
            for (const Query& q : queries) {
                Scratch s(view);
                fresh.push_back(answer(view, s.scratch, q));
                paths += fresh.back().status == Status::Ok && fresh.back().segments.size() > 1;
            }
            CHECK(paths >= 8); // real routes, not only straight lines and NotFound
            // One scratch for all, forwards then backwards, then each query twice in a row.
            Scratch shared(view);
            int differ = 0;
            for (size_t i = 0; i < queries.size(); ++i)
                differ += !same(answer(view, shared.scratch, queries[i]), fresh[i]);
            for (size_t i = queries.size(); i-- > 0;)
                differ += !same(answer(view, shared.scratch, queries[i]), fresh[i]);
            for (size_t i = 0; i < queries.size(); ++i) {
                differ += !same(answer(view, shared.scratch, queries[i]), fresh[i]);
                differ += !same(answer(view, shared.scratch, queries[i]), fresh[i]);
            }
            CHECK(differ == 0);
        }
    }

    TEST_CASE("A* landmarks and the component check are consistent and change no answer") {
        int not_found = 0; // queries between components (or too narrow at the radius)

        for (const char* name : {"box_room", "two_storey", "bridge", "bridge-edits", "low_overhang"}) {
            const std::string level = name;
            CAPTURE(level);
            std::vector<uint8_t> bytes;
            const RoadmapView view = loadSeed(level, &bytes);
            RoadmapInfo info;
            REQUIRE(roadmapInfo(view, &info) == Status::Ok);
            Scratch with(view), without(view);
            const PathScratch& s = *with.scratch;
            REQUIRE(s.landmark_count >= 1);
            // Each landmark is 0 from itself, and across every edge its distances differ by at
            // most the edge's A* cost: the bound |d(goal) - d(v)| is then consistent.
            uint32_t at_zero = 0, edges_checked = 0;
            for (uint32_t v = 0; v < s.vertex_count; ++v)
                for (uint32_t l = 0; l < s.landmark_count; ++l)
                    at_zero += s.landmark_dist[size_t(v) * detail::kLandmarks + l] == 0.0;
            CHECK(at_zero >= s.landmark_count);
            // Every component has its own landmarks: every vertex has a distance in every slot.
            uint32_t unknown = 0;
            for (uint32_t i = 0; i < s.vertex_count * detail::kLandmarks; ++i)
                unknown += std::isinf(s.landmark_dist[i]);
            CHECK(unknown == 0);
            for (uint32_t v = 0; v < s.vertex_count; ++v)
                for (uint32_t k = s.adj_start[v]; k < s.adj_start[v + 1]; ++k) {
                    const detail::AdjEntry& e = s.adj[k];
                    for (uint32_t l = 0; l < s.landmark_count; ++l) {
                        const double dv = s.landmark_dist[size_t(v) * detail::kLandmarks + l];
                        const double dw = s.landmark_dist[size_t(e.other) * detail::kLandmarks + l];
                        CHECK(std::isinf(dv) == std::isinf(dw)); // one component
                        if (!std::isinf(dv)) CHECK(std::fabs(dv - dw) <= e.cost * (1.0 + 1e-12));
                    }
                    ++edges_checked;
                }
            CHECK(edges_checked > 0);
            // Components: every edge joins two vertices of one component.
            for (uint32_t v = 0; v < s.vertex_count; ++v)
                for (uint32_t k = s.adj_start[v]; k < s.adj_start[v + 1]; ++k)
                    CHECK(s.vertex_component[v] == s.vertex_component[s.adj[k].other]);
            // Without them (every distance unknown, one component) A* is the plain straight-line
            // search, which a query between components exhausts: the same answers, bit for bit.
            for (uint32_t i = 0; i < without.scratch->vertex_count * detail::kLandmarks; ++i)
                without.scratch->shared->landmark_dist[i] = INFINITY; // its own block's shared part
            for (uint32_t v = 0; v < without.scratch->vertex_count; ++v)
                without.scratch->shared->vertex_component[v] = 0;
            std::mt19937_64 rng(404);
            auto endpoint = [&]() { return endpointNearVertex(view, info.vertex_count, rng); };
            int differ = 0, ties = 0, routes = 0;
            for (int i = 0; i < 150; ++i) {
                const double radius = i % 2 ? 0.2 : 0.4;
                const double preferred = i % 3 == 0 ? double(INFINITY) : (i % 3 == 1 ? radius : 2.0 * radius);
                const Query q{endpoint(), endpoint(), radius, preferred};
                const Answer a = answer(view, with.scratch, q);
                const Answer b = answer(view, without.scratch, q);
                // Two routes of exactly the same A* cost (the two sides of the mirror-symmetric
                // bridge) are found in the order the heuristic sets: either is the answer. Seen only
                // for medial paths, which always search the roadmap (no straight line stands in for
                // them); the two come out within millimetres of each other.
                const bool tie = preferred == INFINITY && a.status == Status::Ok && b.status == Status::Ok &&
                                 std::fabs(length(a) - length(b)) < 1e-3 * length(a);
                ties += !same(a, b) && tie;
                differ += !same(a, b) && !tie;
                routes += a.status == Status::Ok && a.segments.size() > 1;
                not_found += a.status == Status::NotFound;
            }
            CHECK(differ == 0);
            CHECK(ties <= 1); // 1 on bridge-edits, 0 elsewhere
            CHECK(routes >= 10);
        }
        CHECK(not_found >= 50); // 466 of 750: most ends on islands the other cannot reach
    }

    TEST_CASE("locatePoint through the wall grid agrees with the plain even-odd test, on walls too") {
        for (const char* name : {"box_room", "two_storey", "bridge", "low_overhang", "step_box"}) {
            const std::string level = name;
            CAPTURE(level);
            std::vector<uint8_t> bytes;
            const RoadmapView view = loadSeed(level, &bytes);
            FootprintView fp;
            REQUIRE(roadmapFootprint(view, &fp) == Status::Ok);
            FootprintInfo info;
            REQUIRE(footprintInfo(fp, &info) == Status::Ok);
            Scratch s(view);
            // Ring vertices, points on every wall (ends, midpoints, quarters: on axis-aligned walls
            // exactly on them) and random points over the layers' bounds, at each layer's height
            // range so every floor gets asked.
            std::vector<Vec3d> points;
            std::mt19937_64 rng(7);
            std::uniform_real_distribution<double> unit(0.0, 1.0);
            for (uint32_t l = 0; l < info.layer_count; ++l) {
                FootprintLayerInfo layer;
                REQUIRE(footprintLayer(fp, l, &layer) == Status::Ok);
                double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
                for (uint32_t r = 0; r < layer.ring_count; ++r) {
                    const Vec2f* v = nullptr;
                    uint32_t n = 0;
                    REQUIRE(footprintRing(fp, l, r, &v, &n) == Status::Ok);
                    for (uint32_t i = 0; i < n; ++i) {
                        const Vec2f a = v[i], b = v[(i + 1) % n];
                        for (const double t : {0.0, 0.25, 0.5, 0.75})
                            points.push_back({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, 0.0});
                        x0 = std::fmin(x0, a.x), y0 = std::fmin(y0, a.y);
                        x1 = std::fmax(x1, a.x), y1 = std::fmax(y1, a.y);
                    }
                }
                for (int i = 0; i < 400; ++i)
                    points.push_back({x0 + (x1 - x0) * unit(rng), y0 + (y1 - y0) * unit(rng), 0.0});
            }
            int inside = 0, compared = 0;
            for (const Vec3d& p : points)
                for (const double z : {-50.0, 0.0, 2.5, 5.0, 50.0}) {
                    PathEndpoint with{}, without{};
                    const Status a = locatePoint(view, s.scratch, {p.x, p.y, z}, 0.5, &with);
                    const Status b = locatePoint(view, nullptr, {p.x, p.y, z}, 0.5, &without);
                    CHECK(a == b);
                    if (a == Status::Ok && b == Status::Ok) CHECK(with.layer == without.layer);
                    inside += a == Status::Ok;
                    ++compared;
                }
            CHECK(inside > 0);
            CHECK(inside < compared);
        }
    }
}
