// The paper's scenarios (2D/3D seek through asteroids, 2D dynamic pursuit, 3D pursuit, 3D meet)
// and the search strategies flown through them.
#include "trims_bench.h"

#include <cmath>

namespace clearway::trims_bench {

namespace {

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

} // namespace

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

const Scenario kScenarios[5] = {
    {"2d-seek", false, 90, seek2d},      {"3d-seek", true, 90, seek3d}, {"2d-pursuit", false, 60, pursuit2d},
    {"3d-pursuit", true, 50, pursuit3d}, {"3d-meet", true, 50, meet3d},
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

} // namespace clearway::trims_bench
