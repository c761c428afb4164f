// cw-inspect's page answers path queries with clearway's runtime compiled to WebAssembly: clicks
// (a URL hash, exactly as two clicks) in headless Chromium give the same status and length as
// cw-query for the same world points, on peer meshes and sample levels; a click off the floor, a
// corrupt asset and a corrupt runtime each show a clear message instead of a blank page.
#include <clearway/runtime.h>

#include "page_dom.h"
#include "test_files.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using clearway::test::pageAnswer;
using clearway::test::runTool;
namespace test = clearway::test;

namespace {

const std::string kBin = CLEARWAY_BIN_DIR;

// Roadmap vertex positions (local), a few spread over the level: the points the test "clicks".
std::vector<std::pair<double, double>> spreadVertices(const std::string& asset, size_t count) {
    const std::vector<uint8_t> bytes = test::readFile(asset);
    std::vector<uint64_t> words(bytes.size() / 8 + 1);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    clearway::RoadmapView view;
    REQUIRE(clearway::loadRoadmap(words.data(), bytes.size(), &view) == clearway::Status::Ok);
    clearway::RoadmapInfo info{};
    clearway::roadmapInfo(view, &info);
    std::vector<std::pair<double, double>> points;
    // Vertices with room around them (a path from a vertex hugging a wall fails at any radius).
    for (uint32_t i = 0; i < info.vertex_count && points.size() < count; ++i) {
        clearway::RoadmapVertexInfo v{};
        clearway::roadmapVertex(view, uint32_t((uint64_t(i) * 7919 + 13) % info.vertex_count), &v);
        if (v.clearance >= 1.0) points.emplace_back(v.position.x, v.position.y);
    }
    return points;
}

std::string hashFor(std::pair<double, double> a, std::pair<double, double> b, double radius) {
    char text[200];
    std::snprintf(text, sizeof text, "#from=%.6f,%.6f&to=%.6f,%.6f&r=%g", a.first, a.second, b.first, b.second,
                  radius);
    return text;
}

struct Level {
    std::string name, mesh, options;
};

} // namespace

TEST_SUITE("preview: the page's path is the game's path") {
    TEST_CASE("clicks in the page give cw-query's status and length on peer meshes and sample levels") {
        if (runTool("command -v chromium") != 0) FAIL("chromium is not installed: run scripts/test");
        const std::string dir = test::makeTempDir("cw-page-test");
        const std::string peers = CLEARWAY_PEER_MESHES, samples = std::string(CLEARWAY_SAMPLES) + "/levels";
        const Level levels[] = {{"nav_test", peers + "/nav_test.obj", "--max-step 0.9"},
                                {"dungeon", peers + "/dungeon.obj", "--max-step 0.9"},
                                {"two_storey", samples + "/two_storey.obj", ""},
                                {"box_room", samples + "/box_room.obj", ""}};
        size_t found = 0, compared = 0;
        for (const Level& level : levels) {
            const std::string asset = dir + "/" + level.name + ".cwrm", html = dir + "/" + level.name + ".html";
            REQUIRE(runTool(kBin + "/cw-bake -q " + level.options + " -o " + asset + " " + level.mesh) == 0);
            REQUIRE(runTool(kBin + "/cw-inspect -q " + asset + " --html " + html) == 0);
            const auto points = spreadVertices(asset, 8);
            for (size_t i = 0; i + 1 < points.size(); i += 2) {
                const double radius = i % 4 ? 0.3 : 0.5;
                const auto page = pageAnswer(html, hashFor(points[i], points[i + 1], radius));
                INFO(level.name << " " << hashFor(points[i], points[i + 1], radius) << ": " << page.at("text"));
                REQUIRE(page.count("status"));
                if (page.at("status") == "error") continue; // a vertex under a higher layer's floor: no cw-query twin
                REQUIRE(page.count("from"));
                std::string json;
                REQUIRE(runTool(kBin + "/cw-query " + asset + " --from=" + page.at("from") + " --to=" + page.at("to") +
                                    " --radius " + std::to_string(radius) + " --json",
                                &json) == 0);
                const nlohmann::json q = nlohmann::json::parse(json);
                CHECK(q["found"].get<bool>() == (page.at("status") == "found"));
                if (page.at("status") == "found") {
                    CHECK(std::stod(page.at("length")) == q["length"].get<double>());
                    ++found;
                } else {
                    CHECK(page.at("text") == "no path: " + q["reason"].get<std::string>());
                }
                ++compared;
            }
        }
        MESSAGE(compared << " page queries compared with cw-query, " << found << " with a path");
        CHECK(compared >= 8);
        CHECK(found >= 4);
        runTool("rm -rf " + dir);
    }

    TEST_CASE("a click off the floor, a corrupt asset and a corrupt runtime each show a clear message") {
        if (runTool("command -v chromium") != 0) FAIL("chromium is not installed: run scripts/test");
        const std::string dir = test::makeTempDir("cw-page-test");
        const std::string asset = dir + "/box_room.cwrm", html = dir + "/box_room.html";
        REQUIRE(runTool(kBin + "/cw-bake -q -o " + asset + " " + CLEARWAY_SAMPLES + "/levels/box_room.obj") == 0);
        REQUIRE(runTool(kBin + "/cw-inspect -q " + asset + " --html " + html) == 0);
        const std::vector<uint8_t> bytes = test::readFile(html);
        const std::string page(bytes.begin(), bytes.end());

        auto off = pageAnswer(html, "#from=1e4,1e4&to=0,0&r=0.3");
        CHECK(off["status"] == "error");
        CHECK(off["text"].find("not on the walkable area") != std::string::npos);

        std::string corrupt_asset = page;
        const size_t asset_at = corrupt_asset.find("const ASSET = \"") + 15;
        corrupt_asset.replace(asset_at, 16, "AAAAAAAAAAAAAAAA"); // zeroes over the identifier and offsets
        test::writeFile(dir + "/asset.html", corrupt_asset);
        auto broken = pageAnswer(dir + "/asset.html", "");
        CHECK(broken["status"] == "error");
        CHECK(broken["text"].find("does not load") != std::string::npos);

        // The module's bytes damaged (it fails to compile), and its script cut short (it never runs).
        std::string bad_wasm = page;
        const size_t wasm_at = bad_wasm.find("wasmBinaryFile=\"data:application/octet-stream;base64,");
        REQUIRE(wasm_at != std::string::npos);
        bad_wasm.replace(wasm_at + 53, 64, std::string(64, 'Q'));
        test::writeFile(dir + "/wasm.html", bad_wasm);
        auto no_wasm = pageAnswer(dir + "/wasm.html", "");
        CHECK(no_wasm["status"] == "error");
        CHECK(no_wasm["text"].find("failed to load") != std::string::npos);
        std::string cut_script = page;
        cut_script.replace(wasm_at, 200, "");
        test::writeFile(dir + "/script.html", cut_script);
        auto no_script = pageAnswer(dir + "/script.html", "");
        CHECK(no_script["status"] == "error");
        CHECK(no_script["text"].find("failed to load") != std::string::npos);
        runTool("rm -rf " + dir);
    }
}
