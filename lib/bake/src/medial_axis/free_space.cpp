// Keeping the medial axis inside free space: an even-odd region test over y-bands, asked once
// per connected group of edges where the walls allow it.
#include "medial_axis/medial_axis_steps.h"

#include <limits>
#include <tuple>

namespace clearway::bake::medial_axis_detail {

namespace {

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
        const double at = (y - min_y_) / height_;
        // Below the top band a non-negative value's floor is its truncation (no library call).
        if (at >= 0 && at < double(bands_ - 1)) return size_t(at);
        return size_t(std::clamp(std::floor(at), 0.0, double(bands_ - 1)));
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

// The edge's test point for the region test, for finite ends: the middle chord point
// RoadmapEdge::points will hold (see buildEdge in medial_axis.cpp).
Vec2 testPoint(const DiagramRecords& axis, const EdgeRecord& r, double epsilon) {
    const Vec2 c1 = axis.positions[r.v1], c2 = axis.positions[r.v2];
    const SiteGeom &sa = axis.sites[r.sa], &sb = axis.sites[r.sb];
    Vec2 mid{(c1.x + c2.x) / 2, (c1.y + c2.y) / 2};
    if (sa.kind() != sb.kind()) {
        const SiteGeom& point_site = sa.kind() == SiteKind::Point ? sa : sb;
        const SiteGeom& segment_site = sa.kind() == SiteKind::Point ? sb : sa;
        const bool flip = std::tie(c2.x, c2.y) < std::tie(c1.x, c1.y);
        const Parabola parabola(point_site.p0, segment_site, flip ? c2 : c1, flip ? c1 : c2, epsilon);
        // points[n / 2] of the list buildEdge() stores, which is reversed when flipped.
        const size_t n = parabola.count();
        if (n > 2) mid = parabola.point(int(flip ? n - 1 - n / 2 : n / 2));
    }
    return mid;
}

// Free space is a union of the regions the walls bound. Edges meeting at a vertex off the walls
// lie in one region, so one region test decides every edge of such a connected group (each box's
// inside is one group, all of free space around them another). That holds when the region's
// boundary is made of the diagram's walls: walls passed through unchanged; snap-rounded walls
// test every edge (no groups then).
UnionFind vertexGroups(const DiagramRecords& axis, bool walls_unchanged) {
    UnionFind groups(walls_unchanged ? axis.positions.size() : 0);
    if (walls_unchanged)
        for (const EdgeRecord& r : axis.records)
            if (!axis.on_wall[r.v1] && !axis.on_wall[r.v2]) groups.join(r.v1, r.v2);
    return groups;
}

} // namespace

void keepInsideFreeSpace(const std::vector<PolygonWithHoles>& free_space, bool walls_unchanged,
                         double epsilon, DiagramRecords* axis) {
    // Only edges inside free space are kept. Voronoi edges never cross a wall, so one interior
    // point decides. Built once the diagram is gone (the walk only records edges): not beside it
    // at the peak.
    const RegionTest region(free_space);
    // The test point must be clear of the walls (its rounding cannot matter there), else the edge
    // is tested alone.
    UnionFind groups = vertexGroups(*axis, walls_unchanged);
    constexpr uint32_t kAlone = UINT32_MAX;
    const std::vector<bool>& on_wall = axis->on_wall;
    auto groupOf = [&](const EdgeRecord& r) {
        if (!walls_unchanged) return kAlone;
        return !on_wall[r.v1] ? groups.find(r.v1) : !on_wall[r.v2] ? groups.find(r.v2) : kAlone;
    };
    enum : uint8_t { kUnknown, kInside, kOutside };
    std::vector<uint8_t> decided(walls_unchanged ? axis->positions.size() : 0, kUnknown);
    std::vector<EdgeRecord>& records = axis->records;
    size_t kept = 0;
    for (size_t k = 0; k < records.size(); ++k) {
        const EdgeRecord r = records[k];
        if (k + 8 < records.size()) { // scattered reads, fetched a few records early
            const EdgeRecord& next = records[k + 8];
            __builtin_prefetch(&axis->positions[next.v2]);
            if (walls_unchanged) __builtin_prefetch(&groups.parent[next.v2]);
        }
        if (!std::isfinite(axis->positions[r.v1].x) || !std::isfinite(axis->positions[r.v2].x)) continue;
        const uint32_t g = groupOf(r);
        bool inside;
        if (g != kAlone && decided[g] != kUnknown) {
            inside = decided[g] == kInside;
        } else {
            const Vec2 mid = testPoint(*axis, r, epsilon);
            inside = region.inside(mid);
            const double clear = 1e-6 * (1 + std::abs(mid.x) + std::abs(mid.y));
            if (g != kAlone && siteDistance(axis->sites[r.sa], mid) > clear &&
                siteDistance(axis->sites[r.sb], mid) > clear)
                decided[g] = inside ? kInside : kOutside;
        }
        if (inside) records[kept++] = r;
    }
    records.resize(kept);
    records.shrink_to_fit();
    std::vector<bool>().swap(axis->on_wall);
}

} // namespace clearway::bake::medial_axis_detail
