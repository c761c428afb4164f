// Shared by the loader tests of every asset kind: truncated prefixes and random corruption, the
// two ways real assets break (interrupted downloads, modded or bit-rotted files).
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <random>
#include <vector>

namespace clearway::test {

// Feeds every prefix of `bytes` (every `stride`-th) to `load`, each in an exactly-sized heap
// buffer so ASan reports any read past it. `load(data, size)` returns true when it accepted the
// prefix. Returns how many prefixes were accepted (0 for a loader that is safe).
template <class Load>
size_t acceptedPrefixes(const std::vector<uint8_t>& bytes, Load&& load, size_t stride = 1) {
    size_t accepted = 0;
    for (size_t n = 0; n < bytes.size(); n += stride) {
        std::unique_ptr<uint8_t[]> prefix(new uint8_t[n ? n : 1]); // operator new: 8-byte aligned
        if (n) std::memcpy(prefix.get(), bytes.data(), n);
        accepted += load(prefix.get(), n) ? 1 : 0;
    }
    return accepted;
}

struct CorruptionCounts {
    int loaded = 0, rejected = 0, walk_failures = 0;
};

// Flips 1-4 random bytes of `valid`, `iterations` times with a fixed seed. `loadAndWalk(data,
// size)` returns -1 when the loader rejected the bytes, 1 when it accepted them and every
// accessor/query over them behaved, 0 when an accepted asset misbehaved.
template <class LoadAndWalk>
CorruptionCounts corruptRandomly(const std::vector<uint8_t>& valid, uint32_t seed, int iterations,
                                 LoadAndWalk&& loadAndWalk) {
    std::mt19937 rng(seed);
    CorruptionCounts counts;
    for (int it = 0; it < iterations; ++it) {
        std::vector<uint8_t> bytes = valid;
        const int flips = 1 + int(rng() % 4);
        for (int f = 0; f < flips; ++f)
            bytes[rng() % bytes.size()] ^= uint8_t(1 + rng() % 255);
        const int result = loadAndWalk(bytes.data(), bytes.size());
        if (result < 0)
            ++counts.rejected;
        else if (result == 0)
            ++counts.walk_failures, ++counts.loaded;
        else
            ++counts.loaded;
    }
    return counts;
}

// A copy of an asset with its 4-character file identifier (bytes 4..7) replaced: the same bytes
// claiming to be another asset kind.
inline std::vector<uint8_t> withIdentifier(const std::vector<uint8_t>& asset, const char identifier[4]) {
    std::vector<uint8_t> bytes = asset;
    if (bytes.size() >= 8) std::memcpy(bytes.data() + 4, identifier, 4);
    return bytes;
}

// Overwrites a scalar field the writer stored (e.g. a root table's format_version: pass the
// generated VT_FORMAT_VERSION) in place, as a newer or a hand-edited writer would have. `path`
// lists table-valued fields to follow from the root first (a roadmap's embedded footprint).
// False when a table on the path or the field itself is absent (nothing to overwrite).
template <class T>
bool setScalarField(std::vector<uint8_t>& bytes, std::initializer_list<flatbuffers::voffset_t> path,
                    flatbuffers::voffset_t field, T value) {
    auto* table = flatbuffers::GetMutableRoot<flatbuffers::Table>(bytes.data());
    for (flatbuffers::voffset_t step : path) {
        table = table->GetPointer<flatbuffers::Table*>(step);
        if (!table) return false;
    }
    return table->SetField<T>(field, value);
}

} // namespace clearway::test
