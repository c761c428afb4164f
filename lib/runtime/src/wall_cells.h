// Internal to lib/runtime: cell arithmetic of the wall grid (cells a segment can touch, the
// occupancy bits), shared by its construction (walls_grid.cpp) and its queries (walls.cpp).
#pragma once

#include "path_internal.h"

#include <utility>

namespace clearway {
namespace detail {

// floor((v - min) / cell) clamped to [0, n - 1]. The conversion truncates, which is the floor
// for the positive values that reach it, and is much cheaper than std::floor without SSE4.1.
static inline int64_t clampedFloor(double x, uint32_t n) {
    x = x >= 1.0 ? x : 0.0; // also NaN
    return int64_t(x < double(n - 1) ? x : double(n - 1));
}

static inline int64_t cellOf(double v, double min, double cell, uint32_t n) {
    return clampedFloor((v - min) / cell, n);
}

// The ends of a wall piece (a WallRef), in double.
static inline P pieceStart(const flatbuffers::Vector<const fb::Vec2*>* verts, const WallRef& w) {
    const P a = pt(verts->Get(w.a)), b = pt(verts->Get(w.b));
    return w.t0 == 0.0f ? a : a + (b - a) * double(w.t0);
}
static inline P pieceEnd(const flatbuffers::Vector<const fb::Vec2*>* verts, const WallRef& w) {
    const P a = pt(verts->Get(w.a)), b = pt(verts->Get(w.b));
    return w.t1 == 1.0f ? b : a + (b - a) * double(w.t1);
}

// The crossings the inside test counts in cell i of row j for the horizontal line at y: the ring
// edges (solid or open) crossing it with the crossing point in that cell, so an edge listed in
// several cells counts once. `starts`: the layer's cell starts. Calls fn(crossing x).
template <typename Fn>
static inline void forEachCellCrossing(const uint32_t* starts, const WallRef* items,
                                       const flatbuffers::Vector<const fb::Vec2*>* verts, const WallGrid& g,
                                       int64_t i, int64_t j, double y, Fn fn) {
    const uint32_t cell = uint32_t(j * int64_t(g.nx) + i);
    for (uint32_t k = starts[cell], end = starts[cell + 1]; k < end; ++k) {
        const WallRef& w = items[k];
        const P a = pt(verts->Get(w.a)), b = pt(verts->Get(w.b));
        if ((a.y > y) == (b.y > y)) continue;
        // Only the piece holding the crossing counts it: a ring edge is cut into pieces.
        const double t = (y - a.y) / (b.y - a.y);
        if (t < double(w.t0) || (w.t1 < 1.0f ? t >= double(w.t1) : t > 1.0)) continue;
        const double xc = (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x;
        if (cellOf(xc, g.min_x, g.cell, g.nx) != i) continue;
        fn(xc);
    }
}

// A cell's centre, where the inside test's per-cell answer is kept (wall_centre_inside).
static inline P cellCentre(const WallGrid& g, int64_t i, int64_t j) {
    return P{g.min_x + double(i) * g.cell + 0.5 * g.cell, g.min_y + double(j) * g.cell + 0.5 * g.cell};
}

// Occupancy bits: per layer, after the cell starts in wall_solid_start, one bit per cell (set: the
// cell lists a solid wall piece), rowWords(g) 32-bit words per row. Most cells of a layer list
// none (77 % on dungeon): the queries walk only the set bits of a row's span, in the same order
// as the cells themselves, so order-dependent answers stay the same.
static inline uint32_t rowWords(const WallGrid& g) {
    return (g.nx + 31) / 32;
}

static inline int lowestBit(uint32_t m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int i = 0;
    while (!(m & 1u))
        m >>= 1, ++i;
    return i;
#endif
}

// Calls fn(base + k * stride) for the set bits k in [k0, k1] of `line`, by increasing k; stops
// when fn returns false.
template <typename Fn>
static inline bool forEachSetBit(const uint32_t* line, int64_t k0, int64_t k1, uint32_t base, uint32_t stride, Fn fn) {
    for (int64_t w = k0 >> 5, w1 = k1 >> 5; w <= w1; ++w) {
        uint32_t m = line[w];
        if (w == (k0 >> 5)) m &= ~0u << (k0 & 31);
        if (w == w1) m &= ~0u >> (31 - (k1 & 31));
        while (m) {
            const uint32_t k = uint32_t(w * 32 + lowestBit(m));
            m &= m - 1;
            if (!fn(base + k * stride)) return false;
        }
    }
    return true;
}

// Whether row j has an occupied cell with column in [i0, i1].
static inline bool rowOccupied(const uint32_t* bits, const WallGrid& g, int64_t j, int64_t i0, int64_t i1) {
    const uint32_t* row = bits + uint64_t(j) * rowWords(g);
    for (int64_t w = i0 >> 5, w1 = i1 >> 5; w <= w1; ++w) {
        uint32_t m = row[w];
        if (w == (i0 >> 5)) m &= ~0u << (i0 & 31);
        if (w == w1) m &= ~0u >> (31 - (i1 & 31));
        if (m) return true;
    }
    return false;
}

// Calls fn(cell index) for the occupied cells of row j with columns in [i0, i1], by increasing
// column; stops when fn returns false.
template <typename Fn>
static inline bool forEachOccupied(const uint32_t* bits, const WallGrid& g, int64_t j, int64_t i0, int64_t i1, Fn fn) {
    return forEachSetBit(bits + uint64_t(j) * rowWords(g), i0, i1, uint32_t(j * int64_t(g.nx)), 1u, fn);
}

// Column range of row j's cells that segment a-b, thickened by `pad`, can touch.
static inline bool rowSpan(const WallGrid& g, int64_t j, P a, P b, double pad, int64_t* i0, int64_t* i1) {
    const double ylo = g.min_y + double(j) * g.cell - pad, yhi = g.min_y + double(j + 1) * g.cell + pad;
    double t0 = 0.0, t1 = 1.0;
    const double dy = b.y - a.y;
    if (dy == 0.0) {
        if (a.y < ylo || a.y > yhi) return false;
    } else {
        double ta = (ylo - a.y) / dy, tb = (yhi - a.y) / dy;
        if (ta > tb) std::swap(ta, tb);
        t0 = maxOf(t0, ta), t1 = minOf(t1, tb);
        if (t0 > t1) return false;
    }
    const double xa = a.x + (b.x - a.x) * t0, xb = a.x + (b.x - a.x) * t1;
    *i0 = cellOf(minOf(xa, xb) - pad, g.min_x, g.cell, g.nx);
    *i1 = cellOf(maxOf(xa, xb) + pad, g.min_x, g.cell, g.nx);
    return true;
}

// Calls fn(cell index) for the cells the segment a-b thickened by `pad` can touch.
// With `bits` (the layer's occupancy), only the cells listing a solid wall piece.
template <typename Fn>
static inline bool forEachCellNear(const WallGrid& g, P a, P b, double pad, const uint32_t* bits, Fn fn) {
    const int64_t j0 = cellOf(minOf(a.y, b.y) - pad, g.min_y, g.cell, g.ny);
    const int64_t j1 = cellOf(maxOf(a.y, b.y) + pad, g.min_y, g.cell, g.ny);
    // Slack for the floor() rounding at cell borders.
    const double slack = pad + 1e-9 * g.cell;
    // Every row's span lies in the columns of the segment's box (grown by more than the
    // rounding): a row with no occupied cell there needs no span.
    const double box_slack = slack + 1e-7 * g.cell;
    const int64_t bi0 = cellOf(minOf(a.x, b.x) - box_slack, g.min_x, g.cell, g.nx);
    const int64_t bi1 = cellOf(maxOf(a.x, b.x) + box_slack, g.min_x, g.cell, g.nx);
    for (int64_t j = j0; j <= j1; ++j) {
        if (bits && !rowOccupied(bits, g, j, bi0, bi1)) continue;
        int64_t i0, i1;
        if (!rowSpan(g, j, a, b, slack, &i0, &i1)) continue;
        if (bits) {
            if (!forEachOccupied(bits, g, j, i0, i1, fn)) return false;
            continue;
        }
        for (int64_t i = i0; i <= i1; ++i)
            if (!fn(uint32_t(j * int64_t(g.nx) + i))) return false;
    }
    return true;
}

} // namespace detail
} // namespace clearway
