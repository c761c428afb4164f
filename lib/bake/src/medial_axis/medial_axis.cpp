// Exact medial-axis roadmap of a footprint: CGAL's segment Voronoi diagram of the walls, kept
// inside free space, with exact clearance along every edge.
//
// Every medial-axis edge is the bisector of two wall features (sites). Its clearance at any point
// is the distance to one of them: the point site, the parabola's focus, or the wall segment.
// Parabolic arcs are stored as chords within epsilon; a chord stays inside its focus's Voronoi
// cell (a point site's cell is star-shaped from it), so the distance to the focus is still the
// exact clearance there, and the chord's minimum is the exact distance from focus to chord.
// This file runs the steps in order and expands the kept records into RoadmapEdges; snap_walls.cpp,
// diagram.cpp and free_space.cpp hold the steps before.

#include "medial_axis/medial_axis_steps.h"
#include "roadmap/roadmap_internal.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <tuple>

namespace clearway::bake {

using namespace medial_axis_detail;

namespace {

// Medial-axis edges shorter than this are degenerate (cocircular sites) and collapse.
constexpr double kCollapseLength = 1e-6;

// dist(a, b) < length, with hypot only where the squared length is within rounding of length's.
bool shorterThan(Vec2 a, Vec2 b, double length) {
    const double dx = a.x - b.x, dy = a.y - b.y, squared = dx * dx + dy * dy, limit = length * length;
    if (squared < limit * (1 - 1e-12)) return true;
    if (squared > limit * (1 + 1e-12)) return false;
    return dist(a, b) < length;
}

// The least of std::hypot(offset(k)) over k in [0, n). hypot runs only where the squared length is
// within rounding of the least: any other is larger after hypot's rounding too.
template <class Offset> double leastLength(size_t n, Offset&& offset) {
    double least = INFINITY;
    for (size_t k = 0; k < n; ++k) {
        const Vec2 d = offset(k);
        least = std::min(least, d.x * d.x + d.y * d.y);
    }
    const double limit = least * (1 + 1e-12) + 1e-300;
    double best = INFINITY;
    for (size_t k = 0; k < n; ++k) {
        const Vec2 d = offset(k);
        if (!(d.x * d.x + d.y * d.y > limit)) best = std::min(best, std::hypot(d.x, d.y));
    }
    return best;
}

// The exact minimum of the edge's clearance over its chords: from a point site, its distance
// to each chord; from a segment site, its distance to each point (a chord's minimum is at an
// end). at_a and at_b are the site's distances from the two ends.
double chordClearance(const SiteGeom& site, const std::vector<Vec2>& points, double at_a, double at_b) {
    if (site.kind() == SiteKind::Segment) {
        if (points.size() == 2) return std::min(at_a, at_b);
        return leastLength(points.size(), [&](size_t k) {
            const Vec2 c = closestOnSegment(points[k], site.p0, site.p1);
            return Vec2{points[k].x - c.x, points[k].y - c.y};
        });
    }
    return leastLength(points.size() - 1, [&](size_t k) {
        const Vec2 c = closestOnSegment(site.p0, points[k], points[k + 1]);
        return Vec2{site.p0.x - c.x, site.p0.y - c.y};
    });
}

// One vertex per refined Voronoi vertex, numbered from base; its clearance is set by its edges.
void appendVertices(const std::vector<Vec2>& positions, uint32_t layer,
                    std::vector<RoadmapVertex>* vertices) {
    vertices->reserve(vertices->size() + positions.size());
    for (const Vec2& p : positions) {
        RoadmapVertex v;
        v.position = {p.x, p.y, 0};
        v.layer = layer;
        v.clearance = INFINITY;
        vertices->push_back(v);
    }
}

// The RoadmapEdge of one record (vertices numbered from base), unless its ends are not finite or
// its clearance is below options.min_clearance; lowers its vertices' clearance.
bool buildEdge(const EdgeRecord& record, const std::vector<SiteGeom>& sites, uint32_t base,
               const RoadmapOptions& options, std::vector<RoadmapVertex>* vertices, RoadmapEdge& edge) {
    const SiteGeom sa = sites[record.sa], sb = sites[record.sb];
    const uint32_t v1 = base + record.v1, v2 = base + record.v2;
    const Vec2 c1{(*vertices)[v1].position.x, (*vertices)[v1].position.y};
    const Vec2 c2{(*vertices)[v2].position.x, (*vertices)[v2].position.y};
    if (!std::isfinite(c1.x) || !std::isfinite(c2.x)) return false;
    const SiteKind kind_a = sa.kind(), kind_b = sb.kind();
    const SiteGeom* point_site = kind_a == SiteKind::Point   ? &sa
                                 : kind_b == SiteKind::Point ? &sb
                                                             : nullptr;
    const SiteGeom* segment_site = kind_a == SiteKind::Segment   ? &sa
                                   : kind_b == SiteKind::Segment ? &sb
                                                                 : nullptr;
    if (point_site && segment_site) {
        // Sample from the lexicographically smaller end so both traversal orders give the
        // same points.
        const bool flip = std::tie(c2.x, c2.y) < std::tie(c1.x, c1.y);
        edge.points =
            parabolaPoints(point_site->p0, *segment_site, flip ? c2 : c1, flip ? c1 : c2, options.epsilon);
        if (flip) std::reverse(edge.points.begin(), edge.points.end());
        edge.site = ClearanceSite::Point;
        edge.site_p0 = edge.site_p1 = point_site->p0;
    } else {
        edge.points = {c1, c2};
        edge.site = kind_a == SiteKind::Point ? ClearanceSite::Point : ClearanceSite::Segment;
        edge.site_p0 = sa.p0;
        edge.site_p1 = sa.p1;
    }
    const SiteGeom clearance_site{edge.site_p0, edge.site_p1}; // a point site when they agree
    // The ends are the vertices (their clearance, below) and the first and last chord points.
    const double at_a = siteDistance(clearance_site, c1), at_b = siteDistance(clearance_site, c2);
    double min_clearance = chordClearance(clearance_site, edge.points, at_a, at_b);
    if (edge.points.size() == 2 && shorterThan(c1, c2, kCollapseLength)) min_clearance = at_a;
    // Vertices sit on a 1 nm grid, so the chord may pass up to a nanometre closer to the edge's
    // other site: keep the stored minimum conservative by two grid steps.
    edge.min_clearance = std::max(0.0, min_clearance - 4e-9);
    if (min_clearance < options.min_clearance) return false;
    edge.a = v1;
    edge.b = v2;
    // Nearest wall points on either side of every point (Explicit Corridor Map event data),
    // relative to the direction towards the next point.
    auto sides = [&](Vec2 at, Vec2 towards) {
        const Vec2 qa = siteClosest(sa, kind_a, at), qb = siteClosest(sb, kind_b, at);
        const bool a_left =
            cross(at, towards, qa) > 0 || (cross(at, towards, qa) == 0 && cross(at, towards, qb) < 0);
        return a_left ? WallSides{qa, qb} : WallSides{qb, qa};
    };
    const size_t n = edge.points.size();
    edge.sides.resize(n);
    edge.sides[0] = sides(c1, edge.points[1]);
    for (size_t k = 1; k + 1 < n; ++k)
        edge.sides[k] = sides(edge.points[k], edge.points[k + 1]);
    // Looking back from b: swapped to keep "left" relative to a -> b.
    const WallSides back = sides(c2, edge.points[n - 2]);
    edge.sides[n - 1] = back.reversed();
    edge.corridor = EdgeCorridor::PointSides;
    edge.left_a = edge.sides[0].left, edge.right_a = edge.sides[0].right;
    edge.left_b = edge.sides[n - 1].left, edge.right_b = edge.sides[n - 1].right;
    (*vertices)[v1].clearance = std::min((*vertices)[v1].clearance, at_a);
    (*vertices)[v2].clearance = std::min((*vertices)[v2].clearance, at_b);
    return true;
}

// One edge per record, unless its clearance is below options.min_clearance. Edges shorter than
// a micrometre join their two vertices' classes (collapseAndCompact), tested while their points
// are at hand.
void appendEdges(const DiagramRecords& axis, uint32_t base, const RoadmapOptions& options,
                 std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges, UnionFind* classes) {
    const std::vector<EdgeRecord>& records = axis.records;
    const std::vector<SiteGeom>& sites = axis.sites;
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
        if (!buildEdge(records[k], sites, base, options, vertices, edge)) continue;
        if (edge.points.size() == 2 && shorterThan(edge.points[0], edge.points[1], kCollapseLength))
            classes->join(edge.a, edge.b);
        edges->push_back(std::move(edge));
    }
}

// Edges shorter than a micrometre join their two vertices into one (classes: joined by
// appendEdges). Cocircular sites (common on grid-aligned walls) have no unique Delaunay
// triangulation, and CGAL's choice follows memory order; the Voronoi diagram is unique once these
// degenerate edges collapse. Then vertices no kept edge uses (faces outside free space) are
// dropped; earlier layers' stay. Two passes over the edges: the used vertices, then the edges
// renumbered and the collapsed ones removed.
void collapseAndCompact(uint32_t base, UnionFind& classes, std::vector<RoadmapVertex>* vertices,
                        std::vector<RoadmapEdge>* edges) {
    // Each class's root is its smallest vertex, met first: the kept vertices are written in place
    // below the vertex being read.
    std::vector<uint32_t> remap(vertices->size(), UINT32_MAX);
    std::vector<RoadmapVertex>& kept = *vertices;
    uint32_t vertex_count = base;
    for (uint32_t v = base; v < vertices->size(); ++v) {
        const uint32_t root = classes.find(v);
        if (remap[root] == UINT32_MAX) {
            remap[root] = vertex_count;
            kept[vertex_count++] = (*vertices)[root];
        }
        kept[remap[root]].clearance = std::min(kept[remap[root]].clearance, (*vertices)[v].clearance);
        remap[v] = remap[root];
    }
    vertices->resize(vertex_count);
    // Used: an earlier layer's vertex, or an end of an edge that does not collapse.
    std::vector<bool> used(vertex_count, false);
    for (uint32_t v = 0; v < base; ++v)
        used[v] = true;
    for (const RoadmapEdge& e : *edges)
        if (e.a >= base && remap[e.a] != remap[e.b]) used[remap[e.a]] = used[remap[e.b]] = true;
    // The used vertices renumbered in order, in place; their numbers go to the classes' parent
    // list, which is not needed any more (earlier layers' vertices keep theirs).
    std::vector<uint32_t>& compact = classes.parent;
    uint32_t used_count = 0;
    for (uint32_t v = 0; v < vertex_count; ++v)
        if (used[v]) {
            compact[v] = used_count;
            (*vertices)[used_count++] = (*vertices)[v];
        }
    vertices->resize(used_count);
    // Collapsed edges are removed in place (no second edge list at the peak).
    size_t kept_count = 0;
    for (size_t k = 0; k < edges->size(); ++k) {
        RoadmapEdge& e = (*edges)[k];
        if (e.a >= base) { // else an earlier layer's edge
            const uint32_t a = remap[e.a], b = remap[e.b];
            if (a == b) continue;
            e.a = compact[a];
            e.b = compact[b];
        }
        if (kept_count != k) (*edges)[kept_count] = std::move(e);
        ++kept_count;
    }
    edges->erase(edges->begin() + ptrdiff_t(kept_count), edges->end());
}

// medialAxis() of walls already on the grid (prepareWalls).
Error medialAxisOfGridWalls(std::vector<GridSegment> segs, bool walls_unchanged,
                            const std::vector<PolygonWithHoles>& free_space, double grid_spacing,
                            const RoadmapOptions& options, uint32_t layer,
                            std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges,
                            size_t* wall_sites) {
    if (segs.empty()) return {};
    // The diagram is the largest structure of the bake: while it is alive only compact records
    // are kept (sites, refined vertex positions, one 16-byte record per edge); it is freed before
    // the edges outside free space are dropped and the rest expanded, in the same order, into
    // RoadmapEdges.
    DiagramRecords axis;
    if (Error error = walkDiagram(std::move(segs), grid_spacing, layer, wall_sites, &axis)) return error;
#ifdef __GLIBC__
    // Its many small blocks leave free pages inside the heap that glibc keeps resident, while the
    // large lists built next are mapped afresh: hand those pages back so they do not add up.
    malloc_trim(0);
#endif
    keepInsideFreeSpace(free_space, walls_unchanged, options.epsilon, &axis);
    const uint32_t base = uint32_t(vertices->size());
    appendVertices(axis.positions, layer, vertices);
    std::vector<Vec2>().swap(axis.positions);
    UnionFind classes(vertices->size());
    appendEdges(axis, base, options, vertices, edges, &classes);
    std::vector<EdgeRecord>().swap(axis.records);
    std::vector<SiteGeom>().swap(axis.sites);
    collapseAndCompact(base, classes, vertices, edges);
    return {};
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
