// Follower (de Schaetzen and Sestini 2023): Bezier maximum curvature, target speed, PI anti-windup, pure pursuit, a
// kinematic bicycle driven along a curved path, and the stuck manager in a scripted blockage.
#include <clearway/motion.h>

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

using namespace clearway;

namespace {

constexpr double kPi = 3.14159265358979323846;

Point2d bezier(Point2d a, Point2d b, Point2d c, double t) {
    const double u = 1 - t;
    return Point2d{u * u * a.x + 2 * u * t * b.x + t * t * c.x, u * u * a.y + 2 * u * t * b.y + t * t * c.y};
}
double bezierCurvature(Point2d a, Point2d b, Point2d c, double t) {
    const double dx = 2 * ((1 - t) * (b.x - a.x) + t * (c.x - b.x)),
                 dy = 2 * ((1 - t) * (b.y - a.y) + t * (c.y - b.y));
    const double ddx = 2 * (a.x - 2 * b.x + c.x), ddy = 2 * (a.y - 2 * b.y + c.y);
    return std::fabs(dx * ddy - dy * ddx) / std::pow(dx * dx + dy * dy, 1.5);
}
// Dense sampling, then a ternary refinement around the best sample (the curvature is unimodal).
double sampledMaxCurvature(Point2d a, Point2d b, Point2d c) {
    const int n = 4000;
    int best = 0;
    for (int i = 1; i <= n; ++i)
        if (bezierCurvature(a, b, c, double(i) / n) > bezierCurvature(a, b, c, double(best) / n)) best = i;
    double lo = std::fmax(0.0, (best - 1.0) / n), hi = std::fmin(1.0, (best + 1.0) / n);
    for (int k = 0; k < 200; ++k) {
        const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (bezierCurvature(a, b, c, m1) < bezierCurvature(a, b, c, m2))
            lo = m1;
        else
            hi = m2;
    }
    return bezierCurvature(a, b, c, 0.5 * (lo + hi));
}

// Kinematic bicycle with actuator limits; (x, y) is the rear axle.
struct Bicycle {
    double x = 0, y = 0, heading = 0, speed = 0, steer = 0;
    double wheelbase = 2.8, max_steer = 0.6, steer_rate = 1.5, accel = 3.0, brake = 6.0, top_speed = 15.0;
    void step(const FollowerCommand& cmd, double dt) {
        const double wanted = cmd.steer * max_steer;
        const double dmax = steer_rate * dt;
        steer += std::fmax(-dmax, std::fmin(dmax, wanted - steer));
        double a = 0.0;
        if (cmd.throttle >= 0)
            a = cmd.throttle * (speed < 0 ? brake : accel);
        else
            a = cmd.throttle * (speed > 0 ? brake : accel);
        speed = std::fmax(-5.0, std::fmin(top_speed, speed + a * dt));
        x += speed * std::cos(heading) * dt;
        y += speed * std::sin(heading) * dt;
        heading += speed * std::tan(steer) / wheelbase * dt;
    }
    FollowerVehicle vehicle() const { return FollowerVehicle{x, y, heading, speed}; }
};

// Consecutive pieces joined end to start.
std::vector<PathPiece> chain(Pose2d start, const std::vector<std::pair<double, double>>& length_curvature) {
    std::vector<PathPiece> pieces;
    for (const auto& [length, k] : length_curvature) {
        pieces.push_back(PathPiece{start, length, k, 1});
        PathSample end{};
        REQUIRE(pathSampleAtDistance(&pieces.back(), 1, length, &end) == Status::Ok);
        start = Pose2d{end.x, end.y, end.heading};
    }
    return pieces;
}

std::vector<Vec2f> polyline(const std::vector<PathPiece>& pieces, double spacing) {
    std::vector<Vec2f> points(4096);
    uint32_t n = 0;
    REQUIRE(pathToPolyline(pieces.data(), uint32_t(pieces.size()), spacing, points.data(), &n,
                           uint32_t(points.size())) == Status::Ok);
    points.resize(n);
    return points;
}

} // namespace

TEST_CASE("bezier max curvature: hand-checked values") {
    SUBCASE("symmetric right angle, legs L: peak at t = 1/2, kappa = sqrt(2) / L") {
        // B(t) = ((1-t)^2, t^2) L; at t = 1/2: B' = (-1, 1) L, B'' = (2, 2) L, |B' x B''| / |B'|^3 = 4 /
        // 2^1.5 / L.
        for (double L : {1.0, 6.0, 0.01}) {
            CHECK(bezierMaxCurvature({L, 0}, {0, 0}, {0, L}) ==
                  doctest::Approx(std::sqrt(2.0) / L).epsilon(1e-12));
        }
    }
    SUBCASE("p2 inside a circle: equation 4 at the nearer end") {
        // A = 0.5 * |(0.2, 0.3) x (4, 0)| = 0.6; |p1 - p2|^3 = 0.13^1.5.
        const double expected = 0.6 / std::pow(0.13, 1.5);
        CHECK(bezierMaxCurvature({0, 0}, {0.2, 0.3}, {4, 0}) == doctest::Approx(expected).epsilon(1e-12));
        CHECK(bezierCurvature({0, 0}, {0.2, 0.3}, {4, 0}, 0.0) == doctest::Approx(expected).epsilon(1e-9));
    }
    SUBCASE("straight and degenerate") {
        CHECK(bezierMaxCurvature({0, 0}, {1, 0}, {2, 0}) == 0.0);
        CHECK(bezierMaxCurvature({0, 0}, {0, 0}, {2, 0}) == 0.0);
        CHECK(bezierMaxCurvature({0, 0}, {0.5, 0}, {2, 0}) == 0.0);
        CHECK(std::isinf(bezierMaxCurvature({0, 0}, {5, 0}, {2, 0}))); // the curve turns back: a cusp
    }
}

TEST_CASE("bezier max curvature: both cases against dense sampling on random control points") {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> coord(-10, 10);
    int interior = 0, endpoint = 0;
    for (int i = 0; i < 2000; ++i) {
        const Point2d a{coord(rng), coord(rng)}, b{coord(rng), coord(rng)}, c{coord(rng), coord(rng)};
        const double analytic = bezierMaxCurvature(a, b, c);
        const double sampled = sampledMaxCurvature(a, b, c);
        CHECK(analytic == doctest::Approx(sampled).epsilon(1e-6));
        const double ends = std::fmax(bezierCurvature(a, b, c, 0), bezierCurvature(a, b, c, 1));
        (analytic > ends * (1 + 1e-9) ? interior : endpoint)++;
    }
    CHECK(interior > 200);
    CHECK(endpoint > 200);
}

