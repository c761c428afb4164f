// Tiled worlds (README "Tiled worlds"): the tiles stage's geometry, shared by its files and by
// pipeline/bake_tile.cpp (clipping to a tile, bucket grids, polygons rebuilt across cut lines,
// cutting a roadmap at a tile border).
#pragma once

#include <clearway/bake.h>
#include <clearway/bake/geometry.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace clearway::bake::tiling {

// the footprint's reach of the solid test (kSolidProbeReach in footprint/footprint_internal.h): how far a floor point's
// footprint depends on the geometry around it.
constexpr double kSolidProbeReach = 10.0;

inline Vec2 xy(const Vec3& v) {
    return {v.x, v.y};
}

inline std::string num(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", v);
    return text;
}

// ---------------------------------------------------------------------------------------------
// Rectangles and clipping (clip.cpp)

struct Rect {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool contains(Vec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
    bool onBorder(Vec2 p) const { return contains(p) && (p.x == x0 || p.x == x1 || p.y == y0 || p.y == y1); }
};

// The point where segment pq meets the line coordinate[axis] == c, computed from the endpoints in
// a canonical order: two tiles cutting the same wall or axis edge get the same bits.
Vec3 crossAt(Vec3 p, Vec3 q, int axis, double c);

// Liang-Barsky: the part [t0, t1] of segment pq inside the closed rectangle, false when none.
bool clipSegment(Vec2 p, Vec2 q, const Rect& r, double* t0, double* t1);

// Snaps a point within `tol` of a border line onto it exactly.
Vec2 snapToBorder(Vec2 p, const Rect& r, double tol);

double ringArea(const Ring& ring);
bool insideRing(const Ring& ring, Vec2 p, bool* on_boundary);

struct Box {
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    void add(Vec2 p) {
        x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    }
    bool contains(const Box& b) const { return b.x0 >= x0 && b.x1 <= x1 && b.y0 >= y0 && b.y1 <= y1; }
};

// ---------------------------------------------------------------------------------------------
// Tile frame (clip.cpp)

inline double snapTo(double v, double q) {
    return double(float(std::round(v / q) * q));
}

// Tile (i, j)'s core in local coordinates (internal frame minus origin), on the grid `q`. Border
// k is computed from k * size alone, so neighbours share their border bits.
Rect tileCore(const ImportOptions& options, double size, int32_t i, int32_t j, const Vec3& origin, double q);

inline Rect grow(const Rect& r, double m) {
    return {r.x0 - m, r.y0 - m, r.x1 + m, r.y1 + m};
}

// World extent and origin exactly as buildFootprint computes them for the whole mesh: grid
// multiples every tile and the stitch agree on, whatever their own extent.
void worldFrame(const Mesh& mesh, Vec3* origin, double* q, Box* box);

// The tile's mesh: every triangle clipped exactly to `rect` (internal frame, absolute).
Mesh clipMesh(const Mesh& mesh, const Rect& rect);

// Moves a footprint to another origin, every coordinate onto multiples of q (exact in float).
void moveFootprint(Footprint& fp, const Vec3& origin, double q);

// The layer's area and height range from its polygons and surface.
void layerStats(FootprintLayer& layer);

// The footprint inside the core: rings, surfaces and connections clipped, bridges netted out.
Footprint clipFootprint(const Footprint& fp, const Rect& core);

// ---------------------------------------------------------------------------------------------
// Bucket grid over boxes (walls, triangles, rings): items meeting a cell, queries by rings of cells.
// build() is in spatial_index.cpp.

class BoxGrid {
  public:
    void build(const std::vector<Box>& boxes);
    // Calls f(item) for items in cells at Chebyshev ring `ring` around p; false past the grid.
    template <class F> bool visitRing(Vec2 p, int ring, F&& f) const {
        const int ci = cx(p.x), cj = cy(p.y);
        const int off = offGrid(p);
        if (ring > std::max(nx_, ny_) + off) return false;
        for (int j = cj - ring; j <= cj + ring; ++j)
            for (int i = ci - ring; i <= ci + ring; ++i) {
                if (std::max(std::abs(i - ci), std::abs(j - cj)) != ring) continue;
                if (i < 0 || j < 0 || i >= nx_ || j >= ny_) continue;
                const size_t c = size_t(j) * nx_ + i;
                for (uint32_t k = start_[c]; k < start_[c + 1]; ++k)
                    f(items_[k]);
            }
        return true;
    }
    template <class F> void visitBox(const Box& b, F&& f) const {
        for (int j = cy(b.y0); j <= cy(b.y1); ++j)
            for (int i = cx(b.x0); i <= cx(b.x1); ++i) {
                const size_t c = size_t(j) * nx_ + i;
                for (uint32_t k = start_[c]; k < start_[c + 1]; ++k)
                    f(items_[k]);
            }
    }
    double cell() const { return cell_; }
    int offGrid(Vec2 p) const {
        return int(std::ceil(std::max({lo_.x - p.x, p.x - (lo_.x + nx_ * cell_), lo_.y - p.y,
                                       p.y - (lo_.y + ny_ * cell_), 0.0}) /
                             cell_));
    }

