// Parallel bake stages: a bake may use any number of threads and still writes the same
// bytes. Each level is baked with 1, 2 and 4 threads (4 really run: the TBB limit is raised past
// the machine's cores), footprint and roadmap assets are serialized and their FNV-1a hashes must
// agree. The thread count is not an option of the asset: it changes no options hash.
#include "test_files.h"

#include <clearway/bake.h>

#include "scenes.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace clearway;
using namespace clearway::bake;

struct Hashes {
    uint64_t footprint = 0, roadmap = 0;
    size_t layers = 0, connections = 0, vertices = 0, blends = 0;
};

uint64_t hashOf(const std::vector<uint8_t>& bytes) {
    return fnv1a64(bytes.data(), bytes.size());
}

std::string hex(uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "%016" PRIx64, v);
    return text;
}

// cw-bake's pipeline: footprint, its asset bytes read back, roadmap from those.
Hashes bake(const Mesh& mesh, unsigned threads) {
    ImportOptions import = defaultImportOptions();
    import.threads = threads;
    Footprint built;
    const Error e = buildFootprint(mesh, import, &built, silentLog());
    REQUIRE_MESSAGE(!e, e.message);
    const std::vector<uint8_t> footprint_bytes = serializeFootprint(built);
    Footprint footprint;
    REQUIRE(!readFootprintBytes(footprint_bytes, mesh.source_name, &footprint));
    RoadmapOptions options = defaultRoadmapOptions();
    options.threads = threads;
    Roadmap roadmap;
    const Error r = buildRoadmap(footprint, options, &roadmap, nullptr, silentLog());
    REQUIRE_MESSAGE(!r, r.message);
    Hashes h;
    h.footprint = hashOf(footprint_bytes);
    h.roadmap = hashOf(serializeRoadmap(roadmap));
    h.layers = footprint.layers.size();
    h.connections = footprint.connections.size();
    h.vertices = roadmap.vertices.size();
    h.blends = roadmap.blends.size();
    return h;
}

// Bakes with 1, 2 and 4 threads; every hash must match the single-threaded one.
Hashes checkThreadCounts(const Mesh& mesh) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 4);
    const Hashes one = bake(mesh, 1);
    for (unsigned threads : {2u, 4u}) {
        const Hashes many = bake(mesh, threads);
        MESSAGE(mesh.source_name << ": threads=" << threads << ": footprint " << hex(many.footprint)
                                 << ", roadmap " << hex(many.roadmap) << " (threads=1: " << hex(one.footprint)
                                 << ", " << hex(one.roadmap) << ")");
        CHECK(many.footprint == one.footprint);
        CHECK(many.roadmap == one.roadmap);
    }
    return one;
}

// Every analytic scene three times over on a grid (stacked storeys, a bridge, a ramp, stairs),
// with a 4 x 4 field of crates beside each copy: several layers, connections and many pieces.
Mesh generatedLevel() {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices;
    auto append = [&](const std::vector<Vec3>& p, const std::vector<uint32_t>& idx, double dx, double dz) {
        const uint32_t base = uint32_t(positions.size());
        for (const Vec3& v : p)
            positions.push_back({v.x + dx, v.y, v.z + dz});
        for (uint32_t i : idx)
            indices.push_back(base + i);
    };
    // A closed, outward-wound box in world coordinates (Y up).
    auto box = [&](double x0, double y0, double z0, double x1, double y1, double z1) {
        const std::vector<Vec3> p{{x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1},
                                  {x0, y1, z0}, {x1, y1, z0}, {x1, y1, z1}, {x0, y1, z1}};
        const std::vector<uint32_t> idx{0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1,
                                        1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0};
        append(p, idx, 0, 0);
    };
    const std::vector<scenes::Scene> all = scenes::allScenes();
    for (int copy = 0; copy < 3; ++copy) {
        const double dz = 60.0 * copy;
        double dx = 0;
        for (const scenes::Scene& scene : all) {
            double min_x = INFINITY, max_x = -INFINITY;
            for (const Vec3& v : scene.positions)
                min_x = std::min(min_x, v.x), max_x = std::max(max_x, v.x);
            append(scene.positions, scene.indices, dx - min_x, dz);
            dx += max_x - min_x + 4;
        }
        // Crates of three heights (stepped onto, walked under no, blocking) on a floor slab.
        box(dx, -0.2, dz, dx + 20, 0, dz + 20);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                const double x = dx + 2 + 4.5 * i, z = dz + 2 + 4.5 * j, h = 0.3 + 0.9 * ((i + j + copy) % 3);
                box(x, 0, z, x + 1.5 + 0.25 * j, h, z + 1.5 + 0.25 * i);
            }
    }
    Mesh mesh;
    const Error e = meshFromTriangles(positions, indices, defaultImportOptions(), "generated-scenes", &mesh);
    REQUIRE_MESSAGE(!e, e.message);
    return mesh;
}

