// Exact walkable footprint of a triangle mesh.
//
// Stages (each a function over plain structs):
//  1. classify triangles: walkable (up-facing, slope <= max) or obstacle (everything else);
//  2. per walkable triangle T, blockers: the parts of proj(T) where some geometry lies in the
//     clearance slab above T. A walkable surface above T within agent height covers T exactly
//     (exact arithmetic, so a box top and the floor around it share their edge exactly); an
//     obstacle blocks where it enters the slab (step, height), inflated by kWallHalfWidth so
//     that zero-thickness walls still separate the two sides;
//  3. free piece = proj(T) minus blockers; components enclosed by a closed solid (floor inside a
//     thick wall) are dropped;
//  4. pieces adjacent in the ground plane with a height jump <= max step are linked; pieces
//     whose projections overlap conflict; layers grow greedily over links without conflicts;
//  5. per layer: exact union, topology-preserving simplification within epsilon, rounding onto
//     a float-exact grid, and an exact check that no two boundary segments cross;
//  6. links between layers become connections (portals).
#include <clearway/bake.h>

#include <clearway/bake/geometry.h>
#include "core/parallel.h"

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Constrained_triangulation_2.h>
#include <CGAL/Constrained_triangulation_plus_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <CGAL/Arr_segment_traits_2.h>
#include <CGAL/General_polygon_set_2.h>
#include <CGAL/Gps_segment_traits_2.h>
#include <CGAL/Polygon_2.h>
#include <CGAL/Polygon_set_2.h>
#include <CGAL/Polygon_with_holes_2.h>
#include <CGAL/Polyline_simplification_2/simplify.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <chrono>
#include <cstdio>
#include <unordered_map>

namespace clearway::bake {

namespace {

using K = CGAL::Exact_predicates_exact_constructions_kernel;
using FT = K::FT;
using Point = K::Point_2;
using Polygon = CGAL::Polygon_2<K>;
using PolygonWH = CGAL::Polygon_with_holes_2<K>;

// Arrangement traits whose point comparisons settle equal coordinates without an exception. The
// overlay sweeps compare a curve's end with the vertex it came from, two handles of equal value;
// for a constructed point (a clip or an intersection) the interval filter cannot decide that
// equality, and CGAL's filtered predicate learns so from a thrown exception before comparing the
// exact values (dungeon: 83,000 throws, about a tenth of the import). Here: intervals first, exact
// values where they overlap; the same answers without the unwinding (3,800 throws left).
namespace exact_compare {
using Interval = CGAL::Interval_nt<false>;
// Sign of a - b, or 2 when the intervals cannot tell.
inline int sign(const Interval& a, const Interval& b) {
    if (a.sup() < b.inf()) return -1;
    if (a.inf() > b.sup()) return 1;
    if (a.inf() == a.sup() && b.inf() == b.sup()) return 0; // the same double
    return 2;
}
inline int x(const Point& p, const Point& q) {
    const int s = sign(CGAL::approx(p).x(), CGAL::approx(q).x());
    return s != 2 ? s : int(CGAL::compare(CGAL::exact(p).x(), CGAL::exact(q).x()));
}
inline int y(const Point& p, const Point& q) {
    const int s = sign(CGAL::approx(p).y(), CGAL::approx(q).y());
    return s != 2 ? s : int(CGAL::compare(CGAL::exact(p).y(), CGAL::exact(q).y()));
}
} // namespace exact_compare

struct ArrTraits : CGAL::Arr_segment_traits_2<K> {
    using Base = CGAL::Arr_segment_traits_2<K>;
    struct Equal_2 {
        Base::Equal_2 base;
        bool operator()(const Point& p, const Point& q) const {
            if (CGAL::identical(p, q)) return true;
            // Cheap disagreements first: a coordinate whose intervals are apart.
            const int sx = exact_compare::sign(CGAL::approx(p).x(), CGAL::approx(q).x());
            const int sy = exact_compare::sign(CGAL::approx(p).y(), CGAL::approx(q).y());
            if (sx == -1 || sx == 1 || sy == -1 || sy == 1) return false;
            return (sx == 0 || exact_compare::x(p, q) == 0) && (sy == 0 || exact_compare::y(p, q) == 0);
        }
        bool operator()(const X_monotone_curve_2& a, const X_monotone_curve_2& b) const {
            return (*this)(a.left(), b.left()) && (*this)(a.right(), b.right());
        }
    };
    Equal_2 equal_2_object() const { return {Base::equal_2_object()}; }
    struct Compare_xy_2 {
        CGAL::Comparison_result operator()(const Point& p, const Point& q) const {
            if (CGAL::identical(p, q)) return CGAL::EQUAL;
            const int sx = exact_compare::x(p, q);
            return CGAL::Comparison_result(sx != 0 ? sx : exact_compare::y(p, q));
        }
    };
    Compare_xy_2 compare_xy_2_object() const { return {}; }
    struct Compare_x_2 {
        CGAL::Comparison_result operator()(const Point& p, const Point& q) const {
            return CGAL::identical(p, q) ? CGAL::EQUAL : CGAL::Comparison_result(exact_compare::x(p, q));
        }
    };
    Compare_x_2 compare_x_2_object() const { return {}; }
};
using PolygonSet = CGAL::General_polygon_set_2<CGAL::Gps_segment_traits_2<K, std::vector<Point>, ArrTraits>>;

// Half the width given to a zero-thickness wall, and the inset a vertical wall makes. Well below
// any sensible epsilon; large enough to survive rounding onto the output grid.
constexpr double kWallHalfWidth = 5e-4;
// A walkable surface this far above another (or more) covers it; below that they are coplanar.
constexpr double kCoverGap = 1e-5;
// Ground-plane tolerance for "these two edges are the same edge" (float noise in meshes).
constexpr double kEdgeTolerance = 1e-4;
// Horizontal reach of the inside-a-solid test: solids wider than this keep their floor as islands.
// Heights from float meshes carry ~1e-7 relative noise; step comparisons allow this much.
constexpr double kHeightTolerance = 1e-5;
constexpr double kSolidProbeReach = 10.0;

struct Tri {
    Vec3 p[3];   // local coordinates
    Vec3 normal; // unnormalised, (p1-p0) x (p2-p0)
    double min[3], max[3];
    bool walkable = false;
};

// Height plane of a non-vertical triangle: z = a x + b y + c.
struct Plane {
    double a = 0, b = 0, c = 0;
    double at(double x, double y) const { return a * x + b * y + c; }
};

Plane planeOf(const Tri& t) {
    const Vec3& n = t.normal;
    Plane plane;
    plane.a = -n.x / n.z;
    plane.b = -n.y / n.z;
    plane.c = t.p[0].z - plane.a * t.p[0].x - plane.b * t.p[0].y;
    return plane;
}

// The exact kernel under Epeck's lazy one. A cover blocker is clipped in it directly: the lazy
// kernel would record every product and quotient of the clip as a node and, as the sweeps need
// almost every clipped corner exactly, evaluate them one by one later (a lock and an allocation
// per node). Same rationals, so the same blockers.
using EK = K::Exact_kernel;
using EFT = EK::FT;
using EPoint = EK::Point_2;

struct ExactPlane {
    EFT a, b, c;
};

ExactPlane exactPlaneOf(const Tri& t) {
    const EFT x0 = t.p[0].x, y0 = t.p[0].y, z0 = t.p[0].z;
    const EFT x1 = EFT(t.p[1].x) - x0, y1 = EFT(t.p[1].y) - y0, z1 = EFT(t.p[1].z) - z0;
    const EFT x2 = EFT(t.p[2].x) - x0, y2 = EFT(t.p[2].y) - y0, z2 = EFT(t.p[2].z) - z0;
    const EFT det = x1 * y2 - x2 * y1;
    ExactPlane plane;
    plane.a = (z1 * y2 - z2 * y1) / det;
    plane.b = (x1 * z2 - x2 * z1) / det;
    plane.c = z0 - plane.a * x0 - plane.b * y0;
    return plane;
}

// Uniform 2D bucket grid over bounding boxes.
class Grid {
  public:
    // Only an accelerator: cells grow (doubling) until at most kMaxCells cover the box, so a mesh
    // spanning kilometres with a fine cell cannot ask for billions of them (found by the importer
    // fuzzer); a box that is not finite gets one cell.
    Grid(double min_x, double min_y, double max_x, double max_y, double cell)
        : min_x_(min_x), min_y_(min_y), cell_(cell) {
        constexpr double kMaxCells = 1 << 20;
        const double w = max_x - min_x, h = max_y - min_y;
        if (!std::isfinite(w) || !std::isfinite(h) || !std::isfinite(cell) || !(cell > 0.0)) {
            cell_ = std::numeric_limits<double>::infinity();
            min_x_ = min_y_ = 0.0;
        } else {
            while ((std::ceil(w / cell_) + 1) * (std::ceil(h / cell_) + 1) > kMaxCells)
                cell_ *= 2;
            nx_ = std::max(1, static_cast<int>(std::ceil(w / cell_)) + 1);
            ny_ = std::max(1, static_cast<int>(std::ceil(h / cell_)) + 1);
        }
        cells_.resize(static_cast<size_t>(nx_) * ny_);
    }
    void insert(uint32_t id, double x0, double y0, double x1, double y1) {
        forCells(x0, y0, x1, y1, [&](size_t c) { cells_[c].push_back(id); });
    }
    // Ids whose boxes may overlap the query box, sorted and unique. Const: parallel bake tasks
    // query one grid at once.
    void query(double x0, double y0, double x1, double y1, std::vector<uint32_t>& out) const {
        out.clear();
        // One cell: its list is already sorted and unique (ids are inserted in increasing order).
        const int i0 = clampX(x0), j0 = clampY(y0);
        if (i0 == clampX(x1) && j0 == clampY(y1)) {
            const std::vector<uint32_t>& cell = cells_[static_cast<size_t>(j0) * nx_ + i0];
            out.assign(cell.begin(), cell.end());
            return;
        }
        forCells(x0, y0, x1, y1,
                 [&](size_t c) { out.insert(out.end(), cells_[c].begin(), cells_[c].end()); });
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }

