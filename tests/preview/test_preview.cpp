// cw-inspect's SVG and HTML previews, rendered by headless Chromium to PNG and checked pixel by
// pixel: walls are black where the asset has a wall, roadmap edges show their clearance colour,
// the page's own path query (run from the URL hash, as two clicks would) draws its route through
// the expected vertex, and the same checks fail on a page whose drawing was removed.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <clearway/preview.h>
#include <clearway/runtime.h>

#include <doctest/doctest.h>
#include <png.h>

#include "page_dom.h"
#include "test_files.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

using namespace clearway;
using clearway::test::runTool;

namespace {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;
    uint32_t at(int x, int y) const {
        if (x < 0 || y < 0 || x >= width || y >= height) return 0xffffffffu;
        const uint8_t* p = &rgb[3 * (size_t(y) * width + x)];
        return uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2];
    }
};

bool readPng(const std::string& path, Image* out) {
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path.c_str())) return false;
    image.format = PNG_FORMAT_RGB;
    out->width = int(image.width), out->height = int(image.height);
    out->rgb.resize(PNG_IMAGE_SIZE(image));
    return png_image_finish_read(&image, nullptr, out->rgb.data(), 0, nullptr) != 0;
}

int channelDistance(uint32_t a, uint32_t b) {
    int d = 0;
    for (int shift = 0; shift <= 16; shift += 8)
        d = std::max(d, std::abs(int((a >> shift) & 0xff) - int((b >> shift) & 0xff)));
    return d;
}

// Some pixel of the 5x5 block around (x, y) within `tolerance` of `colour` in every channel.
bool colourNear(const Image& image, double x, double y, uint32_t colour, int tolerance) {
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx)
            if (channelDistance(image.at(int(std::floor(x)) + dx, int(std::floor(y)) + dy), colour) <=
                tolerance)
                return true;
    return false;
}

// Renders a file to PNG; seconds spent, or a negative number when Chromium failed.
double render(const std::string& file, const std::string& hash, int width, int height,
              const std::string& png) {
    const std::string profile = test::makeTempDir("cw-preview-profile");
    const std::string command =
        "chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
        "--disable-background-networking --disable-component-update --disable-sync "
        "--hide-scrollbars --force-device-scale-factor=1 --virtual-time-budget=20000 "
        "--js-flags=--no-wasm-async-compilation --user-data-dir=" +
        profile + " --screenshot=" + png + " --window-size=" + std::to_string(width) + "," +
        std::to_string(height) + " 'file://" + file + hash + "'";
    const auto t0 = std::chrono::steady_clock::now();
    std::string output;
    const int code = runTool(command, &output);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    runTool("rm -rf " + profile);
    if (code != 0 || !test::fileExists(png)) {
        MESSAGE("chromium failed (" << code << "): " << output);
        return -1;
    }
    return seconds;
}

double segmentDistance(double px, double py, Vec2f a, Vec2f b) {
    const double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
    const double t = l2 > 0 ? std::clamp(((px - a.x) * dx + (py - a.y) * dy) / l2, 0.0, 1.0) : 0.0;
    return std::hypot(px - (a.x + t * dx), py - (a.y + t * dy));
}

struct Level {
    std::vector<uint64_t> words;
    RoadmapView view;
    FootprintView footprint;
    std::vector<std::pair<Vec2f, Vec2f>> walls, connections;
    std::vector<RoadmapEdgeInfo> edges;
    double max_clearance = 0.1; // the legend's top
};

// Distance (metres) from p to everything drawn on top of roadmap edges (walls, connections) and
// to every roadmap edge except `skip`.
double distanceToOthers(const Level& level, double x, double y, uint32_t skip) {
    double d = INFINITY;
    for (const auto& w : level.walls)
        d = std::min(d, segmentDistance(x, y, w.first, w.second));
    for (const auto& c : level.connections)
        d = std::min(d, segmentDistance(x, y, c.first, c.second));
    for (uint32_t e = 0; e < level.edges.size(); ++e)
        if (e != skip)
            for (uint32_t i = 0; i + 1 < level.edges[e].point_count; ++i)
                d = std::min(d,
                             segmentDistance(x, y, level.edges[e].points[i], level.edges[e].points[i + 1]));
    return d;
}

// Point at arc length s along an edge's polyline.
Vec2d pointAlong(const RoadmapEdgeInfo& e, double s) {
    for (uint32_t i = 0; i + 1 < e.point_count; ++i) {
        const Vec2f a = e.points[i], b = e.points[i + 1];
        const double l = std::hypot(b.x - a.x, b.y - a.y);
        if (s <= l || i + 2 == e.point_count) {
            const double t = l > 0 ? std::clamp(s / l, 0.0, 1.0) : 0.0;
            return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
        }
        s -= l;
    }
    return {e.points[0].x, e.points[0].y};
}

