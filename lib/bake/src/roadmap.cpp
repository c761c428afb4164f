// Exact medial-axis roadmap of a footprint: CGAL's segment Voronoi diagram of the walls, kept
// inside free space, with exact clearance along every edge.
//
// Every medial-axis edge is the bisector of two wall features (sites). Its clearance at any point
// is the distance to one of them: the point site, the parabola's focus, or the wall segment.
// Parabolic arcs are stored as chords within epsilon; a chord stays inside its focus's Voronoi
// cell (a point site's cell is star-shaped from it), so the distance to the focus is still the
// exact clearance there, and the chord's minimum is the exact distance from focus to chord.
#include <clearway/bake.h>

#include "geometry2d.h"
#include "segment_voronoi.h"

#include <CGAL/Cartesian.h>
#include <CGAL/MP_Float.h>
#include <CGAL/Quotient.h>
#include <CGAL/Snap_rounding_2.h>
#include <CGAL/Snap_rounding_traits_2.h>

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <chrono>
#include <cmath>
#include <list>
#include <map>
#include <memory>
#include <numeric>
#include <tuple>

namespace clearway::bake {

namespace {

using namespace voronoi;

// Medial-axis edges shorter than this are degenerate (cocircular sites) and collapse.
constexpr double kCollapseLength = 1e-6;

using namespace geometry;

// Even-odd point-in-region over y-bands of ring segments.
class RegionTest {
  public:
    explicit RegionTest(const std::vector<PolygonWithHoles>& region) {
        double min_y = INFINITY, max_y = -INFINITY;
        auto add = [&](const Ring& ring) {
            for (size_t i = 0; i < ring.size(); ++i) {
                segs_.push_back({ring[i], ring[(i + 1) % ring.size()]});
                min_y = std::min(min_y, ring[i].y), max_y = std::max(max_y, ring[i].y);
            }
        };
        for (const PolygonWithHoles& p : region) {
            add(p.outer);
            for (const Ring& h : p.holes)
                add(h);
        }
        if (segs_.empty()) return;
        min_y_ = min_y;
        // A query scans its band's segments: 4 sqrt(n) bands keep that short (the parity does not
        // depend on the band count: every segment straddling p.y is in p's band).
        bands_ = std::max<size_t>(1, size_t(4 * std::sqrt(double(segs_.size()))));
        height_ = std::max((max_y - min_y) / double(bands_), 1e-9);
        band_segs_.resize(bands_);
        for (uint32_t s = 0; s < segs_.size(); ++s) {
            const Vec2 p0 = segs_[s].a, p1 = segs_[s].b;
            const size_t b0 = band(std::min(p0.y, p1.y)), b1 = band(std::max(p0.y, p1.y));
            // Above every crossing x the test below can compute for this segment (its rounding
            // stays within a few ulps of the segment's x range).
            const double right = std::max(p0.x, p1.x) + 1e-12 * (std::abs(p0.x) + std::abs(p1.x)) + 1e-300;
            for (size_t b = b0; b <= b1; ++b)
                band_segs_[b].push_back({right, s});
        }
        for (auto& segs : band_segs_)
            std::sort(segs.begin(), segs.end(),
                      [](const auto& x, const auto& y) { return x.first > y.first; });
    }
    bool inside(Vec2 p) const {
        if (segs_.empty()) return false;
        bool in = false;
        // Segments ending left of p cannot pass the crossing test: the scan stops at the first.
        for (const auto& [right, s] : band_segs_[band(p.y)]) {
            if (!(p.x < right)) break;
            const Vec2 a = segs_[s].a, b = segs_[s].b;
            if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) in = !in;
        }
        return in;
    }

