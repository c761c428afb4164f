// clearway runtime: loads baked assets zero-copy and answers queries.
//
// Safe for untrusted input: every load verifies the bytes (FlatBuffers verifier plus semantic
// checks: identifier, version, indices in range, finite numbers) before any accessor reads them,
// so a truncated, modded or corrupted asset yields a status code, never a crash.
// C++17, no exceptions, no RTTI, no allocation: views point into the caller's memory, which must
// outlive them and may be a read-only mapping shared between instances.
#pragma once

#include <cstddef>
#include <cstdint>

namespace clearway {

enum class Status : int32_t {
    Ok = 0,
    InvalidArgument,    // null pointer, index out of range
    BufferTooSmall,     // output buffer cannot hold the result
    WrongAssetKind,     // file_identifier does not match (e.g. a roadmap passed as a footprint)
    UnsupportedVersion, // format_version newer than this runtime understands
    CorruptAsset,       // FlatBuffers verification or a semantic check failed
    NotFound,           // e.g. a point outside every layer
};

// Short English description of a status ("asset is corrupt", ...).
const char* statusString(Status status);

struct Vec2f {
    float x, y;
};
struct Vec3f {
    float x, y, z;
};
struct Vec3d {
    double x, y, z;
};

// ---------------------------------------------------------------------------------------------
// Footprint assets (.cwfp, schemas/footprint.fbs)

constexpr uint32_t kFootprintFormatVersion = 1;

struct FootprintView {
    const uint8_t* data = nullptr; // verified FlatBuffer, owned by the caller
    size_t size = 0;
};

// Verifies `size` bytes at `data` and fills `out`. Only Ok leaves `out` usable; on failure it is
// reset to an empty view. `data` must be 8-byte aligned (any malloc/new/mmap buffer is), else
// InvalidArgument: FlatBuffers reads doubles in place.
Status loadFootprint(const void* data, size_t size, FootprintView* out);

struct FootprintInfo {
    uint32_t format_version;
    uint32_t layer_count;
    uint32_t connection_count;
    uint64_t input_hash;
    uint64_t options_hash;
    Vec3d origin;              // internal-frame (Z-up, metres) position of local (0,0,0)
    double grid_spacing;       // boundary vertices are multiples of this
    uint8_t up_axis;           // 0 = Y-up source mesh, 1 = Z-up (an asset without options: Y-up)
    double scale;              // source units -> metres, > 0 (an asset without options: 1)
    const char* baker_version; // points into the asset (NUL-terminated), never null
};
Status footprintInfo(const FootprintView& view, FootprintInfo* out);

struct FootprintLayerInfo {
    uint32_t polygon_count;
    uint32_t ring_count;
    uint32_t boundary_vertex_count;
    uint32_t surface_vertex_count;
    uint32_t surface_triangle_count;
    double area; // m^2
    float height_min, height_max;
};
Status footprintLayer(const FootprintView& view, uint32_t layer, FootprintLayerInfo* out);

// Polygon `polygon` of a layer: its first ring is the outer boundary (counter-clockwise), the
// rest are holes (clockwise). Ring indices are layer-wide, for footprintRing().
Status footprintPolygon(const FootprintView& view, uint32_t layer, uint32_t polygon, uint32_t* first_ring,
                        uint32_t* ring_count);
// Zero-copy: *vertices points into the asset; *count vertices, the last not repeated.
Status footprintRing(const FootprintView& view, uint32_t layer, uint32_t ring, const Vec2f** vertices,
                     uint32_t* count);

struct FootprintConnection {
    uint32_t layer_a, layer_b;
    Vec2f p0, p1;     // portal segment, local ground-plane coordinates
    float z_a0, z_a1; // surface heights on layer_a at p0, p1
    float z_b0, z_b1; // surface heights on layer_b at p0, p1
};
Status footprintConnection(const FootprintView& view, uint32_t index, FootprintConnection* out);

// Height of layer `layer`'s walkable surface under local ground point (x, y): the surface triangle
// containing it, or the nearest one within `tolerance` metres (boundaries are simplified within
// the bake epsilon). NotFound when no triangle is that close (then *height is unchanged);
// InvalidArgument for a bad layer, non-finite x/y or a negative tolerance.
Status footprintHeightAt(const FootprintView& view, uint32_t layer, float x, float y, float tolerance,
                         float* height);

// Coordinate frames. World = the source mesh's coordinates. Internal = Z-up metres.
// Local = internal - origin (what the asset stores, in floats).
Vec3d footprintWorldToLocal(const FootprintInfo& info, Vec3d world);
Vec3d footprintLocalToWorld(const FootprintInfo& info, Vec3d local);

} // namespace clearway
