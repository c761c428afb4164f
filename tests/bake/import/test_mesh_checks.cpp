// Import checks on hostile or careless meshes: a level so far from the origin that the importer's
// floats already moved its walls, vertices a hair apart, and exact duplicate triangles (n copies
// cost n^2 downstream).
#include "test_files.h"

#include <clearway/bake.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace clearway;
using namespace clearway::bake;

struct Triangles {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices;
    void quad(Vec3 a, Vec3 b, Vec3 c, Vec3 d) {
        const auto base = uint32_t(positions.size());
        positions.insert(positions.end(), {a, b, c, d});
        indices.insert(indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
};

// A 20 x 20 m floor with a 0.3 x 0.3 x 3 m pillar in its middle, centred on (x, z) (Y up).
Triangles pillarLevel(double x, double z) {
    Triangles t;
    t.quad({x - 10, 0, z - 10}, {x - 10, 0, z + 10}, {x + 10, 0, z + 10}, {x + 10, 0, z - 10});
    const double r = 0.15, h = 3;
    const Vec3 c[4] = {{x - r, 0, z - r}, {x + r, 0, z - r}, {x + r, 0, z + r}, {x - r, 0, z + r}};
    for (int i = 0; i < 4; ++i) {
        const Vec3 a = c[i], b = c[(i + 1) % 4];
        t.quad(a, b, {b.x, h, b.z}, {a.x, h, a.z});
    }
    t.quad({c[0].x, h, c[0].z}, {c[1].x, h, c[1].z}, {c[2].x, h, c[2].z}, {c[3].x, h, c[3].z});
    return t;
}

class RecordingLog final : public LogContext {
  public:
    std::vector<std::string> info;
    void log(LogLevel level, const std::string& message) override {
        if (level == LogLevel::Info) info.push_back(message);
    }
};

} // namespace

TEST_SUITE("import checks") {
    TEST_CASE("a pillar far from the origin is refused, not silently lost") {
        const Triangles far = pillarLevel(1e7, 1e7);
        Mesh mesh;
        Error e = meshFromTriangles(far.positions, far.indices, defaultImportOptions(), "pillar", &mesh);
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(e.message == "pillar: vertices lie up to 1e+07 m from the origin, where the importer's "
                           "single-precision coordinates are 1 m apart (a wall may already be 0.5 m off), "
                           "coarser than a quarter of --epsilon 0.01 m. Recentre the level near the origin, "
                           "export it as tiles each near its own origin, or raise --epsilon");
        // 1e6 m: floats 6.25 cm apart, more than the 1 cm promised; a coarse epsilon accepts it.
        const Triangles million = pillarLevel(1e6, 0);
        e = meshFromTriangles(million.positions, million.indices, defaultImportOptions(), "pillar", &mesh);
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(e.message.find("0.0625 m apart") != std::string::npos);
        ImportOptions coarse = defaultImportOptions();
        coarse.epsilon = 0.25;
        CHECK(!meshFromTriangles(million.positions, million.indices, coarse, "pillar", &mesh));
        // --scale counts: the same file in centimetres is 100 times finer in metres.
        ImportOptions centimetres = defaultImportOptions();
        centimetres.scale = 0.01;
        const Triangles cm = pillarLevel(1e5, 0);
        CHECK(!meshFromTriangles(cm.positions, cm.indices, centimetres, "pillar", &mesh));
        // Through a loader that parses floats (Assimp: PLY) the message names the file.
        const std::string dir = test::makeTempDir("clearway-import-checks");
        const std::string ply = dir + "/far.ply";
        REQUIRE(!exportTriangles(far.positions, far.indices, "ply", ply));
        e = loadMesh(ply, defaultImportOptions(), &mesh, silentLog());
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(e.message.rfind(ply + ": vertices lie up to", 0) == 0);
        // An OBJ is read in double, 2^-29 m apart out there: the pillar imports. (Assimp's OBJ
        // exporter writes floats, so this file holds the float coordinates above.)
        const std::string obj = dir + "/far.obj";
        REQUIRE(!exportTriangles(far.positions, far.indices, "obj", obj));
        e = loadMesh(obj, defaultImportOptions(), &mesh, silentLog());
        CHECK_MESSAGE(!e, e.message);
        // Double precision runs out too, 1.8e13 m out (2^44 m: doubles 2^-8 m apart).
        const Triangles farther = pillarLevel(0x1p44, 0);
        std::string text;
        for (const Vec3& p : farther.positions) {
            char line[128];
            std::snprintf(line, sizeof line, "v %.17g %.17g %.17g\n", p.x, p.y, p.z);
            text += line;
        }
        for (size_t t = 0; t < farther.indices.size(); t += 3)
            text += "f " + std::to_string(farther.indices[t] + 1) + " " + std::to_string(farther.indices[t + 1] + 1) +
                    " " + std::to_string(farther.indices[t + 2] + 1) + "\n";
        e = loadMeshFromMemory(text.data(), text.size(), "obj", defaultImportOptions(), "far.obj", &mesh,
                               silentLog());
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(e.message.find("the importer's double-precision coordinates are 0.00390625 m apart") !=
              std::string::npos);
    }

    TEST_CASE("the same pillar at the origin bakes with its pillar") {
        const Triangles near = pillarLevel(0, 0);
        Mesh mesh;
        REQUIRE(!meshFromTriangles(near.positions, near.indices, defaultImportOptions(), "pillar", &mesh));
        Footprint fp;
        const Error e = buildFootprint(mesh, defaultImportOptions(), &fp, silentLog());
        REQUIRE_MESSAGE(!e, e.message);
        // The pillar's walls cut a 0.3 x 0.3 m hole out of the floor, within --epsilon.
        REQUIRE(fp.layers.size() == 1);
        REQUIRE(fp.layers[0].polygons.at(0).holes.size() == 1);
        double min_x = 1e9, max_x = -1e9, min_y = 1e9, max_y = -1e9;
        for (const Vec2& p : fp.layers[0].polygons[0].holes[0]) {
            min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x);
            min_y = std::min(min_y, p.y), max_y = std::max(max_y, p.y);
        }
        CHECK(std::abs(max_x - min_x - 0.3) <= 0.01);
        CHECK(std::abs(max_y - min_y - 0.3) <= 0.01);
        CHECK(std::abs((max_x + min_x) / 2 + fp.origin.x) <= 0.01); // centred on the world origin
    }

