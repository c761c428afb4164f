// clearway motion: vehicles and cameras on top of the runtime's queries.
//
// Same rules as clearway/runtime.h: C++17, no exceptions, no RTTI, POD structs, no heap
// allocation inside queries (callers own every buffer), status codes from clearway::Status.
#pragma once

#include <clearway/runtime.h>

#include <cstddef>
#include <cstdint>

namespace clearway {

// ===== curves: turning radius, arc-then-line, Dubins, piecewise paths (seed 004) =====
//
// Ground-plane poses in metres; headings in radians, counter-clockwise from +x. All math is in
// doubles and relative to the start pose, so levels far from the origin keep their precision.

// A ground-plane pose: position and heading (radians, counter-clockwise from +x).
struct Pose2d {
    double x, y, heading;
};

// One piece of a vehicle path (seed 004 Listing 2): a straight line or a circular arc.
// The piece is stored by its start pose and signed curvature rather than by circle centre and
// start angle, so tiny radii and long lines evaluate without cancellation.
struct PathPiece {
    Pose2d start;      // body pose where the piece begins
    double length;     // metres driven along the piece, >= 0
    double curvature;  // steering curvature 1/m: > 0 wheels left, < 0 wheels right, 0 a line
    int32_t direction; // +1 driving forward, -1 reversing (the body heading stays the nose's)
};

inline bool pathPieceIsArc(const PathPiece& piece) {
    return piece.curvature != 0.0;
}

// Where a vehicle is on a path: position, body heading, the curvature it is steering and gear.
struct PathSample {
    double x, y, heading;
    double curvature;
    int32_t direction;
};

enum class TurnSide : uint8_t { Left = 0, Right = 1 };

// The six Dubins words: L = full left turn, R = full right turn, S = straight.
enum class DubinsWord : uint8_t { LSL = 0, RSR, LSR, RSL, RLR, LRL };
constexpr uint32_t kDubinsWordCount = 6;
// "LSL", "RSR", ... (never null).
const char* dubinsWordName(DubinsWord word);

// Up to four pieces, enough for arc-then-line (2) and any Dubins path (3), stored inline.
constexpr uint32_t kCurvePathMaxPieces = 4;
struct CurvePath {
    PathPiece pieces[kCurvePathMaxPieces];
    uint32_t count;
    double length; // sum of the piece lengths, metres
};

// Arc-then-line (seed 004 Figures 5-6): turn on `side` at `radius` until facing the goal point,
// then drive straight to it. Fills two pieces (arc, line); either may have length 0.
// NotFound when the point is strictly inside the turning circle on that side (a point on the
// circle, within 1e-9 relative rounding, is reached by the arc alone); InvalidArgument for a
// null `out`, radius <= 0 or any non-finite input.
Status arcLineToPoint(const Pose2d& from, double goal_x, double goal_y, double radius, TurnSide side,
                      CurvePath* out);
// The shorter of the two sides (ties go left). NotFound only when the point is inside both circles.
Status shortestArcLine(const Pose2d& from, double goal_x, double goal_y, double radius, CurvePath* out,
                       TurnSide* side);

// The Dubins path of one word from pose to pose at turning radius `radius` (three pieces; the middle
// one is the line of CSC words). NotFound when the word cannot join the poses (CSC inner tangents
// need the circles apart, CCC words need them close).
Status dubinsPath(const Pose2d& from, const Pose2d& to, double radius, DubinsWord word, CurvePath* out);
// The shortest path among all six words (ties go to the earlier word in DubinsWord order).
// Always Ok for valid input: start == goal gives length 0, headings 1e-9 apart give the loop.
Status shortestDubins(const Pose2d& from, const Pose2d& to, double radius, CurvePath* out, DubinsWord* word);

// Pose after driving `distance` metres along pieces[0..count) (seed 004 Listing 2). Distances
// outside [0, total length] clamp to the path's ends. InvalidArgument for null pointers, count == 0
// or a non-finite distance.
Status pathSampleAtDistance(const PathPiece* pieces, uint32_t count, double distance, PathSample* out);
// Pose at `time` seconds for a constant `speed` (m/s): pathSampleAtDistance(speed * time).
Status pathSampleAtTime(const PathPiece* pieces, uint32_t count, double speed, double time, PathSample* out);
// Total length of pieces[0..count), metres.
double pathLength(const PathPiece* pieces, uint32_t count);
// Polyline through the path every `spacing` metres (both ends included), for the follower.
// *out_count is the number of points written, or needed when BufferTooSmall.
Status pathToPolyline(const PathPiece* pieces, uint32_t count, double spacing, Vec2f* out,
                      uint32_t* out_count, uint32_t max_out);
// ===== end curves =====

// ===== follower: Bezier target speed, PI speed control, pure pursuit, stuck manager (seed 003) =====
//
// Drives a vehicle along a polyline path: the game reads its vehicle state each frame, calls
// followerStep and applies the throttle and steering it returns. Settings are plain structs with
// a defaults function each (the paper's values where it gives them).

struct Point2d {
    double x, y;
};

// Target speed generation (seed 003 Algorithm 1).
struct TargetSpeedSettings {
    double lateral_accel; // a_lat: tolerated lateral acceleration as a fraction of g (0.4 = normal driving)
    double gravity;       // g, m/s^2
    double spacing;       // delta h: metres between the resampled path points
    uint32_t point_count; // N: resampled points including the vehicle position, 3..kTargetSpeedMaxPoints
    double min_speed;     // v_min, m/s
    double max_speed;     // v_max, m/s
};
constexpr uint32_t kTargetSpeedMaxPoints = 64;
TargetSpeedSettings targetSpeedDefaults(); // 0.4, 9.81, 6 m, 5, 1 m/s, 10 m/s

// Maximum curvature (1/m) of the quadratic Bezier with control points p1, p2, p3, analytically:
// equation 3 when p2 lies outside both circles of diameter p1-m and m-p3 (m = midpoint of p1 p3),
// else the larger end curvature, equation 4. 0 for a straight curve, +infinity for a cusp
// (collinear points with p2 beyond an end).
double bezierMaxCurvature(Point2d p1, Point2d p2, Point2d p3);

// Algorithm 1: resample `path` from the vehicle position every `spacing` metres (each point the
// first one further along the path at that straight-line distance from the previous), take the
// largest Bezier curvature over consecutive triples and return sqrt(a_lat * g / kappa) clamped to
// [min_speed, max_speed]. `progress` is the vehicle's arc-length position on the path (metres from
// path[0]); the search starts there. Near the end fewer points fit; fewer than 3 gives max_speed.
// `max_curvature` may be null.
Status targetSpeed(const TargetSpeedSettings& settings, const Vec2f* path, uint32_t count, Point2d vehicle,
                   double progress, double* speed, double* max_curvature);

// The heuristic baseline the paper compares against: target speed inversely proportional to the
// largest angle between the vehicle's forward vector and a path segment ahead (up to `lookahead`).
struct BaselineSpeedSettings {
    double lookahead;               // metres of path examined ahead of the vehicle
    double speed_per_inverse_angle; // m/s * rad: target = this / largest angle
    double min_speed, max_speed;    // m/s
};
BaselineSpeedSettings baselineSpeedDefaults(); // 30 m, 2 m/s*rad, 1, 10
Status baselineTargetSpeed(const BaselineSpeedSettings& settings, const Vec2f* path, uint32_t count,
                           const Pose2d& vehicle, double progress, double* speed);

// PI speed controller with anti-windup: the integral only grows while the output is not saturated
// in the error's direction, and its contribution is clamped to the output range.
struct SpeedControlSettings {
    double kp;         // throttle per m/s of speed error
    double ki;         // throttle per metre of integrated speed error (0 = the baseline's P-only)
    double min_output; // full brake / reverse throttle, usually -1
    double max_output; // full throttle, usually 1
};
SpeedControlSettings speedControlDefaults(); // kp 0.5, ki 0.25, [-1, 1]
struct SpeedControlState {
    double integral; // integrated speed error, m
};
// One controller step: error = target - speed (m/s), dt in seconds. Returns the clamped throttle.
double speedControlStep(const SpeedControlSettings& settings, SpeedControlState* state, double error,
                        double dt);

// Pure pursuit (Wallace et al. 1985): steer onto the circle through the vehicle that reaches the
// target point with the vehicle's heading as tangent: curvature = 2 sin(alpha) / distance.
struct SteeringSettings {
    double lookahead_time; // s: look-ahead distance = this * |speed| ...
    double min_lookahead;  // ... clamped to [min_lookahead, max_lookahead], metres
    double max_lookahead;
    double wheelbase; // m, converts curvature into a front-wheel angle
    double max_steer; // rad, the front-wheel angle of full steering (+-1)
};
SteeringSettings steeringDefaults(); // 0.8 s, 4 m, 20 m, 2.8 m, 0.6 rad
// Pure-pursuit curvature (1/m, > 0 turns left) from `vehicle` towards `target`. 0 when the target
// is on the vehicle (no direction to steer).
double purePursuitCurvature(const Pose2d& vehicle, Point2d target);
// Front-wheel angle for a curvature, as a normalised steering command in [-1, 1].
double steeringCommand(const SteeringSettings& settings, double curvature);

// Stuck manager: no `min_progress` metres of progress along the path within `window` seconds is a
// stuck event. The first `reverse_attempts` events in a row reverse the throttle for
// `reverse_time`; the next one asks the game to teleport the vehicle `teleport_ahead` metres
// further along the path. Progress past the point of the first event resets the series.
struct StuckSettings {
    double window;           // s
    double min_progress;     // m
    double reverse_time;     // s
    double reverse_throttle; // throttle magnitude while reversing, 0..1
    uint32_t reverse_attempts;
    double teleport_ahead; // m
};
StuckSettings stuckDefaults(); // 3 s, 1 m, 2 s, 0.7, 2 attempts, 5 m

enum class TargetSpeedMode : uint8_t { Bezier = 0, BaselineAngle = 1 };

struct FollowerSettings {
    TargetSpeedMode mode;
    TargetSpeedSettings target_speed;
    BaselineSpeedSettings baseline_speed;
    SpeedControlSettings speed_control;
    SteeringSettings steering;
    StuckSettings stuck;
    double stop_decel;      // m/s^2: the target speed also lets the vehicle stop at the path's end
    double arrive_distance; // m from the end of the path that counts as arrived
    double search_window;   // m of path searched around the last progress for the vehicle's projection
};
FollowerSettings followerDefaults();         // Bezier mode, the defaults above, 2 m/s^2, 1.5 m, 25 m
FollowerSettings followerBaselineDefaults(); // the paper's baseline: angle heuristic, P-only control

struct FollowerState {
    double path_length;   // metres, from followerStart
    uint32_t point_count; // path points the state was started with
    double progress;      // arc length of the vehicle's projection on the path
    double best_progress; // furthest progress reached
    uint32_t segment;     // path segment of the projection, and its start's arc length: the
    double segment_start; // next projection searches around it instead of the whole path
    SpeedControlState speed;
    double window_time;     // s since the stuck window started
    double window_progress; // progress when it started
    double reverse_left;    // s of reversing still to do
    double series_progress; // best progress at the first stuck event of the current series
    uint32_t attempts;      // reverse attempts in the current series
    uint32_t stuck_events;  // totals since followerStart
    uint32_t reverse_events;
    uint32_t teleport_events;
};
// Resets the state for a new path (a path that changes must be started again).
Status followerStart(const Vec2f* path, uint32_t count, FollowerState* state);

struct FollowerVehicle {
    double x, y;    // reference point (the rear axle for exact pure pursuit), metres
    double heading; // radians, counter-clockwise from +x
    double speed;   // m/s along the heading, < 0 reversing
};

struct FollowerCommand {
    double throttle;          // [-1, 1], < 0 brakes or reverses
    double steer;             // [-1, 1], > 0 left
    double curvature;         // commanded path curvature, 1/m (for vehicles steering by turn rate)
    double target_speed;      // m/s
    double max_curvature;     // Bezier estimate ahead, 1/m (0 in baseline mode)
    Point2d target_point;     // the pure-pursuit target
    double progress;          // metres along the path
    double cross_track_error; // metres, > 0 when the vehicle is left of the path
    bool reversing;           // the stuck manager overrides the throttle
    bool teleport;            // the game should move the vehicle to teleport_pose now
    bool arrived;
    Pose2d teleport_pose;
};
// One frame: dt seconds since the last call. InvalidArgument for bad input or a path whose point
// count differs from followerStart's.
Status followerStep(const FollowerSettings& settings, const Vec2f* path, uint32_t count,
                    const FollowerVehicle& vehicle, double dt, FollowerState* state, FollowerCommand* out);
// ===== end follower =====

// ===== directional a* =====
//
// Directional A* (seed 004): the search space is (grid cell, heading in 8 compass directions, gear),
// and a move between two such poses is the shortest turning-radius curve (Dubins) of one of three
// kinds: a step to the next cell, a one-way turn of 45 or 90 degrees, or an S-bend shifting one
// lattice step sideways. A move is accepted only if the vehicle's radius stays clear of the walls
// along its whole sweep. Optional reverse moves make three-point turns possible (seed 004 "Backing
// up"). Loops, like Figure 8's, are sequences of moves.
//
// Walls: each cell centre of a grid 3x finer than the search grid stores its distance to the
// nearest boundary edge; a sweep sample passes when that distance minus the sample's offset from
// the centre (and half the sample spacing) is at least the vehicle radius. The test is conservative
// by at most ~0.3 of a search cell.
//
// Usage: pick a grid (directionalGridForLayer), ask for the workspace size, hand in that many bytes
// (8-byte aligned) and init once per footprint layer and vehicle; then query as often as needed.
// Queries allocate nothing: they reuse the workspace's node arrays (generation-stamped, O(1) reset).
// Memory: about 36 bytes per cell plus 192 bytes per cell and gear (8 headings x 24 bytes).

struct DirectionalAStarSettings {
    double cell_size;        // m, grid resolution
    double turning_radius;   // m, the vehicle's minimum turning radius
    double vehicle_radius;   // m, clearance kept from every wall along the swept path
    bool allow_reverse;      // reverse moves (backing up, seed 004)
    double reverse_cost;     // cost per metre reversed, in metres driven forward (>= 1)
    double gear_change_cost; // m added at every switch between forward and reverse
    uint32_t max_expansions; // give up (NotFound) after this many expanded nodes; 0 = no limit
};
DirectionalAStarSettings directionalAStarDefaults(); // 0.5 m, 4 m, 1 m, no reverse, 2, 4 m, 0

struct DirectionalGrid {
    double origin_x, origin_y; // local ground coordinates of the corner of cell (0, 0)
    double cell_size;          // m
    uint32_t width, height;    // cells
};
// A grid covering the layer's boundary with a margin of one cell.
Status directionalGridForLayer(const FootprintView& view, uint32_t layer, double cell_size,
                               DirectionalGrid* out);

// Bytes the caller provides for directionalAStarInit (clearance grid, motion table, search nodes).
// InvalidArgument for bad settings or an empty grid; BufferTooSmall when it would not fit a size_t.
Status directionalAStarWorkspaceSize(const DirectionalAStarSettings& settings, const DirectionalGrid& grid,
                                     size_t* bytes);

struct DirectionalAStar; // lives inside the caller's workspace memory

// Rasterises layer `layer` of `view` (each cell centre's distance to the nearest wall, negative
// outside the walkable area) and builds the motion table. `memory` must stay alive and unmoved
// while *out is used, and `view`'s bytes only during this call.
Status directionalAStarInit(const DirectionalAStarSettings& settings, const DirectionalGrid& grid,
                            const FootprintView& view, uint32_t layer, void* memory, size_t bytes,
                            DirectionalAStar** out);

struct DirectionalAStarQuery {
    Pose2d start;          // snapped to the centre of its cell and the nearest of the 8 headings
    double goal_x, goal_y; // any pose in the goal's cell ends the search ...
    double goal_heading;   // ... with this heading (snapped) when goal_heading_given
    bool goal_heading_given;
};

struct DirectionalAStarResult {
    double length;         // metres driven, forward and reverse
    double cost;           // the search's cost: reverse metres and gear changes weighted
    uint32_t moves;        // lattice moves on the path
    uint32_t piece_count;  // pieces written, or needed when BufferTooSmall
    uint32_t expansions;   // nodes expanded by the search
    uint32_t gear_changes; // forward <-> reverse switches
};

// Finds the cheapest drivable path and writes its line/arc pieces (consecutive pieces of the same
// curvature and gear merged) to out[0..max_out). NotFound when the start or goal cell is blocked,
// no path exists or max_expansions ran out; BufferTooSmall when the pieces do not fit (then
// result->piece_count says how many are needed). `result` may be null.
Status directionalAStarFindPath(DirectionalAStar* search, const DirectionalAStarQuery& query, PathPiece* out,
                                uint32_t max_out, DirectionalAStarResult* result);

// The grid the search was built for.
Status directionalAStarGrid(const DirectionalAStar* search, DirectionalGrid* out);
// Clearance of a search cell's centre: distance (m) to the nearest wall, capped at vehicle_radius +
// 2 cells; negative outside the walkable area. InvalidArgument outside the grid.
Status directionalAStarCellClearance(const DirectionalAStar* search, uint32_t cell_x, uint32_t cell_y,
                                     float* clearance);
// Whether driving pieces[0..count) keeps the vehicle radius clear of the walls on the clearance grid:
// samples every 1/12 cell, each bounded by the best of its 3x3 nearest fine centres (tighter than
// the search's test, still conservative). For checking paths from elsewhere, e.g. a plain A* path.
Status directionalAStarPiecesClear(const DirectionalAStar* search, const PathPiece* pieces, uint32_t count,
                                   bool* clear);
// ===== end directional a* =====

// ===== trims: trim-trajectory tables and online trim search with steering behaviours (seed 001) =====
// ===== end trims =====

} // namespace clearway
