// cw-bench query's report: markdown tables or one JSON object.
#include "query.h"

#include <clearway/preview/json_writer.h>
#include <clearway/tool_cli.h>

#include <spdlog/spdlog.h>

#include <cstdio>

namespace clearway::bench {

namespace {

// The mesh object's last member: raycast and moveAlongSurface next to Detour's.
void printCharacterJson(const CharacterQueries& c) {
    auto n = [](double v) { return cli::jsonFixed(v, 6); };
    std::printf(
        "\"character_queries\":{\"rays\":%zu,\"clearway_hits\":%zu,\"clearway_free\":%zu,"
        "\"clearway_blocked\":%zu,\"clearway_stopped_at_portal\":%zu,\"clearway_portals_crossed\":%zu,"
        "\"detour_hits\":%zu,\"detour_free\":%zu,\"detour_failed\":%zu,\"raycast_clearway_mean_us\":%s,"
        "\"raycast_clearway_p99_us\":%s,\"raycast_detour_mean_us\":%s,\"raycast_detour_p99_us\":%s,"
        "\"raycast_time_ratio\":%s,\"rays_compared\":%zu,\"rays_agreed\":%zu,"
        "\"distance_diff_median\":%s,\"distance_diff_p90\":%s,\"clearway_mean_distance\":%s,"
        "\"detour_mean_distance\":%s,\"moves_clearway_ok\":%zu,\"moves_clearway_portal\":%zu,"
        "\"moves_clearway_other\":%zu,\"moves_detour_ok\":%zu,\"move_clearway_mean_us\":%s,"
        "\"move_clearway_p99_us\":%s,\"move_detour_mean_us\":%s,\"move_detour_p99_us\":%s,"
        "\"move_time_ratio\":%s,\"moves_compared\":%zu,\"move_diff_median\":%s,\"move_diff_p90\":%s}",
        c.rays, c.cw_hits, c.cw_free, c.cw_blocked, c.cw_stopped_at_portal, c.cw_portals_crossed, c.dt_hits,
        c.dt_free, c.dt_failed, n(c.cw_ray_mean_us).c_str(), n(c.cw_ray_p99_us).c_str(),
        n(c.dt_ray_mean_us).c_str(), n(c.dt_ray_p99_us).c_str(), n(c.ray_time_ratio).c_str(), c.compared,
        c.agreed, n(c.distance_diff_median).c_str(), n(c.distance_diff_p90).c_str(),
        n(c.cw_mean_distance).c_str(), n(c.dt_mean_distance).c_str(), c.cw_moves_ok, c.cw_moves_portal,
        c.cw_moves_other, c.dt_moves_ok, n(c.cw_move_mean_us).c_str(), n(c.cw_move_p99_us).c_str(),
        n(c.dt_move_mean_us).c_str(), n(c.dt_move_p99_us).c_str(), n(c.move_time_ratio).c_str(),
        c.moves_compared, n(c.move_diff_median).c_str(), n(c.move_diff_p90).c_str());
}

void printJson(const QueryArgs& args, const std::vector<QueryMesh>& rows) {
    auto n = [](double v) { return cli::jsonFixed(v, 6); };
    auto g = [](double v) { return preview::jsonNumber(v, 6); };
    std::printf("{\"pairs\":%zu,\"seed\":%llu,\"radius\":%s,\"recast_cell_size\":%s,\"max_step\":%s,"
                "\"metrics_step\":%s,\"repeats\":%d,\"targets\":{\"time_ratio\":%s,\"length_ratio_near\":%s,"
                "\"length_ratio_wide\":%s,\"clearance_ratio_wide\":%s},\"meshes\":[",
                args.pairs, static_cast<unsigned long long>(args.seed), n(args.radius).c_str(),
                n(args.cell_size).c_str(), n(args.max_step).c_str(), n(args.step).c_str(), args.repeats,
                g(kQueryTimeTarget).c_str(), g(kNearLengthTarget).c_str(), g(kWideLengthTarget).c_str(),
                g(kClearanceTarget).c_str());
    for (size_t i = 0; i < rows.size(); ++i) {
        const QueryMesh& r = rows[i];
        std::printf("%s{\"mesh\":%s,\"layers\":%zu,\"walkable_area\":%s,\"detour_polys\":%zu,"
                    "\"points_drawn\":%zu,\"rejected_near_wall\":%zu,\"rejected_locate\":%zu,\"rejected_"
                    "off_detour\":%zu,"
                    "\"pairs_drawn\":%zu,\"rejected_clearway_only\":%zu,\"rejected_clearway_only_detour_"
                    "narrower\":%zu,"
                    "\"rejected_detour_only\":%zu,"
                    "\"rejected_both\":%zu,\"pairs\":%zu,\"path_shared_bytes\":%zu,"
                    "\"path_scratch_bytes_per_thread\":%zu,\"max_route_points\":%u,"
                    "\"path_scratch_bytes_for_these_routes\":%zu,\"passes\":[",
                    i ? "," : "", preview::jsonString(r.name).c_str(), r.layers, n(r.walkable_area).c_str(),
                    r.detour_polys, r.points_drawn, r.rejected_near_wall, r.rejected_locate,
                    r.rejected_off_detour, r.pairs_drawn, r.rejected_clearway, r.rejected_clearway_narrow,
                    r.rejected_detour, r.rejected_both, r.pairs, r.path_shared_bytes, r.path_scratch_bytes,
                    r.max_route_points, r.path_scratch_bytes_for_routes);
        for (size_t k = 0; k < r.passes.size(); ++k) {
            const QueryPass& p = r.passes[k];
            const double q = p.phases.queries ? double(p.phases.queries) : NAN;
            std::printf(
                "%s{\"preferred_clearance\":%s,\"medial\":%s,\"clearway_failures\":%zu,\"clearway_mean_"
                "us\":%s,"
                "\"clearway_locate_mean_us\":%s,"
                "\"clearway_p99_us\":%s,\"detour_mean_us\":%s,\"detour_p99_us\":%s,\"time_ratio\":%s,"
                "\"length_ratio_mean\":%s,\"length_ratio_p99\":%s,\"length_ratio_max\":%s,"
                "\"clearway_min_clearance\":%s,\"clearway_mean_min_clearance\":%s,"
                "\"clearway_mean_clearance\":%s,\"detour_min_clearance\":%s,"
                "\"detour_mean_min_clearance\":%s,\"detour_mean_clearance\":%s,\"clearance_ratio\":%s,"
                "\"clearway_discontinuities\":%zu,\"clearway_paths_with_discontinuity\":%zu,"
                "\"clearway_max_jump_deg\":%s,\"detour_discontinuities\":%zu,"
                "\"detour_paths_with_discontinuity\":%zu,\"detour_max_jump_deg\":%s,"
                "\"phases_us\":{\"line\":%s,\"snap\":%s,\"search\":%s,\"corridor\":%s,\"funnel\":%s,"
                "\"verify\":%s,\"output\":%s,\"fallback\":%s},\"funnel_paths\":%llu,\"fallback_paths\":%llu,"
                "\"straight_lines\":%llu}",
                k ? "," : "", n(p.preferred).c_str(), p.medial ? "true" : "false", p.clearway_failures,
                n(p.cw_mean_us).c_str(), n(p.cw_locate_mean_us).c_str(), n(p.cw_p99_us).c_str(),
                n(p.dt_mean_us).c_str(), n(p.dt_p99_us).c_str(), n(p.time_ratio).c_str(),
                n(p.length_ratio_mean).c_str(), n(p.length_ratio_p99).c_str(), n(p.length_ratio_max).c_str(),
                n(p.cw_min_clearance).c_str(), n(p.cw_mean_min_clearance).c_str(),
                n(p.cw_mean_clearance).c_str(), n(p.dt_min_clearance).c_str(),
                n(p.dt_mean_min_clearance).c_str(), n(p.dt_mean_clearance).c_str(),
                n(p.clearance_ratio).c_str(), p.cw_discontinuities, p.cw_paths_with_discontinuity,
                n(p.cw_max_jump_deg).c_str(), p.dt_discontinuities, p.dt_paths_with_discontinuity,
                n(p.dt_max_jump_deg).c_str(), n(p.phases.line_us / q).c_str(), n(p.phases.snap_us / q).c_str(),
                n(p.phases.search_us / q).c_str(), n(p.phases.corridor_us / q).c_str(),
                n(p.phases.funnel_us / q).c_str(), n(p.phases.verify_us / q).c_str(), n(p.phases.output_us / q).c_str(),
                n(p.phases.fallback_us / q).c_str(), static_cast<unsigned long long>(p.phases.funnel_paths),
                static_cast<unsigned long long>(p.phases.fallback_paths),
                static_cast<unsigned long long>(p.phases.straight_lines));
        }
        std::printf("],\"monotone\":{\"comparisons\":%zu,\"violations\":%zu,\"worst_excess\":%s},",
                    r.monotone.comparisons, r.monotone.violations, n(r.monotone.worst_excess).c_str());
        printCharacterJson(r.character);
        std::printf("}");
    }
    std::printf("]}\n");
}

std::string monotoneFactors() {
    std::string list;
    for (const double f : kMonotoneFactors)
        list += (list.empty() ? "" : ", ") + show(f, "%g");
    return list;
}

// findPath's phases per query, and how each pass's queries were answered.
void printPhases(const std::vector<QueryMesh>& rows) {
    std::printf("\n| mesh | preferred | findPath phases µs per query: line / snap / search / corridor / funnel / "
                "verify / output / fallback | straight lines / funnel paths / fallback paths |\n|---|---:|---|---|\n");
    for (const QueryMesh& r : rows)
        for (const QueryPass& p : r.passes) {
            const PathPhaseTimes& t = p.phases;
            const double q = t.queries ? double(t.queries) : NAN;
            std::printf("| %s | %s | %.2f / %.2f / %.2f / %.2f / %.2f / %.2f / %.2f / %.2f | %llu / %llu / %llu |\n",
                        r.name.c_str(), p.medial ? "∞" : show(p.preferred, "%.2f").c_str(), t.line_us / q,
                        t.snap_us / q, t.search_us / q, t.corridor_us / q, t.funnel_us / q, t.verify_us / q, t.output_us / q,
                        t.fallback_us / q, static_cast<unsigned long long>(t.straight_lines),
                        static_cast<unsigned long long>(t.funnel_paths),
                        static_cast<unsigned long long>(t.fallback_paths));
        }
}

void printTables(const QueryArgs& args, const std::vector<QueryMesh>& rows) {
    std::printf(
        "| mesh | layers | Detour polygons | pairs | rejected points: near a wall / other layer located / "
        "off Detour's mesh | rejected pairs: no clearway path (Detour's passes < radius) / no Detour "
        "path / neither | findPath memory: shared | scratch per thread: any route / these routes (most route points) |\n"
        "|---|---:|---:|---:|---|---|---:|---:|\n");
    for (const QueryMesh& r : rows)
        std::printf(
            "| %s | %zu | %zu | %zu | %zu / %zu / %zu of %zu | %zu (%zu) / %zu / %zu of %zu | %zu B | %zu B / %zu B "
            "(%u) |\n",
            r.name.c_str(), r.layers, r.detour_polys, r.pairs, r.rejected_near_wall, r.rejected_locate,
            r.rejected_off_detour, r.points_drawn, r.rejected_clearway, r.rejected_clearway_narrow,
            r.rejected_detour, r.rejected_both, r.pairs_drawn, r.path_shared_bytes, r.path_scratch_bytes,
            r.path_scratch_bytes_for_routes, r.max_route_points);
    std::printf(
        "\n| mesh | preferred | clearway µs mean / p99 | of which locatePoint ×2 | Detour µs mean / p99 | "
        "time ratio | ≤ %.1f× "
        "| length ratio mean / p99 / max | target | min clearance clearway / Detour | mean clearance "
        "clearway / Detour | ratio | target | discontinuities clearway / Detour |\n",
        kQueryTimeTarget);
    std::printf("|---|---:|---:|---:|---:|---:|---|---:|---|---:|---:|---:|---|---:|\n");
    for (const QueryMesh& r : rows)
        for (const QueryPass& p : r.passes) {
            const bool length_ok = p.length_ratio_mean <= p.length_target;
            std::string target = p.medial ? "-"
                                          : std::string(length_ok ? "ok" : "miss") + " (≤ " +
                                                show(p.length_target, "%.2f") + ")";
            std::string clearance_target = "-";
            if (p.clearance_target)
                clearance_target = std::string(p.clearance_ratio >= kClearanceTarget ? "ok" : "miss") +
                                   " (≥ " + show(kClearanceTarget, "%.0f") + "×)";
            std::printf(
                "| %s | %s | %s / %s | %s | %s / %s | %s | %s | %s / %s / %s | %s | %s / %s | %s / %s | %s "
                "| %s | %zu / %zu |\n",
                r.name.c_str(), p.medial ? "∞ (medial path)" : show(p.preferred, "%.2f").c_str(),
                show(p.cw_mean_us, "%.1f").c_str(), show(p.cw_p99_us, "%.1f").c_str(),
                show(p.cw_locate_mean_us, "%.1f").c_str(), show(p.dt_mean_us, "%.1f").c_str(),
                show(p.dt_p99_us, "%.1f").c_str(), show(p.time_ratio, "%.2f×").c_str(),
                verdict(p.time_ratio, kQueryTimeTarget), show(p.length_ratio_mean, "%.3f").c_str(),
                show(p.length_ratio_p99, "%.3f").c_str(), show(p.length_ratio_max, "%.3f").c_str(),
                target.c_str(), show(p.cw_min_clearance, "%.3f").c_str(),
                show(p.dt_min_clearance, "%.3f").c_str(), show(p.cw_mean_clearance, "%.3f").c_str(),
                show(p.dt_mean_clearance, "%.3f").c_str(), show(p.clearance_ratio, "%.2f×").c_str(),
                clearance_target.c_str(), p.cw_discontinuities, p.dt_discontinuities);
            if (p.clearway_failures)
                spdlog::warn("{}: findPath failed on {} accepted pairs at preferred clearance {}", r.name,
                             p.clearway_failures, p.preferred);
        }
    printPhases(rows);
    for (const QueryMesh& r : rows)
        std::printf("\n%s: a scratch sized for %u route points (%zu B per thread) answered %zu of the pairs x passes "
                    "otherwise than the whole-level scratch.",
                    r.name.c_str(), r.max_route_points, r.path_scratch_bytes_for_routes,
                    r.scratch_for_routes_differences);
    for (const QueryMesh& r : rows)
        std::printf("\n%s: monotone in the preferred clearance: %zu violations in %zu comparisons (length at the "
                    "radius vs %s× radius), worst excess %.3g m.",
                    r.name.c_str(), r.monotone.violations, r.monotone.comparisons, monotoneFactors().c_str(),
                    r.monotone.worst_excess);
    std::printf("\n");
    std::printf(
        "\nSeed %llu, agent radius %g m, Recast cell size %g m (RecastDemo defaults otherwise), max step / "
        "climb %g m. Times: per query, the fastest of %d runs, whole query (clearway 2× locatePoint + "
        "findPath, "
        "the locatePoint pair's mean shown apart; Detour 2× "
        "findNearestPoly + findPath + findStraightPath). Clearance and discontinuities: bake::measurePath "
        "against the solid walls, samples every %g m, kinks above %g°.\n",
        static_cast<unsigned long long>(args.seed), args.radius, args.cell_size, args.max_step, args.repeats,
        args.step, bake::PathMetricsOptions{}.discontinuity_deg);
}

// After the path tables: raycast and moveAlongSurface next to Detour's, one ray per pair.
void printCharacterTable(const QueryArgs& args, const std::vector<QueryMesh>& rows) {
    std::printf(
        "\n| mesh | rays | raycast µs mean / p99 clearway / Detour | time ratio | clearway: hit / free / "
        "Blocked / stopped on a portal (portals crossed) | Detour: hit / free / failed | hit agreement | "
        "\\|distance difference\\| median / p90 m | mean distance clearway / Detour m | moveAlongSurface µs "
        "mean / p99 clearway / Detour | time ratio | clearway moves: Ok / portal / other | \\|end "
        "difference\\| median / p90 m |\n|---|---:|---|---:|---|---|---|---|---|---|---:|---|---|\n");
    for (const QueryMesh& r : rows) {
        const CharacterQueries& c = r.character;
        const double agreement = c.compared ? 100.0 * double(c.agreed) / double(c.compared) : NAN;
        std::printf("| %s | %zu | %s / %s / %s / %s | %s | %zu / %zu / %zu / %zu (%zu) | %zu / %zu / %zu | "
                    "%s of %zu | "
                    "%s / %s | %s / %s | %s / %s / %s / %s | %s | %zu / %zu / %zu | %s / %s |\n",
                    r.name.c_str(), c.rays, show(c.cw_ray_mean_us, "%.2f").c_str(),
                    show(c.cw_ray_p99_us, "%.2f").c_str(), show(c.dt_ray_mean_us, "%.2f").c_str(),
                    show(c.dt_ray_p99_us, "%.2f").c_str(), show(c.ray_time_ratio, "%.2f×").c_str(), c.cw_hits,
                    c.cw_free, c.cw_blocked, c.cw_stopped_at_portal, c.cw_portals_crossed, c.dt_hits,
                    c.dt_free, c.dt_failed, show(agreement, "%.1f %%").c_str(), c.compared,
                    show(c.distance_diff_median, "%.3f").c_str(), show(c.distance_diff_p90, "%.3f").c_str(),
                    show(c.cw_mean_distance, "%.2f").c_str(), show(c.dt_mean_distance, "%.2f").c_str(),
                    show(c.cw_move_mean_us, "%.2f").c_str(), show(c.cw_move_p99_us, "%.2f").c_str(),
                    show(c.dt_move_mean_us, "%.2f").c_str(), show(c.dt_move_p99_us, "%.2f").c_str(),
                    show(c.move_time_ratio, "%.2f×").c_str(), c.cw_moves_ok, c.cw_moves_portal,
                    c.cw_moves_other, show(c.move_diff_median, "%.3f").c_str(),
                    show(c.move_diff_p90, "%.3f").c_str());
    }
    std::printf(
        "\nRays: from each pair's start, a random direction, length uniform in [0, %g) m; the fastest of %d "
        "runs per query. clearway: locatePoint + raycast of the %g m disc against the exact walls, through "
        "portals onto the next layer (locatePoint beyond the line); Detour: findNearestPoly + raycast on the "
        "navmesh eroded by the same radius. moveAlongSurface: the same rays, clearway on the start's layer "
        "only. Differences come from the erosion, not asserted.\n",
        args.ray_length, args.repeats, args.radius);
}

// The obstacle table's columns.
constexpr const char* kObstacleColumns[] = {"mesh",
                                            "obstacles",
                                            "TileCache tiles / layers (build s)",
                                            "add µs per obstacle clearway / TileCache",
                                            "ratio",
                                            "remove µs per obstacle clearway / TileCache",
                                            "pairs",
                                            "paths clearway / TileCache (clearway changed by obstacles)",
                                            "query µs mean / p99 clearway / TileCache",
                                            "time ratio",
                                            "clearway without obstacles µs mean"};

// Temporary obstacles next to Detour TileCache's, on the same pairs.
void printObstacleTable(const QueryArgs& args, const std::vector<QueryMesh>& rows) {
    std::printf("\n|");
    for (const char* column : kObstacleColumns)
        std::printf(" %s |", column);
    std::printf("\n|---|---:|---|---|---:|---|---:|---|---|---:|---:|\n");
    for (const QueryMesh& r : rows) {
        const ObstacleQueries& o = r.obstacles;
        std::printf("| %s | %zu | %d / %d (%s) | %s / %s | %s | %s / %s | %zu | %zu / %zu (%zu) | "
                    "%s / %s / %s / %s | %s | %s |\n",
                    r.name.c_str(), o.obstacles, o.tiles, o.tile_layers,
                    show(o.tilecache_build_s, "%.2f").c_str(), show(o.cw_add_us, "%.3f").c_str(),
                    show(o.dt_add_us, "%.1f").c_str(), show(o.add_ratio, "%.5f×").c_str(),
                    show(o.cw_remove_us, "%.3f").c_str(), show(o.dt_remove_us, "%.1f").c_str(), o.pairs,
                    o.cw_ok, o.dt_ok, o.cw_changed, show(o.cw_mean_us, "%.2f").c_str(),
                    show(o.cw_p99_us, "%.2f").c_str(), show(o.dt_mean_us, "%.2f").c_str(),
                    show(o.dt_p99_us, "%.2f").c_str(), show(o.time_ratio, "%.2f×").c_str(),
                    show(o.cw_plain_mean_us, "%.2f").c_str());
    }
    std::printf(
        "\nObstacles: %d discs of radius %g m at the middle of clearway's path for the first pairs; "
        "TileCache gets cylinders of radius %g m (grown by the agent radius: it does not erode obstacles), "
        "RecastDemo's temp-obstacles build (48-cell tiles, the same cell size and agent). Add: every "
        "disc added (TileCache: addObstacle, then update until up to date), per obstacle, the fastest "
        "of %d runs. Queries: clearway 2× locatePoint + findPathAvoiding at preferred clearance = "
        "radius; TileCache 2× findNearestPoly + findPath + findStraightPath on its navmesh.\n",
        kBenchObstacles, kBenchObstacleRadius, kBenchObstacleRadius + args.radius, args.repeats);
}

} // namespace

int runQuery(const QueryArgs& args) {
    std::vector<QueryMesh> rows;
    int status = 0;
    for (const std::string& mesh : args.meshes) {
        spdlog::info("{}: bake, Recast + Detour, {} pairs", baseName(mesh), args.pairs);
        QueryMesh row;
        if (bake::Error e = runQueryMesh(args, mesh, &row)) {
            spdlog::error("{}", e.message);
            if (status == 0) status = bake::exitCodeFor(e);
            continue;
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty()) return status; // every mesh failed: the errors say why
    if (args.json)
        printJson(args, rows);
    else {
        printTables(args, rows);
        printCharacterTable(args, rows);
        printObstacleTable(args, rows);
    }
    return status;
}

} // namespace clearway::bench
