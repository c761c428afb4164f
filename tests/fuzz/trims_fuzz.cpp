// libFuzzer target: trim tables (.cwtt, trims::loadTable in lib/motion). Any bytes end in a
// status; a table it accepts must survive every accessor, the rigid-transform step and a small
// online search (Seek behaviour), with finite results. Built with -DCLEARWAY_FUZZ=ON (scripts/fuzz).
#include <clearway/motion.h>

#include "fuzz_support.h"

#include <cmath>
#include <vector>

using namespace clearway;
using namespace clearway::trims;

namespace {

bool finite(const Vec3f& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void walk(const TableView& table) {
    TableInfo info;
    CLEARWAY_FUZZ_REQUIRE(tableInfo(table, &info) == Status::Ok);
    CLEARWAY_FUZZ_REQUIRE(info.baker_version != nullptr && info.name != nullptr &&
                          info.source_name != nullptr);
    CLEARWAY_FUZZ_REQUIRE(table.control_count == controlCount(table.model) && table.control_count > 0);
    // Every trim of a small table; a stride through a large one (up to 2^20 trims).
    const uint32_t c = table.control_count;
    const uint32_t stride = c <= 64 ? 1 : c / 61;
    for (uint32_t from = 0; from < c; from += stride)
        for (uint32_t to = 0; to < c; to += stride) {
            Trim t;
            CLEARWAY_FUZZ_REQUIRE(tableTrim(table, from, to, &t) == Status::Ok);
            CLEARWAY_FUZZ_REQUIRE(finite(t.position) && finite(t.facing) && std::isfinite(t.orientation.w));
        }
    Trim past;
    CLEARWAY_FUZZ_REQUIRE(tableTrim(table, c, 0, &past) == Status::InvalidArgument);
}

void fly(const TableView& table) {
    const float speed = float(table.model.speed);
    VehicleState state{{0, 0, 0}, {0, 0, 0, 1}, speed, straightControl(table.model)};
    CLEARWAY_FUZZ_REQUIRE(state.control < table.control_count);
    SearchSettings settings = defaultSearchSettings();
    settings.max_depth = 4;
    settings.min_leaf_depth = 1;
    settings.max_nodes = table.control_count + 64; // at least one full expansion
    settings.max_expansions = 32;
    const size_t bytes = searchWorkspaceSize(table, settings);
    CLEARWAY_FUZZ_REQUIRE(bytes > 0);
    std::vector<uint64_t> memory(bytes / 8 + 1);
    SearchWorkspace workspace;
    CLEARWAY_FUZZ_REQUIRE(initSearchWorkspace(table, settings, memory.data(), bytes, &workspace) ==
                          Status::Ok);
    const Seek seek{{100, 40, 10}};
    const Behaviour goal = behaviour(&seek);
    uint32_t plan[8];
    for (int decision = 0; decision < 3; ++decision) {
        SearchResult result;
        const Status s = search(&workspace, state, goal, plan, 8, &result);
        CLEARWAY_FUZZ_REQUIRE(s == Status::Ok);
        CLEARWAY_FUZZ_REQUIRE(result.first_control < table.control_count && std::isfinite(result.value));
        CLEARWAY_FUZZ_REQUIRE(applyTrim(table, state, result.first_control, &state) == Status::Ok);
        CLEARWAY_FUZZ_REQUIRE(finite(state.position) && std::isfinite(state.orientation.w));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const fuzz::AlignedCopy copy(data, size);
    TableView table;
    const Status s = loadTable(copy.bytes.get(), copy.size, &table);
    CLEARWAY_FUZZ_REQUIRE(s == Status::Ok || s == Status::CorruptAsset || s == Status::WrongAssetKind ||
                          s == Status::UnsupportedVersion);
    if (s != Status::Ok) return 0;
    walk(table);
    fly(table);
    return 0;
}
