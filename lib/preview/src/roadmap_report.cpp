// Roadmap previews: the SVG drawing (walls, edges coloured by clearance, blends) and the
// --json summary cw-roadmap and cw-bake print.
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

std::string roadmapSvg(const Roadmap& rm) {
    const Footprint& fp = rm.footprint;
    double min_x = INFINITY, min_y = INFINITY, max_x = -INFINITY, max_y = -INFINITY, max_clearance = 0.1;
    for (const FootprintLayer& layer : fp.layers)
        for (const PolygonWithHoles& p : layer.polygons)
            for (const Vec2& v : p.outer)
                min_x = std::min(min_x, v.x), max_x = std::max(max_x, v.x), min_y = std::min(min_y, v.y),
                max_y = std::max(max_y, v.y);
    if (!std::isfinite(min_x)) min_x = min_y = 0, max_x = max_y = 1;
    for (const RoadmapEdge& e : rm.edges)
        max_clearance = std::max(max_clearance, e.min_clearance);
    const double margin = 0.02 * std::max(max_x - min_x, max_y - min_y) + 0.5;
    min_x -= margin, min_y -= margin, max_x += margin, max_y += margin;
    const double w = max_x - min_x, h = max_y - min_y, px = 1200.0 / std::max(w, h), stroke = 1.2 / px;
    preview::SvgWriter svg(preview::NumberFormat{preview::NumberFormat::Significant, 6}, true);
    svg.openGroundPlane(min_x, min_y, max_x, max_y, px);
    svg.background("#1b1b1b");
    svg.group({{"id", "free-space"}, {"fill", "#3a3a3a"}, {"fill-rule", "evenodd"}, {"stroke", "#f0f0f0"},
               {"stroke-width", stroke}});
    for (const FootprintLayer& layer : fp.layers)
        for (const PolygonWithHoles& p : layer.polygons) {
            preview::SvgPath d = svg.pathData();
            d.points(p.outer.data(), p.outer.size(), true);
            for (const Ring& hole : p.holes)
                d.points(hole.data(), hole.size(), true);
            svg.path(d);
        }
    svg.end();
    svg.group({{"id", "roadmap"}, {"fill", "none"}, {"stroke-width", 2 * stroke}, {"stroke-linecap", "round"}});
    for (const RoadmapEdge& e : rm.edges) {
        // Clearance colour: red (tight) through yellow to cyan (wide).
        const double t = std::clamp(e.min_clearance / max_clearance, 0.0, 1.0);
        const uint32_t r = uint32_t(255 * std::clamp(2 - 2 * t, 0.0, 1.0)),
                       g = uint32_t(255 * std::clamp(2 * t, 0.0, 1.0)), b = uint32_t(255 * t);
        const std::string colour = e.portal ? "#ff40ff" : preview::colourHex(r << 16 | g << 8 | b);
        svg.path(svg.pathData().points(e.points.data(), e.points.size(), false), {{"stroke", colour}});
    }
    svg.end();
    svg.group({{"id", "blends"}, {"fill", "none"}, {"stroke", "#ffffff"}, {"stroke-width", stroke}});
    for (const Blend& b : rm.blends) {
        if (b.radius <= 0) continue;
        svg.path(svg.pathData().moveTo(b.p_in.x, b.p_in.y).arcTo(b.radius, false, b.ccw, b.p_out.x, b.p_out.y));
    }
    svg.end();
    return svg.finish();
}

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
    return json + ", " + levelSizeJson(r.size, r.warnings) + "}";
}

} // namespace clearway::bake
