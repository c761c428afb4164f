// Wall grid construction: each layer's ring edges split into solid and portal pieces, listed per
// cell with their ends in double and per-cell bounding boxes, into the shared path data at init.
#include "wall_cells.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace clearway {
namespace detail {

namespace {

struct Bounds {
    double x0, y0, x1, y1;
};

uint32_t wallCount(const fb::Layer& layer) {
    uint32_t n = 0;
    for (uint32_t r = 0, nr = sizeOf(layer.rings()); r < nr; ++r)
        n += layer.rings()->Get(r)->vertex_count();
    return n;
}

// Cells about as wide as the mean spacing of walls, so a cell holds a few of them; capped so a
// layer with a few long walls cannot ask for millions of cells.
WallGrid gridFor(const fb::Layer& layer) {
    const auto* verts = layer.boundary_vertices();
    const uint32_t nv = sizeOf(verts), walls = wallCount(layer);
    Bounds b{kInf, kInf, -kInf, -kInf};
    for (uint32_t i = 0; i < nv; ++i) {
        const P p = pt(verts->Get(i));
        b.x0 = std::fmin(b.x0, p.x), b.y0 = std::fmin(b.y0, p.y);
        b.x1 = std::fmax(b.x1, p.x), b.y1 = std::fmax(b.y1, p.y);
    }
    WallGrid g{};
    if (walls == 0 || nv == 0) {
        g.min_x = g.min_y = 0.0, g.cell = 1.0, g.nx = g.ny = 1;
        return g;
    }
    const double w = b.x1 - b.x0, h = b.y1 - b.y0, extent = std::fmax(std::fmax(w, h), 1e-3);
    double cell = std::fmax(std::sqrt(std::fmax(w * h, 1e-6) / double(walls)), extent / 2048.0);
    const double max_cells = 4.0 * double(walls) + 64.0;
    while ((std::floor(w / cell) + 1.0) * (std::floor(h / cell) + 1.0) > max_cells)
        cell *= 1.25;
    g.min_x = b.x0, g.min_y = b.y0, g.cell = cell;
    g.nx = uint32_t(std::floor(w / cell)) + 1, g.ny = uint32_t(std::floor(h / cell)) + 1;
    return g;
}

// Splits ring edge a-b into solid and open pieces: the parts covered by a connection of this
// layer lying along it (both portal ends within 1 mm of the edge, the bake's rule) are open.
// Calls fn(piece) in order along the edge.
template <typename Fn>
void forEachPiece(const fb::Footprint& fp, uint32_t layer, const flatbuffers::Vector<const fb::Vec2*>* verts,
                  uint32_t ia, uint32_t ib, Fn fn) {
    constexpr double kTol = 1e-3;
    constexpr uint32_t kMaxCuts = 8; // portals along one edge; more are left solid (conservative)
    const P a = pt(verts->Get(ia)), b = pt(verts->Get(ib));
    const double len = norm(b - a);
    double cut0[kMaxCuts], cut1[kMaxCuts];
    uint32_t cuts = 0;
    const auto* conns = fp.connections();
    for (uint32_t c = 0, nc = sizeOf(conns); len > 0.0 && c < nc && cuts < kMaxCuts; ++c) {
        const fb::Connection* con = conns->Get(c);
        if (con->layer_a() != layer && con->layer_b() != layer) continue;
        const P p0{con->x0(), con->y0()}, p1{con->x1(), con->y1()};
        if (pointSegment2(p0, a, b, nullptr) > kTol * kTol || pointSegment2(p1, a, b, nullptr) > kTol * kTol)
            continue;
        const P u = (b - a) * (1.0 / len);
        double t0 = dot(p0 - a, u) / len, t1 = dot(p1 - a, u) / len;
        if (t1 < t0) std::swap(t0, t1);
        t0 = t0 < 0.0 ? 0.0 : t0, t1 = t1 > 1.0 ? 1.0 : t1;
        if (t1 <= t0) continue;
        // Insertion by start; overlapping portals are merged below.
        uint32_t i = cuts++;
        for (; i > 0 && cut0[i - 1] > t0; --i)
            cut0[i] = cut0[i - 1], cut1[i] = cut1[i - 1];
        cut0[i] = t0, cut1[i] = t1;
    }
    const double tol = len > 0.0 ? kTol / len : 0.0;
    double at = 0.0;
    for (uint32_t i = 0; i < cuts; ++i) {
        if (cut1[i] <= at) continue;
        double start = cut0[i] > at ? cut0[i] : at;
        // Solid slivers shorter than the tolerance go with the portal, as in the bake.
        if (start - at > tol)
            fn(WallRef{ia, ib, float(at), float(start), 0u, 0u});
        else
            start = at;
        fn(WallRef{ia, ib, float(start), float(cut1[i]), 1u, 0u});
        at = cut1[i];
    }
    // Pieces share their float end parameters, so they partition the edge exactly.
    if (at == 0.0)
        fn(WallRef{ia, ib, 0.0f, 1.0f, 0u, 0u});
    else if (float(at) < 1.0f)
        fn(WallRef{ia, ib, float(at), 1.0f, 1.0 - at > tol ? 0u : 1u, 0u});
}

// Every (wall piece, cell) pair of a layer, in a fixed order; counting and filling share it.
// Returns the number of pieces.
template <typename Fn>
uint32_t forEachWallCell(const fb::Footprint& fp, uint32_t l, const WallGrid& g, Fn fn) {
    const fb::Layer& layer = *fp.layers()->Get(l);
    uint32_t piece = 0;
    const auto* rings = layer.rings();
    const auto* verts = layer.boundary_vertices();
    for (uint32_t r = 0, nr = sizeOf(rings); r < nr; ++r) {
        const fb::Ring* ring = rings->Get(r);
        const uint32_t first = ring->first_vertex(), n = ring->vertex_count();
        for (uint32_t k = 0; k < n; ++k)
            forEachPiece(fp, l, verts, first + k, first + (k + 1 == n ? 0 : k + 1), [&](WallRef w) {
                w.id = g.first_piece + piece++;
                forEachCellNear(g, pieceStart(verts, w), pieceEnd(verts, w), 0.0, nullptr,
                                [&](uint32_t cell) {
                                    fn(w, cell);
                                    return true;
                                });
            });
    }
    return piece;
}

// The nearest float at or below (above) v: a float box that contains the double one.
float floatBelow(double v) {
    const float f = float(v);
    return double(f) <= v ? f : std::nextafter(f, -std::numeric_limits<float>::infinity());
}
float floatAbove(double v) {
    const float f = float(v);
    return double(f) >= v ? f : std::nextafter(f, std::numeric_limits<float>::infinity());
}

// The inside test's answer at every cell's centre, as its row walk gives it there (from the left
// in the grid's left half, from the right in the other); kCentreUnknown where a crossing of the
// centre's line or a ring edge lies within a millionth of a cell of it, where rounding could
// flip the answer. `start`: the layer's cell starts.
void classifyCellCentres(const flatbuffers::Vector<const fb::Vec2*>* verts, const WallGrid& g,
                         const uint32_t* start, const WallRef* items, uint8_t* out) {
    const double near = 1e-6 * g.cell;
    for (int64_t j = 0; j < int64_t(g.ny); ++j) {
        uint8_t* row = out + j * int64_t(g.nx);
        bool total_odd = false; // crossings of the row's centre line so far
        for (int64_t i = 0; i < int64_t(g.nx); ++i) {
            const P c = cellCentre(g, i, j);
            bool left_odd = total_odd, unknown = false;
            forEachCellCrossing(start, items, verts, g, i, j, c.y, [&](double xc) {
                unknown |= std::fabs(xc - c.x) <= near;
                if (xc < c.x) left_odd = !left_odd;
                total_odd = !total_odd;
            });
            const uint32_t cell = uint32_t(j * int64_t(g.nx) + i);
            for (uint32_t k = start[cell]; k < start[cell + 1] && !unknown; ++k)
                unknown = pointSegment2(c, pt(verts->Get(items[k].a)), pt(verts->Get(items[k].b)), nullptr) <=
                          near * near;
            row[i] = unknown ? kCentreUnknown : left_odd ? kCentreInside : kCentreOutside;
        }
        // The right half: the crossings right of the centre, all of the row's less the left ones.
        for (int64_t i = 0; i < int64_t(g.nx); ++i)
            if (2 * i >= int64_t(g.nx) && row[i] != kCentreUnknown)
                row[i] = uint8_t(row[i] ^ uint8_t(total_odd));
    }
}

} // namespace

void wallGridSizes(const fb::Roadmap& rm, uint64_t* cell_entries, uint64_t* items, uint64_t* solid_items,
                   uint64_t* pieces) {
    *cell_entries = 0, *items = 0, *solid_items = 0, *pieces = 0;
    const auto* layers = rm.footprint()->layers();
    for (uint32_t l = 0, nl = sizeOf(layers); l < nl; ++l) {
        const WallGrid g = gridFor(*layers->Get(l));
        // The cells, the end of the last, then the occupancy bits (in wall_solid_start only).
        *cell_entries += uint64_t(g.nx) * g.ny + 1 + uint64_t(g.ny) * rowWords(g);
        *pieces += forEachWallCell(*rm.footprint(), l, g, [&](WallRef w, uint32_t) {
            ++*items;
            if (!w.open) ++*solid_items;
        });
    }
}

void wallGridBuild(const fb::Roadmap& rm, PathShared* s) {
    const auto* layers = rm.footprint()->layers();
    uint32_t first_cell = 0, item_base = 0, solid_base = 0, first_piece = 0;
    for (uint32_t l = 0, nl = sizeOf(layers); l < nl; ++l) {
        const fb::Layer& layer = *layers->Get(l);
        WallGrid g = gridFor(layer);
        g.first_cell = first_cell;
        g.first_piece = first_piece;
        g.boundary = layer.boundary_vertices();
        s->wall_grids[l] = g;
        const uint32_t cells = g.nx * g.ny;
        uint32_t* start = s->wall_cell_start + first_cell;
        // Counting sort by cell: counts, prefix sums, then fill with start[] as the cursor.
        std::memset(start, 0, (cells + 1) * sizeof(uint32_t));
        forEachWallCell(*rm.footprint(), l, g, [&](WallRef, uint32_t cell) { ++start[cell + 1]; });
        start[0] = item_base;
        for (uint32_t c = 0; c < cells; ++c)
            start[c + 1] += start[c];
        first_piece += forEachWallCell(
            *rm.footprint(), l, g, [&](WallRef w, uint32_t cell) { s->wall_cell_items[start[cell]++] = w; });
        for (uint32_t c = cells; c > 0; --c)
            start[c] = start[c - 1];
        start[0] = item_base;
        item_base = start[cells];
        classifyCellCentres(layer.boundary_vertices(), g, start, s->wall_cell_items,
                            s->wall_centre_inside + first_cell);
        // The solid pieces again, cell by cell in the same order, with their ends in double.
        const auto* verts = layer.boundary_vertices();
        uint32_t* solid = s->wall_solid_start + first_cell;
        for (uint32_t c = 0; c < cells; ++c) {
            solid[c] = solid_base;
            // The cell's rectangle, a little larger (far above the rounding of the clipping).
            const double m = 1e-6 * g.cell;
            const double rx0 = g.min_x + double(c % g.nx) * g.cell - m, rx1 = rx0 + g.cell + 2.0 * m;
            const double ry0 = g.min_y + double(c / g.nx) * g.cell - m, ry1 = ry0 + g.cell + 2.0 * m;
            double bx0 = kInf, by0 = kInf, bx1 = -kInf, by1 = -kInf;
            CellBox pieces{float(kInf), float(kInf), -float(kInf), -float(kInf)};
            for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
                const WallRef& w = s->wall_cell_items[k];
                if (w.open) continue;
                const P p0 = pieceStart(verts, w), p1 = pieceEnd(verts, w);
                const WallSeg seg{p0,
                                  p1,
                                  floatBelow(minOf(p0.x, p1.x)),
                                  floatBelow(minOf(p0.y, p1.y)),
                                  floatAbove(maxOf(p0.x, p1.x)),
                                  floatAbove(maxOf(p0.y, p1.y)),
                                  w.id};
                s->wall_solid_segs[solid_base++] = seg;
                pieces =
                    CellBox{seg.x0 < pieces.x0 ? seg.x0 : pieces.x0, seg.y0 < pieces.y0 ? seg.y0 : pieces.y0,
                            seg.x1 > pieces.x1 ? seg.x1 : pieces.x1, seg.y1 > pieces.y1 ? seg.y1 : pieces.y1};
                // The part of the piece inside the rectangle (Liang-Barsky), into the cell's box.
                double t0 = 0.0, t1 = 1.0;
                const P d = p1 - p0;
                const double lo[2] = {rx0, ry0}, hi[2] = {rx1, ry1}, o[2] = {p0.x, p0.y}, v[2] = {d.x, d.y};
                for (int axis = 0; axis < 2 && t0 <= t1; ++axis) {
                    if (v[axis] == 0.0) {
                        if (o[axis] < lo[axis] || o[axis] > hi[axis]) t0 = 2.0;
                        continue;
                    }
                    double ta = (lo[axis] - o[axis]) / v[axis], tb = (hi[axis] - o[axis]) / v[axis];
                    if (ta > tb) std::swap(ta, tb);
                    t0 = maxOf(t0, ta), t1 = minOf(t1, tb);
                }
                if (t0 > t1) continue;
                const P q0 = t0 == 0.0 ? p0 : p0 + d * t0, q1 = t1 == 1.0 ? p1 : p0 + d * t1;
                bx0 = minOf(bx0, minOf(q0.x, q1.x)), by0 = minOf(by0, minOf(q0.y, q1.y));
                bx1 = maxOf(bx1, maxOf(q0.x, q1.x)), by1 = maxOf(by1, maxOf(q0.y, q1.y));
            }
            s->wall_cell_pieces[first_cell + c] = pieces;
            s->wall_cell_box[first_cell + c] =
                bx0 <= bx1 ? CellBox{floatBelow(bx0), floatBelow(by0), floatAbove(bx1), floatAbove(by1)}
                           : CellBox{float(kInf), float(kInf), -float(kInf), -float(kInf)};
        }
        solid[cells] = solid_base;
        const uint32_t bit_words = g.ny * rowWords(g);
        uint32_t* bits = solid + cells + 1;
        std::memset(bits, 0, bit_words * sizeof(uint32_t));
        for (uint32_t c = 0; c < cells; ++c)
            if (solid[c + 1] > solid[c])
                bits[(c / g.nx) * rowWords(g) + (c % g.nx) / 32] |= 1u << (c % g.nx % 32);
        // The other arrays' entries there are never read.
        std::memset(start + cells + 1, 0, bit_words * sizeof(uint32_t));
        std::memset(s->wall_cell_box + first_cell + cells + 1, 0, bit_words * sizeof(CellBox));
        std::memset(s->wall_cell_pieces + first_cell + cells + 1, 0, bit_words * sizeof(CellBox));
        std::memset(s->wall_centre_inside + first_cell + cells, kCentreUnknown, 1 + bit_words);
        first_cell += cells + 1 + bit_words;
    }
    s->wall_piece_count = first_piece;
}

} // namespace detail
} // namespace clearway
