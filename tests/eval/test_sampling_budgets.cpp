// Budgets of the sampling planners (PRM samples, RRT iterations) that scale with the level, and the
// fairness they buy: on a cluttered generated box level every probabilistically complete baseline
// solves at least 90 % of the pairs the visibility graph solves.
#include <clearway/eval.h>

#include <doctest/doctest.h>

#include "scenes.h"

#include <algorithm>

namespace cw = clearway;

TEST_SUITE("bake/baselines") {
    TEST_CASE("PRM and RRT budgets follow the level's free area and walls, within their caps") {
        // 1,250 boxes in 3 m cells (111 x 108 m): far past the old fixed caps (3,000 samples,
        // 30,000 iterations), which left the RRT solving 42 % of 200 pairs here.
        const cw::bake::Footprint fp = cw::scenes::randomBoxesFootprint(4 * 1250 + 4, 1);
        const cw::bake::FreeSpace space = cw::bake::buildFreeSpace(fp.layers[0], 0.5);
        const double free_area = cw::bake::freeArea(space);
        CHECK(free_area > 0.5 * fp.layers[0].area);
        CHECK(free_area < fp.layers[0].area);
        const cw::bake::SamplingBudget prm = cw::bake::prmSampleBudget(space);
        const cw::bake::SamplingBudget rrt = cw::bake::rrtIterationBudget(space);
        for (const cw::bake::SamplingBudget* b : {&prm, &rrt}) {
            CHECK(b->walls == 5004);
            CHECK(b->free_area == free_area);
            CHECK(b->count == std::clamp(std::max(b->by_area, b->by_walls), b->floor, b->cap));
            CHECK_FALSE(b->capped);
            CHECK_FALSE(b->given);
        }
        CHECK(prm.by_walls == 2 * 5004);
        CHECK(rrt.by_walls == 20 * 5004);
        CHECK(prm.by_area == uint32_t(free_area / 8 / 0.25));
        CHECK(prm.count > 3000);
        CHECK(rrt.count > 30000);
        // Twice the radius: a quarter of the area term (less free area too).
        const cw::bake::SamplingBudget wide =
            cw::bake::prmSampleBudget(cw::bake::buildFreeSpace(fp.layers[0], 1.0));
        CHECK(wide.by_area < prm.by_area / 4 + 1);
        // A given count is used as it is.
        cw::bake::PrmOptions given;
        given.samples = 300;
        cw::bake::PrmPlanner planner;
        REQUIRE_FALSE(cw::bake::buildPrm(fp.layers[0], 0.5, given, &planner));
        CHECK(planner.budget.given);
        CHECK(planner.budget.count == 300);
        CHECK(planner.nodes.size() == 300);
    }

    TEST_CASE("on a cluttered box level PRM and RRT solve >= 90 % of the pairs the visibility graph solves") {
        // 400 boxes in 3 m cells (63 x 60 m), gaps from 0.2 m: many narrower than the agent.
        const cw::bake::Footprint fp = cw::scenes::randomBoxesFootprint(4 * 400 + 4, 1);
        cw::bake::CompareRequest request;
        request.radius = 0.5;
        request.pairs = 60;
        request.seed = 1;
        cw::bake::CompareResult result;
        REQUIRE_FALSE(cw::bake::compareFootprint(fp, request, &result, cw::bake::silentLog()));
        REQUIRE(result.pairs == 60);
        REQUIRE(result.methods.size() == 8);
        const cw::bake::MethodStats& visibility = result.methods[1];
        CHECK(visibility.successes == 60); // every pair is one it connects
        for (size_t m : {4, 5}) {
            const cw::bake::MethodStats& s = result.methods[m];
            CAPTURE(s.name);
            CHECK(s.successes >= 0.9 * visibility.successes);
            CHECK(s.budget.count > 0);
            CHECK_FALSE(s.budget.capped);
            CHECK(s.min_clearance >= 0.5 - 3e-5);
        }
    }
}
