// Trim tables: the integrator against closed forms, symmetric storage, the rigid-transform step
// against online integration, and the verified loader against every malformed buffer.
#include <clearway/motion.h>

#include <clearway/schema/trims_generated.h>

#include <doctest/doctest.h>

#include "asset_robustness.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <vector>

using namespace clearway;
using namespace clearway::trims;
namespace fbt = clearway::schema::trims;

namespace trimtest {

Model model2d(uint32_t samples = 17, double max_rate = 0.8, double speed = 8.0, uint32_t steps = 20) {
    Model m{};
    m.dimension = 2;
    m.samples[kYaw] = samples;
    m.samples[kPitch] = m.samples[kRoll] = 1;
    m.max_rate[kYaw] = max_rate;
    m.interval = 1.0;
    m.steps = steps;
    m.speed = speed;
    return m;
}

Model model3d(uint32_t yaw, uint32_t pitch, uint32_t roll) {
    Model m{};
    m.dimension = 3;
    m.samples[kYaw] = yaw;
    m.samples[kPitch] = pitch;
    m.samples[kRoll] = roll;
    m.max_rate[kYaw] = 0.9;
    m.max_rate[kPitch] = 0.7;
    m.max_rate[kRoll] = roll > 1 ? 1.3 : 0.0;
    m.interval = 1.0;
    m.steps = 16;
    m.speed = 20.0;
    return m;
}

Trim trimOf(const PoseD& pose) {
    const double* q = pose.orientation;
    Trim t{};
    t.position = {float(pose.position[0]), float(pose.position[1]), float(pose.position[2])};
    t.facing = {float(1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2])), float(2.0 * (q[0] * q[1] + q[3] * q[2])),
                float(2.0 * (q[0] * q[2] - q[3] * q[1]))};
    t.orientation = {float(q[0]), float(q[1]), float(q[2]), float(q[3])};
    return t;
}

Trim integrated(const Model& m, uint32_t from, uint32_t to, double speed) {
    PoseD pose = identityPose();
    integrateTrim(m, from, to, speed, 0, m.steps, &pose);
    return trimOf(pose);
}

// What the bake writes, built here with the same integrator (lib/motion has no bake).
struct TableSpec {
    Model model{};
    bool symmetric = true;
    const char* identifier = "CWTT";
    uint32_t format_version = kFormatVersion;
    bool baker = true;
    bool with_model = true;
    uint32_t dimension_raw = 0; // 0: from model
    int64_t trim_count_delta = 0;
    double max_chord_deviation = 0.5;
};

std::vector<uint8_t> buildTable(const TableSpec& spec, const std::vector<Trim>* override_trims = nullptr) {
    const Model& m = spec.model;
    const uint32_t C = controlCount(m);
    std::vector<Trim> trims(size_t(storedTrimCount(m, spec.symmetric)));
    for (uint32_t from = 0; from < C; ++from)
        for (uint32_t to = 0; to < C; ++to) {
            bool mirrored = false;
            const uint64_t slot = trimSlot(m, spec.symmetric, from, to, &mirrored);
            if (!mirrored) trims[slot] = integrated(m, from, to, m.speed);
        }
    if (override_trims) trims = *override_trims;
    if (spec.trim_count_delta < 0) trims.resize(trims.size() - size_t(-spec.trim_count_delta));
    if (spec.trim_count_delta > 0) trims.resize(trims.size() + size_t(spec.trim_count_delta), trims.back());
    std::vector<fbt::Trim> out;
    for (const Trim& t : trims)
        out.emplace_back(fbt::Vec3(t.position.x, t.position.y, t.position.z),
                         fbt::Vec3(t.facing.x, t.facing.y, t.facing.z),
                         fbt::Quat(t.orientation.x, t.orientation.y, t.orientation.z, t.orientation.w));
    flatbuffers::FlatBufferBuilder b;
    b.ForceDefaults(true);
    auto vec = b.CreateVectorOfStructs(out);
    flatbuffers::Offset<fbt::Model> model = 0;
    if (spec.with_model) {
        auto yaw = fbt::CreateAxis(b, m.max_rate[kYaw], m.samples[kYaw]);
        auto pitch = fbt::CreateAxis(b, m.max_rate[kPitch], m.samples[kPitch]);
        auto roll = fbt::CreateAxis(b, m.max_rate[kRoll], m.samples[kRoll]);
        const auto dim = fbt::Dimension(spec.dimension_raw ? spec.dimension_raw : m.dimension);
        model = fbt::CreateModel(b, dim, yaw, pitch, roll, m.interval, m.steps, m.speed);
    }
    auto baker = spec.baker ? b.CreateString("0.1.0") : 0;
    auto name = b.CreateString("test-vehicle");
    auto root = fbt::CreateTrimTable(b, spec.format_version, baker, 0x1234, 0x5678, model, spec.symmetric,
                                     vec, spec.max_chord_deviation, name, 0);
    b.Finish(root, spec.identifier);
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

std::vector<uint8_t> buildTable(const Model& m, bool symmetric) {
    TableSpec spec;
    spec.model = m;
    spec.symmetric = symmetric;
    return buildTable(spec);
}

} // namespace trimtest