TEST_CASE("target speed (Algorithm 1)") {
    const TargetSpeedSettings s = targetSpeedDefaults();
    CHECK(s.lateral_accel == 0.4);
    CHECK(s.spacing == 6.0);
    CHECK(s.point_count == 5u);
    CHECK(s.min_speed == 1.0);
    CHECK(s.max_speed == 10.0);
    double v = 0, kappa = -1;

    SUBCASE("straight path: no curvature, v_max") {
        const Vec2f path[] = {{0, 0}, {50, 0}, {100, 0}};
        REQUIRE(targetSpeed(s, path, 3, Point2d{10, 0}, 10, &v, &kappa) == Status::Ok);
        CHECK(v == 10.0);
        CHECK(kappa == doctest::Approx(0).epsilon(1e-12));
    }
    SUBCASE("right-angle corner 6 m ahead: kappa = sqrt(2)/6, v = sqrt(0.4 g 6 / sqrt 2) = 4.080 m/s") {
        // Resampled: vehicle (94,0), corner (100,0), (100,6), (100,12), (100,18); only the first
        // Bezier bends, a symmetric right angle with legs of 6 m.
        const Vec2f path[] = {{0, 0}, {100, 0}, {100, 100}};
        REQUIRE(targetSpeed(s, path, 3, Point2d{94, 0}, 94, &v, &kappa) == Status::Ok);
        CHECK(kappa == doctest::Approx(std::sqrt(2.0) / 6).epsilon(1e-9));
        CHECK(v == doctest::Approx(std::sqrt(0.4 * 9.81 * 6 / std::sqrt(2.0))).epsilon(1e-9));
        CHECK(v == doctest::Approx(4.0802).epsilon(1e-4));
    }
    SUBCASE("hairpin 2 m wide ahead: clamped to v_min") {
        // Resampled: (10,0), (16,0), then the point 6 m from (16,0) on the way back, (10.34, 2): the
        // first Bezier folds back on itself, kappa = |p2 - m|^3 / A^2 = 5.915^3 / 6^2 = 5.75.
        const Vec2f path[] = {{0, 0}, {20, 0}, {20, 2}, {0, 2}};
        REQUIRE(targetSpeed(s, path, 4, Point2d{10, 0}, 10, &v, &kappa) == Status::Ok);
        CHECK(kappa == doctest::Approx(5.75).epsilon(1e-2));
        CHECK(v == 1.0);
    }
    SUBCASE("vehicle off the path: the first Bezier bends, the target speed drops") {
        const Vec2f path[] = {{0, 0}, {100, 0}};
        REQUIRE(targetSpeed(s, path, 2, Point2d{10, 4}, 10, &v, &kappa) == Status::Ok);
        CHECK(v < 10.0);
        CHECK(kappa > 0.0);
    }
    SUBCASE("the end of the path: fewer points, no spurious curvature") {
        const Vec2f path[] = {{0, 0}, {8, 0}};
        REQUIRE(targetSpeed(s, path, 2, Point2d{1, 0}, 1, &v, &kappa) == Status::Ok);
        CHECK(v == 10.0);
    }
    SUBCASE("bad input") {
        const Vec2f path[] = {{0, 0}, {8, 0}};
        TargetSpeedSettings bad = s;
        bad.point_count = 2;
        CHECK(targetSpeed(bad, path, 2, Point2d{1, 0}, 1, &v, &kappa) == Status::InvalidArgument);
        CHECK(targetSpeed(s, path, 1, Point2d{1, 0}, 1, &v, &kappa) == Status::InvalidArgument);
        CHECK(targetSpeed(s, path, 2, Point2d{NAN, 0}, 1, &v, &kappa) == Status::InvalidArgument);
    }
}

TEST_CASE("baseline target speed: inversely proportional to the largest angle ahead") {
    const BaselineSpeedSettings b = baselineSpeedDefaults();
    const Vec2f path[] = {{0, 0}, {10, 0}, {10, 100}};
    double v = 0;
    REQUIRE(baselineTargetSpeed(b, path, 3, Pose2d{0, 0, 0}, 0, &v) == Status::Ok);
    CHECK(v == doctest::Approx(2.0 / (kPi / 2)).epsilon(1e-9)); // the 90 degree segment is within 30 m
    const Vec2f straight[] = {{0, 0}, {100, 0}};
    REQUIRE(baselineTargetSpeed(b, straight, 2, Pose2d{0, 0, 0}, 0, &v) == Status::Ok);
    CHECK(v == 10.0);
}

TEST_CASE("pure pursuit: curvature 2 sin(alpha) / distance, steering atan(wheelbase * curvature)") {
    const Pose2d vehicle{1, 2, 0.3};
    for (double alpha : {-1.2, -0.4, 0.0, 0.25, 0.9}) {
        const double d = 5.0;
        const Point2d target{1 + d * std::cos(0.3 + alpha), 2 + d * std::sin(0.3 + alpha)};
        const double k = purePursuitCurvature(vehicle, target);
        CHECK(k == doctest::Approx(2 * std::sin(alpha) / d).epsilon(1e-12));
        const SteeringSettings s = steeringDefaults();
        const double expected = std::fmax(-1.0, std::fmin(1.0, std::atan(s.wheelbase * k) / s.max_steer));
        CHECK(steeringCommand(s, k) == doctest::Approx(expected).epsilon(1e-12));
    }
    // The circle through the vehicle (tangent to its heading) and the target: the target is on it.
    const Point2d target{4, 7};
    const double k = purePursuitCurvature(vehicle, target);
    const double cx = vehicle.x - std::sin(vehicle.heading) / k,
                 cy = vehicle.y + std::cos(vehicle.heading) / k;
    CHECK(std::hypot(target.x - cx, target.y - cy) == doctest::Approx(std::fabs(1 / k)).epsilon(1e-12));
    CHECK(purePursuitCurvature(vehicle, Point2d{1, 2}) == 0.0);
}

