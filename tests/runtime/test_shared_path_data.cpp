// The path data split into one PathShared per roadmap and a scratch per thread: on the sample
// levels (tests/fuzz/seeds), findPath through a scratch on shared data answers bit for bit like a
// standalone scratch, threads sharing one PathShared answer as one thread does, and the sizes and
// the roadmap check hold. The peer meshes' case is in tests/bake/roadmap (it bakes them).
#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include "shared_path_data.h"
#include "test_files.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace clearway;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/roadmap/";

struct Level {
    std::vector<uint8_t> bytes;
    RoadmapView view;
    explicit Level(const std::string& name) : bytes(test::readFile(kSeeds + name + ".cwrm")) {
        REQUIRE(!bytes.empty());
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
    }
};

// Queries between random points near random roadmap vertices (within half their clearance), at
// two radii and three preferred clearances.
std::vector<test::PathQuery> queriesOn(const RoadmapView& view, int count, uint64_t seed) {
    RoadmapInfo info;
    REQUIRE(roadmapInfo(view, &info) == Status::Ok);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto endpoint = [&]() {
        RoadmapVertexInfo v;
        roadmapVertex(view, uint32_t(rng() % info.vertex_count), &v);
        const double r = 0.5 * v.clearance * unit(rng), angle = 6.283185307179586 * unit(rng);
        return PathEndpoint{v.position.x + r * std::cos(angle), v.position.y + r * std::sin(angle), v.layer};
    };
    std::vector<test::PathQuery> queries;
    for (int i = 0; i < count; ++i) {
        const double radius = i % 2 ? 0.2 : 0.4;
        const double preferred = i % 3 == 0 ? double(INFINITY) : (i % 3 == 1 ? radius : 2.0 * radius);
        queries.push_back({endpoint(), endpoint(), radius, preferred});
    }
    return queries;
}

const char* const kLevels[] = {"box_room", "two_storey", "bridge", "bridge-edits", "low_overhang", "step_box"};

} // namespace

