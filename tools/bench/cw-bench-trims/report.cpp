// cw-bench-trims' loop over scenarios and strategies, and its report: a table (with --profile,
// goodness over time) or one JSON object.
#include "trims_bench.h"

#include <clearway/preview/json_writer.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace clearway::trims_bench {

namespace {

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5));
    return v[i];
}

// Every run of one scenario with one strategy; the first run's plot with --svg.
bake::Error flyRuns(const TrimsBenchOptions& options, const Scenario& sc, const StrategyConfig& cfg,
                    const Table& table, Stats* stats) {
    std::vector<uint64_t> memory(searchWorkspaceSize(table.view, cfg.settings) / 8 + 1);
    SearchWorkspace ws;
    if (initSearchWorkspace(table.view, cfg.settings, memory.data(), memory.size() * 8, &ws) != Status::Ok)
        return {bake::ErrorCode::Internal, "search workspace rejected the settings"};
    for (int run = 0; run < options.runs; ++run) {
        const World w = fly(sc, table.view, &ws, cfg.warm, options.seed * 1000003u + uint32_t(run), stats);
        if (run == 0 && !options.svg_dir.empty()) {
            const std::string path = options.svg_dir + "/" + sc.name + "-" + cfg.name + ".svg";
            if (bake::Error e =
                    bake::writeFileAtomic(path, svgOf(w, (std::string(sc.name) + " " + cfg.name).c_str())))
                return e;
        }
    }
    return {};
}

// --profile: per ship role and bucket of `every` decisions. "so far": the mean goodness of every
// decision up to the bucket's end, i.e. what the row would read if the runs stopped there.
void printProfile(const Stats& stats, int every, double interval) {
    for (const auto& role : stats.profile) {
        std::printf("  %s decisions  goodness  distance m  off goal deg  turned deg/s  so far  (runs)\n",
                    role.first.c_str());
        const std::vector<Stats::Step>& steps = role.second;
        double so_far = 0;
        int so_far_count = 0;
        for (size_t b = 0; b < steps.size(); b += size_t(every)) {
            const size_t e = std::min(steps.size(), b + size_t(every));
            Stats::Step sum;
            for (size_t i = b; i < e; ++i) {
                sum.goodness += steps[i].goodness, sum.distance += steps[i].distance;
                sum.off_angle += steps[i].off_angle, sum.turn += steps[i].turn;
                sum.count += steps[i].count;
            }
            if (sum.count == 0) continue;
            so_far += sum.goodness, so_far_count += sum.count;
            const double n_steps = double(sum.count);
            std::printf("    %3zu-%-3zu %9.3f %11.1f %13.1f %13.1f %8.3f  (%d)\n", b, e - 1,
                        sum.goodness / n_steps, sum.distance / n_steps, sum.off_angle / n_steps,
                        sum.turn / n_steps / interval, so_far / so_far_count, steps[b].count);
        }
    }
}

// Average over every (scenario, role) row, as the paper's figure 6 averages its eight rows.
using Averages = std::vector<std::pair<std::string, std::pair<double, int>>>;

// One row of the table (unless --json or --quiet) and of the JSON.
void reportRow(const Scenario& sc, const StrategyConfig& cfg, const Stats& stats,
               const cli::CommonFlags& flags, Averages* averages, std::string& json, bool first_json) {
    const double n = double(stats.decision_ms.size());
    std::ostringstream g;
    double mean_all = 0;
    for (const auto& r : stats.goodness) {
        const double mean = r.second.first / r.second.second;
        mean_all += mean / double(stats.goodness.size());
        char part[48];
        std::snprintf(part, sizeof part, "%s%s %.3f", g.str().empty() ? "" : ", ", r.first.c_str(), mean);
        g << part;
    }
    const double median = percentile(stats.decision_ms, 0.5), p95 = percentile(stats.decision_ms, 0.95);
    auto avg =
        std::find_if(averages->begin(), averages->end(), [&](const auto& a) { return a.first == cfg.name; });
    if (avg == averages->end()) avg = averages->insert(averages->end(), {cfg.name, {0.0, 0}});
    for (const auto& r : stats.goodness) {
        avg->second.first += r.second.first / r.second.second;
        avg->second.second += 1;
    }
    if (!flags.json && !flags.quiet)
        std::printf("%-11s %-9s %-28s %9.4f %9.4f %9.1f %9.1f %8u %7d %8d %6llu\n", sc.name, cfg.name,
                    g.str().c_str(), median, p95, stats.expansions / n, stats.visited / n,
                    cfg.settings.max_nodes, stats.node_budget_stops, stats.collisions,
                    static_cast<unsigned long long>(stats.allocations));
    auto num = [](double v) { return preview::jsonNumber(v, 6); };
    json += std::string(first_json ? "" : ", ") + "{\"scenario\": " + preview::jsonString(sc.name) +
            ", \"strategy\": " + preview::jsonString(cfg.name) + ", \"goodness\": {";
    for (size_t i = 0; i < stats.goodness.size(); ++i)
        json += std::string(i ? ", " : "") + preview::jsonString(stats.goodness[i].first) + ": " +
                num(stats.goodness[i].second.first / stats.goodness[i].second.second);
    json += "}, \"mean_goodness\": " + num(mean_all) + ", \"median_ms\": " + num(median) +
            ", \"p95_ms\": " + num(p95) + ", \"expanded\": " + num(stats.expansions / n) +
            ", \"visited\": " + num(stats.visited / n) +
            ", \"max_depth\": " + std::to_string(cfg.settings.max_depth) +
            ", \"max_nodes\": " + std::to_string(cfg.settings.max_nodes) +
            ", \"node_budget_stops\": " + std::to_string(stats.node_budget_stops) +
            ", \"decisions\": " + std::to_string(stats.decision_ms.size()) +
            ", \"collisions\": " + std::to_string(stats.collisions) +
            ", \"arrivals\": " + std::to_string(stats.arrivals) +
            ", \"allocations\": " + std::to_string(stats.allocations) + "}";
}

