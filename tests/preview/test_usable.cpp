// The usable area for an agent radius and its unreachable islands (lib/preview/src/usable_area.cpp):
// hand-made levels with answers known in closed form, CGAL's exact erosion (erodedArea), the
// runtime's findPath at the same radius, a peer mesh, and cw-bake / cw-inspect drawing the same.
#include <clearway/preview.h>
#include <clearway/runtime.h>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "baked_roadmap.h"
#include "hand_levels.h"
#include "shared_path_data.h"
#include "test_files.h"

#include <cmath>
#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::bake;
using clearway::test::rect;
using clearway::test::reversed;

namespace {

UsableArea usableOf(const std::vector<uint8_t>& asset, double radius, double cell = 0) {
    InspectSummary s;
    const Error e = inspectAssetBytes(asset.data(), asset.size(), "level", &s, PreviewOptions{radius, cell});
    REQUIRE_MESSAGE(!e, e.message);
    return s.usable;
}

// The raster's stated tolerance: one cell along the usable region's outline (`outline` metres).
double tolerance(const UsableArea& u, double outline) {
    return outline * u.cell;
}

const double kPi = 3.14159265358979323846;

// The usable area a room gains in front of an opening `2 half_gap` wide in a straight wall, for a
// radius above half_gap: the points less than R from the wall's line but at least R from the
// opening's two corners, 2 * integral over t in [0, half_gap] of (R - sqrt(R^2 - t^2)).
double openingBulge(double R, double half_gap) {
    const double t = half_gap;
    const double circle_part = t / 2 * std::sqrt(R * R - t * t) + R * R / 2 * std::asin(t / R);
    return 2 * (R * t - circle_part);
}

// A main room 8 x 8 with a 2 x 2 pillar, and a 4 x 4 chamber east of it reached only through a
// passage `gap` wide and 1 long (x 8 .. 9, centred on y = 4).
Footprint chamberLevel(double gap) {
    const double y0 = 4 - gap / 2, y1 = 4 + gap / 2;
    const Ring outer = {{0, 0},  {8, 0}, {8, y0}, {9, y0}, {9, 2}, {13, 2},
                        {13, 6}, {9, 6}, {9, y1}, {8, y1}, {8, 8}, {0, 8}};
    return test::footprintOf(outer, {reversed(rect(3, 3, 5, 5))});
}

// Two 5 x 4 layers side by side, joined by a connection along their shared side x = 5.
Footprint twoLayersThroughAPortal() {
    Footprint fp = test::footprintOf(rect(0, 0, 5, 4));
    Footprint east = test::footprintOf(rect(5, 0, 10, 4));
    fp.layers.push_back(east.layers[0]);
    Connection c;
    c.layer_a = 0, c.layer_b = 1;
    c.p0 = {5, 0}, c.p1 = {5, 4};
    fp.connections.push_back(c);
    return fp;
}

const std::string kBin = CLEARWAY_BIN_DIR;

std::string textOf(const std::string& path) {
    const std::vector<uint8_t> bytes = test::readFile(path);
    return {bytes.begin(), bytes.end()};
}

// The page's radius input, starting at `value`.
std::string radiusInput(const char* value) {
    return std::string("id=\"radius\" type=\"number\" min=\"0\" step=\"0.1\" value=\"") + value + "\"";
}

// cw-bake of the two-storey sample into a new folder: level.cwrm and bake.svg (+ `options`, run in
// that folder); returns the folder.
std::string bakeTwoStorey(const char* prefix, const std::string& options) {
    const std::string dir = test::makeTempDir(prefix);
    const std::string mesh = std::string(CLEARWAY_SAMPLES) + "/levels/two_storey.obj";
    REQUIRE(test::runTool("cd " + dir + " && " + kBin + "/cw-bake -q " + options + " -o level.cwrm --svg bake.svg " +
                          mesh) == 0);
    return dir;
}

} // namespace

