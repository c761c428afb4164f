// cw-curve: the shortest arc-then-line and Dubins path for a vehicle with a turning radius, and
// optionally a drivable Directional A* path on a baked footprint.
#include <clearway/bake_cli.h>
#include <clearway/motion.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

// "x,y" or "x,y,heading" -> numbers; false on anything else (extra commas, junk, non-finite).
bool parseNumbers(const std::string& text, std::vector<double>* out) {
    out->clear();
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        char* end = nullptr;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || end == item.c_str() || *end != '\0' || !std::isfinite(v)) return false;
        out->push_back(v);
    }
    return !text.empty() && text.back() != ',';
}

// Times `queries` calls of arc-then-line and shortest Dubins on random poses (fixed seed) at the
// given radius, and up to 200,000 follower frames; prints nanoseconds per call.
void bench(uint32_t queries, double radius, bool json) {
    using namespace clearway;
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
        std::printf(
            "{\"queries\": %u, \"dubins_ns\": %.1f, \"arc_line_ns\": %.1f, \"follower_step_ns\": %.1f, "
            "\"checksum\": %.6g}\n",
            queries, dubins_ns, arc_ns, follower_ns, checksum);
    else
        std::printf(
            "%u random queries: shortest Dubins %.1f ns, shortest arc-then-line %.1f ns; followerStep on a "
            "%u-point path %.1f ns (checksum %.6g)\n",
            queries, dubins_ns, arc_ns, points, follower_ns, checksum);
}

const char* sideName(clearway::TurnSide side) {
    return side == clearway::TurnSide::Left ? "left" : "right";
}

void printPieces(const clearway::CurvePath& path) {
    for (uint32_t i = 0; i < path.count; ++i) {
        const clearway::PathPiece& p = path.pieces[i];
        if (p.curvature == 0.0)
            std::printf("    line %.6g m from (%.6g, %.6g) heading %.6g\n", p.length, p.start.x, p.start.y,
                        p.start.heading);
        else
            std::printf("    %s arc %.6g m (%.6g rad) from (%.6g, %.6g) heading %.6g\n",
                        p.curvature > 0 ? "left" : "right", p.length, p.length * std::fabs(p.curvature),
                        p.start.x, p.start.y, p.start.heading);
    }
}

struct AStarOptions {
    std::string footprint;
    uint32_t layer = 0;
    double cell = 0.5;
    double vehicle_radius = 1.0;
    bool reverse = false;
    uint32_t max_expansions = 0;
};

// The asset and a Directional A* workspace built on one of its layers.
struct Planner {
    std::vector<uint64_t> asset; // 8-byte aligned for loadFootprint
    clearway::FootprintView view;
    clearway::DirectionalAStarSettings settings;
    clearway::DirectionalGrid grid{};
    std::vector<uint64_t> workspace;
    clearway::DirectionalAStar* search = nullptr;
    double init_ms = 0.0;
};

// Empty string on success, else the error message.
std::string makePlanner(const AStarOptions& o, double radius, Planner* p) {
    using namespace clearway;
    std::ifstream file(o.footprint, std::ios::binary);
    if (!file) return o.footprint + ": cannot be read";
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    p->asset.assign((bytes.size() + 7) / 8, 0);
    if (!bytes.empty()) std::memcpy(p->asset.data(), bytes.data(), bytes.size());
    Status s = loadFootprint(p->asset.data(), bytes.size(), &p->view);
    if (s != Status::Ok) return o.footprint + ": " + statusString(s);
    p->settings = directionalAStarDefaults();
    p->settings.cell_size = o.cell;
    p->settings.turning_radius = radius;
    p->settings.vehicle_radius = o.vehicle_radius;
    p->settings.allow_reverse = o.reverse;
    p->settings.max_expansions = o.max_expansions;
    if ((s = directionalGridForLayer(p->view, o.layer, o.cell, &p->grid)) != Status::Ok)
        return o.footprint + ": layer " + std::to_string(o.layer) + ": " + statusString(s);
    size_t size = 0;
    if ((s = directionalAStarWorkspaceSize(p->settings, p->grid, &size)) != Status::Ok)
        return std::string("directional A* settings: ") + statusString(s);
    p->workspace.assign(size / 8 + 1, 0);
    const auto t0 = std::chrono::steady_clock::now();
    s = directionalAStarInit(p->settings, p->grid, p->view, o.layer, p->workspace.data(), size, &p->search);
    p->init_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (s != Status::Ok) return std::string("directional A* init: ") + statusString(s);
    return "";
}

