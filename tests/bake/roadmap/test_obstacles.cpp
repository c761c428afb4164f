// Temporary obstacles (findPathAvoiding) on hand-made baked levels with answers computed by hand: a
// disc that closes a corridor reroutes round the block, a disc and a box in a hall are passed at
// exactly the clearance, removing an obstacle restores findPath's path bit for bit; the set's
// statuses (capacity, bad arguments, unknown ids).
#include <clearway/bake.h>
#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include "baked_roadmap.h"
#include "hand_levels.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace cw = clearway;
using cw::PathSegment;
using cw::Status;

namespace {

struct Set {
    std::vector<uint8_t> memory;
    cw::ObstacleSet* set = nullptr;
    explicit Set(uint32_t capacity) : memory(cw::obstacleSetBytes(capacity)) {
        REQUIRE(cw::obstacleSetInit(memory.data(), memory.size(), capacity, &set) == Status::Ok);
    }
};

struct Path {
    Status status;
    std::vector<PathSegment> seg;
    double length() const { return cw::pathTotalLength(seg.data(), uint32_t(seg.size())); }
};

Path avoiding(cw::test::BakedRoadmap& level, cw::Vec2d s, cw::Vec2d g, double radius,
              const cw::ObstacleSet* set) {
    Path p;
    p.seg.resize(256);
    uint32_t count = 0;
    p.status = cw::findPathAvoiding(level.view, level.scratch, {s.x, s.y, 0}, {g.x, g.y, 0}, radius, radius,
                                    nullptr, set, p.seg.data(), &count, 256);
    p.seg.resize(p.status == Status::Ok ? count : 0);
    return p;
}

Path plain(cw::test::BakedRoadmap& level, cw::Vec2d s, cw::Vec2d g, double radius) {
    Path p;
    p.seg.resize(256);
    uint32_t count = 0;
    p.status = cw::findPath(level.view, level.scratch, {s.x, s.y, 0}, {g.x, g.y, 0}, radius, radius,
                            p.seg.data(), &count, 256);
    p.seg.resize(p.status == Status::Ok ? count : 0);
    return p;
}

bool sameBits(const Path& a, const Path& b) {
    return a.status == b.status && a.seg.size() == b.seg.size() &&
           std::memcmp(a.seg.data(), b.seg.data(), a.seg.size() * sizeof(PathSegment)) == 0;
}

// Least `distance` from the path's poses (every 1 cm); and consecutive segments meet.
template <class Distance>
double leastDistance(cw::test::BakedRoadmap& level, const Path& p, Distance distance) {
    std::vector<cw::PathPose> poses(100000);
    uint32_t n = 0;
    REQUIRE(cw::pathSample(level.view, p.seg.data(), uint32_t(p.seg.size()), 0.01, poses.data(), &n,
                           100000) == Status::Ok);
    double least = INFINITY;
    for (uint32_t k = 0; k < n; ++k)
        least = std::fmin(least, distance(cw::Vec2d{poses[k].position.x, poses[k].position.y}));
    for (size_t k = 0; k + 1 < p.seg.size(); ++k) {
        CHECK(p.seg[k].end.x == p.seg[k + 1].start.x);
        CHECK(p.seg[k].end.y == p.seg[k + 1].start.y);
    }
    return least;
}

double centreDistance(cw::Vec2d p, cw::Vec2d centre) {
    return std::hypot(p.x - centre.x, p.y - centre.y);
}

// Distance from p to the axis-aligned box centre +- half.
double boxDistance(cw::Vec2d p, cw::Vec2d centre, cw::Vec2d half) {
    const double dx = std::fmax(std::fabs(p.x - centre.x) - half.x, 0.0);
    const double dy = std::fmax(std::fabs(p.y - centre.y) - half.y, 0.0);
    return std::hypot(dx, dy);
}

} // namespace