TEST_CASE("PI speed control: anti-windup on a saturated actuator, no steady-state error") {
    const SpeedControlSettings s = speedControlDefaults();
    SUBCASE("20 s pinned at full throttle: the integral stays bounded and lets go at once") {
        SpeedControlState st{0};
        double naive_integral = 0;
        for (int i = 0; i < 1000; ++i) {
            const double u = speedControlStep(s, &st, 5.0, 0.02); // target unreachable: speed stays 0
            CHECK(u == 1.0);
            CHECK(s.ki * st.integral <= s.max_output + 1e-12);
            naive_integral += 5.0 * 0.02;
        }
        // The target drops below the speed: the output leaves saturation on the first step. A naive
        // PI would still command kp*e + ki*100 = 24.5 (full throttle) for tens of seconds.
        CHECK(s.kp * -1.0 + s.ki * naive_integral > 1.0);
        CHECK(speedControlStep(s, &st, -1.0, 0.02) < 0.0);
    }
    SUBCASE("constant drag: P-only keeps an offset, PI reaches the target") {
        auto run = [](SpeedControlSettings c) {
            SpeedControlState st{0};
            double v = 0;
            for (int i = 0; i < 3000; ++i)
                v += (4.0 * speedControlStep(c, &st, 8.0 - v, 0.02) - 1.0) * 0.02;
            return v;
        };
        CHECK(run(s) == doctest::Approx(8.0).epsilon(1e-3));
        SpeedControlSettings p_only = s;
        p_only.ki = 0;
        CHECK(run(p_only) == doctest::Approx(8.0 - 1.0 / (4.0 * 0.5)).epsilon(1e-3)); // e = drag / (gain kp)
    }
}

TEST_CASE("follower drives a kinematic bicycle along a curved path") {
    // 30 m straight, 90 deg left at r = 20, 20 m straight, 90 deg right at r = 6, 30 m straight.
    const auto pieces = chain(Pose2d{0, 0, 0},
                              {{30, 0}, {kPi / 2 * 20, 1 / 20.0}, {20, 0}, {kPi / 2 * 6, -1 / 6.0}, {30, 0}});
    const auto path = polyline(pieces, 1.0);
    const FollowerSettings settings = followerDefaults();
    FollowerState state{};
    REQUIRE(followerStart(path.data(), uint32_t(path.size()), &state) == Status::Ok);
    CHECK(state.path_length ==
          doctest::Approx(pathLength(pieces.data(), uint32_t(pieces.size()))).epsilon(1e-3));

    Bicycle car;
    car.y = 1.0; // starts 1 m left of the path
    const double dt = 0.02;
    double t = 0, max_cte_after_settle = 0, sum_cte = 0, max_speed = 0, speed_entering_tight_arc = 0;
    int samples = 0;
    FollowerCommand cmd{};
    for (; t < 120; t += dt) {
        REQUIRE(followerStep(settings, path.data(), uint32_t(path.size()), car.vehicle(), dt, &state, &cmd) ==
                Status::Ok);
        if (cmd.arrived && std::fabs(car.speed) < 0.05) break;
        car.step(cmd, dt);
        if (cmd.progress > 15) {
            max_cte_after_settle = std::fmax(max_cte_after_settle, std::fabs(cmd.cross_track_error));
            sum_cte += std::fabs(cmd.cross_track_error);
            ++samples;
        }
        max_speed = std::fmax(max_speed, car.speed);
        const double tight_arc_start = 30 + kPi / 2 * 20 + 20;
        if (std::fabs(cmd.progress - tight_arc_start) < 0.5) speed_entering_tight_arc = car.speed;
    }
    MESSAGE("time " << t << " s, max |cte| " << max_cte_after_settle << " m, mean |cte| " << sum_cte / samples
                    << " m, top speed " << max_speed << " m/s, speed entering the r=6 arc "
                    << speed_entering_tight_arc);
    CHECK(cmd.arrived);
    CHECK(t < 40);
    CHECK(state.stuck_events == 0u);
    CHECK(max_cte_after_settle < 1.0); // cutting into the r = 6 turn at ~8 m/s
    CHECK(sum_cte / samples < 0.2);
    CHECK(max_speed <= 10.5);
    // On an arc of radius R the resampled points are 6 m chords apart (angle phi = 2 asin(3/R)) and
    // their Bezier has kappa = (1 - cos phi) / (R sin^2 phi), about 1/(2R): for R = 6, phi = pi/3,
    // kappa = 1/9, a target of sqrt(0.4 g 9) = 5.94 m/s. The estimate ahead of the arc peaks at
    // 0.0996 (6.28 m/s); once inside, the rest of the turn fits in one 6 m step and the target rises.
    CHECK(speed_entering_tight_arc < 6.28 + 0.5);
    CHECK(std::hypot(car.x - path.back().x, car.y - path.back().y) < settings.arrive_distance + 0.5);
}

TEST_CASE("stuck manager: reverse twice, then teleport, in a scripted blockage") {
    const Vec2f path[] = {{0, 0}, {50, 0}, {100, 0}};
    FollowerSettings settings = followerDefaults();
    settings.blocked_time = 0; // the stuck manager alone (the back-off has its own test)
    const StuckSettings& st = settings.stuck;
    FollowerState state{};
    REQUIRE(followerStart(path, 3, &state) == Status::Ok);
    FollowerVehicle blocked{10, 0, 0, 0}; // a wall in front: never moves, whatever the throttle
    const double dt = 0.1;
    std::vector<double> stuck_times, teleport_times;
    double reversing_time = 0;
    FollowerCommand cmd{};
    uint32_t last_events = 0;
    int step = 0;
    for (; step < 200; ++step) {
        const double t = step * dt;
        REQUIRE(followerStep(settings, path, 3, blocked, dt, &state, &cmd) == Status::Ok);
        if (state.stuck_events != last_events) {
            stuck_times.push_back(t);
            last_events = state.stuck_events;
        }
        if (cmd.reversing) {
            reversing_time += dt;
            CHECK(cmd.throttle == doctest::Approx(-st.reverse_throttle));
        }
        if (cmd.teleport) {
            teleport_times.push_back(t);
            CHECK(cmd.teleport_pose.x == doctest::Approx(10 + st.teleport_ahead));
            CHECK(cmd.teleport_pose.heading == doctest::Approx(0));
            break;
        }
    }
    // Events at 3 s (reverse 2 s), 3 + 2 + 3 = 8 s (reverse), 8 + 2 + 3 = 13 s (teleport).
    REQUIRE(stuck_times.size() == 3);
    CHECK(stuck_times[0] == doctest::Approx(st.window - dt).epsilon(0.05));
    CHECK(stuck_times[1] == doctest::Approx(2 * st.window + st.reverse_time - dt).epsilon(0.05));
    CHECK(stuck_times[2] == doctest::Approx(3 * st.window + 2 * st.reverse_time - dt).epsilon(0.05));
    REQUIRE(teleport_times.size() == 1);
    CHECK(state.reverse_events == 2u);
    CHECK(state.teleport_events == 1u);
    CHECK(state.stuck_events == 3u);
    CHECK(reversing_time == doctest::Approx(2 * st.reverse_time).epsilon(0.06));

    // The game moves the vehicle; once it drives freely nothing else triggers.
    FollowerVehicle free{cmd.teleport_pose.x, cmd.teleport_pose.y, cmd.teleport_pose.heading, 5.0};
    for (int i = 0; i < 100; ++i) {
        REQUIRE(followerStep(settings, path, 3, free, dt, &state, &cmd) == Status::Ok);
        free.x += free.speed * dt;
        CHECK_FALSE(cmd.reversing);
    }
    CHECK(state.stuck_events == 3u);
    CHECK(state.teleport_events == 1u);
}

