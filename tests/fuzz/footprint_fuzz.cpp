// libFuzzer target: footprint assets (.cwfp). Any bytes end in a status from loadFootprint; bytes
// it accepts must survive every accessor and height query (a verifier gap shows up as an ASan
// report or a failed invariant). Built with -DCLEARWAY_FUZZ=ON (scripts/fuzz).
#include <clearway/runtime.h>

#include "fuzz_support.h"

#include <cmath>
#include <initializer_list>

using namespace clearway;

namespace {

void walk(const FootprintView& view) {
    FootprintInfo info;
    CLEARWAY_FUZZ_REQUIRE(footprintInfo(view, &info) == Status::Ok);
    CLEARWAY_FUZZ_REQUIRE(info.baker_version != nullptr && std::isfinite(info.scale) && info.scale > 0);
    (void)footprintLocalToWorld(info, footprintWorldToLocal(info, Vec3d{1, 2, 3}));
    for (uint32_t l = 0; l < info.layer_count; ++l) {
        FootprintLayerInfo layer;
        CLEARWAY_FUZZ_REQUIRE(footprintLayer(view, l, &layer) == Status::Ok);
        for (uint32_t p = 0; p < layer.polygon_count; ++p) {
            uint32_t first, count;
            CLEARWAY_FUZZ_REQUIRE(footprintPolygon(view, l, p, &first, &count) == Status::Ok);
            CLEARWAY_FUZZ_REQUIRE(count >= 1 && first < layer.ring_count &&
                                  count <= layer.ring_count - first);
        }
        for (uint32_t r = 0; r < layer.ring_count; ++r) {
            const Vec2f* v;
            uint32_t count;
            CLEARWAY_FUZZ_REQUIRE(footprintRing(view, l, r, &v, &count) == Status::Ok);
            CLEARWAY_FUZZ_REQUIRE(reinterpret_cast<const uint8_t*>(v) >= view.data &&
                                  reinterpret_cast<const uint8_t*>(v + count) <= view.data + view.size);
            for (uint32_t i = 0; i < count; ++i) {
                CLEARWAY_FUZZ_REQUIRE(std::isfinite(v[i].x) && std::isfinite(v[i].y));
                // On the boundary and just off it: the surface triangle search and its fallback.
                for (float d : {0.0f, 0.3f}) {
                    float h = 0;
                    const Status s = footprintHeightAt(view, l, v[i].x + d, v[i].y - d, 0.5f, &h);
                    CLEARWAY_FUZZ_REQUIRE(s == Status::Ok || s == Status::NotFound);
                    if (s == Status::Ok) CLEARWAY_FUZZ_REQUIRE(std::isfinite(h));
                }
            }
        }
        FootprintLayerInfo past;
        CLEARWAY_FUZZ_REQUIRE(footprintLayer(view, info.layer_count, &past) == Status::InvalidArgument);
    }
    for (uint32_t c = 0; c < info.connection_count; ++c) {
        FootprintConnection con;
        CLEARWAY_FUZZ_REQUIRE(footprintConnection(view, c, &con) == Status::Ok);
        CLEARWAY_FUZZ_REQUIRE(con.layer_a < info.layer_count && con.layer_b < info.layer_count);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const fuzz::AlignedCopy copy(data, size);
    FootprintView view;
    const Status s = loadFootprint(copy.bytes.get(), copy.size, &view);
    CLEARWAY_FUZZ_REQUIRE(s == Status::Ok || s == Status::CorruptAsset || s == Status::WrongAssetKind ||
                          s == Status::UnsupportedVersion);
    if (s == Status::Ok) walk(view);
    return 0;
}
