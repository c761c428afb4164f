// AvoidWalls: level walls (a footprint layer's boundary rings) in a uniform grid, tested against
// each searched segment's chord.
#include <clearway/motion.h>

#include <cmath>

namespace clearway {
namespace trims {
namespace {

struct Edge {
    Vec2f a, b;
};

constexpr uint64_t kMaxCells = 1u << 22;
constexpr float kMaxCoordinate = 1e7f; // footprint local coordinates are metres near the origin

struct Grid {
    float x0, y0, inv;
    uint32_t nx, ny;
};

// Ring edges of a layer, visited in order; false if any ring is unreadable.
template <typename F> bool forEachEdge(const FootprintView& view, uint32_t layer, F&& f) {
    FootprintLayerInfo info;
    if (footprintLayer(view, layer, &info) != Status::Ok) return false;
    for (uint32_t r = 0; r < info.ring_count; ++r) {
        const Vec2f* v = nullptr;
        uint32_t n = 0;
        if (footprintRing(view, layer, r, &v, &n) != Status::Ok) return false;
        for (uint32_t i = 0; i < n; ++i)
            f(Edge{v[i], v[(i + 1) % n]});
    }
    return true;
}

bool gridFor(const FootprintView& view, uint32_t layer, float cell, Grid* out, uint32_t* edges) {
    if (!std::isfinite(cell) || !(cell > 0.0f)) return false;
    float lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
    uint32_t count = 0;
    if (!forEachEdge(view, layer, [&](const Edge& e) {
            lo_x = std::fmin(lo_x, e.a.x), hi_x = std::fmax(hi_x, e.a.x);
            lo_y = std::fmin(lo_y, e.a.y), hi_y = std::fmax(hi_y, e.a.y);
            ++count;
        }))
        return false;
    *edges = count;
    if (count == 0) {
        *out = Grid{0, 0, 1.0f / cell, 1, 1};
        return true;
    }
    if (std::fabs(lo_x) > kMaxCoordinate || std::fabs(hi_x) > kMaxCoordinate ||
        std::fabs(lo_y) > kMaxCoordinate || std::fabs(hi_y) > kMaxCoordinate)
        return false;
    const double nx = std::floor((double(hi_x) - lo_x) / cell) + 1,
                 ny = std::floor((double(hi_y) - lo_y) / cell) + 1;
    if (nx * ny > double(kMaxCells)) return false;
    *out = Grid{lo_x, lo_y, 1.0f / cell, uint32_t(nx), uint32_t(ny)};
    return true;
}

// Cells overlapped by [lo, hi], clamped to the grid; false when the box misses it.
bool cellRange(const Grid& g, float lo_x, float lo_y, float hi_x, float hi_y, uint32_t r[4]) {
    const float fx0 = std::floor((lo_x - g.x0) * g.inv), fy0 = std::floor((lo_y - g.y0) * g.inv);
    const float fx1 = std::floor((hi_x - g.x0) * g.inv), fy1 = std::floor((hi_y - g.y0) * g.inv);
    if (!(fx1 >= 0.0f && fy1 >= 0.0f && fx0 < float(g.nx) && fy0 < float(g.ny))) return false; // also NaN
    r[0] = fx0 < 0.0f ? 0u : uint32_t(fx0);
    r[1] = fy0 < 0.0f ? 0u : uint32_t(fy0);
    r[2] = fx1 >= float(g.nx) ? g.nx - 1 : uint32_t(fx1);
    r[3] = fy1 >= float(g.ny) ? g.ny - 1 : uint32_t(fy1);
    return true;
}

bool edgeCells(const Grid& g, const Edge& e, uint32_t r[4]) {
    return cellRange(g, std::fmin(e.a.x, e.b.x), std::fmin(e.a.y, e.b.y), std::fmax(e.a.x, e.b.x),
                     std::fmax(e.a.y, e.b.y), r);
}

uint64_t entryCount(const FootprintView& view, uint32_t layer, const Grid& g) {
    uint64_t n = 0;
    forEachEdge(view, layer, [&](const Edge& e) {
        uint32_t r[4];
        if (edgeCells(g, e, r)) n += uint64_t(r[2] - r[0] + 1) * (r[3] - r[1] + 1);
    });
    return n;
}

size_t bytesFor(uint32_t edges, const Grid& g, uint64_t entries) {
    const size_t cells = size_t(g.nx) * g.ny;
    return sizeof(Edge) * edges + sizeof(uint32_t) * (cells + 1) + sizeof(uint32_t) * size_t(entries);
}

double cross(double ax, double ay, double bx, double by) {
    return ax * by - ay * bx;
}

// Distance from p to segment ab.
double pointSegment(double px, double py, const Edge& e) {
    const double dx = double(e.b.x) - e.a.x, dy = double(e.b.y) - e.a.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - e.a.x) * dx + (py - e.a.y) * dy) / len2 : 0.0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    const double x = e.a.x + t * dx - px, y = e.a.y + t * dy - py;
    return std::sqrt(x * x + y * y);
}

bool crosses(Vec2f p0, Vec2f p1, const Edge& e) {
    const double d0 =
        cross(double(p1.x) - p0.x, double(p1.y) - p0.y, double(e.a.x) - p0.x, double(e.a.y) - p0.y);
    const double d1 =
        cross(double(p1.x) - p0.x, double(p1.y) - p0.y, double(e.b.x) - p0.x, double(e.b.y) - p0.y);
    const double d2 =
        cross(double(e.b.x) - e.a.x, double(e.b.y) - e.a.y, double(p0.x) - e.a.x, double(p0.y) - e.a.y);
    const double d3 =
        cross(double(e.b.x) - e.a.x, double(e.b.y) - e.a.y, double(p1.x) - e.a.x, double(p1.y) - e.a.y);
    return ((d0 > 0) != (d1 > 0)) && ((d2 > 0) != (d3 > 0)) && d0 != 0 && d1 != 0 && d2 != 0 && d3 != 0;
}

bool edgeHit(Vec2f p0, Vec2f p1, const Edge& e, float radius) {
    if (crosses(p0, p1, e)) return true;
    // Two segments that do not cross are closest at one of the four endpoints.
    const Edge chord{p0, p1};
    const double start = pointSegment(p0.x, p0.y, e);
    const double closest =
        std::fmin(std::fmin(start, pointSegment(p1.x, p1.y, e)),
                  std::fmin(pointSegment(e.a.x, e.a.y, chord), pointSegment(e.b.x, e.b.y, chord)));
    // Overlapping already (margins make that happen): only closing in counts.
    if (start < radius) return closest < start * (1.0 - 1e-6);
    return closest < radius;
}

} // namespace

