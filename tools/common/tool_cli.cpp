// The shared tool behaviour declared in clearway/tool_cli.h: parsing, exit codes, logging, the
// progress line and --if-changed.
#include <clearway/tool_cli.h>
#include <clearway/motion.h>
#include <clearway/runtime.h>
#include <clearway/preview/json_writer.h>
#include <clearway/preview/svg_writer.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>


#ifdef CLEARWAY_JEMALLOC
// jemalloc reads this at start-up (tools/common/CMakeLists.txt): freed pages go back to the system
// within a second, and lazily purged ones at once, so a long bake's peak memory stays where
// glibc's is; a level baked in a few milliseconds never waits for either.
extern "C" {
const char* malloc_conf = "dirty_decay_ms:1000,muzzy_decay_ms:0";
}
#endif

namespace clearway::cli {

void addCommonFlags(CLI::App& app, CommonFlags& flags) {
    app.add_flag("-v,--verbose", flags.verbose, "Log every stage (debug level) to stderr");
    app.add_flag("-q,--quiet", flags.quiet, "Log only errors; no summary line, no progress bar");
    app.add_flag(
        "--json", flags.json,
        "Print one JSON object on stdout instead of the human summary (errors too: {\"error\": ...})");
    app.set_version_flag("--version", std::string("clearway ") + bake::bakerVersion());
    flags.max_memory = bake::recommendedMemoryBudget();
    app.add_option_function<std::string>(
           "--max-memory",
           [&flags](const std::string& text) {
               if (!parseByteSize(text, &flags.max_memory))
                   throw CLI::ValidationError("--max-memory", "expected a size such as 4G, 512M or 0 (got '" + text + "')");
           },
           "Memory the run may use (4G, 512M, ...; 0: no limit). Default: 80% of physical memory. Past "
           "it the run ends in an out-of-memory error (exit 3), not the system's OOM killer")
        ->type_name("SIZE");
}

bool parseByteSize(const std::string& text, uint64_t* bytes) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !std::isfinite(value) || value < 0) return false;
    const std::string unit = end;
    const double scale = unit.empty() || unit == "B"   ? 1.0
                         : unit == "K" || unit == "KB" ? 1024.0
                         : unit == "M" || unit == "MB" ? 1024.0 * 1024
                         : unit == "G" || unit == "GB" ? 1024.0 * 1024 * 1024
                                                       : -1;
    if (scale < 0 || value * scale >= 1.8e19) return false;
    *bytes = uint64_t(value * scale);
    return true;
}

void addIfChangedFlag(CLI::App& app, CommonFlags& flags) {
    app.add_flag("--if-changed", flags.if_changed,
                 "Skip the bake (exit 0) when the output already records this input's hash, these "
                 "options and this baker version");
}

namespace {
std::string baseName(const char* path) {
    const char* slash = std::strrchr(path, '/');
    return slash ? slash + 1 : path;
}
} // namespace

int parse(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
        // An empty -o would write nothing and still report success.
        if (const CLI::Option* out = app.get_option_no_throw("--output"); out && out->count() > 0 &&
                                                                         out->as<std::string>().empty())
            throw CLI::ValidationError("--output", "must name a file (got an empty path)");
        return -1;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e); // --help, --version: print, exit 0
        const std::string tool = argc > 0 ? baseName(argv[0]) : app.get_name();
        std::fprintf(stderr, "%s: error: %s\nRun with --help for more information.\n", tool.c_str(),
                     e.what());
        for (int i = 1; i < argc; ++i)
            if (std::strcmp(argv[i], "--json") == 0) {
                std::printf(
                    "{\"error\": {\"code\": \"InvalidOption\", \"exit_code\": %d, \"message\": %s}}\n",
                    kExitBadInput, preview::jsonString(e.what()).c_str());
                break;
            }
        return kExitBadInput;
    }
}

// ----- progress line -----

struct SpdlogContext::Progress {
    std::mutex mutex;
    std::condition_variable wake;
    std::thread thread;
    bool stop = false, shown = false;
    std::string tool, path, label, latest; // label: the path without its folders
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    unsigned tick = 0;