std::string tool(const char* name) {
    return std::string(CLEARWAY_BIN_DIR) + "/" + name;
}

} // namespace

TEST_SUITE("parallel bake") {
    TEST_CASE("the peer meshes bake to the same bytes with 1, 2 and 4 threads") {
        for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
            INFO(std::string(name));
            Mesh mesh;
            const Error e = loadMesh(std::string(CLEARWAY_PEER_MESHES) + "/" + name, defaultImportOptions(),
                                     &mesh, silentLog());
            REQUIRE_MESSAGE(!e, e.message);
            const Hashes h = checkThreadCounts(mesh);
            CHECK(h.layers >= 2); // every peer mesh has stacked floors: the per-layer tasks run
            CHECK(h.vertices > 100);
        }
    }

    TEST_CASE("a generated multi-layer level bakes to the same bytes with 1, 2 and 4 threads") {
        const Mesh mesh = generatedLevel();
        const Hashes h = checkThreadCounts(mesh);
        CHECK(h.layers >= 2);
        CHECK(h.connections >= 3); // a stair, a ramp and a bridge per copy at least
        CHECK(h.blends > 0);
    }

    TEST_CASE("a generated 4000-wall roadmap is the same with 1, 2 and 4 threads") {
        // One layer: the medial axis is one task; chain merging, heights and blends split.
        const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 4);
        const Footprint fp = scenes::randomBoxesFootprint(4000, 7);
        std::vector<uint64_t> hashes;
        for (unsigned threads : {1u, 2u, 4u}) {
            RoadmapOptions options = defaultRoadmapOptions();
            options.threads = threads;
            Roadmap roadmap;
            const Error e = buildRoadmap(fp, options, &roadmap, nullptr, silentLog());
            REQUIRE_MESSAGE(!e, e.message);
            hashes.push_back(hashOf(serializeRoadmap(roadmap)));
            MESSAGE(fp.source_name << ": threads=" << threads << ": roadmap " << hex(hashes.back()));
            CHECK(roadmap.blends.size() > 4000);
        }
        CHECK(hashes[1] == hashes[0]);
        CHECK(hashes[2] == hashes[0]);
    }

    TEST_CASE("the thread count is not part of the options hash") {
        ImportOptions a = defaultImportOptions(), b = a;
        b.threads = 3;
        CHECK(canonicalString(a) == canonicalString(b));
        RoadmapOptions ra = defaultRoadmapOptions(), rb = ra;
        rb.threads = 5;
        CHECK(roadmapOptionsHash(a, ra) == roadmapOptionsHash(b, rb));
        CHECK(roadmapOptionsHash(a, ra) != roadmapOptionsHash(a, [] {
                  RoadmapOptions o = defaultRoadmapOptions();
                  o.min_clearance = 0.5; // a real option does change it
                  return o;
              }()));
    }

    TEST_CASE("--threads: a bake with another thread count is up to date, bad counts are bad input") {
        using test::runTool;
        const std::string dir = test::makeTempDir("clearway-parallel");
        const std::string mesh = std::string(CLEARWAY_SAMPLES) + "/levels/two_storey.obj";
        const std::string out = dir + "/two_storey.cwrm", fp = dir + "/two_storey.cwfp";
        std::string text;
        REQUIRE(runTool(tool("cw-bake") + " " + mesh + " -o " + out + " --threads 1", &text) == 0);
        const std::vector<uint8_t> first = test::readFile(out);
        // Another count: same options hash, so --if-changed skips; without it, the same bytes.
        REQUIRE(runTool("(" + tool("cw-bake") + " " + mesh + " -o " + out +
                            " --threads 2 --if-changed --json" + " 2>/dev/null)",
                        &text) == 0);
        const nlohmann::json skipped = nlohmann::json::parse(text, nullptr, false);
        REQUIRE(skipped.is_object());
        CHECK(skipped["skipped"] == true);
        REQUIRE(runTool(tool("cw-bake") + " " + mesh + " -o " + out + " --threads 2 -q", &text) == 0);
        CHECK(test::readFile(out) == first);
        // cw-import and cw-roadmap take it too; cw-import + cw-roadmap give cw-bake's bytes.
        REQUIRE(runTool(tool("cw-import") + " " + mesh + " -o " + fp + " --threads 2 -q", &text) == 0);
        REQUIRE(runTool(tool("cw-roadmap") + " " + fp + " -o " + dir + "/split.cwrm --threads 2 -q", &text) ==
                0);
        CHECK(test::readFile(dir + "/split.cwrm") == first);
        for (const char* bad : {"-1", "x", "1.5"}) {
            INFO(std::string(bad));
            CHECK(runTool(tool("cw-bake") + " " + mesh + " -o " + out + " --threads " + bad, &text) == 2);
            CHECK(text.find("--threads") != std::string::npos);
        }
        std::system(("rm -rf " + dir).c_str());
    }
}
