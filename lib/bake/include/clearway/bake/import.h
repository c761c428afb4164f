// Import: any mesh format Assimp reads -> one triangle soup in the internal frame.
#pragma once

#include <clearway/bake/core.h>

namespace clearway::bake {

// Reads any format Assimp reads. Node transforms are applied, polygons triangulated. Rejects a
// missing/unreadable file, zero triangles and non-finite vertices with a message naming the file.
Error loadMesh(const std::string& path, const ImportOptions& options, Mesh* out, LogContext& log);

// Builds a Mesh from world-space triangles (tests, generators). Same validation as loadMesh, which
// goes through it: vertices so far from the origin that single-precision coordinates there are
// coarser than epsilon / 4 are refused (InvalidOption: Assimp parses floats, so the file has
// already lost that precision), and exact duplicate triangles (same corners in the same winding,
// any rotation; a reversed copy faces the other way and is kept) are dropped, keeping the first,
// with an Info line saying how many.
Error meshFromTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                        const ImportOptions& options, const std::string& name, Mesh* out,
                        LogContext& log = silentLog());

// loadMesh for bytes already in memory. `format_hint` is the file extension Assimp would see
// ("obj", "glb", "ply", "stl", "off", ...; it picks the reader when the bytes do not say); `name`
// is used in messages. Only these bytes are read: references to other files (OBJ materials, glTF
// external buffers) are not followed. Same validation as loadMesh; source_hash hashes the bytes.
Error loadMeshFromMemory(const void* data, size_t size, const std::string& format_hint,
                         const ImportOptions& options, const std::string& name, Mesh* out, LogContext& log);

// Writes world-space triangles in an Assimp export format ("obj", "gltf2", "glb2", "ply", "fbx",
// "stl", ...): used to produce sample levels and to test every importer path.
Error exportTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                      const std::string& format_id, const std::string& path);

} // namespace clearway::bake
