// Queries never allocate (the runtime's contract: scratch sized once, outputs in caller buffers),
// measured with a counting global operator new on the baked sample levels in tests/fuzz/seeds.
#define CLEARWAY_DEFINE_COUNTING_NEW
#include "allocation_counter.h"

#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include "loaded_roadmap.h"
#include "test_files.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace clearway;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/";

// Statuses seen inside the measured region, checked after it (assertions may allocate).
struct Tally {
    int calls = 0, ok = 0, bad = 0;
    void add(Status s, bool acceptable) {
        ++calls;
        ok += s == Status::Ok;
        bad += !acceptable;
    }
};

} // namespace

TEST_SUITE("runtime/allocation") {

    TEST_CASE("the counter sees allocations on this thread inside the measured region only") {
        std::unique_ptr<int> outside(new int(1));
        std::unique_ptr<int> inside;
        std::unique_ptr<int[]> array;
        const long counted = test::allocationsDuring([&] {
            inside.reset(new int(2));
            array.reset(new int[4]);
        });
        CHECK(counted == 2);
        CHECK(test::allocationsDuring([] {}) == 0);
    }

    TEST_CASE(
        "loading, nearest point, findPath, pose, corridor, walls and character queries never allocate") {
        for (const char* name : {"box_room", "two_storey", "bridge", "low_overhang"}) {
            const std::string level = name;
            CAPTURE(level);
            const std::vector<uint8_t> roadmap = test::readFile(kSeeds + "roadmap/" + name + ".cwrm");
            const std::vector<uint8_t> footprint = test::readFile(kSeeds + "footprint/" + name + ".cwfp");
            REQUIRE(!roadmap.empty());
            REQUIRE(!footprint.empty());
            RoadmapView view;
            REQUIRE(loadRoadmap(roadmap.data(), roadmap.size(), &view) == Status::Ok);
            RoadmapInfo info;
            REQUIRE(roadmapInfo(view, &info) == Status::Ok);
            REQUIRE(info.vertex_count > 1);
            size_t scratch_bytes = 0;
            REQUIRE(pathScratchSize(view, &scratch_bytes) == Status::Ok);
            std::vector<uint8_t> scratch_memory(scratch_bytes);
            std::vector<PathSegment> segments(512);
            std::vector<PathPose> poses(256);

            Tally nearest, paths, poses_tally, corridor, walls, locate, heights;
            Tally partial_paths, rays, moves, spots;
            int non_trivial_paths = 0;
            const long allocations = test::allocationsDuring([&] {
                RoadmapView v;
                FootprintView fp;
                PathScratch* scratch = nullptr;
                if (loadRoadmap(roadmap.data(), roadmap.size(), &v) != Status::Ok) return;
                if (loadFootprint(footprint.data(), footprint.size(), &fp) != Status::Ok) return;
                if (pathScratchInit(v, scratch_memory.data(), scratch_bytes, &scratch) != Status::Ok) return;
                const uint32_t n = info.vertex_count;
                for (uint32_t i = 0; i < 40; ++i) {
                    RoadmapVertexInfo a, b;
                    roadmapVertex(v, i % n, &a);
                    roadmapVertex(v, (i * 7 + 3) % n, &b);
                    const double radius = 0.2 + 0.05 * (i % 4);
                    RoadmapPoint p;
                    const Status ns =
                        nearestRoadmapPoint(v, a.layer, a.position.x + 0.3, a.position.y, radius, &p);
                    nearest.add(ns, ns == Status::Ok || ns == Status::NotFound);
                    const PathEndpoint from{a.position.x + 0.1, a.position.y + 0.1, a.layer};
                    const PathEndpoint to{b.position.x - 0.1, b.position.y, b.layer};
                    for (double preferred : {radius, 2 * radius, double(INFINITY)}) {
                        uint32_t count = 0;
                        const Status fs = findPath(v, scratch, from, to, radius, preferred, segments.data(),
                                                   &count, uint32_t(segments.size()));
                        paths.add(fs, fs == Status::Ok || fs == Status::NotFound);
                        if (fs != Status::Ok) continue;
                        non_trivial_paths += count > 1;
                        const double length = pathTotalLength(segments.data(), count);
                        PathPose pose;
                        poses_tally.add(pathPoseAt(v, segments.data(), count, length / 3, &pose), true);
                        uint32_t sampled = 0;
                        const Status ps = pathSample(v, segments.data(), count, 0.25, poses.data(), &sampled,
                                                     uint32_t(poses.size()));
                        poses_tally.add(ps, ps == Status::Ok || ps == Status::BufferTooSmall);
                        CorridorSample c;
                        const Status cs =
                            pathCorridorAt(v, scratch, segments.data(), count, length / 2, 5.0, &c);
                        corridor.add(cs, cs == Status::Ok);
                    }
                    uint32_t partial_count = 0;
                    const Status pp = findPathPartial(v, scratch, from, to, radius, radius, segments.data(),
                                                      &partial_count, uint32_t(segments.size()));
                    partial_paths.add(pp,
                                      pp == Status::Ok || pp == Status::Partial || pp == Status::NotFound);
                    const Vec2d ray_from{a.position.x, a.position.y}, ray_to{b.position.x, b.position.y};
                    RaycastHit hit;
                    const Status rs = raycast(v, scratch, a.layer, ray_from, ray_to, radius, &hit);
                    rays.add(rs, rs == Status::Ok || rs == Status::PortalReached || rs == Status::Blocked ||
                                     rs == Status::NotFound);
                    Vec2d moved;
                    const Status ms = moveAlongSurface(v, scratch, a.layer, ray_from, ray_to, radius, &moved);
                    moves.add(ms, ms == Status::Ok || ms == Status::PortalReached || ms == Status::Blocked ||
                                      ms == Status::NotFound);
                    PathEndpoint spot;
                    const Status vs = nearestValidPosition(
                        v, scratch, Vec3d{a.position.x + 0.3, a.position.y - 0.2, a.position.z}, radius, 0.5,
                        &spot);
                    spots.add(vs, vs == Status::Ok || vs == Status::NotFound);
                    double distance = 0;
                    Vec2d wall;
                    walls.add(wallDistance(v, scratch, a.layer, a.position.x, a.position.y, &distance, &wall),
                              true);
                    PathEndpoint where;
                    const Status ls = locatePoint(
                        v, scratch, Vec3d{a.position.x, a.position.y, a.position.z + 0.5}, 0.5, &where);
                    locate.add(ls, ls == Status::Ok || ls == Status::NotFound);
                    float h = 0;
                    const Status hs = footprintHeightAt(fp, a.layer, a.position.x, a.position.y, 0.1f, &h);
                    heights.add(hs, hs == Status::Ok || hs == Status::NotFound);
                }
            });
            CHECK(allocations == 0);
            // The region did the work it claims: real paths, poses and corridors, no odd statuses.
            MESSAGE(name, ": ", paths.calls, " findPath calls, ", paths.ok, " paths (", non_trivial_paths,
                    " with several segments), ", corridor.ok, " corridor samples, 0 allocations");
            CHECK(nearest.calls == 40);
            CHECK(nearest.ok > 0);
            CHECK(paths.calls == 120);
            CHECK(paths.ok > 0);
            CHECK(non_trivial_paths > 0);
            CHECK(poses_tally.ok == 2 * paths.ok);
            CHECK(corridor.ok == paths.ok);
            CHECK(walls.ok == 40);
            CHECK(locate.ok > 0);
            CHECK(heights.ok > 0);
            CHECK(partial_paths.calls == 40);
            CHECK(rays.ok > 0);
            CHECK(moves.ok > 0);
            CHECK(spots.ok > 0);
            for (const Tally* t : {&nearest, &paths, &poses_tally, &corridor, &walls, &locate, &heights,
                                   &partial_paths, &rays, &moves, &spots})
                CHECK(t->bad == 0);
        }
    }

    // bridge-links.cwrm: the bridge with a ladder from the ground onto the deck (link 0) and a
    // one-way jump back down (link 1, flags walk | 2); tests/fuzz/README.md says how it was baked.
    TEST_CASE("findPath and findPathFiltered across off-mesh links, and poses along them, never allocate") {
        const test::LoadedRoadmap level(test::readFile(kSeeds + "roadmap/bridge-links.cwrm"));
        const RoadmapView& view = level.view;
        REQUIRE(roadmapLinkCount(view) == 2);
        RoadmapLinkInfo ladder, jump;
        REQUIRE(roadmapLink(view, 0, &ladder) == Status::Ok);
        REQUIRE(roadmapLink(view, 1, &jump) == Status::Ok);
        REQUIRE(ladder.layer_a != ladder.layer_b);
        const PathEndpoint ground{ladder.start.x + 1.0, ladder.start.y, ladder.layer_a};
        const PathEndpoint deck{ladder.end.x + 1.0, ladder.end.y, ladder.layer_b};
        const PathEndpoint deck_by_jump{jump.start.x - 0.5, jump.start.y, jump.layer_a};
        std::vector<PathSegment> up(64), down(64), closed(64);
        std::vector<PathPose> poses(512);
        uint32_t up_count = 0, down_count = 0, closed_count = 0, sampled = 0;
        Status up_status = Status::NotFound, down_status = Status::NotFound, closed_status = Status::NotFound,
               sample_status = Status::NotFound;
        QueryFilter no_jumps = defaultQueryFilter();
        no_jumps.exclude_flags = 2;
        const long allocations = test::allocationsDuring([&] {
            up_status = findPath(view, level.scratch, ground, deck, 0.3, 0.3, up.data(), &up_count, 64);
            down_status = findPath(view, level.scratch, deck_by_jump, ground, 0.3, INFINITY, down.data(),
                                   &down_count, 64);
            closed_status = findPathFiltered(view, level.scratch, deck_by_jump, ground, 0.3, 0.3, no_jumps,
                                             closed.data(), &closed_count, 64);
            sample_status = pathSample(view, up.data(), up_count, 0.25, poses.data(), &sampled, 512);
        });
        CHECK(allocations == 0);
        REQUIRE(up_status == Status::Ok);
        REQUIRE(down_status == Status::Ok);
        REQUIRE(closed_status == Status::Ok);
        CHECK(sample_status == Status::Ok);
        auto linkOf = [](const std::vector<PathSegment>& path, uint32_t count) {
            for (uint32_t i = 0; i < count; ++i)
                if (path[i].type == PathSegmentType::Link) return int(path[i].link);
            return -1;
        };
        CHECK(linkOf(up, up_count) == 0);
        CHECK(linkOf(down, down_count) == 1);
        CHECK(linkOf(closed, closed_count) == 0); // the jump closed: down the ladder
        // The poses climb the ladder: from the ground's height to the deck's.
        CHECK(poses[0].position.z == doctest::Approx(ladder.start.z).epsilon(1e-3));
        CHECK(poses[sampled - 1].position.z == doctest::Approx(ladder.end.z).epsilon(1e-3));
    }

    // Temporary obstacles: the set's calls and findPathAvoiding with discs and boxes dropped on the
    // routes (detours, reroutes, NotFound) work in caller memory alone.
    TEST_CASE("the obstacle set and findPathAvoiding never allocate") {
        int detoured = 0, unchanged = 0, not_found = 0, bad = 0;
        for (const char* name : {"box_room", "two_storey", "bridge", "low_overhang"}) {
            const std::string level_name = name;
            CAPTURE(level_name);
            const test::LoadedRoadmap level(test::readFile(kSeeds + "roadmap/" + level_name + ".cwrm"));
            RoadmapInfo info;
            REQUIRE(roadmapInfo(level.view, &info) == Status::Ok);
            std::vector<PathSegment> segments(512), plain(512);
            std::vector<uint8_t> set_memory(obstacleSetBytes(8));
            const QueryFilter filter = defaultQueryFilter();
            const long allocations = test::allocationsDuring([&] {
                ObstacleSet* set = nullptr;
                if (obstacleSetInit(set_memory.data(), set_memory.size(), 8, &set) != Status::Ok) return;
                for (uint32_t i = 0; i < 40; ++i) {
                    RoadmapVertexInfo a, b;
                    roadmapVertex(level.view, i % info.vertex_count, &a);
                    roadmapVertex(level.view, (i * 7 + 3) % info.vertex_count, &b);
                    const PathEndpoint from{a.position.x, a.position.y, a.layer},
                        to{b.position.x, b.position.y, b.layer};
                    const double radius = 0.2 + 0.05 * (i % 4);
                    uint32_t plain_count = 0, count = 0, id = 0;
                    if (findPath(level.view, level.scratch, from, to, radius, radius, plain.data(),
                                 &plain_count, 512) != Status::Ok ||
                        plain_count == 0)
                        continue;
                    // On the path's middle piece: a disc, or a box turned by i radians.
                    const PathSegment& mid = plain[plain_count / 2];
                    const Vec2d at{0.5 * (mid.start.x + mid.end.x), 0.5 * (mid.start.y + mid.end.y)};
                    if (obstacleCount(set) == 8) obstacleRemove(set, id);
                    const Status added = i % 2
                                             ? obstacleAddBox(set, mid.layer, at, {0.3, 0.15}, double(i), &id)
                                             : obstacleAddDisc(set, mid.layer, at, 0.25, &id);
                    bad += added != Status::Ok;
                    for (double preferred : {radius, 2 * radius, double(INFINITY)}) {
                        const Status fs =
                            findPathAvoiding(level.view, level.scratch, from, to, radius, preferred,
                                             i % 3 ? nullptr : &filter, set, segments.data(), &count, 512);
                        detoured += fs == Status::Ok && preferred == radius && count != plain_count;
                        unchanged += fs == Status::Ok && preferred == radius && count == plain_count;
                        not_found += fs == Status::NotFound;
                        bad += fs != Status::Ok && fs != Status::NotFound;
                    }
                    obstacleRemove(set, id);
                }
            });
            CHECK(allocations == 0);
        }
        MESSAGE("findPathAvoiding: ", detoured, " detoured, ", unchanged, " same segment count, ", not_found,
                " NotFound, 0 allocations");
        CHECK(bad == 0);
        CHECK(detoured > 0);
    }

    // The character queries' every branch, measured: rays that hit a wall, run free, stop on a
    // portal or start Blocked; moves that slide; spots pushed off the walls; partial paths.
    TEST_CASE(
        "raycast, moveAlongSurface, nearestValidPosition and findPathPartial never allocate on any branch") {
        int hits = 0, free_rays = 0, portals = 0, blocked = 0, slides = 0, pushed = 0, partial = 0, other = 0;
        for (const char* name : {"box_room", "two_storey", "bridge", "low_overhang"}) {
            const std::string level_name = name;
            CAPTURE(level_name);
            const test::LoadedRoadmap level(test::readFile(kSeeds + "roadmap/" + level_name + ".cwrm"));
            const RoadmapView& view = level.view;
            PathScratch* scratch = level.scratch;
            RoadmapInfo info;
            REQUIRE(roadmapInfo(view, &info) == Status::Ok);
            std::vector<PathSegment> segments(512);
            const long allocations = test::allocationsDuring([&] {
                for (uint32_t v = 0; v < info.vertex_count; ++v) {
                    RoadmapVertexInfo a, b;
                    roadmapVertex(view, v, &a);
                    roadmapVertex(view, (v * 7 + 3) % info.vertex_count, &b);
                    const double radius = 0.3;
                    for (int k = 0; k < 8; ++k) { // 8 directions, 6 m: out through walls and portals
                        const double angle = std::atan(1.0) * k + 0.1; // k eighths of a turn
                        const Vec2d from{a.position.x, a.position.y};
                        const Vec2d to{from.x + 6 * std::cos(angle), from.y + 6 * std::sin(angle)};
                        RaycastHit hit;
                        const Status rs = raycast(view, scratch, a.layer, from, to, radius, &hit);
                        hits += rs == Status::Ok && hit.hit;
                        free_rays += rs == Status::Ok && !hit.hit;
                        portals += rs == Status::PortalReached;
                        blocked += rs == Status::Blocked;
                        other += rs != Status::Ok && rs != Status::PortalReached && rs != Status::Blocked &&
                                 rs != Status::NotFound;
                        Vec2d moved;
                        const Status ms = moveAlongSurface(view, scratch, a.layer, from, to, radius, &moved);
                        slides += ms == Status::Ok && (moved.x != to.x || moved.y != to.y) &&
                                  (moved.x != from.x || moved.y != from.y);
                        other += ms != Status::Ok && ms != Status::PortalReached && ms != Status::Blocked &&
                                 ms != Status::NotFound;
                        // From 1.5 m further than the ray's end: off the level or inside a wall.
                        PathEndpoint spot;
                        const Vec3d beyond{to.x + 1.5 * std::cos(angle), to.y + 1.5 * std::sin(angle),
                                           a.position.z};
                        const Status vs = nearestValidPosition(view, scratch, beyond, radius, 0.5, &spot);
                        pushed += vs == Status::Ok && (spot.x != beyond.x || spot.y != beyond.y);
                        other += vs != Status::Ok && vs != Status::NotFound;
                    }
                    uint32_t count = 0;
                    const Status ps = findPathPartial(view, scratch, {a.position.x, a.position.y, a.layer},
                                                      {b.position.x, b.position.y, b.layer}, 0.3, 0.3,
                                                      segments.data(), &count, uint32_t(segments.size()));
                    partial += ps == Status::Partial;
                    other += ps != Status::Ok && ps != Status::Partial && ps != Status::NotFound;
                }
            });
            CHECK(allocations == 0);
        }
        MESSAGE("rays: ", hits, " hits, ", free_rays, " free, ", portals, " on portals, ", blocked,
                " blocked; ", slides, " slides, ", pushed, " spots pushed, ", partial,
                " partial paths, 0 allocations");
        CHECK(hits > 0);
        CHECK(free_rays > 0);
        CHECK(portals > 0);
        CHECK(blocked > 0);
        CHECK(slides > 0);
        CHECK(pushed > 0);
        CHECK(partial > 0);
        CHECK(other == 0);
    }

} // TEST_SUITE
