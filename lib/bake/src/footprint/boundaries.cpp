// Footprint stage 5: per layer, the union of its pieces (integer booleans), topology-preserving
// simplification within epsilon, snap rounding onto a float-exact grid and an exact check that
// no two boundary segments cross; plus the layer's surface triangles.
#include "footprint/footprint_internal.h"
#include "footprint/integer_booleans.h"

#include "core/parallel.h"

#include <clearway/bake/geometry.h>

#include <CGAL/Constrained_triangulation_2.h>
#include <CGAL/Constrained_triangulation_plus_2.h>
#include <CGAL/Polyline_simplification_2/simplify.h>

#include <chrono>
#include <cstdio>
#include <map>

namespace clearway::bake::footprint_internal {

namespace {

namespace PS = CGAL::Polyline_simplification_2;
using SVb = PS::Vertex_base_2<K>;
using SFb = CGAL::Constrained_triangulation_face_base_2<K>;
using STds = CGAL::Triangulation_data_structure_2<SVb, SFb>;
// A plain constrained triangulation, not Delaunay: the simplifier's removability test (no other
// vertex in the triangle of the removed vertex and its neighbours, judged over the vertex's
// triangulation fan) has the same answer in any triangulation, and Delaunay's in-circle tests on
// axis-aligned, cocircular levels defeat the interval filter (exact GMP evaluations).
using SCt = CGAL::Constrained_triangulation_2<K, STds, CGAL::Exact_predicates_tag>;
using SimplifyCt = CGAL::Constrained_triangulation_plus_2<SCt>;

// CGAL's simplifier visits constraints in address order and breaks equal costs by push order,
// so equal costs (collinear runs, symmetric shapes) would make the output depend on memory
// layout. A tie-break far below any threshold, unique per position, makes it deterministic.
// The cost itself (CGAL's Squared_distance_cost: the largest squared distance of the removed
// points from the new segment) is measured in doubles: exactly, every collinear point's zero
// distance is an undecidable sign for the interval filter and costs a GMP evaluation, which made
// simplification most of a terrain's boundary time. Rounding moves a cost by ~1e-16 of itself,
// far inside the epsilon budget; the exact sum with the tie-break keeps ties ordered.
struct DeterministicCost {
    template <class CDT>
    boost::optional<FT> operator()(
        const CGAL::Constrained_triangulation_plus_2<CDT>& ct,
        typename CGAL::Constrained_triangulation_plus_2<CDT>::Vertices_in_constraint_iterator v) const {
        using Ct = CGAL::Constrained_triangulation_plus_2<CDT>;
        auto toVec = [](const Point& p) { return Vec2{CGAL::to_double(p.x()), CGAL::to_double(p.y())}; };
        // Not std::prev: the iterator claims only the input category.
        auto before = v, after = v;
        --before, ++after;
        const Vec2 a = toVec((*before)->point()), b = toVec((*after)->point());
        const double dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy;
        double worst = 0;
        typename Ct::Points_in_constraint_iterator removed(before), end(after);
        for (++removed; removed != end; ++removed) {
            const Vec2 p = toVec(*removed);
            double t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0;
            t = std::clamp(t, 0.0, 1.0);
            const double ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
            worst = std::max(worst, ex * ex + ey * ey);
        }
        const Vec2 p = toVec((*v)->point());

        return FT(worst) + FT(p.x * 1e-22 + p.y * 1e-28);
    }
};

struct IPoint {
    int64_t x, y;
    bool operator==(const IPoint& o) const { return x == o.x && y == o.y; }
};

__int128 orient(const IPoint& a, const IPoint& b, const IPoint& c) {
    return static_cast<__int128>(b.x - a.x) * (c.y - a.y) - static_cast<__int128>(b.y - a.y) * (c.x - a.x);
}

bool onSegmentInterior(const IPoint& p, const IPoint& a, const IPoint& b) {
    if (p == a || p == b || orient(a, b, p) != 0) return false;
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

// Exact check on grid coordinates: no proper crossing, no endpoint inside another segment (and
// so no collinear overlap). Shared endpoints are fine.
bool findCrossing(const std::vector<std::vector<IPoint>>& rings, IPoint* where) {
    struct Seg {
        IPoint a, b;
    };
    std::vector<Seg> segs;
    int64_t min_x = INT64_MAX, min_y = INT64_MAX, max_x = INT64_MIN, max_y = INT64_MIN;
    for (const auto& ring : rings)
        for (size_t i = 0; i < ring.size(); ++i) {
            segs.push_back({ring[i], ring[(i + 1) % ring.size()]});
            min_x = std::min(min_x, ring[i].x), max_x = std::max(max_x, ring[i].x);
            min_y = std::min(min_y, ring[i].y), max_y = std::max(max_y, ring[i].y);
        }
    if (segs.empty()) return false;
    const double cell = std::max<double>(
        1.0, std::sqrt(double(max_x - min_x + 1) * double(max_y - min_y + 1) / double(segs.size())) * 2);
    Grid grid(double(min_x), double(min_y), double(max_x), double(max_y), cell);
    for (uint32_t i = 0; i < segs.size(); ++i)
        grid.insert(i, double(std::min(segs[i].a.x, segs[i].b.x)), double(std::min(segs[i].a.y, segs[i].b.y)),
                    double(std::max(segs[i].a.x, segs[i].b.x)), double(std::max(segs[i].a.y, segs[i].b.y)));
    std::vector<uint32_t> near;
    for (uint32_t i = 0; i < segs.size(); ++i) {
        const Seg& s = segs[i];
        grid.query(double(std::min(s.a.x, s.b.x)), double(std::min(s.a.y, s.b.y)),
                   double(std::max(s.a.x, s.b.x)), double(std::max(s.a.y, s.b.y)), near);
        for (uint32_t j : near) {
            if (j <= i) continue;
            const Seg& t = segs[j];
            if (onSegmentInterior(t.a, s.a, s.b) || onSegmentInterior(t.b, s.a, s.b)) {
                *where = onSegmentInterior(t.a, s.a, s.b) ? t.a : t.b;
                return true;
            }
            if (onSegmentInterior(s.a, t.a, t.b) || onSegmentInterior(s.b, t.a, t.b)) {
                *where = onSegmentInterior(s.a, t.a, t.b) ? s.a : s.b;
                return true;
            }
            const __int128 o1 = orient(s.a, s.b, t.a), o2 = orient(s.a, s.b, t.b);
            const __int128 o3 = orient(t.a, t.b, s.a), o4 = orient(t.a, t.b, s.b);
            if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
                *where = s.a;
                return true;
            }
        }
    }
    return false;
}

double ringArea(const std::vector<IPoint>& ring, double q) {
    __int128 twice = 0;
    for (size_t i = 0; i < ring.size(); ++i) {
        const IPoint& a = ring[i];
        const IPoint& b = ring[(i + 1) % ring.size()];
        twice += static_cast<__int128>(a.x) * b.y - static_cast<__int128>(b.x) * a.y;
    }
    return static_cast<double>(twice) * 0.5 * q * q;
}

// Removes repeated points and zero-width spikes (a, b, a) that snapping can leave behind. Straight
// collinear vertices stay: snap rounding put them there so that a touching ring shares them.
void cleanRing(std::vector<IPoint>& ring) {
    bool changed = true;
    while (changed && ring.size() >= 3) {
        changed = false;
        for (size_t i = 0; i < ring.size() && ring.size() >= 3; ++i) {
            const size_t n = ring.size();
            const IPoint& prev = ring[(i + n - 1) % n];
            const IPoint& next = ring[(i + 1) % n];
            const bool repeated = ring[i] == next;
            const bool spike = orient(prev, ring[i], next) == 0 &&
                               (static_cast<__int128>(ring[i].x - prev.x) * (next.x - ring[i].x) +
                                static_cast<__int128>(ring[i].y - prev.y) * (next.y - ring[i].y)) <= 0;
            if (repeated || spike) {
                ring.erase(ring.begin() + static_cast<long>(i));
                changed = true;
                break;
            }
        }
    }
    if (ring.size() < 3) ring.clear();
}

// Moves the clockwise loops of a counter-clockwise outer ring (holes that meet it at one vertex:
// the integer booleans grow blockers, so a hole that touched the outer boundary opens onto it
// through a mouth that snap rounding closes to a point) to `holes`, as separate rings meeting the
// outer ring there, the way exact booleans give them. The ring is scanned from its smallest vertex,
// which lies on its outermost loop.
void detachHoleLoops(std::vector<IPoint>& ring, std::vector<std::vector<IPoint>>* holes) {
    auto less = [](const IPoint& a, const IPoint& b) { return std::tie(a.x, a.y) < std::tie(b.x, b.y); };
    std::rotate(ring.begin(), std::min_element(ring.begin(), ring.end(), less), ring.end());
    std::vector<IPoint> outer;
    std::map<std::pair<int64_t, int64_t>, size_t> last_at;
    for (const IPoint& p : ring) {
        auto it = last_at.find({p.x, p.y});
        if (it != last_at.end()) {
            std::vector<IPoint> loop(outer.begin() + static_cast<long>(it->second), outer.end());
            if (ringArea(loop, 1.0) < 0) {
                for (size_t k = it->second + 1; k < outer.size(); ++k)
                    last_at.erase({outer[k].x, outer[k].y});
                outer.resize(it->second + 1);
                holes->push_back(std::move(loop));
                continue;
            }
        }
        last_at[{p.x, p.y}] = outer.size();
        outer.push_back(p);
    }
    ring.swap(outer);
    cleanRing(ring);
}

// Snap rounding (Hobby): every vertex becomes a hot pixel of the output grid, and every segment
// is routed through the centres of all hot pixels it passes. Unlike plain rounding this cannot
// create crossings: rounded rings may touch, never cross.
std::vector<std::vector<IPoint>> snapRound(const std::vector<std::vector<Vec2>>& rings, double q) {
    std::vector<IPoint> hot;
    for (const auto& ring : rings)
        for (const Vec2& p : ring)
            hot.push_back({std::llround(p.x / q), std::llround(p.y / q)});
    std::sort(hot.begin(), hot.end(),
              [](const IPoint& a, const IPoint& b) { return std::tie(a.x, a.y) < std::tie(b.x, b.y); });
    hot.erase(std::unique(hot.begin(), hot.end()), hot.end());
    std::vector<std::vector<IPoint>> out;
    if (hot.empty()) return out;
    int64_t min_x = INT64_MAX, min_y = INT64_MAX, max_x = INT64_MIN, max_y = INT64_MIN;
    for (const IPoint& h : hot) {
        min_x = std::min(min_x, h.x), max_x = std::max(max_x, h.x);
        min_y = std::min(min_y, h.y), max_y = std::max(max_y, h.y);
    }
    const double cell = std::max(
        4.0, std::sqrt(double(max_x - min_x + 1) * double(max_y - min_y + 1) / double(hot.size())) * 2);
    Grid grid(double(min_x), double(min_y), double(max_x), double(max_y), cell);
    for (uint32_t i = 0; i < hot.size(); ++i)
        grid.insert(i, double(hot[i].x), double(hot[i].y), double(hot[i].x), double(hot[i].y));
    std::vector<uint32_t> near;
    std::vector<std::pair<double, uint32_t>> crossed;
    for (const auto& ring : rings) {
        std::vector<IPoint> snapped;
        for (size_t i = 0; i < ring.size(); ++i) {
            const Vec2 a{ring[i].x / q, ring[i].y / q};
            const Vec2 b{ring[(i + 1) % ring.size()].x / q, ring[(i + 1) % ring.size()].y / q};
            grid.query(std::min(a.x, b.x) - 1, std::min(a.y, b.y) - 1, std::max(a.x, b.x) + 1,
                       std::max(a.y, b.y) + 1, near);
            crossed.clear();
            for (uint32_t h : near) {
                // Liang-Barsky clip of a->b against the pixel square [h-0.5, h+0.5]^2.
                double t0 = 0, t1 = 1;
                const double d[2] = {b.x - a.x, b.y - a.y};
                const double lo[2] = {double(hot[h].x) - 0.5 - a.x, double(hot[h].y) - 0.5 - a.y};
                const double hi[2] = {double(hot[h].x) + 0.5 - a.x, double(hot[h].y) + 0.5 - a.y};
                bool inside = true;
                for (int k = 0; k < 2 && inside; ++k) {
                    if (d[k] == 0) {
                        inside = lo[k] <= 0 && 0 <= hi[k];
                        continue;
                    }
                    double ta = lo[k] / d[k], tb = hi[k] / d[k];
                    if (ta > tb) std::swap(ta, tb);
                    t0 = std::max(t0, ta), t1 = std::min(t1, tb);
                    inside = t0 <= t1;
                }
                if (inside) crossed.push_back({(t0 + t1) / 2, h});
            }
            std::sort(crossed.begin(), crossed.end());
            for (const auto& [t, h] : crossed)
                if (snapped.empty() || !(snapped.back() == hot[h])) snapped.push_back(hot[h]);
        }
        while (snapped.size() > 1 && snapped.front() == snapped.back())
            snapped.pop_back();
        out.push_back(std::move(snapped));
    }
    return out;
}

struct LayerBoundary {
    std::vector<PolygonWithHoles> polygons;
    double area = 0;
};

// A height jump inside one layer without a wall: the thin strips cut there to keep a wall.
std::vector<std::vector<Vec2>> cliffStrips(const std::vector<std::pair<Vec2, Vec2>>& cliffs) {
    std::vector<std::vector<Vec2>> strips;
    for (const auto& [a, b] : cliffs) {
        const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
        if (!(len > 0)) continue;
        const double nx = -dy / len * kWallHalfWidth, ny = dx / len * kWallHalfWidth;
        const double tx = dx / len * kWallHalfWidth, ty = dy / len * kWallHalfWidth;
        strips.push_back({{a.x - tx - nx, a.y - ty - ny},
                          {b.x + tx - nx, b.y + ty - ny},
                          {b.x + tx + nx, b.y + ty + ny},
                          {a.x - tx + nx, a.y - ty + ny}});
    }
    return strips;
}

// `pwhs`: the layer's region in canonical order (integerUnionMinus), so the simplifier sees the
// same input whatever order the pieces came in.
Error buildBoundary(const std::vector<PolygonWH>& pwhs, double epsilon, double q, const std::string& where,
                    LayerBoundary* out) {
    // Topology-preserving simplification of all rings of the layer together, so that no ring
    // crosses another after simplification.
    SimplifyCt ct;
    struct RingRef {
        size_t polygon;
        bool outer;
        SimplifyCt::Constraint_id id;
    };
    std::vector<RingRef> refs;
    for (size_t i = 0; i < pwhs.size(); ++i) {
        const Polygon& outer = pwhs[i].outer_boundary();
        refs.push_back({i, true, ct.insert_constraint(outer.vertices_begin(), outer.vertices_end(), true)});
        for (auto h = pwhs[i].holes_begin(); h != pwhs[i].holes_end(); ++h)
            refs.push_back({i, false, ct.insert_constraint(h->vertices_begin(), h->vertices_end(), true)});
    }
    // Budget: epsilon minus the wall inflation, the integer booleans' shift and the rounding, so
    // the total stays within epsilon.
    const double budget = std::max(0.0, epsilon - kWallHalfWidth - kIntegerWallShift - q);
    PS::simplify(ct, DeterministicCost(), PS::Stop_above_cost_threshold(budget * budget));

    std::vector<std::vector<Vec2>> simplified;
    for (const RingRef& ref : refs) {
        std::vector<Vec2> ring;
        for (auto p = ct.points_in_constraint_begin(ref.id); p != ct.points_in_constraint_end(ref.id); ++p)
            ring.push_back({CGAL::to_double(p->x()), CGAL::to_double(p->y())});
        if (ring.size() > 1 && ring.front().x == ring.back().x && ring.front().y == ring.back().y)
            ring.pop_back();
        simplified.push_back(std::move(ring));
    }
    std::vector<std::vector<IPoint>> snapped = snapRound(simplified, q);
    std::vector<std::vector<IPoint>> rings;
    std::vector<RingRef> kept;
    for (size_t r = 0; r < refs.size(); ++r) {
        std::vector<IPoint>& ring = snapped[r];
        cleanRing(ring);
        // Rings that collapse to (almost) nothing on the grid are slivers: drop them.
        if (ring.empty() || std::abs(ringArea(ring, 1.0)) < 4) continue;
        if ((ringArea(ring, 1.0) > 0) != refs[r].outer) std::reverse(ring.begin(), ring.end());
        std::vector<std::vector<IPoint>> holes;
        if (refs[r].outer) detachHoleLoops(ring, &holes);
        if (ring.empty() || std::abs(ringArea(ring, 1.0)) < 4) continue;
        rings.push_back(std::move(ring));
        kept.push_back(refs[r]);
        for (std::vector<IPoint>& hole : holes) {
            cleanRing(hole);
            if (hole.empty() || std::abs(ringArea(hole, 1.0)) < 4) continue;
            rings.push_back(std::move(hole));
            kept.push_back({refs[r].polygon, false, refs[r].id});
        }
    }
    IPoint bad{};
    if (findCrossing(rings, &bad))
        return {ErrorCode::Internal, where + ": boundary segments cross after rounding near (" +
                                         std::to_string(double(bad.x) * q) + ", " +
                                         std::to_string(double(bad.y) * q) + ")"};
    std::map<size_t, size_t> polygon_of;
    for (size_t r = 0; r < rings.size(); ++r) {
        std::vector<Vec2> pts;
        for (const IPoint& p : rings[r])
            pts.push_back({double(p.x) * q, double(p.y) * q});
        const double area = ringArea(rings[r], q);
        if (kept[r].outer) {
            polygon_of[kept[r].polygon] = out->polygons.size();
            out->polygons.push_back({std::move(pts), {}});
            out->area += area;
        } else {
            auto it = polygon_of.find(kept[r].polygon);
            if (it == polygon_of.end()) continue; // its outer ring vanished (cannot happen for valid input)
            out->polygons[it->second].holes.push_back(std::move(pts));
            out->area += area; // negative
        }
    }
    return {};
}

struct VertexKey {
    double x, y, z;
    bool operator<(const VertexKey& o) const { return std::tie(x, y, z) < std::tie(o.x, o.y, o.z); }
};

// A cut piece's triangulation has its triangle's corners a few integer grid units inside (the
// inset, kPieceInset / sin(half the corner's angle)); the surface takes the corner itself, so the
// neighbours share it again (and the surfaces meet there).
Vec2 atCorner(const Vec2& p, const std::array<Vec2, 3>& corners) {
    constexpr double kCornerReach = 1e-4;
    for (const Vec2& c : corners)
        if (std::abs(p.x - c.x) < kCornerReach && std::abs(p.y - c.y) < kCornerReach) return c;
    return p;
}

// The pieces' regions: whole pieces as their triangles (joined over shared edges, linearly),
// the others as their polygons.
struct LayerRegion {
    std::vector<PolygonWH> cut_pieces;
    std::vector<GroundTriangle> whole_pieces;
};

// The layer's whole pieces lying flat (height plane z = c) that share ground with no other piece
// at their height, grouped by height, with the groups' coalesced surfaces (flatPatchSurface; empty
// where the pieces keep their own). Heights on a flat piece are c wherever they are read, so the
// coalesced surface gives every point the height the pieces' triangles gave it.
struct FlatPatches {
    std::vector<uint32_t> patch_of; // per member of the layer, or UINT32_MAX
    std::vector<std::vector<Triangle2>> surfaces;
};

FlatPatches flatPatches(const std::vector<uint32_t>& members, const std::vector<Piece>& pieces,
                        const std::vector<Plane>& planes, const std::vector<bool>& coplanar_overlap) {
    FlatPatches out;
    out.patch_of.assign(members.size(), UINT32_MAX);
    std::map<double, uint32_t> patch_at_height;
    std::vector<std::vector<GroundTriangle>> triangles;
    for (size_t m = 0; m < members.size(); ++m) {
        const Piece& piece = pieces[members[m]];
        const Plane& plane = planes[piece.tri];
        if (!piece.whole || coplanar_overlap[members[m]] || plane.a != 0 || plane.b != 0) continue;
        const auto [it, inserted] = patch_at_height.emplace(plane.c, uint32_t(triangles.size()));
        if (inserted) triangles.emplace_back();
        out.patch_of[m] = it->second;
        triangles[it->second].push_back(piece.ring());
    }
    for (const std::vector<GroundTriangle>& patch : triangles)
        out.surfaces.push_back(flatPatchSurface(patch));
    return out;
}

// Adds the surface triangles of the layer's pieces to the layer (vertices rounded to float and
// shared where equal; a coalesced flat patch where its first piece would be) and returns the
// pieces' regions.
LayerRegion layerSurface(uint32_t layer, const std::vector<Piece>& pieces, const Layering& layering,
                         const std::vector<Plane>& planes, FootprintLayer& out_layer) {
    LayerRegion region;
    std::map<VertexKey, uint32_t> vertex_ids;
    auto vertexId = [&](double x, double y, double z) {
        const VertexKey key{double(float(x)), double(float(y)), double(float(z))};
        auto [it, inserted] = vertex_ids.emplace(key, uint32_t(out_layer.surface_vertices.size()));
        if (inserted) out_layer.surface_vertices.push_back({key.x, key.y, key.z});
        return it->second;
    };
    std::vector<uint32_t> members;
    for (uint32_t i = 0; i < pieces.size(); ++i)
        if (layering.layer_of[i] == layer) members.push_back(i);
    const FlatPatches patches = flatPatches(members, pieces, planes, layering.coplanar_overlap);
    std::vector<bool> patch_added(patches.surfaces.size(), false);
    for (size_t m = 0; m < members.size(); ++m) {
        const Piece& piece = pieces[members[m]];
        if (piece.whole)
            region.whole_pieces.push_back(piece.ring());
        else
            region.cut_pieces.insert(region.cut_pieces.end(), piece.cut->polys.begin(),
                                     piece.cut->polys.end());
        const Plane& plane = planes[piece.tri];
        const uint32_t patch = patches.patch_of[m];
        const bool coalesced = patch != UINT32_MAX && !patches.surfaces[patch].empty();
        if (coalesced && patch_added[patch]) continue;
        if (coalesced) patch_added[patch] = true;
        for (const Triangle2& s : coalesced ? patches.surfaces[patch] : piece.surface()) {
            uint32_t id[3];
            for (int k = 0; k < 3; ++k) {
                const Vec2 p = coalesced ? s.p[k] : atCorner(s.p[k], piece.corners);
                id[k] = vertexId(p.x, p.y, plane.at(p.x, p.y));
            }
            if (id[0] == id[1] || id[1] == id[2] || id[2] == id[0]) continue; // collapsed onto a corner
            out_layer.surface_triangles.push_back({id[0], id[1], id[2]});
        }
    }
    return region;
}

// Wall time of one layer's task, for the debug log.
struct LayerSeconds {
    double total = 0, join = 0;
};

Error buildLayer(uint32_t layer, const std::vector<Piece>& pieces, const Layering& layering,
                 const std::vector<Plane>& planes, const std::vector<std::pair<Vec2, Vec2>>& cliffs,
                 const ImportOptions& options, double q, const std::string& name, FootprintLayer& out_layer,
                 LayerSeconds& seconds) {
    const auto layer_start = std::chrono::steady_clock::now();
    const LayerRegion pieces_region = layerSurface(layer, pieces, layering, planes, out_layer);
    const std::vector<PolygonWH> region =
        integerUnionMinus(pieces_region.cut_pieces, pieces_region.whole_pieces, cliffStrips(cliffs));
    seconds.join = std::chrono::duration<double>(std::chrono::steady_clock::now() - layer_start).count();
    LayerBoundary boundary;
    if (Error e =
            buildBoundary(region, options.epsilon, q, name + " layer " + std::to_string(layer), &boundary))
        return e;
    out_layer.polygons = std::move(boundary.polygons);
    geometry::canonicalize(out_layer.polygons);
    out_layer.area = boundary.area;
    out_layer.height_min = INFINITY;
    out_layer.height_max = -INFINITY;
    for (const Vec3& v : out_layer.surface_vertices) {
        out_layer.height_min = std::min(out_layer.height_min, v.z);
        out_layer.height_max = std::max(out_layer.height_max, v.z);
    }
    seconds.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - layer_start).count();
    return {};
}

} // namespace

