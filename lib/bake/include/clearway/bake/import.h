// Import: any mesh format Assimp reads -> one triangle soup in the internal frame.
#pragma once

#include <clearway/bake/core.h>

namespace clearway::bake {

// Reads OBJ with clearway's own reader (coordinates in double, polygons triangulated as Assimp did,
// a malformed line an error naming FILE:LINE) and any other format Assimp reads (in float). Node
// transforms are applied, polygons triangulated. Rejects a missing/unreadable file, zero triangles
// and non-finite vertices with a message naming the file.
// The up axis and scale are the options' when given (up_given, scale_given), else what the file
// declares: an FBX's UpAxis (Y or Z) and UnitScaleFactor (centimetres per unit), which Assimp
// leaves to the caller; glTF's rule (Y up, metres); a COLLADA file's <up_axis> and <unit>, which
// Assimp has already applied (so Y up, 1). Else ImportOptions' values. out->units records which,
// and an Info line says it.
Error loadMesh(const std::string& path, const ImportOptions& options, Mesh* out, LogContext& log);

// `options` with the up axis and scale `mesh` was imported with (marked given): what every stage
// after the import (footprint, assets, level size) must use.
ImportOptions optionsUsed(const Mesh& mesh, ImportOptions options);

// "up z (the file's UpAxis), scale 0.01 m per unit (the file's UnitScaleFactor: 1 cm per unit)".
std::string unitsText(const ImportUnits& units);

// The up axis and scale loadMesh would use for the file at `path` (reads it, builds no mesh):
// --if-changed compares the options an asset was baked with before deciding to bake.
Error unitsOfFile(const std::string& path, const ImportOptions& options, ImportUnits* out);

// Builds a Mesh from world-space triangles (tests, generators). Same validation as loadMesh, which
// goes through it: vertices so far from the origin that single-precision coordinates there are
// coarser than epsilon / 4 are refused (InvalidOption: Assimp parses floats, so the file has
// already lost that precision; loadMesh checks an OBJ, read in double, against double spacing); vertices within epsilon / 1000 of another are welded to the
// lowest index of their cluster and triangles that weld collapses are dropped; then exact duplicate
// triangles (same corners in the same winding, any rotation; a reversed copy faces the other way
// and is kept) are dropped, keeping the first, with an Info line saying how many of each.
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
// "stl", ...): used to produce sample levels and to test every importer path. `up` and `scale`
// (metres per unit) say what frame the positions are in; FBX files declare it (UpAxis,
// UnitScaleFactor), the other formats say nothing.
Error exportTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                      const std::string& format_id, const std::string& path, UpAxis up = UpAxis::Y,
                      double scale = 1.0);

} // namespace clearway::bake