TEST_SUITE("preview: usable area and unreachable islands") {
    TEST_CASE("a rectangular room W x H: usable (W - 2R)(H - 2R), one part, no islands") {
        const double W = 10, H = 6;
        const Footprint fp = test::footprintOf(rect(0, 0, W, H));
        const std::vector<uint8_t> asset = serializeFootprint(fp);
        for (const double R : {0.0, 0.25, 0.5, 1.0, 2.0}) {
            CAPTURE(R);
            const UsableArea u = usableOf(asset, R);
            const double exact = (W - 2 * R) * (H - 2 * R);
            CHECK(u.radius == R);
            CHECK(u.cell > 0);
            CHECK(u.cell <= W / 500 + 1e-12); // a 500th of the longest side, or a quarter of the radius
            if (R > 0) CHECK(u.cell <= R / 4);
            CHECK(std::abs(u.area - exact) <= tolerance(u, 2 * (W + H - 4 * R)));
            CHECK(std::abs(u.area - erodedArea(fp, R)) <= tolerance(u, 2 * (W + H - 4 * R)));
            CHECK(u.reachable.area == u.area);
            CHECK(u.islands.empty());
            REQUIRE(u.layer_area.size() == 1);
            CHECK(u.layer_area[0] == u.area);
        }
        // A radius that is not a number of metres is bad input, not a picture.
        InspectSummary s;
        for (const double bad : {double(NAN), double(INFINITY)})
            CHECK(inspectAssetBytes(asset.data(), asset.size(), "level", &s, PreviewOptions{bad, 0}).code ==
                  ErrorCode::InvalidOption);
        CHECK(inspectAssetBytes(asset.data(), asset.size(), "level", &s, PreviewOptions{0.5, -1}).code ==
              ErrorCode::InvalidOption);
        // Wider than the room is tall: nothing is usable.
        const UsableArea none = usableOf(asset, 3.5);
        CHECK(none.area == 0);
        CHECK(none.islands.empty());
    }

    TEST_CASE("a chamber behind a 1 m gap: an island above R = 0.5, joined below, as findPath says") {
        const Footprint fp = chamberLevel(1.0);
        test::BakedRoadmap roadmap(fp);
        const Vec2 main_room{1.5, 1.5}, chamber{11, 4};
        for (const double R : {0.3, 0.45, 0.55, 0.6, 0.8}) {
            CAPTURE(R);
            const UsableArea u = usableOf(roadmap.bytes, R);
            const bool cut_off = R > 0.5;
            // The exact erosion (CGAL, lib/bake) within the raster's tolerance; the outline is at most
            // the rooms' and the pillar's perimeters.
            CHECK(std::abs(u.area - erodedArea(fp, R)) <= tolerance(u, 32 + 16 + 8));
            // The runtime's own answer at the same radius.
            CHECK(std::isnan(roadmap.length(main_room, chamber, R, -1)) == cut_off);
            if (!cut_off) {
                CHECK(u.islands.empty());
                CHECK(u.reachable.area == u.area);
                continue;
            }
            REQUIRE(u.islands.size() == 1);
            const UsablePart& island = u.islands[0];
            const double chamber_area = (4 - 2 * R) * (4 - 2 * R) + openingBulge(R, 0.5);
            CHECK(island.layer == 0);
            CHECK(std::abs(island.area - chamber_area) <= tolerance(u, 4 * (4 - 2 * R)));
            CHECK(island.point.x >= 9 + R);
            CHECK(island.point.x <= 13 - R);
            CHECK(island.point.y >= 2 + R);
            CHECK(island.point.y <= 6 - R);
            CHECK(std::abs(u.reachable.area + island.area - u.area) < 1e-9);
            // The main room (pillar ring included) is the rest of the exact erosion.
            CHECK(std::abs(u.reachable.area - (erodedArea(fp, R) - chamber_area)) <=
                  tolerance(u, 4 * (8 - 2 * R) + 8 + 2 * kPi * R));
        }
    }

    TEST_CASE("a connection is open: two layers through a portal are one part, not eroded there") {
        const Footprint fp = twoLayersThroughAPortal();
        const std::vector<uint8_t> asset = serializeFootprint(fp);
        const double R = 0.5;
        const UsableArea u = usableOf(asset, R);
        // One 10 x 4 room split in two layers: (10 - 2R)(4 - 2R), half on each.
        CHECK(std::abs(u.area - (10 - 2 * R) * (4 - 2 * R)) <= tolerance(u, 2 * (10 + 4)));
        REQUIRE(u.layer_area.size() == 2);
        CHECK(std::abs(u.layer_area[0] - (5 - R) * (4 - 2 * R)) <= tolerance(u, 10));
        CHECK(std::abs(u.layer_area[1] - (5 - R) * (4 - 2 * R)) <= tolerance(u, 10));
        CHECK(u.islands.empty());
        CHECK(u.reachable.area == u.area);
        CHECK(std::abs(u.area - erodedArea(fp, R)) <= tolerance(u, 2 * (10 + 4)));
    }

    TEST_CASE("the dungeon peer mesh: usable area shrinks with the radius, stays under the walkable area, "
              "and matches the exact erosion") {
        RoadmapRequest request;
        request.input_path = std::string(CLEARWAY_PEER_MESHES) + "/dungeon.obj";
        request.output_path = test::makeTempDir("usable-test") + "/dungeon.cwrm";
        RoadmapResult result;
        const Error e = bakeLevel(request, &result, silentLog());
        REQUIRE_MESSAGE(!e, e.message);
        const std::vector<uint8_t> asset = serializeRoadmap(result.roadmap);
        RoadmapView view;
        REQUIRE(loadRoadmap(asset.data(), asset.size(), &view) == Status::Ok);
        test::OwnScratch scratch(view);
        std::vector<PathSegment> segments(4096);
        auto pathFound = [&](const UsablePart& a, const UsablePart& b, double R) {
            uint32_t count = 0;
            return findPath(view, scratch.scratch, {a.point.x, a.point.y, a.layer},
                            {b.point.x, b.point.y, b.layer}, R, -1, segments.data(), &count,
                            uint32_t(segments.size())) == Status::Ok;
        };
        InspectSummary s;
        REQUIRE(!inspectAssetBytes(asset.data(), asset.size(), "dungeon", &s));
        double walkable = 0;
        for (const InspectLayer& l : s.layers)
            walkable += l.area;
        double previous = walkable;
        for (const double R : {0.25, 0.5, 1.0}) {
            CAPTURE(R);
            const UsableArea u = usableOf(asset, R);
            MESSAGE("dungeon at R = " << R << ": usable " << u.area << " m2 (exact "
                                      << erodedArea(result.roadmap.footprint, R) << "), reachable "
                                      << u.reachable.area << ", " << u.islands.size() << " islands, cell "
                                      << u.cell);
            CHECK(u.area < previous);
            CHECK(u.area <= walkable);
            CHECK(u.reachable.area <= u.area);
            double islands = 0;
            for (const UsablePart& i : u.islands)
                islands += i.area;
            CHECK(u.reachable.area + islands <= u.area + 1e-9);
            // The runtime agrees: no path at R from the reachable part to any island of a square
            // metre or more (smaller ones may hold no roadmap edge of that clearance to start on).
            CHECK(!u.islands.empty());
            for (const UsablePart& island : u.islands)
                if (island.area >= 1) CHECK_FALSE(pathFound(u.reachable, island, R));
            // Within 1 % of CGAL's exact erosion (the raster's outline error on ~1,700 walls).
            const double exact = erodedArea(result.roadmap.footprint, R);
            CHECK(std::abs(u.area - exact) <= 0.01 * exact);
            previous = u.area;
        }
    }
}

