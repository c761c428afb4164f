// cw-inspect: summaries, verification and drawings of baked assets (footprint, roadmap, trims),
// checked against the baked structures in memory and against the runtime's loaders.
#include <clearway/preview.h>
#include <clearway/runtime.h>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "test_files.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::bake;
using clearway::test::fileExists;
using clearway::test::runTool;

namespace {

std::string tool() {
    return std::string(CLEARWAY_BIN_DIR) + "/cw-inspect";
}

const std::string& tempDir() {
    static const std::string dir = test::makeTempDir("cw-inspect-test");
    return dir;
}

struct BakedLevel {
    std::string roadmap_path, footprint_path;
    Roadmap roadmap;
};

// Each level baked once per run: the roadmap (cw-bake's library call) and its footprint.
const BakedLevel& baked(const std::string& mesh) {
    static std::map<std::string, BakedLevel> cache;
    auto it = cache.find(mesh);
    if (it != cache.end()) return it->second;
    BakedLevel& b = cache[mesh];
    const std::string name = mesh.substr(mesh.find_last_of('/') + 1);
    RoadmapRequest request;
    request.input_path = mesh;
    request.output_path = b.roadmap_path = tempDir() + "/" + name + ".cwrm";
    RoadmapResult result;
    const Error e = bakeLevel(request, &result, silentLog());
    REQUIRE_MESSAGE(!e, e.message);
    b.roadmap = std::move(result.roadmap);
    b.footprint_path = tempDir() + "/" + name + ".cwfp";
    const std::vector<uint8_t> fp = serializeFootprint(b.roadmap.footprint);
    REQUIRE(!writeFileAtomic(b.footprint_path, fp.data(), fp.size()));
    return b;
}

std::string sampleLevel(const char* name) {
    return std::string(CLEARWAY_SAMPLES) + "/levels/" + name;
}

nlohmann::json runJson(const std::string& args, int* code) {
    std::string out;
    *code = runTool("(" + tool() + " " + args + " 2>/dev/null)", &out);
    return nlohmann::json::parse(out, nullptr, false);
}

std::string readText(const std::string& path) {
    const std::vector<uint8_t> bytes = test::readFile(path);
    return {bytes.begin(), bytes.end()};
}

size_t countOf(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

std::string hex(uint32_t rgb) {
    char text[8];
    std::snprintf(text, sizeof text, "#%06x", rgb);
    return text;
}

} // namespace

TEST_SUITE("inspect: summaries match the baked asset") {
    TEST_CASE("a two-storey roadmap: kind, versions, layers, counts and clearance range as baked") {
        const BakedLevel& b = baked(sampleLevel("two_storey.obj"));
        const Roadmap& rm = b.roadmap;
        int code = 0;
        const nlohmann::json j = runJson(b.roadmap_path + " --json", &code);
        REQUIRE(code == 0);
        REQUIRE(j.is_object());
        CHECK(j["kind"] == "roadmap");
        CHECK(j["status"] == "ok");
        CHECK(j["format_version"] == 1);
        CHECK(j["baker_version"] == bakerVersion());
        CHECK(j["source_name"] == rm.footprint.source_name);
        char hash[24];
        std::snprintf(hash, sizeof hash, "0x%016llx", static_cast<unsigned long long>(rm.options_hash));
        CHECK(j["options_hash"] == hash);
        CHECK(j["layer_count"] == rm.footprint.layers.size());
        CHECK(j["connections"] == rm.footprint.connections.size());
        CHECK(j["roadmap"]["vertices"] == rm.vertices.size());
        CHECK(j["roadmap"]["edges"] == rm.edges.size());
        CHECK(j["roadmap"]["blends"] == rm.blends.size());
        size_t arcs = 0, portals = 0, walls = 0;
        double lo = INFINITY, hi = 0;
        for (const Blend& blend : rm.blends)
            arcs += blend.radius > 0;
        for (const RoadmapEdge& e : rm.edges) {
            portals += e.portal;
            if (!e.portal) lo = std::min(lo, e.min_clearance), hi = std::max(hi, e.min_clearance);
        }
        for (uint32_t l = 0; l < rm.footprint.layers.size(); ++l)
            walls += layerWalls(rm.footprint.layers[l]).size();
        CHECK(j["roadmap"]["arcs"] == arcs);
        CHECK(j["roadmap"]["portal_edges"] == portals);
        CHECK(j["walls"] == walls);
        // Stored as floats in the asset.
        CHECK(j["roadmap"]["clearance_min"].get<double>() == doctest::Approx(lo).epsilon(1e-6));
        CHECK(j["roadmap"]["clearance_max"].get<double>() == doctest::Approx(hi).epsilon(1e-6));
        REQUIRE(j["layers"].size() == rm.footprint.layers.size());
        for (size_t l = 0; l < rm.footprint.layers.size(); ++l) {
            CHECK(j["layers"][l]["area"].get<double>() ==
                  doctest::Approx(rm.footprint.layers[l].area).epsilon(1e-9));
            size_t vertices = 0;
            for (const RoadmapVertex& v : rm.vertices)
                vertices += v.layer == l;
            CHECK(j["layers"][l]["vertices"] == vertices);
        }
        CHECK(j["import_options"]["up"] == "y");
        CHECK(j["import_options"]["max_step"].get<double>() == doctest::Approx(0.4));
        CHECK(j["roadmap_options"]["merge_chains"] == true);
    }

    TEST_CASE("world bounds undo the origin shift: undulating.obj lies 5 km out") {
        const BakedLevel& b = baked(std::string(CLEARWAY_PEER_MESHES) + "/undulating.obj");
        const Footprint& fp = b.roadmap.footprint;
        int code = 0;
        const nlohmann::json j = runJson(b.roadmap_path + " --json", &code);
        REQUIRE(code == 0);
        const auto& wmin = j["bounds"]["world"]["min"];
        const auto& wmax = j["bounds"]["world"]["max"];
        // Every boundary vertex of every layer, taken to the mesh's own frame by the bake library.
        double lo_x = INFINITY, hi_x = -INFINITY, lo_z = INFINITY, hi_z = -INFINITY;
        for (const FootprintLayer& layer : fp.layers)
            for (const PolygonWithHoles& p : layer.polygons)
                for (const Vec2& v : p.outer) {
                    const Vec3 w =
                        internalToWorld({v.x + fp.origin.x, v.y + fp.origin.y, fp.origin.z}, fp.options);
                    lo_x = std::min(lo_x, w.x), hi_x = std::max(hi_x, w.x);
                    lo_z = std::min(lo_z, w.z), hi_z = std::max(hi_z, w.z);
                }
        CHECK(lo_x > 4000); // really the world frame, not the local one
        CHECK(wmin[0].get<double>() == doctest::Approx(lo_x).epsilon(1e-9));
        CHECK(wmax[0].get<double>() == doctest::Approx(hi_x).epsilon(1e-9));
        // Y-up mesh: world z is minus internal y.
        CHECK(wmin[2].get<double>() == doctest::Approx(lo_z).epsilon(1e-9));
        CHECK(wmax[2].get<double>() == doctest::Approx(hi_z).epsilon(1e-9));
        // World y (up) spans the surface heights.
        double h_lo = INFINITY, h_hi = -INFINITY;
        for (const FootprintLayer& layer : fp.layers)
            h_lo = std::min(h_lo, layer.height_min), h_hi = std::max(h_hi, layer.height_max);
        CHECK(wmin[1].get<double>() == doctest::Approx(h_lo + fp.origin.z).epsilon(1e-6));
        CHECK(wmax[1].get<double>() == doctest::Approx(h_hi + fp.origin.z).epsilon(1e-6));
    }

    TEST_CASE("the kind comes from the file identifier, not the extension") {
        const BakedLevel& b = baked(sampleLevel("two_storey.obj"));
        const std::string renamed = tempDir() + "/roadmap-named.cwfp";
        test::writeFile(renamed, readText(b.roadmap_path));
        int code = 0;
        CHECK(runJson(renamed + " --json", &code)["kind"] == "roadmap");
        CHECK(code == 0);
        const nlohmann::json fp = runJson(b.footprint_path + " --json", &code);
        CHECK(code == 0);
        CHECK(fp["kind"] == "footprint");
        CHECK(fp["layer_count"] == b.roadmap.footprint.layers.size());
        CHECK(!fp.contains("roadmap"));
    }

    TEST_CASE("a boat trim table: controls, stored trims, model") {
        VehicleModel model;
        REQUIRE(!loadVehicleModel(std::string(CLEARWAY_SAMPLES) + "/vehicles/boat.json", &model, nullptr));
        TrimsRequest request;
        request.model_path = std::string(CLEARWAY_SAMPLES) + "/vehicles/boat.json";
        request.output_path = tempDir() + "/boat.cwtt";
        TrimsResult result;
        REQUIRE(!bakeTrimsFile(request, &result, silentLog()));
        int code = 0;
        const nlohmann::json j = runJson(request.output_path + " --json", &code);
        REQUIRE(code == 0);
        CHECK(j["kind"] == "trims");
        CHECK(j["trims"]["vehicle"] == "boat");
        CHECK(j["trims"]["controls"] == 17);
        CHECK(j["trims"]["trims"] == result.table.trims.size());
        CHECK(j["trims"]["symmetric"] == model.symmetric);
        CHECK(j["trims"]["speed"].get<double>() == 8.0);
        // One interval at 8 m/s: the straight trim covers exactly 8 m, turning ones less.
        CHECK(j["trims"]["reach_max"].get<double>() == doctest::Approx(8.0).epsilon(1e-5));
        CHECK(j["trims"]["reach_min"].get<double>() < 8.0);
        // One panel per initial control, 17 trajectories each.
        const std::string svg_path = tempDir() + "/boat.svg";
        REQUIRE(runTool(tool() + " " + request.output_path + " --svg " + svg_path + " -q") == 0);
        const std::string svg = readText(svg_path);
        CHECK(countOf(svg, "class=\"panel\"") == 17);
        CHECK(countOf(svg, "<path stroke=") == 17 * 17);
    }
}

TEST_SUITE("inspect: verification and exit codes") {
    TEST_CASE("--verify prints only the verdict, and corrupt, truncated and foreign files are bad input") {
        const BakedLevel& b = baked(sampleLevel("two_storey.obj"));
        std::string out;
        REQUIRE(runTool(tool() + " " + b.roadmap_path + " --verify", &out) == 0);
        CHECK(out == b.roadmap_path + ": roadmap asset, " +
                         std::to_string(test::readFile(b.roadmap_path).size()) + " bytes, verified (ok)\n");
        int code = 0;
        const nlohmann::json v = runJson(b.footprint_path + " --verify --json", &code);
        CHECK(code == 0);
        CHECK(v.size() == 4);
        CHECK(v["status"] == "ok");
        CHECK(v["kind"] == "footprint");

        const std::vector<uint8_t> bytes = test::readFile(b.roadmap_path);
        const std::string truncated = tempDir() + "/truncated.cwrm";
        test::writeFile(truncated, std::string(bytes.begin(), bytes.begin() + bytes.size() / 2));
        CHECK(runTool(tool() + " " + truncated + " --verify", &out) == 2);
        CHECK(out.find(truncated + ": roadmap asset does not verify: asset is corrupt") != std::string::npos);
        const nlohmann::json e = runJson(truncated + " --json", &code);
        CHECK(code == 2);
        CHECK(e["error"]["code"] == "ReadFailed");
        CHECK(e["error"]["exit_code"] == 2);

        // A flipped vertex index deep inside: verified by the semantic checks, not the header.
        std::string corrupt(bytes.begin(), bytes.end());
        RoadmapView view;
        size_t flipped = 0;
        for (size_t at = 64; at < corrupt.size() && !flipped; at += 97) {
            std::string copy = corrupt;
            copy[at] = char(copy[at] ^ 0xff);
            std::vector<uint64_t> aligned(copy.size() / 8 + 1);
            std::memcpy(aligned.data(), copy.data(), copy.size());
            if (loadRoadmap(aligned.data(), copy.size(), &view) == Status::CorruptAsset)
                corrupt = copy, flipped = at;
        }
        REQUIRE(flipped);
        const std::string corrupt_path = tempDir() + "/corrupt.cwrm";
        test::writeFile(corrupt_path, corrupt);
        CHECK(runTool(tool() + " " + corrupt_path + " --svg " + tempDir() + "/corrupt.svg", &out) == 2);
        CHECK(out.find("asset is corrupt") != std::string::npos);
        CHECK(!fileExists(tempDir() + "/corrupt.svg"));

        const std::string foreign = tempDir() + "/level.obj.cwrm";
        test::writeFile(foreign, "# level mesh\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
        CHECK(runTool(tool() + " " + foreign, &out) == 2);
        CHECK(out.find("not a clearway asset (file identifier 'vel ', expected CWFP, CWRM or CWTT)") !=
              std::string::npos);
        CHECK(runTool(tool() + " " + tempDir() + "/missing.cwrm", &out) == 2);
        CHECK(out.find("missing.cwrm: no such file") != std::string::npos);
        CHECK(runTool(tool() + " " + b.roadmap_path + " --no-such-option", &out) == 2);
    }
}

TEST_SUITE("inspect: drawings") {
    TEST_CASE("the roadmap SVG: every edge in its clearance colour, blends, walls, connections, transform") {
        const BakedLevel& b = baked(sampleLevel("two_storey.obj"));
        const Roadmap& rm = b.roadmap;
        const std::string svg_path = tempDir() + "/two_storey.svg",
                          html_path = tempDir() + "/two_storey.html";
        REQUIRE(runTool(tool() + " " + b.roadmap_path + " -q --svg " + svg_path + " --html " + html_path) ==
                0);
        const std::string svg = readText(svg_path);
        double max_clearance = 0.1; // the legend's top: the largest clearance as stored (float)
        size_t arcs = 0;
        for (const RoadmapEdge& e : rm.edges)
            if (!e.portal) max_clearance = std::max(max_clearance, double(float(e.min_clearance)));
        for (const Blend& blend : rm.blends)
            arcs += blend.radius > 0;
        size_t portals = 0;
        std::map<std::string, size_t> colours;
        for (const RoadmapEdge& e : rm.edges)
            portals += e.portal,
                colours[hex(clearanceColour(float(e.min_clearance), max_clearance))] += !e.portal;
        // Each non-portal edge's path carries the ramp colour of its own minimum clearance.
        for (const auto& [colour, n] : colours)
            if (n) CHECK_MESSAGE(countOf(svg, "stroke=\"" + colour + "\" d=") == n, colour);
        CHECK(colours.size() >= 5); // the ramp is really used, not one colour
        CHECK(countOf(svg, "stroke-dasharray=\"4 3\" d=") == portals);
        CHECK(countOf(svg.substr(svg.find("<g id=\"blends\""),
                                 svg.find("<g id=\"roadmap\"") - svg.find("<g id=\"blends\"")),
                      "<path ") == arcs);
        CHECK(svg.find("<g id=\"walls\" fill=\"none\" stroke=\"#000000\"") != std::string::npos);
        CHECK(countOf(svg.substr(svg.find("<g id=\"connections\"")), "<path class=") ==
              rm.footprint.connections.size());
        CHECK(svg.find("data-transform=\"") != std::string::npos);
        CHECK(svg.find("<linearGradient id=\"ramp\">") != std::string::npos);
        // Ramp ends: red = tight, blue = wide.
        CHECK(clearanceColour(0, 4) == 0xd7191c);
        CHECK(clearanceColour(4, 4) == 0x2166ac);
        CHECK(clearanceColour(9, 4) == 0x2166ac);

        // The HTML holds the same drawing, the asset itself (base64) and the WebAssembly runtime
        // that queries it, and fetches nothing.
        const std::string html = readText(html_path);
        CHECK(html.find(svg.substr(svg.find("<g id=\"walls\""), 2000)) != std::string::npos);
        const std::vector<uint8_t> asset = clearway::test::readFile(b.roadmap_path);
        const size_t at = html.find("const ASSET = \"");
        REQUIRE(at != std::string::npos);
        CHECK(html.substr(at + 15, html.find('"', at + 15) - at - 15).size() == (asset.size() + 2) / 3 * 4);
        CHECK(html.find("var ClearwayRuntime") != std::string::npos);
        CHECK(html.find("const RUNTIME_EMBEDDED = true;") != std::string::npos);
        CHECK(html.find("src=") == std::string::npos);
        CHECK(html.find("wasmBinaryFile=\"data:application/octet-stream;base64,") != std::string::npos);
    }

    TEST_CASE("a footprint page has layer toggles but no path query") {
        const BakedLevel& b = baked(sampleLevel("two_storey.obj"));
        const std::string html_path = tempDir() + "/two_storey.footprint.html";
        REQUIRE(runTool(tool() + " " + b.footprint_path + " -q --html " + html_path) == 0);
        const std::string html = readText(html_path);
        CHECK(html.find("const ASSET = \"\";") != std::string::npos); // nothing to query
        CHECK(html.find("var ClearwayRuntime") == std::string::npos);
        CHECK(html.find("const LAYERS = " + std::to_string(b.roadmap.footprint.layers.size())) !=
              std::string::npos);
        CHECK(countOf(html, "<path class=\"L0\" fill=") == 1);
        CHECK(html.find("id=\"roadmap\"") == std::string::npos);
    }
}
