// Table I of de Schaetzen and Sestini (2023): one column per controller, markdown or JSON.
#include "suite.h"

#include <clearway/preview/json_writer.h>

#include <cstdio>

namespace clearway::drive {

namespace {

// The paper's target: clearway's stuck events <= 0.2x the baseline's, mean time <= 1.0x.
struct Targets {
    double stuck_ratio, time_ratio, tuned_stuck_ratio, tuned_time_ratio;
    bool stuck_met, time_met;
};

Targets targetsOf(const Column* cols) {
    double stuck_ratio = cols[0].stuck ? double(cols[1].stuck) / cols[0].stuck : (cols[1].stuck ? 1e9 : 0.0);
    double time_ratio = cols[0].timeMean() > 0 ? cols[1].timeMean() / cols[0].timeMean() : 0.0;
    bool stuck_met = stuck_ratio <= 0.2, time_met = time_ratio <= 1.0;
    double tuned_stuck_ratio =
        cols[0].stuck ? double(cols[2].stuck) / cols[0].stuck : (cols[2].stuck ? 1e9 : 0.0);
    double tuned_time_ratio = cols[0].timeMean() > 0 ? cols[2].timeMean() / cols[0].timeMean() : 0.0;
    return {stuck_ratio, time_ratio, tuned_stuck_ratio, tuned_time_ratio, stuck_met, time_met};
}

void printJson(const DriveOptions& options, const TableI& table, const Targets& t) {
    using preview::jsonNumber, preview::jsonString;
    auto fixed = [](double v, int decimals) { return cli::jsonFixed(v, decimals); };
    const Column* cols = table.cols;
    const size_t ncols = options.raw ? 5 : 3;
    std::string j = "{\"routes\": " + std::to_string(table.routes.size()) +
                    ", \"gear_turns\": " + jsonString(options.gear_turns) +
                    ", \"planned_gear_turn_routes\": " + std::to_string(table.planned_routes) +
                    ", \"vehicles\": [";
    for (size_t vi = 0; vi < kVehicleCount; ++vi) {
        const VehicleSpec& v = kVehicles[vi];
        j += std::string(vi ? ", " : "") + "{\"name\": " + jsonString(v.name) +
             ", \"radius\": " + jsonNumber(v.radius, 6) + ", \"wheelbase\": " + jsonNumber(v.wheelbase, 6) +
             ", \"max_steer\": " + jsonNumber(v.max_steer, 6) +
             ", \"steer_rate\": " + jsonNumber(v.steer_rate, 6) + ", \"accel\": " + jsonNumber(v.accel, 6) +
             ", \"brake\": " + jsonNumber(v.brake, 6) + ", \"top_speed\": " + jsonNumber(v.top_speed, 6) +
             ", \"traction_g\": " + jsonNumber(v.traction, 6) + "}";
    }
    j += "], \"controllers\": {";
    for (size_t ci = 0; ci < ncols; ++ci) {
        const Column& c = cols[ci];
        j += std::string(ci ? ", " : "") + jsonString(c.name) + ": {\"trials\": " + std::to_string(c.trials) +
             ", \"stuck_trials\": " + std::to_string(c.stuck_trials) +
             ", \"stuck_events\": " + std::to_string(c.stuck) +
             ", \"teleports\": " + std::to_string(c.teleports) +
             ", \"backoffs\": " + std::to_string(c.backoffs) +
             ", \"gear_changes\": " + std::to_string(c.gear_changes) +
             ", \"arrived\": " + std::to_string(c.arrived) +
             ", \"arrived_without_stuck\": " + std::to_string(c.clean_arrivals) +
             ", \"cross_track_error_mean\": " + fixed(c.cteMean(), 4) +
             ", \"time_mean\": " + fixed(c.timeMean(), 3) +
             ", \"inside_corridor_percent\": " + fixed(c.insidePercent(), 2) +
             ", \"speed_mean\": " + fixed(c.speedMean(), 4) + ", \"stuck_by_vehicle\": [";
        for (size_t vi = 0; vi < kVehicleCount; ++vi)
            j += std::string(vi ? ", " : "") + "{\"vehicle\": " + jsonString(kVehicles[vi].name) +
                 ", \"stuck_events\": " + std::to_string(c.stuck_by_vehicle[vi]) + "}";
        j += "]}";
    }
    j += "}, \"target\": {\"stuck_ratio\": " + fixed(t.stuck_ratio, 4) +
         ", \"stuck_met\": " + (t.stuck_met ? "true" : "false") +
         ", \"time_ratio\": " + fixed(t.time_ratio, 4) +
         ", \"time_met\": " + (t.time_met ? "true" : "false") +
         ", \"tuned_stuck_ratio\": " + fixed(t.tuned_stuck_ratio, 4) +
         ", \"tuned_time_ratio\": " + fixed(t.tuned_time_ratio, 4) + "}}";
    std::printf("%s\n", j.c_str());
}

void printMarkdown(const DriveOptions& options, const TableI& table, const Targets& t) {
    const Column* cols = table.cols;
    const size_t ncols = options.raw ? 5 : 3;
    for (const std::string& line : table.trial_lines)
        std::printf("%s\n", line.c_str());
    if (!table.trial_lines.empty()) std::printf("\n");
    std::printf("Table I: %zu routes x %zu vehicles = %u trials per controller (dt %.3f s); clearway columns "
                "drive %u planned gear-turn routes (--gear-turns %s)\n\n",
                table.routes.size(), kVehicleCount, cols[0].trials, options.sim.dt, table.planned_routes,
                options.gear_turns.c_str());
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
    std::printf(
        "\nTarget: stuck events clearway / baseline = %u / %u = %.2f (<= 0.2: %s); mean time ratio %.2f "
        "(<= 1.0: %s)\n",
        cols[1].stuck, cols[0].stuck, t.stuck_ratio, t.stuck_met ? "met" : "missed", t.time_ratio,
        t.time_met ? "met" : "missed");
    std::printf("Vehicle-tuned clearway: stuck ratio %.2f (<= 0.2: %s), mean time ratio %.2f (<= 1.0: %s)\n",
                t.tuned_stuck_ratio, t.tuned_stuck_ratio <= 0.2 ? "met" : "missed", t.tuned_time_ratio,
                t.tuned_time_ratio <= 1.0 ? "met" : "missed");
}

} // namespace

void printTable(const DriveOptions& options, const TableI& table, bool json) {
    const Targets targets = targetsOf(table.cols);
    if (json)
        printJson(options, table, targets);
    else
        printMarkdown(options, table, targets);
}

} // namespace clearway::drive
