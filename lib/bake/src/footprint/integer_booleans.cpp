// Integer polygon booleans for the footprint stage: Clipper (Angus Johnson, Clipper 6.4.2), an
// implementation of Vatti's sweep (B. R. Vatti, "A generic solution to polygon clipping", 1992),
// on coordinates rounded to the kIntegerUnit grid; exact integer arithmetic inside the sweep.
#include "footprint/integer_booleans.h"

#include <polyclipping/clipper.hpp>

#include <stdexcept>

namespace clearway::bake::footprint_internal {

namespace {

using ClipperLib::IntPoint;
using ClipperLib::Path;
using ClipperLib::Paths;

constexpr double kScale = 1.0 / kIntegerUnit;
// Grid coordinates stay below 2^52: far inside Clipper's range, and exact as doubles on the way
// back (4e9 m at 2^-20 m; the output grid check stops levels long before that).
constexpr double kMaxUnits = 4503599627370496.0;
// Cut pieces keep this far (in grid units) inside their exact region: blockers grow by a square of
// this half-width and the triangle shrinks by it. Rounding moves a vertex by at most 0.71 units
// (the input's and the sweep's new crossings), so a cut piece stays strictly inside its exact
// region, and pieces that touch exactly (a floor and the balcony above its hole) never overlap.
constexpr double kPieceInset = 3.0;
// Closing distance for the seams, in grid units: neighbouring pieces, each inset by up to
// kPieceInset plus rounding, leave cracks narrower than 11 units between them.
constexpr double kCrackClosing = 6.0;

ClipperLib::cInt toUnits(double v) {
    const double scaled = std::round(v * kScale);
    if (!(std::abs(scaled) < kMaxUnits))
        throw std::range_error("footprint coordinate beyond the integer booleans' range");
    return static_cast<ClipperLib::cInt>(scaled);
}

double fromUnits(ClipperLib::cInt v) {
    return static_cast<double>(v) * kIntegerUnit;
}

bool lessPoint(const IntPoint& a, const IntPoint& b) {
    return a.X != b.X ? a.X < b.X : a.Y < b.Y;
}

Path toPath(const Polygon& ring) {
    Path path;
    path.reserve(ring.size());
    for (auto v = ring.vertices_begin(); v != ring.vertices_end(); ++v)
        path.emplace_back(toUnits(CGAL::to_double(v->x())), toUnits(CGAL::to_double(v->y())));
    return path;
}

Path toPath(const std::vector<Vec2>& ring) {
    Path path;
    path.reserve(ring.size());
    for (const Vec2& v : ring)
        path.emplace_back(toUnits(v.x), toUnits(v.y));
    return path;
}

// Adds a ring as a region of the union (counter-clockwise), reversing a clockwise one.
void addCounterClockwise(Path path, ClipperLib::PolyType type, ClipperLib::Clipper& clipper) {
    if (!ClipperLib::Orientation(path)) ClipperLib::ReversePath(path);
    clipper.AddPath(path, type, true);
}

__int128 cross(const IntPoint& o, const IntPoint& a, const IntPoint& b) {
    return static_cast<__int128>(a.X - o.X) * (b.Y - o.Y) - static_cast<__int128>(a.Y - o.Y) * (b.X - o.X);
}

// A convex polygon grown by a square of half-width kPieceInset: the convex hull of the squares
// round its rounded vertices (Andrew's monotone chain, exact on integers), counter-clockwise.
Path grownConvex(const Path& convex) {
    const auto d = static_cast<ClipperLib::cInt>(kPieceInset);
    std::vector<IntPoint> points;
    for (const IntPoint& p : convex)
        for (const IntPoint& corner : {IntPoint(p.X - d, p.Y - d), IntPoint(p.X + d, p.Y - d),
                                       IntPoint(p.X + d, p.Y + d), IntPoint(p.X - d, p.Y + d)})
            points.push_back(corner);
    std::sort(points.begin(), points.end(), lessPoint);
    points.erase(std::unique(points.begin(), points.end()), points.end());
    Path hull(2 * points.size());
    size_t k = 0;
    for (size_t i = 0; i < points.size(); ++i) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0)
            --k;
        hull[k++] = points[i];
    }
    for (size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0)
            --k;
        hull[k++] = points[i];
    }
    hull.resize(k - 1);
    return hull;
}

// The triangle shrunk by kPieceInset units (a homothety about its incentre), rounded; nothing
// when it is thinner than that.
Path insetTriangle(const Polygon& triangle) {
    Vec2 v[3];
    for (int i = 0; i < 3; ++i)
        v[i] = {CGAL::to_double(triangle[i].x()) * kScale, CGAL::to_double(triangle[i].y()) * kScale};
    double side[3], perimeter = 0;
    for (int i = 0; i < 3; ++i)
        perimeter += side[i] = std::hypot(v[(i + 2) % 3].x - v[(i + 1) % 3].x, v[(i + 2) % 3].y - v[(i + 1) % 3].y);
    const double twice_area =
        std::abs((v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x));
    const double inradius = twice_area / perimeter;
    if (!(inradius > kPieceInset)) return {};
    const double scale = (inradius - kPieceInset) / inradius;
    const Vec2 centre{(side[0] * v[0].x + side[1] * v[1].x + side[2] * v[2].x) / perimeter,
                      (side[0] * v[0].y + side[1] * v[1].y + side[2] * v[2].y) / perimeter};
    Path path;
    for (const Vec2& p : v)
        path.emplace_back(toUnits((centre.x + (p.x - centre.x) * scale) * kIntegerUnit),
                          toUnits((centre.y + (p.y - centre.y) * scale) * kIntegerUnit));
    return path;
}

