// What cw-bench's sources share: each subcommand's arguments and entry point, and the report and
// clock helpers. The Recast/Detour peer and the OBJ reader live in tools/bench/common.
#pragma once

#include <clearway/bake.h>
#include <clearway/eval.h>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clearway::bench {

// recast-area (recast_area.cpp): clearway's eroded walkable area next to a Recast navmesh's.
struct AreaArgs {
    std::string mesh_path, footprint_path;
    double cell_size = 0.1, radius = 0.6;
    bool json = false;
};
int runRecastArea(const AreaArgs& args);

// bake (bake_bench.cpp): CPU time per stage, asset bytes and peak memory, every measurement in a
// fresh process (child.cpp, measure.cpp).
struct BenchArgs {
    std::vector<std::string> meshes;
    std::vector<size_t> boxes{1000, 10000, 100000};
    uint64_t seed = 1;
    int runs = 3;
    double cell_size = 0.3, max_step = 0.9;
    double fine_cell_size = 0.1; // Recast again at voxels nearer clearway's centimetre accuracy
    bool json = false;
};
int runBake(const BenchArgs& args);

// child (child.cpp): one measurement, printed as one flat JSON object of numbers.
struct ChildArgs {
    std::string kind, target;
    uint64_t seed = 1;
    double max_step = 0.9, cell_size = 0.3;
    std::string write; // boxes: also write the asset here (byte comparisons between builds)
};
int runChild(const ChildArgs& args);

// query (query_bench.cpp, query_report.cpp): findPath next to Detour on the same pairs.
struct QueryArgs {
    std::vector<std::string> meshes;
    size_t pairs = 10000;
    uint64_t seed = 1;
    double radius = 0.6;
    double cell_size = 0.3, max_step = 0.9;
    double step = 0.05;     // metrics: clearance sample spacing
    int repeats = 3;        // timed runs per query (the fastest counts)
    double ray_length = 20; // raycast / moveAlongSurface: longest ray, metres
    bool json = false;
};
int runQuery(const QueryArgs& args);

// The subcommands' options (commands.cpp).
CLI::App* addRecastAreaCommand(CLI::App& app, AreaArgs& args);
CLI::App* addBakeCommand(CLI::App& app, BenchArgs& args);
CLI::App* addQueryCommand(CLI::App& app, QueryArgs& args);
CLI::App* addChildCommand(CLI::App& app, ChildArgs& args);

// ----- report helpers (report.cpp) -----

// A table cell: "-" when not measured, "NaN" when not finite.
std::string show(std::optional<double> v, const char* fmt = "%.3f");
// "ok", "miss" or "-" (not measured) for a value that should stay at or below its target.
const char* verdict(double value, double target);
// The file name without folders and extension: a table's row label.
std::string baseName(const std::string& path);
// Logs go to stderr: stdout carries only the table or the JSON object.
void setupLogger();

// ----- clocks (report.cpp) -----

double cpuSeconds(); // user + sys of this process
double wallSeconds();
// This process's own peak RSS (KiB) since exec: a cross-check of ru_maxrss, which also counts
// the pages a forked child shares with its parent before exec.
double peakRssKib();

// CPU seconds (user + sys) to build, then destroy, CGAL's Segment_Delaunay_graph_2 over `walls`
// exactly as the roadmap bake's medial axis does (same traits, points in Morton order, then
// segments), without clearway's checks or medial-axis extraction: the floor of the voronoi stage.
// Walls must be on the grid and crossing-free. `segment_sites` (optional) receives the number of
// segments CGAL accepted. (bare_voronoi.cpp) Called qualified, bench::, as bake.h may still declare
// a namesake in clearway::bake that argument-dependent lookup would find too.
double bareSegmentDelaunaySeconds(const std::vector<bake::WallSegment>& walls, double grid_spacing,
                                  size_t* segment_sites = nullptr);

} // namespace clearway::bench
