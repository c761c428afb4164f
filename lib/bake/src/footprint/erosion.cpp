// Erosion of a footprint by a disc (the area an agent of a given radius can reach with its centre).
//
// Method, per layer, all in exact linear CGAL sets (Epeck):
//   S  = the layer polygons
//   S' = S plus, for every portal of the layer, a rectangle of depth radius + margin on the side of
//        the portal that is outside S (a portal is open, not a wall)
//   walls = the points within `radius` of the boundary of S': per boundary edge the rectangle it
//           sweeps inwards, per non-convex vertex a disc (only there can a vertex be the nearest
//           boundary point of an interior point)
//   result = S minus walls
// Tolerance: the straight walls are exact up to double rounding of the edge normals (~1e-15 m).
// The discs are regular 96-gons with the disc's area, whose edges stay within r * 5.4e-4 of the
// circle; that only touches the rounded corners, so the error is far below 1e-3 relative.
// CGAL's approximated_offset_2 was tried first and dropped: it fails an internal assertion (and
// segfaults in release builds) on real footprints with tiny edges.
// Any CGAL failure (exception) turns into NaN: the function never throws.
#include <clearway/bake.h>

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Polygon_2.h>
#include <CGAL/Polygon_set_2.h>
#include <CGAL/Polygon_with_holes_2.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>

