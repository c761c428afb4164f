// Import checks on the triangle soup both loaders produce: coordinates too far from the origin
// for the single-precision floats Assimp parsed them into, and exact duplicate triangles.
#include <clearway/bake.h>

#include "import/import_internal.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace clearway::bake::detail {

Error checkFloatPrecision(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                          const ImportOptions& options, const std::string& name) {
    double farthest = 0;
    for (uint32_t index : indices) {
        const Vec3& p = world_positions[index];
        farthest = std::max({farthest, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
    }
    if (farthest == 0) return {};
    // Floats keep 24 significant bits: neighbours at `farthest` are 2^(exponent - 23) apart.
    const double spacing = std::ldexp(1.0, std::ilogb(farthest) - 23) * options.scale;
    if (spacing <= options.epsilon / 4) return {};
    char text[512];
    std::snprintf(text, sizeof text,
                  ": vertices lie up to %.6g m from the origin, where the importer's single-precision "
                  "coordinates are %.6g m apart (a wall may already be %.6g m off), coarser than a quarter "
                  "of --epsilon %.6g m. Recentre the level near the origin, export it as tiles each near "
                  "its own origin, or raise --epsilon",
                  farthest * options.scale, spacing, spacing / 2, options.epsilon);
    return {ErrorCode::InvalidOption, name + text};
}

size_t dropDuplicateTriangles(const std::vector<Vec3>& positions, std::vector<uint32_t>* indices) {
    // A triangle's key is its corners in winding order, starting at the smallest: every rotation
    // matches, the reverse winding does not. The footprint reads facing (a floor's up side is
    // walkable, a solid's inside is behind its faces), so both sides of a double-sided wall or
    // floor are kept; n copies still shrink to at most two.
    using Key = std::array<double, 9>;
    const size_t count = indices->size() / 3;
    auto less = [](const Vec3& a, const Vec3& b) {
        return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.z < b.z;
    };
    auto keyOf = [&](size_t t) {
        Vec3 corners[3];
        for (int k = 0; k < 3; ++k) {
            const Vec3& p = positions[(*indices)[3 * t + k]];
            corners[k] = {p.x + 0.0, p.y + 0.0, p.z + 0.0}; // -0 becomes +0: equal values, equal bits
        }
        const int first = less(corners[1], corners[0]) ? (less(corners[2], corners[1]) ? 2 : 1)
                                                       : (less(corners[2], corners[0]) ? 2 : 0);
        Key key;
        for (int k = 0; k < 3; ++k) {
            const Vec3& c = corners[(first + k) % 3];
            key[3 * k] = c.x, key[3 * k + 1] = c.y, key[3 * k + 2] = c.z;
        }
        return key;
    };
    // Sorting (hash, index) pairs needs 16 bytes a triangle, not a hash set of keys; within a run
    // of equal hashes the first triangle in file order is kept.
    std::vector<std::pair<uint64_t, uint32_t>> order(count);
    for (size_t t = 0; t < count; ++t) {
        const Key key = keyOf(t);
        order[t] = {fnv1a64(key.data(), sizeof key), uint32_t(t)};
    }
    std::sort(order.begin(), order.end());
    std::vector<bool> dropped(count, false);
    for (size_t run = 0; run < count;) {
        size_t end = run + 1;
        while (end < count && order[end].first == order[run].first)
            ++end;
        for (size_t i = run; i < end; ++i) {
            if (dropped[order[i].second]) continue;
            const Key kept = keyOf(order[i].second);
            for (size_t j = i + 1; j < end; ++j)
                if (!dropped[order[j].second] && keyOf(order[j].second) == kept) dropped[order[j].second] = true;
        }
        run = end;
    }
    size_t kept = 0;
    for (size_t t = 0; t < count; ++t) {
        if (dropped[t]) continue;
        for (int k = 0; k < 3; ++k)
            (*indices)[3 * kept + k] = (*indices)[3 * t + k];
        ++kept;
    }
    indices->resize(3 * kept);
    return count - kept;
}

} // namespace clearway::bake::detail
