// The previews tools write next to their assets (through cw-inspect's renderer) and the bake
// summaries' --json for footprints and level sizes.
#include <clearway/preview.h>
#include <clearway/preview/json_writer.h>
#include <clearway/preview/svg_writer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace clearway::bake {

using preview::jsonNumber;
using preview::jsonString;

namespace {

// The asset bytes in 8-byte aligned memory, as the runtime's loaders (and so the drawings) take them.
struct AlignedBytes {
    std::vector<uint64_t> words;
    size_t size = 0;
    explicit AlignedBytes(const std::vector<uint8_t>& bytes) : words(bytes.size() / 8 + 1), size(bytes.size()) {
        std::memcpy(words.data(), bytes.data(), bytes.size());
    }
};

std::string titleOf(const std::string& source) {
    const size_t slash = source.find_last_of('/');
    return slash == std::string::npos ? source : source.substr(slash + 1);
}

} // namespace

// One drawing for every tool: the baked asset through cw-inspect's renderer (legend, scale bar,
// layer tints, portals, the fixed clearance scale), exactly what a game would load.
std::string footprintSvg(const Footprint& fp) {
    const AlignedBytes asset(serializeFootprint(fp));
    return inspectSvg(asset.words.data(), asset.size, titleOf(fp.source_name));
}

std::string roadmapSvg(const Roadmap& rm) {
    return roadmapSvg(rm, PreviewOptions{});
}

std::string roadmapHtml(const Roadmap& rm) {
    return roadmapHtml(rm, PreviewOptions{});
}

std::string roadmapSvg(const Roadmap& rm, const PreviewOptions& options) {
    const AlignedBytes asset(serializeRoadmap(rm));
    return inspectSvg(asset.words.data(), asset.size, titleOf(rm.footprint.source_name), options);
}

std::string roadmapHtml(const Roadmap& rm, const PreviewOptions& options) {
    const AlignedBytes asset(serializeRoadmap(rm));
    return inspectHtml(asset.words.data(), asset.size, titleOf(rm.footprint.source_name), options);
}

std::string footprintJson(const Footprint& fp, double seconds, const ImportUnits* units) {
    const FootprintStats s = statsOf(fp);
    std::string json =
        "{\"layers\": " + std::to_string(s.layers) + ", \"connections\": " + std::to_string(s.connections) +
        ", \"walkable_area\": " + jsonNumber(s.walkable_area, 10) +
        ", \"polygons\": " + std::to_string(s.polygons) + ", \"holes\": " + std::to_string(s.holes) +
        ", \"vertices\": " + std::to_string(s.vertices) + ", \"seconds\": " + jsonNumber(seconds, 4) +
        ", \"per_layer\": [";
    for (size_t l = 0; l < fp.layers.size(); ++l) {
        const FootprintLayer& layer = fp.layers[l];
        size_t holes = 0;
        for (const PolygonWithHoles& p : layer.polygons)
            holes += p.holes.size();
        json += std::string(l ? ", " : "") + "{\"area\": " + jsonNumber(layer.area, 10) +
                ", \"polygons\": " + std::to_string(layer.polygons.size()) +
                ", \"holes\": " + std::to_string(holes) +
                ", \"height_min\": " + jsonNumber(layer.height_min + fp.origin.z, 8) +
                ", \"height_max\": " + jsonNumber(layer.height_max + fp.origin.z, 8) + "}";
    }
    const LevelSize size = levelSizeOf(fp);
    json += "], " + levelSizeJson(size, levelSizeWarnings(size, fp.options));
    return json + (units ? ", " + unitsJson(*units) : std::string()) + "}";
}

std::string unitsJson(const ImportUnits& units) {
    auto source = [](UnitsSource s) {
        return s == UnitsSource::Option ? "\"option\"" : s == UnitsSource::File ? "\"file\"" : "\"default\"";
    };
    return std::string("\"units\": {\"up\": \"") + (units.up == UpAxis::Y ? "y" : "z") +
           "\", \"up_source\": " + source(units.up_source) + ", \"up_why\": " + jsonString(units.up_why) +
           ", \"scale\": " + jsonNumber(units.scale, 10) + ", \"scale_source\": " + source(units.scale_source) +
           ", \"scale_why\": " + jsonString(units.scale_why) + "}";
}

std::string levelSizeJson(const LevelSize& size, const std::vector<std::string>& warnings) {
    std::string json = "\"size\": {\"across\": " + jsonNumber(size.across, 6) +
                       ", \"walkable_area\": " + jsonNumber(size.walkable_area, 8) +
                       ", \"ground_area\": " + jsonNumber(size.ground_area, 8) +
                       ", \"world_min\": [" + jsonNumber(size.world_min.x, 8) + ", " + jsonNumber(size.world_min.y, 8) +
                       ", " + jsonNumber(size.world_min.z, 8) + "], \"world_max\": [" + jsonNumber(size.world_max.x, 8) +
                       ", " + jsonNumber(size.world_max.y, 8) + ", " + jsonNumber(size.world_max.z, 8) +
                       "]}, \"warnings\": [";
    for (size_t i = 0; i < warnings.size(); ++i)
        json += (i ? ", " : "") + jsonString(warnings[i]);
    return json + "]";
}

} // namespace clearway::bake
