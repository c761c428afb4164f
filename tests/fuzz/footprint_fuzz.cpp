// libFuzzer target for loadFootprint and every accessor. Not wired into CMake; build by hand, e.g.
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -Ilib/runtime/include
//     -I<build>/generated tests/fuzz/footprint_fuzz.cpp lib/runtime/src/footprint.cpp -o footprint_fuzz
#include <clearway/runtime.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace clearway;

namespace {

// A crash or a non-finite number after Ok is a finding.
void require(bool ok) {
    if (!ok) std::abort();
}

void walk(const FootprintView& view) {
    FootprintInfo info;
    require(footprintInfo(view, &info) == Status::Ok);
    require(info.baker_version != nullptr && std::isfinite(info.scale) && info.scale > 0);
    (void)footprintLocalToWorld(info, footprintWorldToLocal(info, Vec3d{1, 2, 3}));
    for (uint32_t l = 0; l < info.layer_count; ++l) {
        FootprintLayerInfo layer;
        require(footprintLayer(view, l, &layer) == Status::Ok);
        for (uint32_t p = 0; p < layer.polygon_count; ++p) {
            uint32_t first, count;
            require(footprintPolygon(view, l, p, &first, &count) == Status::Ok);
        }
        for (uint32_t r = 0; r < layer.ring_count; ++r) {
            const Vec2f* v;
            uint32_t count;
            require(footprintRing(view, l, r, &v, &count) == Status::Ok);
            for (uint32_t i = 0; i < count; ++i) {
                require(std::isfinite(v[i].x) && std::isfinite(v[i].y));
                float h;
                if (footprintHeightAt(view, l, v[i].x, v[i].y, 0.5f, &h) == Status::Ok)
                    require(std::isfinite(h));
            }
        }
        require(footprintLayer(view, info.layer_count, &layer) == Status::InvalidArgument);
    }
    for (uint32_t c = 0; c < info.connection_count; ++c) {
        FootprintConnection con;
        require(footprintConnection(view, c, &con) == Status::Ok);
        require(con.layer_a < info.layer_count && con.layer_b < info.layer_count);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // libFuzzer's input has no alignment guarantee; the loader requires 8 bytes.
    std::unique_ptr<uint8_t[]> copy(new uint8_t[size]);
    if (size) std::memcpy(copy.get(), data, size);
    FootprintView view;
    if (loadFootprint(copy.get(), size, &view) == Status::Ok) walk(view);
    return 0;
}
