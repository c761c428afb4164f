// findPathAvoiding on every baked sample level (tests/fuzz/seeds/roadmap): discs and turned boxes dropped
// on findPath's paths; every path it returns keeps the radius from the walls and from every
// obstacle (dense samples), and the obstacles' removal gives findPath's path back bit for bit.
#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include "loaded_roadmap.h"
#include "test_files.h"

// The exact distances from obstacles to path pieces, checked against dense samples.
#include "../../lib/runtime/src/obstacles.h"

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace clearway;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/";

struct Dropped {
    bool box;
    uint32_t layer;
    Vec2d centre;
    double size, angle; // disc radius or box half extents (size, size / 2)
};

double distanceTo(const Dropped& o, Vec3d p) {
    const double dx = p.x - o.centre.x, dy = p.y - o.centre.y;
    if (!o.box) return std::hypot(dx, dy) - o.size;
    const double c = std::cos(o.angle), s = std::sin(o.angle);
    const double u = std::fabs(dx * c + dy * s) - o.size, v = std::fabs(-dx * s + dy * c) - 0.5 * o.size;
    return std::hypot(std::fmax(u, 0.0), std::fmax(v, 0.0));
}

} // namespace

TEST_SUITE("runtime/obstacles") {

    TEST_CASE("findPathAvoiding keeps the radius from walls and obstacles on the sample levels") {
        int checked = 0, changed = 0;
        for (test::NamedFile& file : test::readFilesIn(kSeeds + "roadmap")) { // every baked sample level
            CAPTURE(file.name);
            const test::LoadedRoadmap level(std::move(file.bytes));
            RoadmapInfo info;
            REQUIRE(roadmapInfo(level.view, &info) == Status::Ok);
            std::vector<uint8_t> memory(obstacleSetBytes(4));
            ObstacleSet* set = nullptr;
            REQUIRE(obstacleSetInit(memory.data(), memory.size(), 4, &set) == Status::Ok);
            std::vector<PathSegment> plain(512), path(512);
            std::vector<PathPose> poses(4096);
            for (uint32_t i = 0; i < 60; ++i) {
                RoadmapVertexInfo a, b;
                roadmapVertex(level.view, (i * 13) % info.vertex_count, &a);
                roadmapVertex(level.view, (i * 7 + 3) % info.vertex_count, &b);
                const PathEndpoint from{a.position.x, a.position.y, a.layer},
                    to{b.position.x, b.position.y, b.layer};
                const double radius = 0.15 + 0.05 * (i % 4), preferred = i % 3 == 2 ? 2 * radius : radius;
                uint32_t plain_count = 0;
                if (findPath(level.view, level.scratch, from, to, radius, preferred, plain.data(),
                             &plain_count, 512) != Status::Ok ||
                    plain_count == 0)
                    continue;
                // One or two obstacles on the path's pieces.
                std::vector<Dropped> dropped;
                std::vector<uint32_t> ids;
                for (uint32_t k = 0; k < 1 + i % 2; ++k) {
                    const PathSegment& seg = plain[(plain_count * (k + 1)) / (i % 2 + 2)];
                    Dropped o{(i + k) % 2 == 1,
                              seg.layer,
                              {0.5 * (seg.start.x + seg.end.x), 0.5 * (seg.start.y + seg.end.y)},
                              0.1 + 0.1 * (i % 3),
                              0.7 * i};
                    uint32_t id = 0;
                    REQUIRE(
                        (o.box ? obstacleAddBox(set, o.layer, o.centre, {o.size, 0.5 * o.size}, o.angle, &id)
                               : obstacleAddDisc(set, o.layer, o.centre, o.size, &id)) == Status::Ok);
                    dropped.push_back(o);
                    ids.push_back(id);
                }
                uint32_t count = 0;
                const Status st = findPathAvoiding(level.view, level.scratch, from, to, radius, preferred,
                                                   nullptr, set, path.data(), &count, 512);
                CHECK((st == Status::Ok || st == Status::NotFound));
                if (st == Status::Ok) {
                    ++checked;
                    changed += count != plain_count ||
                               std::memcmp(path.data(), plain.data(), count * sizeof(PathSegment)) != 0;
                    for (uint32_t k = 0; k + 1 < count; ++k) {
                        CHECK(path[k].end.x == path[k + 1].start.x);
                        CHECK(path[k].end.y == path[k + 1].start.y);
                    }
                    uint32_t n = 0;
                    const double total = pathTotalLength(path.data(), count);
                    REQUIRE(pathSample(level.view, path.data(), count, total / 2000 + 1e-6, poses.data(), &n,
                                       4096) == Status::Ok);
                    for (uint32_t k = 0; k < n; ++k) {
                        const PathSegment& seg = path[poses[k].segment];
                        // Off the floor: a portal between layers, an off-mesh link (a jump, a ladder).
                        if (seg.portal || seg.type == PathSegmentType::Link) continue;
                        double wall = 0;
                        REQUIRE(wallDistance(level.view, level.scratch, seg.layer, poses[k].position.x,
                                             poses[k].position.y, &wall, nullptr) == Status::Ok);
                        CHECK(wall >= radius - 1e-6);
                        for (const Dropped& o : dropped)
                            if (o.layer == seg.layer)
                                CHECK(distanceTo(o, poses[k].position) >= radius - 1e-6);
                    }
                }
                for (const uint32_t id : ids)
                    REQUIRE(obstacleRemove(set, id) == Status::Ok);
                REQUIRE(findPathAvoiding(level.view, level.scratch, from, to, radius, preferred, nullptr, set,
                                         path.data(), &count, 512) == Status::Ok);
                CHECK(count == plain_count);
                CHECK(std::memcmp(path.data(), plain.data(), plain_count * sizeof(PathSegment)) == 0);
            }
        }
        MESSAGE(checked, " paths round obstacles checked, ", changed, " of them bent by the obstacles");
        CHECK(changed > 20);
    }

    TEST_CASE("the exact distances from discs and boxes to lines and arcs match dense samples") {
        std::vector<uint8_t> memory(obstacleSetBytes(2));
        ObstacleSet* set = nullptr;
        REQUIRE(obstacleSetInit(memory.data(), memory.size(), 2, &set) == Status::Ok);
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> at(-3, 3), size(0, 1.5), angle(-4, 4);
        int crossing = 0;
        for (int trial = 0; trial < 400; ++trial) {
            uint32_t id = 0;
            REQUIRE((trial % 2
                         ? obstacleAddBox(set, 0, {at(rng), at(rng)}, {size(rng), size(rng)}, angle(rng), &id)
                         : obstacleAddDisc(set, 0, {at(rng), at(rng)}, size(rng), &id)) == Status::Ok);
            uint32_t capacity = 0;
            const detail::Obstacle* slots = detail::obstacleSlots(set, &capacity);
            const detail::Obstacle& o = slots[id & 0xffffu];
            // An arc round a random centre, and a segment.
            const detail::P c{at(rng), at(rng)}, start{at(rng), at(rng)}, a{at(rng), at(rng)},
                b{at(rng), at(rng)};
            const double r = detail::norm(start - c), sweep = angle(rng);
            const double arc = detail::obstacleArcDistance(o, c, r, start, sweep);
            const double line = detail::obstacleSegmentDistance(o, a, b);
            constexpr int kSamples = 20000;
            double arc_least = INFINITY, line_least = INFINITY;
            for (int k = 0; k <= kSamples; ++k) {
                const double t = double(k) / kSamples;
                arc_least = std::fmin(
                    arc_least, detail::obstaclePointDistance(o, c + detail::rotate(start - c, t * sweep)));
                line_least = std::fmin(line_least, detail::obstaclePointDistance(o, a + (b - a) * t));
            }
            // A disc's distances go negative inside it; the samples' the same way.
            CHECK(arc <= arc_least + 1e-12);
            CHECK(arc >= arc_least - r * std::fabs(sweep) / kSamples - 1e-12);
            CHECK(line <= line_least + 1e-12);
            CHECK(line >= line_least - detail::norm(b - a) / kSamples - 1e-12);
            crossing += arc == 0.0;
            REQUIRE(obstacleRemove(set, id) == Status::Ok);
        }
        CHECK(crossing > 10);
    }
}
