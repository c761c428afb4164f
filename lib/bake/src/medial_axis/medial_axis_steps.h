// The medial-axis steps' shared pieces: sites, parabolic bisectors, the compact records kept while
// the diagram is alive, and the steps in other files. Internal to lib/bake/src/medial_axis.
#pragma once

#include <clearway/bake.h>
#include <clearway/bake/geometry.h>

#include "core/union_find.h"
#include "medial_axis/segment_voronoi.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace clearway::bake::medial_axis_detail {

using namespace voronoi;
using namespace geometry;

enum class SiteKind { Point, Segment };
// A point site has p1 == p0; a segment site never does (walls have positive length). 32 bytes:
// one cache line holds a whole site.
struct SiteGeom {
    Vec2 p0, p1;
    SiteKind kind() const { return p0.x == p1.x && p0.y == p1.y ? SiteKind::Point : SiteKind::Segment; }
};

inline double siteDistance(const SiteGeom& s, Vec2 p) {
    return s.kind() == SiteKind::Point ? dist(p, s.p0) : pointSegmentDistance(p, s.p0, s.p1);
}

// kind: s.kind(), where the caller has it already (it is read often and costs a few compares).
inline Vec2 siteClosest(const SiteGeom& s, SiteKind kind, Vec2 p) {
    return kind == SiteKind::Point ? s.p0 : closestOnSegment(p, s.p0, s.p1);
}

inline Vec2 siteClosest(const SiteGeom& s, Vec2 p) {
    return siteClosest(s, s.kind(), p);
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

inline std::vector<Vec2> parabolaPoints(Vec2 focus, const SiteGeom& seg, Vec2 c1, Vec2 c2, double epsilon) {
    const Parabola parabola(focus, seg, c1, c2, epsilon);
    std::vector<Vec2> pts(parabola.count());
    for (size_t k = 0; k < pts.size(); ++k)
        pts[k] = parabola.point(int(k));
    return pts;
}

// One medial-axis edge while the diagram is alive: local vertex numbers, and its sites in the
// order the edge records them (16 bytes).
struct EdgeRecord {
    uint32_t v1, v2, sa, sb;
};

// What the diagram walk keeps of the diagram (which is freed after it): every site, in diagram
// vertex order; the refined Voronoi vertices, numbered in first-use order, and which of them lie
// on a wall (the three sites share a point: a wall corner; every other vertex lies strictly inside
// free space or strictly outside it, like every edge's interior); one record per edge.
struct DiagramRecords {
    std::vector<SiteGeom> sites;
    std::vector<Vec2> positions;
    std::vector<bool> on_wall;
    std::vector<EdgeRecord> records;
};

// Walls onto the grid, without crossings, overlaps, duplicates or zero-length pieces (snap_walls.cpp).
// *unchanged tells whether the walls passed through (the pieces are exactly the input's).
std::vector<GridSegment> prepareWalls(const std::vector<WallSegment>& walls, double q, bool* unchanged);

// The segment Voronoi diagram of the grid walls (q the grid spacing), walked into compact records
// and freed (diagram.cpp). Checks that no wall was lost; *wall_sites counts the segment sites.
Error walkDiagram(std::vector<GridSegment> segs, double q, uint32_t layer, size_t* wall_sites,
                  DiagramRecords* out);

// Drops the records of edges outside free space (free_space.cpp): walls_unchanged tells whether
// the walls passed prepareWalls unchanged, epsilon is the parabolas' chord tolerance.
void keepInsideFreeSpace(const std::vector<PolygonWithHoles>& free_space, bool walls_unchanged,
                         double epsilon, DiagramRecords* axis);

} // namespace clearway::bake::medial_axis_detail
