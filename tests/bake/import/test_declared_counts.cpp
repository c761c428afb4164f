// Import memory is bounded by the input's size: OFF, PLY and binary STL headers declaring more
// elements than the bytes after them can hold, and glTF strips too short for one element, are
// refused before Assimp allocates for them.
#include <clearway/bake.h>

#include <doctest/doctest.h>

#include "test_files.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace clearway;
using namespace clearway::bake;

namespace {

const std::string kSamples = CLEARWAY_SAMPLES;

template <typename T> void append(std::string* bytes, T value) {
    bytes->append(reinterpret_cast<const char*>(&value), sizeof value);
}

// One upward-facing triangle (Y up) in each format; `vertices` / `facets` is what the header declares.
std::string offTriangle(const std::string& vertices = "3") {
    return "OFF\n" + vertices + " 1 0\n0 0 0\n1 0 0\n0 0 -1\n3 0 1 2\n";
}

std::string plyHeader(const char* format, const std::string& vertices) {
    return std::string("ply\nformat ") + format + " 1.0\ncomment made by hand\nelement vertex " + vertices +
           "\nproperty float x\nproperty float y\nproperty float z\nelement face 1\n"
           "property list uchar int vertex_indices\nend_header\n";
}

std::string plyAsciiTriangle(const std::string& vertices = "3") {
    return plyHeader("ascii", vertices) + "0 0 0\n1 0 0\n0 0 -1\n3 0 1 2\n";
}

std::string plyBinaryTriangle(const std::string& vertices = "3") {
    std::string bytes = plyHeader("binary_little_endian", vertices);
    for (float coordinate : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 0.f, -1.f})
        append(&bytes, coordinate);
    append(&bytes, uint8_t(3));
    for (int32_t index : {0, 1, 2})
        append(&bytes, index);
    return bytes;
}

// An 80-byte header (not starting with "solid"), the facet count, then `stored` facets of 50 bytes.
std::string stlBinaryTriangles(uint32_t facets, uint32_t stored = 1) {
    std::string bytes(80, ' ');
    bytes.replace(0, 12, "binary facet");
    append(&bytes, facets);
    for (uint32_t f = 0; f < stored; ++f) {
        for (float value : {0.f, 1.f, 0.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 0.f, -1.f})
            append(&bytes, value);
        append(&bytes, uint16_t(0));
    }
    return bytes;
}

struct Sample {
    const char* file_name;
    std::string bytes;
};

// Each format claiming two billion vertices (facets for STL) in a few hundred bytes.
std::vector<Sample> hugeDeclarations() {
    return {{"huge.off", offTriangle("2000000000")},
            {"huge-ascii.ply", plyAsciiTriangle("2000000000")},
            {"huge-binary.ply", plyBinaryTriangle("2000000000")},
            {"huge-binary.stl", stlBinaryTriangles(2000000000u)}};
}

std::vector<Sample> correctTriangles() {
    return {{"triangle.off", offTriangle()},
            {"triangle-ascii.ply", plyAsciiTriangle()},
            {"triangle-binary.ply", plyBinaryTriangle()},
            {"triangle-binary.stl", stlBinaryTriangles(1)}};
}

Error fromMemory(const Sample& sample, Mesh* mesh) {
    const std::string name = sample.file_name;
    return loadMeshFromMemory(sample.bytes.data(), sample.bytes.size(), name.substr(name.rfind('.') + 1),
                              defaultImportOptions(), name, mesh, silentLog());
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void checkRefused(const Error& e, const std::string& name, const std::string& declared) {
    CHECK(e.code == ErrorCode::ReadFailed);
    CHECK(exitCodeFor(e) == 2);
    CHECK_MESSAGE(e.message.rfind(name + ": cannot import mesh: the header declares " + declared, 0) == 0,
                  e.message);
    CHECK_MESSAGE(e.message.find("bytes follow it") != std::string::npos, e.message);
}

void checkTooFewVertices(const Error& e, const std::string& name, const std::string& what) {
    CHECK(e.code == ErrorCode::ReadFailed);
    CHECK(exitCodeFor(e) == 2);
    CHECK_MESSAGE(e.message.rfind(name + ": cannot import mesh: mesh 0, primitive 0 is a " + what, 0) == 0, e.message);
}

} // namespace