TEST_CASE("stuck manager: reversing flips the commanded curvature with the wheels") {
    // Reversing with opposite lock turns the body the same way as the turn the vehicle wants to make.
    // A vehicle steering by curvature (yaw rate = speed * curvature) must do the same.
    const Vec2f path[] = {{0, 0}, {50, 0}, {100, 0}};
    FollowerSettings settings = followerDefaults();
    settings.blocked_time = 0;
    FollowerState state{};
    REQUIRE(followerStart(path, 3, &state) == Status::Ok);
    const FollowerVehicle stuck_facing_right{10, 3, -0.5, 0}; // path to the right and ahead
    FollowerCommand cmd{};
    bool reversed = false;
    for (int i = 0; i < 40 && !reversed; ++i) {
        REQUIRE(followerStep(settings, path, 3, stuck_facing_right, 0.1, &state, &cmd) == Status::Ok);
        if (!cmd.reversing) continue;
        reversed = true;
        CHECK(cmd.steer * cmd.curvature > 0); // wheel angle and curvature agree
        const double wanted = purePursuitCurvature(
            Pose2d{stuck_facing_right.x, stuck_facing_right.y, stuck_facing_right.heading}, cmd.target_point);
        const double yaw_rate_reversing = -1.0 * cmd.curvature; // at -1 m/s
        CHECK(wanted < 0);
        CHECK(yaw_rate_reversing < 0);
    }
    CHECK(reversed);
}

TEST_CASE("follower backs off at once when a wall blocks it, and the stuck window still counts") {
    const Vec2f path[] = {{0, 0}, {50, 0}, {100, 0}};
    const FollowerSettings settings = followerDefaults();
    REQUIRE(settings.blocked_time > 0);
    FollowerState state{};
    REQUIRE(followerStart(path, 3, &state) == Status::Ok);
    const FollowerVehicle blocked{10, 0, 0, 0}; // never moves, whatever the throttle
    const double dt = 0.1;
    double first_reverse = -1, first_stuck = -1;
    FollowerCommand cmd{};
    for (int step = 0; step < 40; ++step) {
        REQUIRE(followerStep(settings, path, 3, blocked, dt, &state, &cmd) == Status::Ok);
        if (cmd.reversing && first_reverse < 0) first_reverse = step * dt;
        if (state.stuck_events > 0 && first_stuck < 0) first_stuck = step * dt;
    }
    CHECK(first_reverse == doctest::Approx(settings.blocked_time).epsilon(0.25));
    CHECK(state.backoff_events >= 1u);
    // Backing off gains nothing here: the 3 s window is not reset by it.
    CHECK(first_stuck == doctest::Approx(settings.stuck.window - dt).epsilon(0.05));

    SUBCASE("the baseline has no back-off") {
        const FollowerSettings baseline = followerBaselineDefaults();
        FollowerState b{};
        REQUIRE(followerStart(path, 3, &b) == Status::Ok);
        for (int step = 0; step < 25; ++step) {
            REQUIRE(followerStep(baseline, path, 3, blocked, dt, &b, &cmd) == Status::Ok);
            CHECK_FALSE(cmd.reversing);
        }
        CHECK(b.backoff_events == 0u);
    }
}

TEST_CASE("follower: an escape ends after escape_turn x turning_radius metres, or after reverse_time") {
    // A wall 10 m along the path: forwards the vehicle never moves; backwards it moves at 2 m/s.
    const Vec2f path[] = {{0, 0}, {50, 0}, {100, 0}};
    const double dt = 0.05;
    auto firstEscape = [&](const FollowerSettings& settings) {
        FollowerState state{};
        REQUIRE(followerStart(path, 3, &state) == Status::Ok);
        FollowerVehicle v{10, 0, 0, 0};
        FollowerCommand cmd{};
        double reversing = 0, backed = 0;
        for (int step = 0; step < 60; ++step) {
            REQUIRE(followerStep(settings, path, 3, v, dt, &state, &cmd) == Status::Ok);
            if (!cmd.reversing && reversing > 0) break;
            v.speed = cmd.reversing ? -2.0 : 0.0;
            v.x += v.speed * dt;
            if (cmd.reversing) reversing += dt, backed -= v.speed * dt;
        }
        return std::pair<double, double>{reversing, backed};
    };
    FollowerSettings settings = followerDefaults();
    settings.turning_radius = 4.0; // escape_turn 0.5 rad: 2 m
    REQUIRE(settings.escape_turn == 0.5);
    const auto [time, backed] = firstEscape(settings);
    CHECK(backed == doctest::Approx(settings.escape_turn * settings.turning_radius).epsilon(0.06));
    CHECK(time < settings.stuck.reverse_time);
    // Without a turning radius (or with escape_turn 0) the escape lasts reverse_time, as in the paper.
    settings.turning_radius = 0.0;
    const auto [timed, far] = firstEscape(settings);
    CHECK(timed == doctest::Approx(settings.stuck.reverse_time).epsilon(0.03));
    CHECK(far == doctest::Approx(2.0 * settings.stuck.reverse_time).epsilon(0.03));
}

