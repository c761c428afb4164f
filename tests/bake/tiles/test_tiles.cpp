// Tiled worlds: tiles baked one by one and stitched equal the untiled bake (same topology,
// clearance within epsilon), paths across tile lines have the untiled length, tile bakes are
// deterministic, and bad tile arguments are rejected with clear errors.
#include <clearway/bake.h>
#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

namespace bake = clearway::bake;
namespace cw = clearway;

namespace {

void removeDir(const std::string& dir) {
    if (!std::getenv("CLEARWAY_TILES_KEEP")) std::filesystem::remove_all(dir); // kept for debugging
}

std::string tempDir() {
    static int serial = 0;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("clearway_tiles_" + std::to_string(getpid()) + "_" + std::to_string(serial++));
    std::filesystem::create_directories(dir);
    return dir.string();
}

std::vector<uint8_t> readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A flat city (mesh file, Y up, world x and z in [0, w] x [0, h]): a floor of 4 m quads, one
// obstacle per `pitch` cell (pillars, and walls 6 m long that cross tile lines), 3 m tall with
// walkable tops. Every cell is filled, so the clearance stays below ~3 m. With `storey`, a second
// floor at 3 m over x in [w, w + 16] reached by a ramp, and its own pillars.
struct Obj {
    std::vector<bake::Vec3> v;
    std::vector<uint32_t> f;
    void quad(bake::Vec3 a, bake::Vec3 b, bake::Vec3 c, bake::Vec3 d) { // counter-clockwise from the front
        const uint32_t k = uint32_t(v.size()) + 1;
        v.insert(v.end(), {a, b, c, d});
        f.insert(f.end(), {k, k + 1, k + 2, k, k + 2, k + 3});
    }
    void box(double x0, double z0, double x1, double z1, double y0, double y1) {
        quad({x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}); // +z side
        quad({x1, y0, z0}, {x0, y0, z0}, {x0, y1, z0}, {x1, y1, z0}); // -z side
        quad({x1, y0, z1}, {x1, y0, z0}, {x1, y1, z0}, {x1, y1, z1}); // +x side
        quad({x0, y0, z0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, z0}); // -x side
        quad({x0, y1, z1}, {x1, y1, z1}, {x1, y1, z0}, {x0, y1, z0}); // top, facing +y
    }
    void floor(double x0, double z0, double x1, double z1, double y) {
        for (double x = x0; x < x1 - 1e-9; x += 4)
            for (double z = z0; z < z1 - 1e-9; z += 4)
                quad({x, y, std::min(z + 4, z1)}, {std::min(x + 4, x1), y, std::min(z + 4, z1)},
                     {std::min(x + 4, x1), y, z}, {x, y, z});
    }
    void write(const std::string& path) const {
        std::ofstream out(path);
        char line[128];
        for (const bake::Vec3& p : v) {
            std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", p.x, p.y, p.z);
            out << line;
        }
        for (size_t i = 0; i < f.size(); i += 3)
            out << "f " << f[i] << ' ' << f[i + 1] << ' ' << f[i + 2] << '\n';
    }
};

std::string writeCity(const std::string& dir, const std::string& name, double w, double h, uint32_t seed,
                      bool storey = false) {
    Obj obj;
    obj.floor(0, 0, w, h, 0);
    uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
    auto random = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double(state >> 11) / double(1ull << 53);
    };
    const double pitch = 5;
    for (double z = pitch / 2; z < h - pitch / 2 + 1e-9; z += pitch)
        for (double x = pitch / 2; x < w - pitch / 2 + 1e-9; x += pitch) {
            const double r = random();
            const double jx = std::round((random() - 0.5) * 4) / 4, jz = std::round((random() - 0.5) * 4) / 4;
            // Long walls only where they stay on the floor (tiles past the floor's edge hold
            // nothing to bake).
            if (r < 0.2 && x > 4 && x < w - 4)
                obj.box(x - 3 + jx, z + jz, x + 3 + jx, z + 0.5 + jz, 0, 3);
            else if (r < 0.4 && z > 4 && z < h - 4)
                obj.box(x + jx, z - 3 + jz, x + 0.5 + jx, z + 3 + jz, 0, 3);
            else {
                const double s = 0.5 + std::round(random() * 4) / 4;
                obj.box(x - s / 2 + jx, z - s / 2 + jz, x + s / 2 + jx, z + s / 2 + jz, 0, 3);
            }
        }
    if (storey) {
        // Ramp from the ground (x = w + 1 .. w + 9) up to a deck at 2.5 m (x = w + 9 .. w + 16), 6 m wide,
        // walled along both long sides.
        const double z0 = h / 2 - 2, z1 = h / 2 + 4, top = 2.5;
        // (The ramp's foot is off the tile line x = w: a connection lying on a tile line can come
        // out doubled, README "Tiled worlds".)
        obj.floor(w, 0, w + 16, h, 0);
        obj.quad({w + 1, 0, z1}, {w + 9, top, z1}, {w + 9, top, z0}, {w + 1, 0, z0});
        obj.floor(w + 9, z0, w + 16, z1, top);
        obj.box(w - 0.0, z0 - 0.3, w + 16, z0, 0, top + 3);
        obj.box(w - 0.0, z1, w + 16, z1 + 0.3, 0, top + 3);
    }
    const std::string path = dir + "/" + name + ".obj";
    obj.write(path);
    return path;
}

