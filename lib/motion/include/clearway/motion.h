// clearway motion: vehicles and cameras on top of the runtime's queries.
//
// Same rules as clearway/runtime.h: C++17, no exceptions, no RTTI, POD structs, no heap
// allocation inside queries (callers own every buffer), status codes from clearway::Status.
#pragma once

#include <clearway/runtime.h>

#include <cstddef>
#include <cstdint>

namespace clearway {

// ===== curves: turning radius, arc-then-line, Dubins, piecewise paths (Pinter 2001) =====
//
// Ground-plane poses in metres; headings in radians, counter-clockwise from +x. All math is in
// doubles and relative to the start pose, so levels far from the origin keep their precision.

// A ground-plane pose: position and heading (radians, counter-clockwise from +x).
struct Pose2d {
    double x, y, heading;
};

// One piece of a vehicle path (Pinter 2001 Listing 2): a straight line or a circular arc.
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

// Arc-then-line (Pinter 2001 Figures 5-6): turn on `side` at `radius` until facing the goal point,
// then drive straight to it. Fills two pieces (arc, line); either may have length 0.
// NotFound when the point is strictly inside the turning circle on that side (a point on the
// circle, within 1e-9 relative rounding, is reached by the arc alone); InvalidArgument for a
// null `out`, radius <= 0 or any non-finite input.
Status arcLineToPoint(const Pose2d& from, double goal_x, double goal_y, double radius, TurnSide side,
                      CurvePath* out);
// The shorter of the two sides (ties go left). NotFound only when the point is inside both circles.
Status shortestArcLine(const Pose2d& from, double goal_x, double goal_y, double radius, CurvePath* out,
                       TurnSide* side);

enum class PointPathKind : uint8_t { TurnStraight = 0, TurnTurn = 1 }; // how shortestPathToPoint gets there
// The shortest forward path from a pose to a point at turning radius `radius`, heading at the point
// free. Bui, Boissonnat, Soueres and Laumond ("Shortest path synthesis for Dubins non-holonomic
// robot", 1994) show it is a turn then a line, or two opposite turns: the latter wins for points
// inside or just outside a turning circle, where arc-then-line must take the far side (a point
// 0.5 m ahead and 3 m left of a vehicle turning at 3 m: 16.64 m against arc-then-line's 21.17 m).
// Two pieces (either may have length 0). Always Ok for valid input; InvalidArgument otherwise.
Status shortestPathToPoint(const Pose2d& from, double goal_x, double goal_y, double radius, CurvePath* out,
                           PointPathKind* kind);
// Either curve to a point, chosen by a setting: Shortest (the default) or ArcLine (shortestArcLine).
enum class PointPathMethod : uint8_t { Shortest = 0, ArcLine = 1 };
Status pathToPoint(const Pose2d& from, double goal_x, double goal_y, double radius, CurvePath* out,
                   PointPathMethod method = PointPathMethod::Shortest);

// The Dubins path of one word from pose to pose at turning radius `radius` (three pieces; the middle
// one is the line of CSC words). NotFound when the word cannot join the poses (CSC inner tangents
// need the circles apart, CCC words need them close).
Status dubinsPath(const Pose2d& from, const Pose2d& to, double radius, DubinsWord word, CurvePath* out);
// The shortest path among all six words (ties go to the earlier word in DubinsWord order).
// Always Ok for valid input: start == goal gives length 0, headings 1e-9 apart give the loop.
Status shortestDubins(const Pose2d& from, const Pose2d& to, double radius, CurvePath* out, DubinsWord* word);

// Pose after driving `distance` metres along pieces[0..count) (Pinter 2001 Listing 2). Distances
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

// ===== follower: Bezier target speed, PI speed control, pure pursuit, stuck manager (de Schaetzen and Sestini 2023) =====
//
// Drives a vehicle along a polyline path: the game reads its vehicle state each frame, calls followerStep
// and applies the throttle and steering it returns. Settings: plain structs, a defaults function each.

struct Point2d {
    double x, y;
};

// Target speed generation (de Schaetzen and Sestini 2023 Algorithm 1).
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

// Algorithm 1: resample `path` from the vehicle position every `spacing` metres (each point the first one
// further along the path at that straight-line distance from the previous), take the largest Bezier
// curvature over consecutive triples and return sqrt(a_lat * g / kappa) clamped to [min_speed, max_speed].
// `progress` is the vehicle's arc-length position on the path (metres from path[0]); the search starts
// there. Near the end fewer points fit; fewer than 3 gives max_speed. `max_curvature` may be null.
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

// Stuck manager: no `min_progress` metres of progress along the path within `window` seconds is a stuck
// event. The first `reverse_attempts` events in a row reverse the throttle for `reverse_time`; the next
// asks the game to teleport the vehicle `teleport_ahead` metres further along the path. Progress past the
// point of the first event resets the series.
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
    // Learn the vehicle's grip: when it turns for a quarter second at clearly less lateral
    // acceleration than commanded (it slides, or its steering is at an unknown limit), a_lat drops to
    // what it reached (as a_lat: half of it, see initial_lateral_accel).
    // One set of defaults then fits a hovercraft and a kart alike (the paper tunes a_lat per vehicle).
    bool learn_lateral_accel;
    // Seconds pressing the throttle without moving (against a wall) before backing off with opposite
    // lock for stuck.reverse_time, long before the stuck window runs out. The stuck window keeps running
    // meanwhile, so a back-off that gains nothing still ends in a stuck event. 0 disables it (the baseline).
    double blocked_time;
    // The vehicle's minimum turning radius, m (wheelbase / tan(max steer) for a bicycle); 0 = unknown (the
    // baseline). Used three ways: the look-ahead is at least turning_lookahead of it (pure pursuit on a
    // nearer point asks for more than full lock at every small heading error: a wide vehicle turns in too
    // late); asking for more than full lock, the target speed is at most saturated_speed (no speed follows
    // that path: run wide slowly, not into a wall); grip learning caps the asked turn at full lock.
    double turning_radius;
    double saturated_speed; // m/s, 0 = no cap
    // The look-ahead floor as a fraction of turning_radius (0.75). A path planned for the turning
    // radius (Directional A*) is drivable as it is: a lower floor (cw-drive: 0.5) cuts its turns less.
    double turning_lookahead;
    // a_lat assumed before the vehicle has shown any grip (<= target_speed.lateral_accel; 0 = trust
    // lateral_accel at once). Turning without sliding raises it to 1.5x the lateral acceleration held (as
    // a_lat, see the next line), up to lateral_accel: a low-traction vehicle meets its first bends slowly
    // instead of finding its grip in a slide that ends at a wall. Grip is measured as true lateral
    // acceleration; Algorithm 1's Bezier through 6 m chords has about half an arc's curvature, so a grip
    // of G g corresponds to a_lat = G / 2 (learned and shown alike).
    double initial_lateral_accel;
    // Paths with gears (followerStartGears): the vehicle brakes to a stop at each cusp (gear change), and
    // switches gear within cusp_distance of it below cusp_speed, or pressed against something within
    // arrive_distance of it (instead of backing off).
    double cusp_distance; // m
    double cusp_speed;    // m/s
    double narrow_time;   // s, narrow corridors (not in the paper): see FollowerState::margins; 0 = off
    double escape_turn;   // rad: escapes (not in the paper) end after escape_turn x turning_radius m; 0 = off
};
// Bezier mode, the defaults above, 2 m/s^2, 1.5 m, 25 m, learning, back-off 0.5 s, turning radius unknown
// (saturated 3 m/s, floor 0.75 of it once set), initial a_lat 0.1, cusps 0.5 m, 0.1 m/s, 0.5 s, 0.5 rad.
FollowerSettings followerDefaults();
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
    uint32_t stuck_events, reverse_events, teleport_events; // totals since followerStart
    double learned_lateral_accel; // fraction of g the vehicle is known to hold, 0 = not learned
    double slip_time;             // s the vehicle has been turning less than commanded
    double slip_peak;             // the largest lateral acceleration reached meanwhile, m/s^2
    double last_heading;          // the previous frame's heading and commanded curvature
    double last_curvature;
    bool has_last;
    double blocked_for;  // s pressing the throttle without moving
    double backoff_left; // s of backing off still to do
    uint32_t backoff_events;
    double proven_lateral_accel; // largest lateral acceleration held without sliding, fraction of g
    // The piece being driven: a run of segments in one gear (a gearless path is one forward piece).
    bool geared;                      // started by followerStartGears with gears
    bool cusp_pending;                // pressed against something near the cusp: switch next frame
    int32_t gear;                     // +1 forward, -1 reverse
    uint32_t piece_first, piece_last; // its first and last segment
    double piece_begin, piece_end;    // their arc lengths along the whole path
    uint32_t gear_changes;            // cusps passed since followerStart
    double escape_travelled;          // m moved since the current escape began
    // Optional, set after a start (count entries, caller-owned): room to stray sideways at path[i] (wall
    // distance - radius). Tracking error ~ narrow_time x speed (steering lag, slides): the target is at most
    // max(min_speed, margin / narrow_time) at each point ahead, braking at stop_decel to it. Null: none.
    const float* margins;
};
// Resets the state for a new path (a path that changes must be started again).
Status followerStart(const Vec2f* path, uint32_t count, FollowerState* state);
// A path with gears, e.g. a Directional A* path with reverse moves: gears[i] is the gear of the segment
// path[i] -> path[i + 1] (count - 1 entries; < 0 reverse, otherwise forward; null = all forward, the same as
// followerStart). Runs of one gear are pieces; the follower drives each in its gear (pure pursuit on the
// reversed pose while reversing), stops at every cusp before switching, and never projects the vehicle onto
// another piece. Progress is arc length along the whole path, so driving a reverse piece is progress for the
// stuck manager. While reversing on plan, the stuck manager and the back-off escape forwards.
Status followerStartGears(const Vec2f* path, const int8_t* gears, uint32_t count, FollowerState* state);

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
    int32_t gear; // of the piece being driven: +1 forward, -1 reverse (the throttle's sign follows it)
};
// One frame: dt seconds since the last call. InvalidArgument for bad input or a path whose point
// count differs from followerStart's.
Status followerStep(const FollowerSettings& settings, const Vec2f* path, uint32_t count,
                    const FollowerVehicle& vehicle, double dt, FollowerState* state, FollowerCommand* out);
