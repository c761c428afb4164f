// raycast, moveAlongSurface and nearestValidPosition on a hand-made level whose answers follow
// from its walls by hand: a 10 m room with a 2 m pillar and a door onto a deck.
#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "loaded_roadmap.h"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace clearway;
namespace fb = clearway::schema;

namespace {

// Layer 0: the room 0..10 with the pillar 4..6 (as in test_roadmap.cpp). Layer 1: a deck
// x 10..14, y 0..10, at the same height, joined to the room by a door (a connection) along
// x = 10, y 4..6. The roadmap is the loop round the pillar (layer 0 only).
std::vector<uint8_t> doorRoom() {
    flatbuffers::FlatBufferBuilder b;
    // The door posts are ring vertices, so the door's piece ends are exact (a piece cut out of a
    // longer edge ends at a float fraction of it).
    const std::vector<fb::Vec2> boundary0 = {{0, 0},  {10, 0}, {10, 4}, {10, 6}, {10, 10},
                                             {0, 10}, {4, 4},  {4, 6},  {6, 6},  {6, 4}};
    const std::vector<fb::Vec2> boundary1 = {{10, 0}, {14, 0}, {14, 10}, {10, 10}, {10, 6}, {10, 4}};
    std::vector<flatbuffers::Offset<fb::Layer>> layers = {
        test::quadLayer(b, boundary0, {{0, 6}, {6, 4}}, {{0, 0, 0}, {10, 0, 0}, {10, 10, 0}, {0, 10, 0}},
                        96.0, 0, 0),
        test::quadLayer(b, boundary1, {{0, 6}}, {{10, 0, 0}, {14, 0, 0}, {14, 10, 0}, {10, 10, 0}}, 40.0, 0,
                        0)};
    const std::vector<fb::Connection> door = {{0, 1, 10, 4, 10, 6, 0, 0, 0, 0}};
    const fb::Vec3d origin(0, 0, 0);
    auto footprint =
        fb::CreateFootprint(b, kFootprintFormatVersion, b.CreateString("door room"), 1, 2, 0, &origin, 0.25,
                            b.CreateVector(layers), b.CreateVectorOfStructs(door));
    return test::pillarLoopAsset(b, footprint);
}

struct Level : test::LoadedRoadmap {
    Level() : LoadedRoadmap(doorRoom()) {}
    double clearance(uint32_t layer, Vec2d p) const {
        double d = -1;
        REQUIRE(wallDistance(view, scratch, layer, p.x, p.y, &d, nullptr) == Status::Ok);
        return d;
    }
    RaycastHit cast(Vec2d from, Vec2d to, double radius, Status expected, uint32_t layer = 0) const {
        RaycastHit hit;
        CHECK(raycast(view, scratch, layer, from, to, radius, &hit) == expected);
        return hit;
    }
};

constexpr double kExact = 1e-9;

} // namespace

