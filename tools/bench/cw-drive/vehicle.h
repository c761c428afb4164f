// The simulated vehicles of cw-drive (de Schaetzen and Sestini, "Efficient Ground Vehicle Path
// Following in Game AI", 2023, Table I): kinematic-bicycle parameters and the speed update, which
// feels the ground's slope along the heading. Header-only (no bake or runtime types) for the tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace clearway::drive {

constexpr double kGravity = 9.81;

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

// Height differences below this count as flat ground (the surface lookup interpolates in floats, so
// a level floor may differ by an ulp between two points): there the slope term is exactly 0.
constexpr double kFlatHeight = 1e-4;

// Sine of the ground's pitch along the heading (> 0 uphill) from the surface heights under the rear
// and the front axle, `wheelbase` apart in the ground plane; exactly 0 on flat ground.
inline double pitchSine(double rear_height, double front_height, double wheelbase) {
    const double rise = front_height - rear_height;
    if (std::fabs(rise) < kFlatHeight) return 0.0;
    return rise / std::hypot(wheelbase, rise);
}

// Steepest uphill pitch (sine) the vehicle still climbs at full throttle with a quarter of its
// acceleration to spare (g sin = 0.75 accel): car 17.8 deg, truck and tank 6.6, hovercraft and van
// 11.0, kart 22.5.
inline double climbableSine(const VehicleSpec& v) {
    return std::min(1.0, 0.75 * v.accel / kGravity);
}

// The speed after one step: throttle (> 0 speeds up forward, < 0 backwards; against the motion it
// brakes) plus gravity along the heading, -g sin(pitch); clamped to the top and reverse speeds.
inline double stepSpeed(const VehicleSpec& v, double speed, double throttle, double pitch_sine, double dt) {
    double a = throttle >= 0 ? throttle * (speed < 0 ? v.brake : v.accel) : throttle * (speed > 0 ? v.brake : v.accel);
    if (pitch_sine != 0.0) a -= kGravity * pitch_sine; // skipped on flat ground: bit-identical there
    return std::clamp(speed + a * dt, -v.reverse_speed, v.top_speed);
}

} // namespace clearway::drive
