// Footprint stage 6: walkable links between pieces of different layers become connections
// (portals), merged into maximal collinear portals per layer pair.
#include "footprint/footprint_internal.h"

#include <tuple>

namespace clearway::bake::footprint_internal {

namespace {

// One connection per walkable link between layers, sorted by layer pair and position.
std::vector<Connection> linkConnections(const std::vector<Piece>& pieces, const std::vector<Link>& links,
                                        const std::vector<uint32_t>& layer_of,
                                        const std::vector<Plane>& planes) {
    std::vector<Connection> raw;
    for (const Link& link : links) {
        if (!link.walkable || layer_of[link.a] == layer_of[link.b]) continue;
        Connection c;
        uint32_t pa = link.a, pb = link.b;
        if (layer_of[pa] > layer_of[pb]) std::swap(pa, pb);
        c.layer_a = layer_of[pa];
        c.layer_b = layer_of[pb];
        c.p0 = link.p0;
        c.p1 = link.p1;
        if (c.p1.x < c.p0.x || (c.p1.x == c.p0.x && c.p1.y < c.p0.y)) std::swap(c.p0, c.p1);
        const Plane& A = planes[pieces[pa].tri];
        const Plane& B = planes[pieces[pb].tri];
        c.z_a0 = A.at(c.p0.x, c.p0.y), c.z_a1 = A.at(c.p1.x, c.p1.y);
        c.z_b0 = B.at(c.p0.x, c.p0.y), c.z_b1 = B.at(c.p1.x, c.p1.y);
        raw.push_back(c);
    }
    std::sort(raw.begin(), raw.end(), [](const Connection& a, const Connection& b) {
        return std::tie(a.layer_a, a.layer_b, a.p0.x, a.p0.y, a.p1.x, a.p1.y) <
               std::tie(b.layer_a, b.layer_b, b.p0.x, b.p0.y, b.p1.x, b.p1.y);
    });
    return raw;
}

} // namespace

std::vector<Connection> buildConnections(const std::vector<Piece>& pieces, const std::vector<Link>& links,
                                         const std::vector<uint32_t>& layer_of,
                                         const std::vector<Plane>& planes) {
    const std::vector<Connection> raw = linkConnections(pieces, links, layer_of, planes);
    std::vector<Connection> connections;
    std::vector<bool> used(raw.size(), false);
    for (size_t i = 0; i < raw.size(); ++i) {
        if (used[i]) continue;
        Connection c = raw[i];
        used[i] = true;
        for (bool grown = true; grown;) {
            grown = false;
            for (size_t j = i + 1;
                 j < raw.size() && raw[j].layer_a == c.layer_a && raw[j].layer_b == c.layer_b; ++j) {
                if (used[j]) continue;
                const Connection& d = raw[j];
                const double ux = c.p1.x - c.p0.x, uy = c.p1.y - c.p0.y, len = std::hypot(ux, uy);
                const double off0 = std::abs((d.p0.x - c.p0.x) * uy - (d.p0.y - c.p0.y) * ux) / len;
                const double off1 = std::abs((d.p1.x - c.p0.x) * uy - (d.p1.y - c.p0.y) * ux) / len;
                if (off0 > kEdgeTolerance || off1 > kEdgeTolerance) continue;
                if (std::hypot(d.p0.x - c.p1.x, d.p0.y - c.p1.y) <= kEdgeTolerance) {
                    c.p1 = d.p1, c.z_a1 = d.z_a1, c.z_b1 = d.z_b1;
                } else if (std::hypot(d.p1.x - c.p0.x, d.p1.y - c.p0.y) <= kEdgeTolerance) {
                    c.p0 = d.p0, c.z_a0 = d.z_a0, c.z_b0 = d.z_b0;
                } else {
                    continue;
                }
                used[j] = true;
                grown = true;
            }
        }
        connections.push_back(c);
    }
    return connections;
}

} // namespace clearway::bake::footprint_internal
