// The --json summary cw-roadmap and cw-bake print.
#include <clearway/preview.h>
#include <clearway/preview/json_writer.h>
#include <clearway/preview/svg_writer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace clearway::bake {

std::string roadmapJson(const RoadmapResult& r) {
    char text[1024];
    std::snprintf(text, sizeof text,
                  "{\"layers\": %zu, \"vertices\": %zu, \"edges\": %zu, \"arcs\": %zu, \"blends\": %zu, "
                  "\"walls\": %zu, "
                  "\"bytes\": %zu, \"seconds\": %.4g, \"stages\": {\"import\": %.4g, \"voronoi\": %.4g, "
                  "\"roadmap\": %.4g, "
                  "\"write\": %.4g}}",
                  r.stats.layers, r.stats.vertices, r.stats.edges, r.stats.arcs, r.stats.blends,
                  r.stats.walls, r.bytes, r.seconds_total, r.seconds_import, r.stats.seconds_voronoi,
                  r.stats.seconds_roadmap, r.seconds_write);
    std::string json = text;
    if (const RoadmapTile& t = r.roadmap.tile; t.size > 0) { // cw-bake --tile-size
        std::snprintf(text, sizeof text,
                      ", \"tile\": {\"i\": %d, \"j\": %d, \"size\": %.10g, \"margin\": %.10g, "
                      "\"border_vertices\": %zu, \"margin_reached\": %u}}",
                      t.i, t.j, t.size, t.margin, t.border_vertices.size(), t.margin_reached);
        json.pop_back();
        json += text;
    }
    json.pop_back();
    json += ", " + levelSizeJson(r.size, r.warnings);
    if (!r.units.up_why.empty()) json += ", " + unitsJson(r.units); // cw-bake: read from a mesh
    return json + "}";
}

} // namespace clearway::bake
