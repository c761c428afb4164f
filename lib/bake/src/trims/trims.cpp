// Vehicle model specs (JSON) -> trim-trajectory tables (.cwtt). The integration is
// clearway::trims::integrateTrim from lib/motion, the same code games run online.
#include <clearway/bake.h>
#include <clearway/motion.h>
#include <clearway/schema/trims_generated.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/stat.h>

namespace clearway::bake {

namespace fb = clearway::schema::trims;
using nlohmann::json;

namespace {

// Integration work cap (trims x steps): keeps a typo from baking for an hour.
constexpr double kMaxStepEvaluations = 2e8;
constexpr double kMaxRate = 1000.0; // rad/s, as the runtime loader accepts
constexpr double kMaxInterval = 3600.0;
constexpr double kMaxSpeed = 1e5;

Error bad(const std::string& source, const std::string& what) {
    return Error{ErrorCode::InvalidOption, source + ": " + what};
}

std::string number(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

// Reads a JSON number field; `found` says whether it was present.
Error readNumber(const json& object, const char* key, const std::string& path, const std::string& source,
                 double* out) {
    const auto it = object.find(key);
    if (it == object.end()) return {};
    if (!it->is_number())
        return bad(source, path + " must be a number (got " + std::string(it->type_name()) + ")");
    *out = it->get<double>();
    return {};
}

Error readCount(const json& object, const char* key, const std::string& path, const std::string& source,
                uint32_t* out) {
    const auto it = object.find(key);
    if (it == object.end()) return {};
    if (!it->is_number_integer())
        return bad(source, path + " must be a whole number (got " + std::string(it->type_name()) + " " +
                               it->dump() + ")");
    if (!it->is_number_unsigned() || it->get<uint64_t>() > 0xffffffffull)
        return bad(source, path + " must be a whole number >= 0 (got " + it->dump() + ")");
    *out = uint32_t(it->get<uint64_t>());
    return {};
}

Error rejectUnknown(const json& object, std::initializer_list<const char*> known, const std::string& where,
                    const std::string& source) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool ok = false;
        for (const char* k : known)
            ok = ok || it.key() == k;
        if (!ok) {
            std::string list;
            for (const char* k : known)
                list += std::string(list.empty() ? "" : ", ") + k;
            return bad(source, "unknown field \"" + where + it.key() + "\" (known: " + list + ")");
        }
    }
    return {};
}

Error readAxis(const json& root, const char* key, const std::string& source, VehicleAxis* out,
               bool* present) {
    const auto it = root.find(key);
    *present = it != root.end();
    if (!*present) return {};
    const std::string path = key;
    if (!it->is_object())
        return bad(source, path + " must be an object like {\"max_rate\": 1.0, \"samples\": 9}");
    if (Error e = rejectUnknown(*it, {"max_rate", "samples"}, path + ".", source)) return e;
    if (!it->contains("max_rate")) return bad(source, path + ".max_rate is missing (rad/s)");
    if (!it->contains("samples")) return bad(source, path + ".samples is missing (odd count of rates)");
    if (Error e = readNumber(*it, "max_rate", path + ".max_rate", source, &out->max_rate)) return e;
    if (Error e = readCount(*it, "samples", path + ".samples", source, &out->samples)) return e;
    return {};
}

Error validateAxis(const VehicleAxis& a, const std::string& path, bool turning, const std::string& source) {
    if (!std::isfinite(a.max_rate)) return bad(source, path + ".max_rate must be a finite number");
    if (a.max_rate < 0)
        return bad(source, path + ".max_rate must be >= 0 rad/s (got " + number(a.max_rate) + ")");
    if (a.max_rate > kMaxRate)
        return bad(source, path + ".max_rate must be <= " + number(kMaxRate) + " rad/s (got " +
                               number(a.max_rate) + ")");
    if (a.samples == 0) return bad(source, path + ".samples must be >= 1 (got 0)");
    if (a.samples % 2 == 0)
        return bad(source, path + ".samples must be odd so that 0 rad/s (straight) is a sample (got " +
                               std::to_string(a.samples) + ")");
    if (turning && a.samples < 3)
        return bad(source, path + ".samples must be >= 3 for a vehicle that turns (got " +
                               std::to_string(a.samples) + ")");
    if (a.samples > 1 && a.max_rate == 0)
        return bad(source, path + ".max_rate must be > 0 when " + path + ".samples > 1");
    return {};
}

trims::Model toModel(const VehicleModel& m) {
    trims::Model out{};
    out.dimension = uint32_t(m.dimension);
    out.samples[trims::kYaw] = m.yaw.samples;
    out.samples[trims::kPitch] = m.dimension == 3 ? m.pitch.samples : 1;
    out.samples[trims::kRoll] = m.dimension == 3 ? m.roll.samples : 1;
    out.max_rate[trims::kYaw] = m.yaw.max_rate;
    out.max_rate[trims::kPitch] = m.dimension == 3 ? m.pitch.max_rate : 0.0;
    out.max_rate[trims::kRoll] = m.dimension == 3 ? m.roll.max_rate : 0.0;
    out.interval = m.interval;
    out.steps = m.steps;
    out.speed = m.speed;
    return out;
}

// Largest distance of the points to the segment a -> b.
double chordDeviation(const std::vector<trims::PoseD>& poses) {
    const double* a = poses.front().position;
    const double* b = poses.back().position;
    const double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double len2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
    double worst = 0;
    for (const trims::PoseD& pose : poses) {
        const double* p = pose.position;
        const double ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
        double t = len2 > 0 ? (ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / len2 : 0.0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        const double d[3] = {ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]};
        worst = std::max(worst, std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
    }
    return worst;
}

} // namespace

Error parseVehicleModel(const std::string& text, const std::string& source, VehicleModel* out) {
    json root;
    try {
        root = json::parse(text, nullptr, true, /*ignore_comments=*/true);
    } catch (const json::exception& e) {
        // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 5: ...", or for
        // a number beyond double "[json.exception.out_of_range.406] number overflow parsing '1e400'".
        std::string what = e.what();
        const size_t at = what.find("] ");
        return Error{ErrorCode::ReadFailed,
                     source + ": not valid JSON: " + (at == std::string::npos ? what : what.substr(at + 2))};
    }
    if (!root.is_object()) return bad(source, "the model must be a JSON object");
    if (Error e = rejectUnknown(root,
                                {"name", "description", "dimension", "interval", "steps", "speed", "yaw",
                                 "pitch", "roll", "symmetric"},
                                "", source))
        return e;

    VehicleModel m;
    if (auto it = root.find("name"); it != root.end()) {
        if (!it->is_string()) return bad(source, "name must be a string");
        m.name = it->get<std::string>();
    }
    if (auto it = root.find("description"); it != root.end() && !it->is_string())
        return bad(source, "description must be a string");
    const auto dim = root.find("dimension");
    if (dim == root.end())
        return bad(source, "dimension is missing (2: yaw only; 3: yaw and pitch, optional roll)");
    if (!dim->is_number_integer() || (dim->get<int64_t>() != 2 && dim->get<int64_t>() != 3))
        return bad(source,
                   "unknown dimension " + dim->dump() + " (2: yaw only; 3: yaw and pitch, optional roll)");
    m.dimension = int(dim->get<int64_t>());
    if (Error e = readNumber(root, "interval", "interval", source, &m.interval)) return e;
    if (Error e = readCount(root, "steps", "steps", source, &m.steps)) return e;
    if (Error e = readNumber(root, "speed", "speed", source, &m.speed)) return e;
    if (auto it = root.find("symmetric"); it != root.end()) {
        if (!it->is_boolean()) return bad(source, "symmetric must be true or false");
        m.symmetric = it->get<bool>();
    }
    bool has_yaw = false, has_pitch = false, has_roll = false;
    if (Error e = readAxis(root, "yaw", source, &m.yaw, &has_yaw)) return e;
    if (Error e = readAxis(root, "pitch", source, &m.pitch, &has_pitch)) return e;
    if (Error e = readAxis(root, "roll", source, &m.roll, &has_roll)) return e;
    if (!has_yaw) return bad(source, "yaw is missing: {\"max_rate\": rad/s, \"samples\": odd count}");
    if (m.dimension == 2 && (has_pitch || has_roll))
        return bad(source,
                   std::string(has_pitch ? "pitch" : "roll") + " is given but dimension is 2 (yaw only)");
    if (m.dimension == 3 && !has_pitch)
        return bad(source, "pitch is missing (dimension 3 needs yaw and pitch)");
    if (Error e = validate(m, source)) return e;
    *out = m;
    return {};
}

Error validate(const VehicleModel& m, const std::string& source) {
    if (m.dimension != 2 && m.dimension != 3)
        return bad(source, "unknown dimension " + std::to_string(m.dimension) + " (2 or 3)");
    if (Error e = validateAxis(m.yaw, "yaw", true, source)) return e;
    if (m.dimension == 3) {
        if (Error e = validateAxis(m.pitch, "pitch", true, source)) return e;
        if (Error e = validateAxis(m.roll, "roll", false, source)) return e;
    }
    if (!std::isfinite(m.interval) || m.interval <= 0 || m.interval > kMaxInterval)
        return bad(source, "interval must be in (0, " + number(kMaxInterval) + "] seconds (got " +
                               number(m.interval) + ")");
    if (m.steps < 1 || m.steps > trims::kMaxSteps)
        return bad(source, "steps must be in [1, " + std::to_string(trims::kMaxSteps) + "] (got " +
                               std::to_string(m.steps) + ")");
    if (!std::isfinite(m.speed) || m.speed <= 0 || m.speed > kMaxSpeed)
        return bad(source,
                   "speed must be in (0, " + number(kMaxSpeed) + "] m/s (got " + number(m.speed) + ")");
    const trims::Model model = toModel(m);
    const uint64_t controls = uint64_t(model.samples[0]) * model.samples[1] * model.samples[2];
    if (controls > trims::kMaxControls)
        return bad(source, "yaw.samples x pitch.samples x roll.samples = " + std::to_string(controls) +
                               " controls; at most " + std::to_string(trims::kMaxControls) +
                               " (the table stores controls^2 trims)");
    const double work = double(trims::storedTrimCount(model, m.symmetric)) * double(m.steps);
    if (work > kMaxStepEvaluations)
        return bad(source, "trims x steps = " + number(work) + " integration steps; at most " +
                               number(kMaxStepEvaluations) + " (lower steps or samples)");
    return {};
}

std::string canonicalString(const VehicleModel& m) {
    std::ostringstream s;
    s << "dimension=" << m.dimension << ";yaw=" << number(m.yaw.max_rate) << "/" << m.yaw.samples;
    if (m.dimension == 3)
        s << ";pitch=" << number(m.pitch.max_rate) << "/" << m.pitch.samples
          << ";roll=" << number(m.roll.max_rate) << "/" << m.roll.samples;
    s << ";interval=" << number(m.interval) << ";steps=" << m.steps << ";speed=" << number(m.speed)
      << ";symmetric=" << (m.symmetric ? 1 : 0);
    return s.str();
}

Error loadVehicleModel(const std::string& path, VehicleModel* out, uint64_t* input_hash) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return {ErrorCode::FileNotFound, path + ": no such file"};
    if (S_ISDIR(info.st_mode)) return {ErrorCode::ReadFailed, path + ": is a directory, not a model file"};
    std::ifstream stream(path, std::ios::binary);
    if (!stream) return {ErrorCode::ReadFailed, path + ": cannot open file for reading"};
    const std::string text((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    if (stream.bad()) return {ErrorCode::ReadFailed, path + ": read failed"};
    if (input_hash) *input_hash = fnv1a64(text.data(), text.size());
    return parseVehicleModel(text, path, out);
}

Error bakeTrims(const VehicleModel& vehicle, TrimTable* out, LogContext& log) {
    if (Error e = validate(vehicle, vehicle.name.empty() ? "model" : vehicle.name)) return e;
    const trims::Model model = toModel(vehicle);
    const uint32_t C = trims::controlCount(model);
    TrimTable table;
    table.model = vehicle;
    table.controls = C;
    table.options_hash = fnv1a64(canonicalString(vehicle).data(), canonicalString(vehicle).size());
    table.trims.resize(size_t(trims::storedTrimCount(model, vehicle.symmetric)));
    std::vector<bool> written(table.trims.size(), false);
    std::vector<trims::PoseD> poses(model.steps + 1);
    for (uint32_t from = 0; from < C; ++from) {
        for (uint32_t to = 0; to < C; ++to) {
            bool mirrored = false;
            const uint64_t slot = trims::trimSlot(model, vehicle.symmetric, from, to, &mirrored);
            if (mirrored) continue;
            if (slot >= table.trims.size() || written[slot])
                return {ErrorCode::Internal, "trim table layout: slot " + std::to_string(slot) + " of (" +
                                                 std::to_string(from) + ", " + std::to_string(to) +
                                                 ") is taken or out of range"};
            written[slot] = true;
            // Step by step through the shared integrator, keeping every point for the chord bound.
            poses[0] = trims::identityPose();
            for (uint32_t i = 0; i < model.steps; ++i) {
                poses[i + 1] = poses[i];
                trims::integrateTrim(model, from, to, model.speed, i, 1, &poses[i + 1]);
            }
            table.max_chord_deviation = std::max(table.max_chord_deviation, chordDeviation(poses));
            const trims::PoseD& end = poses.back();
            const double* q = end.orientation;
            const double facing[3] = {1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2]),
                                      2.0 * (q[0] * q[1] + q[3] * q[2]), 2.0 * (q[0] * q[2] - q[3] * q[1])};
            TrimRecord& r = table.trims[slot];
            for (int a = 0; a < 3; ++a) {
                r.position[a] = float(end.position[a]);
                r.facing[a] = float(facing[a]);
            }
            for (int a = 0; a < 4; ++a)
                r.orientation[a] = float(q[a]);
        }
    }
    for (size_t i = 0; i < written.size(); ++i)
        if (!written[i])
            return {ErrorCode::Internal, "trim table layout: slot " + std::to_string(i) + " never written"};
    log.log(LogLevel::Debug, std::to_string(C) + " controls, " + std::to_string(table.trims.size()) +
                                 " trims stored (" + std::to_string(uint64_t(C) * C) +
                                 " pairs), max chord deviation " + number(table.max_chord_deviation) + " m");
    *out = std::move(table);
    return {};
}

