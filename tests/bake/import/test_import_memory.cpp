// bake::loadMeshFromMemory (the importer fuzzer's entry point): the same mesh as loadMesh from the
// file, no file system access, and malformed files the fuzzer found end in a clear error.
#include <clearway/bake.h>

#include <doctest/doctest.h>

#include "test_files.h"

#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::bake;

namespace {

const std::string kSamples = CLEARWAY_SAMPLES;

Error fromMemory(const std::string& text, const std::string& hint, Mesh* mesh) {
    return loadMeshFromMemory(text.data(), text.size(), hint, defaultImportOptions(), "level." + hint, mesh,
                              silentLog());
}

} // namespace

TEST_SUITE("bake/import from memory") {

    TEST_CASE("bytes in memory give the same mesh as the file, for OBJ and GLB") {
        for (const char* name : {"box_room.obj", "two_storey.obj", "bridge-gltf.glb"}) {
            const std::string path = kSamples + "/levels/" + name;
            CAPTURE(path);
            const std::vector<uint8_t> bytes = test::readFile(path);
            REQUIRE(!bytes.empty());
            Mesh from_file, from_memory;
            REQUIRE_FALSE(loadMesh(path, defaultImportOptions(), &from_file, silentLog()));
            const std::string hint = path.substr(path.rfind('.') + 1);
            const Error e = loadMeshFromMemory(bytes.data(), bytes.size(), hint, defaultImportOptions(), name,
                                               &from_memory, silentLog());
            REQUIRE_MESSAGE(!e, e.message);
            CHECK(from_memory.indices == from_file.indices);
            REQUIRE(from_memory.positions.size() == from_file.positions.size());
            for (size_t i = 0; i < from_file.positions.size(); ++i) {
                CHECK(from_memory.positions[i].x == from_file.positions[i].x);
                CHECK(from_memory.positions[i].z == from_file.positions[i].z);
            }
            CHECK(from_memory.source_hash == from_file.source_hash);
            CHECK(from_memory.source_name == name);
        }
    }

    TEST_CASE("references to other files are not followed") {
        // An OBJ's material library and a glTF's external buffer: the bytes alone decide.
        const std::string obj = "mtllib /etc/passwd\nusemtl x\nv 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 3\n";
        Mesh mesh;
        const Error e = fromMemory(obj, "obj", &mesh);
        REQUIRE_MESSAGE(!e, e.message); // the material is missing, the triangle is still there
        CHECK(mesh.triangleCount() == 1);
        const std::string gltf =
            R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":36,"uri":"/dev/zero"}],)"
            R"("bufferViews":[{"buffer":0,"byteLength":36}],)"
            R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,1]}],)"
            R"("meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
        const Error g = fromMemory(gltf, "gltf", &mesh);
        CHECK(g.code == ErrorCode::ReadFailed);
        CHECK(g.message.rfind("level.gltf: ", 0) == 0);
    }

    TEST_CASE("malformed files found by the fuzzer are import errors, not aborts") {
        // An OFF whose header promises 115 vertices and 12 faces, then stops short: Assimp built a
        // face without indices and its Triangulate step asserted (abort) before validation was on.
        const std::vector<uint8_t> input =
            test::readFile(kSamples + "/../tests/fuzz/seeds/import/regression-off-faces-cut-short.off");
        REQUIRE(input.size() > 1);
        Mesh mesh;
        const Error e = loadMeshFromMemory(input.data() + 1, input.size() - 1, "off", defaultImportOptions(),
                                           "cut.off", &mesh, silentLog());
        CHECK(e.code == ErrorCode::ReadFailed);
        CHECK(e.message.rfind("cut.off: cannot import mesh: ", 0) == 0);
        CHECK(exitCodeFor(e) == 2);
        // A binary PLY (Z up) whose first face lost its indices: validation let it through, the
        // mesh stayed flagged as having polygons and Triangulate asserted (abort). Now the faces
        // are checked before post-processing.
        const std::vector<uint8_t> ply =
            test::readFile(kSamples + "/../tests/fuzz/seeds/import/regression-ply-face-without-indices.ply");
        REQUIRE(ply.size() > 1);
        const Error p = loadMeshFromMemory(ply.data() + 1, ply.size() - 1, "ply", defaultImportOptions(),
                                           "mangled.ply", &mesh, silentLog());
        CHECK(p.code == ErrorCode::ReadFailed);
        CHECK(p.message == "mangled.ply: cannot import mesh: face 0 of mesh 0 has no vertices");
        CHECK(exitCodeFor(p) == 2);
    }

    TEST_CASE("meshes spanning absurd extents reach the footprint without a giant grid") {
        // Importer-fuzzer findings: vertices kilometres apart made the footprint stage's spatial
        // grid size itself from extent / cell (an int overflow, or a 246 GB allocation); a GLB
        // with one vertex at 1.5e16 m made the wall strips degenerate and CGAL's polygon sweep
        // step an invalid iterator. Every input ends in a footprint or a clear error (these now
        // stop at import: single-precision coordinates that far out are metres apart).
        const char* const kFormats[8] = {"obj", "ply", "stl", "gltf", "glb", "off", "fbx", "dae"};
        for (const char* name :
             {"regression-footprint-grid-huge-extent.bin", "regression-footprint-grid-int-overflow.bin",
              "regression-sweep-multiset-huge-extent.bin"}) {
            CAPTURE(name);
            const std::vector<uint8_t> input =
                test::readFile(kSamples + "/../tests/fuzz/seeds/import/" + name);
            REQUIRE(input.size() > 1);
            ImportOptions options = defaultImportOptions();
            options.up = (input[0] & 8) ? UpAxis::Z : UpAxis::Y;
            options.up_given = true; // the fuzzer's bit, not the file's declaration
            Mesh mesh;
            const Error loaded =
                loadMeshFromMemory(input.data() + 1, input.size() - 1, kFormats[input[0] & 7], options, name,
                                   &mesh, silentLog());
            if (loaded) {
                // The OBJ one (an Assimp-lenient mangled number) now stops at its bad line.
                const bool far = loaded.code == ErrorCode::InvalidOption &&
                                 loaded.message.find("from the origin") != std::string::npos;
                const bool bad_line = loaded.code == ErrorCode::ReadFailed &&
                                      loaded.message.rfind(std::string(name) + ":31: bad number", 0) == 0;
                CHECK_MESSAGE((far || bad_line), loaded.message);
                continue;
            }
            Footprint fp;
            const Error built = buildFootprint(mesh, optionsUsed(mesh, options), &fp, silentLog());
            MESSAGE(std::string(name), ": ",
                    built ? built.message : std::to_string(fp.layers.size()) + " layers");
            CHECK((!built || exitCodeFor(built) == 2));
        }
    }

    TEST_CASE("no bytes, a bad hint and bad options are rejected with the input's name") {
        Mesh mesh;
        CHECK(loadMeshFromMemory(nullptr, 10, "obj", defaultImportOptions(), "x.obj", &mesh, silentLog())
                  .code == ErrorCode::EmptyMesh);
        CHECK(fromMemory("", "obj", &mesh).code == ErrorCode::EmptyMesh);
        CHECK(fromMemory("v 0 0 0\n", "../obj", &mesh).code == ErrorCode::InvalidOption);
        CHECK(fromMemory("v 0 0 0\n", "", &mesh).code == ErrorCode::InvalidOption);
        const Error points = fromMemory("v 0 0 0\nv 1 0 0\n", "obj", &mesh); // no faces
        CHECK(points.code == ErrorCode::EmptyMesh);
        CHECK(points.message == "level.obj: mesh has no triangles");
        const Error no_faces = fromMemory("ply\nformat ascii 1.0\nend_header\n", "ply", &mesh); // Assimp refuses
        CHECK(no_faces.code == ErrorCode::ReadFailed);
        CHECK(no_faces.message.rfind("level.ply: cannot import mesh: ", 0) == 0);
        ImportOptions bad = defaultImportOptions();
        bad.scale = -1;
        const std::string obj = "v 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 3\n";
        CHECK(loadMeshFromMemory(obj.data(), obj.size(), "obj", bad, "x.obj", &mesh, silentLog()).code ==
              ErrorCode::InvalidOption);
    }

} // TEST_SUITE