// The same for a path started with followerStartGears: pass the same gears (null when started
// without). InvalidArgument when gears are given to a state started without them or vice versa.
Status followerStepGears(const FollowerSettings& settings, const Vec2f* path, const int8_t* gears,
                         uint32_t count, const FollowerVehicle& vehicle, double dt, FollowerState* state,
                         FollowerCommand* out);
// ===== end follower =====

// ===== directional a* =====
//
// Directional A* (Pinter 2001): the search space is (grid cell, heading in 8 compass directions, gear),
// and a move between two such poses is the shortest turning-radius curve (Dubins) of one of three
// kinds: a step to the next cell, a one-way turn of 45 or 90 degrees, or an S-bend shifting one
// lattice step sideways. A move is accepted only if the vehicle's radius stays clear of the walls
// along its whole sweep. Optional reverse moves make three-point turns possible (Pinter 2001 "Backing
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
    bool allow_reverse;      // reverse moves (backing up, Pinter 2001)
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

// ===== trims: trim-trajectory tables and online trim search with steering behaviours (Go et al. 2004) =====
// Vehicles that cannot follow a roadmap (boats, spacecraft, planes): the control model of Go et al. 2004
// pre-integrated offline into trim trajectories (.cwtt, schemas/trims.fbs, baked by cw-trims),
// searched online by best-first search scored with steering behaviours.
//
// Frames. Body: +X forward, +Y left, +Z up. Quaternions are Hamilton (x, y, z, w), body -> world.
// Rates (rad/s): yaw about body +Z (positive turns left), pitch about body -Y (positive noses up),
// roll about body +X (positive lowers the right side).
namespace trims {

constexpr uint32_t kFormatVersion = 1;
constexpr uint32_t kMaxControls = 1024; // per table, so a full table has at most 2^20 trims
constexpr uint32_t kMaxSteps = 100000;  // Euler steps per interval
enum Axis : uint32_t { kYaw = 0, kPitch = 1, kRoll = 2 };

struct Quatf {
    float x, y, z, w;
};

// One trim: pose after one interval at the bake speed, from the origin and identity orientation.
// Same layout as the schema struct (40 bytes), so tables are read in place.
struct Trim {
    Vec3f position;
    Vec3f facing; // orientation * (1, 0, 0)
    Quatf orientation;
};

// The control model: constant forward speed along the facing; the angular velocity moves linearly
// from the initial control's rates to the final control's rates over `interval`, integrated with
// `steps` fixed Euler steps. Each axis has `samples` (odd) rates evenly spread over
// [-max_rate, +max_rate]. Control index c = u + U * pitch_i, u = yaw_i + yaw_samples * roll_i,
// U = yaw_samples * roll_samples.
struct Model {
    uint32_t dimension;  // 2 (yaw only) or 3 (yaw, pitch, optional roll)
    uint32_t samples[3]; // per Axis; 1 for an unused axis
    double max_rate[3];  // rad/s per Axis
    double interval;     // s
    uint32_t steps;
    double speed; // m/s of the bake; positions scale linearly with speed, nothing else changes
};

uint32_t controlCount(const Model& model);
// Rates of a control (rad/s, per Axis). Exactly odd in the sample index, so mirrored controls
// integrate to bit-exact mirror images.
void controlRates(const Model& model, uint32_t control, double rates[3]);
uint32_t straightControl(const Model& model); // all rates zero
// Mirror image through the body's vertical plane: yaw and roll negate, pitch stays.
uint32_t mirrorControl(const Model& model, uint32_t control);
// Trims a table stores: C^2, or (C^2 + P^2) / 2 with left/right symmetry (P = pitch samples).
uint64_t storedTrimCount(const Model& model, bool symmetric);
// Where trim (from, to) lives; *mirrored says the slot holds its mirror image (symmetric tables).
uint64_t trimSlot(const Model& model, bool symmetric, uint32_t from, uint32_t to, bool* mirrored);
Trim mirrorTrim(const Trim& trim);

// The one integrator, used by the bake and by games that animate a vehicle between decisions.
struct PoseD {
    double position[3];
    double orientation[4]; // x, y, z, w
};
PoseD identityPose();
// One Euler step: move along the current facing, then rotate by the body rates over dt.
void integrateStep(const double rates[3], double speed, double dt, PoseD* pose);
// Steps [first, first + count) of the trim from control `from` to control `to` at `speed`.
// first = 0, count = model.steps from identityPose() reproduces the baked trim.
void integrateTrim(const Model& model, uint32_t from, uint32_t to, double speed, uint32_t first,
                   uint32_t count, PoseD* pose);

// ---- loaded table (.cwtt) ----
struct TableView {
    const uint8_t* data = nullptr; // verified FlatBuffer, owned by the caller
    size_t size = 0;
    const Trim* trims = nullptr; // points into data
    uint32_t trim_count = 0;
    uint32_t control_count = 0;
    bool symmetric = false;
    Model model{};
    float max_chord_deviation = 0; // metres at model.speed
};

// Verifies the bytes (FlatBuffers verifier, identifier, version, model ranges, trim count, finite
// numbers, unit quaternions, facing = orientation * X, no trim longer than speed * interval).
// `data` must be 8-byte aligned. Only Ok leaves `out` usable.
Status loadTable(const void* data, size_t size, TableView* out);

struct TableInfo {
    uint32_t format_version;
    uint64_t input_hash;
    uint64_t options_hash;
    const char* baker_version; // into the asset, never null
    const char* name;          // vehicle name, "" when absent
    const char* source_name;   // "" when absent
};
Status tableInfo(const TableView& view, TableInfo* out);
// Trim from control `from` to control `to`, mirrored back when the table stores its twin.
Status tableTrim(const TableView& view, uint32_t from, uint32_t to, Trim* out);

// ---- vehicle state and the rigid-transform step ----
struct VehicleState {
    Vec3f position;
    Quatf orientation;
    float speed;      // m/s, constant over an interval; any value reuses the table
    uint32_t control; // control whose rates the vehicle has now (target of the last interval)
};
Vec3f facingOf(const Quatf& orientation);
// State after one interval flying `control`: the trim placed at `from` by a rigid transform, its
// position scaled by from.speed / model.speed. No integration.
Status applyTrim(const TableView& view, const VehicleState& from, uint32_t control, VehicleState* out);

// ---- steering behaviours: a path segment -> goodness in [0, 1] ----
// A segment as the behaviours see it (Go et al. 2004, figure 2): the chord p0 -> p1 stands in for the
// curved path; d0/d1 are velocities (facing * speed); times are seconds from now.
struct Segment {
    float time;     // start of the segment
    float duration; // one interval
    Vec3f p0, p1;
    Vec3f d0, d1;
    Quatf q0, q1;
};
using BehaviourFn = float (*)(const void* context, const Segment& segment);
// A behaviour is a function and its parameters (no virtual calls, no RTTI); `context` must
// outlive every search that uses it.
struct Behaviour {
    BehaviourFn evaluate = nullptr;
    const void* context = nullptr;
};

// 1/4 (1 + d1^ . u)(1 + (p1 - p0)^ . u), u = (target - p1)^: face the target and move towards it.
struct Seek {
    Vec3f target;
};
// Seek's formula away from the threat; 1 beyond safe_distance (0 = always flee).
struct Flee {
    Vec3f threat;
    float safe_distance;
};
// Seek / Flee at the target's linearly predicted position at the segment's end time.
struct Pursue {
    Vec3f position; // target now
    Vec3f velocity;
};
struct Avoid {
    Vec3f position;
    Vec3f velocity;
    float safe_distance;
};
// The paper's Composite: a multiplicative combination of the parts with the designer's weight and gain
// per part (Go et al. 2004 leave both to the designer). Part i contributes clamp01(gain * g_i) ^ weight:
// a gain > 1 saturates a part sooner (< 1 softens it), a weight sets how much it counts (0 ignores it,
// 2 counts it twice). Null `weights`: the defaults for every part. An empty composite is 1.
struct BehaviourWeight {
    float weight, gain; // >= 0 each
};
BehaviourWeight behaviourWeightDefaults(); // 1, 1: the plain product, bit for bit
struct Composite {
    const Behaviour* parts;
    uint32_t count;
    const BehaviourWeight* weights = nullptr; // count entries, or null
};
float seekGoodness(const Seek& seek, const Segment& segment);
float fleeGoodness(const Flee& flee, const Segment& segment);
float pursueGoodness(const Pursue& pursue, const Segment& segment);
float avoidGoodness(const Avoid& avoid, const Segment& segment);
float compositeGoodness(const Composite& composite, const Segment& segment);
Behaviour behaviour(const Seek* seek);
Behaviour behaviour(const Flee* flee);
Behaviour behaviour(const Pursue* pursue);
Behaviour behaviour(const Avoid* avoid);
Behaviour behaviour(const Composite* composite);

// Moving bounding spheres in a multi-resolution spatial hash: level L has cells of
// min_cell * 2^L; a sphere lives at the finest level whose cells are at least its diameter, so
// it touches at most 2 cells per axis. A moving sphere is hashed by the bounds of its sweep over
// [0, horizon] s; the exact test then follows its motion.
struct Sphere {
    Vec3f center; // at time 0
    float radius;
    Vec3f velocity; // m/s
};
struct SphereHashSettings {
    float min_cell;  // m, finest cell
    uint32_t levels; // 1..16
    float horizon;   // s; set >= search depth * interval so every searched segment is covered
    bool planar;     // ignore z in the hash (2D games)
};
SphereHashSettings defaultSphereHashSettings(); // 4 m cells, 8 levels, 20 s, 3D
struct SphereHash {
    const Sphere* spheres = nullptr; // the caller's array, not copied
    uint32_t sphere_count = 0;
    SphereHashSettings settings{};
    const void* cells = nullptr;
    const uint32_t* entries = nullptr;
    uint32_t cell_mask = 0; // table size - 1 (power of two), 0 when empty
    uint32_t level_mask = 0;
};
// Bytes buildSphereHash needs for these spheres (the count of cells depends on their sizes).
size_t sphereHashMemorySize(const Sphere* spheres, uint32_t count, const SphereHashSettings& settings);
// InvalidArgument for a bad setting or a non-finite / negative sphere; BufferTooSmall if `bytes`
// is short. `memory` must be 8-byte aligned and outlive the hash.
Status buildSphereHash(const Sphere* spheres, uint32_t count, const SphereHashSettings& settings,
                       void* memory, size_t bytes, SphereHash* out);
// Does a sphere of `radius` moving linearly from p0 at time t0 to p1 at time t1 touch any sphere?
// One that already overlaps a sphere at t0 only hits it by moving deeper (it may always back out).
bool sphereHashHitsSegment(const SphereHash& hash, Vec3f p0, Vec3f p1, float t0, float t1, float radius);

// 1 when the segment's chord, thickened by radius + margin, clears every sphere, else 0 (the
// paper's binary test). margin should cover the arc's distance from its chord: use
// view.max_chord_deviation * speed / model.speed.
struct AvoidCollision {
    const SphereHash* hash;
    float radius;
    float margin;
};
float avoidCollisionGoodness(const AvoidCollision& avoid, const Segment& segment);
Behaviour behaviour(const AvoidCollision* avoid);

// Level walls for vehicles on a footprint (a roadmap's walls: pass roadmapFootprint's view): the
// boundary rings of one layer, outer and holes, bucketed in a uniform grid of `cell` metres.
// Segments use the footprint's local x, y (z is ignored).
struct WallGridSettings {
    float cell; // m
};
WallGridSettings defaultWallGridSettings(); // 4 m cells
struct WallGrid {
    const void* edges = nullptr; // pairs of Vec2f, in the caller's memory
    const uint32_t* cell_start = nullptr;
    const uint32_t* entries = nullptr;
    uint32_t edge_count = 0;
    uint32_t nx = 0, ny = 0;
    float origin_x = 0, origin_y = 0, inv_cell = 0;
};
// Bytes buildWallGrid needs. InvalidArgument for a bad layer or cell size, or a grid over 2^22 cells.
Status wallGridMemorySize(const FootprintView& view, uint32_t layer, const WallGridSettings& settings,
                          size_t* bytes);
// `memory` must be 8-byte aligned and outlive the grid; the footprint may be released afterwards.
Status buildWallGrid(const FootprintView& view, uint32_t layer, const WallGridSettings& settings,
                     void* memory, size_t bytes, WallGrid* out);
// Does a disc of `radius` moving from p0 to p1 touch a wall? Crossing one always counts; a disc that
// starts within radius of a wall only hits it by moving closer (it may always back away).
bool wallGridHitsSegment(const WallGrid& grid, Vec2f p0, Vec2f p1, float radius);

// 1 when the segment's chord (x, y), thickened by radius + margin, touches no wall, else 0.
struct AvoidWalls {
    const WallGrid* grid;
    float radius;
    float margin;
};
float avoidWallsGoodness(const AvoidWalls& avoid, const Segment& segment);
Behaviour behaviour(const AvoidWalls* avoid);

// ---- online search (Go et al. 2004, algorithm 1) ----
enum class SearchStrategy : uint32_t {
    SingleStep = 0, // expand the current state only: a local steering baseline
    Uniform = 1,    // every skip-th control at every expansion
    Adaptive = 2,   // round(controls / skip * collapse^depth) controls, drawn from a circular permutation
};

struct SearchSettings {
    SearchStrategy strategy;
    uint32_t max_depth;      // horizon in intervals (the paper used 15-20)
    uint32_t min_leaf_depth; // the chosen state is at least this deep (when any is)
    float discount;          // d in (0, 1): v(s) = v(parent) + g * d^(k-1)
    float optimism;          // f in [-1, 1]: ev(s) = v(s) + f * d^k / (1 - d)
    uint32_t max_nodes;      // visited-state capacity of the workspace
    uint32_t max_expansions; // 0 = until the workspace is full
    float time_budget_ms;    // 0 = none; checked between expansions
    uint32_t skip;           // uniform / adaptive: keep every skip-th control
    float collapse;          // adaptive: c in (0, 1]
    uint32_t seed;           // adaptive: the Monte Carlo permutation
    float damping;           // [0, 1): g *= 1 - damping * |target rates| / max rates (straighter paths)
    float max_rate[3];       // vehicle bounds, rad/s; controls beyond them are never tried; < 0 = table's
    bool prune_zero; // a segment scoring 0 (a collision) ends its path: no children, no optimistic tail
};
SearchSettings
defaultSearchSettings(); // adaptive, depth 16, min leaf 4, d 0.9, f 0.9, damping 0.03, 2048 nodes

// Everything a search touches, carved out of one caller buffer (reused every decision).
struct SearchWorkspace {
    SearchSettings settings{};
    const TableView* table = nullptr;
    void* nodes = nullptr;
    void* heap = nullptr;
    uint16_t* allowed = nullptr;     // controls within the vehicle bounds, straight first
    uint16_t* permutation = nullptr; // adaptive: allowed controls in a seeded random order
    uint16_t* chosen = nullptr;      // scratch: controls of one expansion
    uint32_t allowed_count = 0;
    uint32_t node_capacity = 0;
};
size_t searchWorkspaceSize(const TableView& table, const SearchSettings& settings);
// InvalidArgument for settings out of range; BufferTooSmall when bytes < searchWorkspaceSize.
// `memory` must be 8-byte aligned; `table` must outlive the workspace.
Status initSearchWorkspace(const TableView& table, const SearchSettings& settings, void* memory, size_t bytes,
                           SearchWorkspace* out);

enum class SearchStop : uint32_t { Exhausted = 0, NodeBudget = 1, ExpansionBudget = 2, TimeBudget = 3 };
struct SearchResult {
    uint32_t first_control; // fly this for the next interval
    uint32_t plan_length;   // depth of the chosen state = controls in the plan
    float value;            // v of the chosen state
    float effective_value;  // ev of the chosen state
    float first_goodness;   // goodness of the first segment of the plan
    uint32_t expanded;
    uint32_t visited;
    uint32_t deepest;
    SearchStop stop;
};
// Best-first search from `state`; writes the planned controls (first = result.first_control) to
// plan[0 .. plan_length) when plan is not null. BufferTooSmall (result still filled, plan
// truncated) when plan_capacity < plan_length. Allocates nothing.
// Warm start (beyond the paper): pass the rest of the previous plan (plan + 1, plan_length - 1
// after flying its first control) and those controls stay candidates along their own path, so a
// good plan found once survives sparse sampling. Entries out of range or beyond the bounds end it.
Status search(SearchWorkspace* workspace, const VehicleState& state, const Behaviour& behaviour,
              uint32_t* plan, uint32_t plan_capacity, SearchResult* out, const uint32_t* warm_plan = nullptr,
              uint32_t warm_length = 0);

} // namespace trims
// ===== end trims =====

