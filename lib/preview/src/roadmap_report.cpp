// Roadmap previews: the SVG drawing (walls, edges coloured by clearance, blends) and the
// --json summary cw-roadmap and cw-bake print.
#include <clearway/preview.h>

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
    char buf[512];
    auto num = [&](double v) {
        std::snprintf(buf, sizeof buf, "%.6g", v);
        return std::string(buf);
    };
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w * px) + "\" height=\"" +
                      num(h * px) + "\" viewBox=\"" + num(min_x) + " " + num(-max_y) + " " + num(w) + " " +
                      num(h) + "\">\n";
    svg += "<rect x=\"" + num(min_x) + "\" y=\"" + num(-max_y) + "\" width=\"" + num(w) + "\" height=\"" +
           num(h) +
           "\" fill=\"#1b1b1b\"/>\n<g id=\"free-space\" fill=\"#3a3a3a\" fill-rule=\"evenodd\" "
           "stroke=\"#f0f0f0\" stroke-width=\"" +
           num(stroke) + "\">\n";
    for (const FootprintLayer& layer : fp.layers)
        for (const PolygonWithHoles& p : layer.polygons) {
            std::string d;
            auto ring = [&](const Ring& r) {
                for (size_t i = 0; i < r.size(); ++i)
                    d += (i ? "L" : "M") + num(r[i].x) + " " + num(-r[i].y) + " ";
                d += "Z ";
            };
            ring(p.outer);
            for (const Ring& hole : p.holes)
                ring(hole);
            svg += "<path d=\"" + d + "\"/>\n";
        }
    svg += "</g>\n<g id=\"roadmap\" fill=\"none\" stroke-width=\"" + num(2 * stroke) +
           "\" stroke-linecap=\"round\">\n";
    for (const RoadmapEdge& e : rm.edges) {
        // Clearance colour: red (tight) through yellow to cyan (wide).
        const double t = std::clamp(e.min_clearance / max_clearance, 0.0, 1.0);
        const int r = int(255 * std::clamp(2 - 2 * t, 0.0, 1.0)), g = int(255 * std::clamp(2 * t, 0.0, 1.0)),
                  b = int(255 * t);
        char colour[8];
        std::snprintf(colour, sizeof colour, "#%02x%02x%02x", r, g, b);
        std::string d;
        for (size_t i = 0; i < e.points.size(); ++i)
            d += (i ? "L" : "M") + num(e.points[i].x) + " " + num(-e.points[i].y) + " ";
        svg += std::string("<path stroke=\"") + (e.portal ? "#ff40ff" : colour) + "\" d=\"" + d + "\"/>\n";
    }
    svg += "</g>\n<g id=\"blends\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"" + num(stroke) + "\">\n";
    for (const Blend& b : rm.blends) {
        if (b.radius <= 0) continue;
        // y is flipped on screen, so the sweep flag flips too.
        svg += "<path d=\"M" + num(b.p_in.x) + " " + num(-b.p_in.y) + " A" + num(b.radius) + " " +
               num(b.radius) + " 0 0 " + (b.ccw ? "0 " : "1 ") + num(b.p_out.x) + " " + num(-b.p_out.y) +
               "\"/>\n";
    }
    svg += "</g>\n</svg>\n";
    return svg;
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
    return json;
}

} // namespace clearway::bake
