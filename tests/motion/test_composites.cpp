// Composite steering behaviours flown closed loop (trim search, one decision per interval) on the
// scenes of Go, Vu and Kuffner, "Autonomous behaviors for interactive vehicle animations" (2004):
// Seek with Collision Avoidance across an asteroid field, Pursue with Collision Avoidance among
// moving asteroids, and the designer's weights deciding a seek/flee trade-off.
#include <clearway/motion.h>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace clearway;
using namespace clearway::trims;

namespace trimtest {
Model model2d(uint32_t samples, double max_rate, double speed, uint32_t steps);
std::vector<uint8_t> buildTable(const Model& m, bool symmetric);
} // namespace trimtest

namespace {

constexpr float kShipRadius = 2.0f;

// A boat (17 yaw rates up to 0.8 rad/s, 1 s intervals) and one search workspace per ship.
struct Fleet {
    std::vector<uint8_t> bytes = trimtest::buildTable(trimtest::model2d(17, 0.8, 8.0, 20), true);
    TableView table{};
    SearchSettings settings = defaultSearchSettings();
    std::vector<std::vector<uint64_t>> memory;
    std::vector<SearchWorkspace> workspaces;

    explicit Fleet(uint32_t ships) : memory(ships), workspaces(ships) {
        REQUIRE(loadTable(bytes.data(), bytes.size(), &table) == Status::Ok);
        settings.prune_zero = true;
        const size_t size = searchWorkspaceSize(table, settings);
        for (uint32_t i = 0; i < ships; ++i) {
            memory[i].assign(size / 8 + 1, 0);
            REQUIRE(initSearchWorkspace(table, settings, memory[i].data(), size, &workspaces[i]) ==
                    Status::Ok);
        }
    }
    // One decision for ship i: search, then fly the first control for one interval.
    VehicleState decide(uint32_t i, const VehicleState& state, const Behaviour& b) {
        SearchResult r{};
        REQUIRE(search(&workspaces[i], state, b, nullptr, 0, &r) == Status::Ok);
        VehicleState next{};
        REQUIRE(applyTrim(table, state, r.first_control, &next) == Status::Ok);
        return next;
    }
    // Collision margin along a chord: the arc's distance from it at this speed.
    float margin(float speed) const { return table.max_chord_deviation * speed / float(table.model.speed); }
};

// The asteroids' hash, rebuilt each decision at their current positions (time 0 = now).
struct Field {
    std::vector<Sphere> spheres;
    std::vector<uint64_t> memory;
    SphereHash hash{};
    void rebuild() {
        SphereHashSettings s = defaultSphereHashSettings();
        s.planar = true;
        const size_t bytes = sphereHashMemorySize(spheres.data(), uint32_t(spheres.size()), s);
        REQUIRE(bytes > 0);
        memory.assign(bytes / 8 + 1, 0);
        REQUIRE(buildSphereHash(spheres.data(), uint32_t(spheres.size()), s, memory.data(), bytes, &hash) ==
                Status::Ok);
    }
    void advance(float dt) {
        for (Sphere& s : spheres)
            s.center = {s.center.x + s.velocity.x * dt, s.center.y + s.velocity.y * dt, s.center.z};
    }
};

// Closest approach (m) of a ship moving p0 -> p1 over [0, dt] to the surface of any asteroid moving
// linearly, brute force in double: < kShipRadius is a collision.
double clearance(const std::vector<Sphere>& spheres, Vec3f p0, Vec3f p1, double dt) {
    double best = INFINITY;
    for (const Sphere& s : spheres) {
        const double rx = double(p0.x) - s.center.x, ry = double(p0.y) - s.center.y;
        const double ex = double(p1.x) - p0.x - s.velocity.x * dt,
                     ey = double(p1.y) - p0.y - s.velocity.y * dt;
        const double ee = ex * ex + ey * ey;
        const double a = ee > 0.0 ? std::fmin(1.0, std::fmax(0.0, -(rx * ex + ry * ey) / ee)) : 0.0;
        best = std::fmin(best, std::hypot(rx + a * ex, ry + a * ey) - s.radius);
    }
    return best;
}

double distance2d(Vec3f a, Vec3f b) {
    return std::hypot(double(a.x) - b.x, double(a.y) - b.y);
}

VehicleState shipAt(const TableView& table, float x, float y, float speed) {
    return VehicleState{{x, y, 0}, {0, 0, 0, 1}, speed, straightControl(table.model)};
}

// A field of static asteroids from x = 40 to 160 m across the line y = 0, with one on it.
std::vector<Sphere> staticField() {
    std::vector<Sphere> spheres;
    for (int i = 0; i < 5; ++i)
        for (int j = -2; j <= 2; ++j) {
            const float x = 45.0f + 28.0f * i + 6.0f * float((i * 7 + j * 3) % 3);
            const float y = 26.0f * j + 9.0f * float((i + j + 4) % 2);
            spheres.push_back(Sphere{{x, y, 0}, 4.0f + float((i + 2 * j + 6) % 3), {0, 0, 0}});
        }
    spheres.push_back(Sphere{{100, 0, 0}, 6.0f, {0, 0, 0}}); // dead ahead
    return spheres;
}

struct SeekRun {
    uint32_t decisions = 0;
    uint32_t collisions = 0;
    double min_clearance = INFINITY;
    bool arrived = false;
};

// Flies one ship from the origin towards `target` with behaviour b, up to max_decisions.
SeekRun flySeek(Fleet& fleet, Field& field, Vec3f target, const Behaviour& b, uint32_t max_decisions) {
    SeekRun run;
    VehicleState ship = shipAt(fleet.table, 0, 0, 8.0f);
    for (; run.decisions < max_decisions; ++run.decisions) {
        if (distance2d(ship.position, target) < 10.0) {
            run.arrived = true;
            break;
        }
        const VehicleState next = fleet.decide(0, ship, b);
        const double c = clearance(field.spheres, ship.position, next.position, 1.0);
        run.min_clearance = std::fmin(run.min_clearance, c);
        run.collisions += c < kShipRadius;
        ship = next;
    }
    return run;
}

Vec3f velocityOf(const VehicleState& s) {
    const Vec3f f = facingOf(s.orientation);
    return {f.x * s.speed, f.y * s.speed, f.z * s.speed};
}

// Asteroids on a grid from x = 30 to 190 m drifting across the line y = 0 at 1-2 m/s.
std::vector<Sphere> movingField() {
    std::vector<Sphere> spheres;
    for (int i = 0; i < 5; ++i)
        for (int j = -2; j <= 2; ++j) {
            const float vy = (i + j) % 2 == 0 ? 1.5f : -1.0f;
            spheres.push_back(Sphere{
                {40.0f + 36.0f * i, 30.0f * j + 5.0f * float(i % 3), 0}, 5.0f, {0.2f * float(j), vy, 0}});
        }
    return spheres;
}

struct PursuitRun {
    uint32_t collisions = 0;
    double min_clearance = INFINITY;
    double start_gap = 0.0, min_gap = INFINITY, end_gap = 0.0;
};

// The seeker flies Seek + AvoidCollision to the far side; the pursuers fly `pursuer` (built on
// their Pursue part, updated every decision with the seeker's position and velocity).
PursuitRun flyPursuit(Fleet& fleet, Field& field, Pursue* pursue, const Behaviour& pursuer, uint32_t pursuers,
                      uint32_t decisions) {
    PursuitRun run;
    Seek seek{{230, 0, 0}};
    AvoidCollision avoid_seeker{&field.hash, kShipRadius, fleet.margin(8.0f)};
    const Behaviour seeker_parts[2] = {behaviour(&seek), behaviour(&avoid_seeker)};
    const Composite seeker_behaviour{seeker_parts, 2};
    std::vector<VehicleState> ships = {shipAt(fleet.table, 0, 0, 8.0f)};
    for (uint32_t p = 0; p < pursuers; ++p)
        ships.push_back(shipAt(fleet.table, -40.0f, p % 2 ? -25.0f : 25.0f, 10.0f));
    auto gap = [&](uint32_t p) { return distance2d(ships[p + 1].position, ships[0].position); };
    run.start_gap = gap(0);
    for (uint32_t k = 0; k < decisions; ++k) {
        field.rebuild();
        std::vector<VehicleState> next(ships.size());
        next[0] = fleet.decide(0, ships[0], behaviour(&seeker_behaviour));
        *pursue = Pursue{ships[0].position, velocityOf(ships[0])};
        for (uint32_t p = 1; p < ships.size(); ++p)
            next[p] = fleet.decide(p, ships[p], pursuer);
        for (uint32_t i = 0; i < ships.size(); ++i) {
            const double c = clearance(field.spheres, ships[i].position, next[i].position, 1.0);
            run.min_clearance = std::fmin(run.min_clearance, c);
            run.collisions += c < kShipRadius;
        }
        ships = next;
        field.advance(1.0f);
        for (uint32_t p = 0; p < pursuers; ++p)
            run.min_gap = std::fmin(run.min_gap, gap(p));
    }
    run.end_gap = 0.0;
    for (uint32_t p = 0; p < pursuers; ++p)
        run.end_gap = std::fmax(run.end_gap, gap(p));
    return run;
}

struct TradeOffRun {
    double closest_to_threat = INFINITY;
    uint32_t decisions = 0;
    bool arrived = false;
    std::vector<VehicleState> states;
};

// Seek a target past a threat that Flee keeps `safe` metres away from, with the given weights.
TradeOffRun flyTradeOff(Fleet& fleet, const BehaviourWeight* weights, uint32_t max_decisions) {
    TradeOffRun run;
    const Vec3f target{160, 0, 0}, threat{70, 6, 0};
    Seek seek{target};
    Flee flee{threat, 30.0f};
    const Behaviour parts[2] = {behaviour(&seek), behaviour(&flee)};
    const Composite both{parts, 2, weights};
    VehicleState ship = shipAt(fleet.table, 0, 0, 8.0f);
    for (; run.decisions < max_decisions; ++run.decisions) {
        run.states.push_back(ship);
        run.closest_to_threat = std::fmin(run.closest_to_threat, distance2d(ship.position, threat));
        if (distance2d(ship.position, target) < 10.0) {
            run.arrived = true;
            break;
        }
        ship = fleet.decide(0, ship, behaviour(&both));
    }
    return run;
}

} // namespace