// ===== camera: speed diagram and look-ahead view along a path (Nieuwenhuisen et al. 2004 "Planning camera motions") =====
//
// A camera flies along a findPath result: its speed is capped per arc (objects must not sweep
// through the view too fast in tight turns) and changes within acceleration and deceleration
// bounds; it looks at where it will be `look_ahead` seconds later, so the viewer sees turns coming
// and the view rotates C1 (looking along the tangent would start rotating abruptly at every arc).

struct CameraSettings {
    double max_speed;         // m/s on lines and wide arcs, > 0
    double max_lateral_accel; // m/s^2, > 0: on an arc of radius R the speed is at most sqrt(this * R)
    double max_accel;         // m/s^2, > 0
    double max_decel;         // m/s^2, > 0 (a magnitude)
    double look_ahead;        // s, >= 0: the view looks at the camera's own position this much later
    double eye_height;        // m above the path's surface
    double start_speed;       // m/s, >= 0: 0 starts at rest (capped by the first segment's limit)
    double end_speed;         // m/s, >= 0: 0 ends at rest
};
CameraSettings cameraDefaults(); // 6 m/s, 1.5 m/s^2 lateral, 1.5 accel, 2.5 decel, 1 s, 1.7 m, rest to rest

// Speed cap of one segment: max_speed on lines, min(max_speed, sqrt(max_lateral_accel * R)) on arcs.
double cameraSpeedCap(const CameraSettings& settings, const PathSegment& segment);

