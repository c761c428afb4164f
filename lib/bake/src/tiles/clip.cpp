// Tile geometry: rectangles, clipping a mesh or a footprint to a tile (Sutherland-Hodgman for
// polygons, Liang-Barsky for segments) and the tile frame every tile and the stitch agree on.
#include "tiles/tiles_internal.h"

#include <tuple>

namespace clearway::bake::tiling {

using namespace geometry;

Vec3 crossAt(Vec3 p, Vec3 q, int axis, double c) {
    if (std::make_tuple(q.x, q.y, q.z) < std::make_tuple(p.x, p.y, p.z)) std::swap(p, q);
    const double pa = axis == 0 ? p.x : p.y, qa = axis == 0 ? q.x : q.y;
    const double t = qa == pa ? 0 : (c - pa) / (qa - pa);
    Vec3 r{p.x + t * (q.x - p.x), p.y + t * (q.y - p.y), p.z + t * (q.z - p.z)};
    (axis == 0 ? r.x : r.y) = c;
    return r;
}

namespace {

// Sutherland-Hodgman against the four sides of `rect` in the ground plane (z interpolated). A
// non-convex ring comes out with zero-width bridges along the border; rebuildPolygons nets them out.
std::vector<Vec3> clipPolygon(std::vector<Vec3> poly, const Rect& rect) {
    struct Side {
        int axis;
        double c;
        bool keep_above;
    };
    const Side sides[4] = {{0, rect.x0, true}, {0, rect.x1, false}, {1, rect.y0, true}, {1, rect.y1, false}};
    for (const Side& side : sides) {
        if (poly.empty()) break;
        auto inside = [&](const Vec3& p) {
            const double v = side.axis == 0 ? p.x : p.y;
            return side.keep_above ? v >= side.c : v <= side.c;
        };
        std::vector<Vec3> out;
        for (size_t k = 0; k < poly.size(); ++k) {
            const Vec3& cur = poly[k];
            const Vec3& prev = poly[(k + poly.size() - 1) % poly.size()];
            const bool in_cur = inside(cur), in_prev = inside(prev);
            if (in_cur) {
                if (!in_prev) out.push_back(crossAt(prev, cur, side.axis, side.c));
                out.push_back(cur);
            } else if (in_prev) {
                out.push_back(crossAt(prev, cur, side.axis, side.c));
            }
        }
        poly = std::move(out);
    }
    return poly;
}

} // namespace

bool clipSegment(Vec2 p, Vec2 q, const Rect& r, double* t0, double* t1) {
    double lo = 0, hi = 1;
    const double dx = q.x - p.x, dy = q.y - p.y;
    const double pk[4] = {-dx, dx, -dy, dy};
    const double qk[4] = {p.x - r.x0, r.x1 - p.x, p.y - r.y0, r.y1 - p.y};
    for (int k = 0; k < 4; ++k) {
        if (pk[k] == 0) {
            if (qk[k] < 0) return false;
            continue;
        }
        const double t = qk[k] / pk[k];
        if (pk[k] < 0)
            lo = std::max(lo, t);
        else
            hi = std::min(hi, t);
    }
    if (lo > hi) return false;
    *t0 = lo, *t1 = hi;
    return true;
}

Vec2 snapToBorder(Vec2 p, const Rect& r, double tol) {
    for (double c : {r.x0, r.x1})
        if (std::abs(p.x - c) <= tol) p.x = c;
    for (double c : {r.y0, r.y1})
        if (std::abs(p.y - c) <= tol) p.y = c;
    return p;
}

double ringArea(const Ring& ring) {
    double a = 0;
    for (size_t i = 0, n = ring.size(); i < n; ++i)
        a += ring[i].x * ring[(i + 1) % n].y - ring[(i + 1) % n].x * ring[i].y;
    return a / 2;
}

bool insideRing(const Ring& ring, Vec2 p, bool* on_boundary) {
    bool inside = false;
    *on_boundary = false;
    for (size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
        const Vec2 a = ring[i], b = ring[j];
        if (pointSegmentDistance(p, a, b) <= 1e-9) *on_boundary = true;
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
            inside = !inside;
    }
    return inside;
}

Rect tileCore(const ImportOptions& options, double size, int32_t i, int32_t j, const Vec3& origin, double q) {
    auto corner = [&](double u, double v) {
        const Vec3 world = options.up == UpAxis::Y ? Vec3{u, 0, v} : Vec3{u, v, 0};
        const Vec3 p = worldToInternal(world, options);
        return Vec2{snapTo(p.x - origin.x, q), snapTo(p.y - origin.y, q)};
    };
    const Vec2 a = corner(double(i) * size, double(j) * size),
               b = corner(double(i + 1) * size, double(j + 1) * size);
    return {std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
}

void worldFrame(const Mesh& mesh, Vec3* origin, double* q, Box* box) {
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t index : mesh.indices) {
        const Vec3& p = mesh.positions[index];
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    *origin = {std::round((lo.x + hi.x) / 2), std::round((lo.y + hi.y) / 2), std::round((lo.z + hi.z) / 2)};
    *q = worldGridSpacing(std::max({hi.x - origin->x, origin->x - lo.x, hi.y - origin->y, origin->y - lo.y}));
    *box = {lo.x, lo.y, hi.x, hi.y};
}

Mesh clipMesh(const Mesh& mesh, const Rect& rect) {
    Mesh out;
    out.source_name = mesh.source_name;
    out.source_hash = mesh.source_hash;
    for (size_t t = 0; t < mesh.triangleCount(); ++t) {
        const Vec3 p[3] = {mesh.positions[mesh.indices[3 * t]], mesh.positions[mesh.indices[3 * t + 1]],
                           mesh.positions[mesh.indices[3 * t + 2]]};
        Box b;
        for (const Vec3& v : p)
            b.add(xy(v));
        if (b.x1 < rect.x0 || b.x0 > rect.x1 || b.y1 < rect.y0 || b.y0 > rect.y1) continue;
        std::vector<Vec3> poly(p, p + 3);
        if (!(b.x0 >= rect.x0 && b.x1 <= rect.x1 && b.y0 >= rect.y0 && b.y1 <= rect.y1))
            poly = clipPolygon(poly, rect);
        if (poly.size() < 3) continue;
        const uint32_t first = uint32_t(out.positions.size());
        out.positions.insert(out.positions.end(), poly.begin(), poly.end());
        for (uint32_t k = 1; k + 1 < poly.size(); ++k)
            out.indices.insert(out.indices.end(), {first, first + k, first + k + 1});
    }
    return out;
}

void moveFootprint(Footprint& fp, const Vec3& origin, double q) {
    const Vec3 d{fp.origin.x - origin.x, fp.origin.y - origin.y, fp.origin.z - origin.z};
    auto move2 = [&](Vec2& p) { p = {snapTo(p.x + d.x, q), snapTo(p.y + d.y, q)}; };
    auto moveRing = [&](Ring& ring) {
        Ring out;
        for (Vec2 p : ring) {
            move2(p);
            if (out.empty() || out.back().x != p.x || out.back().y != p.y) out.push_back(p);
        }
        while (out.size() > 1 && out.front().x == out.back().x && out.front().y == out.back().y)
            out.pop_back();
        ring = std::move(out);
    };
    for (FootprintLayer& layer : fp.layers) {
        for (PolygonWithHoles& polygon : layer.polygons) {
            moveRing(polygon.outer);
            for (Ring& h : polygon.holes)
                moveRing(h);
        }
        for (Vec3& v : layer.surface_vertices)
            v = {double(float(v.x + d.x)), double(float(v.y + d.y)), double(float(v.z + d.z))};
        layer.height_min += d.z, layer.height_max += d.z;
    }
    for (Connection& c : fp.connections) {
        move2(c.p0), move2(c.p1);
        c.z_a0 += d.z, c.z_a1 += d.z, c.z_b0 += d.z, c.z_b1 += d.z;
    }
    fp.origin = origin;
    fp.grid_spacing = std::max(fp.grid_spacing, q);
}

void layerStats(FootprintLayer& layer) {
    layer.area = 0;
    for (const PolygonWithHoles& p : layer.polygons) {
        layer.area += ringArea(p.outer);
        for (const Ring& h : p.holes)
            layer.area += ringArea(h);
    }
    if (!layer.surface_vertices.empty()) {
        layer.height_min = INFINITY, layer.height_max = -INFINITY;
        for (const Vec3& v : layer.surface_vertices)
            layer.height_min = std::min(layer.height_min, v.z),
            layer.height_max = std::max(layer.height_max, v.z);
    }
}

Footprint clipFootprint(const Footprint& fp, const Rect& core) {
    Footprint out = fp;
    const CutLines lines{{core.x0, core.x1}, {core.y0, core.y1}};
    for (FootprintLayer& layer : out.layers) {
        std::vector<PolygonWithHoles> clipped;
        auto clipRing = [&](const Ring& r) {
            std::vector<Vec3> poly;
            for (Vec2 p : r)
                poly.push_back({p.x, p.y, 0});
            Ring ring;
            for (const Vec3& p : clipPolygon(poly, core))
                if (ring.empty() || ring.back().x != p.x || ring.back().y != p.y) ring.push_back(xy(p));
            while (ring.size() > 1 && ring.front().x == ring.back().x && ring.front().y == ring.back().y)
                ring.pop_back();
            return ring;
        };
        for (const PolygonWithHoles& p : layer.polygons) {
            PolygonWithHoles c;
            c.outer = clipRing(p.outer);
            if (c.outer.size() < 3) continue;
            for (const Ring& h : p.holes) {
                Ring ch = clipRing(h);
                if (ch.size() >= 3) c.holes.push_back(std::move(ch));
            }
            clipped.push_back(std::move(c));
        }
        layer.polygons = rebuildPolygons(std::move(clipped), lines);
        std::vector<Vec3> vertices;
        std::vector<SurfaceTriangle> triangles;
        for (const SurfaceTriangle& t : layer.surface_triangles) {
            std::vector<Vec3> poly = {layer.surface_vertices[t.a], layer.surface_vertices[t.b],
                                      layer.surface_vertices[t.c]};
            poly = clipPolygon(poly, core);
            if (poly.size() < 3) continue;
            const uint32_t first = uint32_t(vertices.size());
            vertices.insert(vertices.end(), poly.begin(), poly.end());
            for (uint32_t k = 1; k + 1 < poly.size(); ++k)
                triangles.push_back({first, first + k, first + k + 1});
        }
        layer.surface_vertices = std::move(vertices);
        layer.surface_triangles = std::move(triangles);
        layerStats(layer);
    }
    out.connections.clear();
    for (const Connection& c : fp.connections) {
        double t0, t1;
        if (!clipSegment(c.p0, c.p1, core, &t0, &t1) || t1 <= t0) continue;
        Connection k = c;
        auto at = [&](double t) {
            return Vec2{c.p0.x + t * (c.p1.x - c.p0.x), c.p0.y + t * (c.p1.y - c.p0.y)};
        };
        k.p0 = snapToBorder(at(t0), core, 1e-9), k.p1 = snapToBorder(at(t1), core, 1e-9);
        k.z_a0 = c.z_a0 + t0 * (c.z_a1 - c.z_a0), k.z_a1 = c.z_a0 + t1 * (c.z_a1 - c.z_a0);
        k.z_b0 = c.z_b0 + t0 * (c.z_b1 - c.z_b0), k.z_b1 = c.z_b0 + t1 * (c.z_b1 - c.z_b0);
        out.connections.push_back(k);
    }
    return out;
}

} // namespace clearway::bake::tiling