TEST_SUITE("trims composites") {
    TEST_CASE(
        "composite: Seek with Collision Avoidance crosses the asteroid field untouched, Seek alone hits") {
        // The paper's 2D seek configuration: asteroids between the ship and a seek target on the far
        // side, Seek plus Collision Avoidance attached. What it should do: reach the target and steer
        // round every asteroid. The same ship with Seek alone flies into the one dead ahead.
        Fleet fleet(1);
        Field field;
        field.spheres = staticField();
        field.rebuild();
        const Vec3f target{200, 0, 0};
        Seek seek{target};
        AvoidCollision avoid{&field.hash, kShipRadius, fleet.margin(8.0f)};
        const Behaviour parts[2] = {behaviour(&seek), behaviour(&avoid)};
        const Composite both{parts, 2};
        const SeekRun composite = flySeek(fleet, field, target, behaviour(&both), 60);
        const SeekRun alone = flySeek(fleet, field, target, behaviour(&seek), 60);
        MESSAGE("composite: ", composite.decisions, " decisions, clearance ", composite.min_clearance,
                " m; seek alone: ", alone.collisions, " colliding intervals, clearance ",
                alone.min_clearance);
        CHECK(composite.arrived);
        CHECK(composite.collisions == 0);
        CHECK(composite.min_clearance >= kShipRadius);
        CHECK(alone.collisions > 0);
    }

    TEST_CASE(
        "composite: Pursue with Collision Avoidance closes on the seeker among moving asteroids untouched") {
        // The paper's 2D dynamic pursuit: the asteroids drift, one ship seeks the far side and the
        // others pursue it, every ship with Collision Avoidance. What it should do: the pursuers
        // catch up with the seeker, and no ship touches a moving asteroid.
        Fleet fleet(3);
        Field field;
        field.spheres = movingField();
        field.rebuild();
        Pursue pursue{};
        AvoidCollision avoid{&field.hash, kShipRadius, fleet.margin(10.0f)};
        const Behaviour parts[2] = {behaviour(&pursue), behaviour(&avoid)};
        const Composite pursuer{parts, 2};
        const PursuitRun run = flyPursuit(fleet, field, &pursue, behaviour(&pursuer), 2, 30);
        MESSAGE("pursuit: gap ", run.start_gap, " m -> closest ", run.min_gap, " m, at the end ", run.end_gap,
                " m; ", run.collisions, " colliding intervals, clearance ", run.min_clearance, " m");
        CHECK(run.collisions == 0);
        CHECK(run.min_gap < 10.0);
        CHECK(run.end_gap < 0.5 * run.start_gap);
        // Pursue alone in the same field: the control.
        Field again;
        again.spheres = movingField();
        again.rebuild();
        const PursuitRun alone = flyPursuit(fleet, again, &pursue, behaviour(&pursue), 2, 30);
        MESSAGE("pursue alone: closest ", alone.min_gap, " m, ", alone.collisions, " colliding intervals");
        CHECK(alone.collisions > 0);
    }

    TEST_CASE("composite weights: a flee-heavy ship keeps further from the threat than a seek-heavy one") {
        // The paper leaves weights and gains to the designer: here they decide how close a ship
        // seeking a target dares to pass a threat it flees from.
        Fleet fleet(1);
        const BehaviourWeight seek_heavy[2] = {{4.0f, 1.0f}, {0.25f, 1.0f}};
        const BehaviourWeight flee_heavy[2] = {{0.25f, 1.0f}, {4.0f, 1.0f}};
        const TradeOffRun eager = flyTradeOff(fleet, seek_heavy, 80);
        const TradeOffRun careful = flyTradeOff(fleet, flee_heavy, 80);
        const TradeOffRun plain = flyTradeOff(fleet, nullptr, 80);
        MESSAGE("closest to the threat: seek-heavy ", eager.closest_to_threat, " m in ", eager.decisions,
                " decisions, plain ", plain.closest_to_threat, " m in ", plain.decisions, ", flee-heavy ",
                careful.closest_to_threat, " m in ", careful.decisions);
        CHECK(eager.arrived);
        CHECK(careful.arrived);
        CHECK(careful.closest_to_threat > eager.closest_to_threat + 5.0);
        CHECK(careful.closest_to_threat > 0.9 * 30.0); // about the safe distance
    }

    TEST_CASE("composite weights: the defaults fly the unweighted composite's flight bit for bit") {
        Fleet fleet(1);
        const BehaviourWeight defaults[2] = {behaviourWeightDefaults(), behaviourWeightDefaults()};
        const TradeOffRun plain = flyTradeOff(fleet, nullptr, 40);
        const TradeOffRun weighted = flyTradeOff(fleet, defaults, 40);
        REQUIRE(plain.states.size() == weighted.states.size());
        for (size_t i = 0; i < plain.states.size(); ++i) {
            CHECK(plain.states[i].control == weighted.states[i].control);
            CHECK(std::memcmp(&plain.states[i].position, &weighted.states[i].position, sizeof(Vec3f)) == 0);
            CHECK(std::memcmp(&plain.states[i].orientation, &weighted.states[i].orientation, sizeof(Quatf)) ==
                  0);
        }
    }
}
