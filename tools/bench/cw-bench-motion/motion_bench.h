// cw-bench-motion's measurements: the camera (speed diagram, pose per frame) and groups of 50
// and 100 (one fixed step) on findPath routes between random roadmap vertices (fixed seed). Uses
// only the runtime and motion libraries, like a game.
#pragma once

#include <string>

namespace clearway::motion_bench {

struct Options {
    std::string file; // baked roadmap (.cwrm)
    double routes = 10, seed = 1, radius = 0.3, spread = 25;
};

// Prints "cw-bench-motion: error: MESSAGE" on stderr; returns 2 (bad input).
int fail(const std::string& message);
// Loads the level, measures, prints one line per measurement; the exit code.
int runMotionBench(const Options& options);

} // namespace clearway::motion_bench
