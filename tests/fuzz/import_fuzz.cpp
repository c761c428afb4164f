// libFuzzer target: the importer. Mesh bytes go through Assimp's memory reader
// (bake::loadMeshFromMemory) into the footprint stage; every input must end in a footprint whose
// asset the runtime accepts, or in an Error with a code and a message naming the input.
//
// Input layout: byte 0 picks the format hint (low 3 bits) and the up axis (bit 3); the rest is the
// file. Caps keep one input from running for minutes: at most kMaxBytes of file and kMaxTriangles
// triangles reach the footprint stage (libFuzzer's -timeout and -rss_limit_mb bound the rest). They
// are high enough for the quadratic inputs a level can be (thousands of overlapping copies of one
// quad), so a bake that slows down quadratically on them shows up as a timeout.
#include <clearway/bake.h>
#include <clearway/runtime.h>

#include "fuzz_support.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace clearway;

namespace {

constexpr size_t kMaxBytes = 1024 * 1024;
constexpr size_t kMaxTriangles = 30000;
const char* const kFormats[8] = {"obj", "ply", "stl", "gltf", "glb", "off", "fbx", "dae"};
const std::string kName = "fuzz-input";

void requireClearError(const bake::Error& e) {
    CLEARWAY_FUZZ_REQUIRE(e.code != bake::ErrorCode::None && e.code != bake::ErrorCode::WriteFailed);
    CLEARWAY_FUZZ_REQUIRE(e.message.compare(0, kName.size(), kName) == 0);
    const int exit_code = bake::exitCodeFor(e);
    CLEARWAY_FUZZ_REQUIRE(exit_code == 2 || exit_code == 3);
}

// CLEARWAY_FUZZ_VERBOSE=1: one line per input (replaying a corpus: what each input ended in).
void report(const std::string& line) {
    static const bool verbose = std::getenv("CLEARWAY_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "%s\n", line.c_str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2 || size - 1 > kMaxBytes) return 0;
    bake::ImportOptions options = bake::defaultImportOptions();
    options.up = (data[0] & 8) ? bake::UpAxis::Z : bake::UpAxis::Y;
    options.up_given = true; // the input's bit, not the file's declaration
    const std::string hint = kFormats[data[0] & 7];
    const fuzz::AlignedCopy file(data + 1, size - 1);

    bake::Mesh mesh;
    const bake::Error load =
        bake::loadMeshFromMemory(file.bytes.get(), file.size, hint, options, kName, &mesh, bake::silentLog());
    if (load) {
        requireClearError(load);
        report(load.message);
        return 0;
    }
    CLEARWAY_FUZZ_REQUIRE(mesh.triangleCount() > 0);
    if (mesh.triangleCount() > kMaxTriangles) {
        report(hint + ": " + std::to_string(mesh.triangleCount()) + " triangles, over the cap");
        return 0;
    }

    bake::Footprint footprint;
    const bake::Error built =
        bake::buildFootprint(mesh, bake::optionsUsed(mesh, options), &footprint, bake::silentLog());
    if (built) {
        requireClearError(built);
        // A failed geometric invariant (ErrorCode::Internal) is a clear error, not a crash, but
        // still a bake bug to look at: replay the corpus with CLEARWAY_FUZZ_VERBOSE=1 to list them.
        report(built.message);
        return 0;
    }
    // What the bake writes, the runtime must accept.
    const std::vector<uint8_t> bytes = bake::serializeFootprint(footprint);
    const fuzz::AlignedCopy asset(bytes.data(), bytes.size());
    FootprintView view;
    CLEARWAY_FUZZ_REQUIRE(loadFootprint(asset.bytes.get(), asset.size, &view) == Status::Ok);
    FootprintInfo info;
    CLEARWAY_FUZZ_REQUIRE(footprintInfo(view, &info) == Status::Ok);
    CLEARWAY_FUZZ_REQUIRE(info.layer_count == footprint.layers.size());
    report(hint + ": " + std::to_string(mesh.triangleCount()) + " triangles, " +
           std::to_string(info.layer_count) + " layers");
    return 0;
}
