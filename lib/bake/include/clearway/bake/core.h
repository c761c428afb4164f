// Bake core: errors as values, logging, import options, geometry types, frames, hashing and
// atomic file output. Every bake stage builds on these; nothing here touches CGAL or Assimp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clearway::bake {

// ---------------------------------------------------------------------------------------------
// Errors and logging

enum class ErrorCode {
    None = 0,
    InvalidOption,     // an option value is out of range
    FileNotFound,      // input path does not exist
    ReadFailed,        // exists but could not be read / parsed by the importer
    EmptyMesh,         // the file holds no triangles
    NonFiniteVertex,   // NaN or Inf in the vertex data
    NoWalkableSurface, // nothing an agent can stand on
    WriteFailed,       // output could not be written (nothing is left behind)
    Internal,          // a geometric invariant failed; the message names where
};

struct Error {
    ErrorCode code = ErrorCode::None;
    std::string message; // names the file and the problem
    explicit operator bool() const { return code != ErrorCode::None; }
};

// Exit code a tool returns for an error: 0 ok, 2 bad input, 3 bake failure, 4 I/O.
int exitCodeFor(const Error& error);

enum class LogLevel { Debug, Info, Warn, Error };

class LogContext {
  public:
    virtual ~LogContext() = default;
    virtual void log(LogLevel level, const std::string& message) = 0;
};

// Discards everything; for tests and library callers that do not care.
LogContext& silentLog();

// ---------------------------------------------------------------------------------------------
// Options

enum class UpAxis : uint8_t { Y = 0, Z = 1 };

struct ImportOptions {
    UpAxis up = UpAxis::Y;
    double scale = 1.0;        // world units -> metres
    double agent_height = 2.0; // metres of free space the agent needs above the surface
    double max_slope_deg = 45; // steepest walkable surface, degrees from horizontal
    double max_step = 0.4;     // metres: obstacles and ledges up to this height are stepped over
    double epsilon = 0.01;     // metres: boundaries are simplified no further than this
    // Threads the bake may use (0: every core). The output is byte-identical for any value, so
    // it is neither hashed (canonicalString) nor stored in assets.
    unsigned threads = 0;
};

ImportOptions defaultImportOptions();
// Checks ranges; the message names the option.
Error validate(const ImportOptions& options);
// Canonical text of the options (hashed into assets so --if-changed style checks are exact).
std::string canonicalString(const ImportOptions& options);

// ---------------------------------------------------------------------------------------------
// Geometry types. Internal frame: right-handed, Z up, metres. For Y-up input a world point
// (x, y, z) maps to (x, -z, y) * scale, which keeps handedness (a rotation, not a mirror).

struct Vec2 {
    double x = 0, y = 0;
};
struct Vec3 {
    double x = 0, y = 0, z = 0;
};

// Triangle soup in the internal frame, in absolute coordinates (double keeps 5 km offsets exact).
struct Mesh {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices; // 3 per triangle
    std::string source_name;       // file name, for messages
    uint64_t source_hash = 0;      // FNV-1a 64 of the file bytes (0 for generated meshes)
    size_t triangleCount() const { return indices.size() / 3; }
};

// World (file) coordinates -> internal frame, and back.
Vec3 worldToInternal(const Vec3& world, const ImportOptions& options);
Vec3 internalToWorld(const Vec3& internal, const ImportOptions& options);

// Writes to PATH.tmp-XXXX in the same folder, then renames: a reader never sees a partial file.
Error writeFileAtomic(const std::string& path, const void* data, size_t size);
Error writeFileAtomic(const std::string& path, const std::string& text);

uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = 1469598103934665603ull);
const char* bakerVersion();

} // namespace clearway::bake