TEST_SUITE("preview: the usable area in every tool's picture") {
    TEST_CASE("cw-inspect --radius: the island in --json and the text, the overlay and legend in the SVG") {
        const std::string dir = test::makeTempDir("usable-tool");
        const std::string asset = dir + "/chamber.cwfp";
        const std::vector<uint8_t> bytes = serializeFootprint(chamberLevel(1.0));
        REQUIRE(!writeFileAtomic(asset, bytes.data(), bytes.size()));
        const std::string inspect = kBin + "/cw-inspect " + asset;
        std::string out;
        REQUIRE(test::runTool(inspect + " --radius 0.6 --json", &out) == 0);
        const nlohmann::json j = nlohmann::json::parse(out);
        CHECK(j["usable"]["radius"] == 0.6);
        CHECK(j["usable"]["radius_source"] == "asked for (--radius)");
        REQUIRE(j["usable"]["islands"].size() == 1);
        CHECK(j["usable"]["islands"][0]["layer"] == 0);
        CHECK(j["usable"]["islands"][0]["point"][0].get<double>() > 9.6);
        CHECK(j["layers"][0]["usable_area"] == j["usable"]["area"]);
        REQUIRE(test::runTool(inspect + " --radius 0.4 --json", &out) == 0);
        CHECK(nlohmann::json::parse(out)["usable"]["islands"].empty());
        REQUIRE(test::runTool(inspect + " --radius 0.6", &out) == 0);
        CHECK(out.find("1 unreachable island (") != std::string::npos);
        CHECK(out.find("    island on layer 0: ") != std::string::npos);
        // Without --radius: the default, and why.
        REQUIRE(test::runTool(inspect, &out) == 0);
        CHECK(out.find("usable at radius 0.5 m (default: the asset stores no agent radius)") !=
              std::string::npos);

        REQUIRE(test::runTool(inspect + " -q --radius 0.6 --svg " + dir + "/c.svg --html " + dir +
                              "/c.html") == 0);
        const std::string svg = textOf(dir + "/c.svg");
        CHECK(svg.find("<g id=\"usable\"") != std::string::npos);
        CHECK(svg.find("fill=\"url(#island-hatch)\"") != std::string::npos);
        CHECK(svg.find("usable at r = 0.6 m") != std::string::npos);
        CHECK(svg.find("1 unreachable: ") != std::string::npos);
        const std::string html = textOf(dir + "/c.html");
        CHECK(html.find(svg.substr(svg.find("<g id=\"usable\""), 2000)) != std::string::npos);
        CHECK(html.find(radiusInput("0.6")) != std::string::npos);
    }

    TEST_CASE("cw-bake --radius --svg draws exactly what cw-inspect --radius --svg draws of its asset") {
        const std::string dir = bakeTwoStorey("usable-bake", "--radius 0.3 --html bake.html");
        REQUIRE(test::runTool(kBin + "/cw-inspect -q --radius 0.3 " + dir + "/level.cwrm --svg " + dir +
                              "/inspect.svg") == 0);
        const std::string baked = textOf(dir + "/bake.svg"), inspected = textOf(dir + "/inspect.svg");
        // Only the title differs: the mesh's name, the asset's name.
        const auto untitled = [](std::string svg) {
            const size_t at = svg.find("font-weight=\"bold\"");
            REQUIRE(at != std::string::npos);
            return svg.erase(at, svg.find("</text>", at) - at);
        };
        CHECK(baked.find("usable at r = 0.3 m") != std::string::npos);
        CHECK(untitled(baked) == untitled(inspected));
        CHECK(textOf(dir + "/bake.html").find(radiusInput("0.3")) != std::string::npos);
    }

    TEST_CASE("without --radius, a roadmap baked with --min-clearance is previewed at that clearance") {
        const std::string dir = bakeTwoStorey("usable-default", "--min-clearance 0.35");
        std::string out;
        REQUIRE(test::runTool(kBin + "/cw-inspect --json " + dir + "/level.cwrm", &out) == 0);
        const nlohmann::json j = nlohmann::json::parse(out);
        CHECK(j["usable"]["radius"] == 0.35);
        CHECK(j["usable"]["radius_source"] == "the roadmap's min clearance");
        CHECK(textOf(dir + "/bake.svg").find("usable at r = 0.35 m") != std::string::npos);
    }
}
