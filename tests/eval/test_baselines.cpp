// The Mount's lecture baseline planners on small hand-checked maps (a corridor, a pillar whose shortest
// path with clearance is computed by hand, a U-trap, doorways narrower than the agent, a narrow
// passage), their determinism, cw-compare's table invariants on a sample level and its mean
// clearance over the pairs every method solved.
#include <clearway/eval.h>
#include <clearway/runtime.h>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "baked_roadmap.h"
#include "hand_levels.h"
#include "test_files.h"

#include <cmath>
#include <string>
#include <vector>

namespace cw = clearway;
using cw::bake::PlannedPath;
using cw::bake::PlanStatus;
using cw::bake::Ring;
using cw::bake::Vec2;

namespace {

using cw::test::footprintOf;
using cw::test::rect;
using cw::test::reversed;

// Every baseline built on one layer.
struct Planners {
    cw::bake::VisibilityGraph visibility;
    cw::bake::GridPlanner grid;
    cw::bake::QuadtreePlanner quadtree;
    cw::bake::PrmPlanner prm;
    cw::bake::RrtPlanner rrt;
    cw::bake::PotentialPlanner potential;

    Planners(const cw::bake::FootprintLayer& layer, double radius, uint32_t prm_samples = 0) {
        REQUIRE_FALSE(cw::bake::buildVisibilityGraph(layer, radius, {}, &visibility));
        REQUIRE_FALSE(cw::bake::buildGrid(layer, radius, {}, &grid));
        REQUIRE_FALSE(cw::bake::buildQuadtree(layer, radius, {}, &quadtree));
        cw::bake::PrmOptions prm_options;
        prm_options.samples = prm_samples;
        REQUIRE_FALSE(cw::bake::buildPrm(layer, radius, prm_options, &prm));
        REQUIRE_FALSE(cw::bake::buildRrt(layer, radius, {}, &rrt));
        REQUIRE_FALSE(cw::bake::buildPotentialField(layer, radius, {}, &potential));
    }
    // Every method but the potential field, which may fail by design.
    std::vector<std::pair<std::string, PlannedPath>> graphPaths(Vec2 s, Vec2 g) const {
        return {{"visibility", cw::bake::visibilityPath(visibility, s, g)},
                {"grid", cw::bake::gridPath(grid, s, g)},
                {"quadtree", cw::bake::quadtreePath(quadtree, s, g)},
                {"prm", cw::bake::prmPath(prm, s, g)},
                {"rrt", cw::bake::rrtPath(rrt, s, g)}};
    }
};

// clearway's own path on the same footprint: roadmap baked, serialised, loaded, findPath.
struct Medial : cw::test::BakedRoadmap {
    using BakedRoadmap::BakedRoadmap;
    cw::Status path(Vec2 s, Vec2 g, double radius, double* length_out) {
        return find(s, g, radius, radius, length_out);
    }
};

// A successful path: from s to g, clearance >= radius at dense samples (up to the chords of the
// visibility graph's arcs, 1 degree: radius * (1 - cos 0.5 deg) = 2e-5 m at 0.5 m), no shorter than
// the oracle.
void checkPath(const std::string& name, const PlannedPath& path, const cw::bake::FootprintLayer& layer,
               Vec2 s, Vec2 g, double radius, double oracle) {
    CAPTURE(name);
    REQUIRE_MESSAGE(path.status == PlanStatus::Ok, cw::bake::planStatusString(path.status));
    REQUIRE(path.points.size() >= 2);
    CHECK(path.points.front().x == s.x);
    CHECK(path.points.front().y == s.y);
    CHECK(path.points.back().x == g.x);
    CHECK(path.points.back().y == g.y);
    const cw::bake::WallGrid walls(cw::bake::layerWalls(layer));
    const cw::bake::PathMetrics m = cw::bake::measurePath(path.points, walls);
    CHECK(m.min_clearance >= radius - 3e-5);
    CHECK(path.length >= oracle - 1e-9);
}

} // namespace

