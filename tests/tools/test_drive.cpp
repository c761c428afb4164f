// cw-drive (the de Schaetzen and Sestini 2023 simulation suite) on two sample levels: Table I as JSON with both
// controllers, six vehicles, finite numbers, at least one clean run of the clearway follower, and
// planned multi-point turns (Directional A* with reverse moves); over three seeds of a generated box
// level, the clearway follower gets stuck no more often than the baseline on the same planned routes, and
// no more often at two_storey's stair top; slope routes (ramp) and cross-layer routes (two_storey's
// stairs) are driven and reported as their own groups.
#include "test_files.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace {

bool allFinite(const nlohmann::json& j) {
    if (j.is_number()) return std::isfinite(j.get<double>());
    if (j.is_object() || j.is_array()) {
        for (const auto& v : j)
            if (!allFinite(v)) return false;
    }
    return true;
}

// Runs cw-drive with `args`; requires exit code 0 and JSON on stdout.
nlohmann::json runDrive(const std::string& args) {
    std::string out;
    const int code = clearway::test::runTool(std::string(CLEARWAY_BIN_DIR) + "/cw-drive " + args, &out);
    REQUIRE_MESSAGE(code == 0, out);
    nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    REQUIRE_MESSAGE(!j.is_discarded(), out);
    return j;
}

} // namespace