TEST_CASE("follower learns the lateral acceleration a sliding vehicle holds") {
    // A 25 m radius circle driven by a bicycle whose tyres hold 0.15 g: the default a_lat (0.4 g)
    // asks for more, the vehicle slides wide, and the follower lowers a_lat to what it reached.
    std::vector<std::pair<double, double>> legs{{20, 0}};
    for (int i = 0; i < 3; ++i)
        legs.push_back({2 * kPi * 25, 1 / 25.0});
    const auto path = polyline(chain(Pose2d{0, 0, 0}, legs), 1.0);
    const uint32_t n = uint32_t(path.size());
    auto drive = [&](double grip_g, FollowerState* state) {
        const FollowerSettings settings = followerDefaults();
        REQUIRE(followerStart(path.data(), n, state) == Status::Ok);
        Bicycle car;
        const double dt = 0.02;
        for (double t = 0; t < 40; t += dt) {
            FollowerCommand cmd{};
            REQUIRE(followerStep(settings, path.data(), n, car.vehicle(), dt, state, &cmd) == Status::Ok);
            const double heading_before = car.heading;
            car.step(cmd, dt);
            // Traction: no more yaw than the grip allows at this speed.
            const double yaw_rate = (car.heading - heading_before) / dt, cap = grip_g * 9.81;
            if (std::fabs(car.speed * yaw_rate) > cap)
                car.heading = heading_before + yaw_rate * cap / std::fabs(car.speed * yaw_rate) * dt;
        }
    };
    FollowerState slippery{}, grippy{};
    drive(0.15, &slippery);
    drive(2.0, &grippy);
    MESSAGE("learned a_lat: slippery " << slippery.learned_lateral_accel << " g, grippy "
                                       << grippy.learned_lateral_accel << " g");
    CHECK(slippery.learned_lateral_accel > 0.1);
    CHECK(slippery.learned_lateral_accel <= 0.15 + 1e-9);
    CHECK(grippy.learned_lateral_accel == 0.0); // never slid: nothing learned
}

TEST_CASE("follower looks at least 0.75 turning radii ahead when the turning radius is known") {
    // Straight path, vehicle on it at x = 10. Default look-ahead: 0.8 s * |v| in [4, 20] m.
    const Vec2f path[] = {{0, 0}, {100, 0}};
    auto targetX = [&](double turning_radius, double speed) {
        FollowerSettings settings = followerDefaults();
        settings.turning_radius = turning_radius;
        FollowerState state{};
        REQUIRE(followerStart(path, 2, &state) == Status::Ok);
        FollowerCommand cmd{};
        REQUIRE(followerStep(settings, path, 2, FollowerVehicle{10, 0, 0, speed}, 0.05, &state, &cmd) ==
                Status::Ok);
        return cmd.target_point.x;
    };
    CHECK(targetX(0, 0) == doctest::Approx(14));        // unknown radius: the 4 m minimum
    CHECK(targetX(10.3, 0) == doctest::Approx(17.725)); // truck: 0.75 * 10.3 m
    CHECK(targetX(4.2, 0) == doctest::Approx(14));      // car: 3.15 m < 4 m, no change
    CHECK(targetX(10.3, 20) == doctest::Approx(26));    // 0.8 s * 20 m/s = 16 m > 7.725 m
    CHECK(targetX(40, 0) == doctest::Approx(40));       // 30 m: above the 20 m maximum too
}

TEST_CASE("follower slows for a narrow stretch ahead: tracking error narrow_time x speed fits the margin") {
    // Straight path, a point every metre; 10 m of margin (no cap at 10 m/s) except 0.25 m at x = 50..55:
    // there the target is max(min_speed 1, 0.25 / 0.5 s) = 1 m/s, reached braking at 2 m/s^2 before it.
    std::vector<Vec2f> path;
    std::vector<float> margins;
    for (int i = 0; i <= 100; ++i) {
        path.push_back(Vec2f{float(i), 0.0f});
        margins.push_back(i >= 50 && i <= 55 ? 0.25f : 10.0f);
    }
    const uint32_t n = uint32_t(path.size());
    auto targetAt = [&](const FollowerSettings& settings, double x, const float* m) {
        FollowerState state{};
        REQUIRE(followerStart(path.data(), n, &state) == Status::Ok);
        state.margins = m;
        FollowerCommand cmd{};
        REQUIRE(followerStep(settings, path.data(), n, FollowerVehicle{x, 0, 0, 0}, 0.05, &state, &cmd) ==
                Status::Ok);
        return cmd.target_speed;
    };
    FollowerSettings settings = followerDefaults();
    settings.search_window = 200.0; // a first step projects the vehicle anywhere on the path
    CHECK(settings.narrow_time == 0.5);
    CHECK(targetAt(settings, 10, margins.data()) == doctest::Approx(10));                   // 40 m away
    CHECK(targetAt(settings, 45, margins.data()) == doctest::Approx(std::sqrt(1 + 4 * 5))); // brakes for it
    CHECK(targetAt(settings, 52, margins.data()) == doctest::Approx(1));                    // inside it
    CHECK(targetAt(settings, 57, margins.data()) == doctest::Approx(10));                   // past it
    CHECK(targetAt(settings, 45, nullptr) == doctest::Approx(10));                          // margins unknown
    FollowerSettings off = settings;
    off.narrow_time = 0.0;
    CHECK(targetAt(off, 52, margins.data()) == doctest::Approx(10));
    CHECK(followerBaselineDefaults().narrow_time == 0.0); // the paper's baseline does not slow
}

