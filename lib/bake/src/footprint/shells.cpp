// Footprint stage 1, before classification: closed shells of the mesh (every edge shared by
// exactly two faces) wound consistently and outward, so a solid counts as solid whatever the
// winding its faces were exported with.
#include "footprint/footprint_internal.h"

#include <numeric>
#include <tuple>

namespace clearway::bake::footprint_internal {

namespace {

// Corners at the same position get one id (exporters split vertices by normal or UV).
std::vector<uint32_t> weldedCorners(const Mesh& mesh) {
    std::vector<uint32_t> order(mesh.positions.size());
    std::iota(order.begin(), order.end(), 0u);
    const auto less = [&](uint32_t a, uint32_t b) {
        const Vec3 &p = mesh.positions[a], &q = mesh.positions[b];
        return std::tie(p.x, p.y, p.z, a) < std::tie(q.x, q.y, q.z, b);
    };
    std::sort(order.begin(), order.end(), less);
    std::vector<uint32_t> welded(mesh.positions.size());
    uint32_t id = 0;
    for (size_t k = 0; k < order.size(); ++k) {
        const Vec3 &p = mesh.positions[order[k]], &q = mesh.positions[order[k > 0 ? k - 1 : 0]];
        if (k > 0 && (p.x != q.x || p.y != q.y || p.z != q.z)) ++id;
        welded[order[k]] = id;
    }
    std::vector<uint32_t> ids(mesh.indices.size());
    for (size_t c = 0; c < ids.size(); ++c)
        ids[c] = welded[mesh.indices[c]];
    return ids;
}

// An undirected edge of a triangle, `forward` when the triangle runs it from lo to hi.
struct EdgeUse {
    uint32_t lo, hi, triangle;
    bool forward;
    bool operator<(const EdgeUse& o) const { return std::tie(lo, hi, triangle) < std::tie(o.lo, o.hi, o.triangle); }
};

// A triangle's neighbour across a manifold edge, and whether the two run it the same way (so one
// must turn over for the shell to be wound consistently).
struct ShellLink {
    uint32_t other;
    bool same_direction;
};

struct ShellGraph {
    std::vector<std::vector<ShellLink>> links; // per triangle
    std::vector<bool> open;               // per triangle: touches a border or non-manifold edge
};

ShellGraph shellGraph(const Mesh& mesh, const std::vector<uint32_t>& ids) {
    const size_t count = mesh.triangleCount();
    ShellGraph graph{std::vector<std::vector<ShellLink>>(count), std::vector<bool>(count, false)};
    std::vector<EdgeUse> uses;
    uses.reserve(3 * count);
    for (uint32_t t = 0; t < count; ++t) {
        const uint32_t v[3] = {ids[3 * t], ids[3 * t + 1], ids[3 * t + 2]};
        if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) {
            graph.open[t] = true; // collapsed: no part of a shell
            continue;
        }
        for (int k = 0; k < 3; ++k) {
            const uint32_t a = v[k], b = v[(k + 1) % 3];
            uses.push_back({std::min(a, b), std::max(a, b), t, a < b});
        }
    }
    std::sort(uses.begin(), uses.end());
    for (size_t i = 0; i < uses.size();) {
        size_t j = i;
        while (j < uses.size() && uses[j].lo == uses[i].lo && uses[j].hi == uses[i].hi)
            ++j;
        if (j - i == 2) {
            const EdgeUse &a = uses[i], &b = uses[i + 1];
            graph.links[a.triangle].push_back({b.triangle, a.forward == b.forward});
            graph.links[b.triangle].push_back({a.triangle, a.forward == b.forward});
        } else {
            for (size_t k = i; k < j; ++k)
                graph.open[uses[k].triangle] = true;
        }
        i = j;
    }
    return graph;
}

// Six times the signed volume a triangle spans with `o` (positive when its normal faces away).
double signedVolume(const Mesh& mesh, uint32_t t, const Vec3& o) {
    Vec3 p[3];
    for (int k = 0; k < 3; ++k) {
        const Vec3& q = mesh.positions[mesh.indices[3 * t + k]];
        p[k] = {q.x - o.x, q.y - o.y, q.z - o.z};
    }
    return p[0].x * (p[1].y * p[2].z - p[1].z * p[2].y) - p[0].y * (p[1].x * p[2].z - p[1].z * p[2].x) +
           p[0].z * (p[1].x * p[2].y - p[1].y * p[2].x);
}

} // namespace

std::vector<bool> outwardShellFlips(const Mesh& mesh) {
    const std::vector<uint32_t> ids = weldedCorners(mesh);
    const ShellGraph graph = shellGraph(mesh, ids);
    const size_t count = mesh.triangleCount();
    std::vector<bool> flips(count, false), seen(count, false);
    std::vector<uint32_t> shell;
    for (uint32_t start = 0; start < count; ++start) {
        if (seen[start]) continue;
        // Walk the connected triangles, turning each to agree with the one it was reached from.
        shell.assign(1, start);
        seen[start] = true;
        bool closed = true, consistent = true;
        for (size_t k = 0; k < shell.size(); ++k) {
            const uint32_t t = shell[k];
            closed = closed && !graph.open[t];
            for (const ShellLink& link : graph.links[t]) {
                const bool flip = flips[t] != link.same_direction;
                if (!seen[link.other]) {
                    seen[link.other] = true;
                    flips[link.other] = flip;
                    shell.push_back(link.other);
                } else if (flips[link.other] != flip) {
                    consistent = false; // one-sided (a Moebius strip): no outside to face
                }
            }
        }
        // Outward: positive volume. A flat shell (a two-sided plane) has none: left as authored.
        const Vec3& o = mesh.positions[mesh.indices[3 * start]];
        double volume = 0, magnitude = 0;
        for (uint32_t t : shell) {
            const double v = signedVolume(mesh, t, o);
            volume += flips[t] ? -v : v;
            magnitude += std::abs(v);
        }
        const bool turn = closed && consistent && std::abs(volume) > 1e-9 * magnitude;
        for (uint32_t t : shell)
            flips[t] = turn && (flips[t] != (volume < 0));
    }
    return flips;
}

} // namespace clearway::bake::footprint_internal
