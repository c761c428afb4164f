// Designer edits (Nieuwenhuisen et al. 2004 "Conclusions"): the sidecar's errors name the file and the line;
// obstacles cut the footprint so the medial axis and paths go round them; weighted areas steer
// findPath's A*; manual edges join the roadmap; the sidecar is part of the input hash; the bake is
// byte-identical; peer meshes (dungeon, undulating 5 km from the origin) change as they should.
#include <clearway/bake.h>
#include <clearway/bake/geometry.h>
#include <clearway/runtime.h>

#include "scenes.h"

#include <doctest/doctest.h>

#include "edit_bakes.h"
#include "hand_levels.h"
#include "test_files.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace cw = clearway;
using namespace clearway::bake;
using cw::Status;
using cw::test::Baked;
using cw::test::bakeEdited;
using cw::test::contains;
using cw::test::footprintOf;
using cw::test::parseError;
using cw::test::rect;
using cw::test::reversed;

namespace {

// findPath's polyline shortening (routes near designer areas) keeps 2 % of the radius more than the
// radius where it can (room for its arcs) plus a 1e-5 margin: for radius 0.5, paths wrap corners at
// 0.51001. The corridor funnel (every other route) keeps the radius exactly.
constexpr double kShortenClearance = 0.5 * 1.02 + 1e-5;

struct Path {
    Status status = Status::NotFound;
    double length = 0;
    std::vector<cw::PathPose> poses; // every 2 cm
};

Path findPath(const Baked& b, Vec2 from, Vec2 to, double radius, double preferred, uint32_t layer = 0) {
    Path out;
    std::vector<cw::PathSegment> segments(1024);
    uint32_t count = 0;
    out.status = cw::findPath(b.view, b.scratch, {from.x, from.y, layer}, {to.x, to.y, layer}, radius,
                              preferred, segments.data(), &count, uint32_t(segments.size()));
    if (out.status != Status::Ok) return out;
    out.length = cw::pathTotalLength(segments.data(), count);
    out.poses.resize(1 << 16);
    uint32_t poses = 0;
    REQUIRE(cw::pathSample(b.view, segments.data(), count, 0.02, out.poses.data(), &poses,
                           uint32_t(out.poses.size())) == Status::Ok);
    out.poses.resize(poses);
    return out;
}

double distanceToBox(Vec2 p, double x0, double y0, double x1, double y1) {
    const double dx = std::max({x0 - p.x, 0.0, p.x - x1}), dy = std::max({y0 - p.y, 0.0, p.y - y1});
    return std::hypot(dx, dy);
}

// Local ground point -> the world "h0,h1" pair a sidecar writes (hand footprints: origin 0, Y up).
std::string worldPair(const Footprint& fp, double x, double y) {
    const Vec3 w = internalToWorld({x + fp.origin.x, y + fp.origin.y, fp.origin.z}, fp.options);
    char text[96];
    if (fp.options.up == UpAxis::Y)
        std::snprintf(text, sizeof text, "%.12g,%.12g", w.x, w.z);
    else
        std::snprintf(text, sizeof text, "%.12g,%.12g", w.x, w.y);
    return text;
}

std::string worldBox(const Footprint& fp, double x0, double y0, double x1, double y1) {
    return worldPair(fp, x0, y0) + " " + worldPair(fp, x1, y0) + " " + worldPair(fp, x1, y1) + " " +
           worldPair(fp, x0, y1);
}

std::string peer(const std::string& name) {
    return std::string(CLEARWAY_PEER_MESHES) + "/" + name;
}

} // namespace

