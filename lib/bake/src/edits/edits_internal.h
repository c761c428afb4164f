// Internal to lib/bake/src/edits: what edits.cpp (the sidecar, obstacles, nodes) and
// area_costs.cpp (the weighted areas' costs on the roadmap's edges) share.
#pragma once

#include <clearway/bake/edits.h>
#include <clearway/bake/roadmap.h>

#include <string>
#include <vector>

namespace clearway::bake::edits_detail {

// Even-odd inside test of p against one ring.
bool insideRing(const Ring& ring, Vec2 p);

// The sidecar's numbers: a finite number; "type T" (0 .. 63) or "flags F" (1 .. 65535, decimal or 0x
// hex) at tokens[i], into *type_out or *flags_out. *problem says what is wrong.
bool parseNumber(const std::string& text, double* out, std::string* problem);
bool parseTypeOrFlags(const std::vector<std::string>& tokens, size_t i, uint8_t* type_out,
                      uint16_t* flags_out, std::string* problem);
// links.cpp: a link's options after its two ends (oneway, kind, cost, width, flags, type).
bool parseLinkOptions(const std::vector<std::string>& tokens, EditLink* link, std::string* problem);

// Exact distance from segment a-b to the nearest of `walls`.
double segmentToWalls(const std::vector<WallSegment>& walls, Vec2 a, Vec2 b);
// links.cpp: joins vertex `vertex` (a link's end) to the roadmap at the nearest point of an edge
// of its layer that it sees (`rings`: every ring edge, for sight; `solid`: the clearances), splitting
// that edge there. False (nothing changed) when it sees none.
bool joinAtNearestEdge(Roadmap* rm, uint32_t vertex, const Footprint& fp,
                       const std::vector<WallSegment>& solid, const std::vector<WallSegment>& rings);

// Every edge's cost per metre (rm->edge_weights) and its spans by area type and flags
// (rm->edge_span_starts, rm->edge_spans) from rm->areas; nothing when there are no areas.
void computeAreaCosts(Roadmap* rm);

} // namespace clearway::bake::edits_detail
