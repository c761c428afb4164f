// Shared by the loader tests of every asset kind: truncated prefixes and random corruption, the
// two ways real assets break (interrupted downloads, modded or bit-rotted files).
#pragma once

#include <cstdint>
#include <cstring>
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

} // namespace clearway::test
