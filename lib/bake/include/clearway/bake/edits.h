// Designer edits: the .cwedit sidecar (fake obstacles, weighted areas, manual nodes, edges and links).
#pragma once

#include <clearway/bake/roadmap.h>

namespace clearway::bake {

// A line-based sidecar next to the mesh (<mesh without extension>.cwedit) with fake obstacles,
// weighted areas and manual roadmap nodes and edges, in the mesh's world coordinates. cw-import
// and cw-bake pick it up; its bytes are part of the assets' input hash. Every problem is an Error
// (ReadFailed, exit code 2) whose message is "FILE:LINE: what is wrong".

// Polygons use the two horizontal world axes (x, z with --up y; x, y with --up z), `floor` and
// node heights the up axis; everything in mesh units (--scale applies).
struct EditPolygon {
    uint32_t line = 0;
    std::vector<Vec2> points; // world horizontal coordinates, as written (any winding)
    bool has_floor = false;
    double floor = 0; // world up coordinate: the layer whose surface is nearest this height there
};
struct EditArea {
    EditPolygon polygon;
    double weight = 1; // > 0
    uint8_t type = 0;  // 0 .. 63, for query filters
    uint16_t flags = 1; // for query filters; 1: walk
};
struct EditNode {
    uint32_t line = 0;
    std::string name; // empty for a point written directly in an edge statement
    Vec3 world;
};
struct EditEdge {
    uint32_t line = 0;
    uint32_t a = 0, b = 0; // indices into LevelEdits::nodes
};
// An off-mesh link (`link A B ...`): a jump, ladder, door, ... between two nodes, which may lie
// on different layers; written into the roadmap asset as a RoadmapLink.
struct EditLink {
    uint32_t line = 0;
    uint32_t a = 0, b = 0; // indices into LevelEdits::nodes: the start and the end
    bool bidirectional = true;
    LinkKind kind = LinkKind::Custom;
    double cost = 0;         // >= 0, added to the straight 3D distance between the ends
    double width = INFINITY; // > 0; agents wider than this cannot take it
    uint16_t flags = 1;      // for query filters; 1: walk
    uint8_t type = 0;        // area type 0 .. 63, for query filters
};
struct LevelEdits {
    std::string source; // the file, for messages; empty: no edits
    std::string text;   // its bytes (hashed into the assets' input hash)
    std::vector<EditPolygon> obstacles;
    std::vector<EditArea> areas;
    std::vector<EditNode> nodes;
    std::vector<EditEdge> edges;
    std::vector<EditLink> links;
};

// "<dir>/<name without its last extension>.cwedit".
std::string defaultEditsPath(const std::string& mesh_path);
// The sidecar a request uses: `explicit_path` when set, else the default one when it exists;
// empty when there is none or `use_edits` is false.
std::string editsPathFor(const std::string& mesh_path, const std::string& explicit_path, bool use_edits);
Error parseEdits(const std::string& text, const std::string& source, LevelEdits* out);
// FileNotFound / ReadFailed naming the path, or parseEdits' errors.
Error loadEdits(const std::string& path, LevelEdits* out);
// A mesh's input hash with the sidecar's bytes folded in (unchanged without edits).
uint64_t inputHashWithEdits(uint64_t mesh_hash, const LevelEdits& edits);
// Obstacles cut the walkable area of their layers (exact booleans, boundary rounded onto the
// footprint grid, connections clipped); nodes and edges are checked against the result.
Error applyFootprintEdits(const LevelEdits& edits, Footprint* footprint, LogContext& log);
// On a roadmap built from the edited footprint: manual nodes (each linked to the nearest roadmap
// vertex it sees) and edges with exact clearance, the off-mesh links between nodes, the weighted
// areas and every edge's weight.
Error applyRoadmapEdits(const LevelEdits& edits, Roadmap* roadmap, LogContext& log);

} // namespace clearway::bake