  private:
    template <class F> void forCells(double x0, double y0, double x1, double y1, F&& f) const {
        const int i0 = clampX(x0), i1 = clampX(x1), j0 = clampY(y0), j1 = clampY(y1);
        for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i)
                f(static_cast<size_t>(j) * nx_ + i);
    }
    // Clamped in double before the conversion: a far coordinate must not overflow an int.
    int clampX(double x) const {
        const double f = std::floor((x - min_x_) / cell_);
        return f > 0.0 ? static_cast<int>(std::min(f, double(nx_ - 1))) : 0;
    }
    int clampY(double y) const {
        const double f = std::floor((y - min_y_) / cell_);
        return f > 0.0 ? static_cast<int>(std::min(f, double(ny_ - 1))) : 0;
    }
    double min_x_, min_y_, cell_;
    int nx_ = 1, ny_ = 1;
    std::vector<std::vector<uint32_t>> cells_;
};

// ---------------------------------------------------------------------------------------------
// Stage 2: blockers

std::vector<EPoint> clipHalfPlane(const std::vector<EPoint>& poly, const EFT& a, const EFT& b, const EFT& c) {
    // Keeps a*x + b*y + c >= 0 of a convex polygon.
    std::vector<EPoint> out;
    const size_t n = poly.size();
    for (size_t i = 0; i < n; ++i) {
        const EPoint& p = poly[i];
        const EPoint& q = poly[(i + 1) % n];
        const EFT fp = a * p.x() + b * p.y() + c;
        const EFT fq = a * q.x() + b * q.y() + c;
        if (!CGAL::is_negative(fp)) out.push_back(p);
        if ((CGAL::is_positive(fp) && CGAL::is_negative(fq)) ||
            (CGAL::is_negative(fp) && CGAL::is_positive(fq))) {
            const EFT t = fp / (fp - fq);
            out.emplace_back(p.x() + t * (q.x() - p.x()), p.y() + t * (q.y() - p.y()));
        }
    }
    return out;
}

template <class P> std::vector<P> projectedCcw(const Tri& t) {
    std::vector<P> poly{P(t.p[0].x, t.p[0].y), P(t.p[1].x, t.p[1].y), P(t.p[2].x, t.p[2].y)};
    if (CGAL::orientation(poly[0], poly[1], poly[2]) == CGAL::CLOCKWISE) std::swap(poly[1], poly[2]);
    return poly;
}

// Inside-left half-planes of a CCW convex polygon's edges.
std::vector<EPoint> clipToConvex(std::vector<EPoint> poly, const std::vector<EPoint>& convex) {
    for (size_t i = 0; i < convex.size() && poly.size() >= 3; ++i) {
        const EPoint& p = convex[i];
        const EPoint& q = convex[(i + 1) % convex.size()];
        // left of p->q: (q-p) x (r-p) >= 0  <=>  -(qy-py) x + (qx-px) y + ... >= 0
        const EFT a = -(q.y() - p.y());
        const EFT b = q.x() - p.x();
        const EFT c = -(a * p.x() + b * p.y());
        poly = clipHalfPlane(poly, a, b, c);
    }
    return poly;
}

inline const Point& toLazy(const Point& p) {
    return p;
}
// A lazy point whose coordinates are leaves holding their exact values.
inline Point toLazy(const EPoint& p) {
    return Point(FT(p.x()), FT(p.y()));
}

bool hasArea(const std::vector<EPoint>& poly) {
    if (poly.size() < 3) return false;
    for (size_t i = 2; i < poly.size(); ++i)
        if (CGAL::orientation(poly[0], poly[i - 1], poly[i]) != CGAL::COLLINEAR) return true;
    return false;
}

template <class P> Polygon makePolygon(std::vector<P> pts) {
    // Drop repeated and collinear points so Polygon_set_2 gets a simple, strictly convex polygon.
    std::vector<P> clean;
    for (const P& p : pts)
        if (clean.empty() || clean.back() != p) clean.push_back(p);
    while (clean.size() > 1 && clean.front() == clean.back())
        clean.pop_back();
    bool changed = true;
    while (changed && clean.size() >= 3) {
        changed = false;
        for (size_t i = 0; i < clean.size(); ++i) {
            const size_t n = clean.size();
            if (CGAL::collinear(clean[(i + n - 1) % n], clean[i], clean[(i + 1) % n])) {
                clean.erase(clean.begin() + static_cast<long>(i));
                changed = true;
                break;
            }
        }
    }
    Polygon poly;
    for (const P& p : clean)
        poly.push_back(toLazy(p));
    if (poly.size() >= 3 && poly.is_clockwise_oriented()) poly.reverse_orientation();
    return poly;
}

// Whether two triangles share interior, decided exactly (CGAL's exact orientation predicate on
// any kernel's points). Two convex polygons have disjoint interiors exactly when an edge line of
// one has the other wholly on its outer side (or on the line). A degenerate triangle has no
// interior, and whatever this says for it, its overlap has no area.
template <class P> bool interiorsOverlap(const std::array<P, 3>& a, const std::array<P, 3>& b) {
    auto separates = [](const std::array<P, 3>& edge_of, const std::array<P, 3>& other) {
        const bool ccw = CGAL::orientation(edge_of[0], edge_of[1], edge_of[2]) != CGAL::CLOCKWISE;
        const CGAL::Orientation inside = ccw ? CGAL::LEFT_TURN : CGAL::RIGHT_TURN;
        for (int i = 0; i < 3; ++i) {
            bool all_outside = true;
            for (int k = 0; k < 3 && all_outside; ++k)
                all_outside = CGAL::orientation(edge_of[i], edge_of[(i + 1) % 3], other[k]) != inside;
            if (all_outside) return true;
        }
        return false;
    };
    return !separates(a, b) && !separates(b, a);
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

// Covering by a walkable surface G above T within (kCoverGap, agent_height): exact.
bool coverBlocker(const Tri& t, const Tri& g, const ImportOptions& o, Polygon* out) {
    if (!projectionsOverlap(t, g)) return false;

    std::vector<EPoint> poly = clipToConvex(projectedCcw<EPoint>(t), projectedCcw<EPoint>(g));
    if (!hasArea(poly)) return false;
    const ExactPlane pt = exactPlaneOf(t), pg = exactPlaneOf(g);
    const EFT a = pg.a - pt.a, b = pg.b - pt.b, c = pg.c - pt.c; // d(p) = height of G over T
    poly = clipHalfPlane(poly, a, b, c - EFT(kCoverGap));
    if (!hasArea(poly)) return false;
    poly = clipHalfPlane(poly, -a, -b, EFT(o.agent_height) - c);
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
    std::vector<Vec3> poly{g.p[0], g.p[1], g.p[2]};
    auto clip = [&](auto&& f) {
        std::vector<Vec3> next;
        for (size_t i = 0; i < poly.size(); ++i) {
            const Vec3& p = poly[i];
            const Vec3& q = poly[(i + 1) % poly.size()];
            const double fp = f(p), fq = f(q);
            if (fp >= 0) next.push_back(p);
            if ((fp > 0 && fq < 0) || (fp < 0 && fq > 0)) {
                const double s = fp / (fp - fq);
                next.push_back({p.x + s * (q.x - p.x), p.y + s * (q.y - p.y), p.z + s * (q.z - p.z)});
            }
        }
        poly.swap(next);
    };
    // T's prism, with its projection made CCW.
    Vec3 a = t.p[0], b = t.p[1], c = t.p[2];
    if ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) < 0) std::swap(b, c);
    const Vec3 corners[3] = {a, b, c};
    for (int i = 0; i < 3 && !poly.empty(); ++i) {
        const Vec3 p = corners[i], q = corners[(i + 1) % 3];
        const double len = std::hypot(q.x - p.x, q.y - p.y);
        // Signed distance to the edge line, with the inflation as slack so a wall standing on
        // T's edge still bites into T.
        clip([&](const Vec3& r) {
            return ((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)) / len + kWallHalfWidth;
        });
    }
    if (poly.empty()) return false;
    clip([&](const Vec3& r) { return r.z - pt.at(r.x, r.y) - o.max_step; });
    if (poly.empty()) return false;
    clip([&](const Vec3& r) { return o.agent_height - (r.z - pt.at(r.x, r.y)); });
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

// ---------------------------------------------------------------------------------------------
// Stage 3: triangulating pieces, and the inside-a-solid test

struct FaceInfo {
    int nesting = -1;
    bool inside() const { return nesting % 2 == 1; }
};
using Vb = CGAL::Triangulation_vertex_base_2<K>;
using Fbi = CGAL::Triangulation_face_base_with_info_2<FaceInfo, K>;
using Fb = CGAL::Constrained_triangulation_face_base_2<K, Fbi>;
using TriTds = CGAL::Triangulation_data_structure_2<Vb, Fb>;
using Cdt = CGAL::Constrained_Delaunay_triangulation_2<K, TriTds, CGAL::Exact_predicates_tag>;

void markNesting(Cdt& cdt) {
    // Flood fill from the infinite face: crossing a constraint increases the nesting level.
    for (auto f = cdt.all_faces_begin(); f != cdt.all_faces_end(); ++f)
        f->info().nesting = -1;
    std::queue<std::pair<Cdt::Face_handle, int>> border;
    border.push({cdt.infinite_face(), 0});
    while (!border.empty()) {
        auto [start, level] = border.front();
        border.pop();
        if (start->info().nesting != -1) continue;
        std::queue<Cdt::Face_handle> queue;
        queue.push(start);
        start->info().nesting = level;
        while (!queue.empty()) {
            Cdt::Face_handle f = queue.front();
            queue.pop();
            for (int i = 0; i < 3; ++i) {
                Cdt::Face_handle n = f->neighbor(i);
                if (n->info().nesting != -1) continue;
                if (cdt.is_constrained(Cdt::Edge(f, i))) {
                    border.push({n, level + 1});
                } else {
                    n->info().nesting = level;
                    queue.push(n);
                }
            }
        }
    }
}

struct Triangle2 {
    Vec2 p[3];
};

using ExactTriangle = std::array<Point, 3>;

// Triangles of a polygon with holes, in doubles and (when asked) exactly.
std::vector<Triangle2> triangulate(const PolygonWH& pwh, std::vector<ExactTriangle>* exact = nullptr) {
    Cdt cdt;
    cdt.insert_constraint(pwh.outer_boundary().vertices_begin(), pwh.outer_boundary().vertices_end(), true);
    for (auto h = pwh.holes_begin(); h != pwh.holes_end(); ++h)
        cdt.insert_constraint(h->vertices_begin(), h->vertices_end(), true);
    markNesting(cdt);
    std::vector<Triangle2> out;
    for (auto f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) {
        if (!f->info().inside()) continue;
        Triangle2 t;
        for (int i = 0; i < 3; ++i)
            t.p[i] = {CGAL::to_double(f->vertex(i)->point().x()), CGAL::to_double(f->vertex(i)->point().y())};
        out.push_back(t);
        if (exact) exact->push_back({f->vertex(0)->point(), f->vertex(1)->point(), f->vertex(2)->point()});
    }
    return out;
}

// A triangle ring as it stands (CDT of a lone triangle returns it in ring order).
Triangle2 triangleOf(const Polygon& ring) {
    Triangle2 t;
    for (int i = 0; i < 3; ++i)
        t.p[i] = {CGAL::to_double(ring[i].x()), CGAL::to_double(ring[i].y())};
    return t;
}

double triangleArea(const Triangle2& t) {
    return 0.5 *
           ((t.p[1].x - t.p[0].x) * (t.p[2].y - t.p[0].y) - (t.p[1].y - t.p[0].y) * (t.p[2].x - t.p[0].x));
}

// Moller-Trumbore style ray/triangle hit distance, or -1.
double rayHit(const Vec3& origin, const Vec3& dir, const Tri& tri) {
    const Vec3 e1{tri.p[1].x - tri.p[0].x, tri.p[1].y - tri.p[0].y, tri.p[1].z - tri.p[0].z};
    const Vec3 e2{tri.p[2].x - tri.p[0].x, tri.p[2].y - tri.p[0].y, tri.p[2].z - tri.p[0].z};
    const Vec3 p{dir.y * e2.z - dir.z * e2.y, dir.z * e2.x - dir.x * e2.z, dir.x * e2.y - dir.y * e2.x};
    const double det = e1.x * p.x + e1.y * p.y + e1.z * p.z;
    if (std::abs(det) < 1e-14) return -1;
    const double inv = 1.0 / det;
    const Vec3 s{origin.x - tri.p[0].x, origin.y - tri.p[0].y, origin.z - tri.p[0].z};
    const double u = (s.x * p.x + s.y * p.y + s.z * p.z) * inv;
    if (u < 0 || u > 1) return -1;
    const Vec3 q{s.y * e1.z - s.z * e1.y, s.z * e1.x - s.x * e1.z, s.x * e1.y - s.y * e1.x};
    const double v = (dir.x * q.x + dir.y * q.y + dir.z * q.z) * inv;
    if (v < 0 || u + v > 1) return -1;
    const double dist = (e2.x * q.x + e2.y * q.y + e2.z * q.z) * inv;
    return dist > 0 ? dist : -1;
}

// A point of a free piece is inside a closed solid (the floor under a thick wall or a pillar)
// when the first face straight above it and the first face in each of the four horizontal axis
// directions (within kSolidProbeReach) are all seen from behind. Requiring both keeps the floor
// under a one-sided upper storey (seen from behind above, but walls seen from the front around).
bool firstHitFromBehind(const Vec3& p, const Vec3& d, double reach, const std::vector<Tri>& tris,
                        const Grid& grid, std::vector<uint32_t>& scratch) {
    grid.query(std::min(p.x, p.x + d.x * reach), std::min(p.y, p.y + d.y * reach),
               std::max(p.x, p.x + d.x * reach), std::max(p.y, p.y + d.y * reach), scratch);
    double best = reach;
    bool from_behind = false;
    for (uint32_t id : scratch) {
        const Tri& tri = tris[id];
        const double hit = rayHit(p, d, tri);
        if (hit > 0 && hit < best) {
            best = hit;
            from_behind = tri.normal.x * d.x + tri.normal.y * d.y + tri.normal.z * d.z > 0;
        }
    }
    return from_behind;
}

bool insideSolid(const Vec3& p, const std::vector<Tri>& tris, const Grid& grid,
                 std::vector<uint32_t>& scratch) {
    if (!firstHitFromBehind(p, {0, 0, 1}, INFINITY, tris, grid, scratch)) return false;
    const Vec3 dirs[4] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    for (const Vec3& d : dirs)
        if (!firstHitFromBehind(p, d, kSolidProbeReach, tris, grid, scratch)) return false;
    return true;
}

// Overlap of two ground triangles (Sutherland-Hodgman in doubles), as a polygon.
std::vector<Vec2> triangleOverlap(const Vec2 (&a)[3], const Vec2 (&b)[3]) {
    auto ccw = [](const Vec2(&t)[3]) {
        std::vector<Vec2> p{t[0], t[1], t[2]};
        if ((p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x) < 0)
            std::swap(p[1], p[2]);
        return p;
    };
    std::vector<Vec2> poly = ccw(a);
    const std::vector<Vec2> clip = ccw(b);
    for (size_t e = 0; e < 3 && !poly.empty(); ++e) {
        const Vec2 p = clip[e], q = clip[(e + 1) % 3];
        auto side = [&](const Vec2& r) { return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x); };
        std::vector<Vec2> next;
        for (size_t k = 0; k < poly.size(); ++k) {
            const Vec2& u = poly[k];
            const Vec2& v = poly[(k + 1) % poly.size()];
            const double su = side(u), sv = side(v);
            if (su >= 0) next.push_back(u);
            if ((su > 0 && sv < 0) || (su < 0 && sv > 0)) {
                const double t = su / (su - sv);
                next.push_back({u.x + t * (v.x - u.x), u.y + t * (v.y - u.y)});
            }
        }
        poly.swap(next);
    }
    return poly;
}

