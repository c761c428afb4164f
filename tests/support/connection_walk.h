// The walk along a polyline of connections the path queries once made (every piece looked at in
// every step): the oracle for the links the shared path data builds once per asset. Needs
// lib/runtime/src/path_internal.h included first.
#pragma once

namespace clearway {
namespace test {

// The far end of the polyline through piece `piece` from its first end (or its second): each step
// to the lowest-numbered other piece between the same layers, longer than a millimetre, with an
// end within a millimetre of where the walk stands; as many steps at most as there are pieces.
inline detail::P walkEveryPiece(const flatbuffers::Vector<const schema::Connection*>& pieces, uint32_t piece,
                                bool from_second) {
    const schema::Connection& own = *pieces.Get(piece);
    using detail::kNone;
    using detail::P;
    P end = from_second ? P{own.x1(), own.y1()} : P{own.x0(), own.y0()};
    uint32_t previous = piece;
    for (uint32_t steps = 0; steps < pieces.size(); ++steps) {
        uint32_t next = kNone;
        P far{0, 0};
        for (uint32_t k = 0; k < pieces.size() && next == kNone; ++k) {
            const schema::Connection& c = *pieces.Get(k);
            const bool same_layers = (c.layer_a() == own.layer_a() && c.layer_b() == own.layer_b()) ||
                                     (c.layer_a() == own.layer_b() && c.layer_b() == own.layer_a());
            if (k == previous || !same_layers) continue;
            const P c0{c.x0(), c.y0()}, c1{c.x1(), c.y1()};
            if (dot(c1 - c0, c1 - c0) <= 1e-6) continue;
            if (dot(c0 - end, c0 - end) <= 1e-6)
                next = k, far = c1;
            else if (dot(c1 - end, c1 - end) <= 1e-6)
                next = k, far = c0;
        }
        if (next == kNone) break;
        previous = next, end = far;
    }
    return end;
}

} // namespace test
} // namespace clearway
