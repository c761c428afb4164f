// Footprint stage 5, the layer's surface: whole pieces lying flat at one height (a floor exported
// as thousands of small triangles) become one triangulation of their union, over their corners.
#include "footprint/footprint_internal.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <cstring>
#include <unordered_map>

namespace clearway::bake::footprint_internal {

namespace {

using IkPoint = CGAL::Exact_predicates_inexact_constructions_kernel::Point_2;

// Corners welded by exact position.
struct CornerHash {
    size_t operator()(const Vec2& p) const {
        uint64_t x = 0, y = 0;
        const double px = p.x + 0.0, py = p.y + 0.0; // -0 and +0: one corner
        std::memcpy(&x, &px, sizeof x);
        std::memcpy(&y, &py, sizeof y);
        const uint64_t h = (x * 0x9E3779B97F4A7C15ull) ^ (y + 0x7F4A7C159E3779B9ull + (x << 6) + (x >> 2));
        return size_t(h ^ (h >> 29));
    }
};
struct CornerEqual {
    bool operator()(const Vec2& a, const Vec2& b) const { return a.x == b.x && a.y == b.y; }
};

// The triangles' boundary: directed edges that no other triangle runs the other way (an edge two
// triangles share is interior), as the one edge out of each boundary corner. False when the
// boundary is not a set of corner-disjoint cycles (an edge twice, two boundary edges leaving one
// corner: triangles overlapping or meeting at a corner only), where this does not coalesce.
bool boundaryCycles(const std::vector<GroundTriangle>& triangles, std::vector<Vec2>* corners,
                    std::unordered_map<uint32_t, uint32_t>* next) {
    std::unordered_map<Vec2, uint32_t, CornerHash, CornerEqual> corner_of;
    std::unordered_map<uint64_t, int32_t> count; // from << 32 | to -> uses minus reversed uses
    corner_of.reserve(triangles.size());
    count.reserve(triangles.size() * 3);
    auto cornerId = [&](const Vec2& p) {
        auto [it, inserted] = corner_of.emplace(p, uint32_t(corners->size()));
        if (inserted) corners->push_back(p);
        return uint64_t(it->second);
    };
    for (const GroundTriangle& t : triangles) {
        const uint64_t id[3] = {cornerId(t[0]), cornerId(t[1]), cornerId(t[2])};
        for (int k = 0; k < 3; ++k) {
            const uint64_t a = id[k], b = id[(k + 1) % 3];
            auto reverse = count.find(b << 32 | a);
            if (reverse != count.end() && reverse->second > 0)
                --reverse->second;
            else
                ++count[a << 32 | b];
        }
    }
    for (const auto& [edge, uses] : count) {
        if (uses == 0) continue;
        if (uses != 1 || !next->emplace(uint32_t(edge >> 32), uint32_t(edge)).second) return false;
    }
    return true;
}

// Whether b lies on the straight line from a on to c, strictly between them: an exact
// orientation, and for collinear points the signs of the rounded differences are exact.
bool straightThrough(const Vec2& a, const Vec2& b, const Vec2& c) {
    if (CGAL::orientation(IkPoint(a.x, a.y), IkPoint(b.x, b.y), IkPoint(c.x, c.y)) != CGAL::COLLINEAR)
        return false;
    return (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) > 0;
}

// The cycles as rings without their straight-through corners (a flat grid's seams); rings that
// fold onto a line (a T-junction inside the patch) are dropped.
std::vector<std::vector<Vec2>> straightRings(const std::vector<Vec2>& corners,
                                             std::unordered_map<uint32_t, uint32_t>& next) {
    std::vector<uint32_t> starts;
    for (const auto& entry : next)
        starts.push_back(entry.first);
    std::sort(starts.begin(), starts.end()); // a fixed order, whatever the hash
    std::vector<std::vector<Vec2>> rings;
    for (uint32_t start : starts) {
        std::vector<Vec2> ring;
        for (uint32_t at = start;;) {
            const auto it = next.find(at);
            if (it == next.end()) break;
            ring.push_back(corners[at]);
            at = it->second;
            next.erase(it);
            if (at == start) break;
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
    std::unordered_map<uint32_t, uint32_t> next;
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
