// Footprint stage 4b: layers. Pieces whose projections overlap conflict unless coplanar; layers
// grow greedily over walkable links without conflicts, then non-overlapping layers merge.
#include "footprint/footprint_internal.h"

#include "core/parallel.h"

#include <cstdio>
#include <queue>
#include <set>

namespace clearway::bake::footprint_internal {

// Overlap of two ground triangles (Sutherland-Hodgman in doubles, clipToSide's rule), in place:
// the overlap tests run it for every pair of piece triangles, and vectors made a heap allocation
// per clip (a fifth of dungeon's bake).
ClippedTriangle clippedOverlap(const Vec2 (&a)[3], const Vec2 (&b)[3]) {
    auto ccw = [](const Vec2(&t)[3], Vec2* out) {
        out[0] = t[0], out[1] = t[1], out[2] = t[2];
        if ((out[1].x - out[0].x) * (out[2].y - out[0].y) - (out[1].y - out[0].y) * (out[2].x - out[0].x) < 0)
            std::swap(out[1], out[2]);
    };
    ClippedTriangle poly, next;
    ccw(a, poly.p);
    poly.n = 3;
    Vec2 clip[3];
    ccw(b, clip);
    for (size_t e = 0; e < 3 && poly.n > 0; ++e) {
        const Vec2 p = clip[e], q = clip[(e + 1) % 3];
        auto side = [&](const Vec2& r) { return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x); };
        next.n = 0;
        for (uint32_t i = 0; i < poly.n; ++i) {
            const Vec2& u = poly.p[i];
            const Vec2& v = poly.p[(i + 1) % poly.n];
            const double fu = side(u), fv = side(v);
            if (fu >= 0) next.p[next.n++] = u;
            if ((fu > 0 && fv < 0) || (fu < 0 && fv > 0)) next.p[next.n++] = along(u, v, fu / (fu - fv));
        }
        poly = next;
    }
    return poly;
}

namespace {

// The overlap of two ground triangles, as a polygon.
std::vector<Vec2> triangleOverlap(const Vec2 (&a)[3], const Vec2 (&b)[3]) {
    const ClippedTriangle poly = clippedOverlap(a, b);
    return std::vector<Vec2>(poly.p, poly.p + poly.n);
}

double polygonArea(const Vec2* poly, size_t n) {
    double twice = 0;
    for (size_t k = 0; k < n; ++k)
        twice += poly[k].x * poly[(k + 1) % n].y - poly[(k + 1) % n].x * poly[k].y;
    return std::abs(twice) / 2;
}

// The overlap of two triangles' ground projections.
std::vector<Vec2> projectedOverlap(const Tri& a, const Tri& b) {
    const Vec2 pa[3] = {{a.p[0].x, a.p[0].y}, {a.p[1].x, a.p[1].y}, {a.p[2].x, a.p[2].y}};
    const Vec2 pb[3] = {{b.p[0].x, b.p[0].y}, {b.p[1].x, b.p[1].y}, {b.p[2].x, b.p[2].y}};
    return triangleOverlap(pa, pb);
}

// Whether two triangles' bounding boxes lie more than `margin` apart on an axis.
bool boxesApart(const Triangle2& s, const Triangle2& u, double margin) {
    for (int axis = 0; axis < 2; ++axis) {
        auto coord = [axis](const Vec2& v) { return axis == 0 ? v.x : v.y; };
        const double s_lo = std::min({coord(s.p[0]), coord(s.p[1]), coord(s.p[2])});
        const double s_hi = std::max({coord(s.p[0]), coord(s.p[1]), coord(s.p[2])});
        const double u_lo = std::min({coord(u.p[0]), coord(u.p[1]), coord(u.p[2])});
        const double u_hi = std::max({coord(u.p[0]), coord(u.p[1]), coord(u.p[2])});
        if (s_hi + margin < u_lo || u_hi + margin < s_lo) return true;
    }
    return false;
}

// How two pieces overlap in the ground plane, as the exact test (exactOverlap) decides it
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
    const std::vector<Triangle2> a_surface = a.surface(), b_surface = b.surface();
    for (const Triangle2& s : a_surface)
        for (const Triangle2& u : b_surface) {
            if (boxesApart(s, u, 0.0)) continue; // no overlap to clip
            const ClippedTriangle overlap = clippedOverlap(s.p, u.p);
            area += polygonArea(overlap.p, overlap.n);
            if (area > kSureArea) return kind;
        }
    // Two exact triangles sharing interior make the exact intersection non-empty, and a decided
    // kind holds at every point of it (the exact test would judge each component the same way).
    // Their double surfaces round the same corners in the same order: boxes apart by far more
    // than that rounding hold exact triangles that share nothing.
    constexpr double kRoundingMargin = 1e-9;
    const std::vector<ExactTriangle> a_exact = a.exactSurface(), b_exact = b.exactSurface();
    for (size_t i = 0; i < a_exact.size(); ++i)
        for (size_t k = 0; k < b_exact.size(); ++k)
            if (!boxesApart(a_surface[i], b_surface[k], kRoundingMargin) &&
                interiorsOverlap(a_exact[i], b_exact[k]))
                return kind;
    return OverlapKind::None;
}