  private:
    size_t band(double y) const {
        return size_t(std::clamp(std::floor((y - min_y_) / height_), 0.0, double(bands_ - 1)));
    }
    std::vector<WallSegment> segs_;
    std::vector<std::vector<std::pair<double, uint32_t>>> band_segs_; // (right end, segment), by right end
    double min_y_ = 0, height_ = 1;
    size_t bands_ = 1;
};

// Walls onto the grid, without crossings, overlaps, duplicates or zero-length pieces. Walls
// already on the grid and free of crossings (every footprint) pass through unchanged; others go
// through CGAL's iterated snap rounding, which splits crossings and never drops a piece.
std::vector<std::pair<GridKey, GridKey>> prepareWalls(const std::vector<WallSegment>& walls, double q) {
    std::vector<std::pair<GridKey, GridKey>> out;
    bool on_grid = true;
    for (const WallSegment& w : walls)
        for (Vec2 p : {w.a, w.b})
            on_grid = on_grid && std::nearbyint(p.x / q) * q == p.x && std::nearbyint(p.y / q) * q == p.y;
    if (on_grid) {
        for (const WallSegment& w : walls)
            out.push_back({{std::llround(w.a.x / q), std::llround(w.a.y / q)},
                           {std::llround(w.b.x / q), std::llround(w.b.y / q)}});
    }
    // Crossing check on the integer grid (exact), with a sort-and-sweep over x.
    auto crossingFree = [](const std::vector<std::pair<GridKey, GridKey>>& segs) {
        auto orient = [](const GridKey& a, const GridKey& b, const GridKey& c) {
            const __int128 v = static_cast<__int128>(b.x - a.x) * (c.y - a.y) -
                               static_cast<__int128>(b.y - a.y) * (c.x - a.x);
            return v > 0 ? 1 : v < 0 ? -1 : 0;
        };
        auto between = [](const GridKey& a, const GridKey& b, const GridKey& p) {
            return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
                   p.y <= std::max(a.y, b.y);
        };
        std::vector<uint32_t> order(segs.size());
        std::iota(order.begin(), order.end(), 0);
        auto lo = [&](uint32_t i) { return std::min(segs[i].first.x, segs[i].second.x); };
        auto hi = [&](uint32_t i) { return std::max(segs[i].first.x, segs[i].second.x); };
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return lo(a) < lo(b); });
        for (size_t k = 0; k < order.size(); ++k) {
            const auto& s = segs[order[k]];
            if (s.first == s.second) return false;
            for (size_t m = k + 1; m < order.size() && lo(order[m]) <= hi(order[k]); ++m) {
                const auto& t = segs[order[m]];
                const int o1 = orient(s.first, s.second, t.first), o2 = orient(s.first, s.second, t.second);
                const int o3 = orient(t.first, t.second, s.first), o4 = orient(t.first, t.second, s.second);
                if (o1 * o2 < 0 && o3 * o4 < 0) return false;
                const bool shared =
                    s.first == t.first || s.first == t.second || s.second == t.first || s.second == t.second;
                // Touching anywhere but at shared endpoints (T-junctions, overlaps) needs rounding.
                if (o1 == 0 && between(s.first, s.second, t.first) &&
                    !(t.first == s.first || t.first == s.second))
                    return false;
                if (o2 == 0 && between(s.first, s.second, t.second) &&
                    !(t.second == s.first || t.second == s.second))
                    return false;
                if (o3 == 0 && between(t.first, t.second, s.first) &&
                    !(s.first == t.first || s.first == t.second))
                    return false;
                if (o4 == 0 && between(t.first, t.second, s.second) &&
                    !(s.second == t.first || s.second == t.second))
                    return false;
                if (o1 == 0 && o2 == 0 && shared) {
                    // Collinear and sharing an endpoint: overlapping unless they point apart.
                    const GridKey common = (s.first == t.first || s.first == t.second) ? s.first : s.second;
                    const GridKey so = common == s.first ? s.second : s.first;
                    const GridKey to = common == t.first ? t.second : t.first;
                    if ((so.x - common.x) * (to.x - common.x) + (so.y - common.y) * (to.y - common.y) > 0)
                        return false;
                }
            }
        }
        return true;
    };
    auto dedupe = [](std::vector<std::pair<GridKey, GridKey>>& segs) {
        for (auto& s : segs)
            if (s.second < s.first) std::swap(s.first, s.second);
        std::sort(segs.begin(), segs.end());
        segs.erase(std::unique(segs.begin(), segs.end()), segs.end());
        segs.erase(
            std::remove_if(segs.begin(), segs.end(), [](const auto& s) { return s.first == s.second; }),
            segs.end());
    };
    if (on_grid) {
        dedupe(out);
        if (crossingFree(out)) return out;
        out.clear();
    }
    using SrKernel = CGAL::Cartesian<CGAL::Quotient<CGAL::MP_Float>>;
    using SrTraits = CGAL::Snap_rounding_traits_2<SrKernel>;
    std::list<SrKernel::Segment_2> input;
    std::vector<std::pair<GridKey, GridKey>> posts; // zero-length walls: CGAL's sweep rejects them
    for (const WallSegment& w : walls) {
        if (w.a.x == w.b.x && w.a.y == w.b.y) {
            const GridKey k{std::llround(w.a.x / q), std::llround(w.a.y / q)};
            posts.push_back({k, k});
            continue;
        }
        // Shift by half a pixel: CGAL's pixel i spans [i q, (i+1) q), we want centres on i q.
        input.push_back(SrKernel::Segment_2(SrKernel::Point_2(w.a.x / q + 0.5, w.a.y / q + 0.5),
                                            SrKernel::Point_2(w.b.x / q + 0.5, w.b.y / q + 0.5)));
    }
    std::list<std::list<SrKernel::Point_2>> polylines;
    CGAL::snap_rounding_2<SrTraits>(input.begin(), input.end(), polylines, 1.0, true, true, 1);
    for (const auto& polyline : polylines) {
        GridKey prev{};
        bool first = true;
        for (const auto& p : polyline) {
            const GridKey k{std::llround(CGAL::to_double(p.x())), std::llround(CGAL::to_double(p.y()))};
            if (!first && !(k == prev)) out.push_back({prev, k});
            prev = k;
            first = false;
        }
        if (polyline.size() == 1) {
            // A wall shorter than a pixel is a point obstacle: keep it as a point-sized wall.
            out.push_back({prev, prev});
        }
    }
    // Iterated snap rounding leaves overlaps only as identical pieces: dedupe removes them.
    std::vector<std::pair<GridKey, GridKey>> points;
    for (const auto& s : out)
        if (s.first == s.second) points.push_back(s);
    points.insert(points.end(), posts.begin(), posts.end());
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    dedupe(out);
    out.insert(out.end(), points.begin(), points.end());
    return out;
}

