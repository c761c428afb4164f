// Footprint loader: valid assets load zero-copy and answer queries; every malformed asset yields a
// status (run under ASan+UBSan to catch the "never a crash" half).
#include <clearway/runtime.h>

#include <clearway/schema/footprint_generated.h>

#include <doctest/doctest.h>

#include "asset_robustness.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <vector>

using namespace clearway;
namespace fb = clearway::schema;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Layer 0's walkable surface is the plane z = 1 + 0.1 x + 0.2 y over [0,10]^2.
double plane(double x, double y) {
    return 1.0 + 0.1 * x + 0.2 * y;
}

struct LayerSpec {
    std::vector<fb::Vec2> boundary;
    std::vector<fb::Ring> rings;
    std::vector<fb::Polygon> polygons;
    std::vector<fb::Vec3> surface;
    std::vector<fb::Triangle> triangles;
    double area = 0;
    float height_min = 0, height_max = 0;
};

struct AssetSpec {
    const char* identifier = "CWFP";
    uint32_t format_version = kFootprintFormatVersion;
    const char* baker_version = "0.1.0"; // nullptr: leave the field out
    uint64_t input_hash = 0x0123456789abcdefull;
    uint64_t options_hash = 0xfedcba9876543210ull;
    bool with_options = true;
    fb::UpAxis up_axis = fb::UpAxis::Y;
    double scale = 0.01; // centimetre source mesh
    double agent_height = 1.8;
    bool with_origin = true;
    fb::Vec3d origin{1000.5, -2000.25, 30.0};
    double grid_spacing = 0.25;
    std::vector<LayerSpec> layers;
    std::vector<fb::Connection> connections;
};

// Two layers: a 10 m square with a 2 m square hole on a slope, and a flat 4 m square beside it,
// joined by one connection along x = 10.
AssetSpec validSpec() {
    AssetSpec spec;
    LayerSpec ground;
    ground.boundary = {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {4, 4}, {4, 6}, {6, 6}, {6, 4}};
    ground.rings = {{0, 4}, {4, 4}};
    ground.polygons = {{0, 2}};
    for (auto& v : std::vector<fb::Vec2>{{0, 0}, {10, 0}, {10, 10}, {0, 10}})
        ground.surface.emplace_back(v.x(), v.y(), float(plane(v.x(), v.y())));
    ground.triangles = {{0, 1, 2}, {0, 2, 3}};
    ground.area = 96.0;
    ground.height_min = 1.0f;
    ground.height_max = 4.0f;

    LayerSpec ledge;
    ledge.boundary = {{10, 0}, {14, 0}, {14, 4}, {10, 4}};
    ledge.rings = {{0, 4}};
    ledge.polygons = {{0, 1}};
    ledge.surface = {{10, 0, 2.5f}, {14, 0, 2.5f}, {14, 4, 2.5f}, {10, 4, 2.5f}};
    ledge.triangles = {{0, 1, 2}, {0, 2, 3}};
    ledge.area = 16.0;
    ledge.height_min = ledge.height_max = 2.5f;

    spec.layers = {ground, ledge};
    spec.connections = {fb::Connection(0, 1, 10, 0, 10, 4, 2.0f, 2.8f, 2.5f, 2.5f)};
    return spec;
}

