// Command-line glue shared by the clearway tools (CLI11 + spdlog). Only tools include this;
// the bake library itself logs through LogContext and never touches the terminal.
//
// A tool's main(), in this order:
//   CLI::App app{"What it does.\n" + std::string(cli::kExitCodesHelp)};
//   cli::CommonFlags flags;            cli::addCommonFlags(app, flags);   // --json -v -q --version
//   CLEARWAY_CLI_PARSE(app, argc, argv);                                  // bad option -> exit 2
//   cli::SpdlogContext log("cw-x");    log.configure(flags);
//   if (bake::Error e = cli::runWithProgress(log, input, [&] { return bake::x(request, &result, log); }))
//       return cli::fail(log, e);                                         // 2 / 3 / 4, JSON with --json
#pragma once

#include <clearway/bake.h>
#include <clearway/eval.h>
#include <clearway/preview.h>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clearway::cli {

// The documented exit codes of every tool (README "Exit codes"); bake::exitCodeFor maps errors
// onto them. 1 is never returned on purpose.
enum ExitCode : int {
    kExitOk = 0,
    kExitBadInput = 2,    // missing/unreadable input, invalid mesh or model, bad or unknown option
    kExitBakeFailure = 3, // a geometric invariant failed: a bug or a mesh the kernel cannot handle
    kExitIoError = 4,     // an output cannot be written (nothing is left behind)
};
// For the end of each tool's --help text.
inline constexpr const char* kExitCodesHelp = "Exit codes: 0 ok, 2 bad input, 3 bake failure, 4 I/O error.";

struct CommonFlags {
    bool verbose = false;
    bool quiet = false;
    bool json = false;
    bool if_changed = false; // only tools that call addIfChangedFlag
    uint64_t max_memory = 0; // --max-memory in bytes (0: no limit); parse() sets the default
};

// -v/--verbose, -q/--quiet, --json, --version (the baker version) and --max-memory (the run's
// memory budget: 80% of physical memory by default, applied by SpdlogContext::configure).
void addCommonFlags(CLI::App& app, CommonFlags& flags);
// "4G", "512M", "64K", "1000" (bytes), "0" -> bytes; false for anything else.
bool parseByteSize(const std::string& text, uint64_t* bytes);
// --if-changed for tools that write an asset: skip the bake when the output records the same
// input hash, options hash and baker version (see skipIfUpToDate).
void addIfChangedFlag(CLI::App& app, CommonFlags& flags);

// Parses the command line. Returns -1 when the tool should go on, else its exit code: 0 after
// --help or --version, 2 (bad input) for an unknown, missing or invalid option, printed as
// "TOOL: error: ..." on stderr (and as a JSON error on stdout when --json is on the line).
int parse(CLI::App& app, int argc, char** argv);
#define CLEARWAY_CLI_PARSE(app, argc, argv)                                                                  \
    do {                                                                                                     \
        const int clearway_parse_exit_ = ::clearway::cli::parse((app), (argc), (argv));                      \
        if (clearway_parse_exit_ >= 0) return clearway_parse_exit_;                                          \
    } while (0)

// LogContext backed by spdlog on stderr (stdout stays clean for --json). Owns the progress line.
class SpdlogContext final : public bake::LogContext {
  public:
    explicit SpdlogContext(const std::string& tool);
    ~SpdlogContext() override;
    // Verbosity from the flags, and --json errors in fail().
    void configure(const CommonFlags& flags);
    void setVerbosity(bool verbose, bool quiet);
    void log(bake::LogLevel level, const std::string& message) override;
    spdlog::logger& logger() { return *logger_; }
    const std::string& tool() const { return tool_; }
    bool json() const { return json_; }
    bool quiet() const { return quiet_; }

    // A progress line on stderr while a bake runs: drawn only when stderr is a terminal, the tool
    // is not --quiet and the bake is still running after a second; redrawn every 0.1 s with the
    // label (an input path is shown without its folders), the elapsed time and the latest log
    // message (the library reports stages, not fractions, so the bar is indeterminate). Log lines
    // printed meanwhile erase it first. endProgress erases it.
    void beginProgress(const std::string& label);
    void endProgress();

  private:
    struct Progress;
    std::string tool_;
    std::shared_ptr<spdlog::logger> logger_;
    std::unique_ptr<Progress> progress_;
    bool json_ = false, quiet_ = false;
};