// Random pairs of clear cells (fixed seed), any goal heading: how long a query takes.
void benchAStar(Planner& p, uint32_t queries, bool json) {
    using namespace clearway;
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
        std::printf("{\"grid\": [%u, %u], \"workspace_bytes\": %zu, \"init_ms\": %.2f, \"queries\": %zu, "
                    "\"found\": %u, "
                    "\"ms_median\": %.3f, \"ms_p90\": %.3f, \"ms_max\": %.3f, \"expansions_median\": %u, "
                    "\"expansions_max\": %u}\n",
                    p.grid.width, p.grid.height, p.workspace.size() * 8, p.init_ms, n, found, ms[n / 2],
                    ms[n * 9 / 10], ms[n - 1], expansions[n / 2], expansions[n - 1]);
    else
        std::printf(
            "grid %ux%u cells, workspace %.1f MB, init %.1f ms; %zu random pairs: %u found, query median "
            "%.3f ms, p90 %.3f ms, max %.3f ms; expansions median %u, max %u\n",
            p.grid.width, p.grid.height, p.workspace.size() * 8 / 1e6, p.init_ms, n, found, ms[n / 2],
            ms[n * 9 / 10], ms[n - 1], expansions[n / 2], expansions[n - 1]);
}

} // namespace

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{
        "Shortest path a vehicle with a turning radius can drive: arc-then-line to a point (seed 004)\n"
        "and, when the goal has a heading, the shortest Dubins path (LSL, RSR, LSR, RSL, RLR, LRL);\n"
        "with --footprint also a drivable path around the walls (Directional A*, seed 004).\n" +
        std::string(cli::kExitCodesHelp)};
    std::string from_text, to_text;
    double radius = 0.0;
    cli::CommonFlags flags;
    app.add_option("--from", from_text,
                   "Start pose x,y,heading: metres in the ground plane, heading in radians counter-clockwise "
                   "from +x (required)")
        ->required();
    app.add_option("--to", to_text,
                   "Goal x,y (metres) or x,y,heading (heading in radians, counter-clockwise from +x); with a "
                   "heading the Dubins path is printed too (required)")
        ->required();
    app.add_option("--radius", radius, "Turning radius, metres, > 0 (required)")->required();
    AStarOptions astar;
    app.add_option(
        "--footprint", astar.footprint,
        "Footprint asset (.cwfp): also plan a drivable path from --from to --to with Directional A* "
        "(seed 004) on it, in the asset's local coordinates (metres)");
    app.add_option("--layer", astar.layer, "Footprint layer to plan on")->capture_default_str();
    app.add_option("--cell", astar.cell, "Directional A* grid cell size, metres, > 0")->capture_default_str();
    app.add_option("--vehicle-radius", astar.vehicle_radius,
                   "Metres the vehicle keeps from every wall along its swept path")
        ->capture_default_str();
    app.add_flag(
        "--reverse", astar.reverse,
        "Allow reverse moves (three-point turns); reversing costs 2x per metre plus 4 m per gear change");
    app.add_option("--max-expansions", astar.max_expansions,
                   "Give up after this many expanded search nodes [default: 0 = no limit]");
    uint32_t bench_queries = 0;
    app.add_option("--bench", bench_queries,
                   "Instead: time this many random queries and print the cost per query: arc-then-line and "
                   "Dubins between poses in a 100 m square, then follower frames (up to 200,000); or with "
                   "--footprint Directional A* between random "
                   "clear cells (fixed seeds); --from/--to are still required but unused [default: 0 = off]");
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);
    cli::SpdlogContext log("cw-curve");
    log.configure(flags);
    // Every error here is bad input (exit 2); with --json it is also a JSON error on stdout.
    auto badInput = [&log](const std::string& message) {
        return cli::fail(log, {bake::ErrorCode::InvalidOption, message});
    };

    std::vector<double> from, to;
    if (!parseNumbers(from_text, &from) || from.size() != 3) {
        return badInput(fmt::format("--from '{}': expected x,y,heading (three finite numbers)", from_text));
    }
    if (!parseNumbers(to_text, &to) || (to.size() != 2 && to.size() != 3)) {
        return badInput(fmt::format("--to '{}': expected x,y or x,y,heading (finite numbers)", to_text));
    }
    if (!std::isfinite(radius) || !(radius > 0.0)) {
        return badInput(fmt::format("--radius {}: must be a finite number > 0", radius));
    }
    Planner planner;
    if (!astar.footprint.empty()) {
        if (!(astar.cell > 0.0) || !(astar.vehicle_radius >= 0.0)) {
            return badInput("--cell must be > 0 and --vehicle-radius >= 0");
        }
        const std::string error = makePlanner(astar, radius, &planner);
        if (!error.empty()) {
            return cli::fail(log, {bake::ErrorCode::ReadFailed, error});
        }
        log.logger().debug("directional A*: grid {}x{} cells, workspace {} bytes, init {:.1f} ms",
                           planner.grid.width, planner.grid.height, planner.workspace.size() * 8,
                           planner.init_ms);
    }
    if (bench_queries > 0) {
        if (planner.search)
            benchAStar(planner, bench_queries, flags.json);
        else
            bench(bench_queries, radius, flags.json);
        return 0;
    }
    const Pose2d start{from[0], from[1], from[2]};
    log.logger().debug("from ({}, {}, {}) to ({}, {}) radius {}", start.x, start.y, start.heading, to[0],
                       to[1], radius);

    CurvePath arc{};
    TurnSide side = TurnSide::Left;
    const Status arc_status = shortestArcLine(start, to[0], to[1], radius, &arc, &side);
    if (arc_status == Status::InvalidArgument) {
        return badInput(fmt::format("arc-then-line: {}", statusString(arc_status)));
    }
    CurvePath dubins{};
    DubinsWord word = DubinsWord::LSL;
    const bool has_heading = to.size() == 3;
    if (has_heading) {
        const Status s = shortestDubins(start, Pose2d{to[0], to[1], to[2]}, radius, &dubins, &word);
        if (s != Status::Ok) {
            return badInput(fmt::format("dubins: {}", statusString(s)));
        }
    }

    std::vector<PathPiece> route(1 << 14);
    DirectionalAStarResult route_result{};
    Status route_status = Status::NotFound;
    double route_ms = 0.0;
    if (planner.search) {
        const DirectionalAStarQuery q{start, to[0], to[1], has_heading ? to[2] : 0.0, has_heading};
        const auto t0 = std::chrono::steady_clock::now();
        route_status =
            directionalAStarFindPath(planner.search, q, route.data(), uint32_t(route.size()), &route_result);
        route_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (route_status == Status::InvalidArgument || route_status == Status::BufferTooSmall) {
            return badInput(fmt::format("directional A*: {}", statusString(route_status)));
        }
    }

    if (flags.json) {
        std::string json = "{\"arc_line\": ";
        char buffer[256];
        if (arc_status == Status::Ok) {
            std::snprintf(buffer, sizeof buffer, "{\"length\": %.12g, \"side\": \"%s\"}", arc.length,
                          sideName(side));
            json += buffer;
        } else {
            json += "null";
        }
        if (has_heading) {
            std::snprintf(buffer, sizeof buffer, ", \"dubins\": {\"length\": %.12g, \"word\": \"%s\"}",
                          dubins.length, dubinsWordName(word));
            json += buffer;
        }
        if (planner.search) {
            if (route_status == Status::Ok)
                std::snprintf(buffer, sizeof buffer,
                              ", \"directional_astar\": {\"length\": %.12g, \"moves\": %u, \"pieces\": %u, "
                              "\"gear_changes\": %u, \"expansions\": %u, \"ms\": %.3f}",
                              route_result.length, route_result.moves, route_result.piece_count,
                              route_result.gear_changes, route_result.expansions, route_ms);
            else
                std::snprintf(buffer, sizeof buffer,
                              ", \"directional_astar\": {\"length\": null, \"expansions\": %u, \"ms\": %.3f}",
                              route_result.expansions, route_ms);
            json += buffer;
        }
        std::printf("%s}\n", json.c_str());
    } else if (!flags.quiet) {
        if (arc_status == Status::Ok) {
            std::printf("arc-then-line: %.6g m, turning %s\n", arc.length, sideName(side));
            printPieces(arc);
        } else {
            std::printf("arc-then-line: unreachable (the point is inside both turning circles)\n");
        }
        if (has_heading) {
            std::printf("dubins: %.6g m, %s\n", dubins.length, dubinsWordName(word));
            printPieces(dubins);
        }
        if (planner.search && route_status == Status::Ok) {
            std::printf("directional A*: %.6g m, %u moves, %u gear changes, %u expansions, %.3f ms\n",
                        route_result.length, route_result.moves, route_result.gear_changes,
                        route_result.expansions, route_ms);
            for (uint32_t i = 0; i < route_result.piece_count; ++i) {
                const PathPiece& p = route[i];
                std::printf("    %s%s %.6g m from (%.6g, %.6g) heading %.6g\n",
                            p.direction < 0 ? "reverse " : "",
                            p.curvature == 0.0 ? "line" : (p.curvature > 0 ? "left arc" : "right arc"),
                            p.length, p.start.x, p.start.y, p.start.heading);
            }
        } else if (planner.search) {
            std::printf("directional A*: no drivable path (%s, %u expansions)\n", statusString(route_status),
                        route_result.expansions);
        }
    }
    return 0;
}
