// clearway bake library: offline level processing, one header per pipeline area.
//
// Errors are returned as values (Error); nothing throws across this API. Logging goes through a
// LogContext the caller provides (the tools back it with spdlog), so the library never prints.
// CGAL and Assimp stay inside the .cpp files: including these headers is cheap.
//
//   core.h         errors, logging, options, geometry types, frames, hashing, atomic output
//   import.h       mesh files (any format Assimp reads) -> triangle soup
//   footprint.h    triangle soup -> exact walkable footprint per floor layer
//   medial_axis.h  one layer's walls -> exact medial axis (CGAL segment Voronoi diagram)
//   roadmap.h      footprint -> roadmap: clearance, merged chains, circular blends, layer joins
//   edits.h        designer sidecar (.cwedit): obstacles, weighted areas, manual nodes and edges
//   tiles.h        tiled worlds: tile clipping, stitching, topology comparison
//   assets.h       structs <-> verified FlatBuffers assets
//   trims.h        vehicle models -> trim-trajectory tables
//   pipeline.h     the tools' one call each: the only place the stages are chained
#pragma once

#include <clearway/bake/assets.h>
#include <clearway/bake/core.h>
#include <clearway/bake/edits.h>
#include <clearway/bake/footprint.h>
#include <clearway/bake/import.h>
#include <clearway/bake/medial_axis.h>
#include <clearway/bake/pipeline.h>
#include <clearway/bake/roadmap.h>
#include <clearway/bake/tiles.h>
#include <clearway/bake/trims.h>