    TEST_CASE("exact duplicate triangles are dropped in any rotation, and a reversed copy is kept") {
        const Triangles level = pillarLevel(0, 0);
        Triangles doubled = level;
        const size_t triangles = level.indices.size() / 3;
        for (size_t t = 0; t < triangles; ++t) {
            const uint32_t* i = &level.indices[3 * t];
            const auto base = uint32_t(doubled.positions.size());
            for (int k = 0; k < 3; ++k)
                doubled.positions.push_back(level.positions[i[k]]); // own vertices, same positions
            doubled.indices.insert(doubled.indices.end(), {base + 1, base + 2, base}); // rotated
            doubled.indices.insert(doubled.indices.end(), {i[2], i[0], i[1]});         // rotated, same vertices
            doubled.indices.insert(doubled.indices.end(), {i[0], i[1], i[2]});         // identical
        }
        Mesh plain, deduplicated;
        REQUIRE(!meshFromTriangles(level.positions, level.indices, defaultImportOptions(), "pillar", &plain));
        RecordingLog log;
        REQUIRE(!meshFromTriangles(doubled.positions, doubled.indices, defaultImportOptions(), "pillar",
                                   &deduplicated, log));
        CHECK(deduplicated.indices == plain.indices); // the first of each kept, in file order
        REQUIRE(log.info.size() == 1);
        CHECK(log.info[0] == "pillar: dropped " + std::to_string(3 * triangles) +
                                 " duplicate triangles (same corners as an earlier one)");
        Footprint a, b;
        REQUIRE(!buildFootprint(plain, defaultImportOptions(), &a, silentLog()));
        REQUIRE(!buildFootprint(deduplicated, defaultImportOptions(), &b, silentLog()));
        CHECK(serializeFootprint(a) == serializeFootprint(b));

        // The reverse winding faces the other way (a double-sided wall): kept.
        Triangles two_sided = level;
        for (size_t t = 0; t < triangles; ++t)
            two_sided.indices.insert(two_sided.indices.end(),
                                     {level.indices[3 * t], level.indices[3 * t + 2], level.indices[3 * t + 1]});
        Mesh kept;
        REQUIRE(!meshFromTriangles(two_sided.positions, two_sided.indices, defaultImportOptions(), "pillar", &kept));
        CHECK(kept.triangleCount() == 2 * triangles);
    }