TEST_SUITE("designer edits") {
    TEST_CASE("every kind of bad line is an error naming the file, the line and the problem") {
        SUBCASE("missing version line") {
            CHECK(contains(parseError("# edits\n\nobstacle 0,0 1,0 1,1\n", 3), "missing version line"));
            CHECK(contains(parseError("", 1), "missing version line"));
        }
        SUBCASE("unsupported version") {
            CHECK(contains(parseError("clearway-edits 2\n", 1), "unsupported version '2'"));
        }
        SUBCASE("bad number") {
            const std::string m = parseError("clearway-edits 1\nobstacle 0,0 1,abc 1,1\n", 2);
            CHECK(contains(m, "'abc' is not a number"));
            CHECK(contains(parseError("clearway-edits 1\nobstacle 0,0 1 1,1\n", 2), "not a point of 2"));
            CHECK(contains(parseError("clearway-edits 1\nnode a 1,2\n", 2), "not a point of 3"));
        }
        SUBCASE("NaN or infinity") {
            CHECK(contains(parseError("clearway-edits 1\n\nobstacle 0,0 nan,0 1,1\n", 3),
                           "not a finite number"));
            CHECK(contains(parseError("clearway-edits 1\nnode a 1,inf,2\n", 2), "not a finite number"));
            CHECK(
                contains(parseError("clearway-edits 1\narea 1e999 0,0 1,0 1,1\n", 2), "not a finite number"));
        }
        SUBCASE("polygon with fewer than 3 points") {
            CHECK(
                contains(parseError("clearway-edits 1\nobstacle 0,0 1,0\n", 2), "at least 3 points (got 2)"));
            CHECK(contains(parseError("clearway-edits 1\narea 2 0,0 1,0 floor 0\n", 2), "at least 3 points"));
        }
        SUBCASE("self-crossing polygon") {
            CHECK(contains(parseError("clearway-edits 1\nobstacle 0,0 2,2 2,0 0,2\n", 2), "crosses itself"));
            CHECK(contains(parseError("clearway-edits 1\nobstacle 0,0 2,0 1,0 1,1\n", 2), "crosses itself"));
        }
        SUBCASE("zero-area polygon") {
            CHECK(contains(parseError("clearway-edits 1\nobstacle 0,0 1,1 2,2\n", 2), "zero area"));
            CHECK(contains(parseError("clearway-edits 1\nobstacle 0,0 1,0 1,0 1,1\n", 2), "repeats point 2"));
        }
        SUBCASE("weight <= 0") {
            CHECK(contains(parseError("clearway-edits 1\narea 0 0,0 1,0 1,1\n", 2), "weight must be > 0"));
            CHECK(contains(parseError("clearway-edits 1\narea -3 0,0 1,0 1,1\n", 2), "weight must be > 0"));
        }
        SUBCASE("area type or flags out of range") {
            const std::string box = " 0,0 1,0 1,1\n";
            CHECK(contains(parseError("clearway-edits 1\narea 1 type 64" + box, 2),
                           "type must be an integer 0 .. 63"));
            CHECK(contains(parseError("clearway-edits 1\narea 1 type -1" + box, 2), "type must be"));
            CHECK(contains(parseError("clearway-edits 1\narea 1 type" + box, 2), "type must be"));
            CHECK(contains(parseError("clearway-edits 1\narea 1 flags 0" + box, 2),
                           "flags must be an integer 1 .. 65535"));
            CHECK(contains(parseError("clearway-edits 1\narea 1 flags 0x10000" + box, 2), "flags must be"));
            CHECK(contains(parseError("clearway-edits 1\narea 1 flags door" + box, 2), "flags must be"));
        }
        SUBCASE("unknown node name") {
            CHECK(contains(parseError("clearway-edits 1\nnode a 0,0,0\nedge a b\n", 3), "unknown node 'b'"));
        }
        SUBCASE("duplicate node") {
            CHECK(contains(parseError("clearway-edits 1\nnode a 0,0,0\n# again\nnode a 1,0,1\n", 4),
                           "already defined on line 2"));
        }
        SUBCASE("unknown statement") {
            CHECK(contains(parseError("clearway-edits 1\nwall 0,0 1,1\n", 2), "unknown statement 'wall'"));
        }
        SUBCASE("misplaced floor, bad node name, version twice") {
            CHECK(contains(parseError("clearway-edits 1\nobstacle 0,0 floor 1 1,0 1,1\n", 2), "comes last"));
            CHECK(contains(parseError("clearway-edits 1\nnode 9lives 0,0,0\n", 2), "bad name"));
            CHECK(contains(parseError("clearway-edits 1\nclearway-edits 1\n", 2), "appears twice"));
        }
        SUBCASE("node outside every walkable layer") {
            LevelEdits edits;
            REQUIRE(!parseEdits("clearway-edits 1\n\nnode far 50,0,-5\n", "level.cwedit", &edits));
            Footprint fp = footprintOf(rect(0, 0, 20, 10));
            const Error e = applyFootprintEdits(edits, &fp, silentLog());
            CHECK(e.code == ErrorCode::ReadFailed);
            CHECK(e.message == "level.cwedit:3: node 'far' lies outside every walkable layer");
        }
        SUBCASE("edge through a wall") {
            LevelEdits edits;
            REQUIRE(!parseEdits("clearway-edits 1\nnode a 2,0,-5\nnode b 18,0,-5\nedge a b\n", "level.cwedit",
                                &edits));
            Footprint fp = footprintOf(rect(0, 0, 20, 10), {reversed(rect(6, 2, 14, 8))});
            const Error e = applyFootprintEdits(edits, &fp, silentLog());
            CHECK(e.code == ErrorCode::ReadFailed);
            CHECK(
                contains(e.message, "level.cwedit:4: edge from node 'a' to node 'b' passes through a wall"));
        }
        SUBCASE("a good file parses, comments and blank lines included") {
            LevelEdits edits;
            const Error e =
                parseEdits("# header\n  clearway-edits 1   # version\n\nobstacle 0,0 1,0 1,1 0,1 0,0\n"
                           "area 0.5 0,0 2,0 2,2 floor 1.5\nnode a 1,0,1\nedge a 3,0,3\n",
                           "ok.cwedit", &edits);
            REQUIRE_MESSAGE(!e, e.message);
            REQUIRE(edits.obstacles.size() == 1);
            CHECK(edits.obstacles[0].points.size() == 4); // the closing repeat is dropped
            CHECK(edits.obstacles[0].line == 4);
            REQUIRE(edits.areas.size() == 1);
            CHECK(edits.areas[0].weight == 0.5);
            CHECK(edits.areas[0].polygon.has_floor);
            CHECK(edits.areas[0].polygon.floor == 1.5);
            CHECK(edits.areas[0].type == 0);  // defaults: type 0,
            CHECK(edits.areas[0].flags == 1); // the walk flag
            CHECK(edits.nodes.size() == 2); // "a" and the edge's point
            REQUIRE(edits.edges.size() == 1);
            CHECK(edits.edges[0].line == 7);
        }
    }

    TEST_CASE("an obstacle in the middle of a room: the medial axis goes round it, paths keep clearance") {
        // Room 20 x 10, obstacle 8..12 x 3..7 (world z = -y for a Y-up level).
        const Footprint room = footprintOf(rect(0, 0, 20, 10));
        const auto b = bakeEdited(room, "clearway-edits 1\nobstacle 8,-3 12,-3 12,-7 8,-7\n");
        const Footprint& fp = b->roadmap.footprint;
        REQUIRE(fp.layers.size() == 1);
        REQUIRE(fp.layers[0].polygons.size() == 1);
        REQUIRE(fp.layers[0].polygons[0].holes.size() == 1);
        CHECK(fp.layers[0].area == doctest::Approx(200 - 16).epsilon(1e-12));
        for (const Vec2& p : fp.layers[0].polygons[0].holes[0])
            CHECK(distanceToBox(p, 8, 3, 12, 7) == 0.0);
        // Medial-axis edges pass above and below the obstacle (crossing x = 10), none through it.
        bool above = false, below = false;
        for (const RoadmapEdge& e : b->roadmap.edges)
            for (size_t k = 0; k + 1 < e.points.size(); ++k) {
                const Vec2 p = e.points[k], q = e.points[k + 1];
                CHECK(!(p.x > 8 && p.x < 12 && p.y > 3 && p.y < 7));
                if ((p.x - 10) * (q.x - 10) > 0 || p.x == q.x) continue;
                const double y = p.y + (q.y - p.y) * (10 - p.x) / (q.x - p.x);
                above |= y > 7, below |= y < 3;
            }
        CHECK(above);
        CHECK(below);
        // Shortest path from (2,5) to (18,5) keeping r from the obstacle: tangent from (2,5) to the
        // disc of r round (8,7), 4 m along y = 7 + r, mirror image down to (18,5):
        // 2 * (sqrt(40 - r^2) + r * (atan2(2, 6) + asin(r / sqrt(40)))) + 4 = 17.0105 for r = 0.5
        // (the corridor funnel's exact answer: the radius itself, no margin).
        const double r = 0.5;
        const double expected =
            2 * (std::sqrt(40 - r * r) + r * (std::atan2(2, 6) + std::asin(r / std::sqrt(40)))) + 4;
        const Path taut = findPath(*b, {2, 5}, {18, 5}, 0.5, 0.5);
        REQUIRE(taut.status == Status::Ok);
        CHECK(taut.length == doctest::Approx(expected).epsilon(1e-12));
        MESSAGE("round the obstacle: " << taut.length << " m (hand-checked " << expected << ")");
        for (const Path& path : {taut, findPath(*b, {2, 5}, {18, 5}, 0.5, INFINITY)}) {
            REQUIRE(path.status == Status::Ok);
            double nearest = INFINITY;
            for (const cw::PathPose& pose : path.poses)
                nearest = std::min(nearest, distanceToBox({pose.position.x, pose.position.y}, 8, 3, 12, 7));
            CHECK(nearest >= 0.5 - 1e-6);
        }
    }

    TEST_CASE("an avoided area on one of two routes sends findPath along the other, a preferred one back") {
        // Room 20 x 10 with a block 6..14 x 2..8: corridors y 0..2 and y 8..10. From (2,4) to (18,4)
        // the bottom is shorter; the shortest paths with clearance 0.5 are (tangents from the ends to
        // the discs of r round the block's corners, 8 m along the corridor):
        //   bottom: 2 * (sqrt(20 - r^2) + r * (atan2(2, 4) + asin(r / sqrt(20)))) + 8 = 17.4639,
        //           r = 0.5 exactly (the corridor funnel, for a level without designer areas)
        //   top:    2 * (sqrt(32 - r^2) + r * (atan2(4, 4) + asin(r / sqrt(32)))) + 8 = 20.1609,
        //           r = 0.51001 (the polyline shortening's margin, which paths near areas still take)
        const double r = kShortenClearance;
        const double bottom = 2 * (std::sqrt(20 - 0.25) + 0.5 * (std::atan2(2, 4) + std::asin(0.5 / std::sqrt(20)))) + 8;
        const double top =
            2 * (std::sqrt(32 - r * r) + r * (std::atan2(4, 4) + std::asin(r / std::sqrt(32)))) + 8;
        const Footprint level = footprintOf(rect(0, 0, 20, 10), {reversed(rect(6, 2, 14, 8))});
        auto maxY = [](const Path& p) {
            double m = -INFINITY;
            for (const cw::PathPose& pose : p.poses)
                m = std::max(m, pose.position.y);
            return m;
        };

        const auto plain = bakeEdited(level, "");
        const Path shortest = findPath(*plain, {2, 4}, {18, 4}, 0.5, 0.5);
        REQUIRE(shortest.status == Status::Ok);
        CHECK(shortest.length == doctest::Approx(bottom).epsilon(1e-12));
        CHECK(maxY(shortest) < 5);

        // Weight 10 over the bottom corridor (world z = -y).
        const auto avoided = bakeEdited(level, "clearway-edits 1\narea 10 6,0 14,0 14,-2 6,-2\n");
        REQUIRE(avoided->roadmap.areas.size() == 1);
        REQUIRE(avoided->roadmap.edge_weights.size() == avoided->roadmap.edges.size());
        const Path over = findPath(*avoided, {2, 4}, {18, 4}, 0.5, 0.5);
        REQUIRE(over.status == Status::Ok);
        CHECK(over.length == doctest::Approx(top).epsilon(1e-5));
        CHECK(maxY(over) > 8);
        MESSAGE("bottom " << shortest.length << " m (hand " << bottom << "), over the top " << over.length
                          << " m (hand " << top << ")");
        // Edge weights: 10 on edges wholly inside, 1 on edges outside, in between across the border.
        for (size_t e = 0; e < avoided->roadmap.edges.size(); ++e) {
            const RoadmapEdge& edge = avoided->roadmap.edges[e];
            bool all_in = true, all_out = true;
            for (const Vec2& p : edge.points) {
                const bool in = p.x > 6 && p.x < 14 && p.y > 0 && p.y < 2;
                const bool out = p.x < 6 || p.x > 14 || p.y > 2;
                all_in &= in, all_out &= out;
            }
            const double w = avoided->roadmap.edge_weights[e];
            if (all_in) CHECK(w == doctest::Approx(10));
            if (all_out) CHECK(w == doctest::Approx(1));
            CHECK(w >= 1 - 1e-12);
            CHECK(w <= 10 + 1e-12);
        }

        // Mirror: from (2,6) to (18,6) the top is shorter; weight 0.1 on the bottom corridor makes
        // the bottom (now the longer way, 20.1433 m) cheaper.
        const Path plain_top = findPath(*plain, {2, 6}, {18, 6}, 0.5, 0.5);
        REQUIRE(plain_top.status == Status::Ok);
        CHECK(maxY(plain_top) > 8);
        const auto preferred = bakeEdited(level, "clearway-edits 1\narea 0.1 6,0 14,0 14,-2 6,-2\n");
        const Path under = findPath(*preferred, {2, 6}, {18, 6}, 0.5, 0.5);
        REQUIRE(under.status == Status::Ok);
        CHECK(maxY(under) < 6.5);
        CHECK(under.length == doctest::Approx(top).epsilon(1e-5));
    }

    TEST_CASE("a door area (type and flags): a filter excluding its flag forces the long way round") {
        // The level above; the door (weight 1, type 5, flags walk | 8) fills the bottom corridor. Paths
        // near areas take the polyline shortening (clearance r, as above): from (2,4) to (18,4) the
        // bottom, 2 * (sqrt(20 - r^2) + r * (atan2(2, 4) + asin(r / sqrt(20)))) + 8, or with the door
        // closed the top, 20.1609 m.
        const double r = kShortenClearance;
        const double bottom =
            2 * (std::sqrt(20 - r * r) + r * (std::atan2(2, 4) + std::asin(r / std::sqrt(20)))) + 8;
        const double top =
            2 * (std::sqrt(32 - r * r) + r * (std::atan2(4, 4) + std::asin(r / std::sqrt(32)))) + 8;
        const Footprint level = footprintOf(rect(0, 0, 20, 10), {reversed(rect(6, 2, 14, 8))});
        const auto door =
            bakeEdited(level, "clearway-edits 1\narea 1 type 5 flags 0x9 6,0 14,0 14,-2 6,-2\n");
        const Roadmap& rm = door->roadmap;
        REQUIRE(rm.areas.size() == 1);
        CHECK(rm.areas[0].type == 5);
        CHECK(rm.areas[0].flags == 9);
        // Spans: each edge's cost split by type and flags, adding up to its length x weight; an edge
        // with points in the door has a door span.
        REQUIRE(rm.edge_span_starts.size() == rm.edges.size() + 1);
        int door_edges = 0;
        for (size_t e = 0; e < rm.edges.size(); ++e) {
            double length = 0, spans = 0;
            bool door_span = false, inside = false;
            for (size_t k = 0; k + 1 < rm.edges[e].points.size(); ++k)
                length += geometry::dist(rm.edges[e].points[k], rm.edges[e].points[k + 1]);
            for (const Vec2& p : rm.edges[e].points)
                inside |= p.x > 6 && p.x < 14 && p.y > 0 && p.y < 2;
            for (uint32_t k = rm.edge_span_starts[e]; k < rm.edge_span_starts[e + 1]; ++k) {
                spans += rm.edge_spans[k].cost;
                door_span |= rm.edge_spans[k].type == 5 && rm.edge_spans[k].flags == 9;
            }
            if (rm.edge_span_starts[e] == rm.edge_span_starts[e + 1]) spans = length; // all type 0, walk
            CHECK(spans == doctest::Approx(length * rm.edge_weights[e]).epsilon(1e-9));
            if (inside) CHECK(door_span);
            door_edges += door_span;
        }
        CHECK(door_edges > 0);

        auto plan = [&](const cw::QueryFilter& filter) {
            std::vector<cw::PathSegment> segments(1024);
            uint32_t count = 0;
            const Status st =
                cw::findPathFiltered(door->view, door->scratch, {2, 4, 0}, {18, 4, 0}, 0.5, 0.5, filter,
                                     segments.data(), &count, uint32_t(segments.size()));
            REQUIRE(st == Status::Ok);
            return cw::pathTotalLength(segments.data(), count);
        };
        const Path plain = findPath(*door, {2, 4}, {18, 4}, 0.5, 0.5);
        REQUIRE(plain.status == Status::Ok);
        CHECK(plain.length == doctest::Approx(bottom).epsilon(1e-5));
        CHECK(plan(cw::defaultQueryFilter()) == plain.length);
        cw::QueryFilter closed = cw::defaultQueryFilter();
        closed.exclude_flags = 8;
        const double round = plan(closed);
        CHECK(round == doctest::Approx(top).epsilon(1e-5));
        closed.exclude_flags = 2; // a flag no area carries: the bottom again
        CHECK(plan(closed) == plain.length);
        MESSAGE("door open " << plain.length << " m (hand " << bottom << "), closed " << round << " m (hand "
                             << top << ")");
    }

    TEST_CASE("a manual edge through a door the roadmap dropped makes the door usable") {
        // Two rooms joined by a 0.5 m door (clearance 0.25) in a wall 9.75..10.25. Baked with
        // --min-clearance 0.3 the door's medial edges are gone; a manual edge from (5,5) to (15,5)
        // has exactly the door's clearance, 0.25, and links to both rooms' roadmaps.
        const Ring two_rooms = {{0, 0},   {9.75, 0},   {9.75, 4.75},  {10.25, 4.75}, {10.25, 0}, {20, 0},
                                {20, 10}, {10.25, 10}, {10.25, 5.25}, {9.75, 5.25},  {9.75, 10}, {0, 10}};
        RoadmapOptions options;
        options.min_clearance = 0.3;
        const auto without = bakeEdited(footprintOf(two_rooms), "", options);
        CHECK(findPath(*without, {3, 3}, {17, 7}, 0.2, INFINITY).status == Status::NotFound);

        const auto with =
            bakeEdited(footprintOf(two_rooms),
                       "clearway-edits 1\nnode west 5,0,-5\nnode east 15,0,-5\nedge west east\n", options);
        const Roadmap& rm = with->roadmap;
        REQUIRE(rm.vertices.size() == without->roadmap.vertices.size() + 2);
        REQUIRE(rm.edges.size() == without->roadmap.edges.size() + 3); // two links and the edge
        const RoadmapEdge& manual = rm.edges.back();
        CHECK(manual.min_clearance == doctest::Approx(0.25).epsilon(1e-12));
        // Nearest solid wall of (5,5): the door's corner (9.75, 4.75), not the gap in front of it.
        CHECK(rm.vertices[manual.a].clearance == doctest::Approx(std::hypot(4.75, 0.25)).epsilon(1e-12));
        const Path through = findPath(*with, {3, 3}, {17, 7}, 0.2, INFINITY);
        REQUIRE(through.status == Status::Ok);
        bool crossed = false;
        for (const cw::PathPose& p : through.poses)
            crossed |= std::abs(p.position.x - 10) < 0.01 && std::abs(p.position.y - 5) < 0.01;
        CHECK(crossed);
        // Wider agents still cannot use it: the edge keeps its exact clearance.
        CHECK(findPath(*with, {3, 3}, {17, 7}, 0.3, INFINITY).status == Status::NotFound);
        // Shortened, the path still passes the door.
        CHECK(findPath(*with, {3, 3}, {17, 7}, 0.2, 0.2).status == Status::Ok);
    }

    TEST_CASE("floor picks the layer: a crate under the bridge deck cuts the ground floor only") {
        const cw::scenes::Scene scene = cw::scenes::bridge();
        Mesh mesh;
        REQUIRE(!meshFromTriangles(scene.positions, scene.indices, defaultImportOptions(), "bridge", &mesh));
        Footprint before;
        REQUIRE(!buildFootprint(mesh, defaultImportOptions(), &before, silentLog()));
        REQUIRE(before.layers.size() == 2);
        // Crate X 14..16, Y 4.5..5.5 (world z = -Y) under the deck (4 m): floor 0 is the ground.
        for (const double floor : {0.0, 4.0}) {
            Footprint fp = before;
            LevelEdits edits;
            REQUIRE(!parseEdits("clearway-edits 1\nobstacle 14,-4.5 16,-4.5 16,-5.5 14,-5.5 floor " +
                                    std::to_string(floor) + "\n",
                                "bridge.cwedit", &edits));
            REQUIRE(!applyFootprintEdits(edits, &fp, silentLog()));
            uint32_t cut = 0;
            for (uint32_t l = 0; l < 2; ++l) {
                const double lost = before.layers[l].area - fp.layers[l].area;
                CHECK(
                    (lost == doctest::Approx(0).epsilon(1e-12) || lost == doctest::Approx(2).epsilon(1e-9)));
                if (lost > 1) {
                    ++cut;
                    // The layer whose surface reaches that height (world y = local z + origin z).
                    CHECK(floor >= before.layers[l].height_min + before.origin.z - 1e-6);
                    CHECK(floor <= before.layers[l].height_max + before.origin.z + 1e-6);
                }
            }
            CHECK(cut == 1);
            CHECK(fp.connections.size() == before.connections.size());
        }
        // Without floor: both layers lose the crate's 2 m2.
        Footprint both = before;
        LevelEdits edits;
        REQUIRE(!parseEdits("clearway-edits 1\nobstacle 14,-4.5 16,-4.5 16,-5.5 14,-5.5\n", "bridge.cwedit",
                            &edits));
        REQUIRE(!applyFootprintEdits(edits, &both, silentLog()));
        for (uint32_t l = 0; l < 2; ++l)
            CHECK(before.layers[l].area - both.layers[l].area == doctest::Approx(2).epsilon(1e-9));
    }

    TEST_CASE("dungeon: an obstacle across the corridor to the north room cuts that room off") {
        RoadmapRequest request;
        request.input_path = peer("dungeon.obj");
        request.use_edits = false;
        RoadmapResult plain;
        const Error e0 = bakeLevel(request, &plain, silentLog());
        REQUIRE_MESSAGE(!e0, e0.message);
        const Footprint& fp0 = plain.roadmap.footprint;
        // The corridor runs north along local x 3 .. 12.8, y 10 .. 27; a 1 m band across it,
        // written in the mesh's world coordinates.
        const std::string folder = cw::test::makeTempDir("clearway-edits");
        request.edits_path = folder + "/dungeon.cwedit";
        request.use_edits = true;
        cw::test::writeFile(request.edits_path, "clearway-edits 1\n# across the north corridor\nobstacle " +
                                                    worldBox(fp0, 0, 18, 16, 19) + "\n");
        RoadmapResult cut;
        const Error e1 = bakeLevel(request, &cut, silentLog());
        REQUIRE_MESSAGE(!e1, e1.message);
        const Footprint& fp1 = cut.roadmap.footprint;
        REQUIRE(fp1.layers.size() == fp0.layers.size());
        // The corridor floor (layer 0) and the ledges along its walls (layers 0 and 1) are cut in two.
        double lost = 0;
        for (uint32_t l = 0; l < fp0.layers.size(); ++l) {
            const double layer_lost = fp0.layers[l].area - fp1.layers[l].area;
            lost += layer_lost;
            MESSAGE("layer " << l << ": " << fp0.layers[l].polygons.size() << " -> "
                             << fp1.layers[l].polygons.size() << " polygons, " << layer_lost << " m2 cut");
            CHECK(layer_lost >= 0);
            CHECK(fp1.layers[l].polygons.size() >= fp0.layers[l].polygons.size());
        }
        CHECK(lost > 9.5); // the corridor is about 10 m wide
        CHECK(lost < 10.5);
        CHECK(fp1.layers[0].polygons.size() > fp0.layers[0].polygons.size());
        CHECK(fp1.input_hash != fp0.input_hash);
        for (const RoadmapEdge& e : cut.roadmap.edges)
            for (const Vec2& p : e.points)
                CHECK(!(p.x > 3 && p.x < 12.8 && p.y > 18 + 1e-9 && p.y < 19 - 1e-9));

        // From the hub in the south to the corridor's north end: a path before, none after.
        auto query = [](const Roadmap& rm, Vec2 from, Vec2 to) {
            Baked b;
            b.bytes = serializeRoadmap(rm);
            REQUIRE(cw::loadRoadmap(b.bytes.data(), b.bytes.size(), &b.view) == Status::Ok);
            size_t size = 0;
            REQUIRE(cw::pathScratchSize(b.view, &size) == Status::Ok);
            b.scratch_memory.resize(size);
            REQUIRE(cw::pathScratchInit(b.view, b.scratch_memory.data(), size, &b.scratch) == Status::Ok);
            cw::PathEndpoint endpoints[2];
            const Vec2 points[2] = {from, to};
            for (int k = 0; k < 2; ++k) // from far below: the lowest floor there
                REQUIRE(cw::locatePoint(b.view, b.scratch, {points[k].x, points[k].y, -1e3}, 0.0,
                                        &endpoints[k]) == Status::Ok);
            std::vector<cw::PathSegment> segments(4096);
            uint32_t count = 0;
            return cw::findPath(b.view, b.scratch, endpoints[0], endpoints[1], 0.5, 0.5, segments.data(),
                                &count, uint32_t(segments.size()));
        };
        CHECK(query(plain.roadmap, {-12, -20.7}, {7.85, 24}) == Status::Ok);
        CHECK(query(cut.roadmap, {-12, -20.7}, {7.85, 24}) == Status::NotFound);
        CHECK(query(cut.roadmap, {-12, -20.7}, {7.85, 15}) == Status::Ok); // south of the band
        std::filesystem::remove_all(folder);
    }

    TEST_CASE("a level 5 km from the origin: sidecar points in world units land where they say") {
        // undulating.obj lies about 5 km from the world origin. A 2 x 2 m obstacle round a roadmap
        // vertex with 3 m of clearance is wholly walkable ground: exactly 4 m2 go, and the new
        // hole's corners map back to the sidecar's world numbers.
        RoadmapRequest request;
        request.input_path = peer("undulating.obj");
        request.use_edits = false;
        RoadmapResult plain;
        const Error e0 = bakeLevel(request, &plain, silentLog());
        REQUIRE_MESSAGE(!e0, e0.message);
        const Footprint& fp0 = plain.roadmap.footprint;
        CHECK(std::hypot(fp0.origin.x, fp0.origin.y) > 4000);
        const RoadmapVertex* wide = nullptr;
        for (const RoadmapVertex& v : plain.roadmap.vertices)
            if (v.clearance >= 3 && (!wide || v.clearance > wide->clearance)) wide = &v;
        REQUIRE(wide);
        const double cx = std::round(wide->position.x), cy = std::round(wide->position.y);
        REQUIRE(std::hypot(cx - wide->position.x, cy - wide->position.y) + std::sqrt(2.0) < wide->clearance);
        const std::string box = worldBox(fp0, cx - 1, cy - 1, cx + 1, cy + 1);
        MESSAGE("obstacle " << box);
        const std::string folder = cw::test::makeTempDir("clearway-edits");
        ImportRequest import;
        import.mesh_path = request.input_path;
        import.edits_path = folder + "/undulating.cwedit";
        cw::test::writeFile(import.edits_path, "clearway-edits 1\nobstacle " + box + "\n");
        ImportResult result;
        const Error e1 = importLevel(import, &result, silentLog());
        REQUIRE_MESSAGE(!e1, e1.message);
        const Footprint& fp1 = result.footprint;
        const uint32_t layer = wide->layer;
        CHECK(fp0.layers[layer].area - fp1.layers[layer].area == doctest::Approx(4).epsilon(1e-6));
        size_t holes0 = 0, holes1 = 0;
        const Ring* hole = nullptr;
        for (const PolygonWithHoles& p : fp0.layers[layer].polygons)
            holes0 += p.holes.size();
        for (const PolygonWithHoles& p : fp1.layers[layer].polygons)
            for (const Ring& h : p.holes) {
                ++holes1;
                if (h.size() == 4 && distanceToBox(h[0], cx - 1, cy - 1, cx + 1, cy + 1) < 1e-3) hole = &h;
            }
        CHECK(holes1 == holes0 + 1);
        REQUIRE(hole);
        for (const Vec2& corner : *hole) {
            CHECK(std::abs(std::abs(corner.x - cx) - 1) < 1e-4);
            CHECK(std::abs(std::abs(corner.y - cy) - 1) < 1e-4);
        }
        std::filesystem::remove_all(folder);
    }

    TEST_CASE("the sample sidecar: picked up next to the mesh, hashed, and baked byte-identically twice") {
        const std::string mesh = std::string(CLEARWAY_SAMPLES) + "/levels/bridge.obj";
        CHECK(defaultEditsPath(mesh) == std::string(CLEARWAY_SAMPLES) + "/levels/bridge.cwedit");
        CHECK(defaultEditsPath("a/b.c/level") == "a/b.c/level.cwedit");
        CHECK(defaultEditsPath("x.tar.gz") == "x.tar.cwedit");
        CHECK(editsPathFor(mesh, "", true) == defaultEditsPath(mesh));
        CHECK(editsPathFor(mesh, "", false).empty());
        CHECK(editsPathFor(mesh, "other.cwedit", true) == "other.cwedit");
        CHECK(editsPathFor(std::string(CLEARWAY_SAMPLES) + "/levels/ramp.obj", "", true).empty());

        RoadmapRequest request;
        request.input_path = mesh;
        RoadmapResult first, second, plain;
        const Error e1 = bakeLevel(request, &first, silentLog());
        REQUIRE_MESSAGE(!e1, e1.message);
        REQUIRE(!bakeLevel(request, &second, silentLog()));
        const std::vector<uint8_t> bytes = serializeRoadmap(first.roadmap);
        CHECK(bytes == serializeRoadmap(second.roadmap));
        CHECK(!first.roadmap.areas.empty());
        request.use_edits = false;
        REQUIRE(!bakeLevel(request, &plain, silentLog()));
        CHECK(plain.roadmap.areas.empty());
        CHECK(plain.roadmap.edge_weights.empty());
        LevelEdits edits;
        REQUIRE(!loadEdits(defaultEditsPath(mesh), &edits));
        CHECK(first.roadmap.footprint.input_hash ==
              inputHashWithEdits(plain.roadmap.footprint.input_hash, edits));
        CHECK(first.roadmap.footprint.input_hash != plain.roadmap.footprint.input_hash);
        // Any byte of the sidecar matters.
        LevelEdits touched = edits;
        touched.text += "\n";
        CHECK(inputHashWithEdits(1, touched) != inputHashWithEdits(1, edits));
        CHECK(inputHashWithEdits(1, LevelEdits{}) == 1);

        RoadmapRequest missing = request;
        missing.use_edits = true;
        missing.edits_path = "/nonexistent/level.cwedit";
        RoadmapResult none;
        const Error e = bakeLevel(missing, &none, silentLog());
        CHECK(e.code == ErrorCode::FileNotFound);
        CHECK(contains(e.message, "/nonexistent/level.cwedit"));
    }

    TEST_CASE("cw-bake and cw-import: --if-changed sees the sidecar, --no-edits ignores it, errors exit 2") {
        const std::string folder = cw::test::makeTempDir("clearway-edits");
        const std::string mesh = folder + "/box_room.obj", sidecar = folder + "/box_room.cwedit";
        const std::vector<uint8_t> obj =
            cw::test::readFile(std::string(CLEARWAY_SAMPLES) + "/levels/box_room.obj");
        cw::test::writeFile(mesh, std::string(obj.begin(), obj.end()));
        cw::test::writeFile(sidecar, "clearway-edits 1\nobstacle 2,2 4,2 4,4 2,4\n");
        const std::string bin = CLEARWAY_BIN_DIR;
        const std::string bake = bin + "/cw-bake " + mesh + " -o " + folder + "/out.cwrm";
        std::string out;
        REQUIRE(cw::test::runTool(bake + " --if-changed", &out) == 0);
        CHECK(cw::test::runTool(bake + " --if-changed", &out) == 0);
        CHECK(contains(out, "up to date"));
        cw::test::writeFile(sidecar, "clearway-edits 1\nobstacle 2,2 5,2 5,4 2,4\n");
        CHECK(cw::test::runTool(bake + " --if-changed -v", &out) == 0);
        CHECK(contains(out, "the input changed"));
        CHECK(cw::test::runTool(bake + " --if-changed --no-edits -v", &out) == 0);
        CHECK(contains(out, "the input changed"));
        CHECK(cw::test::runTool(bake + " --if-changed --no-edits", &out) == 0);
        CHECK(contains(out, "up to date"));

        // Two processes, one sidecar: the same bytes.
        REQUIRE(cw::test::runTool(bin + "/cw-bake " + mesh + " -o " + folder + "/again.cwrm", &out) == 0);
        REQUIRE(cw::test::runTool(bin + "/cw-bake " + mesh + " -o " + folder + "/again2.cwrm", &out) == 0);
        CHECK(cw::test::readFile(folder + "/again.cwrm") == cw::test::readFile(folder + "/again2.cwrm"));

        cw::test::writeFile(sidecar, "clearway-edits 1\narea 0 2,2 5,2 5,4\n");
        CHECK(cw::test::runTool(bake, &out) == 2);
        CHECK(contains(out, sidecar + ":2: area: the weight must be > 0"));
        const std::string import = bin + "/cw-import " + mesh + " -o " + folder + "/out.cwfp";
        CHECK(cw::test::runTool(import, &out) == 2);
        CHECK(contains(out, sidecar + ":2:"));
        CHECK(cw::test::runTool(import + " --no-edits", &out) == 0);
        CHECK(cw::test::runTool(import + " --edits " + folder + "/none.cwedit", &out) == 2);
        CHECK(contains(out, "none.cwedit: no such file"));
        cw::test::writeFile(folder + "/other.cwedit", "clearway-edits 1\nobstacle 2,2 5,2 5,4\n");
        CHECK(cw::test::runTool(import + " --edits " + folder + "/other.cwedit --json", &out) == 0);
        CHECK(contains(out, "\"walkable_area\": 392.95")); // 395.958 (without) - 3 m2
        std::filesystem::remove_all(folder);
    }

    TEST_CASE("an obstacle over a whole layer leaves it empty, and the asset still loads") {
        Footprint fp = footprintOf(rect(0, 0, 20, 10));
        LevelEdits edits;
        REQUIRE(!parseEdits("clearway-edits 1\nobstacle -1,1 21,1 21,-11 -1,-11\n", "t.cwedit", &edits));
        REQUIRE(!applyFootprintEdits(edits, &fp, silentLog()));
        CHECK(fp.layers[0].polygons.empty());
        CHECK(fp.layers[0].area == 0);
        Roadmap rm;
        REQUIRE(!buildRoadmap(fp, {}, &rm, nullptr, silentLog()));
        CHECK(rm.edges.empty());
        const std::vector<uint8_t> bytes = serializeRoadmap(rm);
        cw::RoadmapView view;
        CHECK(cw::loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
    }
}
