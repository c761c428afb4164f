#include "measure.h"

#include <clearway/preview/json_writer.h>
#include <clearway/tool_cli.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "cw_bench.h"

namespace clearway::bench {

namespace {

struct ChildRun {
    int exit_code = 0;     // 0 ok; otherwise the child's exit code (or 3 if it crashed)
    std::string json;      // the child's one JSON object
    double maxrss_kib = 0; // ru_maxrss of the child
};

// Re-runs this executable as `cw-bench child ...` and collects its output and peak memory.
ChildRun spawnChild(const std::vector<std::string>& args) {
    ChildRun run;
    int fd[2];
    if (pipe(fd) != 0) return {4, "", 0};
    const pid_t pid = fork();
    if (pid < 0) return {4, "", 0};
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        std::vector<char*> argv;
        std::string self = "cw-bench";
        argv.push_back(self.data());
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv("/proc/self/exe", argv.data());
        _exit(4);
    }
    close(fd[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0)
        run.json.append(buf, size_t(n));
    close(fd[0]);
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
    run.maxrss_kib = double(ru.ru_maxrss); // KiB on Linux
    while (!run.json.empty() && (run.json.back() == '\n' || run.json.back() == '\r'))
        run.json.pop_back();
    return run;
}

} // namespace

// Value of "key" in a flat JSON object of numbers (the children's output); NaN when absent.
double field(const std::string& json, const char* key) {
    const std::string needle = std::string("\"") + key + "\":";
    const size_t at = json.find(needle);
    if (at == std::string::npos) return NAN;
    const char* number = json.c_str() + at + needle.size();
    char* end = nullptr;
    const double v = std::strtod(number, &end);
    return end == number ? NAN : v; // null: not measured
}

Measurement measure(const std::vector<std::string>& args, int runs) {
    Measurement m;
    std::vector<std::string> outs;
    for (int i = 0; i < runs; ++i) {
        ChildRun r = spawnChild(args);
        if (r.exit_code != 0) {
            m.exit_code = r.exit_code;
            return m;
        }
        m.maxrss_kib = std::max(m.maxrss_kib, r.maxrss_kib);
        const double bake_hwm = field(r.json, "bake_hwm_kib");
        m.peak_kib = std::max(m.peak_kib, std::isnan(bake_hwm) ? field(r.json, "hwm_kib") : bake_hwm);
        outs.push_back(std::move(r.json));
    }
    // Keys in the order the child printed them.
    const std::string& first = outs.front();
    for (size_t at = first.find('"'); at != std::string::npos; at = first.find('"', first.find(',', at))) {
        const size_t end = first.find('"', at + 1);
        const std::string key = first.substr(at + 1, end - at - 1);
        std::vector<double> values;
        for (const std::string& o : outs)
            values.push_back(field(o, key.c_str()));
        std::sort(values.begin(), values.end());
        const size_t n = values.size();
        const double median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
        m.json += (m.json.empty() ? "{" : ",") + preview::jsonString(key) + ":" + cli::jsonFixed(median, 6);
        if (first.find(',', at) == std::string::npos) break;
    }
    m.json += "}";
    m.cpu = m.at("cpu");
    return m;
}

} // namespace clearway::bench
