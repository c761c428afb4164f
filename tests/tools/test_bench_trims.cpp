// cw-bench-trims, the reproductions of Go, Vu and Kuffner, "Autonomous behaviors for interactive
// vehicle animations" (2004): Fig. 6 row by row (the table in docs/benchmarks.md), and Fig. 7, where
// every search runs to exhaustion, so the time per decision measures the strategies' trees and
// never a node cap.
#include "test_files.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace {

nlohmann::json runBenchTrims(const std::string& arguments) {
    const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-bench-trims";
    REQUIRE(clearway::test::fileExists(tool));
    std::string out;
    const int code = clearway::test::runTool(tool + " " + arguments + " --json --quiet", &out);
    REQUIRE_MESSAGE(code == 0, out);
    const size_t brace = out.rfind("\n{") == std::string::npos ? 0 : out.rfind("\n{") + 1;
    const nlohmann::json j = nlohmann::json::parse(out.substr(brace), nullptr, false);
    REQUIRE_MESSAGE(!j.is_discarded(), out);
    return j;
}

// One cell of Fig. 6: a scenario's ship role under one strategy, with clearway's value in the
// docs' table (seed 1, 60 runs) and the paper's.
struct Fig6Cell {
    const char *scenario, *role, *strategy;
    double table, paper;
};

const Fig6Cell kFig6[] = {
    {"2d-seek", "S", "single", 0.711, 0.400},    {"2d-seek", "S", "uniform", 0.975, 0.880},
    {"2d-seek", "S", "adaptive", 0.976, 0.827},  {"3d-seek", "S", "single", 0.948, 0.704},
    {"3d-seek", "S", "uniform", 0.990, 0.959},   {"3d-seek", "S", "adaptive", 0.993, 0.922},
    {"2d-pursuit", "P", "single", 0.909, 0.748}, {"2d-pursuit", "P", "uniform", 0.966, 0.845},
    {"2d-pursuit", "P", "adaptive", 0.967, 0.876}, {"2d-pursuit", "S", "single", 0.928, 0.905},
    {"2d-pursuit", "S", "uniform", 0.994, 0.913}, {"2d-pursuit", "S", "adaptive", 0.996, 0.862},
    {"3d-pursuit", "P", "single", 0.746, 0.804}, {"3d-pursuit", "P", "uniform", 0.954, 0.880},
    {"3d-pursuit", "P", "adaptive", 0.961, 0.820}, {"3d-pursuit", "S", "single", 0.748, 0.789},
    {"3d-pursuit", "S", "uniform", 0.913, 0.792}, {"3d-pursuit", "S", "adaptive", 0.912, 0.929},
    {"3d-meet", "A", "single", 0.465, 0.712},    {"3d-meet", "A", "uniform", 0.500, 0.765},
    {"3d-meet", "A", "adaptive", 0.499, 0.786},  {"3d-meet", "B", "single", 0.492, 0.663},
    {"3d-meet", "B", "uniform", 0.512, 0.699},   {"3d-meet", "B", "adaptive", 0.497, 0.703}};

} // namespace

TEST_SUITE("tools/bench-trims") {
    // The docs' table of Fig. 6 as the benchmark prints it (seed 1, 60 runs per scenario and
    // strategy): each cell within 0.02 of the table (room for another compiler or libm, whose last
    // bits can change one decision and the run after it; seeds 2 and 3 move cells by up to
    // 0.056, see the docs), the paper's three averages within 0.05, and the rows the docs explain as
    // off the paper still off it on the side they say.
    TEST_CASE("cw-bench-trims reproduces Fig. 6 row by row as documented, and the paper's averages") {
        const nlohmann::json j = runBenchTrims("--runs 60 --seed 1");
        const nlohmann::json& rows = j.at("results");
        for (const Fig6Cell& cell : kFig6) {
            CAPTURE(cell.scenario);
            CAPTURE(cell.role);
            CAPTURE(cell.strategy);
            const nlohmann::json* row = nullptr;
            for (const auto& r : rows)
                if (r.at("scenario") == cell.scenario && r.at("strategy") == cell.strategy) row = &r;
            REQUIRE(row != nullptr);
            const double goodness = row->at("goodness").at(cell.role).get<double>();
            CHECK(std::fabs(goodness - cell.table) <= 0.02);
            // Explained in the docs: the meet rows below the paper, single-step 2D seek far above.
            if (std::string(cell.scenario) == "3d-meet") CHECK(goodness < cell.paper - 0.1);
            if (std::string(cell.scenario) == "2d-seek" && std::string(cell.strategy) == "single")
                CHECK(goodness > cell.paper + 0.2);
        }
        const nlohmann::json& average = j.at("average_goodness");
        CHECK(std::fabs(average.at("single").get<double>() - 0.715) <= 0.05);
        CHECK(std::fabs(average.at("uniform").get<double>() - 0.841) <= 0.05);
        CHECK(std::fabs(average.at("adaptive").get<double>() - 0.840) <= 0.05);
    }

    TEST_CASE(
        "cw-bench-trims --fig7: no search hits its cap, uniform and adaptive exhaust their full trees") {
        const nlohmann::json j = runBenchTrims("--fig7 --runs 1");
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
