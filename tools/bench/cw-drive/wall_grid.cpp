#include "simulation.h"

namespace clearway::drive {

namespace {

double pointSegmentDistance(double px, double py, const bake::WallSegment& w) {
    const double dx = w.b.x - w.a.x, dy = w.b.y - w.a.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - w.a.x) * dx + (py - w.a.y) * dy) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(px - (w.a.x + t * dx), py - (w.a.y + t * dy));
}

} // namespace

void WallGrid::build(std::vector<bake::WallSegment> segments) {
    walls = std::move(segments);
    double x1 = 0, y1 = 0;
    x0 = y0 = 1e300;
    x1 = y1 = -1e300;
    for (const auto& w : walls) {
        x0 = std::min({x0, w.a.x, w.b.x});
        y0 = std::min({y0, w.a.y, w.b.y});
        x1 = std::max({x1, w.a.x, w.b.x});
        y1 = std::max({y1, w.a.y, w.b.y});
    }
    if (walls.empty()) x0 = y0 = x1 = y1 = 0;
    nx = std::max(1, int(std::ceil((x1 - x0) / cell)) + 1);
    ny = std::max(1, int(std::ceil((y1 - y0) / cell)) + 1);
    cells.assign(size_t(nx) * ny, {});
    for (uint32_t i = 0; i < walls.size(); ++i) {
        const auto& w = walls[i];
        const int cx0 = cellX(std::min(w.a.x, w.b.x)), cx1 = cellX(std::max(w.a.x, w.b.x));
        const int cy0 = cellY(std::min(w.a.y, w.b.y)), cy1 = cellY(std::max(w.a.y, w.b.y));
        for (int cy = cy0; cy <= cy1; ++cy)
            for (int cx = cx0; cx <= cx1; ++cx)
                cells[size_t(cy) * nx + cx].push_back(i);
    }
}

double WallGrid::distance(double x, double y, double cap) const {
    double best = cap;
    const int cx0 = cellX(x - cap), cx1 = cellX(x + cap), cy0 = cellY(y - cap), cy1 = cellY(y + cap);
    for (int cy = cy0; cy <= cy1; ++cy)
        for (int cx = cx0; cx <= cx1; ++cx)
            for (uint32_t i : cells[size_t(cy) * nx + cx])
                best = std::min(best, pointSegmentDistance(x, y, walls[i]));
    return best;
}

} // namespace clearway::drive