// The exact test: the pieces' exact intersection, each component judged at an interior point.
// Coplanar duplicates may share a layer; anything else overlapping may not.
OverlapKind exactOverlap(const Piece& piece_a, const Piece& piece_b, const std::vector<Plane>& planes) {
    auto region = [](const Piece& piece) {
        PolygonSet set;
        if (piece.whole) {
            Polygon triangle;
            for (const Vec2& c : piece.ring())
                triangle.push_back(Point(c.x, c.y));
            set.join(triangle);
            return set;
        }
        for (const PolygonWH& p : piece.cut->polys)
            set.join(p);
        return set;
    };
    PolygonSet a = region(piece_a);
    const PolygonSet b = region(piece_b);
    a.intersection(b);
    if (a.is_empty()) return OverlapKind::None;
    std::vector<PolygonWH> overlap;
    a.polygons_with_holes(std::back_inserter(overlap));
    // Judge every overlap component at an interior point: a coplanar sliver (where a ramp meets
    // the floor) must not hide a real overlap elsewhere.
    bool stacked = false;
    for (const PolygonWH& component : overlap) {
        const std::vector<Triangle2> tri2 = triangulate(component);
        if (tri2.empty()) continue;
        const Vec2 c = largestTriangleCentre(tri2);
        stacked = stacked ||
                  std::abs(planes[piece_a.tri].at(c.x, c.y) - planes[piece_b.tri].at(c.x, c.y)) > kStackGap;
    }
    return stacked ? OverlapKind::Stacked : OverlapKind::Coplanar;
}

} // namespace

