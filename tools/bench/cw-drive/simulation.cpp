#include "simulation.h"

#include <cstdio>

namespace clearway::drive {

void finishTrack(const std::vector<WallGrid>& walls, double radius, Track* t) {
    t->cumulative.assign(t->points.size(), 0.0);
    t->half_width.assign(t->points.size(), 0.0);
    t->margins.assign(t->points.size(), 0.0f);
    for (size_t i = 0; i < t->points.size(); ++i) {
        if (i > 0)
            t->cumulative[i] = t->cumulative[i - 1] + std::hypot(t->points[i].x - t->points[i - 1].x,
                                                                 t->points[i].y - t->points[i - 1].y);
        const double margin = walls[t->layers[i]].distance(t->points[i].x, t->points[i].y, 20.0) - radius;
        t->margins[i] = float(margin);
        t->half_width[i] = std::max(0.25, margin);
    }
}

// Smooth track: findPath segments, arcs sampled every <= 0.25 m; raw track: the vertex-to-vertex
// polyline (every arc replaced by the corner where its two tangents meet).
void tracksFromSegments(const PathSegment* segs, uint32_t count, uint32_t goal_layer, Track* smooth,
                        Track* raw) {
    smooth->points.push_back(Vec2f{float(segs[0].start.x), float(segs[0].start.y)});
    raw->points.push_back(smooth->points.back());
    smooth->layers.push_back(segs[0].layer);
    raw->layers.push_back(segs[0].layer);
    for (uint32_t i = 0; i < count; ++i) {
        const PathSegment& s = segs[i];
        const uint32_t end_layer = i + 1 < count ? segs[i + 1].layer : goal_layer;
        if (s.type == PathSegmentType::Arc) {
            smooth->min_radius = std::min(smooth->min_radius, double(s.radius));
            const int n = std::max(2, int(std::ceil(s.length / 0.25)));
            const double a0 = std::atan2(s.start.y - s.center.y, s.start.x - s.center.x);
            for (int k = 1; k <= n; ++k) {
                const double a = a0 + s.sweep * k / n;
                smooth->points.push_back(Vec2f{float(s.center.x + s.radius * std::cos(a)),
                                               float(s.center.y + s.radius * std::sin(a))});
                smooth->layers.push_back(s.layer);
            }
            smooth->layers.back() = end_layer;
            smooth->points.back() = Vec2f{float(s.end.x), float(s.end.y)};
            // Tangent lines at both ends meet at distance r*tan(|sweep|/2) from each end.
            const double sweep = std::fabs(s.sweep);
            if (sweep > 1e-6 && sweep < 2.6) {
                const double d = s.radius * std::tan(sweep / 2);
                const double sign = s.sweep > 0 ? 1.0 : -1.0;
                const double tx = -sign * (s.start.y - s.center.y) / s.radius,
                             ty = sign * (s.start.x - s.center.x) / s.radius;
                raw->points.push_back(Vec2f{float(s.start.x + d * tx), float(s.start.y + d * ty)});
                raw->layers.push_back(s.layer);
            }
        } else {
            smooth->points.push_back(Vec2f{float(s.end.x), float(s.end.y)});
            smooth->layers.push_back(end_layer);
            if (s.portal || end_layer != s.layer) { // the raw polyline keeps where the layer changes
                raw->points.push_back(Vec2f{float(s.start.x), float(s.start.y)});
                raw->layers.push_back(s.layer);
                raw->points.push_back(smooth->points.back());
                raw->layers.push_back(end_layer);
            }
        }
    }
    raw->points.push_back(smooth->points.back());
    raw->layers.push_back(goal_layer);
    // Drop coincident points (the follower needs segments of positive length); a dropped point's
    // layer carries over to the kept one where they differ (a portal of zero length).
    for (Track* t : {smooth, raw}) {
        std::vector<Vec2f> kept;
        std::vector<uint32_t> layers;
        for (size_t i = 0; i < t->points.size(); ++i) {
            const Vec2f& p = t->points[i];
            if (kept.empty() || std::hypot(p.x - kept.back().x, p.y - kept.back().y) > 1e-3) {
                kept.push_back(p);
                layers.push_back(t->layers[i]);
            } else {
                layers.back() = t->layers[i];
            }
        }
        t->points = kept;
        t->layers = layers;
    }
}

uint32_t trackLayerAt(const Track& t, double s) {
    const size_t i = size_t(std::upper_bound(t.cumulative.begin(), t.cumulative.end(), s) - t.cumulative.begin());
    return t.layers[i > 0 ? i - 1 : 0];
}

namespace {

// Height of the surface under (x, y) on `layer`, within 0.5 m of its triangles; false off the layer.
bool surfaceHeight(const FootprintView& surfaces, uint32_t layer, double x, double y, double* height) {
    float h = 0;
    if (footprintHeightAt(surfaces, layer, float(x), float(y), 0.5f, &h) != Status::Ok) return false;
    *height = h;
    return true;
}

// The ground's pitch (sine) along the heading under the vehicle: the surface under the rear axle on its
// layer, under the front axle on the same layer, or where that ends (a portal) on the track's layer a
// wheelbase ahead; 0 where either has no surface.
double groundPitch(const VehicleSpec& v, const Ground& ground, const Track& track, uint32_t layer,
                   double progress, double x, double y, double heading) {
    const double fx = x + v.wheelbase * std::cos(heading), fy = y + v.wheelbase * std::sin(heading);
    double rear = 0, front = 0;
    if (!surfaceHeight(*ground.surfaces, layer, x, y, &rear)) return 0.0;
    if (!surfaceHeight(*ground.surfaces, layer, fx, fy, &front) &&
        !surfaceHeight(*ground.surfaces, trackLayerAt(track, progress + v.wheelbase), fx, fy, &front))
        return 0.0;
    return pitchSine(rear, front, v.wheelbase);
}

} // namespace

std::vector<double> trackHeights(const Track& t, const FootprintView& surfaces) {
    std::vector<double> heights(t.points.size(), NAN);
    for (size_t i = 0; i < t.points.size(); ++i)
        surfaceHeight(surfaces, t.layers[i], t.points[i].x, t.points[i].y, &heights[i]);
    return heights;
}

double steepestClimb(const Track& t, const std::vector<double>& heights, double wheelbase) {
    double steepest = 0;
    for (size_t i = 0, j = 0; i < t.points.size(); ++i) {
        j = std::max(j, i);
        while (j + 1 < t.points.size() && t.cumulative[j] - t.cumulative[i] < wheelbase)
            ++j;
        const double run = t.cumulative[j] - t.cumulative[i];
        if (j > i && std::isfinite(heights[i]) && std::isfinite(heights[j]))
            steepest = std::max(steepest, pitchSine(heights[i], heights[j], run));
    }
    return steepest;
}

Trial drive(const VehicleSpec& v, const Pose2d& start, const Track& track, const Ground& ground,
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
        const uint32_t layer = track.layers[near];
        const WallGrid& walls = (*ground.walls)[layer];
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
        const double pitch =
            ground.surfaces ? groundPitch(v, ground, track, layer, cmd.progress, x, y, heading) : 0.0;
        speed = stepSpeed(v, speed, cmd.throttle, pitch, sim.dt);
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
