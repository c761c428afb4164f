// The segment Voronoi diagram of one layer's walls (CGAL's segment Delaunay graph), walked into
// compact records: the sites, the refined Voronoi vertices and one record per edge.
#include "medial_axis/medial_axis_steps.h"

#include <memory>
#include <string>

namespace clearway::bake::medial_axis_detail {

namespace {

// Number of a CGAL diagram element from its address, for elements added in iteration order
// (0, 1, 2, ...). The diagram's containers allocate elements in blocks, so the addresses form a
// few runs of consecutive slots: a bucket table over the address range names the runs that can
// hold an address (most buckets one or two), a search among those and a division find the number
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
        if (runs_.empty()) return;
        // At most 16 buckets a run: the table stays a few kilobytes.
        base_ = runs_.front().start;
        const uintptr_t span = runs_.back().start + runs_.back().count * kSize - base_;
        while ((span >> shift_) >= 16 * runs_.size())
            ++shift_;
        const size_t buckets = size_t(span >> shift_) + 1;
        // bucket_run_[b]: the last run starting at or below bucket b's start.
        bucket_run_.resize(buckets + 1);
        uint32_t r = 0;
        for (size_t b = 0; b <= buckets; ++b) {
            const uintptr_t at = base_ + (uintptr_t(b) << shift_);
            while (r + 1 < runs_.size() && runs_[r + 1].start <= at)
                ++r;
            bucket_run_[b] = r;
        }
    }
    uint32_t operator()(const void* element) const {
        // The last run starting at or below the address, among those from its bucket's first to
        // the next bucket's (upper_bound - 1), halving without branches.
        const auto address = reinterpret_cast<uintptr_t>(element);
        const size_t bucket = size_t((address - base_) >> shift_);
        const Run* run = runs_.data() + bucket_run_[bucket];
        for (size_t n = bucket_run_[bucket + 1] - bucket_run_[bucket] + 1; n > 1;) {
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
    uintptr_t base_ = 0;
    unsigned shift_ = 0;
    std::vector<uint32_t> bucket_run_;
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

// Lexicographic order of (p0, p1).
bool coordinatesLess(const SiteGeom& a, const SiteGeom& b) {
    if (a.p0.x != b.p0.x) return a.p0.x < b.p0.x;
    if (a.p0.y != b.p0.y) return a.p0.y < b.p0.y;
    if (a.p1.x != b.p1.x) return a.p1.x < b.p1.x;
    return a.p1.y < b.p1.y;
}

// Three distinct sites by the lexicographic order of (kind, p0, p1) (a face's sites are
// distinct: any sort gives this order), their kinds beside them.
void sortSites(const SiteGeom* s[3], SiteKind kinds[3]) {
    for (int k = 0; k < 3; ++k)
        kinds[k] = s[k]->kind();
    auto order = [&](int i, int j) { // sites i and j swapped when j comes first
        if (kinds[i] != kinds[j] ? kinds[j] < kinds[i] : coordinatesLess(*s[j], *s[i]))
            std::swap(s[i], s[j]), std::swap(kinds[i], kinds[j]);
    };
    order(0, 1);
    order(1, 2);
    order(0, 1);
}

bool samePoint(Vec2 a, Vec2 b) {
    return a.x == b.x && a.y == b.y;
}

// Distance to a site (of the given kind) and its gradient at p.
double siteDistanceGradient(const SiteGeom& s, SiteKind kind, Vec2 p, Vec2* gradient) {
    const Vec2 c = siteClosest(s, kind, p);
    const double d = dist(p, c);
    *gradient = d > 0 ? Vec2{(p.x - c.x) / d, (p.y - c.y) / d} : Vec2{0, 0};
    return d;
}

// CGAL's double construction of a Voronoi vertex can be off by 1e-4 m when two of its sites are
// nearly parallel or far away. A few Newton steps on d1 = d2 = d3 restore full precision; the
// refined point is kept only if it makes the three distances agree better.
Vec2 refineVoronoiVertex(Vec2 start, const SiteGeom* const sites[3], const SiteKind kinds[3]) {
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
            r.d[k] = siteDistanceGradient(*sites[k], kinds[k], p, &r.g[k]);
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

// std::round(x) (halves away from zero, the sign of a zero kept) without the library call: the
// fraction x - trunc(x) is exact below 2^52, where every larger double is an integer already.
double roundHalfAway(double x) {
    if (!(std::abs(x) < 0x1p52)) return std::round(x);
    const double whole = std::copysign(double(int64_t(x)), x);
    return std::abs(x - whole) >= 0.5 ? whole + std::copysign(1.0, x) : whole;
}

using SiteIndex = AddressIndex<sizeof(Sdg::Vertex)>;
using FaceIndex = AddressIndex<sizeof(Sdg::Face)>;

// face_vertex marks infinite faces with this (UINT32_MAX: a finite face whose vertex is unused).
constexpr uint32_t kInfiniteFace = UINT32_MAX - 1;

// Each face's sites and far faces are looked up kAhead faces early and prefetched (their reads
// miss): a ring of kAhead faces.
constexpr uint32_t kAhead = 8;
struct Ahead {
    uint32_t site[3], far[3]; // far: the neighbour's number, UINT32_MAX when not walked here
};

// Inserts the walls; *expected_segments counts those that must become segment sites. segs is
// freed once inserted.
Error insertLayerWalls(Sdg& sdg, std::vector<GridSegment>& segs, double q, uint32_t layer,
                       size_t* expected_segments) {
    GridSegment bad{};
    if (insertWalls(sdg, segs, q, &bad) != 0)
        return {ErrorCode::Internal,
                "layer " + std::to_string(layer) + ": wall (" + std::to_string(double(bad.first.x) * q) +
                    ", " + std::to_string(double(bad.first.y) * q) + ") - (" +
                    std::to_string(double(bad.second.x) * q) + ", " +
                    std::to_string(double(bad.second.y) * q) + ") was rejected by the Voronoi builder"};
    *expected_segments = 0;
    for (const auto& s : segs)
        *expected_segments += !(s.first == s.second);
    std::vector<std::pair<GridKey, GridKey>>().swap(segs); // inserted: not needed any more
    return {};
}

// No wall may be lost: every input segment must be a segment site of the diagram. Sites are
// numbered in iteration order, which site_index recovers from a handle.
Error numberSites(const Sdg& sdg, size_t expected_segments, uint32_t layer, size_t* wall_sites,
                  std::vector<SiteGeom>* sites, SiteIndex* site_index) {
    size_t segment_sites = 0;
    sites->reserve(sdg.number_of_vertices());
    for (auto v = sdg.finite_vertices_begin(); v != sdg.finite_vertices_end(); ++v) {
        segment_sites += v->site().is_segment();
        site_index->add(&*v);
        sites->push_back(siteOf(v->site()));
    }
    if (segment_sites != expected_segments)
        return {ErrorCode::Internal, "layer " + std::to_string(layer) + ": " +
                                         std::to_string(expected_segments) + " walls but " +
                                         std::to_string(segment_sites) + " segment sites"};
    if (wall_sites) *wall_sites = segment_sites;
    site_index->finish();
    return {};
}

// Voronoi vertices: one per finite face, numbered in order of first use. That order follows
// CGAL's face storage, which can vary within one process; the asset is deterministic through the
// canonical ordering buildRoadmap applies later. Infinite faces are marked here, so an edge's far
// face is not read to test it.
void numberFaces(const Sdg& sdg, FaceIndex* face_index, std::vector<uint32_t>* face_vertex) {
    face_vertex->reserve(sdg.number_of_faces() + sdg.number_of_vertices());
    for (auto f = sdg.all_faces_begin(); f != sdg.all_faces_end(); ++f) {
        face_index->add(&*f);
        face_vertex->push_back(sdg.is_infinite(f) ? kInfiniteFace : UINT32_MAX);
    }
    face_index->finish();
}

// Faces that form a Voronoi vertex to walk: none below two dimensions (collinear sites have no
// Voronoi vertex and no 2D face).
uint32_t walkedFaces(const Sdg& sdg, const std::vector<uint32_t>& face_vertex) {
    return sdg.dimension() == 2 ? uint32_t(face_vertex.size()) : 0;
}

// Edges in finite_edges order (faces in storage order, each edge from its lower face): records
// and vertex numbers as that walk gives them. A vertex is numbered at first use; its position is
// computed afterwards (placeVertices), so the walk never reads the (random) far face of an edge.
// Each finite face's three site numbers go to face_sites (3 a face), for placeVertices. Returns
// the number of vertices.
uint32_t walkEdges(const Sdg& sdg, const SiteIndex& site_index, const FaceIndex& face_index,
                   const std::vector<SiteGeom>& sites, std::vector<uint32_t>& face_vertex,
                   std::vector<uint32_t>& face_sites, std::vector<EdgeRecord>* records) {
    uint32_t vertex_count = 0;
    const uint32_t face_count = walkedFaces(sdg, face_vertex);
    Ahead ring[kAhead];
    auto ahead = sdg.all_faces_begin();
    auto lookAhead = [&](uint32_t k) {
        Ahead& slot = ring[k % kAhead];
        if (face_vertex[k] != kInfiniteFace) {
            for (int j = 0; j < 3; ++j) {
                const Sdg::Face_handle f2 = ahead->neighbor(j);
                slot.far[j] = Sdg::Face_handle(ahead) < f2 ? face_index(&*f2) : UINT32_MAX;
                if (slot.far[j] != UINT32_MAX) __builtin_prefetch(&face_vertex[slot.far[j]]);
                slot.site[j] = site_index(&*ahead->vertex(j));
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
        std::copy(slot.site, slot.site + 3, face_sites.begin() + 3 * ptrdiff_t(face1));
        for (int i = 0; i < 3; ++i) {
            const uint32_t face2 = slot.far[i];
            if (face2 == UINT32_MAX) continue; // the edge is walked from its other face
            if (face_vertex[face2] == kInfiniteFace) continue;
            uint32_t ia = slot.site[Sdg::ccw(i)], ib = slot.site[Sdg::cw(i)];
            const SiteGeom &sa = sites[ia], &sb = sites[ib];
            const SiteKind kind_a = sa.kind(), kind_b = sb.kind();
            if (kind_a == kind_b) {
                // Which of two equidistant sites an edge records must not follow CGAL's
                // (address-dependent) iteration order.
                if (coordinatesLess(sb, sa)) std::swap(ia, ib);
            } else {
                // A segment and its own endpoint: their bisector is the perpendicular at the
                // endpoint, which separates two cells of the same wall, not two walls.
                const SiteGeom &segment = kind_a == SiteKind::Segment ? sa : sb,
                               &point = kind_a == SiteKind::Segment ? sb : sa;
                if (samePoint(point.p0, segment.p0) || samePoint(point.p0, segment.p1)) continue;
            }
            // Refined Voronoi vertices, created on first use (unused ones are dropped below).
            uint32_t& n1 = face_vertex[face1];
            if (n1 == UINT32_MAX) n1 = vertex_count++;
            uint32_t& n2 = face_vertex[face2];
            if (n2 == UINT32_MAX) n2 = vertex_count++;
            records->push_back({n1, n2, ia, ib});
        }
    }
    return vertex_count;
}

// Each used Voronoi vertex's position, in a second pass over the faces in storage order (their
// sites as walkEdges read them: the diagram's faces are not read again): CGAL's construction,
// refined and put on a 1 nm grid; and whether it lies on a wall.
void placeVertices(const Sdg& sdg, const std::vector<SiteGeom>& sites, const std::vector<uint32_t>& face_vertex,
                   const std::vector<uint32_t>& face_sites, std::vector<Vec2>* positions,
                   std::vector<bool>* on_wall) {
    const uint32_t face_count = walkedFaces(sdg, face_vertex);
    const auto construct_vertex = sdg.geom_traits().construct_svd_vertex_2_object();
    for (uint32_t face = 0; face < face_count; ++face) {
        const uint32_t number = face_vertex[face];
        // The sites kAhead faces on are scattered: fetched now.
        if (face + kAhead < face_count && face_vertex[face + kAhead] < kInfiniteFace)
            for (int j = 0; j < 3; ++j)
                __builtin_prefetch(&sites[face_sites[3 * size_t(face + kAhead) + j]]);
        if (number >= kInfiniteFace) continue; // infinite or unused
        const uint32_t* site = &face_sites[3 * size_t(face)];
        const SiteGeom* fs[3] = {&sites[site[0]], &sites[site[1]], &sites[site[2]]};
        // sdg.primal(f) from the same site values (the diagram's own sites are spread over its
        // vertices and point set: several cache misses a face).
        const SdgPoint c = construct_vertex(cgalSite(*fs[0]), cgalSite(*fs[1]), cgalSite(*fs[2]));
        SiteKind kinds[3];
        sortSites(fs, kinds);
        // Equidistant from three sites through one point: the vertex is that point.
        auto holds = [](const SiteGeom& s, Vec2 p) { return samePoint(s.p0, p) || samePoint(s.p1, p); };
        (*on_wall)[number] = (holds(*fs[1], fs[0]->p0) && holds(*fs[2], fs[0]->p0)) ||
                             (holds(*fs[1], fs[0]->p1) && holds(*fs[2], fs[0]->p1));
        const Vec2 refined = refineVoronoiVertex({c.x(), c.y()}, fs, kinds);
        // CGAL's starting point depends on the face's vertex order (address-dependent); the
        // refined point agrees to the last bits only. A 2^-30 m grid (1 nm) makes it exact.
        const double nm = std::ldexp(1.0, 30);
        (*positions)[number] = {roundHalfAway(refined.x * nm) / nm, roundHalfAway(refined.y * nm) / nm};
    }
}

} // namespace

Error walkDiagram(std::vector<GridSegment> segs, double q, uint32_t layer, size_t* wall_sites,
                  DiagramRecords* out) {
    auto sdg = std::make_unique<Sdg>();
    size_t expected_segments = 0;
    if (Error error = insertLayerWalls(*sdg, segs, q, layer, &expected_segments)) return error;
    SiteIndex site_index;
    if (Error error = numberSites(*sdg, expected_segments, layer, wall_sites, &out->sites, &site_index))
        return error;
    // At most one record per edge of the triangulation (3 per vertex, the infinite one too): the
    // pages it does not fill are never touched.
    out->records.reserve(3 * (sdg->number_of_vertices() + 1));
    FaceIndex face_index;
    std::vector<uint32_t> face_vertex;
    numberFaces(*sdg, &face_index, &face_vertex);
    std::vector<uint32_t> face_sites(3 * size_t(walkedFaces(*sdg, face_vertex)));
    const uint32_t vertex_count =
        walkEdges(*sdg, site_index, face_index, out->sites, face_vertex, face_sites, &out->records);
    out->positions.resize(vertex_count);
    out->on_wall.resize(vertex_count);
    placeVertices(*sdg, out->sites, face_vertex, face_sites, &out->positions, &out->on_wall);
    return {};
} // the diagram and its address tables are freed here

} // namespace clearway::bake::medial_axis_detail
