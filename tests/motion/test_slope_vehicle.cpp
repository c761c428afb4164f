// cw-drive's vehicle on slopes (tools/bench/cw-drive/vehicle.h; de Schaetzen and Sestini 2023, Table I
// vehicles): with the throttle off it slows by g sin(angle) uphill and speeds up by as much downhill,
// and on flat ground the slope term is exactly zero.
#include "vehicle.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace clearway::drive;

namespace {

constexpr double kPi = 3.14159265358979323846;

// The car's speed after `seconds` of 0.05 s steps with the throttle off on a constant incline of
// `degrees` (> 0 uphill), its axles' heights taken from the incline as cw-drive takes them.
double coast(double speed, double degrees, double seconds) {
    const VehicleSpec& car = kVehicles[0];
    const double rise = car.wheelbase * std::tan(degrees * kPi / 180.0);
    const double pitch = pitchSine(10.0, 10.0 + rise, car.wheelbase);
    for (int i = 0; i < int(std::lround(seconds / 0.05)); ++i)
        speed = stepSpeed(car, speed, 0.0, pitch, 0.05);
    return speed;
}

} // namespace

TEST_SUITE("motion/slope_vehicle") {
    TEST_CASE("throttle off on a 10 degree incline: uphill it loses g sin(10 deg) per second, downhill gains it") {
        // Hand-computed: 9.81 * sin(10 deg) = 9.81 * 0.17364818 = 1.7034886 m/s^2.
        CHECK(pitchSine(0.0, kVehicles[0].wheelbase * std::tan(10.0 * kPi / 180.0), kVehicles[0].wheelbase) ==
              doctest::Approx(0.173648).epsilon(1e-6));
        CHECK(coast(5.0, 10.0, 1.0) == doctest::Approx(5.0 - 1.7034886).epsilon(1e-6));
        CHECK(coast(5.0, -10.0, 1.0) == doctest::Approx(5.0 + 1.7034886).epsilon(1e-6));
        // Two seconds uphill from 2 m/s: it stops after 1.174 s and rolls back, 3.4069773 m/s lost in all.
        CHECK(coast(2.0, 10.0, 2.0) == doctest::Approx(2.0 - 3.4069773).epsilon(1e-6));
        // Downhill the top speed still caps it (car: 14 m/s).
        CHECK(coast(13.5, -10.0, 2.0) == 14.0);
    }

    TEST_CASE("full throttle uphill: the car's 4 m/s^2 less g sin(20 deg) = 3.355 m/s^2") {
        const VehicleSpec& car = kVehicles[0];
        const double pitch = std::sin(20.0 * kPi / 180.0);
        // 4 - 9.81 * 0.342020 = 0.644780 m/s^2, over one 0.05 s step from 3 m/s.
        CHECK(stepSpeed(car, 3.0, 1.0, pitch, 0.05) == doctest::Approx(3.0 + 0.05 * 0.644780).epsilon(1e-6));
        // The truck (1.5 m/s^2) cannot climb it: at full throttle it slows by 1.855 m/s^2.
        CHECK(stepSpeed(kVehicles[1], 3.0, 1.0, pitch, 0.05) == doctest::Approx(3.0 - 0.05 * 1.855200).epsilon(1e-6));
        // ... and cw-drive does not route it there: its climbable pitch is 0.75 * 1.5 / 9.81 (6.6 deg).
        CHECK(climbableSine(kVehicles[1]) == doctest::Approx(0.114679).epsilon(1e-5));
        CHECK(climbableSine(car) > std::sin(17.0 * kPi / 180.0));
    }

    TEST_CASE("flat ground: the slope term is exactly zero, the speed update the planar one") {
        for (const VehicleSpec& v : kVehicles) {
            CAPTURE(v.name);
            CHECK(pitchSine(3.25, 3.25, v.wheelbase) == 0.0);
            CHECK(pitchSine(3.25f, std::nextafter(3.25f, 4.0f), v.wheelbase) == 0.0); // float noise of a floor
            for (double throttle : {-1.0, -0.3, 0.0, 0.6, 1.0})
                for (double speed : {-2.0, 0.0, 1.7}) {
                    const double a = throttle >= 0 ? throttle * (speed < 0 ? v.brake : v.accel)
                                                   : throttle * (speed > 0 ? v.brake : v.accel);
                    CHECK(stepSpeed(v, speed, throttle, 0.0, 0.05) ==
                          std::clamp(speed + a * 0.05, -v.reverse_speed, v.top_speed));
                }
        }
    }
}