std::vector<std::vector<PieceOverlap>> findOverlaps(const std::vector<Piece>& pieces,
                                                    const ClassifiedMesh& mesh, Grid piece_grid,
                                                    const ImportOptions& options, const std::string& name,
                                                    LogContext& log) {
    for (uint32_t i = 0; i < pieces.size(); ++i) {
        const Box b = pieces[i].bounds();
        piece_grid.insert(i, b.min_x, b.min_y, b.max_x, b.max_y);
    }
    // One task per piece i (pairs i < j): exact booleans on frozen pieces, each task on its own
    // polygon sets.
    std::vector<std::vector<PieceOverlap>> overlaps(pieces.size());
    std::vector<uint32_t> exact_overlap_tests(pieces.size(), 0);
    parallel::forEach(pieces.size(), options.threads, [&](size_t i) {
        thread_local std::vector<uint32_t> near; // one per thread: a fine level asks millions of times
        const Box bi = pieces[i].bounds();
        piece_grid.query(bi.min_x, bi.min_y, bi.max_x, bi.max_y, near);
        for (uint32_t j : near) {
            if (j <= i) continue;
            const Box bj = pieces[j].bounds();
            if (bj.max_x <= bi.min_x || bj.min_x >= bi.max_x || bj.max_y <= bi.min_y || bj.min_y >= bi.max_y)
                continue;
            // Pieces lie inside their triangles: triangles that do not overlap (neighbours
            // sharing an edge, the common case) cannot give overlapping pieces. A double test
            // with a margin skips the exact one for them.
            const std::vector<Vec2> triangles_overlap =
                projectedOverlap(mesh.tris[pieces[i].tri], mesh.tris[pieces[j].tri]);
            if (polygonArea(triangles_overlap.data(), triangles_overlap.size()) < 1e-9) continue;
            OverlapKind kind = quickOverlap(pieces[i], pieces[j], triangles_overlap,
                                            mesh.planes[pieces[i].tri], mesh.planes[pieces[j].tri]);
            if (kind == OverlapKind::Undecided) {
                ++exact_overlap_tests[i];
                kind = exactOverlap(pieces[i], pieces[j], mesh.planes);
            }
            if (kind != OverlapKind::None) overlaps[i].push_back({j, kind == OverlapKind::Stacked});
        }
    });
    size_t pairs = 0, exact = 0;
    for (size_t i = 0; i < pieces.size(); ++i)
        pairs += overlaps[i].size(), exact += exact_overlap_tests[i];
    log.log(LogLevel::Debug, name + ": " + std::to_string(pairs) + " overlapping piece pairs, " +
                                 std::to_string(exact) + " needed the exact test");
    return overlaps;
}

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Per piece, a list of pieces, all in one array (a vector per piece cost ~50 bytes a piece on a
// level of millions). `each(add)` calls add(from, to) for every entry, twice (count, then fill),
// in the same order: each list keeps the order of its entries.
class Adjacency {
  public:
    template <class Each> Adjacency(size_t count, Each&& each) : first_(count + 1, 0) {
        each([&](uint32_t from, uint32_t) { ++first_[from + 1]; });
        for (size_t i = 0; i < count; ++i)
            first_[i + 1] += first_[i];
        std::vector<uint32_t> next(first_.begin(), first_.end() - 1);
        to_.resize(first_.back());
        each([&](uint32_t from, uint32_t to) { to_[next[from]++] = to; });
    }
    struct List {
        const uint32_t *first, *last;
        const uint32_t* begin() const { return first; }
        const uint32_t* end() const { return last; }
        size_t size() const { return size_t(last - first); }
    };
    List operator[](size_t i) const { return {to_.data() + first_[i], to_.data() + first_[i + 1]}; }
    size_t size() const { return first_.size() - 1; }

  private:
    std::vector<uint32_t> first_, to_;
};

// Grows layers greedily from the pieces in order, over neighbours, never into a conflict.
Layering growLayers(const std::vector<Piece>& pieces, const std::vector<Tri>& tris,
                    const Adjacency& neighbours, const Adjacency& conflicts) {
    Layering layering;
    std::vector<uint32_t>& layer_of = layering.layer_of;
    layer_of.assign(pieces.size(), kNone);
    auto centroidHeight = [&](uint32_t i) {
        const Tri& t = tris[pieces[i].tri];
        return (t.p[0].z + t.p[1].z + t.p[2].z) / 3;
    };
    for (uint32_t seed = 0; seed < pieces.size(); ++seed) {
        if (layer_of[seed] != kNone) continue;
        const uint32_t layer = layering.layer_count++;
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
    return layering;
}

// Merges layers whose projections do not overlap, touching or not (greedy growth leaves
// fragments, and islands such as crate tops need no layer of their own). First fit in layer
// order keeps it deterministic.
void mergeLayers(const Adjacency& conflicts, Layering& layering) {
    std::vector<uint32_t>& layer_of = layering.layer_of;
    std::vector<std::set<uint32_t>> clashing(layering.layer_count);
    for (uint32_t i = 0; i < layer_of.size(); ++i)
        for (uint32_t c : conflicts[i])
            clashing[layer_of[i]].insert(layer_of[c]);
    std::vector<uint32_t> group_of(layering.layer_count, kNone);
    std::vector<std::set<uint32_t>> group_clashes; // layers each group overlaps
    for (uint32_t l = 0; l < layering.layer_count; ++l) {
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
    layering.layer_count = uint32_t(group_clashes.size());
}

// Debug log: walkable components (pieces joined by neighbours) by area, links, overlaps, layers.
void logLayerStats(const std::vector<Piece>& pieces, const std::vector<Link>& links,
                   const Adjacency& neighbours, const Adjacency& conflicts, uint32_t layer_count,
                   const std::string& name, LogContext& log) {
    size_t walkable_links = 0, conflict_pairs = 0;
    for (const Link& link : links)
        walkable_links += link.walkable;
    for (size_t i = 0; i < conflicts.size(); ++i)
        conflict_pairs += conflicts[i].size();
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
            comp_area.back() += pieces[i].area();
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
    log.log(LogLevel::Debug,
            name + ": " + std::to_string(comp_area.size()) + " walkable components, largest m2: " + biggest);
    log.log(LogLevel::Debug, name + ": " + std::to_string(links.size()) + " shared edges (" +
                                 std::to_string(walkable_links) + " walkable), " +
                                 std::to_string(conflict_pairs / 2) + " overlapping piece pairs, " +
                                 std::to_string(layer_count) + " layers");
}

} // namespace

Layering buildLayers(const std::vector<Piece>& pieces, const std::vector<Link>& links,
                     const std::vector<std::vector<PieceOverlap>>& overlaps, const std::vector<Tri>& tris,
                     const std::string& name, LogContext& log) {
    // Neighbours: walkable links, then coplanar overlaps (modular floor tiles laid over each
    // other: one floor), in (i, j) order. Conflicts: stacked overlaps, in (i, j) order.
    const Adjacency neighbours(pieces.size(), [&](auto&& add) {
        for (const Link& link : links)
            if (link.walkable) {
                add(link.a, link.b);
                add(link.b, link.a);
            }
        for (uint32_t i = 0; i < pieces.size(); ++i)
            for (const auto& [j, stacked] : overlaps[i])
                if (!stacked) add(i, j), add(j, i);
    });
    const Adjacency conflicts(pieces.size(), [&](auto&& add) {
        for (uint32_t i = 0; i < pieces.size(); ++i)
            for (const auto& [j, stacked] : overlaps[i])
                if (stacked) add(i, j), add(j, i);
    });
    Layering layering = growLayers(pieces, tris, neighbours, conflicts);
    mergeLayers(conflicts, layering);
    layering.coplanar_overlap.assign(pieces.size(), false);
    for (uint32_t i = 0; i < pieces.size(); ++i)
        for (const auto& [j, stacked] : overlaps[i])
            if (!stacked) layering.coplanar_overlap[i] = layering.coplanar_overlap[j] = true;
    logLayerStats(pieces, links, neighbours, conflicts, layering.layer_count, name, log);
    return layering;
}

} // namespace clearway::bake::footprint_internal