    TEST_CASE("25 copies of one quad in a file import as one quad") {
        const std::string dir = test::makeTempDir("clearway-import-checks");
        std::string obj = "v 0 0 0\nv 4 0 0\nv 4 0 -4\nv 0 0 -4\n";
        for (int copy = 0; copy < 25; ++copy)
            obj += "f 1 2 3\nf 1 3 4\n";
        test::writeFile(dir + "/copies.obj", obj);
        Mesh mesh;
        RecordingLog log;
        REQUIRE(!loadMesh(dir + "/copies.obj", defaultImportOptions(), &mesh, log));
        CHECK(mesh.triangleCount() == 2);
        CHECK(log.info.at(0) == dir + "/copies.obj: dropped 48 duplicate triangles (same corners as an earlier one)");
    }

    TEST_CASE("triangles that only share corners with others are kept") {
        // Two triangles of a quad share two corners; a third with the same corners as neither.
        Triangles t;
        t.quad({0, 0, 0}, {4, 0, 0}, {4, 0, -4}, {0, 0, -4});
        t.indices.insert(t.indices.end(), {1, 3, 0});
        Mesh mesh;
        REQUIRE(!meshFromTriangles(t.positions, t.indices, defaultImportOptions(), "quad", &mesh));
        CHECK(mesh.triangleCount() == 3);
    }

    TEST_CASE("3,000 copies of a quad nudged by 10 um each bake in seconds, as one quad") {
        // Each copy is the 4 x 4 m quad moved 10 um in its own direction (the way a careless
        // export or a merge of near-identical props lays them): no two copies are exact
        // duplicates. Unwelded they took 25.7 s and a 146 MB asset (2 threads, 2026-11-27).
        const std::string dir = test::makeTempDir("clearway-import-checks");
        const int copies = 3000;
        std::string vertices, faces;
        char line[96];
        for (int i = 0; i < copies; ++i) {
            const double angle = 2 * M_PI * i / copies, dx = 1e-5 * std::cos(angle),
                         dz = 1e-5 * std::sin(angle);
            for (const auto& [x, z] : {std::pair{0, 0}, {0, 4}, {4, 4}, {4, 0}}) {
                std::snprintf(line, sizeof line, "v %.9g 0 %.9g\n", x + dx, z + dz);
                vertices += line;
            }
            std::snprintf(line, sizeof line, "f %d %d %d %d\n", 4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4);
            faces += line;
        }
        test::writeFile(dir + "/nudged.obj", vertices + faces);
        test::writeFile(dir + "/one.obj", "v 0 0 0\nv 0 0 4\nv 4 0 4\nv 4 0 0\nf 1 2 3 4\n");

        const auto start = std::chrono::steady_clock::now();
        Mesh mesh;
        RecordingLog log;
        REQUIRE(!loadMesh(dir + "/nudged.obj", defaultImportOptions(), &mesh, log));
        Footprint nudged;
        REQUIRE(!buildFootprint(mesh, defaultImportOptions(), &nudged, silentLog()));
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(seconds < 10); // 0.1 s on 2 shared cores; generous for a loaded machine
        CHECK(mesh.triangleCount() == 2);
        // Floats merge some nudged corners already (Assimp joins identical vertices); the rest weld.
        REQUIRE(!log.info.empty());
        CHECK(log.info[0].rfind(dir + "/nudged.obj: welded ", 0) == 0);
        CHECK(log.info[0].find(" vertices within 1e-05 m of another (0 triangles collapsed), dropped 5998 "
                               "duplicate triangles (same corners as an earlier one)") != std::string::npos);

        Mesh one_mesh;
        REQUIRE(!loadMesh(dir + "/one.obj", defaultImportOptions(), &one_mesh, silentLog()));
        Footprint one;
        REQUIRE(!buildFootprint(one_mesh, defaultImportOptions(), &one, silentLog()));
        CHECK(statsOf(nudged).walkable_area == doctest::Approx(statsOf(one).walkable_area).epsilon(1e-6));
        CHECK(statsOf(nudged).walkable_area == doctest::Approx(16).epsilon(1e-3));
    }

