// Import checks on the triangle soup the loaders produce: coordinates too far from the origin for
// the precision they were parsed at (float by Assimp, double by the OBJ reader), vertices a hair
// apart, and exact duplicate triangles.
#include <clearway/bake.h>

#include "core/flat_table.h"
#include "core/union_find.h"
#include "import/import_internal.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace clearway::bake::detail {

Error checkParsedPrecision(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                           ParsedPrecision precision, const ImportOptions& options, const std::string& name) {
    double farthest = 0;
    for (uint32_t index : indices) {
        const Vec3& p = world_positions[index];
        farthest = std::max({farthest, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
    }
    if (farthest == 0) return {};
    // Floats keep 24 significant bits, doubles 53: neighbours at `farthest` are 2^(exponent - 23)
    // (or 2^(exponent - 52)) apart.
    const int fraction_bits = precision == ParsedPrecision::Float ? 23 : 52;
    const double spacing = std::ldexp(1.0, std::ilogb(farthest) - fraction_bits) * options.scale;
    if (spacing <= options.epsilon / 4) return {};
    char text[512];
    std::snprintf(text, sizeof text,
                  ": vertices lie up to %.6g m from the origin, where the importer's %s-precision "
                  "coordinates are %.6g m apart (a wall may already be %.6g m off), coarser than a quarter "
                  "of --epsilon %.6g m. Recentre the level near the origin, export it as tiles each near "
                  "its own origin, or raise --epsilon",
                  farthest * options.scale, precision == ParsedPrecision::Float ? "single" : "double", spacing,
                  spacing / 2, options.epsilon);
    return {ErrorCode::InvalidOption, name + text};
}

namespace {

struct Cell {
    int64_t x, y, z;
    bool operator==(const Cell& o) const { return x == o.x && y == o.y && z == o.z; }
};
// A mix of the three cell numbers. The weld looks up 62 neighbour cells per vertex, nearly all
// empty: the table and its hash are most of its time (a node-based map hashed byte-wise was a
// quarter of a fine grid's bake). The classes the weld finds do not depend on either.
struct CellHash {
    uint64_t operator()(const Cell& c) const {
        return mixBits(uint64_t(c.x) * 0x9E3779B97F4A7C15ull ^ uint64_t(c.y) * 0xC2B2AE3D27D4EB4Full ^
                       uint64_t(c.z) * 0x165667B19E3779F9ull);
    }
};
using CellTable = FlatTable<Cell, uint32_t, CellHash>;

double squaredDistance(const Vec3& a, const Vec3& b) {
    const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return dx * dx + dy * dy + dz * dz;
}

bool samePosition(const Vec3& a, const Vec3& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

constexpr uint32_t kNoVertex = UINT32_MAX;

// The vertices `indices` use, in a hash grid of cubes `size` wide: cell -> one vertex in it, and
// `next` chains the others. False when a coordinate's cell number would not fit an integer.
bool gridOfUsedVertices(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices, double size,
                        CellTable* grid, std::vector<uint32_t>* next) {
    next->assign(positions.size(), kNoVertex);
    std::vector<bool> seen(positions.size(), false);
    for (uint32_t v : indices) {
        if (seen[v]) continue;
        seen[v] = true;
        const Vec3& p = positions[v];
        const double cx = std::floor(p.x / size), cy = std::floor(p.y / size), cz = std::floor(p.z / size);
        if (std::max({std::abs(cx), std::abs(cy), std::abs(cz)}) > 0x1p60) return false;
        bool inserted = false;
        uint32_t& first = grid->emplace(Cell{int64_t(cx), int64_t(cy), int64_t(cz)}, v, &inserted);
        if (!inserted) (*next)[v] = first, first = v;
    }
    return true;
}

// Whether no other occupied cell lies within two cells of each occupied cell, per cell: occupied
// cells are counted per block of 5 x 5 x 5 cells, and a cell alone in the blocks its
// neighbourhood meets (most cells of a mesh without close vertices) needs no neighbour lookups.
class LoneCells {
  public:
    LoneCells(const CellTable& grid, size_t cells) : blocks_(cells) {
        grid.forEach([&](const Cell& cell, uint32_t) {
            bool inserted = false;
            uint32_t& count =
                blocks_.emplace({blockOf(cell.x), blockOf(cell.y), blockOf(cell.z)}, 0, &inserted);
            ++count;
        });
    }
    bool alone(const Cell& cell) const {
        uint32_t occupied = 0;
        for (int64_t bx = blockOf(cell.x - 2); bx <= blockOf(cell.x + 2); ++bx)
            for (int64_t by = blockOf(cell.y - 2); by <= blockOf(cell.y + 2); ++by)
                for (int64_t bz = blockOf(cell.z - 2); bz <= blockOf(cell.z + 2); ++bz)
                    if (const uint32_t* count = blocks_.find({bx, by, bz})) occupied += *count;
        return occupied == 1;
    }

  private:
    static constexpr int64_t kBlock = 5;
    static int64_t blockOf(int64_t c) { return c >= 0 ? c / kBlock : -((-c + kBlock - 1) / kBlock); }
    CellTable blocks_;
};

// Joins every two used vertices within `tolerance` (transitively). Cells are tolerance / sqrt(3)
// wide, so a cell's vertices are all within tolerance of each other and join without a distance
// test; a cell pair is scanned only until its first join (after it, both cells are one class).
// n vertices stacked in one spot then cost O(n), not O(n^2).
void joinCloseVertices(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices,
                       double tolerance, UnionFind* classes) {
    const double size = tolerance / std::sqrt(3.0);
    CellTable grid(positions.size());
    std::vector<uint32_t> next;
    if (!gridOfUsedVertices(positions, indices, size, &grid, &next)) return;
    grid.forEach([&](const Cell&, uint32_t first) {
        for (uint32_t v = next[first]; v != kNoVertex; v = next[v])
            classes->join(first, v);
    });
    const LoneCells lone(grid, positions.size());
    const double limit = tolerance * tolerance;
    grid.forEach([&](const Cell& cell, uint32_t first) {
        if (lone.alone(cell)) return;
        // Points up to tolerance = sqrt(3) cells apart lie at most two cells away; each cell pair
        // once (the neighbour after this cell in x, then y, then z order).
        for (int64_t dx = 0; dx <= 2; ++dx)
            for (int64_t dy = dx == 0 ? 0 : -2; dy <= 2; ++dy)
                for (int64_t dz = dx == 0 && dy == 0 ? 1 : -2; dz <= 2; ++dz) {
                    const uint32_t* other = grid.find({cell.x + dx, cell.y + dy, cell.z + dz});
                    if (!other || classes->find(first) == classes->find(*other)) continue;
                    bool joined = false;
                    for (uint32_t a = first; a != kNoVertex && !joined; a = next[a])
                        for (uint32_t b = *other; b != kNoVertex && !joined; b = next[b])
                            if (squaredDistance(positions[a], positions[b]) <= limit) {
                                classes->join(a, b);
                                joined = true;
                            }
                }
    });
}

} // namespace

WeldSummary weldCloseVertices(const std::vector<Vec3>& positions, double tolerance,
                              std::vector<uint32_t>* indices) {
    WeldSummary summary;
    if (!(tolerance > 0) || indices->empty()) return summary;
    UnionFind classes(positions.size());
    joinCloseVertices(positions, *indices, tolerance, &classes);
    // A corner moves only when its representative (the class's lowest index) sits elsewhere:
    // vertices at one position keep their own indices, so a mesh without close pairs keeps every
    // index it had.
    std::vector<bool> counted(positions.size(), false);
    const size_t count = indices->size() / 3;
    size_t kept = 0;
    for (size_t t = 0; t < count; ++t) {
        uint32_t corner[3];
        for (int k = 0; k < 3; ++k) {
            const uint32_t v = (*indices)[3 * t + k], representative = classes.find(v);
            corner[k] = samePosition(positions[v], positions[representative]) ? v : representative;
            if (corner[k] == v || counted[v]) continue;
            counted[v] = true;
            ++summary.welded_vertices;
            summary.farthest_move = std::max(
                summary.farthest_move, std::sqrt(squaredDistance(positions[v], positions[representative])));
        }
        const uint32_t* before = &(*indices)[3 * t];
        bool collapsed = false;
        for (int k = 0; k < 3; ++k) {
            const int l = (k + 1) % 3;
            collapsed = collapsed || (samePosition(positions[corner[k]], positions[corner[l]]) &&
                                      !samePosition(positions[before[k]], positions[before[l]]));
        }
        if (collapsed) {
            ++summary.collapsed_triangles;
            continue;
        }
        for (int k = 0; k < 3; ++k)
            (*indices)[3 * kept + k] = corner[k];
        ++kept;
    }
    indices->resize(3 * kept);
    return summary;
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
    // The hash mixes the key word by word (which triangles are dropped does not depend on it).
    auto hashOf = [](const Key& key) {
        uint64_t h = 0;
        for (double value : key) {
            uint64_t bits = 0;
            std::memcpy(&bits, &value, sizeof bits);
            h = (h ^ bits) * 0x9E3779B97F4A7C15ull;
            h ^= h >> 31;
        }
        return h;
    };
    std::vector<std::pair<uint64_t, uint32_t>> order(count);
    for (size_t t = 0; t < count; ++t)
        order[t] = {hashOf(keyOf(t)), uint32_t(t)};
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
                if (!dropped[order[j].second] && keyOf(order[j].second) == kept)
                    dropped[order[j].second] = true;
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
