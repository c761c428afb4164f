// Trim-table loader robustness on real tables: the boat, glider and skiff baked by cw-trims (the
// fuzzer's seeds, tests/fuzz/seeds/trims). Every truncated prefix, random byte flips, another
// kind's identifier and a newer format version each end in the right status; run under ASan +
// UBSan by scripts/test.
#include <clearway/motion.h>

#include <clearway/schema/trims_generated.h>

#include <doctest/doctest.h>

#include "asset_robustness.h"
#include "test_files.h"

#include <algorithm>
#include <cmath>
#include <dirent.h>
#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::trims;
namespace fbt = clearway::schema::trims;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/";

using Asset = test::NamedFile;

// Every file of a seed folder, sorted by name (deterministic order).
std::vector<Asset> assetsIn(const std::string& kind) {
    return test::readFilesIn(kSeeds + kind);
}

Status tableStatus(const uint8_t* data, size_t size) {
    TableView view;
    const Status s = loadTable(data, size, &view);
    return s == Status::Ok || view.data == nullptr ? s : Status::InvalidArgument; // failure leaves it empty
}
Status tableStatus(const std::vector<uint8_t>& bytes) {
    return tableStatus(bytes.data(), bytes.size());
}

// Every trim, then three search decisions flown with applyTrim; false if anything misbehaves.
bool walkTable(const TableView& table) {
    TableInfo info;
    if (tableInfo(table, &info) != Status::Ok || !info.baker_version) return false;
    for (uint32_t a = 0; a < table.control_count; ++a)
        for (uint32_t b = 0; b < table.control_count; ++b) {
            Trim t;
            if (tableTrim(table, a, b, &t) != Status::Ok) return false;
            if (!std::isfinite(t.position.x + t.position.y + t.position.z + t.orientation.w)) return false;
        }
    SearchSettings settings = defaultSearchSettings();
    settings.max_depth = 3;
    settings.min_leaf_depth = 1;
    settings.max_nodes = table.control_count + 64;
    settings.max_expansions = 8;
    const size_t bytes = searchWorkspaceSize(table, settings);
    std::vector<uint64_t> memory(bytes / 8 + 1);
    SearchWorkspace workspace;
    if (initSearchWorkspace(table, settings, memory.data(), bytes, &workspace) != Status::Ok) return false;
    const Seek seek{{50, 20, 5}};
    VehicleState state{{0, 0, 0}, {0, 0, 0, 1}, float(table.model.speed), straightControl(table.model)};
    for (int k = 0; k < 3; ++k) {
        SearchResult result;
        if (search(&workspace, state, behaviour(&seek), nullptr, 0, &result) != Status::Ok) return false;
        if (applyTrim(table, state, result.first_control, &state) != Status::Ok) return false;
        if (!std::isfinite(state.position.x + state.position.y + state.position.z)) return false;
    }
    return true;
}

} // namespace

TEST_SUITE("trims baked tables") {

    TEST_CASE("the baked tables load, and every trim and a few decisions work on them") {
        const auto tables = assetsIn("trims");
        REQUIRE(tables.size() >= 3);
        for (const Asset& a : tables) {
            CAPTURE(a.name);
            TableView view;
            REQUIRE(loadTable(a.bytes.data(), a.bytes.size(), &view) == Status::Ok);
            CHECK(walkTable(view));
        }
    }

    TEST_CASE("every truncated prefix of every baked table is rejected") {
        size_t prefixes = 0;
        for (const Asset& a : assetsIn("trims")) {
            CAPTURE(a.name);
            CHECK(test::acceptedPrefixes(a.bytes, [](const uint8_t* d, size_t n) {
                      const Status s = tableStatus(d, n);
                      CHECK((s == Status::Ok || s == Status::CorruptAsset));
                      return s == Status::Ok;
                  }) == 0);
            prefixes += a.bytes.size();
        }
        MESSAGE(prefixes, " prefixes rejected as corrupt");
    }

    TEST_CASE("random byte flips of baked tables: a status, or a table every accessor and search survives") {
        int loaded = 0, rejected = 0, failures = 0;
        uint32_t seed = 20240611u;
        for (const Asset& a : assetsIn("trims")) {
            const test::CorruptionCounts c =
                test::corruptRandomly(a.bytes, seed++, 2000, [](const uint8_t* d, size_t n) {
                    TableView view;
                    if (loadTable(d, n, &view) != Status::Ok) return -1;
                    return walkTable(view) ? 1 : 0;
                });
            loaded += c.loaded, rejected += c.rejected, failures += c.walk_failures;
        }
        const int total = loaded + rejected;
        MESSAGE(total, " corrupted baked tables: ", loaded, " still load, ", rejected, " rejected");
        CHECK(failures == 0);
        CHECK(loaded > 0);
        CHECK(rejected > 0);
    }

    TEST_CASE("another asset kind's identifier is WrongAssetKind, both ways") {
        for (const Asset& a : assetsIn("trims")) {
            CAPTURE(a.name);
            CHECK(tableStatus(test::withIdentifier(a.bytes, "CWFP")) == Status::WrongAssetKind);
            CHECK(tableStatus(test::withIdentifier(a.bytes, "CWRM")) == Status::WrongAssetKind);
            FootprintView fp;
            RoadmapView rm;
            CHECK(loadFootprint(a.bytes.data(), a.bytes.size(), &fp) == Status::WrongAssetKind);
            CHECK(loadRoadmap(a.bytes.data(), a.bytes.size(), &rm) == Status::WrongAssetKind);
        }
        for (const char* kind : {"footprint", "roadmap"}) {
            for (const Asset& a : assetsIn(kind)) {
                CAPTURE(a.name);
                CHECK(tableStatus(a.bytes) == Status::WrongAssetKind);
            }
        }
    }

    TEST_CASE("a newer format version is UnsupportedVersion, a missing one CorruptAsset") {
        for (const Asset& a : assetsIn("trims")) {
            CAPTURE(a.name);
            for (uint32_t version : {kFormatVersion + 1, 0xffffffffu}) {
                std::vector<uint8_t> bytes = a.bytes;
                REQUIRE(
                    test::setScalarField<uint32_t>(bytes, {}, fbt::TrimTable::VT_FORMAT_VERSION, version));
                CHECK(tableStatus(bytes) == Status::UnsupportedVersion);
            }
            std::vector<uint8_t> zero = a.bytes;
            REQUIRE(test::setScalarField<uint32_t>(zero, {}, fbt::TrimTable::VT_FORMAT_VERSION, 0));
            CHECK(tableStatus(zero) == Status::CorruptAsset);
        }
    }

} // TEST_SUITE
