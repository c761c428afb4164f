// Turning-radius curves (Pinter 2001): arc-then-line, Dubins paths, piecewise line/arc paths.
//
// Every construction runs in the start pose's frame scaled by the turning radius (start at the
// origin heading +x, radius 1), so the answer does not depend on where the level sits in the world
// or on the unit of length. Right-first words are the mirror images of left-first ones, which makes
// left/right symmetry exact.
#include <clearway/motion.h>

#include <cmath>
#include <initializer_list>

namespace clearway {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = 2.0 * kPi;
// Arc angles this close to 0 or 2*pi are 0: a full loop is never part of a shortest path, and
// rounding must not turn "no turn" into one.
constexpr double kAngleSnap = 1e-12;

bool finite(double v) {
    return std::isfinite(v);
}

double normalizeAngle(double a) {
    a = std::remainder(a, kTwoPi); // [-pi, pi]
    if (a <= -kPi) a += kTwoPi;
    return a;
}

// [0, 2*pi), with rounding noise around a whole turn snapped to 0.
double turnAmount(double a) {
    if (a < 0.0 || a >= kTwoPi) a -= kTwoPi * std::floor(a / kTwoPi); // cheaper than fmod
    if (a < kAngleSnap || a > kTwoPi - kAngleSnap) return 0.0;
    return a;
}

// |(x, y)|: the inputs are scaled by the radius and finite-checked, so no hypot overflow guard.
double norm(double x, double y) {
    return std::sqrt(x * x + y * y);
}

// sin(x)/x, exact at 0 and free of cancellation for small x.
double sinc(double x) {
    if (std::fabs(x) < 1e-4) return 1.0 - x * x / 6.0;
    return std::sin(x) / x;
}

// Pose after driving `s` metres with steering curvature `k` in gear `direction` (+1/-1). Uses the
// chord of the arc (length s*sinc(k*s/2), pointing at the mid heading), exact for k -> 0.
Pose2d advance(const Pose2d& p, double k, int32_t direction, double s) {
    const double d = direction < 0 ? -1.0 : 1.0;
    const double half = d * k * s * 0.5;
    const double chord = d * s * sinc(k * s * 0.5);
    const double mid = p.heading + half;
    return Pose2d{p.x + chord * std::cos(mid), p.y + chord * std::sin(mid),
                  normalizeAngle(p.heading + 2.0 * half)};
}

// A problem seen from the start pose: goal in units of the radius, heading relative to the start.
struct LocalGoal {
    double u, v, psi;
    double sin_psi, cos_psi; // every word needs them: computed once
    double slack; // how far (in radii) rounding may have moved a point that lies exactly on a circle
};

LocalGoal localGoal(const Pose2d& from, double gx, double gy, double goal_heading, double radius) {
    const double dx = gx - from.x, dy = gy - from.y;
    const double c = std::cos(from.heading), s = std::sin(from.heading);
    LocalGoal g;
    g.u = (c * dx + s * dy) / radius;
    g.v = (-s * dx + c * dy) / radius;
    g.psi = normalizeAngle(goal_heading - from.heading);
    g.sin_psi = std::sin(g.psi);
    g.cos_psi = std::cos(g.psi);
    // Relative rounding of the scaled problem plus the absolute rounding of world coordinates.
    const double max_abs =
        std::fmax(std::fmax(std::fabs(from.x), std::fabs(from.y)), std::fmax(std::fabs(gx), std::fabs(gy)));
    g.slack = 1e-10 * (1.0 + norm(g.u, g.v)) + 8.0 * 2.2e-16 * max_abs / radius;
    return g;
}

LocalGoal mirrored(LocalGoal g) {
    g.v = -g.v;
    g.psi = -g.psi;
    g.sin_psi = -g.sin_psi;
    return g;
}

// Normalised word parameters: first arc angle, middle (line length or arc angle), last arc angle.
struct WordParams {
    double t, p, q;
};

// Left arc until facing the goal point, then straight. False when the point is inside the circle.
bool leftArcLine(const LocalGoal& g, WordParams* out) {
    // Squared tangent length from the goal to the left circle (centre (0, 1)), without cancellation.
    const double d2 = g.u * g.u + g.v * (g.v - 2.0);
    if (d2 < -2.0 * g.slack) return false;
    const double d = d2 > 0.0 ? std::sqrt(d2) : 0.0;
    out->t = turnAmount(std::atan2(g.v - 1.0, g.u) + std::atan2(1.0, d));
    out->p = d;
    out->q = 0.0;
    return true;
}

bool wordLSL(const LocalGoal& g, WordParams* out) {
    const double wx = g.u - g.sin_psi, wy = g.v + g.cos_psi - 1.0; // L1 - L0
    const double dist = norm(wx, wy);
    // Both left circles coincide: the line has no direction, a single arc does the turn.
    const double line_heading = dist <= g.slack ? 0.0 : std::atan2(wy, wx);
    out->t = turnAmount(line_heading);
    out->p = dist <= g.slack ? 0.0 : dist;
    out->q = turnAmount(g.psi - line_heading);
    return true;
}

bool wordLSR(const LocalGoal& g, WordParams* out) {
    const double wx = g.u + g.sin_psi, wy = g.v - g.cos_psi - 1.0; // R1 - L0
    const double dist2 = wx * wx + wy * wy;
    // The inner tangent needs the circles apart (centres >= 2 radii); touching counts.
    if (std::sqrt(dist2) < 2.0 - g.slack) return false;
    const double line = dist2 > 4.0 ? std::sqrt(dist2 - 4.0) : 0.0;
    const double line_heading = std::atan2(wy, wx) + std::atan2(2.0, line);
    out->t = turnAmount(line_heading);
    out->p = line;
    out->q = turnAmount(line_heading - g.psi);
    return true;
}

bool wordLRL(const LocalGoal& g, WordParams* out) {
    const double wx = g.u - g.sin_psi, wy = g.v + g.cos_psi - 1.0; // L1 - L0
    const double dist = norm(wx, wy);
    if (dist > 4.0 + g.slack) return false;
    const double gamma = std::acos(std::fmin(1.0, dist / 4.0));
    const double base = dist <= g.slack ? 0.0 : std::atan2(wy, wx);
    // The middle circle touches both left circles on either side of the line between them; both
    // give a valid LRL, keep the shorter.
    bool found = false;
    for (double side : {1.0, -1.0}) {
        const double enter_middle = base + side * gamma + 0.5 * kPi; // heading where the R arc starts
        const double leave_middle = base - side * gamma - 0.5 * kPi; // heading where the R arc ends
        WordParams w{turnAmount(enter_middle), turnAmount(enter_middle - leave_middle),
                     turnAmount(g.psi - leave_middle)};
        if (!found || w.t + w.p + w.q < out->t + out->p + out->q) *out = w;
        found = true;
    }
    return true;
}

// A left arc of t, then a right arc of p ending on the goal point (start frame, unit radius). The
// right circle's centre is 2 from the left one's, at angle t - pi/2, and 1 from the goal: up to two
// centres, so up to two paths. Needs the goal 1..3 radii from the left centre.
uint32_t leftRightArcs(const LocalGoal& g, WordParams out[2]) {
    const double wx = g.u, wy = g.v - 1.0; // goal - left centre
    const double dist = norm(wx, wy);
    if (dist < 1.0 - g.slack || dist > 3.0 + g.slack || dist == 0.0) return 0;
    const double gamma = std::acos(std::fmax(-1.0, std::fmin(1.0, (dist * dist + 3.0) / (4.0 * dist))));
    const double base = std::atan2(wy, wx) + 0.5 * kPi;
    uint32_t n = 0;
    for (double side : {1.0, -1.0}) {
        const double t = turnAmount(base + side * gamma);
        const double st = std::sin(t), ct = std::cos(t);
        const double cx = 2.0 * st, cy = 1.0 - 2.0 * ct; // right circle centre
        // Clockwise from the switch point (st, 1 - ct) to the goal, both seen from that centre.
        const double p = turnAmount(std::atan2(ct, -st) - std::atan2(g.v - cy, g.u - cx));
        out[n++] = WordParams{t, p, 0.0};
        if (gamma == 0.0) break; // one touching centre: the two solutions coincide
    }
    return n;
}

bool validPose(const Pose2d& p) {
    return finite(p.x) && finite(p.y) && finite(p.heading);
}
bool validRadius(double r) {
    return finite(r) && r > 0.0;
}

// Pieces of a word from the real start pose: curvature signs (+1 left, -1 right, 0 straight).
void buildPath(const Pose2d& from, double radius, const int signs[3], const WordParams& w, uint32_t count,
               CurvePath* out) {
    const double params[3] = {w.t, w.p, w.q};
    Pose2d pose{from.x, from.y, normalizeAngle(from.heading)};
    out->count = count;
    out->length = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        PathPiece& piece = out->pieces[i];
        piece.start = pose;
        piece.length = params[i] * radius;
        piece.curvature = signs[i] / radius;
        piece.direction = 1;
        out->length += piece.length;
        pose = advance(pose, piece.curvature, 1, piece.length);
    }
}