    TEST_CASE("vertices apart by design are kept, only those within epsilon / 1000 weld") {
        // Two floor slabs 1 cm apart, a 1 mm ledge and corners 20 um apart (twice the 10 um
        // tolerance): every vertex and index stays.
        Triangles t;
        t.quad({0, 0, 0}, {0, 0, 4}, {2, 0, 4}, {2, 0, 0});
        t.quad({2.01, 0, 0}, {2.01, 0, 4}, {4, 0, 4}, {4, 0, 0});
        t.quad({0, 0, 4}, {0, 0, 6}, {2.00002, 0, 6}, {2.00002, 0, 4});
        t.quad({0, 0.001, 6}, {0, 0.001, 8}, {2, 0.001, 8}, {2, 0.001, 6});
        Mesh mesh;
        RecordingLog log;
        REQUIRE(!meshFromTriangles(t.positions, t.indices, defaultImportOptions(), "slabs", &mesh, log));
        CHECK(mesh.indices == t.indices);
        CHECK(log.info.empty());
        Footprint fp;
        REQUIRE(!buildFootprint(mesh, defaultImportOptions(), &fp, silentLog()));
        CHECK(statsOf(fp).walkable_area > 0);

        // A corner 5 um from an earlier vertex becomes that vertex (the lowest index of its
        // cluster); a sliver whose two corners were 5 um apart collapses and is dropped.
        Triangles close = t;
        close.positions.push_back({2.000005, 0, 0});           // 5 um from vertex 3
        close.indices.insert(close.indices.end(), {0, 16, 2}); // one corner moved: kept
        close.indices.insert(close.indices.end(), {3, 16, 2}); // corners 3 and 16 weld: dropped
        Mesh welded;
        RecordingLog weld_log;
        REQUIRE(!meshFromTriangles(close.positions, close.indices, defaultImportOptions(), "slabs", &welded,
                                   weld_log));
        std::vector<uint32_t> expected = t.indices;
        expected.insert(expected.end(), {0, 3, 2});
        CHECK(welded.indices == expected);
        REQUIRE(weld_log.info.size() == 1);
        CHECK(weld_log.info[0] ==
              "slabs: welded 1 vertices within 1e-05 m of another (1 triangles collapsed)");
        // --epsilon scales the tolerance: at 1 mm the weld reaches 1 um only.
        ImportOptions fine = defaultImportOptions();
        fine.epsilon = 0.001;
        REQUIRE(!meshFromTriangles(close.positions, close.indices, fine, "slabs", &welded));
        CHECK(welded.indices == close.indices);
    }

    TEST_CASE("a mesh whose every triangle collapses in the weld is refused as empty, naming the file") {
        // The import fuzzer's finding: a GLB that loaded with triangles whose corners lay within
        // the weld tolerance of each other, and none left to bake.
        Triangles t;
        t.positions = {{0, 0, 0}, {0.000004, 0, 0}, {0, 0, 0.000004}, {1, 0, 0}, {1.000003, 0, 0}, {1, 0, 1}};
        t.indices = {0, 1, 2, 3, 4, 5};
        Mesh mesh;
        const Error e = meshFromTriangles(t.positions, t.indices, defaultImportOptions(), "slivers.glb", &mesh,
                                          silentLog());
        CHECK(e.code == ErrorCode::EmptyMesh);
        CHECK(exitCodeFor(e) == 2);
        CHECK_MESSAGE(e.message.rfind("slivers.glb: mesh has no triangles left after welding", 0) == 0, e.message);
    }
}
