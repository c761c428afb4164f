// Internal to lib/runtime: the one loading sequence every asset view goes through.
#pragma once

#include <clearway/runtime.h>

#include <flatbuffers/flatbuffers.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace clearway::detail {

// Checks every loader repeats on the verified tables.
inline bool finite(float v) {
    return std::isfinite(v);
}
inline bool finite(double v) {
    return std::isfinite(v);
}
// Positions lie within 2^24 m of the asset's origin (NaN and infinity fail too). No bake writes
// more: its precision check refuses levels whose float coordinates are coarser than a quarter of
// --epsilon, and floats are 1 m apart at 2^24. Walls longer than that would also cost the double
// geometry of the character queries the 1e-9 m it promises (roadmap fuzzer: a 9e15 m wall).
constexpr double kMaxLocalCoordinate = 16777216.0;
inline bool localCoordinate(double v) {
    return std::fabs(v) <= kMaxLocalCoordinate;
}
template <typename T> uint32_t sizeOf(const flatbuffers::Vector<T>* v) {
    return v ? v->size() : 0;
}
// 64-bit so first + count cannot wrap around.
inline bool rangeWithin(uint32_t first, uint32_t count, uint32_t size) {
    return uint64_t(first) + uint64_t(count) <= uint64_t(size);
}

// Buffer checks (alignment, size, identifier), the FlatBuffers verifier (`verify`), then the
// asset's semantic checks (`check` on the verified bytes). Only Ok fills *out; any failure leaves
// it empty, so a caller can never read an unverified view.
template <typename View, typename Verify, typename Check>
Status loadAsset(const void* data, size_t size, const char identifier[4], Verify verify, Check check,
                 View* out) {
    if (!out) return Status::InvalidArgument;
    *out = View{};
    if (const Status s = checkAssetBuffer(data, size, identifier); s != Status::Ok) return s;
    const auto* bytes = static_cast<const uint8_t*>(data);
    flatbuffers::Verifier verifier(bytes, size);
    if (!verify(verifier)) return Status::CorruptAsset;
    if (const Status s = check(bytes); s != Status::Ok) return s;
    out->data = bytes;
    out->size = size;
    return Status::Ok;
}

} // namespace clearway::detail
