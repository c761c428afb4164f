// Human and machine views of a footprint: SVG preview and the --json summary.
#include <clearway/preview.h>
#include <clearway/preview/json_writer.h>
#include <clearway/preview/svg_writer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace clearway::bake {

using preview::jsonNumber;
using preview::jsonString;

namespace {

// Distinct hues for layers (golden-angle steps), as hex.
std::string layerColour(size_t layer) {
    const double hue = std::fmod(double(layer) * 137.508, 360.0);
    const double s = 0.55, l = 0.55;
    const double c = (1 - std::abs(2 * l - 1)) * s, x = c * (1 - std::abs(std::fmod(hue / 60, 2) - 1)),
                 m = l - c / 2;
    double r = 0, g = 0, b = 0;
    if (hue < 60)
        r = c, g = x;
    else if (hue < 120)
        r = x, g = c;
    else if (hue < 180)
        g = c, b = x;
    else if (hue < 240)
        g = x, b = c;
    else if (hue < 300)
        r = x, b = c;
    else
        r = c, b = x;
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", int((r + m) * 255), int((g + m) * 255),
                  int((b + m) * 255));
    return text;
}

} // namespace

std::string footprintSvg(const Footprint& fp) {
    double min_x = INFINITY, min_y = INFINITY, max_x = -INFINITY, max_y = -INFINITY;
    for (const FootprintLayer& layer : fp.layers)
        for (const PolygonWithHoles& p : layer.polygons)
            for (const Vec2& v : p.outer) {
                min_x = std::min(min_x, v.x), max_x = std::max(max_x, v.x);
                min_y = std::min(min_y, v.y), max_y = std::max(max_y, v.y);
            }
    if (!std::isfinite(min_x)) min_x = min_y = 0, max_x = max_y = 1;
    const double margin = 0.02 * std::max(max_x - min_x, max_y - min_y) + 0.5;
    min_x -= margin, min_y -= margin, max_x += margin, max_y += margin;
    const double width = max_x - min_x, height = max_y - min_y;
    const double pixels = 1000.0 / std::max(width, height);
    const double stroke = 1.5 / pixels;
    // The ground plane's +y points up on screen: flip y so the picture is not mirrored. Outlines
    // keep 9 significant digits (millimetres on a kilometre-wide level).
    const preview::NumberFormat outline{preview::NumberFormat::Significant, 9};
    auto coordinate = [&](double v) { return preview::formatNumber(v, outline); };
    preview::SvgWriter svg(preview::NumberFormat{preview::NumberFormat::Significant, 6}, true);
    svg.openGroundPlane(min_x, min_y, max_x, max_y, pixels);
    svg.title(fp.source_name + " footprint: " + std::to_string(fp.layers.size()) + " layers, " +
              std::to_string(fp.connections.size()) + " connections");
    svg.background("#202020");
    for (size_t l = 0; l < fp.layers.size(); ++l) {
        svg.group({{"id", "layer-" + std::to_string(l)},
                   {"fill", layerColour(l)},
                   {"fill-opacity", "0.55"},
                   {"fill-rule", "evenodd"},
                   {"stroke", "#ffffff"},
                   {"stroke-width", stroke}});
        for (const PolygonWithHoles& p : fp.layers[l].polygons) {
            preview::SvgPath d(outline, true, false);
            d.points(p.outer.data(), p.outer.size(), true);
            for (const Ring& h : p.holes)
                d.points(h.data(), h.size(), true);
            svg.path(d);
        }
        svg.end();
    }
    svg.group({{"id", "connections"}, {"stroke", "#ff3030"}, {"stroke-width", 4 * stroke}, {"stroke-linecap", "round"}});
    for (const Connection& c : fp.connections)
        svg.element("line", {{"x1", coordinate(c.p0.x)},
                             {"y1", coordinate(-c.p0.y)},
                             {"x2", coordinate(c.p1.x)},
                             {"y2", coordinate(-c.p1.y)}});
    svg.end();
    return svg.finish();
}

std::string footprintJson(const Footprint& fp, double seconds) {
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
    return json + "], " + levelSizeJson(size, levelSizeWarnings(size, fp.options)) + "}";
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
