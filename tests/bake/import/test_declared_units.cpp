// The up axis and units a file declares (FBX's UpAxis and UnitScaleFactor, glTF's Y up in metres,
// COLLADA's <up_axis> and <unit>, which Assimp applies) are used unless --up / --scale say
// otherwise, and the import says which it used and why.
#include <clearway/bake.h>

#include "scenes.h"

#include <doctest/doctest.h>

#include "test_files.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::bake;

namespace {

const std::string kData = std::string(CLEARWAY_SAMPLES) + "/../tests/bake/data/";

struct Box {
    Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
};

// Bounds in the internal frame (Z up, metres).
Box boundsOf(const Mesh& mesh) {
    Box b;
    for (const Vec3& p : mesh.positions) {
        b.lo = {std::min(b.lo.x, p.x), std::min(b.lo.y, p.y), std::min(b.lo.z, p.z)};
        b.hi = {std::max(b.hi.x, p.x), std::max(b.hi.y, p.y), std::max(b.hi.z, p.z)};
    }
    return b;
}

void checkSameBounds(const Box& got, const Box& want, double tolerance) {
    CHECK(got.lo.x == doctest::Approx(want.lo.x).epsilon(tolerance));
    CHECK(got.lo.y == doctest::Approx(want.lo.y).epsilon(tolerance));
    CHECK(got.lo.z == doctest::Approx(want.lo.z).epsilon(tolerance));
    CHECK(got.hi.x == doctest::Approx(want.hi.x).epsilon(tolerance));
    CHECK(got.hi.y == doctest::Approx(want.hi.y).epsilon(tolerance));
    CHECK(got.hi.z == doctest::Approx(want.hi.z).epsilon(tolerance));
}

Mesh load(const std::string& path, const ImportOptions& options = defaultImportOptions()) {
    Mesh mesh;
    const Error e = loadMesh(path, options, &mesh, silentLog());
    REQUIRE_MESSAGE(!e, e.message);
    return mesh;
}

// The two-storey scene (Y up, metres) as a 3ds Max / Unreal export would hold it: Z up, centimetres.
std::vector<Vec3> zUpCentimetres(const std::vector<Vec3>& y_up_metres) {
    std::vector<Vec3> out;
    for (const Vec3& v : y_up_metres)
        out.push_back({v.x * 100, -v.z * 100, v.y * 100});
    return out;
}

// The mesh stands on internal z = bottom and reaches z = top (metres, Z up).
void checkHeights(const Mesh& mesh, double bottom, double top) {
    const Box box = boundsOf(mesh);
    CHECK(box.lo.z == doctest::Approx(bottom).epsilon(1e-6));
    CHECK(box.hi.z == doctest::Approx(top).epsilon(1e-6));
}

void checkUnits(const ImportUnits& units, UpAxis up, double scale, UnitsSource up_source,
                UnitsSource scale_source) {
    CHECK(units.up == up);
    CHECK(units.scale == scale);
    CHECK(units.up_source == up_source);
    CHECK(units.scale_source == scale_source);
}

// The two-storey scene written as a Z-up centimetre FBX in `dir`: its path.
std::string writeZUpCentimetreFbx(const scenes::Scene& scene, const std::string& dir) {
    const std::string path = dir + "/two_storey_zup_cm.fbx";
    REQUIRE_FALSE(
        exportTriangles(zUpCentimetres(scene.positions), scene.indices, "fbxa", path, UpAxis::Z, 0.01));
    return path;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_SUITE("bake/import") {
    TEST_CASE("declared units: a Z-up centimetre FBX imports in metres, Z up, with no options") {
        const scenes::Scene scene = scenes::twoStorey();
        const std::string dir = test::makeTempDir();
        const std::string path = writeZUpCentimetreFbx(scene, dir);
        const Mesh mesh = load(path);
        checkUnits(mesh.units, UpAxis::Z, 0.01, UnitsSource::File, UnitsSource::File);
        CHECK(mesh.units.up_why == "the file's UpAxis");
        CHECK(mesh.units.scale_why == "the file's UnitScaleFactor: 1 cm per unit");
        // The same internal mesh as the Y-up metre original: right size, floors facing up.
        Mesh original;
        REQUIRE_FALSE(meshFromTriangles(scene.positions, scene.indices, defaultImportOptions(), "two_storey",
                                        &original));
        checkSameBounds(boundsOf(mesh), boundsOf(original), 1e-5);
        const ImportOptions used = optionsUsed(mesh, defaultImportOptions());
        CHECK(upAxisWarning(mesh, used).empty());
        Footprint fp;
        REQUIRE_FALSE(buildFootprint(mesh, used, &fp, silentLog()));
        const LevelSize size = levelSizeOf(fp);
        CHECK(size.walkable_area == doctest::Approx(scene.expected_area).epsilon(0.01));
        CHECK(levelSizeWarnings(size, used).empty());
        CHECK(fp.options.up == UpAxis::Z); // the asset maps the file's own coordinates
        CHECK(fp.options.scale == 0.01);
        CHECK(unitsText(mesh.units) ==
              "up z (the file's UpAxis), scale 0.01 m per unit (the file's UnitScaleFactor: 1 cm per unit)");
        std::filesystem::remove_all(dir);
    }

    TEST_CASE("declared units: --up and --scale override the file and say so") {
        const scenes::Scene scene = scenes::twoStorey();
        const std::string dir = test::makeTempDir();
        const std::string path = writeZUpCentimetreFbx(scene, dir);
        ImportOptions options = defaultImportOptions();
        options.up = UpAxis::Y, options.up_given = true;
        options.scale = 0.02, options.scale_given = true;
        const Mesh mesh = load(path, options);
        checkUnits(mesh.units, UpAxis::Y, 0.02, UnitsSource::Option, UnitsSource::Option);
        CHECK(unitsText(mesh.units) == "up y (--up), scale 0.02 m per unit (--scale)");
        // Only one given: the other still comes from the file.
        ImportOptions scale_only = defaultImportOptions();
        scale_only.scale = 0.01, scale_only.scale_given = true;
        const Mesh mixed = load(path, scale_only);
        checkUnits(mixed.units, UpAxis::Z, 0.01, UnitsSource::File, UnitsSource::Option);

        // The tools: the summary line and --json say which was used and why.
        const std::string bin = std::string(CLEARWAY_BIN_DIR);
        std::string out;
        CHECK(test::runTool(bin + "/cw-import " + path + " -o " + dir + "/a.cwfp", &out) == 0);
        CHECK(contains(out, "units: up z (the file's UpAxis), scale 0.01 m per unit (the file's "
                            "UnitScaleFactor: 1 cm per unit)"));
        CHECK(test::runTool(bin + "/cw-import " + path + " -o " + dir + "/a.cwfp --up Y --scale 0.02",
                            &out) == 0);
        CHECK(contains(out, "units: up y (--up), scale 0.02 m per unit (--scale)"));
        CHECK(test::runTool(bin + "/cw-bake " + path + " -o " + dir + "/a.cwrm --json -q", &out) == 0);
        CHECK(contains(
            out, "\"units\": {\"up\": \"z\", \"up_source\": \"file\", \"up_why\": \"the file's UpAxis\", "
                 "\"scale\": 0.01, \"scale_source\": \"file\""));
        CHECK(test::runTool(bin + "/cw-import " + path + " -o " + dir + "/a.cwfp --json -q --scale 0.01",
                            &out) == 0);
        CHECK(contains(out, "\"scale\": 0.01, \"scale_source\": \"option\", \"scale_why\": \"--scale\""));
        // --if-changed compares with the units the file declares: an unchanged bake is skipped.
        CHECK(test::runTool(bin + "/cw-import " + path + " -o " + dir + "/a.cwfp", &out) == 0);
        CHECK(test::runTool(bin + "/cw-import " + path + " -o " + dir + "/a.cwfp --if-changed", &out) == 0);
        CHECK(contains(out, "up to date"));
        CHECK(test::runTool(bin + "/cw-bake " + path + " -o " + dir + "/a.cwrm", &out) == 0);
        CHECK(test::runTool(bin + "/cw-bake " + path + " -o " + dir + "/a.cwrm --if-changed", &out) == 0);
        CHECK(contains(out, "up to date"));
        std::filesystem::remove_all(dir);
    }

    TEST_CASE("declared units: glTF stays Y up in metres, OBJ keeps the defaults") {
        const scenes::Scene scene = scenes::twoStorey();
        const std::string dir = test::makeTempDir();
        Mesh original;
        REQUIRE_FALSE(meshFromTriangles(scene.positions, scene.indices, defaultImportOptions(), "two_storey",
                                        &original));
        CHECK(original.units.up_source == UnitsSource::Default); // no file: the options' values
        for (const char* format : {"gltf2", "glb2"}) {
            CAPTURE(format);
            const std::string path = dir + "/level." + (std::string(format) == "gltf2" ? "gltf" : "glb");
            REQUIRE_FALSE(exportTriangles(scene.positions, scene.indices, format, path));
            const Mesh mesh = load(path);
            checkUnits(mesh.units, UpAxis::Y, 1, UnitsSource::File, UnitsSource::File);
            CHECK(unitsText(mesh.units) == "up y (glTF is Y up), scale 1 m per unit (glTF is in metres)");
            checkSameBounds(boundsOf(mesh), boundsOf(original), 1e-6);
        }
        const std::string obj = dir + "/level.obj";
        REQUIRE_FALSE(exportTriangles(scene.positions, scene.indices, "obj", obj));
        const Mesh mesh = load(obj);
        checkUnits(mesh.units, UpAxis::Y, 1, UnitsSource::Default, UnitsSource::Default);
        CHECK(unitsText(mesh.units) == "up y (default), scale 1 m per unit (default)");
        ImportOptions z = defaultImportOptions();
        z.up = UpAxis::Z, z.up_given = true;
        CHECK(load(obj, z).units.up_source == UnitsSource::Option);
        std::filesystem::remove_all(dir);
    }

    TEST_CASE("declared units: real exports from Debian's Assimp test models") {
        // 3ds Max via FBX SDK 2018 (ASCII): Z up, metres (a 1.2 m box standing on z = 0).
        const Mesh max = load(kData + "box_zup_m.fbx");
        checkUnits(max.units, UpAxis::Z, 1, UnitsSource::File, UnitsSource::File);
        CHECK(max.units.scale_why == "the file's UnitScaleFactor: 100 cm per unit");
        checkHeights(max, 0, 1.2);
        CHECK(boundsOf(max).hi.x - boundsOf(max).lo.x == doctest::Approx(1.2).epsilon(1e-6));
        // FBX SDK 2018 binary: Y up, centimetres (a 1 cm cube).
        const Mesh cm = load(kData + "box_yup_cm.fbx");
        checkUnits(cm.units, UpAxis::Y, 0.01, UnitsSource::File, UnitsSource::File);
        const Box cm_box = boundsOf(cm);
        CHECK(cm_box.hi.z - cm_box.lo.z == doctest::Approx(0.01).epsilon(1e-6));
        // COLLADAMax: <up_axis>Z_UP</up_axis>, <unit meter="0.0254"/>; Assimp applies both (a 2 inch
        // cube standing on the ground), so clearway takes it as Y up in metres.
        const Mesh dae = load(kData + "cube_zup_inch.dae");
        checkUnits(dae.units, UpAxis::Y, 1, UnitsSource::File, UnitsSource::File);
        CHECK(dae.units.up_why == "the file's <up_axis>, made Y up by Assimp");
        checkHeights(dae, 0, 0.0508);
    }

    TEST_CASE(
        "declared units: an FBX up axis clearway cannot use is refused with a warning, and from memory too") {
        const scenes::Scene scene = scenes::twoStorey();
        const std::string dir = test::makeTempDir();
        const std::string path = dir + "/level.fbx";
        REQUIRE_FALSE(exportTriangles(scene.positions, scene.indices, "fbxa", path));
        const std::vector<uint8_t> bytes = test::readFile(path);
        std::string text(bytes.begin(), bytes.end());
        Mesh mesh;
        REQUIRE_FALSE(loadMeshFromMemory(text.data(), text.size(), "fbx", defaultImportOptions(), "level.fbx",
                                         &mesh, silentLog()));
        // exportTriangles declares Y up in metres (100 cm per unit).
        checkUnits(mesh.units, UpAxis::Y, 1, UnitsSource::File, UnitsSource::File);
        const std::string declared = "\"UpAxis\", \"int\", \"Integer\", \"\", 1";
        const size_t at = text.find(declared);
        REQUIRE(at != std::string::npos);
        text.replace(at, declared.size(), "\"UpAxis\", \"int\", \"Integer\", \"\", 0"); // X up
        struct Collect : LogContext {
            std::string all;
            void log(LogLevel, const std::string& m) override { all += m + "\n"; }
        } log;
        REQUIRE_FALSE(loadMeshFromMemory(text.data(), text.size(), "fbx", defaultImportOptions(), "level.fbx",
                                         &mesh, log));
        checkUnits(mesh.units, UpAxis::Y, 1, UnitsSource::Default, UnitsSource::File);
        CHECK(contains(log.all, "level.fbx: the file declares its up axis as x, which clearway cannot use"));
        std::filesystem::remove_all(dir);
    }

} // TEST_SUITE
