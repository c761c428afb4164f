// The footprint stage's polygon booleans on snap-rounded integer coordinates (Clipper, Vatti's
// sweep; integer_booleans.cpp). CGAL polygons in and out: Clipper stays inside the .cpp file.
#pragma once

#include "footprint/footprint_internal.h"

namespace clearway::bake::footprint_internal {

// The integer grid: 2^-20 m in the level's local frame. The output grid is never finer than
// 2^-14 m (worldGridSpacing), so this is at least 64 times finer than where walls end up.
constexpr double kIntegerUnit = 1.0 / (1 << 20);

// A triangle's projection (a non-degenerate triangle) minus the union of `blockers` (convex
// polygons): the components, each vertex on the integer grid, a few grid units inside the exact
// difference (see kPieceInset), outer rings counter-clockwise and holes clockwise, in canonical
// order (integerUnionMinus).
std::vector<PolygonWH> integerDifference(const Polygon& triangle, const std::vector<Polygon>& blockers);

// How far the integer booleans move a wall at most: a piece's inset and its rounding.
constexpr double kIntegerWallShift = 8 * kIntegerUnit;

// The union of `polys` (outer rings counter-clockwise, holes clockwise) and `triangles` minus the
// union of `cuts` (any orientation). The triangles (whole pieces, most of a level) are first
// joined over their shared edges in linear time (triangleUnionRings), so the sweep sees their
// union's few boundary rings instead of every triangle. Cracks narrower than a few grid units
// between the polygons (where rounding moved one piece's crossing off the edge it shares with its
// neighbour) are closed. Canonical: every ring starts at its lexicographically smallest vertex,
// holes and polygons are sorted by their first vertices.
std::vector<PolygonWH> integerUnionMinus(const std::vector<PolygonWH>& polys,
                                         const std::vector<GroundTriangle>& triangles,
                                         const std::vector<std::vector<Vec2>>& cuts);

// Regions as plain integer rings (for callers that chain several booleans, as the erosion
// measure does): regions counter-clockwise, holes clockwise, on the kIntegerUnit grid.
struct IntegerPoint {
    int64_t x, y;
};
using IntegerRing = std::vector<IntegerPoint>;
using IntegerRegion = std::vector<IntegerRing>;

IntegerPoint toIntegerPoint(double x, double y);
Vec2 fromIntegerPoint(const IntegerPoint& p);
// The region the rings enclose under the even-odd rule (a ring's pinched cycles, its holes).
IntegerRegion integerEvenOdd(const IntegerRegion& rings);
// The union of regions given by counter-clockwise rings (holes clockwise).
IntegerRegion integerUnion(const IntegerRegion& rings);
// `a` minus `b`, both oriented regions.
IntegerRegion integerMinus(const IntegerRegion& a, const IntegerRegion& b);
// Area in square metres (holes count negative).
double integerArea(const IntegerRegion& region);

} // namespace clearway::bake::footprint_internal
