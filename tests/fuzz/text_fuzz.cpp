// libFuzzer target: the text users hand the tools. Byte 0 picks the parser (value % 3): the
// designer-edits sidecar (bake::parseEdits), a vehicle model (bake::parseVehicleModel) or a cw-query
// request (bake::parseQueryPoint, then bake::queryRoadmapBytes on a fixed baked roadmap). Every
// input must end in a result that keeps the parser's promises or in an Error whose message names
// the input (the source, or for a request value the option), never a crash, hang or huge allocation.
//
// Query layout after byte 0: ten raw doubles (radius, preferred clearance, step, step_up, from x,y,z,
// to x,y,z; NaN, inf, subnormals all reachable; missing bytes read as 0), then optional text
// "FROM\nTO" whose lines replace the raw points through parseQueryPoint as cw-query's --from / --to.
// Byte 0 bit 7 also asks for the SVG preview.
#include <clearway/bake.h>
#include <clearway/preview.h>
#include <clearway/runtime.h>

#include "fuzz_support.h"

#include <sanitizer/allocator_interface.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace clearway;
using bake::Vec2;
using bake::Vec3;

namespace {

const std::string kSource = "fuzz-input";

bool startsWith(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

bool finite(const Vec3& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

// ---------------------------------------------------------------------------------------------
// Designer edits: "fuzz-input:LINE: what", or polygons, nodes and edges the later stages can trust.

void checkPolygon(const bake::EditPolygon& polygon, uint32_t lines) {
    CLEARWAY_FUZZ_REQUIRE(polygon.points.size() >= 3 && polygon.line >= 1 && polygon.line <= lines);
    CLEARWAY_FUZZ_REQUIRE(std::isfinite(polygon.floor));
    for (const Vec2& p : polygon.points)
        CLEARWAY_FUZZ_REQUIRE(std::isfinite(p.x) && std::isfinite(p.y));
}

void fuzzEdits(const std::string& text) {
    bake::LevelEdits edits;
    const bake::Error e = bake::parseEdits(text, kSource, &edits);
    uint32_t lines = 1;
    for (char c : text)
        lines += c == '\n';
    if (e) {
        CLEARWAY_FUZZ_REQUIRE(e.code == bake::ErrorCode::ReadFailed && startsWith(e.message, kSource + ":"));
        const uint32_t line = uint32_t(std::strtoul(e.message.c_str() + kSource.size() + 1, nullptr, 10));
        CLEARWAY_FUZZ_REQUIRE(line >= 1 && line <= lines && e.message.size() > kSource.size() + 4);
        return;
    }
    CLEARWAY_FUZZ_REQUIRE(edits.source == kSource && edits.text == text);
    for (const bake::EditPolygon& p : edits.obstacles)
        checkPolygon(p, lines);
    for (const bake::EditArea& a : edits.areas) {
        checkPolygon(a.polygon, lines);
        CLEARWAY_FUZZ_REQUIRE(std::isfinite(a.weight) && a.weight > 0);
    }
    for (const bake::EditNode& n : edits.nodes)
        CLEARWAY_FUZZ_REQUIRE(finite(n.world) && n.line >= 1 && n.line <= lines);
    for (const bake::EditEdge& edge : edits.edges)
        CLEARWAY_FUZZ_REQUIRE(edge.a < edits.nodes.size() && edge.b < edits.nodes.size() && edge.a != edge.b);
}

// ---------------------------------------------------------------------------------------------
// Vehicle models: "fuzz-input: what", or a model that validate() accepts as it is.

void fuzzVehicle(const std::string& text) {
    bake::VehicleModel model;
    const bake::Error e = bake::parseVehicleModel(text, kSource, &model);
    if (e) {
        CLEARWAY_FUZZ_REQUIRE(e.code == bake::ErrorCode::ReadFailed || e.code == bake::ErrorCode::InvalidOption);
        CLEARWAY_FUZZ_REQUIRE(startsWith(e.message, kSource + ": ") && e.message.size() > kSource.size() + 2);
        return;
    }
    CLEARWAY_FUZZ_REQUIRE(!bake::validate(model, kSource));
    CLEARWAY_FUZZ_REQUIRE(!bake::canonicalString(model).empty());
}

// ---------------------------------------------------------------------------------------------
// cw-query requests on one small baked roadmap (CLEARWAY_FUZZ_ROADMAP, read once).

// The largest block the query may allocate: its sample buffer at query.cpp's cap of 1,000,000
// samples (plus the start and the exact end). Anything bigger means the cap was bypassed.
constexpr size_t kMaxQuerySamples = 1000000;
constexpr size_t kMaxQueryBlock = (kMaxQuerySamples + 2) * sizeof(PathPose);
constexpr const char* kQueryOptions[] = {"--radius", "--clearance", "--step", "--step-up", "--from", "--to"};

size_t largest_block = 0; // libFuzzer runs inputs on one thread
void trackAllocation(const volatile void*, size_t size) {
    if (size > largest_block) largest_block = size;
}
void ignoreFree(const volatile void*) {}

struct Roadmap {
    std::vector<uint64_t> words; // 8-byte aligned, as the loader needs
    size_t size = 0;
};

const Roadmap& fixedRoadmap() {
    static const Roadmap roadmap = [] {
        std::ifstream stream(CLEARWAY_FUZZ_ROADMAP, std::ios::binary);
        const std::vector<char> raw((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
        if (raw.empty()) {
            std::fprintf(stderr, "text_fuzz: cannot read %s\n", CLEARWAY_FUZZ_ROADMAP);
            std::abort();
        }
        Roadmap r;
        r.words.resize(raw.size() / 8 + 1);
        std::memcpy(r.words.data(), raw.data(), raw.size());
        r.size = raw.size();
        return r;
    }();
    return roadmap;
}

void checkQueryError(const bake::Error& e) {
    CLEARWAY_FUZZ_REQUIRE(e.code == bake::ErrorCode::InvalidOption);
    bool named = startsWith(e.message, kSource + ": ");
    for (const char* option : kQueryOptions)
        named = named || startsWith(e.message, option);
    CLEARWAY_FUZZ_REQUIRE(named && e.message.size() > 12);
}

void checkQueryResult(const bake::QueryResult& r) {
    if (!r.found) {
        CLEARWAY_FUZZ_REQUIRE(!r.reason.empty() && r.points.empty() && r.segments.empty());
        return;
    }
    CLEARWAY_FUZZ_REQUIRE(std::isfinite(r.length) && r.length >= 0 && !std::isnan(r.min_clearance));
    CLEARWAY_FUZZ_REQUIRE(!r.points.empty() && r.points.size() <= kMaxQuerySamples + 2);
    for (const Vec3& p : r.points)
        CLEARWAY_FUZZ_REQUIRE(finite(p));
    for (const bake::QuerySegment& s : r.segments)
        CLEARWAY_FUZZ_REQUIRE(finite(s.start) && finite(s.end) && std::isfinite(s.length) && s.length >= 0);
    CLEARWAY_FUZZ_REQUIRE(!bake::queryJson(r).empty() && !bake::queryText(r, kSource).empty());
}

// "FROM\nTO" -> the points, through cw-query's option parser; false: refused (checked here).
bool parsePoints(const std::string& text, bake::QueryRequest* request) {
    const size_t newline = text.find('\n');
    const std::string lines[2] = {text.substr(0, newline),
                                  newline == std::string::npos ? std::string() : text.substr(newline + 1)};
    Vec3* points[2] = {&request->from, &request->to};
    const char* options[2] = {"--from", "--to"};
    for (int i = 0; i < 2; ++i) {
        if (i == 1 && newline == std::string::npos) break; // only --from given: the raw --to stays
        const bake::Error e = bake::parseQueryPoint(lines[i], options[i], points[i]);
        if (e) {
            CLEARWAY_FUZZ_REQUIRE(e.code == bake::ErrorCode::InvalidOption && startsWith(e.message, options[i]));
            return false;
        }
        CLEARWAY_FUZZ_REQUIRE(finite(*points[i]));
    }
    return true;
}

void fuzzQuery(const uint8_t* data, size_t size, bool svg) {
    double v[10] = {};
    const size_t raw = size < sizeof v ? size : sizeof v;
    std::memcpy(v, data, raw);
    bake::QueryRequest request;
    request.radius = v[0], request.preferred_clearance = v[1], request.step = v[2], request.step_up = v[3];
    request.from = {v[4], v[5], v[6]};
    request.to = {v[7], v[8], v[9]};
    if (size > raw && !parsePoints(std::string(reinterpret_cast<const char*>(data + raw), size - raw), &request))
        return;

    const Roadmap& roadmap = fixedRoadmap();
    bake::QueryResult result;
    std::string picture;
    largest_block = 0;
    const bake::Error e =
        bake::queryRoadmapBytes(roadmap.words.data(), roadmap.size, kSource, request, &result, svg ? &picture : nullptr);
    CLEARWAY_FUZZ_REQUIRE(largest_block <= kMaxQueryBlock);
    if (e) return checkQueryError(e);
    checkQueryResult(result);
    if (svg) CLEARWAY_FUZZ_REQUIRE(picture.find("<svg") != std::string::npos);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fixedRoadmap();
    __sanitizer_install_malloc_and_free_hooks(trackAllocation, ignoreFree);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 3) {
    case 0: fuzzEdits(text); break;
    case 1: fuzzVehicle(text); break;
    default: fuzzQuery(data + 1, size - 1, (data[0] & 0x80) != 0); break;
    }
    return 0;
}
