// Exact medial-axis roadmap of a footprint: CGAL's segment Voronoi diagram of the walls, kept
// inside free space, with exact clearance along every edge.
//
// Every medial-axis edge is the bisector of two wall features (sites). Its clearance at any point
// is the distance to one of them: the point site, the parabola's focus, or the wall segment.
// Parabolic arcs are stored as chords within epsilon; a chord stays inside its focus's Voronoi
// cell (a point site's cell is star-shaped from it), so the distance to the focus is still the
// exact clearance there, and the chord's minimum is the exact distance from focus to chord.
#include <clearway/bake.h>

#include <clearway/bake/geometry.h>
#include "roadmap/roadmap_internal.h"
#include "medial_axis/segment_voronoi.h"

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
#include <limits>
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

// Even-odd point-in-region over y-bands of ring segments: the parity of the segments crossing
// the ray from p to +x.
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
        size_t count = 0;
        for (const PolygonWithHoles& p : region) {
            count += p.outer.size();
            for (const Ring& h : p.holes)
                count += h.size();
        }
        segs_.reserve(count);
        for (const PolygonWithHoles& p : region) {
            add(p.outer);
            for (const Ring& h : p.holes)
                add(h);
        }
        if (segs_.empty()) return;
        min_y_ = min_y;
        // A query scans the segments ending in its band: 16 sqrt(n) bands keep that short (the
        // parity does not depend on the band count: every segment straddling p.y is in p's band).
        bands_ = std::max<size_t>(1, size_t(16 * std::sqrt(double(segs_.size()))));
        height_ = std::max((max_y - min_y) / double(bands_), 1e-9);
        double max_x = 0;
        for (const WallSegment& s : segs_)
            max_x = std::max({max_x, std::abs(s.a.x), std::abs(s.b.x)});
        const double pad = 1e-9 * (1 + max_x);
        // Flat lists, one range per band, counted first (no per-band vectors and their slack).
        end_start_.assign(bands_ + 1, 0);
        span_start_.assign(bands_ + 1, 0);
        for (const WallSegment& w : segs_) {
            const size_t b0 = band(std::min(w.a.y, w.b.y)), b1 = band(std::max(w.a.y, w.b.y));
            ++end_start_[b0 + 1];
            if (b1 != b0) ++end_start_[b1 + 1];
            for (size_t b = b0 + 1; b < b1; ++b)
                ++span_start_[b + 1];
        }
        for (size_t b = 0; b < bands_; ++b)
            end_start_[b + 1] += end_start_[b], span_start_[b + 1] += span_start_[b];
        ends_.resize(end_start_.back());
        spans_.resize(span_start_.back());
        span_width_.assign(bands_, 0.0);
        std::vector<size_t> end_fill(end_start_.begin(), end_start_.end() - 1),
            span_fill(span_start_.begin(), span_start_.end() - 1);
        std::vector<Span> spanning; // segments spanning a band
        for (uint32_t s = 0; s < segs_.size(); ++s) {
            const Vec2 p0 = segs_[s].a, p1 = segs_[s].b;
            const size_t b0 = band(std::min(p0.y, p1.y)), b1 = band(std::max(p0.y, p1.y));
            // Below and above every crossing x the test can compute for this segment (its rounding
            // stays within a few ulps of the segment's x range).
            const double margin = 1e-12 * (std::abs(p0.x) + std::abs(p1.x)) + 1e-300;
            const double left = std::min(p0.x, p1.x) - margin, right = std::max(p0.x, p1.x) + margin;
            const End end{up(right), down(std::min(p0.y, p1.y)), up(std::max(p0.y, p1.y)), s};
            ends_[end_fill[b0]++] = end;
            if (b1 != b0) ends_[end_fill[b1]++] = end;
            // band() is monotone in y: every point of a band strictly between b0 and b1 lies
            // strictly between the segment's ends in y, so the segment straddles it. Its left end
            // rounded down to a float is still left of every crossing.
            if (b1 > b0 + 1) spanning.push_back({down(left), s});
        }
        // Filled in span order, every band's list comes out sorted (one sort, not one per band).
        std::sort(spanning.begin(), spanning.end());
        for (const Span& span : spanning) {
            const Vec2 p0 = segs_[span.segment].a, p1 = segs_[span.segment].b;
            const size_t b0 = band(std::min(p0.y, p1.y)), b1 = band(std::max(p0.y, p1.y));
            const double margin = 1e-12 * (std::abs(p0.x) + std::abs(p1.x)) + 1e-300;
            const double right = std::max(p0.x, p1.x) + margin;
            for (size_t b = b0 + 1; b < b1; ++b) {
                spans_[span_fill[b]++] = span;
                span_width_[b] = std::max(span_width_[b], right - double(span.left) + pad);
            }
        }
        for (size_t b = 0; b < bands_; ++b) {
            std::sort(ends_.begin() + end_start_[b], ends_.begin() + end_start_[b + 1],
                      [](const End& x, const End& y) {
                          return x.right > y.right || (x.right == y.right && x.segment < y.segment);
                      });
        }
    }
    bool inside(Vec2 p) const {
        if (segs_.empty()) return false;
        const size_t b = band(p.y);
        bool in = false;
        auto crosses = [&](uint32_t s) {
            const Vec2 a = segs_[s].a, c = segs_[s].b;
            return (a.y > p.y) != (c.y > p.y) && p.x < (c.x - a.x) * (p.y - a.y) / (c.y - a.y) + a.x;
        };
        // Segments ending in the band and ending left of p cannot cross: the scan stops at the first.
        for (size_t k = end_start_[b]; k < end_start_[b + 1]; ++k) {
            const End& end = ends_[k];
            if (!(p.x < double(end.right))) break;
            // The float y range holds the segment's: outside it, no straddle (no segment read).
            if (p.y < double(end.low) || p.y >= double(end.high)) continue;
            in ^= crosses(end.segment);
        }
        // Segments spanning the band cross when they start right of p: only their count matters.
        // Of the others, those starting further left than the band's widest end left of p.
        const Span *spans = spans_.data() + span_start_[b], *spans_end = spans_.data() + span_start_[b + 1];
        const Span* first_right = std::upper_bound(
            spans, spans_end, p.x, [](double x, const Span& span) { return x < double(span.left); });
        in ^= ((spans_end - first_right) & 1) != 0;
        for (const Span* k = first_right; k-- != spans;) {
            if (double(k->left) + span_width_[b] < p.x) break;
            in ^= crosses(k->segment);
        }
        return in;
    }

  private:
    size_t band(double y) const {
        return size_t(std::clamp(std::floor((y - min_y_) / height_), 0.0, double(bands_ - 1)));
    }
    std::vector<WallSegment> segs_;
    // Per band: segments with an end in it, by right end descending; the others by left end,
    // ascending, and their widest x range.
    struct Span {
        float left;
        uint32_t segment;
        bool operator<(const Span& o) const {
            return left < o.left || (left == o.left && segment < o.segment);
        }
    };
    // Floats rounded outwards: the lists stay 16 bytes an entry and ordered scans stay sequential.
    static float down(double v) {
        const float f = float(v);
        return double(f) > v ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
    }
    static float up(double v) {
        const float f = float(v);
        return double(f) < v ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
    }
    struct End {
        float right, low, high; // x bound and y range (outward)
        uint32_t segment;
    };
    std::vector<End> ends_;
    std::vector<Span> spans_;
    std::vector<size_t> end_start_, span_start_;
    std::vector<double> span_width_;
    double min_y_ = 0, height_ = 1;
    size_t bands_ = 1;
};