// The speed diagram: knots along the path with constant acceleration between consecutive ones
// (speed squared is linear in s there), so position and speed at any time follow exactly.
struct SpeedKnot {
    double s; // arc length along the path, metres (strictly increasing)
    double v; // speed there, m/s
    double t; // time the camera passes it, s
};
struct SpeedDiagram {
    const SpeedKnot* knots; // the caller's buffer
    uint32_t count;         // >= 1
    double length;          // path length, metres (the last knot's s)
    double duration;        // s (the last knot's t)
};

// Knots a diagram over `segment_count` segments needs at most: 3 * segment_count + 1.
uint32_t speedDiagramMaxKnots(uint32_t segment_count);
// Forward pass (accelerate out of every slow piece) and backward pass (brake before it) over the
// per-segment caps; the diagram is the smaller of the two, which keeps every cap and both bounds
// and is the fastest such profile. Zero-length segments impose nothing. BufferTooSmall when
// max_knots < speedDiagramMaxKnots(count) (the buffer's tail holds the backward pass meanwhile);
// InvalidArgument for null pointers, count 0, invalid segments or settings.
Status buildSpeedDiagram(const PathSegment* segments, uint32_t count, const CameraSettings& settings,
                         SpeedKnot* knots, uint32_t max_knots, SpeedDiagram* out);
