// Bake core: errors as values, logging, import options, geometry types, frames, hashing and
// atomic file output. Every bake stage builds on these; nothing here touches CGAL or Assimp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
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
    OutOfMemory,       // the bake ran out of memory (or of the setMemoryBudget budget); nothing written
};

struct Error {
    ErrorCode code = ErrorCode::None;
    std::string message; // names the file and the problem
    explicit operator bool() const { return code != ErrorCode::None; }
};

// Exit code a tool returns for an error: 0 ok, 2 bad input, 3 bake failure (OutOfMemory too: the
// input may be fine and the budget too small), 4 I/O.
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
    // Set by --up / --scale. Unset, loadMesh takes the up axis or scale the file declares (FBX's
    // UpAxis and UnitScaleFactor; glTF is Y up in metres by definition; COLLADA's <up_axis> and
    // <unit> Assimp applies itself), else keeps the value above; Mesh::units says which.
    bool up_given = false, scale_given = false;
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

// Where the up axis or the scale an import used came from (the bake summaries say it).
enum class UnitsSource : uint8_t {
    Default, // neither given nor declared by the file: ImportOptions' value (y, 1 unless changed)
    Option,  // --up / --scale (ImportOptions::up_given / scale_given)
    File,    // the file's declaration, or its format's rule (glTF)
};

// The up axis and scale one import used, and why ("--scale", "default", "the file's
// UnitScaleFactor (1 cm per unit)"): words for the summaries.
struct ImportUnits {
    UpAxis up = UpAxis::Y;
    double scale = 1.0;
    UnitsSource up_source = UnitsSource::Default, scale_source = UnitsSource::Default;
    std::string up_why, scale_why;
};

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
    ImportUnits units;             // the up axis and scale that moved it into the internal frame
    size_t triangleCount() const { return indices.size() / 3; }
};

// World (file) coordinates -> internal frame, and back.
Vec3 worldToInternal(const Vec3& world, const ImportOptions& options);
Vec3 internalToWorld(const Vec3& internal, const ImportOptions& options);

// ---------------------------------------------------------------------------------------------
// Output files (outputs.cpp)

// Every file one run writes, written all or nothing. check() refuses (InvalidOption, naming the
// path and the problem) an output that is empty, is the same file as an input (same inode, so
// hard and symbolic links count), names the same file as another output, is a directory, or
// exists and is not a regular file (device, FIFO, socket); a missing folder is WriteFailed. A
// symbolic link is written through: its target is replaced and the link stays a link. A replaced
// file keeps its permission bits.
// write() checks, writes each output to OUT.tmp-<pid>-<hex> in its target's folder and renames
// them only once all were written; if any write fails every temporary is removed, every old file
// is left untouched and the error is WriteFailed. Before the renames each existing target gets a
// backup under the same temporary naming (a hard link, or a copy where links are not supported):
// if a rename fails, the outputs already renamed get their old files back (or are removed, if new)
// and the error names the output that failed; on success the backups are removed. A target is
// never missing in between. A replaced file gets a new inode: its other hard links and its owner
// are not kept.
// While temporaries exist, SIGINT, SIGTERM and SIGHUP (unless ignored, as under nohup) remove them
// before the signal's previous action runs; temporaries left by a killed run (SIGKILL, power
// loss: their pid is gone) are removed by the next write to the same output.
class OutputSet {
  public:
    // `inputs`: files the run reads (empty paths are skipped); no output may replace one.
    explicit OutputSet(std::vector<std::string> inputs = {});
    // The bytes are not copied: they must stay alive until write() returns. `what` names the
    // output in messages ("-o", "--svg").
    void add(const std::string& path, const void* data, size_t size, const std::string& what = "output");
    void add(const std::string& path, const std::string& text, const std::string& what = "output");
    void add(const std::string& path, std::string&& text, const std::string& what = "output") = delete; // would dangle
    // Validation only (run it before a long bake, so a bad path fails in a second, not an hour).
    Error check() const;
    Error write();

    struct Target; // an output path resolved (outputs.cpp)

  private:
    struct Output {
        std::string path, what;
        const void* data = nullptr;
        size_t size = 0;
    };
    std::vector<std::string> inputs_;
    std::vector<Output> outputs_;
    Error resolveOutputs(std::vector<Target>* targets) const;
};

// Test seam: while set, OutputSet::write moves files (into place, and back on a rollback) with
// this instead of std::rename, so a test can make one rename fail; nullptr restores std::rename.
using RenameFunction = int (*)(const char* from, const char* to);
void setOutputRenameForTesting(RenameFunction rename);

// One output, no inputs: OutputSet semantics (a reader never sees a partial file).
Error writeFileAtomic(const std::string& path, const void* data, size_t size);
Error writeFileAtomic(const std::string& path, const std::string& text);

// ---------------------------------------------------------------------------------------------
// Memory budget (memory.cpp)

// Caps this process's address space (setrlimit RLIMIT_AS) at `bytes`; 0 lifts the cap (up to the
// hard limit). Allocations beyond it fail, and every pipeline entry (importLevel, bakeLevel,
// roadmapFromFootprint, bakeTrimsFile) turns that into ErrorCode::OutOfMemory naming the file and
// the budget instead of letting the kernel kill the machine's other work. Recommended for tools:
// recommendedMemoryBudget(), 80% of physical memory. The cap is on address space, not resident
// memory: each worker thread reserves some, so budgets below ~1 GB can fail early.
Error setMemoryBudget(uint64_t bytes);
uint64_t memoryBudget(); // 0: none set
uint64_t recommendedMemoryBudget();
// The OutOfMemory error for `file` (the pipelines' std::bad_alloc handler).
Error outOfMemoryError(const std::string& file);

// Stages and Assimp turn exceptions into errors ending in what() (the stages' "geometry kernel
// failure: ", Assimp's "cannot import mesh: "); one that was a std::bad_alloc becomes
// outOfMemoryError(file). Others pass unchanged.
Error outOfMemoryIfExhausted(const std::string& file, Error error);

// Runs `work` (returning Error); a std::bad_alloc from it becomes outOfMemoryError(file).
template <class Work>
Error catchOutOfMemory(const std::string& file, Work&& work) {
    try {
        return outOfMemoryIfExhausted(file, work());
    } catch (const std::bad_alloc&) {
        return outOfMemoryError(file);
    }
}

uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = 1469598103934665603ull);
const char* bakerVersion();

} // namespace clearway::bake