// --fig7: the scenario's depth and the safety cap for every strategy, on top of the other overrides.
Overrides overridesFor(const TrimsBenchOptions& options, const Scenario& sc) {
    Overrides o = options.overrides;
    if (options.fig7) {
        o.depth = sc.spatial ? options.fig7_depth_3d : options.fig7_depth_2d;
        o.nodes = options.fig7_cap;
    }
    return o;
}

void printSummary(const Averages& averages, const std::string& json, const cli::CommonFlags& flags) {
    if (flags.json) {
        std::printf("%s\n", json.c_str());
    } else if (!flags.quiet) {
        std::printf("\naverage goodness over all scenario rows (paper: single 0.715, uniform 0.841, adaptive "
                    "0.840):\n ");
        for (const auto& a : averages)
            std::printf(" %s %.3f", a.first.c_str(), a.second.first / a.second.second);
        std::printf(
            "\npaper's time per decision (2D / 3D seek): single 2.48 / 24.17 ms, uniform 48.33 / 437.33 ms, "
            "adaptive 16.8 / 68.0 ms\n");
    }
}

} // namespace

int runTrimsBench(const TrimsBenchOptions& options, const cli::CommonFlags& flags, cli::SpdlogContext& log) {
    Table t2, t3;
    if (bake::Error e = loadVehicle(options.vehicle2d, &t2)) return cli::fail(log, e);
    if (bake::Error e = loadVehicle(options.vehicle3d, &t3)) return cli::fail(log, e);

    std::string json = "{\"runs\": " + std::to_string(options.runs) +
                       (options.fig7 ? ", \"fig7\": true" : "") + ", \"results\": [";
    Averages averages;
    bool first_json = true;
    if (!flags.json && !flags.quiet)
        std::printf("%-11s %-9s %-28s %9s %9s %9s %9s %8s %7s %8s %6s\n", "scenario", "strategy",
                    "mean goodness", "median ms", "p95 ms", "expanded", "visited", "cap", "capped", "collide",
                    "allocs");
    for (const Scenario& sc : kScenarios) {
        if (options.only_scenario != "all" && options.only_scenario != sc.name) continue;
        if (options.fig7 && std::string(sc.name) != "2d-seek" && std::string(sc.name) != "3d-seek") continue;
        const Table& table = sc.spatial ? t3 : t2;
        for (const StrategyConfig& cfg : strategies(sc.spatial, options.seed, overridesFor(options, sc))) {
            if (options.only_strategy != "all" && options.only_strategy != cfg.name) continue;
            if (options.fig7 && std::string(cfg.name) == "adaptive+") continue; // not one of the paper's
            Stats stats;
            if (bake::Error e = flyRuns(options, sc, cfg, table, &stats)) return cli::fail(log, e);
            reportRow(sc, cfg, stats, flags, &averages, json, first_json);
            if (options.profile_every > 0 && !flags.json && !flags.quiet)
                printProfile(stats, options.profile_every, double(table.view.model.interval));
            first_json = false;
        }
    }
    json += "], \"average_goodness\": {";
    for (size_t i = 0; i < averages.size(); ++i)
        json += std::string(i ? ", " : "") + preview::jsonString(averages[i].first) + ": " +
                preview::jsonNumber(averages[i].second.first / averages[i].second.second, 6);
    json += "}}";
    printSummary(averages, json, flags);
    return 0;
}

} // namespace clearway::trims_bench
