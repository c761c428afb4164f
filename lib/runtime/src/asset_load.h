// Internal to lib/runtime: the one loading sequence every asset view goes through.
#pragma once

#include <clearway/runtime.h>

#include <flatbuffers/flatbuffers.h>

#include <cstddef>
#include <cstdint>

namespace clearway::detail {

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
