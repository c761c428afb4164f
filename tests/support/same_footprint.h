// Exact comparison of two footprints (layers, every ring vertex, areas) for the footprint tests.
// Header-only.
#pragma once

#include "clearway/bake.h"

#include <doctest/doctest.h>

namespace clearway::bake::testing {

inline bool sameRing(const Ring& a, const Ring& b) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
        if (a[k].x != b[k].x || a[k].y != b[k].y) return false;
    return true;
}

// Same layers, walls (every ring, exactly) and areas.
inline void checkSameFootprint(const Footprint& got, const Footprint& want) {
    REQUIRE(got.layers.size() == want.layers.size());
    for (size_t l = 0; l < got.layers.size(); ++l) {
        const FootprintLayer &g = got.layers[l], &w = want.layers[l];
        CHECK(g.area == w.area);
        REQUIRE(g.polygons.size() == w.polygons.size());
        for (size_t p = 0; p < g.polygons.size(); ++p) {
            CHECK(sameRing(g.polygons[p].outer, w.polygons[p].outer));
            REQUIRE(g.polygons[p].holes.size() == w.polygons[p].holes.size());
            for (size_t h = 0; h < g.polygons[p].holes.size(); ++h)
                CHECK(sameRing(g.polygons[p].holes[h], w.polygons[p].holes[h]));
        }
    }
}

} // namespace clearway::bake::testing