TEST_SUITE("runtime/shared path data") {
    TEST_CASE("findPath through a scratch on shared data answers bit for bit like a standalone scratch") {
        for (const char* name : kLevels) {
            CAPTURE(std::string(name));
            const Level level(name);
            const std::vector<test::PathQuery> queries = queriesOn(level.view, 300, 11);
            test::OwnScratch standalone(level.view);
            const test::SharedPathData shared(level.view);
            test::OwnScratch on_shared(shared.shared);
            const std::vector<test::PathAnswer> expected = answersOf(level.view, standalone.scratch, queries);
            int found = 0;
            for (const test::PathAnswer& a : expected)
                found += a.status == Status::Ok;
            CHECK(found > 0); // from 9 of 300 (step_box's narrow steps) to most
            CHECK(test::differing(answersOf(level.view, on_shared.scratch, queries), expected) == 0);
            // A second scratch on the same shared data, after the first answered: the same again.
            test::OwnScratch second(shared.shared);
            CHECK(test::differing(answersOf(level.view, second.scratch, queries), expected) == 0);
        }
    }

    TEST_CASE("threads sharing one PathShared, each with its own scratch, answer as one thread does") {
        for (const char* name : {"two_storey", "bridge"}) {
            CAPTURE(std::string(name));
            const Level level(name);
            const std::vector<test::PathQuery> queries = queriesOn(level.view, 200, 23);
            const test::SharedPathData shared(level.view);
            test::OwnScratch single(shared.shared);
            const std::vector<test::PathAnswer> expected = answersOf(level.view, single.scratch, queries);
            const auto threaded = test::threadedAnswers(level.view, shared.shared, queries, 4);
            for (const auto& answers : threaded)
                CHECK(test::differing(answers, expected) == 0);
        }
    }

    TEST_CASE("shared and per-thread sizes: less memory is BufferTooSmall, any alignment works") {
        const Level level("two_storey");
        size_t shared_bytes = 0, scratch_bytes = 0, one_block = 0;
        REQUIRE(pathSharedSize(level.view, &shared_bytes) == Status::Ok);
        REQUIRE(pathScratchSize(level.view, &one_block) == Status::Ok);
        std::vector<uint8_t> memory(shared_bytes + 1);
        PathShared* shared = nullptr;
        CHECK(pathSharedInit(level.view, memory.data(), shared_bytes - 1, &shared) == Status::BufferTooSmall);
        CHECK(shared == nullptr);
        REQUIRE(pathSharedInit(level.view, memory.data() + 1, shared_bytes, &shared) == Status::Ok);
        REQUIRE(pathScratchSizeShared(shared, &scratch_bytes) == Status::Ok);
        // The one block holds both parts, with one alignment slack instead of two.
        CHECK(one_block + 8 == shared_bytes + scratch_bytes);
        std::vector<uint8_t> scratch_memory(scratch_bytes + 3);
        PathScratch* scratch = nullptr;
        CHECK(pathScratchInitShared(shared, scratch_memory.data(), scratch_bytes - 1, &scratch) ==
              Status::BufferTooSmall);
        CHECK(scratch == nullptr);
        REQUIRE(pathScratchInitShared(shared, scratch_memory.data() + 3, scratch_bytes, &scratch) == Status::Ok);
        std::vector<uint8_t> small(one_block);
        PathScratch* combined = nullptr;
        CHECK(pathScratchInit(level.view, small.data(), one_block - 1, &combined) == Status::BufferTooSmall);
        // Null arguments.
        CHECK(pathSharedSize(RoadmapView{}, &shared_bytes) == Status::InvalidArgument);
        CHECK(pathSharedSize(level.view, nullptr) == Status::InvalidArgument);
        CHECK(pathSharedInit(level.view, nullptr, shared_bytes, &shared) == Status::InvalidArgument);
        CHECK(pathScratchSizeShared(nullptr, &scratch_bytes) == Status::InvalidArgument);
        CHECK(pathScratchInitShared(nullptr, scratch_memory.data(), scratch_bytes, &scratch) ==
              Status::InvalidArgument);
        CHECK(pathScratchInitShared(shared, scratch_memory.data(), scratch_bytes, nullptr) == Status::InvalidArgument);
    }

    TEST_CASE("a scratch on another roadmap's shared data is InvalidArgument for this roadmap's queries") {
        const Level room("box_room"), storey("two_storey");
        const test::SharedPathData shared(room.view);
        test::OwnScratch scratch(shared.shared);
        const PathEndpoint a{0.0, 0.0, 0}, b{1.0, 0.0, 0};
        PathSegment out[64];
        uint32_t count = 0;
        CHECK(findPath(storey.view, scratch.scratch, a, b, 0.2, INFINITY, out, &count, 64) == Status::InvalidArgument);
        double distance = 0;
        Vec2d nearest{};
        CHECK(wallDistance(storey.view, scratch.scratch, 0, 0.0, 0.0, &distance, &nearest) == Status::InvalidArgument);
        RaycastHit hit{};
        CHECK(raycast(storey.view, scratch.scratch, 0, {0.0, 0.0}, {1.0, 0.0}, 0.2, &hit) == Status::InvalidArgument);
        PathEndpoint located{};
        CHECK(locatePoint(storey.view, scratch.scratch, {0.0, 0.0, 0.0}, 0.5, &located) == Status::InvalidArgument);
        // On its own roadmap the same scratch answers.
        CHECK(wallDistance(room.view, scratch.scratch, 0, 0.0, 0.0, &distance, &nearest) == Status::Ok);
    }

    TEST_CASE("a scratch sized for short routes answers them bit for bit and refuses longer ones with "
              "ScratchTooSmall") {
        for (const char* name : {"two_storey", "bridge", "box_room"}) {
            CAPTURE(std::string(name));
            const Level level(name);
            const std::vector<test::PathQuery> queries = queriesOn(level.view, 300, 31);
            const test::SharedPathData shared(level.view);
            test::OwnScratch whole(shared.shared);
            // The route points each query needs, from the phase record.
            std::vector<uint32_t> needed;
            std::vector<PathSegment> out(4096);
            pathPhaseTiming(true);
            for (const test::PathQuery& q : queries) {
                pathPhaseTimesTake();
                uint32_t count = 0;
                findPath(level.view, whole.scratch, q.from, q.to, q.radius, q.preferred, out.data(), &count, 4096);
                needed.push_back(pathPhaseTimesTake().max_route_points);
            }
            pathPhaseTiming(false);
            const std::vector<test::PathAnswer> expected = answersOf(level.view, whole.scratch, queries);
            uint32_t longest = 0;
            for (uint32_t n : needed)
                longest = n > longest ? n : longest;
            REQUIRE(longest > 2);
            const uint32_t cap = longest / 2;
            size_t bytes = 0, whole_bytes = 0;
            REQUIRE(pathScratchSizeForRoutes(shared.shared, cap, &bytes) == Status::Ok);
            REQUIRE(pathScratchSizeShared(shared.shared, &whole_bytes) == Status::Ok);
            CHECK(bytes < whole_bytes);
            std::vector<uint8_t> memory(bytes);
            PathScratch* small = nullptr;
            CHECK(pathScratchInitForRoutes(shared.shared, cap, memory.data(), bytes - 1, &small) ==
                  Status::BufferTooSmall);
            REQUIRE(pathScratchInitForRoutes(shared.shared, cap, memory.data(), bytes, &small) == Status::Ok);
            const std::vector<test::PathAnswer> answers = answersOf(level.view, small, queries);
            int same = 0, refused = 0;
            for (size_t i = 0; i < queries.size(); ++i) {
                if (needed[i] <= cap) {
                    CHECK(test::sameBits(answers[i], expected[i]));
                    ++same;
                } else if (answers[i].status == Status::ScratchTooSmall) {
                    ++refused;
                } else {
                    // A funnel path that needed many portals may still fit as corners, or the
                    // other way round: then the answer is the whole scratch's.
                    CHECK(test::sameBits(answers[i], expected[i]));
                }
            }
            CHECK(same > 0);
            CHECK(refused > 0);
            MESSAGE(std::string(name) << ": " << same << " queries within " << cap << " route points answered alike, " << refused
                         << " longer ones refused");
        }
    }
}
