// clearway's own OBJ reader: the triangles Assimp made of the same file, coordinates kept in double,
// and every malformed line an error naming FILE:LINE.
#include <clearway/bake.h>

#include <doctest/doctest.h>

#include "test_files.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::bake;

namespace {

const std::string kSamples = CLEARWAY_SAMPLES;

Error fromText(const std::string& text, Mesh* mesh, const std::string& name = "level.obj") {
    return loadMeshFromMemory(text.data(), text.size(), "obj", defaultImportOptions(), name, mesh, silentLog());
}

// Each triangle as "( x,y,z x,y,z x,y,z )" in file coordinates: the form the expectations below
// were printed in by Assimp 5.2.5 (ReadFileFromMemory with clearway's post-processing flags).
std::vector<std::string> worldTriangles(const Mesh& mesh) {
    std::vector<std::string> out;
    for (size_t t = 0; t < mesh.triangleCount(); ++t) {
        std::string text = "(";
        for (int k = 0; k < 3; ++k) {
            const Vec3 p = internalToWorld(mesh.positions[mesh.indices[3 * t + k]], defaultImportOptions());
            char corner[96];
            std::snprintf(corner, sizeof corner, " %g,%g,%g", p.x + 0.0, p.y + 0.0, p.z + 0.0);
            text += corner;
        }
        out.push_back(text + " )");
    }
    return out;
}

std::vector<std::string> trianglesOf(const std::string& text) {
    Mesh mesh;
    const Error e = fromText(text, &mesh);
    REQUIRE_MESSAGE(!e, e.message);
    return worldTriangles(mesh);
}

} // namespace

