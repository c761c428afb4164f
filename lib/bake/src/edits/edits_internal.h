// Internal to lib/bake/src/edits: what edits.cpp (the sidecar, obstacles, nodes) and
// area_costs.cpp (the weighted areas' costs on the roadmap's edges) share.
#pragma once

#include <clearway/bake/roadmap.h>

namespace clearway::bake::edits_detail {

// Even-odd inside test of p against one ring.
bool insideRing(const Ring& ring, Vec2 p);

// Every edge's cost per metre (rm->edge_weights) and its spans by area type and flags
// (rm->edge_span_starts, rm->edge_spans) from rm->areas; nothing when there are no areas.
void computeAreaCosts(Roadmap* rm);

} // namespace clearway::bake::edits_detail
