// Trims: vehicle control models pre-integrated into trim-trajectory tables (.cwtt).
#pragma once

#include <clearway/bake/core.h>

namespace clearway::bake {

// Vehicle control models (Go et al. 2004) pre-integrated into trim-trajectory tables (.cwtt,
// schemas/trims.fbs) with clearway::trims::integrateTrim, the integrator games run online.

// One angular-velocity axis: `samples` (odd, so 0 is a sample) rates over [-max_rate, +max_rate].
struct VehicleAxis {
    double max_rate = 0; // rad/s
    uint32_t samples = 1;
};

// The model spec (cw-trims MODEL.json); field meanings, units and limits in README.md.
struct VehicleModel {
    std::string name;
    int dimension = 2; // 2: yaw; 3: yaw + pitch (+ roll)
    VehicleAxis yaw, pitch, roll;
    double interval = 1.0; // s per control decision
    uint32_t steps = 20;   // Euler steps per interval
    double speed = 1.0;    // m/s the table is integrated at
    bool symmetric = true; // store half the trims, mirror the rest (y -> -y)
};

// Parses and validates a model spec. `source` names the file in messages, which also name the
// field and the problem ("boat.json: yaw.samples must be odd (got 4)").
Error parseVehicleModel(const std::string& json_text, const std::string& source, VehicleModel* out);
Error loadVehicleModel(const std::string& path, VehicleModel* out, uint64_t* input_hash);
Error validate(const VehicleModel& model, const std::string& source);
// Canonical text of the model (hashed into the table as options_hash).
std::string canonicalString(const VehicleModel& model);

struct TrimRecord {
    float position[3];
    float facing[3];
    float orientation[4]; // x, y, z, w
};

struct TrimTable {
    VehicleModel model;
    uint32_t controls = 0;
    std::vector<TrimRecord> trims;  // in trims::trimSlot order (the canonical half when symmetric)
    double max_chord_deviation = 0; // metres at model.speed
    uint64_t input_hash = 0, options_hash = 0;
    std::string source_name;
};

// Integrates every stored trim. Deterministic: the same model gives the same bytes.
Error bakeTrims(const VehicleModel& model, TrimTable* out, LogContext& log);
std::vector<uint8_t> serializeTrims(const TrimTable& table);

struct TrimsRequest {
    std::string model_path;
    std::string output_path; // .cwtt
};
struct TrimsResult {
    TrimTable table;
    size_t file_bytes = 0;
    size_t bytes_per_trim = 40;    // one stored trim (trims::Trim)
    uint32_t straight_control = 0; // the control that keeps the vehicle straight
    double seconds = 0; // integration + serialisation
};
Error bakeTrimsFile(const TrimsRequest& request, TrimsResult* result, LogContext& log);

} // namespace clearway::bake