// The first object written ends the buffer; layer 0's boundary vector (8 Vec2 = 64 bytes) needs no
// trailing padding, so every byte of the finished asset is load-bearing (see the truncation test).
std::vector<uint8_t> build(const AssetSpec& spec) {
    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<fb::Layer>> layers;
    for (const LayerSpec& l : spec.layers) {
        auto boundary = b.CreateVectorOfStructs(l.boundary);
        auto rings = b.CreateVectorOfStructs(l.rings);
        auto polygons = b.CreateVectorOfStructs(l.polygons);
        auto surface = b.CreateVectorOfStructs(l.surface);
        auto triangles = b.CreateVectorOfStructs(l.triangles);
        layers.push_back(fb::CreateLayer(b, boundary, rings, polygons, surface, triangles, l.area,
                                         l.height_min, l.height_max));
    }
    auto layer_vec = b.CreateVector(layers);
    auto connections = b.CreateVectorOfStructs(spec.connections);
    auto baker = spec.baker_version ? b.CreateString(spec.baker_version) : 0;
    auto source = b.CreateString("test.glb");
    flatbuffers::Offset<fb::ImportOptions> options = 0;
    if (spec.with_options) options = fb::CreateImportOptions(b, spec.up_axis, spec.scale, spec.agent_height);
    auto root = fb::CreateFootprint(b, spec.format_version, baker, spec.input_hash, spec.options_hash,
                                    options, spec.with_origin ? &spec.origin : nullptr, spec.grid_spacing,
                                    layer_vec, connections, source);
    b.Finish(root, spec.identifier);
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

// std::vector storage comes from operator new, which is at least 8-byte aligned.
Status load(const std::vector<uint8_t>& bytes, FootprintView* view = nullptr) {
    FootprintView local;
    return loadFootprint(bytes.data(), bytes.size(), view ? view : &local);
}

Status loadSpec(const AssetSpec& spec) {
    return load(build(spec));
}

bool finite(double v) {
    return std::isfinite(v);
}

// Calls every accessor on every index of a loaded view; false if anything fails or is not finite.
bool walkEverything(const FootprintView& view) {
    bool ok = true;
    auto expect = [&](bool c) { ok = ok && c; };
    const uint8_t* begin = view.data;
    const uint8_t* end = view.data + view.size;

    FootprintInfo info;
    expect(footprintInfo(view, &info) == Status::Ok);
    if (!ok) return false;
    expect(info.baker_version != nullptr);
    expect(finite(info.origin.x) && finite(info.origin.y) && finite(info.origin.z));
    expect(finite(info.grid_spacing) && finite(info.scale) && info.scale > 0);
    expect(info.up_axis <= 1);
    expect(info.format_version >= 1 && info.format_version <= kFootprintFormatVersion);
    // Only that they return: huge/tiny scales may legitimately overflow to infinity.
    (void)footprintLocalToWorld(info, footprintWorldToLocal(info, Vec3d{1, 2, 3}));

    for (uint32_t l = 0; l < info.layer_count; ++l) {
        FootprintLayerInfo layer;
        expect(footprintLayer(view, l, &layer) == Status::Ok);
        if (!ok) return false;
        expect(finite(layer.area) && finite(layer.height_min) && finite(layer.height_max));
        for (uint32_t p = 0; p < layer.polygon_count; ++p) {
            uint32_t first = 0, count = 0;
            expect(footprintPolygon(view, l, p, &first, &count) == Status::Ok);
            expect(count >= 1 && uint64_t(first) + count <= layer.ring_count);
        }
        for (uint32_t r = 0; r < layer.ring_count; ++r) {
            const Vec2f* verts = nullptr;
            uint32_t count = 0;
            expect(footprintRing(view, l, r, &verts, &count) == Status::Ok);
            if (!ok) return false;
            expect(count >= 3);
            expect(reinterpret_cast<const uint8_t*>(verts) >= begin &&
                   reinterpret_cast<const uint8_t*>(verts + count) <= end);
            for (uint32_t i = 0; i < count; ++i) {
                expect(finite(verts[i].x) && finite(verts[i].y));
                float h = kNaN;
                const Status s = footprintHeightAt(view, l, verts[i].x, verts[i].y, 0.5f, &h);
                expect(s == Status::Ok || s == Status::NotFound);
                if (s == Status::Ok) expect(finite(h));
            }
        }
        for (float y = -1; y <= 15; y += 2.5f) {
            for (float x = -1; x <= 15; x += 2.5f) {
                float h = kNaN;
                const Status s = footprintHeightAt(view, l, x, y, 1.0f, &h);
                expect(s == Status::Ok || s == Status::NotFound);
                if (s == Status::Ok) expect(finite(h));
            }
        }
    }
    for (uint32_t c = 0; c < info.connection_count; ++c) {
        FootprintConnection con;
        expect(footprintConnection(view, c, &con) == Status::Ok);
        if (!ok) return false;
        expect(con.layer_a < info.layer_count && con.layer_b < info.layer_count);
        expect(finite(con.p0.x) && finite(con.p0.y) && finite(con.p1.x) && finite(con.p1.y));
        expect(finite(con.z_a0) && finite(con.z_a1) && finite(con.z_b0) && finite(con.z_b1));
    }
    return ok;
}

bool near(const Vec3d& a, const Vec3d& b, double eps) {
    return std::fabs(a.x - b.x) <= eps && std::fabs(a.y - b.y) <= eps && std::fabs(a.z - b.z) <= eps;
}

} // namespace

