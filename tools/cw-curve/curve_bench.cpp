// cw-curve --bench: what a query costs, on random queries with fixed seeds.
#include "curve_cli.h"

#include <clearway/preview/json_writer.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <utility>

namespace clearway::curve {

// Times `queries` calls of arc-then-line and shortest Dubins on random poses (fixed seed) at the
// given radius, and up to 200,000 follower frames; prints nanoseconds per call.
void benchCurves(uint32_t queries, double radius, bool json) {
    std::mt19937 rng(12345);
    std::uniform_real_distribution<double> pos(-50.0, 50.0), head(-3.14159265358979, 3.14159265358979);
    std::vector<Pose2d> poses(2048);
    for (Pose2d& p : poses)
        p = Pose2d{pos(rng), pos(rng), head(rng)};
    double checksum = 0.0;
    CurvePath path{};
    const auto t0 = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < queries; ++i) {
        if (shortestDubins(poses[i % 2048], poses[(i * 7 + 1) % 2048], radius, &path, nullptr) == Status::Ok)
            checksum += path.length;
    }
    const auto t1 = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < queries; ++i) {
        const Pose2d& to = poses[(i * 7 + 1) % 2048];
        if (shortestArcLine(poses[i % 2048], to.x, to.y, radius, &path, nullptr) == Status::Ok)
            checksum += path.length;
    }
    const auto t2 = std::chrono::steady_clock::now();
    // Follower: one frame on a 150 m polyline (1 m spacing: straight, r 20 left, straight, r 6 right,
    // straight), the vehicle 0.3 m off the path at 8 m/s, moved 1 cm along it per frame.
    const double pi = 3.14159265358979323846;
    const double shape[5][2] = {{30, 0}, {pi / 2 * 20, 1 / 20.0}, {20, 0}, {pi / 2 * 6, -1 / 6.0}, {30, 0}};
    PathPiece pieces[5];
    Pose2d at{0, 0, 0};
    for (int i = 0; i < 5; ++i) {
        pieces[i] = PathPiece{at, shape[i][0], shape[i][1], 1};
        PathSample end{};
        pathSampleAtDistance(&pieces[i], 1, shape[i][0], &end);
        at = Pose2d{end.x, end.y, end.heading};
    }
    std::vector<Vec2f> polyline(512);
    uint32_t points = 0;
    pathToPolyline(pieces, 5, 1.0, polyline.data(), &points, uint32_t(polyline.size()));
    const double total = pathLength(pieces, 5);
    std::vector<PathSample> frames(queries < 200000 ? queries : 200000);
    for (size_t i = 0; i < frames.size(); ++i)
        pathSampleAtDistance(pieces, 5, std::fmod(i * 0.01, total - 2.0), &frames[i]);
    const FollowerSettings settings = followerDefaults();
    FollowerState state{};
    FollowerCommand cmd{};
    followerStart(polyline.data(), points, &state);
    const auto t3 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < frames.size(); ++i) {
        if (i > 0 && frames[i].x < frames[i - 1].x - 1.0)
            followerStart(polyline.data(), points, &state); // lap
        const PathSample& f = frames[i];
        followerStep(settings, polyline.data(), points, FollowerVehicle{f.x, f.y + 0.3, f.heading, 8.0},
                     1.0 / 60, &state, &cmd);
        checksum += cmd.throttle;
    }
    const auto t4 = std::chrono::steady_clock::now();
    const double dubins_ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / queries;
    const double arc_ns = std::chrono::duration<double, std::nano>(t2 - t1).count() / queries;
    const double follower_ns = std::chrono::duration<double, std::nano>(t4 - t3).count() / frames.size();
    if (json)
        std::printf("{\"queries\": %u, \"dubins_ns\": %s, \"arc_line_ns\": %s, \"follower_step_ns\": %s, "
                    "\"checksum\": %s}\n",
                    queries, cli::jsonFixed(dubins_ns, 1).c_str(), cli::jsonFixed(arc_ns, 1).c_str(),
                    cli::jsonFixed(follower_ns, 1).c_str(), preview::jsonNumber(checksum, 6).c_str());
    else
        std::printf(
            "%u random queries: shortest Dubins %.1f ns, shortest arc-then-line %.1f ns; followerStep on a "
            "%u-point path %.1f ns (checksum %.6g)\n",
            queries, dubins_ns, arc_ns, points, follower_ns, checksum);
}

// Random pairs of clear cells (fixed seed), any goal heading: how long a query takes.
void benchAStar(Planner& p, uint32_t queries, bool json) {
    std::vector<std::pair<uint32_t, uint32_t>> clear;
    for (uint32_t y = 0; y < p.grid.height; ++y)
        for (uint32_t x = 0; x < p.grid.width; ++x) {
            float c = 0.0f;
            directionalAStarCellClearance(p.search, x, y, &c);
            if (c >= p.settings.vehicle_radius) clear.emplace_back(x, y);
        }
    if (clear.empty()) {
        std::printf("no cell is clear for this vehicle radius\n");
        return;
    }
    std::mt19937 rng(5);
    std::uniform_int_distribution<size_t> pick(0, clear.size() - 1);
    std::uniform_int_distribution<int> heading(0, 7);
    std::vector<PathPiece> out(1 << 14);
    std::vector<double> ms;
    std::vector<uint32_t> expansions;
    uint32_t found = 0;
    auto centre = [&](uint32_t cx, uint32_t cy) {
        return std::make_pair(p.grid.origin_x + (cx + 0.5) * p.grid.cell_size,
                              p.grid.origin_y + (cy + 0.5) * p.grid.cell_size);
    };
    for (uint32_t i = 0; i < queries; ++i) {
        const auto a = clear[pick(rng)], b = clear[pick(rng)];
        const auto from = centre(a.first, a.second), to = centre(b.first, b.second);
        const DirectionalAStarQuery q{Pose2d{from.first, from.second, heading(rng) * 0.7853981633974483},
                                      to.first, to.second, 0.0, false};
        DirectionalAStarResult r{};
        const auto t0 = std::chrono::steady_clock::now();
        const Status s = directionalAStarFindPath(p.search, q, out.data(), uint32_t(out.size()), &r);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        expansions.push_back(r.expansions);
        found += s == Status::Ok;
    }
    std::sort(ms.begin(), ms.end());
    std::sort(expansions.begin(), expansions.end());
    const size_t n = ms.size();
    if (json)
        std::printf("{\"grid\": [%u, %u], \"workspace_bytes\": %zu, \"init_ms\": %s, \"queries\": %zu, "
                    "\"found\": %u, \"ms_median\": %s, \"ms_p90\": %s, \"ms_max\": %s, "
                    "\"expansions_median\": %u, \"expansions_max\": %u}\n",
                    p.grid.width, p.grid.height, p.workspace.size() * 8, cli::jsonFixed(p.init_ms, 2).c_str(),
                    n, found, cli::jsonFixed(ms[n / 2], 3).c_str(), cli::jsonFixed(ms[n * 9 / 10], 3).c_str(),
                    cli::jsonFixed(ms[n - 1], 3).c_str(), expansions[n / 2], expansions[n - 1]);
    else
        std::printf(
            "grid %ux%u cells, workspace %.1f MB, init %.1f ms; %zu random pairs: %u found, query median "
            "%.3f ms, p90 %.3f ms, max %.3f ms; expansions median %u, max %u\n",
            p.grid.width, p.grid.height, p.workspace.size() * 8 / 1e6, p.init_ms, n, found, ms[n / 2],
            ms[n * 9 / 10], ms[n - 1], expansions[n / 2], expansions[n - 1]);
}

} // namespace clearway::curve
