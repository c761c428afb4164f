// Topology comparison: checks a stitched world against the untiled bake, "the same roadmap up to
// subdivision" (junctions and the chains between them matched within tolerances).
#include "tiles/tiles_internal.h"

#include <map>
#include <unordered_map>

namespace clearway::bake {

using namespace tiling;

namespace {

struct Chain {
    uint32_t from, to; // junctions (UINT32_MAX for a loop without one)
    double min_clearance;
};

void junctionsAndChains(const Roadmap& rm, std::vector<uint32_t>* junctions, std::vector<Chain>* chains) {
    std::vector<std::vector<uint32_t>> incident(rm.vertices.size());
    for (uint32_t e = 0; e < rm.edges.size(); ++e) {
        incident[rm.edges[e].a].push_back(e);
        incident[rm.edges[e].b].push_back(e);
    }
    std::vector<bool> junction(rm.vertices.size(), false), visited(rm.edges.size(), false);
    for (uint32_t v = 0; v < rm.vertices.size(); ++v)
        if (incident[v].size() != 2) junction[v] = true, junctions->push_back(v);
    auto walk = [&](uint32_t start, uint32_t e) {
        Chain c{start, UINT32_MAX, INFINITY};
        uint32_t v = start;
        while (!visited[e]) {
            visited[e] = true;
            c.min_clearance = std::min(c.min_clearance, rm.edges[e].min_clearance);
            v = rm.edges[e].a == v ? rm.edges[e].b : rm.edges[e].a;
            if (junction[v]) break;
            e = incident[v][0] == e ? incident[v][1] : incident[v][0];
        }
        c.to = junction[v] ? v : UINT32_MAX;
        if (!junction[start]) c.from = UINT32_MAX;
        return c;
    };
    for (uint32_t v : *junctions)
        for (uint32_t e : incident[v])
            if (!visited[e]) chains->push_back(walk(v, e));
    for (uint32_t e = 0; e < rm.edges.size(); ++e)
        if (!visited[e]) chains->push_back(walk(rm.edges[e].a, e)); // loops without a junction
}

} // namespace

TopologyComparison compareRoadmapTopology(const Roadmap& a, const Roadmap& b,
                                          const TopologyOptions& options) {
    TopologyComparison result;
    std::vector<uint32_t> ja, jb;
    std::vector<Chain> ca, cb;
    junctionsAndChains(a, &ja, &ca);
    junctionsAndChains(b, &jb, &cb);
    result.junctions_a = ja.size(), result.junctions_b = jb.size();
    result.chains_a = ca.size(), result.chains_b = cb.size();
    // b's positions in a's local frame.
    const Vec3 shift{b.footprint.origin.x - a.footprint.origin.x, b.footprint.origin.y - a.footprint.origin.y,
                     b.footprint.origin.z - a.footprint.origin.z};
    auto posB = [&](uint32_t v) {
        const Vec3& p = b.vertices[v].position;
        return Vec3{p.x + shift.x, p.y + shift.y, p.z + shift.z};
    };
    auto note = [&](const std::string& text) {
        if (result.differences.size() < 20) result.differences.push_back(text);
    };
    const double eps = options.position_epsilon;
    std::unordered_map<std::pair<double, double>, std::vector<uint32_t>, PairHash> cells;
    for (uint32_t v : jb) {
        const Vec3 p = posB(v);
        cells[{std::floor(p.x / eps), std::floor(p.y / eps)}].push_back(v);
    }
    std::vector<uint32_t> match_a(a.vertices.size(), UINT32_MAX);
    std::vector<bool> taken(b.vertices.size(), false);
    for (uint32_t v : ja) {
        const Vec3& p = a.vertices[v].position;
        const double cx = std::floor(p.x / eps), cy = std::floor(p.y / eps);
        double best = INFINITY;
        uint32_t chosen = UINT32_MAX;
        for (double dx = -1; dx <= 1; ++dx)
            for (double dy = -1; dy <= 1; ++dy) {
                const auto it = cells.find({cx + dx, cy + dy});
                if (it == cells.end()) continue;
                for (uint32_t u : it->second) {
                    const Vec3 q = posB(u);
                    const double d = std::hypot(p.x - q.x, p.y - q.y);
                    if (taken[u] || d > eps || std::abs(p.z - q.z) > options.height_epsilon ||
                        std::abs(a.vertices[v].clearance - b.vertices[u].clearance) >
                            options.clearance_epsilon)
                        continue;
                    if (d < best) best = d, chosen = u;
                }
            }
        if (chosen == UINT32_MAX) {
            ++result.unmatched_junctions;
            note("junction at (" + num(p.x) + ", " + num(p.y) + ", " + num(p.z) + ") clearance " +
                 num(a.vertices[v].clearance) + " only in the first roadmap");
            continue;
        }
        taken[chosen] = true;
        match_a[v] = chosen;
        result.max_position_error = std::max(result.max_position_error, best);
        result.max_clearance_error = std::max(
            result.max_clearance_error, std::abs(a.vertices[v].clearance - b.vertices[chosen].clearance));
    }
    for (uint32_t u : jb)
        if (!taken[u]) {
            ++result.unmatched_junctions;
            const Vec3 q = posB(u);
            note("junction at (" + num(q.x) + ", " + num(q.y) + ", " + num(q.z) + ") clearance " +
                 num(b.vertices[u].clearance) + " only in the second roadmap");
        }
    // Chains by their (b-side) end junctions; loops under a common key.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<double>> chains_b;
    for (const Chain& c : cb)
        chains_b[{std::min(c.from, c.to), std::max(c.from, c.to)}].push_back(c.min_clearance);
    for (auto& [key, list] : chains_b)
        std::sort(list.begin(), list.end());
    for (const Chain& c : ca) {
        const uint32_t f = c.from == UINT32_MAX ? UINT32_MAX : match_a[c.from];
        const uint32_t t = c.to == UINT32_MAX ? UINT32_MAX : match_a[c.to];
        auto it = chains_b.find({std::min(f, t), std::max(f, t)});
        bool found = false;
        if ((c.from == UINT32_MAX || f != UINT32_MAX) && (c.to == UINT32_MAX || t != UINT32_MAX) &&
            it != chains_b.end()) {
            std::vector<double>& list = it->second;
            size_t best = list.size();
            for (size_t k = 0; k < list.size(); ++k)
                if (std::abs(list[k] - c.min_clearance) <= options.clearance_epsilon &&
                    (best == list.size() ||
                     std::abs(list[k] - c.min_clearance) < std::abs(list[best] - c.min_clearance)))
                    best = k;
            if (best < list.size()) {
                result.max_clearance_error =
                    std::max(result.max_clearance_error, std::abs(list[best] - c.min_clearance));
                list.erase(list.begin() + best);
                found = true;
            }
        }
        if (!found) {
            ++result.unmatched_chains;
            const Vec3 p = c.from == UINT32_MAX ? Vec3{} : a.vertices[c.from].position;
            note("chain from (" + num(p.x) + ", " + num(p.y) + ") min clearance " + num(c.min_clearance) +
                 " only in the first roadmap");
        }
    }
    for (const auto& [key, list] : chains_b)
        for (double clearance : list) {
            ++result.unmatched_chains;
            const Vec3 p = key.first == UINT32_MAX ? Vec3{} : posB(key.first);
            note("chain from (" + num(p.x) + ", " + num(p.y) + ") min clearance " + num(clearance) +
                 " only in the second roadmap");
        }
    result.equal = result.unmatched_junctions == 0 && result.unmatched_chains == 0;
    return result;
}

} // namespace clearway::bake
