// Online trim search (algorithm 1): strategies visit the counts the paper gives, budgets stop it,
// a Seek target is reached, decisions are deterministic, vehicle bounds are respected.
#include <clearway/motion.h>

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace clearway;
using namespace clearway::trims;

namespace trimtest {
Model model2d(uint32_t samples, double max_rate, double speed, uint32_t steps);
Model model3d(uint32_t yaw, uint32_t pitch, uint32_t roll);
std::vector<uint8_t> buildTable(const Model& m, bool symmetric);
} // namespace trimtest

namespace {

struct Fixture {
    std::vector<uint8_t> bytes;
    TableView table;
    std::vector<uint64_t> memory; // 8-byte aligned
    SearchWorkspace workspace;

    explicit Fixture(const Model& m, const SearchSettings& s) : bytes(trimtest::buildTable(m, true)) {
        REQUIRE(loadTable(bytes.data(), bytes.size(), &table) == Status::Ok);
        reset(s);
    }
    void reset(const SearchSettings& s) {
        const size_t size = searchWorkspaceSize(table, s);
        REQUIRE(size > 0);
        memory.assign((size + 7) / 8, 0);
        REQUIRE(initSearchWorkspace(table, s, memory.data(), size, &workspace) == Status::Ok);
    }
};

Model boat() {
    return trimtest::model2d(17, 0.8, 8.0, 20);
}

SearchSettings settingsFor(SearchStrategy strategy) {
    SearchSettings s = defaultSearchSettings();
    s.strategy = strategy;
    return s;
}

VehicleState start(const TableView& t) {
    return VehicleState{{0, 0, 0}, {0, 0, 0, 1}, 8.0f, straightControl(t.model)};
}

double yawOf(const Model& m, uint32_t control) {
    double r[3];
    controlRates(m, control, r);
    return r[kYaw];
}

float distance(Vec3f a, Vec3f b) {
    return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

// Flies decisions until within `radius` of the target; returns the decisions taken (or -1).
int flyTo(Fixture& f, Vec3f target, float radius, int max_decisions,
          std::vector<uint32_t>* controls = nullptr) {
    Seek seek{target};
    const Behaviour b = behaviour(&seek);
    VehicleState state = start(f.table);
    uint32_t plan[64];
    for (int k = 0; k < max_decisions; ++k) {
        if (distance(state.position, target) < radius) return k;
        SearchResult r;
        REQUIRE(search(&f.workspace, state, b, plan, 64, &r) == Status::Ok);
        if (controls) controls->push_back(r.first_control);
        REQUIRE(applyTrim(f.table, state, r.first_control, &state) == Status::Ok);
    }
    return distance(state.position, target) < radius ? max_decisions : -1;
}

} // namespace

TEST_SUITE("trims search") {
    TEST_CASE("workspace: size query, bad settings, short buffer") {
        Fixture f(boat(), defaultSearchSettings());
        SearchSettings s = defaultSearchSettings();
        std::vector<uint64_t> mem(1 << 16);
        SearchWorkspace w;
        const size_t need = searchWorkspaceSize(f.table, s);
        CHECK(need >= s.max_nodes * 40);
        CHECK(initSearchWorkspace(f.table, s, mem.data(), need - 1, &w) == Status::BufferTooSmall);
        CHECK(initSearchWorkspace(f.table, s, reinterpret_cast<uint8_t*>(mem.data()) + 4, need, &w) ==
              Status::InvalidArgument);
        auto bad = [&](auto edit) {
            SearchSettings b = defaultSearchSettings();
            edit(b);
            CHECK(searchWorkspaceSize(f.table, b) == 0);
            return initSearchWorkspace(f.table, b, mem.data(), mem.size() * 8, &w);
        };
        CHECK(bad([](SearchSettings& b) { b.discount = 1.0f; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.discount = 0.0f; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.optimism = 1.5f; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.max_depth = 0; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.max_depth = 65; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.min_leaf_depth = 17; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.collapse = 0.0f; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.skip = 0; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.damping = 1.0f; }) == Status::InvalidArgument);
        CHECK(bad([](SearchSettings& b) { b.time_budget_ms = -1.0f; }) == Status::InvalidArgument);
        // Too few nodes to expand even the current state (1 + 17).
        SearchSettings tiny = defaultSearchSettings();
        tiny.max_nodes = 17;
        CHECK(initSearchWorkspace(f.table, tiny, mem.data(), mem.size() * 8, &w) == Status::InvalidArgument);
        // Search arguments.
        Seek seek{{100, 0, 0}};
        SearchResult r;
        VehicleState bad_state = start(f.table);
        bad_state.control = 17;
        CHECK(search(&f.workspace, bad_state, behaviour(&seek), nullptr, 0, &r) == Status::InvalidArgument);
        bad_state = start(f.table);
        bad_state.position.x = NAN;
        CHECK(search(&f.workspace, bad_state, behaviour(&seek), nullptr, 0, &r) == Status::InvalidArgument);
        CHECK(search(&f.workspace, start(f.table), Behaviour{}, nullptr, 0, &r) == Status::InvalidArgument);
    }

    TEST_CASE("single-step expands only the current state and visits all its successors") {
        Fixture f(boat(), settingsFor(SearchStrategy::SingleStep));
        Seek seek{{0, 100, 0}}; // to the left
        SearchResult r;
        uint32_t plan[4];
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), plan, 4, &r) == Status::Ok);
        CHECK(r.expanded == 1);
        CHECK(r.visited == 18);
        CHECK(r.plan_length == 1);
        CHECK(plan[0] == r.first_control);
        CHECK(r.first_control == 16); // hardest left turn
        CHECK(r.stop == SearchStop::Exhausted);
    }

    TEST_CASE("uniform sampling visits every skip-th control, always the straight one") {
        SearchSettings s = settingsFor(SearchStrategy::Uniform);
        s.skip = 2;
        s.max_expansions = 1;
        Fixture f(boat(), s);
        Seek seek{{100, 0, 0}};
        SearchResult r;
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), nullptr, 0, &r) == Status::Ok);
        CHECK(r.expanded == 1);
        CHECK(r.visited == 1 + 9); // controls 0, 2, ..., 16 (the straight one is 8)
        CHECK(r.stop == SearchStop::ExpansionBudget);
        s.skip = 3;
        f.reset(s);
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), nullptr, 0, &r) == Status::Ok);
        CHECK(r.visited == 1 + 5); // 2, 5, 8, 11, 14: in phase with the straight control 8
    }

    TEST_CASE("adaptive sampling visits N_v c^d successors at depth d") {
        SearchSettings s = settingsFor(SearchStrategy::Adaptive);
        s.collapse = 0.5f;
        s.max_expansions = 2;
        Fixture f(boat(), s);
        Seek seek{{100, 0, 0}};
        SearchResult r;
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), nullptr, 0, &r) == Status::Ok);
        CHECK(r.visited == 1 + 17 + 9); // depth 0: 17; depth 1: round(17 * 0.5) = 9 (8.5 rounds up)
        s.max_expansions = 4;
        f.reset(s);
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), nullptr, 0, &r) == Status::Ok);
        CHECK(r.visited >= 1 + 17 + 9 + 4);
        CHECK(r.visited <= 1 + 17 + 9 + 9 + 9);
    }

    TEST_CASE("seek straight ahead flies straight, left and right targets turn towards them, mirrored") {
        for (auto strategy :
             {SearchStrategy::SingleStep, SearchStrategy::Uniform, SearchStrategy::Adaptive}) {
            SearchSettings s = settingsFor(strategy);
            s.skip = strategy == SearchStrategy::Uniform ? 4 : 1;
            Fixture f(boat(), s);
            SearchResult ahead, left, right;
            Seek a{{200, 0, 0}}, l{{20, 60, 0}}, r{{20, -60, 0}};
            REQUIRE(search(&f.workspace, start(f.table), behaviour(&a), nullptr, 0, &ahead) == Status::Ok);
            REQUIRE(search(&f.workspace, start(f.table), behaviour(&l), nullptr, 0, &left) == Status::Ok);
            REQUIRE(search(&f.workspace, start(f.table), behaviour(&r), nullptr, 0, &right) == Status::Ok);
            CHECK(ahead.first_control == straightControl(f.table.model));
            CHECK(yawOf(f.table.model, left.first_control) > 0.0);
            CHECK(yawOf(f.table.model, right.first_control) < 0.0);
            if (strategy != SearchStrategy::Adaptive) // the permutation is not mirror symmetric
                CHECK(right.first_control == mirrorControl(f.table.model, left.first_control));
            CHECK(ahead.first_goodness == doctest::Approx(1.0));
            CHECK(ahead.plan_length >= (strategy == SearchStrategy::SingleStep ? 1u : s.min_leaf_depth));
        }
    }

    TEST_CASE("closed loop: every strategy reaches a Seek target behind the vehicle") {
        for (auto strategy :
             {SearchStrategy::SingleStep, SearchStrategy::Uniform, SearchStrategy::Adaptive}) {
            SearchSettings s = settingsFor(strategy);
            s.skip = strategy == SearchStrategy::Uniform ? 2 : 1;
            Fixture f(boat(), s);
            const int decisions = flyTo(f, {-60, 90, 0}, 8.0f, 60);
            MESSAGE("strategy ", int(strategy), ": reached the target in ", decisions, " decisions");
            CHECK(decisions > 0);
            CHECK(decisions < 30); // ~110 m at 8 m/s plus a half turn of radius 10 m
        }
        // 3D spacecraft: a target above and behind.
        Fixture f3(trimtest::model3d(5, 5, 1), defaultSearchSettings());
        Seek seek{{-100, 40, 150}};
        VehicleState state{{0, 0, 0}, {0, 0, 0, 1}, 20.0f, straightControl(f3.table.model)};
        int k = 0;
        for (; k < 60 && distance(state.position, seek.target) > 20.0f; ++k) {
            SearchResult r;
            REQUIRE(search(&f3.workspace, state, behaviour(&seek), nullptr, 0, &r) == Status::Ok);
            REQUIRE(applyTrim(f3.table, state, r.first_control, &state) == Status::Ok);
        }
        MESSAGE("3D: reached the target in ", k, " decisions");
        CHECK(k < 60);
    }

    TEST_CASE("same seed, same decisions, the plan starts with the first control") {
        SearchSettings s = settingsFor(SearchStrategy::Adaptive);
        s.seed = 77;
        std::vector<uint32_t> a, b;
        Fixture f1(boat(), s), f2(boat(), s);
        flyTo(f1, {-60, 90, 0}, 8.0f, 40, &a);
        flyTo(f2, {-60, 90, 0}, 8.0f, 40, &b);
        CHECK(a == b);
        CHECK(!a.empty());
        // Re-running one search in the same workspace gives the same plan.
        Seek seek{{30, -70, 0}};
        uint32_t p1[32], p2[32];
        SearchResult r1, r2;
        REQUIRE(search(&f1.workspace, start(f1.table), behaviour(&seek), p1, 32, &r1) == Status::Ok);
        REQUIRE(search(&f1.workspace, start(f1.table), behaviour(&seek), p2, 32, &r2) == Status::Ok);
        CHECK(r1.plan_length == r2.plan_length);
        CHECK(std::memcmp(p1, p2, sizeof(uint32_t) * r1.plan_length) == 0);
        CHECK(p1[0] == r1.first_control);
        CHECK(r1.plan_length >= s.min_leaf_depth);
        CHECK(r1.plan_length <= s.max_depth);
    }

    TEST_CASE("budgets: nodes, expansions and time stop the search with a usable answer") {
        SearchSettings s = settingsFor(SearchStrategy::Uniform);
        s.max_nodes = 200;
        Fixture f(boat(), s);
        Seek seek{{100, 50, 0}};
        SearchResult r;
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), nullptr, 0, &r) == Status::Ok);
        CHECK(r.stop == SearchStop::NodeBudget);
        CHECK(r.visited <= 200);
        CHECK(yawOf(f.table.model, r.first_control) >= 0.0);

        s.max_nodes = 100000;
        s.time_budget_ms = 0.05f;
        f.reset(s);
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), nullptr, 0, &r) == Status::Ok);
        CHECK(r.stop == SearchStop::TimeBudget);
        CHECK(r.expanded >= 1);

        // The minimum leaf depth is unreachable with one expansion: the deepest state is chosen.
        s = settingsFor(SearchStrategy::Adaptive);
        s.max_expansions = 1;
        f.reset(s);
        uint32_t plan[1];
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), plan, 1, &r) == Status::Ok);
        CHECK(r.plan_length == 1);
        CHECK(plan[0] == r.first_control);
        // A plan buffer shorter than the plan: BufferTooSmall, result still filled.
        s.max_expansions = 0;
        f.reset(s);
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), plan, 1, &r) ==
                Status::BufferTooSmall);
        CHECK(plan[0] == r.first_control);
        CHECK(r.plan_length > 1);
    }

    TEST_CASE("vehicle bounds below the table's: controls beyond them are never chosen") {
        SearchSettings s = settingsFor(SearchStrategy::Adaptive);
        s.max_rate[kYaw] = 0.4f; // the table goes to 0.8 rad/s
        Fixture f(boat(), s);
        CHECK(f.workspace.allowed_count == 9);
        Seek seek{{0, 40, 0}};
        uint32_t plan[32];
        SearchResult r;
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), plan, 32, &r) == Status::Ok);
        for (uint32_t i = 0; i < r.plan_length; ++i)
            CHECK(std::fabs(yawOf(f.table.model, plan[i])) <= 0.4 + 1e-9);
        CHECK(yawOf(f.table.model, r.first_control) > 0.0);
    }

    TEST_CASE("damping prefers the straighter of two equally good controls") {
        // Constant goodness: without damping every plan ties; with it the straight path wins.
        struct Flat {
            static float eval(const void*, const Segment&) { return 0.5f; }
        };
        SearchSettings s = settingsFor(SearchStrategy::SingleStep);
        s.damping = 0.1f;
        Fixture f(boat(), s);
        VehicleState st = start(f.table);
        st.control = 0; // turning hard right now
        SearchResult r;
        REQUIRE(search(&f.workspace, st, Behaviour{&Flat::eval, nullptr}, nullptr, 0, &r) == Status::Ok);
        CHECK(r.first_control == straightControl(f.table.model));
        CHECK(r.first_goodness == doctest::Approx(0.5f));
    }

    TEST_CASE("damping biases the choice but first_goodness is the behaviour's own goodness") {
        // Target 90 degrees left: the best first segment turns, so damping scales its value down.
        Seek seek{{0, 60, 0}};
        for (float damping : {0.0f, 0.3f}) {
            SearchSettings s = settingsFor(SearchStrategy::SingleStep);
            s.damping = damping;
            Fixture f(boat(), s);
            SearchResult r;
            REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), nullptr, 0, &r) == Status::Ok);
            CHECK(yawOf(f.table.model, r.first_control) > 0.0);
            // Rebuild the chosen segment and score it with Seek alone.
            VehicleState next;
            REQUIRE(applyTrim(f.table, start(f.table), r.first_control, &next) == Status::Ok);
            Segment seg{};
            seg.time = 0.0f;
            seg.duration = 1.0f;
            seg.p0 = {0, 0, 0};
            seg.p1 = next.position;
            seg.d0 = {8, 0, 0};
            const Vec3f d1 = facingOf(next.orientation);
            seg.d1 = {d1.x * 8.0f, d1.y * 8.0f, d1.z * 8.0f};
            seg.q0 = {0, 0, 0, 1};
            seg.q1 = next.orientation;
            const float g = seekGoodness(seek, seg);
            CHECK(g < 1.0f);
            CHECK(r.first_goodness == doctest::Approx(g).epsilon(1e-6));
            // v = g * d^0 for the single step, damped by 1 - damping * |yaw| / max yaw.
            const double share = std::fabs(yawOf(f.table.model, r.first_control)) / 0.8;
            CHECK(r.value == doctest::Approx(g * (1.0 - damping * share)).epsilon(1e-5));
        }
    }

    TEST_CASE(
        "warm start: the previous plan is re-scored to its end first, so sparse sampling cannot lose it") {
        SearchSettings s = settingsFor(SearchStrategy::Adaptive);
        s.max_depth = 12;
        Fixture f(boat(), s);
        Seek seek{{40, 120, 0}};
        uint32_t plan[16];
        SearchResult r;
        REQUIRE(search(&f.workspace, start(f.table), behaviour(&seek), plan, 16, &r) == Status::Ok);
        REQUIRE(r.plan_length >= 6);
        VehicleState next;
        REQUIRE(applyTrim(f.table, start(f.table), r.first_control, &next) == Status::Ok);
        const uint32_t rest = r.plan_length - 1;
        // Just enough expansions to walk the old plan: with it the tree reaches its depth, without
        // it best-first spends them near the root (f = 1: every child ranks below its parent).
        s.max_expansions = rest;
        s.optimism = 1.0f;
        f.reset(s);
        SearchResult warm, cold;
        REQUIRE(search(&f.workspace, next, behaviour(&seek), nullptr, 0, &warm, plan + 1, rest) ==
                Status::Ok);
        REQUIRE(search(&f.workspace, next, behaviour(&seek), nullptr, 0, &cold) == Status::Ok);
        CHECK(warm.deepest >= rest);
        CHECK(cold.deepest < rest);
        CHECK(warm.plan_length >= s.min_leaf_depth);
        // Controls out of range end the warm path instead of being used.
        const uint32_t junk[3] = {plan[1], 999, plan[3]};
        REQUIRE(search(&f.workspace, next, behaviour(&seek), nullptr, 0, &warm, junk, 3) == Status::Ok);
        CHECK(warm.deepest < rest);
    }

    TEST_CASE("prune_zero: a segment scoring 0 ends its path, so no plan passes through one") {
        // A wall along y = 0: any segment ending below it scores 0.
        struct Wall {
            static float eval(const void* target, const Segment& seg) {
                if (seg.p1.y < 0.0f) return 0.0f;
                return seekGoodness(*static_cast<const Seek*>(target), seg);
            }
        };
        Seek seek{{150, -10, 0}}; // just behind the wall
        SearchSettings s = settingsFor(SearchStrategy::Adaptive);
        s.prune_zero = true;
        Fixture f(boat(), s);
        uint32_t plan[32];
        SearchResult r;
        REQUIRE(search(&f.workspace, start(f.table), Behaviour{&Wall::eval, &seek}, plan, 32, &r) ==
                Status::Ok);
        VehicleState st = start(f.table);
        for (uint32_t i = 0; i < r.plan_length; ++i) {
            REQUIRE(applyTrim(f.table, st, plan[i], &st) == Status::Ok);
            CHECK(st.position.y >= 0.0f);
        }
        CHECK(r.plan_length >= s.min_leaf_depth);
    }
}
