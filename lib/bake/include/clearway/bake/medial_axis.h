// Medial axis: CGAL's segment Voronoi diagram of one layer's walls, kept inside free space.
#pragma once

#include <clearway/bake/roadmap.h>

namespace clearway::bake {

// Medial axis of `walls` restricted to `free_space` (a point is kept when it lies inside it).
// Walls may cross, touch, overlap or be degenerate: they are snap-rounded onto `grid_spacing`
// first and nothing is dropped (asserted: an error names the wall otherwise).
Error medialAxis(const std::vector<WallSegment>& walls, const std::vector<PolygonWithHoles>& free_space,
                 double grid_spacing, const RoadmapOptions& options, uint32_t layer,
                 std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges, size_t* wall_sites);

} // namespace clearway::bake
