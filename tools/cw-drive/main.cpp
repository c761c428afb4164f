// cw-drive: the seed-003 simulation suite. Bakes each level in-process, plans routes with
// findPath at each vehicle's radius, drives six kinematic-bicycle vehicles along them with the
// clearway follower and the paper's heuristic baseline (and along the same routes as raw
// vertex-to-vertex polylines), and prints the paper's Table I. Where a route bends tighter than a
// vehicle turns and its cheapest drivable route needs a gear change, the clearway columns drive a
// Directional A* route with reverse moves (a planned multi-point turn) instead.
#include <clearway/bake_cli.h>
#include <clearway/motion.h>
#include <clearway/runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace clearway;

constexpr double kGravity = 9.81;
constexpr double kPi = 3.14159265358979323846;
// Look-ahead floor (x turning radius) on planned gear-turn routes (0.75, 0.5, 0.4, 0.3 gave 9, 6, 6, 6
// stuck events).
constexpr double kPlannedTurningLookahead = 0.5;

// Kinematic bicycle parameters; (x, y) is the rear axle and the centre of the wall-clearance disc.
struct VehicleSpec {
    const char* name;
    double radius;        // m: clearance the vehicle needs from walls (routes are planned at it)
    double wheelbase;     // m
    double max_steer;     // rad, front-wheel angle
    double steer_rate;    // rad/s
    double accel;         // m/s^2 at full throttle
    double brake;         // m/s^2 at full brake
    double top_speed;     // m/s forward
    double reverse_speed; // m/s backwards
    double traction;      // lateral acceleration cap, fraction of g (above it the vehicle slides)
};

// Minimum turning radii (wheelbase / tan(max_steer)): car 4.2 m, truck 10.3 m, tank 1.5 m,
// hovercraft 5.5 m, van 5.6 m, kart 2.9 m.
const VehicleSpec kVehicles[] = {
    {"car", 0.5, 2.6, 0.55, 1.5, 4.0, 8.0, 14.0, 4.0, 0.9},
    {"truck", 0.9, 5.0, 0.45, 0.6, 1.5, 4.0, 9.0, 2.5, 0.6},
    {"tank", 0.8, 1.8, 0.9, 1.2, 1.5, 5.0, 7.0, 3.0, 0.8},
    {"hovercraft", 0.7, 3.0, 0.5, 1.2, 2.5, 2.0, 12.0, 3.0, 0.25},
    {"van", 0.7, 3.4, 0.55, 1.0, 2.5, 6.0, 11.0, 3.0, 0.7},
    {"kart", 0.4, 1.6, 0.5, 2.5, 5.0, 8.0, 12.0, 3.0, 1.0},
};
constexpr size_t kVehicleCount = sizeof(kVehicles) / sizeof(kVehicles[0]);

double pointSegmentDistance(double px, double py, const bake::WallSegment& w) {
    const double dx = w.b.x - w.a.x, dy = w.b.y - w.a.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - w.a.x) * dx + (py - w.a.y) * dy) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(px - (w.a.x + t * dx), py - (w.a.y + t * dy));
}

// Uniform grid over one layer's solid walls: distance to the nearest wall up to a cap.
struct WallGrid {
    std::vector<bake::WallSegment> walls;
    double x0 = 0, y0 = 0, cell = 2.0;
    int nx = 1, ny = 1;
    std::vector<std::vector<uint32_t>> cells;

    void build(std::vector<bake::WallSegment> segments) {
        walls = std::move(segments);
        double x1 = 0, y1 = 0;
        x0 = y0 = 1e300;
        x1 = y1 = -1e300;
        for (const auto& w : walls) {
            x0 = std::min({x0, w.a.x, w.b.x});
            y0 = std::min({y0, w.a.y, w.b.y});
            x1 = std::max({x1, w.a.x, w.b.x});
            y1 = std::max({y1, w.a.y, w.b.y});
        }
        if (walls.empty()) x0 = y0 = x1 = y1 = 0;
        nx = std::max(1, int(std::ceil((x1 - x0) / cell)) + 1);
        ny = std::max(1, int(std::ceil((y1 - y0) / cell)) + 1);
        cells.assign(size_t(nx) * ny, {});
        for (uint32_t i = 0; i < walls.size(); ++i) {
            const auto& w = walls[i];
            const int cx0 = cellX(std::min(w.a.x, w.b.x)), cx1 = cellX(std::max(w.a.x, w.b.x));
            const int cy0 = cellY(std::min(w.a.y, w.b.y)), cy1 = cellY(std::max(w.a.y, w.b.y));
            for (int cy = cy0; cy <= cy1; ++cy)
                for (int cx = cx0; cx <= cx1; ++cx)
                    cells[size_t(cy) * nx + cx].push_back(i);
        }
    }
    int cellX(double x) const { return std::clamp(int(std::floor((x - x0) / cell)), 0, nx - 1); }
    int cellY(double y) const { return std::clamp(int(std::floor((y - y0) / cell)), 0, ny - 1); }
    // Distance to the nearest wall, or `cap` when none is closer.
    double distance(double x, double y, double cap) const {
        double best = cap;
        const int cx0 = cellX(x - cap), cx1 = cellX(x + cap), cy0 = cellY(y - cap), cy1 = cellY(y + cap);
        for (int cy = cy0; cy <= cy1; ++cy)
            for (int cx = cx0; cx <= cx1; ++cx)
                for (uint32_t i : cells[size_t(cy) * nx + cx])
                    best = std::min(best, pointSegmentDistance(x, y, walls[i]));
        return best;
    }
};