bool solveWord(const LocalGoal& g, DubinsWord word, WordParams* out) {
    switch (word) {
    case DubinsWord::LSL:
        return wordLSL(g, out);
    case DubinsWord::RSR:
        return wordLSL(mirrored(g), out);
    case DubinsWord::LSR:
        return wordLSR(g, out);
    case DubinsWord::RSL:
        return wordLSR(mirrored(g), out);
    case DubinsWord::RLR:
        return wordLRL(mirrored(g), out);
    case DubinsWord::LRL:
        return wordLRL(g, out);
    }
    return false;
}

const int kWordSigns[kDubinsWordCount][3] = {
    {1, 0, 1}, {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {-1, 1, -1}, {1, -1, 1},
};

bool localGoalFinite(const LocalGoal& g) {
    return finite(g.u) && finite(g.v) && finite(g.slack);
}

} // namespace

const char* dubinsWordName(DubinsWord word) {
    switch (word) {
    case DubinsWord::LSL:
        return "LSL";
    case DubinsWord::RSR:
        return "RSR";
    case DubinsWord::LSR:
        return "LSR";
    case DubinsWord::RSL:
        return "RSL";
    case DubinsWord::RLR:
        return "RLR";
    case DubinsWord::LRL:
        return "LRL";
    }
    return "?";
}

