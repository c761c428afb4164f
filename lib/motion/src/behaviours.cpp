// Steering behaviours as goodness functions of a path segment (Go et al. 2004, section 3.1), and the
// multi-resolution sphere hash behind AvoidCollision.
#include <clearway/motion.h>

#include <cmath>
#include <cstring>

namespace clearway {
namespace trims {
namespace {

Vec3f sub(Vec3f a, Vec3f b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3f add(Vec3f a, Vec3f b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3f scaled(Vec3f a, float s) {
    return {a.x * s, a.y * s, a.z * s};
}
float dot(Vec3f a, Vec3f b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
float length(Vec3f a) {
    return std::sqrt(dot(a, a));
}

float clamp01(float g) {
    if (!(g > 0.0f)) return 0.0f; // also NaN
    return g > 1.0f ? 1.0f : g;
}

// Unit vector, or `fallback` for a (near) zero vector.
Vec3f unitOr(Vec3f v, Vec3f fallback) {
    const float n = length(v);
    return n > 1e-12f ? scaled(v, 1.0f / n) : fallback;
}

// The paper's Seek formula towards direction u (unit) from the segment's end:
// 1/4 (1 + d1^ . u)(1 + (p1 - p0)^ . u).
float towards(const Segment& s, Vec3f u) {
    const Vec3f facing = unitOr(s.d1, facingOf(s.q1));
    // A zero-length segment (speed 0) moves nowhere: judge it by where it faces.
    const Vec3f motion = unitOr(sub(s.p1, s.p0), facing);
    return clamp01(0.25f * (1.0f + dot(facing, u)) * (1.0f + dot(motion, u)));
}

float seekPoint(const Segment& s, Vec3f target) {
    const Vec3f to = sub(target, s.p1);
    if (length(to) <= 1e-6f) return 1.0f; // arrived
    return towards(s, scaled(to, 1.0f / length(to)));
}

float fleePoint(const Segment& s, Vec3f threat, float safe_distance) {
    const Vec3f away = sub(s.p1, threat);
    const float distance = length(away);
    if (safe_distance > 0.0f && distance >= safe_distance) return 1.0f;
    if (distance <= 1e-6f) return 0.0f; // caught
    return towards(s, scaled(away, 1.0f / distance));
}

// Linear prediction: where the target is when the segment ends.
Vec3f predicted(Vec3f position, Vec3f velocity, const Segment& s) {
    return add(position, scaled(velocity, s.time + s.duration));
}

// ---- sphere hash ----

struct Cell {
    int32_t ix, iy, iz;
    uint32_t level; // UINT32_MAX: empty slot
    uint32_t first, count;
};
static_assert(sizeof(Cell) == 24, "cell records are packed");

constexpr uint32_t kEmpty = 0xffffffffu;
constexpr uint32_t kMaxLevels = 16;
constexpr int64_t kMaxCellsPerSphere = 4096;
constexpr double kMaxCoordinate = 1e9; // cells: |coordinate / min_cell| fits int32 with room to spare

bool validSettings(const SphereHashSettings& s) {
    return std::isfinite(s.min_cell) && s.min_cell > 0.0f && s.levels >= 1 && s.levels <= kMaxLevels &&
           std::isfinite(s.horizon) && s.horizon >= 0.0f;
}

// A moving sphere's sweep over [0, horizon] fits in this static sphere.
struct Bound {
    double c[3];
    double r;
};
bool boundOf(const Sphere& sp, float horizon, Bound* out) {
    const float v[7] = {sp.center.x,   sp.center.y,   sp.center.z,  sp.radius,
                        sp.velocity.x, sp.velocity.y, sp.velocity.z};
    for (float x : v)
        if (!std::isfinite(x)) return false;
    if (sp.radius < 0.0f) return false;
    const double h = 0.5 * horizon;
    out->c[0] = sp.center.x + sp.velocity.x * h;
    out->c[1] = sp.center.y + sp.velocity.y * h;
    out->c[2] = sp.center.z + sp.velocity.z * h;
    const double speed =
        std::sqrt(double(sp.velocity.x) * sp.velocity.x + double(sp.velocity.y) * sp.velocity.y +
                  double(sp.velocity.z) * sp.velocity.z);
    out->r = sp.radius + speed * h;
    for (double c : out->c)
        if (std::fabs(c) + out->r > kMaxCoordinate) return false;
    return true;
}

// The finest level whose cells are at least the sphere's diameter (else the coarsest).
uint32_t levelFor(const SphereHashSettings& s, double radius) {
    uint32_t level = 0;
    double cell = s.min_cell;
    while (level + 1 < s.levels && cell < 2.0 * radius) {
        cell *= 2.0;
        ++level;
    }
    return level;
}

double cellSize(const SphereHashSettings& s, uint32_t level) {
    return double(s.min_cell) * double(1u << level);
}

struct CellRange {
    int32_t lo[3], hi[3];
};
// Cells covering [lo, hi]; inv_cell = 1 / cell size of the level (a multiply, not a divide, per axis).
CellRange rangeOf(bool planar, double inv_cell, const double lo[3], const double hi[3]) {
    CellRange r{};
    // Clamped so a tiny min_cell cannot overflow the int32 cell coordinates.
    auto index = [inv_cell](double v) {
        const double i = std::floor(v * inv_cell);
        return int32_t(i < -1e9 ? -1e9 : (i > 1e9 ? 1e9 : i));
    };
    for (int a = 0; a < (planar ? 2 : 3); ++a) {
        r.lo[a] = index(lo[a]);
        r.hi[a] = index(hi[a]);
    }
    return r;
}
CellRange rangeOf(const SphereHashSettings& s, uint32_t level, const double lo[3], const double hi[3]) {
    return rangeOf(s.planar, 1.0 / cellSize(s, level), lo, hi);
}
int64_t cellsIn(const CellRange& r) {
    return int64_t(r.hi[0] - r.lo[0] + 1) * int64_t(r.hi[1] - r.lo[1] + 1) * int64_t(r.hi[2] - r.lo[2] + 1);
}

CellRange sphereRange(const SphereHashSettings& s, const Bound& b, uint32_t* level) {
    *level = levelFor(s, b.r);
    const double lo[3] = {b.c[0] - b.r, b.c[1] - b.r, b.c[2] - b.r};
    const double hi[3] = {b.c[0] + b.r, b.c[1] + b.r, b.c[2] + b.r};
    return rangeOf(s, *level, lo, hi);
}

uint32_t hashCell(int32_t x, int32_t y, int32_t z, uint32_t level) {
    uint64_t h = uint64_t(uint32_t(x)) * 0x9E3779B97F4A7C15ull;
    h ^= uint64_t(uint32_t(y)) * 0xC2B2AE3D27D4EB4Full;
    h ^= uint64_t(uint32_t(z)) * 0x165667B19E3779F9ull;
    h ^= uint64_t(level) * 0x27D4EB2F165667C5ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return uint32_t(h);
}

// Counts (sphere, cell) entries; -1 for invalid input.
int64_t countEntries(const Sphere* spheres, uint32_t count, const SphereHashSettings& s) {
    int64_t entries = 0;
    for (uint32_t i = 0; i < count; ++i) {
        Bound b;
        if (!boundOf(spheres[i], s.horizon, &b)) return -1;
        uint32_t level;
        const int64_t n = cellsIn(sphereRange(s, b, &level));
        if (n > kMaxCellsPerSphere) return -1; // add levels or a larger min_cell
        entries += n;
    }
    return entries;
}

uint32_t tableSizeFor(int64_t entries) {
    uint32_t size = 1;
    while (int64_t(size) < 4 * entries) // load <= 1/4: short probes for the many empty cells a query visits
        size <<= 1;
    return size;
}

Cell* findCell(Cell* cells, uint32_t mask, int32_t x, int32_t y, int32_t z, uint32_t level, bool insert) {
    uint32_t i = hashCell(x, y, z, level) & mask;
    while (true) {
        Cell& c = cells[i];
        if (c.level == kEmpty) {
            if (!insert) return nullptr;
            c = Cell{x, y, z, level, 0, 0};
            return &c;
        }
        if (c.level == level && c.ix == x && c.iy == y && c.iz == z) return &c;
        i = (i + 1) & mask;
    }
}

template <typename F> void forEachCell(const CellRange& r, F&& f) {
    for (int32_t z = r.lo[2]; z <= r.hi[2]; ++z)
        for (int32_t y = r.lo[1]; y <= r.hi[1]; ++y)
            for (int32_t x = r.lo[0]; x <= r.hi[0]; ++x)
                f(x, y, z);
}

// Does a point moving p0 -> p1 over [t0, t1] come within `radius` of a sphere moving linearly?
// A segment that starts inside (inflation margins make that happen) only counts when it goes
// deeper: otherwise a vehicle grazing an inflated sphere could never fly out again.
bool touches(const Sphere& sp, Vec3f p0, Vec3f p1, float t0, float t1, float radius) {
    const Vec3f c0 = add(sp.center, scaled(sp.velocity, t0));
    const Vec3f r0 = sub(p0, c0);
    const Vec3f e = sub(sub(p1, p0), scaled(sp.velocity, t1 - t0)); // relative motion
    const float reach = sp.radius + radius;
    if (dot(r0, r0) < reach * reach) return dot(r0, e) < 0.0f;
    const float a = dot(e, e);
    float t = 0.0f;
    if (a > 0.0f) {
        t = -dot(r0, e) / a;
        t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    }
    const Vec3f closest = add(r0, scaled(e, t));
    return dot(closest, closest) < reach * reach;
}

} // namespace

// ---- behaviours ----

float seekGoodness(const Seek& seek, const Segment& s) {
    return seekPoint(s, seek.target);
}
float fleeGoodness(const Flee& flee, const Segment& s) {
    return fleePoint(s, flee.threat, flee.safe_distance);
}
float pursueGoodness(const Pursue& p, const Segment& s) {
    return seekPoint(s, predicted(p.position, p.velocity, s));
}
float avoidGoodness(const Avoid& a, const Segment& s) {
    return fleePoint(s, predicted(a.position, a.velocity, s), a.safe_distance);
}
BehaviourWeight behaviourWeightDefaults() {
    return BehaviourWeight{1.0f, 1.0f};
}
float compositeGoodness(const Composite& c, const Segment& s) {
    float g = 1.0f;
    for (uint32_t i = 0; i < c.count && g > 0.0f; ++i) {
        const Behaviour& part = c.parts[i];
        if (!part.evaluate) continue;
        const BehaviourWeight w = c.weights ? c.weights[i] : behaviourWeightDefaults();
        if (!(w.weight > 0.0f)) continue; // 0 (or a NaN weight) leaves the part out
        // A gain of 1 multiplies exactly and pow runs only when weighted: the defaults give the
        // plain product bit for bit.
        const float value = clamp01(w.gain * part.evaluate(part.context, s));
        g *= w.weight == 1.0f ? value : std::pow(value, w.weight);
    }
    return clamp01(g);
}
float avoidCollisionGoodness(const AvoidCollision& a, const Segment& s) {
    if (!a.hash) return 1.0f;
    return sphereHashHitsSegment(*a.hash, s.p0, s.p1, s.time, s.time + s.duration, a.radius + a.margin)
               ? 0.0f
               : 1.0f;
}

namespace {
template <typename T, float (*F)(const T&, const Segment&)>
float thunk(const void* context, const Segment& s) {
    return F(*static_cast<const T*>(context), s);
}
} // namespace

Behaviour behaviour(const Seek* b) {
    return {&thunk<Seek, seekGoodness>, b};
}
Behaviour behaviour(const Flee* b) {
    return {&thunk<Flee, fleeGoodness>, b};
}
Behaviour behaviour(const Pursue* b) {
    return {&thunk<Pursue, pursueGoodness>, b};
}
Behaviour behaviour(const Avoid* b) {
    return {&thunk<Avoid, avoidGoodness>, b};
}
Behaviour behaviour(const Composite* b) {
    return {&thunk<Composite, compositeGoodness>, b};
}
Behaviour behaviour(const AvoidCollision* b) {
    return {&thunk<AvoidCollision, avoidCollisionGoodness>, b};
}

// ---- sphere hash ----

SphereHashSettings defaultSphereHashSettings() {
    SphereHashSettings s{};
    s.min_cell = 4.0f;
    s.levels = 8;
    s.horizon = 20.0f;
    s.planar = false;
    return s;
}

size_t sphereHashMemorySize(const Sphere* spheres, uint32_t count, const SphereHashSettings& settings) {
    if (!validSettings(settings) || (count > 0 && !spheres)) return 0;
    const int64_t entries = countEntries(spheres, count, settings);
    if (entries < 0 || entries > int64_t(1) << 28) return 0;
    const size_t table = sizeof(Cell) * size_t(tableSizeFor(entries));
    return table + sizeof(uint32_t) * size_t(entries);
}

Status buildSphereHash(const Sphere* spheres, uint32_t count, const SphereHashSettings& settings,
                       void* memory, size_t bytes, SphereHash* out) {
    if (!out) return Status::InvalidArgument;
    *out = SphereHash{};
    const size_t needed = sphereHashMemorySize(spheres, count, settings);
    if (needed == 0 || !memory || reinterpret_cast<uintptr_t>(memory) % 8 != 0)
        return Status::InvalidArgument;
    if (bytes < needed) return Status::BufferTooSmall;
    const int64_t entries = countEntries(spheres, count, settings);
    const uint32_t size = tableSizeFor(entries);
    auto* cells = static_cast<Cell*>(memory);
    auto* list = reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(memory) + sizeof(Cell) * size);
    for (uint32_t i = 0; i < size; ++i)
        cells[i].level = kEmpty;
    const uint32_t mask = size - 1;
    uint32_t level_mask = 0;

    // Counting sort into cells: count, prefix sums, fill (no scratch beyond the table).
    for (uint32_t i = 0; i < count; ++i) {
        Bound b;
        boundOf(spheres[i], settings.horizon, &b);
        uint32_t level;
        const CellRange r = sphereRange(settings, b, &level);
        level_mask |= 1u << level;
        forEachCell(r, [&](int32_t x, int32_t y, int32_t z) {
            ++findCell(cells, mask, x, y, z, level, true)->count;
        });
    }
    uint32_t offset = 0;
    for (uint32_t i = 0; i < size; ++i) {
        if (cells[i].level == kEmpty) continue;
        cells[i].first = offset;
        offset += cells[i].count;
        cells[i].count = 0;
    }
    for (uint32_t i = 0; i < count; ++i) {
        Bound b;
        boundOf(spheres[i], settings.horizon, &b);
        uint32_t level;
        const CellRange r = sphereRange(settings, b, &level);
        forEachCell(r, [&](int32_t x, int32_t y, int32_t z) {
            Cell* c = findCell(cells, mask, x, y, z, level, false);
            list[c->first + c->count++] = i;
        });
    }

    out->spheres = spheres;
    out->sphere_count = count;
    out->settings = settings;
    out->cells = cells;
    out->entries = list;
    out->cell_mask = mask;
    out->level_mask = level_mask;
    return Status::Ok;
}

bool sphereHashHitsSegment(const SphereHash& hash, Vec3f p0, Vec3f p1, float t0, float t1, float radius) {
    if (!hash.cells || hash.level_mask == 0) return false;
    const float values[8] = {p0.x, p0.y, p0.z, p1.x, p1.y, p1.z, t0, t1};
    for (float v : values)
        if (!std::isfinite(v) || std::fabs(v) > kMaxCoordinate) return true; // no trust: treat as blocked
    const double lo[3] = {double(p0.x < p1.x ? p0.x : p1.x) - radius,
                          double(p0.y < p1.y ? p0.y : p1.y) - radius,
                          double(p0.z < p1.z ? p0.z : p1.z) - radius};
    const double hi[3] = {double(p0.x > p1.x ? p0.x : p1.x) + radius,
                          double(p0.y > p1.y ? p0.y : p1.y) + radius,
                          double(p0.z > p1.z ? p0.z : p1.z) + radius};
    auto* cells = static_cast<Cell*>(const_cast<void*>(hash.cells));
    double inv_cell = 1.0 / double(hash.settings.min_cell);
    for (uint32_t level = 0; level < hash.settings.levels; ++level, inv_cell *= 0.5) {
        if (!(hash.level_mask & (1u << level))) continue;
        const CellRange r = rangeOf(hash.settings.planar, inv_cell, lo, hi);
        if (cellsIn(r) > kMaxCellsPerSphere) {
            // A query far larger than the cells: test every sphere of the hash instead.
            for (uint32_t i = 0; i < hash.sphere_count; ++i)
                if (touches(hash.spheres[i], p0, p1, t0, t1, radius)) return true;
            return false;
        }
        bool hit = false;
        forEachCell(r, [&](int32_t x, int32_t y, int32_t z) {
            if (hit) return;
            const Cell* c = findCell(cells, hash.cell_mask, x, y, z, level, false);
            if (!c) return;
            for (uint32_t k = 0; k < c->count && !hit; ++k)
                hit = touches(hash.spheres[hash.entries[c->first + k]], p0, p1, t0, t1, radius);
        });
        if (hit) return true;
    }
    return false;
}

} // namespace trims
} // namespace clearway