    static size_t terminalWidth() {
        winsize size{};
        return ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 20 ? size.ws_col : 80;
    }
    // Caller holds the mutex.
    void erase() {
        if (!shown) return;
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
        shown = false;
    }
    void draw() {
        constexpr int kWidth = 24, kBlock = 6;
        const int span = kWidth - kBlock, at = int(tick++ % unsigned(2 * span));
        const int left = at <= span ? at : 2 * span - at;
        std::string bar(kWidth, ' ');
        bar.replace(size_t(left), kBlock, kBlock, '=');
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        char elapsed[32];
        std::snprintf(elapsed, sizeof elapsed, "%.1f s", seconds);
        std::string line = tool + ": " + label + " [" + bar + "] " + elapsed;
        if (!latest.empty()) line += "  " + latest;
        const size_t width = terminalWidth() - 1;
        if (line.size() > width) line.resize(width);
        std::fputs(("\r\033[K" + line).c_str(), stderr);
        std::fflush(stderr);
        shown = true;
    }
        // Seconds before the bar appears: CLEARWAY_PROGRESS_DELAY (0 and up), else 1. Tests set 0, so
    // they need no bake that is slow enough on every machine.
    static std::chrono::milliseconds delay() {
        const char* text = std::getenv("CLEARWAY_PROGRESS_DELAY");
        char* end = nullptr;
        const double seconds = text ? std::strtod(text, &end) : 1.0;
        if (!text || end == text || *end != '\0' || !(seconds >= 0 && seconds <= 3600))
            return std::chrono::milliseconds(1000);
        return std::chrono::milliseconds(long(seconds * 1000));
    }
    void run() {
        std::unique_lock<std::mutex> lock(mutex);
        // Quick bakes never show a bar.
        if (wake.wait_for(lock, delay(), [this] { return stop; })) return;
        while (!stop) {
            draw();
            wake.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop; });
        }
        erase();
    }
};

SpdlogContext::SpdlogContext(const std::string& tool) : tool_(tool), logger_(spdlog::stderr_color_mt(tool)) {
    logger_->set_pattern("%n: %^%l%$: %v");
}

SpdlogContext::~SpdlogContext() {
    endProgress();
}

void SpdlogContext::configure(const CommonFlags& flags) {
    setVerbosity(flags.verbose, flags.quiet);
    json_ = flags.json;
    if (bake::Error e = bake::setMemoryBudget(flags.max_memory))
        log(bake::LogLevel::Warn, "--max-memory: " + e.message + " (running without a memory budget)");
}

void SpdlogContext::setVerbosity(bool verbose, bool quiet) {
    quiet_ = quiet;
    logger_->set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);
}

void SpdlogContext::log(bake::LogLevel level, const std::string& message) {
    const spdlog::level::level_enum spd = level == bake::LogLevel::Debug  ? spdlog::level::debug
                                          : level == bake::LogLevel::Info ? spdlog::level::info
                                          : level == bake::LogLevel::Warn ? spdlog::level::warn
                                                                          : spdlog::level::err;
    std::unique_lock<std::mutex> lock;
    if (progress_) {
        lock = std::unique_lock<std::mutex>(progress_->mutex);
        // Even unprinted debug messages name the current stage; drop the "PATH: " they start with.
        const std::string& path = progress_->path;
        progress_->latest =
            message.compare(0, path.size() + 2, path + ": ") == 0 ? message.substr(path.size() + 2) : message;
        if (logger_->should_log(spd)) progress_->erase(); // the next tick redraws it below
    }
    logger_->log(spd, message);
}

void SpdlogContext::beginProgress(const std::string& label) {
    endProgress();
    // Not when piped or redirected (CI logs, --json consumers) and not when asked to be quiet.
    const char* term = std::getenv("TERM");
    if (quiet_ || !isatty(STDERR_FILENO) || (term && std::strcmp(term, "dumb") == 0)) return;
    progress_ = std::make_unique<Progress>();
    progress_->tool = tool_;
    progress_->path = label;
    const size_t slash = label.rfind('/');
    progress_->label = slash == std::string::npos ? label : label.substr(slash + 1);
    progress_->thread = std::thread([p = progress_.get()] { p->run(); });
}

void SpdlogContext::endProgress() {
    if (!progress_) return;
    {
        std::lock_guard<std::mutex> lock(progress_->mutex);
        progress_->stop = true;
    }
    progress_->wake.notify_all();
    progress_->thread.join();
    progress_.reset();
}

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CLEARWAY_CRASH_REPORT 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                                   \
    __has_feature(undefined_behavior_sanitizer)
#define CLEARWAY_CRASH_REPORT 0
#endif
#endif
#ifndef CLEARWAY_CRASH_REPORT
#define CLEARWAY_CRASH_REPORT 1
#endif