Status arcLineToPoint(const Pose2d& from, double goal_x, double goal_y, double radius, TurnSide side,
                      CurvePath* out) {
    if (!out || !validPose(from) || !finite(goal_x) || !finite(goal_y) || !validRadius(radius))
        return Status::InvalidArgument;
    LocalGoal g = localGoal(from, goal_x, goal_y, from.heading, radius);
    if (!localGoalFinite(g)) return Status::InvalidArgument;
    if (side == TurnSide::Right) g = mirrored(g);
    WordParams w;
    if (!leftArcLine(g, &w)) return Status::NotFound;
    const int signs[3] = {side == TurnSide::Left ? 1 : -1, 0, 0};
    buildPath(from, radius, signs, w, 2, out);
    return Status::Ok;
}

Status shortestArcLine(const Pose2d& from, double goal_x, double goal_y, double radius, CurvePath* out,
                       TurnSide* side) {
    if (!out || !validPose(from) || !finite(goal_x) || !finite(goal_y) || !validRadius(radius))
        return Status::InvalidArgument;
    const LocalGoal g = localGoal(from, goal_x, goal_y, from.heading, radius);
    if (!localGoalFinite(g)) return Status::InvalidArgument;
    WordParams left, right;
    const bool has_left = leftArcLine(g, &left);
    const bool has_right = leftArcLine(mirrored(g), &right);
    if (!has_left && !has_right) return Status::NotFound;
    const bool use_left = has_left && (!has_right || left.t + left.p <= right.t + right.p);
    const int signs[3] = {use_left ? 1 : -1, 0, 0};
    buildPath(from, radius, signs, use_left ? left : right, 2, out);
    if (side) *side = use_left ? TurnSide::Left : TurnSide::Right;
    return Status::Ok;
}

