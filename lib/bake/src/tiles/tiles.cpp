// Tiled worlds (README "Tiled worlds"): one tile of a level baked from its geometry plus a margin
// (cw-bake --tile-size), tiles welded into one world asset (cw-stitch), and the topology
// comparison that checks a stitched world against the untiled bake.
//
// Why a tile is exact where the clearance is below the margin: a medial-axis point of the core
// with clearance r < margin has every wall within r inside core + margin, and the artificial walls
// where the mesh was clipped are at least the margin away; so the tile sees the same nearest walls
// as the whole world there, and its axis is the world's.
#include <clearway/bake.h>
#include <clearway/runtime.h>
#include <clearway/schema/roadmap_generated.h>

#include "assets/asset_internal.h"
#include <clearway/bake/geometry.h>
#include "pipeline/pipeline_internal.h"
#include "roadmap/roadmap_internal.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sys/stat.h>
#include <unordered_map>

namespace clearway::bake {

namespace fb = clearway::schema;
using namespace geometry;

namespace {

// footprint.cpp's reach of the solid test (kSolidProbeReach there): how far a floor point's
// footprint depends on the geometry around it.
constexpr double kSolidProbeReach = 10.0;

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

Vec2 xy(const Vec3& v) {
    return {v.x, v.y};
}

std::string num(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", v);
    return text;
}

// ---------------------------------------------------------------------------------------------
// Rectangles and clipping

struct Rect {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool contains(Vec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
    bool onBorder(Vec2 p) const { return contains(p) && (p.x == x0 || p.x == x1 || p.y == y0 || p.y == y1); }
};

// The point where segment pq meets the line coordinate[axis] == c, computed from the endpoints in
// a canonical order: two tiles cutting the same wall or axis edge get the same bits.
Vec3 crossAt(Vec3 p, Vec3 q, int axis, double c) {
    if (std::make_tuple(q.x, q.y, q.z) < std::make_tuple(p.x, p.y, p.z)) std::swap(p, q);
    const double pa = axis == 0 ? p.x : p.y, qa = axis == 0 ? q.x : q.y;
    const double t = qa == pa ? 0 : (c - pa) / (qa - pa);
    Vec3 r{p.x + t * (q.x - p.x), p.y + t * (q.y - p.y), p.z + t * (q.z - p.z)};
    (axis == 0 ? r.x : r.y) = c;
    return r;
}

// Sutherland-Hodgman against the four sides of `rect` in the ground plane (z interpolated). A
// non-convex ring comes out with zero-width bridges along the border; rebuildPolygons nets them out.
std::vector<Vec3> clipPolygon(std::vector<Vec3> poly, const Rect& rect) {
    struct Side {
        int axis;
        double c;
        bool keep_above;
    };
    const Side sides[4] = {{0, rect.x0, true}, {0, rect.x1, false}, {1, rect.y0, true}, {1, rect.y1, false}};
    for (const Side& side : sides) {
        if (poly.empty()) break;
        auto inside = [&](const Vec3& p) {
            const double v = side.axis == 0 ? p.x : p.y;
            return side.keep_above ? v >= side.c : v <= side.c;
        };
        std::vector<Vec3> out;
        for (size_t k = 0; k < poly.size(); ++k) {
            const Vec3& cur = poly[k];
            const Vec3& prev = poly[(k + poly.size() - 1) % poly.size()];
            const bool in_cur = inside(cur), in_prev = inside(prev);
            if (in_cur) {
                if (!in_prev) out.push_back(crossAt(prev, cur, side.axis, side.c));
                out.push_back(cur);
            } else if (in_prev) {
                out.push_back(crossAt(prev, cur, side.axis, side.c));
            }
        }
        poly = std::move(out);
    }
    return poly;
}

// Liang-Barsky: the part [t0, t1] of segment pq inside the closed rectangle, false when none.
bool clipSegment(Vec2 p, Vec2 q, const Rect& r, double* t0, double* t1) {
    double lo = 0, hi = 1;
    const double dx = q.x - p.x, dy = q.y - p.y;
    const double pk[4] = {-dx, dx, -dy, dy};
    const double qk[4] = {p.x - r.x0, r.x1 - p.x, p.y - r.y0, r.y1 - p.y};
    for (int k = 0; k < 4; ++k) {
        if (pk[k] == 0) {
            if (qk[k] < 0) return false;
            continue;
        }
        const double t = qk[k] / pk[k];
        if (pk[k] < 0)
            lo = std::max(lo, t);
        else
            hi = std::min(hi, t);
    }
    if (lo > hi) return false;
    *t0 = lo, *t1 = hi;
    return true;
}

// Snaps a point within `tol` of a border line onto it exactly.
Vec2 snapToBorder(Vec2 p, const Rect& r, double tol) {
    for (double c : {r.x0, r.x1})
        if (std::abs(p.x - c) <= tol) p.x = c;
    for (double c : {r.y0, r.y1})
        if (std::abs(p.y - c) <= tol) p.y = c;
    return p;
}

double ringArea(const Ring& ring) {
    double a = 0;
    for (size_t i = 0, n = ring.size(); i < n; ++i)
        a += ring[i].x * ring[(i + 1) % n].y - ring[(i + 1) % n].x * ring[i].y;
    return a / 2;
}

bool insideRing(const Ring& ring, Vec2 p, bool* on_boundary) {
    bool inside = false;
    *on_boundary = false;
    for (size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
        const Vec2 a = ring[i], b = ring[j];
        if (pointSegmentDistance(p, a, b) <= 1e-9) *on_boundary = true;
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
            inside = !inside;
    }
    return inside;
}

struct Box {
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    void add(Vec2 p) {
        x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    }
    bool contains(const Box& b) const { return b.x0 >= x0 && b.x1 <= x1 && b.y0 >= y0 && b.y1 <= y1; }
};
Box boxOf(const Ring& ring) {
    Box b;
    for (Vec2 p : ring)
        b.add(p);
    return b;
}

// ---------------------------------------------------------------------------------------------
// Bucket grid over boxes (walls, triangles, rings): items meeting a cell, queries by rings of cells.

class BoxGrid {
  public:
    void build(const std::vector<Box>& boxes) {
        Box all;
        for (const Box& b : boxes)
            all.add({b.x0, b.y0}), all.add({b.x1, b.y1});
        if (boxes.empty()) all = {0, 0, 1, 1};
        lo_ = {all.x0, all.y0};
        const double w = std::max(all.x1 - all.x0, 1e-3), h = std::max(all.y1 - all.y0, 1e-3);
        const double n = double(std::max<size_t>(boxes.size(), 1));
        cell_ = std::max(std::sqrt(w * h / n) * 2, 1e-3);
        while ((w / cell_ + 1) * (h / cell_ + 1) > 4 * n + 64)
            cell_ *= 1.5;
        nx_ = int(w / cell_) + 1, ny_ = int(h / cell_) + 1;
        std::vector<uint32_t> count(size_t(nx_) * ny_ + 1, 0);
        for (int pass = 0; pass < 2; ++pass) {
            for (uint32_t i = 0; i < boxes.size(); ++i)
                for (int j = cy(boxes[i].y0); j <= cy(boxes[i].y1); ++j)
                    for (int k = cx(boxes[i].x0); k <= cx(boxes[i].x1); ++k) {
                        const size_t c = size_t(j) * nx_ + k;
                        if (pass == 0)
                            ++count[c + 1];
                        else
                            items_[start_[c] + count[c]++] = i;
                    }
            if (pass == 0) {
                start_.assign(count.begin(), count.end());
                std::partial_sum(start_.begin(), start_.end(), start_.begin());
                items_.resize(start_.back());
                std::fill(count.begin(), count.end(), 0);
            }
        }
    }
    // Calls f(item) for items in cells at Chebyshev ring `ring` around p; false past the grid.
    template <class F> bool visitRing(Vec2 p, int ring, F&& f) const {
        const int ci = cx(p.x), cj = cy(p.y);
        const int off = offGrid(p);
        if (ring > std::max(nx_, ny_) + off) return false;
        for (int j = cj - ring; j <= cj + ring; ++j)
            for (int i = ci - ring; i <= ci + ring; ++i) {
                if (std::max(std::abs(i - ci), std::abs(j - cj)) != ring) continue;
                if (i < 0 || j < 0 || i >= nx_ || j >= ny_) continue;
                const size_t c = size_t(j) * nx_ + i;
                for (uint32_t k = start_[c]; k < start_[c + 1]; ++k)
                    f(items_[k]);
            }
        return true;
    }
    template <class F> void visitBox(const Box& b, F&& f) const {
        for (int j = cy(b.y0); j <= cy(b.y1); ++j)
            for (int i = cx(b.x0); i <= cx(b.x1); ++i) {
                const size_t c = size_t(j) * nx_ + i;
                for (uint32_t k = start_[c]; k < start_[c + 1]; ++k)
                    f(items_[k]);
            }
    }
    double cell() const { return cell_; }
    int offGrid(Vec2 p) const {
        return int(std::ceil(std::max({lo_.x - p.x, p.x - (lo_.x + nx_ * cell_), lo_.y - p.y,
                                       p.y - (lo_.y + ny_ * cell_), 0.0}) /
                             cell_));
    }

