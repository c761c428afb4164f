// Shared by the asset writers: the footprint table is embedded in roadmap assets too.
#pragma once

#include <clearway/bake.h>
#include <clearway/schema/footprint_generated.h>

namespace clearway::bake {

flatbuffers::Offset<clearway::schema::Footprint> writeFootprintTable(flatbuffers::FlatBufferBuilder& builder,
                                                                     const Footprint& footprint);
// Bytes writeFootprintTable() adds to an empty builder (with ForceDefaults): sizes asset buffers.
size_t footprintTableSize(const Footprint& footprint);
// The reverse, for a table the runtime's loader has verified (roadmap assets embed one).
void readFootprintTable(const clearway::schema::Footprint* root, Footprint* out);

// A whole asset file: FileNotFound or ReadFailed naming the path. std::vector<uint8_t> storage is
// suitably aligned for the verifier (operator new alignment).
Error readAssetFile(const std::string& path, std::vector<uint8_t>* out);

} // namespace clearway::bake