TEST_SUITE("bake/import obj reader") {

    TEST_CASE("polygons are triangulated as Assimp triangulated them") {
        SUBCASE("a convex quad is fanned from its first corner") {
            CHECK(trianglesOf("v 0 0 0\nv 4 0 0\nv 4 0 -4\nv 0 0 -4\nf 1 2 3 4\n") ==
                  std::vector<std::string>{"( 0,0,0 4,0,0 4,0,-4 )", "( 0,0,0 4,0,-4 0,0,-4 )"});
        }
        SUBCASE("a concave quad is fanned from its concave corner") {
            CHECK(trianglesOf("v 0 0 0\nv 4 0 0\nv 1 0 -1\nv 0 0 -4\nf 1 2 3 4\n") ==
                  std::vector<std::string>{"( 1,0,-1 0,0,-4 0,0,0 )", "( 1,0,-1 0,0,0 4,0,0 )"});
        }
        SUBCASE("a convex pentagon: a fan from the last corner, corners rotated as NGON encoding did") {
            CHECK(trianglesOf("v 0 0 0\nv 4 0 0\nv 5 0 -3\nv 2 0 -5\nv -1 0 -3\nf 1 2 3 4 5\n") ==
                  std::vector<std::string>{"( -1,0,-3 0,0,0 4,0,0 )", "( 5,0,-3 -1,0,-3 4,0,0 )",
                                           "( -1,0,-3 5,0,-3 2,0,-5 )"});
        }
        SUBCASE("a non-convex hexagon: ear cutting") {
            CHECK(trianglesOf("v 0 0 0\nv 6 0 0\nv 6 0 -6\nv 3 0 -2\nv 0 0 -6\nv -1 0 -3\nf 1 2 3 4 5 6\n") ==
                  std::vector<std::string>{"( -1,0,-3 0,0,0 6,0,0 )", "( 6,0,0 6,0,-6 3,0,-2 )",
                                           "( 3,0,-2 0,0,-6 -1,0,-3 )", "( 6,0,0 3,0,-2 -1,0,-3 )"});
        }
        SUBCASE("collinear corners: Assimp's ears, the degenerate one included") {
            CHECK(trianglesOf("v 0 0 -2\nv 0 0 0\nv 4 0 0\nv 4 0 -4\nv 0 0 -4\nf 1 2 3 4 5\n") ==
                  std::vector<std::string>{"( 0,0,-4 0,0,-2 0,0,0 )", "( 4,0,0 0,0,-4 0,0,0 )",
                                           "( 0,0,-4 4,0,0 4,0,-4 )"});
            CHECK(trianglesOf("v 0 0 0\nv 2 0 0\nv 4 0 0\nv 4 0 -4\nv 0 0 -4\nf 1 2 3 4 5\n") ==
                  std::vector<std::string>{"( 0,0,-4 0,0,0 2,0,0 )", "( 4,0,0 0,0,-4 2,0,0 )",
                                           "( 0,0,-4 4,0,0 4,0,-4 )"});
        }
    }

    TEST_CASE("negative indices count back from the last vertex defined so far") {
        const std::string absolute = "v 0 0 0\nv 4 0 0\nv 4 0 -4\nf 1 2 3\nv 0 0 -4\nf 1 3 4\n";
        const std::string relative = "v 0 0 0\nv 4 0 0\nv 4 0 -4\nf -3 -2 -1\nv 0 0 -4\nf -4 -2 -1\n";
        CHECK(trianglesOf(relative) == trianglesOf(absolute));
        // Every corner form: v, v/vt, v//vn, v/vt/vn; vt, vn, groups, objects and materials are ignored.
        const std::string forms = "mtllib level.mtl\no level\ng floor\nusemtl stone\nv 0 0 0\nv 4 0 0\n"
                                  "v 4 0 -4\nvt 0 0\nvn 0 1 0\ns 1\nf 1/1 2//1 3/1/1\nv 0 0 -4 0.5 0.5 0.5\n"
                                  "f -4/1/1 -2 -1\n";
        CHECK(trianglesOf(forms) == trianglesOf(absolute));
        // A face may name a vertex defined further down, as Assimp allowed.
        CHECK(trianglesOf("f 1 2 3\nv 0 0 0\nv 4 0 0\nv 4 0 -4\n") == trianglesOf("v 0 0 0\nv 4 0 0\nv 4 0 -4\nf 1 2 3\n"));
    }

    TEST_CASE("coordinates keep their double value: 1e7 + 0.3 keeps its 0.3") {
        // A float 1e7 m from the origin is 1 m coarse: 10000000.3 would read as 10000000.
        Mesh mesh;
        const Error e = fromText("v 10000000.3 0 0\nv 10000004.3 0 0\nv 10000004.3 0 -4\nf 1 2 3\n", &mesh);
        REQUIRE_MESSAGE(!e, e.message);
        REQUIRE(mesh.positions.size() == 3);
        CHECK(mesh.positions[0].x == 10000000.3);
        CHECK(mesh.positions[1].x - mesh.positions[0].x == 4.0);
        CHECK(float(mesh.positions[0].x) == 10000000.0f); // what the float reader kept
        // Homogeneous w divides, as in Assimp; a colour after x y z is skipped.
        REQUIRE(!fromText("v 2 4 -6 2\nv 1 0 0 1\nv 0 0 -1 0.1 0.2 0.3\nf 1 2 3\n", &mesh));
        CHECK(worldTriangles(mesh) == std::vector<std::string>{"( 1,2,-3 1,0,0 0,0,-1 )"});
    }

    TEST_CASE("malformed lines are errors naming FILE:LINE and the problem") {
        const std::string good = "v 0 0 0\nv 4 0 0\nv 4 0 -4\n";
        const struct {
            std::string text;
            ErrorCode code;
            const char* message;
        } cases[] = {
            {good + "f 1 2 4\n", ErrorCode::ReadFailed, "level.obj:4: vertex index 4 out of range: the file has 3 vertices"},
            {good + "f 1 2 0\n", ErrorCode::ReadFailed, "level.obj:4: vertex index 0 in face (OBJ counts from 1)"},
            {good + "f -1 -2 -4\n", ErrorCode::ReadFailed,
             "level.obj:4: relative vertex index -4 out of range: 3 vertices defined before this line"},
            {good + "f 1 2\n", ErrorCode::ReadFailed, "level.obj:4: face has 2 vertices: at least 3 needed"},
            {good + "f 1 2 x\n", ErrorCode::ReadFailed, "level.obj:4: bad vertex index 'x' in face"},
            {"v 0 0 0\nv 4 0,5 0\n", ErrorCode::ReadFailed, "level.obj:2: bad number '0,5' in vertex"},
            {"v 0 0\n", ErrorCode::ReadFailed,
             "level.obj:1: vertex has 2 numbers: x y z, x y z w or x y z r g b expected"},
            {"# NaN\nv 0 nan 0\n", ErrorCode::NonFiniteVertex,
             "level.obj:2: vertex coordinate 'nan' is not a finite number"},
            {"v 1e999 0 0\n", ErrorCode::NonFiniteVertex, "level.obj:1: vertex coordinate '1e999' is not a finite number"},
            {"v 1 0 0 0\n", ErrorCode::ReadFailed, "level.obj:1: vertex has w = 0 (x / w is undefined)"},
            {"v 0 0 \\\r\n 0\nv 1 \\\n\n", ErrorCode::ReadFailed,
             "level.obj:3: vertex has 1 numbers: x y z, x y z w or x y z r g b expected"},
            {good, ErrorCode::EmptyMesh, "level.obj: mesh has no triangles"},
        };
        for (const auto& c : cases) {
            CAPTURE(c.text);
            Mesh mesh;
            const Error e = fromText(c.text, &mesh);
            CHECK(e.code == c.code);
            CHECK(e.message == c.message);
            CHECK(exitCodeFor(e) == 2);
        }
        // From a file the message names the path; cw-import exits non-zero.
        const std::string dir = test::makeTempDir("clearway-obj-reader");
        const std::string path = dir + "/bad.obj";
        test::writeFile(path, good + "f 1 2 7\n");
        Mesh mesh;
        const Error e = loadMesh(path, defaultImportOptions(), &mesh, silentLog());
        CHECK(e.message == path + ":4: vertex index 7 out of range: the file has 3 vertices");
        CHECK(test::runTool(std::string(CLEARWAY_BIN_DIR) + "/cw-import -q " + path + " -o " + dir + "/x.cwfp") == 2);
    }

    TEST_CASE("CR LF line ends, line continuations and a byte order mark read like plain LF") {
        const std::string lf = "v 0 0 0\nv 4 0 0\nv 4 0 -4\nv 0 0 -4\nf 1 2 3 4\n";
        const std::string crlf = "\xEF\xBB\xBFv 0 0 0\r\nv 4 0 0\r\nv 4 0 -4\r\nv 0 0 -4\r\nf 1 \\\r\n 2 3 4";
        CHECK(trianglesOf(crlf) == trianglesOf(lf));
        // Lines count physical lines: the error after a continuation names the right one.
        Mesh mesh;
        const Error e = fromText("v 0 0 0\r\nf 1 \\\r\n 2 3\r\nf 9 9 9\r\n", &mesh);
        CHECK(e.message == "level.obj:4: vertex index 9 out of range: the file has 1 vertices");
    }

    TEST_CASE("every truncated prefix of a small OBJ ends in a mesh or a clear error") {
        const std::string text = "# level\r\nmtllib a.mtl\no x\nv 0 0 0\nv 4 0 0 1\nv 4 0 -4 0.1 0.2 0.3\n"
                                 "v 0 0 -4\nvt 0 1\nvn 0 1 0\nf 1/1/1 2/1/1 3/1/1 4/1/1\nv 2 0 -2\n"
                                 "f -1 -2 \\\n -3\nv 1e-400 -0 +2.5e0\nf 1 2 3 4 5\n";
        for (size_t n = 0; n <= text.size(); ++n) {
            CAPTURE(n);
            Mesh mesh;
            const Error e = fromText(text.substr(0, n), &mesh);
            if (e) {
                CHECK(e.message.rfind("level.obj", 0) == 0);
                CHECK(exitCodeFor(e) == 2);
            } else {
                CHECK(mesh.triangleCount() > 0);
            }
        }
        CHECK(trianglesOf(text).size() == 6);
    }

    TEST_CASE("sample levels read the same triangles from memory and from the file") {
        for (const char* name : {"bridge.obj", "two_storey.obj"}) {
            const std::string path = kSamples + "/levels/" + name;
            Mesh from_file, from_memory;
            REQUIRE(!loadMesh(path, defaultImportOptions(), &from_file, silentLog()));
            const std::vector<uint8_t> bytes = test::readFile(path);
            REQUIRE(!loadMeshFromMemory(bytes.data(), bytes.size(), "OBJ", defaultImportOptions(), name,
                                        &from_memory, silentLog()));
            CHECK(worldTriangles(from_file) == worldTriangles(from_memory));
        }
    }
}
