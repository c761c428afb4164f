// Loader robustness on real assets: the sample levels baked by cw-import / cw-bake (the fuzzers'
// seeds, tests/fuzz/seeds). Every truncated prefix, random byte flips, another kind's identifier
// and a newer format version each end in the right status; run under ASan + UBSan by scripts/test.
#include <clearway/runtime.h>

#include <clearway/schema/footprint_generated.h>
#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "asset_robustness.h"
#include "test_files.h"

#include <algorithm>
#include <cmath>
#include <dirent.h>
#include <string>
#include <vector>

using namespace clearway;
namespace fb = clearway::schema;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/";

using Asset = test::NamedFile;

// Every file of a seed folder, sorted by name (deterministic order).
std::vector<Asset> assetsIn(const std::string& kind) {
    return test::readFilesIn(kSeeds + kind);
}

Status footprintStatus(const uint8_t* data, size_t size) {
    FootprintView view;
    const Status s = loadFootprint(data, size, &view);
    return s == Status::Ok || view.data == nullptr ? s : Status::InvalidArgument; // failure leaves it empty
}
Status roadmapStatus(const uint8_t* data, size_t size) {
    RoadmapView view;
    const Status s = loadRoadmap(data, size, &view);
    return s == Status::Ok || view.data == nullptr ? s : Status::InvalidArgument;
}
Status footprintStatus(const std::vector<uint8_t>& bytes) {
    return footprintStatus(bytes.data(), bytes.size());
}
Status roadmapStatus(const std::vector<uint8_t>& bytes) {
    return roadmapStatus(bytes.data(), bytes.size());
}

// Every accessor and a few queries on an accepted footprint; false if any misbehaves.
bool walkFootprint(const FootprintView& view) {
    FootprintInfo info;
    if (footprintInfo(view, &info) != Status::Ok || !info.baker_version) return false;
    for (uint32_t l = 0; l < info.layer_count; ++l) {
        FootprintLayerInfo layer;
        if (footprintLayer(view, l, &layer) != Status::Ok) return false;
        for (uint32_t p = 0; p < layer.polygon_count; ++p) {
            uint32_t first = 0, count = 0;
            if (footprintPolygon(view, l, p, &first, &count) != Status::Ok) return false;
        }
        for (uint32_t r = 0; r < layer.ring_count; ++r) {
            const Vec2f* v = nullptr;
            uint32_t count = 0;
            if (footprintRing(view, l, r, &v, &count) != Status::Ok) return false;
            for (uint32_t i = 0; i < count; ++i) {
                float h = 0;
                const Status s = footprintHeightAt(view, l, v[i].x, v[i].y, 0.5f, &h);
                if (s != Status::Ok && s != Status::NotFound) return false;
                if (s == Status::Ok && !std::isfinite(h)) return false;
            }
        }
    }
    for (uint32_t c = 0; c < info.connection_count; ++c) {
        FootprintConnection con;
        if (footprintConnection(view, c, &con) != Status::Ok || con.layer_a >= info.layer_count) return false;
    }
    return true;
}

// The same for a roadmap, plus nearest point and findPath between vertices.
bool walkRoadmap(const RoadmapView& view) {
    RoadmapInfo info;
    FootprintView fp;
    if (roadmapInfo(view, &info) != Status::Ok || roadmapFootprint(view, &fp) != Status::Ok) return false;
    if (!walkFootprint(fp)) return false;
    for (uint32_t e = 0; e < info.edge_count; ++e) {
        RoadmapEdgeInfo edge;
        if (roadmapEdge(view, e, &edge) != Status::Ok || edge.a >= info.vertex_count) return false;
    }
    for (uint32_t b = 0; b < info.blend_count; ++b) {
        RoadmapBlend blend;
        if (roadmapBlend(view, b, &blend) != Status::Ok) return false;
    }
    size_t bytes = 0;
    if (pathScratchSize(view, &bytes) != Status::Ok) return false;
    std::vector<uint8_t> memory(bytes);
    PathScratch* scratch = nullptr;
    if (pathScratchInit(view, memory.data(), bytes, &scratch) != Status::Ok) return false;
    PathSegment segments[64];
    for (uint32_t i = 0; i < 4 && i < info.vertex_count; ++i) {
        RoadmapVertexInfo a, b;
        if (roadmapVertex(view, i, &a) != Status::Ok) return false;
        if (roadmapVertex(view, info.vertex_count - 1 - i, &b) != Status::Ok) return false;
        RoadmapPoint p;
        const Status n = nearestRoadmapPoint(view, a.layer, a.position.x + 0.2, a.position.y, 0.3, &p);
        if (n != Status::Ok && n != Status::NotFound) return false;
        for (double preferred : {0.3, double(INFINITY)}) {
            uint32_t count = 0;
            const Status f =
                findPath(view, scratch, {a.position.x, a.position.y, a.layer},
                         {b.position.x, b.position.y, b.layer}, 0.3, preferred, segments, &count, 64);
            if (f != Status::Ok && f != Status::NotFound && f != Status::BufferTooSmall) return false;
        }
    }
    return true;
}

} // namespace

