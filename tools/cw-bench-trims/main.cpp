// cw-bench-trims: the paper's scenarios (seed 001, section 4) flown with clearway's trim search.
// For each scenario and strategy: mean goodness of the selected segments, time per decision
// (median, p95), node expansions per decision, heap allocations during decisions.
#include <clearway/bake_cli.h>
#include <clearway/motion.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// Counts every heap allocation so the report can show that decisions make none.
namespace {
std::atomic<uint64_t> g_allocations{0};
}
void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}

namespace {

using namespace clearway;
using namespace clearway::trims;

#ifndef CLEARWAY_SAMPLES_DIR
#define CLEARWAY_SAMPLES_DIR "samples"
#endif

// ---- small vector helpers ----
Vec3f add(Vec3f a, Vec3f b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3f sub(Vec3f a, Vec3f b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3f mul(Vec3f a, float s) {
    return {a.x * s, a.y * s, a.z * s};
}
float norm(Vec3f a) {
    return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
}

struct Table {
    std::vector<uint8_t> bytes;
    TableView view;
    std::string name;
};

bake::Error loadVehicle(const std::string& path, Table* out) {
    bake::VehicleModel model;
    if (bake::Error e = bake::loadVehicleModel(path, &model, nullptr)) return e;
    bake::TrimTable table;
    if (bake::Error e = bake::bakeTrims(model, &table, bake::silentLog())) return e;
    out->bytes = bake::serializeTrims(table);
    out->name = model.name;
    if (loadTable(out->bytes.data(), out->bytes.size(), &out->view) != Status::Ok)
        return {bake::ErrorCode::Internal, path + ": baked table does not load"};
    return {};
}

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

float uniform(std::mt19937& rng, float lo, float hi) {
    return lo + (hi - lo) * float(rng() >> 8) / float(1u << 24);
}

// Asteroids in a box, none within `clear` of the given points.
void scatter(World& w, std::mt19937& rng, int count, Vec3f lo, Vec3f hi, float rmin, float rmax, float vmax,
             const std::vector<Vec3f>& keep_clear, float clear) {
    while (int(w.asteroids.size()) < count) {
        Sphere s{{uniform(rng, lo.x, hi.x), uniform(rng, lo.y, hi.y), uniform(rng, lo.z, hi.z)},
                 uniform(rng, rmin, rmax),
                 {0, 0, 0}};
        if (vmax > 0) {
            s.velocity = {uniform(rng, -vmax, vmax), uniform(rng, -vmax, vmax),
                          lo.z == hi.z ? 0.0f : uniform(rng, -vmax, vmax)};
        }
        bool ok = true;
        for (const Vec3f& p : keep_clear)
            ok = ok && norm(sub(s.center, p)) > s.radius + clear;
        if (ok) w.asteroids.push_back(s);
    }
}

Ship ship(const TableView& t, const std::string& role, Vec3f at, float yaw, float speed) {
    Ship s;
    s.role = role;
    s.state = {at, {0, 0, std::sin(yaw / 2), std::cos(yaw / 2)}, speed, straightControl(t.model)};
    return s;
}

World seek2d(std::mt19937& rng, const TableView& t) {
    World w;
    w.arrive_ends = true;
    const Vec3f start{0, uniform(rng, -40, 40), 0}, goal{420, 0, 0};
    w.ships.push_back(ship(t, "S", start, 0, 8));
    w.ships[0].target = goal;
    scatter(w, rng, 70, {60, -110, 0}, {360, 110, 0}, 3, 9, 0, {start, goal}, 25);
    return w;
}

World seek3d(std::mt19937& rng, const TableView& t) {
    World w;
    w.arrive_ends = true;
    w.arrive_radius = 30;
    const Vec3f start{0, uniform(rng, -50, 50), uniform(rng, -50, 50)}, goal{900, 0, 0};
    w.ships.push_back(ship(t, "S", start, 0, 20));
    w.ships[0].target = goal;
    scatter(w, rng, 160, {120, -150, -150}, {780, 150, 150}, 6, 16, 0, {start, goal}, 40);
    return w;
}

World pursuit2d(std::mt19937& rng, const TableView& t) {
    World w;
    const Vec3f start{0, 0, 0}, goal{600, 0, 0};
    w.ships.push_back(ship(t, "S", start, 0, 8));
    w.ships[0].target = goal;
    std::vector<Vec3f> clear = {start, goal};
    for (int i = 0; i < 5; ++i) {
        const Vec3f at{uniform(rng, -80, -40), uniform(rng, -60, 60), 0};
        w.ships.push_back(ship(t, "P", at, uniform(rng, -0.5f, 0.5f), 9));
        w.ships.back().goal = Goal::Pursue;
        w.ships.back().prey = 0;
        clear.push_back(at);
    }
    // Further apart than the seek field, drifting at up to 2 m/s.
    scatter(w, rng, 45, {60, -150, 0}, {560, 150, 0}, 3, 8, 2.0f, clear, 25);
    return w;
}

World pursuit3d(std::mt19937& rng, const TableView& t) {
    World w;
    const Vec3f start{0, 0, 0}, goal{900, 0, 0}, chaser{-120, uniform(rng, -40, 40), uniform(rng, -40, 40)};
    w.ships.push_back(ship(t, "S", start, 0, 20));
    w.ships[0].target = goal;
    w.ships.push_back(ship(t, "P", chaser, 0, 22));
    w.ships[1].goal = Goal::Pursue;
    w.ships[1].prey = 0;
    // Five times the 3D seek density, as in the paper (540 in 700 x 240 x 240 m vs 160 in 660 x 300 x 300 m).
    scatter(w, rng, 540, {100, -120, -120}, {800, 120, 120}, 6, 14, 0, {start, goal, chaser}, 40);
    return w;
}

World meet3d(std::mt19937& rng, const TableView& t) {
    World w;
    const Vec3f a{0, uniform(rng, -60, 60), uniform(rng, -60, 60)},
        b{700, uniform(rng, -60, 60), uniform(rng, -60, 60)};
    w.ships.push_back(ship(t, "A", a, 0, 20));
    w.ships.push_back(ship(t, "B", b, 3.14159265f, 20));
    w.ships[0].goal = w.ships[1].goal = Goal::Pursue;
    w.ships[0].prey = 1;
    w.ships[1].prey = 0;
    scatter(w, rng, 160, {100, -150, -150}, {600, 150, 150}, 6, 16, 0, {a, b}, 40);
    return w;
}

const Scenario kScenarios[] = {
    {"2d-seek", false, 90, seek2d},      {"3d-seek", true, 90, seek3d}, {"2d-pursuit", false, 60, pursuit2d},
    {"3d-pursuit", true, 50, pursuit3d}, {"3d-meet", true, 50, meet3d},
};

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

std::vector<StrategyConfig> strategies(bool spatial, uint32_t seed, const Overrides& o) {
    SearchSettings single = defaultSearchSettings();
    single.strategy = SearchStrategy::SingleStep;
    SearchSettings uniform_s = defaultSearchSettings();
    uniform_s.strategy = SearchStrategy::Uniform;
    uniform_s.skip = spatial ? 4 : 2;
    uniform_s.max_nodes = 16384;
    SearchSettings adaptive = defaultSearchSettings();
    adaptive.strategy = SearchStrategy::Adaptive;
    adaptive.skip = spatial ? 2 : 1;
    adaptive.collapse = 0.5f;
    adaptive.max_nodes = spatial ? 1024 : 512;
    for (SearchSettings* s : {&single, &uniform_s, &adaptive}) {
        s->seed = seed;

        if (o.nodes > 0 && s != &single) s->max_nodes = uint32_t(o.nodes);
        if (o.skip > 0 && s != &single) s->skip = uint32_t(o.skip);
        if (o.depth > 0) s->max_depth = uint32_t(o.depth);
        if (o.min_leaf >= 0) s->min_leaf_depth = uint32_t(o.min_leaf);
        if (o.optimism >= -1) s->optimism = o.optimism;
        if (o.discount > 0) s->discount = o.discount;
        if (o.collapse > 0) s->collapse = o.collapse;
        if (o.damping >= 0) s->damping = o.damping;
        if (o.prune) s->prune_zero = true;
    }
    // clearway's additions on top of the paper's adaptive search: warm start and dead-end pruning.
    SearchSettings plus = adaptive;
    plus.prune_zero = true;
    return {{"single", single, false},
            {"uniform", uniform_s, false},
            {"adaptive", adaptive, false},
            {"adaptive+", plus, true}};
}

struct Stats {
    std::vector<double> decision_ms;
    double expansions = 0, visited = 0;
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

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5));
    return v[i];
}

std::string svgOf(const World& w, const char* title) {
    // Ground-plane (x, y) projection; 3D fields are drawn from above.
    float lo_x = 1e30f, lo_y = 1e30f, hi_x = -1e30f, hi_y = -1e30f;
    auto grow = [&](Vec3f p, float r) {
        lo_x = std::min(lo_x, p.x - r), hi_x = std::max(hi_x, p.x + r);
        lo_y = std::min(lo_y, p.y - r), hi_y = std::max(hi_y, p.y + r);
    };
    for (const Sphere& s : w.asteroids)
        grow(s.center, s.radius);
    for (const Ship& s : w.ships)
        for (const Vec3f& p : s.trail)
            grow(p, 5);
    std::ostringstream o;
    const float pad = 10;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"" << lo_x - pad << " " << -(hi_y + pad) << " "
      << (hi_x - lo_x + 2 * pad) << " " << (hi_y - lo_y + 2 * pad) << "\" width=\"1200\">\n<title>" << title
      << "</title>\n";
    for (const Sphere& s : w.asteroids)
        o << "<circle cx=\"" << s.center.x << "\" cy=\"" << -s.center.y << "\" r=\"" << s.radius
          << "\" fill=\"#bbb\"/>\n";
    const char* colours[] = {"#1f5fbf", "#c0392b", "#d35400", "#8e44ad", "#16a085", "#7f8c8d"};
    for (size_t i = 0; i < w.ships.size(); ++i) {
        o << "<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"" << colours[i % 6] << "\" points=\"";
        for (const Vec3f& p : w.ships[i].trail)
            o << p.x << "," << -p.y << " ";
        o << "\"/>\n";
    }
    o << "</svg>\n";
    return o.str();
}

// Flies one run; returns the final world (for plots).
World fly(const Scenario& sc, const TableView& table, SearchWorkspace* ws, bool warm, uint32_t run_seed,
          Stats* stats) {
    std::mt19937 rng(run_seed);
    World w = sc.make(rng, table);
    const float interval = float(table.model.interval);
    const float ship_radius = 2.0f;
    SphereHashSettings hs = defaultSphereHashSettings();
    hs.planar = !sc.spatial;
    hs.min_cell = sc.spatial ? 8.0f : 4.0f;
    hs.horizon = float(ws->settings.max_depth + 1) * interval;
    std::vector<uint64_t> hash_memory;
    std::vector<uint32_t> plan(ws->settings.max_depth + 1);
    for (Ship& s : w.ships) {
        s.trail.push_back(s.state.position);
        s.plan.assign(ws->settings.max_depth + 1, 0);
    }

    for (int step = 0; step < sc.decisions; ++step) {
        SphereHash hash;
        const size_t bytes = sphereHashMemorySize(w.asteroids.data(), uint32_t(w.asteroids.size()), hs);
        if (hash_memory.size() * 8 < bytes) hash_memory.resize(bytes / 8 + 1);
        buildSphereHash(w.asteroids.data(), uint32_t(w.asteroids.size()), hs, hash_memory.data(), bytes,
                        &hash);

        std::vector<uint32_t> controls(w.ships.size());
        for (size_t i = 0; i < w.ships.size(); ++i) {
            Ship& s = w.ships[i];
            if (!s.active) continue;
            const float speed = s.state.speed;
            AvoidCollision avoid{&hash, ship_radius,
                                 table.max_chord_deviation * float(speed / table.model.speed)};
            Seek seek{s.target};
            Pursue pursue{};
            if (s.goal == Goal::Pursue) {
                const Ship& prey = w.ships[size_t(s.prey)];
                pursue = {prey.state.position, mul(facingOf(prey.state.orientation), prey.state.speed)};
            }
            const Behaviour parts[2] = {s.goal == Goal::Seek ? behaviour(&seek) : behaviour(&pursue),
                                        behaviour(&avoid)};
            Composite composite{parts, 2};
            SearchResult r{};
            const uint64_t before = g_allocations.load(std::memory_order_relaxed);
            const auto t0 = std::chrono::steady_clock::now();
            const uint32_t* warm_plan = warm && s.plan_length > 1 ? s.plan.data() + 1 : nullptr;
            search(ws, s.state, behaviour(&composite), plan.data(), uint32_t(plan.size()), &r, warm_plan,
                   warm_plan ? s.plan_length - 1 : 0);
            const auto t1 = std::chrono::steady_clock::now();
            stats->allocations += g_allocations.load(std::memory_order_relaxed) - before;
            stats->decision_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            stats->expansions += r.expanded;
            stats->visited += r.visited;
            s.goodness_sum += r.first_goodness;
            ++s.decisions;
            {
                const Vec3f goal = s.goal == Goal::Pursue ? w.ships[size_t(s.prey)].state.position : s.target;
                const Vec3f to = sub(goal, s.state.position);
                const float distance = norm(to);
                const Vec3f facing = facingOf(s.state.orientation);
                const float c =
                    distance > 0 ? (facing.x * to.x + facing.y * to.y + facing.z * to.z) / distance : 1;
                Stats::Step& p = stats->step(s.role, step);
                p.goodness += r.first_goodness;
                p.distance += distance;
                p.off_angle += std::acos(std::max(-1.0f, std::min(1.0f, c))) * 57.29578f;
                ++p.count;
            }
            controls[i] = r.first_control;
            std::copy(plan.begin(), plan.begin() + r.plan_length, s.plan.begin());
            s.plan_length = r.plan_length;
        }
        // Everyone moves at once; collisions are judged on the flown chord against moving asteroids.
        for (size_t i = 0; i < w.ships.size(); ++i) {
            Ship& s = w.ships[i];
            if (!s.active) continue;
            VehicleState next;
            applyTrim(table, s.state, controls[i], &next);
            {
                const Vec3f f0 = facingOf(s.state.orientation), f1 = facingOf(next.orientation);
                const float c = f0.x * f1.x + f0.y * f1.y + f0.z * f1.z;
                stats->step(s.role, step).turn += std::acos(std::max(-1.0f, std::min(1.0f, c))) * 57.29578f;
            }
            if (sphereHashHitsSegment(hash, s.state.position, next.position, 0, interval, ship_radius))
                ++s.collisions;
            s.state = next;
            s.trail.push_back(next.position);
            if (w.arrive_ends && s.goal == Goal::Seek &&
                norm(sub(next.position, s.target)) < w.arrive_radius) {
                s.active = false;
                ++stats->arrivals;
            }
        }
        for (Sphere& a : w.asteroids)
            a.center = add(a.center, mul(a.velocity, interval));
        bool any = false;
        for (const Ship& s : w.ships)
            any = any || s.active;
        if (!any) break;
    }
    for (const Ship& s : w.ships) {
        if (s.decisions) stats->addGoodness(s.role, s.goodness_sum / s.decisions);
        stats->collisions += s.collisions;
    }
    ++stats->runs;
    return w;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "Fly seed 001's scenarios (2D/3D seek through asteroids, 2D dynamic pursuit, 3D pursuit, 3D meet)\n"
        "with single-step, uniform and adaptive trim search, and report quality and time per decision.\n"
        "Exit codes: 0 ok, 2 bad input, 3 failure, 4 I/O error."};
    int runs = 60;
    uint32_t seed = 1;
    std::string only_scenario = "all", only_strategy = "all", svg_dir;
    int profile_every = 0;
    std::string vehicle2d = std::string(CLEARWAY_SAMPLES_DIR) + "/vehicles/boat.json";
    std::string vehicle3d = std::string(CLEARWAY_SAMPLES_DIR) + "/vehicles/spacecraft.json";
    cli::CommonFlags flags;
    app.add_option("--runs", runs, "Randomised runs per scenario and strategy")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    app.add_option("--seed", seed, "Seed of the scenario layouts and of the adaptive permutation")
        ->capture_default_str();
    app.add_option("--scenario", only_scenario, "all, 2d-seek, 3d-seek, 2d-pursuit, 3d-pursuit or 3d-meet")
        ->capture_default_str()
        ->check(CLI::IsMember({"all", "2d-seek", "3d-seek", "2d-pursuit", "3d-pursuit", "3d-meet"}));
    app.add_option(
           "--strategy", only_strategy,
           "all, single, uniform, adaptive (the paper's three) or adaptive+ (adaptive with warm start and "
           "dead-end pruning)")
        ->capture_default_str()
        ->check(CLI::IsMember({"all", "single", "uniform", "adaptive", "adaptive+"}));
    app.add_option("--vehicle-2d", vehicle2d, "Model spec of the 2D vehicle (17 controls in the paper)")
        ->capture_default_str();
    app.add_option("--vehicle-3d", vehicle3d, "Model spec of the 3D vehicle (121 controls in the paper)")
        ->capture_default_str();
    Overrides o;
    app.add_option("--nodes", o.nodes,
                   "Visited-state budget of uniform and adaptive [default: 16384 uniform; adaptive 512 in "
                   "2D, 1024 in 3D]");
    app.add_option("--skip", o.skip,
                   "Skip factor of uniform and adaptive [default: uniform 2 in 2D, 4 in 3D; adaptive 1 / 2]");
    app.add_option("--depth", o.depth, "Search depth limit in intervals [default: 16]");
    app.add_option("--min-leaf", o.min_leaf, "Minimum depth of the chosen state [default: 4]");
    app.add_option("--optimism", o.optimism, "Optimism factor f in [-1, 1] [default: 0.9]");
    app.add_option("--discount", o.discount, "Discount d in (0, 1) [default: 0.9]");
    app.add_option("--collapse", o.collapse, "Adaptive collapse factor c in (0, 1] [default: 0.5]");
    app.add_option("--damping", o.damping, "Bias towards straighter controls, [0, 1) [default: 0.03]");
    app.add_flag("--prune", o.prune,
                 "Never expand a state whose segment scored 0 (a collision is a dead end)");
    app.add_option("--svg", svg_dir,
                   "Write one SVG trajectory plot (first run, seen from above) per scenario and strategy "
                   "into this folder");
    app.add_option(
           "--profile", profile_every,
           "Also print, per ship role and bucket of this many decisions, the mean goodness, distance to "
           "the goal, facing's angle off it, facing turned per second and the mean goodness so far")
        ->check(CLI::Range(1, 1000));
    cli::addCommonFlags(app, flags);
    CLI11_PARSE(app, argc, argv);
    cli::SpdlogContext log("cw-bench-trims");
    log.setVerbosity(flags.verbose, flags.quiet);