namespace clearway::bake {
namespace {

using K = CGAL::Exact_predicates_exact_constructions_kernel;
using Point = K::Point_2;
using Polygon = CGAL::Polygon_2<K>;
using Pwh = CGAL::Polygon_with_holes_2<K>;
using LinearSet = CGAL::Polygon_set_2<K>;
using Points = std::vector<Point>;

constexpr int kDiscSides = 96;
const double kPi = 3.14159265358979323846;

// Keeps a cycle that encloses area, counter-clockwise. CGAL's boolean operations crash (no
// exception in release builds) on self-intersecting input, so that is checked and thrown here.
void addCycle(Points::const_iterator begin, Points::const_iterator end, std::vector<Polygon>* out) {
    if (end - begin < 3) return; // a spike or a point: no area
    Polygon poly(begin, end);
    if (poly.orientation() == CGAL::COLLINEAR) return;
    if (!poly.is_simple()) throw std::runtime_error("self-intersecting ring");
    if (poly.orientation() == CGAL::CLOCKWISE) poly.reverse_orientation();
    out->push_back(std::move(poly));
}

// Splits a closed ring at repeated vertices (pinches, where a boundary touches itself) into simple
// cycles. The region a ring bounds is the even-odd combination of its cycles.
void splitRing(const Points& ring, std::vector<Polygon>* out) {
    Points stack;
    std::map<Point, size_t, K::Less_xy_2> where;
    for (const Point& p : ring) {
        auto it = where.find(p);
        if (it == where.end()) {
            where.emplace(p, stack.size());
            stack.push_back(p);
            continue;
        }
        const size_t from = it->second;
        addCycle(stack.begin() + from, stack.end(), out);
        for (size_t k = from + 1; k < stack.size(); ++k)
            where.erase(stack[k]);
        stack.resize(from + 1);
    }
    addCycle(stack.begin(), stack.end(), out);
}

Points toPoints(const Ring& ring) {
    Points points;
    points.reserve(ring.size());
    for (const Vec2& v : ring)
        points.emplace_back(v.x, v.y);
    return points;
}

// The layer as an exact set; ring orientation and pinched rings in the input are tolerated.
LinearSet layerSet(const FootprintLayer& layer) {
    LinearSet set;
    std::vector<Polygon> cycles;
    for (const PolygonWithHoles& pwh : layer.polygons) {
        cycles.clear();
        splitRing(toPoints(pwh.outer), &cycles);
        for (const Ring& hole : pwh.holes)
            splitRing(toPoints(hole), &cycles);
        LinearSet piece;
        for (const Polygon& c : cycles)
            piece.symmetric_difference(c);
        set.join(piece);
    }
    return set;
}

// Rectangle on the side of the portal p0-p1 that lies outside `set`; nothing when both sides are
// inside (portal in the middle of the layer) or the portal is degenerate.
void addPortalRectangle(const LinearSet& set, const Vec2& p0, const Vec2& p1, double depth, LinearSet* out) {
    const double dx = p1.x - p0.x, dy = p1.y - p0.y;
    const double len = std::hypot(dx, dy);
    if (!(len > 1e-9)) return;
    const double nx = -dy / len, ny = dx / len; // left normal
    const double probe = std::min(1e-3, 0.01 * len);
    const double mx = 0.5 * (p0.x + p1.x), my = 0.5 * (p0.y + p1.y);
    const bool left_in = set.oriented_side(Point(mx + nx * probe, my + ny * probe)) != CGAL::ON_NEGATIVE_SIDE;
    const bool right_in =
        set.oriented_side(Point(mx - nx * probe, my - ny * probe)) != CGAL::ON_NEGATIVE_SIDE;
    for (int side : {1, -1}) {
        if ((side == 1 && left_in) || (side == -1 && right_in)) continue;
        const double ox = nx * depth * side, oy = ny * depth * side;
        Polygon rect;
        rect.push_back(Point(p0.x, p0.y));
        rect.push_back(Point(p1.x, p1.y));
        rect.push_back(Point(p1.x + ox, p1.y + oy));
        rect.push_back(Point(p0.x + ox, p0.y + oy));
        if (rect.orientation() == CGAL::COLLINEAR) continue;
        if (rect.orientation() == CGAL::CLOCKWISE) rect.reverse_orientation();
        out->join(rect);
    }
}

// Adds the wall pieces of one boundary ring (region on its left, as CGAL outputs outer boundaries
// and holes): the inward rectangle of every edge and a disc at every vertex that is not convex.
void addWalls(const Polygon& ring, double r, const std::vector<Vec2>& disc, std::vector<Polygon>* out) {
    const size_t n = ring.size();
    for (size_t i = 0; i < n; ++i) {
        const Point& a = ring[i];
        const Point& b = ring[(i + 1) % n];
        const double ax = CGAL::to_double(a.x()), ay = CGAL::to_double(a.y());
        const double bx = CGAL::to_double(b.x()), by = CGAL::to_double(b.y());
        const double len = std::hypot(bx - ax, by - ay);
        if (len > 1e-12) {
            const double nx = -(by - ay) / len * r, ny = (bx - ax) / len * r; // left = inwards
            Polygon rect;
            rect.push_back(a);
            rect.push_back(b);
            rect.push_back(Point(bx + nx, by + ny));
            rect.push_back(Point(ax + nx, ay + ny));
            if (rect.orientation() == CGAL::COUNTERCLOCKWISE && rect.is_simple())
                out->push_back(std::move(rect));
        }
        // Vertex b between edges a-b and b-c: a strictly convex corner is covered by the two
        // rectangles; a reflex corner, a spike or a pinch needs the disc.
        const Point& c = ring[(i + 2) % n];
        const CGAL::Orientation turn = CGAL::orientation(a, b, c);
        if (turn == CGAL::LEFT_TURN) continue;
        if (turn == CGAL::COLLINEAR && (b - a) * (c - b) > 0) continue;
        Polygon circle;
        for (const Vec2& d : disc)
            circle.push_back(Point(bx + d.x, by + d.y));
        out->push_back(std::move(circle));
    }
}

// Regular polygon with the area of the disc of radius r (so its error averages out).
std::vector<Vec2> discOffsets(double r) {
    const double scale = std::sqrt(2.0 * kPi / (kDiscSides * std::sin(2.0 * kPi / kDiscSides)));
    std::vector<Vec2> out(kDiscSides);
    for (int i = 0; i < kDiscSides; ++i) {
        const double angle = 2.0 * kPi * i / kDiscSides;
        out[i] = {r * scale * std::cos(angle), r * scale * std::sin(angle)};
    }
    return out;
}

double areaOf(const LinearSet& set) {
    std::vector<Pwh> pieces;
    set.polygons_with_holes(std::back_inserter(pieces));
    K::FT area = 0;
    for (const Pwh& p : pieces) {
        area += CGAL::abs(p.outer_boundary().area());
        for (auto h = p.holes_begin(); h != p.holes_end(); ++h)
            area -= CGAL::abs(h->area());
    }
    return CGAL::to_double(area);
}

double erodedLayerArea(const FootprintLayer& layer, uint32_t index,
                       const std::vector<Connection>& connections, double radius) {
    LinearSet result = layerSet(layer);
    if (result.is_empty() || radius == 0) return areaOf(result);

    LinearSet extended = result;
    const double depth = radius + std::max(0.01, 0.05 * radius);
    for (const Connection& c : connections) {
        if (c.layer_a == index || c.layer_b == index)
            addPortalRectangle(result, c.p0, c.p1, depth, &extended);
    }

    // Walls come from the boundary of the extended set: portal edges are inside it, so they never bite.
    std::vector<Pwh> pieces;
    extended.polygons_with_holes(std::back_inserter(pieces));
    const std::vector<Vec2> disc = discOffsets(radius);
    std::vector<Polygon> walls;
    for (const Pwh& p : pieces) {
        addWalls(p.outer_boundary(), radius, disc, &walls);
        for (auto h = p.holes_begin(); h != p.holes_end(); ++h)
            addWalls(*h, radius, disc, &walls);
    }
    LinearSet wall_set;
    wall_set.join(walls.begin(), walls.end());
    result.difference(wall_set);
    return areaOf(result);
}

} // namespace

double erodedArea(const Footprint& footprint, double radius) {
    if (!std::isfinite(radius) || radius < 0) return std::numeric_limits<double>::quiet_NaN();
    try {
        double total = 0;
        for (size_t i = 0; i < footprint.layers.size(); ++i)
            total +=
                erodedLayerArea(footprint.layers[i], static_cast<uint32_t>(i), footprint.connections, radius);
        return total;
    } catch (...) {
        // Broken input (a self-intersecting ring) or a CGAL failure: callers get NaN.
        return std::numeric_limits<double>::quiet_NaN();
    }
}

} // namespace clearway::bake