// Adds a ring with the orientation it had before rounding (`positive`: counter-clockwise). A
// sliver whose rounding turned it over encloses less than a unit's width; under the non-zero rule
// it would cancel its neighbour there, so it is left out.
void addKeepingOrientation(const Path& path, bool positive, Paths& out) {
    if (ClipperLib::Orientation(path) == positive && std::abs(ClipperLib::Area(path)) > 0) out.push_back(path);
}

// Starts the ring at its smallest vertex.
void rotateToSmallest(Path& ring) {
    std::rotate(ring.begin(), std::min_element(ring.begin(), ring.end(), lessPoint), ring.end());
}

struct IntPolygon {
    Path outer;
    Paths holes;
};

// An outer node of the tree with its holes, then the islands inside those holes.
void collectPolygons(const ClipperLib::PolyNode& outer, std::vector<IntPolygon>& out) {
    IntPolygon polygon{outer.Contour, {}};
    for (const ClipperLib::PolyNode* hole : outer.Childs) {
        polygon.holes.push_back(hole->Contour);
        for (const ClipperLib::PolyNode* island : hole->Childs)
            collectPolygons(*island, out);
    }
    out.push_back(std::move(polygon));
}

Polygon toPolygon(const Path& ring) {
    std::vector<Point> points;
    points.reserve(ring.size());
    for (const IntPoint& p : ring)
        points.emplace_back(fromUnits(p.X), fromUnits(p.Y));
    return Polygon(points.begin(), points.end());
}

// The tree's polygons in canonical order, as CGAL polygons. Clipper gives outer rings positive
// (counter-clockwise) and holes negative orientation, as CGAL wants them.
std::vector<PolygonWH> canonicalPolygons(const ClipperLib::PolyTree& tree) {
    std::vector<IntPolygon> polygons;
    for (const ClipperLib::PolyNode* outer : tree.Childs)
        collectPolygons(*outer, polygons);
    for (IntPolygon& p : polygons) {
        rotateToSmallest(p.outer);
        for (Path& h : p.holes)
            rotateToSmallest(h);
        std::sort(p.holes.begin(), p.holes.end(),
                  [](const Path& a, const Path& b) { return lessPoint(a[0], b[0]); });
    }
    std::sort(polygons.begin(), polygons.end(),
              [](const IntPolygon& a, const IntPolygon& b) { return lessPoint(a.outer[0], b.outer[0]); });
    std::vector<PolygonWH> out;
    out.reserve(polygons.size());
    for (const IntPolygon& p : polygons) {
        std::vector<Polygon> holes;
        for (const Path& h : p.holes)
            holes.push_back(toPolygon(h));
        out.emplace_back(toPolygon(p.outer), holes.begin(), holes.end());
    }
    return out;
}

// Morphological closing (grow, then shrink by the same distance) of an oriented region.
Paths closeCracks(const Paths& region) {
    Paths grown, closed;
    ClipperLib::ClipperOffset grow;
    grow.AddPaths(region, ClipperLib::jtMiter, ClipperLib::etClosedPolygon);
    grow.Execute(grown, kCrackClosing);
    ClipperLib::ClipperOffset shrink;
    shrink.AddPaths(grown, ClipperLib::jtMiter, ClipperLib::etClosedPolygon);
    shrink.Execute(closed, -kCrackClosing);
    return closed;
}

} // namespace

std::vector<PolygonWH> integerDifference(const Polygon& triangle, const std::vector<Polygon>& blockers) {
    const Path base = insetTriangle(triangle);
    if (base.empty()) return {};
    ClipperLib::Clipper clipper;
    clipper.StrictlySimple(true);
    addCounterClockwise(base, ClipperLib::ptSubject, clipper);
    for (const Polygon& blocker : blockers)
        clipper.AddPath(grownConvex(toPath(blocker)), ClipperLib::ptClip, true);
    ClipperLib::PolyTree tree;
    clipper.Execute(ClipperLib::ctDifference, tree, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
    return canonicalPolygons(tree);
}

std::vector<PolygonWH> integerUnionMinus(const std::vector<PolygonWH>& polys,
                                         const std::vector<std::vector<Vec2>>& cuts) {
    Paths rings;
    for (const PolygonWH& p : polys) {
        addKeepingOrientation(toPath(p.outer_boundary()), true, rings);
        for (auto h = p.holes_begin(); h != p.holes_end(); ++h)
            addKeepingOrientation(toPath(*h), false, rings);
    }
    ClipperLib::Clipper join;
    join.AddPaths(rings, ClipperLib::ptSubject, true);
    Paths joined;
    join.Execute(ClipperLib::ctUnion, joined, ClipperLib::pftNonZero, ClipperLib::pftNonZero);

    ClipperLib::Clipper cut;
    cut.StrictlySimple(true);
    cut.AddPaths(closeCracks(joined), ClipperLib::ptSubject, true);
    for (const std::vector<Vec2>& c : cuts)
        addCounterClockwise(toPath(c), ClipperLib::ptClip, cut);
    ClipperLib::PolyTree tree;
    cut.Execute(ClipperLib::ctDifference, tree, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
    return canonicalPolygons(tree);
}

} // namespace clearway::bake::footprint_internal