struct Level {
    std::string name;
    std::vector<uint64_t> bytes; // 8-byte aligned roadmap asset
    RoadmapView view;
    std::vector<uint8_t> scratch_memory;
    PathScratch* scratch = nullptr;
    std::vector<WallGrid> walls; // per layer
    FootprintView footprint;     // the roadmap's embedded footprint, for Directional A*
};

// One route of one vehicle: the follower's polyline and the corridor half-width at each point.
struct Track {
    std::vector<Vec2f> points;
    std::vector<int8_t> gears;      // per segment (< 0 reverse); empty for a forward-only route
    double min_radius = INFINITY;   // tightest arc of the findPath route, m
    std::vector<double> cumulative; // arc length at each point
    std::vector<double> half_width; // corridor: path clearance - vehicle radius (>= 0.25 m)
};

struct Route {
    size_t level;
    uint32_t layer;
    double length; // of the smooth route at the largest vehicle radius
    Track smooth[kVehicleCount], raw[kVehicleCount];
};

void finishTrack(const WallGrid& walls, double radius, Track* t) {
    t->cumulative.assign(t->points.size(), 0.0);
    t->half_width.assign(t->points.size(), 0.0);
    for (size_t i = 0; i < t->points.size(); ++i) {
        if (i > 0)
            t->cumulative[i] = t->cumulative[i - 1] + std::hypot(t->points[i].x - t->points[i - 1].x,
                                                                 t->points[i].y - t->points[i - 1].y);
        t->half_width[i] = std::max(0.25, walls.distance(t->points[i].x, t->points[i].y, 20.0) - radius);
    }
}

// Smooth track: findPath segments, arcs sampled every <= 0.25 m; raw track: the vertex-to-vertex
// polyline (every arc replaced by the corner where its two tangents meet).
void tracksFromSegments(const PathSegment* segs, uint32_t count, Track* smooth, Track* raw) {
    smooth->points.push_back(Vec2f{float(segs[0].start.x), float(segs[0].start.y)});
    raw->points.push_back(smooth->points.back());
    for (uint32_t i = 0; i < count; ++i) {
        const PathSegment& s = segs[i];
        if (s.type == PathSegmentType::Arc) {
            smooth->min_radius = std::min(smooth->min_radius, double(s.radius));
            const int n = std::max(2, int(std::ceil(s.length / 0.25)));
            const double a0 = std::atan2(s.start.y - s.center.y, s.start.x - s.center.x);
            for (int k = 1; k <= n; ++k) {
                const double a = a0 + s.sweep * k / n;
                smooth->points.push_back(Vec2f{float(s.center.x + s.radius * std::cos(a)),
                                               float(s.center.y + s.radius * std::sin(a))});
            }
            smooth->points.back() = Vec2f{float(s.end.x), float(s.end.y)};
            // Tangent lines at both ends meet at distance r*tan(|sweep|/2) from each end.
            const double sweep = std::fabs(s.sweep);
            if (sweep > 1e-6 && sweep < 2.6) {
                const double d = s.radius * std::tan(sweep / 2);
                const double sign = s.sweep > 0 ? 1.0 : -1.0;
                const double tx = -sign * (s.start.y - s.center.y) / s.radius,
                             ty = sign * (s.start.x - s.center.x) / s.radius;
                raw->points.push_back(Vec2f{float(s.start.x + d * tx), float(s.start.y + d * ty)});
            }
        } else {
            smooth->points.push_back(Vec2f{float(s.end.x), float(s.end.y)});
        }
    }
    raw->points.push_back(smooth->points.back());
    // Drop coincident points (the follower needs segments of positive length).
    for (Track* t : {smooth, raw}) {
        std::vector<Vec2f> kept;
        for (const Vec2f& p : t->points)
            if (kept.empty() || std::hypot(p.x - kept.back().x, p.y - kept.back().y) > 1e-3)
                kept.push_back(p);
        t->points = kept;
    }
}

