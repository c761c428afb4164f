// Footprint stage 2: blockers per walkable triangle T, the parts of proj(T) where geometry lies
// in the clearance slab above T (walkable covers clipped exactly, obstacles inflated walls).
#include "footprint/footprint_internal.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

namespace clearway::bake::footprint_internal {

namespace {

// The kernel's lazy exact numbers: interval arithmetic decides the signs below and the exact
// values (GMP rationals) are computed only where intervals cannot, so covers cost doubles unless
// degenerate.
using LazyFT = FT;

struct ExactPlane {
    LazyFT a, b, c;
};

ExactPlane exactPlaneOf(const Tri& t) {
    const LazyFT x0 = t.p[0].x, y0 = t.p[0].y, z0 = t.p[0].z;
    const LazyFT x1 = LazyFT(t.p[1].x) - x0, y1 = LazyFT(t.p[1].y) - y0, z1 = LazyFT(t.p[1].z) - z0;
    const LazyFT x2 = LazyFT(t.p[2].x) - x0, y2 = LazyFT(t.p[2].y) - y0, z2 = LazyFT(t.p[2].z) - z0;
    const LazyFT det = x1 * y2 - x2 * y1;
    ExactPlane plane;
    plane.a = (z1 * y2 - z2 * y1) / det;
    plane.b = (x1 * z2 - x2 * z1) / det;
    plane.c = z0 - plane.a * x0 - plane.b * y0;
    return plane;
}

std::vector<Point> clipHalfPlane(const std::vector<Point>& poly, const LazyFT& a, const LazyFT& b, const LazyFT& c) {
    // Keeps a*x + b*y + c >= 0 of a convex polygon.
    std::vector<Point> out;
    const size_t n = poly.size();
    for (size_t i = 0; i < n; ++i) {
        const Point& p = poly[i];
        const Point& q = poly[(i + 1) % n];
        const LazyFT fp = a * p.x() + b * p.y() + c;
        const LazyFT fq = a * q.x() + b * q.y() + c;
        const CGAL::Sign sp = CGAL::sign(fp), sq = CGAL::sign(fq);
        if (sp != CGAL::NEGATIVE) out.push_back(p);
        if ((sp == CGAL::POSITIVE && sq == CGAL::NEGATIVE) || (sp == CGAL::NEGATIVE && sq == CGAL::POSITIVE)) {
            const LazyFT t = fp / (fp - fq);
            out.emplace_back(p.x() + t * (q.x() - p.x()), p.y() + t * (q.y() - p.y()));
        }
    }
    return out;
}

// Inside-left half-planes of a CCW convex polygon's edges.
std::vector<Point> clipToConvex(std::vector<Point> poly, const std::vector<Point>& convex) {
    for (size_t i = 0; i < convex.size() && poly.size() >= 3; ++i) {
        const Point& p = convex[i];
        const Point& q = convex[(i + 1) % convex.size()];
        // left of p->q: (q-p) x (r-p) >= 0  <=>  -(qy-py) x + (qx-px) y + ... >= 0
        const LazyFT a = -(q.y() - p.y());
        const LazyFT b = q.x() - p.x();
        const LazyFT c = -(a * p.x() + b * p.y());
        poly = clipHalfPlane(poly, a, b, c);
    }
    return poly;
}

bool hasArea(const std::vector<Point>& poly) {
    if (poly.size() < 3) return false;
    for (size_t i = 2; i < poly.size(); ++i)
        if (CGAL::orientation(poly[0], poly[i - 1], poly[i]) != CGAL::COLLINEAR) return true;
    return false;
}

// Whether the ground projections of two mesh triangles share interior, on their double
// coordinates. Cheap, so the exact clipping below runs only where an overlap with area is
// possible: on a terrain every neighbour sharing an edge would otherwise cost an exact (GMP)
// degeneracy test of a zero-area clip.
bool projectionsOverlap(const Tri& a, const Tri& b) {
    using Ik = CGAL::Exact_predicates_inexact_constructions_kernel;
    auto ground = [](const Tri& t) {
        return std::array<Ik::Point_2, 3>{Ik::Point_2(t.p[0].x, t.p[0].y), Ik::Point_2(t.p[1].x, t.p[1].y),
                                          Ik::Point_2(t.p[2].x, t.p[2].y)};
    };
    return interiorsOverlap(ground(a), ground(b));
}

// Whether G's height over T stays outside (kCoverGap, agent_height) by a wide margin wherever
// their ground projections overlap, in doubles: the height difference is linear, so over the
// overlap it lies between its values at the overlap's corners. The margin is far above the
// rounding of those corners and planes, so the exact clipping below would keep no area either.
// Most stacked floors are decided here (one storey apart, or G below T) without GMP.
bool surelyOutsideSlab(const Tri& t, const Plane& pt, const Tri& g, const Plane& pg, const ImportOptions& o) {
    const Vec2 a[3] = {{t.p[0].x, t.p[0].y}, {t.p[1].x, t.p[1].y}, {t.p[2].x, t.p[2].y}};
    const Vec2 b[3] = {{g.p[0].x, g.p[0].y}, {g.p[1].x, g.p[1].y}, {g.p[2].x, g.p[2].y}};
    const ClippedTriangle overlap = clippedOverlap(a, b);
    if (overlap.n < 3) return false; // a sliver the doubles lose: the exact test decides
    constexpr double kMargin = 1e-6;
    double lowest = INFINITY, highest = -INFINITY;
    for (uint32_t k = 0; k < overlap.n; ++k) {
        const double d = pg.at(overlap.p[k].x, overlap.p[k].y) - pt.at(overlap.p[k].x, overlap.p[k].y);
        lowest = std::min(lowest, d), highest = std::max(highest, d);
    }
    return highest < kCoverGap - kMargin || lowest > o.agent_height + kMargin;
}

// Covering by a walkable surface G above T within (kCoverGap, agent_height): exact.
bool coverBlocker(const Tri& t, const Plane& t_plane, const Tri& g, const Plane& g_plane, const ImportOptions& o,
                  Polygon* out) {
    if (!projectionsOverlap(t, g) || surelyOutsideSlab(t, t_plane, g, g_plane, o)) return false;

    std::vector<Point> poly = clipToConvex(projectedCcw<Point>(t), projectedCcw<Point>(g));
    if (!hasArea(poly)) return false;
    const ExactPlane pt = exactPlaneOf(t), pg = exactPlaneOf(g);
    const LazyFT a = pg.a - pt.a, b = pg.b - pt.b, c = pg.c - pt.c; // d(p) = height of G over T
    poly = clipHalfPlane(poly, a, b, c - LazyFT(kCoverGap));
    if (!hasArea(poly)) return false;
    poly = clipHalfPlane(poly, -a, -b, LazyFT(o.agent_height) - c);
    if (!hasArea(poly)) return false;
    *out = makePolygon(std::move(poly));
    return out->size() >= 3;
}

// Convex hull (Andrew's monotone chain) of 2D double points, CCW.
std::vector<Vec2> convexHull(std::vector<Vec2> pts) {
    std::sort(pts.begin(), pts.end(),
              [](const Vec2& a, const Vec2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    if (pts.size() < 3) return pts;
    auto cross = [](const Vec2& o, const Vec2& a, const Vec2& b) {
        return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    };
    std::vector<Vec2> hull(2 * pts.size());
    size_t k = 0;
    for (size_t i = 0; i < pts.size(); ++i) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0)
            --k;
        hull[k++] = pts[i];
    }
    for (size_t i = pts.size() - 1, t = k + 1; i > 0; --i) {
        while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i - 1]) <= 0)
            --k;
        hull[k++] = pts[i - 1];
    }
    hull.resize(k - 1);
    return hull;
}

