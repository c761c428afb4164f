// Analytic levels: meshes whose walkable footprint is known in closed form, shared by the tests,
// the sample levels (cw-make-samples) and the benchmarks.
//
// Every scene is a set of closed, outward-wound solids (plus two-sided quads for zero-thickness
// walls) in WORLD coordinates, Y up, so it goes through the same Y-up -> Z-up rotation as a real
// level file. Expected values are for defaultImportOptions() (agent height 2, step 0.4, slope 45);
// scenes.cpp derives each one in a comment.
#pragma once

#include <clearway/bake.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace clearway::scenes {

using bake::Vec2;
using bake::Vec3;

struct Scene {
    std::string name;
    std::vector<Vec3> positions;   // WORLD coordinates, Y up; every value is exact in float
    std::vector<uint32_t> indices; // 3 per triangle, counter-clockwise seen from outside
    double expected_area = 0;      // m^2, ground plane, all layers
    int expected_layers = 0;
    int expected_connections = 0;
    // Ground-plane (x, -z) segments the footprint boundary must follow (within the bake epsilon).
    std::vector<std::pair<Vec2, Vec2>> expected_walls;
    std::string notes; // assumptions behind the expected values
};

Scene boxRoom();
Scene cylinderColumn();
Scene ramp();
Scene bridge();
Scene twoStorey();
Scene lowOverhang();
Scene stepBox();

// Every scene above, in a fixed order.
std::vector<Scene> allScenes();

// A flat square floor of `cells` x `cells` square cells of side `cell_size` (grid.cpp), two
// triangles per cell, corner at the origin, extending along world +x and -z at height 0: its
// footprint is one square whatever the number of cells. Not in allScenes (it is a size test).
Scene flatGrid(int cells, double cell_size);

// A generated one-layer footprint (boxes.cpp): a square outer ring around (wall_segments - 4) / 4
// non-overlapping box holes (half axis-aligned, half rotated), every vertex on the 2^-14 m grid,
// flat floor at z = 0. Walls = 4 per box + 4. The same seed gives the same level on every platform.
bake::Footprint randomBoxesFootprint(size_t wall_segments, uint64_t seed);

// Every vertex and the area scaled by `scale` about the origin, vertices snapped back to the
// footprint's grid (a power of two keeps them on it exactly). Wider gaps for larger agents.
void scaleFootprint(bake::Footprint* footprint, double scale);

// Plain Wavefront OBJ (v / f lines, 1-based, float-exact "%.9g"). Throws std::runtime_error
// naming the path when the file cannot be written.
void writeObj(const Scene& scene, const std::string& path);

} // namespace clearway::scenes
