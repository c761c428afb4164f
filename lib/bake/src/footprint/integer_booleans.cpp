// Integer polygon booleans for the footprint stage: Clipper (Angus Johnson, Clipper 6.4.2), an
// implementation of Vatti's sweep (B. R. Vatti, "A generic solution to polygon clipping", 1992),
// on coordinates rounded to the kIntegerUnit grid; exact integer arithmetic inside the sweep.
#include "footprint/integer_booleans.h"

#include <clearway/bake/geometry.h>

#include <polyclipping/clipper.hpp>

#include <stdexcept>
#include <unordered_map>

namespace clearway::bake::footprint_internal {

namespace {

using ClipperLib::IntPoint;
using ClipperLib::Path;
using ClipperLib::Paths;

constexpr double kScale = 1.0 / kIntegerUnit;
// Grid coordinates stay below 2^52: far inside Clipper's range, and exact as doubles on the way
// back (4e9 m at 2^-20 m; the output grid check stops levels long before that).
constexpr double kMaxUnits = 4503599627370496.0;
// Cut pieces keep this far (in grid units) inside their exact region: blockers grow by it and the
// triangle shrinks by it. Rounding moves a vertex by at most 0.71 units (the input's and the
// sweep's new crossings), so a cut piece stays strictly inside its exact region, and pieces that
// touch exactly (a floor and the balcony above its hole) never overlap.
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

// A convex polygon (counter-clockwise) grown by kPieceInset units, rounded: every edge moves out
// by that distance; a corner is mitred, or bevelled where the turn exceeds 120 degrees (the mitre
// would reach more than twice as far). Either way the grown polygon holds every point within
// kPieceInset of the original, and a corner stays one or two vertices, so the pieces keep the
// exact difference's vertex structure (and their triangulations).
Path grownConvex(const Polygon& convex) {
    std::vector<Vec2> v;
    for (auto p = convex.vertices_begin(); p != convex.vertices_end(); ++p) {
        const Vec2 q{CGAL::to_double(p->x()) * kScale, CGAL::to_double(p->y()) * kScale};
        if (v.empty() || q.x != v.back().x || q.y != v.back().y) v.push_back(q);
    }
    while (v.size() > 1 && v.front().x == v.back().x && v.front().y == v.back().y)
        v.pop_back();
    const size_t n = v.size();
    if (n < 3) return {};
    std::vector<Vec2> direction(n), normal(n); // of edge i, from v[i] to v[i + 1]
    for (size_t i = 0; i < n; ++i) {
        const Vec2& a = v[i];
        const Vec2& b = v[(i + 1) % n];
        const double len = std::hypot(b.x - a.x, b.y - a.y);
        direction[i] = {(b.x - a.x) / len, (b.y - a.y) / len};
        normal[i] = {direction[i].y, -direction[i].x}; // outwards for counter-clockwise
    }
    const double d = kPieceInset;
    Path path;
    auto add = [&](double x, double y) {
        path.emplace_back(toUnits(x * kIntegerUnit), toUnits(y * kIntegerUnit));
    };
    for (size_t i = 0; i < n; ++i) {
        const Vec2& n1 = normal[(i + n - 1) % n];
        const Vec2& n2 = normal[i];
        const double cosine = n1.x * n2.x + n1.y * n2.y;
        if (1 + cosine >= 0.5) {
            add(v[i].x + d * (n1.x + n2.x) / (1 + cosine), v[i].y + d * (n1.y + n2.y) / (1 + cosine));
        } else {
            const Vec2& t1 = direction[(i + n - 1) % n];
            const Vec2& t2 = direction[i];
            add(v[i].x + d * (n1.x + t1.x), v[i].y + d * (n1.y + t1.y));
            add(v[i].x + d * (n2.x - t2.x), v[i].y + d * (n2.y - t2.y));
        }
    }
    return path;
}

// The triangle shrunk by kPieceInset units (a homothety about its incentre), rounded; nothing
// when it is thinner than that.
Path insetTriangle(const Polygon& triangle) {
    Vec2 v[3];
    for (int i = 0; i < 3; ++i)
        v[i] = {CGAL::to_double(triangle[i].x()) * kScale, CGAL::to_double(triangle[i].y()) * kScale};
    double side[3], perimeter = 0;
    for (int i = 0; i < 3; ++i)
        perimeter += side[i] =
            std::hypot(v[(i + 2) % 3].x - v[(i + 1) % 3].x, v[(i + 2) % 3].y - v[(i + 1) % 3].y);
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
    if (ClipperLib::Orientation(path) == positive && std::abs(ClipperLib::Area(path)) > 0)
        out.push_back(path);
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
    geometry::canonicalize(polygons, lessPoint);
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

// Welding of rounded vertices: hash and equality of integer points.
struct PointHash {
    size_t operator()(const IntPoint& p) const {
        return std::hash<uint64_t>()(uint64_t(p.X) * 0x9E3779B97F4A7C15ull ^ uint64_t(p.Y));
    }
};
struct PointEqual {
    bool operator()(const IntPoint& a, const IntPoint& b) const { return a.X == b.X && a.Y == b.Y; }
};

// The triangles' edges that no other triangle runs the other way, with multiplicity: a -> b
// cancels against b -> a (an edge two triangles share is interior). Vertices are welded by their
// rounded coordinates; a triangle that rounding flattened or turned over is left out, as
// addKeepingOrientation leaves it out of the sweep.
struct BoundaryEdges {
    std::vector<IntPoint> vertices;
    struct Edge {
        uint32_t from, to;
        int32_t count;
    };
    std::vector<Edge> edges; // in order of first appearance
};

BoundaryEdges boundaryEdges(const std::vector<GroundTriangle>& triangles) {
    BoundaryEdges out;
    std::unordered_map<IntPoint, uint32_t, PointHash, PointEqual> vertex_of;
    std::unordered_map<uint64_t, uint32_t> edge_of; // from << 32 | to -> index in out.edges
    vertex_of.reserve(triangles.size());
    edge_of.reserve(triangles.size() * 2);
    auto vertexId = [&](const IntPoint& p) {
        auto [it, inserted] = vertex_of.emplace(p, uint32_t(out.vertices.size()));
        if (inserted) out.vertices.push_back(p);
        return it->second;
    };
    auto addEdge = [&](uint32_t a, uint32_t b) {
        auto reverse = edge_of.find(uint64_t(b) << 32 | a);
        if (reverse != edge_of.end() && out.edges[reverse->second].count > 0) {
            --out.edges[reverse->second].count;
            return;
        }
        auto [it, inserted] = edge_of.emplace(uint64_t(a) << 32 | b, uint32_t(out.edges.size()));
        if (inserted)
            out.edges.push_back({a, b, 1});
        else
            ++out.edges[it->second].count;
    };
    for (const GroundTriangle& t : triangles) {
        const Path path = toPath(std::vector<Vec2>(t.begin(), t.end()));
        if (!(ClipperLib::Area(path) > 0)) continue;
        const uint32_t id[3] = {vertexId(path[0]), vertexId(path[1]), vertexId(path[2])};
        for (int k = 0; k < 3; ++k)
            addEdge(id[k], id[(k + 1) % 3]);
    }
    return out;
}

// Whether b lies on the straight line from a on to c, strictly between them.
bool straightThrough(const IntPoint& a, const IntPoint& b, const IntPoint& c) {
    const __int128 cross =
        static_cast<__int128>(b.X - a.X) * (c.Y - b.Y) - static_cast<__int128>(b.Y - a.Y) * (c.X - b.X);
    const __int128 dot =
        static_cast<__int128>(b.X - a.X) * (c.X - b.X) + static_cast<__int128>(b.Y - a.Y) * (c.Y - b.Y);
    return cross == 0 && dot > 0;
}

// The ring without its straight-through vertices, in one pass (a stack) plus the wrap-around.
Path withoutStraightVertices(const Path& ring) {
    Path out;
    out.reserve(ring.size());
    for (const IntPoint& p : ring) {
        while (out.size() >= 2 && straightThrough(out[out.size() - 2], out.back(), p))
            out.pop_back();
        out.push_back(p);
    }
    while (out.size() >= 3) {
        const size_t n = out.size();
        if (straightThrough(out[n - 2], out[n - 1], out[0]))
            out.pop_back();
        else if (straightThrough(out[n - 1], out[0], out[1]))
            out.erase(out.begin());
        else
            break;
    }
    return out;
}

// The boundary rings of the union of counter-clockwise triangles, traced over shared edges in
// time linear in their number. Every vertex has as many boundary edges in as out (each triangle
// is a cycle, and a cancelled pair takes one in and one out from both ends), so a walk along
// unused edges can only stop where it started: the walks split the edges into closed rings. Along
// them the winding number of every point is the number of triangles covering it, so whatever the
// walks choose at a vertex where rings touch, the rings enclose exactly the triangles' union under
// the non-zero rule (overlapping triangles and T-junctions included). Straight-through vertices
// (a flat grid's seams) are dropped: a flat square of any number of triangles is one 4-vertex ring.
Paths triangleUnionRings(const std::vector<GroundTriangle>& triangles) {
    const BoundaryEdges boundary = boundaryEdges(triangles);
    const size_t vertex_count = boundary.vertices.size();
    // Boundary edges bucketed by their start (counting sort): vertex v's run from first_out[v].
    std::vector<uint32_t> first_out(vertex_count + 1, 0);
    for (const BoundaryEdges::Edge& e : boundary.edges)
        first_out[e.from + 1] += uint32_t(e.count);
    for (size_t v = 0; v < vertex_count; ++v)
        first_out[v + 1] += first_out[v];
    std::vector<uint32_t> next_unused(first_out.begin(), first_out.end() - 1);
    std::vector<uint32_t> edge_end(first_out.back());
    for (const BoundaryEdges::Edge& e : boundary.edges)
        for (int32_t c = 0; c < e.count; ++c)
            edge_end[next_unused[e.from]++] = e.to;
    next_unused.assign(first_out.begin(), first_out.end() - 1);
    Paths rings;
    Path ring;
    for (uint32_t start = 0; start < vertex_count; ++start)
        while (next_unused[start] < first_out[start + 1]) {
            ring.clear();
            for (uint32_t v = start; next_unused[v] < first_out[v + 1]; v = edge_end[next_unused[v]++])
                ring.push_back(boundary.vertices[v]);
            Path straight = withoutStraightVertices(ring);
            if (straight.size() >= 3) rings.push_back(std::move(straight));
        }
    return rings;
}

} // namespace

std::vector<PolygonWH> integerDifference(const Polygon& triangle, const std::vector<Polygon>& blockers) {
    const Path base = insetTriangle(triangle);
    if (base.empty()) return {};
    ClipperLib::Clipper clipper;
    clipper.StrictlySimple(true);
    addCounterClockwise(base, ClipperLib::ptSubject, clipper);
    for (const Polygon& blocker : blockers)
        addCounterClockwise(grownConvex(blocker), ClipperLib::ptClip, clipper);
    ClipperLib::PolyTree tree;
    clipper.Execute(ClipperLib::ctDifference, tree, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
    return canonicalPolygons(tree);
}

std::vector<PolygonWH> integerUnionMinus(const std::vector<PolygonWH>& polys,
                                         const std::vector<GroundTriangle>& triangles,
                                         const std::vector<std::vector<Vec2>>& cuts) {
    Paths rings = triangleUnionRings(triangles);
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

namespace {

Paths toPaths(const IntegerRegion& region) {
    Paths paths(region.size());
    for (size_t i = 0; i < region.size(); ++i)
        for (const IntegerPoint& p : region[i])
            paths[i].emplace_back(p.x, p.y);
    return paths;
}

IntegerRegion toRegion(const Paths& paths) {
    IntegerRegion region(paths.size());
    for (size_t i = 0; i < paths.size(); ++i)
        for (const IntPoint& p : paths[i])
            region[i].push_back({p.X, p.Y});
    return region;
}

IntegerRegion execute(ClipperLib::ClipType type, const IntegerRegion& subject, const IntegerRegion& clip,
                      ClipperLib::PolyFillType fill) {
    ClipperLib::Clipper clipper;
    clipper.AddPaths(toPaths(subject), ClipperLib::ptSubject, true);
    clipper.AddPaths(toPaths(clip), ClipperLib::ptClip, true);
    Paths out;
    clipper.Execute(type, out, fill, fill);
    return toRegion(out);
}

} // namespace

IntegerPoint toIntegerPoint(double x, double y) {
    return {toUnits(x), toUnits(y)};
}

Vec2 fromIntegerPoint(const IntegerPoint& p) {
    return {fromUnits(p.x), fromUnits(p.y)};
}

IntegerRegion integerEvenOdd(const IntegerRegion& rings) {
    return execute(ClipperLib::ctUnion, rings, {}, ClipperLib::pftEvenOdd);
}

IntegerRegion integerUnion(const IntegerRegion& rings) {
    return execute(ClipperLib::ctUnion, rings, {}, ClipperLib::pftNonZero);
}

IntegerRegion integerMinus(const IntegerRegion& a, const IntegerRegion& b) {
    return execute(ClipperLib::ctDifference, a, b, ClipperLib::pftNonZero);
}

double integerArea(const IntegerRegion& region) {
    double area = 0;
    for (const Path& ring : toPaths(region))
        area += ClipperLib::Area(ring);
    return area * kIntegerUnit * kIntegerUnit;
}

} // namespace clearway::bake::footprint_internal
