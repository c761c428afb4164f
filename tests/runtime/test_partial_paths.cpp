// findPathPartial on the baked low_overhang sample (tests/fuzz/seeds): slab A's top, a raised
// crate whose top is walkable but joined to nothing, and slab B, a deck on a layer of its own.
// Answers from the walls by hand: the floor's roadmap runs along the middle of the 1 m strips
// round slab A (local x, y = -4.5 and the like; the asset's origin is (5, 5, 1)).
#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include "loaded_roadmap.h"
#include "test_files.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace clearway;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/roadmap/";

struct Level : test::LoadedRoadmap {
    Level() : LoadedRoadmap(test::readFile(kSeeds + "low_overhang.cwrm")) {}
    Status plan(bool partial, PathEndpoint from, PathEndpoint to, double radius, double preferred,
                std::vector<PathSegment>* out) const {
        out->assign(256, PathSegment{});
        uint32_t count = 0;
        const Status s = (partial ? findPathPartial : findPath)(view, scratch, from, to, radius, preferred,
                                                                out->data(), &count, 256);
        out->resize(count < 256 ? count : 256);
        return s;
    }
};

// Floor near the level's south-east corner (the floor is local -5..5; slab A covers -4..0).
const PathEndpoint kStart{4, -4, 0};
// The roadmap line along the middle of the strip south of slab A: y = -4.5, minus the bake's
// 2^-12 m offset of slab A's hole (the float the asset stores).
const double kStripY = double(-4.500244140625f);

} // namespace

TEST_SUITE("runtime/partial paths") {

    TEST_CASE("a goal on the unreachable crate top gives Partial, ending at the reachable point nearest it") {
        const Level level;
        const PathEndpoint crate{-1.5, -2.5, 0}; // on slab A's top, 2 m north of the strip's line
        std::vector<PathSegment> path;
        for (const double preferred : {0.3, 1.0, double(INFINITY)}) {
            CAPTURE(preferred);
            // At radius 0.3 no crate edge is usable (the crate's axis has clearance 0 at its ends);
            // at radius 0 it is, but in another part of the graph.
            for (const double radius : {0.3, 0.0}) {
                CAPTURE(radius);
                CHECK(level.plan(false, kStart, crate, radius, preferred, &path) == Status::NotFound);
                REQUIRE(level.plan(true, kStart, crate, radius, preferred, &path) == Status::Partial);
                REQUIRE(!path.empty());
                CHECK(std::fabs(path.back().end.x - crate.x) < 1e-9);
                CHECK(std::fabs(path.back().end.y - kStripY) < 1e-9);
                CHECK(path.front().start.x == kStart.x);
                CHECK(path.front().start.y == kStart.y);
                // The path to that point, exactly as findPath gives it.
                std::vector<PathSegment> direct;
                REQUIRE(level.plan(false, kStart, {path.back().end.x, path.back().end.y, 0}, radius,
                                   preferred, &direct) == Status::Ok);
                REQUIRE(direct.size() == path.size());
                CHECK(std::memcmp(direct.data(), path.data(), path.size() * sizeof(PathSegment)) == 0);
            }
        }
    }

    TEST_CASE("a goal on a deck of another layer: its layer has no usable edge, so the nearest floor point") {
        const Level level;
        const PathEndpoint deck{2.5, 2.5, 1}; // slab B's top, local 1..4, no connection
        std::vector<PathSegment> path;
        CHECK(level.plan(false, kStart, deck, 0.3, 0.3, &path) == Status::NotFound);
        REQUIRE(level.plan(true, kStart, deck, 0.3, 0.3, &path) == Status::Partial);
        RoadmapPoint nearest;
        REQUIRE(nearestRoadmapPoint(level.view, 0, deck.x, deck.y, 0.3, &nearest) == Status::Ok);
        CHECK(path.back().layer == 0);
        CHECK(std::fabs(path.back().end.x - nearest.position.x) < 1e-9);
        CHECK(std::fabs(path.back().end.y - nearest.position.y) < 1e-9);
    }

    TEST_CASE("a reachable goal gives Ok with the very segments findPath gives") {
        const Level level;
        std::vector<PathSegment> plain, partial;
        int routes = 0;
        for (double y = -4.5; y <= 4.5; y += 1.5) {
            for (double x = -4.5; x <= 4.5; x += 1.5) {
                for (const double preferred : {0.3, 0.8, double(INFINITY)}) {
                    const Status s = level.plan(false, kStart, {x, y, 0}, 0.3, preferred, &plain);
                    const Status p = level.plan(true, kStart, {x, y, 0}, 0.3, preferred, &partial);
                    if (s != Status::Ok) {
                        CHECK(s == Status::NotFound);
                        CHECK((p == Status::Partial || p == Status::NotFound));
                        continue;
                    }
                    ++routes;
                    REQUIRE(p == Status::Ok);
                    REQUIRE(plain.size() == partial.size());
                    CHECK(std::memcmp(plain.data(), partial.data(), plain.size() * sizeof(PathSegment)) == 0);
                }
            }
        }
        CHECK(routes > 60);
    }

    TEST_CASE("findPathPartial: bad input and unusable starts") {
        const Level level;
        std::vector<PathSegment> path(8);
        uint32_t count = 0;
        const PathEndpoint goal{-1.5, -2.5, 0};
        CHECK(findPathPartial(level.view, level.scratch, {NAN, 0, 0}, goal, 0.3, 0.3, path.data(), &count,
                              8) == Status::InvalidArgument);
        CHECK(findPathPartial(level.view, level.scratch, kStart, {0, INFINITY, 0}, 0.3, 0.3, path.data(),
                              &count, 8) == Status::InvalidArgument);
        CHECK(findPathPartial(level.view, level.scratch, kStart, {0, 0, 7}, 0.3, 0.3, path.data(), &count,
                              8) == Status::InvalidArgument);
        CHECK(findPathPartial(level.view, nullptr, kStart, goal, 0.3, 0.3, path.data(), &count, 8) ==
              Status::InvalidArgument);
        CHECK(findPathPartial(level.view, level.scratch, kStart, goal, 0.3, 0.3, path.data(), nullptr, 8) ==
              Status::InvalidArgument);
        CHECK(findPathPartial(level.view, level.scratch, kStart, goal, -0.3, 0.3, path.data(), &count, 8) ==
              Status::InvalidArgument);
        // A start off the level: nothing to walk.
        CHECK(findPathPartial(level.view, level.scratch, {7, 0, 0}, goal, 0.3, 0.3, path.data(), &count, 8) ==
              Status::NotFound);
        // A start on the crate reaches only the crate's own axis: Partial, staying on the crate.
        REQUIRE(findPathPartial(level.view, level.scratch, goal, kStart, 0.3, 0.3, path.data(), &count, 8) ==
                Status::Partial);
        REQUIRE(count >= 1);
        CHECK(path[count - 1].end.x > -4);
        CHECK(path[count - 1].end.x < 0);
        CHECK(path[count - 1].end.y > -4);
        CHECK(path[count - 1].end.y < 0);
        // Too small a buffer: findPath's BufferTooSmall, with the count needed.
        CHECK(findPathPartial(level.view, level.scratch, kStart, goal, 0.3, INFINITY, path.data(), &count,
                              0) == Status::BufferTooSmall);
        CHECK(count > 0);
    }

} // TEST_SUITE
