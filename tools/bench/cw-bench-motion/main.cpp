// cw-bench-motion: times the camera (speed diagram, pose per frame) and groups of 50 and 100 (one
// fixed step) on findPath routes between random roadmap vertices of a baked level (fixed seed).
// Uses only the runtime and motion libraries. Prints one line per measurement.
//
//   cw-bench-motion LEVEL.cwrm [--routes N] [--seed S] [--radius R] [--spread M]
#include "motion_bench.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool parseNumber(const char* text, double* out) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(v)) return false;
    *out = v;
    return true;
}

} // namespace

int main(int argc, char** argv) {
    using namespace clearway::motion_bench;
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::printf("usage: cw-bench-motion LEVEL.cwrm [--routes N] [--seed S] [--radius R] [--spread M]\n");
        return argc < 2 ? 2 : 0;
    }
    Options o;
    o.file = argv[1];
    for (int i = 2; i < argc; ++i) {
        double* target = !std::strcmp(argv[i], "--routes")   ? &o.routes
                         : !std::strcmp(argv[i], "--seed")   ? &o.seed
                         : !std::strcmp(argv[i], "--radius") ? &o.radius
                         : !std::strcmp(argv[i], "--spread") ? &o.spread
                                                             : nullptr;
        if (!target) return fail(std::string("unknown option ") + argv[i]);
        if (i + 1 >= argc || !parseNumber(argv[i + 1], target))
            return fail(std::string(argv[i]) + " needs a finite number");
        ++i;
    }
    if (!(o.routes >= 1) || !(o.radius > 0) || !(o.spread > 0))
        return fail("--routes >= 1, --radius and --spread > 0");
    return runMotionBench(o);
}