double polygonArea(const std::vector<Vec2>& poly) {
    double twice = 0;
    for (size_t k = 0; k < poly.size(); ++k)
        twice += poly[k].x * poly[(k + 1) % poly.size()].y - poly[(k + 1) % poly.size()].x * poly[k].y;
    return std::abs(twice) / 2;
}

// The overlap of two triangles' ground projections.
std::vector<Vec2> projectedOverlap(const Tri& a, const Tri& b) {
    const Vec2 pa[3] = {{a.p[0].x, a.p[0].y}, {a.p[1].x, a.p[1].y}, {a.p[2].x, a.p[2].y}};
    const Vec2 pb[3] = {{b.p[0].x, b.p[0].y}, {b.p[1].x, b.p[1].y}, {b.p[2].x, b.p[2].y}};
    return triangleOverlap(pa, pb);
}

// ---------------------------------------------------------------------------------------------
// Stage 4: links and layers

struct Piece {
    uint32_t tri = 0;                         // walkable triangle it lies on
    std::vector<PolygonWH> polys;             // exact free region
    std::vector<Triangle2> surface;           // its triangulation (for heights)
    std::vector<ExactTriangle> exact_surface; // the same triangles, exact
    double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
    double area = 0;
};

// Evaluates every vertex of the piece exactly, inside the task that built it. A lazy value
// refines its cached approximation when first evaluated exactly (and drops the expression that
// made it), so later readers on other threads see only settled values: what they compute cannot
// depend on which thread evaluated a shared vertex first.
void freeze(const Piece& piece) {
    auto ring = [](const Polygon& polygon) {
        for (auto v = polygon.vertices_begin(); v != polygon.vertices_end(); ++v)
            CGAL::exact(*v);
    };
    for (const PolygonWH& p : piece.polys) {
        ring(p.outer_boundary());
        for (auto h = p.holes_begin(); h != p.holes_end(); ++h)
            ring(*h);
    }
}

// How two pieces overlap in the ground plane, as the exact test in buildFootprint decides it
// (an overlap component is stacked where the heights differ by more than kStackGap at its
// interior point), when doubles settle it with a wide margin; Undecided otherwise.
constexpr double kStackGap = kCoverGap * 10;
enum class OverlapKind { None, Coplanar, Stacked, Undecided };

// `triangles_overlap`: the overlap of the two pieces' triangles (projectedOverlap).
OverlapKind quickOverlap(const Piece& a, const Piece& b, const std::vector<Vec2>& triangles_overlap,
                         const Plane& pa, const Plane& pb) {
    // Pieces lie inside their triangles and heights are linear there, so the height difference
    // anywhere in the pieces' overlap lies between its values at the triangles' overlap corners.
    constexpr double kMargin = 1e-6; // far above the rounding of the clipped corners
    double lowest = INFINITY, highest = -INFINITY;
    for (const Vec2& v : triangles_overlap) {
        const double dz = pa.at(v.x, v.y) - pb.at(v.x, v.y);
        lowest = std::min(lowest, dz), highest = std::max(highest, dz);
    }
    OverlapKind kind = OverlapKind::Undecided;
    if (lowest > kStackGap + kMargin || highest < -(kStackGap + kMargin))
        kind = OverlapKind::Stacked;
    else if (std::max(std::abs(lowest), std::abs(highest)) < kStackGap - kMargin)
        kind = OverlapKind::Coplanar;
    // Decided when the pieces' own overlap surely has area (their double surfaces are within
    // rounding of the exact pieces), or when no two of their exact triangles share interior
    // (then the exact intersection is empty: it is regularised).
    constexpr double kSureArea = 1e-6;
    double area = 0;
    for (const Triangle2& s : a.surface)
        for (const Triangle2& u : b.surface) {
            area += polygonArea(triangleOverlap(s.p, u.p));
            if (area > kSureArea) return kind;
        }
    // Two exact triangles sharing interior make the exact intersection non-empty, and a decided
    // kind holds at every point of it (the exact test would judge each component the same way).
    for (const ExactTriangle& s : a.exact_surface)
        for (const ExactTriangle& u : b.exact_surface)
            if (interiorsOverlap(s, u)) return kind;
    return OverlapKind::None;
}

