// Footprint stage 1: the local frame (origin, output grid) and the walkable/obstacle
// classification of the mesh's triangles.
#include "footprint/footprint_internal.h"

#include <clearway/bake/geometry.h>

#include <cstdio>

namespace clearway::bake::footprint_internal {

Error meshFrame(const Mesh& mesh, const ImportOptions& options, const std::string& name, MeshFrame* out) {
    // Origin: the bounding-box centre rounded to whole metres (exact in double), so local
    // coordinates stay small and floats keep sub-millimetre precision far from the origin.
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t index : mesh.indices) {
        const Vec3& p = mesh.positions[index];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            return {ErrorCode::NonFiniteVertex,
                    name + ": vertex " + std::to_string(index) + " is not finite"};
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    const Vec3 origin{std::round((lo.x + hi.x) / 2), std::round((lo.y + hi.y) / 2),
                      std::round((lo.z + hi.z) / 2)};
    // Grid spacing: a power of two with every local coordinate an exact float multiple.
    const double extent = std::max({hi.x - origin.x, origin.x - lo.x, hi.y - origin.y, origin.y - lo.y});
    const double q = geometry::worldGridSpacing(extent);
    // Walls move by up to q when snapped and kWallHalfWidth when inflated; beyond epsilon the
    // promised accuracy is gone (and on absurd extents the wall strips degenerate, which broke
    // CGAL's sweep: tests/fuzz/regressions/import/sweep-multiset-glb).
    if (q + kWallHalfWidth > options.epsilon) {
        char text[256];
        std::snprintf(text, sizeof text,
                      ": the mesh spans %.6g x %.6g m; one bake that large snaps walls to a %.6g m grid, "
                      "coarser than --epsilon %.6g m. Bake it in tiles (--tile-size), raise --epsilon, "
                      "or remove stray far-away vertices",
                      hi.x - lo.x, hi.y - lo.y, q, options.epsilon);
        return {ErrorCode::InvalidOption, name + text};
    }
    // Heights are stored from the origin too, and assets refuse local coordinates beyond 2^24 m
    // (the runtime's bound): a stray vertex far above or below the level would put every surface
    // there (the import fuzzer's OBJ with one vertex 1.1e9 m up baked an asset no loader accepts).
    constexpr double kMaxLocalHeight = 16777216.0;
    if (std::max(hi.z - origin.z, origin.z - lo.z) > kMaxLocalHeight) {
        char text[256];
        std::snprintf(text, sizeof text,
                      ": the mesh spans %.6g m vertically (from %.6g to %.6g); heights more than %.0f m from its "
                      "centre cannot be stored. Remove stray far-away vertices",
                      hi.z - lo.z, lo.z, hi.z, kMaxLocalHeight);
        return {ErrorCode::InvalidOption, name + text};
    }
    *out = {lo, hi, origin, q};
    return {};
}

namespace {

// Triangle t of the mesh in local coordinates (turned over when `flip`), its normal, box and
// walkability; false when it is degenerate (no area, blocks nothing).
bool classifyTriangle(const Mesh& mesh, size_t t, bool flip, const Vec3& origin, double cos_slope, Tri* out) {
    Tri tri;
    for (int k = 0; k < 3; ++k) {
        const Vec3& p = mesh.positions[mesh.indices[3 * t + (flip && k > 0 ? 3 - k : k)]];
        tri.p[k] = {p.x - origin.x, p.y - origin.y, p.z - origin.z};
    }
    const Vec3 e1{tri.p[1].x - tri.p[0].x, tri.p[1].y - tri.p[0].y, tri.p[1].z - tri.p[0].z};
    const Vec3 e2{tri.p[2].x - tri.p[0].x, tri.p[2].y - tri.p[0].y, tri.p[2].z - tri.p[0].z};
    tri.normal = {e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x};
    const double len =
        std::sqrt(tri.normal.x * tri.normal.x + tri.normal.y * tri.normal.y + tri.normal.z * tri.normal.z);
    if (!(len > 1e-12)) return false;      // degenerate: no area, blocks nothing
    const double projected = tri.normal.z; // twice the projected area
    tri.walkable = projected > 1e-12 && tri.normal.z / len >= cos_slope - 1e-12;
    for (int a = 0; a < 3; ++a) {
        const double v[3] = {tri.p[0].x, tri.p[1].x, tri.p[2].x};
        const double w[3] = {tri.p[0].y, tri.p[1].y, tri.p[2].y};
        const double z[3] = {tri.p[0].z, tri.p[1].z, tri.p[2].z};
        const double* c = a == 0 ? v : a == 1 ? w : z;
        tri.min[a] = std::min({c[0], c[1], c[2]});
        tri.max[a] = std::max({c[0], c[1], c[2]});
    }
    *out = tri;
    return true;
}

} // namespace

Error classifyTriangles(const Mesh& mesh, const ImportOptions& options, const MeshFrame& frame,
                        const std::string& name, LogContext& log, ClassifiedMesh* out) {
    const double cos_slope = std::cos(options.max_slope_deg * M_PI / 180.0);
    std::vector<Tri>& tris = out->tris;
    tris.reserve(mesh.triangleCount());
    double size_sum = 0;
    // A closed shell wound inward (or partly so) is turned outward: its top is walkable and the
    // floor it encloses lies inside a solid, as for the same shell wound outward.
    const std::vector<bool> flips = outwardShellFlips(mesh);
    for (size_t t = 0; t < mesh.triangleCount(); ++t) {
        Tri tri;
        if (!classifyTriangle(mesh, t, flips[t], frame.origin, cos_slope, &tri)) continue;
        size_sum += std::max(tri.max[0] - tri.min[0], tri.max[1] - tri.min[1]);
        tris.push_back(tri);
    }
    out->walkable_count = std::count_if(tris.begin(), tris.end(), [](const Tri& t) { return t.walkable; });
    if (out->walkable_count == 0)
        return {ErrorCode::NoWalkableSurface,
                name + ": no walkable surface (no upward-facing triangle within the slope limit; if the mesh "
                       "was exported with the other up axis, bake it with " +
                       (options.up == UpAxis::Y ? "--up z)" : "--up y)")};
    log.log(LogLevel::Debug, name + ": " + std::to_string(out->walkable_count) + " walkable of " +
                                 std::to_string(tris.size()) + " triangles");

    // Twice the mean triangle: a bucket holds a few triangles (a fine grid of 10 cm cells in 0.5 m
    // buckets gave every edge of the links stage hundreds of candidates). The grid caps its
    // cell count, so a tiny mean cannot ask for too many buckets.
    out->cell = std::clamp(2.0 * size_sum / double(tris.size()), 0.01, 50.0);
    out->planes.assign(tris.size(), Plane{});
    for (size_t i = 0; i < tris.size(); ++i)
        if (tris[i].walkable) out->planes[i] = planeOf(tris[i]);
    return {};
}

Grid groundGrid(const MeshFrame& frame, double cell) {
    const Vec3& lo = frame.lo;
    const Vec3& hi = frame.hi;
    const Vec3& origin = frame.origin;
    // Bucket borders a fraction of a cell off the level's corner: levels are laid out on round
    // grids, and an edge on a bucket border is in both buckets (a fine floor's seams all were).
    const double offset = 0.37 * cell;
    return Grid(lo.x - origin.x - offset, lo.y - origin.y - offset, hi.x - origin.x, hi.y - origin.y, cell);
}

Grid triangleGrid(const MeshFrame& frame, const ClassifiedMesh& mesh) {
    Grid grid = groundGrid(frame, mesh.cell);
    for (uint32_t i = 0; i < mesh.tris.size(); ++i)
        grid.insert(i, mesh.tris[i].min[0], mesh.tris[i].min[1], mesh.tris[i].max[0], mesh.tris[i].max[1]);
    return grid;
}

} // namespace clearway::bake::footprint_internal