bake::RoadmapRequest requestFor(const std::string& mesh, const std::string& out) {
    bake::RoadmapRequest request;
    request.input_path = mesh;
    request.output_path = out;
    return request;
}

bake::Roadmap bakeUntiled(const std::string& mesh, bool merge = true) {
    bake::RoadmapRequest request = requestFor(mesh, "");
    request.roadmap_options.merge_chains = merge;
    bake::RoadmapResult result;
    const bake::Error e = bake::bakeLevel(request, &result, bake::silentLog());
    REQUIRE_MESSAGE(!e, e.message);
    return result.roadmap;
}

std::vector<std::string> bakeTiles(const std::string& mesh, const std::string& dir, double size, int ni,
                                   int nj, bool merge = true, double margin = -1) {
    std::vector<std::string> paths;
    for (int i = 0; i < ni; ++i)
        for (int j = 0; j < nj; ++j) {
            const std::string out = dir + "/tile_" + std::to_string(i) + "_" + std::to_string(j) + ".cwrm";
            bake::RoadmapRequest request = requestFor(mesh, out);
            request.roadmap_options.merge_chains = merge;
            request.tile_size = size, request.tile_i = i, request.tile_j = j, request.tile_margin = margin;
            bake::RoadmapResult result;
            const bake::Error e = bake::bakeLevel(request, &result, bake::silentLog());
            REQUIRE_MESSAGE(!e, e.message);
            paths.push_back(out);
        }
    return paths;
}

bake::StitchResult stitch(const std::vector<std::string>& tiles, const std::string& out) {
    bake::StitchRequest request;
    request.tile_paths = tiles;
    request.output_path = out;
    bake::StitchResult result;
    const bake::Error e = bake::stitchFiles(request, &result, bake::silentLog());
    REQUIRE_MESSAGE(!e, e.message);
    return result;
}

void checkSameTopology(const bake::Roadmap& stitched, const bake::Roadmap& untiled) {
    const bake::TopologyComparison c = bake::compareRoadmapTopology(stitched, untiled);
    std::string why;
    for (const std::string& d : c.differences)
        why += "\n  " + d;
    INFO("junctions ", c.junctions_a, " / ", c.junctions_b, ", chains ", c.chains_a, " / ", c.chains_b, why);
    CHECK(c.equal);
    CHECK(c.junctions_a == c.junctions_b);
    CHECK(c.max_clearance_error <= 0.01);
    CHECK(c.junctions_a > 50);
}

// Lowest layer of a roadmap (the ground floor of the generated cities).
uint32_t groundLayer(const bake::Roadmap& rm) {
    uint32_t best = 0;
    for (uint32_t l = 0; l < rm.footprint.layers.size(); ++l)
        if (rm.footprint.layers[l].height_max < rm.footprint.layers[best].height_max) best = l;
    return best;
}

} // namespace

