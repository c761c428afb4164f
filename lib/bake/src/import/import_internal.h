// Shared by loadMesh (files) and loadMeshFromMemory (bytes): one importer setup, one scene walk.
#pragma once

#include <clearway/bake.h>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <istream>

namespace clearway::bake::detail {

// Sets the importer properties and returns the flags both loaders read with (validation only:
// the other steps run in postProcess).
unsigned configureImporter(Assimp::Importer& importer);

// Runs the remaining post-processing (triangulation, merging, node transforms) on the scene the
// importer read, after checking its faces and making each mesh's primitive-type flags match
// them. `name` is used in messages.
Error postProcess(Assimp::Importer& importer, const std::string& name, const aiScene** out);

// declared_units.cpp. The up axis and scale an import of `scene` uses: the options' where given,
// else what the file declares, else the options' values (scene may be null: no file). Warns on
// `log` about a declaration clearway cannot use. `name` is used in messages.
ImportUnits unitsFor(const aiScene* scene, const ImportOptions& options, const std::string& name,
                     LogContext& log);

// What a reader parsed coordinates into: Assimp into float (ai_real), clearway's OBJ reader into double.
enum class ParsedPrecision { Float, Double };

// Every triangle of every mesh of `scene` (node transforms already applied), validated and moved
// into the internal frame by meshFromTriangles with the units unitsFor picks (out->units; an Info
// line on `log` says them). `name` is used in messages.
Error meshFromScene(const aiScene& scene, const ImportOptions& options, const std::string& name, Mesh* out,
                    LogContext& log);

// obj_reader.cpp. The vertices and triangles of the Wavefront OBJ file in `bytes`, read in double:
// `v x y z [w]` (divided by w) or `v x y z r g b`, faces `f` of `v`, `v/vt`, `v//vn` or `v/vt/vn`
// corners (negative: counted back from the last vertex so far), triangulated as Assimp's
// Triangulate step did; '\' continues a line, '#' starts a comment, CR LF ends lines as LF does,
// every other statement is ignored. Vertices are numbered in the order faces first use them. Any
// malformed line is an error "name:LINE: problem". Memory is linear in `size`.
Error readObj(const char* bytes, size_t size, const std::string& name, std::vector<Vec3>* positions,
              std::vector<uint32_t>* indices);
// True when `extension` ("obj", ".obj" or a path ending in either; any case) is read by readObj
// instead of Assimp.
bool readsObj(const std::string& extension);
// readObj's triangles validated and moved into the internal frame as meshFromScene does.
Error meshFromObj(const char* bytes, size_t size, const ImportOptions& options, const std::string& name, Mesh* out,
                  LogContext& log);

// meshFromTriangles, with the precision check for coordinates a reader parsed at `precision`.
Error meshFromParsedTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                              ParsedPrecision precision, const ImportOptions& options, const std::string& name,
                              Mesh* out, LogContext& log);

// mesh_checks.cpp. InvalidOption when the referenced vertices lie so far from the origin that
// coordinates parsed at `precision` there are coarser than epsilon / 4.
Error checkParsedPrecision(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                           ParsedPrecision precision, const ImportOptions& options, const std::string& name);
// Welds the vertices `indices` use that lie within `tolerance` of another (transitively: a chain
// of close vertices is one cluster) to the cluster's lowest index, rewriting corners whose
// position differs from it, and removes the triangles that weld made degenerate (two corners at
// one position; a triangle already degenerate is kept as it was). The rest keep their order. Run
// before dropDuplicateTriangles, so copies nudged by less than `tolerance` become exact duplicates.
struct WeldSummary {
    size_t welded_vertices = 0;     // vertices whose corners now point at another position
    size_t collapsed_triangles = 0; // removed: degenerate after the weld
    double farthest_move = 0;       // metres, the largest distance a corner moved
};
WeldSummary weldCloseVertices(const std::vector<Vec3>& positions, double tolerance,
                              std::vector<uint32_t>* indices);
// Removes every triangle whose corner positions equal an earlier triangle's in the same winding
// (any rotation; the reverse winding is a different, back-facing triangle); the rest keep their
// order. Returns how many were removed. Overlap stages pair up coincident pieces, so n copies of
// one triangle would cost n^2.
size_t dropDuplicateTriangles(const std::vector<Vec3>& positions, std::vector<uint32_t>* indices);

// declared_counts.cpp. ReadFailed when an OFF, PLY or binary STL header declares more vertices,
// faces or facets than the input's `size` bytes can hold: Assimp allocates for the declared counts
// before reading them (Debian's invalid/OutOfMemory.off declares 353,535,235,358 vertices in 309
// bytes). `head` holds the first min(size, kDeclaredCountsHeadBytes) bytes; `file_name` (a path,
// or "." + a format hint) picks the format the way Assimp does. `name` is used in messages.
constexpr size_t kDeclaredCountsHeadBytes = 64 * 1024;
Error checkDeclaredCounts(const Assimp::Importer& importer, const std::string& file_name, const char* head,
                          size_t head_size, uint64_t size, const std::string& name);
// The same for the file at `path` open in `stream`: reads its head only, then rewinds the stream.
Error checkDeclaredCountsOfFile(const Assimp::Importer& importer, const std::string& path,
                                std::istream& stream, uint64_t size);

// gltf_primitives.cpp. ReadFailed when a glTF (by `file_name`'s extension) or binary glTF (by its
// signature) input has a line loop or strip of fewer than 2 vertices or a triangle strip or fan of
// fewer than 3: Assimp 5.2 wraps the element count below zero and allocates for 2^32 elements.
// `data` holds the whole input; `name` is used in messages.
Error checkGltfPrimitives(const std::string& file_name, const char* data, size_t size, const std::string& name);

} // namespace clearway::bake::detail