TEST_SUITE("runtime/footprint") {

    TEST_CASE("accepts a valid asset and reports exact counts, area, origin and version") {
        const auto bytes = build(validSpec());
        FootprintView view;
        REQUIRE(load(bytes, &view) == Status::Ok);
        CHECK(view.data == bytes.data());
        CHECK(view.size == bytes.size());

        FootprintInfo info;
        REQUIRE(footprintInfo(view, &info) == Status::Ok);
        CHECK(info.format_version == kFootprintFormatVersion);
        CHECK(info.layer_count == 2);
        CHECK(info.connection_count == 1);
        CHECK(info.input_hash == 0x0123456789abcdefull);
        CHECK(info.options_hash == 0xfedcba9876543210ull);
        CHECK(info.origin.x == 1000.5);
        CHECK(info.origin.y == -2000.25);
        CHECK(info.origin.z == 30.0);
        CHECK(info.grid_spacing == 0.25);
        CHECK(info.up_axis == 0);
        CHECK(info.scale == 0.01);
        CHECK(std::strcmp(info.baker_version, "0.1.0") == 0);

        FootprintLayerInfo ground;
        REQUIRE(footprintLayer(view, 0, &ground) == Status::Ok);
        CHECK(ground.polygon_count == 1);
        CHECK(ground.ring_count == 2);
        CHECK(ground.boundary_vertex_count == 8);
        CHECK(ground.surface_vertex_count == 4);
        CHECK(ground.surface_triangle_count == 2);
        CHECK(ground.area == 96.0);
        CHECK(ground.height_min == 1.0f);
        CHECK(ground.height_max == 4.0f);

        FootprintLayerInfo ledge;
        REQUIRE(footprintLayer(view, 1, &ledge) == Status::Ok);
        CHECK(ledge.ring_count == 1);
        CHECK(ledge.area == 16.0);

        uint32_t first = 99, count = 99;
        REQUIRE(footprintPolygon(view, 0, 0, &first, &count) == Status::Ok);
        CHECK(first == 0);
        CHECK(count == 2);

        FootprintConnection con;
        REQUIRE(footprintConnection(view, 0, &con) == Status::Ok);
        CHECK(con.layer_a == 0);
        CHECK(con.layer_b == 1);
        CHECK(con.p0.x == 10.0f);
        CHECK(con.p1.y == 4.0f);
        CHECK(con.z_a1 == 2.8f);
        CHECK(con.z_b0 == 2.5f);
    }

    TEST_CASE("rings are zero-copy views into the caller's buffer") {
        const auto bytes = build(validSpec());
        FootprintView view;
        REQUIRE(load(bytes, &view) == Status::Ok);

        const Vec2f* hole = nullptr;
        uint32_t count = 0;
        REQUIRE(footprintRing(view, 0, 1, &hole, &count) == Status::Ok);
        REQUIRE(count == 4);
        const auto* p = reinterpret_cast<const uint8_t*>(hole);
        CHECK(p >= bytes.data());
        CHECK(p + count * sizeof(Vec2f) <= bytes.data() + bytes.size());
        // Clockwise hole exactly as written.
        CHECK(hole[0].x == 4.0f);
        CHECK(hole[0].y == 4.0f);
        CHECK(hole[1].x == 4.0f);
        CHECK(hole[1].y == 6.0f);
        CHECK(hole[3].x == 6.0f);
        CHECK(hole[3].y == 4.0f);
    }

    TEST_CASE("height at known points equals the plane through the surface triangles") {
        const auto bytes = build(validSpec());
        FootprintView view;
        REQUIRE(load(bytes, &view) == Status::Ok);

        struct Probe {
            float x, y;
        };
        // Inside each triangle, on the shared diagonal, on corners and on the outer edges.
        for (Probe p : {Probe{2, 1}, Probe{1, 7}, Probe{5, 5}, Probe{7.5f, 2.5f}, Probe{0, 0}, Probe{10, 10},
                        Probe{10, 5}, Probe{3.25f, 9.75f}}) {
            CAPTURE(p.x);
            CAPTURE(p.y);
            float h = kNaN;
            REQUIRE(footprintHeightAt(view, 0, p.x, p.y, 0.0f, &h) == Status::Ok);
            CHECK(h == doctest::Approx(plane(p.x, p.y)).epsilon(1e-6));
        }
        float h = kNaN;
        REQUIRE(footprintHeightAt(view, 0, 2, 1, 0.0f, &h) == Status::Ok);
        CHECK(h == doctest::Approx(1.4).epsilon(1e-6)); // 1 + 0.2 + 0.2, by hand
        REQUIRE(footprintHeightAt(view, 1, 12, 2, 0.0f, &h) == Status::Ok);
        CHECK(h == 2.5f);
    }

    TEST_CASE("height outside every triangle is NotFound unless within tolerance of the nearest one") {
        const auto bytes = build(validSpec());
        FootprintView view;
        REQUIRE(load(bytes, &view) == Status::Ok);

        float h = -123.0f;
        CHECK(footprintHeightAt(view, 0, 12, 5, 0.1f, &h) == Status::NotFound);
        CHECK(footprintHeightAt(view, 0, -5, -5, 1.0f, &h) == Status::NotFound);
        CHECK(footprintHeightAt(view, 1, 5, 5, 0.5f, &h) == Status::NotFound);
        CHECK(h == -123.0f); // untouched on NotFound

        // 5 cm past the x = 10 edge: the closest surface point is (10, 5).
        REQUIRE(footprintHeightAt(view, 0, 10.05f, 5, 0.1f, &h) == Status::Ok);
        CHECK(h == doctest::Approx(plane(10, 5)).epsilon(1e-6));
        // Diagonally off the (0,0) corner, 7 cm away.
        REQUIRE(footprintHeightAt(view, 0, -0.05f, -0.05f, 0.1f, &h) == Status::Ok);
        CHECK(h == doctest::Approx(plane(0, 0)).epsilon(1e-6));
        // Same points with too small a tolerance.
        CHECK(footprintHeightAt(view, 0, 10.05f, 5, 0.01f, &h) == Status::NotFound);
        CHECK(footprintHeightAt(view, 0, -0.05f, -0.05f, 0.05f, &h) == Status::NotFound);
    }

    TEST_CASE("height query rejects bad arguments") {
        const auto bytes = build(validSpec());
        FootprintView view;
        REQUIRE(load(bytes, &view) == Status::Ok);
        float h;
        CHECK(footprintHeightAt(view, 2, 1, 1, 0, &h) == Status::InvalidArgument);
        CHECK(footprintHeightAt(view, 0, 1, 1, 0, nullptr) == Status::InvalidArgument);
        CHECK(footprintHeightAt(view, 0, kNaN, 1, 0, &h) == Status::InvalidArgument);
        CHECK(footprintHeightAt(view, 0, 1, kInf, 0, &h) == Status::InvalidArgument);
        CHECK(footprintHeightAt(view, 0, 1, 1, -1, &h) == Status::InvalidArgument);
        CHECK(footprintHeightAt(view, 0, 1, 1, kNaN, &h) == Status::InvalidArgument);
    }

    TEST_CASE("world to local maps a Y-up centimetre point to hand-computed values") {
        FootprintInfo info{};
        info.up_axis = 0;
        info.scale = 0.01;
        info.origin = Vec3d{1000.5, -2000.25, 30.0};
        // World (100, 200, 300) cm -> internal (1, -3, 2) m -> minus origin.
        const Vec3d local = footprintWorldToLocal(info, Vec3d{100, 200, 300});
        CHECK(local.x == doctest::Approx(-999.5));
        CHECK(local.y == doctest::Approx(1997.25));
        CHECK(local.z == doctest::Approx(-28.0));
        // World up (+Y) becomes internal up (+Z).
        const Vec3d up = footprintWorldToLocal(info, Vec3d{0, 100, 0});
        const Vec3d zero = footprintWorldToLocal(info, Vec3d{0, 0, 0});
        CHECK(up.z - zero.z == doctest::Approx(1.0));
        CHECK(up.x - zero.x == doctest::Approx(0.0));
        CHECK(up.y - zero.y == doctest::Approx(0.0));
    }

    TEST_CASE("world and local round trip for both up axes") {
        for (fb::UpAxis axis : {fb::UpAxis::Y, fb::UpAxis::Z}) {
            CAPTURE(int(axis));
            AssetSpec spec = validSpec();
            spec.up_axis = axis;
            const auto bytes = build(spec);
            FootprintView view;
            REQUIRE(load(bytes, &view) == Status::Ok);
            FootprintInfo info;
            REQUIRE(footprintInfo(view, &info) == Status::Ok);
            CHECK(info.up_axis == uint8_t(axis));

            for (Vec3d w : {Vec3d{0, 0, 0}, Vec3d{100, 200, 300}, Vec3d{-12345.5, 0.25, 987654.0}}) {
                CHECK(near(footprintLocalToWorld(info, footprintWorldToLocal(info, w)), w, 1e-6));
                CHECK(near(footprintWorldToLocal(info, footprintLocalToWorld(info, w)), w, 1e-6));
            }
            if (axis == fb::UpAxis::Z) {
                const Vec3d local = footprintWorldToLocal(info, Vec3d{100, 200, 300});
                CHECK(near(local, Vec3d{1 - 1000.5, 2 + 2000.25, 3 - 30.0}, 1e-9));
            }
        }
    }

    TEST_CASE("accepts an asset without the optional options, origin and connections") {
        AssetSpec spec = validSpec();
        spec.with_options = false;
        spec.with_origin = false;
        spec.connections.clear();
        const auto bytes = build(spec);
        FootprintView view;
        REQUIRE(load(bytes, &view) == Status::Ok);
        FootprintInfo info;
        REQUIRE(footprintInfo(view, &info) == Status::Ok);
        CHECK(info.up_axis == 0);
        CHECK(info.scale == 1.0);
        CHECK(info.origin.x == 0.0);
        CHECK(info.origin.y == 0.0);
        CHECK(info.origin.z == 0.0);
        CHECK(info.connection_count == 0);
        CHECK(walkEverything(view));
    }

    TEST_CASE("rejects every truncated prefix") {
        const auto bytes = build(validSpec());
        REQUIRE(load(bytes) == Status::Ok);
        const size_t accepted = test::acceptedPrefixes(bytes, [](const uint8_t* data, size_t size) {
            FootprintView view;
            const bool ok = loadFootprint(data, size, &view) == Status::Ok;
            CHECK((ok || view.data == nullptr));
            return ok;
        });
        CHECK(accepted == 0);
        MESSAGE("checked ", bytes.size(), " prefixes");
    }

    TEST_CASE("rejects a buffer with another asset's identifier") {
        AssetSpec spec = validSpec();
        spec.identifier = "CWRM";
        CHECK(loadSpec(spec) == Status::WrongAssetKind);
    }

    TEST_CASE("rejects a buffer too small to hold an identifier as corrupt") {
        alignas(8) const uint8_t tiny[7] = {8, 0, 0, 0, 'C', 'W', 'F'};
        FootprintView view;
        CHECK(loadFootprint(tiny, sizeof tiny, &view) == Status::CorruptAsset);
        CHECK(loadFootprint(tiny, 0, &view) == Status::CorruptAsset);
    }

    TEST_CASE("rejects a newer format version as unsupported") {
        AssetSpec spec = validSpec();
        spec.format_version = kFootprintFormatVersion + 1;
        CHECK(loadSpec(spec) == Status::UnsupportedVersion);
        spec.format_version = 0xffffffffu;
        CHECK(loadSpec(spec) == Status::UnsupportedVersion);
    }

    TEST_CASE("rejects a missing format version or baker version as corrupt") {
        AssetSpec spec = validSpec();
        spec.format_version = 0; // the default, so the builder omits the field
        CHECK(loadSpec(spec) == Status::CorruptAsset);

        spec = validSpec();
        spec.baker_version = nullptr;
        CHECK(loadSpec(spec) == Status::CorruptAsset);
    }

    TEST_CASE("rejects out-of-range ring, polygon, triangle and connection indices") {
        SUBCASE("ring past the boundary vertices") {
            AssetSpec spec = validSpec();
            spec.layers[0].rings[1] = fb::Ring(5, 4); // 5 + 4 > 8
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("ring whose end overflows 32 bits") {
            AssetSpec spec = validSpec();
            spec.layers[0].rings[1] = fb::Ring(0xfffffffeu, 4); // wraps to 2 in 32-bit arithmetic
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("ring with fewer than three vertices") {
            AssetSpec spec = validSpec();
            spec.layers[0].rings[1] = fb::Ring(4, 2);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("polygon past the rings") {
            AssetSpec spec = validSpec();
            spec.layers[0].polygons[0] = fb::Polygon(1, 2);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("polygon whose end overflows 32 bits") {
            AssetSpec spec = validSpec();
            spec.layers[0].polygons[0] = fb::Polygon(0xffffffffu, 2);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("polygon without rings") {
            AssetSpec spec = validSpec();
            spec.layers[0].polygons[0] = fb::Polygon(0, 0);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("triangle index equal to the vertex count") {
            AssetSpec spec = validSpec();
            spec.layers[1].triangles[1] = fb::Triangle(0, 2, 4);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("connection to a missing layer") {
            AssetSpec spec = validSpec();
            spec.connections[0] = fb::Connection(0, 2, 10, 0, 10, 4, 2, 2.8f, 2.5f, 2.5f);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("connection from a missing layer") {
            AssetSpec spec = validSpec();
            spec.connections[0] = fb::Connection(7, 1, 10, 0, 10, 4, 2, 2.8f, 2.5f, 2.5f);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
    }

    TEST_CASE("rejects NaN and infinity in vertices, origin and other numbers") {
        SUBCASE("NaN boundary vertex") {
            AssetSpec spec = validSpec();
            spec.layers[0].boundary[5] = fb::Vec2(4, kNaN);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("infinite surface vertex") {
            AssetSpec spec = validSpec();
            spec.layers[1].surface[2] = fb::Vec3(14, 4, kInf);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("NaN surface vertex") {
            AssetSpec spec = validSpec();
            spec.layers[0].surface[0] = fb::Vec3(kNaN, 0, 1);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("NaN origin") {
            AssetSpec spec = validSpec();
            spec.origin = fb::Vec3d(0, std::nan(""), 0);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("infinite origin") {
            AssetSpec spec = validSpec();
            spec.origin = fb::Vec3d(-std::numeric_limits<double>::infinity(), 0, 0);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("NaN area") {
            AssetSpec spec = validSpec();
            spec.layers[1].area = std::nan("");
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("infinite height bound") {
            AssetSpec spec = validSpec();
            spec.layers[0].height_max = kInf;
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("NaN grid spacing") {
            AssetSpec spec = validSpec();
            spec.grid_spacing = std::nan("");
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("infinite connection height") {
            AssetSpec spec = validSpec();
            spec.connections[0] = fb::Connection(0, 1, 10, 0, 10, 4, 2, 2.8f, kInf, 2.5f);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("NaN option value") {
            AssetSpec spec = validSpec();
            spec.agent_height = std::nan("");
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("non-positive scale") {
            AssetSpec spec = validSpec();
            spec.scale = 0.0;
            CHECK(loadSpec(spec) == Status::CorruptAsset);
            spec.scale = -1.0;
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
        SUBCASE("unknown up axis") {
            AssetSpec spec = validSpec();
            spec.up_axis = static_cast<fb::UpAxis>(7);
            CHECK(loadSpec(spec) == Status::CorruptAsset);
        }
    }

    TEST_CASE("rejects positions more than 2^24 m from the origin, which no bake writes") {
        // A 9e15 m wall cost the character queries metres of rounding (roadmap fuzzer).
        constexpr float kLimit = 16777216.0f, kBeyond = 16777218.0f; // 2^24 and the next float
        AssetSpec spec = validSpec();
        spec.layers[0].boundary[5] = fb::Vec2(4, kLimit);
        CHECK(loadSpec(spec) == Status::Ok);
        spec.layers[0].boundary[5] = fb::Vec2(4, -kBeyond);
        CHECK(loadSpec(spec) == Status::CorruptAsset);
        spec = validSpec();
        spec.layers[1].surface[2] = fb::Vec3(kBeyond, 4, 0);
        CHECK(loadSpec(spec) == Status::CorruptAsset);
        spec = validSpec();
        spec.layers[1].surface[2] = fb::Vec3(14, 4, 3e38f);
        CHECK(loadSpec(spec) == Status::CorruptAsset);
    }

    TEST_CASE("rejects null pointers and misaligned buffers as invalid arguments") {
        const auto bytes = build(validSpec());
        FootprintView view;
        CHECK(loadFootprint(nullptr, bytes.size(), &view) == Status::InvalidArgument);
        CHECK(loadFootprint(bytes.data(), bytes.size(), nullptr) == Status::InvalidArgument);

        // Same bytes one past an 8-byte boundary: a status, not a misaligned double read.
        std::unique_ptr<uint8_t[]> storage(new uint8_t[bytes.size() + 8]);
        uint8_t* shifted = storage.get() + 1;
        std::memcpy(shifted, bytes.data(), bytes.size());
        CHECK(loadFootprint(shifted, bytes.size(), &view) == Status::InvalidArgument);
        CHECK(view.data == nullptr);
    }

    TEST_CASE("accessors range-check their indices") {
        const auto bytes = build(validSpec());
        FootprintView view;
        REQUIRE(load(bytes, &view) == Status::Ok);
        FootprintLayerInfo layer;
        FootprintConnection con;
        FootprintInfo info;
        uint32_t first, count;
        const Vec2f* verts;

        CHECK(footprintLayer(view, 2, &layer) == Status::InvalidArgument);
        CHECK(footprintLayer(view, 0xffffffffu, &layer) == Status::InvalidArgument);
        CHECK(footprintPolygon(view, 0, 1, &first, &count) == Status::InvalidArgument);
        CHECK(footprintPolygon(view, 2, 0, &first, &count) == Status::InvalidArgument);
        CHECK(footprintRing(view, 0, 2, &verts, &count) == Status::InvalidArgument);
        CHECK(footprintRing(view, 1, 1, &verts, &count) == Status::InvalidArgument);
        CHECK(footprintRing(view, 5, 0, &verts, &count) == Status::InvalidArgument);
        CHECK(footprintConnection(view, 1, &con) == Status::InvalidArgument);

        // Null outputs and a view that never loaded.
        CHECK(footprintInfo(view, nullptr) == Status::InvalidArgument);
        CHECK(footprintLayer(view, 0, nullptr) == Status::InvalidArgument);
        CHECK(footprintPolygon(view, 0, 0, nullptr, &count) == Status::InvalidArgument);
        CHECK(footprintRing(view, 0, 0, &verts, nullptr) == Status::InvalidArgument);
        CHECK(footprintConnection(view, 0, nullptr) == Status::InvalidArgument);
        const FootprintView empty;
        CHECK(footprintInfo(empty, &info) == Status::InvalidArgument);
        CHECK(footprintLayer(empty, 0, &layer) == Status::InvalidArgument);
        CHECK(footprintConnection(empty, 0, &con) == Status::InvalidArgument);
    }

    TEST_CASE("survives random byte corruption") {
        const auto valid = build(validSpec());
        REQUIRE(load(valid) == Status::Ok);
        constexpr int kIterations = 20000;
        const test::CorruptionCounts counts =
            test::corruptRandomly(valid, 20240611u, kIterations, [](const uint8_t* data, size_t size) {
                FootprintView view;
                if (loadFootprint(data, size, &view) != Status::Ok) return -1;
                return walkEverything(view) ? 1 : 0;
            });
        const int ok = counts.loaded, rejected = counts.rejected, walk_failures = counts.walk_failures;
        MESSAGE(kIterations, " corruptions: ", ok, " still valid, ", rejected, " rejected");
        CHECK(ok + rejected == kIterations);
        CHECK(walk_failures == 0);
        CHECK(ok > 0); // some flips only touch payload numbers, so the accessor walk really ran
        CHECK(rejected > 0);
    }

    TEST_CASE("statusString describes every status") {
        const Status all[] = {Status::Ok,
                              Status::InvalidArgument,
                              Status::BufferTooSmall,
                              Status::WrongAssetKind,
                              Status::UnsupportedVersion,
                              Status::CorruptAsset,
                              Status::NotFound};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
            const char* s = statusString(all[i]);
            REQUIRE(s != nullptr);
            CHECK(std::strlen(s) > 0);
            for (size_t j = 0; j < i; ++j)
                CHECK(std::strcmp(s, statusString(all[j])) != 0);
        }
        CHECK(std::strcmp(statusString(Status::CorruptAsset), "asset is corrupt") == 0);
        CHECK(statusString(static_cast<Status>(999)) != nullptr);
    }

} // TEST_SUITE