// Planned multi-point turn (seed 004 "Backing up"): a Directional A* route with reverse moves from
// the start pose to the goal, as a polyline with one gear per segment. Tries a margin first (turning
// radius x 1.1, vehicle radius + 0.3 m) so the follower has room for tracking error, then less.
// False when no route exists at any margin.
bool planGearTurns(const Level& level, uint32_t layer, const VehicleSpec& v, const Pose2d& start, Vec2f goal,
                   const WallGrid& walls, Track* out, uint32_t* gear_changes) {
    const double turning_radius = v.wheelbase / std::tan(v.max_steer);
    const double margins[][2] = {{1.1, 0.3}, {1.05, 0.15}, {1.0, 0.0}};
    std::vector<PathPiece> pieces(4096);
    for (const auto& m : margins) {
        DirectionalAStarSettings s = directionalAStarDefaults();
        s.turning_radius = turning_radius * m[0];
        s.vehicle_radius = v.radius + m[1];
        s.allow_reverse = true;
        s.max_expansions = 2000000;
        DirectionalGrid grid;
        size_t bytes = 0;
        if (directionalGridForLayer(level.footprint, layer, s.cell_size, &grid) != Status::Ok ||
            directionalAStarWorkspaceSize(s, grid, &bytes) != Status::Ok)
            return false;
        std::vector<uint64_t> memory((bytes + 7) / 8);
        DirectionalAStar* search = nullptr;
        if (directionalAStarInit(s, grid, level.footprint, layer, memory.data(), bytes, &search) !=
            Status::Ok)
            return false;
        DirectionalAStarResult result{};
        const Status st = directionalAStarFindPath(search, {start, goal.x, goal.y, 0.0, false}, pieces.data(),
                                                   uint32_t(pieces.size()), &result);
        if (st != Status::Ok) continue;
        // Each piece sampled every <= 0.25 m, its end included, so every cusp is a polyline vertex.
        Track t;
        t.points.push_back(Vec2f{float(pieces[0].start.x), float(pieces[0].start.y)});
        for (uint32_t i = 0; i < result.piece_count; ++i) {
            const PathPiece& p = pieces[i];
            const int n = std::max(1, int(std::ceil(p.length / 0.25)));
            for (int k = 1; k <= n; ++k) {
                PathSample q;
                pathSampleAtDistance(&p, 1, p.length * k / n, &q);
                const Vec2f v2{float(q.x), float(q.y)};
                if (std::hypot(v2.x - t.points.back().x, v2.y - t.points.back().y) <= 1e-3) continue;
                t.points.push_back(v2);
                t.gears.push_back(int8_t(p.direction < 0 ? -1 : 1));
            }
        }
        if (t.points.size() < 2) continue;
        finishTrack(walls, v.radius, &t);
        *out = std::move(t);
        *gear_changes = result.gear_changes;
        return true;
    }
    return false;
}

struct Trial {
    bool arrived = false;
    double first_stuck_time = -1; // s, or -1 without a stuck event
    Vec2f first_stuck_at{0, 0};
    uint32_t stuck = 0, teleports = 0, backoffs = 0, gear_changes = 0;
    double time = 0, cte_sum = 0, speed_sum = 0;
    uint64_t steps = 0, inside = 0;
    std::vector<Vec2f> trajectory;
};

struct SimOptions {
    double dt = 0.05;
    bool trace = false; // print every frame to stderr (one trial replayed with --trace)
    double time_base = 30, time_per_metre = 2; // time limit = base + per_metre * route length
};