enum class SiteKind { Point, Segment };
struct SiteGeom {
    SiteKind kind;
    Vec2 p0, p1;
};

SiteGeom siteOf(const SdgSite& s) {
    if (s.is_point())
        return {SiteKind::Point, {s.point().x(), s.point().y()}, {s.point().x(), s.point().y()}};
    return {SiteKind::Segment, {s.source().x(), s.source().y()}, {s.target().x(), s.target().y()}};
}

std::tuple<int, double, double, double, double> siteKey(const SiteGeom& s) {
    return {int(s.kind), s.p0.x, s.p0.y, s.p1.x, s.p1.y};
}

double siteDistance(const SiteGeom& s, Vec2 p) {
    return s.kind == SiteKind::Point ? dist(p, s.p0) : pointSegmentDistance(p, s.p0, s.p1);
}

Vec2 siteClosest(const SiteGeom& s, Vec2 p) {
    return s.kind == SiteKind::Point ? s.p0 : closestOnSegment(p, s.p0, s.p1);
}

bool samePoint(Vec2 a, Vec2 b) {
    return a.x == b.x && a.y == b.y;
}

// Points of the bisector of a point site (focus) and a segment site from c1 to c2: chords of the
// parabola no further than epsilon from it.
std::vector<Vec2> parabolaPoints(Vec2 focus, const SiteGeom& seg, Vec2 c1, Vec2 c2, double epsilon) {
    const double dx = seg.p1.x - seg.p0.x, dy = seg.p1.y - seg.p0.y, len = std::hypot(dx, dy);
    const Vec2 u{dx / len, dy / len};
    Vec2 n{-u.y, u.x};
    double d = (focus.x - seg.p0.x) * n.x + (focus.y - seg.p0.y) * n.y;
    if (d < 0) n = {-n.x, -n.y}, d = -d;
    if (d < 1e-12) return {c1, c2};
    const double tp = (focus.x - seg.p0.x) * u.x + (focus.y - seg.p0.y) * u.y;
    const double t1 = (c1.x - seg.p0.x) * u.x + (c1.y - seg.p0.y) * u.y;
    const double t2 = (c2.x - seg.p0.x) * u.x + (c2.y - seg.p0.y) * u.y;
    // Chord sagitta of y = t^2 / (2d) over a step h is h^2 / (8d).
    const double step = std::sqrt(8 * d * epsilon);
    const int pieces = std::clamp(int(std::ceil(std::abs(t2 - t1) / step)), 1, 1024);
    std::vector<Vec2> pts{c1};
    for (int k = 1; k < pieces; ++k) {
        const double t = t1 + (t2 - t1) * k / pieces;
        const double h = ((t - tp) * (t - tp) + d * d) / (2 * d);
        pts.push_back({seg.p0.x + t * u.x + h * n.x, seg.p0.y + t * u.y + h * n.y});
    }
    pts.push_back(c2);
    return pts;
}