TEST_SUITE("tiled bakes: stitched tiles equal the untiled bake") {
    TEST_CASE(
        "2 x 2 and 3 x 3 tiles of a city with walls across tile lines: same junctions, chains, clearance") {
        const std::string dir = tempDir();
        const std::string mesh = writeCity(dir, "city", 60, 60, 7);
        const bake::Roadmap untiled = bakeUntiled(mesh);
        for (const auto& [size, n] : {std::pair<double, int>{30, 2}, std::pair<double, int>{20, 3}}) {
            CAPTURE(size);
            const std::vector<std::string> tiles = bakeTiles(mesh, dir, size, n, n);
            const bake::StitchResult world = stitch(tiles, dir + "/world.cwrm");
            CHECK(world.stats.tiles == size_t(n * n));
            CHECK(world.stats.welded > 20);
            CHECK(world.stats.margin_reached == 0);
            // Tile lines are no walls: the ground floor is one polygon again, as untiled.
            const uint32_t g = groundLayer(world.roadmap), gu = groundLayer(untiled);
            CHECK(world.roadmap.footprint.layers[g].polygons.size() ==
                  untiled.footprint.layers[gu].polygons.size());
            CHECK(world.roadmap.footprint.layers[g].area ==
                  doctest::Approx(untiled.footprint.layers[gu].area).epsilon(1e-6));
            checkSameTopology(world.roadmap, untiled);
            // The written asset loads in the runtime.
            const std::vector<uint8_t> bytes = readBytes(dir + "/world.cwrm");
            cw::RoadmapView view;
            CHECK(cw::loadRoadmap(bytes.data(), bytes.size(), &view) == cw::Status::Ok);
        }
        removeDir(dir);
    }

    TEST_CASE("without chain merging too, and a tile asset alone loads in the runtime") {
        const std::string dir = tempDir();
        const std::string mesh = writeCity(dir, "city", 40, 40, 11);
        const bake::Roadmap untiled = bakeUntiled(mesh, false);
        const std::vector<std::string> tiles = bakeTiles(mesh, dir, 20, 2, 2, false);
        checkSameTopology(stitch(tiles, dir + "/world.cwrm").roadmap, untiled);
        const std::vector<uint8_t> bytes = readBytes(tiles[0]);
        cw::RoadmapView view;
        CHECK(cw::loadRoadmap(bytes.data(), bytes.size(), &view) == cw::Status::Ok);
        bake::Roadmap tile;
        REQUIRE(!bake::readRoadmapFile(tiles[0], &tile));
        CHECK(tile.tile.size == 20);
        CHECK(tile.tile.margin == 15); // default: a quarter of the size + 10 m
        CHECK(!tile.tile.border_vertices.empty());
        removeDir(dir);
    }

    TEST_CASE("findPath across tile lines on the stitched asset: the untiled length") {
        const std::string dir = tempDir();
        const std::string mesh = writeCity(dir, "city", 60, 60, 3);
        // Without chain merging both roadmaps are the same graph up to the tile-line vertices, so
        // A* takes the same routes (merged chains of other lengths could tip it to another way
        // round an obstacle, and the shortened path with it).
        bake::RoadmapRequest request = requestFor(mesh, dir + "/untiled.cwrm");
        request.roadmap_options.merge_chains = false;
        bake::RoadmapResult result;
        REQUIRE(!bake::bakeLevel(request, &result, bake::silentLog()));
        stitch(bakeTiles(mesh, dir, 20, 3, 3, false), dir + "/world.cwrm");
        const std::vector<uint8_t> a = readBytes(dir + "/untiled.cwrm"), b = readBytes(dir + "/world.cwrm");
        cw::RoadmapView va, vb;
        REQUIRE(cw::loadRoadmap(a.data(), a.size(), &va) == cw::Status::Ok);
        REQUIRE(cw::loadRoadmap(b.data(), b.size(), &vb) == cw::Status::Ok);
        bake::Roadmap ra, rb;
        REQUIRE(!bake::readRoadmapBytes(a, "untiled", &ra));
        REQUIRE(!bake::readRoadmapBytes(b, "world", &rb));
        REQUIRE(ra.footprint.origin.x == rb.footprint.origin.x);
        REQUIRE(ra.footprint.origin.y == rb.footprint.origin.y);
        size_t size_a = 0, size_b = 0;
        REQUIRE(cw::pathScratchSize(va, &size_a) == cw::Status::Ok);
        REQUIRE(cw::pathScratchSize(vb, &size_b) == cw::Status::Ok);
        std::vector<uint8_t> mem_a(size_a), mem_b(size_b);
        cw::PathScratch *sa = nullptr, *sb = nullptr;
        REQUIRE(cw::pathScratchInit(va, mem_a.data(), size_a, &sa) == cw::Status::Ok);
        REQUIRE(cw::pathScratchInit(vb, mem_b.data(), size_b, &sb) == cw::Status::Ok);
        const uint32_t la = groundLayer(ra), lb = groundLayer(rb);
        std::vector<cw::PathSegment> out(4096);
        uint64_t state = 99;
        auto random = [&] {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return double(state >> 11) / double(1ull << 53);
        };
        int compared = 0, found = 0;
        double worst = 0;
        // The world spans [-30, 30]^2 locally (origin at its centre); tile lines at -10 and 10.
        for (int q = 0; q < 60; ++q) {
            const double x0 = -28 + 56 * random(), y0 = -28 + 56 * random();
            const double x1 = -28 + 56 * random(), y1 = -28 + 56 * random();
            uint32_t na = 0, nb = 0;
            const cw::Status s_a =
                cw::findPath(va, sa, {x0, y0, la}, {x1, y1, la}, 0.3, 0.3, out.data(), &na, 4096);
            const double len_a = cw::pathTotalLength(out.data(), na);
            const cw::Status s_b =
                cw::findPath(vb, sb, {x0, y0, lb}, {x1, y1, lb}, 0.3, 0.3, out.data(), &nb, 4096);
            const double len_b = cw::pathTotalLength(out.data(), nb);
            CAPTURE(x0);
            CAPTURE(y0);
            CAPTURE(x1);
            CAPTURE(y1);
            CHECK(s_a == s_b);
            ++compared;
            if (s_a != cw::Status::Ok || s_b != cw::Status::Ok) continue;
            ++found;
            worst = std::max(worst, std::abs(len_b - len_a) / len_a);
            CHECK(len_b == doctest::Approx(len_a).epsilon(0.02));
        }
        MESSAGE("largest path length difference, stitched vs untiled: ", worst * 100, " %");
        CHECK(compared == 60);
        CHECK(found > 30);
        removeDir(dir);
    }

    TEST_CASE("two floors joined by a ramp across a tile line") {
        const std::string dir = tempDir();
        const std::string mesh = writeCity(dir, "storey", 40, 40, 5, true);
        const bake::Roadmap untiled = bakeUntiled(mesh, false);
        // The world spans x in [0, 56] (tiles 0..2 of 20) and z in [0, 40].
        const std::vector<std::string> tiles = bakeTiles(mesh, dir, 20, 3, 2, false, 14);
        const bake::StitchResult world = stitch(tiles, dir + "/world.cwrm");
        CHECK(world.roadmap.footprint.connections.size() >= 1);
        checkSameTopology(world.roadmap, untiled);
        removeDir(dir);
    }
}

