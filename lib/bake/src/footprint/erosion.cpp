// Erosion of a footprint by a disc (the area an agent of a given radius can reach with its centre).
//
// Method, per layer, in the footprint's integer booleans (integer_booleans.cpp, a 2^-20 m grid):
//   S  = the layer polygons
//   S' = S plus, for every portal of the layer, a rectangle of depth radius + margin on the side of
//        the portal that is outside S (a portal is open, not a wall)
//   walls = the points within `radius` of the boundary of S': per boundary edge the rectangle it
//           sweeps inwards, per non-convex vertex a disc (only there can a vertex be the nearest
//           boundary point of an interior point)
//   result = S minus walls
// Tolerance: corners land on the 2^-20 m grid (~1e-6 m). The discs are regular 96-gons with the
// disc's area, whose edges stay within r * 5.4e-4 of the circle; that only touches the rounded
// corners, so the error is far below 1e-3 relative.
// CGAL's approximated_offset_2 was tried first and dropped: it fails an internal assertion (and
// segfaults in release builds) on real footprints with tiny edges.
// Any failure (exception) turns into NaN: the function never throws.
#include "footprint/integer_booleans.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace clearway::bake {
namespace {

using footprint_internal::fromIntegerPoint;
using footprint_internal::IntegerPoint;
using footprint_internal::IntegerRegion;
using footprint_internal::IntegerRing;
using footprint_internal::K;
using footprint_internal::Point;
using footprint_internal::Polygon;
using footprint_internal::toIntegerPoint;
using Points = std::vector<Point>;

constexpr int kDiscSides = 96;
const double kPi = 3.14159265358979323846;

// Keeps a cycle that encloses area. A self-intersecting ring has no well-defined inside: the
// exact simplicity test refuses it (thrown here, NaN for the caller).
void addCycle(Points::const_iterator begin, Points::const_iterator end, IntegerRegion* out) {
    if (end - begin < 3) return; // a spike or a point: no area
    const Polygon poly(begin, end);
    if (poly.orientation() == CGAL::COLLINEAR) return;
    if (!poly.is_simple()) throw std::runtime_error("self-intersecting ring");
    IntegerRing ring;
    for (const Point& p : poly)
        ring.push_back(toIntegerPoint(CGAL::to_double(p.x()), CGAL::to_double(p.y())));
    out->push_back(std::move(ring));
}

// Splits a closed ring at repeated vertices (pinches, where a boundary touches itself) into simple
// cycles. The region a ring bounds is the even-odd combination of its cycles.
void splitRing(const Points& ring, IntegerRegion* out) {
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

// The layer as an integer region; ring orientation and pinched rings in the input are tolerated.
IntegerRegion layerRegion(const FootprintLayer& layer) {
    IntegerRegion all;
    for (const PolygonWithHoles& pwh : layer.polygons) {
        IntegerRegion cycles;
        splitRing(toPoints(pwh.outer), &cycles);
        for (const Ring& hole : pwh.holes)
            splitRing(toPoints(hole), &cycles);
        const IntegerRegion piece = footprint_internal::integerEvenOdd(cycles);
        all.insert(all.end(), piece.begin(), piece.end());
    }
    return footprint_internal::integerUnion(all);
}

// Whether p lies in the layer or on its boundary, decided exactly on the layer's own rings (each
// polygon's rings under the even-odd rule, as layerRegion combines them).
bool inLayer(const FootprintLayer& layer, const Point& p) {
    for (const PolygonWithHoles& pwh : layer.polygons) {
        bool inside = false;
        for (size_t r = 0; r <= pwh.holes.size(); ++r) {
            const Points ring = toPoints(r == 0 ? pwh.outer : pwh.holes[r - 1]);
            const CGAL::Bounded_side side = CGAL::bounded_side_2(ring.begin(), ring.end(), p, K());
            if (side == CGAL::ON_BOUNDARY) return true;
            inside ^= side == CGAL::ON_BOUNDED_SIDE;
        }
        if (inside) return true;
    }
    return false;
}

// Rectangle on the side of the portal p0-p1 that lies outside the layer; nothing when both sides
// are inside (portal in the middle of the layer) or the portal is degenerate. The side test is
// exact: a probe a few micrometres from a tiny portal must not depend on the integer grid.
void addPortalRectangle(const FootprintLayer& layer, const Vec2& p0, const Vec2& p1, double depth,
                        IntegerRegion* out) {
    const double dx = p1.x - p0.x, dy = p1.y - p0.y;
    const double len = std::hypot(dx, dy);
    if (!(len > 1e-9)) return;
    const double nx = -dy / len, ny = dx / len; // left normal
    const double probe = std::min(1e-3, 0.01 * len);
    const double mx = 0.5 * (p0.x + p1.x), my = 0.5 * (p0.y + p1.y);
    const bool left_in = inLayer(layer, Point(mx + nx * probe, my + ny * probe));
    const bool right_in = inLayer(layer, Point(mx - nx * probe, my - ny * probe));
    for (int side : {1, -1}) {
        if ((side == 1 && left_in) || (side == -1 && right_in)) continue;
        const double ox = nx * depth * side, oy = ny * depth * side;
        IntegerRing rect{toIntegerPoint(p0.x, p0.y), toIntegerPoint(p1.x, p1.y),
                         toIntegerPoint(p1.x + ox, p1.y + oy), toIntegerPoint(p0.x + ox, p0.y + oy)};
        if (side == -1) std::reverse(rect.begin(), rect.end()); // counter-clockwise
        out->push_back(std::move(rect));
    }
}

// Sign of the turn a -> b -> c (exact on the integer grid).
int turn(const IntegerPoint& a, const IntegerPoint& b, const IntegerPoint& c) {
    const __int128 cross =
        static_cast<__int128>(b.x - a.x) * (c.y - b.y) - static_cast<__int128>(b.y - a.y) * (c.x - b.x);
    return (cross > 0) - (cross < 0);
}

// Adds the wall pieces of one boundary ring (region on its left, as the integer booleans output
// outer boundaries and holes): the inward rectangle of every edge and a disc at every vertex that
// is not convex.
void addWalls(const IntegerRing& ring, double r, const std::vector<Vec2>& disc, IntegerRegion* out) {
    const size_t n = ring.size();
    for (size_t i = 0; i < n; ++i) {
        const IntegerPoint& a = ring[i];
        const IntegerPoint& b = ring[(i + 1) % n];
        const Vec2 da = fromIntegerPoint(a), db = fromIntegerPoint(b);
        const double len = std::hypot(db.x - da.x, db.y - da.y);
        if (len > 1e-12) {
            const double nx = -(db.y - da.y) / len * r, ny = (db.x - da.x) / len * r; // left = inwards
            out->push_back(
                {a, b, toIntegerPoint(db.x + nx, db.y + ny), toIntegerPoint(da.x + nx, da.y + ny)});
        }
        // Vertex b between edges a-b and b-c: a strictly convex corner is covered by the two
        // rectangles; a reflex corner, a spike or a pinch needs the disc.
        const IntegerPoint& c = ring[(i + 2) % n];
        const int t = turn(a, b, c);
        if (t > 0) continue;
        if (t == 0 &&
            static_cast<__int128>(b.x - a.x) * (c.x - b.x) + static_cast<__int128>(b.y - a.y) * (c.y - b.y) >
                0)
            continue;
        IntegerRing circle;
        for (const Vec2& d : disc)
            circle.push_back(toIntegerPoint(db.x + d.x, db.y + d.y));
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

double erodedLayerArea(const FootprintLayer& layer, uint32_t index,
                       const std::vector<Connection>& connections, double radius) {
    const IntegerRegion region = layerRegion(layer);
    if (region.empty() || radius == 0) return footprint_internal::integerArea(region);

    IntegerRegion extended = region;
    const double depth = radius + std::max(0.01, 0.05 * radius);
    for (const Connection& c : connections) {
        if (c.layer_a == index || c.layer_b == index) addPortalRectangle(layer, c.p0, c.p1, depth, &extended);
    }
    extended = footprint_internal::integerUnion(extended);

    // Walls come from the boundary of the extended set: portal edges are inside it, so they never bite.
    const std::vector<Vec2> disc = discOffsets(radius);
    IntegerRegion walls;
    for (const IntegerRing& ring : extended)
        addWalls(ring, radius, disc, &walls);
    return footprint_internal::integerArea(footprint_internal::integerMinus(region, walls));
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
        // Broken input (a self-intersecting ring) or a geometry failure: callers get NaN.
        return std::numeric_limits<double>::quiet_NaN();
    }
}

} // namespace clearway::bake