double lengthOf(const RoadmapEdgeInfo& e) {
    double l = 0;
    for (uint32_t i = 0; i + 1 < e.point_count; ++i)
        l += std::hypot(e.points[i + 1].x - e.points[i].x, e.points[i + 1].y - e.points[i].y);
    return l;
}

} // namespace

TEST_SUITE("preview: cw-inspect pictures render in headless Chromium") {
    TEST_CASE("nav_test: walls black, edges in their clearance colours, the route of the page, and a page "
              "without its drawing fails the same checks") {
        if (runTool("command -v chromium") != 0)
            FAIL("chromium is not installed: run scripts/test, which installs it (CI does), or apt-get "
                 "install "
                 "chromium");
        const std::string dir = test::makeTempDir("cw-preview-test");
        const std::string asset = dir + "/nav_test.cwrm", svg_path = dir + "/nav_test.svg",
                          html_path = dir + "/nav_test.html";
        bake::RoadmapRequest request;
        request.input_path = std::string(CLEARWAY_PEER_MESHES) + "/nav_test.obj";
        request.output_path = asset;
        bake::RoadmapResult result;
        const bake::Error e = bake::bakeLevel(request, &result, bake::silentLog());
        REQUIRE_MESSAGE(!e, e.message);
        REQUIRE(runTool(std::string(CLEARWAY_BIN_DIR) + "/cw-inspect " + asset + " -q --svg " + svg_path +
                        " --html " + html_path) == 0);

        // The asset as the runtime reads it (float coordinates, what the drawing shows).
        Level level;
        const std::vector<uint8_t> bytes = test::readFile(asset);
        level.words.assign(bytes.size() / 8 + 1, 0);
        std::memcpy(level.words.data(), bytes.data(), bytes.size());
        REQUIRE(loadRoadmap(level.words.data(), bytes.size(), &level.view) == Status::Ok);
        REQUIRE(roadmapFootprint(level.view, &level.footprint) == Status::Ok);
        FootprintInfo fi{};
        footprintInfo(level.footprint, &fi);
        for (uint32_t l = 0; l < fi.layer_count; ++l) {
            FootprintLayerInfo li{};
            footprintLayer(level.footprint, l, &li);
            for (uint32_t r = 0; r < li.ring_count; ++r) {
                const Vec2f* ring = nullptr;
                uint32_t n = 0;
                footprintRing(level.footprint, l, r, &ring, &n);
                for (uint32_t i = 0; i < n; ++i)
                    level.walls.push_back({ring[i], ring[(i + 1) % n]});
            }
        }
        for (uint32_t c = 0; c < fi.connection_count; ++c) {
            FootprintConnection con{};
            footprintConnection(level.footprint, c, &con);
            level.connections.push_back({con.p0, con.p1});
        }
        RoadmapInfo ri{};
        roadmapInfo(level.view, &ri);
        level.edges.resize(ri.edge_count);
        for (uint32_t i = 0; i < ri.edge_count; ++i) {
            roadmapEdge(level.view, i, &level.edges[i]);
            if (!level.edges[i].portal)
                level.max_clearance = std::max(level.max_clearance, double(level.edges[i].min_clearance));
        }

        // The drawing's transform and size, as the SVG exports them.
        const std::vector<uint8_t> svg_bytes = test::readFile(svg_path);
        const std::string svg(svg_bytes.begin(), svg_bytes.end());
        std::smatch m;
        REQUIRE(std::regex_search(svg, m, std::regex("data-transform=\"([^ ]+) ([^ ]+) ([^\"]+)\"")));
        const double s = std::stod(m[1]), tx = std::stod(m[2]), ty = std::stod(m[3]);
        REQUIRE(std::regex_search(svg, m, std::regex("<svg [^>]*width=\"([0-9]+)\" height=\"([0-9]+)\"")));
        const int width = std::stoi(m[1]), height = std::stoi(m[2]);
        auto px = [&](double x) { return tx + s * x; };
        auto py = [&](double y) { return ty - s * y; };
        const double min_gap = 7 / s; // metres: nothing else drawn within 7 px

        // A wall point: the middle of the longest wall piece no connection is drawn over.
        Vec2d wall{};
        double longest = 0;
        for (const auto& w : level.walls) {
            const double mx = 0.5 * (w.first.x + w.second.x), my = 0.5 * (w.first.y + w.second.y);
            const double l = std::hypot(w.second.x - w.first.x, w.second.y - w.first.y);
            double near = INFINITY;
            for (const auto& c : level.connections)
                near = std::min(near, segmentDistance(mx, my, c.first, c.second));
            if (l > longest && near > min_gap) longest = l, wall = {mx, my};
        }
        REQUIRE(longest * s > 20);

        // Edge points: the middle of an edge's longest piece, nothing else drawn near it.
        struct EdgePoint {
            uint32_t edge;
            Vec2d at;
            uint32_t colour;
        };
        std::vector<EdgePoint> isolated;
        for (uint32_t i = 0; i < ri.edge_count; ++i) {
            const RoadmapEdgeInfo& edge = level.edges[i];
            if (edge.portal) continue;
            uint32_t piece = 0;
            double best = 0;
            for (uint32_t k = 0; k + 1 < edge.point_count; ++k) {
                const double l = std::hypot(edge.points[k + 1].x - edge.points[k].x,
                                            edge.points[k + 1].y - edge.points[k].y);
                if (l > best) best = l, piece = k;
            }
            const Vec2d mid{0.5 * (edge.points[piece].x + edge.points[piece + 1].x),
                            0.5 * (edge.points[piece].y + edge.points[piece + 1].y)};
            if (best * s >= 16 && distanceToOthers(level, mid.x, mid.y, i) > min_gap)
                isolated.push_back({i, mid, bake::clearanceColour(edge.min_clearance, level.max_clearance)});
        }
        REQUIRE(isolated.size() >= 4);

        // The route: from the middle of one edge to the middle of another through their shared
        // vertex (any other way is longer), both edges long and wide.
        uint32_t e1 = 0, e2 = 0;
        double route_clearance = -1;
        for (uint32_t a = 0; a < ri.edge_count; ++a)
            for (uint32_t b = a + 1; b < ri.edge_count; ++b) {
                const RoadmapEdgeInfo &x = level.edges[a], &y = level.edges[b];
                const bool shared = x.a == y.a || x.a == y.b || x.b == y.a || x.b == y.b;
                const double c = std::min(x.min_clearance, y.min_clearance);
                if (shared && !x.portal && !y.portal && x.a != x.b && y.a != y.b && lengthOf(x) * s > 60 &&
                    lengthOf(y) * s > 60 && c > route_clearance)
                    route_clearance = c, e1 = a, e2 = b;
            }
        REQUIRE(route_clearance > 0);
        const RoadmapEdgeInfo &r1 = level.edges[e1], &r2 = level.edges[e2];
        const uint32_t shared = (r1.a == r2.a || r1.a == r2.b) ? r1.a : r1.b;
        const Vec2d from = pointAlong(r1, 0.5 * lengthOf(r1)), to = pointAlong(r2, 0.5 * lengthOf(r2));
        const double radius = std::min(0.5, 0.9 * route_clearance); // small end markers
        char hash[256];
        std::snprintf(hash, sizeof hash, "#from=%.6f,%.6f&to=%.6f,%.6f&r=%.4f", from.x, from.y, to.x, to.y,
                      radius);
        // The route the page must draw is findPath's own between the floor points it picked.
        const auto answer = test::pageAnswer(html_path, hash);
        REQUIRE_MESSAGE(answer.count("from"), "the page found no floor: " << (answer.count("text") ? answer.at("text") : ""));
        Vec2d on_route[3];
        {
            std::vector<uint8_t> scratch_memory;
            size_t bytes_needed = 0;
            pathScratchSize(level.view, &bytes_needed);
            scratch_memory.resize(bytes_needed);
            PathScratch* scratch = nullptr;
            REQUIRE(pathScratchInit(level.view, scratch_memory.data(), bytes_needed, &scratch) == Status::Ok);
            PathEndpoint ends[2];
            const char* keys[2] = {"from", "to"};
            for (int i = 0; i < 2; ++i) {
                Vec3d w{};
                REQUIRE(std::sscanf(answer.at(keys[i]).c_str(), "%lf,%lf,%lf", &w.x, &w.y, &w.z) == 3);
                REQUIRE(locatePoint(level.view, scratch, footprintWorldToLocal(fi, w), 0.4, &ends[i]) == Status::Ok);
            }
            PathSegment path[256];
            uint32_t count = 0;
            REQUIRE(findPath(level.view, scratch, ends[0], ends[1], radius, radius, path, &count, 256) == Status::Ok);
            const double total = pathTotalLength(path, count);
            for (int i = 0; i < 3; ++i) {
                PathPose pose{};
                REQUIRE(pathPoseAt(level.view, path, count, total * (i + 1) / 4, &pose) == Status::Ok);
                on_route[i] = {pose.position.x, pose.position.y};
            }
        }
        // Edge colour checks on the page: edges away from the route and its end markers.
        std::vector<EdgePoint> checked;
        for (const EdgePoint& p : isolated) {
            const double gap = std::min({std::hypot(p.at.x - from.x, p.at.y - from.y) - radius,
                                         std::hypot(p.at.x - to.x, p.at.y - to.y) - radius,
                                         distanceToOthers(level, p.at.x, p.at.y, p.edge)});
            if (p.edge != e1 && p.edge != e2 && gap > min_gap) checked.push_back(p);
        }
        std::sort(checked.begin(), checked.end(), [&](const EdgePoint& a, const EdgePoint& b) {
            return level.edges[a.edge].min_clearance < level.edges[b.edge].min_clearance;
        });
        REQUIRE(checked.size() >= 2);
        const EdgePoint tight = checked.front(), wide = checked.back();
        CHECK(channelDistance(tight.colour, wide.colour) > 60); // two different colours of the ramp

        const uint32_t kRoute = 0x00b4ff, kWall = 0x000000;
        struct Verdict {
            bool wall, tight, wide, route;
        };
        auto inspectImage = [&](const Image& image) {
            Verdict v{};
            v.wall = colourNear(image, px(wall.x), py(wall.y), kWall, 50);
            v.tight = colourNear(image, px(tight.at.x), py(tight.at.y), tight.colour, 24);
            v.wide = colourNear(image, px(wide.at.x), py(wide.at.y), wide.colour, 24);
            v.route = true;
            for (const Vec2d& p : on_route)
                v.route = v.route && colourNear(image, px(p.x), py(p.y), kRoute, 24);
            return v;
        };

        Image image;
        const double svg_seconds = render(svg_path, "", width, height, dir + "/svg.png");
        REQUIRE(svg_seconds >= 0);
        REQUIRE(readPng(dir + "/svg.png", &image));
        CHECK(image.width == width);
        CHECK(image.height == height);
        Verdict v = inspectImage(image);
        CHECK_MESSAGE(v.wall, "no wall pixel at " << px(wall.x) << ", " << py(wall.y));
        CHECK_MESSAGE(v.tight, "tight edge colour missing at " << px(tight.at.x) << ", " << py(tight.at.y));
        CHECK_MESSAGE(v.wide, "wide edge colour missing at " << px(wide.at.x) << ", " << py(wide.at.y));
        CHECK(!v.route); // the SVG has no route

        // The route appears once the page's WebAssembly runtime has started; on a loaded machine the
        // screenshot can come first, so it is taken again (as pageAnswer does for the DOM).
        double html_seconds = -1;
        for (int attempt = 0; attempt < 4; ++attempt) {
            html_seconds = render(html_path, hash, width, height, dir + "/html.png");
            REQUIRE(html_seconds >= 0);
            REQUIRE(readPng(dir + "/html.png", &image));
            v = inspectImage(image);
            if (v.route) break;
        }
        CHECK(v.wall);
        CHECK(v.tight);
        CHECK(v.wide);
        CHECK_MESSAGE(v.route, "route colour missing at " << px(on_route[1].x) << ", " << py(on_route[1].y));

        // The page without its drawing (same script, same hash) must fail every check.
        const std::vector<uint8_t> html_bytes = test::readFile(html_path);
        std::string broken(html_bytes.begin(), html_bytes.end());
        const size_t open = broken.find("<svg "), close = broken.find("</svg>");
        REQUIRE(open != std::string::npos);
        REQUIRE(close != std::string::npos);
        broken.erase(open, close + 6 - open);
        const std::string broken_path = dir + "/broken.html";
        test::writeFile(broken_path, broken);
        const double broken_seconds = render(broken_path, hash, width, height, dir + "/broken.png");
        REQUIRE(broken_seconds >= 0);
        REQUIRE(readPng(dir + "/broken.png", &image));
        v = inspectImage(image);
        CHECK(!v.wall);
        CHECK(!v.tight);
        CHECK(!v.wide);
        CHECK(!v.route);
        MESSAGE("route query " << hash << "; chromium renders: svg " << svg_seconds << " s, html "
                               << html_seconds << " s, broken page " << broken_seconds << " s (" << width
                               << "x" << height << ")");
        runTool("rm -rf " + dir);
    }
}
