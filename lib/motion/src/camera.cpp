// Camera motion along a path (Nieuwenhuisen et al. 2004 "Planning camera motions"): a speed diagram from per-arc
// speed caps with a forward (acceleration) and a backward (deceleration) pass, integrated exactly,
// and a view that looks at where the camera will be a second later.
//
// Everything works on speed squared: with constant acceleration a, v^2 is linear in s
// (d(v^2)/ds = 2a), so caps and both passes are lines in (s, v^2) and the diagram is their lower
// envelope, exact without any time stepping.
#include <clearway/motion.h>

#include <cmath>

namespace clearway {
namespace {

bool finite(double v) {
    return std::isfinite(v);
}
double minOf(double a, double b) {
    return a < b ? a : b;
}
double clampTo(double v, double lo, double hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

bool validSettings(const CameraSettings& c) {
    const double all[] = {c.max_speed,  c.max_lateral_accel, c.max_accel,   c.max_decel,
                          c.look_ahead, c.eye_height,        c.start_speed, c.end_speed};
    for (double v : all)
        if (!finite(v)) return false;
    return c.max_speed > 0.0 && c.max_lateral_accel > 0.0 && c.max_accel > 0.0 && c.max_decel > 0.0 &&
           c.look_ahead >= 0.0 && c.start_speed >= 0.0 && c.end_speed >= 0.0;
}

bool validSegments(const PathSegment* segments, uint32_t count) {
    if (!segments || count == 0) return false;
    for (uint32_t i = 0; i < count; ++i) {
        const PathSegment& s = segments[i];
        if (!finite(s.length) || s.length < 0.0) return false;
        if (s.type == PathSegmentType::Arc && !(finite(s.radius) && s.radius > 0.0)) return false;
        if (s.type != PathSegmentType::Arc && s.type != PathSegmentType::Line) return false;
    }
    return true;
}

bool validDiagram(const SpeedDiagram& d) {
    return d.knots && d.count >= 1 && finite(d.length) && finite(d.duration);
}

// Squared speed cap of a segment.
double cap2(const CameraSettings& c, const PathSegment& s) {
    const double v = cameraSpeedCap(c, s);
    return v * v;
}

// Last knot with knots[k].s <= s (binary search; s strictly increases).
uint32_t knotAtDistance(const SpeedDiagram& d, double s) {
    uint32_t lo = 0, hi = d.count - 1;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo + 1) / 2;
        if (d.knots[mid].s <= s)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

uint32_t knotAtTime(const SpeedDiagram& d, double t) {
    uint32_t lo = 0, hi = d.count - 1;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo + 1) / 2;
        if (d.knots[mid].t <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// Exact motion at time t: s, v and a of the constant-acceleration phase holding t.
void motionAt(const SpeedDiagram& d, double t, double* s, double* v, double* a) {
    t = clampTo(t, 0.0, d.duration);
    const uint32_t k = knotAtTime(d, t);
    const SpeedKnot& k0 = d.knots[k];
    if (k + 1 >= d.count) {
        *s = k0.s;
        *v = k0.v;
        *a = 0.0;
        return;
    }
    const SpeedKnot& k1 = d.knots[k + 1];
    const double acc = (k1.v * k1.v - k0.v * k0.v) / (2.0 * (k1.s - k0.s));
    const double tau = t - k0.t;
    *s = clampTo(k0.s + k0.v * tau + 0.5 * acc * tau * tau, k0.s, k1.s);
    *v = clampTo(k0.v + acc * tau, minOf(k0.v, k1.v), k0.v > k1.v ? k0.v : k1.v);
    *a = acc;
}

} // namespace

CameraSettings cameraDefaults() {
    CameraSettings c{};
    c.max_speed = 6.0;
    c.max_lateral_accel = 1.5; // a 2 m blend at sqrt(1.5 * 2) = 1.7 m/s
    c.max_accel = 1.5;
    c.max_decel = 2.5;
    c.look_ahead = 1.0; // Nieuwenhuisen et al. 2004: "about 1 second is the right amount"
    c.eye_height = 1.7;
    c.start_speed = 0.0;
    c.end_speed = 0.0;
    return c;
}

double cameraSpeedCap(const CameraSettings& settings, const PathSegment& segment) {
    if (segment.type != PathSegmentType::Arc) return settings.max_speed;
    return minOf(settings.max_speed, std::sqrt(settings.max_lateral_accel * segment.radius));
}

uint32_t speedDiagramMaxKnots(uint32_t segment_count) {
    return segment_count > (0xffffffffu - 1u) / 3u ? 0xffffffffu : 3u * segment_count + 1u;
}

Status buildSpeedDiagram(const PathSegment* segments, uint32_t count, const CameraSettings& settings,
                         SpeedKnot* knots, uint32_t max_knots, SpeedDiagram* out) {
    if (!knots || !out || !validSettings(settings) || !validSegments(segments, count))
        return Status::InvalidArgument;
    const uint64_t need = 3ull * count + 1ull;
    if (uint64_t(max_knots) < need) return Status::BufferTooSmall;
    const double A2 = 2.0 * settings.max_accel, D2 = 2.0 * settings.max_decel;

    // Backward pass: w[i] = the largest v^2 at the end of segment i from which the camera can still
    // brake down to every later cap and the end speed. Stored in the buffer's tail (tail[i].v):
    // segment i's knots are written at indices <= 3i + 3, below tail index max - count + i + 1
    // >= 2 count + i + 2 where segment i + 1's value waits, so nothing is read after being overwritten.
    SpeedKnot* tail = knots + (max_knots - count);
    double w = settings.end_speed * settings.end_speed;
    for (uint32_t i = count; i-- > 0;) {
        const double L = segments[i].length;
        if (!(L > 0.0)) {
            tail[i].v = w;
            continue;
        }
        const double c = cap2(settings, segments[i]);
        tail[i].v = minOf(c, w);
        w = minOf(c, tail[i].v + D2 * L); // at the segment's start
    }

    // Forward pass, merged with the backward one segment by segment: on segment i (offset x) the
    // diagram is min(c, u + 2A x, w + 2D (L - x)), a concave envelope of three lines, so its knots
    // are the ends plus where the ramps meet the cap or each other.
    uint32_t n = 0;
    double u = settings.start_speed * settings.start_speed;
    double base = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        const double L = segments[i].length;
        if (!(L > 0.0)) continue;
        const double c = cap2(settings, segments[i]);
        const double wi = tail[i].v; // read before this segment's knots may overwrite the tail
        u = minOf(u, c);
        auto value = [&](double x) {
            const double v2 = minOf(c, minOf(u + A2 * x, wi + D2 * (L - x)));
            return v2 > 0.0 ? v2 : 0.0;
        };
        double xs[4];
        uint32_t m = 0;
        xs[m++] = 0.0;
        const double x_up = (c - u) / A2;        // acceleration ramp reaches the cap
        const double x_down = L - (c - wi) / D2; // braking ramp leaves the cap
        if (x_up <= x_down) {
            xs[m++] = clampTo(x_up, 0.0, L);
            xs[m++] = clampTo(x_down, 0.0, L);
        } else {
            xs[m++] = clampTo((wi + D2 * L - u) / (A2 + D2), 0.0, L); // the ramps cross below the cap
        }
        xs[m++] = L;
        for (uint32_t j = 0; j < m; ++j) {
            const double s = j + 1 == m ? base + L : base + xs[j];
            if (n > 0 && !(s > knots[n - 1].s)) continue; // a join, or a ramp meeting the cap at an end
            knots[n].s = s;
            knots[n].v = std::sqrt(value(s - base));
            knots[n].t = 0.0;
            ++n;
        }
        u = minOf(c, u + A2 * L);
        base += L;
    }
    if (n == 0) { // every segment has length 0: the camera stays at the start
        knots[0] = SpeedKnot{0.0, 0.0, 0.0};
        n = 1;
    }

    // Times: a constant-acceleration phase from v0 to v1 over ds takes 2 ds / (v0 + v1). Both are
    // zero only on a zero-length phase, which the merge above never emits (positive caps and ramps).
    for (uint32_t k = 1; k < n; ++k) {
        const double ds = knots[k].s - knots[k - 1].s;
        const double vs = knots[k - 1].v + knots[k].v;
        knots[k].t = knots[k - 1].t + (vs > 0.0 ? 2.0 * ds / vs : 0.0);
    }
    out->knots = knots;
    out->count = n;
    out->length = knots[n - 1].s;
    out->duration = knots[n - 1].t;
    return Status::Ok;
}

Status speedAtDistance(const SpeedDiagram& diagram, double s, double* speed) {
    if (!speed || !finite(s) || !validDiagram(diagram)) return Status::InvalidArgument;
    s = clampTo(s, 0.0, diagram.length);
    const uint32_t k = knotAtDistance(diagram, s);
    const SpeedKnot& k0 = diagram.knots[k];
    if (k + 1 >= diagram.count) {
        *speed = k0.v;
        return Status::Ok;
    }
    const SpeedKnot& k1 = diagram.knots[k + 1];
    const double f = (s - k0.s) / (k1.s - k0.s);
    const double v2 = k0.v * k0.v + (k1.v * k1.v - k0.v * k0.v) * f;
    *speed = std::sqrt(v2 > 0.0 ? v2 : 0.0);
    return Status::Ok;
}

Status speedDiagramAtTime(const SpeedDiagram& diagram, double t, double* s, double* speed, double* accel) {
    if (!finite(t) || !validDiagram(diagram)) return Status::InvalidArgument;
    double ss, v, a;
    motionAt(diagram, t, &ss, &v, &a);
    if (s) *s = ss;
    if (speed) *speed = v;
    if (accel) *accel = a;
    return Status::Ok;
}

Status cameraPoseAt(const RoadmapView& view, const PathSegment* segments, uint32_t count,
                    const SpeedDiagram& diagram, const CameraSettings& settings, double t, CameraPose* out) {
    if (!out || !finite(t) || !validDiagram(diagram) || !validSettings(settings))
        return Status::InvalidArgument;
    t = clampTo(t, 0.0, diagram.duration);
    double s, v, a;
    motionAt(diagram, t, &s, &v, &a);
    PathPose here;
    if (const Status st = pathPoseAt(view, segments, count, s, &here); st != Status::Ok) return st;

    // Where the camera will be look_ahead later. Past the end the look-ahead point runs on along
    // the end tangent as if the final braking were played in reverse (s = L + v_end tau +
    // decel tau^2 / 2): its speed there starts at the camera's final speed, so the target stays C1
    // through the end of the diagram and never meets the camera when it stops.
    const double t2 = t + settings.look_ahead;
    Vec3d target;
    if (t2 <= diagram.duration) {
        double s2, v2, a2;
        motionAt(diagram, t2, &s2, &v2, &a2);
        PathPose ahead;
        if (const Status st = pathPoseAt(view, segments, count, s2, &ahead); st != Status::Ok) return st;
        target = ahead.position;
    } else {
        PathPose end;
        if (const Status st = pathPoseAt(view, segments, count, diagram.length, &end); st != Status::Ok)
            return st;
        const double tau = t2 - diagram.duration;
        const double v_end = diagram.knots[diagram.count - 1].v;
        const double beyond = v_end * tau + 0.5 * settings.max_decel * tau * tau;
        target = Vec3d{end.position.x + beyond * std::cos(end.heading),
                       end.position.y + beyond * std::sin(end.heading), end.position.z};
    }
    target.z += settings.eye_height;

    out->time = t;
    out->s = s;
    out->speed = v;
    out->position = Vec3d{here.position.x, here.position.y, here.position.z + settings.eye_height};
    out->target = target;
    out->layer = here.layer;
    const double dx = target.x - out->position.x, dy = target.y - out->position.y,
                 dz = target.z - out->position.z;
    const double ground = std::hypot(dx, dy);
    if (ground > 1e-9) {
        out->yaw = std::atan2(dy, dx);
        out->pitch = std::atan2(dz, ground);
    } else { // look_ahead 0: along the path
        out->yaw = here.heading;
        out->pitch = 0.0;
    }
    const double cp = std::cos(out->pitch);
    out->forward = Vec3d{cp * std::cos(out->yaw), cp * std::sin(out->yaw), std::sin(out->pitch)};
    return Status::Ok;
}

} // namespace clearway