std::vector<uint8_t> serializeTrims(const TrimTable& table) {
    const VehicleModel& m = table.model;
    flatbuffers::FlatBufferBuilder builder(64 + table.trims.size() * sizeof(TrimRecord));
    // Explicit values for every field: a reader never depends on schema defaults.
    builder.ForceDefaults(true);
    std::vector<fb::Trim> trims;
    trims.reserve(table.trims.size());
    for (const TrimRecord& r : table.trims)
        trims.emplace_back(fb::Vec3(r.position[0], r.position[1], r.position[2]),
                           fb::Vec3(r.facing[0], r.facing[1], r.facing[2]),
                           fb::Quat(r.orientation[0], r.orientation[1], r.orientation[2], r.orientation[3]));
    const auto trim_vector = builder.CreateVectorOfStructs(trims);
    const bool spatial = m.dimension == 3;
    const auto yaw = fb::CreateAxis(builder, m.yaw.max_rate, m.yaw.samples);
    const auto pitch =
        fb::CreateAxis(builder, spatial ? m.pitch.max_rate : 0.0, spatial ? m.pitch.samples : 1);
    const auto roll = fb::CreateAxis(builder, spatial ? m.roll.max_rate : 0.0, spatial ? m.roll.samples : 1);
    const auto model = fb::CreateModel(builder, spatial ? fb::Dimension::Spatial : fb::Dimension::Planar, yaw,
                                       pitch, roll, m.interval, m.steps, m.speed);
    const auto baker = builder.CreateString(bakerVersion());
    const auto name = builder.CreateString(m.name);
    const auto source = builder.CreateString(table.source_name);
    const auto root =
        fb::CreateTrimTable(builder, trims::kFormatVersion, baker, table.input_hash, table.options_hash,
                            model, m.symmetric, trim_vector, table.max_chord_deviation, name, source);
    fb::FinishTrimTableBuffer(builder, root);
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

namespace {

Error bakeTrimsFileUnguarded(const TrimsRequest& request, TrimsResult* result, LogContext& log) {
    const auto start = std::chrono::steady_clock::now();
    VehicleModel model;
    uint64_t input_hash = 0;
    if (Error e = loadVehicleModel(request.model_path, &model, &input_hash)) return e;
    if (request.output_path.empty())
        return {ErrorCode::InvalidOption, "no output path given (-o VEHICLE.cwtt)"};
    OutputSet output({request.model_path});
    output.add(request.output_path, nullptr, 0, "-o");
    if (Error e = output.check()) return e; // before the integration, not after
    TrimsResult r;
    if (Error e = bakeTrims(model, &r.table, log)) {
        e.message = request.model_path + ": " + e.message;
        return e;
    }
    r.table.input_hash = input_hash;
    const size_t slash = request.model_path.find_last_of('/');
    r.table.source_name =
        slash == std::string::npos ? request.model_path : request.model_path.substr(slash + 1);
    const std::vector<uint8_t> bytes = serializeTrims(r.table);
    // The runtime must accept what we write; a failure here is a bake bug, not bad input.
    trims::TableView view;
    const Status status = trims::loadTable(bytes.data(), bytes.size(), &view);
    if (status != Status::Ok)
        return {ErrorCode::Internal,
                request.model_path +
                    ": the baked table fails the runtime's verification: " + statusString(status)};
    r.file_bytes = bytes.size();
    r.straight_control = trims::straightControl(toModel(r.table.model));
    r.bytes_per_trim = sizeof(trims::Trim);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    OutputSet outputs({request.model_path});
    outputs.add(request.output_path, bytes.data(), bytes.size(), "-o");
    if (Error e = outputs.write()) return e;
    log.log(LogLevel::Debug, request.output_path + ": " + std::to_string(r.table.trims.size()) + " trims, " +
                                 std::to_string(bytes.size()) + " bytes");
    *result = std::move(r);
    return {};
}

} // namespace

Error bakeTrimsFile(const TrimsRequest& request, TrimsResult* result, LogContext& log) {
    return catchOutOfMemory(request.model_path, [&] { return bakeTrimsFileUnguarded(request, result, log); });
}

} // namespace clearway::bake