namespace {
// Drives `settings` along three laps of a 25 m circle with a bicycle whose tyres hold `grip_g`.
void driveCircle(const FollowerSettings& settings, double grip_g, double max_steer, double seconds,
                 FollowerState* state, FollowerCommand* first, FollowerCommand* last) {
    std::vector<std::pair<double, double>> legs;
    for (int i = 0; i < 3; ++i)
        legs.push_back({2 * kPi * 25, 1 / 25.0});
    const auto path = polyline(chain(Pose2d{0, 0, 0}, legs), 1.0);
    const uint32_t n = uint32_t(path.size());
    REQUIRE(followerStart(path.data(), n, state) == Status::Ok);
    Bicycle car;
    car.max_steer = max_steer;
    const double dt = 0.02;
    for (double t = 0; t < seconds; t += dt) {
        FollowerCommand cmd{};
        REQUIRE(followerStep(settings, path.data(), n, car.vehicle(), dt, state, &cmd) == Status::Ok);
        if (t == 0) *first = cmd;
        *last = cmd;
        const double heading_before = car.heading;
        car.step(cmd, dt);
        const double yaw_rate = (car.heading - heading_before) / dt, cap = grip_g * 9.81;
        if (std::fabs(car.speed * yaw_rate) > cap)
            car.heading = heading_before + yaw_rate * cap / std::fabs(car.speed * yaw_rate) * dt;
    }
}
} // namespace

TEST_CASE("follower trusts only the grip a vehicle has shown, then raises it") {
    // On a 25 m circle the 6 m chords subtend phi = 2 asin(3/25) = 0.24058 rad and the Bezier
    // estimate is kappa = (1 - cos phi) / (25 sin^2 phi) = 0.020292 1/m. Before any turn the follower
    // assumes initial_lateral_accel = 0.1: sqrt(0.1 * 9.81 / 0.020292) = 6.953 m/s (0.4 would give
    // 13.9, capped at 10). Grip shown as G g counts as a_lat G / 2, raised 1.5x: at 6.95 m/s the
    // vehicle holds 6.95^2 / 25 = 0.197 g -> a_lat 0.148 (8.45 m/s) -> 0.291 g -> 0.218 (10.3 m/s),
    // capped at v_max 10.
    const FollowerSettings settings = followerDefaults();
    REQUIRE(settings.initial_lateral_accel == doctest::Approx(0.1));
    FollowerState state{};
    FollowerCommand first{}, last{};
    driveCircle(settings, 2.0, 0.6, 30, &state, &first, &last);
    CHECK(first.target_speed == doctest::Approx(6.953).epsilon(0.002));
    CHECK(state.proven_lateral_accel > 0.19);
    CHECK(last.target_speed == doctest::Approx(10.0));
    CHECK(state.learned_lateral_accel == 0.0); // never slid

    SUBCASE("the baseline has no initial limit") {
        CHECK(followerBaselineDefaults().initial_lateral_accel == 0.0);
    }
}

TEST_CASE("follower slows to the saturated speed while the path needs more than full lock") {
    // Straight path along +x; the vehicle stands on it at x = 10 facing +y (across the path). The
    // Bezier target is v_max (the path ahead is straight). With a 10 m turning radius the look-ahead
    // is 7.5 m: target (17.5, 0), 7.5 m to the right, curvature 2 * 7.5 / 7.5^2 = 0.267 > 1/10, so
    // the target speed drops to saturated_speed (3 m/s).
    const Vec2f path[] = {{0, 0}, {100, 0}};
    auto step = [&](double turning_radius) {
        FollowerSettings settings = followerDefaults();
        settings.turning_radius = turning_radius;
        FollowerState state{};
        REQUIRE(followerStart(path, 2, &state) == Status::Ok);
        FollowerCommand cmd{};
        REQUIRE(followerStep(settings, path, 2, FollowerVehicle{10, 0, kPi / 2, 0}, 0.05, &state, &cmd) ==
                Status::Ok);
        return cmd;
    };
    const FollowerCommand unknown = step(0), known = step(10);
    CHECK(unknown.target_speed == doctest::Approx(10.0));
    CHECK(known.curvature == doctest::Approx(-2 / 7.5));
    CHECK(known.target_speed == doctest::Approx(3.0));
    CHECK(followerDefaults().saturated_speed == doctest::Approx(3.0));
    CHECK(followerBaselineDefaults().saturated_speed == 0.0);
}

TEST_CASE("follower: full lock at a known turning radius is no slide") {
    // Wheels limited to atan(2.8 / 40) rad: a 40 m turning radius on a 25 m circle, tyres holding 2 g.
    // The vehicle turns at most 1/40 where 1/25 is asked (62 %): without the turning radius the
    // follower takes that for a slide and lowers a_lat; knowing the radius it asks for at most 1/40.
    const double max_steer = std::atan(2.8 / 40.0);
    FollowerSettings settings = followerDefaults();
    settings.steering.max_steer = max_steer; // steer in [-1, 1] maps onto these wheels
    FollowerState unknown{}, known{};
    FollowerCommand first{}, last{};
    driveCircle(settings, 2.0, max_steer, 20, &unknown, &first, &last);
    settings.turning_radius = 40.0;
    driveCircle(settings, 2.0, max_steer, 20, &known, &first, &last);
    MESSAGE("learned a_lat: radius unknown " << unknown.learned_lateral_accel << " g, known "
                                             << known.learned_lateral_accel << " g");
    CHECK(unknown.learned_lateral_accel > 0.0);
    CHECK(known.learned_lateral_accel == 0.0);
}

TEST_CASE("follower: bad input") {
    const Vec2f path[] = {{0, 0}, {50, 0}};
    FollowerState state{};
    FollowerCommand cmd{};
    CHECK(followerStart(path, 1, &state) == Status::InvalidArgument);
    REQUIRE(followerStart(path, 2, &state) == Status::Ok);
    const FollowerSettings s = followerDefaults();
    CHECK(followerStep(s, path, 2, FollowerVehicle{0, 0, NAN, 0}, 0.1, &state, &cmd) ==
          Status::InvalidArgument);
    CHECK(followerStep(s, path, 2, FollowerVehicle{0, 0, 0, 0}, -1, &state, &cmd) == Status::InvalidArgument);
    const Vec2f longer[] = {{0, 0}, {50, 0}, {60, 0}};
    CHECK(followerStep(s, longer, 3, FollowerVehicle{0, 0, 0, 0}, 0.1, &state, &cmd) ==
          Status::InvalidArgument);
}