TEST_SUITE("runtime/baked assets") {

    TEST_CASE("the baked sample levels load") {
        const auto footprints = assetsIn("footprint");
        const auto roadmaps = assetsIn("roadmap");
        REQUIRE(footprints.size() >= 5);
        REQUIRE(roadmaps.size() >= 5);
        for (const Asset& a : footprints) {
            CAPTURE(a.name);
            FootprintView view;
            REQUIRE(loadFootprint(a.bytes.data(), a.bytes.size(), &view) == Status::Ok);
            CHECK(walkFootprint(view));
        }
        for (const Asset& a : roadmaps) {
            CAPTURE(a.name);
            RoadmapView view;
            REQUIRE(loadRoadmap(a.bytes.data(), a.bytes.size(), &view) == Status::Ok);
            CHECK(walkRoadmap(view));
        }
    }

    TEST_CASE("every truncated prefix of every baked footprint and roadmap is rejected") {
        size_t prefixes = 0;
        for (const Asset& a : assetsIn("footprint")) {
            CAPTURE(a.name);
            CHECK(test::acceptedPrefixes(a.bytes, [](const uint8_t* d, size_t n) {
                      const Status s = footprintStatus(d, n);
                      CHECK((s == Status::Ok || s == Status::CorruptAsset));
                      return s == Status::Ok;
                  }) == 0);
            prefixes += a.bytes.size();
        }
        for (const Asset& a : assetsIn("roadmap")) {
            CAPTURE(a.name);
            CHECK(test::acceptedPrefixes(a.bytes, [](const uint8_t* d, size_t n) {
                      const Status s = roadmapStatus(d, n);
                      CHECK((s == Status::Ok || s == Status::CorruptAsset));
                      return s == Status::Ok;
                  }) == 0);
            prefixes += a.bytes.size();
        }
        MESSAGE(prefixes, " prefixes rejected as corrupt");
    }

    TEST_CASE("random byte flips of baked assets: a status, or an asset every accessor and query survives") {
        constexpr int kIterations = 2000;
        int loaded = 0, rejected = 0, failures = 0;
        uint32_t seed = 20261122u;
        for (const Asset& a : assetsIn("footprint")) {
            const test::CorruptionCounts c =
                test::corruptRandomly(a.bytes, seed++, kIterations, [](const uint8_t* d, size_t n) {
                    FootprintView view;
                    if (loadFootprint(d, n, &view) != Status::Ok) return -1;
                    return walkFootprint(view) ? 1 : 0;
                });
            loaded += c.loaded, rejected += c.rejected, failures += c.walk_failures;
        }
        for (const Asset& a : assetsIn("roadmap")) {
            const test::CorruptionCounts c =
                test::corruptRandomly(a.bytes, seed++, kIterations, [](const uint8_t* d, size_t n) {
                    RoadmapView view;
                    if (loadRoadmap(d, n, &view) != Status::Ok) return -1;
                    return walkRoadmap(view) ? 1 : 0;
                });
            loaded += c.loaded, rejected += c.rejected, failures += c.walk_failures;
        }
        const int total = loaded + rejected;
        MESSAGE(total, " corrupted baked assets: ", loaded, " still load, ", rejected, " rejected");
        CHECK(failures == 0);
        CHECK(loaded > 0);
        CHECK(rejected > 0);
    }

    TEST_CASE("another asset kind's identifier is WrongAssetKind") {
        for (const Asset& a : assetsIn("footprint")) {
            CAPTURE(a.name);
            CHECK(roadmapStatus(a.bytes) == Status::WrongAssetKind); // a footprint passed as a roadmap
            CHECK(footprintStatus(test::withIdentifier(a.bytes, "CWRM")) == Status::WrongAssetKind);
            CHECK(footprintStatus(test::withIdentifier(a.bytes, "CWTT")) == Status::WrongAssetKind);
            CHECK(footprintStatus(test::withIdentifier(a.bytes, "cwfp")) == Status::WrongAssetKind);
        }
        for (const Asset& a : assetsIn("roadmap")) {
            CAPTURE(a.name);
            CHECK(footprintStatus(a.bytes) == Status::WrongAssetKind);
            CHECK(roadmapStatus(test::withIdentifier(a.bytes, "CWFP")) == Status::WrongAssetKind);
            CHECK(roadmapStatus(test::withIdentifier(a.bytes, "CWTT")) == Status::WrongAssetKind);
        }
    }

    TEST_CASE("a newer format version is UnsupportedVersion, a missing one CorruptAsset") {
        for (const Asset& a : assetsIn("footprint")) {
            CAPTURE(a.name);
            for (uint32_t version : {kFootprintFormatVersion + 1, 0xffffffffu}) {
                std::vector<uint8_t> bytes = a.bytes;
                REQUIRE(test::setScalarField<uint32_t>(bytes, {}, fb::Footprint::VT_FORMAT_VERSION, version));
                CHECK(footprintStatus(bytes) == Status::UnsupportedVersion);
            }
            std::vector<uint8_t> zero = a.bytes;
            REQUIRE(test::setScalarField<uint32_t>(zero, {}, fb::Footprint::VT_FORMAT_VERSION, 0));
            CHECK(footprintStatus(zero) == Status::CorruptAsset);
        }
        for (const Asset& a : assetsIn("roadmap")) {
            CAPTURE(a.name);
            std::vector<uint8_t> bytes = a.bytes;
            REQUIRE(test::setScalarField<uint32_t>(bytes, {}, fb::Roadmap::VT_FORMAT_VERSION,
                                                   kRoadmapFormatVersion + 1));
            CHECK(roadmapStatus(bytes) == Status::UnsupportedVersion);
            // The embedded footprint was written by a newer baker: the roadmap cannot be read either.
            std::vector<uint8_t> nested = a.bytes;
            REQUIRE(test::setScalarField<uint32_t>(nested, {fb::Roadmap::VT_FOOTPRINT},
                                                   fb::Footprint::VT_FORMAT_VERSION,
                                                   kFootprintFormatVersion + 1));
            CHECK(roadmapStatus(nested) == Status::UnsupportedVersion);
            std::vector<uint8_t> zero = a.bytes;
            REQUIRE(test::setScalarField<uint32_t>(zero, {}, fb::Roadmap::VT_FORMAT_VERSION, 0));
            CHECK(roadmapStatus(zero) == Status::CorruptAsset);
        }
    }

} // TEST_SUITE