Status shortestPathToPoint(const Pose2d& from, double goal_x, double goal_y, double radius, CurvePath* out,
                           PointPathKind* kind) {
    if (!out || !validPose(from) || !finite(goal_x) || !finite(goal_y) || !validRadius(radius))
        return Status::InvalidArgument;
    const LocalGoal g = localGoal(from, goal_x, goal_y, from.heading, radius);
    if (!localGoalFinite(g)) return Status::InvalidArgument;
    // Candidates in a fixed order (left before right, turn-straight before turn-turn); the first of
    // equal lengths wins, so the answer is deterministic and mirror-symmetric up to that tie rule.
    struct Candidate {
        WordParams params;
        int signs[3];
        PointPathKind kind;
    };
    Candidate best{};
    bool found = false;
    auto consider = [&](const WordParams& w, int first, int second, PointPathKind k) {
        if (found && w.t + w.p + w.q >= best.params.t + best.params.p + best.params.q) return;
        best = Candidate{w, {first, second, 0}, k};
        found = true;
    };
    WordParams w, pair[2];
    if (leftArcLine(g, &w)) consider(w, 1, 0, PointPathKind::TurnStraight);
    if (leftArcLine(mirrored(g), &w)) consider(w, -1, 0, PointPathKind::TurnStraight);
    for (uint32_t i = 0, n = leftRightArcs(g, pair); i < n; ++i)
        consider(pair[i], 1, -1, PointPathKind::TurnTurn);
    for (uint32_t i = 0, n = leftRightArcs(mirrored(g), pair); i < n; ++i)
        consider(pair[i], -1, 1, PointPathKind::TurnTurn);
    if (!found) return Status::InvalidArgument; // some family always reaches a finite point
    buildPath(from, radius, best.signs, best.params, 2, out);
    if (kind) *kind = best.kind;
    return Status::Ok;
}

Status pathToPoint(const Pose2d& from, double goal_x, double goal_y, double radius, CurvePath* out,
                   PointPathMethod method) {
    switch (method) {
    case PointPathMethod::Shortest:
        return shortestPathToPoint(from, goal_x, goal_y, radius, out, nullptr);
    case PointPathMethod::ArcLine:
        return shortestArcLine(from, goal_x, goal_y, radius, out, nullptr);
    }
    return Status::InvalidArgument;
}

Status dubinsPath(const Pose2d& from, const Pose2d& to, double radius, DubinsWord word, CurvePath* out) {
    if (!out || !validPose(from) || !validPose(to) || !validRadius(radius) ||
        static_cast<uint32_t>(word) >= kDubinsWordCount)
        return Status::InvalidArgument;
    const LocalGoal g = localGoal(from, to.x, to.y, to.heading, radius);
    if (!localGoalFinite(g)) return Status::InvalidArgument;
    WordParams w;
    if (!solveWord(g, word, &w)) return Status::NotFound;
    buildPath(from, radius, kWordSigns[static_cast<uint32_t>(word)], w, 3, out);
    return Status::Ok;
}