// Distance to a site and its gradient at p.
double siteDistanceGradient(const SiteGeom& s, Vec2 p, Vec2* gradient) {
    const Vec2 c = siteClosest(s, p);
    const double d = dist(p, c);
    *gradient = d > 0 ? Vec2{(p.x - c.x) / d, (p.y - c.y) / d} : Vec2{0, 0};
    return d;
}

// CGAL's double construction of a Voronoi vertex can be off by 1e-4 m when two of its sites are
// nearly parallel or far away. A few Newton steps on d1 = d2 = d3 restore full precision; the
// refined point is kept only if it makes the three distances agree better.
Vec2 refineVoronoiVertex(Vec2 start, const SiteGeom sites[3]) {
    auto spread = [&](Vec2 p) {
        Vec2 g;
        const double d0 = siteDistanceGradient(sites[0], p, &g), d1 = siteDistanceGradient(sites[1], p, &g),
                     d2 = siteDistanceGradient(sites[2], p, &g);
        return std::max({d0, d1, d2}) - std::min({d0, d1, d2});
    };
    Vec2 p = start;
    double best = spread(p);
    for (int iteration = 0; iteration < 8 && best > 0; ++iteration) {
        Vec2 g0, g1, g2;
        const double d0 = siteDistanceGradient(sites[0], p, &g0);
        const double d1 = siteDistanceGradient(sites[1], p, &g1);
        const double d2 = siteDistanceGradient(sites[2], p, &g2);
        // Solve [g0 - g1; g0 - g2] delta = -[d0 - d1; d0 - d2].
        const double a = g0.x - g1.x, b = g0.y - g1.y, c = g0.x - g2.x, d = g0.y - g2.y;
        const double det = a * d - b * c;
        if (std::abs(det) < 1e-12) break;
        const double r0 = -(d0 - d1), r1 = -(d0 - d2);
        const Vec2 next{p.x + (r0 * d - b * r1) / det, p.y + (a * r1 - c * r0) / det};
        const double next_spread = spread(next);
        if (!(next_spread < best)) break;
        p = next;
        best = next_spread;
    }
    return p;
}

} // namespace

RoadmapOptions defaultRoadmapOptions() {
    return RoadmapOptions{};
}

