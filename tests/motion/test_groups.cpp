// Groups (Nieuwenhuisen et al. 2004 "Path planning for groups") through a doorway and round a corner on a findPath
// backbone: at every step every entity keeps its radius from the walls (brute force over the level's
// walls) and stays within the group width of the backbone, no two overlap, the longitudinal spread
// stays within its bound; everyone arrives, and a rerun is bit-identical.
#include <clearway/motion.h>

#include "allocation_counter.h"
#include "door_level.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace clearway;

namespace {

struct Run {
    uint32_t steps = 0; // until everyone arrived (or the budget)
    bool arrived = false;
    double min_wall_margin = INFINITY; // min over steps and entities of wall distance - radius
    double max_overlap = 0;            // max over steps and pairs of (r_i + r_j - distance)
    double max_spread = 0;             // max over steps of (most - least advanced progress), metres
    double max_off_corridor = 0;       // max over steps of (distance to the nearest shrunk disc)
    bool left_level = false;
    uint32_t max_blocked = 0;
    std::vector<GroupEntity> final_state;
};

struct Group {
    const doorlevel::Level& level;
    GroupSettings settings;
    std::vector<PathSegment> path;
    std::vector<GroupCorridorPoint> points;
    GroupCorridor corridor{};

    Group(const doorlevel::Level& lv, const GroupSettings& s, double radius) : level(lv), settings(s) {
        path = level.path(radius);
        const double length = pathTotalLength(path.data(), uint32_t(path.size()));
        points.resize(groupCorridorPointCount(length, settings.corridor_step));
        REQUIRE(buildGroupCorridor(level.view, level.scratch, path.data(), uint32_t(path.size()), settings,
                                   points.data(), uint32_t(points.size()), &corridor) == Status::Ok);
    }

    // Brute force over every capsule, independent of the step's search window: the most advanced
    // chord point within (capsule radius - entity radius) of the entity; -1 outside the corridor.
    double progressOf(const GroupEntity& e) const {
        double best = -1;
        for (uint32_t k = 0; k + 1 < corridor.count; ++k) {
            const GroupCorridorPoint &a = corridor.points[k], &b = corridor.points[k + 1];
            const double rho = a.radius - e.radius;
            const double len = std::hypot(b.position.x - a.position.x, b.position.y - a.position.y);
            if (rho < 0 || len == 0) continue;
            const double ux = (b.position.x - a.position.x) / len, uy = (b.position.y - a.position.y) / len;
            const double along = (e.position.x - a.position.x) * ux + (e.position.y - a.position.y) * uy;
            const double across = (e.position.x - a.position.x) * uy - (e.position.y - a.position.y) * ux;
            if (std::fabs(across) > rho) continue;
            const double half = std::sqrt(rho * rho - across * across);
            if (along + half < 0 || along - half > len) continue;
            best = std::fmax(best, a.s + (b.s - a.s) * std::fmin(len, along + half) / len);
        }
        return best;
    }
    // Distance outside the nearest shrunk capsule (0 inside the corridor).
    double offCorridor(const GroupEntity& e) const {
        double best = INFINITY;
        for (uint32_t k = 0; k + 1 < corridor.count; ++k) {
            const GroupCorridorPoint &a = corridor.points[k], &b = corridor.points[k + 1];
            const double d = doorlevel::pointSegment(e.position.x, e.position.y, a.position.x, a.position.y,
                                                     b.position.x, b.position.y);
            best = std::fmin(best, d - (a.radius - e.radius));
        }
        return best > 0 ? best : 0;
    }