// The vehicle starts at `start` (the findPath route's first point, facing along its first segment)
// whatever track it is given: a planned track with gears starts on the lattice near it.
Trial drive(const VehicleSpec& v, const Pose2d& start, const Track& track, const WallGrid& walls,
            const FollowerSettings& settings, const SimOptions& sim) {
    Trial trial;
    const uint32_t n = uint32_t(track.points.size());
    const int8_t* gears = track.gears.empty() ? nullptr : track.gears.data();
    FollowerState state;
    if (followerStartGears(track.points.data(), gears, n, &state) != Status::Ok) return trial;
    double x = start.x, y = start.y, heading = start.heading, speed = 0, steer = 0;
    const double limit = sim.time_base + sim.time_per_metre * track.cumulative.back();
    size_t near = 0;
    for (double t = 0; t < limit; t += sim.dt) {
        FollowerCommand cmd;
        if (followerStepGears(settings, track.points.data(), gears, n, FollowerVehicle{x, y, heading, speed},
                              sim.dt, &state, &cmd) != Status::Ok)
            break;
        // Metrics of this frame.
        while (near + 1 < track.cumulative.size() && track.cumulative[near + 1] <= cmd.progress)
            ++near;
        while (near > 0 && track.cumulative[near] > cmd.progress)
            --near;
        const double cte = std::fabs(cmd.cross_track_error);
        trial.cte_sum += cte;
        trial.inside += cte <= track.half_width[near] ? 1 : 0;
        trial.speed_sum += std::fabs(speed);
        ++trial.steps;
        if (trial.steps % 4 == 1) trial.trajectory.push_back(Vec2f{float(x), float(y)});
        if (state.stuck_events > 0 && trial.first_stuck_time < 0) {
            trial.first_stuck_time = t;
            trial.first_stuck_at = Vec2f{float(x), float(y)};
        }
        if (sim.trace)
            std::fprintf(
                stderr,
                "t %.2f x %.2f y %.2f hdg %.3f v %.2f steer %.3f | thr %.2f kappa %.3f vt %.2f kmax %.3f "
                "prog %.2f cte %.2f wall %.2f%s%s%s stuck %u\n",
                t, x, y, heading, speed, steer, cmd.throttle, cmd.curvature, cmd.target_speed,
                cmd.max_curvature, cmd.progress, cmd.cross_track_error, walls.distance(x, y, 5.0),
                cmd.gear < 0 ? " GEAR-R" : "", cmd.reversing ? " REV" : "", cmd.teleport ? " TELEPORT" : "",
                state.stuck_events);
        if (cmd.arrived) {
            trial.arrived = true;
            trial.time = t;
            break;
        }
        if (cmd.teleport) {
            x = cmd.teleport_pose.x;
            y = cmd.teleport_pose.y;
            heading = cmd.teleport_pose.heading;
            speed = 0;
            continue;
        }
        // Actuators: steering angle towards the commanded curvature at the steer rate.
        const double wanted = std::clamp(std::atan(cmd.curvature * v.wheelbase), -v.max_steer, v.max_steer);
        steer += std::clamp(wanted - steer, -v.steer_rate * sim.dt, v.steer_rate * sim.dt);
        double a = cmd.throttle >= 0 ? cmd.throttle * (speed < 0 ? v.brake : v.accel)
                                     : cmd.throttle * (speed > 0 ? v.brake : v.accel);
        speed = std::clamp(speed + a * sim.dt, -v.reverse_speed, v.top_speed);
        // Traction: above the lateral-acceleration cap the vehicle slides (less yaw than commanded).
        double yaw_rate = speed * std::tan(steer) / v.wheelbase;
        const double lateral = std::fabs(speed * yaw_rate), cap = v.traction * kGravity;
        if (lateral > cap) yaw_rate *= cap / lateral;
        const double mid = heading + 0.5 * yaw_rate * sim.dt;
        const double nx = x + speed * std::cos(mid) * sim.dt, ny = y + speed * std::sin(mid) * sim.dt;
        if (walls.distance(nx, ny, v.radius) < v.radius) {
            speed = 0; // blocked by a wall: not advanced
            continue;
        }
        x = nx;
        y = ny;
        heading += yaw_rate * sim.dt;
    }
    if (!trial.arrived) trial.time = limit;
    trial.stuck = state.stuck_events;
    trial.teleports = state.teleport_events;
    trial.backoffs = state.backoff_events;
    trial.gear_changes = state.gear_changes;
    trial.trajectory.push_back(Vec2f{float(x), float(y)});
    return trial;
}

// One column of Table I.
struct Column {
    std::string name;
    uint32_t trials = 0, stuck_trials = 0, stuck = 0, teleports = 0, backoffs = 0, arrived = 0,
             clean_arrivals = 0, gear_changes = 0;
    uint32_t stuck_by_vehicle[kVehicleCount] = {};
    double cte_sum = 0, time_sum = 0, speed_sum = 0;
    uint64_t steps = 0, inside = 0;
    void add(size_t vehicle, const Trial& t) {
        ++trials;
        stuck_trials += t.stuck > 0 ? 1 : 0;
        stuck += t.stuck;
        teleports += t.teleports;
        backoffs += t.backoffs;
        gear_changes += t.gear_changes;
        arrived += t.arrived ? 1 : 0;
        clean_arrivals += t.arrived && t.stuck == 0 ? 1 : 0;
        stuck_by_vehicle[vehicle] += t.stuck;
        cte_sum += t.cte_sum;
        time_sum += t.time;
        speed_sum += t.speed_sum;
        steps += t.steps;
        inside += t.inside;
    }
    double cteMean() const { return steps ? cte_sum / double(steps) : 0.0; }
    double timeMean() const { return trials ? time_sum / trials : 0.0; }
    double insidePercent() const { return steps ? 100.0 * double(inside) / double(steps) : 0.0; }
    double speedMean() const { return steps ? speed_sum / double(steps) : 0.0; }
};