TEST_SUITE("bake/baselines") {
    TEST_CASE("every method follows a straight corridor and rejects endpoints without clearance") {
        const cw::bake::Footprint fp = footprintOf(rect(0, 0, 20, 2));
        const auto& layer = fp.layers[0];
        const double r = 0.5;
        const Planners p(layer, r);
        const Vec2 s{1, 1}, g{19, 1};
        const PlannedPath oracle = cw::bake::visibilityPath(p.visibility, s, g);
        REQUIRE(oracle.status == PlanStatus::Ok);
        CHECK(oracle.length == doctest::Approx(18).epsilon(1e-15));
        CHECK(oracle.points.size() == 2);
        for (const auto& [name, path] : p.graphPaths(s, g))
            checkPath(name, path, layer, s, g, r, oracle.length);
        // Smoothed grid path and the potential field run straight down the middle.
        CHECK(cw::bake::gridPath(p.grid, s, g).length == doctest::Approx(18).epsilon(1e-12));
        const PlannedPath field = cw::bake::potentialPath(p.potential, s, g);
        checkPath("potential", field, layer, s, g, r, oracle.length);
        CHECK(field.length == doctest::Approx(18).epsilon(1e-9));
        Medial medial(fp);
        double length = 0;
        REQUIRE(medial.path(s, g, r, &length) == cw::Status::Ok);
        CHECK(length == doctest::Approx(18).epsilon(1e-6));

        // 0.3 m from the wall, outside, beyond the end: never a path.
        for (Vec2 bad : {Vec2{1, 0.3}, Vec2{-1, 1}, Vec2{25, 1}}) {
            CAPTURE(bad.x);
            CHECK(cw::bake::visibilityPath(p.visibility, bad, g).status == PlanStatus::StartBlocked);
            CHECK(cw::bake::gridPath(p.grid, s, bad).status == PlanStatus::GoalBlocked);
            CHECK(cw::bake::quadtreePath(p.quadtree, bad, g).status == PlanStatus::StartBlocked);
            CHECK(cw::bake::prmPath(p.prm, bad, g).status == PlanStatus::StartBlocked);
            CHECK(cw::bake::rrtPath(p.rrt, bad, g).status == PlanStatus::StartBlocked);
            CHECK(cw::bake::potentialPath(p.potential, bad, g).points.empty());
        }
    }

    TEST_CASE("visibility graph: shortest paths round a square pillar match the hand computation") {
        // Room 10 x 10, pillar 4..6 x 4..6, radius 0.5: the path bends on circles of 0.5 round the
        // pillar's corners.
        const cw::bake::Footprint fp = footprintOf(rect(0, 0, 10, 10), {reversed(rect(4, 4, 6, 6))});
        const auto& layer = fp.layers[0];
        const double r = 0.5;
        const Planners p(layer, r);

        // (1, 5) -> (9, 5): tangent to the circle at (4, 4) (length sqrt(10 - r^2)), arc down to
        // (4, 3.5) through atan(1/3) + asin(r / sqrt 10), 2 m along y = 3.5, and the mirror image.
        const Vec2 s1{1, 5}, g1{9, 5};
        const double expected1 =
            2 * (std::sqrt(10 - r * r) + r * (std::atan(1.0 / 3) + std::asin(r / std::sqrt(10.0)))) + 2;
        const PlannedPath v1 = cw::bake::visibilityPath(p.visibility, s1, g1);
        REQUIRE(v1.status == PlanStatus::Ok);
        CHECK(v1.length == doctest::Approx(expected1).epsilon(1e-12));
        checkPath("visibility", v1, layer, s1, g1, r, expected1);

        // (1, 1) -> (9, 9): round the corner (6, 4) only; both tangents sqrt(34 - r^2) long, the
        // arc turns from atan2(3, 5) - d to atan2(5, 3) + d, d = asin(r / sqrt 34).
        const Vec2 s2{1, 1}, g2{9, 9};
        const double d = std::asin(r / std::sqrt(34.0));
        const double expected2 =
            2 * std::sqrt(34 - r * r) + r * (std::atan2(5.0, 3.0) - std::atan2(3.0, 5.0) + 2 * d);
        const PlannedPath v2 = cw::bake::visibilityPath(p.visibility, s2, g2);
        REQUIRE(v2.status == PlanStatus::Ok);
        CHECK(v2.length == doctest::Approx(expected2).epsilon(1e-12));

        // No method beats the oracle, all keep the radius.
        for (auto [s, g, oracle] : {std::tuple{s1, g1, expected1}, std::tuple{s2, g2, expected2}}) {
            for (const auto& [name, path] : p.graphPaths(s, g))
                checkPath(name, path, layer, s, g, r, oracle);
            Medial medial(fp);
            double length = 0;
            REQUIRE(medial.path(s, g, r, &length) == cw::Status::Ok);
            CHECK(length >= oracle - 1e-6);
        }
    }

    TEST_CASE("potential field stops in the local minimum of a U-trap and says so") {
        // A U open towards -x; the start sits in its cup, the goal straight behind its back.
        Ring u{{8, 5}, {12, 5}, {12, 15}, {8, 15}, {8, 13}, {11, 13}, {11, 7}, {8, 7}};
        const cw::bake::Footprint fp = footprintOf(rect(0, 0, 20, 20), {reversed(u)});
        const auto& layer = fp.layers[0];
        const double r = 0.5;
        const Planners p(layer, r);
        const Vec2 s{9.5, 10}, g{18, 10};
        const PlannedPath field = cw::bake::potentialPath(p.potential, s, g);
        CHECK(field.status == PlanStatus::LocalMinimum);
        CHECK(field.points.empty());
        // Every roadmap-like method walks out of the cup and round the U.
        const PlannedPath oracle = cw::bake::visibilityPath(p.visibility, s, g);
        REQUIRE(oracle.status == PlanStatus::Ok);
        CHECK(oracle.length > 12);
        for (const auto& [name, path] : p.graphPaths(s, g))
            checkPath(name, path, layer, s, g, r, oracle.length);
        // Below the U the field has no trap: it arrives.
        const Vec2 s2{2, 2}, g2{18, 2};
        checkPath("potential", cw::bake::potentialPath(p.potential, s2, g2), layer, s2, g2, r, 16);
    }

    TEST_CASE("a doorway narrower than the agent defeats every method, none fakes a path") {
        // Two 5 x 5 rooms joined by a 1 m long door 0.75 m wide; the agent needs 2 r = 1 m.
        const Ring outer{{0, 0},  {5, 0}, {5, 2.125}, {6, 2.125}, {6, 0}, {11, 0},
                         {11, 5}, {6, 5}, {6, 2.875}, {5, 2.875}, {5, 5}, {0, 5}};
        const cw::bake::Footprint fp = footprintOf(outer);
        const auto& layer = fp.layers[0];
        const Vec2 s{2.5, 2.5}, g{8.5, 2.5};
        {
            const Planners p(layer, 0.5);
            for (const auto& [name, path] : p.graphPaths(s, g)) {
                CAPTURE(name);
                CHECK(path.status == PlanStatus::NoPath);
                CHECK(path.points.empty());
            }
            const PlannedPath field = cw::bake::potentialPath(p.potential, s, g);
            CHECK(field.status == PlanStatus::LocalMinimum);
            CHECK(field.points.empty());
            Medial medial(fp);
            double length = 0;
            CHECK(medial.path(s, g, 0.5, &length) == cw::Status::NotFound);
        }
        // A 0.3 m agent fits (0.6 < 0.75): the failures above are the door's, not the methods'.
        const Planners p(layer, 0.3, /*prm_samples=*/2000);
        const PlannedPath oracle = cw::bake::visibilityPath(p.visibility, s, g);
        REQUIRE(oracle.status == PlanStatus::Ok);
        CHECK(oracle.length == doctest::Approx(6).epsilon(1e-12)); // y = 2.5 is the door's centre line
        for (const auto& [name, path] : p.graphPaths(s, g))
            checkPath(name, path, layer, s, g, 0.3, oracle.length);
    }

    TEST_CASE("PRM misses a narrow passage with few samples and reports it, finds it with many") {
        // Rooms 8 x 8 joined by a corridor 4 m long and 1.25 m wide: 0.25 m of room for the
        // centre of a 0.5 m agent, 1 m^2 of its ~140 m^2 of free space.
        const Ring outer{{0, 0},  {8, 0},  {8, 3.375},  {12, 3.375}, {12, 0}, {20, 0},
                         {20, 8}, {12, 8}, {12, 4.625}, {8, 4.625},  {8, 8},  {0, 8}};
        const cw::bake::Footprint fp = footprintOf(outer);
        const auto& layer = fp.layers[0];
        const double r = 0.5;
        const Vec2 s{4, 4}, g{16, 4};
        cw::bake::PrmOptions few;
        few.samples = 30;
        cw::bake::PrmPlanner sparse;
        REQUIRE_FALSE(cw::bake::buildPrm(layer, r, few, &sparse));
        const PlannedPath missed = cw::bake::prmPath(sparse, s, g);
        CHECK(missed.status == PlanStatus::NoPath);
        CHECK(missed.points.empty());
        cw::bake::PrmOptions many;
        many.samples = 2000;
        cw::bake::PrmPlanner dense;
        REQUIRE_FALSE(cw::bake::buildPrm(layer, r, many, &dense));
        cw::bake::VisibilityGraph visibility;
        REQUIRE_FALSE(cw::bake::buildVisibilityGraph(layer, r, {}, &visibility));
        const PlannedPath oracle = cw::bake::visibilityPath(visibility, s, g);
        REQUIRE(oracle.status == PlanStatus::Ok);
        CHECK(oracle.length == doctest::Approx(12).epsilon(1e-12));
        checkPath("prm", cw::bake::prmPath(dense, s, g), layer, s, g, r, oracle.length);
    }

    TEST_CASE("PRM and RRT give the same roadmap and tree for the same seed, others for another") {
        const cw::bake::Footprint fp = footprintOf(rect(0, 0, 10, 10), {reversed(rect(4, 4, 6, 6))});
        const auto& layer = fp.layers[0];
        auto prm = [&](uint64_t seed) {
            cw::bake::PrmOptions o;
            o.seed = seed;
            o.samples = 300;
            cw::bake::PrmPlanner out;
            REQUIRE_FALSE(cw::bake::buildPrm(layer, 0.5, o, &out));
            return out;
        };
        auto rrt = [&](uint64_t seed) {
            cw::bake::RrtOptions o;
            o.seed = seed;
            o.iterations = 300;
            cw::bake::RrtPlanner out;
            REQUIRE_FALSE(cw::bake::buildRrt(layer, 0.5, o, &out));
            return out;
        };
        auto same = [](const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
            if (a.size() != b.size()) return false;
            for (size_t i = 0; i < a.size(); ++i)
                if (a[i].x != b[i].x || a[i].y != b[i].y) return false;
            return true;
        };
        const auto p1 = prm(7), p2 = prm(7), p3 = prm(8);
        CHECK(p1.nodes.size() == 300);
        CHECK(same(p1.nodes, p2.nodes));
        CHECK(p1.edge_to == p2.edge_to);
        CHECK_FALSE(same(p1.nodes, p3.nodes));
        const auto r1 = rrt(7), r2 = rrt(7), r3 = rrt(8);
        CHECK(r1.vertices.size() > 100);
        CHECK(same(r1.vertices, r2.vertices));
        CHECK(r1.parent == r2.parent);
        CHECK_FALSE(same(r1.vertices, r3.vertices));
        const Vec2 s{1, 1}, g{9, 9};
        CHECK(same(cw::bake::prmPath(p1, s, g).points, cw::bake::prmPath(p2, s, g).points));
        CHECK(same(cw::bake::rrtPath(r1, s, g).points, cw::bake::rrtPath(r2, s, g).points));
    }

    TEST_CASE("cw-compare on a sample level: every method, invariants of the table") {
        const std::string level = std::string(CLEARWAY_SAMPLES) + "/levels/cylinder_column.obj";
        cw::bake::CompareRequest request;
        request.input_path = level;
        request.pairs = 30;
        request.radius = 0.5;
        cw::bake::CompareResult result;
        REQUIRE_FALSE(cw::bake::compareMethods(request, &result, cw::bake::silentLog()));
        CHECK(result.pairs == 30);
        REQUIRE(result.methods.size() == 8);
        const char* names[] = {"medial", "visibility", "grid",      "quadtree",
                               "prm",    "rrt",        "potential", "medial-pc"};
        for (size_t m = 0; m < 8; ++m) {
            const cw::bake::MethodStats& s = result.methods[m];
            CAPTURE(s.name);
            CHECK(s.name == names[m]);
            CHECK(s.queries == 30);
            CHECK(s.success_rate >= 0);
            CHECK(s.success_rate <= 1);
            CHECK(s.bytes > 0);
            if (s.successes == 0) continue;
            CHECK(s.length_ratio_mean >= 1 - 1e-6); // nobody beats the exact shortest path
            CHECK(s.length_ratio_max >= s.length_ratio_mean);
            CHECK(s.min_clearance >= 0.5 - 3e-5);
            CHECK(s.mean_clearance >= s.min_clearance);
        }
        const cw::bake::MethodStats& medial = result.methods[0];
        const cw::bake::MethodStats& visibility = result.methods[1];
        CHECK(visibility.success_rate == 1);
        CHECK(visibility.length_ratio_max == doctest::Approx(1).epsilon(1e-12));
        CHECK(visibility.heading_discontinuities == 0);
        CHECK(medial.success_rate == 1);
        CHECK(medial.heading_discontinuities == 0);
        CHECK(medial.min_clearance >= 0.5 - 3e-5);
        // medial-pc: the same findPath at preferred clearance inf (the default), the medial-axis path:
        // more clearance than at the radius, never less than the radius.
        const cw::bake::MethodStats& medial_pc = result.methods[7];
        CHECK(result.preferred_clearance == INFINITY);
        CHECK(medial_pc.success_rate == 1);
        CHECK(medial_pc.heading_discontinuities == 0);
        CHECK(medial_pc.mean_clearance > medial.mean_clearance);
        CHECK(medial_pc.bytes == medial.bytes);
        // The same pairs and roadmaps with the same seed: identical lengths.
        cw::bake::CompareResult again;
        REQUIRE_FALSE(cw::bake::compareMethods(request, &again, cw::bake::silentLog()));
        for (size_t m = 0; m < 8; ++m) {
            CHECK(again.methods[m].length_ratio_mean == result.methods[m].length_ratio_mean);
            CHECK(again.methods[m].successes == result.methods[m].successes);
        }
    }

    TEST_CASE("cw-compare's mean clearance on common pairs leaves out the pairs one method fails") {
        // The U-trap room of the potential-field test with a corridor 2 m wide and 40 m long off its
        // right wall. Pair A runs down the corridor's centre line, far from both its ends: clearance
        // exactly 1 all the way for a straight path, and no path has more anywhere in the corridor.
        // Pair B starts in the U's cup: the potential field stops in its local minimum.
        const Ring outer{{0, 0}, {60, 0}, {60, 2}, {20, 2}, {20, 20}, {0, 20}};
        const Ring u{{8, 5}, {12, 5}, {12, 15}, {8, 15}, {8, 13}, {11, 13}, {11, 7}, {8, 7}};
        const cw::bake::Footprint fp = footprintOf(outer, {reversed(u)});
        cw::bake::CompareRequest request;
        request.radius = 0.5;
        request.queries = {{0, {35, 1}, {55, 1}}, {0, {9.5, 10}, {18, 10}}};
        cw::bake::CompareResult result;
        REQUIRE_FALSE(cw::bake::compareFootprint(fp, request, &result, cw::bake::silentLog()));
        REQUIRE(result.pairs == 2);
        REQUIRE(result.methods.size() == 8);
        const cw::bake::MethodStats& potential = result.methods[6];
        CHECK(potential.successes == 1);
        CHECK(potential.local_minima == 1);
        for (size_t m : {0, 1, 2, 3, 4, 5, 7}) {
            CAPTURE(result.methods[m].name);
            CHECK(result.methods[m].successes == 2);
        }
        CHECK(result.pairs_common == 1); // pair A only
        for (const cw::bake::MethodStats& s : result.methods) {
            CAPTURE(s.name);
            CHECK(s.mean_clearance_common <= 1 + 1e-9);
        }
        // Straight down the centre line: visibility graph, smoothed grid, findPath (the line is
        // clear) and the potential field (walls pushing equally from both sides).
        for (size_t m : {0, 1, 2, 6}) {
            CAPTURE(result.methods[m].name);
            CHECK(result.methods[m].mean_clearance_common == doctest::Approx(1).epsilon(1e-9));
        }
        // The field's own mean is pair A's alone; the visibility graph's own mean also averages in its
        // path out of the cup, measured here the same way.
        CHECK(potential.mean_clearance == doctest::Approx(1).epsilon(1e-9));
        cw::bake::VisibilityGraph graph;
        REQUIRE_FALSE(cw::bake::buildVisibilityGraph(fp.layers[0], 0.5, {}, &graph));
        const PlannedPath b = cw::bake::visibilityPath(graph, {9.5, 10}, {18, 10});
        REQUIRE(b.status == PlanStatus::Ok);
        const double b_clearance =
            cw::bake::measurePath(b.points, cw::bake::WallGrid(cw::bake::solidLayerWalls(fp, 0)))
                .mean_clearance;
        CHECK(b_clearance != doctest::Approx(1).epsilon(1e-3));
        CHECK(result.methods[1].mean_clearance == doctest::Approx((1 + b_clearance) / 2).epsilon(1e-12));
        const std::string table = cw::bake::compareTable(result);
        CHECK(table.find("on common pairs") != std::string::npos);
        const nlohmann::json j = nlohmann::json::parse(cw::bake::compareJson(result));
        CHECK(j.at("pairs_common") == 1);
        CHECK(j.at("methods").at(6).at("mean_clearance_common").get<double>() ==
              doctest::Approx(1).epsilon(1e-9));
        // A query on a layer the level lacks is an error naming it.
        request.queries = {{3, {35, 1}, {55, 1}}};
        const cw::bake::Error e = cw::bake::compareFootprint(fp, request, &result, cw::bake::silentLog());
        CHECK(e.code == cw::bake::ErrorCode::InvalidOption);
        CHECK(e.message.find("layer 3") != std::string::npos);
    }

    TEST_CASE("cw-compare --json names every method, and bad input is a clear error") {
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-compare";
        REQUIRE(cw::test::fileExists(tool));
        const std::string dir = cw::test::makeTempDir("cw-compare");
        const std::string level = std::string(CLEARWAY_SAMPLES) + "/levels/box_room.obj";
        std::string out;
        int code =
            cw::test::runTool(tool + " " + level + " --pairs 5 --json -q --svg " + dir + "/q.svg", &out);
        REQUIRE_MESSAGE(code == 0, out);
        // stdout and stderr arrive together: the JSON is the line that starts with '{'.
        const size_t brace = out.rfind("\n{") == std::string::npos ? 0 : out.rfind("\n{") + 1;
        const nlohmann::json j = nlohmann::json::parse(out.substr(brace), nullptr, false);
        REQUIRE_MESSAGE(!j.is_discarded(), out);
        REQUIRE(j.at("methods").size() == 8);
        CHECK(j.at("preferred_clearance") == "inf");
        CHECK(j.at("methods").at(7).at("name") == "medial-pc");
        for (size_t m : {4, 5}) { // prm, rrt: their budgets
            const auto& budget = j.at("methods").at(m).at("budget");
            CHECK(budget.at("count").get<uint32_t>() >= budget.at("floor").get<uint32_t>());
            CHECK(budget.at("capped") == false);
        }
        for (const auto& m : j.at("methods"))
            for (const char* key :
                 {"name", "build_seconds", "query_us_mean", "success_rate", "length_ratio_mean",
                  "length_ratio_max", "min_clearance", "mean_clearance", "mean_clearance_common",
                  "heading_discontinuities", "max_heading_jump_deg"})
                CHECK_MESSAGE(m.contains(key), key);
        const std::vector<uint8_t> svg = cw::test::readFile(dir + "/q.svg");
        const std::string text(svg.begin(), svg.end());
        CHECK(text.find("<svg") == 0);
        CHECK(text.find("id=\"medial\"") != std::string::npos);
        CHECK(text.find("id=\"visibility\"") != std::string::npos);

        code = cw::test::runTool(tool + " " + dir + "/missing.obj", &out);
        CHECK(code == 2);
        CHECK(out.find("missing.obj") != std::string::npos);
        code = cw::test::runTool(tool + " " + level + " --radius -1", &out);
        CHECK(code != 0);
    }
}