// An obstacle G blocks T where G enters the slab (step, height) above T's plane, inside T's
// vertical prism. Computed in doubles, then inflated by kWallHalfWidth (vertical walls project
// to segments).
bool obstacleBlocker(const Tri& t, const Plane& pt, const Tri& g, const ImportOptions& o, Polygon* out) {
    // G's height over T's plane is linear on G, so every point the clips below keep lies between
    // its corners' heights (give or take rounding, far below the margin): G wholly under the step
    // or above the agent keeps nothing. Most of a storey's walls seen from the storey above.
    constexpr double kMargin = 1e-9;
    double lowest = INFINITY, highest = -INFINITY;
    for (const Vec3& r : g.p) {
        const double h = r.z - pt.at(r.x, r.y);
        lowest = std::min(lowest, h), highest = std::max(highest, h);
    }
    if (highest < o.max_step - kMargin || lowest > o.agent_height + kMargin) return false;
    std::vector<Vec3> poly{g.p[0], g.p[1], g.p[2]};
    // T's prism, with its projection made CCW.
    Vec3 a = t.p[0], b = t.p[1], c = t.p[2];
    if ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) < 0) std::swap(b, c);
    const Vec3 corners[3] = {a, b, c};
    for (int i = 0; i < 3 && !poly.empty(); ++i) {
        const Vec3 p = corners[i], q = corners[(i + 1) % 3];
        const double len = std::hypot(q.x - p.x, q.y - p.y);
        // Signed distance to the edge line, with the inflation as slack so a wall standing on
        // T's edge still bites into T.
        clipToSide(poly, [&](const Vec3& r) {
            return ((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)) / len + kWallHalfWidth;
        });
    }
    if (poly.empty()) return false;
    clipToSide(poly, [&](const Vec3& r) { return r.z - pt.at(r.x, r.y) - o.max_step; });
    if (poly.empty()) return false;
    clipToSide(poly, [&](const Vec3& r) { return o.agent_height - (r.z - pt.at(r.x, r.y)); });
    if (poly.empty()) return false;
    std::vector<Vec2> pts;
    for (const Vec3& r : poly)
        for (int sx = -1; sx <= 1; sx += 2)
            for (int sy = -1; sy <= 1; sy += 2)
                pts.push_back({r.x + sx * kWallHalfWidth, r.y + sy * kWallHalfWidth});
    const std::vector<Vec2> hull = convexHull(std::move(pts));
    if (hull.size() < 3) return false;
    Polygon polygon;
    for (const Vec2& v : hull)
        polygon.push_back(Point(v.x, v.y));
    *out = polygon;
    return true;
}

} // namespace