// beginProgress(label); work(); endProgress().
// While `work` runs, a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) ends the tool with exit
// code 3 and one error line naming `label` instead of a bare signal: Assimp, the mesh importer,
// can crash on damaged files (the importer fuzzer found such binary PLYs in Debian's Assimp
// 5.2.5). Outputs are written atomically, so nothing partial is left. Not installed in sanitizer
// builds, whose own reports are more useful there.
bake::Error runWithProgress(SpdlogContext& log, const std::string& label,
                            const std::function<bake::Error()>& work);

// Logs the error (it names the file and the problem), prints {"error": {...}} on stdout when the
// context was configured with --json, and returns the documented exit code.
int fail(SpdlogContext& log, const bake::Error& error);

// "InvalidOption", "FileNotFound", ... (the JSON error's "code").
const char* errorCodeName(bake::ErrorCode code);
// A JSON number with `decimals` digits after the point ("%.Nf", as the benchmark tables print
// them); null when missing or not finite. preview::jsonNumber is the "%.Ng" form.
std::string jsonFixed(std::optional<double> v, int decimals);

// ----- --if-changed -----

// What an asset records about how it was made.
struct AssetStamp {
    uint64_t input_hash = 0, options_hash = 0;
    std::string baker_version;
};
// The stamp of an existing footprint (.cwfp), roadmap (.cwrm) or trim table (.cwtt), by its
// identifier; false when the file is missing or does not verify.
bool readAssetStamp(const std::string& path, AssetStamp* out);
// The stamp a bake of the request would record (this baker's version). False when the input
// cannot be read: the tool then bakes and reports the error the usual way.
bool meshRoadmapStamp(const bake::RoadmapRequest& request, AssetStamp* out);      // cw-bake
bool footprintRoadmapStamp(const bake::RoadmapRequest& request, AssetStamp* out); // cw-roadmap
bool importStamp(const bake::ImportRequest& request, AssetStamp* out);            // cw-import
bool trimsStamp(const bake::TrimsRequest& request, AssetStamp* out);              // cw-trims
// Empty when `output` holds an asset with exactly `expected` and every path in `also` exists
// (e.g. the --svg preview), else why the output must be baked again.
std::string rebakeReason(const std::string& output, const AssetStamp& expected,
                         const std::vector<std::string>& also = {});
// For --if-changed: true (and says so: a line, or {"output", "skipped": true, "reason"} with --json)
// when the output is up to date, so the tool returns 0 without baking; otherwise logs why it bakes.
bool skipIfUpToDate(SpdlogContext& log, const CommonFlags& flags, const std::string& output, bool have_stamp,
                    const AssetStamp& expected, const std::vector<std::string>& also = {});
// The whole --if-changed step of a tool: false without --if-changed; else skipIfUpToDate with the
// stamp `stamp_of` computes for the request (one of the *Stamp functions above).
template <typename Request>
bool skipUnchanged(SpdlogContext& log, const CommonFlags& flags, const Request& request,
                   bool (*stamp_of)(const Request&, AssetStamp*), const std::vector<std::string>& also = {}) {
    if (!flags.if_changed) return false;
    AssetStamp stamp;
    const bool have = stamp_of(request, &stamp);
    return skipIfUpToDate(log, flags, request.output_path, have, stamp, also);
}

// ----- options shared by several tools -----

// The options shared by every tool that imports a mesh (cw-import, cw-bake, ...).
void addImportOptions(CLI::App& app, bake::ImportOptions& o);
void addRoadmapOptions(CLI::App& app, bake::RoadmapOptions& o);
// cw-bake --tile-size T --tile I,J [--tile-margin M]: bake one tile (README "Tiled worlds").
void addTileOptions(CLI::App& app, bake::RoadmapRequest& request);
// --edits F / --no-edits (cw-import, cw-bake): which designer sidecar to read (README "Designer edits").
void addEditsOptions(CLI::App& app, std::string& edits_path, bool& use_edits);

// cw-import's report: one line (and the units line), or --json.
void printImportResult(const bake::ImportResult& result, const std::string& output, const CommonFlags& flags);
// The one-line (or --json) report of a roadmap bake, shared by cw-roadmap and cw-bake; a mesh
// bake (cw-bake) adds a line with the up axis and scale used.
void printRoadmapResult(const bake::RoadmapResult& result, const std::string& output,
                        const CommonFlags& flags);

} // namespace clearway::cli