// Speed at arc length s (clamped to the path).
Status speedAtDistance(const SpeedDiagram& diagram, double s, double* speed);
// Arc length, speed and acceleration at time t (clamped to [0, duration]); any output may be null.
Status speedDiagramAtTime(const SpeedDiagram& diagram, double t, double* s, double* speed, double* accel);

struct CameraPose {
    double time;    // clamped to [0, duration]
    double s;       // camera arc length on the path
    double speed;   // m/s
    Vec3d position; // local: the path point at s, eye_height above its surface
    Vec3d target;   // local: the path point look_ahead seconds later (past the end: the end
                    // tangent, as if braking in reverse, so the view never collapses at the end)
    Vec3d forward;  // unit vector from position to target
    double yaw;     // heading of forward in the ground plane, radians counter-clockwise from +x
    double pitch;   // radians, > 0 looking up
    uint32_t layer;
};
// Camera pose at time t along the diagram's path (`segments` must be the ones it was built from;
// `view` supplies surface heights as in pathPoseAt). The yaw is C1 in t: position and target are
// both C1 (speed continuous, path tangent-continuous). Pitch follows the surface, which is
// piecewise planar, so it is only C0 where a ramp begins.
Status cameraPoseAt(const RoadmapView& view, const PathSegment* segments, uint32_t count,
                    const SpeedDiagram& diagram, const CameraSettings& settings, double t, CameraPose* out);