TEST_SUITE("tiled bakes: determinism and bad arguments") {
    TEST_CASE("a tile bake is byte-identical on a rerun, and so is the stitched world") {
        const std::string dir = tempDir();
        const std::string mesh = writeCity(dir, "city", 40, 40, 2);
        const std::vector<std::string> first = bakeTiles(mesh, dir, 20, 2, 2);
        std::vector<std::vector<uint8_t>> bytes;
        for (const std::string& t : first)
            bytes.push_back(readBytes(t));
        stitch(first, dir + "/a.cwrm");
        bakeTiles(mesh, dir, 20, 2, 2);
        for (size_t t = 0; t < first.size(); ++t)
            CHECK(readBytes(first[t]) == bytes[t]);
        // Argument order does not matter to cw-stitch.
        stitch({first.rbegin(), first.rend()}, dir + "/b.cwrm");
        CHECK(readBytes(dir + "/a.cwrm") == readBytes(dir + "/b.cwrm"));
        removeDir(dir);
    }

    TEST_CASE("cw-bake --if-changed skips a tile only when it is the same tile") {
        const std::string dir = tempDir();
        const std::string mesh = writeCity(dir, "city", 40, 40, 2);
        const std::string bin = std::string(CLEARWAY_BIN_DIR) + "/cw-bake";
        auto run = [&](const std::string& tile) {
            const std::string out = dir + "/run.txt";
            const std::string cmd = bin + " " + mesh + " -o " + dir + "/t.cwrm --tile-size 20 --tile " +
                                    tile + " --if-changed > " + out + " 2>&1";
            REQUIRE(std::system(cmd.c_str()) == 0);
            std::ifstream in(out);
            return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        };
        CHECK(run("0,0").find("skipped") == std::string::npos);
        CHECK(run("0,0").find("skipped") != std::string::npos);
        // Same mesh and options hash, another tile: baked again, and the asset is that tile.
        CHECK(run("1,0").find("skipped") == std::string::npos);
        bake::Roadmap tile;
        REQUIRE_FALSE(bake::readRoadmapFile(dir + "/t.cwrm", &tile));
        CHECK(tile.tile.i == 1);
        CHECK(tile.tile.j == 0);
        removeDir(dir);
    }

    TEST_CASE("bad tile arguments and bad tile sets give clear errors") {
        const std::string dir = tempDir();
        const std::string mesh = writeCity(dir, "city", 40, 40, 2);
        auto tileError = [&](double size, int i, int j, double margin = -1) {
            bake::RoadmapRequest request = requestFor(mesh, dir + "/bad.cwrm");
            request.tile_size = size, request.tile_i = i, request.tile_j = j, request.tile_margin = margin;
            bake::RoadmapResult result;
            return bake::bakeLevel(request, &result, bake::silentLog());
        };
        bake::Error e = tileError(-5, 0, 0);
        CHECK(e.code == bake::ErrorCode::InvalidOption);
        CHECK(e.message.find("--tile-size must be a positive number") != std::string::npos);
        e = tileError(20, 0, 0, 8);
        CHECK(e.code == bake::ErrorCode::InvalidOption);
        CHECK(e.message.find("--tile-margin must exceed 10 m") != std::string::npos);
        e = tileError(20, 7, 0);
        CHECK(e.code == bake::ErrorCode::InvalidOption);
        CHECK(e.message.find(
                  "tile 7,0 of size 20 lies outside the mesh, which spans tiles 0..1 (world x) by 0..1 "
                  "(world z)") != std::string::npos);
        CHECK(bake::exitCodeFor(e) == 2);
        CHECK(!std::filesystem::exists(dir + "/bad.cwrm"));

        const std::vector<std::string> tiles = bakeTiles(mesh, dir, 20, 2, 2);
        bake::StitchRequest request;
        request.output_path = dir + "/world.cwrm";
        bake::StitchResult result;
        request.tile_paths = {tiles[0], dir + "/missing.cwrm"};
        e = bake::stitchFiles(request, &result, bake::silentLog());
        CHECK(e.code == bake::ErrorCode::FileNotFound);
        CHECK(e.message.find("missing.cwrm: no such file") != std::string::npos);
        // A tile of another size, of other options, an untiled asset, a tile given twice.
        bake::RoadmapRequest other = requestFor(mesh, dir + "/other.cwrm");
        other.tile_size = 10, other.tile_i = 1, other.tile_j = 0;
        bake::RoadmapResult scratch;
        REQUIRE(!bake::bakeLevel(other, &scratch, bake::silentLog()));
        request.tile_paths = {tiles[0], dir + "/other.cwrm"};
        e = bake::stitchFiles(request, &result, bake::silentLog());
        CHECK(e.code == bake::ErrorCode::InvalidOption);
        CHECK(e.message.find("the tile size (10) differs") != std::string::npos);
        other.tile_size = 20, other.roadmap_options.min_clearance = 0.2;
        REQUIRE(!bake::bakeLevel(other, &scratch, bake::silentLog()));
        e = bake::stitchFiles(request, &result, bake::silentLog());
        CHECK(e.message.find("the bake options differs") != std::string::npos);
        bake::RoadmapRequest whole = requestFor(mesh, dir + "/whole.cwrm");
        REQUIRE(!bake::bakeLevel(whole, &scratch, bake::silentLog()));
        request.tile_paths = {tiles[0], dir + "/whole.cwrm"};
        e = bake::stitchFiles(request, &result, bake::silentLog());
        CHECK(e.message.find("whole.cwrm: not a tile (baked without --tile-size)") != std::string::npos);
        request.tile_paths = {tiles[0], tiles[1], tiles[0]};
        e = bake::stitchFiles(request, &result, bake::silentLog());
        CHECK(e.message.find("is given twice") != std::string::npos);
        CHECK(!std::filesystem::exists(dir + "/world.cwrm"));
        removeDir(dir);
    }
}