std::vector<Polygon> blockersOf(uint32_t ti, const ClassifiedMesh& mesh, const Grid& tri_grid,
                                const ImportOptions& options) {
    const std::vector<Tri>& tris = mesh.tris;
    const Tri& t = tris[ti];
    thread_local std::vector<uint32_t> near; // one per thread: a fine level asks millions of times
    tri_grid.query(t.min[0], t.min[1], t.max[0], t.max[1], near);
    std::vector<Polygon> blockers;
    for (uint32_t gi : near) {
        if (gi == ti) continue;
        const Tri& g = tris[gi];
        if (g.max[0] <= t.min[0] - kWallHalfWidth || g.min[0] >= t.max[0] + kWallHalfWidth ||
            g.max[1] <= t.min[1] - kWallHalfWidth || g.min[1] >= t.max[1] + kWallHalfWidth)
            continue;
        if (g.max[2] <= t.min[2] || g.min[2] >= t.max[2] + options.agent_height) continue;
        Polygon blocker;
        const bool blocks = g.walkable ? coverBlocker(t, mesh.planes[ti], g, mesh.planes[gi], options, &blocker)
                                       : obstacleBlocker(t, mesh.planes[ti], g, options, &blocker);
        if (blocks) blockers.push_back(std::move(blocker));
    }
    return blockers;
}

} // namespace clearway::bake::footprint_internal
