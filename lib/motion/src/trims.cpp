// Trim tables: the control model, the one Euler integrator (bake and games share it), symmetric
// storage, the verified zero-copy loader and the rigid-transform step.
#include <clearway/motion.h>

#include "quat_math.h"

#include <clearway/schema/trims_generated.h>

#include <cmath>

namespace clearway {
namespace trims {
namespace {

namespace fb = ::clearway::schema::trims;

static_assert(sizeof(Trim) == 40, "a trim is 40 bytes (Go et al. 2004)");
static_assert(sizeof(Trim) == sizeof(fb::Trim) && alignof(Trim) == alignof(fb::Trim),
              "Trim must match the schema struct for zero-copy tables");
static_assert(FLATBUFFERS_LITTLEENDIAN, "zero-copy tables assume a little-endian host");

// Stored quaternions and facings are doubles rounded to float: far inside these.
constexpr double kUnitTolerance = 1e-4;
constexpr double kFacingTolerance = 1e-3;
constexpr double kMaxRate = 1000.0;     // rad/s; beyond any vehicle, keeps products finite
constexpr double kMaxInterval = 3600.0; // s
constexpr double kMaxSpeed = 1e5;       // m/s

bool finite(double v) {
    return std::isfinite(v);
}

uint32_t yawRollCount(const Model& m) {
    return m.samples[kYaw] * m.samples[kRoll];
}

double sampleRate(double max_rate, uint32_t samples, uint32_t index) {
    if (samples <= 1) return 0.0;
    // Integer numerator: index and its mirror (samples-1-index) give exactly opposite rates.
    const double k = double(int64_t(2) * index - int64_t(samples - 1));
    return max_rate * k / double(samples - 1);
}

// Quaternion helpers, double (integrator) and float (online composition).
void mulD(const double a[4], const double b[4], double out[4]) {
    const double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    const double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    const double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    const double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

using detail::quatMul;
using detail::quatRotate;

Quatf normalizedF(const Quatf& q) {
    const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 0.0f)) return {0, 0, 0, 1};
    const float inv = 1.0f / n;
    return {q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

bool checkAxis(const fb::Axis* axis, bool required, uint32_t* samples, double* max_rate) {
    if (!axis) {
        if (required) return false;
        *samples = 1;
        *max_rate = 0.0;
        return true;
    }
    const uint32_t n = axis->samples();
    const double r = axis->max_rate();
    if (n == 0 || n % 2 == 0 || n > kMaxControls) return false;
    if (!finite(r) || r < 0.0 || r > kMaxRate) return false;
    *samples = n;
    *max_rate = r;
    return true;
}

Status checkModel(const fb::TrimTable& table, Model* out) {
    const fb::Model* m = table.model();
    if (!m) return Status::CorruptAsset;
    Model model{};
    switch (m->dimension()) {
    case fb::Dimension::Planar:
        model.dimension = 2;
        break;
    case fb::Dimension::Spatial:
        model.dimension = 3;
        break;
    default:
        return Status::CorruptAsset;
    }
    if (!checkAxis(m->yaw(), true, &model.samples[kYaw], &model.max_rate[kYaw])) return Status::CorruptAsset;
    if (!checkAxis(m->pitch(), false, &model.samples[kPitch], &model.max_rate[kPitch]))
        return Status::CorruptAsset;
    if (!checkAxis(m->roll(), false, &model.samples[kRoll], &model.max_rate[kRoll]))
        return Status::CorruptAsset;
    if (model.dimension == 2 && (model.samples[kPitch] != 1 || model.samples[kRoll] != 1))
        return Status::CorruptAsset;
    // 64-bit: three axes of up to kMaxControls samples each cannot overflow.
    const uint64_t controls =
        uint64_t(model.samples[kYaw]) * uint64_t(model.samples[kPitch]) * uint64_t(model.samples[kRoll]);
    if (controls > kMaxControls) return Status::CorruptAsset;
    model.interval = m->interval();
    model.steps = m->steps();
    model.speed = m->speed();
    if (!finite(model.interval) || !(model.interval > 0.0) || model.interval > kMaxInterval)
        return Status::CorruptAsset;
    if (model.steps == 0 || model.steps > kMaxSteps) return Status::CorruptAsset;
    if (!finite(model.speed) || !(model.speed > 0.0) || model.speed > kMaxSpeed) return Status::CorruptAsset;
    *out = model;
    return Status::Ok;
}

bool checkTrim(const fb::Trim& t, double max_length) {
    const fb::Vec3& p = t.position();
    const fb::Vec3& f = t.facing();
    const fb::Quat& q = t.orientation();
    const float values[10] = {p.x(), p.y(), p.z(), f.x(), f.y(), f.z(), q.x(), q.y(), q.z(), q.w()};
    for (float v : values)
        if (!std::isfinite(v)) return false;
    const double qn =
        double(q.x()) * q.x() + double(q.y()) * q.y() + double(q.z()) * q.z() + double(q.w()) * q.w();
    if (std::fabs(qn - 1.0) > kUnitTolerance) return false;
    // The vehicle moves at most speed * interval in one interval (Euler sums unit steps).
    const double length = std::sqrt(double(p.x()) * p.x() + double(p.y()) * p.y() + double(p.z()) * p.z());
    if (length > max_length) return false;
    const Quatf qq{q.x(), q.y(), q.z(), q.w()};
    const Vec3f expected = quatRotate(qq, Vec3f{1, 0, 0});
    const double dx = f.x() - expected.x, dy = f.y() - expected.y, dz = f.z() - expected.z;
    return dx * dx + dy * dy + dz * dz <= kFacingTolerance * kFacingTolerance;
}

} // namespace

// ---- control model ----

uint32_t controlCount(const Model& m) {
    return m.samples[kYaw] * m.samples[kPitch] * m.samples[kRoll];
}

void controlRates(const Model& m, uint32_t control, double rates[3]) {
    const uint32_t U = yawRollCount(m);
    const uint32_t u = control % U;
    rates[kPitch] = sampleRate(m.max_rate[kPitch], m.samples[kPitch], control / U);
    rates[kYaw] = sampleRate(m.max_rate[kYaw], m.samples[kYaw], u % m.samples[kYaw]);
    rates[kRoll] = sampleRate(m.max_rate[kRoll], m.samples[kRoll], u / m.samples[kYaw]);
}

uint32_t straightControl(const Model& m) {
    const uint32_t U = yawRollCount(m);
    return (U - 1) / 2 + U * ((m.samples[kPitch] - 1) / 2);
}

uint32_t mirrorControl(const Model& m, uint32_t control) {
    // Yaw and roll indices both reflect, and u = yaw_i + yaw_samples * roll_i reflects to U-1-u.
    const uint32_t U = yawRollCount(m);
    const uint32_t u = control % U;
    return (U - 1 - u) + U * (control / U);
}

uint64_t storedTrimCount(const Model& m, bool symmetric) {
    const uint64_t C = controlCount(m);
    if (!symmetric) return C * C;
    const uint64_t P = m.samples[kPitch];
    return (C * C + P * P) / 2; // pairs plus the P^2 self-mirrored ones, halved
}

uint64_t trimSlot(const Model& m, bool symmetric, uint32_t from, uint32_t to, bool* mirrored) {
    const uint64_t C = controlCount(m);
    if (mirrored) *mirrored = false;
    if (!symmetric) return uint64_t(from) * C + to;
    // Canonical half: initial yaw/roll index u0 above the middle h (whole rows), or u0 == h with
    // u1 >= h (half rows). Everything else is the mirror of a canonical pair.
    const uint32_t U = yawRollCount(m);
    const uint64_t P = m.samples[kPitch];
    const uint32_t h = (U - 1) / 2;
    uint32_t u0 = from % U, u1 = to % U;
    const uint32_t p0 = from / U, p1 = to / U;
    if (u0 < h || (u0 == h && u1 < h)) {
        if (mirrored) *mirrored = true;
        u0 = U - 1 - u0;
        u1 = U - 1 - u1;
    }
    if (u0 > h) return (uint64_t(u0 - h - 1) * P + p0) * C + (u1 + uint64_t(U) * p1);
    const uint64_t full_rows = uint64_t(h) * P * C;
    return full_rows + uint64_t(p0) * (h + 1) * P + uint64_t(p1) * (h + 1) + (u1 - h);
}

Trim mirrorTrim(const Trim& t) {
    Trim out = t;
    out.position.y = -t.position.y;
    out.facing.y = -t.facing.y;
    // Mirroring through the XZ plane keeps the angle and reflects the axis as a pseudo-vector.
    out.orientation.x = -t.orientation.x;
    out.orientation.z = -t.orientation.z;
    return out;
}

// ---- integrator ----

PoseD identityPose() {
    return PoseD{{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 1.0}};
}

void integrateStep(const double rates[3], double speed, double dt, PoseD* pose) {
    const double* q = pose->orientation;
    // Forward Euler: move along the facing at the start of the step.
    const double fx = 1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2]);
    const double fy = 2.0 * (q[0] * q[1] + q[3] * q[2]);
    const double fz = 2.0 * (q[0] * q[2] - q[3] * q[1]);
    const double step = speed * dt;
    pose->position[0] += step * fx;
    pose->position[1] += step * fy;
    pose->position[2] += step * fz;
    // Body angular velocity (roll about +X, pitch about -Y, yaw about +Z), held over the step: the
    // rotation is its exact exponential, so the quaternion stays unit length.
    const double wx = rates[kRoll], wy = -rates[kPitch], wz = rates[kYaw];
    const double norm = std::sqrt(wx * wx + wy * wy + wz * wz);
    if (norm > 0.0) {
        const double half = 0.5 * norm * dt;
        const double s = std::sin(half) / norm;
        const double dq[4] = {wx * s, wy * s, wz * s, std::cos(half)};
        double r[4];
        mulD(pose->orientation, dq, r);
        const double n = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
        for (int i = 0; i < 4; ++i)
            pose->orientation[i] = r[i] / n;
    }
}

void integrateTrim(const Model& m, uint32_t from, uint32_t to, double speed, uint32_t first, uint32_t count,
                   PoseD* pose) {
    double r0[3], r1[3];
    controlRates(m, from, r0);
    controlRates(m, to, r1);
    const double dt = m.interval / double(m.steps);
    for (uint32_t i = first; i < first + count; ++i) {
        // The rate at the start of step i, linearly interpolated over the interval.
        const double a = double(i) / double(m.steps);
        const double rates[3] = {r0[0] + (r1[0] - r0[0]) * a, r0[1] + (r1[1] - r0[1]) * a,
                                 r0[2] + (r1[2] - r0[2]) * a};
        integrateStep(rates, speed, dt, pose);
    }
}

// ---- loader ----

Status loadTable(const void* data, size_t size, TableView* out) {
    if (!out) return Status::InvalidArgument;
    *out = TableView{};
    if (const Status s = checkAssetBuffer(data, size, fb::TrimTableIdentifier()); s != Status::Ok) return s;
    const auto* bytes = static_cast<const uint8_t*>(data);
    flatbuffers::Verifier verifier(bytes, size);
    if (!fb::VerifyTrimTableBuffer(verifier)) return Status::CorruptAsset;

    const fb::TrimTable& table = *fb::GetTrimTable(bytes);
    // Version first: a newer asset may mean something the checks below do not know.
    if (table.format_version() == 0) return Status::CorruptAsset;
    if (table.format_version() > kFormatVersion) return Status::UnsupportedVersion;
    if (!table.baker_version()) return Status::CorruptAsset;

    Model model{};
    const Status status = checkModel(table, &model);
    if (status != Status::Ok) return status;
    const bool symmetric = table.symmetric();
    const auto* trims = table.trims();
    if (!trims || uint64_t(trims->size()) != storedTrimCount(model, symmetric)) return Status::CorruptAsset;
    const double deviation = table.max_chord_deviation();
    if (!finite(deviation) || deviation < 0.0 || deviation > model.speed * model.interval)
        return Status::CorruptAsset;
    const double max_length = model.speed * model.interval * (1.0 + 1e-5) + 1e-6;
    for (uint32_t i = 0; i < trims->size(); ++i)
        if (!checkTrim(*trims->Get(i), max_length)) return Status::CorruptAsset;

    out->data = bytes;
    out->size = size;
    out->trims = reinterpret_cast<const Trim*>(trims->Data());
    out->trim_count = trims->size();
    out->control_count = controlCount(model);
    out->symmetric = symmetric;
    out->model = model;
    out->max_chord_deviation = float(deviation);
    return Status::Ok;
}

Status tableInfo(const TableView& view, TableInfo* out) {
    if (!view.data || !out) return Status::InvalidArgument;
    const fb::TrimTable& table = *fb::GetTrimTable(view.data);
    TableInfo info{};
    info.format_version = table.format_version();
    info.input_hash = table.input_hash();
    info.options_hash = table.options_hash();
    info.baker_version = table.baker_version()->c_str();
    info.name = table.name() ? table.name()->c_str() : "";
    info.source_name = table.source_name() ? table.source_name()->c_str() : "";
    *out = info;
    return Status::Ok;
}

Status tableTrim(const TableView& view, uint32_t from, uint32_t to, Trim* out) {
    if (!view.trims || !out || from >= view.control_count || to >= view.control_count)
        return Status::InvalidArgument;
    bool mirrored = false;
    const uint64_t slot = trimSlot(view.model, view.symmetric, from, to, &mirrored);
    *out = mirrored ? mirrorTrim(view.trims[slot]) : view.trims[slot];
    return Status::Ok;
}

// ---- state ----

Vec3f facingOf(const Quatf& q) {
    return quatRotate(q, Vec3f{1, 0, 0});
}

Status applyTrim(const TableView& view, const VehicleState& from, uint32_t control, VehicleState* out) {
    if (!out) return Status::InvalidArgument;
    Trim trim;
    const Status status = tableTrim(view, from.control, control, &trim);
    if (status != Status::Ok) return status;
    if (!std::isfinite(from.speed) || from.speed < 0.0f) return Status::InvalidArgument;
    const float scale = float(double(from.speed) / view.model.speed);
    const Vec3f d = quatRotate(from.orientation, trim.position);
    VehicleState next = from;
    next.position = {from.position.x + scale * d.x, from.position.y + scale * d.y,
                     from.position.z + scale * d.z};
    next.orientation = normalizedF(quatMul(from.orientation, trim.orientation));
    next.control = control;
    *out = next;
    return Status::Ok;
}

} // namespace trims
} // namespace clearway