struct Link {
    uint32_t a = 0, b = 0; // piece indices, a < b
    Vec2 p0, p1;           // shared boundary segment
    bool walkable = false; // height jump <= max step at both ends
};

struct EdgeRef {
    uint32_t piece;
    Vec2 p, q;
};

std::vector<Link> findLinks(const std::vector<Piece>& pieces, const std::vector<Plane>& planes, double step,
                            Grid& grid) {
    std::vector<EdgeRef> edges;
    for (uint32_t i = 0; i < pieces.size(); ++i) {
        for (const PolygonWH& pwh : pieces[i].polys) {
            auto add = [&](const Polygon& ring) {
                for (auto e = ring.edges_begin(); e != ring.edges_end(); ++e)
                    edges.push_back({i,
                                     {CGAL::to_double(e->source().x()), CGAL::to_double(e->source().y())},
                                     {CGAL::to_double(e->target().x()), CGAL::to_double(e->target().y())}});
            };
            add(pwh.outer_boundary());
            for (auto h = pwh.holes_begin(); h != pwh.holes_end(); ++h)
                add(*h);
        }
    }
    for (uint32_t e = 0; e < edges.size(); ++e) {
        const EdgeRef& r = edges[e];
        grid.insert(e, std::min(r.p.x, r.q.x) - kEdgeTolerance, std::min(r.p.y, r.q.y) - kEdgeTolerance,
                    std::max(r.p.x, r.q.x) + kEdgeTolerance, std::max(r.p.y, r.q.y) + kEdgeTolerance);
    }
    std::vector<Link> links;
    std::vector<uint32_t> candidates;
    for (uint32_t e = 0; e < edges.size(); ++e) {
        const EdgeRef& r = edges[e];
        const double dx = r.q.x - r.p.x, dy = r.q.y - r.p.y;
        const double len = std::hypot(dx, dy);
        if (len < kEdgeTolerance) continue;
        const double ux = dx / len, uy = dy / len;
        grid.query(std::min(r.p.x, r.q.x) - kEdgeTolerance, std::min(r.p.y, r.q.y) - kEdgeTolerance,
                   std::max(r.p.x, r.q.x) + kEdgeTolerance, std::max(r.p.y, r.q.y) + kEdgeTolerance,
                   candidates);
        for (uint32_t f : candidates) {
            const EdgeRef& s = edges[f];
            if (s.piece <= r.piece) continue;
            // Opposite directions: the two pieces lie on either side of the shared edge.
            const double sx = s.q.x - s.p.x, sy = s.q.y - s.p.y;
            if (sx * ux + sy * uy >= 0) continue;
            const double dp = (s.p.x - r.p.x) * uy - (s.p.y - r.p.y) * ux;
            const double dq = (s.q.x - r.p.x) * uy - (s.q.y - r.p.y) * ux;
            if (std::abs(dp) > kEdgeTolerance || std::abs(dq) > kEdgeTolerance) continue;
            const double tp = (s.p.x - r.p.x) * ux + (s.p.y - r.p.y) * uy;
            const double tq = (s.q.x - r.p.x) * ux + (s.q.y - r.p.y) * uy;
            const double t0 = std::max(0.0, std::min(tp, tq)), t1 = std::min(len, std::max(tp, tq));
            if (t1 - t0 < kEdgeTolerance) continue;
            Link link;
            link.a = r.piece;
            link.b = s.piece;
            link.p0 = {r.p.x + ux * t0, r.p.y + uy * t0};
            link.p1 = {r.p.x + ux * t1, r.p.y + uy * t1};
            const Plane& pa = planes[pieces[link.a].tri];
            const Plane& pb = planes[pieces[link.b].tri];
            const double j0 = std::abs(pa.at(link.p0.x, link.p0.y) - pb.at(link.p0.x, link.p0.y));
            const double j1 = std::abs(pa.at(link.p1.x, link.p1.y) - pb.at(link.p1.x, link.p1.y));
            // Float-rounded meshes put a 0.4 m stair at 0.40000000596 m: tolerate float noise.
            link.walkable = j0 <= step + kHeightTolerance && j1 <= step + kHeightTolerance;
            links.push_back(link);
        }
    }
    return links;
}

// ---------------------------------------------------------------------------------------------
// Stage 5: per-layer boundary

namespace PS = CGAL::Polyline_simplification_2;
using SVb = PS::Vertex_base_2<K>;
using SFb = CGAL::Constrained_triangulation_face_base_2<K>;
using STds = CGAL::Triangulation_data_structure_2<SVb, SFb>;
// A plain constrained triangulation, not Delaunay: the simplifier's removability test (no other
// vertex in the triangle of the removed vertex and its neighbours, judged over the vertex's
// triangulation fan) has the same answer in any triangulation, and Delaunay's in-circle tests on
// axis-aligned, cocircular levels defeat the interval filter (exact GMP evaluations).
using SCt = CGAL::Constrained_triangulation_2<K, STds, CGAL::Exact_predicates_tag>;
using SimplifyCt = CGAL::Constrained_triangulation_plus_2<SCt>;

// CGAL's simplifier visits constraints in address order and breaks equal costs by push order,
// so equal costs (collinear runs, symmetric shapes) would make the output depend on memory
// layout. A tie-break far below any threshold, unique per position, makes it deterministic.
// The cost itself (CGAL's Squared_distance_cost: the largest squared distance of the removed
// points from the new segment) is measured in doubles: exactly, every collinear point's zero
// distance is an undecidable sign for the interval filter and costs a GMP evaluation, which made
// simplification most of a terrain's boundary time. Rounding moves a cost by ~1e-16 of itself,
// far inside the epsilon budget; the exact sum with the tie-break keeps ties ordered.
struct DeterministicCost {
    template <class CDT>
    boost::optional<FT> operator()(
        const CGAL::Constrained_triangulation_plus_2<CDT>& ct,
        typename CGAL::Constrained_triangulation_plus_2<CDT>::Vertices_in_constraint_iterator v) const {
        using Ct = CGAL::Constrained_triangulation_plus_2<CDT>;
        auto toVec = [](const Point& p) { return Vec2{CGAL::to_double(p.x()), CGAL::to_double(p.y())}; };
        // Not std::prev: the iterator claims only the input category.
        auto before = v, after = v;
        --before, ++after;
        const Vec2 a = toVec((*before)->point()), b = toVec((*after)->point());
        const double dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy;
        double worst = 0;
        typename Ct::Points_in_constraint_iterator removed(before), end(after);
        for (++removed; removed != end; ++removed) {
            const Vec2 p = toVec(*removed);
            double t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0;
            t = std::clamp(t, 0.0, 1.0);
            const double ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
            worst = std::max(worst, ex * ex + ey * ey);
        }
        const Vec2 p = toVec((*v)->point());

        return FT(worst) + FT(p.x * 1e-22 + p.y * 1e-28);
    }
};

struct IPoint {
    int64_t x, y;
    bool operator==(const IPoint& o) const { return x == o.x && y == o.y; }
};

__int128 orient(const IPoint& a, const IPoint& b, const IPoint& c) {
    return static_cast<__int128>(b.x - a.x) * (c.y - a.y) - static_cast<__int128>(b.y - a.y) * (c.x - a.x);
}

bool onSegmentInterior(const IPoint& p, const IPoint& a, const IPoint& b) {
    if (p == a || p == b || orient(a, b, p) != 0) return false;
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

// Exact check on grid coordinates: no proper crossing, no endpoint inside another segment (and
// so no collinear overlap). Shared endpoints are fine.
bool findCrossing(const std::vector<std::vector<IPoint>>& rings, IPoint* where) {
    struct Seg {
        IPoint a, b;
    };
    std::vector<Seg> segs;
    int64_t min_x = INT64_MAX, min_y = INT64_MAX, max_x = INT64_MIN, max_y = INT64_MIN;
    for (const auto& ring : rings)
        for (size_t i = 0; i < ring.size(); ++i) {
            segs.push_back({ring[i], ring[(i + 1) % ring.size()]});
            min_x = std::min(min_x, ring[i].x), max_x = std::max(max_x, ring[i].x);
            min_y = std::min(min_y, ring[i].y), max_y = std::max(max_y, ring[i].y);
        }
    if (segs.empty()) return false;
    const double cell = std::max<double>(
        1.0, std::sqrt(double(max_x - min_x + 1) * double(max_y - min_y + 1) / double(segs.size())) * 2);
    Grid grid(double(min_x), double(min_y), double(max_x), double(max_y), cell);
    for (uint32_t i = 0; i < segs.size(); ++i)
        grid.insert(i, double(std::min(segs[i].a.x, segs[i].b.x)), double(std::min(segs[i].a.y, segs[i].b.y)),
                    double(std::max(segs[i].a.x, segs[i].b.x)), double(std::max(segs[i].a.y, segs[i].b.y)));
    std::vector<uint32_t> near;
    for (uint32_t i = 0; i < segs.size(); ++i) {
        const Seg& s = segs[i];
        grid.query(double(std::min(s.a.x, s.b.x)), double(std::min(s.a.y, s.b.y)),
                   double(std::max(s.a.x, s.b.x)), double(std::max(s.a.y, s.b.y)), near);
        for (uint32_t j : near) {
            if (j <= i) continue;
            const Seg& t = segs[j];
            if (onSegmentInterior(t.a, s.a, s.b) || onSegmentInterior(t.b, s.a, s.b)) {
                *where = onSegmentInterior(t.a, s.a, s.b) ? t.a : t.b;
                return true;
            }
            if (onSegmentInterior(s.a, t.a, t.b) || onSegmentInterior(s.b, t.a, t.b)) {
                *where = onSegmentInterior(s.a, t.a, t.b) ? s.a : s.b;
                return true;
            }
            const __int128 o1 = orient(s.a, s.b, t.a), o2 = orient(s.a, s.b, t.b);
            const __int128 o3 = orient(t.a, t.b, s.a), o4 = orient(t.a, t.b, s.b);
            if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
                *where = s.a;
                return true;
            }
        }
    }
    return false;
}

