// The simulation of Table I (de Schaetzen and Sestini, "Efficient Ground Vehicle Path Following
// in Game AI", 2023): kinematic-bicycle vehicles, the walls they must not touch, the tracks they
// follow and one trial of one vehicle along one track.
#pragma once

#include <clearway/bake.h>
#include <clearway/eval.h>
#include <clearway/motion.h>
#include <clearway/runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace clearway::drive {

constexpr double kGravity = 9.81;
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
inline constexpr VehicleSpec kVehicles[] = {
    {"car", 0.5, 2.6, 0.55, 1.5, 4.0, 8.0, 14.0, 4.0, 0.9},
    {"truck", 0.9, 5.0, 0.45, 0.6, 1.5, 4.0, 9.0, 2.5, 0.6},
    {"tank", 0.8, 1.8, 0.9, 1.2, 1.5, 5.0, 7.0, 3.0, 0.8},
    {"hovercraft", 0.7, 3.0, 0.5, 1.2, 2.5, 2.0, 12.0, 3.0, 0.25},
    {"van", 0.7, 3.4, 0.55, 1.0, 2.5, 6.0, 11.0, 3.0, 0.7},
    {"kart", 0.4, 1.6, 0.5, 2.5, 5.0, 8.0, 12.0, 3.0, 1.0},
};
inline constexpr size_t kVehicleCount = sizeof(kVehicles) / sizeof(kVehicles[0]);

// Uniform grid over one layer's solid walls: distance to the nearest wall up to a cap.
struct WallGrid {
    std::vector<bake::WallSegment> walls;
    double x0 = 0, y0 = 0, cell = 2.0;
    int nx = 1, ny = 1;
    std::vector<std::vector<uint32_t>> cells;

    void build(std::vector<bake::WallSegment> segments);
    int cellX(double x) const { return std::clamp(int(std::floor((x - x0) / cell)), 0, nx - 1); }
    int cellY(double y) const { return std::clamp(int(std::floor((y - y0) / cell)), 0, ny - 1); }
    // Distance to the nearest wall, or `cap` when none is closer.
    double distance(double x, double y, double cap) const;
};

// One route of one vehicle: the follower's polyline and the corridor half-width at each point.
struct Track {
    std::vector<Vec2f> points;
    std::vector<int8_t> gears;      // per segment (< 0 reverse); empty for a forward-only route
    double min_radius = INFINITY;   // tightest arc of the findPath route, m
    std::vector<double> cumulative; // arc length at each point
    std::vector<double> half_width; // corridor: path clearance - vehicle radius (>= 0.25 m)
    std::vector<float> margins;     // path clearance - vehicle radius, for the follower (may be <= 0)
};

// Fills the track's arc lengths and corridor half-widths.
void finishTrack(const WallGrid& walls, double radius, Track* t);
// Smooth track: findPath segments, arcs sampled every <= 0.25 m; raw track: the vertex-to-vertex
// polyline (every arc replaced by the corner where its two tangents meet).
void tracksFromSegments(const PathSegment* segs, uint32_t count, Track* smooth, Track* raw);

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
            const FollowerSettings& settings, const SimOptions& sim);

// One SVG of one route and vehicle: walls, route, both trajectories; `planned` (may be null): the
// clearway columns' planned gear-turn route, drawn dashed over the route.
void writeSvg(const std::string& path, const WallGrid& walls, const Track& track, const Track* planned,
              const Trial& baseline, const Trial& clearway);

} // namespace clearway::drive