TEST_SUITE("runtime/raycast") {

    TEST_CASE("raycast: a disc stops exactly at its radius from the wall, the normal pointing back") {
        const Level level;
        // Slanted down onto the south wall y = 0: the centre stops on y = 0.5, a quarter of the way.
        RaycastHit hit = level.cast({2, 1}, {8, -1}, 0.5, Status::Ok);
        CHECK(hit.hit);
        CHECK(hit.t == doctest::Approx(0.25).epsilon(kExact));
        CHECK(hit.distance == doctest::Approx(0.25 * std::sqrt(40.0)).epsilon(kExact));
        CHECK(std::fabs(hit.position.x - 3.5) < kExact);
        CHECK(std::fabs(hit.position.y - 0.5) < kExact);
        CHECK(std::fabs(hit.wall.x - 3.5) < kExact);
        CHECK(hit.wall.y == 0.0);
        CHECK(hit.normal.x == 0.0);
        CHECK(hit.normal.y == 1.0);
        CHECK(std::fabs(level.clearance(0, hit.position) - 0.5) < kExact);
        // Straight at the pillar's west face x = 4.
        hit = level.cast({1, 5}, {9, 5}, 0.5, Status::Ok);
        CHECK(std::fabs(hit.position.x - 3.5) < kExact);
        CHECK(hit.normal.x == -1.0);
        CHECK(hit.normal.y == 0.0);
        CHECK(hit.distance == doctest::Approx(2.5).epsilon(kExact));
        // Diagonally at the pillar's corner (4, 4): the disc touches the corner, normal along the ray.
        hit = level.cast({2, 2}, {6, 6}, 0.5, Status::Ok);
        const double back = 0.5 / std::sqrt(2.0);
        CHECK(std::fabs(hit.position.x - (4 - back)) < kExact);
        CHECK(std::fabs(hit.position.y - (4 - back)) < kExact);
        CHECK(hit.wall.x == 4.0);
        CHECK(hit.wall.y == 4.0);
        CHECK(std::fabs(hit.normal.x + std::sqrt(0.5)) < kExact);
        CHECK(std::fabs(hit.normal.y + std::sqrt(0.5)) < kExact);
        // A zero radius hits the wall itself.
        hit = level.cast({1, 5}, {9, 5}, 0.0, Status::Ok);
        CHECK(hit.position.x == 4.0);
    }

    TEST_CASE("raycast: a ray along a corridor reaches its end") {
        const Level level;
        for (const double x : {1.0, 3.0, 7.0}) { // beside the outer walls and past the pillar
            const RaycastHit hit = level.cast({x, 1}, {x, 9}, 0.5, Status::Ok);
            CHECK_FALSE(hit.hit);
            CHECK(hit.t == 1.0);
            CHECK(hit.distance == 8.0);
            CHECK(hit.position.x == x);
            CHECK(hit.position.y == 9.0);
        }
        // Touching a wall and moving along it (a slide at exactly the radius) is not a hit.
        const RaycastHit along = level.cast({1, 0.5}, {9, 0.5}, 0.5, Status::Ok);
        CHECK_FALSE(along.hit);
        CHECK(along.position.x == 9.0);
        // Zero length: nothing to do.
        CHECK(level.cast({2, 2}, {2, 2}, 0.5, Status::Ok).t == 1.0);
    }

    TEST_CASE("raycast: a start inside the radius is Blocked with distance 0") {
        const Level level;
        const RaycastHit hit = level.cast({0.2, 5}, {5, 2}, 0.5, Status::Blocked);
        CHECK(hit.hit);
        CHECK(hit.distance == 0.0);
        CHECK(hit.t == 0.0);
        CHECK(hit.position.x == 0.2);
        CHECK(hit.wall.x == 0.0);
        CHECK(hit.wall.y == 5.0);
        CHECK(hit.normal.x == 1.0);
        CHECK(hit.normal.y == 0.0);
        // Touching (at the radius) moving away is free.
        CHECK_FALSE(level.cast({0.5, 5}, {2, 5}, 0.5, Status::Ok).hit);
        // ... and moving into the wall stops at once.
        const RaycastHit into = level.cast({0.5, 5}, {-2, 5}, 0.5, Status::Ok);
        CHECK(into.hit);
        CHECK(into.distance == 0.0);
    }

    TEST_CASE("raycast: portals are not walls: the ray stops on the door with PortalReached") {
        const Level level;
        RaycastHit hit = level.cast({8, 5}, {13, 5}, 0.5, Status::PortalReached);
        CHECK_FALSE(hit.hit);
        CHECK(hit.position.x == 10.0);
        CHECK(hit.position.y == 5.0);
        CHECK(hit.distance == 2.0);
        CHECK(hit.t == doctest::Approx(0.4).epsilon(kExact));
        // On the deck from the door line: into the layer, so on to the end.
        hit = level.cast({10, 5}, {13, 5}, 0.5, Status::Ok, 1);
        CHECK_FALSE(hit.hit);
        CHECK(hit.position.x == 13.0);
        // A disc wider than the door hits both door posts (10, 4) and (10, 6) first.
        hit = level.cast({8, 5}, {13, 5}, 1.2, Status::Ok);
        CHECK(hit.hit);
        CHECK(std::fabs(hit.position.x - (10 - std::sqrt(0.44))) < kExact);
        CHECK(std::fabs(level.clearance(0, hit.position) - 1.2) < kExact);
        // Along the room's east wall past the door: the portal is not crossed.
        hit = level.cast({9, 1}, {9, 9}, 0.5, Status::Ok);
        CHECK_FALSE(hit.hit);
    }

    TEST_CASE("raycast and moveAlongSurface: an end far off the level stops at the wall as a near one does") {
        // Found by the roadmap fuzzer: an end 1e300 m off overflowed the sweep's squared lengths
        // (the distance came out infinite, the disc slid past corners into the walls).
        const Level level;
        Vec2d north_stop{NAN, NAN};
        for (const double far : {1e3, 1e160, 1e300, DBL_MAX}) {
            CAPTURE(far);
            // West at a slant from (2, 5): the wall x = 0 stops the centre on x = 0.5.
            const Vec2d from{2, 5}, to{2 - far, 5 + far * 0.25};
            const RaycastHit hit = level.cast(from, to, 0.5, Status::Ok);
            CHECK(hit.hit);
            CHECK(std::fabs(hit.position.x - 0.5) < kExact);
            CHECK(std::fabs(hit.position.y - 5.375) < kExact);
            CHECK(hit.distance == doctest::Approx(1.5 * std::sqrt(1.0625)).epsilon(kExact));
            CHECK(hit.t >= 0.0);
            CHECK(hit.t <= 1.0);
            CHECK(hit.normal.x == 1.0);
            // Sliding north along that wall into the corner (0.5, 9.5).
            Vec2d result;
            REQUIRE(moveAlongSurface(level.view, level.scratch, 0, from, to, 0.5, &result) == Status::Ok);
            CHECK(std::fabs(result.x - 0.5) < kExact);
            CHECK(std::fabs(result.y - 9.5) < kExact);
            CHECK(level.clearance(0, result) >= 0.5 - kExact);
            // Diagonally onto the pillar's corner (4, 4), where the normal is slanted: at DBL_MAX
            // the slide's dot product once overflowed and the disc ended at infinity. (Rounding
            // leaves a tangential part of ~1e-16 of the motion, so a far one slides on.)
            REQUIRE(moveAlongSurface(level.view, level.scratch, 0, {2, 2}, {2 + far, 2 + far}, 0.5,
                                     &result) == Status::Ok);
            CHECK(std::isfinite(result.x));
            CHECK(std::isfinite(result.y));
            CHECK(level.clearance(0, result) >= 0.5 - kExact);
            // North-east onto the pillar's corner (4, 6) from the south-west: the slide round it
            // heads north-north-east, a component longer than the motion's own largest one (at
            // DBL_MAX beyond a double), up to the north wall, where sliding east would press back
            // into the corner: it stops there, wherever the end lies.
            REQUIRE(moveAlongSurface(level.view, level.scratch, 0, {2, 4.64}, {2 + far, 4.64 + far}, 0.5,
                                     &result) == Status::Ok);
            if (far == 1e3) north_stop = result;
            CHECK(std::fabs(result.x - north_stop.x) < kExact);
            CHECK(std::fabs(result.y - 9.5) < kExact);
        }
        CHECK(north_stop.x > 4.5);
    }

    TEST_CASE("moveAlongSurface: slides along a wall at the radius, keeping the tangential motion") {
        const Level level;
        Vec2d result;
        // Down and right into the south wall: stops on y = 0.5 at x = 2.5, then slides to x = 4.
        REQUIRE(moveAlongSurface(level.view, level.scratch, 0, {2, 1}, {4, -1}, 0.5, &result) == Status::Ok);
        CHECK(std::fabs(result.x - 4.0) < kExact);
        CHECK(std::fabs(result.y - 0.5) < kExact);
        CHECK(std::fabs(level.clearance(0, result) - 0.5) < kExact);
        // Pressing into the west wall while moving north: the north component survives.
        REQUIRE(moveAlongSurface(level.view, level.scratch, 0, {0.5, 1}, {-3, 3}, 0.5, &result) ==
                Status::Ok);
        CHECK(std::fabs(result.x - 0.5) < kExact);
        CHECK(std::fabs(result.y - 3.0) < kExact);
        // Into a corner: stops there.
        REQUIRE(moveAlongSurface(level.view, level.scratch, 0, {1.5, 1.5}, {-1, -1}, 0.5, &result) ==
                Status::Ok);
        CHECK(std::fabs(result.x - 0.5) < kExact);
        CHECK(std::fabs(result.y - 0.5) < kExact);
        // Free motion ends on the target exactly.
        REQUIRE(moveAlongSurface(level.view, level.scratch, 0, {1, 1}, {2, 3}, 0.5, &result) == Status::Ok);
        CHECK(result.x == 2.0);
        CHECK(result.y == 3.0);
        // Through the door: stops on the portal line.
        CHECK(moveAlongSurface(level.view, level.scratch, 0, {8, 5}, {12, 5}, 0.5, &result) ==
              Status::PortalReached);
        CHECK(result.x == 10.0);
        CHECK(moveAlongSurface(level.view, level.scratch, 0, {0.2, 5}, {2, 5}, 0.5, &result) ==
              Status::Blocked);
        CHECK(result.x == 0.2);
    }

    TEST_CASE("moveAlongSurface: random steps never end closer than the radius to a wall") {
        const Level level;
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> coord(-2.0, 12.0);
        int moved = 0, slid = 0;
        Vec2d at{2, 2};
        for (int i = 0; i < 2000; ++i) {
            const Vec2d target{coord(rng), coord(rng)};
            Vec2d result;
            const Status s = moveAlongSurface(level.view, level.scratch, 0, at, target, 0.4, &result);
            REQUIRE((s == Status::Ok || s == Status::PortalReached));
            CHECK(level.clearance(0, result) >= 0.4 - kExact);
            moved += result.x != at.x || result.y != at.y;
            slid += s == Status::Ok && (result.x != target.x || result.y != target.y);
            if (s == Status::Ok) at = result; // a portal stop would continue on the deck
        }
        CHECK(moved > 1000);
        CHECK(slid > 100);
    }

    TEST_CASE("nearestValidPosition: out of a pillar, onto the level, away from the walls") {
        const Level level;
        PathEndpoint out;
        auto place = [&](Vec3d p, double radius) {
            out = PathEndpoint{-1, -1, 99};
            return nearestValidPosition(level.view, level.scratch, p, radius, 0.5, &out);
        };
        // Inside the pillar, nearest its south face y = 4: out to y = 3.5.
        REQUIRE(place({5, 4.2, 0}, 0.5) == Status::Ok);
        CHECK(out.layer == 0);
        CHECK(out.x == 5.0);
        CHECK(std::fabs(out.y - 3.5) < kExact);
        CHECK(std::fabs(level.clearance(0, {out.x, out.y}) - 0.5) < kExact);
        // Off the level to the west: onto it, 0.5 in from the wall.
        REQUIRE(place({-3, 5, 0}, 0.5) == Status::Ok);
        CHECK(out.layer == 0);
        CHECK(std::fabs(out.x - 0.5) < kExact);
        CHECK(out.y == 5.0);
        // Off beyond the south-west corner: into the corner, 0.5 from both walls.
        REQUIRE(place({-1, -1, 0}, 0.5) == Status::Ok);
        CHECK(std::fabs(out.x - 0.5) < kExact);
        CHECK(std::fabs(out.y - 0.5) < kExact);
        // Too close to a wall: pushed straight away from it.
        REQUIRE(place({0.2, 5, 0}, 0.5) == Status::Ok);
        CHECK(std::fabs(out.x - 0.5) < kExact);
        // Already free: unchanged; on the deck: the deck.
        REQUIRE(place({2, 2, 0}, 0.5) == Status::Ok);
        CHECK(out.x == 2.0);
        CHECK(out.y == 2.0);
        REQUIRE(place({12, 5, 0.3}, 0.5) == Status::Ok);
        CHECK(out.layer == 1);
        CHECK(out.x == 12.0);
        // Off the deck's east side: onto the deck.
        REQUIRE(place({16, 5, 0}, 0.5) == Status::Ok);
        CHECK(out.layer == 1);
        CHECK(std::fabs(out.x - 13.5) < kExact);
        // Nothing 6 m from every wall.
        CHECK(place({2, 2, 0}, 6.0) == Status::NotFound);
        // No spot keeps 3 m on either layer (the pillar, the 4 m deck), also seen from 2e9 m off:
        // a slop taken at that point (2 m) once let a first push 1 m from the pillar pass.
        CHECK(place({5, -2e9, 0}, 3.0) == Status::NotFound);
    }

    TEST_CASE("bad input: a status, never a crash") {
        const Level level;
        RaycastHit hit;
        Vec2d result;
        PathEndpoint out;
        const Vec2d a{1, 1}, b{2, 2};
        for (const Vec2d bad : {Vec2d{NAN, 1}, Vec2d{1, INFINITY}}) {
            CHECK(raycast(level.view, level.scratch, 0, bad, b, 0.5, &hit) == Status::InvalidArgument);
            CHECK(raycast(level.view, level.scratch, 0, a, bad, 0.5, &hit) == Status::InvalidArgument);
            CHECK(moveAlongSurface(level.view, level.scratch, 0, bad, b, 0.5, &result) ==
                  Status::InvalidArgument);
            CHECK(moveAlongSurface(level.view, level.scratch, 0, a, bad, 0.5, &result) ==
                  Status::InvalidArgument);
            CHECK(nearestValidPosition(level.view, level.scratch, {bad.x, bad.y, 0}, 0.5, 0.5, &out) ==
                  Status::InvalidArgument);
        }
        for (const double radius : {-1.0, double(NAN), double(INFINITY)}) {
            CHECK(raycast(level.view, level.scratch, 0, a, b, radius, &hit) == Status::InvalidArgument);
            CHECK(moveAlongSurface(level.view, level.scratch, 0, a, b, radius, &result) ==
                  Status::InvalidArgument);
            CHECK(nearestValidPosition(level.view, level.scratch, {1, 1, 0}, radius, 0.5, &out) ==
                  Status::InvalidArgument);
        }
        CHECK(raycast(level.view, level.scratch, 2, a, b, 0.5, &hit) == Status::InvalidArgument);
        CHECK(moveAlongSurface(level.view, level.scratch, 2, a, b, 0.5, &result) == Status::InvalidArgument);
        CHECK(raycast(level.view, nullptr, 0, a, b, 0.5, &hit) == Status::InvalidArgument);
        CHECK(moveAlongSurface(level.view, nullptr, 0, a, b, 0.5, &result) == Status::InvalidArgument);
        CHECK(nearestValidPosition(level.view, nullptr, {1, 1, 0}, 0.5, 0.5, &out) ==
              Status::InvalidArgument);
        CHECK(raycast(level.view, level.scratch, 0, a, b, 0.5, nullptr) == Status::InvalidArgument);
        CHECK(moveAlongSurface(level.view, level.scratch, 0, a, b, 0.5, nullptr) == Status::InvalidArgument);
        CHECK(nearestValidPosition(level.view, level.scratch, {1, 1, 0}, 0.5, 0.5, nullptr) ==
              Status::InvalidArgument);
        CHECK(nearestValidPosition(level.view, level.scratch, {1, 1, 0}, 0.5, -1, &out) ==
              Status::InvalidArgument);
        CHECK(raycast(RoadmapView{}, level.scratch, 0, a, b, 0.5, &hit) == Status::InvalidArgument);
        // A scratch of another roadmap.
        const Level other;
        CHECK(raycast(other.view, level.scratch, 0, a, b, 0.5, &hit) == Status::InvalidArgument);
        // A start inside the pillar or off the level lies on no layer.
        CHECK(raycast(level.view, level.scratch, 0, {5, 5}, {9, 9}, 0.5, &hit) == Status::NotFound);
        CHECK(moveAlongSurface(level.view, level.scratch, 0, {-5, 5}, {9, 9}, 0.5, &result) ==
              Status::NotFound);
        CHECK(std::string(statusString(Status::Blocked)) != "unknown status");
        CHECK(std::string(statusString(Status::PortalReached)) != "unknown status");
        CHECK(std::string(statusString(Status::Partial)) != "unknown status");
    }

} // TEST_SUITE
