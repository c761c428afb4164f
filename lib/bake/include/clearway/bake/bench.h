// Benchmark helpers (transitional: moving to samples/scenes and tools/bench).
#pragma once

#include <clearway/bake/roadmap.h>

namespace clearway::bake {

// Helpers for cw-bench (lib/bake/src/bench.cpp): generated levels and the bare CGAL baseline.

// A one-layer footprint: a square outer ring around (wall_segments - 4) / 4 non-overlapping box
// holes (half axis-aligned, half rotated), every vertex on the 2^-14 m grid, flat floor at z = 0.
// Walls = 4 per box + 4. The same seed gives the same level on every platform.
Footprint randomBoxesFootprint(size_t wall_segments, uint64_t seed);

// CPU seconds (user + sys) to build, then destroy, CGAL's Segment_Delaunay_graph_2 over `walls`
// exactly as medialAxis() does (same traits, points in Morton order, then segments), without
// clearway's checks or medial-axis extraction. Walls must be on the grid and crossing-free.
// `segment_sites` (optional) receives the number of segments CGAL accepted.
double bareSegmentDelaunaySeconds(const std::vector<WallSegment>& walls, double grid_spacing,
                                  size_t* segment_sites = nullptr);

} // namespace clearway::bake