// ===== end camera =====

// ===== groups: a coherent group along a backbone path (Nieuwenhuisen et al. 2004 "Path planning for groups") =====
//
// N disc entities follow one backbone path (a findPath result planned for the largest radius)
// inside its corridor, entities repel each other, and the attraction points may not run more than
// max_longitudinal ahead of the least advanced one (leaders wait). The corridor is sampled once per
// path into a caller buffer; steps then touch no walls and never allocate.
//
// The seed's corridor is the union of clearance discs along the path, capped by the group width,
// and an entity's attraction point is the most advanced path point whose disc holds it. Sampled,
// discs leave gaps where the clearance is small (an entity at a disc's centre is not inside the
// next one, so it stalls); here consecutive samples are joined by a capsule around their chord
// whose radius is a certified lower bound of the clearance along it (the distance to the walls is
// 1-Lipschitz: ends c_a, c_b over a chord of length l give >= (c_a + c_b - l) / 2, refined by
// halving the chord up to 4 times). The corridor is the union of these capsules, and the attraction
// point is the most advanced chord point within (capsule radius - entity radius) of the entity.

struct GroupSettings {
    double group_width;      // m: clearance cap, so no entity is further than this from the backbone
    double max_longitudinal; // m: most to least advanced progress; must exceed the group's length in its
                             // narrowest passage, else the leaders wait for a tail that cannot come
    double max_speed;        // m/s
    double max_accel;        // m/s^2: how fast an entity's velocity follows the forces
    double attraction_gain;  // 1/s: desired speed = gain * (distance to the attraction point + path left
                             // beyond it), capped by max_speed: full speed until the end is near
    double repulsion_range;  // m: gap between two discs below which they push apart
    double repulsion_speed;  // m/s of push at contact, falling linearly to 0 at repulsion_range
    double corridor_step;    // m between corridor samples
    double dt;               // s: the fixed step
    double arrive_distance;  // m: an entity whose progress is within this of the path end has arrived
};
GroupSettings groupDefaults(); // 2 m, 12 m, 1.4 m/s, 4 m/s^2, 2 /s, 0.3 m, 1 m/s, 0.25 m, 0.05 s, 4 m