namespace {

// Pieces with gears: (length, curvature, direction) joined end to start.
std::vector<PathPiece> gearChain(Pose2d start, const std::vector<std::array<double, 3>>& legs) {
    std::vector<PathPiece> pieces;
    for (const auto& leg : legs) {
        pieces.push_back(PathPiece{start, leg[0], leg[1], int32_t(leg[2])});
        PathSample end{};
        REQUIRE(pathSampleAtDistance(&pieces.back(), 1, leg[0], &end) == Status::Ok);
        start = Pose2d{end.x, end.y, end.heading};
    }
    return pieces;
}

// Every piece sampled every <= spacing with its end as a vertex (cusps stay sharp), one gear per segment.
void gearedPolyline(const std::vector<PathPiece>& pieces, double spacing, std::vector<Vec2f>* points,
                    std::vector<int8_t>* gears) {
    points->assign(1, Vec2f{float(pieces[0].start.x), float(pieces[0].start.y)});
    gears->clear();
    for (const PathPiece& p : pieces) {
        const int n = int(std::ceil(p.length / spacing));
        for (int k = 1; k <= n; ++k) {
            PathSample q{};
            REQUIRE(pathSampleAtDistance(&p, 1, p.length * k / n, &q) == Status::Ok);
            points->push_back(Vec2f{float(q.x), float(q.y)});
            gears->push_back(int8_t(p.direction));
        }
    }
}

} // namespace

TEST_CASE("follower drives a path with gears: forward, stop at the cusp, reverse into the turn, forward") {
    // 10 m east; cusp; back up 90 deg on an r = 6 m arc, wheels right (the nose swings left to face
    // north); cusp; 15 m north. The bicycle turns at r = 2.8 / tan(0.6) = 4.1 m.
    const auto pieces = gearChain(Pose2d{0, 0, 0}, {{10, 0, 1}, {kPi / 2 * 6, -1 / 6.0, -1}, {15, 0, 1}});
    // Backing up with the wheels right moves the rear axle 6 m west and 6 m south of the cusp.
    CHECK(pieces[2].start.x == doctest::Approx(4.0).epsilon(1e-9));
    CHECK(pieces[2].start.y == doctest::Approx(-6.0).epsilon(1e-9));
    CHECK(pieces[2].start.heading == doctest::Approx(kPi / 2).epsilon(1e-9));
    std::vector<Vec2f> path;
    std::vector<int8_t> gears;
    gearedPolyline(pieces, 0.5, &path, &gears);
    const uint32_t n = uint32_t(path.size());
    FollowerSettings settings = followerDefaults();
    settings.turning_radius = 2.8 / std::tan(0.6);
    FollowerState state{};
    REQUIRE(followerStartGears(path.data(), gears.data(), n, &state) == Status::Ok);
    CHECK(state.path_length == doctest::Approx(10 + 3 * kPi + 15).epsilon(1e-3));
    CHECK(state.gear == 1);
    CHECK(state.piece_end == doctest::Approx(10).epsilon(1e-6));

    Bicycle car;
    const double dt = 0.02;
    double t = 0, max_reverse_cte = 0, max_forward_cte = 0;
    std::vector<double> switch_speed, switch_distance;
    int32_t gear = 1;
    double reverse_min_speed = 0, reverse_max_speed = -1;
    FollowerCommand cmd{};
    for (; t < 60; t += dt) {
        REQUIRE(followerStepGears(settings, path.data(), gears.data(), n, car.vehicle(), dt, &state, &cmd) ==
                Status::Ok);
        if (cmd.gear != gear) {
            // The gear changes only with the vehicle (nearly) stopped on the cusp.
            const PathPiece& next = pieces[switch_speed.size() + 1];
            switch_speed.push_back(std::fabs(car.speed));
            switch_distance.push_back(std::hypot(car.x - next.start.x, car.y - next.start.y));
            gear = cmd.gear;
        }
        if (cmd.arrived && std::fabs(car.speed) < 0.05) break;
        car.step(cmd, dt);
        if (gear < 0) {
            reverse_min_speed = std::fmin(reverse_min_speed, car.speed);
            reverse_max_speed = std::fmax(reverse_max_speed, car.speed);
            if (cmd.progress > 10 + 2)
                max_reverse_cte = std::fmax(max_reverse_cte, std::fabs(cmd.cross_track_error));
        } else if (cmd.progress > 10 + 3 * kPi + 3) {
            max_forward_cte = std::fmax(max_forward_cte, std::fabs(cmd.cross_track_error));
        }
    }
    MESSAGE("time " << t << " s, cusp speeds " << switch_speed[0] << " / " << switch_speed[1]
                    << " m/s, cusp distances " << switch_distance[0] << " / " << switch_distance[1]
                    << " m, max |cte| reversing " << max_reverse_cte << " m, forward after "
                    << max_forward_cte << " m");
    REQUIRE(switch_speed.size() == 2);
    CHECK(state.gear_changes == 2u);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(switch_speed[i] <= settings.cusp_speed);
        CHECK(switch_distance[i] <= settings.cusp_distance + 0.3); // + the cross-track error there
    }
    CHECK(reverse_min_speed < -1.0);                        // it really backs up ...
    CHECK(reverse_max_speed <= settings.cusp_speed + 1e-9); // ... after braking out of the cusp
    CHECK(max_reverse_cte < 0.6);
    CHECK(max_forward_cte < 0.6);
    CHECK(cmd.arrived);
    CHECK(state.stuck_events == 0u); // the reverse piece is progress
    CHECK(state.backoff_events == 0u);
    CHECK(std::hypot(car.x - path.back().x, car.y - path.back().y) < settings.arrive_distance + 0.5);
    CHECK(car.heading == doctest::Approx(kPi / 2).epsilon(0.05));
}

