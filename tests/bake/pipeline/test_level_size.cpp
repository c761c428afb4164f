// The bake summaries give a level's size and walkable area and warn when they are implausible
// (wrong units, wrong up axis): such levels used to bake "successfully" with nothing said.
#include <clearway/bake.h>

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace clearway::bake;

namespace {

// An axis-aligned square floor `side` units wide (Y up), plus `storeys` more floors above it.
Footprint floors(double side, int storeys, const ImportOptions& options) {
    std::vector<Vec3> p;
    std::vector<uint32_t> idx;
    for (int s = 0; s <= storeys; ++s) {
        const double y = 3.0 * s / options.scale, h = side / 2;
        const auto base = uint32_t(p.size());
        p.insert(p.end(), {{-h, y, -h}, {-h, y, h}, {h, y, h}, {h, y, -h}});
        idx.insert(idx.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
    Mesh mesh;
    REQUIRE_FALSE(meshFromTriangles(p, idx, options, "floors", &mesh));
    Footprint fp;
    const Error e = buildFootprint(mesh, options, &fp, silentLog());
    REQUIRE_MESSAGE(!e, e.message);
    return fp;
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
    for (const std::string& w : warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("level size: a 20 m floor is 20 m across with its area, world bounds in mesh units, no warning") {
    ImportOptions options = defaultImportOptions();
    options.scale = 0.5; // mesh units are half metres: 40 units = 20 m
    const Footprint fp = floors(40, 0, options);
    const LevelSize size = levelSizeOf(fp);
    CHECK(size.across == doctest::Approx(20).epsilon(1e-6));
    CHECK(size.walkable_area == doctest::Approx(400).epsilon(1e-3));
    CHECK(size.world_min.x == doctest::Approx(-20).epsilon(1e-6));
    CHECK(size.world_max.z == doctest::Approx(20).epsilon(1e-6));
    CHECK(levelSizeWarnings(size, options).empty());
}

TEST_CASE("level size: centimetres read as metres, metres shrunk by a stray --scale, floors stacked on their side") {
    ImportOptions options = defaultImportOptions();
    const LevelSize huge = levelSizeOf(floors(60000, 0, options)); // a 600 m level exported in cm
    CHECK(mentions(levelSizeWarnings(huge, options), "--scale 0.01"));

    options.scale = 0.01; // a level already in metres, scaled again
    const LevelSize tiny = levelSizeOf(floors(50, 0, options));
    CHECK(tiny.across == doctest::Approx(0.5).epsilon(1e-6));
    CHECK(mentions(levelSizeWarnings(tiny, options), "drop --scale"));

    options = defaultImportOptions(); // five floors on one footprint: 5x the ground box
    const LevelSize stacked = levelSizeOf(floors(20, 4, options));
    CHECK(stacked.walkable_area == doctest::Approx(5 * 400).epsilon(1e-3));
    CHECK(mentions(levelSizeWarnings(stacked, options), "--up z"));
    CHECK(levelSizeWarnings(levelSizeOf(floors(20, 1, options)), options).empty()); // two storeys are fine
}

TEST_CASE("level size: the scale hint names where the scale came from (the file's units, --scale, none)") {
    ImportOptions options = defaultImportOptions();
    options.scale = 0.01; // a file declaring centimetres whose numbers are metres
    const LevelSize tiny = levelSizeOf(floors(50, 0, options));
    ImportUnits units;
    units.scale = 0.01;
    units.scale_source = UnitsSource::File;
    units.scale_why = "the file's UnitScaleFactor (1 cm per unit)";
    const std::vector<std::string> file = levelSizeWarnings(tiny, options, &units);
    CHECK(mentions(file, "the file's declared units (the file's UnitScaleFactor"));
    CHECK(mentions(file, "--scale 1"));
    CHECK_FALSE(mentions(file, "drop --scale"));
    units.scale_source = UnitsSource::Option;
    CHECK(mentions(levelSizeWarnings(tiny, options, &units), "drop --scale"));

    options = defaultImportOptions(); // 600 m exported in centimetres, no unit declared
    const LevelSize huge = levelSizeOf(floors(60000, 0, options));
    units = ImportUnits{};
    const std::vector<std::string> none = levelSizeWarnings(huge, options, &units);
    CHECK(mentions(none, "declares no units"));
    CHECK(mentions(none, "--scale 0.01"));
}

TEST_CASE("level size: a Z-up level read as Y-up has nothing walkable, and the error names --up z") {
    // A floor in the x-y plane of a Z-up export: read as Y-up it stands upright.
    const std::vector<Vec3> p = {{-10, -10, 0}, {10, -10, 0}, {10, 10, 0}, {-10, 10, 0}};
    const std::vector<uint32_t> idx = {0, 1, 2, 0, 2, 3};
    Mesh mesh;
    REQUIRE_FALSE(meshFromTriangles(p, idx, defaultImportOptions(), "z-up", &mesh));
    Footprint fp;
    const Error e = buildFootprint(mesh, defaultImportOptions(), &fp, silentLog());
    CHECK(e.code == ErrorCode::NoWalkableSurface);
    CHECK(e.message.find("--up z") != std::string::npos);
    ImportOptions z = defaultImportOptions();
    z.up = UpAxis::Z;
    REQUIRE_FALSE(meshFromTriangles(p, idx, z, "z-up", &mesh));
    CHECK_FALSE(buildFootprint(mesh, z, &fp, silentLog()));
    CHECK(levelSizeWarnings(levelSizeOf(fp), z).empty());
}

#include "scenes.h"

TEST_CASE("exporter conventions: the two-storey scene as Y-up metres, Y-up cm, Z-up metres and Z-up cm bakes to the same area with the documented options") {
    // docs/tools.md "Units and up axis": Blender, Unity and glTF export Y-up metres (defaults),
    // Maya Y-up centimetres (--scale 0.01), 3ds Max and Unreal Z-up centimetres (--up z --scale
    // 0.01). The same level written each way must bake to the same walkable area with those
    // options and no warning; a Z-up file read with the defaults must be told --up z. (A level in
    // centimetres read as metres is only caught by size when it is over 500 m wide.)
    const clearway::scenes::Scene scene = clearway::scenes::twoStorey();
    struct Convention {
        const char* name;
        bool z_up;
        double units_per_metre;
    };
    const Convention conventions[] = {{"Y-up metres", false, 1}, {"Y-up centimetres", false, 100},
                                      {"Z-up metres", true, 1}, {"Z-up centimetres", true, 100}};
    for (const Convention& c : conventions) {
        INFO(c.name);
        std::vector<Vec3> p;
        for (const Vec3& v : scene.positions) // Y-up (x, y, z) -> Z-up (x, -z, y): a rotation
            p.push_back(c.z_up ? Vec3{v.x * c.units_per_metre, -v.z * c.units_per_metre, v.y * c.units_per_metre}
                               : Vec3{v.x * c.units_per_metre, v.y * c.units_per_metre, v.z * c.units_per_metre});
        ImportOptions options = defaultImportOptions();
        options.up = c.z_up ? UpAxis::Z : UpAxis::Y;
        options.scale = 1.0 / c.units_per_metre;
        Mesh mesh;
        REQUIRE_FALSE(meshFromTriangles(p, scene.indices, options, c.name, &mesh));
        CHECK(upAxisWarning(mesh, options).empty());
        Footprint fp;
        REQUIRE_FALSE(buildFootprint(mesh, options, &fp, silentLog()));
        const LevelSize size = levelSizeOf(fp);
        CHECK(size.walkable_area == doctest::Approx(scene.expected_area).epsilon(0.01));
        CHECK(levelSizeWarnings(size, options).empty());
        if (c.z_up) { // read with the defaults (Y up): the summary says --up z
            const ImportOptions defaults = defaultImportOptions();
            Mesh as_default;
            REQUIRE_FALSE(meshFromTriangles(p, scene.indices, defaults, c.name, &as_default));
            CHECK(upAxisWarning(as_default, defaults).find("--up z") != std::string::npos);
        }
    }
}
