// cw-bench-trims: the scenarios of Go, Vu and Kuffner, "Autonomous behaviors for interactive
// vehicle animations" (2004, section 4), flown with clearway's trim search. What its sources share.
#pragma once

#include <clearway/motion.h>
#include <clearway/tool_cli.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace clearway::trims_bench {

using namespace clearway::trims;

// ---- small vector helpers ----
inline Vec3f add(Vec3f a, Vec3f b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3f sub(Vec3f a, Vec3f b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3f mul(Vec3f a, float s) {
    return {a.x * s, a.y * s, a.z * s};
}
inline float norm(Vec3f a) {
    return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
}

// A vehicle's trim table, baked in memory from its model spec (scenarios.cpp).
struct Table {
    std::vector<uint8_t> bytes;
    TableView view;
    std::string name;
};
bake::Error loadVehicle(const std::string& path, Table* out);

// ---- scenarios ----
enum class Goal { Seek, Pursue };

struct Ship {
    std::string role; // "S", "P", "A", "B" as in the paper's table
    VehicleState state;
    Goal goal = Goal::Seek;
    Vec3f target{};
    int prey = -1; // ship index for Pursue
    bool active = true;
    double goodness_sum = 0;
    int decisions = 0;
    int collisions = 0;
    std::vector<uint32_t> plan; // the last plan, for warm starts
    uint32_t plan_length = 0;
    std::vector<Vec3f> trail;
};

struct World {
    std::vector<Sphere> asteroids; // centres at the current time
    std::vector<Ship> ships;
    bool arrive_ends = false; // seek: the run ends when the seekers arrive
    float arrive_radius = 15;
};

struct Scenario {
    const char* name;
    bool spatial;
    int decisions;
    World (*make)(std::mt19937& rng, const TableView& table);
};
extern const Scenario kScenarios[5]; // scenarios.cpp

struct StrategyConfig {
    const char* name;
    SearchSettings settings;
    bool warm; // pass the rest of the last plan (warm start)
};

// Overrides from the command line (negative / zero: keep the strategy's own value).
struct Overrides {
    int nodes = 0, depth = 0, min_leaf = -1, skip = 0;
    float optimism = -2, discount = -1, collapse = -1, damping = -1;
    bool prune = false;
};
std::vector<StrategyConfig> strategies(bool spatial, uint32_t seed, const Overrides& o);

struct Stats {
    std::vector<double> decision_ms;
    double expansions = 0, visited = 0;
    int node_budget_stops = 0; // decisions the visited-state cap stopped (SearchStop::NodeBudget)
    uint64_t allocations = 0;
    // goodness per role: sum of per-run means, and run count
    std::vector<std::pair<std::string, std::pair<double, int>>> goodness;
    int collisions = 0, arrivals = 0, runs = 0;
    // --profile: per role and decision step, sums of goodness, distance to the goal (target or
    // prey), the facing's angle off the true direction to it and the net angle the facing turned
    // over the flown interval (degrees; a loop wraps), and their count.
    struct Step {
        double goodness = 0, distance = 0, off_angle = 0, turn = 0;
        int count = 0;
    };
    std::vector<std::pair<std::string, std::vector<Step>>> profile;
    Step& step(const std::string& role, int at) {
        auto it =
            std::find_if(profile.begin(), profile.end(), [&](const auto& p) { return p.first == role; });
        if (it == profile.end()) it = profile.insert(profile.end(), {role, {}});
        if (int(it->second.size()) <= at) it->second.resize(size_t(at) + 1);
        return it->second[size_t(at)];
    }
    void addGoodness(const std::string& role, double g) {
        for (auto& r : goodness)
            if (r.first == role) {
                r.second.first += g;
                r.second.second += 1;
                return;
            }
        goodness.push_back({role, {g, 1}});
    }
};

// Heap allocations so far in this process (allocation_count.cpp): decisions should make none.
uint64_t allocationCount();

// Flies one run; returns the final world (for plots). (fly.cpp)
World fly(const Scenario& sc, const TableView& table, SearchWorkspace* ws, bool warm, uint32_t run_seed,
          Stats* stats);
// The run seen from above (ground-plane projection), as SVG.
std::string svgOf(const World& w, const char* title);

struct TrimsBenchOptions {
    int runs = 60;
    uint32_t seed = 1;
    std::string only_scenario = "all", only_strategy = "all", svg_dir;
    int profile_every = 0;
    std::string vehicle2d, vehicle3d;
    Overrides overrides;
    // --fig7: the paper's Fig. 7 (time per decision, 2D and 3D seek, one ship) with caps that never
    // bind: every search runs until its tree is exhausted (V = E) at these depths, the cap only a
    // safety bound (reported when it binds). Depths: the deepest whose uniform tree fits the cap.
    bool fig7 = false;
    int fig7_depth_2d = 6, fig7_depth_3d = 4;
    int fig7_cap = 1 << 20;
};
// Every (scenario, strategy) row: flies the runs, prints the table or the JSON (report.cpp).
int runTrimsBench(const TrimsBenchOptions& options, const cli::CommonFlags& flags, cli::SpdlogContext& log);

} // namespace clearway::trims_bench
