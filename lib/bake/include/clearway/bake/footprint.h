// Footprint: the exact walkable area of a mesh, per floor layer, with the portals between layers.
#pragma once

#include <clearway/bake/core.h>

namespace clearway::bake {

// ---------------------------------------------------------------------------------------------
// Footprint

// A closed ring of ground-plane points in local coordinates. Outer rings counter-clockwise,
// holes clockwise; the last vertex is not repeated. Rings never cross; a ring may touch itself
// or another ring at a shared vertex (two rooms meeting at a corner).
using Ring = std::vector<Vec2>;

struct PolygonWithHoles {
    Ring outer;
    std::vector<Ring> holes;
};

struct SurfaceTriangle {
    uint32_t a = 0, b = 0, c = 0;
};

struct FootprintLayer {
    std::vector<PolygonWithHoles> polygons;
    // Triangulated walkable surface covering the layer (local x, y, z): height lookups.
    std::vector<Vec3> surface_vertices;
    std::vector<SurfaceTriangle> surface_triangles;
    double area = 0; // m^2, of the polygons as stored
    double height_min = 0, height_max = 0;
};

// Portal segment between two layers. Which side of the segment each layer lies on is not
// stored: test a point a little to either side against the layers' polygons.
struct Connection {
    uint32_t layer_a = 0, layer_b = 0;
    Vec2 p0, p1;               // portal segment, local ground-plane coordinates
    double z_a0 = 0, z_a1 = 0; // surface height on layer_a at p0, p1
    double z_b0 = 0, z_b1 = 0; // surface height on layer_b at p0, p1
};

struct Footprint {
    ImportOptions options;
    Vec3 origin;             // internal-frame position of local (0,0,0)
    double grid_spacing = 0; // boundary vertices lie on multiples of this (exact in float)
    std::vector<FootprintLayer> layers;
    std::vector<Connection> connections;
    std::string source_name;
    uint64_t input_hash = 0;
    uint64_t options_hash = 0;
};

struct FootprintStats {
    size_t layers = 0, connections = 0, polygons = 0, holes = 0, vertices = 0;
    double walkable_area = 0;
};
FootprintStats statsOf(const Footprint& footprint);

// The exact walkable footprint of a mesh (see docs in README: slope, clearance, step, layers).
Error buildFootprint(const Mesh& mesh, const ImportOptions& options, Footprint* out, LogContext& log);

// Area (m^2) left when every layer is eroded by a disc of `radius` (what an agent of that radius
// can reach with its centre). Connections are not walls: erosion does not bite at portals.
// NaN for a negative or NaN radius, or a footprint CGAL rejects (self-crossing ring).
double erodedArea(const Footprint& footprint, double radius);

// How big a baked level is, for the bake summaries: mistakes in units or up axis show there first.
struct LevelSize {
    Vec3 world_min, world_max; // bounds of every layer's boundary and surface, in mesh coordinates
    double across = 0;         // metres: the larger horizontal extent
    double ground_area = 0;    // m^2: the horizontal bounding box
    double walkable_area = 0;  // m^2: all layers
};
LevelSize levelSizeOf(const Footprint& footprint);
// What no walkable level looks like, each with the likely fix: under 1 m or over 50 km across, no
// walkable area, or more walkable area than twice the ground box (floors stacked like the walls of
// a level lying on its side). Empty for a plausible level.
// `units` (optional): where the scale came from, so the hint fits (a stray --scale, the file's
// own unit declaration, or none declared).
std::vector<std::string> levelSizeWarnings(const LevelSize& size, const ImportOptions& options,
                                           const ImportUnits* units = nullptr);
// A warning when most of the mesh's flat surface would face up under the other up axis (floors
// and ceilings standing as walls: a Z-up export read as Y-up or the reverse); empty otherwise.
std::string upAxisWarning(const Mesh& mesh, const ImportOptions& options);

} // namespace clearway::bake
