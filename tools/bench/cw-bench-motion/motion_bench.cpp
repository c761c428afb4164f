#include "motion_bench.h"

#include <clearway/motion.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

namespace clearway::motion_bench {

using Clock = std::chrono::steady_clock;

namespace {

double micros(Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

// CPU time of this thread in microseconds: the machine may be shared, and a preempted step would
// otherwise count someone else's work.
double threadMicros() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) * 1e-3;
}

struct Stats {
    std::vector<double> samples;
    void add(double v) { samples.push_back(v); }
    double mean() const {
        double s = 0;
        for (double v : samples)
            s += v;
        return samples.empty() ? 0 : s / double(samples.size());
    }
    double quantile(double q) const {
        if (samples.empty()) return 0;
        std::vector<double> s = samples;
        std::sort(s.begin(), s.end());
        return s[std::min(s.size() - 1, size_t(q * double(s.size())))];
    }
    double max() const { return samples.empty() ? 0 : *std::max_element(samples.begin(), samples.end()); }
};

// The level as a game loads it.
struct Level {
    std::vector<uint64_t> bytes; // 8-byte aligned for the zero-copy loader
    RoadmapView view;
    RoadmapInfo info;
    std::vector<uint8_t> scratch_memory;
    PathScratch* scratch = nullptr;
};

// Empty on success, else the error message.
std::string loadLevel(const std::string& file, Level* level) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return file + ": cannot be read";
    std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    level->bytes.assign(raw.size() / 8 + 1, 0);
    std::memcpy(level->bytes.data(), raw.data(), raw.size());
    const Status load = loadRoadmap(level->bytes.data(), raw.size(), &level->view);
    if (load != Status::Ok) return file + ": " + statusString(load);
    roadmapInfo(level->view, &level->info);
    size_t scratch_bytes = 0;
    pathScratchSize(level->view, &scratch_bytes);
    level->scratch_memory.resize(scratch_bytes);
    if (pathScratchInit(level->view, level->scratch_memory.data(), scratch_bytes, &level->scratch) !=
        Status::Ok)
        return file + ": cannot build the path scratch";
    return "";
}

struct Timings {
    Stats diagram_us, pose_us, corridor_us, steps[2]; // steps: groups of 50 and 100
    uint32_t found = 0, arrived[2] = {0, 0}, tried[2] = {0, 0};
    double steps_total[2] = {0, 0}, spreads[2] = {0, 0}, camera_seconds = 0, path_metres = 0;
};

// Camera: the diagram once, then a pose per 60 Hz frame.
void timeCamera(const Level& level, const std::vector<PathSegment>& path, uint32_t count,
                const CameraSettings& camera, Timings* t) {
    std::vector<SpeedKnot> knots(speedDiagramMaxKnots(count));
    SpeedDiagram d;
    auto t0 = Clock::now();
    buildSpeedDiagram(path.data(), count, camera, knots.data(), uint32_t(knots.size()), &d);
    t->diagram_us.add(micros(Clock::now() - t0));
    t->camera_seconds += d.duration;
    CameraPose pose;
    const uint32_t frames = uint32_t(d.duration * 60);
    t0 = Clock::now();
    for (uint32_t f = 0; f <= frames; ++f)
        cameraPoseAt(level.view, path.data(), count, d, camera, f / 60.0, &pose);
    t->pose_us.add(micros(Clock::now() - t0) / double(frames + 1));
}

