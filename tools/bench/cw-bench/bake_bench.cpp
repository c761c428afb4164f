// cw-bench bake: CPU time (getrusage user + sys) of the whole bake, per stage, and asset bytes,
// next to Recast (meshes) and to CGAL's bare segment Voronoi build (generated box levels).
#include "cw_bench.h"
#include "measure.h"

#include <clearway/preview/json_writer.h>
#include <clearway/tool_cli.h>

#include <spdlog/spdlog.h>

#include <cstdio>

namespace clearway::bench {

namespace {

constexpr double kSdgTarget = 1.3, kKibTarget = 1.5;
// Whole bake against Recast's defaults: the peer meshes' own targets (dungeon's exact segment
// Voronoi alone is twice Recast's whole bake), 1.0x for any other mesh; against Recast at the fine
// cell size, 1.0x everywhere.
constexpr double kFineRecastTarget = 1.0;
double recastTarget(const std::string& mesh) {
    if (mesh == "dungeon") return 4.0;
    if (mesh == "nav_test") return 1.5;
    return 1.0;
}

// The first failed measurement's exit code is the run's; every failure is logged.
struct Failures {
    int status = 0;
    bool note(const Measurement& m, const std::string& what) {
        if (m.exit_code == 0) return true;
        spdlog::error("{} failed (exit {})", what, m.exit_code);
        if (status == 0) status = m.exit_code;
        return false;
    }
};

struct MeshRow {
    std::string name;
    Measurement cw, rc, rc_fine;
    double ratio = NAN, fine_ratio = NAN, sdg_ratio = NAN, target = NAN;
};

struct BoxRow {
    size_t walls = 0;
    Measurement cw, sdg;
    double ratio = NAN, kib_per_wall = NAN, net_kib_per_wall = NAN, sdg_net_kib_per_wall = NAN;
    double marginal_kib_per_wall = NAN, sdg_marginal_kib_per_wall = NAN;
};

// What every box-level row is measured against: the process floor (libraries, runtime) and the
// same work on the smallest level (one square room, 4 walls): the code, library and allocator
// pages any bake touches, which do not grow with the level. Memory above it is what each further
// wall costs.
struct Floors {
    Measurement idle, bake, sdg;
};

std::string exactText(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

std::vector<MeshRow> measureMeshes(const BenchArgs& args, Failures& failures) {
    const std::string max_step = exactText(args.max_step), cell_size = exactText(args.cell_size),
                      fine_cell_size = exactText(args.fine_cell_size);
    std::vector<MeshRow> mesh_rows;
    for (const std::string& mesh : args.meshes) {
        MeshRow row;
        row.name = baseName(mesh);
        spdlog::info("{}: clearway bake x{}", row.name, args.runs);
        row.cw = measure({"child", "mesh", mesh, "--max-step", max_step}, args.runs);
        failures.note(row.cw, mesh + ": clearway bake");
        spdlog::info("{}: Recast solo-mesh bake x{}", row.name, args.runs);
        row.rc = measure({"child", "recast", mesh, "--cell-size", cell_size}, args.runs);
        failures.note(row.rc, mesh + ": Recast bake");
        spdlog::info("{}: Recast solo-mesh bake at {} m cells x{}", row.name, args.fine_cell_size, args.runs);
        row.rc_fine = measure({"child", "recast", mesh, "--cell-size", fine_cell_size}, args.runs);
        failures.note(row.rc_fine, mesh + ": Recast bake at the fine cell size");
        row.ratio = row.cw.cpu / row.rc.cpu;
        row.fine_ratio = row.cw.cpu / row.rc_fine.cpu;
        row.target = recastTarget(row.name);
        row.sdg_ratio = row.cw.at("sdg") / row.rc.cpu;
        mesh_rows.push_back(std::move(row));
    }
    return mesh_rows;
}

void measureBoxFloors(const BenchArgs& args, Floors* floors, Failures& failures) {
    if (args.boxes.empty()) return;
    const std::string seed = std::to_string(args.seed);
    floors->bake = measure({"child", "boxes", "4", "--seed", seed}, 1);
    failures.note(floors->bake, "boxes 4: bake");
    floors->sdg = measure({"child", "sdg", "4", "--seed", seed}, 1);
    failures.note(floors->sdg, "boxes 4: bare CGAL build");
}

std::vector<BoxRow> measureBoxes(const BenchArgs& args, const Floors& floors, Failures& failures) {
    const std::string seed = std::to_string(args.seed);
    const Measurement &idle = floors.idle, &floor_bake = floors.bake, &floor_sdg = floors.sdg;
    std::vector<BoxRow> box_rows;
    for (size_t walls : args.boxes) {
        BoxRow row;
        row.walls = walls;
        const std::string n = std::to_string(walls);
        spdlog::info("boxes {}: roadmap bake x{}", walls, args.runs);
        row.cw = measure({"child", "boxes", n, "--seed", seed}, args.runs);
        failures.note(row.cw, "boxes " + n + ": bake");
        spdlog::info("boxes {}: bare CGAL Segment_Delaunay_graph_2 x{}", walls, args.runs);
        row.sdg = measure({"child", "sdg", n, "--seed", seed}, args.runs);
        failures.note(row.sdg, "boxes " + n + ": bare CGAL build");
        row.ratio = row.cw.cpu / row.sdg.cpu;
        const double segs = row.cw.at("walls");
        if (row.cw.exit_code == 0 && segs > 0) {
            // VmHWM of each child (the bake's after pass 1), the idle process's likewise.
            row.kib_per_wall = row.cw.peak_kib / segs;
            row.net_kib_per_wall = (row.cw.peak_kib - idle.peak_kib) / segs;
            if (row.sdg.exit_code == 0) row.sdg_net_kib_per_wall = (row.sdg.peak_kib - idle.peak_kib) / segs;
            if (floor_bake.exit_code == 0)
                row.marginal_kib_per_wall = (row.cw.peak_kib - floor_bake.peak_kib) / (segs - 4);
            if (row.sdg.exit_code == 0 && floor_sdg.exit_code == 0)
                row.sdg_marginal_kib_per_wall = (row.sdg.peak_kib - floor_sdg.peak_kib) / (segs - 4);
        }
        box_rows.push_back(std::move(row));
    }
    return box_rows;
}

std::string measurementJson(const Measurement& m) {
    return m.exit_code == 0 ? m.json : std::string("null");
}

void printJson(const BenchArgs& args, const Floors& floors, const std::vector<MeshRow>& mesh_rows,
               const std::vector<BoxRow>& box_rows) {
    const Measurement& idle = floors.idle;
    auto obj = measurementJson;
    auto n = [](std::optional<double> v) { return cli::jsonFixed(v, 6); };
    std::printf("{\"runs\":%d,\"seed\":%llu,\"recast_cell_size\":%s,\"recast_fine_cell_size\":%s,"
                "\"max_step\":%s,\"idle_rss_kib\":%s,\"targets\":{\"recast_fine_ratio\":%s,\"sdg_ratio\":%s,"
                "\"kib_per_wall\":%s},\"meshes\":[",
                args.runs, static_cast<unsigned long long>(args.seed), n(args.cell_size).c_str(),
                n(args.fine_cell_size).c_str(), n(args.max_step).c_str(), n(idle.maxrss_kib).c_str(),
                preview::jsonNumber(kFineRecastTarget, 6).c_str(), preview::jsonNumber(kSdgTarget, 6).c_str(),
                preview::jsonNumber(kKibTarget, 6).c_str());
    for (size_t i = 0; i < mesh_rows.size(); ++i) {
        const MeshRow& r = mesh_rows[i];
        std::printf("%s{\"mesh\":%s,\"clearway\":%s,\"clearway_rss_kib\":%s,\"recast\":%s,\"ratio\":%s,"
                    "\"target\":%s,\"recast_fine\":%s,\"fine_ratio\":%s,\"bare_sdg_ratio\":%s}",
                    i ? "," : "", preview::jsonString(r.name).c_str(), obj(r.cw).c_str(),
                    n(r.cw.maxrss_kib).c_str(), obj(r.rc).c_str(), n(r.ratio).c_str(), n(r.target).c_str(),
                    obj(r.rc_fine).c_str(), n(r.fine_ratio).c_str(), n(r.sdg_ratio).c_str());
    }
    std::printf("],\"boxes\":[");
    for (size_t i = 0; i < box_rows.size(); ++i) {
        const BoxRow& r = box_rows[i];
        std::printf("%s{\"walls\":%zu,\"bake\":%s,\"bare_sdg\":%s,\"ratio\":%s,\"peak_rss_kib\":%s,"
                    "\"bare_sdg_peak_rss_kib\":%s,\"kib_per_wall\":%s,\"net_kib_per_wall\":%s,"
                    "\"bare_sdg_net_kib_per_wall\":%s,\"marginal_kib_per_wall\":%s,"
                    "\"bare_sdg_marginal_kib_per_wall\":%s}",
                    i ? "," : "", r.walls, obj(r.cw).c_str(), obj(r.sdg).c_str(), n(r.ratio).c_str(),
                    n(r.cw.peak_kib).c_str(), n(r.sdg.peak_kib).c_str(), n(r.kib_per_wall).c_str(),
                    n(r.net_kib_per_wall).c_str(), n(r.sdg_net_kib_per_wall).c_str(),
                    n(r.marginal_kib_per_wall).c_str(), n(r.sdg_marginal_kib_per_wall).c_str());
    }
    std::printf("]}\n");
}

void printTables(const BenchArgs& args, const Floors& floors, const std::vector<MeshRow>& mesh_rows,
                 const std::vector<BoxRow>& box_rows) {
    const Measurement &idle = floors.idle, &floor_bake = floors.bake, &floor_sdg = floors.sdg;
    auto num = [](double v, const char* fmt) {
        return show(std::isfinite(v) ? std::optional<double>(v) : std::nullopt, fmt);
    };
    if (!mesh_rows.empty()) {
        std::printf(
            "| mesh | triangles | clearway CPU s | import s | voronoi s | roadmap s | write s | asset bytes "
            "| Recast CPU s | Recast navmesh bytes | clearway / Recast | target | Recast %g m CPU s "
            "| clearway / Recast %g m | ≤ %.1f× | walls | bare CGAL SDG CPU s | bare SDG / Recast |\n",
            args.fine_cell_size, args.fine_cell_size, kFineRecastTarget);
        std::printf(
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|\n");
        for (const MeshRow& r : mesh_rows) {
            const std::string target = "≤ " + num(r.target, "%.1f×") + " " + verdict(r.ratio, r.target);
            std::printf(
                "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                "| %s |\n",
                r.name.c_str(), num(r.rc.at("triangles"), "%.0f").c_str(), num(r.cw.cpu, "%.3f").c_str(),
                num(r.cw.at("import"), "%.3f").c_str(), num(r.cw.at("voronoi"), "%.3f").c_str(),
                num(r.cw.at("roadmap"), "%.3f").c_str(), num(r.cw.at("write"), "%.3f").c_str(),
                num(r.cw.at("bytes"), "%.0f").c_str(), num(r.rc.cpu, "%.3f").c_str(),
                num(r.rc.at("bytes"), "%.0f").c_str(), num(r.ratio, "%.1f×").c_str(), target.c_str(),
                num(r.rc_fine.cpu, "%.3f").c_str(), num(r.fine_ratio, "%.2f×").c_str(),
                verdict(r.fine_ratio, kFineRecastTarget), num(r.cw.at("sdg_walls"), "%.0f").c_str(),
                num(r.cw.at("sdg"), "%.3f").c_str(), num(r.sdg_ratio, "%.2f×").c_str());
        }
        std::printf("\n");
    }
    if (!box_rows.empty()) {
        std::printf(
            "| walls | bake CPU s | voronoi s | roadmap s | write s | bare CGAL SDG CPU s | bake / "
            "bare | ≤ %.1f× "
            "| peak RSS MiB | KiB / wall | KiB / wall above idle | ≤ %.1f KiB | bare SDG KiB / wall "
            "above idle | KiB / wall above a 4-wall bake | bare SDG KiB / wall above a 4-wall build |\n",
            kSdgTarget, kKibTarget);
        std::printf("|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---:|\n");
        for (const BoxRow& r : box_rows) {
            std::printf("| %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                        r.walls, num(r.cw.cpu, "%.3f").c_str(), num(r.cw.at("voronoi"), "%.3f").c_str(),
                        num(r.cw.at("roadmap"), "%.3f").c_str(), num(r.cw.at("write"), "%.3f").c_str(),
                        num(r.sdg.cpu, "%.3f").c_str(), num(r.ratio, "%.2f×").c_str(),
                        verdict(r.ratio, kSdgTarget), num(r.cw.peak_kib / 1024, "%.1f").c_str(),
                        num(r.kib_per_wall, "%.2f").c_str(), num(r.net_kib_per_wall, "%.2f").c_str(),
                        verdict(r.net_kib_per_wall, kKibTarget), num(r.sdg_net_kib_per_wall, "%.2f").c_str(),
                        num(r.marginal_kib_per_wall, "%.2f").c_str(),
                        num(r.sdg_marginal_kib_per_wall, "%.2f").c_str());
        }
        std::printf("\n");
    }
    std::printf(
        "CPU = user + sys of the measured work in a fresh process, median of %d run%s; stage columns are CPU "
        "seconds of a second pass through the same steps.\n",
        args.runs, args.runs == 1 ? "" : "s");
    if (!mesh_rows.empty())
        std::printf(
            "Meshes: clearway = cw-bake pipeline (--max-step %g, Recast's climb), asset not written; Recast "
            "= "
            "OBJ load + RecastDemo solo-mesh build (its defaults, cell size %g m; again at %g m cells, "
            "nearer clearway's centimetre walls) + Detour navmesh data. "
            "Bare CGAL SDG = CGAL's segment Voronoi build of every layer's walls alone (the voronoi "
            "stage's floor).\n",
            args.max_step, args.cell_size, args.fine_cell_size);
    if (!box_rows.empty())
        std::printf(
            "Boxes: seed %llu; bake = buildRoadmap + serializeRoadmap of the generated footprint; bare = "
            "CGAL Segment_Delaunay_graph_2 over the same walls, inserted as the bake does. Peak RSS = "
            "VmHWM of the bake process after the bake (before the per-stage pass), largest of the runs; "
            "\"above idle\" subtracts an idle cw-bench process (%.1f MiB); \"above a 4-wall bake\" "
            "subtracts the same work on one square room (%.1f MiB bake, %.1f MiB bare build): the pages "
            "every bake touches whatever its size.\n",
            static_cast<unsigned long long>(args.seed), idle.peak_kib / 1024, floor_bake.peak_kib / 1024,
            floor_sdg.peak_kib / 1024);
}

} // namespace

int runBake(const BenchArgs& args) {
    Failures failures;
    Floors floors;
    floors.idle = measure({"child", "idle"}, 1);
    failures.note(floors.idle, "idle process");
    const std::vector<MeshRow> mesh_rows = measureMeshes(args, failures);
    measureBoxFloors(args, &floors, failures);
    const std::vector<BoxRow> box_rows = measureBoxes(args, floors, failures);
    if (args.json)
        printJson(args, floors, mesh_rows, box_rows);
    else
        printTables(args, floors, mesh_rows, box_rows);
    return failures.status;
}

} // namespace clearway::bench