TEST_CASE("follower stops at the cusp of a short reverse piece: no speed integral pushes it past") {
    // 0.7 m straight back (west), cusp, 10 m east: a truck-like bicycle (accel 1.5, brake 4 m/s^2). The
    // integral built up speeding along the piece kept such a vehicle rolling past the cusp at 0.15-0.3 m/s,
    // never below cusp_speed, until the stuck window ran out (cw-drive, bridge).
    const auto pieces = gearChain(Pose2d{0, 0, 0}, {{0.7, 0, -1}, {10, 0, 1}});
    std::vector<Vec2f> path;
    std::vector<int8_t> gears;
    gearedPolyline(pieces, 0.25, &path, &gears);
    const uint32_t n = uint32_t(path.size());
    FollowerSettings settings = followerDefaults();
    settings.turning_radius = 10.0;
    FollowerState state{};
    REQUIRE(followerStartGears(path.data(), gears.data(), n, &state) == Status::Ok);
    Bicycle truck;
    truck.accel = 1.5;
    truck.brake = 4.0;
    const double dt = 0.05;
    double t = 0, cusp_time = -1;
    FollowerCommand cmd{};
    for (; t < 20 && !cmd.arrived; t += dt) {
        const FollowerVehicle v = truck.vehicle();
        REQUIRE(followerStepGears(settings, path.data(), gears.data(), n, v, dt, &state, &cmd) == Status::Ok);
        if (cmd.gear > 0 && cusp_time < 0) cusp_time = t;
        truck.step(cmd, dt);
    }
    MESSAGE("gear change at " << cusp_time << " s, arrived at " << t << " s");
    CHECK(cusp_time > 0);
    CHECK(cusp_time < 2.0); // measured 1.3 s; 2.7 s with the integral left pushing
    CHECK(state.stuck_events == 0u);
    CHECK(cmd.arrived);
}

TEST_CASE("follower reversing on plan: pure pursuit on the reversed pose, escapes forwards when stuck") {
    // A reverse-only path west along y = 0; the vehicle faces east 1 m left of it (north).
    const Vec2f path[] = {{0, 0}, {-50, 0}, {-100, 0}};
    const int8_t gears[] = {-1, -1};
    FollowerSettings settings = followerDefaults();
    settings.blocked_time = 0; // the stuck manager alone
    FollowerState state{};
    REQUIRE(followerStartGears(path, gears, 3, &state) == Status::Ok);
    FollowerCommand cmd{};
    REQUIRE(followerStepGears(settings, path, gears, 3, FollowerVehicle{0, 1, 0, 0}, 0.1, &state, &cmd) ==
            Status::Ok);
    CHECK(cmd.gear == -1);
    CHECK(cmd.throttle < 0.0); // accelerate backwards
    // Reversed pose (0, 1) facing west; the look-ahead point (-4, 0) is 1 m to its left:
    // kappa = 2 * 1 / (4^2 + 1^2) = 2/17. The wheels turn the other way: yaw = speed * curvature, speed < 0.
    CHECK(cmd.target_point.x == doctest::Approx(-4.0));
    CHECK(cmd.curvature == doctest::Approx(-2.0 / 17.0).epsilon(1e-9));
    CHECK(cmd.steer < 0.0);
    // Blocked behind: 3 s without progress is a stuck event, and the escape drives forwards.
    for (int i = 1; i < 30; ++i)
        REQUIRE(followerStepGears(settings, path, gears, 3, FollowerVehicle{0, 1, 0, 0}, 0.1, &state, &cmd) ==
                Status::Ok);
    CHECK(state.stuck_events == 1u);
    CHECK(cmd.reversing);
    CHECK(cmd.throttle == doctest::Approx(settings.stuck.reverse_throttle));
    CHECK(cmd.curvature == doctest::Approx(2.0 / 17.0).epsilon(1e-9));
    // Still blocked: a second escape, then the teleport 5 m further along, nose first in reverse (east).
    for (int i = 0; i < 200 && !cmd.teleport; ++i)
        REQUIRE(followerStepGears(settings, path, gears, 3, FollowerVehicle{0, 1, 0, 0}, 0.1, &state, &cmd) ==
                Status::Ok);
    REQUIRE(cmd.teleport);
    CHECK(state.stuck_events == 3u);
    CHECK(cmd.teleport_pose.x == doctest::Approx(-settings.stuck.teleport_ahead));
    CHECK(cmd.teleport_pose.y == doctest::Approx(0.0));
    CHECK(std::cos(cmd.teleport_pose.heading) == doctest::Approx(1.0));
}

TEST_CASE("follower: a path without gears or with all-forward gears drives exactly as before") {
    const auto pieces =
        chain(Pose2d{0, 0, 0}, {{30, 0}, {kPi / 2 * 20, 1 / 20.0}, {20, 0}, {kPi / 2 * 6, -1 / 6.0}});
    const auto path = polyline(pieces, 1.0);
    const uint32_t n = uint32_t(path.size());
    const std::vector<int8_t> forward(n - 1, 1);
    const FollowerSettings settings = followerDefaults();
    FollowerState a{}, b{}, c{};
    REQUIRE(followerStart(path.data(), n, &a) == Status::Ok);
    REQUIRE(followerStartGears(path.data(), nullptr, n, &b) == Status::Ok);
    REQUIRE(followerStartGears(path.data(), forward.data(), n, &c) == Status::Ok);
    Bicycle car;
    car.y = 1.0;
    int frames = 0, identical = 0;
    for (double t = 0; t < 40; t += 0.02) {
        ++frames;
        FollowerCommand ca{}, cb{}, cc{};
        REQUIRE(followerStep(settings, path.data(), n, car.vehicle(), 0.02, &a, &ca) == Status::Ok);
        REQUIRE(followerStepGears(settings, path.data(), nullptr, n, car.vehicle(), 0.02, &b, &cb) ==
                Status::Ok);
        REQUIRE(followerStepGears(settings, path.data(), forward.data(), n, car.vehicle(), 0.02, &c, &cc) ==
                Status::Ok);
        const bool same = ca.throttle == cb.throttle && ca.throttle == cc.throttle && ca.steer == cb.steer &&
                          ca.steer == cc.steer && ca.curvature == cc.curvature &&
                          ca.target_speed == cc.target_speed && ca.progress == cc.progress &&
                          ca.cross_track_error == cc.cross_track_error && ca.arrived == cc.arrived &&
                          cc.gear == 1;
        identical += same ? 1 : 0;
        if (ca.arrived && std::fabs(car.speed) < 0.05) break;
        car.step(ca, 0.02);
    }
    CHECK(identical == frames); // every frame, bit for bit
    CHECK(frames > 500);
    CHECK(a.stuck_events == 0u);
    CHECK(c.gear_changes == 0u);
    // Gears given to a state started without them (or the reverse) are a caller bug.
    FollowerCommand cmd{};
    CHECK(followerStepGears(settings, path.data(), forward.data(), n, car.vehicle(), 0.02, &a, &cmd) ==
          Status::InvalidArgument);
    CHECK(followerStep(settings, path.data(), n, car.vehicle(), 0.02, &c, &cmd) == Status::InvalidArgument);
}
