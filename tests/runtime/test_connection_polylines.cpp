// The polylines of connections between layers, as the shared path data links them once per asset
// (each connection end's next piece through a sort of the ends into cells), against the walk the
// queries once made over every piece at every step: the same far ends on random sets of
// connections with shared, near (within a millimetre) and far ends, branches, loops, pieces of
// no length and several pairs of layers.
#include <clearway/runtime.h>

#include <clearway/schema/footprint_generated.h>

#include <doctest/doctest.h>

#include "../../lib/runtime/src/path_internal.h"
#include "connection_walk.h"

#include <cstdint>
#include <random>
#include <vector>

using namespace clearway;
using namespace clearway::detail;

namespace {

// A random set of connections: ends on a coarse lattice (many shared, so branches and loops
// form), some moved by less than a millimetre, some by a little more, a few pieces of no length.
std::vector<uint8_t> randomConnections(std::mt19937_64& rng, uint32_t count) {
    std::uniform_int_distribution<int> lattice(0, 5), layer(0, 2), jitter_kind(0, 9);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    auto point = [&](float* x, float* y) {
        *x = float(lattice(rng)) * 0.5f, *y = float(lattice(rng)) * 0.5f;
        const int kind = jitter_kind(rng);
        if (kind == 0)
            *x += float(0.0006 * unit(rng)), *y += float(0.0006 * unit(rng)); // within a millimetre
        if (kind == 1) *x += float(0.0015 * unit(rng));                       // just beyond it
    };
    std::vector<schema::Connection> connections;
    for (uint32_t k = 0; k < count; ++k) {
        float x0, y0, x1, y1;
        point(&x0, &y0);
        point(&x1, &y1);
        if (jitter_kind(rng) == 0) x1 = x0, y1 = y0; // no length
        const uint32_t a = uint32_t(layer(rng)), b = (a + 1 + uint32_t(layer(rng)) % 2) % 3;
        connections.emplace_back(a, b, x0, y0, x1, y1, 0.0f, 0.0f, 0.0f, 0.0f);
    }
    flatbuffers::FlatBufferBuilder builder;
    const auto vector = builder.CreateVectorOfStructs(connections);
    builder.Finish(schema::CreateFootprint(builder, 1, 0, 0, 0, 0, nullptr, 0.0, 0, vector));
    return std::vector<uint8_t>(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}

} // namespace

TEST_SUITE("runtime/connection polylines") {
    TEST_CASE("linked polyline ends equal a walk over every piece, on random connections with branches, "
              "loops, near ends and pieces of no length") {
        std::mt19937_64 rng(20261128);
        uint64_t ends_checked = 0, walked_on = 0;
        for (int set = 0; set < 400; ++set) {
            const uint32_t count = 1 + uint32_t(rng() % 60);
            const std::vector<uint8_t> bytes = randomConnections(rng, count);
            const auto& pieces = *flatbuffers::GetRoot<schema::Footprint>(bytes.data())->connections();
            std::vector<uint32_t> next(2 * count), order(2 * count);
            linkConnectionEnds(pieces, next.data(), order.data());
            for (uint32_t piece = 0; piece < count; ++piece)
                for (const bool second : {false, true}) {
                    CAPTURE(set);
                    CAPTURE(piece);
                    CAPTURE(second);
                    const P linked = stretchEnd(pieces, next.data(), 2 * piece + (second ? 1 : 0));
                    const P walked = test::walkEveryPiece(pieces, piece, second);
                    CHECK(linked.x == walked.x);
                    CHECK(linked.y == walked.y);
                    ++ends_checked;
                    walked_on += next[2 * piece + (second ? 1 : 0)] != kNone;
                }
        }
        // Most ends lead on to another piece: the walks are long enough to mean something.
        CHECK(ends_checked > 10000);
        CHECK(walked_on * 3 > ends_checked);
    }
}
