// Off-mesh links (designer `link` statements, Detour's off-mesh connections) end to end on hand-made
// levels with hand-computed answers: the sidecar's errors, the asset's link records and the
// loader's checks of them, findPath taking a link only when it is cheaper, doors closed by a query
// filter, a ladder between two floors, and the Link segment's pose.
#include <clearway/bake.h>
#include <clearway/runtime.h>
#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "edit_bakes.h"
#include "hand_levels.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace cw = clearway;
using namespace clearway::bake;
using namespace clearway::test; // footprintOf, rect, bakeEdited, parseError, contains
using cw::Status;

namespace {

// Two 10 x 12 platforms, x 0..10 and 12..22, over a 2 m wide gap x 10..12 that stops at y = 10:
// the strip y 10..12 joins them (a U upside down). Sidecar points: world x, up, z = -local y.
Footprint gapLevel() {
    return footprintOf({{0, 0}, {10, 0}, {10, 10}, {12, 10}, {12, 0}, {22, 0}, {22, 12}, {0, 12}});
}

// The shortest way round the gap with clearance r from (5, y) to (17, y), y < 10: a tangent to the
// disc round the corner (10, 10), the arc onto the strip, 2 m along it, and the mirror image.
double roundTheGap(double y, double r) {
    const double dy = 10 - y, d = std::sqrt(25 + dy * dy);
    return 2 * (std::sqrt(d * d - r * r) + r * (std::atan2(dy, 5) + std::asin(r / d))) + 2;
}

struct Plan {
    Status status = Status::NotFound;
    std::vector<cw::PathSegment> segments;
    double length = 0;
    int links = 0;
};

Plan plan(const cw::test::Baked& b, cw::PathEndpoint from, cw::PathEndpoint to, double radius,
          const cw::QueryFilter* filter = nullptr) {
    Plan p;
    p.segments.resize(256);
    uint32_t count = 0;
    p.status = filter ? cw::findPathFiltered(b.view, b.scratch, from, to, radius, radius, *filter,
                                             p.segments.data(), &count, uint32_t(p.segments.size()))
                      : cw::findPath(b.view, b.scratch, from, to, radius, radius, p.segments.data(), &count,
                                     uint32_t(p.segments.size()));
    p.segments.resize(p.status == Status::Ok ? count : 0);
    p.length = cw::pathTotalLength(p.segments.data(), uint32_t(p.segments.size()));
    for (const cw::PathSegment& s : p.segments)
        p.links += s.type == cw::PathSegmentType::Link;
    return p;
}

void checkLine(const cw::PathSegment& s, double x0, double y0, double x1, double y1) {
    CHECK(s.type == cw::PathSegmentType::Line);
    CHECK(s.start.x == x0);
    CHECK(s.start.y == y0);
    CHECK(s.end.x == x1);
    CHECK(s.end.y == y1);
}

// Footprint and roadmap errors of a sidecar that parses.
std::string placementError(const std::string& text, Footprint fp) {
    LevelEdits edits;
    REQUIRE(!parseEdits(text, "level.cwedit", &edits));
    const Error e = applyFootprintEdits(edits, &fp, silentLog());
    CHECK(e.code == ErrorCode::ReadFailed);
    CHECK(exitCodeFor(e) == 2);
    return e.message;
}

// A copy of the asset with `bytes` written at `offset` into link 0's record; what loadRoadmap says.
template <typename T> Status loadWithLinkField(const std::vector<uint8_t>& asset, size_t offset, T value) {
    const auto* rm = cw::schema::GetRoadmap(asset.data());
    REQUIRE(rm->links());
    const size_t at = size_t(reinterpret_cast<const uint8_t*>(rm->links()->Get(0)) - asset.data()) + offset;
    std::vector<uint8_t> copy = asset;
    std::memcpy(copy.data() + at, &value, sizeof value);
    cw::RoadmapView view;
    return cw::loadRoadmap(copy.data(), copy.size(), &view);
}

} // namespace