std::vector<WallSegment> layerWalls(const FootprintLayer& layer) {
    std::vector<WallSegment> walls;
    auto add = [&](const Ring& ring) {
        for (size_t i = 0; i < ring.size(); ++i)
            walls.push_back({ring[i], ring[(i + 1) % ring.size()]});
    };
    for (const PolygonWithHoles& p : layer.polygons) {
        add(p.outer);
        for (const Ring& h : p.holes)
            add(h);
    }
    return walls;
}

double distanceToWalls(const std::vector<WallSegment>& walls, Vec2 p) {
    double best = INFINITY;
    for (const WallSegment& w : walls)
        best = std::min(best, pointSegmentDistance(p, w.a, w.b));
    return best;
}

Error medialAxis(const std::vector<WallSegment>& walls, const std::vector<PolygonWithHoles>& free_space,
                 double grid_spacing, const RoadmapOptions& options, uint32_t layer,
                 std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges, size_t* wall_sites) {
    const double q = grid_spacing;
    std::vector<std::pair<GridKey, GridKey>> segs = prepareWalls(walls, q);
    if (segs.empty()) return {};

    // The diagram is the largest structure of the bake: while it is alive only compact records
    // are kept (sites, refined vertex positions, one 16-byte record per candidate edge); it is
    // freed before the edges are expanded, in the same order, into RoadmapEdges.
    std::vector<SiteGeom> sites; // every site, in diagram vertex order
    std::vector<Vec2> positions; // refined Voronoi vertices, numbered in first-use order
    struct EdgeRecord {
        uint32_t v1, v2, sa, sb; // local vertex numbers; sites in the order the edge records them
    };
    std::vector<EdgeRecord> records;
    {
        auto sdg = std::make_unique<Sdg>();
        GridSegment bad{};
        if (insertWalls(*sdg, segs, q, &bad) != 0)
            return {ErrorCode::Internal,
                    "layer " + std::to_string(layer) + ": wall (" + std::to_string(double(bad.first.x) * q) +
                        ", " + std::to_string(double(bad.first.y) * q) + ") - (" +
                        std::to_string(double(bad.second.x) * q) + ", " +
                        std::to_string(double(bad.second.y) * q) + ") was rejected by the Voronoi builder"};
        size_t expected_segments = 0;
        for (const auto& s : segs)
            expected_segments += !(s.first == s.second);
        std::vector<std::pair<GridKey, GridKey>>().swap(segs); // inserted: not needed any more
        // No wall may be lost: every input segment must be a segment site of the diagram. Sites are
        // numbered here; a sorted address table finds a handle's number (16 bytes a key, a third
        // of a node-based hash map's).
        size_t segment_sites = 0;
        std::vector<std::pair<const void*, uint32_t>> site_of;
        site_of.reserve(sdg->number_of_vertices());
        sites.reserve(sdg->number_of_vertices());
        for (auto v = sdg->finite_vertices_begin(); v != sdg->finite_vertices_end(); ++v) {
            segment_sites += v->site().is_segment();
            site_of.push_back({&*v, uint32_t(sites.size())});
            sites.push_back(siteOf(v->site()));
        }
        if (segment_sites != expected_segments)
            return {ErrorCode::Internal, "layer " + std::to_string(layer) + ": " +
                                             std::to_string(expected_segments) + " walls but " +
                                             std::to_string(segment_sites) + " segment sites"};
        if (wall_sites) *wall_sites = segment_sites;
        std::sort(site_of.begin(), site_of.end());
        auto siteIndex = [&](Sdg::Vertex_handle v) {
            return std::lower_bound(site_of.begin(), site_of.end(), std::pair<const void*, uint32_t>{&*v, 0})
                ->second;
        };
        // Voronoi vertices: one per finite face, numbered in order of first use (deterministic).
        std::vector<std::pair<const void*, uint32_t>> face_vertex;
        face_vertex.reserve(sdg->number_of_faces());
        for (auto f = sdg->finite_faces_begin(); f != sdg->finite_faces_end(); ++f)
            face_vertex.push_back({&*f, UINT32_MAX});
        std::sort(face_vertex.begin(), face_vertex.end());
        positions.reserve(face_vertex.size());
        records.reserve(face_vertex.size() * 3 / 2); // a planar graph's edges: at most 3/2 per face
        auto vertexOf = [&](Sdg::Face_handle f) {
            uint32_t& number = std::lower_bound(face_vertex.begin(), face_vertex.end(),
                                                std::pair<const void*, uint32_t>{&*f, 0})
                                   ->second;
            if (number == UINT32_MAX) {
                number = uint32_t(positions.size());
                const SdgPoint c = sdg->primal(f);
                SiteGeom fs[3] = {sites[siteIndex(f->vertex(0))], sites[siteIndex(f->vertex(1))],
                                  sites[siteIndex(f->vertex(2))]};
                std::sort(fs, fs + 3,
                          [](const SiteGeom& x, const SiteGeom& y) { return siteKey(x) < siteKey(y); });
                Vec2 refined = refineVoronoiVertex({c.x(), c.y()}, fs);
                // CGAL's starting point depends on the face's vertex order (address-dependent); the
                // refined point agrees to the last bits only. A 2^-30 m grid (1 nm) makes it exact.
                const double nm = std::ldexp(1.0, 30);
                positions.push_back({std::round(refined.x * nm) / nm, std::round(refined.y * nm) / nm});
            }
            return number;
        };
        for (auto e = sdg->finite_edges_begin(); e != sdg->finite_edges_end(); ++e) {
            const Sdg::Face_handle f1 = e->first;
            const int i = e->second;
            const Sdg::Face_handle f2 = f1->neighbor(i);
            if (sdg->is_infinite(f1) || sdg->is_infinite(f2)) continue;
            uint32_t ia = siteIndex(f1->vertex(sdg->ccw(i))), ib = siteIndex(f1->vertex(sdg->cw(i)));
            const SiteGeom &sa = sites[ia], &sb = sites[ib];
            // Which of two equidistant sites an edge records must not follow CGAL's (address-
            // dependent) iteration order.
            if (sa.kind == sb.kind && siteKey(sb) < siteKey(sa)) std::swap(ia, ib);
            // A segment and its own endpoint: their bisector is the perpendicular at the endpoint,
            // which separates two cells of the same wall, not two walls.
            auto ownEndpoint = [](const SiteGeom& s, const SiteGeom& p) {
                return s.kind == SiteKind::Segment && p.kind == SiteKind::Point &&
                       (samePoint(p.p0, s.p0) || samePoint(p.p0, s.p1));
            };
            if (ownEndpoint(sa, sb) || ownEndpoint(sb, sa)) continue;
            // Refined Voronoi vertices (created on first use; unused ones are dropped below).
            const uint32_t v1 = vertexOf(f1), v2 = vertexOf(f2);
            records.push_back({v1, v2, ia, ib});
        }
    } // the diagram and its address tables are freed here
#ifdef __GLIBC__
    // Its many small blocks leave free pages inside the heap that glibc keeps resident, while the
    // large lists built next are mapped afresh: hand those pages back so they do not add up.
    malloc_trim(0);
#endif

    const RegionTest region(free_space);
    const uint32_t base = uint32_t(vertices->size());
    vertices->reserve(base + positions.size());
    for (const Vec2& p : positions) {
        RoadmapVertex v;
        v.position = {p.x, p.y, 0};
        v.layer = layer;
        v.clearance = INFINITY;
        vertices->push_back(v);
    }
    std::vector<Vec2>().swap(positions);
    // One edge per kept record. A first pass only marks them (the edge list is then allocated
    // once, at its final size): it stops after the filters, which need no clearance unless
    // options.min_clearance > 0 (a clearance is never negative); the second builds marked ones.
    std::vector<bool> keep(records.size(), false);
    auto build = [&](const EdgeRecord& record, RoadmapEdge& edge, bool complete) {
        const SiteGeom sa = sites[record.sa], sb = sites[record.sb];
        const uint32_t v1 = base + record.v1, v2 = base + record.v2;
        const Vec2 c1{(*vertices)[v1].position.x, (*vertices)[v1].position.y};
        const Vec2 c2{(*vertices)[v2].position.x, (*vertices)[v2].position.y};
        if (!std::isfinite(c1.x) || !std::isfinite(c2.x)) return false;
        const SiteGeom* point_site = sa.kind == SiteKind::Point   ? &sa
                                     : sb.kind == SiteKind::Point ? &sb
                                                                  : nullptr;
        const SiteGeom* segment_site = sa.kind == SiteKind::Segment   ? &sa
                                       : sb.kind == SiteKind::Segment ? &sb
                                                                      : nullptr;
        if (point_site && segment_site) {
            // Sample from the lexicographically smaller end so both traversal orders give the
            // same points.
            const bool flip = std::tie(c2.x, c2.y) < std::tie(c1.x, c1.y);
            edge.points = parabolaPoints(point_site->p0, *segment_site, flip ? c2 : c1, flip ? c1 : c2,
                                         options.epsilon);
            if (flip) std::reverse(edge.points.begin(), edge.points.end());
            edge.site = ClearanceSite::Point;
            edge.site_p0 = edge.site_p1 = point_site->p0;
        } else {
            edge.points = {c1, c2};
            edge.site = sa.kind == SiteKind::Point ? ClearanceSite::Point : ClearanceSite::Segment;
            edge.site_p0 = sa.p0;
            edge.site_p1 = sa.p1;
        }
        // Inside free space? Voronoi edges never cross a wall, so one interior point decides.
        const Vec2 mid = edge.points.size() > 2 ? edge.points[edge.points.size() / 2]
                                                : Vec2{(c1.x + c2.x) / 2, (c1.y + c2.y) / 2};
        if (!complete && !region.inside(mid)) return false;
        if (!complete && !(options.min_clearance > 0)) return true;
        const SiteGeom clearance_site{edge.site == ClearanceSite::Point ? SiteKind::Point : SiteKind::Segment,
                                      edge.site_p0, edge.site_p1};
        double min_clearance = INFINITY;
        for (size_t k = 0; k + 1 < edge.points.size(); ++k) {
            // Exact minimum over the chord: distance from the site to the chord.
            const double d = clearance_site.kind == SiteKind::Point
                                 ? pointSegmentDistance(clearance_site.p0, edge.points[k], edge.points[k + 1])
                                 : std::min(siteDistance(clearance_site, edge.points[k]),
                                            siteDistance(clearance_site, edge.points[k + 1]));
            min_clearance = std::min(min_clearance, d);
        }
        if (edge.points.size() == 2 && dist(c1, c2) < kCollapseLength)
            min_clearance = siteDistance(clearance_site, c1);
        // Vertices sit on a 1 nm grid, so the chord may pass up to a nanometre closer to the edge's
        // other site: keep the stored minimum conservative by two grid steps.
        edge.min_clearance = std::max(0.0, min_clearance - 4e-9);
        if (min_clearance < options.min_clearance) return false;
        if (!complete) return true;
        edge.a = v1;
        edge.b = v2;
        // Nearest wall points on either side at both ends (Explicit Corridor Map event data).
        auto sides = [&](Vec2 at, Vec2 towards, Vec2* left, Vec2* right) {
            const Vec2 qa = siteClosest(sa, at), qb = siteClosest(sb, at);
            const bool a_left =
                cross(at, towards, qa) > 0 || (cross(at, towards, qa) == 0 && cross(at, towards, qb) < 0);
            *left = a_left ? qa : qb;
            *right = a_left ? qb : qa;
        };
        const Vec2 next_a = edge.points[1], next_b = edge.points[edge.points.size() - 2];
        sides(c1, next_a, &edge.left_a, &edge.right_a);
        Vec2 l, r;
        sides(c2, next_b, &l, &r); // looking back from b: swap to keep "left" relative to a -> b
        edge.left_b = r;
        edge.right_b = l;
        for (uint32_t v : {edge.a, edge.b}) {
            RoadmapVertex& vx = (*vertices)[v];
            vx.clearance =
                std::min(vx.clearance, siteDistance(clearance_site, {vx.position.x, vx.position.y}));
        }
        return true;
    };
    size_t kept_edges_count = 0;
    {
        RoadmapEdge probe;
        for (size_t k = 0; k < records.size(); ++k)
            if (build(records[k], probe, false)) keep[k] = true, ++kept_edges_count;
    }
    edges->reserve(edges->size() + kept_edges_count);
    for (size_t k = 0; k < records.size(); ++k) {
        if (!keep[k]) continue;
        RoadmapEdge edge;
        if (build(records[k], edge, true)) edges->push_back(std::move(edge));
    }
    std::vector<EdgeRecord>().swap(records);
    std::vector<SiteGeom>().swap(sites);
    // Edges shorter than a micrometre join their two vertices into one. Cocircular sites (common
    // on grid-aligned walls) have no unique Delaunay triangulation, and CGAL's choice follows
    // memory order; the Voronoi diagram is unique once these degenerate edges collapse.
    std::vector<uint32_t> parent(vertices->size());
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](uint32_t v) {
        while (parent[v] != v)
            v = parent[v] = parent[parent[v]];
        return v;
    };
    for (const RoadmapEdge& e : *edges)
        if (e.points.size() == 2 && dist(e.points[0], e.points[1]) < kCollapseLength) {
            const uint32_t a = find(e.a), b = find(e.b);
            if (a != b) parent[std::max(a, b)] = std::min(a, b);
        }
    // Each class's root is its smallest vertex, met first: the kept vertices are written in place
    // below the vertex being read.
    std::vector<uint32_t> remap(vertices->size(), UINT32_MAX);
    std::vector<RoadmapVertex>& kept = *vertices;
    uint32_t vertex_count = base;
    for (uint32_t v = base; v < vertices->size(); ++v) {
        const uint32_t root = find(v);
        if (remap[root] == UINT32_MAX) {
            remap[root] = vertex_count;
            kept[vertex_count++] = (*vertices)[root];
        }
        kept[remap[root]].clearance = std::min(kept[remap[root]].clearance, (*vertices)[v].clearance);
        remap[v] = remap[root];
    }
    vertices->resize(vertex_count);
    // Collapsed edges are removed in place (no second edge list at the peak).
    size_t kept_count = 0;
    for (size_t k = 0; k < edges->size(); ++k) {
        RoadmapEdge& e = (*edges)[k];
        if (e.a >= base) { // else an earlier layer's edge
            e.a = remap[e.a];
            e.b = remap[e.b];
            if (e.a == e.b) continue;
        }
        if (kept_count != k) (*edges)[kept_count] = std::move(e);
        ++kept_count;
    }
    edges->erase(edges->begin() + ptrdiff_t(kept_count), edges->end());
    std::vector<RoadmapEdge>& kept_edges = *edges;
    // Vertices no kept edge uses (faces outside free space) are dropped.
    std::vector<bool> used(kept.size(), false);
    for (uint32_t v = 0; v < base; ++v)
        used[v] = true;
    for (const RoadmapEdge& e : kept_edges)
        used[e.a] = used[e.b] = true;
    std::vector<uint32_t> compact(kept.size(), UINT32_MAX);
    uint32_t used_count = 0;
    for (uint32_t v = 0; v < kept.size(); ++v)
        if (used[v]) {
            compact[v] = used_count;
            (*vertices)[used_count++] = kept[v];
        }
    vertices->resize(used_count);
    for (RoadmapEdge& e : kept_edges)
        e.a = compact[e.a], e.b = compact[e.b];
    return {};
}

} // namespace clearway::bake
