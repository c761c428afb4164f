// A layer's solid walls: its footprint walls less the stretches that open onto another layer
// (portals), which the roadmap's clearance does not count.
#include <clearway/bake.h>
#include <clearway/bake/geometry.h>

#include <utility>
#include <vector>

namespace clearway::bake {

using namespace geometry;

std::vector<WallSegment> solidLayerWalls(const Footprint& fp, uint32_t layer) {
    // Subtract every portal interval from the walls collinear with it (a ring edge may run on past
    // the portal: the upper floor's edge continues beside the stair top).
    const double tol = 1e-3;
    std::vector<WallSegment> out;
    for (const WallSegment& wall : layerWalls(fp.layers[layer])) {
        const double len = dist(wall.a, wall.b);
        std::vector<std::pair<double, double>> keep{{0.0, len}};
        if (len > 0)
            for (const Connection& c : fp.connections) {
                if (c.layer_a != layer && c.layer_b != layer) continue;
                if (pointSegmentDistance(c.p0, wall.a, wall.b) > tol ||
                    pointSegmentDistance(c.p1, wall.a, wall.b) > tol)
                    continue;
                const Vec2 u{(wall.b.x - wall.a.x) / len, (wall.b.y - wall.a.y) / len};
                double t0 = (c.p0.x - wall.a.x) * u.x + (c.p0.y - wall.a.y) * u.y;
                double t1 = (c.p1.x - wall.a.x) * u.x + (c.p1.y - wall.a.y) * u.y;
                if (t1 < t0) std::swap(t0, t1);
                std::vector<std::pair<double, double>> next;
                for (const auto& [k0, k1] : keep) {
                    if (t1 <= k0 || t0 >= k1) {
                        next.push_back({k0, k1});
                        continue;
                    }
                    if (t0 - k0 > tol) next.push_back({k0, t0});
                    if (k1 - t1 > tol) next.push_back({t1, k1});
                }
                keep = std::move(next);
            }
        for (const auto& [k0, k1] : keep) {
            const Vec2 u{(wall.b.x - wall.a.x) / std::max(len, 1e-300),
                         (wall.b.y - wall.a.y) / std::max(len, 1e-300)};
            out.push_back(
                {{wall.a.x + u.x * k0, wall.a.y + u.y * k0}, {wall.a.x + u.x * k1, wall.a.y + u.y * k1}});
        }
    }
    return out;
}

} // namespace clearway::bake