// Formatted before the work starts: a signal handler may only write and exit.
char g_crash_text[2048];
char g_crash_json[2304];
size_t g_crash_text_size = 0, g_crash_json_size = 0;

void reportCrash(int signal_number) {
    // The signal's name is not needed: any of them means the bake cannot finish.
    (void)signal_number;
    if (g_crash_text_size) (void)!write(STDERR_FILENO, g_crash_text, g_crash_text_size);
    if (g_crash_json_size) (void)!write(STDOUT_FILENO, g_crash_json, g_crash_json_size);
    _exit(3);
}

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

} // namespace

bake::Error runWithProgress(SpdlogContext& log, const std::string& label,
                            const std::function<bake::Error()>& work) {
#if CLEARWAY_CRASH_REPORT
    const std::string message = label +
                                ": the bake crashed and wrote nothing. A damaged mesh file can crash Assimp, "
                                "the mesh importer; otherwise please report this input";
    std::snprintf(g_crash_text, sizeof g_crash_text, "\n%s: error: %s\n", log.tool().c_str(),
                  message.c_str());
    g_crash_text_size = std::strlen(g_crash_text);
    g_crash_json_size = 0;
    if (log.json()) {
        std::snprintf(g_crash_json, sizeof g_crash_json,
                      "{\"error\": {\"code\": \"Internal\", \"exit_code\": 3, \"message\": %s}}\n",
                      preview::jsonString(message).c_str());
        g_crash_json_size = std::strlen(g_crash_json);
    }
    struct sigaction action {
    }, previous[std::size(kCrashSignals)];
    action.sa_handler = reportCrash;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kCrashSignals); ++i)
        sigaction(kCrashSignals[i], &action, &previous[i]);
#endif
    log.beginProgress(label);
    bake::Error error = work();
    log.endProgress();
#if CLEARWAY_CRASH_REPORT
    for (size_t i = 0; i < std::size(kCrashSignals); ++i)
        sigaction(kCrashSignals[i], &previous[i], nullptr);
#endif
    return error;
}

// ----- errors -----

const char* errorCodeName(bake::ErrorCode code) {
    switch (code) {
    case bake::ErrorCode::None:
        return "None";
    case bake::ErrorCode::InvalidOption:
        return "InvalidOption";
    case bake::ErrorCode::FileNotFound:
        return "FileNotFound";
    case bake::ErrorCode::ReadFailed:
        return "ReadFailed";
    case bake::ErrorCode::EmptyMesh:
        return "EmptyMesh";
    case bake::ErrorCode::NonFiniteVertex:
        return "NonFiniteVertex";
    case bake::ErrorCode::NoWalkableSurface:
        return "NoWalkableSurface";
    case bake::ErrorCode::WriteFailed:
        return "WriteFailed";
    case bake::ErrorCode::Internal:
        return "Internal";
    case bake::ErrorCode::OutOfMemory:
        return "OutOfMemory";
    }
    return "Internal";
}

std::string jsonFixed(std::optional<double> v, int decimals) {
    if (!v || !std::isfinite(*v)) return "null";
    return preview::formatNumber(*v, {preview::NumberFormat::Fixed, decimals});
}

int fail(SpdlogContext& log, const bake::Error& error) {
    log.endProgress();
    log.logger().error(error.message);
    const int code = bake::exitCodeFor(error);
    if (log.json())
        std::printf("{\"error\": {\"code\": \"%s\", \"exit_code\": %d, \"message\": %s}}\n",
                    errorCodeName(error.code), code, preview::jsonString(error.message).c_str());
    return code;
}

// ----- --if-changed -----

