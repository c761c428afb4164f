#include "simulation.h"

#include <cstdio>

namespace clearway::drive {

void finishTrack(const WallGrid& walls, double radius, Track* t) {
    t->cumulative.assign(t->points.size(), 0.0);
    t->half_width.assign(t->points.size(), 0.0);
    t->margins.assign(t->points.size(), 0.0f);
    for (size_t i = 0; i < t->points.size(); ++i) {
        if (i > 0)
            t->cumulative[i] = t->cumulative[i - 1] + std::hypot(t->points[i].x - t->points[i - 1].x,
                                                                 t->points[i].y - t->points[i - 1].y);
        const double margin = walls.distance(t->points[i].x, t->points[i].y, 20.0) - radius;
        t->margins[i] = float(margin);
        t->half_width[i] = std::max(0.25, margin);
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

Trial drive(const VehicleSpec& v, const Pose2d& start, const Track& track, const WallGrid& walls,
            const FollowerSettings& settings, const SimOptions& sim) {
    Trial trial;
    const uint32_t n = uint32_t(track.points.size());
    const int8_t* gears = track.gears.empty() ? nullptr : track.gears.data();
    FollowerState state;
    if (followerStartGears(track.points.data(), gears, n, &state) != Status::Ok) return trial;
    state.margins = track.margins.data(); // read only by a follower with narrow_time (not the baseline)
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

} // namespace clearway::drive