  private:
    int cx(double x) const { return std::clamp(int(std::floor((x - lo_.x) / cell_)), 0, nx_ - 1); }
    int cy(double y) const { return std::clamp(int(std::floor((y - lo_.y) / cell_)), 0, ny_ - 1); }
    Vec2 lo_;
    double cell_ = 1;
    int nx_ = 1, ny_ = 1;
    std::vector<uint32_t> start_, items_;
};

// Surface height of one layer at a ground point (the nearest triangle's, outside the surface).
class SurfaceIndex {
  public:
    explicit SurfaceIndex(const FootprintLayer& layer);
    double heightAt(Vec2 p) const;

  private:
    const FootprintLayer* layer_;
    BoxGrid grid_;
};

// ---------------------------------------------------------------------------------------------
// Polygons across cut lines (rebuild_polygons.cpp): ring edges lying on a cut line are netted
// (opposite directions cancel), the rest are chained into rings again, and holes find their outer
// ring. A tile nets out the bridges of its own clipping; cw-stitch nets neighbouring tiles, so
// tile lines vanish.

struct CutLines {
    std::vector<double> x, y; // sorted: vertical lines x = c, horizontal lines y = c
    bool onX(double v) const { return std::binary_search(x.begin(), x.end(), v); }
    bool onY(double v) const { return std::binary_search(y.begin(), y.end(), v); }
    bool touches(Vec2 a, Vec2 b) const { return (a.x == b.x && onX(a.x)) || (a.y == b.y && onY(a.y)); }
    bool onAny(Vec2 p) const { return onX(p.x) || onY(p.y); }
};

struct PairHash {
    size_t operator()(const std::pair<double, double>& p) const {
        uint64_t a, b;
        std::memcpy(&a, &p.first, 8), std::memcpy(&b, &p.second, 8);
        return size_t(a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2)));
    }
};

std::vector<PolygonWithHoles> rebuildPolygons(std::vector<PolygonWithHoles> polygons, const CutLines& lines);

// ---------------------------------------------------------------------------------------------
// A tile's roadmap at its border (cut_roadmap.cpp)

// The roadmap inside the core: edges crossing the border end at a border vertex there; pieces
// lying along the top or right border belong to the neighbour (which has them on its bottom/left).
void cutRoadmap(Roadmap& rm, const Rect& core, double margin, uint32_t* margin_reached);

// Chain merging must not bypass a border vertex (the neighbour continues there): a temporary
// self-loop makes its degree > 2 while finishRoadmapGraph runs.
void finishPinned(Roadmap& rm, const std::vector<bool>& pinned);

std::vector<uint32_t> borderVertices(const Roadmap& rm, const Rect& core);

} // namespace clearway::bake::tiling
