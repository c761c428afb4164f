// Roadmap stages shared with tiled bakes (lib/bake/src/tiles/, pipeline/bake_tile.cpp) and designer edits
// (edits/edits.cpp). The stages' own shared pieces are in roadmap_stages.h.
#pragma once

#include <clearway/bake.h>

namespace clearway::bake {

// The stages of buildRoadmap after the medial axis and the layer joins: chain merging (when
// rm.options.merge_chains), canonical order and every blend, against the solid walls of
// rm.footprint. A tile runs them after cutting its axis at the tile border, cw-stitch after
// welding the tiles. Existing blends are replaced.
void finishRoadmapGraph(Roadmap& rm);

// medialAxis() for a caller done with the walls: they are freed once on the grid, before the
// Voronoi diagram (the bake's largest structure) is built.
Error medialAxisTakingWalls(std::vector<WallSegment> walls, const std::vector<PolygonWithHoles>& free_space,
                            double grid_spacing, const RoadmapOptions& options, uint32_t layer,
                            std::vector<RoadmapVertex>* vertices, std::vector<RoadmapEdge>* edges,
                            size_t* wall_sites);

// Height of the layer's surface at p: the triangle containing it, else the nearest point of the
// nearest triangle (designer edits pick floors with it).
double surfaceHeight(const FootprintLayer& layer, Vec2 p);

} // namespace clearway::bake