// Walls onto the grid, without crossings, overlaps, duplicates or zero-length pieces. Walls
// already on the grid and free of crossings (every footprint) pass through unchanged; others go
// through CGAL's iterated snap rounding, which splits crossings and never drops a piece.
// *unchanged tells whether the walls passed through (the pieces are exactly the input's).
std::vector<std::pair<GridKey, GridKey>> prepareWalls(const std::vector<WallSegment>& walls, double q,
                                                      bool* unchanged) {
    *unchanged = false;
    std::vector<std::pair<GridKey, GridKey>> out;
    bool on_grid = true;
    for (const WallSegment& w : walls)
        for (Vec2 p : {w.a, w.b})
            on_grid = on_grid && std::nearbyint(p.x / q) * q == p.x && std::nearbyint(p.y / q) * q == p.y;
    if (on_grid) {
        out.reserve(walls.size());
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
        // Boxes sorted by left end, in one list: the sweep reads it in order, and pairs whose y
        // ranges are apart (most of an x slab) are passed over before any orientation test.
        struct Box {
            int64_t x0, x1, y0, y1;
            uint32_t segment;
        };
        std::vector<Box> boxes(segs.size());
        for (uint32_t i = 0; i < segs.size(); ++i) {
            const auto& s = segs[i];
            boxes[i] = {std::min(s.first.x, s.second.x), std::max(s.first.x, s.second.x),
                        std::min(s.first.y, s.second.y), std::max(s.first.y, s.second.y), i};
        }
        std::sort(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) {
            return a.x0 < b.x0 || (a.x0 == b.x0 && a.segment < b.segment);
        });
        for (size_t k = 0; k < boxes.size(); ++k) {
            const auto& s = segs[boxes[k].segment];
            if (s.first == s.second) return false;
            for (size_t m = k + 1; m < boxes.size() && boxes[m].x0 <= boxes[k].x1; ++m) {
                // Disjoint y ranges: no crossing and no touching (every test below needs a common point).
                if (boxes[m].y0 > boxes[k].y1 || boxes[m].y1 < boxes[k].y0) continue;
                const auto& t = segs[boxes[m].segment];
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
        if (crossingFree(out)) {
            *unchanged = true;
            return out;
        }
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

// Number of a CGAL diagram element from its address, for elements added in iteration order
// (0, 1, 2, ...). The diagram's containers allocate elements in blocks, so the addresses form a
// few runs of consecutive slots: a binary search over the runs and a division find the number
// (no table with one entry per element). The element size is a constant, so the division is a
// multiplication.
template <size_t kSize> class AddressIndex {
  public:
    void add(const void* element) {
        const auto address = reinterpret_cast<uintptr_t>(element);
        if (!runs_.empty()) {
            Run& last = runs_.back();
            if (address == last.start + last.count * kSize) {
                ++last.count, ++count_;
                return;
            }
        }
        runs_.push_back({address, count_++, 1});
    }
    uint32_t size() const { return count_; }
    void finish() {
        std::sort(runs_.begin(), runs_.end(), [](const Run& a, const Run& b) { return a.start < b.start; });
    }
    uint32_t operator()(const void* element) const {
        // The last run starting at or below the address (upper_bound - 1), halving without
        // branches: the runs' order carries no pattern a branch predictor could learn.
        const auto address = reinterpret_cast<uintptr_t>(element);
        const Run* run = runs_.data();
        for (size_t n = runs_.size(); n > 1;) {
            const size_t half = n / 2;
            run = run[half].start <= address ? run + half : run;
            n -= half;
        }
        return run->first + uint32_t((address - run->start) / kSize);
    }

  private:
    struct Run {
        uintptr_t start;
        uint32_t first, count;
    };
    uint32_t count_ = 0;
    std::vector<Run> runs_;
};

enum class SiteKind { Point, Segment };
// A point site has p1 == p0; a segment site never does (walls have positive length). 32 bytes:
// one cache line holds a whole site.
struct SiteGeom {
    Vec2 p0, p1;
    SiteKind kind() const { return p0.x == p1.x && p0.y == p1.y ? SiteKind::Point : SiteKind::Segment; }
};

SiteGeom siteOf(const SdgSite& s) {
    if (s.is_point()) return {{s.point().x(), s.point().y()}, {s.point().x(), s.point().y()}};
    return {{s.source().x(), s.source().y()}, {s.target().x(), s.target().y()}};
}

// The CGAL site siteOf() read (the same coordinates).
SdgSite cgalSite(const SiteGeom& s) {
    if (s.kind() == SiteKind::Point) return SdgSite::construct_site_2(SdgPoint(s.p0.x, s.p0.y));
    return SdgSite::construct_site_2(SdgPoint(s.p0.x, s.p0.y), SdgPoint(s.p1.x, s.p1.y));
}

// Lexicographic order of (kind, p0, p1).
bool siteLess(const SiteGeom& a, const SiteGeom& b) {
    if (a.kind() != b.kind()) return a.kind() < b.kind();
    if (a.p0.x != b.p0.x) return a.p0.x < b.p0.x;
    if (a.p0.y != b.p0.y) return a.p0.y < b.p0.y;
    if (a.p1.x != b.p1.x) return a.p1.x < b.p1.x;
    return a.p1.y < b.p1.y;
}

// Three distinct sites by siteLess (a face's sites are distinct: any sort gives this order).
void sortSites(const SiteGeom* s[3]) {
    if (siteLess(*s[1], *s[0])) std::swap(s[0], s[1]);
    if (siteLess(*s[2], *s[1])) std::swap(s[1], s[2]);
    if (siteLess(*s[1], *s[0])) std::swap(s[0], s[1]);
}

double siteDistance(const SiteGeom& s, Vec2 p) {
    return s.kind() == SiteKind::Point ? dist(p, s.p0) : pointSegmentDistance(p, s.p0, s.p1);
}

Vec2 siteClosest(const SiteGeom& s, Vec2 p) {
    return s.kind() == SiteKind::Point ? s.p0 : closestOnSegment(p, s.p0, s.p1);
}

bool samePoint(Vec2 a, Vec2 b) {
    return a.x == b.x && a.y == b.y;
}

// The bisector of a point site (focus) and a segment site from c1 to c2, as chords of the
// parabola no further than epsilon from it: point(k) for k in [0, count()).
class Parabola {
  public:
    Parabola(Vec2 focus, const SiteGeom& seg, Vec2 c1, Vec2 c2, double epsilon)
        : seg_(seg), c1_(c1), c2_(c2) {
        const double dx = seg.p1.x - seg.p0.x, dy = seg.p1.y - seg.p0.y, len = std::hypot(dx, dy);
        u_ = {dx / len, dy / len};
        n_ = {-u_.y, u_.x};
        d_ = (focus.x - seg.p0.x) * n_.x + (focus.y - seg.p0.y) * n_.y;
        if (d_ < 0) n_ = {-n_.x, -n_.y}, d_ = -d_;
        if (d_ < 1e-12) return; // the focus lies on the segment's line: the chord c1-c2
        tp_ = (focus.x - seg.p0.x) * u_.x + (focus.y - seg.p0.y) * u_.y;
        t1_ = (c1.x - seg.p0.x) * u_.x + (c1.y - seg.p0.y) * u_.y;
        t2_ = (c2.x - seg.p0.x) * u_.x + (c2.y - seg.p0.y) * u_.y;
        // Chord sagitta of y = t^2 / (2d) over a step h is h^2 / (8d).
        const double step = std::sqrt(8 * d_ * epsilon);
        pieces_ = std::clamp(int(std::ceil(std::abs(t2_ - t1_) / step)), 1, 1024);
    }
    size_t count() const { return size_t(pieces_) + 1; }
    Vec2 point(int k) const {
        if (k == 0) return c1_;
        if (k == pieces_) return c2_;
        const double t = t1_ + (t2_ - t1_) * k / pieces_;
        const double h = ((t - tp_) * (t - tp_) + d_ * d_) / (2 * d_);
        return {seg_.p0.x + t * u_.x + h * n_.x, seg_.p0.y + t * u_.y + h * n_.y};
    }

  private:
    const SiteGeom& seg_;
    Vec2 c1_, c2_, u_, n_;
    double d_ = 0, tp_ = 0, t1_ = 0, t2_ = 0;
    int pieces_ = 1;
};

std::vector<Vec2> parabolaPoints(Vec2 focus, const SiteGeom& seg, Vec2 c1, Vec2 c2, double epsilon) {
    const Parabola parabola(focus, seg, c1, c2, epsilon);
    std::vector<Vec2> pts(parabola.count());
    for (size_t k = 0; k < pts.size(); ++k)
        pts[k] = parabola.point(int(k));
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
Vec2 refineVoronoiVertex(Vec2 start, const SiteGeom* const sites[3]) {
    // Distances and gradients at a point, computed once: the point a step accepts is where the
    // next step starts (the same values as computing them again).
    struct Probe {
        double d[3];
        Vec2 g[3];
        double spread() const { return std::max({d[0], d[1], d[2]}) - std::min({d[0], d[1], d[2]}); }
    };
    auto probe = [&](Vec2 p) {
        Probe r;
        for (int k = 0; k < 3; ++k)
            r.d[k] = siteDistanceGradient(*sites[k], p, &r.g[k]);
        return r;
    };
    Vec2 p = start;
    Probe at = probe(p);
    double best = at.spread();
    for (int iteration = 0; iteration < 8 && best > 0; ++iteration) {
        const double d0 = at.d[0], d1 = at.d[1], d2 = at.d[2];
        const Vec2 g0 = at.g[0], g1 = at.g[1], g2 = at.g[2];
        // Solve [g0 - g1; g0 - g2] delta = -[d0 - d1; d0 - d2].
        const double a = g0.x - g1.x, b = g0.y - g1.y, c = g0.x - g2.x, d = g0.y - g2.y;
        const double det = a * d - b * c;
        if (std::abs(det) < 1e-12) break;
        const double r0 = -(d0 - d1), r1 = -(d0 - d2);
        const Vec2 next{p.x + (r0 * d - b * r1) / det, p.y + (a * r1 - c * r0) / det};
        const Probe next_at = probe(next);
        const double next_spread = next_at.spread();
        if (!(next_spread < best)) break;
        p = next;
        at = next_at;
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

namespace {

// medialAxis() of walls already on the grid (prepareWalls).
Error medialAxisOfGridWalls(std::vector<GridSegment> segs, bool walls_unchanged,
                            const std::vector<PolygonWithHoles>& free_space, double grid_spacing,
                            const RoadmapOptions& options, uint32_t layer,
                            std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges,
                            size_t* wall_sites) {
    const double q = grid_spacing;
    if (segs.empty()) return {};

    // The diagram is the largest structure of the bake: while it is alive only compact records
    // are kept (sites, refined vertex positions, one 16-byte record per edge); it is freed before
    // the edges outside free space are dropped and the rest expanded, in the same order, into
    // RoadmapEdges.
    std::vector<SiteGeom> sites; // every site, in diagram vertex order
    std::vector<Vec2> positions; // refined Voronoi vertices, numbered in first-use order
    struct EdgeRecord {
        uint32_t v1, v2, sa, sb; // local vertex numbers; sites in the order the edge records them
    };
    std::vector<EdgeRecord> records; // reserved below: doubling would hold two lists at the peak
    // Only edges inside free space are kept. Voronoi edges never cross a wall, so one interior
    // point decides: the middle chord point RoadmapEdge::points will hold (see build below).
    // The edge's test point (that middle chord point), for finite ends.
    auto testPoint = [&](const EdgeRecord& r) {
        const Vec2 c1 = positions[r.v1], c2 = positions[r.v2];
        const SiteGeom &sa = sites[r.sa], &sb = sites[r.sb];
        Vec2 mid{(c1.x + c2.x) / 2, (c1.y + c2.y) / 2};
        if (sa.kind() != sb.kind()) {
            const SiteGeom& point_site = sa.kind() == SiteKind::Point ? sa : sb;
            const SiteGeom& segment_site = sa.kind() == SiteKind::Point ? sb : sa;
            const bool flip = std::tie(c2.x, c2.y) < std::tie(c1.x, c1.y);
            const Parabola parabola(point_site.p0, segment_site, flip ? c2 : c1, flip ? c1 : c2,
                                    options.epsilon);
            // points[n / 2] of the list build() stores, which is reversed when flipped.
            const size_t n = parabola.count();
            if (n > 2) mid = parabola.point(int(flip ? n - 1 - n / 2 : n / 2));
        }
        return mid;
    };
    // Voronoi vertices on a wall (the three sites share a point: a wall corner). Every other vertex
    // lies strictly inside free space or strictly outside it, like every edge's interior.
    std::vector<bool> on_wall;
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
        // numbered in iteration order, which AddressIndex recovers from a handle.
        size_t segment_sites = 0;
        AddressIndex<sizeof(Sdg::Vertex)> site_index;
        sites.reserve(sdg->number_of_vertices());
        for (auto v = sdg->finite_vertices_begin(); v != sdg->finite_vertices_end(); ++v) {
            segment_sites += v->site().is_segment();
            site_index.add(&*v);
            sites.push_back(siteOf(v->site()));
        }
        if (segment_sites != expected_segments)
            return {ErrorCode::Internal, "layer " + std::to_string(layer) + ": " +
                                             std::to_string(expected_segments) + " walls but " +
                                             std::to_string(segment_sites) + " segment sites"};
        if (wall_sites) *wall_sites = segment_sites;
        site_index.finish();
        auto siteIndex = [&](Sdg::Vertex_handle v) { return site_index(&*v); };
        // At most one record per edge of the triangulation (3 per vertex, the infinite one too):
        // the pages it does not fill are never touched.
        records.reserve(3 * (sdg->number_of_vertices() + 1));
        // Voronoi vertices: one per finite face, numbered in order of first use. That order
        // follows CGAL's face storage, which can vary within one process; the asset is
        // deterministic through the canonical ordering buildRoadmap applies later.
        // Infinite faces are marked here, so an edge's far face is not read to test it.
        constexpr uint32_t kInfiniteFace = UINT32_MAX - 1;
        AddressIndex<sizeof(Sdg::Face)> face_index;
        std::vector<uint32_t> face_vertex;
        face_vertex.reserve(sdg->number_of_faces() + sdg->number_of_vertices());
        for (auto f = sdg->all_faces_begin(); f != sdg->all_faces_end(); ++f) {
            face_index.add(&*f);
            face_vertex.push_back(sdg->is_infinite(f) ? kInfiniteFace : UINT32_MAX);
        }
        face_index.finish();
        // Edges in finite_edges order (faces in storage order, each edge from its lower face):
        // records and vertex numbers as that walk gives them. A vertex is numbered at first use;
        // its position is computed afterwards in a second pass over the faces in storage order,
        // so the walk never reads the (random) far face of an edge.
        uint32_t vertex_count = 0;
        // Below two dimensions (collinear sites) there is no Voronoi vertex and no 2D face to walk.
        const uint32_t face_count = sdg->dimension() == 2 ? uint32_t(face_vertex.size()) : 0;
        // Each face's sites and far faces are looked up kAhead faces early and prefetched (their
        // reads miss): a ring of kAhead faces.
        constexpr uint32_t kAhead = 8;
        struct Ahead {
            uint32_t site[3], far[3]; // far: the neighbour's number, UINT32_MAX when not walked here
        } ring[kAhead];
        {
            auto ahead = sdg->all_faces_begin();
            auto lookAhead = [&](uint32_t k) {
                Ahead& slot = ring[k % kAhead];
                if (face_vertex[k] != kInfiniteFace) {
                    for (int j = 0; j < 3; ++j) {
                        const Sdg::Face_handle f2 = ahead->neighbor(j);
                        slot.far[j] = Sdg::Face_handle(ahead) < f2 ? face_index(&*f2) : UINT32_MAX;
                        if (slot.far[j] != UINT32_MAX) __builtin_prefetch(&face_vertex[slot.far[j]]);
                        slot.site[j] = siteIndex(ahead->vertex(j));
                        __builtin_prefetch(&sites[slot.site[j]]);
                    }
                }
                ++ahead;
            };
            for (uint32_t k = 0; k < std::min(kAhead, face_count); ++k)
                lookAhead(k);
            for (uint32_t face1 = 0; face1 < face_count; ++face1) {
                const Ahead slot = ring[face1 % kAhead];
                if (face1 + kAhead < face_count) lookAhead(face1 + kAhead);
                if (face_vertex[face1] == kInfiniteFace) continue;
                for (int i = 0; i < 3; ++i) {
                    const uint32_t face2 = slot.far[i];
                    if (face2 == UINT32_MAX) continue; // the edge is walked from its other face
                    if (face_vertex[face2] == kInfiniteFace) continue;
                    uint32_t ia = slot.site[Sdg::ccw(i)], ib = slot.site[Sdg::cw(i)];
                    const SiteGeom &sa = sites[ia], &sb = sites[ib];
                    // Which of two equidistant sites an edge records must not follow CGAL's
                    // (address-dependent) iteration order.
                    if (sa.kind() == sb.kind() && siteLess(sb, sa)) std::swap(ia, ib);
                    // A segment and its own endpoint: their bisector is the perpendicular at the
                    // endpoint, which separates two cells of the same wall, not two walls.
                    auto ownEndpoint = [](const SiteGeom& s, const SiteGeom& p) {
                        return s.kind() == SiteKind::Segment && p.kind() == SiteKind::Point &&
                               (samePoint(p.p0, s.p0) || samePoint(p.p0, s.p1));
                    };
                    if (ownEndpoint(sa, sb) || ownEndpoint(sb, sa)) continue;
                    // Refined Voronoi vertices, created on first use (unused ones are dropped below).
                    uint32_t& n1 = face_vertex[face1];
                    if (n1 == UINT32_MAX) n1 = vertex_count++;
                    uint32_t& n2 = face_vertex[face2];
                    if (n2 == UINT32_MAX) n2 = vertex_count++;
                    records.push_back({n1, n2, ia, ib});
                }
            }
        }
        positions.resize(vertex_count);
        on_wall.resize(vertex_count);
        const auto construct_vertex = sdg->geom_traits().construct_svd_vertex_2_object();
        {
            auto ahead = sdg->all_faces_begin();
            auto lookAhead = [&](uint32_t k) {
                Ahead& slot = ring[k % kAhead];
                if (face_vertex[k] < kInfiniteFace) {
                    for (int j = 0; j < 3; ++j) {
                        slot.site[j] = siteIndex(ahead->vertex(j));
                                                __builtin_prefetch(&sites[slot.site[j]]);
                    }
                }
                ++ahead;
            };
            for (uint32_t k = 0; k < std::min(kAhead, face_count); ++k)
                lookAhead(k);
            for (uint32_t face = 0; face < face_count; ++face) {
                const uint32_t number = face_vertex[face];
                const Ahead slot = ring[face % kAhead];
                if (face + kAhead < face_count) lookAhead(face + kAhead);
                if (number >= kInfiniteFace) continue; // infinite or unused
                const SiteGeom* fs[3] = {&sites[slot.site[0]], &sites[slot.site[1]], &sites[slot.site[2]]};
                // sdg->primal(f) from the same site values (the diagram's own sites are spread over
                // its vertices and point set: several cache misses a face).
                const SdgPoint c = construct_vertex(cgalSite(*fs[0]), cgalSite(*fs[1]), cgalSite(*fs[2]));
                sortSites(fs);
                // Equidistant from three sites through one point: the vertex is that point.
                auto holds = [](const SiteGeom& s, Vec2 p) {
                    return samePoint(s.p0, p) || samePoint(s.p1, p);
                };
                on_wall[number] = (holds(*fs[1], fs[0]->p0) && holds(*fs[2], fs[0]->p0)) ||
                                  (holds(*fs[1], fs[0]->p1) && holds(*fs[2], fs[0]->p1));
                const Vec2 refined = refineVoronoiVertex({c.x(), c.y()}, fs);
                // CGAL's starting point depends on the face's vertex order (address-dependent); the
                // refined point agrees to the last bits only. A 2^-30 m grid (1 nm) makes it exact.
                const double nm = std::ldexp(1.0, 30);
                positions[number] = {std::round(refined.x * nm) / nm, std::round(refined.y * nm) / nm};
            }
        }
    } // the diagram and its address tables are freed here
#ifdef __GLIBC__
    // Its many small blocks leave free pages inside the heap that glibc keeps resident, while the
    // large lists built next are mapped afresh: hand those pages back so they do not add up.
    malloc_trim(0);
#endif
    {
        // Built once the diagram is gone (the walk only records edges): not beside it at the peak.
        const RegionTest region(free_space);
        // Free space is a union of the regions the walls bound. Edges meeting at a vertex off
        // the walls lie in one region, so one region test decides every edge of such a connected
        // group (each box's inside is one group, all of free space around them another). That
        // holds when the region's boundary is made of the diagram's walls: walls passed through
        // unchanged; snap-rounded walls test every edge. The test point must be clear of the walls
        // (its rounding cannot matter there), else the edge is tested alone.
        std::vector<uint32_t> group(positions.size());
        std::iota(group.begin(), group.end(), 0);
        auto find = [&](uint32_t v) {
            while (group[v] != v)
                v = group[v] = group[group[v]];
            return v;
        };
        constexpr uint32_t kAlone = UINT32_MAX;
        auto groupOf = [&](const EdgeRecord& r) {
            if (!walls_unchanged) return kAlone;
            return !on_wall[r.v1] ? find(r.v1) : !on_wall[r.v2] ? find(r.v2) : kAlone;
        };
        if (walls_unchanged)
            for (const EdgeRecord& r : records)
                if (!on_wall[r.v1] && !on_wall[r.v2]) {
                    const uint32_t a = find(r.v1), b = find(r.v2);
                    if (a != b) group[std::max(a, b)] = std::min(a, b);
                }
        enum : uint8_t { kUnknown, kInside, kOutside };
        std::vector<uint8_t> decided(walls_unchanged ? positions.size() : 0, kUnknown);
        size_t kept = 0;
        for (size_t k = 0; k < records.size(); ++k) {
            const EdgeRecord r = records[k];
            if (k + 8 < records.size()) { // scattered reads, fetched a few records early
                const EdgeRecord& next = records[k + 8];
                __builtin_prefetch(&positions[next.v2]);
                if (walls_unchanged) __builtin_prefetch(&group[next.v2]);
            }
            if (!std::isfinite(positions[r.v1].x) || !std::isfinite(positions[r.v2].x)) continue;
            const uint32_t g = groupOf(r);
            bool inside;
            if (g != kAlone && decided[g] != kUnknown) {
                inside = decided[g] == kInside;
            } else {
                const Vec2 mid = testPoint(r);
                inside = region.inside(mid);
                const double clear = 1e-6 * (1 + std::abs(mid.x) + std::abs(mid.y));
                if (g != kAlone && siteDistance(sites[r.sa], mid) > clear &&
                    siteDistance(sites[r.sb], mid) > clear)
                    decided[g] = inside ? kInside : kOutside;
            }
            if (inside) records[kept++] = r;
        }
        records.resize(kept);
        records.shrink_to_fit();
        std::vector<bool>().swap(on_wall);
    }

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
    // One edge per record, unless its clearance is below options.min_clearance.
    auto build = [&](const EdgeRecord& record, RoadmapEdge& edge) {
        const SiteGeom sa = sites[record.sa], sb = sites[record.sb];
        const uint32_t v1 = base + record.v1, v2 = base + record.v2;
        const Vec2 c1{(*vertices)[v1].position.x, (*vertices)[v1].position.y};
        const Vec2 c2{(*vertices)[v2].position.x, (*vertices)[v2].position.y};
        if (!std::isfinite(c1.x) || !std::isfinite(c2.x)) return false;
        const SiteGeom* point_site = sa.kind() == SiteKind::Point   ? &sa
                                     : sb.kind() == SiteKind::Point ? &sb
                                                                    : nullptr;
        const SiteGeom* segment_site = sa.kind() == SiteKind::Segment   ? &sa
                                       : sb.kind() == SiteKind::Segment ? &sb
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
            edge.site = sa.kind() == SiteKind::Point ? ClearanceSite::Point : ClearanceSite::Segment;
            edge.site_p0 = sa.p0;
            edge.site_p1 = sa.p1;
        }
        const SiteGeom clearance_site{edge.site_p0, edge.site_p1}; // a point site when they agree
        double min_clearance = INFINITY;
        for (size_t k = 0; k + 1 < edge.points.size(); ++k) {
            // Exact minimum over the chord: distance from the site to the chord.
            const double d = clearance_site.kind() == SiteKind::Point
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
    edges->reserve(edges->size() + records.size());
    for (size_t k = 0; k < records.size(); ++k) {
        // A record's vertices and sites are scattered: fetched a few records early.
        if (k + 8 < records.size()) {
            const EdgeRecord& next = records[k + 8];
            __builtin_prefetch(&(*vertices)[base + next.v1]);
            __builtin_prefetch(&(*vertices)[base + next.v2]);
            __builtin_prefetch(&sites[next.sa]);
            __builtin_prefetch(&sites[next.sb]);
        }
        RoadmapEdge edge;
        if (build(records[k], edge)) edges->push_back(std::move(edge));
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

} // namespace

Error medialAxis(const std::vector<WallSegment>& walls, const std::vector<PolygonWithHoles>& free_space,
                 double grid_spacing, const RoadmapOptions& options, uint32_t layer,
                 std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges, size_t* wall_sites) {
    bool walls_unchanged = false;
    std::vector<GridSegment> segs = prepareWalls(walls, grid_spacing, &walls_unchanged);
    return medialAxisOfGridWalls(std::move(segs), walls_unchanged, free_space, grid_spacing, options, layer,
                                 vertices, edges, wall_sites);
}

Error medialAxisTakingWalls(std::vector<WallSegment> walls, const std::vector<PolygonWithHoles>& free_space,
                            double grid_spacing, const RoadmapOptions& options, uint32_t layer,
                            std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges,
                            size_t* wall_sites) {
    bool walls_unchanged = false;
    std::vector<GridSegment> segs = prepareWalls(walls, grid_spacing, &walls_unchanged);
    std::vector<WallSegment>().swap(walls); // on the grid now: not beside the diagram at its peak
    return medialAxisOfGridWalls(std::move(segs), walls_unchanged, free_space, grid_spacing, options, layer,
                                 vertices, edges, wall_sites);
}

} // namespace clearway::bake
