// Motion queries never allocate (callers own every buffer): curves, the follower, Directional A*,
// trim search with its behaviours, measured with a counting global operator new on the baked sample
// level box_room and the baked boat and glider tables in tests/fuzz/seeds.
#define CLEARWAY_DEFINE_COUNTING_NEW
#include "allocation_counter.h"

#include <clearway/motion.h>

#include <doctest/doctest.h>

#include "test_files.h"

#include <cmath>
#include <string>
#include <vector>

using namespace clearway;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/";

// Statuses seen inside a measured region, checked after it (assertions may allocate).
struct Tally {
    int calls = 0, ok = 0;
    void add(Status s) {
        ++calls;
        ok += s == Status::Ok;
    }
};

// The baked box_room level: its footprint, and its two roadmap vertices farthest apart among
// those with room for a vehicle (start and goal that are surely inside the walkable area).
struct Level {
    std::vector<uint8_t> footprint = test::readFile(kSeeds + "footprint/box_room.cwfp");
    std::vector<uint8_t> roadmap = test::readFile(kSeeds + "roadmap/box_room.cwrm");
    FootprintView view;
    RoadmapVertexInfo start{}, goal{};
    Level() {
        REQUIRE(loadFootprint(footprint.data(), footprint.size(), &view) == Status::Ok);
        RoadmapView rm;
        REQUIRE(loadRoadmap(roadmap.data(), roadmap.size(), &rm) == Status::Ok);
        RoadmapInfo info;
        REQUIRE(roadmapInfo(rm, &info) == Status::Ok);
        std::vector<RoadmapVertexInfo> roomy;
        for (uint32_t v = 0; v < info.vertex_count; ++v) {
            RoadmapVertexInfo vi;
            REQUIRE(roadmapVertex(rm, v, &vi) == Status::Ok);
            if (vi.layer == 0 && vi.clearance > 1.0f) roomy.push_back(vi);
        }
        REQUIRE(roomy.size() >= 2);
        double best = -1;
        for (const auto& a : roomy)
            for (const auto& b : roomy) {
                const double d = std::hypot(a.position.x - b.position.x, a.position.y - b.position.y);
                if (d > best) best = d, start = a, goal = b;
            }
    }
};

} // namespace

