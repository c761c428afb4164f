// Shared by the asset writers: the footprint table is embedded in roadmap assets too.
#pragma once

#include <clearway/bake.h>
#include <clearway/schema/footprint_generated.h>

namespace clearway::bake {

flatbuffers::Offset<clearway::schema::Footprint> writeFootprintTable(flatbuffers::FlatBufferBuilder& builder,
                                                                     const Footprint& footprint);

} // namespace clearway::bake
