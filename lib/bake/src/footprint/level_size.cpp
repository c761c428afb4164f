// A baked level's size and the warnings for sizes no walkable level has: a mesh in centimetres
// read as metres is 100 times too wide, a Z-up export read as Y-up stands on its side. Both bake
// "successfully", so the summary says so instead.
#include <clearway/bake/footprint.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace clearway::bake {

namespace {

std::string metres(double v) {
    char text[48];
    if (v >= 1000)
        std::snprintf(text, sizeof text, "%.4g km", v / 1000);
    else if (v >= 1 || v == 0)
        std::snprintf(text, sizeof text, "%.4g m", v);
    else
        std::snprintf(text, sizeof text, "%.3g cm", v * 100);
    return text;
}

std::string squareMetres(double v) {
    char text[48];
    std::snprintf(text, sizeof text, "%.4g m2", v);
    return text;
}

} // namespace

LevelSize levelSizeOf(const Footprint& fp) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    Vec3 lo{kInf, kInf, kInf}, hi{-kInf, -kInf, -kInf};
    auto grow = [&](double x, double y, double z) {
        lo = {std::min(lo.x, x), std::min(lo.y, y), std::min(lo.z, z)};
        hi = {std::max(hi.x, x), std::max(hi.y, y), std::max(hi.z, z)};
    };
    LevelSize size;
    for (const FootprintLayer& layer : fp.layers) {
        size.walkable_area += layer.area;
        for (const PolygonWithHoles& p : layer.polygons)
            for (const Vec2& v : p.outer)
                grow(v.x, v.y, layer.height_min), grow(v.x, v.y, layer.height_max);
        for (const Vec3& v : layer.surface_vertices)
            grow(v.x, v.y, v.z);
    }
    if (!(lo.x <= hi.x)) return size; // nothing walkable: no bounds
    size.across = std::max(hi.x - lo.x, hi.y - lo.y);
    size.ground_area = (hi.x - lo.x) * (hi.y - lo.y);
    // The local box's corners in the mesh's own coordinates (the frame is a rotation and a scale).
    size.world_min = {kInf, kInf, kInf};
    size.world_max = {-kInf, -kInf, -kInf};
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 local{corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z};
        const Vec3 w = internalToWorld({local.x + fp.origin.x, local.y + fp.origin.y, local.z + fp.origin.z},
                                       fp.options);
        size.world_min = {std::min(size.world_min.x, w.x), std::min(size.world_min.y, w.y),
                          std::min(size.world_min.z, w.z)};
        size.world_max = {std::max(size.world_max.x, w.x), std::max(size.world_max.y, w.y),
                          std::max(size.world_max.z, w.z)};
    }
    size.world_min = {size.world_min.x + 0.0, size.world_min.y + 0.0, size.world_min.z + 0.0}; // no "-0"
    size.world_max = {size.world_max.x + 0.0, size.world_max.y + 0.0, size.world_max.z + 0.0};
    return size;
}

namespace {

// How the scale was chosen, and what to do when the level's size says it is wrong: the hint
// depends on where the scale came from (a stray --scale, the file's own unit declaration, or
// nothing declared at all).
struct ScaleHint {
    std::string at, too_small, too_large;
};
ScaleHint scaleHint(const ImportOptions& options, const ImportUnits* units) {
    char scale[32];
    std::snprintf(scale, sizeof scale, "%g", options.scale);
    if (units && units->scale_source == UnitsSource::File)
        return {std::string("at the file's declared units (") + units->scale_why + ", " + scale + " m per unit)",
                "is the file's unit declaration wrong? --scale overrides it (--scale 1: the mesh is in metres)",
                "is the file's unit declaration wrong? --scale overrides it (0.01 for centimetres, 0.001 for "
                "millimetres)"};
    if (units && units->scale_source == UnitsSource::Default)
        return {"at scale 1 (the file declares no units: metres assumed)",
                "is the mesh in larger units than metres (--scale 1000 for kilometres)?",
                "a mesh in centimetres needs --scale 0.01, in millimetres --scale 0.001"};
    return {std::string("at --scale ") + scale,
            "is the mesh already in metres (drop --scale) or in larger units than that?",
            "a mesh in centimetres needs --scale 0.01, in millimetres --scale 0.001"};
}

} // namespace

std::vector<std::string> levelSizeWarnings(const LevelSize& size, const ImportOptions& options,
                                           const ImportUnits* units) {
    std::vector<std::string> warnings;
    const char* other_up = options.up == UpAxis::Y ? "--up z" : "--up y";
    const ScaleHint hint = scaleHint(options, units);
    if (size.walkable_area <= 0) {
        warnings.push_back(std::string("nothing is walkable: if the mesh was exported with the other up axis, "
                                       "bake it with ") +
                           other_up);
        return warnings;
    }
    if (size.across < 1)
        warnings.push_back("the level is only " + metres(size.across) + " across " + hint.at + ": " + hint.too_small);
    if (size.across > 50000)
        warnings.push_back("the level is " + metres(size.across) + " across " + hint.at + ": " + hint.too_large);
    if (size.walkable_area > 2 * size.ground_area)
        warnings.push_back("the walkable area (" + squareMetres(size.walkable_area) + ") is more than twice the "
                           "level's ground box (" + squareMetres(size.ground_area) + "): floors stacked like the "
                           "walls of a level lying on its side? try " + other_up);
    return warnings;
}

std::string upAxisWarning(const Mesh& mesh, const ImportOptions& options) {
    // Internal frame: z is up as read. The other convention's up axis is internal y either way
    // (Y-up read: the file's z became -y; Z-up read: the file's y is y).
    double facing_up = 0, facing_other_up = 0;
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const Vec3 &a = mesh.positions[mesh.indices[t]], &b = mesh.positions[mesh.indices[t + 1]],
                   &c = mesh.positions[mesh.indices[t + 2]];
        const double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z, vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
        const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        const double twice_area = std::sqrt(nx * nx + ny * ny + nz * nz);
        if (!(twice_area > 0)) continue;
        if (std::fabs(nz) > 0.9 * twice_area) facing_up += twice_area;
        if (std::fabs(ny) > 0.9 * twice_area) facing_other_up += twice_area;
    }
    if (!(facing_other_up > 2 * facing_up)) return "";
    const bool y_up = options.up == UpAxis::Y;
    char text[200];
    std::snprintf(text, sizeof text,
                  "%.0f%% of the mesh's flat surface faces along %s, %.0f%% along the up axis %s: an export "
                  "with the other up axis? try %s",
                  100 * facing_other_up / (facing_up + facing_other_up), y_up ? "z" : "y",
                  100 * facing_up / (facing_up + facing_other_up), y_up ? "y" : "z", y_up ? "--up z" : "--up y");
    return text;
}

} // namespace clearway::bake
