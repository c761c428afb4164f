// CGAL segment Voronoi diagram setup shared by the roadmap bake and its benchmark, so the
// benchmark's "bare CGAL build" is exactly the build the bake does. Internal to lib/bake.
#pragma once

#include <CGAL/Segment_Delaunay_graph_2.h>
#include <CGAL/Segment_Delaunay_graph_filtered_traits_2.h>
#include <CGAL/Simple_cartesian.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace clearway::bake::voronoi {

using SdgKernel = CGAL::Simple_cartesian<double>;
// Exact predicates (filtered), double constructions; walls must not cross (checked before).
using SdgTraits =
    CGAL::Segment_Delaunay_graph_filtered_traits_without_intersections_2<SdgKernel,
                                                                         CGAL::Field_with_sqrt_tag>;
using Sdg = CGAL::Segment_Delaunay_graph_2<SdgTraits>;
using SdgPoint = SdgTraits::Point_2;
using SdgSite = SdgTraits::Site_2;

// A point on the footprint grid, in grid units (exact integer coordinates).
struct GridKey {
    int64_t x, y;
    bool operator<(const GridKey& o) const { return std::tie(x, y) < std::tie(o.x, o.y); }
    bool operator==(const GridKey& o) const { return x == o.x && y == o.y; }
};
using GridSegment = std::pair<GridKey, GridKey>;

inline uint64_t mortonKey(const GridKey& k) {
    auto spread = [](uint64_t v) {
        v &= 0xffffffff;
        v = (v | (v << 16)) & 0x0000ffff0000ffffull;
        v = (v | (v << 8)) & 0x00ff00ff00ff00ffull;
        v = (v | (v << 4)) & 0x0f0f0f0f0f0f0f0full;
        v = (v | (v << 2)) & 0x3333333333333333ull;
        v = (v | (v << 1)) & 0x5555555555555555ull;
        return v;
    };
    return spread(uint64_t(k.x + (1ll << 31))) | (spread(uint64_t(k.y + (1ll << 31))) << 1);
}

// Inserts every endpoint (Morton order with a hint: CGAL's own spatial sort shuffles, which
// would make the diagram depend on a random seed) and then every segment between them.
// Zero-length segments stay point sites. Returns the number of segments CGAL rejected (an
// invariant failure: non-crossing walls are never rejected); *first_rejected names one.
inline size_t insertWalls(Sdg& sdg, const std::vector<GridSegment>& segs, double q,
                          GridSegment* first_rejected) {
    std::vector<GridKey> keys;
    keys.reserve(2 * segs.size());
    for (const GridSegment& s : segs)
        keys.push_back(s.first), keys.push_back(s.second);
    auto morton_less = [](const GridKey& a, const GridKey& b) {
        const uint64_t ma = mortonKey(a), mb = mortonKey(b);
        return ma < mb || (ma == mb && a < b);
    };
    std::sort(keys.begin(), keys.end(), morton_less);
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    // Handles by the key's position in the sorted list (8 bytes a point, no tree nodes).
    std::vector<Sdg::Vertex_handle> handles;
    handles.reserve(keys.size());
    Sdg::Vertex_handle hint;
    for (const GridKey& k : keys) {
        hint = sdg.insert(SdgPoint(double(k.x) * q, double(k.y) * q), hint);
        handles.push_back(hint);
    }
    auto handle = [&](const GridKey& k) {
        return handles[size_t(std::lower_bound(keys.begin(), keys.end(), k, morton_less) - keys.begin())];
    };
    size_t rejected = 0;
    for (const GridSegment& s : segs) {
        if (s.first == s.second) continue;
        if (sdg.insert(handle(s.first), handle(s.second)) == Sdg::Vertex_handle()) {
            if (rejected++ == 0 && first_rejected) *first_rejected = s;
        }
    }
    return rejected;
}

} // namespace clearway::bake::voronoi
