// cw-bench-trims --fig7, the reproduction of Fig. 7 of Go, Vu and Kuffner, "Autonomous behaviors for
// interactive vehicle animations" (2004): every search runs to exhaustion, so the time per decision
// measures the strategies' trees and never a node cap.
#include "test_files.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

TEST_SUITE("tools/bench-trims") {
    TEST_CASE(
        "cw-bench-trims --fig7: no search hits its cap, uniform and adaptive exhaust their full trees") {
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-bench-trims";
        REQUIRE(clearway::test::fileExists(tool));
        std::string out;
        const int code = clearway::test::runTool(tool + " --fig7 --runs 1 --json --quiet", &out);
        REQUIRE_MESSAGE(code == 0, out);
        const size_t brace = out.rfind("\n{") == std::string::npos ? 0 : out.rfind("\n{") + 1;
        const nlohmann::json j = nlohmann::json::parse(out.substr(brace), nullptr, false);
        REQUIRE_MESSAGE(!j.is_discarded(), out);
        CHECK(j.at("fig7") == true);
        const nlohmann::json& rows = j.at("results");
        REQUIRE(rows.size() == 6); // {2d, 3d} seek x {single, uniform, adaptive}
        for (const auto& row : rows) {
            CAPTURE(row.dump());
            CHECK(row.at("node_budget_stops") == 0);
            CHECK(row.at("decisions").get<int>() > 0);
            CHECK(row.at("visited").get<double>() < row.at("max_nodes").get<double>());
            const bool spatial = row.at("scenario") == "3d-seek";
            const std::string strategy = row.at("strategy");
            if (strategy == "single") continue;
            CHECK(row.at("max_depth") == (spatial ? 4 : 6));
            // Exhausted trees have the sizes the paper's formulas give: uniform sum_d N_v^d with
            // N_v = 9 (2D: 17 controls, skip 2) and 31 (3D: 121 controls, skip 4); adaptive
            // round(N_v c^d) successors at depth d (c = 0.5; 2D skip 1, 3D skip 2).
            const double expected =
                strategy == "uniform" ? (spatial ? 954305 : 597871) : (spatial ? 248942 : 4455);
            CHECK(row.at("visited").get<double>() == expected);
        }
    }
}