  private:
    int cx(double x) const { return std::clamp(int(std::floor((x - lo_.x) / cell_)), 0, nx_ - 1); }
    int cy(double y) const { return std::clamp(int(std::floor((y - lo_.y) / cell_)), 0, ny_ - 1); }
    Vec2 lo_;
    double cell_ = 1;
    int nx_ = 1, ny_ = 1;
    std::vector<uint32_t> start_, items_;
};

// Nearest walls of one layer.
class WallIndex {
  public:
    explicit WallIndex(std::vector<WallSegment> walls) : walls_(std::move(walls)) {
        std::vector<Box> boxes;
        for (const WallSegment& w : walls_) {
            Box b;
            b.add(w.a), b.add(w.b);
            boxes.push_back(b);
        }
        grid_.build(boxes);
    }
    // Minimum of distance(wall) for a shape within `reach` of `centre`.
    template <class D> double nearest(Vec2 centre, double reach, D&& distance) const {
        double best = INFINITY;
        const int off = grid_.offGrid(centre);
        for (int ring = 0;; ++ring) {
            if (best < (ring - 1 - off) * grid_.cell() - reach) break;
            if (!grid_.visitRing(centre, ring,
                                 [&](uint32_t w) { best = std::min(best, distance(walls_[w])); }))
                break;
        }
        return best;
    }
    double pointClearance(Vec2 p) const {
        return nearest(p, 0, [&](const WallSegment& w) { return pointSegmentDistance(p, w.a, w.b); });
    }
    double segmentClearance(Vec2 a, Vec2 b) const {
        return nearest({(a.x + b.x) / 2, (a.y + b.y) / 2}, dist(a, b) / 2,
                       [&](const WallSegment& w) { return segmentSegmentDistance(a, b, w.a, w.b); });
    }
    // Nearest wall points left and right of direction `dir` at p (the nearest overall when a side
    // has none within the clearance).
    void sides(Vec2 p, Vec2 dir, Vec2* left, Vec2* right) const {
        const double r = pointClearance(p);
        const double reach = r + std::max(1e-6, 1e-6 * r);
        double best_l = INFINITY, best_r = INFINITY, best = INFINITY;
        Vec2 any = p;
        *left = *right = p;
        const int off = grid_.offGrid(p);
        for (int ring = 0;; ++ring) {
            if ((ring - 1 - off) * grid_.cell() > reach) break;
            if (!grid_.visitRing(p, ring, [&](uint32_t w) {
                    const Vec2 q = closestOnSegment(p, walls_[w].a, walls_[w].b);
                    const double d = dist(p, q);
                    if (d < best) best = d, any = q;
                    if (d > reach) return;
                    const double side = dir.x * (q.y - p.y) - dir.y * (q.x - p.x);
                    if (side > 0 && d < best_l) best_l = d, *left = q;
                    if (side < 0 && d < best_r) best_r = d, *right = q;
                }))
                break;
        }
        if (!std::isfinite(best_l)) *left = any;
        if (!std::isfinite(best_r)) *right = any;
    }

  private:
    std::vector<WallSegment> walls_;
    BoxGrid grid_;
};

// Surface height of one layer at a ground point (the nearest triangle's, outside the surface).
class SurfaceIndex {
  public:
    explicit SurfaceIndex(const FootprintLayer& layer) : layer_(&layer) {
        std::vector<Box> boxes;
        for (const SurfaceTriangle& t : layer.surface_triangles) {
            Box b;
            for (uint32_t v : {t.a, t.b, t.c})
                b.add(xy(layer.surface_vertices[v]));
            boxes.push_back(b);
        }
        grid_.build(boxes);
    }
    double heightAt(Vec2 p) const {
        const FootprintLayer& layer = *layer_;
        if (layer.surface_triangles.empty()) return layer.height_min;
        double best_distance = INFINITY, best_height = layer.height_min;
        bool found = false;
        const int off = grid_.offGrid(p);
        for (int ring = 0; !found; ++ring) {
            if (best_distance < (ring - 1 - off) * grid_.cell()) break;
            if (!grid_.visitRing(p, ring, [&](uint32_t i) {
                    if (found) return;
                    const SurfaceTriangle& t = layer.surface_triangles[i];
                    const Vec3 &a = layer.surface_vertices[t.a], &b = layer.surface_vertices[t.b],
                               &c = layer.surface_vertices[t.c];
                    const double det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
                    if (det == 0) return;
                    const double u = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / det;
                    const double v = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / det;
                    if (u >= -1e-9 && v >= -1e-9 && u + v <= 1 + 1e-9) {
                        best_height = a.z + u * (b.z - a.z) + v * (c.z - a.z);
                        found = true;
                        return;
                    }
                    const double d = std::min({pointSegmentDistance(p, xy(a), xy(b)),
                                               pointSegmentDistance(p, xy(b), xy(c)),
                                               pointSegmentDistance(p, xy(c), xy(a))});
                    if (d < best_distance) {
                        best_distance = d;
                        const double cu = std::clamp(u, 0.0, 1.0), cv = std::clamp(v, 0.0, 1.0 - cu);
                        best_height = a.z + cu * (b.z - a.z) + cv * (c.z - a.z);
                    }
                }))
                break;
        }
        return best_height;
    }

