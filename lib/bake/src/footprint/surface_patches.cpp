// Footprint stage 5, the layer's surface: whole pieces lying flat at one height (a floor exported
// as thousands of small triangles) become one triangulation of their union, over their corners.
#include "footprint/footprint_internal.h"

#include "core/flat_table.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <cstring>

namespace clearway::bake::footprint_internal {

namespace {

using IkPoint = CGAL::Exact_predicates_inexact_constructions_kernel::Point_2;

constexpr uint32_t kNoCorner = UINT32_MAX;

// Corners welded by exact position: the bits of their coordinates (-0 made +0).
using CornerKey = std::pair<uint64_t, uint64_t>;
CornerKey cornerKey(const Vec2& p) {
    CornerKey key;
    const double x = p.x + 0.0, y = p.y + 0.0;
    std::memcpy(&key.first, &x, sizeof x);
    std::memcpy(&key.second, &y, sizeof y);
    return key;
}
struct CornerHash {
    uint64_t operator()(const CornerKey& k) const {
        return mixBits(k.first * 0x9E3779B97F4A7C15ull ^ k.second);
    }
};
struct EdgeHash {
    uint64_t operator()(uint64_t edge) const { return mixBits(edge); }
};

// The triangles' boundary: directed edges that no other triangle runs the other way (an edge two
// triangles share is interior), as the one edge out of each boundary corner (`next`, kNoCorner
// for the others). False when the boundary is not a set of corner-disjoint cycles (an edge twice,
// two boundary edges leaving one corner: triangles overlapping or meeting at a corner only),
// where this does not coalesce.
bool boundaryCycles(const std::vector<GroundTriangle>& triangles, std::vector<Vec2>* corners,
                    std::vector<uint32_t>* next) {
    FlatTable<CornerKey, uint32_t, CornerHash> corner_of(triangles.size());
    FlatTable<uint64_t, int32_t, EdgeHash> count(triangles.size() * 2); // uses minus reversed uses
    auto cornerId = [&](const Vec2& p) {
        bool inserted = false;
        const uint32_t id = corner_of.emplace(cornerKey(p), uint32_t(corners->size()), &inserted);
        if (inserted) corners->push_back(p);
        return uint64_t(id);
    };
    for (const GroundTriangle& t : triangles) {
        const uint64_t id[3] = {cornerId(t[0]), cornerId(t[1]), cornerId(t[2])};
        for (int k = 0; k < 3; ++k) {
            const uint64_t a = id[k], b = id[(k + 1) % 3];
            int32_t* reverse = count.find(b << 32 | a);
            bool inserted = false;
            if (reverse && *reverse > 0)
                --*reverse;
            else
                ++count.emplace(a << 32 | b, 0, &inserted);
        }
    }
    next->assign(corners->size(), kNoCorner);
    bool cycles = true;
    count.forEach([&](uint64_t edge, int32_t uses) {
        if (uses == 0) return;
        uint32_t& out = (*next)[uint32_t(edge >> 32)];
        cycles = cycles && uses == 1 && out == kNoCorner;
        out = uint32_t(edge);
    });
    return cycles;
}

// Whether b lies on the straight line from a on to c, strictly between them: an exact
// orientation, and for collinear points the signs of the rounded differences are exact.
bool straightThrough(const Vec2& a, const Vec2& b, const Vec2& c) {
    if (CGAL::orientation(IkPoint(a.x, a.y), IkPoint(b.x, b.y), IkPoint(c.x, c.y)) != CGAL::COLLINEAR)
        return false;
    return (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) > 0;
}

// The cycles as rings without their straight-through corners (a flat grid's seams), from the
// lowest corner of each; rings that fold onto a line (a T-junction inside the patch) are dropped.
std::vector<std::vector<Vec2>> straightRings(const std::vector<Vec2>& corners, std::vector<uint32_t>& next) {
    std::vector<std::vector<Vec2>> rings;
    for (uint32_t start = 0; start < next.size(); ++start) {
        std::vector<Vec2> ring;
        for (uint32_t at = start; next[at] != kNoCorner;) {
            ring.push_back(corners[at]);
            const uint32_t to = next[at];
            next[at] = kNoCorner;
            at = to;
        }
        std::vector<Vec2> kept;
        for (const Vec2& p : ring) {
            while (kept.size() >= 2 && straightThrough(kept[kept.size() - 2], kept.back(), p))
                kept.pop_back();
            kept.push_back(p);
        }
        while (kept.size() >= 3 && straightThrough(kept[kept.size() - 2], kept.back(), kept.front()))
            kept.pop_back();
        while (kept.size() >= 3 && straightThrough(kept.back(), kept.front(), kept[1]))
            kept.erase(kept.begin());
        if (kept.size() >= 3) rings.push_back(std::move(kept));
    }
    return rings;
}

double area(const Triangle2& t) {
    return std::abs(triangleArea(t));
}

} // namespace

std::vector<Triangle2> flatPatchSurface(const std::vector<GroundTriangle>& triangles) {
    if (triangles.size() < 3) return {};
    std::vector<Vec2> corners;
    std::vector<uint32_t> next;
    if (!boundaryCycles(triangles, &corners, &next)) return {};
    const std::vector<Triangle2> surface = triangulateRings(straightRings(corners, next));
    if (surface.empty() || surface.size() >= triangles.size()) return {};
    // The same area as the triangles (up to rounding): a check that the rings bound their union.
    double before = 0, after = 0;
    for (const GroundTriangle& t : triangles)
        before += area(Triangle2{{t[0], t[1], t[2]}});
    for (const Triangle2& t : surface)
        after += area(t);
    if (!(std::abs(after - before) <= 1e-9 * before)) return {};
    return surface;
}

} // namespace clearway::bake::footprint_internal
