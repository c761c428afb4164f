// One picture per route and vehicle (--svg): where each controller drove.
#include "simulation.h"

#include <fstream>
#include <sstream>

namespace clearway::drive {

namespace {

std::string polylineSvg(const std::vector<Vec2f>& pts, double minx, double maxy, double scale,
                        const char* style) {
    std::ostringstream o;
    o << "<polyline fill=\"none\" " << style << " points=\"";
    for (const Vec2f& p : pts)
        o << (p.x - minx) * scale << "," << (maxy - p.y) * scale << " ";
    o << "\"/>\n";
    return o.str();
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
    const double scale = 900.0 / std::max(maxx - minx, maxy - miny);
    std::ofstream f(path);
    f << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << (maxx - minx) * scale << "\" height=\""
      << (maxy - miny) * scale << "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    for (const auto& w : walls.walls)
        f << "<line x1=\"" << (w.a.x - minx) * scale << "\" y1=\"" << (maxy - w.a.y) * scale << "\" x2=\""
          << (w.b.x - minx) * scale << "\" y2=\"" << (maxy - w.b.y) * scale
          << "\" stroke=\"black\" stroke-width=\"2\"/>\n";
    f << polylineSvg(track.points, minx, maxy, scale, "stroke=\"#999\" stroke-width=\"4\"");
    if (planned)
        f << polylineSvg(planned->points, minx, maxy, scale,
                         "stroke=\"#9ecae1\" stroke-width=\"3\" stroke-dasharray=\"6,4\"");
    f << polylineSvg(baseline.trajectory, minx, maxy, scale, "stroke=\"#d62728\" stroke-width=\"1.5\"");
    f << polylineSvg(clearway.trajectory, minx, maxy, scale, "stroke=\"#1f77b4\" stroke-width=\"1.5\"");
    f << "<text x=\"8\" y=\"18\" font-family=\"sans-serif\" font-size=\"14\">grey: route, red: baseline, "
         "blue: "
         "clearway follower"
      << (planned ? ", dashed: planned multi-point turn (Directional A* with reverse)" : "")
      << "</text>\n</svg>\n";
}

} // namespace clearway::drive