std::string jsonEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

std::string polylineSvg(const std::vector<Vec2f>& pts, double minx, double maxy, double scale,
                        const char* style) {
    std::ostringstream o;
    o << "<polyline fill=\"none\" " << style << " points=\"";
    for (const Vec2f& p : pts)
        o << (p.x - minx) * scale << "," << (maxy - p.y) * scale << " ";
    o << "\"/>\n";
    return o.str();
}

// `planned` (may be null): the clearway columns' planned gear-turn route, drawn dashed over the route.
void writeSvg(const std::string& path, const WallGrid& walls, const Track& track, const Track* planned,
              const Trial& baseline, const Trial& clearway) {
    double minx = 1e300, miny = 1e300, maxx = -1e300, maxy = -1e300;
    for (const auto& w : walls.walls)
        for (const auto& p : {w.a, w.b}) {
            minx = std::min(minx, p.x);
            miny = std::min(miny, p.y);
            maxx = std::max(maxx, p.x);
            maxy = std::max(maxy, p.y);
        }
    minx -= 1;
    miny -= 1;
    maxx += 1;
    maxy += 1;
    const double scale = 900.0 / std::max(maxx - minx, maxy - miny);
    std::ofstream f(path);
    f << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << (maxx - minx) * scale << "\" height=\""
      << (maxy - miny) * scale << "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    for (const auto& w : walls.walls)
        f << "<line x1=\"" << (w.a.x - minx) * scale << "\" y1=\"" << (maxy - w.a.y) * scale << "\" x2=\""
          << (w.b.x - minx) * scale << "\" y2=\"" << (maxy - w.b.y) * scale
          << "\" stroke=\"black\" stroke-width=\"2\"/>\n";
    f << polylineSvg(track.points, minx, maxy, scale, "stroke=\"#999\" stroke-width=\"4\"");
    if (planned)
        f << polylineSvg(planned->points, minx, maxy, scale,
                         "stroke=\"#9ecae1\" stroke-width=\"3\" stroke-dasharray=\"6,4\"");
    f << polylineSvg(baseline.trajectory, minx, maxy, scale, "stroke=\"#d62728\" stroke-width=\"1.5\"");
    f << polylineSvg(clearway.trajectory, minx, maxy, scale, "stroke=\"#1f77b4\" stroke-width=\"1.5\"");
    f << "<text x=\"8\" y=\"18\" font-family=\"sans-serif\" font-size=\"14\">grey: route, red: baseline, "
         "blue: "
         "clearway follower"
      << (planned ? ", dashed: planned multi-point turn (Directional A* with reverse)" : "")
      << "</text>\n</svg>\n";
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "Drive six kinematic-bicycle vehicles along findPath routes with the clearway follower and the "
        "seed-003 baseline; print Table I.\nExit codes: 0 ok, 2 bad input, 3 bake failure or no route."};
    std::vector<std::string> levels;
    uint32_t routes_per_level = 3;
    uint64_t seed = 3;
    std::string svg_dir;
    bool raw = true;
    bool list_trials = false;
    int only_route = -1;
    std::string only_vehicle, trace;
    std::string gear_turns = "cusps";
    SimOptions sim;
    cli::CommonFlags flags;
    app.add_option("--levels", levels, "Level meshes (OBJ, glTF, ...)")->required();
    app.add_option("--routes", routes_per_level, "Routes per level")->capture_default_str();
    app.add_option("--seed", seed, "Random seed of the start/goal pairs")->capture_default_str();
    app.add_option("--dt", sim.dt, "Simulation time step, s")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--svg", svg_dir,
                   "Write one SVG per route and vehicle 0 (walls, route, both trajectories)");
    app.add_flag("!--no-raw", raw, "Skip the raw-polyline runs");
    app.add_flag("--trials", list_trials,
                 "Also print one line per trial (level, route, vehicle, controller)");
    app.add_option("--route", only_route, "Only drive route N (index as in --trials and the SVG names)");
    app.add_option("--vehicle", only_vehicle, "Only drive this vehicle (car, truck, ...)");
    app.add_option("--trace", trace, "Print every frame of this controller's trials to stderr")
        ->check(CLI::IsMember({"baseline", "clearway"}));
    app.add_option("--gear-turns", gear_turns,
                   "Clearway columns: plan a Directional A* route with reverse moves (multi-point turns) "
                   "where the findPath route bends tighter than the vehicle turns (tight), only where that "
                   "route needs a gear change (cusps), or never (off)")
        ->capture_default_str()
        ->check(CLI::IsMember({"tight", "cusps", "off"}));
    cli::addCommonFlags(app, flags);
    CLI11_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-drive");
    log.setVerbosity(flags.verbose, flags.quiet);
    double max_radius = 0;
    for (const auto& v : kVehicles)
        max_radius = std::max(max_radius, v.radius);

    std::vector<Level> baked(levels.size());
    std::vector<Route> routes;
    std::mt19937_64 rng(seed);
    std::vector<PathSegment> segs(4096);
    for (size_t li = 0; li < levels.size(); ++li) {
        Level& L = baked[li];
        L.name = std::filesystem::path(levels[li]).stem().string();
        bake::RoadmapRequest request;
        request.input_path = levels[li];
        bake::RoadmapResult result;
        if (bake::Error error = bake::bakeLevel(request, &result, log)) return cli::fail(log, error);
        const std::vector<uint8_t> bytes = bake::serializeRoadmap(result.roadmap);
        L.bytes.assign((bytes.size() + 7) / 8, 0);
        std::memcpy(L.bytes.data(), bytes.data(), bytes.size());
        size_t scratch_bytes = 0;
        if (loadRoadmap(L.bytes.data(), bytes.size(), &L.view) != Status::Ok ||
            pathScratchSize(L.view, &scratch_bytes) != Status::Ok) {
            log.logger().error("{}: the baked roadmap does not load", levels[li]);
            return 3;
        }
        L.scratch_memory.resize(scratch_bytes);
        if (pathScratchInit(L.view, L.scratch_memory.data(), scratch_bytes, &L.scratch) != Status::Ok ||
            roadmapFootprint(L.view, &L.footprint) != Status::Ok)
            return 3;
        for (uint32_t layer = 0; layer < result.roadmap.footprint.layers.size(); ++layer) {
            L.walls.emplace_back();
            L.walls.back().build(bake::solidLayerWalls(result.roadmap.footprint, layer));
        }
        // Walkable start/goal candidates: roadmap vertices with room for the widest vehicle.
        RoadmapInfo info;
        roadmapInfo(L.view, &info);
        std::vector<RoadmapVertexInfo> candidates;
        for (uint32_t i = 0; i < info.vertex_count; ++i) {
            RoadmapVertexInfo vi;
            if (roadmapVertex(L.view, i, &vi) == Status::Ok && vi.clearance >= max_radius + 0.1)
                candidates.push_back(vi);
        }
        uint32_t found = 0;
        for (int attempt = 0; attempt < 400 && found < routes_per_level && candidates.size() >= 2;
             ++attempt) {
            const auto& a = candidates[rng() % candidates.size()];
            const auto& b = candidates[rng() % candidates.size()];
            if (a.layer != b.layer ||
                std::hypot(a.position.x - b.position.x, a.position.y - b.position.y) < 8.0)
                continue;
            Route route;
            route.level = li;
            route.layer = a.layer;
            bool ok = true;
            for (size_t vi = 0; vi < kVehicleCount && ok; ++vi) {
                uint32_t count = 0;
                ok = findPath(L.view, L.scratch, {a.position.x, a.position.y, a.layer},
                              {b.position.x, b.position.y, b.layer}, kVehicles[vi].radius, INFINITY,
                              segs.data(), &count, uint32_t(segs.size())) == Status::Ok;
                for (uint32_t k = 0; ok && k < count; ++k)
                    ok = !segs[k].portal && segs[k].layer == a.layer;
                if (!ok) break;
                tracksFromSegments(segs.data(), count, &route.smooth[vi], &route.raw[vi]);
                ok = route.smooth[vi].points.size() >= 2 && route.raw[vi].points.size() >= 2;
                if (!ok) break;
                finishTrack(L.walls[a.layer], kVehicles[vi].radius, &route.smooth[vi]);
                finishTrack(L.walls[a.layer], kVehicles[vi].radius, &route.raw[vi]);
            }
            if (!ok) continue;
            route.length = route.smooth[kVehicleCount - 1].cumulative.back();
            for (size_t vi = 0; vi < kVehicleCount; ++vi)
                route.length = std::max(route.length, route.smooth[vi].cumulative.back());
            if (route.length < 10.0) continue;
            routes.push_back(std::move(route));
            ++found;
        }
        log.logger().info("{}: {} routes", L.name, found);
    }
    if (routes.empty()) {
        log.logger().error("no route found on any level");
        return 3;
    }
    if (!svg_dir.empty()) std::filesystem::create_directories(svg_dir);

    const FollowerSettings baseline_settings = followerBaselineDefaults(),
                           clearway_settings = followerDefaults();
    // Paper column 3 ("vehicle-tuned"): a_lat from the vehicle's traction. The Bezier estimate through
    // 6 m chords is about half the arc's curvature, so a_lat = traction / 2 is the true lateral limit.
    Column cols[5] = {{"baseline"}, {"clearway"}, {"clearway_tuned"}, {"baseline_raw"}, {"clearway_raw"}};
    std::vector<std::string> trial_lines;
    uint32_t planned_routes = 0; // vehicle routes the clearway columns drive as planned gear turns
    auto listTrial = [&](size_t ri, size_t vi, const char* controller, const Trial& t) {
        if (!list_trials) return;
        char line[256];
        std::snprintf(line, sizeof line,
                      "%-16s route %2zu %-10s %-14s %s stuck %u teleports %u backoffs %u time %.2f",
                      baked[routes[ri].level].name.c_str(), ri, kVehicles[vi].name, controller,
                      t.arrived ? "arrived" : "LIMIT  ", t.stuck, t.teleports, t.backoffs, t.time);
        std::string s = line;
        if (t.first_stuck_time >= 0) {
            std::snprintf(line, sizeof line, " first stuck %.2f s at (%.1f, %.1f)", t.first_stuck_time,
                          t.first_stuck_at.x, t.first_stuck_at.y);
            s += line;
        }
        trial_lines.push_back(s);
    };
    for (size_t ri = 0; ri < routes.size(); ++ri) {
        if (only_route >= 0 && size_t(only_route) != ri) continue;
        const Route& r = routes[ri];
        const WallGrid& walls = baked[r.level].walls[r.layer];
        for (size_t vi = 0; vi < kVehicleCount; ++vi) {
            if (!only_vehicle.empty() && only_vehicle != kVehicles[vi].name) continue;
            // The clearway follower knows the vehicle's steering geometry (as pure pursuit needs the
            // wheelbase), hence its turning radius; the baseline is the paper's and knows neither.
            FollowerSettings clearway = clearway_settings;
            clearway.turning_radius = kVehicles[vi].wheelbase / std::tan(kVehicles[vi].max_steer);
            FollowerSettings tuned = clearway;
            tuned.target_speed.lateral_accel = 0.5 * kVehicles[vi].traction;
            tuned.initial_lateral_accel = 0.0; // it knows the grip: no cautious start
            SimOptions sim_b = sim, sim_c = sim;
            sim_b.trace = trace == "baseline";
            sim_c.trace = trace == "clearway";
            const Track& route = r.smooth[vi];
            const Pose2d start{
                route.points[0].x, route.points[0].y,
                std::atan2(route.points[1].y - route.points[0].y, route.points[1].x - route.points[0].x)};
            // The clearway columns drive a planned multi-point turn where the route bends tighter than
            // the vehicle can turn; the baseline (the paper's heuristic) cannot follow gear changes.
            const Track* smooth = &route;
            const Track* raw_track = &r.raw[vi];
            Track planned;
            uint32_t planned_changes = 0;
            if (gear_turns != "off" && route.min_radius < clearway.turning_radius &&
                planGearTurns(baked[r.level], r.layer, kVehicles[vi], start, route.points.back(), walls,
                              &planned, &planned_changes) &&
                (gear_turns == "tight" || planned_changes > 0)) {
                smooth = raw_track = &planned;
                ++planned_routes;
                // Drivable by construction: the 0.75-radius look-ahead floor (for routes tighter than the
                // vehicle) would cut the planned turns' insides by ~0.6 m; 0.5 follows them.
                clearway.turning_lookahead = tuned.turning_lookahead = kPlannedTurningLookahead;
            }
            const Trial b = drive(kVehicles[vi], start, route, walls, baseline_settings, sim_b);
            const Trial c = drive(kVehicles[vi], start, *smooth, walls, clearway, sim_c);
            listTrial(ri, vi, "baseline", b);
            listTrial(ri, vi, smooth == &planned ? "clearway+gears" : "clearway", c);
            cols[0].add(vi, b);
            cols[1].add(vi, c);
            cols[2].add(vi, drive(kVehicles[vi], start, *smooth, walls, tuned, sim));
            if (raw) {
                // The raw polyline's first segment may leave at another angle than the route's arc.
                const Track& rt = r.raw[vi];
                const Pose2d raw_start{
                    rt.points[0].x, rt.points[0].y,
                    std::atan2(rt.points[1].y - rt.points[0].y, rt.points[1].x - rt.points[0].x)};
                cols[3].add(vi, drive(kVehicles[vi], raw_start, rt, walls, baseline_settings, sim));
                cols[4].add(vi, drive(kVehicles[vi], raw_track == &planned ? start : raw_start, *raw_track,
                                      walls, clearway, sim));
            }
            if (!svg_dir.empty())
                writeSvg(svg_dir + "/" + baked[r.level].name + "_route" + std::to_string(ri) + "_" +
                             kVehicles[vi].name + ".svg",
                         walls, r.smooth[vi], smooth == &planned ? &planned : nullptr, b, c);
        }
    }
    const size_t ncols = raw ? 5 : 3;
    const double stuck_ratio =
        cols[0].stuck ? double(cols[1].stuck) / cols[0].stuck : (cols[1].stuck ? 1e9 : 0.0);
    const double time_ratio = cols[0].timeMean() > 0 ? cols[1].timeMean() / cols[0].timeMean() : 0.0;
    const bool stuck_met = stuck_ratio <= 0.2, time_met = time_ratio <= 1.0;
    const double tuned_stuck_ratio =
        cols[0].stuck ? double(cols[2].stuck) / cols[0].stuck : (cols[2].stuck ? 1e9 : 0.0);
    const double tuned_time_ratio = cols[0].timeMean() > 0 ? cols[2].timeMean() / cols[0].timeMean() : 0.0;

    if (flags.json) {
        std::printf(
            "{\"routes\": %zu, \"gear_turns\": \"%s\", \"planned_gear_turn_routes\": %u, \"vehicles\": [",
            routes.size(), gear_turns.c_str(), planned_routes);
        for (size_t vi = 0; vi < kVehicleCount; ++vi)
            std::printf(
                "%s{\"name\": \"%s\", \"radius\": %g, \"wheelbase\": %g, \"max_steer\": %g, \"steer_rate\": "
                "%g, \"accel\": %g, \"brake\": %g, \"top_speed\": %g, \"traction_g\": %g}",
                vi ? ", " : "", kVehicles[vi].name, kVehicles[vi].radius, kVehicles[vi].wheelbase,
                kVehicles[vi].max_steer, kVehicles[vi].steer_rate, kVehicles[vi].accel, kVehicles[vi].brake,
                kVehicles[vi].top_speed, kVehicles[vi].traction);
        std::printf("], \"controllers\": {");
        for (size_t ci = 0; ci < ncols; ++ci) {
            const Column& c = cols[ci];
            std::printf(
                "%s\"%s\": {\"trials\": %u, \"stuck_trials\": %u, \"stuck_events\": %u, \"teleports\": %u, "
                "\"backoffs\": %u, \"gear_changes\": %u, "
                "\"arrived\": %u, \"arrived_without_stuck\": %u, \"cross_track_error_mean\": %.4f, "
                "\"time_mean\": %.3f, \"inside_corridor_percent\": %.2f, \"speed_mean\": %.4f, "
                "\"stuck_by_vehicle\": [",
                ci ? ", " : "", jsonEscape(c.name).c_str(), c.trials, c.stuck_trials, c.stuck, c.teleports,
                c.backoffs, c.gear_changes, c.arrived, c.clean_arrivals, c.cteMean(), c.timeMean(),
                c.insidePercent(), c.speedMean());
            for (size_t vi = 0; vi < kVehicleCount; ++vi)
                std::printf("%s{\"vehicle\": \"%s\", \"stuck_events\": %u}", vi ? ", " : "",
                            kVehicles[vi].name, c.stuck_by_vehicle[vi]);
            std::printf("]}");
        }
        std::printf(
            "}, \"target\": {\"stuck_ratio\": %.4f, \"stuck_met\": %s, \"time_ratio\": %.4f, \"time_met\": "
            "%s, \"tuned_stuck_ratio\": %.4f, \"tuned_time_ratio\": %.4f}}\n",
            stuck_ratio, stuck_met ? "true" : "false", time_ratio, time_met ? "true" : "false",
            tuned_stuck_ratio, tuned_time_ratio);
        return 0;
    }
    for (const std::string& line : trial_lines)
        std::printf("%s\n", line.c_str());
    if (!trial_lines.empty()) std::printf("\n");
    std::printf("Table I: %zu routes x %zu vehicles = %u trials per controller (dt %.3f s); clearway columns "
                "drive %u planned gear-turn routes (--gear-turns %s)\n\n",
                routes.size(), kVehicleCount, cols[0].trials, sim.dt, planned_routes, gear_turns.c_str());
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
        cols[1].stuck, cols[0].stuck, stuck_ratio, stuck_met ? "met" : "missed", time_ratio,
        time_met ? "met" : "missed");
    std::printf("Vehicle-tuned clearway: stuck ratio %.2f (<= 0.2: %s), mean time ratio %.2f (<= 1.0: %s)\n",
                tuned_stuck_ratio, tuned_stuck_ratio <= 0.2 ? "met" : "missed", tuned_time_ratio,
                tuned_time_ratio <= 1.0 ? "met" : "missed");
    return 0;
}