    Table t2, t3;
    if (bake::Error e = loadVehicle(vehicle2d, &t2)) return cli::fail(log, e);
    if (bake::Error e = loadVehicle(vehicle3d, &t3)) return cli::fail(log, e);

    std::ostringstream json;
    json << "{\"runs\": " << runs << ", \"results\": [";
    // Average over every (scenario, role) row, as the paper's figure 6 averages its eight rows.
    std::vector<std::pair<std::string, std::pair<double, int>>> averages;
    bool first_json = true;
    if (!flags.json && !flags.quiet)
        std::printf("%-11s %-9s %-28s %9s %9s %9s %9s %8s %6s\n", "scenario", "strategy", "mean goodness",
                    "median ms", "p95 ms", "expanded", "visited", "collide", "allocs");
    for (const Scenario& sc : kScenarios) {
        if (only_scenario != "all" && only_scenario != sc.name) continue;
        const Table& table = sc.spatial ? t3 : t2;
        for (const StrategyConfig& cfg : strategies(sc.spatial, seed, o)) {
            if (only_strategy != "all" && only_strategy != cfg.name) continue;
            std::vector<uint64_t> memory(searchWorkspaceSize(table.view, cfg.settings) / 8 + 1);
            SearchWorkspace ws;
            if (initSearchWorkspace(table.view, cfg.settings, memory.data(), memory.size() * 8, &ws) !=
                Status::Ok)
                return cli::fail(log, {bake::ErrorCode::Internal, "search workspace rejected the settings"});
            Stats stats;
            for (int run = 0; run < runs; ++run) {
                const World w = fly(sc, table.view, &ws, cfg.warm, seed * 1000003u + uint32_t(run), &stats);
                if (run == 0 && !svg_dir.empty()) {
                    const std::string path = svg_dir + "/" + sc.name + "-" + cfg.name + ".svg";
                    if (bake::Error e = bake::writeFileAtomic(
                            path, svgOf(w, (std::string(sc.name) + " " + cfg.name).c_str())))
                        return cli::fail(log, e);
                }
            }
            const double n = double(stats.decision_ms.size());
            std::ostringstream g;
            double mean_all = 0;
            for (const auto& r : stats.goodness) {
                const double mean = r.second.first / r.second.second;
                mean_all += mean / double(stats.goodness.size());
                char part[48];
                std::snprintf(part, sizeof part, "%s%s %.3f", g.str().empty() ? "" : ", ", r.first.c_str(),
                              mean);
                g << part;
            }
            const double median = percentile(stats.decision_ms, 0.5),
                         p95 = percentile(stats.decision_ms, 0.95);
            auto avg = std::find_if(averages.begin(), averages.end(),
                                    [&](const auto& a) { return a.first == cfg.name; });
            if (avg == averages.end()) avg = averages.insert(averages.end(), {cfg.name, {0.0, 0}});
            for (const auto& r : stats.goodness) {
                avg->second.first += r.second.first / r.second.second;
                avg->second.second += 1;
            }
            if (!flags.json && !flags.quiet)
                std::printf("%-11s %-9s %-28s %9.4f %9.4f %9.1f %9.1f %8d %6llu\n", sc.name, cfg.name,
                            g.str().c_str(), median, p95, stats.expansions / n, stats.visited / n,
                            stats.collisions, static_cast<unsigned long long>(stats.allocations));
            if (profile_every > 0 && !flags.json && !flags.quiet) {
                // "so far": the mean goodness of every decision up to the bucket's end, i.e. what the
                // row would read if the runs stopped there.
                for (const auto& role : stats.profile) {
                    std::printf(
                        "  %s decisions  goodness  distance m  off goal deg  turned deg/s  so far  (runs)\n",
                        role.first.c_str());
                    const std::vector<Stats::Step>& steps = role.second;
                    double so_far = 0;
                    int so_far_count = 0;
                    for (size_t b = 0; b < steps.size(); b += size_t(profile_every)) {
                        const size_t e = std::min(steps.size(), b + size_t(profile_every));
                        Stats::Step sum;
                        for (size_t i = b; i < e; ++i) {
                            sum.goodness += steps[i].goodness, sum.distance += steps[i].distance;
                            sum.off_angle += steps[i].off_angle, sum.turn += steps[i].turn;
                            sum.count += steps[i].count;
                        }
                        if (sum.count == 0) continue;
                        so_far += sum.goodness, so_far_count += sum.count;
                        const double n_steps = double(sum.count);
                        std::printf("    %3zu-%-3zu %9.3f %11.1f %13.1f %13.1f %8.3f  (%d)\n", b, e - 1,
                                    sum.goodness / n_steps, sum.distance / n_steps, sum.off_angle / n_steps,
                                    sum.turn / n_steps / double(table.view.model.interval),
                                    so_far / so_far_count, steps[b].count);
                    }
                }
            }
            json << (first_json ? "" : ", ") << "{\"scenario\": \"" << sc.name << "\", \"strategy\": \""
                 << cfg.name << "\", \"goodness\": {";
            for (size_t i = 0; i < stats.goodness.size(); ++i)
                json << (i ? ", " : "") << "\"" << stats.goodness[i].first
                     << "\": " << stats.goodness[i].second.first / stats.goodness[i].second.second;
            json << "}, \"mean_goodness\": " << mean_all << ", \"median_ms\": " << median
                 << ", \"p95_ms\": " << p95 << ", \"expanded\": " << stats.expansions / n
                 << ", \"visited\": " << stats.visited / n << ", \"decisions\": " << stats.decision_ms.size()
                 << ", \"collisions\": " << stats.collisions << ", \"arrivals\": " << stats.arrivals
                 << ", \"allocations\": " << stats.allocations << "}";
            first_json = false;
        }
    }
    json << "], \"average_goodness\": {";
    for (size_t i = 0; i < averages.size(); ++i)
        json << (i ? ", " : "") << "\"" << averages[i].first
             << "\": " << averages[i].second.first / averages[i].second.second;
    json << "}}";
    if (flags.json) {
        std::printf("%s\n", json.str().c_str());
    } else if (!flags.quiet) {
        std::printf("\naverage goodness over all scenario rows (paper: single 0.715, uniform 0.841, adaptive "
                    "0.840):\n ");
        for (const auto& a : averages)
            std::printf(" %s %.3f", a.first.c_str(), a.second.first / a.second.second);
        std::printf(
            "\npaper's time per decision (2D / 3D seek): single 2.48 / 24.17 ms, uniform 48.33 / 437.33 ms, "
            "adaptive 16.8 / 68.0 ms\n");
    }
    return 0;
}