TEST_SUITE("bake/import declared counts") {

    TEST_CASE("a file declaring two billion vertices in a few hundred bytes is refused at once") {
        const std::string dir = test::makeTempDir();
        for (const Sample& sample : hugeDeclarations()) {
            CAPTURE(sample.file_name);
            REQUIRE(sample.bytes.size() < 400);
            const std::string path = dir + "/" + sample.file_name;
            test::writeFile(path, sample.bytes);
            const auto start = std::chrono::steady_clock::now();
            Mesh mesh;
            const Error e = loadMesh(path, defaultImportOptions(), &mesh, silentLog());
            CHECK(secondsSince(start) < 1.0);
            checkRefused(e, path, "2000000000 ");
            std::remove(path.c_str());
        }
        rmdir(dir.c_str());
    }

    TEST_CASE("the same bytes in memory are refused the same way") {
        for (const Sample& sample : hugeDeclarations()) {
            CAPTURE(sample.file_name);
            const auto start = std::chrono::steady_clock::now();
            Mesh mesh;
            const Error e = fromMemory(sample, &mesh);
            CHECK(secondsSince(start) < 1.0);
            checkRefused(e, sample.file_name, "2000000000 ");
        }
    }

    TEST_CASE("the message names the declared counts and the bytes available") {
        Mesh mesh;
        const Error off = fromMemory({"huge.off", offTriangle("2000000000")}, &mesh);
        CHECK_MESSAGE(
            off.message.find("2000000000 vertices, 1 faces, at least 12000000003 bytes, but only 30 "
                             "bytes follow it") != std::string::npos,
            off.message);
        const Error stl = fromMemory({"huge.stl", stlBinaryTriangles(2000000000u)}, &mesh);
        CHECK_MESSAGE(stl.message.find("2000000000 facets, at least 100000000000 bytes, but only 50 bytes") !=
                          std::string::npos,
                      stl.message);
    }

    TEST_CASE("Debian's OutOfMemory.off (353,535,235,358 vertices in 309 bytes) is refused") {
        // The shape of Assimp's test model invalid/OutOfMemory.off: a cube whose vertex count has
        // gained digits. Assimp wraps the count to 1,347,917,086 vertices: 16 GB before this check.
        std::string off = "OFF\n353535235358 6 0\n";
        for (int v = 0; v < 8; ++v)
            off += std::string(v & 1 ? "0.5" : "-0.5") + (v & 2 ? " 0.5" : " -0.5") +
                   (v & 4 ? " 0.5\n" : " -0.5\n");
        off += "4 0 1 3 2\n4 2 3 7 6\n4 6 7 5 4\n4 4 5 1 0\n4 1 5 7 3\n4 4 0 2 6\n";
        Mesh mesh;
        const Error e = fromMemory({"OutOfMemory.off", off}, &mesh);
        checkRefused(e, "OutOfMemory.off", "353535235358 vertices, 6 faces");
    }

    TEST_CASE("a binary STL whose facet count wraps around Assimp's 32-bit size check is refused") {
        // 84 + 50 * 2,147,483,650 is 184 modulo 2^32: Assimp takes these two facets' 184 bytes for
        // a binary file of 2,147,483,650 facets.
        Mesh mesh;
        const Error e = fromMemory({"wrapped.stl", stlBinaryTriangles(2147483650u, 2)}, &mesh);
        checkRefused(e, "wrapped.stl", "2147483650 facets");
    }

    TEST_CASE("a GLB whose header or first chunk declares more bytes than the file holds is refused, "
              "and a real GLB still imports") {
        // The import fuzzer's finding: a 2 KB GLB whose chunk length had become 2,533,360,524;
        // Assimp allocated it before reading.
        // The importer fuzzer's seeds start with one byte it consumes before the file.
        const std::vector<uint8_t> bytes = test::readFile(kSamples + "/../tests/fuzz/seeds/import/step_box.glb");
        REQUIRE(bytes.size() > 21);
        const std::string seed(bytes.begin() + 1, bytes.end());
        Mesh mesh;
        REQUIRE_FALSE(fromMemory({"step_box.glb", seed}, &mesh));
        CHECK(mesh.triangleCount() > 0);
        for (const size_t field : {size_t(8), size_t(12)}) { // the total length, the JSON chunk's
            CAPTURE(field);
            std::string mutated = seed;
            const uint32_t huge = 2533360524u;
            std::memcpy(&mutated[field], &huge, sizeof huge);
            Mesh refused;
            checkRefused(fromMemory({"mutated.glb", mutated}, &refused), "mutated.glb",
                         std::to_string(huge - (field == 8 ? 20 : 0)) + " bytes after its headers");
        }
    }

    TEST_CASE("a glTF strip or fan of too few vertices is refused before Assimp allocates for 2^32 faces, "
              "and a strip with enough vertices still imports") {
        // The import fuzzer's finding: the step box GLB with its primitive turned into a triangle
        // strip whose indices and positions had lost their keys. Assimp 5.2 counted 0 - 2 faces
        // and asked for 64 GB. The edits below keep the JSON's length, so the GLB stays valid.
        const std::vector<uint8_t> bytes = test::readFile(kSamples + "/../tests/fuzz/seeds/import/step_box.glb");
        REQUIRE(bytes.size() > 21);
        const std::string seed(bytes.begin() + 1, bytes.end());
        auto edited = [&](const std::string& from, const std::string& to) {
            REQUIRE(from.size() == to.size());
            std::string glb = seed;
            const size_t at = glb.find(from);
            REQUIRE(at != std::string::npos);
            glb.replace(at, from.size(), to);
            return glb;
        };
        const std::string strip = edited("\"mode\":4", "\"mode\":5");
        Mesh mesh;
        CHECK_FALSE(fromMemory({"strip.glb", strip}, &mesh)); // 72 indices: a strip of 70 triangles
        Mesh refused;
        const std::string keyless = edited("\"mode\":4,\"material\":0,\"indices\":1,\"attributes\":{\"POSITION\":0}",
                                           "\"mode\":5,\"material\":0,\"indi_es\":1,\"attributes\":{\"POSIT_ON\":0}");
        checkTooFewVertices(fromMemory({"keyless.glb", keyless}, &refused), "keyless.glb", "triangle strip of 0 vertices");
        // A fan and a line strip over an index accessor of one index.
        std::string one = edited("\"count\":72", "\"count\": 1");
        for (const auto& [mode, what] : {std::pair<const char*, const char*>{"6", "triangle fan of 1 vertices"},
                                         {"3", "line strip of 1 vertices"}}) {
            CAPTURE(what);
            std::string glb = one;
            glb.replace(glb.find("\"mode\":4") + 7, 1, mode);
            checkTooFewVertices(fromMemory({"short.glb", glb}, &refused), "short.glb", what);
        }
        // The file path reads the whole file first and refuses the same way.
        const std::string dir = test::makeTempDir();
        test::writeFile(dir + "/keyless.glb", keyless);
        checkTooFewVertices(loadMesh(dir + "/keyless.glb", defaultImportOptions(), &refused, silentLog()), dir + "/keyless.glb",
                     "triangle strip of 0 vertices");
    }

    TEST_CASE("correct small OFF, PLY (ascii and binary) and binary STL files still import") {
        const std::string dir = test::makeTempDir();
        for (const Sample& sample : correctTriangles()) {
            CAPTURE(sample.file_name);
            const std::string path = dir + "/" + sample.file_name;
            test::writeFile(path, sample.bytes);
            Mesh from_file, from_memory;
            const Error file_error = loadMesh(path, defaultImportOptions(), &from_file, silentLog());
            REQUIRE_MESSAGE(!file_error, file_error.message);
            CHECK(from_file.triangleCount() == 1);
            const Error memory_error = fromMemory(sample, &from_memory);
            REQUIRE_MESSAGE(!memory_error, memory_error.message);
            CHECK(from_memory.triangleCount() == 1);
            std::remove(path.c_str());
        }
        rmdir(dir.c_str());
    }

    TEST_CASE("the step box in OFF, PLY, binary and ASCII STL gives the OBJ's triangles") {
        // The importer fuzzer's seeds start with one byte it consumes before the file.
        const std::string seeds = kSamples + "/../tests/fuzz/seeds/import/";
        const std::vector<uint8_t> obj = test::readFile(seeds + "step_box.obj");
        REQUIRE(obj.size() > 1);
        Mesh reference;
        REQUIRE_FALSE(loadMeshFromMemory(obj.data() + 1, obj.size() - 1, "obj", defaultImportOptions(),
                                         "step_box.obj", &reference, silentLog()));
        for (const char* name :
             {"step_box.off", "step_box.ply", "step_box-binary.ply", "step_box.stl", "step_box-binary.stl"}) {
            CAPTURE(name);
            const std::vector<uint8_t> bytes = test::readFile(seeds + name);
            REQUIRE(bytes.size() > 1);
            const std::string file_name = name;
            Mesh mesh;
            const Error e = loadMeshFromMemory(bytes.data() + 1, bytes.size() - 1,
                                               file_name.substr(file_name.rfind('.') + 1),
                                               defaultImportOptions(), name, &mesh, silentLog());
            REQUIRE_MESSAGE(!e, e.message);
            CHECK(mesh.triangleCount() == reference.triangleCount());
        }
    }

    TEST_CASE("a binary PLY cut right after its vertices is refused: each face needs its count byte") {
        const std::string whole = plyBinaryTriangle();
        const std::string vertices_only = whole.substr(0, whole.size() - 13); // the face: 1 + 3 * 4 bytes
        Mesh mesh;
        const Error e = fromMemory({"cut.ply", vertices_only}, &mesh);
        checkRefused(e, "cut.ply",
                     "3 vertex elements, 1 face elements, at least 37 bytes, but only 36 bytes");
    }

    TEST_CASE("a PLY header that never reaches end_header is refused (Assimp 5.2 never returns from it)") {
        // The import fuzzer's 185-byte finding: a binary header cut inside a property line. Every
        // PLY without end_header hung cw-import (ascii or binary, cut anywhere).
        const std::string ascii = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n";
        const std::string binary =
            "ply\nformat binary_little_endian 1.0\nelement vertex 16\nproperty float x\n"
            "property float";
        const std::string whole = plyAsciiTriangle();
        for (const std::string& bytes : {ascii, binary, whole.substr(0, whole.find("end_header"))}) {
            CAPTURE(bytes);
            const auto start = std::chrono::steady_clock::now();
            Mesh mesh;
            const Error e = fromMemory({"cut.ply", bytes}, &mesh);
            CHECK(secondsSince(start) < 1.0);
            CHECK(e.code == ErrorCode::ReadFailed);
            CHECK_MESSAGE(
                e.message.find("cut.ply: cannot import mesh: the PLY header has no end_header line") !=
                    std::string::npos,
                e.message);
        }
        Mesh mesh;
        CHECK_FALSE(fromMemory({"whole.ply", whole}, &mesh));
    }

    TEST_CASE("cw-import exits 2 and names the declared count") {
        const std::string dir = test::makeTempDir();
        test::writeFile(dir + "/huge.off", offTriangle("2000000000"));
        std::string output;
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-import";
        CHECK(test::runTool(tool + " " + dir + "/huge.off -o " + dir + "/out.cwfp", &output) == 2);
        CHECK_MESSAGE(output.find("huge.off: cannot import mesh: the header declares 2000000000 vertices") !=
                          std::string::npos,
                      output);
        CHECK(test::filesIn(dir) == 1);
        std::remove((dir + "/huge.off").c_str());
        rmdir(dir.c_str());
    }

} // TEST_SUITE
