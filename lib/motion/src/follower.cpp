// Path follower for ground vehicles (de Schaetzen and Sestini 2023): Bezier-curvature target speed, PI speed control
// with anti-windup, pure-pursuit steering on a look-ahead point, and a stuck manager.
//
// The path is the caller's polyline (floats, as the runtime stores them); all math is in doubles.
// Nothing here allocates: Algorithm 1's resampled points live in a fixed stack array.
#include <clearway/motion.h>

#include <cmath>

namespace clearway {
namespace {

bool finite(double v) {
    return std::isfinite(v);
}
constexpr double kPi = 3.14159265358979323846;
// Algorithm 1's Bezier through points 6 m apart on an arc of radius R has about half its curvature
// (1/(2R) for R >> 6 m; README "Path follower"): a_lat = 0.4 drives at about 0.8 g.
constexpr double kBezierCurvatureRatio = 0.5;

double clampTo(double v, double lo, double hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

Point2d at(const Vec2f* path, uint32_t i) {
    return Point2d{path[i].x, path[i].y};
}
double dist(Point2d a, Point2d b) {
    return std::hypot(b.x - a.x, b.y - a.y);
}
double segmentLength(const Vec2f* path, uint32_t i) {
    return dist(at(path, i), at(path, i + 1));
}

// A position on the polyline: segment index, arc length where it starts, and the offset along it.
struct Cursor {
    uint32_t segment;
    double segment_start;
    double offset;
};

Point2d pointOf(const Vec2f* path, const Cursor& c) {
    const Point2d a = at(path, c.segment), b = at(path, c.segment + 1);
    const double len = dist(a, b);
    const double t = len > 0.0 ? c.offset / len : 0.0;
    return Point2d{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
}

// Cursor at arc length `s` (clamped to the path), walking from a hint segment in either direction.
Cursor locate(const Vec2f* path, uint32_t count, double s, uint32_t segment, double segment_start) {
    const uint32_t last = count - 2;
    if (segment > last) segment = 0, segment_start = 0.0;
    while (segment > 0 && s < segment_start) {
        --segment;
        segment_start -= segmentLength(path, segment);
    }
    if (segment == 0) segment_start = 0.0; // stop rounding drift from accumulating
    if (s < 0.0) s = 0.0;
    double len = segmentLength(path, segment);
    while (segment < last && s > segment_start + len) {
        segment_start += len;
        ++segment;
        len = segmentLength(path, segment);
    }
    return Cursor{segment, segment_start, clampTo(s - segment_start, 0.0, len)};
}

double polylineLength(const Vec2f* path, uint32_t count) {
    double total = 0.0;
    for (uint32_t i = 0; i + 1 < count; ++i)
        total += segmentLength(path, i);
    return total;
}

bool validPath(const Vec2f* path, uint32_t count) {
    if (!path || count < 2) return false;
    for (uint32_t i = 0; i < count; ++i)
        if (!finite(path[i].x) || !finite(path[i].y)) return false;
    return true;
}

// First point at or after `from` along the path whose straight-line distance from `centre` is at
// least `radius` (Algorithm 1, line 3). The disc is convex, so once inside it a segment leaves it at
// most once: the larger root of |a + t(b - a) - centre| = radius. False at the end of the path.
bool nextPointAtDistance(const Vec2f* path, uint32_t count, Point2d centre, double radius, Cursor* cursor,
                         Point2d* out) {
    const Point2d here = pointOf(path, *cursor);
    if (dist(here, centre) >= radius) {
        *out = here;
        return true;
    }
    uint32_t seg = cursor->segment;
    double seg_start = cursor->segment_start;
    double from = cursor->offset;
    for (;;) {
        const Point2d a = at(path, seg), b = at(path, seg + 1);
        const double len = dist(a, b);
        if (len > 0.0) {
            const double dx = (b.x - a.x) / len, dy = (b.y - a.y) / len;
            const double fx = a.x - centre.x, fy = a.y - centre.y;
            const double half_b = fx * dx + fy * dy;
            const double disc = half_b * half_b - (fx * fx + fy * fy - radius * radius);
            if (disc >= 0.0) {
                const double exit = std::fmax(from, -half_b + std::sqrt(disc));
                if (exit <= len) {
                    *cursor = Cursor{seg, seg_start, exit};
                    *out = Point2d{a.x + dx * exit, a.y + dy * exit};
                    return true;
                }
            }
        }
        if (seg + 2 >= count) {
            *cursor = Cursor{seg, seg_start, len};
            *out = b;
            return false;
        }
        seg_start += len;
        ++seg;
        from = 0.0;
    }
}

double cross(Point2d o, Point2d a, Point2d b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

double targetSpeedAt(const TargetSpeedSettings& s, const Vec2f* path, uint32_t count, Point2d vehicle,
                     const Cursor& start, double* max_curvature) {
    Point2d points[kTargetSpeedMaxPoints];
    uint32_t n = 0;
    points[n++] = vehicle; // line 1: the first Bezier slows a vehicle that is off the path
    Cursor cursor = start;
    while (n < s.point_count) {
        Point2d next;
        const bool inside = nextPointAtDistance(path, count, points[n - 1], s.spacing, &cursor, &next);
        if (!inside) {
            // The path ends within spacing: keep its end only when it is not a near-duplicate,
            // whose short leg would make a spurious sharp Bezier.
            if (dist(next, points[n - 1]) >= 0.25 * s.spacing) points[n++] = next;
            break;
        }
        points[n++] = next;
    }
    double kappa = 0.0;
    for (uint32_t i = 0; i + 2 < n; ++i)
        kappa = std::fmax(kappa, bezierMaxCurvature(points[i], points[i + 1], points[i + 2]));
    if (max_curvature) *max_curvature = kappa;
    const double v = kappa > 0.0 ? std::sqrt(s.lateral_accel * s.gravity / kappa) : s.max_speed;
    return clampTo(v, s.min_speed, s.max_speed);
}

bool validTargetSpeedSettings(const TargetSpeedSettings& s) {
    return finite(s.lateral_accel) && s.lateral_accel > 0.0 && finite(s.gravity) && s.gravity > 0.0 &&
           finite(s.spacing) && s.spacing > 0.0 && s.point_count >= 3 &&
           s.point_count <= kTargetSpeedMaxPoints && finite(s.min_speed) && finite(s.max_speed) &&
           s.min_speed >= 0.0 && s.min_speed <= s.max_speed;
}

double baselineSpeedAt(const BaselineSpeedSettings& s, const Vec2f* path, uint32_t count,
                       const Pose2d& vehicle, const Cursor& start) {
    const double fx = std::cos(vehicle.heading), fy = std::sin(vehicle.heading);
    double largest = 0.0;
    Point2d from = pointOf(path, start);
    double travelled = 0.0;
    for (uint32_t seg = start.segment; seg + 1 < count && travelled < s.lookahead; ++seg) {
        const Point2d to = at(path, seg + 1);
        const double len = dist(from, to);
        if (len > 0.0) {
            const double c = ((to.x - from.x) * fx + (to.y - from.y) * fy) / len;
            largest = std::fmax(largest, std::acos(clampTo(c, -1.0, 1.0)));
        }
        travelled += len;
        from = to;
    }
    const double v = largest > 0.0 ? s.speed_per_inverse_angle / largest : s.max_speed;
    return clampTo(v, s.min_speed, s.max_speed);
}

// Closest point to `p` on the segments around the previous progress, from segment `first` on
// (`count` ends at the current piece: a path with gears doubles back at its cusps).
void project(const Vec2f* path, uint32_t count, uint32_t first, Point2d p, double window, FollowerState* st,
             double* cte) {
    Cursor c = locate(path, count, st->progress - window, st->segment, st->segment_start);
    while (c.segment < first) {
        c.segment_start += segmentLength(path, c.segment);
        ++c.segment;
    }
    const double end = st->progress + window;
    double best_d2 = INFINITY, best_s = st->progress, best_gap = INFINITY;
    Cursor best = c;
    double best_cross = 0.0;
    for (uint32_t seg = c.segment; seg + 1 < count; ++seg) {
        const Point2d a = at(path, seg), b = at(path, seg + 1);
        const double len = dist(a, b);
        double t = 0.0;
        if (len > 0.0)
            t = clampTo(((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / (len * len), 0.0, 1.0);
        const Point2d q{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
        const double d2 = (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y);
        const double s = c.segment_start + t * len;
        const double gap = std::fabs(s - st->progress);
        // Equal distances (a vehicle on a corner's bisector) go to the projection nearest the old one.
        if (d2 < best_d2 - 1e-12 || (d2 <= best_d2 + 1e-12 && gap < best_gap)) {
            best_d2 = d2;
            best_s = s;
            best_gap = gap;
            best = Cursor{seg, c.segment_start, t * len};
            best_cross = len > 0.0 ? cross(a, b, p) / len : 0.0;
        }
        if (c.segment_start + len > end) break;
        c.segment_start += len;
    }
    st->progress = best_s;
    st->segment = best.segment;
    st->segment_start = best.segment_start;
    *cte = best_cross;
}

// Reverse with opposite lock: it swings the nose towards the path. The curvature flips with the
// wheel angle (yaw rate = speed * curvature, and the speed is now negative). On a reverse piece
// the same escape drives forwards.
void reverseCommand(const StuckSettings& stuck, FollowerState* state, FollowerCommand* cmd) {
    cmd->reversing = true;
    cmd->throttle = -state->gear * stuck.reverse_throttle;
    cmd->steer = -cmd->steer;
    cmd->curvature = -cmd->curvature;
    state->speed.integral = 0.0;
    state->has_last = false; // grip is learned driving forwards only
}

// Makes the piece around `segment` (whose start is at arc length `segment_start`) the current one:
// the run of segments in its gear. Without gears the whole path is one forward piece.
void enterPiece(const Vec2f* path, const int8_t* gears, uint32_t count, uint32_t segment,
                double segment_start, FollowerState* st) {
    const bool reverse = gears && gears[segment] < 0;
    uint32_t first = segment, last = segment;
    double begin = segment_start;
    if (gears) {
        while (first > 0 && (gears[first - 1] < 0) == reverse) {
            --first;
            begin -= segmentLength(path, first);
        }
        while (last + 2 < count && (gears[last + 1] < 0) == reverse)
            ++last;
    } else {
        first = 0;
        last = count - 2;
    }
    double end = segment_start;
    for (uint32_t i = segment; i <= last; ++i)
        end += segmentLength(path, i);
    st->gear = reverse ? -1 : 1;
    st->piece_first = first;
    st->piece_last = last;
    st->piece_begin = first == 0 ? 0.0 : begin;
    st->piece_end = last + 2 == count ? st->path_length : end; // the path's end exactly as before
}

Status followerStepImpl(const FollowerSettings& settings, const Vec2f* path, const int8_t* gears,
                        uint32_t count, const FollowerVehicle& vehicle, double dt, FollowerState* state,
                        FollowerCommand* out);

} // namespace

TargetSpeedSettings targetSpeedDefaults() {
    return TargetSpeedSettings{0.4, 9.81, 6.0, 5, 1.0, 10.0};
}
BaselineSpeedSettings baselineSpeedDefaults() {
    return BaselineSpeedSettings{30.0, 2.0, 1.0, 10.0};
}
SpeedControlSettings speedControlDefaults() {
    return SpeedControlSettings{0.5, 0.25, -1.0, 1.0};
}
SteeringSettings steeringDefaults() {
    return SteeringSettings{0.8, 4.0, 20.0, 2.8, 0.6};
}
StuckSettings stuckDefaults() {
    return StuckSettings{3.0, 1.0, 2.0, 0.7, 2, 5.0};
}

FollowerSettings followerDefaults() {
    FollowerSettings s;
    s.mode = TargetSpeedMode::Bezier;
    s.target_speed = targetSpeedDefaults();
    s.baseline_speed = baselineSpeedDefaults();
    s.speed_control = speedControlDefaults();
    s.steering = steeringDefaults();
    s.stuck = stuckDefaults();
    s.stop_decel = 2.0;
    s.arrive_distance = 1.5;
    s.search_window = 25.0;
    s.learn_lateral_accel = true;
    s.blocked_time = 0.5;
    s.turning_radius = 0.0;
    s.initial_lateral_accel = 0.1;
    s.saturated_speed = 3.0;
    s.turning_lookahead = 0.75;
    s.cusp_distance = 0.5;
    s.cusp_speed = 0.1;
    s.narrow_time = 0.5;
    s.escape_turn = 0.5;
    return s;
}

FollowerSettings followerBaselineDefaults() {
    FollowerSettings s = followerDefaults();
    s.mode = TargetSpeedMode::BaselineAngle;
    s.speed_control.ki = 0.0;
    s.learn_lateral_accel = false;
    s.blocked_time = 0.0;
    s.initial_lateral_accel = 0.0;
    s.saturated_speed = 0.0;
    s.narrow_time = 0.0;
    s.escape_turn = 0.0;
    return s;
}

double bezierMaxCurvature(Point2d p1, Point2d p2, Point2d p3) {
    const Point2d m{0.5 * (p1.x + p3.x), 0.5 * (p1.y + p3.y)};
    const double area = 0.5 * std::fabs(cross(p1, p2, p3)); // A: the control triangle's area
    const double radius = 0.5 * dist(p1, m);
    const Point2d c1{0.5 * (p1.x + m.x), 0.5 * (p1.y + m.y)}, c3{0.5 * (p3.x + m.x), 0.5 * (p3.y + m.y)};
    if (dist(p2, c1) > radius && dist(p2, c3) > radius) {
        // Equation 3: the curvature peaks inside the curve, at |p2 - m|^3 / A^2.
        const double lever = dist(p2, m);
        if (lever == 0.0) return 0.0;     // p2 = m: a straight line
        if (area == 0.0) return INFINITY; // collinear, p2 beyond an end: the curve reverses
        return lever * lever * lever / (area * area);
    }
    // Equation 4: monotone curvature, largest at an end.
    if (area == 0.0) return 0.0;
    const double l1 = dist(p1, p2), l3 = dist(p3, p2);
    return std::fmax(area / (l1 * l1 * l1), area / (l3 * l3 * l3));
}

Status targetSpeed(const TargetSpeedSettings& settings, const Vec2f* path, uint32_t count, Point2d vehicle,
                   double progress, double* speed, double* max_curvature) {
    if (!speed || !validPath(path, count) || !validTargetSpeedSettings(settings) || !finite(vehicle.x) ||
        !finite(vehicle.y) || !finite(progress))
        return Status::InvalidArgument;
    const Cursor start = locate(path, count, progress, 0, 0.0);
    *speed = targetSpeedAt(settings, path, count, vehicle, start, max_curvature);
    return Status::Ok;
}

Status baselineTargetSpeed(const BaselineSpeedSettings& settings, const Vec2f* path, uint32_t count,
                           const Pose2d& vehicle, double progress, double* speed) {
    if (!speed || !validPath(path, count) || !finite(settings.lookahead) ||
        !finite(settings.speed_per_inverse_angle) || !(settings.min_speed <= settings.max_speed) ||
        !finite(vehicle.heading) || !finite(progress))
        return Status::InvalidArgument;
    *speed = baselineSpeedAt(settings, path, count, vehicle, locate(path, count, progress, 0, 0.0));
    return Status::Ok;
}

double speedControlStep(const SpeedControlSettings& s, SpeedControlState* state, double error, double dt) {
    if (!state || !finite(error)) return 0.0;
    if (!finite(dt) || dt < 0.0) dt = 0.0;
    const double grown = state->integral + error * dt;
    const double trial = s.kp * error + s.ki * grown;
    // Conditional integration: never integrate further into a saturated output.
    const bool winding_up = (trial > s.max_output && error > 0.0) || (trial < s.min_output && error < 0.0);
    if (!winding_up) state->integral = grown;
    if (s.ki > 0.0) state->integral = clampTo(state->integral, s.min_output / s.ki, s.max_output / s.ki);
    return clampTo(s.kp * error + s.ki * state->integral, s.min_output, s.max_output);
}

double purePursuitCurvature(const Pose2d& vehicle, Point2d target) {
    const double dx = target.x - vehicle.x, dy = target.y - vehicle.y;
    const double distance = std::hypot(dx, dy);
    if (!(distance > 0.0)) return 0.0;
    // Lateral offset of the target in the vehicle frame: distance * sin(alpha).
    const double lateral = -std::sin(vehicle.heading) * dx + std::cos(vehicle.heading) * dy;
    return 2.0 * lateral / (distance * distance);
}

double steeringCommand(const SteeringSettings& s, double curvature) {
    if (!(s.max_steer > 0.0) || !finite(curvature)) return 0.0;
    return clampTo(std::atan(s.wheelbase * curvature) / s.max_steer, -1.0, 1.0);
}

Status followerStart(const Vec2f* path, uint32_t count, FollowerState* state) {
    return followerStartGears(path, nullptr, count, state);
}

Status followerStartGears(const Vec2f* path, const int8_t* gears, uint32_t count, FollowerState* state) {
    if (!state || !validPath(path, count)) return Status::InvalidArgument;
    *state = FollowerState{};
    state->path_length = polylineLength(path, count);
    state->point_count = count;
    state->geared = gears != nullptr;
    enterPiece(path, gears, count, 0, 0.0, state);
    return Status::Ok;
}

Status followerStep(const FollowerSettings& settings, const Vec2f* path, uint32_t count,
                    const FollowerVehicle& vehicle, double dt, FollowerState* state, FollowerCommand* out) {
    return followerStepGears(settings, path, nullptr, count, vehicle, dt, state, out);
}

Status followerStepGears(const FollowerSettings& settings, const Vec2f* path, const int8_t* gears,
                         uint32_t count, const FollowerVehicle& vehicle, double dt, FollowerState* state,
                         FollowerCommand* out) {
    if (!state || !out || !validPath(path, count) || count != state->point_count || !finite(dt) || dt < 0.0 ||
        !finite(vehicle.x) || !finite(vehicle.y) || !finite(vehicle.heading) || !finite(vehicle.speed) ||
        !validTargetSpeedSettings(settings.target_speed) || (gears != nullptr) != state->geared)
        return Status::InvalidArgument;
    return followerStepImpl(settings, path, gears, count, vehicle, dt, state, out);
}

namespace {

// Projects the vehicle on the current piece (points up to its end: nothing beyond a cusp is
// projected on or looked at); at a cusp it is stopped on, the next gear's piece. Returns the
// number of points up to the current piece's end.
uint32_t projectOnPiece(const FollowerSettings& settings, const Vec2f* path, const int8_t* gears,
                        uint32_t count, const FollowerVehicle& vehicle, FollowerState* state, double* cte) {
    const Point2d position{vehicle.x, vehicle.y};
    uint32_t piece_count = state->piece_last + 2;
    project(path, piece_count, state->piece_first, position, settings.search_window, state, cte);
    if (gears && piece_count < count) {
        // A cusp: stopped on it (or pressed against something just short of it) -> next gear.
        const double left = state->piece_end - state->progress;
        if (state->cusp_pending ||
            (left <= settings.cusp_distance && std::fabs(vehicle.speed) <= settings.cusp_speed)) {
            const uint32_t next = state->piece_last + 1;
            const double begin = state->piece_end;
            enterPiece(path, gears, count, next, begin, state);
            state->piece_begin = begin;
            state->progress = begin;
            state->segment = next;
            state->segment_start = begin;
            state->cusp_pending = false;
            state->speed.integral = 0.0;
            state->blocked_for = 0.0;
            state->backoff_left = 0.0;
            state->reverse_left = 0.0;
            state->window_time = 0.0; // a planned stop is no stuck sign
            state->window_progress = begin;
            state->has_last = false;
            ++state->gear_changes;
            piece_count = state->piece_last + 2;
            project(path, piece_count, state->piece_first, position, settings.search_window, state, cte);
        }
    }
    return piece_count;
}

// Grip: compare the turn the last command asked for with the turn the vehicle made since, and
// return the target speed settings with the lateral acceleration the grip allows.
TargetSpeedSettings gripLimitedSettings(const FollowerSettings& settings, const FollowerVehicle& vehicle,
                                        double dt, FollowerState* state) {
    TargetSpeedSettings speed_settings = settings.target_speed;
    if (settings.learn_lateral_accel && state->has_last && dt > 0.0) {
        const double gravity = speed_settings.gravity;
        const double yaw_rate = std::remainder(vehicle.heading - state->last_heading, 2.0 * kPi) / dt;
        const double reached = std::fabs(vehicle.speed * yaw_rate);
        // A known turning radius caps what the wheels can ask for: steering at full lock is no slide.
        double asked_curvature = std::fabs(state->last_curvature);
        if (settings.turning_radius > 0.0)
            asked_curvature = std::fmin(asked_curvature, 1.0 / settings.turning_radius);
        const double asked = vehicle.speed * vehicle.speed * asked_curvature;
        // Steering lag also turns less than asked for a moment; only a sustained gap counts.
        const bool turning =
            std::fabs(vehicle.speed) > 1.0 && asked > 0.25 * speed_settings.lateral_accel * gravity;
        if (turning && reached < 0.8 * asked) {
            state->slip_time += dt;
            state->slip_peak = std::fmax(state->slip_peak, reached);
        } else {
            if (turning)
                state->proven_lateral_accel = std::fmax(state->proven_lateral_accel, reached / gravity);
            state->slip_time = 0.0;
            state->slip_peak = 0.0;
        }
        if (state->slip_time >= 0.25) {
            const double held = std::fmax(0.05, state->slip_peak / gravity);
            if (state->learned_lateral_accel == 0.0 || held < state->learned_lateral_accel)
                state->learned_lateral_accel = held;
        }
    }
    // Grip is measured as true lateral acceleration; a_lat is compared with the Bezier estimate, which
    // through 6 m chords is about half an arc's curvature (see targetSpeed), so a_lat = grip / 2.
    if (settings.initial_lateral_accel > 0.0)
        speed_settings.lateral_accel =
            std::fmin(speed_settings.lateral_accel,
                      std::fmax(settings.initial_lateral_accel,
                                1.5 * kBezierCurvatureRatio * state->proven_lateral_accel));
    if (state->learned_lateral_accel > 0.0)
        speed_settings.lateral_accel =
            std::fmin(speed_settings.lateral_accel, kBezierCurvatureRatio * state->learned_lateral_accel);
    return speed_settings;
}

// Pure pursuit on the point one look-ahead distance further along the piece; past a cusp the
// target runs on along the piece's last tangent (not back along the next piece). Sets the
// command's target point, curvature and steering.
void pursue(const FollowerSettings& settings, const Vec2f* path, uint32_t piece_count, bool final_piece,
            const FollowerVehicle& vehicle, const Pose2d& pose, double gear, const Cursor& here,
            const FollowerState& state, FollowerCommand* cmd) {
    const SteeringSettings& steer = settings.steering;
    const double min_lookahead =
        std::fmax(steer.min_lookahead, settings.turning_lookahead * settings.turning_radius);
    const double lookahead = clampTo(steer.lookahead_time * std::fabs(vehicle.speed), min_lookahead,
                                     std::fmax(min_lookahead, steer.max_lookahead));
    const double ahead = state.progress + lookahead;
    const Cursor target_cursor = locate(path, piece_count, ahead, here.segment, here.segment_start);
    cmd->target_point = pointOf(path, target_cursor);
    if (!final_piece && ahead > state.piece_end) {
        const Point2d a = at(path, state.piece_last), b = at(path, state.piece_last + 1);
        const double len = dist(a, b), beyond = ahead - state.piece_end;
        if (len > 0.0)
            cmd->target_point = Point2d{b.x + (b.x - a.x) / len * beyond, b.y + (b.y - a.y) / len * beyond};
    }
    // Reversing: the reversed pose's curvature, flipped for the wheels (yaw rate = speed * curvature).
    cmd->curvature = gear * purePursuitCurvature(pose, cmd->target_point);
    cmd->steer = steeringCommand(steer, cmd->curvature);
}

// Narrow corridors: the target speed at which the expected tracking error (narrow_time x speed) fits
// each margin ahead on the piece, reached braking at stop_decel. Points further than the braking
// distance from `target` cannot lower it, so the scan stops there.
double narrowCorridorSpeed(const FollowerSettings& settings, const Vec2f* path, uint32_t piece_count,
                           const float* margins, const Cursor& here, double target) {
    const double floor = settings.target_speed.min_speed, brake = 2.0 * settings.stop_decel;
    double cap = target;
    double ahead = -here.offset; // arc length from the vehicle to path[i]
    for (uint32_t i = here.segment; i < piece_count; ++i) {
        if (i > here.segment) ahead += segmentLength(path, i - 1);
        const double d = std::fmax(0.0, ahead);
        if (brake * d >= cap * cap) break;
        const double fits = std::fmax(floor, double(margins[i]) / settings.narrow_time);
        cap = std::fmin(cap, std::sqrt(fits * fits + brake * d));
    }
    return cap;
}

// Counts the distance moved in the current escape; true once it has swung escape_turn rad at full lock
// (escape_turn x turning_radius metres): enough to point the nose elsewhere, where a fixed time backs a
// fast vehicle several metres, into the wall behind or far off the path.
bool escapeLongEnough(const FollowerSettings& settings, const FollowerVehicle& vehicle, double dt,
                      FollowerState* state) {
    state->escape_travelled += std::fabs(vehicle.speed) * dt;
    const double length = settings.escape_turn * settings.turning_radius;
    return length > 0.0 && state->escape_travelled >= length;
}

// Pushing without moving: after blocked_time, back off (or, close to a cusp, take the next gear).
void watchBlocked(const FollowerSettings& settings, const int8_t* gears, bool final_piece, double remaining,
                  const FollowerVehicle& vehicle, double gear, double dt, FollowerState* state,
                  FollowerCommand* cmd) {
    const StuckSettings& stuck = settings.stuck;
    if (state->backoff_left > 0.0) {
        state->backoff_left -= dt;
        if (escapeLongEnough(settings, vehicle, dt, state)) state->backoff_left = 0.0;
        reverseCommand(stuck, state, cmd);
    } else if (settings.blocked_time > 0.0 && !cmd->arrived && gear * cmd->throttle > 0.3 &&
               std::fabs(vehicle.speed) < 0.2) {
        state->blocked_for += dt;
        if (state->blocked_for >= settings.blocked_time) {
            state->blocked_for = 0.0;
            if (gears && !final_piece && remaining <= settings.arrive_distance) {
                state->cusp_pending = true; // close enough to the cusp: the next gear backs away anyway
            } else {
                state->backoff_left = stuck.reverse_time;
                state->escape_travelled = 0.0;
                ++state->backoff_events;
            }
        }
    } else {
        state->blocked_for = 0.0;
    }
}

// Too little progress within the stuck window: reverse, or after reverse_attempts teleport.
void watchProgress(const StuckSettings& stuck, const Vec2f* path, const int8_t* gears, uint32_t count,
                   const Cursor& here, double dt, FollowerState* state, FollowerCommand* cmd) {
    if (state->attempts > 0 && state->best_progress > state->series_progress + stuck.min_progress)
        state->attempts = 0; // got past the place where it stuck: a new series
    state->window_time += dt;
    if (state->progress >= state->window_progress + stuck.min_progress) {
        state->window_time = 0.0;
        state->window_progress = state->progress;
    }
    if (state->window_time < stuck.window) return;
    ++state->stuck_events;
    if (state->attempts == 0) state->series_progress = state->best_progress;
    if (state->attempts < stuck.reverse_attempts) {
        ++state->attempts;
        ++state->reverse_events;
        state->reverse_left = stuck.reverse_time;
        state->backoff_left = 0.0;
        state->escape_travelled = 0.0;
        reverseCommand(stuck, state, cmd);
    } else {
        // Last resort: a pose on the path ahead, facing along it (nose first in its gear).
        ++state->teleport_events;
        state->attempts = 0;
        state->backoff_left = 0.0;
        state->blocked_for = 0.0; // pressing before the teleport is no sign of a wall where it lands
        state->speed.integral = 0.0;
        const Cursor c =
            locate(path, count, state->progress + stuck.teleport_ahead, here.segment, here.segment_start);
        const Point2d p = pointOf(path, c);
        const Point2d a = at(path, c.segment), b = at(path, c.segment + 1);
        const bool reverse = gears && gears[c.segment] < 0;
        cmd->teleport = true;
        cmd->teleport_pose = Pose2d{p.x, p.y, std::atan2(b.y - a.y, b.x - a.x) + (reverse ? kPi : 0.0)};
        cmd->throttle = 0.0;
        if (gears) {
            // The projection stays on one piece: move it to the piece the vehicle lands on.
            if (c.segment > state->piece_last) ++state->gear_changes;
            enterPiece(path, gears, count, c.segment, c.segment_start, state);
            state->progress = c.segment_start + c.offset;
            state->segment = c.segment;
            state->segment_start = c.segment_start;
        }
    }
    state->window_time = 0.0;
    state->window_progress = state->progress;
    state->has_last = false;
}

Status followerStepImpl(const FollowerSettings& settings, const Vec2f* path, const int8_t* gears,
                        uint32_t count, const FollowerVehicle& vehicle, double dt, FollowerState* state,
                        FollowerCommand* out) {
    FollowerCommand cmd{};
    const Point2d position{vehicle.x, vehicle.y};

    double cte = 0.0;
    const uint32_t piece_count = projectOnPiece(settings, path, gears, count, vehicle, state, &cte);
    const bool final_piece = piece_count == count;
    const double gear = state->gear < 0 ? -1.0 : 1.0;
    cmd.gear = state->gear;
    // Reversing, the vehicle drives its reversed pose forwards: speed along the travel direction.
    const Pose2d pose{vehicle.x, vehicle.y, gear < 0.0 ? vehicle.heading + kPi : vehicle.heading};
    const double travel_speed = gear * vehicle.speed;
    if (state->progress > state->best_progress) state->best_progress = state->progress;
    cmd.progress = state->progress;
    cmd.cross_track_error = cte;
    const Cursor here{state->segment, state->segment_start, state->progress - state->segment_start};
    const TargetSpeedSettings speed_settings = gripLimitedSettings(settings, vehicle, dt, state);

    // Target speed, then capped so the vehicle can brake to a stop at the piece's end (path end or cusp).
    double target = 0.0;
    if (settings.mode == TargetSpeedMode::Bezier)
        target = targetSpeedAt(speed_settings, path, piece_count, position, here, &cmd.max_curvature);
    else
        target = baselineSpeedAt(settings.baseline_speed, path, piece_count, pose, here);
    const double remaining = std::fmax(0.0, state->piece_end - state->progress);
    target = std::fmin(target, std::sqrt(2.0 * settings.stop_decel * remaining));
    if (state->margins && settings.narrow_time > 0.0)
        target = narrowCorridorSpeed(settings, path, piece_count, state->margins, here, target);
    cmd.arrived = final_piece && remaining <= settings.arrive_distance;
    const bool at_cusp = !final_piece && remaining <= settings.cusp_distance;
    if (cmd.arrived || at_cusp) target = 0.0;
    // Stopping at a cusp: an integral still pushing on (built up speeding along the piece) would keep the
    // vehicle rolling slowly past the cusp, never below cusp_speed; one that brakes is kept.
    if (at_cusp) state->speed.integral = std::fmin(state->speed.integral, 0.0);
    cmd.target_speed = target;

    pursue(settings, path, piece_count, final_piece, vehicle, pose, gear, here, *state, &cmd);
    // Asking for more than full lock: no speed follows this path, so run wide slowly, not into a wall.
    if (settings.turning_radius > 0.0 && settings.saturated_speed > 0.0 &&
        std::fabs(cmd.curvature) * settings.turning_radius > 1.0) {
        target = std::fmin(target, settings.saturated_speed);
        cmd.target_speed = target;
    }

    // Stuck manager: it overrides the controllers while reversing.
    const StuckSettings& stuck = settings.stuck;
    if (state->reverse_left > 0.0) {
        state->reverse_left -= dt;
        if (escapeLongEnough(settings, vehicle, dt, state)) state->reverse_left = 0.0;
        reverseCommand(stuck, state, &cmd);
        if (state->reverse_left <= 0.0) {
            state->reverse_left = 0.0;
            state->blocked_for = 0.0; // counted afresh from the end of the escape
            state->window_time = 0.0;
            state->window_progress = state->progress;
        }
        *out = cmd;
        return Status::Ok;
    }
    cmd.throttle = gear * speedControlStep(settings.speed_control, &state->speed, target - travel_speed, dt);
    watchBlocked(settings, gears, final_piece, remaining, vehicle, gear, dt, state, &cmd);
    state->last_heading = vehicle.heading;
    state->last_curvature = cmd.curvature;
    state->has_last = !cmd.reversing && gear > 0.0; // grip is learned driving forwards only
    if (cmd.arrived) {
        state->window_time = 0.0;
        state->window_progress = state->progress;
        *out = cmd;
        return Status::Ok;
    }
    watchProgress(stuck, path, gears, count, here, dt, state, &cmd);
    *out = cmd;
    return Status::Ok;
}

} // namespace

} // namespace clearway
