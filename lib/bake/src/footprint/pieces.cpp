// Footprint stage 3: free pieces, each walkable triangle's projection minus its blockers, with
// their triangulations; components enclosed by a closed solid (floor inside a thick wall) dropped.
#include "footprint/footprint_internal.h"
#include "footprint/integer_booleans.h"

#include "core/parallel.h"

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>

#include <queue>

namespace clearway::bake::footprint_internal {

namespace {

struct FaceInfo {
    int nesting = -1;
    bool inside() const { return nesting % 2 == 1; }
};
using Vb = CGAL::Triangulation_vertex_base_2<K>;
using Fbi = CGAL::Triangulation_face_base_with_info_2<FaceInfo, K>;
using Fb = CGAL::Constrained_triangulation_face_base_2<K, Fbi>;
using TriTds = CGAL::Triangulation_data_structure_2<Vb, Fb>;
using Cdt = CGAL::Constrained_Delaunay_triangulation_2<K, TriTds, CGAL::Exact_predicates_tag>;

void markNesting(Cdt& cdt) {
    // Flood fill from the infinite face: crossing a constraint increases the nesting level.
    for (auto f = cdt.all_faces_begin(); f != cdt.all_faces_end(); ++f)
        f->info().nesting = -1;
    std::queue<std::pair<Cdt::Face_handle, int>> border;
    border.push({cdt.infinite_face(), 0});
    while (!border.empty()) {
        auto [start, level] = border.front();
        border.pop();
        if (start->info().nesting != -1) continue;
        std::queue<Cdt::Face_handle> queue;
        queue.push(start);
        start->info().nesting = level;
        while (!queue.empty()) {
            Cdt::Face_handle f = queue.front();
            queue.pop();
            for (int i = 0; i < 3; ++i) {
                Cdt::Face_handle n = f->neighbor(i);
                if (n->info().nesting != -1) continue;
                if (cdt.is_constrained(Cdt::Edge(f, i))) {
                    border.push({n, level + 1});
                } else {
                    n->info().nesting = level;
                    queue.push(n);
                }
            }
        }
    }
}

// The faces inside the constraints (odd nesting), in doubles and (when asked) exactly.
std::vector<Triangle2> insideFaces(Cdt& cdt, std::vector<ExactTriangle>* exact) {
    markNesting(cdt);
    std::vector<Triangle2> out;
    for (auto f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) {
        if (!f->info().inside()) continue;
        Triangle2 t;
        for (int i = 0; i < 3; ++i)
            t.p[i] = {CGAL::to_double(f->vertex(i)->point().x()), CGAL::to_double(f->vertex(i)->point().y())};
        out.push_back(t);
        if (exact) exact->push_back({f->vertex(0)->point(), f->vertex(1)->point(), f->vertex(2)->point()});
    }
    return out;
}

} // namespace

std::vector<Triangle2> triangulate(const PolygonWH& pwh, std::vector<ExactTriangle>* exact) {
    Cdt cdt;
    cdt.insert_constraint(pwh.outer_boundary().vertices_begin(), pwh.outer_boundary().vertices_end(), true);
    for (auto h = pwh.holes_begin(); h != pwh.holes_end(); ++h)
        cdt.insert_constraint(h->vertices_begin(), h->vertices_end(), true);
    return insideFaces(cdt, exact);
}

std::vector<Triangle2> triangulateRings(const std::vector<std::vector<Vec2>>& rings) {
    Cdt cdt;
    std::vector<Point> points;
    for (const std::vector<Vec2>& ring : rings) {
        points.clear();
        for (const Vec2& p : ring)
            points.emplace_back(p.x, p.y);
        cdt.insert_constraint(points.begin(), points.end(), true);
    }
    return insideFaces(cdt, nullptr);
}

namespace {

// Moller-Trumbore style ray/triangle hit distance, or -1.
double rayHit(const Vec3& origin, const Vec3& dir, const Tri& tri) {
    const Vec3 e1{tri.p[1].x - tri.p[0].x, tri.p[1].y - tri.p[0].y, tri.p[1].z - tri.p[0].z};
    const Vec3 e2{tri.p[2].x - tri.p[0].x, tri.p[2].y - tri.p[0].y, tri.p[2].z - tri.p[0].z};
    const Vec3 p{dir.y * e2.z - dir.z * e2.y, dir.z * e2.x - dir.x * e2.z, dir.x * e2.y - dir.y * e2.x};
    const double det = e1.x * p.x + e1.y * p.y + e1.z * p.z;
    if (std::abs(det) < 1e-14) return -1;
    const double inv = 1.0 / det;
    const Vec3 s{origin.x - tri.p[0].x, origin.y - tri.p[0].y, origin.z - tri.p[0].z};
    const double u = (s.x * p.x + s.y * p.y + s.z * p.z) * inv;
    if (u < 0 || u > 1) return -1;
    const Vec3 q{s.y * e1.z - s.z * e1.y, s.z * e1.x - s.x * e1.z, s.x * e1.y - s.y * e1.x};
    const double v = (dir.x * q.x + dir.y * q.y + dir.z * q.z) * inv;
    if (v < 0 || u + v > 1) return -1;
    const double dist = (e2.x * q.x + e2.y * q.y + e2.z * q.z) * inv;
    return dist > 0 ? dist : -1;
}

// A point of a free piece is inside a closed solid (the floor under a thick wall or a pillar;
// closed shells were wound outward in classify, shells.cpp)
// when the first face straight above it and the first face in each of the four horizontal axis
// directions (within kSolidProbeReach) are all seen from behind. Requiring both keeps the floor
// under a one-sided upper storey (seen from behind above, but walls seen from the front around).
bool firstHitFromBehind(const Vec3& p, const Vec3& d, double reach, const std::vector<Tri>& tris,
                        const Grid& grid, std::vector<uint32_t>& scratch) {
    double best = reach;
    uint32_t best_id = UINT32_MAX;
    bool from_behind = false;
    // The ray is axis-aligned: it meets a triangle only inside the triangle's bounding box across
    // it (grown far beyond Moller-Trumbore's rounding), which most candidates of the cells miss.
    constexpr double kMargin = 1e-6;
    const double at[3] = {p.x, p.y, p.z};
    const bool along[3] = {d.x != 0.0, d.y != 0.0, d.z != 0.0};
    // The nearest hit, ties to the lowest index (what a scan in index order keeps); a triangle met
    // again in a later cell changes nothing.
    const auto offer = [&](uint32_t id) {
        const Tri& tri = tris[id];
        for (int k = 0; k < 3; ++k)
            if (!along[k] && (at[k] < tri.min[k] - kMargin || at[k] > tri.max[k] + kMargin)) return;
        const double hit = rayHit(p, d, tri);
        if (hit > 0 && (hit < best || (hit == best && best_id != UINT32_MAX && id < best_id))) {
            best = hit, best_id = id;
            from_behind = tri.normal.x * d.x + tri.normal.y * d.y + tri.normal.z * d.z > 0;
        }
    };
    if (d.x == 0.0 && d.y == 0.0) { // straight up: the one cell under the point
        grid.query(p.x, p.y, p.x, p.y, scratch);
        for (uint32_t id : scratch)
            offer(id);
        return from_behind;
    }
    // Sideways: the cells along the ray, nearest first, until the next one's near side is past
    // the best hit (a hit lies in its triangle's box, so in a cell whose near side is before it;
    // the margin covers the rounding of cell sides).
    grid.walkAxis(p.x, p.y, int(d.x), int(d.y), reach, [&](const std::vector<uint32_t>& ids, double near) {
        if (near - kMargin > best) return false;
        for (uint32_t id : ids)
            offer(id);
        return true;
    });
    return from_behind;
}

bool insideSolid(const Vec3& p, const std::vector<Tri>& tris, const Grid& grid,
                 std::vector<uint32_t>& scratch) {
    if (!firstHitFromBehind(p, {0, 0, 1}, INFINITY, tris, grid, scratch)) return false;
    const Vec3 dirs[4] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    for (const Vec3& d : dirs)
        if (!firstHitFromBehind(p, d, kSolidProbeReach, tris, grid, scratch)) return false;
    return true;
}

// Evaluates every vertex of a cut piece exactly, inside the task that built it. A lazy value
// refines its cached approximation when first evaluated exactly (and drops the expression that
// made it), so later readers on other threads see only settled values: what they compute cannot
// depend on which thread evaluated a shared vertex first. (A whole piece holds only doubles.)
// A vertex whose approximation is already one double per coordinate (every corner the integer
// difference makes) is settled: an exact evaluation could not narrow it, so it is skipped.
void freeze(const CutRegion& region) {
    auto freezeRing = [](const Polygon& ring) {
        for (auto v = ring.vertices_begin(); v != ring.vertices_end(); ++v) {
            const auto approx = CGAL::approx(*v);
            if (approx.x().inf() != approx.x().sup() || approx.y().inf() != approx.y().sup())
                CGAL::exact(*v);
        }
    };
    for (const PolygonWH& p : region.polys) {
        freezeRing(p.outer_boundary());
        for (auto h = p.holes_begin(); h != p.holes_end(); ++h)
            freezeRing(*h);
    }
}

// A piece nothing blocks: the whole triangle (most of a level), without booleans, its own
// surface. A whole triangle is never inside a closed solid.
void setWholeTriangle(bool clockwise, Piece* piece) {
    piece->whole = true;
    piece->corners_clockwise = clockwise;
}

// Adds the components of proj(T) minus its blockers (all blockers in one integer sweep; the new
// corners land on the integer grid) to the piece with their triangulations, except those inside
// a closed solid. Returns how many were dropped.
uint32_t addComponents(const Polygon& base, const std::vector<Polygon>& blockers, const ClassifiedMesh& mesh,
                       const Grid& tri_grid, const ImportOptions& options, Piece* piece) {
    std::vector<uint32_t> probe_scratch;
    uint32_t dropped = 0;
    auto region = std::make_unique<CutRegion>();
    for (PolygonWH& component : integerDifference(base, blockers)) {
        std::vector<ExactTriangle> exact_surface;
        const std::vector<Triangle2> surface = triangulate(component, &exact_surface);
        if (surface.empty()) continue;
        // Probe from the centre of the component's largest triangle.
        const Vec2 c = largestTriangleCentre(surface);
        const Vec3 probe{
            c.x, c.y, mesh.planes[piece->tri].at(c.x, c.y) + (options.max_step + options.agent_height) / 2};
        if (insideSolid(probe, mesh.tris, tri_grid, probe_scratch)) {
            ++dropped;
            continue;
        }
        for (const Triangle2& s : surface) {
            region->area += triangleArea(s);
            for (const Vec2& p : s.p)
                region->bounds.add(p);
        }
        region->surface.insert(region->surface.end(), surface.begin(), surface.end());
        region->exact_surface.insert(region->exact_surface.end(), exact_surface.begin(), exact_surface.end());
        region->polys.push_back(std::move(component));
    }
    freeze(*region);
    piece->cut = std::move(region);
    return dropped;
}

} // namespace

Error freePieces(const ClassifiedMesh& mesh, const Grid& tri_grid, const ImportOptions& options,
                 const std::string& name, LogContext& log, std::vector<Piece>* out) {
    // One task per walkable triangle. A task builds its CGAL objects from the doubles in
    // `mesh.tris` and leaves its piece frozen, so nothing lazy is shared between tasks; pieces are
    // kept in triangle order.
    const std::vector<Tri>& tris = mesh.tris;
    std::vector<uint32_t> walkable_ids;
    walkable_ids.reserve(mesh.walkable_count);
    for (uint32_t ti = 0; ti < tris.size(); ++ti)
        if (tris[ti].walkable) walkable_ids.push_back(ti);
    std::vector<Piece> slots(walkable_ids.size());
    std::vector<uint32_t> dropped(walkable_ids.size(), 0);
    parallel::forEach(walkable_ids.size(), options.threads, [&](size_t k) {
        const uint32_t ti = walkable_ids[k];
        const std::vector<Polygon> blockers = blockersOf(ti, mesh, tri_grid, options);
        // Exact orientation of the projection (as makePolygon would settle it): collinear corners
        // make no piece.
        const Tri& t = tris[ti];
        using IPoint = CGAL::Exact_predicates_inexact_constructions_kernel::Point_2;
        const CGAL::Orientation turn = CGAL::orientation(
            IPoint(t.p[0].x, t.p[0].y), IPoint(t.p[1].x, t.p[1].y), IPoint(t.p[2].x, t.p[2].y));
        if (turn == CGAL::COLLINEAR) return;
        Piece& piece = slots[k];
        piece.tri = ti;
        for (int c = 0; c < 3; ++c)
            piece.corners[c] = {t.p[c].x, t.p[c].y};
        if (blockers.empty())
            setWholeTriangle(turn == CGAL::CLOCKWISE, &piece);
        else
            dropped[k] =
                addComponents(makePolygon(projectedCcw<Point>(t)), blockers, mesh, tri_grid, options, &piece);
        if (piece.empty()) return;
    });
    // Kept pieces close ranks in place: a second vector growing beside the slots would hold
    // every piece twice at its peak (and copy them, as a CGAL polygon's move may throw).
    size_t dropped_in_solid = 0, kept = 0;
    for (size_t k = 0; k < slots.size(); ++k) {
        dropped_in_solid += dropped[k];
        if (slots[k].empty()) continue;
        if (kept != k) slots[kept] = std::move(slots[k]);
        ++kept;
    }
    slots.resize(kept);
    std::vector<Piece>& pieces = *out;
    pieces = std::move(slots);
    if (pieces.empty())
        return {ErrorCode::NoWalkableSurface,
                name + ": no walkable surface (every walkable triangle lacks agent-height clearance)"};
    log.log(LogLevel::Debug, name + ": " + std::to_string(pieces.size()) + " free pieces, " +
                                 std::to_string(dropped_in_solid) + " components inside solids dropped");
    return {};
}

} // namespace clearway::bake::footprint_internal
