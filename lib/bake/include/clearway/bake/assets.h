// Assets: footprint and roadmap structs <-> verified FlatBuffers bytes (schemas/*.fbs).
#pragma once

#include <clearway/bake/roadmap.h>

namespace clearway::bake {

// FlatBuffers bytes (schemas/footprint.fbs). Deterministic: same footprint -> same bytes.
std::vector<uint8_t> serializeFootprint(const Footprint& footprint);
// Reads a .cwfp back into the bake-side structs (verifies it first).
Error readFootprintFile(const std::string& path, Footprint* out);
Error readFootprintBytes(const std::vector<uint8_t>& bytes, const std::string& name, Footprint* out);

// Hash of the import + roadmap options, as a roadmap asset records it (options_hash): cw-bake
// --if-changed compares it with an existing asset's.
uint64_t roadmapOptionsHash(const ImportOptions& import_options, const RoadmapOptions& options);
std::vector<uint8_t> serializeRoadmap(const Roadmap& roadmap);

// Reads a roadmap asset back into the bake-side structs (verifies it with the runtime's loader).
Error readRoadmapBytes(const std::vector<uint8_t>& bytes, const std::string& name, Roadmap* out);
Error readRoadmapFile(const std::string& path, Roadmap* out);

} // namespace clearway::bake