// Groups of 50 and 100 (radius 0.25) along the route until all arrive (budget 10 min).
void timeGroups(const Level& level, const std::vector<PathSegment>& path, uint32_t count, double length,
                const GroupSettings& group, double spread, Timings* t) {
    std::vector<GroupCorridorPoint> points(groupCorridorPointCount(length, group.corridor_step));
    GroupCorridor corridor;
    const auto t0 = Clock::now();
    if (buildGroupCorridor(level.view, level.scratch, path.data(), count, group, points.data(),
                           uint32_t(points.size()), &corridor) != Status::Ok)
        return;
    t->corridor_us.add(micros(Clock::now() - t0));
    double narrowest = INFINITY;
    for (uint32_t k = 0; k + 1 < corridor.count; ++k) // capsule radii (the last point has none)
        narrowest = std::min(narrowest, corridor.points[k].radius);
    for (int g = 0; g < 2; ++g) {
        const uint32_t n = g == 0 ? 50 : 100;
        const double r = 0.25;
        std::vector<GroupEntity> entities(n, GroupEntity{});
        for (GroupEntity& e : entities)
            e.radius = r;
        // The spread must hold the whole group in the narrowest passage (rows of entities
        // abreast, a diameter apart), else its leaders would wait forever.
        const double abreast = std::max(1.0, std::floor(2 * (narrowest - r) / (2 * r)) + 1);
        GroupSettings gs = group;
        gs.max_longitudinal = std::max(spread, std::ceil(n / abreast) * 2 * r * 1.2 + 2 * gs.group_width);
        // Arrived: the whole group within its own length of the goal (it cannot all stand on it).
        gs.arrive_distance = gs.max_longitudinal;
        t->spreads[g] += gs.max_longitudinal;
        if (groupPlace(corridor, gs, entities.data(), n) != Status::Ok) continue;
        ++t->tried[g];
        Stats& stats = t->steps[g];
        for (uint32_t step = 0; step < uint32_t(600 / gs.dt); ++step) {
            GroupStepInfo gi;
            const double c0 = threadMicros();
            groupStep(corridor, gs, entities.data(), n, &gi);
            stats.add(threadMicros() - c0);
            if (gi.arrived == n) {
                ++t->arrived[g];
                t->steps_total[g] += step + 1;
                break;
            }
        }
    }
}

void printReport(const Options& options, const GroupSettings& group, const Timings& t) {
    const uint32_t found = t.found;
    std::printf("%s: %u routes, mean length %.1f m, path radius %.2f\n", options.file.c_str(), found,
                t.path_metres / found, options.radius);
    std::printf(
        "camera: speed diagram %.2f us mean (max %.2f), pose %.3f us mean per frame, mean duration %.1f s\n",
        t.diagram_us.mean(), t.diagram_us.max(), t.pose_us.mean(), t.camera_seconds / found);
    std::printf("groups: corridor %.1f us mean per route (%.2f m samples)\n", t.corridor_us.mean(),
                group.corridor_step);
    for (int g = 0; g < 2; ++g) {
        const Stats& s = t.steps[g];
        std::printf(
            "group of %d: step %.1f us CPU mean, p99 %.1f, max %.1f (dt %.2f s: %.3f%% of real time); "
            "%u/%u routes all arrived, mean %.0f steps, mean spread bound %.1f m\n",
            g == 0 ? 50 : 100, s.mean(), s.quantile(0.99), s.max(), group.dt,
            100.0 * s.mean() * 1e-6 / group.dt, t.arrived[g], t.tried[g],
            t.arrived[g] ? t.steps_total[g] / t.arrived[g] : 0.0, t.spreads[g] / found);
    }
}

} // namespace

int fail(const std::string& message) {
    std::fprintf(stderr, "cw-bench-motion: error: %s\n", message.c_str());
    return 2;
}

int runMotionBench(const Options& options) {
    Level level;
    const std::string error = loadLevel(options.file, &level);
    if (!error.empty()) return fail(error);
    // Routes between random vertices with room for a group (clearance >= 1 m), at least 30 m long.
    std::mt19937 rng{uint32_t(options.seed)};
    std::uniform_int_distribution<uint32_t> pick(0,
                                                 level.info.vertex_count ? level.info.vertex_count - 1 : 0);
    std::vector<PathSegment> path(4096);
    const CameraSettings camera = cameraDefaults();
    GroupSettings group = groupDefaults();
    group.max_longitudinal = options.spread;
    Timings t;
    for (int attempt = 0; attempt < 2000 && t.found < uint32_t(options.routes); ++attempt) {
        RoadmapVertexInfo a, b;
        if (roadmapVertex(level.view, pick(rng), &a) != Status::Ok ||
            roadmapVertex(level.view, pick(rng), &b) != Status::Ok)
            continue;
        if (a.clearance < 1.0f || b.clearance < 1.0f) continue;
        uint32_t count = 0;
        if (findPath(level.view, level.scratch, {a.position.x, a.position.y, a.layer},
                     {b.position.x, b.position.y, b.layer}, options.radius, INFINITY, path.data(), &count,
                     uint32_t(path.size())) != Status::Ok)
            continue;
        const double length = pathTotalLength(path.data(), count);
        if (length < 30) continue;
        ++t.found;
        t.path_metres += length;
        timeCamera(level, path, count, camera, &t);
        timeGroups(level, path, count, length, group, options.spread, &t);
    }
    if (t.found == 0)
        return fail(options.file + ": no route of 30 m or more between vertices with 1 m clearance");
    printReport(options, group, t);
    return 0;
}

} // namespace clearway::motion_bench
