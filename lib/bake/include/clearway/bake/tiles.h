// Tiles: worlds larger than one bake, baked tile by tile and welded back together.
#pragma once

#include <clearway/bake/roadmap.h>

namespace clearway::bake {

// cw-bake --tile-size T --tile I,J bakes one square tile of a level's world horizontal plane (its
// geometry plus a margin) into a tile roadmap asset; cw-stitch welds tiles into one roadmap asset
// that equals the untiled bake up to subdivision wherever the clearance is below the margin.

struct StitchOptions {
    double weld_epsilon = 1e-3; // metres: border vertices of neighbouring tiles closer than this are one
};
struct StitchStats {
    size_t tiles = 0, welded = 0; // welded: border vertices joined to a neighbour's
    size_t unmatched = 0;         // border vertices no other tile continues (the world's edge, or the margin)
    size_t margin_reached = 0;    // summed over the tiles
    size_t layers = 0, vertices = 0, edges = 0, blends = 0, walls = 0; // walls: footprint ring edges
};
// Joins tiles of one world (same mesh, options, tile size and margin; distinct I,J). `names`
// name the tiles in messages. The result is a plain roadmap asset (no tile record).
Error stitchTiles(const std::vector<Roadmap>& tiles, const std::vector<std::string>& names,
                  const StitchOptions& options, Roadmap* out, StitchStats* stats, LogContext& log);

// "Same roadmap up to subdivision": the junctions (degree != 2) of both match one to one within
// position_epsilon (ground plane; heights within height_epsilon) and clearance_epsilon, and so do
// the chains of degree-2 vertices between them: same end junctions, minimum clearance within
// clearance_epsilon (closed loops without a junction are matched by clearance alone).
struct TopologyOptions {
    double position_epsilon = 0.01, height_epsilon = 0.05, clearance_epsilon = 0.01;
};
struct TopologyComparison {
    bool equal = false;
    size_t junctions_a = 0, junctions_b = 0, chains_a = 0, chains_b = 0;
    size_t unmatched_junctions = 0, unmatched_chains = 0;   // on either side
    double max_position_error = 0, max_clearance_error = 0; // over matched junctions and chains
    std::vector<std::string> differences; // the first few, in words (local coordinates of a)
};
TopologyComparison compareRoadmapTopology(const Roadmap& a, const Roadmap& b,
                                          const TopologyOptions& options = {});

} // namespace clearway::bake