using namespace trimtest;

namespace {

Status loadBytes(const std::vector<uint8_t>& bytes, TableView* view = nullptr) {
    TableView local;
    return loadTable(bytes.data(), bytes.size(), view ? view : &local);
}

uint32_t controlWithYaw(const Model& m, uint32_t yaw_index) {
    // 2D: the control index is the yaw index.
    (void)m;
    return yaw_index;
}

double len(double x, double y, double z = 0) {
    return std::sqrt(x * x + y * y + z * z);
}

// Reads every trim of a loaded table; false on anything non-finite (for the corruption test).
bool walkTable(const TableView& view) {
    for (uint32_t a = 0; a < view.control_count; ++a)
        for (uint32_t b = 0; b < view.control_count; ++b) {
            Trim t;
            if (tableTrim(view, a, b, &t) != Status::Ok) return false;
            if (!std::isfinite(t.position.x + t.position.y + t.position.z + t.orientation.w)) return false;
        }
    TableInfo info;
    return tableInfo(view, &info) == Status::Ok && info.baker_version != nullptr;
}

} // namespace

TEST_SUITE("trims") {
    TEST_CASE("a trim is 40 bytes, as in the paper") {
        CHECK(sizeof(Trim) == 40);
        CHECK(sizeof(fbt::Trim) == 40);
    }

    TEST_CASE(
        "control rates: odd samples spread evenly, straight in the middle, mirror negates yaw and roll") {
        const Model m = model2d(17, 0.8);
        CHECK(controlCount(m) == 17);
        CHECK(straightControl(m) == 8);
        double r[3];
        controlRates(m, 0, r);
        CHECK(r[kYaw] == -0.8);
        controlRates(m, 16, r);
        CHECK(r[kYaw] == 0.8);
        controlRates(m, 12, r);
        CHECK(r[kYaw] == doctest::Approx(0.4));
        controlRates(m, 8, r);
        CHECK(r[kYaw] == 0.0);
        CHECK(mirrorControl(m, 3) == 13);

        const Model s = model3d(5, 3, 3);
        CHECK(controlCount(s) == 45);
        const uint32_t straight = straightControl(s);
        controlRates(s, straight, r);
        CHECK(r[0] == 0.0);
        CHECK(r[1] == 0.0);
        CHECK(r[2] == 0.0);
        for (uint32_t c = 0; c < 45; ++c) {
            double a[3], b[3];
            controlRates(s, c, a);
            controlRates(s, mirrorControl(s, c), b);
            CHECK(b[kYaw] == -a[kYaw]);
            CHECK(b[kRoll] == -a[kRoll]);
            CHECK(b[kPitch] == a[kPitch]);
            CHECK(mirrorControl(s, mirrorControl(s, c)) == c);
        }
    }

    TEST_CASE(
        "symmetric storage: canonical pairs fill every slot exactly once, mirrors point at their twin") {
        for (const Model& m :
             {model2d(17), model2d(3), model3d(5, 3, 1), model3d(3, 3, 3), model3d(5, 5, 3)}) {
            const uint32_t C = controlCount(m);
            const uint64_t stored = storedTrimCount(m, true);
            CHECK(storedTrimCount(m, false) == uint64_t(C) * C);
            // The number of mirror orbits: half the pairs plus half the self-mirrored ones.
            CHECK(stored == (uint64_t(C) * C + uint64_t(m.samples[kPitch]) * m.samples[kPitch]) / 2);
            std::vector<int> hits(size_t(stored), 0);
            for (uint32_t a = 0; a < C; ++a)
                for (uint32_t b = 0; b < C; ++b) {
                    bool mirrored = false;
                    const uint64_t slot = trimSlot(m, true, a, b, &mirrored);
                    REQUIRE(slot < stored);
                    bool twin_mirrored = false;
                    const uint64_t twin =
                        trimSlot(m, true, mirrorControl(m, a), mirrorControl(m, b), &twin_mirrored);
                    CHECK(twin == slot);
                    if (!mirrored)
                        ++hits[slot];
                    else
                        CHECK(!twin_mirrored);
                }
            for (int h : hits)
                CHECK(h == 1);
        }
        // 17 yaw samples: 145 of 289 trims (the straight-to-straight trim is its own mirror).
        CHECK(storedTrimCount(model2d(17), true) == 145);
    }

    TEST_CASE("zero angular velocity: a straight line of length speed x interval") {
        const Model m = model2d(17, 0.8, 8.0, 20);
        const Trim t = integrated(m, 8, 8, 8.0);
        CHECK(t.position.x == doctest::Approx(8.0).epsilon(1e-12));
        CHECK(t.position.y == 0.0f);
        CHECK(t.position.z == 0.0f);
        CHECK(t.facing.x == 1.0f);
        CHECK(t.orientation.w == 1.0f);
        CHECK(t.orientation.z == 0.0f);
    }

    TEST_CASE("constant yaw rate: Euler sum in closed form, and the circle arc within the Euler bound") {
        // from = to = the control of rate w: the rate stays w over the whole interval.
        const double v = 8.0, T = 1.0;
        for (uint32_t steps : {1u, 4u, 20u, 1000u}) {
            const Model m = model2d(17, 0.8, v, steps);
            for (uint32_t c : {0u, 3u, 12u, 16u}) {
                double r[3];
                controlRates(m, c, r);
                const double w = r[kYaw], dt = T / steps;
                const Trim t = integrated(m, controlWithYaw(m, c), controlWithYaw(m, c), v);
                // Forward Euler: p = v dt sum_{i<N} (cos i w dt, sin i w dt) (a geometric series).
                double ex = 0, ey = 0;
                for (uint32_t i = 0; i < steps; ++i)
                    ex += v * dt * std::cos(i * w * dt), ey += v * dt * std::sin(i * w * dt);
                CHECK(t.position.x == doctest::Approx(ex).epsilon(1e-6));
                CHECK(t.position.y == doctest::Approx(ey).epsilon(1e-6));
                // The exact arc: (sin wT, 1 - cos wT) v / w, radius v / w.
                const double ax = std::sin(w * T) * v / w, ay = (1 - std::cos(w * T)) * v / w;
                const double bound = v * std::fabs(w) * T * T / (2.0 * steps);
                const double err = len(t.position.x - ax, t.position.y - ay);
                CHECK(err <= bound * 1.0001 + 1e-5);
                if (steps == 1000) CHECK(err < 0.004);
                // Heading is exact: N exact rotations of w dt.
                CHECK(t.facing.x == doctest::Approx(std::cos(w * T)).epsilon(1e-6));
                CHECK(t.facing.y == doctest::Approx(std::sin(w * T)).epsilon(1e-6));
                CHECK(std::atan2(t.orientation.z, t.orientation.w) * 2 ==
                      doctest::Approx(w * T).epsilon(1e-6));
            }
        }
        // Hand-checked: w = 0.8 rad/s, v = 8 m/s, T = 1 s: radius 10 m, end (7.1736, 3.0329).
        const Trim fine = integrated(model2d(17, 0.8, 8.0, 100000), 16, 16, 8.0);
        CHECK(fine.position.x == doctest::Approx(7.17356).epsilon(1e-4));
        CHECK(fine.position.y == doctest::Approx(3.03293).epsilon(1e-4));
    }

    TEST_CASE("linear yaw ramp (a clothoid) within the first-order Euler error bound") {
        const double v = 8.0, T = 1.0;
        for (uint32_t steps : {10u, 20u, 200u}) {
            const Model m = model2d(17, 0.8, v, steps);
            for (auto [from, to] : {std::pair<uint32_t, uint32_t>{0, 16}, {8, 16}, {4, 10}, {16, 1}}) {
                double r0[3], r1[3];
                controlRates(m, from, r0);
                controlRates(m, to, r1);
                const double w0 = r0[kYaw], w1 = r1[kYaw];
                // Exact end: integral of v (cos th, sin th), th(t) = w0 t + (w1 - w0) t^2 / 2T (Simpson).
                const int n = 20000;
                double ex = 0, ey = 0;
                for (int i = 0; i <= n; ++i) {
                    const double t = T * i / n, th = w0 * t + (w1 - w0) * t * t / (2 * T);
                    const double wgt = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
                    ex += wgt * std::cos(th), ey += wgt * std::sin(th);
                }
                ex *= v * T / (3 * n), ey *= v * T / (3 * n);
                const Trim t = integrated(m, from, to, v);
                // |error| <= v T dt (max|w| + |w1 - w0|) / 2: heading lags by at most that per step.
                const double dt = T / steps;
                const double bound =
                    v * T * dt * (std::max(std::fabs(w0), std::fabs(w1)) + std::fabs(w1 - w0)) / 2;
                CHECK(len(t.position.x - ex, t.position.y - ey) <= bound + 1e-5);
                // The Euler heading: sum of w(t_i) dt = w0 T + (w1 - w0) T (N - 1) / 2N.
                const double heading = w0 * T + (w1 - w0) * T * (steps - 1) / (2.0 * steps);
                CHECK(std::atan2(t.facing.y, t.facing.x) == doctest::Approx(heading).epsilon(1e-5));
            }
        }
    }

    TEST_CASE("3D: pitch noses up, roll turns about the facing, quaternions stay unit length") {
        const Model m = model3d(5, 5, 3);
        const uint32_t straight = straightControl(m);
        const uint32_t U = m.samples[kYaw] * m.samples[kRoll];
        const uint32_t up = straight + U * 2; // pitch index +2: max positive pitch rate
        const Trim climb = integrated(m, up, up, m.speed);
        CHECK(climb.position.z > 0.0f);
        CHECK(climb.facing.z == doctest::Approx(std::sin(0.7)).epsilon(1e-5));
        CHECK(climb.position.y == doctest::Approx(0.0).epsilon(1e-9));
        const uint32_t roll = straight + m.samples[kYaw]; // roll index +1: positive roll rate
        const Trim rolled = integrated(m, roll, roll, m.speed);
        CHECK(rolled.position.x == doctest::Approx(m.speed).epsilon(1e-6)); // rolling does not steer
        CHECK(rolled.facing.x == doctest::Approx(1.0).epsilon(1e-6));
        CHECK(2 * std::atan2(rolled.orientation.x, rolled.orientation.w) ==
              doctest::Approx(1.3).epsilon(1e-5));
        const uint32_t C = controlCount(m);
        for (uint32_t a = 0; a < C; a += 3)
            for (uint32_t b = 0; b < C; ++b) {
                const Trim t = integrated(m, a, b, m.speed);
                const double n = len(t.orientation.x, t.orientation.y, t.orientation.z);
                CHECK(n * n + double(t.orientation.w) * t.orientation.w ==
                      doctest::Approx(1.0).epsilon(1e-6));
                CHECK(len(t.position.x, t.position.y, t.position.z) <= m.speed * m.interval * (1 + 1e-6));
            }
    }

    TEST_CASE("mirror symmetry is exact: integrating the mirrored controls gives the mirrored trim") {
        for (const Model& m : {model2d(17), model3d(5, 3, 3)}) {
            const uint32_t C = controlCount(m);
            uint32_t checked = 0;
            for (uint32_t a = 0; a < C; ++a)
                for (uint32_t b = 0; b < C; ++b) {
                    const Trim t = integrated(m, a, b, m.speed);
                    const Trim mt =
                        mirrorTrim(integrated(m, mirrorControl(m, a), mirrorControl(m, b), m.speed));
                    const float x[10] = {t.position.x,    t.position.y,   t.position.z,    t.facing.x,
                                         t.facing.y,      t.facing.z,     t.orientation.x, t.orientation.y,
                                         t.orientation.z, t.orientation.w};
                    const float y[10] = {mt.position.x,    mt.position.y,    mt.position.z,
                                         mt.facing.x,      mt.facing.y,      mt.facing.z,
                                         mt.orientation.x, mt.orientation.y, mt.orientation.z,
                                         mt.orientation.w};
                    for (int i = 0; i < 10; ++i)
                        CHECK(x[i] == y[i]); // bit-exact (up to the sign of zero)
                    ++checked;
                }
            MESSAGE(checked, " trims equal their mirrored twins");
        }
    }

    TEST_CASE("loaded symmetric table reproduces the full table exactly") {
        for (const Model& m : {model2d(17), model3d(5, 3, 3)}) {
            const auto full_bytes = buildTable(m, false), half_bytes = buildTable(m, true);
            TableView full, half;
            REQUIRE(loadBytes(full_bytes, &full) == Status::Ok);
            REQUIRE(loadBytes(half_bytes, &half) == Status::Ok);
            CHECK(half.trim_count == storedTrimCount(m, true));
            CHECK(double(half.trim_count) / full.trim_count < 0.51);
            for (uint32_t a = 0; a < full.control_count; ++a)
                for (uint32_t b = 0; b < full.control_count; ++b) {
                    Trim x, y;
                    REQUIRE(tableTrim(full, a, b, &x) == Status::Ok);
                    REQUIRE(tableTrim(half, a, b, &y) == Status::Ok);
                    CHECK((x.position.x == y.position.x && x.position.y == y.position.y &&
                           x.position.z == y.position.z && x.facing.x == y.facing.x &&
                           x.facing.y == y.facing.y && x.facing.z == y.facing.z &&
                           x.orientation.x == y.orientation.x && x.orientation.y == y.orientation.y &&
                           x.orientation.z == y.orientation.z && x.orientation.w == y.orientation.w));
                }
        }
    }

    TEST_CASE("another speed reuses the table: positions scale, equal to integrating at that speed") {
        const Model m = model3d(5, 5, 3);
        const auto bytes = buildTable(m, true);
        TableView view;
        REQUIRE(loadBytes(bytes, &view) == Status::Ok);
        const uint32_t C = controlCount(m);
        for (float speed : {5.0f, 20.0f, 33.0f}) {
            for (uint32_t a = 0; a < C; a += 7)
                for (uint32_t b = 0; b < C; b += 2) {
                    VehicleState s{{0, 0, 0}, {0, 0, 0, 1}, speed, a}, out;
                    REQUIRE(applyTrim(view, s, b, &out) == Status::Ok);
                    PoseD pose = identityPose();
                    integrateTrim(m, a, b, speed, 0, m.steps, &pose);
                    CHECK(out.position.x == doctest::Approx(pose.position[0]).epsilon(1e-5).scale(speed));
                    CHECK(out.position.y == doctest::Approx(pose.position[1]).epsilon(1e-5).scale(speed));
                    CHECK(out.position.z == doctest::Approx(pose.position[2]).epsilon(1e-5).scale(speed));
                    CHECK(out.orientation.w == doctest::Approx(pose.orientation[3]).epsilon(1e-6));
                }
        }
    }

    TEST_CASE("composing trims by rigid transforms equals integrating the whole flight online") {
        const Model m = model3d(5, 5, 3);
        const auto bytes = buildTable(m, true);
        TableView view;
        REQUIRE(loadBytes(bytes, &view) == Status::Ok);
        // An arbitrary start: far from the origin, pitched and rolled, not on a sample control.
        const double angle = 0.9, axis[3] = {0.3, -0.5, 0.81};
        const double an = len(axis[0], axis[1], axis[2]), sh = std::sin(angle / 2) / an;
        PoseD online = {{1200.0, -350.0, 40.0},
                        {axis[0] * sh, axis[1] * sh, axis[2] * sh, std::cos(angle / 2)}};
        VehicleState state{{1200.0f, -350.0f, 40.0f},
                           {float(online.orientation[0]), float(online.orientation[1]),
                            float(online.orientation[2]), float(online.orientation[3])},
                           13.0f,
                           7};
        std::mt19937 rng(5);
        const uint32_t C = controlCount(m);
        for (int k = 0; k < 12; ++k) {
            const uint32_t next = rng() % C;
            integrateTrim(m, state.control, next, 13.0, 0, m.steps, &online);
            REQUIRE(applyTrim(view, state, next, &state) == Status::Ok);
            CHECK(state.control == next);
            // Float positions near 1200 m resolve ~0.1 mm; allow a millimetre.
            CHECK(std::fabs(state.position.x - online.position[0]) < 1e-3);
            CHECK(std::fabs(state.position.y - online.position[1]) < 1e-3);
            CHECK(std::fabs(state.position.z - online.position[2]) < 1e-3);
            const double dot =
                state.orientation.x * online.orientation[0] + state.orientation.y * online.orientation[1] +
                state.orientation.z * online.orientation[2] + state.orientation.w * online.orientation[3];
            CHECK(std::fabs(dot) == doctest::Approx(1.0).epsilon(1e-5));
        }
        // Twelve intervals at 13 m/s (~150 m): within a millimetre.
        const float d =
            float(len(state.position.x - online.position[0], state.position.y - online.position[1],
                      state.position.z - online.position[2]));
        MESSAGE("composition vs online integration after 12 intervals: ", d, " m");
        CHECK(d < 1e-3f);
    }

    TEST_CASE("integrating in pieces equals integrating at once (games step between decisions)") {
        const Model m = model3d(5, 3, 3);
        PoseD whole = identityPose(), pieces = identityPose();
        integrateTrim(m, 3, 40, 20.0, 0, m.steps, &whole);
        for (uint32_t i = 0; i < m.steps; ++i)
            integrateTrim(m, 3, 40, 20.0, i, 1, &pieces);
        for (int a = 0; a < 3; ++a)
            CHECK(whole.position[a] == pieces.position[a]);
        for (int a = 0; a < 4; ++a)
            CHECK(whole.orientation[a] == pieces.orientation[a]);
    }

    TEST_CASE("loader accepts a valid table and reports its model and strings") {
        const auto bytes = buildTable(model3d(5, 3, 3), true);
        TableView view;
        REQUIRE(loadBytes(bytes, &view) == Status::Ok);
        CHECK(view.control_count == 45);
        CHECK(view.symmetric);
        CHECK(view.model.dimension == 3);
        CHECK(view.model.samples[kRoll] == 3);
        CHECK(view.model.max_rate[kPitch] == 0.7);
        CHECK(view.max_chord_deviation == 0.5f);
        CHECK(reinterpret_cast<const uint8_t*>(view.trims) > bytes.data()); // zero-copy
        CHECK(reinterpret_cast<const uint8_t*>(view.trims) < bytes.data() + bytes.size());
        TableInfo info;
        REQUIRE(tableInfo(view, &info) == Status::Ok);
        CHECK(info.format_version == kFormatVersion);
        CHECK(std::string(info.baker_version) == "0.1.0");
        CHECK(std::string(info.name) == "test-vehicle");
        CHECK(std::string(info.source_name) == "");
        CHECK(info.input_hash == 0x1234);
        CHECK(walkTable(view));
    }

    TEST_CASE("loader rejects every truncated prefix") {
        const auto bytes = buildTable(model2d(5), true);
        REQUIRE(loadBytes(bytes) == Status::Ok);
        const size_t accepted = test::acceptedPrefixes(bytes, [](const uint8_t* data, size_t size) {
            TableView view;
            const bool ok = loadTable(data, size, &view) == Status::Ok;
            CHECK((ok || view.data == nullptr));
            return ok;
        });
        CHECK(accepted == 0);
        MESSAGE("checked ", bytes.size(), " prefixes");
    }

    TEST_CASE("loader survives random byte corruption") {
        const auto valid = buildTable(model2d(5), true);
        constexpr int kIterations = 20000;
        const test::CorruptionCounts counts =
            test::corruptRandomly(valid, 20240611u, kIterations, [](const uint8_t* data, size_t size) {
                TableView view;
                if (loadTable(data, size, &view) != Status::Ok) return -1;
                return walkTable(view) ? 1 : 0;
            });
        const int ok = counts.loaded, rejected = counts.rejected, walk_failures = counts.walk_failures;
        MESSAGE(kIterations, " corruptions: ", ok, " still valid, ", rejected, " rejected");
        CHECK(walk_failures == 0);
        CHECK(ok > 0);
        CHECK(rejected > 0);
    }

    TEST_CASE("loader status codes: identifier, versions, model, counts, numbers, arguments") {
        TableSpec spec;
        spec.model = model2d(5);
        auto expect = [](const TableSpec& s, Status want, const std::vector<Trim>* trims = nullptr) {
            CHECK(loadBytes(buildTable(s, trims)) == want);
        };
        expect(spec, Status::Ok);
        {
            TableSpec s = spec;
            s.identifier = "CWFP";
            expect(s, Status::WrongAssetKind);
        }
        {
            TableSpec s = spec;
            s.format_version = kFormatVersion + 1;
            expect(s, Status::UnsupportedVersion);
        }
        {
            TableSpec s = spec;
            s.format_version = 0;
            expect(s, Status::CorruptAsset);
        }
        {
            TableSpec s = spec;
            s.baker = false;
            expect(s, Status::CorruptAsset);
        }
        {
            TableSpec s = spec;
            s.with_model = false;
            expect(s, Status::CorruptAsset);
        }
        {
            TableSpec s = spec;
            s.dimension_raw = 4;
            expect(s, Status::CorruptAsset);
        }
        {
            TableSpec s = spec;
            s.trim_count_delta = -1;
            expect(s, Status::CorruptAsset);
        }
        {
            TableSpec s = spec;
            s.trim_count_delta = 1;
            expect(s, Status::CorruptAsset);
        }
        {
            TableSpec s = spec;
            s.max_chord_deviation = -1;
            expect(s, Status::CorruptAsset);
        }
        {
            TableSpec s = spec;
            s.max_chord_deviation = std::numeric_limits<double>::quiet_NaN();
            expect(s, Status::CorruptAsset);
        }
        // Model numbers out of range (the trims are still integrated with the good model).
        auto withModel = [&](auto edit) {
            TableSpec s = spec;
            const auto trims_bytes = buildTable(spec);
            TableView v;
            REQUIRE(loadBytes(trims_bytes, &v) == Status::Ok);
            std::vector<Trim> trims(v.trims, v.trims + v.trim_count);
            edit(s.model);
            return loadBytes(buildTable(s, &trims));
        };
        CHECK(withModel([](Model& m) { m.samples[kYaw] = 4; }) == Status::CorruptAsset);
        CHECK(withModel([](Model& m) { m.samples[kYaw] = 0; }) == Status::CorruptAsset);
        CHECK(withModel([](Model& m) { m.samples[kPitch] = 3; }) == Status::CorruptAsset); // 2D with pitch
        CHECK(withModel([](Model& m) { m.steps = 0; }) == Status::CorruptAsset);
        CHECK(withModel([](Model& m) { m.interval = 0; }) == Status::CorruptAsset);
        CHECK(withModel([](Model& m) { m.speed = -8; }) == Status::CorruptAsset);
        CHECK(withModel([](Model& m) { m.speed = 1.0; }) ==
              Status::CorruptAsset); // trims longer than speed*T
        CHECK(withModel([](Model& m) { m.max_rate[kYaw] = -0.8; }) == Status::CorruptAsset);
        CHECK(withModel([](Model& m) { m.max_rate[kYaw] = std::numeric_limits<double>::infinity(); }) ==
              Status::CorruptAsset);
        // Trims: NaN, non-unit quaternion, facing that disagrees with the orientation.
        const auto good = buildTable(spec);
        TableView v;
        REQUIRE(loadBytes(good, &v) == Status::Ok);
        const std::vector<Trim> base(v.trims, v.trims + v.trim_count);
        {
            auto t = base;
            t[3].position.y = std::numeric_limits<float>::quiet_NaN();
            expect(spec, Status::CorruptAsset, &t);
        }
        {
            auto t = base;
            t[3].orientation.w *= 1.1f;
            expect(spec, Status::CorruptAsset, &t);
        }
        {
            auto t = base;
            t[3].facing = {0, 1, 0};
            expect(spec, Status::CorruptAsset, &t);
        }
        // Arguments.
        TableView out;
        CHECK(loadTable(nullptr, 10, &out) == Status::InvalidArgument);
        CHECK(loadTable(good.data(), good.size(), nullptr) == Status::InvalidArgument);
        std::vector<uint8_t> shifted(good.size() + 1);
        std::memcpy(shifted.data() + 1, good.data(), good.size());
        CHECK(loadTable(shifted.data() + 1, good.size(), &out) == Status::InvalidArgument);
        Trim t;
        CHECK(tableTrim(v, 5, 0, &t) == Status::InvalidArgument);
        CHECK(tableTrim(TableView{}, 0, 0, &t) == Status::InvalidArgument);
        VehicleState s{{0, 0, 0}, {0, 0, 0, 1}, 1.0f, 9}, next;
        CHECK(applyTrim(v, s, 0, &next) == Status::InvalidArgument);
        s.control = 0;
        s.speed = std::numeric_limits<float>::quiet_NaN();
        CHECK(applyTrim(v, s, 0, &next) == Status::InvalidArgument);
    }
}