TEST_SUITE("tools/drive") {
    TEST_CASE("cw-drive prints Table I for baseline and clearway on box_room and two_storey") {
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-drive";
        REQUIRE(clearway::test::fileExists(tool));
        const std::string samples = CLEARWAY_SAMPLES;
        std::string out;
        const int code =
            clearway::test::runTool(tool + " --levels " + samples + "/levels/box_room.obj " + samples +
                                        "/levels/two_storey.obj --routes 2 --no-raw --json --quiet "
                                        "--baseline-gear-turns off",
                                    &out);
        REQUIRE_MESSAGE(code == 0, out);
        const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
        REQUIRE_MESSAGE(!j.is_discarded(), out);
        CHECK(allFinite(j));
        CHECK(j.at("routes").get<int>() >= 2);
        REQUIRE(j.at("vehicles").size() == 6);
        std::set<std::string> names;
        for (const auto& v : j.at("vehicles"))
            names.insert(v.at("name").get<std::string>());
        CHECK(names.size() == 6);
        for (const char* controller : {"baseline", "clearway"}) {
            CAPTURE(controller);
            REQUIRE(j.at("controllers").contains(controller));
            const auto& c = j.at("controllers").at(controller);
            CHECK(c.at("trials").get<int>() == 6 * j.at("routes").get<int>());
            REQUIRE(c.at("stuck_by_vehicle").size() == 6);
            int sum = 0;
            for (const auto& row : c.at("stuck_by_vehicle"))
                sum += row.at("stuck_events").get<int>();
            CHECK(sum == c.at("stuck_events").get<int>());
            CHECK(c.at("cross_track_error_mean").get<double>() >= 0);
            CHECK(c.at("time_mean").get<double>() > 0);
            CHECK(c.at("inside_corridor_percent").get<double>() >= 0);
            CHECK(c.at("inside_corridor_percent").get<double>() <= 100);
            CHECK(c.at("speed_mean").get<double>() > 0);
        }
        CHECK(j.at("controllers").at("clearway").at("arrived_without_stuck").get<int>() >= 1);
        // Planned multi-point turns: some routes bend tighter than the truck turns near a wall, so the
        // clearway columns drive a Directional A* route with reverse moves (2+ gear changes each); with
        // --baseline-gear-turns off the baseline never changes gear on plan.
        CHECK(j.at("baseline_gear_turns").get<std::string>() == "off");
        CHECK(j.at("gear_turns").get<std::string>() == "cusps");
        CHECK(j.at("planned_gear_turn_routes").get<int>() >= 1);
        CHECK(j.at("controllers").at("clearway").at("gear_changes").get<int>() >=
              j.at("planned_gear_turn_routes").get<int>());
        CHECK(j.at("controllers").at("clearway").at("arrived").get<int>() == 6 * j.at("routes").get<int>());
        CHECK(j.at("controllers").at("baseline").at("gear_changes").get<int>() == 0);
    }

    TEST_CASE("cw-drive --gear-turns off drives the findPath routes only") {
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-drive";
        const std::string samples = CLEARWAY_SAMPLES;
        const nlohmann::json j =
            runDrive("--levels " + samples + "/levels/two_storey.obj --routes 2 --no-raw --json --quiet "
                     "--gear-turns off");
        CHECK(j.at("planned_gear_turn_routes").get<int>() == 0);
        for (const char* controller : {"baseline", "clearway", "clearway_tuned"})
            CHECK(j.at("controllers").at(controller).at("gear_changes").get<int>() == 0);
        std::string bad;
        CHECK(clearway::test::runTool(
                  tool + " --levels " + samples + "/levels/two_storey.obj --gear-turns sometimes", &bad) !=
              0);
    }

    TEST_CASE("cw-drive --seeds: the clearway follower gets stuck less than the baseline on the same routes") {
        // A generated box level (4x the samples/scenes boxes, 25 boxes, level seed 7; in neither the
        // tuning nor the held-aside set of docs/motion.md), 3 routes x 3 seeds, both controllers on the
        // same planned routes (--baseline-gear-turns on, the default). Measured: baseline 3, 10, 4 stuck
        // events, clearway 0, 4, 2: ratios 0.00, 0.40, 0.50, mean 0.30, pooled 6 / 17 (0, 3, 2 before the
        // escape length, escape_turn).
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-drive";
        std::string out;
        const int code = clearway::test::runTool(
            tool + " --levels boxes:25:7 --routes 3 --seeds 1-3 --no-raw --json --quiet", &out);
        REQUIRE_MESSAGE(code == 0, out);
        const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
        REQUIRE_MESSAGE(!j.is_discarded(), out);
        CHECK(allFinite(j));
        CHECK(j.at("seeds") == nlohmann::json::array({1, 2, 3}));
        CHECK(j.at("baseline_gear_turns").get<std::string>() == "on");
        REQUIRE(j.at("per_seed").size() == 3);
        int baseline_sum = 0, clearway_sum = 0;
        for (const auto& seed : j.at("per_seed")) {
            CHECK(seed.at("routes").get<int>() >= 1);
            const int baseline = seed.at("stuck_events").at("baseline").get<int>();
            const int clearway = seed.at("stuck_events").at("clearway").get<int>();
            CHECK(clearway <= baseline);
            CHECK(seed.at("stuck_ratio").at("clearway").get<double>() ==
                  doctest::Approx(double(clearway) / std::max(baseline, 1)));
            baseline_sum += baseline;
            clearway_sum += clearway;
        }
        const auto& controllers = j.at("controllers");
        CHECK(controllers.at("baseline").at("stuck_events").get<int>() == baseline_sum);
        CHECK(controllers.at("clearway").at("stuck_events").get<int>() == clearway_sum);
        CHECK(clearway_sum <= baseline_sum);
        // Like for like: the baseline drives the planned gear turns too.
        CHECK(j.at("planned_gear_turn_routes").get<int>() >= 1);
        CHECK(controllers.at("baseline").at("gear_changes").get<int>() >= 1);
        // The spread over the seeds, and the measured mean ratio 0.27 with margin.
        for (const char* field : {"mean", "sd", "min", "max"}) {
            CAPTURE(field);
            CHECK(controllers.at("baseline").at("stuck_events_spread").contains(field));
            CHECK(controllers.at("clearway").at("stuck_ratio_spread").contains(field));
        }
        const auto& ratio = controllers.at("clearway").at("stuck_ratio_spread");
        CHECK(ratio.at("min").get<double>() <= ratio.at("mean").get<double>());
        CHECK(ratio.at("mean").get<double>() <= ratio.at("max").get<double>());
        CHECK(j.at("target").at("stuck_ratio_mean").get<double>() == doctest::Approx(ratio.at("mean").get<double>()));
        CHECK(j.at("target").at("stuck_ratio_worst").get<double>() == doctest::Approx(ratio.at("max").get<double>()));
        CHECK(ratio.at("mean").get<double>() <= 0.45);
    }

    TEST_CASE("cw-drive --seeds: at two_storey's stair top the follower is stuck no more than the baseline") {
        // Routes down two_storey's stairs (car and kart; the route turns into the stairs at their top with
        // 0.08 m / 0.18 m to spare): both controllers graze the landing wall with the front axle over the
        // top step and are pinned there by the slope until the teleport, 3 stuck events per trial each.
        // Measured: 6 / 6 per seed (cross-layer ratio 1.00, overall mean 0.95); before the blocked timer
        // restarted after a teleport the follower backed off at once where it landed: 7 / 6 (mean 1.11).
        const nlohmann::json j =
            runDrive(std::string("--levels ") + CLEARWAY_SAMPLES +
                     "/levels/two_storey.obj --routes 1 --cross-layer-routes 2 --seeds 1-3 --no-raw --json "
                     "--quiet");
        const auto& cross = j.at("groups").at("cross_layer");
        REQUIRE(cross.at("clearway").at("trials").get<int>() >= 3);
        CHECK(cross.at("baseline").at("stuck_events").get<int>() >= 3); // the stair top is hard for both
        CHECK(cross.at("clearway").at("stuck_events").get<int>() <=
              cross.at("baseline").at("stuck_events").get<int>());
        CHECK(cross.at("stuck_ratio_spread").at("max").get<double>() <= 1.0);
        CHECK(j.at("target").at("stuck_ratio_mean").get<double>() <= 1.0);
    }

    TEST_CASE("cw-drive drives slope routes and cross-layer routes and reports them as their own groups") {
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-drive";
        const std::string samples = CLEARWAY_SAMPLES;
        const std::string levels = " --levels " + samples + "/levels/ramp.obj " + samples + "/levels/two_storey.obj";
        for (const std::string slopes : {"on", "off"}) {
            CAPTURE(slopes);
            std::string out;
            const int code = clearway::test::runTool(tool + levels +
                                                         " --routes 2 --cross-layer-routes 1 --no-raw --json --quiet "
                                                         "--slopes " + slopes,
                                                     &out);
            REQUIRE_MESSAGE(code == 0, out);
            const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
            REQUIRE_MESSAGE(!j.is_discarded(), out);
            CHECK(allFinite(j));
            CHECK(j.at("slopes").get<std::string>() == slopes);
            const auto& groups = j.at("groups");
            int routes = 0;
            for (const char* name : {"flat", "slope", "cross_layer"}) {
                CAPTURE(name);
                const auto& g = groups.at(name);
                routes += g.at("routes").get<int>();
                // Every vehicle route is driven by both controllers or counted as not driven.
                for (const char* controller : {"baseline", "clearway"})
                    CHECK(g.at(controller).at("trials").get<int>() + g.at("no_route_vehicle_routes").get<int>() +
                              g.at("unclimbable_vehicle_routes").get<int>() ==
                          6 * g.at("routes").get<int>());
                CHECK(g.at("clearway").at("arrived").get<int>() <= g.at("clearway").at("trials").get<int>());
                if (slopes == "off") CHECK(g.at("unclimbable_vehicle_routes").get<int>() == 0);
            }
            CHECK(routes == j.at("routes").get<int>());
            // ramp.obj's two routes run over its sloped ground (measured: all six vehicles drive both, every
            // trial arrives; the baseline gets stuck 14 times, the clearway follower never).
            const auto& slope = groups.at("slope");
            CHECK(slope.at("routes").get<int>() == 2);
            CHECK(slope.at("clearway").at("trials").get<int>() >= 1);
            CHECK(slope.at("clearway").at("arrived").get<int>() == slope.at("clearway").at("trials").get<int>());
            // One route from the upper floor of two_storey down its stairs: they fit the car and the kart
            // only. Measured: with slopes both arrive (after 6 stuck events: the route bends at the stairs'
            // top with 0.08 m to spare); planar (off) the clearway follower's reverse escape takes them back
            // to the start and neither arrives in time: counted, not arrived.
            const auto& cross = groups.at("cross_layer");
            CHECK(cross.at("routes").get<int>() == 1);
            CHECK(cross.at("no_route_vehicle_routes").get<int>() == 4);
            CHECK(cross.at("clearway").at("trials").get<int>() == 2);
            CHECK(cross.at("baseline").at("arrived").get<int>() == 2);
            if (slopes == "on") CHECK(cross.at("clearway").at("arrived").get<int>() == 2);
        }
    }
}