Status shortestDubins(const Pose2d& from, const Pose2d& to, double radius, CurvePath* out, DubinsWord* word) {
    if (!out || !validPose(from) || !validPose(to) || !validRadius(radius)) return Status::InvalidArgument;
    const LocalGoal g = localGoal(from, to.x, to.y, to.heading, radius);
    if (!localGoalFinite(g)) return Status::InvalidArgument;
    uint32_t best = kDubinsWordCount;
    WordParams best_params{0.0, 0.0, 0.0};
    double best_length = 0.0;
    for (uint32_t i = 0; i < kDubinsWordCount; ++i) {
        WordParams w;
        if (!solveWord(g, static_cast<DubinsWord>(i), &w)) continue;
        const double length = w.t + w.p + w.q;
        if (best == kDubinsWordCount || length < best_length) {
            best = i;
            best_params = w;
            best_length = length;
        }
    }
    if (best == kDubinsWordCount) return Status::InvalidArgument; // LSL always exists: input was bad
    buildPath(from, radius, kWordSigns[best], best_params, 3, out);
    if (word) *word = static_cast<DubinsWord>(best);
    return Status::Ok;
}

double pathLength(const PathPiece* pieces, uint32_t count) {
    double total = 0.0;
    if (!pieces) return total;
    for (uint32_t i = 0; i < count; ++i)
        total += pieces[i].length;
    return total;
}

Status pathSampleAtDistance(const PathPiece* pieces, uint32_t count, double distance, PathSample* out) {
    if (!pieces || count == 0 || !out || !finite(distance)) return Status::InvalidArgument;
    if (distance < 0.0) distance = 0.0;
    uint32_t i = 0;
    // Seed 004 Listing 2: walk the pieces, subtracting each length, until the distance falls inside.
    while (i + 1 < count && distance >= pieces[i].length) {
        distance -= pieces[i].length;
        ++i;
    }
    const PathPiece& piece = pieces[i];
    if (distance > piece.length) distance = piece.length;
    const Pose2d pose = advance(piece.start, piece.curvature, piece.direction, distance);
    *out = PathSample{pose.x, pose.y, pose.heading, piece.curvature, piece.direction < 0 ? -1 : 1};
    return Status::Ok;
}

Status pathSampleAtTime(const PathPiece* pieces, uint32_t count, double speed, double time, PathSample* out) {
    if (!finite(speed) || !finite(time)) return Status::InvalidArgument;
    return pathSampleAtDistance(pieces, count, speed * time, out);
}

Status pathToPolyline(const PathPiece* pieces, uint32_t count, double spacing, Vec2f* out,
                      uint32_t* out_count, uint32_t max_out) {
    if (!pieces || count == 0 || !out_count || !finite(spacing) || !(spacing > 0.0))
        return Status::InvalidArgument;
    const double total = pathLength(pieces, count);
    if (!finite(total)) return Status::InvalidArgument;
    const double steps = std::ceil(total / spacing);
    if (steps >= 4e9) return Status::InvalidArgument;
    const uint32_t needed = static_cast<uint32_t>(steps) + 1;
    *out_count = needed;
    if (needed > max_out) return Status::BufferTooSmall;
    if (!out) return Status::InvalidArgument;
    const double step = needed > 1 ? total / (needed - 1) : 0.0;
    // Walk the pieces once: point j lies at distance j*step.
    uint32_t piece = 0;
    double piece_begin = 0.0;
    for (uint32_t j = 0; j < needed; ++j) {
        const double s = j + 1 == needed ? total : j * step;
        while (piece + 1 < count && s >= piece_begin + pieces[piece].length) {
            piece_begin += pieces[piece].length;
            ++piece;
        }
        const double local = std::fmin(std::fmax(s - piece_begin, 0.0), pieces[piece].length);
        const Pose2d p =
            advance(pieces[piece].start, pieces[piece].curvature, pieces[piece].direction, local);
        out[j] = Vec2f{static_cast<float>(p.x), static_cast<float>(p.y)};
    }
    return Status::Ok;
}

} // namespace clearway