// One corridor sample: the path point, its capped clearance and the capsule to the next sample.
struct GroupCorridorPoint {
    double s;         // arc length along the path
    Vec2d position;   // local ground plane
    double heading;   // path heading there, radians
    double clearance; // min(distance to the walls, group_width)
    double radius;    // wall-free radius of the capsule from here to the next point (0 on the last)
    uint32_t layer;
};
struct GroupCorridor {
    const GroupCorridorPoint* points; // the caller's buffer, uniform in s from 0 to length
    uint32_t count;                   // >= 2
    double step;                      // metres between samples (<= corridor_step)
    double length;
};
// Samples the corridor needs: ceil(length / corridor_step) + 1 (at least 2). 0 for bad input.
uint32_t groupCorridorPointCount(double path_length, double corridor_step);
// Samples the path every `step` <= corridor_step with pathCorridorAt, and the capsules between
// them with wallDistance (both through the scratch's wall grid). BufferTooSmall when max_points <
// groupCorridorPointCount.
Status buildGroupCorridor(const RoadmapView& view, const PathScratch* scratch, const PathSegment* segments,
                          uint32_t count, const GroupSettings& settings, GroupCorridorPoint* points,
                          uint32_t max_points, GroupCorridor* out);

// One entity; an array of these is the whole group state (the caller's memory).
struct GroupEntity {
    Vec2d position;
    Vec2d velocity;
    Vec2d attraction; // its attraction point at the last step
    double radius;    // set by the caller, > 0
    double progress;  // arc length of its (unbounded) attraction point: how far along it is
    double along;     // arc length of the backbone point nearest to it (the order entities move in)
    uint32_t segment; // corridor capsule holding the attraction point (where the next search starts)
    uint32_t layer;   // the layer of that capsule's start sample
};

