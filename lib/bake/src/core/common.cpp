// Errors, options, frames and hashing shared by every bake stage.
#include <clearway/bake.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

namespace clearway::bake {

#ifndef CLEARWAY_BAKER_VERSION
#define CLEARWAY_BAKER_VERSION "0.0.0"
#endif

const char* bakerVersion() {
    return CLEARWAY_BAKER_VERSION;
}

int exitCodeFor(const Error& error) {
    switch (error.code) {
    case ErrorCode::None:
        return 0;
    case ErrorCode::InvalidOption:
    case ErrorCode::FileNotFound:
    case ErrorCode::ReadFailed:
    case ErrorCode::EmptyMesh:
    case ErrorCode::NonFiniteVertex:
    case ErrorCode::NoWalkableSurface:
        return 2;
    case ErrorCode::Internal:
    case ErrorCode::OutOfMemory:
        return 3;
    case ErrorCode::WriteFailed:
        return 4;
    }
    return 3;
}

namespace {
class SilentLog final : public LogContext {
  public:
    void log(LogLevel, const std::string&) override {}
};
} // namespace

LogContext& silentLog() {
    static SilentLog log;
    return log;
}

ImportOptions defaultImportOptions() {
    return ImportOptions{};
}

Error validate(const ImportOptions& o) {
    auto bad = [](const std::string& what) { return Error{ErrorCode::InvalidOption, what}; };
    auto finite = [](double v) { return std::isfinite(v); };
    if (!finite(o.scale) || o.scale <= 0) return bad("--scale must be a positive number");
    if (!finite(o.agent_height) || o.agent_height <= 0) return bad("--agent-height must be > 0 metres");
    if (!finite(o.max_slope_deg) || o.max_slope_deg < 0 || o.max_slope_deg >= 90)
        return bad("--max-slope must be in [0, 90) degrees");
    if (!finite(o.max_step) || o.max_step < 0 || o.max_step >= o.agent_height)
        return bad("--max-step must be in [0, agent height) metres");
    if (!finite(o.epsilon) || o.epsilon <= 0 || o.epsilon > 1)
        return bad("--epsilon must be in (0, 1] metres");
    return {};
}

std::string canonicalString(const ImportOptions& o) {
    // %.17g round-trips doubles, so equal strings mean equal options.
    char text[256];
    std::snprintf(text, sizeof text, "up=%s;scale=%.17g;height=%.17g;slope=%.17g;step=%.17g;epsilon=%.17g",
                  o.up == UpAxis::Y ? "y" : "z", o.scale, o.agent_height, o.max_slope_deg, o.max_step,
                  o.epsilon);
    return text;
}

Vec3 worldToInternal(const Vec3& w, const ImportOptions& o) {
    // Y-up -> Z-up is a rotation about +X by 90 degrees: (x, y, z) -> (x, -z, y). A mirror
    // (x, z, y) would flip the winding of every triangle and the sense of headings.
    if (o.up == UpAxis::Y) return {w.x * o.scale, -w.z * o.scale, w.y * o.scale};
    return {w.x * o.scale, w.y * o.scale, w.z * o.scale};
}

Vec3 internalToWorld(const Vec3& i, const ImportOptions& o) {
    if (o.up == UpAxis::Y) return {i.x / o.scale, i.z / o.scale, -i.y / o.scale};
    return {i.x / o.scale, i.y / o.scale, i.z / o.scale};
}

uint64_t fnv1a64(const void* data, size_t size, uint64_t seed) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    uint64_t hash = seed;
    for (size_t i = 0; i < size; ++i) {
        hash ^= bytes[i];
        hash *= 1099511628211ull;
    }
    return hash;
}

} // namespace clearway::bake
