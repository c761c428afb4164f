// Table I of de Schaetzen and Sestini (2023): one column per controller (summed over the seeds),
// one row per seed and the spread of each controller's stuck ratio over the seeds; markdown or JSON.
#include "suite.h"

#include <clearway/preview/json_writer.h>

#include <cstdio>

namespace clearway::drive {

Spread spreadOf(const std::vector<double>& values) {
    Spread s;
    if (values.empty()) return s;
    s.min = s.max = values[0];
    for (double v : values) {
        s.mean += v;
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
    }
    s.mean /= double(values.size());
    if (values.size() > 1) {
        double squares = 0;
        for (double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.sd = std::sqrt(squares / double(values.size() - 1));
    }
    return s;
}

namespace {

// The paper's target: clearway's stuck events <= 0.2x the baseline's, mean time <= 1.0x. Here the
// stuck target is on the mean of the per-seed ratios.
constexpr double kStuckTarget = 0.2, kTimeTarget = 1.0;

size_t columnCount(const DriveOptions& options) {
    return options.raw ? 5 : 3;
}
// The column a controller's stuck ratio is taken against: the raw columns against the raw baseline.
size_t baselineOf(size_t ci) {
    return ci >= kBaselineRaw ? kBaselineRaw : kBaseline;
}
bool isBaseline(size_t ci) {
    return ci == kBaseline || ci == kBaselineRaw;
}

// One column over the seeds: its stuck events and its stuck ratio to its baseline.
struct ColumnSpread {
    Spread stuck, ratio;
};

ColumnSpread columnSpread(const Suite& suite, size_t ci) {
    std::vector<double> stuck, ratio;
    for (const TableI& t : suite.tables) {
        stuck.push_back(double(t.cols[ci].stuck));
        ratio.push_back(stuckRatio(t.cols[ci], t.cols[baselineOf(ci)]));
    }
    return {spreadOf(stuck), spreadOf(ratio)};
}

struct Targets {
    double stuck_ratio, time_ratio, tuned_stuck_ratio, tuned_time_ratio; // pooled over the seeds
    Spread ratio;                                                       // clearway's, per seed
    bool stuck_met, time_met;
};

Targets targetsOf(const Suite& suite) {
    const Column* cols = suite.pooled.cols;
    const double base_time = cols[kBaseline].timeMean();
    Targets t;
    t.stuck_ratio = stuckRatio(cols[kClearway], cols[kBaseline]);
    t.tuned_stuck_ratio = stuckRatio(cols[kClearwayTuned], cols[kBaseline]);
    t.time_ratio = base_time > 0 ? cols[kClearway].timeMean() / base_time : 0.0;
    t.tuned_time_ratio = base_time > 0 ? cols[kClearwayTuned].timeMean() / base_time : 0.0;
    t.ratio = columnSpread(suite, kClearway).ratio;
    t.stuck_met = t.ratio.mean <= kStuckTarget;
    t.time_met = t.time_ratio <= kTimeTarget;
    return t;
}

// One route group over the seeds: the clearway column's stuck ratio per seed that has trials in it.
struct GroupSummary {
    const Column *baseline = nullptr, *clearway = nullptr;
    uint32_t routes = 0, no_route = 0, unclimbable = 0;
    size_t seeds = 0; // with trials in the group
    Spread ratio;
    double pooled_ratio = 0;
};

GroupSummary groupSummary(const Suite& suite, size_t gi) {
    GroupSummary g;
    g.baseline = &suite.pooled.groups[gi][0];
    g.clearway = &suite.pooled.groups[gi][1];
    g.routes = suite.pooled.group_routes[gi];
    g.no_route = suite.pooled.no_route[gi];
    g.unclimbable = suite.pooled.unclimbable[gi];
    std::vector<double> ratios;
    for (const TableI& t : suite.tables)
        if (t.groups[gi][0].trials > 0) ratios.push_back(stuckRatio(t.groups[gi][1], t.groups[gi][0]));
    g.seeds = ratios.size();
    g.ratio = spreadOf(ratios);
    g.pooled_ratio = stuckRatio(*g.clearway, *g.baseline);
    return g;
}

size_t routeCount(const Suite& suite) {
    size_t n = 0;
    for (const TableI& t : suite.tables)
        n += t.routes.size();
    return n;
}

std::string spreadJson(const Spread& s) {
    char text[160];
    std::snprintf(text, sizeof text, "{\"mean\": %.4f, \"sd\": %.4f, \"min\": %.4f, \"max\": %.4f}", s.mean,
                  s.sd, s.min, s.max);
    return text;
}

// One row per seed: the routes, each column's stuck events and stuck ratio.
void printSeedsJson(const DriveOptions& options, const Suite& suite) {
    std::printf("\"per_seed\": [");
    for (size_t si = 0; si < suite.tables.size(); ++si) {
        const TableI& t = suite.tables[si];
        std::printf("%s{\"seed\": %llu, \"routes\": %zu, \"planned_gear_turn_routes\": %u, \"stuck_events\": {",
                    si ? ", " : "", (unsigned long long)t.seed, t.routes.size(), t.planned_routes);
        for (size_t ci = 0; ci < columnCount(options); ++ci)
            std::printf("%s%s: %u", ci ? ", " : "", preview::jsonString(t.cols[ci].name).c_str(), t.cols[ci].stuck);
        std::printf("}, \"stuck_ratio\": {");
        for (size_t ci = 0, n = 0; ci < columnCount(options); ++ci)
            if (!isBaseline(ci))
                std::printf("%s%s: %.4f", n++ ? ", " : "", preview::jsonString(t.cols[ci].name).c_str(),
                            stuckRatio(t.cols[ci], t.cols[baselineOf(ci)]));
        std::printf("}}");
    }
    std::printf("], ");
}

// Per route group (flat, slope, cross-layer): routes, both controllers' trials and the stuck ratio.
void printGroupsJson(const Suite& suite) {
    std::printf("\"groups\": {");
    for (size_t gi = 0; gi < kRouteGroupCount; ++gi) {
        const GroupSummary g = groupSummary(suite, gi);
        std::printf("%s\"%s\": {\"routes\": %u, \"no_route_vehicle_routes\": %u, \"unclimbable_vehicle_routes\": %u, "
                    "\"seeds_with_trials\": %zu, ",
                    gi ? ", " : "", kRouteGroupNames[gi], g.routes, g.no_route, g.unclimbable, g.seeds);
        for (const Column* c : {g.baseline, g.clearway})
            std::printf("\"%s\": {\"trials\": %u, \"stuck_events\": %u, \"stuck_trials\": %u, \"arrived\": %u, "
                        "\"time_mean\": %.3f, \"speed_mean\": %.4f}, ",
                        c == g.baseline ? "baseline" : "clearway", c->trials, c->stuck, c->stuck_trials, c->arrived,
                        c->timeMean(), c->speedMean());
        std::printf("\"stuck_ratio_pooled\": %.4f, \"stuck_ratio_spread\": %s}", g.pooled_ratio,
                    spreadJson(g.ratio).c_str());
    }
    std::printf("}, ");
}

void printColumnJson(const Suite& suite, size_t ci) {
    const Column& c = suite.pooled.cols[ci];
    std::printf("%s: {\"trials\": %u, \"stuck_trials\": %u, \"stuck_events\": %u, \"teleports\": %u, "
                "\"backoffs\": %u, \"gear_changes\": %u, "
                "\"arrived\": %u, \"arrived_without_stuck\": %u, \"cross_track_error_mean\": %.4f, "
                "\"time_mean\": %.3f, \"inside_corridor_percent\": %.2f, \"speed_mean\": %.4f, ",
                preview::jsonString(c.name).c_str(), c.trials, c.stuck_trials, c.stuck, c.teleports, c.backoffs,
                c.gear_changes, c.arrived, c.clean_arrivals, c.cteMean(), c.timeMean(), c.insidePercent(),
                c.speedMean());
    const ColumnSpread spread = columnSpread(suite, ci);
    std::printf("\"stuck_events_spread\": %s, ", spreadJson(spread.stuck).c_str());
    if (!isBaseline(ci)) std::printf("\"stuck_ratio_spread\": %s, ", spreadJson(spread.ratio).c_str());
    std::printf("\"stuck_by_vehicle\": [");
    for (size_t vi = 0; vi < kVehicleCount; ++vi)
        std::printf("%s{\"vehicle\": \"%s\", \"stuck_events\": %u}", vi ? ", " : "", kVehicles[vi].name,
                    c.stuck_by_vehicle[vi]);
    std::printf("]}");
}

void printJson(const DriveOptions& options, const Suite& suite, const Targets& t) {
    std::printf("{\"label\": %s, \"seeds\": [", preview::jsonString(options.label).c_str());
    for (size_t si = 0; si < options.seeds.size(); ++si)
        std::printf("%s%llu", si ? ", " : "", (unsigned long long)options.seeds[si]);
    std::printf("], \"routes\": %zu, \"gear_turns\": \"%s\", \"baseline_gear_turns\": \"%s\", "
                "\"slopes\": \"%s\", \"cross_layer_routes_per_level\": %u, \"planned_gear_turn_routes\": %u, "
                "\"vehicles\": [",
                routeCount(suite), options.gear_turns.c_str(), options.baseline_gear_turns ? "on" : "off",
                options.slopes ? "on" : "off", options.cross_layer_routes, suite.pooled.planned_routes);
    for (size_t vi = 0; vi < kVehicleCount; ++vi)
        std::printf(
            "%s{\"name\": \"%s\", \"radius\": %g, \"wheelbase\": %g, \"max_steer\": %g, \"steer_rate\": "
            "%g, \"accel\": %g, \"brake\": %g, \"top_speed\": %g, \"traction_g\": %g}",
            vi ? ", " : "", kVehicles[vi].name, kVehicles[vi].radius, kVehicles[vi].wheelbase,
            kVehicles[vi].max_steer, kVehicles[vi].steer_rate, kVehicles[vi].accel, kVehicles[vi].brake,
            kVehicles[vi].top_speed, kVehicles[vi].traction);
    std::printf("], \"controllers\": {");
    for (size_t ci = 0; ci < columnCount(options); ++ci) {
        if (ci) std::printf(", ");
        printColumnJson(suite, ci);
    }
    std::printf("}, ");
    printGroupsJson(suite);
    printSeedsJson(options, suite);
    std::printf("\"target\": {\"stuck_ratio\": %.4f, \"stuck_ratio_mean\": %.4f, \"stuck_ratio_sd\": %.4f, "
                "\"stuck_ratio_min\": %.4f, \"stuck_ratio_worst\": %.4f, \"stuck_met\": %s, \"time_ratio\": "
                "%.4f, \"time_met\": %s, \"tuned_stuck_ratio\": %.4f, \"tuned_time_ratio\": %.4f}}\n",
                t.stuck_ratio, t.ratio.mean, t.ratio.sd, t.ratio.min, t.ratio.max, t.stuck_met ? "true" : "false",
                t.time_ratio, t.time_met ? "true" : "false", t.tuned_stuck_ratio, t.tuned_time_ratio);
}

// Table I, summed over the seeds.
void printColumns(const DriveOptions& options, const Suite& suite) {
    const Column* cols = suite.pooled.cols;
    const size_t ncols = columnCount(options);
    std::printf("Table I%s%s: %zu routes x %zu vehicles = %u trials per controller over %zu seed%s (dt %.3f s); "
                "%u planned gear-turn routes (--gear-turns %s), driven by the clearway columns%s\n\n",
                options.label.empty() ? "" : ", ", options.label.c_str(), routeCount(suite), kVehicleCount,
                cols[0].trials, suite.tables.size(), suite.tables.size() == 1 ? "" : "s", options.sim.dt,
                suite.pooled.planned_routes, options.gear_turns.c_str(),
                options.baseline_gear_turns ? " and the baseline (--baseline-gear-turns on)"
                                            : " only (--baseline-gear-turns off)");
    std::printf("| %-28s |", "");
    for (size_t ci = 0; ci < ncols; ++ci)
        std::printf(" %12s |", cols[ci].name.c_str());
    std::printf("\n|---|");
    for (size_t ci = 0; ci < ncols; ++ci)
        std::printf("---:|");
    std::printf("\n");
    auto rowU = [&](const char* label, auto get) {
        std::printf("| %-28s |", label);
        for (size_t ci = 0; ci < ncols; ++ci)
            std::printf(" %12u |", unsigned(get(cols[ci])));
        std::printf("\n");
    };
    auto rowD = [&](const char* label, auto get) {
        std::printf("| %-28s |", label);
        for (size_t ci = 0; ci < ncols; ++ci)
            std::printf(" %12.2f |", double(get(cols[ci])));
        std::printf("\n");
    };
    rowU("trials with a stuck event", [](const Column& c) { return c.stuck_trials; });
    rowU("stuck events", [](const Column& c) { return c.stuck; });
    rowU("teleports", [](const Column& c) { return c.teleports; });
    rowU("back-offs (wall ahead)", [](const Column& c) { return c.backoffs; });
    rowU("planned gear changes", [](const Column& c) { return c.gear_changes; });
    rowU("arrived", [](const Column& c) { return c.arrived; });
    rowD("cross-track error mean (m)", [](const Column& c) { return c.cteMean(); });
    rowD("time mean (s)", [](const Column& c) { return c.timeMean(); });
    rowD("inside corridor (%)", [](const Column& c) { return c.insidePercent(); });
    rowD("speed mean (m/s)", [](const Column& c) { return c.speedMean(); });
    for (size_t vi = 0; vi < kVehicleCount; ++vi) {
        const std::string label = std::string("stuck events: ") + kVehicles[vi].name;
        std::printf("| %-28s |", label.c_str());
        for (size_t ci = 0; ci < ncols; ++ci)
            std::printf(" %12u |", cols[ci].stuck_by_vehicle[vi]);
        std::printf("\n");
    }
}

// One row per seed (stuck events, ratios), then each controller's spread over the seeds.
void printSeeds(const DriveOptions& options, const Suite& suite) {
    const size_t ncols = columnCount(options);
    std::printf("\nPer seed: stuck events (ratio to the baseline; raw columns to baseline_raw)\n\n| seed | routes |");
    for (size_t ci = 0; ci < ncols; ++ci)
        std::printf(" %s |", suite.pooled.cols[ci].name.c_str());
    std::printf("\n|---:|---:|");
    for (size_t ci = 0; ci < ncols; ++ci)
        std::printf("---:|");
    for (const TableI& t : suite.tables) {
        std::printf("\n| %llu | %zu |", (unsigned long long)t.seed, t.routes.size());
        for (size_t ci = 0; ci < ncols; ++ci)
            if (isBaseline(ci))
                std::printf(" %u |", t.cols[ci].stuck);
            else
                std::printf(" %u (%.2f) |", t.cols[ci].stuck, stuckRatio(t.cols[ci], t.cols[baselineOf(ci)]));
    }
    std::printf("\n\nSpread over %zu seed%s (sd: sample standard deviation)\n\n| controller | stuck events mean "
                "± sd | min | max | stuck ratio mean ± sd | min | max (worst) |\n|---|---:|---:|---:|---:|---:|---:|\n",
                suite.tables.size(), suite.tables.size() == 1 ? "" : "s");
    for (size_t ci = 0; ci < ncols; ++ci) {
        const ColumnSpread s = columnSpread(suite, ci);
        std::printf("| %s | %.1f ± %.1f | %.0f | %.0f |", suite.pooled.cols[ci].name.c_str(), s.stuck.mean,
                    s.stuck.sd, s.stuck.min, s.stuck.max);
        if (isBaseline(ci))
            std::printf(" | | |\n");
        else
            std::printf(" %.2f ± %.2f | %.2f | %.2f |\n", s.ratio.mean, s.ratio.sd, s.ratio.min, s.ratio.max);
    }
}

// One row per route group: routes, trials, both controllers' stuck events and the stuck ratio.
void printGroups(const Suite& suite) {
    std::printf("\nRoute groups (flat: one height; slope: the ground rises or falls; cross_layer: crosses a "
                "portal); not driven: vehicle routes without a findPath route at the vehicle's radius / steeper "
                "than the vehicle climbs\n\n"
                "| group | routes | not driven | trials | stuck events baseline | clearway | stuck ratio mean ± "
                "sd over seeds | worst | pooled | arrived baseline / clearway | time mean s baseline / clearway "
                "|\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t gi = 0; gi < kRouteGroupCount; ++gi) {
        const GroupSummary g = groupSummary(suite, gi);
        std::printf("| %s | %u | %u / %u | %u | %u | %u | %.2f ± %.2f (%zu seeds) | %.2f | %.2f | %u / %u | %.1f / %.1f |\n",
                    kRouteGroupNames[gi], g.routes, g.no_route, g.unclimbable, g.baseline->trials, g.baseline->stuck,
                    g.clearway->stuck, g.ratio.mean, g.ratio.sd, g.seeds, g.ratio.max, g.pooled_ratio,
                    g.baseline->arrived, g.clearway->arrived, g.baseline->timeMean(), g.clearway->timeMean());
    }
}

void printMarkdown(const DriveOptions& options, const Suite& suite, const Targets& t) {
    for (const std::string& line : suite.pooled.trial_lines)
        std::printf("%s\n", line.c_str());
    if (!suite.pooled.trial_lines.empty()) std::printf("\n");
    printColumns(options, suite);
    printSeeds(options, suite);
    printGroups(suite);
    const Column* cols = suite.pooled.cols;
    std::printf("\nTarget: stuck ratio clearway / baseline, mean over %zu seed%s = %.2f ± %.2f, worst %.2f (<= "
                "%.1f: %s); pooled %u / %u = %.2f; mean time ratio %.2f (<= %.1f: %s)\n",
                suite.tables.size(), suite.tables.size() == 1 ? "" : "s", t.ratio.mean, t.ratio.sd, t.ratio.max,
                kStuckTarget, t.stuck_met ? "met" : "missed", cols[kClearway].stuck, cols[kBaseline].stuck,
                t.stuck_ratio, t.time_ratio, kTimeTarget, t.time_met ? "met" : "missed");
    std::printf("Vehicle-tuned clearway: pooled stuck ratio %.2f, mean time ratio %.2f\n", t.tuned_stuck_ratio,
                t.tuned_time_ratio);
}

} // namespace

void printReport(const DriveOptions& options, const Suite& suite, bool json) {
    const Targets targets = targetsOf(suite);
    if (json)
        printJson(options, suite, targets);
    else
        printMarkdown(options, suite, targets);
}

} // namespace clearway::drive