TEST_SUITE("designer edits: off-mesh links") {
    TEST_CASE("bad link lines are errors naming the file, the line and the problem") {
        CHECK(contains(parseError("clearway-edits 1\nlink a\n", 2), "expected 'link A B"));
        CHECK(contains(parseError("clearway-edits 1\nnode a 1,0,-1\nlink a b\n", 3), "unknown node 'b'"));
        CHECK(
            contains(parseError("clearway-edits 1\nnode a 1,0,-1\nlink a a\n", 3), "both ends are node 'a'"));
        const std::string ends = "clearway-edits 1\nlink 1,0,-1 2,0,-1 ";
        CHECK(contains(parseError(ends + "cost -1\n", 2), "cost must be >= 0"));
        CHECK(contains(parseError(ends + "cost nan\n", 2), "not a finite number"));
        CHECK(contains(parseError(ends + "cost\n", 2), "cost: a number is missing"));
        CHECK(contains(parseError(ends + "width 0\n", 2), "width must be > 0"));
        CHECK(contains(parseError(ends + "width -2\n", 2), "width must be > 0"));
        CHECK(contains(parseError(ends + "flags 0\n", 2), "flags must be an integer 1 .. 65535"));
        CHECK(contains(parseError(ends + "type 64\n", 2), "type must be an integer 0 .. 63"));
        CHECK(contains(parseError(ends + "kind swim\n", 2), "kind must be jump, ladder, door, teleport"));
        CHECK(contains(parseError(ends + "speed 3\n", 2), "unknown option 'speed'"));
        CHECK(contains(parseError(ends + "1,2\n", 2), "unknown option '1,2'"));
        CHECK(contains(parseError("clearway-edits 1\nlink 1,0 2,0,-1\n", 2), "not a point of 3"));

        SUBCASE("an end off every layer, on a wall, or both ends at one point") {
            CHECK(placementError("clearway-edits 1\n\nlink 5,0,-2 50,0,-2 kind jump\n", gapLevel()) ==
                  "level.cwedit:3: point 50,0,-2 lies outside every walkable layer");
            CHECK(placementError("clearway-edits 1\nlink 11,0,-2 13,0,-2\n", gapLevel()) ==
                  "level.cwedit:2: point 11,0,-2 lies outside every walkable layer");
            CHECK(placementError("clearway-edits 1\nnode edge 12,0,-2\nlink edge 15,0,-2\n", gapLevel()) ==
                  "level.cwedit:2: node 'edge' lies on a wall");
            CHECK(placementError("clearway-edits 1\nlink 5,0,-2 5,0,-2\n", gapLevel()) ==
                  "level.cwedit:2: link from point 5,0,-2 to point 5,0,-2 has zero length");
        }
        SUBCASE("a good link line, every option") {
            LevelEdits edits;
            REQUIRE(!parseEdits("clearway-edits 1\nnode top 9,0,-2\n"
                                "link top 13,0,-2 oneway kind door cost 1.5 width 0.8 flags 0x9 type 5\n"
                                "link 1,0,-1 2,0,-1\n",
                                "ok.cwedit", &edits));
            REQUIRE(edits.links.size() == 2);
            const EditLink& l = edits.links[0];
            CHECK(l.line == 3);
            CHECK(l.a == 0);
            CHECK(l.b == 1);
            CHECK(!l.bidirectional);
            CHECK(l.kind == LinkKind::Door);
            CHECK(l.cost == 1.5);
            CHECK(l.width == 0.8);
            CHECK(l.flags == 9);
            CHECK(l.type == 5);
            const EditLink& d = edits.links[1]; // the defaults
            CHECK(d.bidirectional);
            CHECK(d.kind == LinkKind::Custom);
            CHECK(d.cost == 0);
            CHECK(std::isinf(d.width));
            CHECK(d.flags == 1);
            CHECK(d.type == 0);
        }
    }

    TEST_CASE("a jump across a gap is taken only when it is cheaper than walking round") {
        const double r = 0.5;
        // Cost 0: from (5,2) to (17,2) the jump (4 m) beats the 20.9 m walk round: a straight line to
        // the link, the link, a straight line on.
        const auto free_jump =
            bakeEdited(gapLevel(), "clearway-edits 1\nlink 9,0,-2 13,0,-2 kind jump type 7\n");
        REQUIRE(free_jump->roadmap.links.size() == 1);
        CHECK(free_jump->roadmap.links[0].kind == LinkKind::Jump);
        REQUIRE(cw::roadmapLinkCount(free_jump->view) == 1);
        cw::RoadmapLinkInfo info;
        REQUIRE(cw::roadmapLink(free_jump->view, 0, &info) == Status::Ok);
        CHECK(info.start.x == 9);
        CHECK(info.start.y == 2);
        CHECK(info.end.x == 13);
        CHECK(info.length == 4);
        CHECK(info.kind == cw::LinkKind::Jump);
        CHECK(info.area_type == 7);
        CHECK(info.flags == 1);
        CHECK(info.bidirectional);
        CHECK(std::isinf(info.max_radius));
        CHECK(cw::roadmapLink(free_jump->view, 1, &info) == Status::InvalidArgument);

        const Plan jump = plan(*free_jump, {5, 2, 0}, {17, 2, 0}, r);
        REQUIRE(jump.status == Status::Ok);
        REQUIRE(jump.segments.size() == 3);
        checkLine(jump.segments[0], 5, 2, 9, 2);
        CHECK(jump.segments[1].type == cw::PathSegmentType::Link);
        CHECK(jump.segments[1].link == 0);
        CHECK(jump.segments[1].start.x == 9);
        CHECK(jump.segments[1].end.x == 13);
        CHECK(jump.segments[1].length == 4);
        checkLine(jump.segments[2], 13, 2, 17, 2);
        CHECK(jump.length == 12);
        // Back the other way: the link is bidirectional.
        const Plan back = plan(*free_jump, {17, 2, 0}, {5, 2, 0}, r);
        REQUIRE(back.status == Status::Ok);
        REQUIRE(back.segments.size() == 3);
        CHECK(back.segments[1].start.x == 13);
        CHECK(back.segments[1].end.x == 9);

        // Near the strip walking round (12.2 m) is shorter than going down to the jump (20.1 m).
        const Plan top = plan(*free_jump, {5, 9, 0}, {17, 9, 0}, r);
        REQUIRE(top.status == Status::Ok);
        CHECK(top.links == 0);
        CHECK(top.length == doctest::Approx(roundTheGap(9, r)).epsilon(1e-6));

        // Cost 50: the jump costs 54, the walk round about 21 (roadmap) — walk.
        const auto dear_jump =
            bakeEdited(gapLevel(), "clearway-edits 1\nlink 9,0,-2 13,0,-2 kind jump cost 50\n");
        const Plan walk = plan(*dear_jump, {5, 2, 0}, {17, 2, 0}, r);
        REQUIRE(walk.status == Status::Ok);
        CHECK(walk.links == 0);
        CHECK(walk.length == doctest::Approx(roundTheGap(2, r)).epsilon(1e-6));
        MESSAGE("jump " << jump.length << " m, walk round " << walk.length << " m (hand " << roundTheGap(2, r)
                        << ")");

        // A filter's multiplier on the link's area type prices it out; the default filter changes nothing.
        cw::QueryFilter filter = cw::defaultQueryFilter();
        const Plan same = plan(*free_jump, {5, 2, 0}, {17, 2, 0}, r, &filter);
        REQUIRE(same.status == Status::Ok);
        CHECK(same.links == 1);
        CHECK(same.length == jump.length);
        filter.area_cost[7] = 20;
        const Plan priced = plan(*free_jump, {5, 2, 0}, {17, 2, 0}, r, &filter);
        REQUIRE(priced.status == Status::Ok);
        CHECK(priced.links == 0);
        CHECK(priced.length == walk.length);
    }

    TEST_CASE("a link's width: agents wider than it walk round") {
        const auto narrow =
            bakeEdited(gapLevel(), "clearway-edits 1\nlink 9,0,-2 13,0,-2 kind jump width 0.6\n");
        CHECK(narrow->roadmap.links[0].max_radius == doctest::Approx(0.3));
        CHECK(plan(*narrow, {5, 2, 0}, {17, 2, 0}, 0.25).links == 1);
        const Plan wide = plan(*narrow, {5, 2, 0}, {17, 2, 0}, 0.5);
        REQUIRE(wide.status == Status::Ok);
        CHECK(wide.links == 0);
    }

    TEST_CASE("a door link closed by a filter's exclude flag forces the long way, or NotFound") {
        const double r = 0.5;
        // Both ways, flags walk | 8.
        const auto door =
            bakeEdited(gapLevel(), "clearway-edits 1\nlink 9,0,-2 13,0,-2 kind door flags 0x9\n");
        cw::QueryFilter closed = cw::defaultQueryFilter();
        closed.exclude_flags = 8;
        CHECK(plan(*door, {5, 2, 0}, {17, 2, 0}, r).links == 1);
        const Plan round = plan(*door, {5, 2, 0}, {17, 2, 0}, r, &closed);
        REQUIRE(round.status == Status::Ok);
        CHECK(round.links == 0);
        CHECK(round.length == doctest::Approx(roundTheGap(2, r)).epsilon(1e-6));
        CHECK(plan(*door, {17, 2, 0}, {5, 2, 0}, r, &closed).links == 0);
        cw::QueryFilter other = cw::defaultQueryFilter();
        other.exclude_flags = 2; // a flag the door does not carry
        CHECK(plan(*door, {5, 2, 0}, {17, 2, 0}, r, &other).links == 1);
        other = cw::defaultQueryFilter();
        other.include_flags = 2; // the door carries none of the included flags (nor does the ground)
        CHECK(plan(*door, {5, 2, 0}, {17, 2, 0}, r, &other).status == Status::NotFound);

        // One way: from west to east through the door, back round the gap.
        const auto oneway =
            bakeEdited(gapLevel(), "clearway-edits 1\nlink 9,0,-2 13,0,-2 oneway kind door\n");
        CHECK(plan(*oneway, {5, 2, 0}, {17, 2, 0}, r).links == 1);
        const Plan back = plan(*oneway, {17, 2, 0}, {5, 2, 0}, r);
        REQUIRE(back.status == Status::Ok);
        CHECK(back.links == 0);
        CHECK(back.length == doctest::Approx(roundTheGap(2, r)).epsilon(1e-6));

        // Two separate platforms: the door is the only way; closed, there is none.
        Footprint islands = footprintOf(rect(0, 0, 22, 10));
        islands.layers[0].polygons = {PolygonWithHoles{rect(0, 0, 10, 10), {}},
                                      PolygonWithHoles{rect(12, 0, 22, 10), {}}};
        islands.layers[0].area = 200;
        const auto only = bakeEdited(islands, "clearway-edits 1\nlink 9,0,-5 13,0,-5 kind door flags 0x9\n");
        const Plan open = plan(*only, {5, 2, 0}, {17, 8, 0}, r);
        REQUIRE(open.status == Status::Ok);
        REQUIRE(open.segments.size() == 3);
        checkLine(open.segments[0], 5, 2, 9, 5);
        CHECK(open.segments[1].type == cw::PathSegmentType::Link);
        checkLine(open.segments[2], 13, 5, 17, 8);
        CHECK(open.length == 5 + 4 + 5);
        CHECK(plan(*only, {5, 2, 0}, {17, 8, 0}, r, &closed).status == Status::NotFound);
        // Too small a segment buffer: the count still says how many are needed.
        cw::PathSegment one[1];
        uint32_t count = 0;
        CHECK(cw::findPath(only->view, only->scratch, {5, 2, 0}, {17, 8, 0}, r, r, one, &count, 1) ==
              Status::BufferTooSmall);
        CHECK(count == 3);
        CHECK(one[0].end.x == 9);
    }

    TEST_CASE("a partial path crosses a link to the part nearest the goal, and stops before a closed one") {
        // The two platforms joined by a door only; the goal sits in the far platform's corner,
        // closer than the radius to two walls, so findPath finds no way to it. Each platform's
        // medial axis is its two diagonals, whose clearance falls to 0 at the corners: at radius 0.5
        // the usable roadmap near the goal ends at the far platform's centre (17,5), 6.93 m from it.
        // Door closed, the nearest point the start reaches is the door's near end (9,5), 13.83 m off.
        const double r = 0.5;
        Footprint islands = footprintOf(rect(0, 0, 22, 10));
        islands.layers[0].polygons = {PolygonWithHoles{rect(0, 0, 10, 10), {}},
                                      PolygonWithHoles{rect(12, 0, 22, 10), {}}};
        islands.layers[0].area = 200;
        const auto only = bakeEdited(islands, "clearway-edits 1\nlink 9,0,-5 13,0,-5 kind door flags 0x9\n");
        const cw::PathEndpoint from{5, 2, 0}, corner{21.9, 9.9, 0};
        CHECK(plan(*only, from, corner, r).status == Status::NotFound);
        auto partial = [&](const cw::QueryFilter& filter, cw::Vec2d end, int links) {
            std::vector<cw::PathSegment> path(64);
            uint32_t count = 0;
            REQUIRE(cw::findPathPartialFiltered(only->view, only->scratch, from, corner, r, r, filter,
                                                path.data(), &count, 64) == Status::Partial);
            REQUIRE(count > 0);
            int crossed = 0;
            for (uint32_t i = 0; i < count; ++i)
                crossed += path[i].type == cw::PathSegmentType::Link;
            CHECK(crossed == links);
            CHECK(path[count - 1].end.x == doctest::Approx(end.x).epsilon(1e-9));
            CHECK(path[count - 1].end.y == doctest::Approx(end.y).epsilon(1e-9));
        };
        partial(cw::defaultQueryFilter(), {17, 5}, 1);
        cw::QueryFilter closed = cw::defaultQueryFilter();
        closed.exclude_flags = 8;
        partial(closed, {9, 5}, 0);
    }

    TEST_CASE("a ladder between two floors: the path climbs it, the pose rises along it") {
        // Two 10 x 10 floors over one another, 4 m apart, with no stairs: only the ladder at (2,2).
        Footprint floors = footprintOf(rect(0, 0, 10, 10));
        FootprintLayer upper = floors.layers[0];
        for (Vec3& v : upper.surface_vertices)
            v.z = 4;
        upper.height_min = upper.height_max = 4;
        floors.layers.push_back(upper);
        const auto ladder = bakeEdited(floors, "clearway-edits 1\nlink 2,0,-2 2,4,-2 kind ladder cost 1\n");
        cw::RoadmapLinkInfo info;
        REQUIRE(cw::roadmapLink(ladder->view, 0, &info) == Status::Ok);
        CHECK(info.layer_a == 0);
        CHECK(info.layer_b == 1);
        CHECK(info.length == 4);
        CHECK(info.cost == 1);
        CHECK(info.kind == cw::LinkKind::Ladder);

        const double r = 0.5;
        const Plan up = plan(*ladder, {8, 8, 0}, {8, 8, 1}, r);
        REQUIRE(up.status == Status::Ok);
        REQUIRE(up.segments.size() == 3);
        checkLine(up.segments[0], 8, 8, 2, 2);
        CHECK(up.segments[0].layer == 0);
        CHECK(up.segments[1].type == cw::PathSegmentType::Link);
        CHECK(up.segments[1].layer == 0);
        CHECK(up.segments[1].end_layer == 1);
        CHECK(up.segments[1].length == 4);
        checkLine(up.segments[2], 2, 2, 8, 8);
        CHECK(up.segments[2].layer == 1);
        const double flat = std::sqrt(72.0);
        CHECK(up.length == doctest::Approx(2 * flat + 4).epsilon(1e-12));
        cw::PathPose pose;
        REQUIRE(cw::pathPoseAt(ladder->view, up.segments.data(), 3, flat + 1, &pose) == Status::Ok);
        CHECK(pose.segment == 1);
        CHECK(pose.position.x == doctest::Approx(2));
        CHECK(pose.position.z == doctest::Approx(1));
        REQUIRE(cw::pathPoseAt(ladder->view, up.segments.data(), 3, flat + 4 + 1, &pose) == Status::Ok);
        CHECK(pose.layer == 1);
        CHECK(pose.position.z == doctest::Approx(4));
        // Down again; a one-way filter-free ladder would refuse this, a bidirectional one does not.
        const Plan down = plan(*ladder, {8, 2, 1}, {2, 8, 0}, r);
        REQUIRE(down.status == Status::Ok);
        CHECK(down.links == 1);
        // Without the ladder the floors are not connected.
        const auto none = bakeEdited(floors, "");
        CHECK(plan(*none, {8, 8, 0}, {8, 8, 1}, r).status == Status::NotFound);
    }

    TEST_CASE("link records: absent without links, checked by the loader") {
        const auto plain = bakeEdited(gapLevel(), "clearway-edits 1\nnode a 9,0,-2\n");
        CHECK(cw::schema::GetRoadmap(plain->bytes.data())->links() == nullptr);
        CHECK(cw::roadmapLinkCount(plain->view) == 0);
        const auto linked = bakeEdited(gapLevel(), "clearway-edits 1\nlink 9,0,-2 13,0,-2 kind jump\n");
        const std::vector<uint8_t>& bytes = linked->bytes;
        const uint32_t vertices = uint32_t(linked->roadmap.vertices.size());
        CHECK(loadWithLinkField(bytes, 0, uint32_t(0)) == Status::Ok); // another vertex: still valid
        CHECK(loadWithLinkField(bytes, 0, vertices) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 4, vertices + 7) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 4, linked->roadmap.links[0].a) == Status::CorruptAsset); // a == b
        CHECK(loadWithLinkField(bytes, 8, NAN) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 8, INFINITY) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 8, -1.0f) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 12, 0.0f) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 12, NAN) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 12, 2.0f) == Status::Ok);
        CHECK(loadWithLinkField(bytes, 16, uint16_t(0)) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 18, uint8_t(64)) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 19, uint8_t(5)) == Status::CorruptAsset);
        CHECK(loadWithLinkField(bytes, 19, uint8_t(3)) == Status::Ok);
    }
}
