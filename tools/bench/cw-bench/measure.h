// Measurements in fresh processes: cw-bench re-runs itself as `cw-bench child ...`, so every
// measurement's peak RSS is its own and no run warms the next.
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace clearway::bench {

// Value of "key" in a flat JSON object of numbers (the children's output); NaN when absent or null.
double field(const std::string& json, const char* key);

// N runs of one measurement. Every field is reported as its median over the runs (a shared
// machine makes single runs noisy), peak memory as the largest.
struct Measurement {
    int exit_code = 0;
    std::string json;      // per-field medians, as one flat JSON object
    double cpu = NAN;      // median CPU seconds
    double maxrss_kib = 0; // max over runs
    double peak_kib = 0;   // max over runs of the child's own peak (bake_hwm_kib, else hwm_kib)
    double at(const char* key) const { return field(json, key); }
};

// `runs` runs of `cw-bench ARGS...`; the first failing run's exit code ends it.
Measurement measure(const std::vector<std::string>& args, int runs);

} // namespace clearway::bench