  private:
    const FootprintLayer* layer_;
    BoxGrid grid_;
};

// ---------------------------------------------------------------------------------------------
// Polygons across cut lines: ring edges lying on a cut line are netted (opposite directions
// cancel), the rest are chained into rings again, and holes find their outer ring. A tile nets
// out the bridges of its own clipping; cw-stitch nets neighbouring tiles, so tile lines vanish.

struct CutLines {
    std::vector<double> x, y; // sorted: vertical lines x = c, horizontal lines y = c
    bool onX(double v) const { return std::binary_search(x.begin(), x.end(), v); }
    bool onY(double v) const { return std::binary_search(y.begin(), y.end(), v); }
    bool touches(Vec2 a, Vec2 b) const { return (a.x == b.x && onX(a.x)) || (a.y == b.y && onY(a.y)); }
    bool onAny(Vec2 p) const { return onX(p.x) || onY(p.y); }
};

struct PairHash {
    size_t operator()(const std::pair<double, double>& p) const {
        uint64_t a, b;
        std::memcpy(&a, &p.first, 8), std::memcpy(&b, &p.second, 8);
        return size_t(a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2)));
    }
};

std::vector<PolygonWithHoles> rebuildPolygons(std::vector<PolygonWithHoles> polygons, const CutLines& lines) {
    std::vector<PolygonWithHoles> out;
    struct Directed {
        Vec2 a, b;
    };
    std::vector<Directed> edges;
    // Per line: (from, to, +1/-1) along the line's coordinate.
    std::map<std::pair<int, double>, std::vector<std::tuple<double, double, int>>> on_line;
    for (PolygonWithHoles& polygon : polygons) {
        bool touched = false;
        auto scan = [&](const Ring& r) {
            for (size_t i = 0; i < r.size() && !touched; ++i)
                touched = lines.touches(r[i], r[(i + 1) % r.size()]);
        };
        scan(polygon.outer);
        for (const Ring& h : polygon.holes)
            scan(h);
        if (!touched) {
            out.push_back(std::move(polygon));
            continue;
        }
        auto add = [&](const Ring& r) {
            for (size_t i = 0; i < r.size(); ++i) {
                const Vec2 a = r[i], b = r[(i + 1) % r.size()];
                if (a.x == b.x && a.y == b.y) continue;
                if (a.x == b.x && lines.onX(a.x))
                    on_line[{0, a.x}].push_back({std::min(a.y, b.y), std::max(a.y, b.y), b.y > a.y ? 1 : -1});
                else if (a.y == b.y && lines.onY(a.y))
                    on_line[{1, a.y}].push_back({std::min(a.x, b.x), std::max(a.x, b.x), b.x > a.x ? 1 : -1});
                else
                    edges.push_back({a, b});
            }
        };
        add(polygon.outer);
        for (const Ring& h : polygon.holes)
            add(h);
    }
    if (edges.empty() && on_line.empty()) return out;
    // Net coverage along each line: what one side's free space meets and the other's does not.
    for (auto& [line, intervals] : on_line) {
        std::vector<std::pair<double, int>> events;
        for (const auto& [lo, hi, sign] : intervals)
            events.push_back({lo, sign}), events.push_back({hi, -sign});
        std::sort(events.begin(), events.end());
        int cover = 0;
        for (size_t k = 0; k < events.size();) {
            const double at = events[k].first;
            while (k < events.size() && events[k].first == at)
                cover += events[k++].second;
            if (k == events.size() || cover == 0) continue;
            const double next = events[k].first;
            const int axis = line.first; // a structured binding cannot be captured in C++17
            const double offset = line.second;
            auto point = [axis, offset](double t) { return axis == 0 ? Vec2{offset, t} : Vec2{t, offset}; };
            for (int n = 0; n < std::abs(cover); ++n)
                edges.push_back(cover > 0 ? Directed{point(at), point(next)}
                                          : Directed{point(next), point(at)});
        }
    }
    // Chain: leaving a vertex, take the first outgoing edge clockwise from the way back, so rings
    // that touch at a vertex come out as separate rings.
    std::unordered_map<std::pair<double, double>, std::vector<uint32_t>, PairHash> outgoing;
    for (uint32_t e = 0; e < edges.size(); ++e)
        outgoing[{edges[e].a.x, edges[e].a.y}].push_back(e);
    std::vector<bool> used(edges.size(), false);
    std::vector<Ring> rings;
    for (uint32_t first = 0; first < edges.size(); ++first) {
        if (used[first]) continue;
        Ring ring;
        uint32_t e = first;
        while (true) {
            used[e] = true;
            ring.push_back(edges[e].a);
            const Vec2 at = edges[e].b;
            if (at.x == edges[first].a.x && at.y == edges[first].a.y) break;
            const auto it = outgoing.find({at.x, at.y});
            if (it == outgoing.end()) break;
            const double back = std::atan2(edges[e].a.y - at.y, edges[e].a.x - at.x);
            uint32_t best = UINT32_MAX;
            double best_turn = INFINITY;
            for (uint32_t c : it->second) {
                if (used[c]) continue;
                double turn = back - std::atan2(edges[c].b.y - at.y, edges[c].b.x - at.x);
                while (turn <= 0)
                    turn += 2 * M_PI;
                while (turn > 2 * M_PI)
                    turn -= 2 * M_PI;
                if (turn < best_turn) best_turn = turn, best = c;
            }
            if (best == UINT32_MAX) break;
            e = best;
        }
        // Vertices a cut line left in the middle of a straight wall.
        for (bool changed = true; changed && ring.size() > 3;) {
            changed = false;
            for (size_t i = 0; i < ring.size() && ring.size() > 3; ++i) {
                const Vec2 p = ring[(i + ring.size() - 1) % ring.size()], v = ring[i],
                           n = ring[(i + 1) % ring.size()];
                if (!lines.onAny(v)) continue;
                const double l1 = dist(p, v), l2 = dist(v, n);
                if (std::abs(cross(p, v, n)) <= 1e-12 * l1 * l2 + 1e-18 &&
                    (v.x - p.x) * (n.x - v.x) + (v.y - p.y) * (n.y - v.y) > 0) {
                    ring.erase(ring.begin() + i);
                    changed = true;
                }
            }
        }
        if (ring.size() >= 3 && ringArea(ring) != 0) rings.push_back(std::move(ring));
    }
    // Outer rings counter-clockwise, holes clockwise; a hole goes to the smallest outer holding it.
    std::vector<uint32_t> outers, holes;
    for (uint32_t r = 0; r < rings.size(); ++r)
        (ringArea(rings[r]) > 0 ? outers : holes).push_back(r);
    std::vector<Box> outer_boxes;
    for (uint32_t o : outers)
        outer_boxes.push_back(boxOf(rings[o]));
    BoxGrid grid;
    grid.build(outer_boxes);
    const size_t base = out.size();
    for (uint32_t o : outers) {
        PolygonWithHoles p;
        p.outer = rings[o];
        out.push_back(std::move(p));
    }
    for (uint32_t h : holes) {
        const Box hb = boxOf(rings[h]);
        std::vector<uint32_t> candidates;
        grid.visitBox(hb, [&](uint32_t k) {
            if (outer_boxes[k].contains(hb)) candidates.push_back(k);
        });
        std::sort(candidates.begin(), candidates.end());
        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        uint32_t chosen = UINT32_MAX;
        if (candidates.size() == 1) {
            chosen = candidates[0];
        } else {
            double best_area = INFINITY;
            for (uint32_t k : candidates) {
                bool inside = true;
                for (Vec2 v : rings[h]) {
                    bool boundary = false;
                    const bool in = insideRing(rings[outers[k]], v, &boundary);
                    if (!boundary) {
                        inside = in;
                        break;
                    }
                }
                const double area = ringArea(rings[outers[k]]);
                if (inside && area < best_area) best_area = area, chosen = k;
            }
        }
        if (chosen != UINT32_MAX) out[base + chosen].holes.push_back(std::move(rings[h]));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Tile frame

double snapTo(double v, double q) {
    return double(float(std::round(v / q) * q));
}

// Tile (i, j)'s core in local coordinates (internal frame minus origin), on the grid `q`. Border
// k is computed from k * size alone, so neighbours share their border bits.
Rect tileCore(const ImportOptions& options, double size, int32_t i, int32_t j, const Vec3& origin, double q) {
    auto corner = [&](double u, double v) {
        const Vec3 world = options.up == UpAxis::Y ? Vec3{u, 0, v} : Vec3{u, v, 0};
        const Vec3 p = worldToInternal(world, options);
        return Vec2{snapTo(p.x - origin.x, q), snapTo(p.y - origin.y, q)};
    };
    const Vec2 a = corner(double(i) * size, double(j) * size),
               b = corner(double(i + 1) * size, double(j + 1) * size);
    return {std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
}

Rect grow(const Rect& r, double m) {
    return {r.x0 - m, r.y0 - m, r.x1 + m, r.y1 + m};
}

// The tile's mesh: every triangle clipped exactly to `rect` (internal frame, absolute).
Mesh clipMesh(const Mesh& mesh, const Rect& rect) {
    Mesh out;
    out.source_name = mesh.source_name;
    out.source_hash = mesh.source_hash;
    for (size_t t = 0; t < mesh.triangleCount(); ++t) {
        const Vec3 p[3] = {mesh.positions[mesh.indices[3 * t]], mesh.positions[mesh.indices[3 * t + 1]],
                           mesh.positions[mesh.indices[3 * t + 2]]};
        Box b;
        for (const Vec3& v : p)
            b.add(xy(v));
        if (b.x1 < rect.x0 || b.x0 > rect.x1 || b.y1 < rect.y0 || b.y0 > rect.y1) continue;
        std::vector<Vec3> poly(p, p + 3);
        if (!(b.x0 >= rect.x0 && b.x1 <= rect.x1 && b.y0 >= rect.y0 && b.y1 <= rect.y1))
            poly = clipPolygon(poly, rect);
        if (poly.size() < 3) continue;
        const uint32_t first = uint32_t(out.positions.size());
        out.positions.insert(out.positions.end(), poly.begin(), poly.end());
        for (uint32_t k = 1; k + 1 < poly.size(); ++k)
            out.indices.insert(out.indices.end(), {first, first + k, first + k + 1});
    }
    return out;
}

// Moves a footprint to another origin, every coordinate onto multiples of q (exact in float).
void moveFootprint(Footprint& fp, const Vec3& origin, double q) {
    const Vec3 d{fp.origin.x - origin.x, fp.origin.y - origin.y, fp.origin.z - origin.z};
    auto move2 = [&](Vec2& p) { p = {snapTo(p.x + d.x, q), snapTo(p.y + d.y, q)}; };
    auto moveRing = [&](Ring& ring) {
        Ring out;
        for (Vec2 p : ring) {
            move2(p);
            if (out.empty() || out.back().x != p.x || out.back().y != p.y) out.push_back(p);
        }
        while (out.size() > 1 && out.front().x == out.back().x && out.front().y == out.back().y)
            out.pop_back();
        ring = std::move(out);
    };
    for (FootprintLayer& layer : fp.layers) {
        for (PolygonWithHoles& polygon : layer.polygons) {
            moveRing(polygon.outer);
            for (Ring& h : polygon.holes)
                moveRing(h);
        }
        for (Vec3& v : layer.surface_vertices)
            v = {double(float(v.x + d.x)), double(float(v.y + d.y)), double(float(v.z + d.z))};
        layer.height_min += d.z, layer.height_max += d.z;
    }
    for (Connection& c : fp.connections) {
        move2(c.p0), move2(c.p1);
        c.z_a0 += d.z, c.z_a1 += d.z, c.z_b0 += d.z, c.z_b1 += d.z;
    }
    fp.origin = origin;
    fp.grid_spacing = std::max(fp.grid_spacing, q);
}

void layerStats(FootprintLayer& layer) {
    layer.area = 0;
    for (const PolygonWithHoles& p : layer.polygons) {
        layer.area += ringArea(p.outer);
        for (const Ring& h : p.holes)
            layer.area += ringArea(h);
    }
    if (!layer.surface_vertices.empty()) {
        layer.height_min = INFINITY, layer.height_max = -INFINITY;
        for (const Vec3& v : layer.surface_vertices)
            layer.height_min = std::min(layer.height_min, v.z),
            layer.height_max = std::max(layer.height_max, v.z);
    }
}

// The footprint inside the core: rings, surfaces and connections clipped, bridges netted out.
Footprint clipFootprint(const Footprint& fp, const Rect& core) {
    Footprint out = fp;
    const CutLines lines{{core.x0, core.x1}, {core.y0, core.y1}};
    for (FootprintLayer& layer : out.layers) {
        std::vector<PolygonWithHoles> clipped;
        auto clipRing = [&](const Ring& r) {
            std::vector<Vec3> poly;
            for (Vec2 p : r)
                poly.push_back({p.x, p.y, 0});
            Ring ring;
            for (const Vec3& p : clipPolygon(poly, core))
                if (ring.empty() || ring.back().x != p.x || ring.back().y != p.y) ring.push_back(xy(p));
            while (ring.size() > 1 && ring.front().x == ring.back().x && ring.front().y == ring.back().y)
                ring.pop_back();
            return ring;
        };
        for (const PolygonWithHoles& p : layer.polygons) {
            PolygonWithHoles c;
            c.outer = clipRing(p.outer);
            if (c.outer.size() < 3) continue;
            for (const Ring& h : p.holes) {
                Ring ch = clipRing(h);
                if (ch.size() >= 3) c.holes.push_back(std::move(ch));
            }
            clipped.push_back(std::move(c));
        }
        layer.polygons = rebuildPolygons(std::move(clipped), lines);
        std::vector<Vec3> vertices;
        std::vector<SurfaceTriangle> triangles;
        for (const SurfaceTriangle& t : layer.surface_triangles) {
            std::vector<Vec3> poly = {layer.surface_vertices[t.a], layer.surface_vertices[t.b],
                                      layer.surface_vertices[t.c]};
            poly = clipPolygon(poly, core);
            if (poly.size() < 3) continue;
            const uint32_t first = uint32_t(vertices.size());
            vertices.insert(vertices.end(), poly.begin(), poly.end());
            for (uint32_t k = 1; k + 1 < poly.size(); ++k)
                triangles.push_back({first, first + k, first + k + 1});
        }
        layer.surface_vertices = std::move(vertices);
        layer.surface_triangles = std::move(triangles);
        layerStats(layer);
    }
    out.connections.clear();
    for (const Connection& c : fp.connections) {
        double t0, t1;
        if (!clipSegment(c.p0, c.p1, core, &t0, &t1) || t1 <= t0) continue;
        Connection k = c;
        auto at = [&](double t) {
            return Vec2{c.p0.x + t * (c.p1.x - c.p0.x), c.p0.y + t * (c.p1.y - c.p0.y)};
        };
        k.p0 = snapToBorder(at(t0), core, 1e-9), k.p1 = snapToBorder(at(t1), core, 1e-9);
        k.z_a0 = c.z_a0 + t0 * (c.z_a1 - c.z_a0), k.z_a1 = c.z_a0 + t1 * (c.z_a1 - c.z_a0);
        k.z_b0 = c.z_b0 + t0 * (c.z_b1 - c.z_b0), k.z_b1 = c.z_b0 + t1 * (c.z_b1 - c.z_b0);
        out.connections.push_back(k);
    }
    return out;
}

// The roadmap inside the core: edges crossing the border end at a border vertex there; pieces
// lying along the top or right border belong to the neighbour (which has them on its bottom/left).
void cutRoadmap(Roadmap& rm, const Rect& core, double margin, uint32_t* margin_reached) {
    const Footprint& fp = rm.footprint;
    // Left/right wall points see every ring edge; clearance of joins (Walls sites) is against the
    // solid walls, as joinLayers measures it.
    std::vector<WallIndex> walls, solid;
    std::vector<SurfaceIndex> surfaces;
    for (uint32_t l = 0; l < fp.layers.size(); ++l) {
        walls.emplace_back(layerWalls(fp.layers[l]));
        solid.emplace_back(solidLayerWalls(fp, l));
        surfaces.emplace_back(fp.layers[l]);
    }
    std::vector<RoadmapVertex> vertices;
    std::vector<RoadmapEdge> edges;
    std::vector<uint32_t> kept(rm.vertices.size(), UINT32_MAX);
    std::map<std::tuple<uint32_t, double, double>, uint32_t> border; // (layer, x, y) -> vertex
    auto keepVertex = [&](uint32_t v) {
        if (kept[v] == UINT32_MAX) kept[v] = uint32_t(vertices.size()), vertices.push_back(rm.vertices[v]);
        return kept[v];
    };
    auto borderVertex = [&](Vec2 p, uint32_t layer, const RoadmapEdge& e) {
        const auto key = std::make_tuple(layer, p.x, p.y);
        if (auto it = border.find(key); it != border.end()) return it->second;
        RoadmapVertex v;
        v.layer = layer;
        v.position = {p.x, p.y, surfaces[layer].heightAt(p)};
        if (e.site == ClearanceSite::Point)
            v.clearance = dist(p, e.site_p0);
        else if (e.site == ClearanceSite::Segment)
            v.clearance = pointSegmentDistance(p, e.site_p0, e.site_p1);
        else
            v.clearance = solid[layer].pointClearance(p);
        border[key] = uint32_t(vertices.size());
        vertices.push_back(v);
        return uint32_t(vertices.size() - 1);
    };
    *margin_reached = 0;
    for (const RoadmapEdge& e : rm.edges) {
        const uint32_t layer = rm.vertices[e.a].layer;
        const std::vector<Vec2>& P = e.points;
        struct Piece {
            std::vector<Vec2> points;
            bool from_a = false, to_b = false;
        };
        std::vector<Piece> pieces;
        bool open = false;
        for (size_t k = 0; k + 1 < P.size(); ++k) {
            double t0 = 0, t1 = 1;
            bool inside = clipSegment(P[k], P[k + 1], core, &t0, &t1);
            Vec2 s = P[k], f = P[k + 1];
            if (inside) {
                const Vec3 p3{P[k].x, P[k].y, 0}, q3{P[k + 1].x, P[k + 1].y, 0};
                auto cut = [&](double t) {
                    Vec2 c{P[k].x + t * (P[k + 1].x - P[k].x), P[k].y + t * (P[k + 1].y - P[k].y)};
                    c = snapToBorder(c, core, 1e-7);
                    // Recompute on the border line from canonical endpoints (neighbours agree).
                    const double lines[2][2] = {{core.x0, core.x1}, {core.y0, core.y1}};
                    for (int axis = 0; axis < 2; ++axis)
                        for (double line : lines[axis])
                            if ((axis == 0 ? c.x : c.y) == line &&
                                (axis == 0 ? P[k].x != P[k + 1].x : P[k].y != P[k + 1].y))
                                c = snapToBorder(xy(crossAt(p3, q3, axis, line)), core, 1e-7);
                    return c;
                };
                if (t0 > 0) s = cut(t0);
                if (t1 < 1) f = cut(t1);
                // Along the top or right border: the neighbour's piece.
                if ((s.x == core.x1 && f.x == core.x1) || (s.y == core.y1 && f.y == core.y1)) inside = false;
                if (P[k].x == P[k + 1].x && P[k].y == P[k + 1].y) // a portal edge: one tile keeps it
                    inside = core.contains(P[k]) && P[k].x != core.x1 && P[k].y != core.y1;
            }
            if (!inside) {
                open = false;
                continue;
            }
            if (!open || t0 > 0) {
                pieces.push_back({{s}, k == 0 && t0 == 0, false});
                open = true;
            }
            pieces.back().points.push_back(f);
            if (t1 < 1) {
                open = false;
            } else if (k + 2 == P.size()) {
                pieces.back().to_b = true;
            }
        }
        for (Piece& piece : pieces) {
            if (piece.points.size() < 2) continue;
            const bool zero_length = piece.points.front().x == piece.points.back().x &&
                                     piece.points.front().y == piece.points.back().y &&
                                     !(piece.from_a && piece.to_b);
            if (zero_length) continue;
            RoadmapEdge c = e;
            c.points = piece.points;
            c.a = piece.from_a ? keepVertex(e.a) : borderVertex(c.points.front(), layer, e);
            c.b = piece.to_b ? keepVertex(e.b) : borderVertex(c.points.back(), layer, e);
            if (!(piece.from_a && piece.to_b)) {
                double m = INFINITY;
                for (size_t k = 0; k + 1 < c.points.size(); ++k) {
                    const Vec2 a = c.points[k], b = c.points[k + 1];
                    if (e.site == ClearanceSite::Point)
                        m = std::min(m, pointSegmentDistance(e.site_p0, a, b));
                    else if (e.site == ClearanceSite::Segment)
                        m = std::min(m, segmentSegmentDistance(a, b, e.site_p0, e.site_p1));
                    else
                        m = std::min(m, solid[layer].segmentClearance(a, b));
                }
                c.min_clearance = m;
                const size_t n = c.points.size();
                if (!piece.from_a)
                    walls[layer].sides(c.points[0],
                                       {c.points[1].x - c.points[0].x, c.points[1].y - c.points[0].y},
                                       &c.left_a, &c.right_a);
                if (!piece.to_b)
                    walls[layer].sides(
                        c.points[n - 1],
                        {c.points[n - 1].x - c.points[n - 2].x, c.points[n - 1].y - c.points[n - 2].y},
                        &c.left_b, &c.right_b);
            }
            if (std::max(vertices[c.a].clearance, vertices[c.b].clearance) >= margin) ++*margin_reached;
            edges.push_back(std::move(c));
        }
    }
    rm.vertices = std::move(vertices);
    rm.edges = std::move(edges);
    rm.blends.clear();
}

// Chain merging must not bypass a border vertex (the neighbour continues there): a temporary
// self-loop makes its degree > 2 while finishRoadmapGraph runs.
void finishPinned(Roadmap& rm, const std::vector<bool>& pinned) {
    const size_t real = rm.edges.size();
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (pinned[v]) {
            RoadmapEdge loop;
            loop.a = loop.b = v;
            loop.points = {xy(rm.vertices[v].position), xy(rm.vertices[v].position)};
            loop.min_clearance = -1; // marks the pin
            rm.edges.push_back(loop);
        }
    if (rm.edges.size() == real) return finishRoadmapGraph(rm);
    finishRoadmapGraph(rm);
    std::vector<uint32_t> remap(rm.edges.size(), UINT32_MAX);
    std::vector<RoadmapEdge> edges;
    for (uint32_t e = 0; e < rm.edges.size(); ++e)
        if (!(rm.edges[e].a == rm.edges[e].b && rm.edges[e].min_clearance == -1))
            remap[e] = uint32_t(edges.size()), edges.push_back(std::move(rm.edges[e]));
    rm.edges = std::move(edges);
    std::vector<Blend> blends;
    for (Blend b : rm.blends) {
        if (remap[b.edge_in] == UINT32_MAX || remap[b.edge_out] == UINT32_MAX) continue;
        b.edge_in = remap[b.edge_in], b.edge_out = remap[b.edge_out];
        blends.push_back(b);
    }
    rm.blends = std::move(blends);
}

std::vector<uint32_t> borderVertices(const Roadmap& rm, const Rect& core) {
    std::vector<uint32_t> out;
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (core.onBorder(xy(rm.vertices[v].position))) out.push_back(v);
    return out;
}

// World extent and origin exactly as buildFootprint computes them for the whole mesh: grid
// multiples every tile and the stitch agree on, whatever their own extent.
void worldFrame(const Mesh& mesh, Vec3* origin, double* q, Box* box) {
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t index : mesh.indices) {
        const Vec3& p = mesh.positions[index];
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    *origin = {std::round((lo.x + hi.x) / 2), std::round((lo.y + hi.y) / 2), std::round((lo.z + hi.z) / 2)};
    *q = worldGridSpacing(std::max({hi.x - origin->x, origin->x - lo.x, hi.y - origin->y, origin->y - lo.y}));
    *box = {lo.x, lo.y, hi.x, hi.y};
}

} // namespace

// ---------------------------------------------------------------------------------------------

Error readRoadmapBytes(const std::vector<uint8_t>& bytes, const std::string& name, Roadmap* out) {
    RoadmapView view;
    const Status status = loadRoadmap(bytes.data(), bytes.size(), &view);
    if (status != Status::Ok)
        return {ErrorCode::ReadFailed, name + ": not a valid roadmap asset: " + statusString(status)};
    const fb::Roadmap* root = fb::GetRoadmap(bytes.data());
    Roadmap rm;
    readFootprintTable(root->footprint(), &rm.footprint);
    if (const fb::RoadmapOptions* o = root->options()) {
        rm.options.min_clearance = o->min_clearance();
        rm.options.epsilon = o->epsilon();
        rm.options.merge_chains = o->merge_chains();
    }
    rm.options_hash = root->options_hash();
    rm.footprint.input_hash = root->input_hash();
    if (root->vertices())
        for (const fb::RoadmapVertex* v : *root->vertices()) {
            RoadmapVertex x;
            x.position = {v->x(), v->y(), v->z()};
            x.clearance = v->clearance();
            x.layer = v->layer();
            rm.vertices.push_back(x);
        }
    if (root->edges())
        for (const fb::RoadmapEdge* e : *root->edges()) {
            RoadmapEdge x;
            x.a = e->a(), x.b = e->b();
            for (uint32_t k = 0; k < e->point_count(); ++k) {
                const fb::Vec2* p = root->points()->Get(e->first_point() + k);
                x.points.push_back({p->x(), p->y()});
            }
            x.min_clearance = e->min_clearance();
            x.site = static_cast<ClearanceSite>(e->site());
            x.portal = e->portal();
            x.site_p0 = {e->site_x0(), e->site_y0()}, x.site_p1 = {e->site_x1(), e->site_y1()};
            x.left_a = {e->left_ax(), e->left_ay()}, x.right_a = {e->right_ax(), e->right_ay()};
            x.left_b = {e->left_bx(), e->left_by()}, x.right_b = {e->right_bx(), e->right_by()};
            rm.edges.push_back(std::move(x));
        }
    if (root->blends())
        for (const fb::Blend* b : *root->blends()) {
            Blend x;
            x.vertex = b->vertex(), x.edge_in = b->edge_in(), x.edge_out = b->edge_out();
            x.center = {b->center_x(), b->center_y()};
            x.radius = b->radius();
            x.p_in = {b->in_x(), b->in_y()}, x.p_out = {b->out_x(), b->out_y()};
            x.ccw = b->ccw();
            x.min_clearance = b->min_clearance();
            rm.blends.push_back(x);
        }
    if (const fb::RoadmapTile* t = root->tile()) {
        rm.tile.size = t->size(), rm.tile.margin = t->margin(), rm.tile.i = t->i(), rm.tile.j = t->j();
        if (t->border_vertices())
            rm.tile.border_vertices.assign(t->border_vertices()->begin(), t->border_vertices()->end());
        rm.tile.margin_reached = t->margin_reached();
        for (uint32_t v : rm.tile.border_vertices)
            if (v >= rm.vertices.size())
                return {ErrorCode::ReadFailed, name + ": tile border vertex out of range"};
    }
    *out = std::move(rm);
    return {};
}

Error readRoadmapFile(const std::string& path, Roadmap* out) {
    std::vector<uint8_t> bytes;
    if (Error e = readAssetFile(path, &bytes)) return e;
    return readRoadmapBytes(bytes, path, out);
}

Error bakeTile(const RoadmapRequest& request, RoadmapResult* result, LogContext& log) {
    const auto start = Clock::now();
    const std::string& name = request.input_path;
    const double size = request.tile_size;
    if (!(size > 0) || !std::isfinite(size))
        return {ErrorCode::InvalidOption,
                "--tile-size must be a positive number of world units (got " + num(size) + ")"};
    const double scale = request.import_options.scale;
    const double margin = request.tile_margin < 0 ? size / 4 + kSolidProbeReach / scale : request.tile_margin;
    if (!(margin * scale > kSolidProbeReach) || !std::isfinite(margin))
        return {ErrorCode::InvalidOption,
                "--tile-margin must exceed 10 m (" + num(kSolidProbeReach / scale) +
                    " world units): the footprint's solid test looks 10 m around every floor point (got " +
                    num(request.tile_margin) + ")"};
    Mesh mesh;
    if (Error e = loadMesh(request.input_path, request.import_options, &mesh, log)) return e;
    Vec3 origin;
    double q;
    Box box;
    worldFrame(mesh, &origin, &q, &box);
    const ImportOptions& options = request.import_options;
    // Which tiles the mesh spans, in world units of the horizontal plane.
    const Vec3 lo = internalToWorld({box.x0, box.y0, 0}, options),
               hi = internalToWorld({box.x1, box.y1, 0}, options);
    auto horizontal = [&](const Vec3& w) {
        return options.up == UpAxis::Y ? Vec2{w.x, w.z} : Vec2{w.x, w.y};
    };
    const Vec2 wa = horizontal(lo), wb = horizontal(hi);
    // Half-open tiles: a mesh ending exactly on a tile line does not reach the next tile.
    auto first = [&](double lo) { return int64_t(std::floor(lo / size)); };
    auto last = [&](double lo, double hi) { return std::max(first(lo), int64_t(std::ceil(hi / size)) - 1); };
    const int64_t i0 = first(std::min(wa.x, wb.x)), i1 = last(std::min(wa.x, wb.x), std::max(wa.x, wb.x));
    const int64_t j0 = first(std::min(wa.y, wb.y)), j1 = last(std::min(wa.y, wb.y), std::max(wa.y, wb.y));
    const char* v_axis = options.up == UpAxis::Y ? "z" : "y";
    if (request.tile_i < i0 || request.tile_i > i1 || request.tile_j < j0 || request.tile_j > j1)
        return {ErrorCode::InvalidOption,
                name + ": tile " + std::to_string(request.tile_i) + "," + std::to_string(request.tile_j) +
                    " of size " + num(size) + " lies outside the mesh, which spans tiles " +
                    std::to_string(i0) + ".." + std::to_string(i1) + " (world x) by " + std::to_string(j0) +
                    ".." + std::to_string(j1) + " (world " + v_axis + ")"};
    const Rect core = tileCore(options, size, request.tile_i, request.tile_j, origin, q);
    const double margin_local = margin * options.scale;
    // A core point's footprint depends on the geometry up to kSolidProbeReach away, its axis on
    // the footprint within its clearance: exact below this clearance.
    const double exact_clearance = margin_local - kSolidProbeReach;
    const Rect outer = grow(core, margin_local);
    const Rect outer_abs{outer.x0 + origin.x, outer.y0 + origin.y, outer.x1 + origin.x, outer.y1 + origin.y};
    const Mesh clipped = clipMesh(mesh, outer_abs);
    mesh = Mesh();
    log.log(LogLevel::Debug,
            name + ": tile " + std::to_string(request.tile_i) + "," + std::to_string(request.tile_j) + ": " +
                std::to_string(clipped.triangleCount()) + " triangles in the tile and its margin");
    if (clipped.triangleCount() == 0)
        return {ErrorCode::NoWalkableSurface, name + ": tile " + std::to_string(request.tile_i) + "," +
                                                  std::to_string(request.tile_j) + " holds no geometry"};
    Footprint built, footprint;
    if (Error e = buildFootprint(clipped, options, &built, log)) return e;
    if (Error e = readFootprintBytes(serializeFootprint(built), name, &footprint)) return e;
    moveFootprint(footprint, origin, q);
    result->seconds_import = secondsSince(start);

    // The axis of core + margin without chain merging: a merged edge could cross the border
    // elsewhere than the neighbour's; merging runs after the cut, with the border pinned.
    RoadmapOptions axis_options = request.roadmap_options;
    axis_options.merge_chains = false;
    Roadmap rm;
    if (Error e = buildRoadmap(footprint, axis_options, &rm, &result->stats, log)) return e;
    const auto cut_start = Clock::now();
    uint32_t margin_reached = 0;
    cutRoadmap(rm, core, exact_clearance, &margin_reached);
    rm.options = request.roadmap_options;
    std::vector<bool> pinned(rm.vertices.size(), false);
    for (uint32_t v : borderVertices(rm, core))
        pinned[v] = true;
    finishPinned(rm, pinned);
    rm.footprint = clipFootprint(rm.footprint, core);
    rm.footprint.source_name = footprint.source_name;
    rm.options_hash = roadmapOptionsHash(options, request.roadmap_options);
    rm.tile.size = size, rm.tile.margin = margin, rm.tile.i = request.tile_i, rm.tile.j = request.tile_j;
    rm.tile.border_vertices = borderVertices(rm, core);
    rm.tile.margin_reached = margin_reached;
    if (margin_reached > 0)
        log.log(LogLevel::Warn, name + ": tile " + std::to_string(request.tile_i) + "," +
                                    std::to_string(request.tile_j) + ": " + std::to_string(margin_reached) +
                                    " roadmap edges have clearance >= the margin minus 10 m (" +
                                    num(exact_clearance) +
                                    " m); there the stitched world may differ from an untiled bake");
    result->stats.seconds_roadmap += secondsSince(cut_start);
    result->stats.layers = rm.footprint.layers.size();
    result->stats.vertices = rm.vertices.size();
    result->stats.edges = rm.edges.size();
    result->stats.arcs = result->stats.blends = 0;
    for (const RoadmapEdge& e : rm.edges)
        result->stats.arcs += e.points.size() > 2;
    for (const Blend& b : rm.blends)
        result->stats.blends += b.radius > 0;
    const auto write_start = Clock::now();
    if (Error e = writeRoadmapOutputs(rm, request.output_path, request.svg_path, request.roadmap_svg, &result->bytes))
        return e;
    result->roadmap = std::move(rm);
    result->seconds_write = secondsSince(write_start);
    result->seconds_total = secondsSince(start);
    return {};
}

// ---------------------------------------------------------------------------------------------
// Stitching

namespace {

struct UnionFind {
    std::vector<uint32_t> parent;
    explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    uint32_t find(uint32_t x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    }
    void join(uint32_t a, uint32_t b) {
        a = find(a), b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b); // the smallest index represents
    }
};

} // namespace

Error stitchTiles(const std::vector<Roadmap>& tiles_in, const std::vector<std::string>& names_in,
                  const StitchOptions& options, Roadmap* out, StitchStats* stats_out, LogContext& log) {
    if (tiles_in.empty()) return {ErrorCode::InvalidOption, "cw-stitch: no tiles given"};
    if (!(options.weld_epsilon > 0)) return {ErrorCode::InvalidOption, "--weld-epsilon must be > 0 metres"};
    // Tile order (i, j) makes the result independent of the argument order.
    std::vector<uint32_t> order(tiles_in.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::make_pair(tiles_in[a].tile.i, tiles_in[a].tile.j) <
               std::make_pair(tiles_in[b].tile.i, tiles_in[b].tile.j);
    });
    std::vector<const Roadmap*> tiles;
    std::vector<std::string> names;
    for (uint32_t k : order)
        tiles.push_back(&tiles_in[k]),
            names.push_back(k < names_in.size() ? names_in[k] : "tile " + std::to_string(k));
    const Roadmap& first = *tiles[0];
    for (size_t t = 0; t < tiles.size(); ++t) {
        const Roadmap& r = *tiles[t];
        if (!(r.tile.size > 0))
            return {ErrorCode::InvalidOption, names[t] + ": not a tile (baked without --tile-size)"};
        auto differs = [&](const std::string& what) {
            return Error{ErrorCode::InvalidOption,
                         names[t] + ": " + what + " differs from " + names[0] +
                             "'s: tiles of one world need the same mesh, options, tile size and margin"};
        };
        if (r.footprint.input_hash != first.footprint.input_hash) return differs("the input mesh");
        if (r.options_hash != first.options_hash) return differs("the bake options");
        if (r.tile.size != first.tile.size) return differs("the tile size (" + num(r.tile.size) + ")");
        if (r.tile.margin != first.tile.margin)
            return differs("the tile margin (" + num(r.tile.margin) + ")");
        if (r.footprint.origin.x != first.footprint.origin.x ||
            r.footprint.origin.y != first.footprint.origin.y ||
            r.footprint.origin.z != first.footprint.origin.z)
            return differs("the world origin");
        if (t > 0 && r.tile.i == tiles[t - 1]->tile.i && r.tile.j == tiles[t - 1]->tile.j)
            return {ErrorCode::InvalidOption, names[t] + ": tile " + std::to_string(r.tile.i) + "," +
                                                  std::to_string(r.tile.j) + " is given twice (also " +
                                                  names[t - 1] + ")"};
    }
    const ImportOptions& io = first.footprint.options;
    double q = 0;
    for (const Roadmap* r : tiles)
        q = std::max(q, r->footprint.grid_spacing);
    std::vector<Rect> cores;
    CutLines lines;
    for (const Roadmap* r : tiles) {
        cores.push_back(tileCore(io, r->tile.size, r->tile.i, r->tile.j, r->footprint.origin, q));
        lines.x.insert(lines.x.end(), {cores.back().x0, cores.back().x1});
        lines.y.insert(lines.y.end(), {cores.back().y0, cores.back().y1});
    }
    for (auto* v : {&lines.x, &lines.y}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }

    // Nodes: every polygon of every tile layer. Polygons whose border edges meet from opposite
    // sides at one height are one piece of floor.
    struct Node {
        uint32_t tile, layer, polygon;
    };
    std::vector<Node> nodes;
    std::vector<std::vector<uint32_t>> first_node(tiles.size()); // per tile, per layer: first node
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (uint32_t l = 0; l < tiles[t]->footprint.layers.size(); ++l) {
            first_node[t].push_back(uint32_t(nodes.size()));
            for (uint32_t p = 0; p < tiles[t]->footprint.layers[l].polygons.size(); ++p)
                nodes.push_back({t, l, p});
        }
    UnionFind pieces(nodes.size());
    {
        struct BorderEdge {
            double lo, hi, height;
            int sign;
            uint32_t node;
        };
        std::map<std::pair<int, double>, std::vector<BorderEdge>> on_line;
        for (uint32_t n = 0; n < nodes.size(); ++n) {
            const Roadmap& r = *tiles[nodes[n].tile];
            const FootprintLayer& layer = r.footprint.layers[nodes[n].layer];
            const Ring& ring = layer.polygons[nodes[n].polygon].outer;
            std::unique_ptr<SurfaceIndex> surface;
            for (size_t i = 0; i < ring.size(); ++i) {
                const Vec2 a = ring[i], b = ring[(i + 1) % ring.size()];
                if (!lines.touches(a, b)) continue;
                if (!surface) surface = std::make_unique<SurfaceIndex>(layer);
                const double h = surface->heightAt({(a.x + b.x) / 2, (a.y + b.y) / 2});
                if (a.x == b.x)
                    on_line[{0, a.x}].push_back(
                        {std::min(a.y, b.y), std::max(a.y, b.y), h, b.y > a.y ? 1 : -1, n});
                else
                    on_line[{1, a.y}].push_back(
                        {std::min(a.x, b.x), std::max(a.x, b.x), h, b.x > a.x ? 1 : -1, n});
            }
        }
        const double tolerance = std::max(io.max_step, 0.05);
        for (auto& [line, edges] : on_line) {
            std::sort(edges.begin(), edges.end(),
                      [](const BorderEdge& x, const BorderEdge& y) { return x.lo < y.lo; });
            for (size_t a = 0; a < edges.size(); ++a)
                for (size_t b = a + 1; b < edges.size() && edges[b].lo < edges[a].hi; ++b)
                    if (edges[a].sign != edges[b].sign && std::min(edges[a].hi, edges[b].hi) > edges[b].lo &&
                        std::abs(edges[a].height - edges[b].height) <= tolerance)
                        pieces.join(edges[a].node, edges[b].node);
        }
    }
    // World layers: first fit of the pieces; a layer never takes two layers of one tile (they may
    // overlap), and tiles never overlap each other.
    std::vector<uint32_t> node_layer(nodes.size(), UINT32_MAX);
    std::vector<std::map<uint32_t, uint32_t>> layer_tiles; // world layer: tile -> tile layer
    {
        std::map<uint32_t, std::vector<uint32_t>> groups;
        for (uint32_t n = 0; n < nodes.size(); ++n)
            groups[pieces.find(n)].push_back(n);
        for (const auto& [root, members] : groups) {
            uint32_t chosen = UINT32_MAX;
            for (uint32_t w = 0; w < layer_tiles.size() && chosen == UINT32_MAX; ++w) {
                bool fits = true;
                for (uint32_t n : members) {
                    const auto it = layer_tiles[w].find(nodes[n].tile);
                    if (it != layer_tiles[w].end() && it->second != nodes[n].layer) fits = false;
                }
                // Members of one group may hold two layers of one tile (a ramp folding back): fine.
                if (fits) chosen = w;
            }
            if (chosen == UINT32_MAX) chosen = uint32_t(layer_tiles.size()), layer_tiles.emplace_back();
            for (uint32_t n : members) {
                node_layer[n] = chosen;
                layer_tiles[chosen].emplace(nodes[n].tile, nodes[n].layer);
            }
        }
    }
    const uint32_t world_layers = uint32_t(layer_tiles.size());
    // Which world layer a point of a tile layer is on: the only one, or the polygon holding it.
    std::vector<std::vector<uint32_t>> single_layer(tiles.size()); // UINT32_MAX: the polygons differ
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (uint32_t l = 0; l < tiles[t]->footprint.layers.size(); ++l) {
            const uint32_t n0 = first_node[t][l];
            const size_t count = tiles[t]->footprint.layers[l].polygons.size();
            uint32_t single = count ? node_layer[n0] : UINT32_MAX;
            for (size_t k = 1; k < count; ++k)
                if (node_layer[n0 + k] != node_layer[n0]) single = UINT32_MAX;
            single_layer[t].push_back(single);
        }
    auto worldLayerAt = [&](uint32_t t, uint32_t l, Vec2 p) {
        if (l >= single_layer[t].size()) return UINT32_MAX;
        const uint32_t n0 = first_node[t][l];
        const size_t count = tiles[t]->footprint.layers[l].polygons.size();
        if (count == 0) return UINT32_MAX;
        if (single_layer[t][l] != UINT32_MAX) return single_layer[t][l];
        double best = INFINITY;
        uint32_t chosen = node_layer[n0];
        for (size_t k = 0; k < count; ++k) {
            const Ring& ring = tiles[t]->footprint.layers[l].polygons[k].outer;
            bool boundary = false;
            if (insideRing(ring, p, &boundary)) return node_layer[n0 + k];
            for (size_t i = 0; i < ring.size(); ++i) {
                const double d = pointSegmentDistance(p, ring[i], ring[(i + 1) % ring.size()]);
                if (d < best) best = d, chosen = node_layer[n0 + k];
            }
        }
        return chosen;
    };

    Roadmap world;
    Footprint& fp = world.footprint;
    fp.options = io;
    fp.origin = first.footprint.origin;
    fp.grid_spacing = q;
    fp.source_name = first.footprint.source_name;
    fp.input_hash = first.footprint.input_hash;
    fp.options_hash = first.footprint.options_hash;
    fp.layers.resize(world_layers);
    {
        std::vector<std::vector<PolygonWithHoles>> soup(world_layers);
        for (uint32_t n = 0; n < nodes.size(); ++n)
            soup[node_layer[n]].push_back(
                tiles[nodes[n].tile]->footprint.layers[nodes[n].layer].polygons[nodes[n].polygon]);
        for (uint32_t w = 0; w < world_layers; ++w) {
            FootprintLayer& layer = fp.layers[w];
            layer.polygons = rebuildPolygons(std::move(soup[w]), lines);
            for (const auto& [t, l] : layer_tiles[w]) {
                const FootprintLayer& src = tiles[t]->footprint.layers[l];
                const uint32_t base = uint32_t(layer.surface_vertices.size());
                layer.surface_vertices.insert(layer.surface_vertices.end(), src.surface_vertices.begin(),
                                              src.surface_vertices.end());
                for (const SurfaceTriangle& tri : src.surface_triangles) {
                    const Vec3 &a = src.surface_vertices[tri.a], &b = src.surface_vertices[tri.b],
                               &c = src.surface_vertices[tri.c];
                    if (worldLayerAt(t, l, {(a.x + b.x + c.x) / 3, (a.y + b.y + c.y) / 3}) != w) continue;
                    layer.surface_triangles.push_back({base + tri.a, base + tri.b, base + tri.c});
                }
            }
            layerStats(layer);
        }
    }
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (const Connection& c : tiles[t]->footprint.connections) {
            const Vec2 m{(c.p0.x + c.p1.x) / 2, (c.p0.y + c.p1.y) / 2};
            Connection k = c;
            k.layer_a = worldLayerAt(t, c.layer_a, m), k.layer_b = worldLayerAt(t, c.layer_b, m);
            if (k.layer_a == UINT32_MAX || k.layer_b == UINT32_MAX || k.layer_a == k.layer_b) continue;
            fp.connections.push_back(k);
        }

    // Roadmap: every tile's vertices and edges, border vertices welded to their neighbours'.
    std::vector<uint32_t> vertex_base;
    std::vector<RoadmapVertex> vertices;
    std::vector<uint32_t> vertex_tile;
    std::vector<bool> is_border;
    for (uint32_t t = 0; t < tiles.size(); ++t) {
        vertex_base.push_back(uint32_t(vertices.size()));
        for (const RoadmapVertex& v : tiles[t]->vertices) {
            RoadmapVertex x = v;
            x.layer = worldLayerAt(t, v.layer, xy(v.position));
            if (x.layer == UINT32_MAX) x.layer = 0;
            vertices.push_back(x);
            vertex_tile.push_back(t);
            is_border.push_back(false);
        }
        for (uint32_t v : tiles[t]->tile.border_vertices)
            is_border[vertex_base[t] + v] = true;
    }
    UnionFind weld(vertices.size());
    StitchStats stats;
    {
        const double eps = options.weld_epsilon;
        const double height_tolerance = std::max(io.max_step, 0.05);
        std::unordered_map<std::pair<double, double>, std::vector<uint32_t>, PairHash> cells;
        for (uint32_t v = 0; v < vertices.size(); ++v) {
            if (!is_border[v]) continue;
            const double cx = std::floor(vertices[v].position.x / eps),
                         cy = std::floor(vertices[v].position.y / eps);
            for (double dx = -1; dx <= 1; ++dx)
                for (double dy = -1; dy <= 1; ++dy) {
                    const auto it = cells.find({cx + dx, cy + dy});
                    if (it == cells.end()) continue;
                    for (uint32_t u : it->second)
                        if (vertex_tile[u] != vertex_tile[v] && vertices[u].layer == vertices[v].layer &&
                            dist(xy(vertices[u].position), xy(vertices[v].position)) <= eps &&
                            std::abs(vertices[u].position.z - vertices[v].position.z) <= height_tolerance)
                            weld.join(u, v);
                }
            cells[{cx, cy}].push_back(v);
        }
        std::vector<uint32_t> set_size(vertices.size(), 0);
        for (uint32_t v = 0; v < vertices.size(); ++v)
            if (is_border[v]) ++set_size[weld.find(v)];
        for (uint32_t v = 0; v < vertices.size(); ++v)
            if (is_border[v]) (set_size[weld.find(v)] > 1 ? stats.welded : stats.unmatched) += 1;
    }
    std::vector<uint32_t> index(vertices.size(), UINT32_MAX);
    for (uint32_t v = 0; v < vertices.size(); ++v) {
        const uint32_t r = weld.find(v);
        if (r == v) {
            index[v] = uint32_t(world.vertices.size());
            world.vertices.push_back(vertices[v]);
        } else {
            RoadmapVertex& rep = world.vertices[index[r]];
            rep.clearance = std::min(rep.clearance, vertices[v].clearance);
        }
    }
    std::set<std::tuple<uint32_t, uint32_t, std::vector<std::pair<double, double>>>> seen;
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (const RoadmapEdge& e : tiles[t]->edges) {
            RoadmapEdge x = e;
            x.a = index[weld.find(vertex_base[t] + e.a)];
            x.b = index[weld.find(vertex_base[t] + e.b)];
            x.points.front() = xy(world.vertices[x.a].position);
            x.points.back() = xy(world.vertices[x.b].position);
            // A piece both tiles kept (it lies on their common border): once.
            std::vector<std::pair<double, double>> key;
            for (Vec2 p : x.points)
                key.push_back({p.x, p.y});
            if (x.b < x.a) std::reverse(key.begin(), key.end());
            if (!seen.insert({std::min(x.a, x.b), std::max(x.a, x.b), key}).second) continue;
            world.edges.push_back(std::move(x));
        }
    // Unwelded border vertices at the world's edge stay degree-1 leaves; nothing else to pin.
    world.options = first.options;
    world.options_hash = first.options_hash;
    finishRoadmapGraph(world);
    for (const Roadmap* r : tiles)
        stats.margin_reached += r->tile.margin_reached;
    stats.tiles = tiles.size();
    stats.layers = fp.layers.size();
    for (const FootprintLayer& layer : fp.layers)
        for (const PolygonWithHoles& p : layer.polygons) {
            stats.walls += p.outer.size();
            for (const Ring& h : p.holes)
                stats.walls += h.size();
        }
    stats.vertices = world.vertices.size();
    stats.edges = world.edges.size();
    for (const Blend& b : world.blends)
        stats.blends += b.radius > 0;
    log.log(LogLevel::Debug, "stitched " + std::to_string(stats.tiles) +
                                 " tiles: " + std::to_string(stats.welded) + " border vertices welded, " +
                                 std::to_string(stats.unmatched) + " unmatched");
    *out = std::move(world);
    if (stats_out) *stats_out = stats;
    return {};
}

Error stitchFiles(const StitchRequest& request, StitchResult* result, LogContext& log) {
    const auto start = Clock::now();
    if (request.tile_paths.empty()) return {ErrorCode::InvalidOption, "cw-stitch: no tile files given"};
    std::vector<Roadmap> tiles(request.tile_paths.size());
    for (size_t t = 0; t < tiles.size(); ++t)
        if (Error e = readRoadmapFile(request.tile_paths[t], &tiles[t])) return e;
    result->seconds_read = secondsSince(start);
    const auto stitch_start = Clock::now();
    try {
        if (Error e = stitchTiles(tiles, request.tile_paths, request.options, &result->roadmap,
                                  &result->stats, log))
            return e;
    } catch (const std::exception& e) {
        return {ErrorCode::Internal, std::string("cw-stitch: ") + e.what()};
    }
    result->seconds_stitch = secondsSince(stitch_start);
    if (Error e = writeRoadmapOutputs(result->roadmap, request.output_path, request.svg_path, request.roadmap_svg,
                                        &result->bytes))
        return e;
    result->seconds_total = secondsSince(start);
    return {};
}


// ---------------------------------------------------------------------------------------------
// Topology comparison

namespace {

struct Chain {
    uint32_t from, to; // junctions (UINT32_MAX for a loop without one)
    double min_clearance;
};

void junctionsAndChains(const Roadmap& rm, std::vector<uint32_t>* junctions, std::vector<Chain>* chains) {
    std::vector<std::vector<uint32_t>> incident(rm.vertices.size());
    for (uint32_t e = 0; e < rm.edges.size(); ++e) {
        incident[rm.edges[e].a].push_back(e);
        incident[rm.edges[e].b].push_back(e);
    }
    std::vector<bool> junction(rm.vertices.size(), false), visited(rm.edges.size(), false);
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (incident[v].size() != 2) junction[v] = true, junctions->push_back(v);
    auto walk = [&](uint32_t start, uint32_t e) {
        Chain c{start, UINT32_MAX, INFINITY};
        uint32_t v = start;
        while (!visited[e]) {
            visited[e] = true;
            c.min_clearance = std::min(c.min_clearance, rm.edges[e].min_clearance);
            v = rm.edges[e].a == v ? rm.edges[e].b : rm.edges[e].a;
            if (junction[v]) break;
            e = incident[v][0] == e ? incident[v][1] : incident[v][0];
        }
        c.to = junction[v] ? v : UINT32_MAX;
        if (!junction[start]) c.from = UINT32_MAX;
        return c;
    };
    for (uint32_t v : *junctions)
        for (uint32_t e : incident[v])
            if (!visited[e]) chains->push_back(walk(v, e));
    for (uint32_t e = 0; e < rm.edges.size(); ++e)
        if (!visited[e]) chains->push_back(walk(rm.edges[e].a, e)); // loops without a junction
}

} // namespace

TopologyComparison compareRoadmapTopology(const Roadmap& a, const Roadmap& b,
                                          const TopologyOptions& options) {
    TopologyComparison result;
    std::vector<uint32_t> ja, jb;
    std::vector<Chain> ca, cb;
    junctionsAndChains(a, &ja, &ca);
    junctionsAndChains(b, &jb, &cb);
    result.junctions_a = ja.size(), result.junctions_b = jb.size();
    result.chains_a = ca.size(), result.chains_b = cb.size();
    // b's positions in a's local frame.
    const Vec3 shift{b.footprint.origin.x - a.footprint.origin.x, b.footprint.origin.y - a.footprint.origin.y,
                     b.footprint.origin.z - a.footprint.origin.z};
    auto posB = [&](uint32_t v) {
        const Vec3& p = b.vertices[v].position;
        return Vec3{p.x + shift.x, p.y + shift.y, p.z + shift.z};
    };
    auto note = [&](const std::string& text) {
        if (result.differences.size() < 20) result.differences.push_back(text);
    };
    const double eps = options.position_epsilon;
    std::unordered_map<std::pair<double, double>, std::vector<uint32_t>, PairHash> cells;
    for (uint32_t v : jb) {
        const Vec3 p = posB(v);
        cells[{std::floor(p.x / eps), std::floor(p.y / eps)}].push_back(v);
    }
    std::vector<uint32_t> match_a(a.vertices.size(), UINT32_MAX);
    std::vector<bool> taken(b.vertices.size(), false);
    for (uint32_t v : ja) {
        const Vec3& p = a.vertices[v].position;
        const double cx = std::floor(p.x / eps), cy = std::floor(p.y / eps);
        double best = INFINITY;
        uint32_t chosen = UINT32_MAX;
        for (double dx = -1; dx <= 1; ++dx)
            for (double dy = -1; dy <= 1; ++dy) {
                const auto it = cells.find({cx + dx, cy + dy});
                if (it == cells.end()) continue;
                for (uint32_t u : it->second) {
                    const Vec3 q = posB(u);
                    const double d = std::hypot(p.x - q.x, p.y - q.y);
                    if (taken[u] || d > eps || std::abs(p.z - q.z) > options.height_epsilon ||
                        std::abs(a.vertices[v].clearance - b.vertices[u].clearance) >
                            options.clearance_epsilon)
                        continue;
                    if (d < best) best = d, chosen = u;
                }
            }
        if (chosen == UINT32_MAX) {
            ++result.unmatched_junctions;
            note("junction at (" + num(p.x) + ", " + num(p.y) + ", " + num(p.z) + ") clearance " +
                 num(a.vertices[v].clearance) + " only in the first roadmap");
            continue;
        }
        taken[chosen] = true;
        match_a[v] = chosen;
        result.max_position_error = std::max(result.max_position_error, best);
        result.max_clearance_error = std::max(
            result.max_clearance_error, std::abs(a.vertices[v].clearance - b.vertices[chosen].clearance));
    }
    for (uint32_t u : jb)
        if (!taken[u]) {
            ++result.unmatched_junctions;
            const Vec3 q = posB(u);
            note("junction at (" + num(q.x) + ", " + num(q.y) + ", " + num(q.z) + ") clearance " +
                 num(b.vertices[u].clearance) + " only in the second roadmap");
        }
    // Chains by their (b-side) end junctions; loops under a common key.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<double>> chains_b;
    for (const Chain& c : cb)
        chains_b[{std::min(c.from, c.to), std::max(c.from, c.to)}].push_back(c.min_clearance);
    for (auto& [key, list] : chains_b)
        std::sort(list.begin(), list.end());
    for (const Chain& c : ca) {
        const uint32_t f = c.from == UINT32_MAX ? UINT32_MAX : match_a[c.from];
        const uint32_t t = c.to == UINT32_MAX ? UINT32_MAX : match_a[c.to];
        auto it = chains_b.find({std::min(f, t), std::max(f, t)});
        bool found = false;
        if ((c.from == UINT32_MAX || f != UINT32_MAX) && (c.to == UINT32_MAX || t != UINT32_MAX) &&
            it != chains_b.end()) {
            std::vector<double>& list = it->second;
            size_t best = list.size();
            for (size_t k = 0; k < list.size(); ++k)
                if (std::abs(list[k] - c.min_clearance) <= options.clearance_epsilon &&
                    (best == list.size() ||
                     std::abs(list[k] - c.min_clearance) < std::abs(list[best] - c.min_clearance)))
                    best = k;
            if (best < list.size()) {
                result.max_clearance_error =
                    std::max(result.max_clearance_error, std::abs(list[best] - c.min_clearance));
                list.erase(list.begin() + best);
                found = true;
            }
        }
        if (!found) {
            ++result.unmatched_chains;
            const Vec3 p = c.from == UINT32_MAX ? Vec3{} : a.vertices[c.from].position;
            note("chain from (" + num(p.x) + ", " + num(p.y) + ") min clearance " + num(c.min_clearance) +
                 " only in the first roadmap");
        }
    }
    for (const auto& [key, list] : chains_b)
        for (double clearance : list) {
            ++result.unmatched_chains;
            const Vec3 p = key.first == UINT32_MAX ? Vec3{} : posB(key.first);
            note("chain from (" + num(p.x) + ", " + num(p.y) + ") min clearance " + num(clearance) +
                 " only in the second roadmap");
        }
    result.equal = result.unmatched_junctions == 0 && result.unmatched_chains == 0;
    return result;
}

} // namespace clearway::bake