TEST_SUITE("runtime/obstacles") {

    TEST_CASE(
        "a disc that closes the bottom corridor reroutes over the block, and removing it restores the path") {
        // A 20 x 10 room round a block at 2..18 x 3..8: a 3 m corridor below, 2 m above and at the sides.
        using cw::test::rect;
        cw::test::BakedRoadmap level(
            cw::test::footprintOf(rect(0, 0, 20, 10), {cw::test::reversed(rect(2, 3, 18, 8))}));
        const cw::Vec2d s{1, 1.5}, g{19, 1.5};
        const double radius = 0.5;
        Set set(4);
        const Path before = avoiding(level, s, g, radius, set.set);
        REQUIRE(before.status == Status::Ok);
        CHECK(sameBits(before, plain(level, s, g, radius)));
        CHECK(before.length() == doctest::Approx(18.0).epsilon(1e-12));

        uint32_t id = 0;
        REQUIRE(cw::obstacleAddDisc(set.set, 0, {10, 1.5}, 1.0, &id) == Status::Ok);
        const Path blocked = avoiding(level, s, g, radius, set.set);
        REQUIRE(blocked.status == Status::Ok);
        // Up the left side wrapping (2, 8) at 0.5, 16 m along y = 8.5, down round (18, 8): the
        // tangent from the start to the disc at (2, 8) is sqrt(43) long, and it turns by theta.
        const double theta = std::atan2(6.5, 1.0) + std::asin(0.5 / std::sqrt(43.25));
        CHECK(blocked.length() ==
              doctest::Approx(2 * std::sqrt(43.0) + 2 * 0.5 * theta + 16.0).epsilon(1e-9));
        CHECK(leastDistance(level, blocked, [](cw::Vec2d p) { return centreDistance(p, {10, 1.5}); }) >= 1.5);

        REQUIRE(cw::obstacleRemove(set.set, id) == Status::Ok);
        CHECK(sameBits(avoiding(level, s, g, radius, set.set), before));
    }

    TEST_CASE("a disc in a hall: the path bends round it at exactly its radius plus the clearance") {
        cw::test::BakedRoadmap level(cw::test::footprintOf(cw::test::rect(0, 0, 20, 20)));
        const cw::Vec2d s{2, 10}, g{18, 10}, centre{10, 10};
        const double radius = 0.5, disc = 1.0, grown = disc + radius;
        Set set(2);
        uint32_t id = 0;
        REQUIRE(cw::obstacleAddDisc(set.set, 0, centre, disc, &id) == Status::Ok);
        const Path p = avoiding(level, s, g, radius, set.set);
        REQUIRE(p.status == Status::Ok);
        // Tangents sqrt(8^2 - 1.5^2) long, the arc between them turning by 2 asin(1.5 / 8).
        CHECK(p.length() ==
              doctest::Approx(2 * std::sqrt(64 - grown * grown) + grown * 2 * std::asin(grown / 8))
                  .epsilon(1e-12));
        bool arc_round_disc = false;
        for (const PathSegment& seg : p.seg)
            arc_round_disc |= seg.type == cw::PathSegmentType::Arc && seg.center.x == centre.x &&
                              seg.center.y == centre.y && seg.radius == grown;
        CHECK(arc_round_disc);
        const double least = leastDistance(level, p, [&](cw::Vec2d q) { return centreDistance(q, centre); });
        CHECK(least >= grown - 1e-9);
        CHECK(least <= grown + 1e-6);
        // A disc on another layer is not met; removal restores the straight line bit for bit.
        REQUIRE(cw::obstacleRemove(set.set, id) == Status::Ok);
        REQUIRE(cw::obstacleAddDisc(set.set, 1, centre, disc, &id) == Status::Ok);
        CHECK(sameBits(avoiding(level, s, g, radius, set.set), plain(level, s, g, radius)));
    }

    TEST_CASE("a box in a hall: the path runs round its corners at exactly the clearance") {
        cw::test::BakedRoadmap level(cw::test::footprintOf(cw::test::rect(0, 0, 20, 20)));
        const cw::Vec2d s{2, 10}, g{18, 10}, centre{10, 10}, half{1, 0.5};
        const double radius = 0.5;
        Set set(2);
        uint32_t id = 0;
        REQUIRE(cw::obstacleAddBox(set.set, 0, centre, half, 0.0, &id) == Status::Ok);
        const Path p = avoiding(level, s, g, radius, set.set);
        REQUIRE(p.status == Status::Ok);
        // Tangent 7 m onto the corner disc at (9, 10.5) (or 9.5 below), 2 m along the side, the same
        // down; each arc turns by theta.
        const double theta = std::atan2(0.5, 7.0) + std::asin(0.5 / std::sqrt(49.25));
        CHECK(p.length() == doctest::Approx(16.0 + 2 * 0.5 * theta).epsilon(1e-12));
        double least = leastDistance(level, p, [&](cw::Vec2d q) { return boxDistance(q, centre, half); });
        CHECK(least >= radius - 1e-9);
        CHECK(least <= radius + 1e-6);
        REQUIRE(cw::obstacleRemove(set.set, id) == Status::Ok);
        CHECK(sameBits(avoiding(level, s, g, radius, set.set), plain(level, s, g, radius)));
        // Turned by 90 degrees: the box stands across the line, 2 m tall; the path passes a corner
        // pair at exactly the clearance again.
        REQUIRE(cw::obstacleAddBox(set.set, 0, centre, half, std::acos(0.0), &id) == Status::Ok);
        const Path turned = avoiding(level, s, g, radius, set.set);
        REQUIRE(turned.status == Status::Ok);
        least = leastDistance(level, turned, [&](cw::Vec2d q) {
            return boxDistance(q, centre, {half.y, half.x});
        });
        CHECK(least >= radius - 1e-9);
        CHECK(least <= radius + 1e-6);
        // Too small an output buffer: BufferTooSmall with at least the number needed, then the path.
        std::vector<PathSegment> few(2);
        uint32_t needed = 0;
        CHECK(cw::findPathAvoiding(level.view, level.scratch, {s.x, s.y, 0}, {g.x, g.y, 0}, radius, radius,
                                   nullptr, set.set, few.data(), &needed, 2) == Status::BufferTooSmall);
        CHECK(needed > 2);
        few.resize(needed);
        uint32_t count = 0;
        CHECK(cw::findPathAvoiding(level.view, level.scratch, {s.x, s.y, 0}, {g.x, g.y, 0}, radius, radius,
                                   nullptr, set.set, few.data(), &count, needed) == Status::Ok);
        CHECK(count == turned.seg.size());
    }

    TEST_CASE(
        "an end within the clearance of an obstacle is NotFound, null and empty sets answer as findPath") {
        cw::test::BakedRoadmap level(cw::test::footprintOf(cw::test::rect(0, 0, 20, 20)));
        Set set(2);
        const Path plain_path = plain(level, {2, 10}, {18, 12}, 0.5);
        CHECK(sameBits(avoiding(level, {2, 10}, {18, 12}, 0.5, nullptr), plain_path));
        CHECK(sameBits(avoiding(level, {2, 10}, {18, 12}, 0.5, set.set), plain_path));
        const cw::QueryFilter filter = cw::defaultQueryFilter();
        Path filtered;
        filtered.seg.resize(256);
        uint32_t count = 0;
        filtered.status = cw::findPathAvoiding(level.view, level.scratch, {2, 10, 0}, {18, 12, 0}, 0.5, 0.5,
                                               &filter, set.set, filtered.seg.data(), &count, 256);
        filtered.seg.resize(count);
        CHECK(sameBits(filtered, plain_path));
        cw::QueryFilter bad = filter;
        bad.area_cost[3] = NAN;
        CHECK(cw::findPathAvoiding(level.view, level.scratch, {2, 10, 0}, {18, 12, 0}, 0.5, 0.5, &bad,
                                   set.set, filtered.seg.data(), &count, 256) == Status::InvalidArgument);
        uint32_t id = 0;
        REQUIRE(cw::obstacleAddDisc(set.set, 0, {2.5, 10}, 0.2, &id) == Status::Ok);
        CHECK(avoiding(level, {2, 10}, {18, 12}, 0.5, set.set).status == Status::NotFound);
    }

    TEST_CASE("obstacle sets: capacity, bad arguments and unknown ids get clear statuses") {
        CHECK(cw::obstacleSetBytes(0) == 0);
        CHECK(cw::obstacleSetBytes(70000) == 0);
        std::vector<uint8_t> memory(cw::obstacleSetBytes(2));
        cw::ObstacleSet* set = nullptr;
        CHECK(cw::obstacleSetInit(memory.data(), memory.size() - 1, 2, &set) == Status::BufferTooSmall);
        CHECK(cw::obstacleSetInit(nullptr, memory.size(), 2, &set) == Status::InvalidArgument);
        CHECK(cw::obstacleSetInit(memory.data(), memory.size(), 0, &set) == Status::InvalidArgument);
        REQUIRE(cw::obstacleSetInit(memory.data(), memory.size(), 2, &set) == Status::Ok);
        uint32_t a = 0, b = 0, c = 0;
        CHECK(cw::obstacleAddDisc(set, 0, {NAN, 0}, 1, &a) == Status::InvalidArgument);
        CHECK(cw::obstacleAddDisc(set, 0, {0, 0}, -1, &a) == Status::InvalidArgument);
        CHECK(cw::obstacleAddDisc(set, 0, {0, 0}, INFINITY, &a) == Status::InvalidArgument);
        CHECK(cw::obstacleAddBox(set, 0, {0, 0}, {1, -1}, 0, &a) == Status::InvalidArgument);
        CHECK(cw::obstacleAddBox(set, 0, {0, 0}, {1, 1}, NAN, &a) == Status::InvalidArgument);
        CHECK(cw::obstacleAddDisc(nullptr, 0, {0, 0}, 1, &a) == Status::InvalidArgument);
        CHECK(cw::obstacleAddDisc(set, 0, {0, 0}, 1, nullptr) == Status::InvalidArgument);
        REQUIRE(cw::obstacleAddDisc(set, 0, {0, 0}, 1, &a) == Status::Ok);
        REQUIRE(cw::obstacleAddBox(set, 0, {5, 5}, {1, 2}, 0.3, &b) == Status::Ok);
        CHECK(a != b);
        CHECK(cw::obstacleCount(set) == 2);
        CHECK(cw::obstacleAddDisc(set, 0, {1, 1}, 1, &c) == Status::CapacityReached);
        CHECK(std::string(cw::statusString(Status::CapacityReached)) == "the obstacle set is full");
        CHECK(cw::obstacleRemove(set, a) == Status::Ok);
        CHECK(cw::obstacleRemove(set, a) == Status::InvalidArgument); // removed ids stay unknown
        CHECK(cw::obstacleRemove(set, 12345) == Status::InvalidArgument);
        CHECK(cw::obstacleAddDisc(set, 0, {1, 1}, 1, &c) == Status::Ok);
        CHECK(c != a);
        CHECK(cw::obstacleCount(set) == 2);
    }
}
