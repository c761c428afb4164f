// cw-stitch's one library call: reads the tile assets, stitches them (tiles/stitch.cpp) and
// writes the world roadmap asset.
#include <clearway/bake.h>

#include "pipeline/pipeline_internal.h"

#include <chrono>
#include <exception>

namespace clearway::bake {

Error stitchFiles(const StitchRequest& request, StitchResult* result, LogContext& log) {
    const auto start = Clock::now();
    if (request.tile_paths.empty()) return {ErrorCode::InvalidOption, "cw-stitch: no tile files given"};
    // Refused before reading: an output that would replace a tile or the other output.
    if (Error e = checkOutputPaths(request.tile_paths, request.output_path, request.svg_path)) return e;
    std::vector<Roadmap> tiles(request.tile_paths.size());
    for (size_t t = 0; t < tiles.size(); ++t)
        if (Error e = readRoadmapFile(request.tile_paths[t], &tiles[t])) return e;
    result->seconds_read = secondsSince(start);
    const auto stitch_start = Clock::now();
    try {
        if (Error e = stitchTiles(tiles, request.tile_paths, request.options, &result->roadmap,
                                  &result->stats, log))
            return e;
    } catch (const std::exception& e) {
        return {ErrorCode::Internal, std::string("cw-stitch: ") + e.what()};
    }
    result->seconds_stitch = secondsSince(stitch_start);
    if (Error e = writeRoadmapOutputs(result->roadmap, request.output_path, request.svg_path,
                                      request.roadmap_svg, &result->bytes, request.tile_paths))
        return e;
    result->seconds_total = secondsSince(start);
    return {};
}

} // namespace clearway::bake