    Run run(std::vector<GroupEntity> entities, uint32_t budget) const {
        Run r;
        const uint32_t n = uint32_t(entities.size());
        auto observe = [&]() {
            double lo = INFINITY, hi = -INFINITY;
            for (uint32_t i = 0; i < n; ++i) {
                const GroupEntity& e = entities[i];
                r.left_level = r.left_level || !doorlevel::inside(e.position.x, e.position.y);
                r.min_wall_margin = std::fmin(r.min_wall_margin,
                                              doorlevel::wallDistance(e.position.x, e.position.y) - e.radius);
                r.max_off_corridor = std::fmax(r.max_off_corridor, offCorridor(e));
                const double p = progressOf(e);
                lo = std::fmin(lo, p);
                hi = std::fmax(hi, p);
                for (uint32_t j = i + 1; j < n; ++j) {
                    const double d = std::hypot(e.position.x - entities[j].position.x,
                                                e.position.y - entities[j].position.y);
                    r.max_overlap = std::fmax(r.max_overlap, e.radius + entities[j].radius - d);
                }
            }
            r.max_spread = std::fmax(r.max_spread, hi - lo);
        };
        observe();
        for (r.steps = 0; r.steps < budget;) {
            GroupStepInfo info;
            REQUIRE(groupStep(corridor, settings, entities.data(), n, &info) == Status::Ok);
            ++r.steps;
            r.max_blocked = info.blocked > r.max_blocked ? info.blocked : r.max_blocked;
            observe();
            if (info.arrived == n) {
                r.arrived = true;
                break;
            }
        }
        r.final_state = entities;
        return r;
    }
};

std::vector<GroupEntity> entitiesOf(uint32_t n, double r_min, double r_max) {
    std::vector<GroupEntity> e(n, GroupEntity{});
    for (uint32_t i = 0; i < n; ++i) // a fixed spread of sizes, no randomness needed
        e[i].radius = r_min + (r_max - r_min) * double((i * 7) % 11) / 10.0;
    return e;
}

void checkRun(const Run& r, const GroupSettings& s, uint32_t budget) {
    MESSAGE("steps " << r.steps << " (" << r.steps * s.dt << " s), min wall margin " << r.min_wall_margin
                     << " m, max overlap " << r.max_overlap << " m, max spread " << r.max_spread
                     << " m (bound " << s.max_longitudinal << "), max blocked in a step " << r.max_blocked);
    CHECK_FALSE(r.left_level);
    CHECK(r.min_wall_margin >= -1e-9);
    CHECK(r.max_off_corridor <= 1e-9);
    CHECK(r.max_overlap <= 1e-9);
    CHECK(r.max_spread <= s.max_longitudinal + 1e-9);
    CHECK(r.arrived);
    CHECK(r.steps < budget);
}

} // namespace