double ringArea(const std::vector<IPoint>& ring, double q) {
    __int128 twice = 0;
    for (size_t i = 0; i < ring.size(); ++i) {
        const IPoint& a = ring[i];
        const IPoint& b = ring[(i + 1) % ring.size()];
        twice += static_cast<__int128>(a.x) * b.y - static_cast<__int128>(b.x) * a.y;
    }
    return static_cast<double>(twice) * 0.5 * q * q;
}

// Removes repeated points and zero-width spikes (a, b, a) that snapping can leave behind. Straight
// collinear vertices stay: snap rounding put them there so that a touching ring shares them.
void cleanRing(std::vector<IPoint>& ring) {
    bool changed = true;
    while (changed && ring.size() >= 3) {
        changed = false;
        for (size_t i = 0; i < ring.size() && ring.size() >= 3; ++i) {
            const size_t n = ring.size();
            const IPoint& prev = ring[(i + n - 1) % n];
            const IPoint& next = ring[(i + 1) % n];
            const bool repeated = ring[i] == next;
            const bool spike = orient(prev, ring[i], next) == 0 &&
                               (static_cast<__int128>(ring[i].x - prev.x) * (next.x - ring[i].x) +
                                static_cast<__int128>(ring[i].y - prev.y) * (next.y - ring[i].y)) <= 0;
            if (repeated || spike) {
                ring.erase(ring.begin() + static_cast<long>(i));
                changed = true;
                break;
            }
        }
    }
    if (ring.size() < 3) ring.clear();
}

// Snap rounding (Hobby): every vertex becomes a hot pixel of the output grid, and every segment
// is routed through the centres of all hot pixels it passes. Unlike plain rounding this cannot
// create crossings: rounded rings may touch, never cross.
std::vector<std::vector<IPoint>> snapRound(const std::vector<std::vector<Vec2>>& rings, double q) {
    std::vector<IPoint> hot;
    for (const auto& ring : rings)
        for (const Vec2& p : ring)
            hot.push_back({std::llround(p.x / q), std::llround(p.y / q)});
    std::sort(hot.begin(), hot.end(),
              [](const IPoint& a, const IPoint& b) { return std::tie(a.x, a.y) < std::tie(b.x, b.y); });
    hot.erase(std::unique(hot.begin(), hot.end()), hot.end());
    std::vector<std::vector<IPoint>> out;
    if (hot.empty()) return out;
    int64_t min_x = INT64_MAX, min_y = INT64_MAX, max_x = INT64_MIN, max_y = INT64_MIN;
    for (const IPoint& h : hot) {
        min_x = std::min(min_x, h.x), max_x = std::max(max_x, h.x);
        min_y = std::min(min_y, h.y), max_y = std::max(max_y, h.y);
    }
    const double cell = std::max(
        4.0, std::sqrt(double(max_x - min_x + 1) * double(max_y - min_y + 1) / double(hot.size())) * 2);
    Grid grid(double(min_x), double(min_y), double(max_x), double(max_y), cell);
    for (uint32_t i = 0; i < hot.size(); ++i)
        grid.insert(i, double(hot[i].x), double(hot[i].y), double(hot[i].x), double(hot[i].y));
    std::vector<uint32_t> near;
    std::vector<std::pair<double, uint32_t>> crossed;
    for (const auto& ring : rings) {
        std::vector<IPoint> snapped;
        for (size_t i = 0; i < ring.size(); ++i) {
            const Vec2 a{ring[i].x / q, ring[i].y / q};
            const Vec2 b{ring[(i + 1) % ring.size()].x / q, ring[(i + 1) % ring.size()].y / q};
            grid.query(std::min(a.x, b.x) - 1, std::min(a.y, b.y) - 1, std::max(a.x, b.x) + 1,
                       std::max(a.y, b.y) + 1, near);
            crossed.clear();
            for (uint32_t h : near) {
                // Liang-Barsky clip of a->b against the pixel square [h-0.5, h+0.5]^2.
                double t0 = 0, t1 = 1;
                const double d[2] = {b.x - a.x, b.y - a.y};
                const double lo[2] = {double(hot[h].x) - 0.5 - a.x, double(hot[h].y) - 0.5 - a.y};
                const double hi[2] = {double(hot[h].x) + 0.5 - a.x, double(hot[h].y) + 0.5 - a.y};
                bool inside = true;
                for (int k = 0; k < 2 && inside; ++k) {
                    if (d[k] == 0) {
                        inside = lo[k] <= 0 && 0 <= hi[k];
                        continue;
                    }
                    double ta = lo[k] / d[k], tb = hi[k] / d[k];
                    if (ta > tb) std::swap(ta, tb);
                    t0 = std::max(t0, ta), t1 = std::min(t1, tb);
                    inside = t0 <= t1;
                }
                if (inside) crossed.push_back({(t0 + t1) / 2, h});
            }
            std::sort(crossed.begin(), crossed.end());
            for (const auto& [t, h] : crossed)
                if (snapped.empty() || !(snapped.back() == hot[h])) snapped.push_back(hot[h]);
        }
        while (snapped.size() > 1 && snapped.front() == snapped.back())
            snapped.pop_back();
        out.push_back(std::move(snapped));
    }
    return out;
}

struct LayerBoundary {
    std::vector<PolygonWithHoles> polygons;
    double area = 0;
};

Error buildBoundary(const PolygonSet& region, const std::vector<std::pair<Vec2, Vec2>>& cliffs,
                    double epsilon, double q, const std::string& where, LayerBoundary* out) {
    PolygonSet set = region;
    std::vector<Polygon> strips;
    for (const auto& [a, b] : cliffs) {
        // A height jump inside one layer without a wall: keep a thin wall there.
        const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
        if (!(len > 0)) continue;
        const double nx = -dy / len * kWallHalfWidth, ny = dx / len * kWallHalfWidth;
        const double tx = dx / len * kWallHalfWidth, ty = dy / len * kWallHalfWidth;
        // Through makePolygon: rounding can merge corners, and the sweep needs simple polygons.
        Polygon strip = makePolygon(
            std::vector<Point>{Point(a.x - tx - nx, a.y - ty - ny), Point(b.x + tx - nx, b.y + ty - ny),
                               Point(b.x + tx + nx, b.y + ty + ny), Point(a.x - tx + nx, a.y - ty + ny)});
        if (strip.size() >= 3) strips.push_back(std::move(strip));
    }
    // One difference with all strips at once: each difference sweeps the whole layer.
    if (!strips.empty()) {
        PolygonSet cut;
        cut.join(strips.begin(), strips.end());
        set.difference(cut);
    }
    std::vector<PolygonWH> pwhs;
    set.polygons_with_holes(std::back_inserter(pwhs));
    // Canonical order and ring starts (exact comparisons), so the simplifier sees the same input
    // whatever order the polygon set produced.
    auto rotateRing = [](Polygon& ring) {
        auto first = std::min_element(ring.vertices_begin(), ring.vertices_end());
        std::vector<Point> pts(first, ring.vertices_end());
        pts.insert(pts.end(), ring.vertices_begin(), first);
        ring = Polygon(pts.begin(), pts.end());
    };
    for (PolygonWH& p : pwhs) {
        Polygon outer = p.outer_boundary();
        rotateRing(outer);
        std::vector<Polygon> holes(p.holes_begin(), p.holes_end());
        for (Polygon& h : holes)
            rotateRing(h);
        std::sort(holes.begin(), holes.end(), [](const Polygon& a, const Polygon& b) { return a[0] < b[0]; });
        p = PolygonWH(outer, holes.begin(), holes.end());
    }
    std::sort(pwhs.begin(), pwhs.end(), [](const PolygonWH& a, const PolygonWH& b) {
        return a.outer_boundary()[0] < b.outer_boundary()[0];
    });

    // Topology-preserving simplification of all rings of the layer together, so that no ring
    // crosses another after simplification.
    SimplifyCt ct;
    struct RingRef {
        size_t polygon;
        bool outer;
        SimplifyCt::Constraint_id id;
    };
    std::vector<RingRef> refs;
    for (size_t i = 0; i < pwhs.size(); ++i) {
        const Polygon& outer = pwhs[i].outer_boundary();
        refs.push_back({i, true, ct.insert_constraint(outer.vertices_begin(), outer.vertices_end(), true)});
        for (auto h = pwhs[i].holes_begin(); h != pwhs[i].holes_end(); ++h)
            refs.push_back({i, false, ct.insert_constraint(h->vertices_begin(), h->vertices_end(), true)});
    }
    // Budget: epsilon minus the wall inflation and the rounding, so the total stays within epsilon.
    const double budget = std::max(0.0, epsilon - kWallHalfWidth - q);
    PS::simplify(ct, DeterministicCost(), PS::Stop_above_cost_threshold(budget * budget));

    std::vector<std::vector<Vec2>> simplified;
    for (const RingRef& ref : refs) {
        std::vector<Vec2> ring;
        for (auto p = ct.points_in_constraint_begin(ref.id); p != ct.points_in_constraint_end(ref.id); ++p)
            ring.push_back({CGAL::to_double(p->x()), CGAL::to_double(p->y())});
        if (ring.size() > 1 && ring.front().x == ring.back().x && ring.front().y == ring.back().y)
            ring.pop_back();
        simplified.push_back(std::move(ring));
    }
    std::vector<std::vector<IPoint>> snapped = snapRound(simplified, q);
    std::vector<std::vector<IPoint>> rings;
    std::vector<RingRef> kept;
    for (size_t r = 0; r < refs.size(); ++r) {
        std::vector<IPoint>& ring = snapped[r];
        cleanRing(ring);
        // Rings that collapse to (almost) nothing on the grid are slivers: drop them.
        if (ring.empty() || std::abs(ringArea(ring, 1.0)) < 4) continue;
        if ((ringArea(ring, 1.0) > 0) != refs[r].outer) std::reverse(ring.begin(), ring.end());
        rings.push_back(std::move(ring));
        kept.push_back(refs[r]);
    }
    IPoint bad{};
    if (findCrossing(rings, &bad))
        return {ErrorCode::Internal, where + ": boundary segments cross after rounding near (" +
                                         std::to_string(double(bad.x) * q) + ", " +
                                         std::to_string(double(bad.y) * q) + ")"};
    std::map<size_t, size_t> polygon_of;
    for (size_t r = 0; r < rings.size(); ++r) {
        std::vector<Vec2> pts;
        for (const IPoint& p : rings[r])
            pts.push_back({double(p.x) * q, double(p.y) * q});
        const double area = ringArea(rings[r], q);
        if (kept[r].outer) {
            polygon_of[kept[r].polygon] = out->polygons.size();
            out->polygons.push_back({std::move(pts), {}});
            out->area += area;
        } else {
            auto it = polygon_of.find(kept[r].polygon);
            if (it == polygon_of.end()) continue; // its outer ring vanished (cannot happen for valid input)
            out->polygons[it->second].holes.push_back(std::move(pts));
            out->area += area; // negative
        }
    }
    return {};
}

