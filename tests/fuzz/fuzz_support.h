// Shared by the libFuzzer targets: an aligned, exactly-sized copy of the input (so ASan flags any
// read past it) and the one way a target reports a finding that is not a crash.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace clearway::fuzz {

// libFuzzer's input has no alignment guarantee; the loaders require 8 bytes (operator new gives 16).
struct AlignedCopy {
    std::unique_ptr<uint8_t[]> bytes;
    size_t size;
    AlignedCopy(const uint8_t* data, size_t n) : bytes(new uint8_t[n ? n : 1]), size(n) {
        if (n) std::memcpy(bytes.get(), data, n);
    }
};

// A broken promise on input the loader accepted (a status other than the documented ones, a
// non-finite number after Ok): abort, so libFuzzer saves the input like a crash.
#define CLEARWAY_FUZZ_REQUIRE(condition)                                                                     \
    do {                                                                                                     \
        if (!(condition)) {                                                                                  \
            std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #condition);      \
            std::abort();                                                                                    \
        }                                                                                                    \
    } while (0)

} // namespace clearway::fuzz
