// Command-line glue shared by the clearway tools (CLI11 + spdlog). Only tools include this;
// the bake library itself logs through LogContext and never touches the terminal.
#pragma once

#include <clearway/bake.h>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>
#include <string>

namespace clearway::cli {

// LogContext backed by spdlog on stderr (stdout stays clean for --json).
class SpdlogContext final : public bake::LogContext {
  public:
    explicit SpdlogContext(const std::string& tool) : logger_(spdlog::stderr_color_mt(tool)) {
        logger_->set_pattern("%n: %^%l%$: %v");
    }
    void setVerbosity(bool verbose, bool quiet) {
        logger_->set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);
    }
    void log(bake::LogLevel level, const std::string& message) override {
        switch (level) {
        case bake::LogLevel::Debug:
            logger_->debug(message);
            break;
        case bake::LogLevel::Info:
            logger_->info(message);
            break;
        case bake::LogLevel::Warn:
            logger_->warn(message);
            break;
        case bake::LogLevel::Error:
            logger_->error(message);
            break;
        }
    }
    spdlog::logger& logger() { return *logger_; }

  private:
    std::shared_ptr<spdlog::logger> logger_;
};

struct CommonFlags {
    bool verbose = false;
    bool quiet = false;
    bool json = false;
};

inline void addCommonFlags(CLI::App& app, CommonFlags& flags) {
    app.add_flag("-v,--verbose", flags.verbose, "Log every stage (debug level) to stderr");
    app.add_flag("-q,--quiet", flags.quiet, "Log only errors");
    app.add_flag("--json", flags.json, "Print one JSON object on stdout instead of the human summary");
}

// The options shared by every tool that imports a mesh (cw-import, cw-bake, ...).
inline void addImportOptions(CLI::App& app, bake::ImportOptions& o) {
    app.add_option_function<std::string>(
           "--up", [&o](const std::string& v) { o.up = v == "z" ? bake::UpAxis::Z : bake::UpAxis::Y; },
           "Up axis of the mesh: y (glTF, most OBJ/FBX exports, Recast) or z (CAD, Z-up engines) [default: "
           "y]")
        ->check(CLI::IsMember({"y", "z"}));
    app.add_option("--scale", o.scale, "Mesh units to metres, e.g. 0.01 for centimetres")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
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
}

inline void addRoadmapOptions(CLI::App& app, bake::RoadmapOptions& o) {
    app.add_option(
           "--min-clearance", o.min_clearance,
           "Metres: drop medial-axis edges narrower than this; 0 keeps every corridor so any agent radius "
           "can be queried at run time")
        ->capture_default_str();
    app.add_option("--arc-epsilon", o.epsilon, "Metres: parabolic medial-axis arcs become chords within this")
        ->capture_default_str();
    app.add_flag("!--no-merge", o.merge_chains,
                 "Keep every medial-axis vertex (no straightening of degree-2 chains)");
}

// The one-line (or --json) report of a roadmap bake, shared by cw-roadmap and cw-bake.
inline void printRoadmapResult(const bake::RoadmapResult& result, const std::string& output,
                               const CommonFlags& flags) {
    if (flags.json) {
        std::printf("%s\n", bake::roadmapJson(result).c_str());
    } else if (!flags.quiet) {
        std::printf("%s: %zu layers, %zu vertices, %zu edges (%zu arcs), %zu blends, %zu bytes, %.2f s\n",
                    output.c_str(), result.stats.layers, result.stats.vertices, result.stats.edges,
                    result.stats.arcs, result.stats.blends, result.bytes, result.seconds_total);
    }
}

// Prints the error (naming file and problem) and returns the documented exit code.
inline int fail(SpdlogContext& log, const bake::Error& error) {
    log.logger().error(error.message);
    return bake::exitCodeFor(error);
}

} // namespace clearway::cli
