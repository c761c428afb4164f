// Shared types, tolerances and stage functions of the footprint stage (buildFootprint in
// footprint.cpp drives the stages; each stage lives in its own file of this folder).
#pragma once

#include <clearway/bake.h>

#include <CGAL/Arr_segment_traits_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/General_polygon_set_2.h>
#include <CGAL/Gps_segment_traits_2.h>
#include <CGAL/Polygon_2.h>
#include <CGAL/Polygon_with_holes_2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clearway::bake::footprint_internal {

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
// Heights from float meshes carry ~1e-7 relative noise; step comparisons allow this much.
constexpr double kHeightTolerance = 1e-5;
// Horizontal reach of the inside-a-solid test: solids wider than this keep their floor as islands.
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

inline Plane planeOf(const Tri& t) {
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
        // A few cells (an edge or a small triangle on a cell border, most queries): merge their
        // sorted lists one by one, linear (sorting the concatenation was a tenth of a fine grid's
        // bake). Many cells: merging one by one would be quadratic, so sort.
        if ((clampX(x1) - i0 + 1) * (clampY(y1) - j0 + 1) <= 4) {
            thread_local std::vector<uint32_t> merged;
            forCells(x0, y0, x1, y1, [&](size_t c) {
                merged.clear();
                std::merge(out.begin(), out.end(), cells_[c].begin(), cells_[c].end(),
                           std::back_inserter(merged));
                out.swap(merged);
            });
        } else {
            forCells(x0, y0, x1, y1,
                     [&](size_t c) { out.insert(out.end(), cells_[c].begin(), cells_[c].end()); });
            std::sort(out.begin(), out.end());
        }
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }

    // The cells from (x, y) along an axis (dx, dy: one of (±1, 0), (0, ±1)) out to `reach`,
    // nearest first, each given with the distance from (x, y) to its near side (0 for the first);
    // f(ids, near) returns false to stop. The same cells as query() over the ray's box.
    template <class F> void walkAxis(double x, double y, int dx, int dy, double reach, F&& f) const {
        int i = clampX(x), j = clampY(y);
        const int i_end = clampX(x + dx * reach), j_end = clampY(y + dy * reach);
        double near = 0.0;
        while (f(cells_[static_cast<size_t>(j) * nx_ + i], near) && (i != i_end || j != j_end)) {
            if (dx > 0) ++i, near = min_x_ + i * cell_ - x;
            else if (dx < 0) near = x - (min_x_ + i * cell_), --i;
            else if (dy > 0) ++j, near = min_y_ + j * cell_ - y;
            else near = y - (min_y_ + j * cell_), --j;
        }
    }
    // The area the cells cover: [x0, x1) x [y0, y1).
    void area(double* x0, double* y0, double* x1, double* y1) const {
        *x0 = min_x_, *y0 = min_y_, *x1 = min_x_ + nx_ * cell_, *y1 = min_y_ + ny_ * cell_;
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

// The point a fraction s of the way from p to q.
inline Vec2 along(const Vec2& p, const Vec2& q, double s) {
    return {p.x + s * (q.x - p.x), p.y + s * (q.y - p.y)};
}
inline Vec3 along(const Vec3& p, const Vec3& q, double s) {
    return {p.x + s * (q.x - p.x), p.y + s * (q.y - p.y), p.z + s * (q.z - p.z)};
}

// One Sutherland-Hodgman step in doubles: keeps the part of a convex polygon where side >= 0.
// A triangle clipped by another's three half-planes: a clip at most doubles the corners (one
// more for a convex polygon; rounding may bend it).
struct ClippedTriangle {
    Vec2 p[24];
    uint32_t n = 0;
};
// Overlap of two ground triangles in doubles (layers.cpp).
ClippedTriangle clippedOverlap(const Vec2 (&a)[3], const Vec2 (&b)[3]);

template <class V, class Side> void clipToSide(std::vector<V>& poly, Side&& side) {
    std::vector<V> next;
    for (size_t i = 0; i < poly.size(); ++i) {
        const V& p = poly[i];
        const V& q = poly[(i + 1) % poly.size()];
        const double fp = side(p), fq = side(q);
        if (fp >= 0) next.push_back(p);
        if ((fp > 0 && fq < 0) || (fp < 0 && fq > 0)) next.push_back(along(p, q, fp / (fp - fq)));
    }
    poly.swap(next);
}

inline const Point& toLazy(const Point& p) {
    return p;
}
// A lazy point whose coordinates are leaves holding their exact values.
inline Point toLazy(const EPoint& p) {
    return Point(FT(p.x()), FT(p.y()));
}

// A triangle's ground projection, counter-clockwise, in the point type P.
template <class P> std::vector<P> projectedCcw(const Tri& t) {
    std::vector<P> poly{P(t.p[0].x, t.p[0].y), P(t.p[1].x, t.p[1].y), P(t.p[2].x, t.p[2].y)};
    if (CGAL::orientation(poly[0], poly[1], poly[2]) == CGAL::CLOCKWISE) std::swap(poly[1], poly[2]);
    return poly;
}

template <class P> Polygon makePolygon(std::vector<P> pts) {
    // Drop repeated and collinear points: the booleans (grownConvex) want simple, strictly convex
    // polygons.
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

struct Triangle2 {
    Vec2 p[3];
};

using ExactTriangle = std::array<Point, 3>;

// A triangle's ground corners, counter-clockwise.
using GroundTriangle = std::array<Vec2, 3>;

inline double triangleArea(const Triangle2& t) {
    return 0.5 *
           ((t.p[1].x - t.p[0].x) * (t.p[2].y - t.p[0].y) - (t.p[1].y - t.p[0].y) * (t.p[2].x - t.p[0].x));
}

// Centre of the largest of the triangles (not empty): a point surely inside the region they cover.
inline Vec2 largestTriangleCentre(const std::vector<Triangle2>& triangles) {
    const Triangle2& big =
        *std::max_element(triangles.begin(), triangles.end(), [](const Triangle2& a, const Triangle2& b) {
            return triangleArea(a) < triangleArea(b);
        });
    return {(big.p[0].x + big.p[1].x + big.p[2].x) / 3, (big.p[0].y + big.p[1].y + big.p[2].y) / 3};
}

// Triangles of a polygon with holes, in doubles and (when asked) exactly (pieces.cpp).
std::vector<Triangle2> triangulate(const PolygonWH& pwh, std::vector<ExactTriangle>* exact = nullptr);
// Triangles of the region closed rings bound under the even-odd rule (pieces.cpp).
std::vector<Triangle2> triangulateRings(const std::vector<std::vector<Vec2>>& rings);

// A ground-plane bounding box.
struct Box {
    double min_x = INFINITY, min_y = INFINITY, max_x = -INFINITY, max_y = -INFINITY;
    void add(const Vec2& p) {
        min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x);
        min_y = std::min(min_y, p.y), max_y = std::max(max_y, p.y);
    }
};

// A cut piece's region: what is left of its triangle by its blockers.
struct CutRegion {
    std::vector<PolygonWH> polys;             // the exact free region
    std::vector<Triangle2> surface;           // its triangulation (for heights)
    std::vector<ExactTriangle> exact_surface; // the same triangles, exact
    Box bounds;                               // of the surface
    double area = 0;
};

struct Piece {
    uint32_t tri = 0;            // walkable triangle it lies on
    std::array<Vec2, 3> corners; // that triangle's ground corners
    // Nothing blocks it (most of a level): its region is the triangle, held as the corners
    // alone. CGAL objects cost ~1 KB a triangle (lazy points, their exact values once frozen).
    bool whole = false;
    bool corners_clockwise = false; // whole: the ring runs corners 0, 2, 1
    std::unique_ptr<CutRegion> cut; // otherwise (null when nothing of it is free)

    bool empty() const { return !whole && (!cut || cut->polys.empty()); }
    // Whole: the triangle's projection, counter-clockwise (exactly decided).
    std::array<Vec2, 3> ring() const {
        if (corners_clockwise) return {corners[0], corners[2], corners[1]};
        return corners;
    }
    Box bounds() const {
        if (!whole) return cut->bounds;
        Box box;
        for (const Vec2& c : corners)
            box.add(c);
        return box;
    }
    double area() const {
        if (!whole) return cut->area;
        const std::array<Vec2, 3> r = ring();
        return triangleArea(Triangle2{{r[0], r[1], r[2]}});
    }
    // The triangles of its region, in doubles and exactly.
    std::vector<Triangle2> surface() const {
        if (!whole) return cut->surface;
        const std::array<Vec2, 3> r = ring();
        return {Triangle2{{r[0], r[1], r[2]}}};
    }
    std::vector<ExactTriangle> exactSurface() const {
        if (!whole) return cut->exact_surface;
        const std::array<Vec2, 3> r = ring();
        return {ExactTriangle{Point(r[0].x, r[0].y), Point(r[1].x, r[1].y), Point(r[2].x, r[2].y)}};
    }
    // Every edge of its region's rings (outer rings counter-clockwise, holes clockwise), in
    // doubles: f(from, to).
    template <class F> void forEachEdge(F&& f) const {
        if (whole) {
            const std::array<Vec2, 3> r = ring();
            for (int k = 0; k < 3; ++k)
                f(r[k], r[(k + 1) % 3]);
            return;
        }
        auto ringEdges = [&](const Polygon& ring) {
            for (auto e = ring.edges_begin(); e != ring.edges_end(); ++e)
                f(Vec2{CGAL::to_double(e->source().x()), CGAL::to_double(e->source().y())},
                  Vec2{CGAL::to_double(e->target().x()), CGAL::to_double(e->target().y())});
        };
        for (const PolygonWH& p : cut->polys) {
            ringEdges(p.outer_boundary());
            for (auto h = p.holes_begin(); h != p.holes_end(); ++h)
                ringEdges(*h);
        }
    }
};

struct Link {
    uint32_t a = 0, b = 0; // piece indices, a < b
    Vec2 p0, p1;           // shared boundary segment
    bool walkable = false; // height jump <= max step at both ends
};

// ---------------------------------------------------------------------------------------------
// Stage 1 (classify.cpp): local frame and triangle classification

// The mesh's bounding box, the local origin and the output grid spacing.
struct MeshFrame {
    Vec3 lo, hi, origin;
    double grid_spacing = 0;
};

Error meshFrame(const Mesh& mesh, const ImportOptions& options, const std::string& name, MeshFrame* out);

// Triangles in local coordinates (degenerate ones dropped), walkable or not, with the height
// planes of the walkable ones and the bucket size suited to the triangles.
struct ClassifiedMesh {
    std::vector<Tri> tris;
    std::vector<Plane> planes; // per triangle; only walkable triangles' are set
    size_t walkable_count = 0;
    double cell = 0;
};

// Per mesh triangle: whether to turn it over so that every closed shell (each edge shared by
// exactly two faces, corners welded by position) is wound consistently and outward (shells.cpp).
// Open surfaces, flat shells (two-sided planes) and outward shells stay as authored.
std::vector<bool> outwardShellFlips(const Mesh& mesh);

Error classifyTriangles(const Mesh& mesh, const ImportOptions& options, const MeshFrame& frame,
                        const std::string& name, LogContext& log, ClassifiedMesh* out);

// An empty bucket grid over the mesh's ground box, in local coordinates.
Grid groundGrid(const MeshFrame& frame, double cell);
// The grid holding the triangles' ground boxes.
Grid triangleGrid(const MeshFrame& frame, const ClassifiedMesh& mesh);

// ---------------------------------------------------------------------------------------------
// Stage 2 (blockers.cpp): the parts of proj(tris[ti]) that some geometry in the clearance slab
// above it blocks.
std::vector<Polygon> blockersOf(uint32_t ti, const ClassifiedMesh& mesh, const Grid& tri_grid,
                                const ImportOptions& options);

// ---------------------------------------------------------------------------------------------
// Stage 3 (pieces.cpp): free pieces, in triangle order; components inside closed solids dropped.
Error freePieces(const ClassifiedMesh& mesh, const Grid& tri_grid, const ImportOptions& options,
                 const std::string& name, LogContext& log, std::vector<Piece>* out);

// ---------------------------------------------------------------------------------------------
// Stage 4 (links.cpp, layers.cpp): links between adjacent pieces, and layers

// Shared boundary segments of pieces; `grid` (empty) buckets their edges.
std::vector<Link> findLinks(const std::vector<Piece>& pieces, const std::vector<Plane>& planes, double step,
                            Grid grid, unsigned threads);

struct Layering {
    std::vector<uint32_t> layer_of; // per piece
    uint32_t layer_count = 0;
    std::vector<bool> coplanar_overlap; // per piece: shares ground with another at its height
};

// A piece j > i whose ground projection overlaps piece i's, stacked (heights apart) or coplanar.
struct PieceOverlap {
    uint32_t piece;
    bool stacked;
};

// Per piece i, the overlapping pieces j > i in increasing order; `piece_grid` (empty) buckets
// the pieces.
std::vector<std::vector<PieceOverlap>> findOverlaps(const std::vector<Piece>& pieces,
                                                    const ClassifiedMesh& mesh, Grid piece_grid,
                                                    const ImportOptions& options, const std::string& name,
                                                    LogContext& log);

// Layers over walkable links and coplanar overlaps, stacked pieces never in one layer.
Layering buildLayers(const std::vector<Piece>& pieces, const std::vector<Link>& links,
                     const std::vector<std::vector<PieceOverlap>>& overlaps, const std::vector<Tri>& tris,
                     const std::string& name, LogContext& log);

// ---------------------------------------------------------------------------------------------
// Stage 5 (boundaries.cpp): per-layer boundary and surface
Error layerBoundaries(const std::vector<Piece>& pieces, const std::vector<Link>& links,
                      const Layering& layering, const std::vector<Plane>& planes,
                      const ImportOptions& options, double q, const std::string& name, LogContext& log,
                      std::vector<FootprintLayer>* out);

// The surface of whole pieces lying flat at one height (surface_patches.cpp): one triangulation of
// their union over its own corners, when that takes fewer triangles than `triangles` (their
// rings, counter-clockwise) and they join cleanly; empty otherwise (they keep their own).
std::vector<Triangle2> flatPatchSurface(const std::vector<GroundTriangle>& triangles);

// ---------------------------------------------------------------------------------------------
// Stage 6 (connections.cpp): walkable links between layers, merged into maximal collinear portals.
std::vector<Connection> buildConnections(const std::vector<Piece>& pieces, const std::vector<Link>& links,
                                         const std::vector<uint32_t>& layer_of,
                                         const std::vector<Plane>& planes);

} // namespace clearway::bake::footprint_internal