TEST_SUITE("motion/groups") {
    TEST_CASE("50 entities through a doorway and round a corner: corridor, no overlap, bounded spread") {
        const doorlevel::Level level;
        GroupSettings s = groupDefaults();
        s.max_longitudinal = 10;
        s.arrive_distance = 8; // 50 entities do not fit on the last 4 m of a 4 m wide corridor
        const Group g(level, s, 0.3);
        std::vector<GroupEntity> e = entitiesOf(50, 0.2, 0.3);
        REQUIRE(groupPlace(g.corridor, s, e.data(), 50) == Status::Ok);
        const uint32_t budget = 4000;
        const Run r = g.run(e, budget);
        checkRun(r, s, budget);
        // The doorway is narrower than the group: the spread reaches its bound there (leaders wait).
        CHECK(r.max_spread > s.max_longitudinal - 1.0);
    }

    TEST_CASE("100 entities: the same invariants, and everyone arrives") {
        const doorlevel::Level level;
        GroupSettings s = groupDefaults();
        s.max_longitudinal = 16;
        s.arrive_distance = 12;
        const Group g(level, s, 0.2);
        std::vector<GroupEntity> e = entitiesOf(100, 0.2, 0.2);
        REQUIRE(groupPlace(g.corridor, s, e.data(), 100) == Status::Ok);
        const uint32_t budget = 6000;
        const Run r = g.run(e, budget);
        checkRun(r, s, budget);
    }

    TEST_CASE("a doorway one entity wide: the group queues through it without jamming") {
        // Radius 0.6 in the 1 m-clearance doorway leaves 0.4 m either side of the backbone: less
        // than a diameter, so single file. Crowds wedge at such a funnel unless someone gives way.
        const doorlevel::Level level;
        GroupSettings s = groupDefaults();
        s.max_longitudinal = 30;
        s.arrive_distance = 12;
        const Group g(level, s, 0.6);
        std::vector<GroupEntity> e = entitiesOf(20, 0.6, 0.6);
        REQUIRE(groupPlace(g.corridor, s, e.data(), 20) == Status::Ok);
        const uint32_t budget = 4000;
        const Run r = g.run(e, budget);
        checkRun(r, s, budget);
    }

    TEST_CASE("deterministic: the same run twice gives bit-identical states") {
        const doorlevel::Level level;
        const GroupSettings s = groupDefaults();
        const Group g(level, s, 0.3);
        std::vector<GroupEntity> a = entitiesOf(50, 0.2, 0.3), b = entitiesOf(50, 0.2, 0.3);
        REQUIRE(groupPlace(g.corridor, s, a.data(), 50) == Status::Ok);
        REQUIRE(groupPlace(g.corridor, s, b.data(), 50) == Status::Ok);
        for (int step = 0; step < 400; ++step) {
            REQUIRE(groupStep(g.corridor, s, a.data(), 50, nullptr) == Status::Ok);
            REQUIRE(groupStep(g.corridor, s, b.data(), 50, nullptr) == Status::Ok);
        }
        static_assert(sizeof(GroupEntity) == 80, "no padding: memcmp compares every field");
        CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(GroupEntity)) == 0);
        // And they did move: the least advanced left the start.
        double least = INFINITY;
        for (const GroupEntity& e : a)
            least = std::fmin(least, e.progress);
        CHECK(least > 5.0);
    }

    TEST_CASE("corridor, placement and steps never allocate") {
        const doorlevel::Level level;
        const GroupSettings s = groupDefaults();
        const Group g(level, s, 0.3);
        std::vector<GroupCorridorPoint> points(g.points.size());
        std::vector<GroupEntity> e = entitiesOf(50, 0.2, 0.3);
        GroupCorridor c{};
        int ok = 0;
        const long allocations = test::allocationsDuring([&] {
            ok += buildGroupCorridor(level.view, level.scratch, g.path.data(), uint32_t(g.path.size()), s,
                                     points.data(), uint32_t(points.size()), &c) == Status::Ok;
            ok += groupPlace(c, s, e.data(), 50) == Status::Ok;
            for (int step = 0; step < 50; ++step)
                ok += groupStep(c, s, e.data(), 50, nullptr) == Status::Ok;
        });
        CHECK(allocations == 0);
        CHECK(ok == 52);
    }

    TEST_CASE("the corridor: capped clearance at the samples, wall-free capsules between them") {
        const doorlevel::Level level;
        const GroupSettings s = groupDefaults();
        const Group g(level, s, 0.3);
        REQUIRE(g.corridor.count == g.points.size());
        CHECK(g.corridor.points[0].s == 0);
        CHECK(g.corridor.points[g.corridor.count - 1].s == g.corridor.length);
        CHECK(g.corridor.step <= s.corridor_step);
        double door = INFINITY, worst = INFINITY;
        for (uint32_t k = 0; k < g.corridor.count; ++k) {
            const GroupCorridorPoint& p = g.corridor.points[k];
            CHECK(p.clearance <= s.group_width);
            CHECK(p.clearance == doctest::Approx(std::fmin(s.group_width, doorlevel::wallDistance(
                                                                              p.position.x, p.position.y)))
                                     .epsilon(1e-6));
            if (p.position.x > 12 && p.position.x < 12.4) door = std::fmin(door, p.clearance);
            if (k + 1 == g.corridor.count) {
                CHECK(p.radius == 0);
                continue;
            }
            // Every point of the chord keeps the capsule radius from the walls (dense samples).
            const GroupCorridorPoint& q = g.corridor.points[k + 1];
            CHECK(p.radius <= std::fmin(p.clearance, q.clearance));
            for (int i = 0; i <= 20; ++i) {
                const double t = i / 20.0;
                const double x = p.position.x + (q.position.x - p.position.x) * t,
                             y = p.position.y + (q.position.y - p.position.y) * t;
                worst = std::fmin(worst, doorlevel::wallDistance(x, y) - p.radius);
            }
        }
        CHECK(worst >= -1e-9);
        CHECK(door == doctest::Approx(1.0).epsilon(1e-6)); // 2 m doorway, backbone through its middle
    }

    TEST_CASE("bad input: small buffers, bad settings, an entity outside the corridor, no room") {
        const doorlevel::Level level;
        GroupSettings s = groupDefaults();
        const Group g(level, s, 0.3);
        GroupCorridorPoint few[4];
        GroupCorridor c;
        CHECK(buildGroupCorridor(level.view, level.scratch, g.path.data(), uint32_t(g.path.size()), s, few, 4,
                                 &c) == Status::BufferTooSmall);
        CHECK(buildGroupCorridor(level.view, level.scratch, nullptr, 1, s, few, 4, &c) ==
              Status::InvalidArgument);
        CHECK(groupCorridorPointCount(NAN, 0.25) == 0);
        CHECK(groupCorridorPointCount(10, 0) == 0);
        CHECK(groupCorridorPointCount(10, 0.25) == 41);
        CHECK(groupCorridorPointCount(0, 0.25) == 2);

        std::vector<GroupEntity> e = entitiesOf(3, 0.25, 0.25);
        REQUIRE(groupPlace(g.corridor, s, e.data(), 3) == Status::Ok);
        for (double GroupSettings::*field : {&GroupSettings::dt, &GroupSettings::max_speed,
                                             &GroupSettings::group_width, &GroupSettings::corridor_step}) {
            GroupSettings b = s;
            b.*field = 0;
            CHECK(groupStep(g.corridor, b, e.data(), 3, nullptr) == Status::InvalidArgument);
            b.*field = NAN;
            CHECK(groupStep(g.corridor, b, e.data(), 3, nullptr) == Status::InvalidArgument);
        }
        std::vector<GroupEntity> outside = e;
        outside[1].position = Vec2d{-50, -50};
        CHECK(groupStep(g.corridor, s, outside.data(), 3, nullptr) == Status::InvalidArgument);
        outside = e;
        outside[2].segment = 1u << 30;
        CHECK(groupStep(g.corridor, s, outside.data(), 3, nullptr) == Status::InvalidArgument);
        outside = e;
        outside[0].position.x = NAN;
        CHECK(groupStep(g.corridor, s, outside.data(), 3, nullptr) == Status::InvalidArgument);
        CHECK(groupStep(g.corridor, s, nullptr, 3, nullptr) == Status::InvalidArgument);
        CHECK(groupStep(g.corridor, s, e.data(), 0, nullptr) == Status::Ok);
        // Entities wider than the corridor anywhere near the start, or too many for the bound.
        std::vector<GroupEntity> wide = entitiesOf(2, 2.5, 2.5);
        CHECK(groupPlace(g.corridor, s, wide.data(), 2) == Status::NotFound);
        s.max_longitudinal = 0.5;
        std::vector<GroupEntity> many = entitiesOf(100, 0.25, 0.25);
        CHECK(groupPlace(g.corridor, s, many.data(), 100) == Status::NotFound);
        std::vector<GroupEntity> zero = entitiesOf(1, 0, 0);
        CHECK(groupPlace(g.corridor, s, zero.data(), 1) == Status::InvalidArgument);
    }
}