TEST_SUITE("motion allocation") {

    TEST_CASE("the counter sees an allocation made inside the measured region") {
        std::vector<int> grown;
        CHECK(test::allocationsDuring([&] { grown.reserve(16); }) == 1);
        CHECK(test::allocationsDuring([] {}) == 0);
    }

    TEST_CASE("curves: Dubins, arc-then-line, sampling and polylines never allocate") {
        std::vector<Vec2f> polyline(512);
        Tally dubins, arc_line, samples, lines;
        const long allocations = test::allocationsDuring([&] {
            for (int i = 0; i < 200; ++i) {
                const Pose2d from{0.1 * i, -0.05 * i, 0.03 * i};
                const Pose2d to{20 - 0.07 * i, 5 + 0.11 * i, -0.02 * i};
                CurvePath path;
                DubinsWord word;
                dubins.add(shortestDubins(from, to, 3.0, &path, &word));
                for (uint32_t w = 0; w < kDubinsWordCount; ++w) {
                    CurvePath one;
                    (void)dubinsPath(from, to, 3.0, DubinsWord(w), &one);
                }
                CurvePath al;
                TurnSide side;
                arc_line.add(shortestArcLine(from, to.x, to.y, 3.0, &al, &side));
                PathSample sample;
                samples.add(pathSampleAtDistance(path.pieces, path.count, path.length / 2, &sample));
                samples.add(pathSampleAtTime(path.pieces, path.count, 4.0, 1.5, &sample));
                uint32_t points = 0;
                lines.add(pathToPolyline(path.pieces, path.count, 0.5, polyline.data(), &points,
                                         uint32_t(polyline.size())));
            }
        });
        CHECK(allocations == 0);
        CHECK(dubins.ok == 200);
        CHECK(arc_line.ok == 200);
        CHECK(samples.ok == 400);
        CHECK(lines.ok == 200);
    }

    TEST_CASE("follower: target speed, control and a driven lap never allocate") {
        // A 40 m x 20 m rounded loop as the path, driven by a kinematic bicycle.
        std::vector<Vec2f> path;
        for (int i = 0; i <= 400; ++i) {
            const double a = 2 * M_PI * i / 400;
            path.push_back({float(20 * std::cos(a)), float(10 * std::sin(a))});
        }
        const FollowerSettings settings = followerDefaults();
        const FollowerSettings baseline = followerBaselineDefaults();
        FollowerState state{}, baseline_state{};
        Tally steps;
        double speed_sum = 0;
        FollowerVehicle vehicle{20, 0, M_PI / 2, 0};
        const long allocations = test::allocationsDuring([&] {
            const uint32_t n = uint32_t(path.size());
            steps.add(followerStart(path.data(), n, &state));
            steps.add(followerStart(path.data(), n, &baseline_state));
            for (int frame = 0; frame < 600; ++frame) {
                FollowerCommand command;
                const double dt = 1.0 / 30;
                steps.add(followerStep(settings, path.data(), n, vehicle, dt, &state, &command));
                FollowerCommand other;
                steps.add(followerStep(baseline, path.data(), n, vehicle, dt, &baseline_state, &other));
                vehicle.speed += 4.0 * command.throttle * dt;
                vehicle.heading += vehicle.speed * command.curvature * dt;
                vehicle.x += vehicle.speed * std::cos(vehicle.heading) * dt;
                vehicle.y += vehicle.speed * std::sin(vehicle.heading) * dt;
                speed_sum += command.target_speed;
            }
            double target = 0, kappa = 0;
            steps.add(targetSpeed(settings.target_speed, path.data(), n, {20, 0}, 0, &target, &kappa));
        });
        CHECK(allocations == 0);
        CHECK(steps.ok == steps.calls);
        CHECK(state.progress > 10); // the vehicle really drove
        CHECK(speed_sum > 0);
    }

    TEST_CASE("follower: a path with gears (forward, reverse, forward) never allocates") {
        // 10 m east, back 6 m west, then 15 m north from there: two cusps.
        std::vector<Vec2f> path;
        std::vector<int8_t> gears;
        for (int i = 0; i <= 20; ++i)
            path.push_back({float(0.5 * i), 0});
        for (int i = 1; i <= 12; ++i)
            path.push_back({float(10 - 0.5 * i), 0});
        for (int i = 1; i <= 30; ++i)
            path.push_back({4, float(0.5 * i)});
        for (size_t i = 0; i + 1 < path.size(); ++i)
            gears.push_back(i < 20 ? 1 : i < 32 ? -1 : 1);
        const FollowerSettings settings = followerDefaults();
        FollowerState state{};
        Tally steps;
        FollowerVehicle vehicle{0, 0, 0, 0};
        const long allocations = test::allocationsDuring([&] {
            const uint32_t n = uint32_t(path.size());
            steps.add(followerStartGears(path.data(), gears.data(), n, &state));
            for (int frame = 0; frame < 900; ++frame) {
                FollowerCommand command;
                const double dt = 1.0 / 30;
                steps.add(
                    followerStepGears(settings, path.data(), gears.data(), n, vehicle, dt, &state, &command));
                vehicle.speed += 4.0 * command.throttle * dt;
                vehicle.heading += vehicle.speed * command.curvature * dt;
                vehicle.x += vehicle.speed * std::cos(vehicle.heading) * dt;
                vehicle.y += vehicle.speed * std::sin(vehicle.heading) * dt;
            }
        });
        CHECK(allocations == 0);
        CHECK(steps.ok == steps.calls);
        CHECK(state.progress > 10); // it drove past the first cusp
    }

    TEST_CASE("Directional A*: init and queries on a baked level never allocate") {
        const Level level;
        DirectionalAStarSettings settings = directionalAStarDefaults();
        settings.cell_size = 0.25;
        settings.turning_radius = 1.0;
        settings.vehicle_radius = 0.3;
        settings.allow_reverse = true;
        DirectionalGrid grid;
        REQUIRE(directionalGridForLayer(level.view, 0, settings.cell_size, &grid) == Status::Ok);
        size_t bytes = 0;
        REQUIRE(directionalAStarWorkspaceSize(settings, grid, &bytes) == Status::Ok);
        std::vector<uint64_t> memory(bytes / 8 + 1);
        std::vector<PathPiece> pieces(1024);
        Tally init, queries;
        uint32_t pieces_found = 0;
        const long allocations = test::allocationsDuring([&] {
            DirectionalAStar* search = nullptr;
            init.add(directionalAStarInit(settings, grid, level.view, 0, memory.data(), bytes, &search));
            if (!search) return;
            for (int i = 0; i < 8; ++i) {
                const bool forward = i % 2 == 0;
                const RoadmapVertexInfo& a = forward ? level.start : level.goal;
                const RoadmapVertexInfo& b = forward ? level.goal : level.start;
                DirectionalAStarQuery query{
                    {a.position.x, a.position.y, 0.8 * i}, b.position.x, b.position.y, -0.4 * i, i % 4 < 2};
                DirectionalAStarResult result;
                const Status s =
                    directionalAStarFindPath(search, query, pieces.data(), uint32_t(pieces.size()), &result);
                queries.add(s);
                if (s != Status::Ok) continue;
                pieces_found += result.piece_count;
                bool clear = false;
                queries.add(directionalAStarPiecesClear(search, pieces.data(), result.piece_count, &clear));
            }
        });
        CHECK(allocations == 0);
        CHECK(init.ok == 1);
        CHECK(queries.ok == queries.calls);
        CHECK(pieces_found > 0);
    }

    TEST_CASE("trims: loading, walls, spheres, behaviours and search decisions never allocate") {
        using namespace clearway::trims;
        const Level level;
        for (const char* name : {"boat", "glider"}) {
            const std::string vehicle = name;
            CAPTURE(vehicle);
            const std::vector<uint8_t> bytes = test::readFile(kSeeds + "trims/" + vehicle + ".cwtt");
            REQUIRE(!bytes.empty());
            TableView table;
            REQUIRE(loadTable(bytes.data(), bytes.size(), &table) == Status::Ok);
            const SearchSettings settings = defaultSearchSettings();
            const size_t search_bytes = searchWorkspaceSize(table, settings);
            std::vector<uint64_t> search_memory(search_bytes / 8 + 1);
            const WallGridSettings wall_settings = defaultWallGridSettings();
            size_t wall_bytes = 0;
            REQUIRE(wallGridMemorySize(level.view, 0, wall_settings, &wall_bytes) == Status::Ok);
            std::vector<uint64_t> wall_memory(wall_bytes / 8 + 1);
            const std::vector<Sphere> spheres = {
                {{10, 3, 0}, 1.5f, {0, 0, 0}}, {{-5, 8, 2}, 0.5f, {1, 0, 0}}, {{30, -4, 0}, 4.0f, {0, 1, 0}}};
            const SphereHashSettings sphere_settings = defaultSphereHashSettings();
            const size_t sphere_bytes =
                sphereHashMemorySize(spheres.data(), uint32_t(spheres.size()), sphere_settings);
            std::vector<uint64_t> sphere_memory(sphere_bytes / 8 + 1);
            std::vector<uint32_t> plan(64);

            Tally setup, decisions;
            float goodness_sum = 0;
            const long allocations = test::allocationsDuring([&] {
                TableView t;
                setup.add(loadTable(bytes.data(), bytes.size(), &t));
                SearchWorkspace workspace;
                setup.add(initSearchWorkspace(t, settings, search_memory.data(), search_bytes, &workspace));
                WallGrid walls;
                setup.add(
                    buildWallGrid(level.view, 0, wall_settings, wall_memory.data(), wall_bytes, &walls));
                SphereHash hash;
                setup.add(buildSphereHash(spheres.data(), uint32_t(spheres.size()), sphere_settings,
                                          sphere_memory.data(), sphere_bytes, &hash));
                if (setup.ok != setup.calls) return;
                const Seek seek{{float(level.goal.position.x), float(level.goal.position.y), 0}};
                const AvoidWalls avoid_walls{&walls, 0.5f, t.max_chord_deviation};
                const AvoidCollision avoid_spheres{&hash, 0.5f, t.max_chord_deviation};
                const Behaviour parts[] = {behaviour(&seek), behaviour(&avoid_walls),
                                           behaviour(&avoid_spheres)};
                const Composite all{parts, 3};
                const Behaviour goal = behaviour(&all);
                VehicleState state{{float(level.start.position.x), float(level.start.position.y), 0},
                                   {0, 0, 0, 1},
                                   float(t.model.speed) * 0.25f,
                                   straightControl(t.model)};
                uint32_t warm[64];
                uint32_t warm_length = 0;
                for (int k = 0; k < 12; ++k) {
                    SearchResult result;
                    const Status s = search(&workspace, state, goal, plan.data(), uint32_t(plan.size()),
                                            &result, warm_length ? warm : nullptr, warm_length);
                    decisions.add(s);
                    if (s != Status::Ok) break;
                    warm_length = result.plan_length > 1 ? result.plan_length - 1 : 0;
                    for (uint32_t i = 0; i < warm_length; ++i)
                        warm[i] = plan[i + 1];
                    decisions.add(applyTrim(t, state, result.first_control, &state));
                    const Segment segment{0,         1,         {0, 0, 0},    {1, 0, 0},
                                          {1, 0, 0}, {1, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 1}};
                    goodness_sum += seekGoodness(seek, segment) + compositeGoodness(all, segment);
                    (void)sphereHashHitsSegment(hash, {0, 0, 0}, {20, 5, 0}, 0, 2, 0.5f);
                    (void)wallGridHitsSegment(walls, {0, 0}, {5, 5}, 0.3f);
                }
            });
            CHECK(allocations == 0);
            CHECK(setup.ok == 4);
            CHECK(decisions.calls == 24);
            CHECK(decisions.ok == decisions.calls);
            CHECK(std::isfinite(goodness_sum));
        }
    }

} // TEST_SUITE
