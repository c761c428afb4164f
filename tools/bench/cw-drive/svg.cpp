// One picture per route and vehicle (--svg): where each controller drove.
#include "simulation.h"

#include <clearway/preview/svg_writer.h>

#include <fstream>

namespace clearway::drive {

namespace {

// The picture's frame: the walls' box plus 1 m, y down, 900 pixels across its longer side.
struct Pixel {
    double x, y;
};
struct Frame {
    double minx, maxy, scale;
    template <class Point> Pixel operator()(const Point& p) const {
        return {(p.x - minx) * scale, (maxy - p.y) * scale};
    }
};

void polyline(preview::SvgWriter& svg, const Frame& frame, const std::vector<Vec2f>& pts,
              preview::SvgAttributes style) {
    std::vector<Pixel> pixels;
    for (const Vec2f& p : pts)
        pixels.push_back(frame(p));
    svg.polyline(pixels.data(), pixels.size(), style);
}

} // namespace

void writeSvg(const std::string& path, const WallGrid& walls, const Track& track, const Track* planned,
              const Trial& baseline, const Trial& clearway) {
    double minx = 1e300, miny = 1e300, maxx = -1e300, maxy = -1e300;
    for (const auto& w : walls.walls)
        for (const auto& p : {w.a, w.b}) {
            minx = std::min(minx, p.x);
            miny = std::min(miny, p.y);
            maxx = std::max(maxx, p.x);
            maxy = std::max(maxy, p.y);
        }
    minx -= 1;
    miny -= 1;
    maxx += 1;
    maxy += 1;
    const Frame frame{minx, maxy, 900.0 / std::max(maxx - minx, maxy - miny)};
    preview::SvgWriter svg; // "%g", as the pictures were always written
    // No viewBox: the drawing is in pixels.
    svg.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg.num((maxx - minx) * frame.scale) +
            "\" height=\"" + svg.num((maxy - miny) * frame.scale) + "\">\n");
    svg.element("rect", {{"width", "100%"}, {"height", "100%"}, {"fill", "white"}});
    for (const auto& w : walls.walls) {
        const Pixel a = frame(w.a), b = frame(w.b);
        svg.element(
            "line",
            {{"x1", a.x}, {"y1", a.y}, {"x2", b.x}, {"y2", b.y}, {"stroke", "black"}, {"stroke-width", "2"}});
    }
    polyline(svg, frame, track.points, {{"fill", "none"}, {"stroke", "#999"}, {"stroke-width", "4"}});
    if (planned)
        polyline(
            svg, frame, planned->points,
            {{"fill", "none"}, {"stroke", "#9ecae1"}, {"stroke-width", "3"}, {"stroke-dasharray", "6,4"}});
    polyline(svg, frame, baseline.trajectory,
             {{"fill", "none"}, {"stroke", "#d62728"}, {"stroke-width", "1.5"}});
    polyline(svg, frame, clearway.trajectory,
             {{"fill", "none"}, {"stroke", "#1f77b4"}, {"stroke-width", "1.5"}});
    svg.text(8.0, 18.0,
             std::string("grey: route, red: baseline, blue: clearway follower") +
                 (planned ? ", dashed: planned multi-point turn (Directional A* with reverse)" : ""),
             {{"font-family", "sans-serif"}, {"font-size", "14"}});
    std::ofstream(path) << svg.finish();
}

} // namespace clearway::drive