struct VertexKey {
    double x, y, z;
    bool operator<(const VertexKey& o) const { return std::tie(x, y, z) < std::tie(o.x, o.y, o.z); }
};

} // namespace

// -------------------------------------------------------------------------------------------------

Error buildFootprint(const Mesh& mesh, const ImportOptions& options, Footprint* out, LogContext& log) {
    if (Error e = validate(options)) return e;
    const std::string& name = mesh.source_name.empty() ? std::string("mesh") : mesh.source_name;
    if (mesh.triangleCount() == 0) return {ErrorCode::EmptyMesh, name + ": mesh has no triangles"};
    try {
        // Origin: the bounding-box centre rounded to whole metres (exact in double), so local
        // coordinates stay small and floats keep sub-millimetre precision far from the origin.
        Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t index : mesh.indices) {
            const Vec3& p = mesh.positions[index];
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
                return {ErrorCode::NonFiniteVertex,
                        name + ": vertex " + std::to_string(index) + " is not finite"};
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
        const Vec3 origin{std::round((lo.x + hi.x) / 2), std::round((lo.y + hi.y) / 2),
                          std::round((lo.z + hi.z) / 2)};
        // Grid spacing: a power of two with every local coordinate an exact float multiple.
        const double extent = std::max({hi.x - origin.x, origin.x - lo.x, hi.y - origin.y, origin.y - lo.y});
        const double q = geometry::worldGridSpacing(extent);
        // Walls move by up to q when snapped and kWallHalfWidth when inflated; beyond epsilon the
        // promised accuracy is gone (and on absurd extents the wall strips degenerate, which broke
        // CGAL's sweep: tests/fuzz/regressions/import/sweep-multiset-glb).
        if (q + kWallHalfWidth > options.epsilon) {
            char text[256];
            std::snprintf(text, sizeof text,
                          ": the mesh spans %.6g x %.6g m; one bake that large snaps walls to a %.6g m grid, "
                          "coarser than --epsilon %.6g m. Bake it in tiles (--tile-size), raise --epsilon, "
                          "or remove stray far-away vertices",
                          hi.x - lo.x, hi.y - lo.y, q, options.epsilon);
            return {ErrorCode::InvalidOption, name + text};
        }

        // Per-stage wall time, logged at debug level (cw-import --verbose).
        auto stage_start = std::chrono::steady_clock::now();
        std::string timings;
        auto lap = [&](const char* stage) {
            const auto now = std::chrono::steady_clock::now();
            char text[64];
            std::snprintf(text, sizeof text, "%s %.3f s; ", stage,
                          std::chrono::duration<double>(now - stage_start).count());
            timings += text;
            stage_start = now;
        };
        // Stage 1: classify.
        const double cos_slope = std::cos(options.max_slope_deg * M_PI / 180.0);
        std::vector<Tri> tris;
        tris.reserve(mesh.triangleCount());
        double size_sum = 0;
        for (size_t t = 0; t < mesh.triangleCount(); ++t) {
            Tri tri;
            for (int k = 0; k < 3; ++k) {
                const Vec3& p = mesh.positions[mesh.indices[3 * t + k]];
                tri.p[k] = {p.x - origin.x, p.y - origin.y, p.z - origin.z};
            }
            const Vec3 e1{tri.p[1].x - tri.p[0].x, tri.p[1].y - tri.p[0].y, tri.p[1].z - tri.p[0].z};
            const Vec3 e2{tri.p[2].x - tri.p[0].x, tri.p[2].y - tri.p[0].y, tri.p[2].z - tri.p[0].z};
            tri.normal = {e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x};
            const double len = std::sqrt(tri.normal.x * tri.normal.x + tri.normal.y * tri.normal.y +
                                         tri.normal.z * tri.normal.z);
            if (!(len > 1e-12)) continue;          // degenerate: no area, blocks nothing
            const double projected = tri.normal.z; // twice the projected area
            tri.walkable = projected > 1e-12 && tri.normal.z / len >= cos_slope - 1e-12;
            for (int a = 0; a < 3; ++a) {
                const double v[3] = {tri.p[0].x, tri.p[1].x, tri.p[2].x};
                const double w[3] = {tri.p[0].y, tri.p[1].y, tri.p[2].y};
                const double z[3] = {tri.p[0].z, tri.p[1].z, tri.p[2].z};
                const double* c = a == 0 ? v : a == 1 ? w : z;
                tri.min[a] = std::min({c[0], c[1], c[2]});
                tri.max[a] = std::max({c[0], c[1], c[2]});
            }
            size_sum += std::max(tri.max[0] - tri.min[0], tri.max[1] - tri.min[1]);
            tris.push_back(tri);
        }
        const size_t walkable_count =
            std::count_if(tris.begin(), tris.end(), [](const Tri& t) { return t.walkable; });
        if (walkable_count == 0)
            return {ErrorCode::NoWalkableSurface,
                    name + ": no walkable surface (no upward-facing triangle within the slope limit)"};
        log.log(LogLevel::Debug, name + ": " + std::to_string(walkable_count) + " walkable of " +
                                     std::to_string(tris.size()) + " triangles");

        const double cell = std::clamp(2.0 * size_sum / double(tris.size()), 0.5, 50.0);
        Grid tri_grid(lo.x - origin.x, lo.y - origin.y, hi.x - origin.x, hi.y - origin.y, cell);
        for (uint32_t i = 0; i < tris.size(); ++i)
            tri_grid.insert(i, tris[i].min[0], tris[i].min[1], tris[i].max[0], tris[i].max[1]);
        std::vector<Plane> planes(tris.size());
        for (size_t i = 0; i < tris.size(); ++i)
            if (tris[i].walkable) planes[i] = planeOf(tris[i]);

        lap("classify");
        // Stages 2 and 3: free pieces, one task per walkable triangle. A task builds its CGAL
        // objects from the doubles in `tris` and leaves its piece frozen (below), so nothing lazy
        // is shared between tasks; pieces are kept in triangle order.
        std::vector<uint32_t> walkable_ids;
        walkable_ids.reserve(walkable_count);
        for (uint32_t ti = 0; ti < tris.size(); ++ti)
            if (tris[ti].walkable) walkable_ids.push_back(ti);
        std::vector<Piece> slots(walkable_ids.size());
        std::vector<uint32_t> dropped(walkable_ids.size(), 0);
        parallel::forEach(walkable_ids.size(), options.threads, [&](size_t k) {
            const uint32_t ti = walkable_ids[k];
            const Tri& t = tris[ti];
            std::vector<uint32_t> near, probe_scratch;
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
                const bool blocks = g.walkable ? coverBlocker(t, g, options, &blocker)
                                               : obstacleBlocker(t, planes[ti], g, options, &blocker);
                if (blocks) blockers.push_back(std::move(blocker));
            }
            const Polygon base = makePolygon(projectedCcw<Point>(t));
            if (base.size() < 3) return;
            std::vector<PolygonWH> components;
            if (blockers.empty()) {
                // Nothing above: the piece is the whole triangle (most of a level), no booleans.
                components.emplace_back(base);
            } else {
                // A few blockers are cut away one by one: each difference sweeps only the small
                // remaining piece, where joining the blockers first would build the arrangement
                // of all of them (dungeon: 0.49 -> 0.11 s of joins, same sets). Many blockers
                // are joined first, as each difference would grow with the piece's holes.
                constexpr size_t kSequentialBlockers = 16;
                PolygonSet free_set(base);
                if (blockers.size() <= kSequentialBlockers) {
                    for (const Polygon& blocker : blockers)
                        free_set.difference(blocker);
                } else {
                    PolygonSet blocked;
                    blocked.join(blockers.begin(), blockers.end());
                    free_set.difference(blocked);
                }
                free_set.polygons_with_holes(std::back_inserter(components));
            }
            Piece& piece = slots[k];
            piece.tri = ti;
            for (PolygonWH& component : components) {

                std::vector<Triangle2> surface;
                std::vector<ExactTriangle> exact_surface;
                if (blockers.empty()) {
                    const Polygon& ring = component.outer_boundary();
                    surface.push_back(triangleOf(ring));
                    exact_surface.push_back({ring[0], ring[1], ring[2]});
                } else {
                    surface = triangulate(component, &exact_surface);
                }
                if (surface.empty()) continue;
                if (!blockers.empty()) {
                    // Probe from the centre of the component's largest triangle.
                    const Triangle2& big = *std::max_element(surface.begin(), surface.end(),
                                                             [](const Triangle2& a, const Triangle2& b) {
                                                                 return triangleArea(a) < triangleArea(b);
                                                             });
                    const Vec2 c{(big.p[0].x + big.p[1].x + big.p[2].x) / 3,
                                 (big.p[0].y + big.p[1].y + big.p[2].y) / 3};
                    const Vec3 probe{c.x, c.y,
                                     planes[ti].at(c.x, c.y) + (options.max_step + options.agent_height) / 2};
                    if (insideSolid(probe, tris, tri_grid, probe_scratch)) {
                        ++dropped[k];
                        continue;
                    }
                }
                for (const Triangle2& s : surface)
                    piece.area += triangleArea(s);
                piece.surface.insert(piece.surface.end(), surface.begin(), surface.end());
                piece.exact_surface.insert(piece.exact_surface.end(), exact_surface.begin(),
                                           exact_surface.end());
                piece.polys.push_back(std::move(component));
            }
            if (piece.polys.empty()) return;
            piece.min_x = piece.min_y = INFINITY;
            piece.max_x = piece.max_y = -INFINITY;
            for (const Triangle2& s : piece.surface)
                for (const Vec2& p : s.p) {
                    piece.min_x = std::min(piece.min_x, p.x), piece.max_x = std::max(piece.max_x, p.x);
                    piece.min_y = std::min(piece.min_y, p.y), piece.max_y = std::max(piece.max_y, p.y);
                }
            freeze(piece);
        });
        std::vector<Piece> pieces;
        size_t dropped_in_solid = 0;
        for (size_t k = 0; k < slots.size(); ++k) {
            dropped_in_solid += dropped[k];
            if (!slots[k].polys.empty()) pieces.push_back(std::move(slots[k]));
        }
        slots.clear();
        if (pieces.empty())
            return {ErrorCode::NoWalkableSurface,
                    name + ": no walkable surface (every walkable triangle lacks agent-height clearance)"};
        log.log(LogLevel::Debug, name + ": " + std::to_string(pieces.size()) + " free pieces, " +
                                     std::to_string(dropped_in_solid) + " components inside solids dropped");

        lap("clearance");
        // Stage 4: links, conflicts, layers.
        Grid edge_grid(lo.x - origin.x, lo.y - origin.y, hi.x - origin.x, hi.y - origin.y, cell);
        const std::vector<Link> links = findLinks(pieces, planes, options.max_step, edge_grid);
        std::vector<std::vector<uint32_t>> neighbours(pieces.size());
        for (const Link& link : links)
            if (link.walkable) {
                neighbours[link.a].push_back(link.b);
                neighbours[link.b].push_back(link.a);
            }
        Grid piece_grid(lo.x - origin.x, lo.y - origin.y, hi.x - origin.x, hi.y - origin.y, cell);
        for (uint32_t i = 0; i < pieces.size(); ++i)
            piece_grid.insert(i, pieces[i].min_x, pieces[i].min_y, pieces[i].max_x, pieces[i].max_y);
        lap("links");
        // Overlapping piece pairs, one task per piece i (pairs i < j): exact booleans on frozen
        // pieces, each task on its own polygon sets. Applied below in (i, j) order.
        std::vector<std::vector<std::pair<uint32_t, bool>>> overlaps(pieces.size()); // (j, stacked)
        std::vector<uint32_t> exact_overlap_tests(pieces.size(), 0);

        parallel::forEach(pieces.size(), options.threads, [&](size_t i) {
            std::vector<uint32_t> near;
            piece_grid.query(pieces[i].min_x, pieces[i].min_y, pieces[i].max_x, pieces[i].max_y, near);
            for (uint32_t j : near) {
                if (j <= i) continue;
                if (pieces[j].max_x <= pieces[i].min_x || pieces[j].min_x >= pieces[i].max_x ||
                    pieces[j].max_y <= pieces[i].min_y || pieces[j].min_y >= pieces[i].max_y)
                    continue;
                // Pieces lie inside their triangles: triangles that do not overlap (neighbours
                // sharing an edge, the common case) cannot give overlapping pieces. A double
                // test with a margin skips the exact one for them.
                const std::vector<Vec2> triangles_overlap =
                    projectedOverlap(tris[pieces[i].tri], tris[pieces[j].tri]);
                if (polygonArea(triangles_overlap) < 1e-9) continue;
                const OverlapKind quick = quickOverlap(pieces[i], pieces[j], triangles_overlap,
                                                       planes[pieces[i].tri], planes[pieces[j].tri]);
                if (quick == OverlapKind::None) continue;
                if (quick != OverlapKind::Undecided) {
                    overlaps[i].push_back({j, quick == OverlapKind::Stacked});
                    continue;
                }
                ++exact_overlap_tests[i];

                // Coplanar duplicates may share a layer; anything else overlapping may not.
                PolygonSet a, b;
                for (const PolygonWH& p : pieces[i].polys)
                    a.join(p);
                for (const PolygonWH& p : pieces[j].polys)
                    b.join(p);
                a.intersection(b);
                if (a.is_empty()) continue;
                std::vector<PolygonWH> overlap;
                a.polygons_with_holes(std::back_inserter(overlap));
                // Judge every overlap component at an interior point: a coplanar sliver (where a
                // ramp meets the floor) must not hide a real overlap elsewhere.
                bool stacked = false;
                for (const PolygonWH& component : overlap) {
                    const std::vector<Triangle2> tri2 = triangulate(component);
                    if (tri2.empty()) continue;
                    const Triangle2& big = *std::max_element(tri2.begin(), tri2.end(),
                                                             [](const Triangle2& u, const Triangle2& v) {
                                                                 return triangleArea(u) < triangleArea(v);
                                                             });
                    const double x = (big.p[0].x + big.p[1].x + big.p[2].x) / 3;
                    const double y = (big.p[0].y + big.p[1].y + big.p[2].y) / 3;
                    stacked = stacked || std::abs(planes[pieces[i].tri].at(x, y) -
                                                  planes[pieces[j].tri].at(x, y)) > kStackGap;
                }
                overlaps[i].push_back({j, stacked});
            }
        });
        std::vector<std::vector<uint32_t>> conflicts(pieces.size());
        for (uint32_t i = 0; i < pieces.size(); ++i)
            for (const auto& [j, stacked] : overlaps[i]) {
                if (!stacked) {
                    // Coplanar overlap (modular floor tiles laid over each other): one floor.
                    neighbours[i].push_back(j);
                    neighbours[j].push_back(i);
                    continue;
                }
                conflicts[i].push_back(j);
                conflicts[j].push_back(i);
            }
        {
            size_t pairs = 0, exact = 0;
            for (size_t i = 0; i < pieces.size(); ++i)
                pairs += overlaps[i].size(), exact += exact_overlap_tests[i];
            log.log(LogLevel::Debug, name + ": " + std::to_string(pairs) + " overlapping piece pairs, " +
                                         std::to_string(exact) + " needed the exact test");
        }
        lap("overlaps");
        constexpr uint32_t kNone = UINT32_MAX;
        std::vector<uint32_t> layer_of(pieces.size(), kNone);
        uint32_t layer_count = 0;
        auto centroidHeight = [&](uint32_t i) {
            const Tri& t = tris[pieces[i].tri];
            return (t.p[0].z + t.p[1].z + t.p[2].z) / 3;
        };
        for (uint32_t seed = 0; seed < pieces.size(); ++seed) {
            if (layer_of[seed] != kNone) continue;
            const uint32_t layer = layer_count++;
            const double seed_height = centroidHeight(seed);
            // Grow over flat ground first: stairs and ramps join after the floor they start from.
            using Entry = std::pair<double, uint32_t>;
            std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
            open.push({0.0, seed});
            while (!open.empty()) {
                const uint32_t i = open.top().second;
                open.pop();
                if (layer_of[i] != kNone) continue;
                bool blocked = false;
                for (uint32_t c : conflicts[i])
                    blocked = blocked || layer_of[c] == layer;
                if (blocked) continue;
                layer_of[i] = layer;
                for (uint32_t n : neighbours[i])
                    if (layer_of[n] == kNone) open.push({std::abs(centroidHeight(n) - seed_height), n});
            }
        }
        // Merge layers whose projections do not overlap, touching or not (greedy growth leaves
        // fragments, and islands such as crate tops need no layer of their own). First fit in
        // layer order keeps it deterministic.
        {
            std::vector<std::set<uint32_t>> clashing(layer_count);
            for (uint32_t i = 0; i < pieces.size(); ++i)
                for (uint32_t c : conflicts[i])
                    clashing[layer_of[i]].insert(layer_of[c]);
            std::vector<uint32_t> group_of(layer_count, kNone);
            std::vector<std::set<uint32_t>> group_clashes; // layers each group overlaps
            for (uint32_t l = 0; l < layer_count; ++l) {
                uint32_t target = kNone;
                for (uint32_t g = 0; g < group_clashes.size() && target == kNone; ++g)
                    if (!group_clashes[g].count(l)) target = g;
                if (target == kNone) {
                    target = uint32_t(group_clashes.size());
                    group_clashes.emplace_back();
                }
                group_of[l] = target;
                group_clashes[target].insert(clashing[l].begin(), clashing[l].end());
            }
            for (uint32_t& l : layer_of)
                l = group_of[l];
            layer_count = uint32_t(group_clashes.size());
        }

        {
            size_t walkable_links = 0, conflict_pairs = 0;
            for (const Link& link : links)
                walkable_links += link.walkable;
            for (const auto& c : conflicts)
                conflict_pairs += c.size();
            std::vector<uint32_t> comp(pieces.size(), kNone);
            std::vector<double> comp_area;
            for (uint32_t s0 = 0; s0 < pieces.size(); ++s0) {
                if (comp[s0] != kNone) continue;
                comp_area.push_back(0);
                std::vector<uint32_t> stack{s0};
                comp[s0] = uint32_t(comp_area.size() - 1);
                while (!stack.empty()) {
                    uint32_t i = stack.back();
                    stack.pop_back();
                    comp_area.back() += pieces[i].area;
                    for (uint32_t n : neighbours[i])
                        if (comp[n] == kNone) comp[n] = comp[i], stack.push_back(n);
                }
            }
            std::sort(comp_area.rbegin(), comp_area.rend());
            std::string biggest;
            for (size_t k = 0; k < std::min<size_t>(6, comp_area.size()); ++k) {
                // Printed as a double: an absurd mesh's area does not fit an int (fuzzer finding).
                char area[32];
                std::snprintf(area, sizeof area, "%.0f ", comp_area[k]);
                biggest += area;
            }
            log.log(LogLevel::Debug, name + ": " + std::to_string(comp_area.size()) +
                                         " walkable components, largest m2: " + biggest);
            log.log(LogLevel::Debug, name + ": " + std::to_string(links.size()) + " shared edges (" +
                                         std::to_string(walkable_links) + " walkable), " +
                                         std::to_string(conflict_pairs / 2) + " overlapping piece pairs, " +
                                         std::to_string(layer_count) + " layers");
        }
        lap("layers");
        // Stage 5: boundaries and surfaces per layer.
        Footprint footprint;
        footprint.options = options;
        footprint.origin = origin;
        footprint.grid_spacing = q;
        footprint.source_name = mesh.source_name;
        footprint.input_hash = mesh.source_hash;
        const std::string canonical = canonicalString(options);
        footprint.options_hash = fnv1a64(canonical.data(), canonical.size());
        std::vector<std::vector<std::pair<Vec2, Vec2>>> cliffs(layer_count);
        for (const Link& link : links)
            if (!link.walkable && layer_of[link.a] == layer_of[link.b])
                cliffs[layer_of[link.a]].push_back({link.p0, link.p1});
        // One task per layer: a piece belongs to one layer, so no two tasks share its CGAL objects.
        std::vector<FootprintLayer> layer_slots(layer_count);
        std::vector<Error> layer_errors(layer_count);
        std::vector<double> layer_seconds(layer_count), layer_join_seconds(layer_count);
        parallel::forEach(layer_count, options.threads, [&](size_t layer) {
            const auto layer_start = std::chrono::steady_clock::now();
            std::vector<PolygonWH> polys;
            FootprintLayer& out_layer = layer_slots[layer];
            std::map<VertexKey, uint32_t> vertex_ids;
            auto vertexId = [&](double x, double y, double z) {
                const VertexKey key{double(float(x)), double(float(y)), double(float(z))};
                auto [it, inserted] = vertex_ids.emplace(key, uint32_t(out_layer.surface_vertices.size()));
                if (inserted) out_layer.surface_vertices.push_back({key.x, key.y, key.z});
                return it->second;
            };
            for (uint32_t i = 0; i < pieces.size(); ++i) {
                if (layer_of[i] != layer) continue;
                polys.insert(polys.end(), pieces[i].polys.begin(), pieces[i].polys.end());
                const Plane& plane = planes[pieces[i].tri];
                for (const Triangle2& s : pieces[i].surface) {
                    SurfaceTriangle st;
                    st.a = vertexId(s.p[0].x, s.p[0].y, plane.at(s.p[0].x, s.p[0].y));
                    st.b = vertexId(s.p[1].x, s.p[1].y, plane.at(s.p[1].x, s.p[1].y));
                    st.c = vertexId(s.p[2].x, s.p[2].y, plane.at(s.p[2].x, s.p[2].y));
                    out_layer.surface_triangles.push_back(st);
                }
            }
            PolygonSet region;
            region.join(polys.begin(), polys.end());
            layer_join_seconds[layer] =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - layer_start).count();
            LayerBoundary boundary;
            if (Error e = buildBoundary(region, cliffs[layer], options.epsilon, q,
                                        name + " layer " + std::to_string(layer), &boundary)) {
                layer_errors[layer] = e;
                return;
            }
            out_layer.polygons = std::move(boundary.polygons);
            geometry::canonicalize(out_layer.polygons);
            out_layer.area = boundary.area;
            out_layer.height_min = INFINITY;
            out_layer.height_max = -INFINITY;
            for (const Vec3& v : out_layer.surface_vertices) {
                out_layer.height_min = std::min(out_layer.height_min, v.z);
                out_layer.height_max = std::max(out_layer.height_max, v.z);
            }
            layer_seconds[layer] =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - layer_start).count();
        });
        for (uint32_t layer = 0; layer < layer_count; ++layer)
            if (layer_errors[layer]) return layer_errors[layer];
        {
            std::string per_layer;
            for (uint32_t layer = 0; layer < layer_count; ++layer) {
                char text[48];
                std::snprintf(text, sizeof text, "%s%.3f s (join %.3f s)", layer ? ", " : "",
                              layer_seconds[layer], layer_join_seconds[layer]);
                per_layer += text;
            }
            log.log(LogLevel::Debug, name + ": boundary per layer: " + per_layer);
        }
        footprint.layers = std::move(layer_slots);

        lap("boundaries");
        // Stage 6: connections, merged into maximal collinear portals per layer pair.
        std::vector<Connection> raw;
        for (const Link& link : links) {
            if (!link.walkable || layer_of[link.a] == layer_of[link.b]) continue;
            Connection c;
            uint32_t pa = link.a, pb = link.b;
            if (layer_of[pa] > layer_of[pb]) std::swap(pa, pb);
            c.layer_a = layer_of[pa];
            c.layer_b = layer_of[pb];
            c.p0 = link.p0;
            c.p1 = link.p1;
            if (c.p1.x < c.p0.x || (c.p1.x == c.p0.x && c.p1.y < c.p0.y)) std::swap(c.p0, c.p1);
            const Plane& A = planes[pieces[pa].tri];
            const Plane& B = planes[pieces[pb].tri];
            c.z_a0 = A.at(c.p0.x, c.p0.y), c.z_a1 = A.at(c.p1.x, c.p1.y);
            c.z_b0 = B.at(c.p0.x, c.p0.y), c.z_b1 = B.at(c.p1.x, c.p1.y);
            raw.push_back(c);
        }
        std::sort(raw.begin(), raw.end(), [](const Connection& a, const Connection& b) {
            return std::tie(a.layer_a, a.layer_b, a.p0.x, a.p0.y, a.p1.x, a.p1.y) <
                   std::tie(b.layer_a, b.layer_b, b.p0.x, b.p0.y, b.p1.x, b.p1.y);
        });
        std::vector<bool> used(raw.size(), false);
        for (size_t i = 0; i < raw.size(); ++i) {
            if (used[i]) continue;
            Connection c = raw[i];
            used[i] = true;
            for (bool grown = true; grown;) {
                grown = false;
                for (size_t j = i + 1;
                     j < raw.size() && raw[j].layer_a == c.layer_a && raw[j].layer_b == c.layer_b; ++j) {
                    if (used[j]) continue;
                    const Connection& d = raw[j];
                    const double ux = c.p1.x - c.p0.x, uy = c.p1.y - c.p0.y, len = std::hypot(ux, uy);
                    const double off0 = std::abs((d.p0.x - c.p0.x) * uy - (d.p0.y - c.p0.y) * ux) / len;
                    const double off1 = std::abs((d.p1.x - c.p0.x) * uy - (d.p1.y - c.p0.y) * ux) / len;
                    if (off0 > kEdgeTolerance || off1 > kEdgeTolerance) continue;
                    if (std::hypot(d.p0.x - c.p1.x, d.p0.y - c.p1.y) <= kEdgeTolerance) {
                        c.p1 = d.p1, c.z_a1 = d.z_a1, c.z_b1 = d.z_b1;
                    } else if (std::hypot(d.p1.x - c.p0.x, d.p1.y - c.p0.y) <= kEdgeTolerance) {
                        c.p0 = d.p0, c.z_a0 = d.z_a0, c.z_b0 = d.z_b0;
                    } else {
                        continue;
                    }
                    used[j] = true;
                    grown = true;
                }
            }
            footprint.connections.push_back(c);
        }
        lap("connections");
        log.log(LogLevel::Debug, name + ": stage times: " + timings);
        *out = std::move(footprint);
        return {};
    } catch (const std::exception& e) {
        return {ErrorCode::Internal, name + ": geometry kernel failure: " + e.what()};
    }
}

FootprintStats statsOf(const Footprint& footprint) {
    FootprintStats s;
    s.layers = footprint.layers.size();
    s.connections = footprint.connections.size();
    for (const FootprintLayer& layer : footprint.layers) {
        s.polygons += layer.polygons.size();
        for (const PolygonWithHoles& p : layer.polygons) {
            s.holes += p.holes.size();
            s.vertices += p.outer.size();
            for (const Ring& h : p.holes)
                s.vertices += h.size();
        }
        s.walkable_area += layer.area;
    }
    return s;
}

} // namespace clearway::bake