WallGridSettings defaultWallGridSettings() {
    WallGridSettings s{};
    s.cell = 4.0f;
    return s;
}

Status wallGridMemorySize(const FootprintView& view, uint32_t layer, const WallGridSettings& settings,
                          size_t* bytes) {
    if (!bytes) return Status::InvalidArgument;
    Grid g;
    uint32_t edges = 0;
    if (!gridFor(view, layer, settings.cell, &g, &edges)) return Status::InvalidArgument;
    *bytes = bytesFor(edges, g, entryCount(view, layer, g));
    return Status::Ok;
}

Status buildWallGrid(const FootprintView& view, uint32_t layer, const WallGridSettings& settings,
                     void* memory, size_t bytes, WallGrid* out) {
    if (!out) return Status::InvalidArgument;
    *out = WallGrid{};
    Grid g;
    uint32_t edge_count = 0;
    if (!gridFor(view, layer, settings.cell, &g, &edge_count)) return Status::InvalidArgument;
    if (!memory || reinterpret_cast<uintptr_t>(memory) % 8 != 0) return Status::InvalidArgument;
    const uint64_t entries = entryCount(view, layer, g);
    if (bytes < bytesFor(edge_count, g, entries)) return Status::BufferTooSmall;
    const size_t cells = size_t(g.nx) * g.ny;
    auto* edges = static_cast<Edge*>(memory);
    auto* start = reinterpret_cast<uint32_t*>(edges + edge_count);
    uint32_t* list = start + cells + 1;
    // Counting sort of (edge, cell) pairs: count, prefix sums, fill.
    for (size_t c = 0; c <= cells; ++c)
        start[c] = 0;
    uint32_t n = 0;
    forEachEdge(view, layer, [&](const Edge& e) {
        edges[n++] = e;
        uint32_t r[4];
        if (!edgeCells(g, e, r)) return;
        for (uint32_t y = r[1]; y <= r[3]; ++y)
            for (uint32_t x = r[0]; x <= r[2]; ++x)
                ++start[size_t(y) * g.nx + x + 1];
    });
    for (size_t c = 0; c < cells; ++c)
        start[c + 1] += start[c];
    for (uint32_t i = 0; i < edge_count; ++i) {
        uint32_t r[4];
        if (!edgeCells(g, edges[i], r)) continue;
        for (uint32_t y = r[1]; y <= r[3]; ++y)
            for (uint32_t x = r[0]; x <= r[2]; ++x) {
                // start[c] is the fill cursor of cell c; it ends at the next cell's first entry.
                list[start[size_t(y) * g.nx + x]++] = i;
            }
    }
    // Shift the cursors back into first-entry offsets.
    for (size_t c = cells; c > 0; --c)
        start[c] = start[c - 1];
    start[0] = 0;

    out->edges = edges;
    out->cell_start = start;
    out->entries = list;
    out->edge_count = edge_count;
    out->nx = g.nx;
    out->ny = g.ny;
    out->origin_x = g.x0;
    out->origin_y = g.y0;
    out->inv_cell = g.inv;
    return Status::Ok;
}

bool wallGridHitsSegment(const WallGrid& grid, Vec2f p0, Vec2f p1, float radius) {
    if (!grid.cell_start || grid.edge_count == 0) return false;
    const Grid g{grid.origin_x, grid.origin_y, grid.inv_cell, grid.nx, grid.ny};
    uint32_t r[4];
    if (!cellRange(g, std::fmin(p0.x, p1.x) - radius, std::fmin(p0.y, p1.y) - radius,
                   std::fmax(p0.x, p1.x) + radius, std::fmax(p0.y, p1.y) + radius, r))
        return false;
    const auto* edges = static_cast<const Edge*>(grid.edges);
    for (uint32_t y = r[1]; y <= r[3]; ++y)
        for (uint32_t x = r[0]; x <= r[2]; ++x) {
            const size_t c = size_t(y) * grid.nx + x;
            for (uint32_t k = grid.cell_start[c]; k < grid.cell_start[c + 1]; ++k)
                if (edgeHit(p0, p1, edges[grid.entries[k]], radius)) return true;
        }
    return false;
}

float avoidWallsGoodness(const AvoidWalls& a, const Segment& s) {
    if (!a.grid) return 1.0f;
    return wallGridHitsSegment(*a.grid, Vec2f{s.p0.x, s.p0.y}, Vec2f{s.p1.x, s.p1.y}, a.radius + a.margin)
               ? 0.0f
               : 1.0f;
}

namespace {
float avoidWallsThunk(const void* context, const Segment& s) {
    return avoidWallsGoodness(*static_cast<const AvoidWalls*>(context), s);
}
} // namespace

Behaviour behaviour(const AvoidWalls* a) {
    return {&avoidWallsThunk, a};
}

} // namespace trims
} // namespace clearway
