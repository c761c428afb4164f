// cw-drive (the de Schaetzen and Sestini 2023 simulation suite) on two sample levels: Table I as JSON with both
// controllers, six vehicles, finite numbers, at least one clean run of the clearway follower, and
// planned multi-point turns (Directional A* with reverse moves) in the clearway columns only.
#include "test_files.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

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

} // namespace

TEST_SUITE("tools/drive") {
    TEST_CASE("cw-drive prints Table I for baseline and clearway on box_room and two_storey") {
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-drive";
        REQUIRE(clearway::test::fileExists(tool));
        const std::string samples = CLEARWAY_SAMPLES;
        std::string out;
        const int code =
            clearway::test::runTool(tool + " --levels " + samples + "/levels/box_room.obj " + samples +
                                        "/levels/two_storey.obj --routes 2 --no-raw --json --quiet",
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
        CHECK(j.at("target").contains("stuck_met"));
        CHECK(j.at("target").contains("time_met"));
        // Planned multi-point turns: some routes bend tighter than the truck turns near a wall, so the
        // clearway columns drive a Directional A* route with reverse moves (2+ gear changes each); the
        // baseline never changes gear on plan.
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
        std::string out;
        const int code =
            clearway::test::runTool(tool + " --levels " + samples +
                                        "/levels/two_storey.obj --routes 2 --no-raw --json --quiet "
                                        "--gear-turns off",
                                    &out);
        REQUIRE_MESSAGE(code == 0, out);
        const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
        REQUIRE_MESSAGE(!j.is_discarded(), out);
        CHECK(j.at("planned_gear_turn_routes").get<int>() == 0);
        for (const char* controller : {"baseline", "clearway", "clearway_tuned"})
            CHECK(j.at("controllers").at(controller).at("gear_changes").get<int>() == 0);
        std::string bad;
        CHECK(clearway::test::runTool(
                  tool + " --levels " + samples + "/levels/two_storey.obj --gear-turns sometimes", &bad) !=
              0);
    }
}
