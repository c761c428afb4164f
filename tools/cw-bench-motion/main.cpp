// cw-bench-motion: times the camera (speed diagram, pose per frame) and groups of 50 and 100 (one
// fixed step) on findPath routes between random roadmap vertices of a baked level (fixed seed).
// Uses only the runtime and motion libraries. Prints one line per measurement.
//
//   cw-bench-motion LEVEL.cwrm [--routes N] [--seed S] [--radius R] [--spread M]
#include <clearway/motion.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <ctime>
#include <vector>

using namespace clearway;
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

bool parseNumber(const char* text, double* out) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(v)) return false;
    *out = v;
    return true;
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

int fail(const std::string& message) {
    std::fprintf(stderr, "cw-bench-motion: error: %s\n", message.c_str());
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::printf("usage: cw-bench-motion LEVEL.cwrm [--routes N] [--seed S] [--radius R] [--spread M]\n");
        return argc < 2 ? 2 : 0;
    }
    const std::string file = argv[1];
    double routes = 10, seed = 1, radius = 0.3, spread = 25;
    for (int i = 2; i < argc; ++i) {
        double* target = !std::strcmp(argv[i], "--routes")   ? &routes
                         : !std::strcmp(argv[i], "--seed")   ? &seed
                         : !std::strcmp(argv[i], "--radius") ? &radius
                         : !std::strcmp(argv[i], "--spread") ? &spread
                                                             : nullptr;
        if (!target) return fail(std::string("unknown option ") + argv[i]);
        if (i + 1 >= argc || !parseNumber(argv[i + 1], target))
            return fail(std::string(argv[i]) + " needs a finite number");
        ++i;
    }
    if (!(routes >= 1) || !(radius > 0) || !(spread > 0))
        return fail("--routes >= 1, --radius and --spread > 0");

    std::ifstream in(file, std::ios::binary);
    if (!in) return fail(file + ": cannot be read");
    std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint64_t> bytes(raw.size() / 8 + 1); // 8-byte aligned for the zero-copy loader
    std::memcpy(bytes.data(), raw.data(), raw.size());
    RoadmapView view;
    const Status load = loadRoadmap(bytes.data(), raw.size(), &view);
    if (load != Status::Ok) return fail(file + ": " + statusString(load));
    RoadmapInfo info;
    roadmapInfo(view, &info);
    size_t scratch_bytes = 0;
    pathScratchSize(view, &scratch_bytes);
    std::vector<uint8_t> scratch_memory(scratch_bytes);
    PathScratch* scratch = nullptr;
    if (pathScratchInit(view, scratch_memory.data(), scratch_bytes, &scratch) != Status::Ok)
        return fail(file + ": cannot build the path scratch");

    // Routes between random vertices with room for a group (clearance >= 1 m), at least 30 m long.
    std::mt19937 rng{uint32_t(seed)};
    std::uniform_int_distribution<uint32_t> pick(0, info.vertex_count ? info.vertex_count - 1 : 0);
    std::vector<PathSegment> path(4096);
    const CameraSettings camera = cameraDefaults();
    GroupSettings group = groupDefaults();
    group.max_longitudinal = spread;
    Stats diagram_us, pose_us, corridor_us, step50, step100;
    uint32_t found = 0, arrived[2] = {0, 0}, tried[2] = {0, 0};
    double steps_total[2] = {0, 0}, spreads[2] = {0, 0}, camera_seconds = 0, path_metres = 0;
    for (int attempt = 0; attempt < 2000 && found < uint32_t(routes); ++attempt) {
        RoadmapVertexInfo a, b;
        if (roadmapVertex(view, pick(rng), &a) != Status::Ok ||
            roadmapVertex(view, pick(rng), &b) != Status::Ok)
            continue;
        if (a.clearance < 1.0f || b.clearance < 1.0f) continue;
        uint32_t count = 0;
        if (findPath(view, scratch, {a.position.x, a.position.y, a.layer},
                     {b.position.x, b.position.y, b.layer}, radius, INFINITY, path.data(), &count,
                     uint32_t(path.size())) != Status::Ok)
            continue;
        const double length = pathTotalLength(path.data(), count);
        if (length < 30) continue;
        ++found;
        path_metres += length;

        // Camera: the diagram once, then a pose per 60 Hz frame.
        std::vector<SpeedKnot> knots(speedDiagramMaxKnots(count));
        SpeedDiagram d;
        auto t0 = Clock::now();
        buildSpeedDiagram(path.data(), count, camera, knots.data(), uint32_t(knots.size()), &d);
        diagram_us.add(micros(Clock::now() - t0));
        camera_seconds += d.duration;
        CameraPose pose;
        const uint32_t frames = uint32_t(d.duration * 60);
        t0 = Clock::now();
        for (uint32_t f = 0; f <= frames; ++f)
            cameraPoseAt(view, path.data(), count, d, camera, f / 60.0, &pose);
        pose_us.add(micros(Clock::now() - t0) / double(frames + 1));

        // Groups of 50 and 100 (radius 0.25) along the route until all arrive (budget 10 min).
        std::vector<GroupCorridorPoint> points(groupCorridorPointCount(length, group.corridor_step));
        GroupCorridor corridor;
        t0 = Clock::now();
        if (buildGroupCorridor(view, scratch, path.data(), count, group, points.data(),
                               uint32_t(points.size()), &corridor) != Status::Ok)
            continue;
        corridor_us.add(micros(Clock::now() - t0));
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
            spreads[g] += gs.max_longitudinal;
            if (groupPlace(corridor, gs, entities.data(), n) != Status::Ok) continue;
            ++tried[g];
            Stats& stats = g == 0 ? step50 : step100;
            for (uint32_t step = 0; step < uint32_t(600 / gs.dt); ++step) {
                GroupStepInfo gi;
                const double c0 = threadMicros();
                groupStep(corridor, gs, entities.data(), n, &gi);
                stats.add(threadMicros() - c0);
                if (gi.arrived == n) {
                    ++arrived[g];
                    steps_total[g] += step + 1;
                    break;
                }
            }
        }
    }
    if (found == 0) return fail(file + ": no route of 30 m or more between vertices with 1 m clearance");

    std::printf("%s: %u routes, mean length %.1f m, path radius %.2f\n", file.c_str(), found,
                path_metres / found, radius);
    std::printf(
        "camera: speed diagram %.2f us mean (max %.2f), pose %.3f us mean per frame, mean duration %.1f s\n",
        diagram_us.mean(), diagram_us.max(), pose_us.mean(), camera_seconds / found);
    std::printf("groups: corridor %.1f us mean per route (%.2f m samples)\n", corridor_us.mean(),
                group.corridor_step);
    for (int g = 0; g < 2; ++g) {
        const Stats& s = g == 0 ? step50 : step100;
        std::printf(
            "group of %d: step %.1f us CPU mean, p99 %.1f, max %.1f (dt %.2f s: %.3f%% of real time); "
            "%u/%u routes all arrived, mean %.0f steps, mean spread bound %.1f m\n",
            g == 0 ? 50 : 100, s.mean(), s.quantile(0.99), s.max(), group.dt,
            100.0 * s.mean() * 1e-6 / group.dt, arrived[g], tried[g],
            arrived[g] ? steps_total[g] / arrived[g] : 0.0, spreads[g] / found);
    }
    return 0;
}
