// The benchmarks' own OBJ reader: Recast takes float triangle soup, and the peers must read the
// very file clearway imports (through Assimp) without a second mesh library.
#pragma once

#include <clearway/bake.h>

#include <string>
#include <vector>

namespace clearway::bench {

// Y-up triangle soup, as Recast wants it.
struct ObjMesh {
    std::vector<float> verts; // x, y, z per vertex
    std::vector<int> tris;    // 3 per triangle
    int vertexCount() const { return static_cast<int>(verts.size() / 3); }
    int triangleCount() const { return static_cast<int>(tris.size() / 3); }
};

// Minimal OBJ reader: `v` and `f` lines only; n-gons are fan-triangulated; `v/vt/vn`, `v//vn`
// and negative (relative) indices are accepted. Everything else (vt, vn, o, g, usemtl) is ignored.
// `offset` is subtracted in double before the float conversion: Recast gets local coordinates
// (undulating.obj lies 5 km from the origin, where a float keeps only 0.5 mm).
bake::Error loadObj(const std::string& path, ObjMesh* out, bake::Vec3 offset = {});

} // namespace clearway::bench