// Places the group at the start of the corridor, every entity in the corridor, none overlapping,
// filling the corridor across and then along from s = 0 (entity 0 furthest back). `radius` must be
// set; the rest is overwritten. NotFound when they do not fit within max_longitudinal.
Status groupPlace(const GroupCorridor& corridor, const GroupSettings& settings, GroupEntity* entities,
                  uint32_t count);

struct GroupStepInfo {
    double min_progress, max_progress; // of the least and most advanced entity, metres
    uint32_t arrived;                  // entities within arrive_distance of the end
    uint32_t blocked;                  // entities that could not move at all this step
};
// One fixed step (settings.dt) of the whole group, entities moved one at a time, furthest along
// first (deterministic: the same state and settings give bit-identical results). Forces:
// attraction plus repulsion, velocity change bounded by max_accel, speed by max_speed, and no
// entity goes faster towards one ahead of it (within repulsion_range) than that one moves, so a
// crowd queues at a bottleneck instead of wedging it. Then a hard projection keeps the invariants
// exactly: every entity inside the corridor (within capsule radius - its radius of a chord), no two
// overlapping, and progress within [least advanced, least advanced + max_longitudinal] of the
// state before the step. InvalidArgument for bad settings or an entity outside the corridor (a
// state not made by groupPlace and groupStep). `info` may be null. O(N^2) per step.
Status groupStep(const GroupCorridor& corridor, const GroupSettings& settings, GroupEntity* entities,
                 uint32_t count, GroupStepInfo* info);
// ===== end groups =====

} // namespace clearway
