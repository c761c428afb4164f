// Free space of one footprint layer for the baseline planners: a uniform grid over its walls
// answering exact clearance, inside and "segment keeps the radius" queries.
#include "baselines_internal.h"

#include <algorithm>
#include <cmath>

namespace clearway::bake {

using geometry::dist;
using geometry::pointSegmentDistance;
using geometry::segmentSegmentDistance;

FreeSpace buildFreeSpace(const FootprintLayer& layer, double radius) {
    FreeSpace s;
    s.walls = layerWalls(layer);
    s.radius = radius;
    s.area = layer.area;
    Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
    for (const WallSegment& w : s.walls)
        for (Vec2 p : {w.a, w.b}) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
        }
    if (s.walls.empty()) lo = hi = {0, 0};
    // About two walls per cell, never finer than the radius (segment checks stay a few cells wide).
    const double w = hi.x - lo.x, h = hi.y - lo.y;
    double cell = std::sqrt(std::max(w * h, 1e-6) / std::max<double>(1, double(s.walls.size()) / 2));
    cell = std::max({cell, radius, 1e-3});
    const double pad = cell * 0.5;
    s.origin = {lo.x - pad, lo.y - pad};
    s.cell = cell;
    s.nx = uint32_t(std::ceil((w + 2 * pad) / cell)) + 1;
    s.ny = uint32_t(std::ceil((h + 2 * pad) / cell)) + 1;

    std::vector<std::pair<uint32_t, uint32_t>> cell_pairs, row_pairs;
    for (uint32_t i = 0; i < s.walls.size(); ++i) {
        const WallSegment& wall = s.walls[i];
        baselines::forEachCellOnCapsule(s, wall.a, wall.b, 1e-9 * cell, [&](uint32_t x, uint32_t y) {
            cell_pairs.push_back({y * s.nx + x, i});
            return true;
        });
        const int r0 = std::max(0, int(std::floor((std::min(wall.a.y, wall.b.y) - s.origin.y) / cell)));
        const int r1 =
            std::min(int(s.ny) - 1, int(std::floor((std::max(wall.a.y, wall.b.y) - s.origin.y) / cell)));
        for (int r = r0; r <= r1; ++r)
            row_pairs.push_back({uint32_t(r), i});
    }
    std::sort(cell_pairs.begin(), cell_pairs.end());
    cell_pairs.erase(std::unique(cell_pairs.begin(), cell_pairs.end()), cell_pairs.end());
    baselines::toCsr(size_t(s.nx) * s.ny, cell_pairs, &s.cell_start, &s.cell_walls);
    baselines::toCsr(s.ny, row_pairs, &s.row_start, &s.row_walls);
    return s;
}

bool insideFootprint(const FreeSpace& s, Vec2 p) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || s.ny == 0) return false;
    const double fy = std::floor((p.y - s.origin.y) / s.cell);
    if (fy < 0 || fy >= double(s.ny)) return false;
    const uint32_t row = uint32_t(fy);
    bool inside = false;
    for (uint32_t k = s.row_start[row]; k < s.row_start[row + 1]; ++k) {
        const WallSegment& w = s.walls[s.row_walls[k]];
        if ((w.a.y > p.y) == (w.b.y > p.y)) continue;
        const double x = w.a.x + (p.y - w.a.y) / (w.b.y - w.a.y) * (w.b.x - w.a.x);
        if (x > p.x) inside = !inside;
    }
    return inside;
}

double clearanceAt(const FreeSpace& s, Vec2 p) {
    if (s.walls.empty()) return INFINITY;
    const double fx = std::floor((p.x - s.origin.x) / s.cell), fy = std::floor((p.y - s.origin.y) / s.cell);
    if (!(fx >= 0 && fy >= 0 && fx < double(s.nx) && fy < double(s.ny)))
        return distanceToWalls(s.walls, p); // outside the grid: rare, scan
    const int cx = int(fx), cy = int(fy);
    double best = INFINITY;
    const int max_ring = int(std::max(s.nx, s.ny));
    for (int ring = 0; ring <= max_ring; ++ring) {
        for (int y = cy - ring; y <= cy + ring; ++y) {
            if (y < 0 || y >= int(s.ny)) continue;
            const bool edge_row = y == cy - ring || y == cy + ring;
            for (int x = cx - ring; x <= cx + ring; x += edge_row ? 1 : 2 * ring) {
                if (x >= 0 && x < int(s.nx)) {
                    const uint32_t c = uint32_t(y) * s.nx + uint32_t(x);
                    for (uint32_t k = s.cell_start[c]; k < s.cell_start[c + 1]; ++k) {
                        const WallSegment& w = s.walls[s.cell_walls[k]];
                        best = std::min(best, pointSegmentDistance(p, w.a, w.b));
                    }
                }
                if (ring == 0) break;
            }
        }
        // Cells of the next ring are at least `ring` cells away from p's cell.
        if (best <= ring * s.cell) break;
    }
    return best;
}

namespace {

// True when every wall stays at least `limit` away from segment ab.
bool segmentClearOf(const FreeSpace& s, Vec2 a, Vec2 b, double limit) {
    return baselines::forEachCellOnCapsule(s, a, b, limit, [&](uint32_t x, uint32_t y) {
        const uint32_t c = y * s.nx + x;
        for (uint32_t k = s.cell_start[c]; k < s.cell_start[c + 1]; ++k) {
            const WallSegment& w = s.walls[s.cell_walls[k]];
            if (segmentSegmentDistance(a, b, w.a, w.b) < limit) return false;
        }
        return true;
    });
}

} // namespace

bool pointFree(const FreeSpace& s, Vec2 p) {
    return insideFootprint(s, p) && segmentClearOf(s, p, p, s.radius - kPlanTolerance);
}

bool segmentFree(const FreeSpace& s, Vec2 a, Vec2 b) {
    // A clear segment (radius > 0) never crosses a ring, so it stays inside when a is inside.
    return insideFootprint(s, a) && segmentClearOf(s, a, b, s.radius - kPlanTolerance);
}

size_t bytesOf(const FreeSpace& s) {
    using baselines::vectorBytes;
    return sizeof(FreeSpace) + vectorBytes(s.walls) + vectorBytes(s.cell_start) + vectorBytes(s.cell_walls) +
           vectorBytes(s.row_start) + vectorBytes(s.row_walls);
}

const char* planStatusString(PlanStatus status) {
    switch (status) {
    case PlanStatus::Ok:
        return "ok";
    case PlanStatus::StartBlocked:
        return "start is not in free space";
    case PlanStatus::GoalBlocked:
        return "goal is not in free space";
    case PlanStatus::NoPath:
        return "no path";
    case PlanStatus::LocalMinimum:
        return "stuck in a local minimum";
    case PlanStatus::StepLimit:
        return "step limit reached";
    }
    return "unknown";
}

} // namespace clearway::bake
