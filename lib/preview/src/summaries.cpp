// The --json summaries cw-trims and cw-stitch print (cw-import's and cw-roadmap's live next to
// their drawings in report.cpp and roadmap_report.cpp).
#include <clearway/preview.h>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace clearway::bake {

using nlohmann::json;

std::string trimsJson(const TrimsResult& result) {
    const TrimTable& t = result.table;
    json j;
    j["name"] = t.model.name;
    j["dimension"] = t.model.dimension;
    j["controls"] = t.controls;
    j["trims"] = t.trims.size();
    j["trims_full"] = uint64_t(t.controls) * t.controls;
    j["symmetric"] = t.model.symmetric;
    j["bytes_per_trim"] = result.bytes_per_trim;
    j["file_bytes"] = result.file_bytes;
    j["interval"] = t.model.interval;
    j["steps"] = t.model.steps;
    j["speed"] = t.model.speed;
    j["max_chord_deviation"] = t.max_chord_deviation;
    j["straight_control"] = result.straight_control;
    j["seconds"] = result.seconds;
    return j.dump();
}

std::string stitchJson(const StitchResult& r) {
    char text[768];
    std::snprintf(
        text, sizeof text,
        "{\"tiles\": %zu, \"layers\": %zu, \"walls\": %zu, \"vertices\": %zu, \"edges\": %zu, "
        "\"blends\": %zu, \"welded\": %zu, \"unmatched\": %zu, \"margin_reached\": %zu, \"bytes\": %zu, "
        "\"seconds\": %.4g, \"stages\": {\"read\": %.4g, \"stitch\": %.4g}}",
        r.stats.tiles, r.stats.layers, r.stats.walls, r.stats.vertices, r.stats.edges, r.stats.blends,
        r.stats.welded, r.stats.unmatched, r.stats.margin_reached, r.bytes, r.seconds_total, r.seconds_read,
        r.seconds_stitch);
    return text;
}

} // namespace clearway::bake
