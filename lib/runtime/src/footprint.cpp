// Footprint asset loader: verify once in loadFootprint, then every accessor reads the buffer
// directly (zero-copy, no allocation).
#include <clearway/runtime.h>

#include <clearway/schema/footprint_generated.h>

#include "asset_load.h"

#include <cmath>
#include <limits>

namespace clearway {
namespace {

namespace fb = ::clearway::schema;

// footprintRing hands out the asset's own vertex memory as Vec2f, so the layouts must match and
// the bytes must already be in host order.
static_assert(sizeof(Vec2f) == sizeof(fb::Vec2) && alignof(Vec2f) == alignof(fb::Vec2),
              "Vec2f must match schema Vec2 for zero-copy rings");
static_assert(FLATBUFFERS_LITTLEENDIAN, "zero-copy accessors assume a little-endian host");

// The largest scalar in any schema is 8 bytes (double, ulong, Vec3d). The verifier only checks
// alignment relative to the buffer start, so the start itself must be 8-byte aligned or reads
// of those fields would be misaligned (UB).
constexpr uintptr_t kBufferAlignment = 8;

// Barycentric slack so points exactly on a shared edge are not lost to rounding.
constexpr double kInsideEpsilon = 1e-7;

using detail::finite;
using detail::localCoordinate;
using detail::rangeWithin;
using detail::sizeOf;

bool checkLayer(const fb::Layer& layer) {
    if (!finite(layer.area()) || !finite(layer.height_min()) || !finite(layer.height_max())) return false;

    const auto* boundary = layer.boundary_vertices();
    const uint32_t boundary_count = sizeOf(boundary);
    for (uint32_t i = 0; i < boundary_count; ++i) {
        const fb::Vec2* v = boundary->Get(i);
        if (!localCoordinate(v->x()) || !localCoordinate(v->y())) return false;
    }

    const auto* rings = layer.rings();
    const uint32_t ring_count = sizeOf(rings);
    for (uint32_t i = 0; i < ring_count; ++i) {
        const fb::Ring* r = rings->Get(i);
        if (r->vertex_count() < 3 || !rangeWithin(r->first_vertex(), r->vertex_count(), boundary_count))
            return false;
    }

    const auto* polygons = layer.polygons();
    for (uint32_t i = 0, n = sizeOf(polygons); i < n; ++i) {
        const fb::Polygon* p = polygons->Get(i);
        if (p->ring_count() < 1 || !rangeWithin(p->first_ring(), p->ring_count(), ring_count)) return false;
    }

    const auto* verts = layer.surface_vertices();
    const uint32_t vert_count = sizeOf(verts);
    for (uint32_t i = 0; i < vert_count; ++i) {
        const fb::Vec3* v = verts->Get(i);
        if (!localCoordinate(v->x()) || !localCoordinate(v->y()) || !localCoordinate(v->z())) return false;
    }

    const auto* tris = layer.surface_triangles();
    for (uint32_t i = 0, n = sizeOf(tris); i < n; ++i) {
        const fb::Triangle* t = tris->Get(i);
        if (t->a() >= vert_count || t->b() >= vert_count || t->c() >= vert_count) return false;
    }
    if (const fb::SurfaceGrid* grid = layer.surface_grid()) {
        // Offsets monotone from 0 to the item count, every item a triangle: then a lookup reads
        // only in range. Cell counts are bounded by the vector the verifier already sized.
        const auto* start = grid->cell_start();
        const auto* items = grid->cell_triangles();
        const uint64_t cells = uint64_t(grid->cells_x()) * grid->cells_y();
        if (!start || !items || cells == 0 || uint64_t(sizeOf(start)) != cells + 1) return false;
        if (!finite(grid->min_x()) || !finite(grid->min_y()) || !finite(grid->cell_size()) ||
            !(grid->cell_size() > 0.0))
            return false;
        if (start->Get(0) != 0 || start->Get(uint32_t(cells)) != sizeOf(items)) return false;
        for (uint32_t c = 0; c < uint32_t(cells); ++c)
            if (start->Get(c) > start->Get(c + 1)) return false;
        const uint32_t tri_count = sizeOf(tris);
        for (uint32_t i = 0, n = sizeOf(items); i < n; ++i)
            if (items->Get(i) >= tri_count) return false;
    }
    return true;
}

Status checkSemantics(const fb::Footprint& fp) {
    // Version first: a newer asset may carry meaning the checks below do not know about.
    const uint32_t version = fp.format_version();
    if (version == 0) return Status::CorruptAsset; // absent (0 is the unwritten default)
    if (version > kFootprintFormatVersion) return Status::UnsupportedVersion;

    if (!fp.baker_version()) return Status::CorruptAsset;

    if (const fb::ImportOptions* o = fp.options()) {
        if (o->up_axis() != fb::UpAxis::Y && o->up_axis() != fb::UpAxis::Z) return Status::CorruptAsset;
        if (!finite(o->scale()) || !finite(o->agent_height()) || !finite(o->max_slope_deg()) ||
            !finite(o->max_step()) || !finite(o->epsilon()))
            return Status::CorruptAsset;
        // footprintLocalToWorld divides by scale.
        if (!(o->scale() > 0.0)) return Status::CorruptAsset;
    }

    if (const fb::Vec3d* origin = fp.origin()) {
        if (!finite(origin->x()) || !finite(origin->y()) || !finite(origin->z())) return Status::CorruptAsset;
    }
    if (!finite(fp.grid_spacing())) return Status::CorruptAsset;

    const auto* layers = fp.layers();
    const uint32_t layer_count = sizeOf(layers);
    for (uint32_t i = 0; i < layer_count; ++i) {
        if (!checkLayer(*layers->Get(i))) return Status::CorruptAsset;
    }

    const auto* connections = fp.connections();
    for (uint32_t i = 0, n = sizeOf(connections); i < n; ++i) {
        const fb::Connection* c = connections->Get(i);
        if (c->layer_a() >= layer_count || c->layer_b() >= layer_count) return Status::CorruptAsset;
        if (!finite(c->x0()) || !finite(c->y0()) || !finite(c->x1()) || !finite(c->y1()) ||
            !finite(c->z_a0()) || !finite(c->z_a1()) || !finite(c->z_b0()) || !finite(c->z_b1()))
            return Status::CorruptAsset;
    }
    return Status::Ok;
}

// Accessors trust the view (it came from loadFootprint) and only validate their own arguments.
const fb::Footprint* root(const FootprintView& view) {
    return view.data ? fb::GetFootprint(view.data) : nullptr;
}

Status getLayer(const FootprintView& view, uint32_t layer, const fb::Layer** out) {
    const fb::Footprint* fp = root(view);
    if (!fp) return Status::InvalidArgument;
    const auto* layers = fp->layers();
    if (layer >= sizeOf(layers)) return Status::InvalidArgument;
    *out = layers->Get(layer);
    return Status::Ok;
}

double clampTo(double v, double lo, double hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

double min3(double a, double b, double c) {
    return a < b ? (a < c ? a : c) : (b < c ? b : c);
}
double max3(double a, double b, double c) {
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

// Closest point to (px, py) on segment a-b in the ground plane; returns squared distance and the
// height linearly interpolated there.
double closestOnSegment(double px, double py, const fb::Vec3& a, const fb::Vec3& b, double* z) {
    const double ax = a.x(), ay = a.y(), dx = double(b.x()) - ax, dy = double(b.y()) - ay;
    const double len2 = dx * dx + dy * dy;
    double t = 0.0;
    if (len2 > 0.0) t = clampTo(((px - ax) * dx + (py - ay) * dy) / len2, 0.0, 1.0);
    const double qx = ax + t * dx - px, qy = ay + t * dy - py;
    const double za = a.z(), zb = b.z();
    *z = clampTo(za + t * (zb - za), za < zb ? za : zb, za < zb ? zb : za);
    return qx * qx + qy * qy;
}

} // namespace

namespace detail {
// loadRoadmap checks its embedded footprint table with exactly these rules.
Status checkFootprintSemantics(const schema::Footprint& footprint) {
    return checkSemantics(footprint);
}
} // namespace detail

const char* statusString(Status status) {
    switch (status) {
    case Status::Ok:
        return "ok";
    case Status::InvalidArgument:
        return "invalid argument";
    case Status::BufferTooSmall:
        return "output buffer too small";
    case Status::WrongAssetKind:
        return "wrong asset kind";
    case Status::UnsupportedVersion:
        return "unsupported asset version";
    case Status::CorruptAsset:
        return "asset is corrupt";
    case Status::NotFound:
        return "not found";
    case Status::Partial:
        return "partial path: the goal is unreachable";
    case Status::PortalReached:
        return "stopped on a portal to another layer";
    case Status::Blocked:
        return "start closer than the radius to a wall";
    case Status::ScratchTooSmall:
        return "route longer than the path scratch was sized for";
    case Status::CapacityReached:
        return "the obstacle set is full";
    }
    return "unknown status";
}

Status checkAssetBuffer(const void* data, size_t size, const char identifier[4]) {
    if (!data || !identifier) return Status::InvalidArgument;
    if (reinterpret_cast<uintptr_t>(data) % kBufferAlignment != 0) return Status::InvalidArgument;
    // Root offset + identifier; also guards the identifier read below.
    if (size < 2 * sizeof(flatbuffers::uoffset_t)) return Status::CorruptAsset;
    // The verifier asserts on larger sizes; no valid FlatBuffer is that big.
    if (size >= FLATBUFFERS_MAX_BUFFER_SIZE) return Status::CorruptAsset;
    if (!flatbuffers::BufferHasIdentifier(data, identifier)) return Status::WrongAssetKind;
    return Status::Ok;
}

Status loadFootprint(const void* data, size_t size, FootprintView* out) {
    return detail::loadAsset(
        data, size, fb::FootprintIdentifier(),
        [](flatbuffers::Verifier& v) { return fb::VerifyFootprintBuffer(v); },
        [](const uint8_t* bytes) { return checkSemantics(*fb::GetFootprint(bytes)); }, out);
}

Status footprintInfo(const FootprintView& view, FootprintInfo* out) {
    const fb::Footprint* fp = root(view);
    if (!fp || !out) return Status::InvalidArgument;
    FootprintInfo info{};
    info.format_version = fp->format_version();
    info.layer_count = sizeOf(fp->layers());
    info.connection_count = sizeOf(fp->connections());
    info.input_hash = fp->input_hash();
    info.options_hash = fp->options_hash();
    if (const fb::Vec3d* o = fp->origin()) info.origin = Vec3d{o->x(), o->y(), o->z()};
    info.grid_spacing = fp->grid_spacing();
    // A missing options table means the schema defaults (Y-up, scale 1).
    const fb::ImportOptions* options = fp->options();
    info.up_axis = options ? static_cast<uint8_t>(options->up_axis()) : static_cast<uint8_t>(fb::UpAxis::Y);
    info.scale = options ? options->scale() : 1.0;
    info.baker_version = fp->baker_version()->c_str();
    *out = info;
    return Status::Ok;
}

Status footprintLayer(const FootprintView& view, uint32_t layer, FootprintLayerInfo* out) {
    const fb::Layer* l = nullptr;
    const Status s = getLayer(view, layer, &l);
    if (s != Status::Ok) return s;
    if (!out) return Status::InvalidArgument;
    out->polygon_count = sizeOf(l->polygons());
    out->ring_count = sizeOf(l->rings());
    out->boundary_vertex_count = sizeOf(l->boundary_vertices());
    out->surface_vertex_count = sizeOf(l->surface_vertices());
    out->surface_triangle_count = sizeOf(l->surface_triangles());
    out->area = l->area();
    out->height_min = l->height_min();
    out->height_max = l->height_max();
    return Status::Ok;
}

Status footprintPolygon(const FootprintView& view, uint32_t layer, uint32_t polygon, uint32_t* first_ring,
                        uint32_t* ring_count) {
    const fb::Layer* l = nullptr;
    const Status s = getLayer(view, layer, &l);
    if (s != Status::Ok) return s;
    if (!first_ring || !ring_count) return Status::InvalidArgument;
    const auto* polygons = l->polygons();
    if (polygon >= sizeOf(polygons)) return Status::InvalidArgument;
    const fb::Polygon* p = polygons->Get(polygon);
    *first_ring = p->first_ring();
    *ring_count = p->ring_count();
    return Status::Ok;
}

Status footprintRing(const FootprintView& view, uint32_t layer, uint32_t ring, const Vec2f** vertices,
                     uint32_t* count) {
    const fb::Layer* l = nullptr;
    const Status s = getLayer(view, layer, &l);
    if (s != Status::Ok) return s;
    if (!vertices || !count) return Status::InvalidArgument;
    const auto* rings = l->rings();
    if (ring >= sizeOf(rings)) return Status::InvalidArgument;
    const fb::Ring* r = rings->Get(ring);
    // Range was checked at load, so boundary_vertices exists and holds the whole ring.
    *vertices = reinterpret_cast<const Vec2f*>(l->boundary_vertices()->Get(r->first_vertex()));
    *count = r->vertex_count();
    return Status::Ok;
}

Status footprintConnection(const FootprintView& view, uint32_t index, FootprintConnection* out) {
    const fb::Footprint* fp = root(view);
    if (!fp || !out) return Status::InvalidArgument;
    const auto* connections = fp->connections();
    if (index >= sizeOf(connections)) return Status::InvalidArgument;
    const fb::Connection* c = connections->Get(index);
    out->layer_a = c->layer_a();
    out->layer_b = c->layer_b();
    out->p0 = Vec2f{c->x0(), c->y0()};
    out->p1 = Vec2f{c->x1(), c->y1()};
    out->z_a0 = c->z_a0();
    out->z_a1 = c->z_a1();
    out->z_b0 = c->z_b0();
    out->z_b1 = c->z_b1();
    return Status::Ok;
}

// The triangles of the point's surface-grid cell and of the tolerance square around it (older
// assets: every triangle). Work is in double: float inputs make the products exact enough and
// cannot overflow.
Status footprintHeightAt(const FootprintView& view, uint32_t layer, float x, float y, float tolerance,
                         float* height) {
    const fb::Layer* l = nullptr;
    const Status s = getLayer(view, layer, &l);
    if (s != Status::Ok) return s;
    if (!height || !finite(x) || !finite(y) || !(tolerance >= 0.0f)) return Status::InvalidArgument;

    const auto* verts = l->surface_vertices();
    const auto* tris = l->surface_triangles();
    const double px = x, py = y;
    double best_d2 = std::numeric_limits<double>::infinity();
    double best_z = 0.0;
    uint32_t best_triangle = 0xffffffffu;

    // Tests triangle i: true with *height set when (px, py) is inside it.
    auto contains = [&](uint32_t i) {
        const fb::Triangle* t = tris->Get(i);
        const fb::Vec3& a = *verts->Get(t->a());
        const fb::Vec3& b = *verts->Get(t->b());
        const fb::Vec3& c = *verts->Get(t->c());
        const double ax = a.x(), ay = a.y(), bx = b.x(), by = b.y(), cx = c.x(), cy = c.y();

        // Twice the signed area; zero for triangles that are edge-on in the ground plane, which
        // can still be reached through the nearest-edge fallback below.
        const double area2 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
        if (area2 == 0.0) return false;
        const double na = (bx - px) * (cy - py) - (by - py) * (cx - px);
        const double nb = (cx - px) * (ay - py) - (cy - py) * (ax - px);
        const double nc = (ax - px) * (by - py) - (ay - py) * (bx - px);
        // A coordinate below twice -kInsideEpsilon (far beyond the rounding of the quotient)
        // rejects the triangle without the divisions: most triangles of a cell miss the point.
        const double sign = area2 > 0.0 ? 1.0 : -1.0, bound = -2.0 * kInsideEpsilon * std::fabs(area2);
        if (na * sign < bound || nb * sign < bound || nc * sign < bound) return false;
        double wa = na / area2, wb = nb / area2, wc = nc / area2;
        if (!(wa >= -kInsideEpsilon && wb >= -kInsideEpsilon && wc >= -kInsideEpsilon)) return false;
        // Clamp the slack away so the result stays a convex combination of the corners.
        wa = wa > 0.0 ? wa : 0.0;
        wb = wb > 0.0 ? wb : 0.0;
        wc = wc > 0.0 ? wc : 0.0;
        const double sum = wa + wb + wc;
        if (!(sum > 0.0 && finite(sum))) return false;
        const double za = a.z(), zb = b.z(), zc = c.z();
        const double z = (wa * za + wb * zb + wc * zc) / sum;
        *height = float(clampTo(z, min3(za, zb, zc), max3(za, zb, zc)));
        return true;
    };
    // Outside (or edge-on): the closest point on the triangle lies on one of its edges; keeps the
    // nearest edge point, ties to the lower triangle index (the order of a full scan).
    auto nearestEdge = [&](uint32_t i) {
        const fb::Triangle* t = tris->Get(i);
        const fb::Vec3& a = *verts->Get(t->a());
        const fb::Vec3& b = *verts->Get(t->b());
        const fb::Vec3& c = *verts->Get(t->c());
        const fb::Vec3* edges[3][2] = {{&a, &b}, {&b, &c}, {&c, &a}};
        for (const auto& e : edges) {
            double z;
            const double d2 = closestOnSegment(px, py, *e[0], *e[1], &z);
            if (d2 < best_d2 || (d2 == best_d2 && i < best_triangle)) {
                best_d2 = d2;
                best_z = z;
                best_triangle = i;
            }
        }
    };

    // The triangles to try, in order: the first that contains the point is the answer; when none
    // does, the nearest edge point among them all (so the edges wait until no triangle holds it).
    const fb::SurfaceGrid* grid = l->surface_grid();
    if (!grid) {
        // Older assets: every triangle; they do not overlap, so the first hit is the answer.
        for (uint32_t i = 0, n = sizeOf(tris); i < n; ++i)
            if (contains(i)) return Status::Ok;
        for (uint32_t i = 0, n = sizeOf(tris); i < n; ++i)
            nearestEdge(i);
    } else {
        // A triangle containing the point is listed in the point's cell (in index order, so the
        // first hit is a full scan's); one within the tolerance meets a cell of the square
        // around it.
        const auto* start = grid->cell_start();
        const auto* items = grid->cell_triangles();
        const double cs = grid->cell_size(), min_x = grid->min_x(), min_y = grid->min_y();
        const uint32_t nx = grid->cells_x(), ny = grid->cells_y();
        auto cellOf = [cs](double v, double lo, uint32_t n) {
            const double f = std::floor((v - lo) / cs);
            return f <= 0.0 ? 0u : (f >= double(n - 1) ? n - 1 : uint32_t(f));
        };
        const uint32_t ci = cellOf(px, min_x, nx), cj = cellOf(py, min_y, ny);
        auto each = [&](auto fn) {
            for (uint32_t k = start->Get(cj * nx + ci), end = start->Get(cj * nx + ci + 1); k < end; ++k)
                if (fn(items->Get(k))) return true;
            // The square round the point only when its own cell has no answer (most points lie
            // on a triangle of their cell).
            const double tol = tolerance;
            const uint32_t i0 = cellOf(px - tol, min_x, nx), i1 = cellOf(px + tol, min_x, nx);
            const uint32_t j0 = cellOf(py - tol, min_y, ny), j1 = cellOf(py + tol, min_y, ny);
            for (uint32_t j = j0; j <= j1; ++j)
                for (uint32_t i = i0; i <= i1; ++i)
                    for (uint32_t k = start->Get(j * nx + i), end = start->Get(j * nx + i + 1); k < end; ++k)
                        if (fn(items->Get(k))) return true; // within the inside test's slack
            return false;
        };
        if (each(contains)) return Status::Ok;
        each([&](uint32_t i) {
            nearestEdge(i);
            return false;
        });
    }

    const double tol = tolerance;
    if (best_d2 <= tol * tol) {
        *height = float(best_z);
        return Status::Ok;
    }
    return Status::NotFound;
}

// Y-up right-handed -> Z-up right-handed is a +90 degree turn about X: (x, y, z) -> (x, -z, y).
Vec3d footprintWorldToLocal(const FootprintInfo& info, Vec3d world) {
    const double s = info.scale;
    Vec3d internal;
    if (info.up_axis == static_cast<uint8_t>(fb::UpAxis::Y))
        internal = Vec3d{world.x * s, -world.z * s, world.y * s};
    else
        internal = Vec3d{world.x * s, world.y * s, world.z * s};
    return Vec3d{internal.x - info.origin.x, internal.y - info.origin.y, internal.z - info.origin.z};
}

Vec3d footprintLocalToWorld(const FootprintInfo& info, Vec3d local) {
    const double s = info.scale;
    const Vec3d internal{local.x + info.origin.x, local.y + info.origin.y, local.z + info.origin.z};
    if (info.up_axis == static_cast<uint8_t>(fb::UpAxis::Y))
        return Vec3d{internal.x / s, internal.z / s, -internal.y / s};
    return Vec3d{internal.x / s, internal.y / s, internal.z / s};
}

} // namespace clearway
