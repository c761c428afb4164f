// Designer edits (Nieuwenhuisen et al. 2004 "Conclusions": fake obstacles, manual nodes and edges, weights):
// the sidecar parser, obstacles cut from the footprint, manual nodes/edges and weighted areas added to the
// roadmap, off-mesh links between nodes. docs/formats.md "Designer edits" documents the format.
#include <clearway/bake.h>

#include <clearway/bake/geometry.h>
#include "edits/edits_internal.h"
#include "roadmap/roadmap_internal.h"

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Polygon_2.h>
#include <CGAL/Polygon_set_2.h>
#include <CGAL/Polygon_with_holes_2.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <sys/stat.h>

namespace clearway::bake {

namespace edits_detail {

bool insideRing(const Ring& ring, Vec2 p) {
    bool inside = false;
    for (size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
        const Vec2 a = ring[i], b = ring[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
            inside = !inside;
    }
    return inside;
}

bool parseNumber(const std::string& text, double* out, std::string* problem) {
    if (text.empty()) {
        *problem = "a number is missing";
        return false;
    }
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) {
        *problem = "'" + text + "' is not a number";
        return false;
    }
    if (!std::isfinite(v)) {
        *problem = "'" + text + "' is not a finite number";
        return false;
    }
    *out = v;
    return true;
}

// "type T" (0 .. 63) or "flags F" (1 .. 65535, decimal or 0x hex) at tokens[i], for query filters.
bool parseTypeOrFlags(const std::vector<std::string>& tokens, size_t i, uint8_t* type_out,
                      uint16_t* flags_out, std::string* problem) {
    const bool type = tokens[i] == "type";
    const unsigned long max = type ? 63 : 65535;
    const std::string value = i + 1 < tokens.size() ? tokens[i + 1] : "";
    errno = 0;
    char* end = nullptr;
    const unsigned long v = std::strtoul(value.c_str(), &end, type ? 10 : 0);
    if (value.empty() || value[0] == '-' || *end != '\0' || errno != 0 || v > max || (!type && v == 0)) {
        *problem = type ? "type must be an integer 0 .. 63, got '" + value + "'"
                        : "flags must be an integer 1 .. 65535 (decimal or 0x hex), got '" + value + "'";
        return false;
    }
    if (type)
        *type_out = uint8_t(v);
    else
        *flags_out = uint16_t(v);
    return true;
}

double segmentToWalls(const std::vector<WallSegment>& walls, Vec2 a, Vec2 b) {
    double best = INFINITY;
    for (const WallSegment& w : walls)
        best = std::min(best, geometry::segmentSegmentDistance(a, b, w.a, w.b));
    return best;
}

} // namespace edits_detail

namespace {

using edits_detail::insideRing;
using edits_detail::parseNumber;
using edits_detail::parseTypeOrFlags;
using edits_detail::segmentToWalls;

using namespace geometry;
using K = CGAL::Exact_predicates_exact_constructions_kernel;
using Point = K::Point_2;
using CgalPolygon = CGAL::Polygon_2<K>;
using CgalPolygonWH = CGAL::Polygon_with_holes_2<K>;
using PolygonSet = CGAL::Polygon_set_2<K>;

constexpr const char* kVersionLine = "clearway-edits";
constexpr int kVersion = 1;

Error editError(const std::string& source, uint32_t line, const std::string& what) {
    return {ErrorCode::ReadFailed, source + ":" + std::to_string(line) + ": " + what};
}

// ---------------------------------------------------------------------------------------------
// Parsing

// "a,b" or "a,b,c" -> `count` finite numbers.
bool parseTuple(const std::string& token, size_t count, double* out, std::string* problem) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t comma = token.find(',', start);
        parts.push_back(token.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (parts.size() != count) {
        *problem = "'" + token + "' is not a point of " + std::to_string(count) + " comma-separated numbers" +
                   (count == 2 ? " (x,z: the two horizontal axes)" : " (x,y,z)");
        return false;
    }
    for (size_t i = 0; i < count; ++i)
        if (!parseNumber(parts[i], &out[i], problem)) {
            *problem = "in point '" + token + "': " + *problem;
            return false;
        }
    return true;
}

bool validName(const std::string& name) {
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
    return name != "floor";
}

// Segments pq and rs share a point (touching counts).
bool segmentsMeet(Vec2 p, Vec2 q, Vec2 r, Vec2 s) {
    return segmentSegmentDistance(p, q, r, s) == 0.0;
}

double signedArea(const std::vector<Vec2>& ring) {
    double twice = 0;
    for (size_t i = 0; i < ring.size(); ++i) {
        const Vec2 a = ring[i], b = ring[(i + 1) % ring.size()];
        twice += a.x * b.y - b.x * a.y;
    }
    return twice / 2;
}

// A simple polygon: at least 3 distinct points, non-zero area, no edge meeting a non-adjacent
// one, no adjacent edges folding back onto each other.
std::string polygonProblem(const std::vector<Vec2>& pts) {
    if (pts.size() < 3) return "a polygon needs at least 3 points (got " + std::to_string(pts.size()) + ")";
    const size_t n = pts.size();
    for (size_t i = 0; i < n; ++i)
        if (pts[i].x == pts[(i + 1) % n].x && pts[i].y == pts[(i + 1) % n].y)
            return "point " + std::to_string((i + 1) % n + 1) + " repeats point " + std::to_string(i + 1);
    double extent = 0;
    for (const Vec2& p : pts)
        extent = std::max({extent, std::abs(p.x - pts[0].x), std::abs(p.y - pts[0].y)});
    // All on one line: zero area (checked first, it is the clearer message for it).
    bool collinear = true;
    for (size_t i = 2; i < n && collinear; ++i)
        collinear = std::abs(cross(pts[0], pts[1], pts[i])) <= 1e-12 * std::max(extent * extent, 1e-300);
    if (collinear) return "the polygon has zero area (its points lie on one line)";
    for (size_t i = 0; i < n; ++i) {
        const Vec2 a = pts[i], b = pts[(i + 1) % n], c = pts[(i + 2) % n];
        // Adjacent edges: only their shared point may meet, so c must not lie back on a-b.
        if (cross(a, b, c) == 0 && (c.x - b.x) * (a.x - b.x) + (c.y - b.y) * (a.y - b.y) > 0)
            return "the polygon crosses itself: edge " + std::to_string((i + 1) % n + 1) +
                   " folds back onto edge " + std::to_string(i + 1);
        for (size_t j = i + 2; j < n; ++j) {
            if (i == 0 && j == n - 1) continue; // adjacent through the closing edge
            if (segmentsMeet(a, b, pts[j], pts[(j + 1) % n]))
                return "the polygon crosses itself: edge " + std::to_string(i + 1) + " (points " +
                       std::to_string(i + 1) + "-" + std::to_string((i + 1) % n + 1) + ") meets edge " +
                       std::to_string(j + 1) + " (points " + std::to_string(j + 1) + "-" +
                       std::to_string((j + 1) % n + 1) + ")";
        }
    }
    if (!(std::abs(signedArea(pts)) > 1e-12 * std::max(extent * extent, 1e-300)))
        return "the polygon has zero area";
    return "";
}

// Polygon tokens: points, then optionally "floor H" at the end.
bool parsePolygon(const std::vector<std::string>& tokens, size_t first, uint32_t line, EditPolygon* out,
                  std::string* problem) {
    out->line = line;
    size_t end = tokens.size();
    if (end >= first + 2 && tokens[end - 2] == "floor") {
        if (!parseNumber(tokens[end - 1], &out->floor, problem)) {
            *problem = "floor: " + *problem;
            return false;
        }
        out->has_floor = true;
        end -= 2;
    }
    for (size_t i = first; i < end; ++i) {
        if (tokens[i] == "floor") {
            *problem = "'floor' takes one height and comes last";
            return false;
        }
        double xy[2];
        if (!parseTuple(tokens[i], 2, xy, problem)) return false;
        out->points.push_back({xy[0], xy[1]});
    }
    // A closing point that repeats the first is accepted and dropped.
    if (out->points.size() > 3 && out->points.front().x == out->points.back().x &&
        out->points.front().y == out->points.back().y)
        out->points.pop_back();
    *problem = polygonProblem(out->points);
    return problem->empty();
}

// An area's optional "type T" and "flags F" after its weight; *next moves past them to the first
// point.
bool parseAreaTags(const std::vector<std::string>& tokens, size_t* next, EditArea* area,
                   std::string* problem) {
    for (size_t& i = *next; i < tokens.size() && (tokens[i] == "type" || tokens[i] == "flags"); i += 2)
        if (!parseTypeOrFlags(tokens, i, &area->type, &area->flags, problem)) return false;
    return true;
}

// ---------------------------------------------------------------------------------------------
// Footprint geometry in local coordinates

bool insideLayer(const FootprintLayer& layer, Vec2 p) {
    bool inside = false;
    for (const PolygonWithHoles& poly : layer.polygons) {
        inside ^= insideRing(poly.outer, p);
        for (const Ring& h : poly.holes)
            inside ^= insideRing(h, p);
    }
    return inside;
}

// Local ground-plane point of world horizontal coordinates (h0, h1) at world height `up`.
Vec3 localOf(const Footprint& fp, double h0, double h1, double up) {
    const Vec3 world = fp.options.up == UpAxis::Y ? Vec3{h0, up, h1} : Vec3{h0, h1, up};
    const Vec3 internal = worldToInternal(world, fp.options);
    return {internal.x - fp.origin.x, internal.y - fp.origin.y, internal.z - fp.origin.z};
}

Ring localPolygon(const Footprint& fp, const EditPolygon& polygon) {
    Ring ring;
    for (const Vec2& p : polygon.points) {
        const Vec3 l = localOf(fp, p.x, p.y, 0);
        ring.push_back({l.x, l.y});
    }
    if (signedArea(ring) < 0) std::reverse(ring.begin(), ring.end());
    return ring;
}

bool ringsOverlap(const Ring& a, const Ring& b) {
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < b.size(); ++j)
            if (segmentsMeet(a[i], a[(i + 1) % a.size()], b[j], b[(j + 1) % b.size()])) return true;
    return insideRing(a, b[0]) || insideRing(b, a[0]);
}

bool polygonOverlapsLayer(const FootprintLayer& layer, const Ring& polygon) {
    for (const PolygonWithHoles& p : layer.polygons)
        if (ringsOverlap(p.outer, polygon)) {
            // Inside a hole entirely (and not touching any ring) covers nothing of this polygon.
            bool in_hole = false;
            for (const Ring& h : p.holes) {
                bool touches = false;
                for (size_t i = 0; i < h.size() && !touches; ++i)
                    for (size_t j = 0; j < polygon.size() && !touches; ++j)
                        touches = segmentsMeet(h[i], h[(i + 1) % h.size()], polygon[j],
                                               polygon[(j + 1) % polygon.size()]);
                if (!touches && insideRing(h, polygon[0])) in_hole = true;
            }
            if (!in_hole) return true;
        }
    return false;
}

// Layers a polygon statement applies to: with `floor`, the overlapped layer whose surface at the
// polygon's centre is nearest that height; else every layer it overlaps.
std::vector<uint32_t> layersFor(const Footprint& fp, const EditPolygon& statement, const Ring& polygon) {
    std::vector<uint32_t> layers;
    for (uint32_t l = 0; l < fp.layers.size(); ++l)
        if (polygonOverlapsLayer(fp.layers[l], polygon)) layers.push_back(l);
    if (!statement.has_floor || layers.size() <= 1) return layers;
    Vec2 centre{0, 0};
    for (const Vec2& p : polygon)
        centre = {centre.x + p.x / polygon.size(), centre.y + p.y / polygon.size()};
    const double target = localOf(fp, statement.points[0].x, statement.points[0].y, statement.floor).z;
    uint32_t best = layers[0];
    double best_gap = INFINITY;
    for (uint32_t l : layers) {
        const double gap = std::abs(surfaceHeight(fp.layers[l], centre) - target);
        if (gap < best_gap) best_gap = gap, best = l;
    }
    return {best};
}

// ---------------------------------------------------------------------------------------------
// Obstacles: exact difference, then the footprint's grid

struct IPoint {
    int64_t x, y;
    bool operator==(const IPoint& o) const { return x == o.x && y == o.y; }
};

__int128 orient(IPoint a, IPoint b, IPoint c) {
    return static_cast<__int128>(b.x - a.x) * (c.y - a.y) - static_cast<__int128>(b.y - a.y) * (c.x - a.x);
}

bool onInterior(IPoint p, IPoint a, IPoint b) {
    if (p == a || p == b || orient(a, b, p) != 0) return false;
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

// Exact: do segments s and t cross or touch other than at a shared endpoint?
bool badPair(IPoint sa, IPoint sb, IPoint ta, IPoint tb) {
    if (onInterior(ta, sa, sb) || onInterior(tb, sa, sb) || onInterior(sa, ta, tb) || onInterior(sb, ta, tb))
        return true;
    const __int128 o1 = orient(sa, sb, ta), o2 = orient(sa, sb, tb), o3 = orient(ta, tb, sa),
                   o4 = orient(ta, tb, sb);
    return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

// Repeated points and zero-width spikes (a, b, a) that rounding can leave.
void cleanRing(std::vector<IPoint>& ring) {
    for (bool changed = true; changed && ring.size() >= 3;) {
        changed = false;
        for (size_t i = 0; i < ring.size() && ring.size() >= 3; ++i) {
            const size_t n = ring.size();
            const IPoint prev = ring[(i + n - 1) % n], next = ring[(i + 1) % n];
            const bool spike = orient(prev, ring[i], next) == 0 &&
                               (static_cast<__int128>(ring[i].x - prev.x) * (next.x - ring[i].x) +
                                static_cast<__int128>(ring[i].y - prev.y) * (next.y - ring[i].y)) <= 0;
            if (ring[i] == next || spike) {
                ring.erase(ring.begin() + static_cast<long>(i));
                changed = true;
                break;
            }
        }
    }
    if (ring.size() < 3) ring.clear();
}

__int128 twiceArea(const std::vector<IPoint>& ring) {
    __int128 twice = 0;
    for (size_t i = 0; i < ring.size(); ++i) {
        const IPoint a = ring[i], b = ring[(i + 1) % ring.size()];
        twice += static_cast<__int128>(a.x) * b.y - static_cast<__int128>(b.x) * a.y;
    }
    return twice;
}

// The ring split at repeated vertices into simple loops (a footprint ring may touch itself at a
// vertex); their symmetric difference is the ring's region.
std::vector<std::vector<Vec2>> simpleLoops(const Ring& ring) {
    std::vector<std::vector<Vec2>> loops;
    std::vector<Vec2> stack;
    for (const Vec2& p : ring) {
        auto same =
            std::find_if(stack.begin(), stack.end(), [&](const Vec2& q) { return q.x == p.x && q.y == p.y; });
        if (same != stack.end()) {
            loops.emplace_back(same, stack.end());
            stack.erase(same + 1, stack.end());
        } else {
            stack.push_back(p);
        }
    }
    loops.push_back(stack);
    loops.erase(
        std::remove_if(loops.begin(), loops.end(), [](const std::vector<Vec2>& l) { return l.size() < 3; }),
        loops.end());
    return loops;
}

CgalPolygon cgalCcw(const std::vector<Vec2>& pts) {
    CgalPolygon poly;
    for (const Vec2& p : pts)
        poly.push_back(Point(p.x, p.y));
    if (poly.orientation() == CGAL::CLOCKWISE) poly.reverse_orientation();
    return poly;
}

bool boxesMeet(const Ring& a, const Ring& b) {
    double ax0 = INFINITY, ay0 = INFINITY, ax1 = -INFINITY, ay1 = -INFINITY;
    double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
    for (const Vec2& p : a)
        ax0 = std::min(ax0, p.x), ay0 = std::min(ay0, p.y), ax1 = std::max(ax1, p.x),
        ay1 = std::max(ay1, p.y);
    for (const Vec2& p : b)
        bx0 = std::min(bx0, p.x), by0 = std::min(by0, p.y), bx1 = std::max(bx1, p.x),
        by1 = std::max(by1, p.y);
    return ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1;
}

// Subtracts `obstacle` (local, ccw) from one layer. Polygons away from it are kept as they are;
// the others go through an exact difference whose new vertices (crossings) are rounded onto the
// grid, then an exact check that no boundary segments cross.
Error cutLayer(FootprintLayer& layer, const Ring& obstacle, double q, const std::string& where) {
    std::vector<PolygonWithHoles> kept, cut;
    for (PolygonWithHoles& p : layer.polygons)
        (boxesMeet(p.outer, obstacle) ? cut : kept).push_back(std::move(p));
    layer.polygons.clear();
    const CgalPolygon hole = cgalCcw(obstacle);
    std::vector<std::vector<IPoint>> new_rings;
    std::vector<bool> new_outer;
    std::vector<size_t> owner; // per new ring: which of the new polygons it belongs to
    size_t polygon_count = 0;
    auto toGrid = [q](const Point& p) {
        return IPoint{std::llround(CGAL::to_double(p.x()) / q), std::llround(CGAL::to_double(p.y()) / q)};
    };
    for (const PolygonWithHoles& p : cut) {
        PolygonSet set;
        for (const auto& loop : simpleLoops(p.outer))
            set.symmetric_difference(cgalCcw(loop));
        for (const Ring& h : p.holes)
            for (const auto& loop : simpleLoops(h))
                set.symmetric_difference(cgalCcw(loop));
        set.difference(hole);
        std::vector<CgalPolygonWH> pieces;
        set.polygons_with_holes(std::back_inserter(pieces));
        for (const CgalPolygonWH& piece : pieces) {
            auto add = [&](const CgalPolygon& ring, bool outer) {
                std::vector<IPoint> pts;
                for (auto v = ring.vertices_begin(); v != ring.vertices_end(); ++v)
                    pts.push_back(toGrid(*v));
                cleanRing(pts);
                // Slivers that round to (almost) nothing are dropped, as footprint.cpp does.
                if (pts.empty() || (twiceArea(pts) < 0 ? -twiceArea(pts) : twiceArea(pts)) < 8) return false;
                if ((twiceArea(pts) > 0) != outer) std::reverse(pts.begin(), pts.end());
                new_rings.push_back(std::move(pts));
                new_outer.push_back(outer);
                owner.push_back(polygon_count);
                return true;
            };
            if (!add(piece.outer_boundary(), true)) continue;
            for (auto h = piece.holes_begin(); h != piece.holes_end(); ++h)
                add(*h, false);
            ++polygon_count;
        }
    }
    // Exact crossing check: every new segment against every other boundary segment nearby.
    struct Seg {
        IPoint a, b;
    };
    std::vector<Seg> fresh, all;
    for (const auto& ring : new_rings)
        for (size_t i = 0; i < ring.size(); ++i)
            fresh.push_back({ring[i], ring[(i + 1) % ring.size()]});
    all = fresh;
    auto push = [&](const Ring& r) {
        auto grid = [&](const Vec2& v) { return IPoint{std::llround(v.x / q), std::llround(v.y / q)}; };
        for (size_t i = 0; i < r.size(); ++i)
            all.push_back({grid(r[i]), grid(r[(i + 1) % r.size()])});
    };
    for (const PolygonWithHoles& p : kept) {
        push(p.outer);
        for (const Ring& h : p.holes)
            push(h);
    }
    for (size_t i = 0; i < fresh.size(); ++i) {
        const Seg& s = fresh[i];
        const int64_t x0 = std::min(s.a.x, s.b.x), x1 = std::max(s.a.x, s.b.x), y0 = std::min(s.a.y, s.b.y),
                      y1 = std::max(s.a.y, s.b.y);
        for (size_t j = i + 1; j < all.size(); ++j) {
            const Seg& t = all[j];
            if (std::max(t.a.x, t.b.x) < x0 || std::min(t.a.x, t.b.x) > x1 || std::max(t.a.y, t.b.y) < y0 ||
                std::min(t.a.y, t.b.y) > y1)
                continue;
            if (badPair(s.a, s.b, t.a, t.b))
                return {ErrorCode::Internal, where +
                                                 ": the cut boundary crosses itself after rounding near (" +
                                                 std::to_string(double(s.a.x) * q) + ", " +
                                                 std::to_string(double(s.a.y) * q) + ")"};
        }
    }
    std::vector<PolygonWithHoles> out = std::move(kept);
    const size_t base = out.size();
    out.resize(base + polygon_count);
    for (size_t r = 0; r < new_rings.size(); ++r) {
        Ring pts;
        for (const IPoint& p : new_rings[r])
            pts.push_back({double(p.x) * q, double(p.y) * q});
        if (new_outer[r])
            out[base + owner[r]].outer = std::move(pts);
        else
            out[base + owner[r]].holes.push_back(std::move(pts));
    }
    canonicalize(out);
    layer.polygons = std::move(out);
    layer.area = 0;
    for (const PolygonWithHoles& p : layer.polygons) {
        layer.area += signedArea(p.outer);
        for (const Ring& h : p.holes)
            layer.area += signedArea(h);
    }
    return {};
}

// Portal segments of connections touching `layers` keep only their parts outside the obstacle.
void clipConnections(Footprint& fp, const std::vector<uint32_t>& layers, const Ring& obstacle) {
    std::vector<Connection> out;
    for (const Connection& c : fp.connections) {
        const bool touched = std::find(layers.begin(), layers.end(), c.layer_a) != layers.end() ||
                             std::find(layers.begin(), layers.end(), c.layer_b) != layers.end();
        if (!touched) {
            out.push_back(c);
            continue;
        }
        std::vector<double> ts{0.0, 1.0};
        for (size_t i = 0; i < obstacle.size(); ++i) {
            const Vec2 a = obstacle[i], b = obstacle[(i + 1) % obstacle.size()];
            const Vec2 d{c.p1.x - c.p0.x, c.p1.y - c.p0.y}, e{b.x - a.x, b.y - a.y};
            const double den = d.x * e.y - d.y * e.x;
            if (den == 0) continue;
            const double t = ((a.x - c.p0.x) * e.y - (a.y - c.p0.y) * e.x) / den;
            const double u = ((a.x - c.p0.x) * d.y - (a.y - c.p0.y) * d.x) / den;
            if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push_back(t);
        }
        std::sort(ts.begin(), ts.end());
        const double length = dist(c.p0, c.p1);
        auto lerp = [](double a, double b, double t) { return a + (b - a) * t; };
        for (size_t k = 0; k + 1 < ts.size(); ++k) {
            const double t0 = ts[k], t1 = ts[k + 1], tm = (t0 + t1) / 2;
            if ((t1 - t0) * length < 1e-3) continue;
            if (insideRing(obstacle, {lerp(c.p0.x, c.p1.x, tm), lerp(c.p0.y, c.p1.y, tm)})) continue;
            Connection piece = c;
            piece.p0 = {lerp(c.p0.x, c.p1.x, t0), lerp(c.p0.y, c.p1.y, t0)};
            piece.p1 = {lerp(c.p0.x, c.p1.x, t1), lerp(c.p0.y, c.p1.y, t1)};
            piece.z_a0 = lerp(c.z_a0, c.z_a1, t0), piece.z_a1 = lerp(c.z_a0, c.z_a1, t1);
            piece.z_b0 = lerp(c.z_b0, c.z_b1, t0), piece.z_b1 = lerp(c.z_b0, c.z_b1, t1);
            out.push_back(piece);
        }
    }
    fp.connections = std::move(out);
}

// ---------------------------------------------------------------------------------------------
// Nodes and edges

std::string nodeLabel(const EditNode& node) {
    if (!node.name.empty()) return "node '" + node.name + "'";
    char text[128];
    std::snprintf(text, sizeof text, "point %.9g,%.9g,%.9g", node.world.x, node.world.y, node.world.z);
    return text;
}

struct PlacedNode {
    Vec2 p;
    double z = 0;
    uint32_t layer = 0;
};

// The layer a node stands on: among the layers containing it, the surface nearest its height.
Error placeNode(const Footprint& fp, const std::string& source, const EditNode& node, PlacedNode* out) {
    const Vec3 local = localOf(fp, node.world.x, fp.options.up == UpAxis::Y ? node.world.z : node.world.y,
                               fp.options.up == UpAxis::Y ? node.world.y : node.world.z);
    const Vec2 p{local.x, local.y};
    double best_gap = INFINITY;
    for (uint32_t l = 0; l < fp.layers.size(); ++l) {
        if (!insideLayer(fp.layers[l], p)) continue;
        const double z = surfaceHeight(fp.layers[l], p);
        if (std::abs(z - local.z) < best_gap) best_gap = std::abs(z - local.z), *out = {p, z, l};
    }
    if (!(best_gap < INFINITY))
        return editError(source, node.line, nodeLabel(node) + " lies outside every walkable layer");
    if (distanceToWalls(layerWalls(fp.layers[out->layer]), p) <= 0)
        return editError(source, node.line, nodeLabel(node) + " lies on a wall");
    return {};
}

Error checkEdge(const Footprint& fp, const std::string& source, const LevelEdits& edits, const EditEdge& edge,
                const PlacedNode& a, const PlacedNode& b) {
    const std::string what =
        "edge from " + nodeLabel(edits.nodes[edge.a]) + " to " + nodeLabel(edits.nodes[edge.b]);
    if (a.layer != b.layer)
        return editError(source, edge.line,
                         what + " joins two layers (" + std::to_string(a.layer) + " and " +
                             std::to_string(b.layer) + "); an edge stays on one layer");
    if (dist(a.p, b.p) <= 0) return editError(source, edge.line, what + " has zero length");
    // Every ring edge, portal pieces included: touching one means passing a wall or leaving the layer.
    if (segmentToWalls(layerWalls(fp.layers[a.layer]), a.p, b.p) <= 0)
        return editError(source, edge.line,
                         what + " passes through a wall or leaves the walkable area (radius 0)");
    return {};
}

Error placeAll(const Footprint& fp, const LevelEdits& edits, std::vector<PlacedNode>* placed) {
    placed->resize(edits.nodes.size());
    for (size_t i = 0; i < edits.nodes.size(); ++i)
        if (Error e = placeNode(fp, edits.source, edits.nodes[i], &(*placed)[i])) return e;
    for (const EditEdge& edge : edits.edges)
        if (Error e = checkEdge(fp, edits.source, edits, edge, (*placed)[edge.a], (*placed)[edge.b]))
            return e;
    for (const EditLink& link : edits.links) {
        const PlacedNode &a = (*placed)[link.a], &b = (*placed)[link.b];
        if (a.layer == b.layer && a.p.x == b.p.x && a.p.y == b.p.y && a.z == b.z)
            return editError(edits.source, link.line,
                             "link from " + nodeLabel(edits.nodes[link.a]) + " to " +
                                 nodeLabel(edits.nodes[link.b]) + " has zero length");
    }
    return {};
}

// An edge's or link's two ends (tokens 1 and 2): node names, or x,y,z points that become unnamed
// nodes on this line.
bool parseEnds(const std::vector<std::string>& tokens, uint32_t line,
               const std::map<std::string, uint32_t>& names, LevelEdits* edits, uint32_t* a, uint32_t* b,
               std::string* problem) {
    uint32_t ends[2];
    for (int k = 0; k < 2; ++k) {
        const std::string& operand = tokens[1 + k];
        if (operand.find(',') != std::string::npos) {
            double xyz[3];
            if (!parseTuple(operand, 3, xyz, problem)) return false;
            EditNode node;
            node.line = line;
            node.world = {xyz[0], xyz[1], xyz[2]};
            ends[k] = uint32_t(edits->nodes.size());
            edits->nodes.push_back(node);
        } else {
            const auto it = names.find(operand);
            if (it == names.end()) {
                *problem = "unknown node '" + operand + "' (define it with 'node " + operand +
                           " x,y,z' on an earlier line)";
                return false;
            }
            ends[k] = it->second;
        }
    }
    if (ends[0] == ends[1]) {
        *problem = "both ends are node '" + tokens[1] + "'";
        return false;
    }
    *a = ends[0], *b = ends[1];
    return true;
}

} // namespace

// ---------------------------------------------------------------------------------------------

std::string defaultEditsPath(const std::string& mesh_path) {
    const size_t slash = mesh_path.find_last_of('/');
    const size_t dot = mesh_path.find_last_of('.');
    const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
    return (has_ext ? mesh_path.substr(0, dot) : mesh_path) + ".cwedit";
}

std::string editsPathFor(const std::string& mesh_path, const std::string& explicit_path, bool use_edits) {
    if (!use_edits) return "";
    if (!explicit_path.empty()) return explicit_path;
    const std::string sidecar = defaultEditsPath(mesh_path);
    struct stat info {};
    return stat(sidecar.c_str(), &info) == 0 ? sidecar : "";
}

Error parseEdits(const std::string& text, const std::string& source, LevelEdits* out) {
    LevelEdits edits;
    edits.source = source;
    edits.text = text;
    std::map<std::string, uint32_t> names; // name -> node index
    bool have_version = false;
    std::istringstream stream(text);
    std::string raw;
    uint32_t line = 0;
    std::vector<std::string> tokens;
    std::string problem;
    while (std::getline(stream, raw)) {
        ++line;
        const size_t hash = raw.find('#');
        if (hash != std::string::npos) raw.erase(hash);
        std::istringstream words(raw);
        tokens.clear();
        for (std::string w; words >> w;)
            tokens.push_back(w);
        if (tokens.empty()) continue;
        const std::string& keyword = tokens[0];
        auto fail = [&](const std::string& what) { return editError(source, line, what); };
        if (!have_version) {
            if (keyword != kVersionLine)
                return fail("missing version line: the first statement must be '" +
                            std::string(kVersionLine) + " " + std::to_string(kVersion) + "' (got '" +
                            keyword + "')");
            if (tokens.size() != 2 || tokens[1] != std::to_string(kVersion))
                return fail("unsupported version '" + (tokens.size() > 1 ? tokens[1] : std::string()) +
                            "': this baker reads '" + kVersionLine + " " + std::to_string(kVersion) + "'");
            have_version = true;
            continue;
        }
        if (keyword == kVersionLine) return fail("the version line appears twice");
        if (keyword == "obstacle") {
            EditPolygon polygon;
            if (!parsePolygon(tokens, 1, line, &polygon, &problem)) return fail("obstacle: " + problem);
            edits.obstacles.push_back(std::move(polygon));
        } else if (keyword == "area") {
            EditArea area;
            if (tokens.size() < 2) return fail("area: the weight is missing (area WEIGHT x,z x,z x,z ...)");
            if (!parseNumber(tokens[1], &area.weight, &problem)) return fail("area: weight: " + problem);
            if (!(area.weight > 0))
                return fail("area: the weight must be > 0 (> 1 avoided, < 1 preferred), got " + tokens[1]);
            size_t first_point = 2;
            if (!parseAreaTags(tokens, &first_point, &area, &problem)) return fail("area: " + problem);
            if (!parsePolygon(tokens, first_point, line, &area.polygon, &problem))
                return fail("area: " + problem);
            edits.areas.push_back(std::move(area));
        } else if (keyword == "node") {
            if (tokens.size() != 3) return fail("node: expected 'node NAME x,y,z'");
            if (!validName(tokens[1]))
                return fail("node: bad name '" + tokens[1] +
                            "' (a letter or _ first, then letters, digits, _ - .; not 'floor')");
            EditNode node;
            node.line = line;
            node.name = tokens[1];
            double xyz[3];
            if (!parseTuple(tokens[2], 3, xyz, &problem)) return fail("node '" + node.name + "': " + problem);
            node.world = {xyz[0], xyz[1], xyz[2]};
            const auto [it, added] = names.insert({node.name, uint32_t(edits.nodes.size())});
            if (!added)
                return fail("node '" + node.name + "' is already defined on line " +
                            std::to_string(edits.nodes[it->second].line));
            edits.nodes.push_back(node);
        } else if (keyword == "edge") {
            if (tokens.size() != 3) return fail("edge: expected 'edge A B' (node names or x,y,z points)");
            EditEdge edge;
            edge.line = line;
            if (!parseEnds(tokens, line, names, &edits, &edge.a, &edge.b, &problem))
                return fail("edge: " + problem);
            edits.edges.push_back(edge);
        } else if (keyword == "link") {
            if (tokens.size() < 3)
                return fail(
                    "link: expected 'link A B [oneway] [kind K] [cost C] [width W] [flags F] [type T]'");
            EditLink link;
            link.line = line;
            if (!parseEnds(tokens, line, names, &edits, &link.a, &link.b, &problem) ||
                !edits_detail::parseLinkOptions(tokens, &link, &problem))
                return fail("link: " + problem);
            edits.links.push_back(link);
        } else {
            return fail("unknown statement '" + keyword + "' (expected obstacle, area, node, edge or link)");
        }
    }
    if (!have_version)
        return editError(source, std::max<uint32_t>(line, 1),
                         "missing version line: the file must start with '" + std::string(kVersionLine) +
                             " " + std::to_string(kVersion) + "'");
    *out = std::move(edits);
    return {};
}

Error loadEdits(const std::string& path, LevelEdits* out) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return {ErrorCode::FileNotFound, path + ": no such file"};
    std::ifstream stream(path, std::ios::binary);
    if (!stream) return {ErrorCode::ReadFailed, path + ": cannot open file for reading"};
    const std::string text((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    return parseEdits(text, path, out);
}

uint64_t inputHashWithEdits(uint64_t mesh_hash, const LevelEdits& edits) {
    if (edits.source.empty()) return mesh_hash;
    return fnv1a64(edits.text.data(), edits.text.size(), mesh_hash);
}

Error applyFootprintEdits(const LevelEdits& edits, Footprint* footprint, LogContext& log) {
    if (edits.source.empty()) return {};
    Footprint& fp = *footprint;
    try {
        for (const EditPolygon& obstacle : edits.obstacles) {
            const Ring polygon = localPolygon(fp, obstacle);
            const std::vector<uint32_t> layers = layersFor(fp, obstacle, polygon);
            if (layers.empty()) {
                log.log(LogLevel::Warn, edits.source + ":" + std::to_string(obstacle.line) +
                                            ": obstacle covers no walkable layer (nothing cut)");
                continue;
            }
            for (uint32_t l : layers) {
                const std::string where = edits.source + ":" + std::to_string(obstacle.line) +
                                          ": obstacle on layer " + std::to_string(l);
                if (Error e = cutLayer(fp.layers[l], polygon, fp.grid_spacing, where)) return e;
            }
            clipConnections(fp, layers, polygon);
        }
    } catch (const std::exception& e) {
        return {ErrorCode::Internal,
                edits.source + ": geometry kernel failure while cutting obstacles: " + e.what()};
    }
    std::vector<PlacedNode> placed;
    return placeAll(fp, edits, &placed);
}

Error applyRoadmapEdits(const LevelEdits& edits, Roadmap* roadmap, LogContext& log) {
    if (edits.source.empty()) return {};
    Roadmap& rm = *roadmap;
    const Footprint& fp = rm.footprint;
    std::vector<PlacedNode> placed;
    if (Error e = placeAll(fp, edits, &placed)) return e;
    std::vector<std::vector<WallSegment>> solid(fp.layers.size()), rings(fp.layers.size());
    for (uint32_t l = 0; l < fp.layers.size(); ++l) {
        solid[l] = solidLayerWalls(fp, l);
        rings[l] = layerWalls(fp.layers[l]);
    }
    const uint32_t roadmap_vertices = uint32_t(rm.vertices.size());
    auto addEdge = [&](uint32_t a, uint32_t b, double clearance) {
        RoadmapEdge e;
        e.a = a;
        e.b = b;
        const Vec2 pa{rm.vertices[a].position.x, rm.vertices[a].position.y};
        const Vec2 pb{rm.vertices[b].position.x, rm.vertices[b].position.y};
        e.points = {pa, pb};
        e.min_clearance = clearance;
        e.site = ClearanceSite::Walls;
        // As the bake's own joins: the wall points are not tracked for straight designer edges.
        e.left_a = e.right_a = pa;
        e.left_b = e.right_b = pb;
        e.setSidesFromEnds();
        rm.edges.push_back(e);
    };
    std::vector<uint32_t> vertex_of(edits.nodes.size());
    std::vector<bool> link_end(edits.nodes.size(), false);
    for (const EditLink& link : edits.links)
        link_end[link.a] = link_end[link.b] = true;
    for (size_t i = 0; i < edits.nodes.size(); ++i) {
        const PlacedNode& node = placed[i];
        RoadmapVertex v;
        v.position = {node.p.x, node.p.y, node.z};
        v.layer = node.layer;
        v.clearance = distanceToWalls(solid[node.layer], node.p);
        vertex_of[i] = uint32_t(rm.vertices.size());
        rm.vertices.push_back(v);
        // A link's end joins the nearest edge it sees (links.cpp), other nodes as below.
        if (link_end[i] &&
            edits_detail::joinAtNearestEdge(&rm, vertex_of[i], fp, solid[node.layer], rings[node.layer]))
            continue;
        // Linked like a portal (roadmap/joins.cpp joinLayers): the nearest medial-axis vertex in
        // sight with clearance > 0, else the nearest in sight.
        std::vector<std::pair<double, uint32_t>> order;
        for (uint32_t k = 0; k < roadmap_vertices; ++k)
            if (rm.vertices[k].layer == node.layer)
                order.push_back({dist(node.p, {rm.vertices[k].position.x, rm.vertices[k].position.y}), k});
        std::sort(order.begin(), order.end());
        bool linked = false;
        for (int pass = 0; pass < 2 && !linked; ++pass)
            for (const auto& [d, k] : order) {
                if (pass == 0 && rm.vertices[k].clearance <= 0) continue;
                const Vec2 pk{rm.vertices[k].position.x, rm.vertices[k].position.y};
                if (d > 0 && segmentToWalls(rings[node.layer], node.p, pk) <= 0) continue;
                addEdge(vertex_of[i], k, d > 0 ? segmentToWalls(solid[node.layer], node.p, pk) : v.clearance);
                linked = true;
                break;
            }
        if (!linked)
            log.log(LogLevel::Warn, edits.source + ":" + std::to_string(edits.nodes[i].line) + ": " +
                                        nodeLabel(edits.nodes[i]) +
                                        " sees no roadmap vertex: only its own edges reach it");
    }
    for (const EditEdge& edge : edits.edges) {
        const PlacedNode& a = placed[edge.a];
        addEdge(vertex_of[edge.a], vertex_of[edge.b], segmentToWalls(solid[a.layer], a.p, placed[edge.b].p));
    }
    rm.links.clear();
    for (const EditLink& link : edits.links)
        rm.links.push_back({vertex_of[link.a], vertex_of[link.b], link.cost, link.width / 2, link.flags,
                            link.type, link.kind, link.bidirectional});

    // Areas, per layer they apply to, then every edge's cost per metre.
    rm.areas.clear();
    for (const EditArea& area : edits.areas) {
        const Ring polygon = localPolygon(fp, area.polygon);
        const std::vector<uint32_t> layers = layersFor(fp, area.polygon, polygon);
        if (layers.empty())
            log.log(LogLevel::Warn, edits.source + ":" + std::to_string(area.polygon.line) +
                                        ": area covers no walkable layer (no effect)");
        for (uint32_t l : layers)
            rm.areas.push_back({l, area.weight, polygon, area.type, area.flags});
    }
    edits_detail::computeAreaCosts(&rm);
    return {};
}

} // namespace clearway::bake
