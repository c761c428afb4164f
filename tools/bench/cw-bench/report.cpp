// Table cells and the clocks every cw-bench measurement reads.
#include "cw_bench.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace clearway::bench {

std::string show(std::optional<double> v, const char* fmt) {
    if (!v) return "-";
    if (!std::isfinite(*v)) return "NaN";
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, *v);
    return buf;
}

const char* verdict(double value, double target) {
    return std::isfinite(value) ? (value <= target ? "ok" : "miss") : "-";
}

std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const size_t dot = name.find_last_of('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

void setupLogger() {
    spdlog::set_default_logger(spdlog::stderr_color_mt("cw-bench"));
    spdlog::set_pattern("%n: %^%l%$: %v");
}

double cpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double peakRssKib() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr);
    return NAN;
}

} // namespace clearway::bench
