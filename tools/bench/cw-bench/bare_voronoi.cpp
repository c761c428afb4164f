// CGAL's bare segment Voronoi build, the baseline the roadmap bake is measured against. It uses
// the bake's own CGAL setup (lib/bake/src/medial_axis/segment_voronoi.h), so the baseline is like for like.
#include "cw_bench.h"

#include "medial_axis/segment_voronoi.h"

#include <cmath>
#include <utility>

namespace clearway::bench {

using namespace bake::voronoi;

double bareSegmentDelaunaySeconds(const std::vector<bake::WallSegment>& walls, double grid_spacing,
                                  size_t* segment_sites) {
    const double q = grid_spacing;
    std::vector<std::pair<GridKey, GridKey>> segs;
    segs.reserve(walls.size());
    for (const bake::WallSegment& w : walls)
        segs.push_back({{std::llround(w.a.x / q), std::llround(w.a.y / q)},
                        {std::llround(w.b.x / q), std::llround(w.b.y / q)}});
    const double start = cpuSeconds();
    size_t sites = 0;
    {
        // The same insertion as medialAxis() (segment_voronoi.h).
        Sdg sdg;
        const size_t rejected = insertWalls(sdg, segs, q, nullptr);
        for (const GridSegment& s : segs)
            sites += !(s.first == s.second);
        sites -= rejected;
        // The diagram's destruction is inside the clock: the bake pays for it too.
    }
    const double seconds = cpuSeconds() - start;
    if (segment_sites) *segment_sites = sites;
    return seconds;
}

} // namespace clearway::bench
