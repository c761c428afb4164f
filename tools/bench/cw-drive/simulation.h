// The simulation of Table I (de Schaetzen and Sestini, "Efficient Ground Vehicle Path Following
// in Game AI", 2023): kinematic-bicycle vehicles, the walls they must not touch, the tracks they
// follow and one trial of one vehicle along one track.
#pragma once

#include <clearway/bake.h>
#include <clearway/eval.h>
#include <clearway/motion.h>
#include <clearway/runtime.h>

#include "vehicle.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace clearway::drive {

// Look-ahead floor (x turning radius) on planned gear-turn routes (0.75, 0.5, 0.4, 0.3 gave 9, 6, 6, 6
// stuck events).
constexpr double kPlannedTurningLookahead = 0.5;

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
    std::vector<uint32_t> layers;   // footprint layer of each point (a cross-layer route changes it)
};

// What the vehicle drives on: each layer's walls and, for slopes, the footprint's surfaces.
struct Ground {
    const std::vector<WallGrid>* walls = nullptr; // per layer
    const FootprintView* surfaces = nullptr;      // null: no gravity along the heading
};

// Fills the track's arc lengths and corridor half-widths (each point against its layer's walls).
void finishTrack(const std::vector<WallGrid>& walls, double radius, Track* t);
// Smooth track: findPath segments, arcs sampled every <= 0.25 m; raw track: the vertex-to-vertex
// polyline (every arc replaced by the corner where its two tangents meet). Every point keeps its
// layer (a portal segment's end is on the next segment's layer, the last one on `goal_layer`).
void tracksFromSegments(const PathSegment* segs, uint32_t count, uint32_t goal_layer, Track* smooth,
                        Track* raw);
// The track's layer at arc length `s` (the layer of the last point at or before it).
uint32_t trackLayerAt(const Track& t, double s);
// The surface height under each point of the track on its layer (NaN off the surface).
std::vector<double> trackHeights(const Track& t, const FootprintView& surfaces);
// Steepest uphill pitch (sine) along the track in its direction over `wheelbase`-long chords.
double steepestClimb(const Track& t, const std::vector<double>& heights, double wheelbase);

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
// The vehicle is on the track's layer at the follower's progress: its walls hold it, its surface
// pitches it (with `ground.surfaces`).
Trial drive(const VehicleSpec& v, const Pose2d& start, const Track& track, const Ground& ground,
            const FollowerSettings& settings, const SimOptions& sim);

// One SVG of one route and vehicle: walls, route, both trajectories; `planned` (may be null): the
// clearway columns' planned gear-turn route, drawn dashed over the route.
void writeSvg(const std::string& path, const WallGrid& walls, const Track& track, const Track* planned,
              const Trial& baseline, const Trial& clearway);

} // namespace clearway::drive