Error layerBoundaries(const std::vector<Piece>& pieces, const std::vector<Link>& links,
                      const Layering& layering, const std::vector<Plane>& planes,
                      const ImportOptions& options, double q, const std::string& name, LogContext& log,
                      std::vector<FootprintLayer>* out) {
    const uint32_t layer_count = layering.layer_count;
    const std::vector<uint32_t>& layer_of = layering.layer_of;
    std::vector<std::vector<std::pair<Vec2, Vec2>>> cliffs(layer_count);
    for (const Link& link : links)
        if (!link.walkable && layer_of[link.a] == layer_of[link.b])
            cliffs[layer_of[link.a]].push_back({link.p0, link.p1});
    // One task per layer: a piece belongs to one layer, so no two tasks share its CGAL objects.
    std::vector<FootprintLayer> layer_slots(layer_count);
    std::vector<Error> layer_errors(layer_count);
    std::vector<LayerSeconds> layer_seconds(layer_count);
    parallel::forEach(layer_count, options.threads, [&](size_t layer) {
        layer_errors[layer] = buildLayer(uint32_t(layer), pieces, layering, planes, cliffs[layer], options, q,
                                         name, layer_slots[layer], layer_seconds[layer]);
    });
    for (uint32_t layer = 0; layer < layer_count; ++layer)
        if (layer_errors[layer]) return layer_errors[layer];
    std::string per_layer;
    for (uint32_t layer = 0; layer < layer_count; ++layer) {
        char text[48];
        std::snprintf(text, sizeof text, "%s%.3f s (join %.3f s)", layer ? ", " : "",
                      layer_seconds[layer].total, layer_seconds[layer].join);
        per_layer += text;
    }
    log.log(LogLevel::Debug, name + ": boundary per layer: " + per_layer);
    *out = std::move(layer_slots);
    return {};
}

} // namespace clearway::bake::footprint_internal