namespace {

bool readBytes(const std::string& path, std::vector<char>* out) {
    std::ifstream stream(path, std::ios::binary);
    if (!stream) return false;
    out->assign(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
    return !out->empty();
}

// 8-byte aligned copy: the runtime loaders read doubles in place.
bool readAligned(const std::string& path, std::vector<uint64_t>* out, size_t* size) {
    std::vector<char> bytes;
    if (!readBytes(path, &bytes)) return false;
    out->assign((bytes.size() + 7) / 8, 0);
    std::memcpy(out->data(), bytes.data(), bytes.size());
    *size = bytes.size();
    return true;
}

uint64_t hashOf(const std::string& text) {
    return bake::fnv1a64(text.data(), text.size());
}

// The mesh's input hash exactly as the importer records it: FNV-1a of the file's bytes.
bool meshHash(const std::string& path, uint64_t* out) {
    std::vector<char> bytes;
    if (!readBytes(path, &bytes)) return false;
    *out = bake::fnv1a64(bytes.data(), bytes.size());
    return true;
}

bool exists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

// The designer sidecar's bytes fold into the input hash exactly as the bake records it; a sidecar
// that does not parse gives no stamp (the bake reports it).
bool foldEdits(const std::string& mesh, const std::string& edits_path, bool use_edits, uint64_t* hash) {
    const std::string path = bake::editsPathFor(mesh, edits_path, use_edits);
    if (path.empty()) return true;
    bake::LevelEdits edits;
    if (bake::loadEdits(path, &edits)) return false;
    *hash = bake::inputHashWithEdits(*hash, edits);
    return true;
}

} // namespace

bool readAssetStamp(const std::string& path, AssetStamp* out) {
    std::vector<uint64_t> words;
    size_t size = 0;
    if (!readAligned(path, &words, &size) || size < 8) return false;
    const char* identifier = reinterpret_cast<const char*>(words.data()) + 4;
    if (std::memcmp(identifier, "CWFP", 4) == 0) {
        FootprintView view;
        FootprintInfo info;
        if (loadFootprint(words.data(), size, &view) != Status::Ok ||
            footprintInfo(view, &info) != Status::Ok)
            return false;
        *out = {info.input_hash, info.options_hash, info.baker_version};
        return true;
    }
    if (std::memcmp(identifier, "CWRM", 4) == 0) {
        RoadmapView view;
        RoadmapInfo info;
        if (loadRoadmap(words.data(), size, &view) != Status::Ok || roadmapInfo(view, &info) != Status::Ok)
            return false;
        *out = {info.input_hash, info.options_hash, info.baker_version};
        return true;
    }
    if (std::memcmp(identifier, "CWTT", 4) == 0) {
        trims::TableView view;
        trims::TableInfo info;
        if (trims::loadTable(words.data(), size, &view) != Status::Ok ||
            trims::tableInfo(view, &info) != Status::Ok)
            return false;
        *out = {info.input_hash, info.options_hash, info.baker_version};
        return true;
    }
    return false;
}

namespace {

// The import options a bake of the mesh at `path` records: the up axis and scale the file declares
// where no --up / --scale was given (read from the file only then).
bool optionsForMesh(const std::string& path, bake::ImportOptions options, bake::ImportOptions* out) {
    if (!options.up_given || !options.scale_given) {
        bake::ImportUnits units;
        if (bake::unitsOfFile(path, options, &units)) return false;
        options.up = units.up, options.scale = units.scale;
    }
    *out = options;
    return true;
}

} // namespace

bool meshRoadmapStamp(const bake::RoadmapRequest& request, AssetStamp* out) {
    if (!meshHash(request.input_path, &out->input_hash)) return false;
    // The options hash is the same for every tile of a world (cw-stitch checks that), so a tile
    // asset is up to date only if it also is the tile asked for: else no stamp, and it bakes.
    if (request.tile_size != 0) {
        bake::Roadmap existing;
        if (bake::readRoadmapFile(request.output_path, &existing)) return false;
        const bake::RoadmapTile& tile = existing.tile;
        if (tile.size != request.tile_size || tile.i != request.tile_i || tile.j != request.tile_j ||
            (request.tile_margin >= 0 && tile.margin != request.tile_margin))
            return false;
    }
    if (!foldEdits(request.input_path, request.edits_path, request.use_edits, &out->input_hash)) return false;
    bake::ImportOptions options;
    if (!optionsForMesh(request.input_path, request.import_options, &options)) return false;
    out->options_hash = bake::roadmapOptionsHash(options, request.roadmap_options);
    out->baker_version = bake::bakerVersion();
    return true;
}

bool footprintRoadmapStamp(const bake::RoadmapRequest& request, AssetStamp* out) {
    // A roadmap records its footprint's input (the mesh) and the footprint's import options.
    bake::Footprint footprint;
    if (bake::readFootprintFile(request.input_path, &footprint)) return false;
    out->input_hash = footprint.input_hash;
    out->options_hash = bake::roadmapOptionsHash(footprint.options, request.roadmap_options);
    out->baker_version = bake::bakerVersion();
    return true;
}

bool importStamp(const bake::ImportRequest& request, AssetStamp* out) {
    if (!meshHash(request.mesh_path, &out->input_hash)) return false;
    if (!foldEdits(request.mesh_path, request.edits_path, request.use_edits, &out->input_hash)) return false;
    bake::ImportOptions options;
    if (!optionsForMesh(request.mesh_path, request.options, &options)) return false;
    out->options_hash = hashOf(bake::canonicalString(options));
    out->baker_version = bake::bakerVersion();
    return true;
}

bool trimsStamp(const bake::TrimsRequest& request, AssetStamp* out) {
    bake::VehicleModel model;
    if (bake::loadVehicleModel(request.model_path, &model, &out->input_hash)) return false;
    out->options_hash = hashOf(bake::canonicalString(model));
    out->baker_version = bake::bakerVersion();
    return true;
}

std::string rebakeReason(const std::string& output, const AssetStamp& expected,
                         const std::vector<std::string>& also) {
    if (!exists(output)) return "no output yet";
    AssetStamp stamp;
    if (!readAssetStamp(output, &stamp)) return "the existing output does not load as an asset";
    if (stamp.baker_version != expected.baker_version)
        return "baked by clearway " + stamp.baker_version + ", this is " + expected.baker_version;
    if (stamp.input_hash != expected.input_hash) return "the input changed";
    if (stamp.options_hash != expected.options_hash) return "the options changed";
    for (const std::string& path : also)
        if (!path.empty() && !exists(path)) return path + " is missing";
    return "";
}

bool skipIfUpToDate(SpdlogContext& log, const CommonFlags& flags, const std::string& output, bool have_stamp,
                    const AssetStamp& expected, const std::vector<std::string>& also) {
    if (!have_stamp) return false; // unreadable input: the bake reports it
    const std::string reason = rebakeReason(output, expected, also);
    if (!reason.empty()) {
        log.log(bake::LogLevel::Info, output + ": " + reason + ", baking");
        return false;
    }
    const char* why = "same input, options and baker version";
    if (flags.json)
        std::printf("{\"output\": %s, \"skipped\": true, \"reason\": \"%s\"}\n",
                    preview::jsonString(output).c_str(), why);
    else if (!flags.quiet)
        std::printf("%s: up to date (%s), skipped\n", output.c_str(), why);
    return true;
}

// ----- shared options and reports -----

namespace {

constexpr const char* kThreadsHelp =
    "Threads the bake may use (0: every core); the output is byte-identical for any value";

// --threads belongs to the import and to the roadmap options; cw-bake has both, and one flag
// sets the two (CLI11 allows each name once, so the second target rides on the first option).
void addThreadsOption(CLI::App& app, unsigned& target) {
    if (CLI::Option* existing = app.get_option_no_throw("--threads")) {
        existing->each([&target](const std::string& value) {
            try {
                target = unsigned(std::stoul(value));
            } catch (const std::exception&) {
                // Not a number: the option's own conversion reports it.
            }
        });
        return;
    }
    app.add_option("--threads", target, kThreadsHelp)->check(CLI::Range(0u, 4096u))->capture_default_str();
}

} // namespace

void addImportOptions(CLI::App& app, bake::ImportOptions& o) {
    // Given, they override what the file declares (an FBX's UpAxis and UnitScaleFactor, glTF's Y up
    // in metres); the summary says which was used and why.
    app.add_option_function<std::string>(
           "--up",
           [&o](const std::string& v) {
               o.up = v == "z" || v == "Z" ? bake::UpAxis::Z : bake::UpAxis::Y;
               o.up_given = true;
           },
           "Up axis of the mesh: y (glTF, most OBJ/FBX exports, Recast) or z (CAD, Z-up engines); Y and Z "
           "too [default: the file's declared up axis (FBX, glTF), else y]")
        ->check(CLI::IsMember({"y", "z", "Y", "Z"}));
    // Ranges are checked by bake::validate, whose messages are clearer than CLI11's.
    app.add_option_function<double>(
        "--scale",
        [&o](double v) {
            o.scale = v;
            o.scale_given = true;
        },
        "Mesh units to metres, e.g. 0.01 for centimetres [default: the file's declared unit (FBX's "
        "UnitScaleFactor; glTF: metres), else 1]");
    app.add_option("--agent-height", o.agent_height, "Metres of free space an agent needs above the ground")
        ->capture_default_str();
    app.add_option("--max-slope", o.max_slope_deg, "Steepest walkable surface, degrees from horizontal")
        ->capture_default_str();
    app.add_option("--max-step", o.max_step,
                   "Metres: ledges, stairs and obstacles up to this height are stepped over")
        ->capture_default_str();
    app.add_option("--epsilon", o.epsilon,
                   "Metres: walls are simplified no further than this from the mesh's exact boundary")
        ->capture_default_str();
    addThreadsOption(app, o.threads);
}

void addRoadmapOptions(CLI::App& app, bake::RoadmapOptions& o) {
    app.add_option(
           "--min-clearance", o.min_clearance,
           "Metres: drop medial-axis edges narrower than this; 0 keeps every corridor so any agent radius "
           "can be queried at run time")
        ->capture_default_str();
    app.add_option("--arc-epsilon", o.epsilon, "Metres: parabolic medial-axis arcs become chords within this")
        ->capture_default_str();
    app.add_flag("!--no-merge", o.merge_chains,
                 "Keep every medial-axis vertex (no straightening of degree-2 chains)");
    addThreadsOption(app, o.threads);
}

void addEditsOptions(CLI::App& app, std::string& edits_path, bool& use_edits) {
    auto* edits =
        app.add_option("--edits", edits_path,
                       "Designer edits to apply (obstacles, weighted areas, manual nodes and edges) "
                       "[default: <mesh without extension>.cwedit when it exists]");
    app.add_flag("!--no-edits", use_edits, "Ignore every designer edits file, even the one next to the mesh")
        ->excludes(edits);
}

void addTileOptions(CLI::App& app, bake::RoadmapRequest& r) {
    CLI::Option* size =
        app.add_option("--tile-size", r.tile_size,
                       "World units: bake one square tile of this size (with --tile) instead of the "
                       "whole level; cw-stitch joins the tiles");
    app.add_option_function<std::string>(
           "--tile",
           [&r](const std::string& text) {
               long long i = 0, j = 0;
               char tail = 0;
               if (std::sscanf(text.c_str(), "%lld,%lld%c", &i, &j, &tail) != 2 || i < INT32_MIN ||
                   i > INT32_MAX || j < INT32_MIN || j > INT32_MAX)
                   throw CLI::ValidationError("--tile", "must be I,J (two integers), got '" + text + "'");
               r.tile_i = int32_t(i), r.tile_j = int32_t(j);
           },
           "I,J: the tile covering [I*T, (I+1)*T) x [J*T, (J+1)*T) in the world's horizontal plane (x and z "
           "for --up y, x and y for --up z)")
        ->needs(size);
    app.add_option(
           "--tile-margin", r.tile_margin,
           "World units of geometry read around the tile (default: a quarter of --tile-size + 10 m); the "
           "tile equals the untiled bake where the clearance is below it minus 10 m")
        ->needs(size);
}

namespace {

// The summary's second line: which up axis and scale the mesh was read with, and why.
void printUnits(const bake::ImportUnits& units) {
    if (!units.up_why.empty()) std::printf("  units: %s\n", bake::unitsText(units).c_str());
}

} // namespace

void printImportResult(const bake::ImportResult& result, const std::string& output, const CommonFlags& flags) {
    if (flags.json) {
        std::printf("%s\n", bake::footprintJson(result.footprint, result.seconds, &result.units).c_str());
    } else if (!flags.quiet) {
        const bake::FootprintStats s = bake::statsOf(result.footprint);
        std::printf("%s: %zu layers, %zu connections, %.4g m across, %.3f m2 walkable, %zu polygons, %zu holes, "
                    "%zu vertices, %.2f s\n",
                    output.c_str(), s.layers, s.connections, result.size.across, s.walkable_area, s.polygons,
                    s.holes, s.vertices, result.seconds);
        printUnits(result.units);
    }
}

void printRoadmapResult(const bake::RoadmapResult& result, const std::string& output,
                        const CommonFlags& flags) {
    if (flags.json) {
        std::printf("%s\n", bake::roadmapJson(result).c_str());
    } else if (!flags.quiet) {
        std::printf("%s: %zu layers, %.4g m across, %.4g m2 walkable, %zu vertices, %zu edges (%zu arcs), %zu "
                    "blends, %zu bytes, %.2f s\n",
                    output.c_str(), result.stats.layers, result.size.across, result.size.walkable_area,
                    result.stats.vertices, result.stats.edges, result.stats.arcs, result.stats.blends,
                    result.bytes, result.seconds_total);
        printUnits(result.units);
    }
}

} // namespace clearway::cli
