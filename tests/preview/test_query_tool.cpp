// cw-query (one findPath query in the mesh's own coordinates) and samples/game, run as built
// binaries on levels baked here: undulating.obj, which lies 5 km from the origin, and two_storey.
#include <clearway/preview.h>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "test_files.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::bake;
using clearway::test::fileExists;
using clearway::test::runTool;

namespace {

struct Baked {
    std::string path; // .cwrm in a temp folder
    Roadmap roadmap;
    std::vector<uint64_t> bytes; // the asset, 8-byte aligned
    size_t size = 0;
};

// Each level is baked once per test run.
const Baked& baked(const std::string& mesh) {
    static std::map<std::string, Baked> cache;
    static const std::string dir = test::makeTempDir("cw-query-test");
    auto it = cache.find(mesh);
    if (it != cache.end()) return it->second;
    Baked& b = cache[mesh];
    RoadmapRequest request;
    request.input_path = mesh;
    const size_t slash = mesh.find_last_of('/');
    b.path = dir + "/" + mesh.substr(slash + 1) + ".cwrm";
    request.output_path = b.path;
    RoadmapResult result;
    const Error e = bakeLevel(request, &result, silentLog());
    REQUIRE_MESSAGE(!e, e.message);
    b.roadmap = std::move(result.roadmap);
    const std::vector<uint8_t> raw = test::readFile(b.path);
    b.size = raw.size();
    b.bytes.assign(raw.size() / 8 + 1, 0);
    std::copy(raw.begin(), raw.end(), reinterpret_cast<uint8_t*>(b.bytes.data()));
    return b;
}

std::string peer(const char* name) {
    return std::string(CLEARWAY_PEER_MESHES) + "/" + name;
}
std::string sampleLevel(const char* name) {
    return std::string(CLEARWAY_SAMPLES) + "/levels/" + name;
}
std::string tool(const char* name) {
    return std::string(CLEARWAY_BIN_DIR) + "/" + name;
}

// A roadmap vertex (local, on the surface) in the mesh's own coordinates.
Vec3 worldOf(const Roadmap& rm, const RoadmapVertex& v) {
    const Vec3 internal{v.position.x + rm.footprint.origin.x, v.position.y + rm.footprint.origin.y,
                        v.position.z + rm.footprint.origin.z};
    return internalToWorld(internal, rm.footprint.options);
}
Vec3 localOf(const Roadmap& rm, const Vec3& world) {
    const Vec3 internal = worldToInternal(world, rm.footprint.options);
    return {internal.x - rm.footprint.origin.x, internal.y - rm.footprint.origin.y,
            internal.z - rm.footprint.origin.z};
}

std::string arg(const Vec3& p) {
    char text[128];
    std::snprintf(text, sizeof text, "%.17g,%.17g,%.17g", p.x, p.y, p.z);
    return text;
}

Vec3 vec(const nlohmann::json& j) {
    return {j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>()};
}

// Ground-plane distance in a Y-up mesh (x, z).
double flat(const Vec3& a, const Vec3& b) {
    return std::hypot(a.x - b.x, a.z - b.z);
}

// The widest vertex of `layer`, and the vertex of that layer (clearance >= 1 m) farthest from it
// that the library connects at radius 0.5.
bool farPair(const Baked& b, uint32_t layer, Vec3* from, Vec3* to) {
    const Roadmap& rm = b.roadmap;
    const RoadmapVertex* widest = nullptr;
    for (const RoadmapVertex& v : rm.vertices)
        if (v.layer == layer && (!widest || v.clearance > widest->clearance)) widest = &v;
    if (!widest) return false;
    std::vector<std::pair<double, size_t>> far;
    for (size_t i = 0; i < rm.vertices.size(); ++i) {
        const RoadmapVertex& v = rm.vertices[i];
        if (v.layer == layer && v.clearance >= 1.0)
            far.push_back(
                {-std::hypot(v.position.x - widest->position.x, v.position.y - widest->position.y), i});
    }
    std::sort(far.begin(), far.end());
    for (const auto& f : far) {
        QueryRequest q;
        q.from = worldOf(rm, *widest);
        q.to = worldOf(rm, rm.vertices[f.second]);
        QueryResult r;
        if (!queryRoadmapBytes(b.bytes.data(), b.size, b.path, q, &r) && r.found && r.length > 20) {
            *from = q.from, *to = q.to;
            return true;
        }
    }
    return false;
}

nlohmann::json runJson(const std::string& command, int* code) {
    std::string out;
    *code = runTool("(" + command + " 2>/dev/null)", &out);
    return nlohmann::json::parse(out, nullptr, false);
}

// The ground floor's vertex farthest (in the ground plane) from the upper floor's widest one, so
// the path crosses the ground floor, climbs the stairs and walks back over it upstairs.
struct Floors {
    Vec3 from, to;
    uint32_t from_layer = 0, to_layer = 0;
};
Floors twoStoreyFloors(const Baked& b) {
    const RoadmapVertex* upper = nullptr;
    for (const RoadmapVertex& v : b.roadmap.vertices)
        if (v.position.z > 1.5 && (!upper || v.clearance > upper->clearance)) upper = &v;
    REQUIRE(upper);
    const RoadmapVertex* ground = nullptr;
    double farthest = 0;
    for (const RoadmapVertex& v : b.roadmap.vertices) {
        const double d = std::hypot(v.position.x - upper->position.x, v.position.y - upper->position.y);
        if (v.position.z < 0 && v.clearance >= 1 && d > farthest) farthest = d, ground = &v;
    }
    REQUIRE(ground);
    return {worldOf(b.roadmap, *ground), worldOf(b.roadmap, *upper), ground->layer, upper->layer};
}

} // namespace

TEST_SUITE("tools/query") {
    TEST_CASE("cw-query --json on a level 5 km from the origin: world coordinates, points every step, "
              "clearance") {
        const Baked& b = baked(peer("undulating.obj"));
        Vec3 from, to;
        REQUIRE(farPair(b, 0, &from, &to));
        CHECK(from.x > 4900); // the mesh really is far from the origin
        const double step = 0.25, radius = 0.5;
        int code = 0;
        const nlohmann::json j = runJson(tool("cw-query") + " " + b.path + " --from " + arg(from) + " --to " +
                                             arg(to) + " --radius 0.5 --step 0.25 --json",
                                         &code);
        REQUIRE(code == 0);
        REQUIRE(j.is_object());
        REQUIRE(j.at("found").get<bool>());
        const double length = j.at("length").get<double>();
        CHECK(length > 20);
        CHECK(j.at("from_layer") == 0);
        CHECK(j.at("to_layer") == 0);

        // Points: every `step` metres of arc length from the start, plus the exact end; chords are
        // at most a step (shorter only across arcs), in the mesh's ground plane (x, z: Y-up).
        const auto& pts = j.at("points");
        const size_t expected =
            size_t(std::floor(length / step)) + 1 + (std::fmod(length, step) > 1e-9 ? 1 : 0);
        CHECK(pts.size() == expected);
        std::vector<Vec3> points;
        for (const auto& p : pts)
            points.push_back(vec(p));
        // The JSON has 10 significant digits: 5 km out, each coordinate within 5e-7 m, so a chord
        // read back may be up to 2 * sqrt(2) * 5e-7 m longer than the step.
        double chords = 0, shortest_full = INFINITY;
        for (size_t i = 1; i < points.size(); ++i) {
            const double d = flat(points[i - 1], points[i]);
            CHECK(d <= step + 1.5e-6);
            chords += d;
            if (i + 1 < points.size()) shortest_full = std::min(shortest_full, d);
        }
        CHECK(chords <= length + 1e-5);
        CHECK(chords >= 0.99 * length);
        // The ends are the requested points, in world coordinates (heights from the same surface).
        CHECK(flat(points.front(), from) < 1e-6);
        CHECK(flat(points.back(), to) < 1e-6);
        CHECK(std::abs(points.front().y - from.y) < 1e-3);
        CHECK(std::abs(points.back().y - to.y) < 1e-3);

        // Segments: lines and arcs that meet end to start, the first at --from, the last at --to.
        const auto& segs = j.at("segments");
        REQUIRE(segs.size() >= 1);
        CHECK(flat(vec(segs.front().at("start")), from) < 1e-6);
        CHECK(flat(vec(segs.back().at("end")), to) < 1e-6);
        double total = 0;
        size_t arcs = 0;
        for (size_t i = 0; i < segs.size(); ++i) {
            const auto& s = segs[i];
            const std::string type = s.at("type");
            CHECK((type == "line" || type == "arc"));
            total += s.at("length").get<double>();
            if (i) CHECK(flat(vec(segs[i - 1].at("end")), vec(s.at("start"))) < 1e-6);
            if (type == "arc") {
                ++arcs;
                const Vec3 c = vec(s.at("center"));
                const double r = s.at("radius").get<double>();
                CHECK(std::abs(flat(c, vec(s.at("start"))) - r) < 1e-5);
                CHECK(std::abs(flat(c, vec(s.at("end"))) - r) < 1e-5);
                CHECK(std::abs(std::abs(s.at("sweep").get<double>()) * r - s.at("length").get<double>()) <
                      1e-6);
            }
        }
        CHECK(arcs > 0);
        CHECK(std::abs(total - length) < 1e-6);

        // min_clearance is the smallest distance from a sample to the solid walls (brute force).
        const std::vector<WallSegment> walls = solidLayerWalls(b.roadmap.footprint, 0);
        double brute = INFINITY;
        for (const Vec3& p : points) {
            const Vec3 local = localOf(b.roadmap, p);
            brute = std::min(brute, distanceToWalls(walls, {local.x, local.y}));
        }
        const double min_clearance = j.at("min_clearance").get<double>();
        CHECK(min_clearance >= radius - 1e-9);
        CHECK(std::abs(min_clearance - brute) < 1e-5);

        // The tool prints exactly what the library returns; --clearance inf keeps more room.
        QueryRequest q;
        q.from = from, q.to = to;
        QueryResult r;
        REQUIRE(!queryRoadmapBytes(b.bytes.data(), b.size, b.path, q, &r));
        std::string out;
        REQUIRE(runTool(tool("cw-query") + " " + b.path + " --from " + arg(from) + " --to " + arg(to) +
                            " --json 2>/dev/null",
                        &out) == 0);
        CHECK(out == queryJson(r) + "\n");
        const nlohmann::json wide = runJson(tool("cw-query") + " " + b.path + " --from " + arg(from) +
                                                " --to " + arg(to) + " --clearance inf --json",
                                            &code);
        REQUIRE(code == 0);
        REQUIRE(wide.at("found").get<bool>());
        CHECK(wide.at("min_clearance").get<double>() >= min_clearance);
        CHECK(wide.at("length").get<double>() >= length - 1e-9);
    }

    // cw-query --json from the ground floor to the upper floor; it must find the path.
    auto upstairs = [](const Baked& b, const Floors& f) {
        int code = 0;
        const nlohmann::json j = runJson(tool("cw-query") + " " + b.path + " --from " + arg(f.from) +
                                             " --to " + arg(f.to) + " --json",
                                         &code);
        REQUIRE(code == 0);
        REQUIRE(j.at("found").get<bool>());
        return j;
    };

    TEST_CASE("a path from the ground floor of two_storey to the upper floor names both layers") {
        const Baked& b = baked(sampleLevel("two_storey.obj"));
        const Floors f = twoStoreyFloors(b);
        CHECK(f.from_layer != f.to_layer);
        CHECK(f.to.y > f.from.y + 2); // the upper floor, in the Y-up mesh
        const nlohmann::json j = upstairs(b, f);
        CHECK(j.at("from_layer") == f.from_layer);
        CHECK(j.at("to_layer") == f.to_layer);
        const auto& pts = j.at("points");
        CHECK(flat(vec(pts.front()), f.from) < 1e-6);
        CHECK(flat(vec(pts.back()), f.to) < 1e-6);
        CHECK(std::abs(vec(pts.front()).y - f.from.y) < 1e-3);
        // Human output: one summary line, then one line per segment.
        std::string text;
        REQUIRE(runTool(tool("cw-query") + " " + b.path + " --from " + arg(f.from) + " --to " + arg(f.to),
                        &text) == 0);
        CHECK(text.find("layer " + std::to_string(f.from_layer) + " -> " + std::to_string(f.to_layer)) !=
              std::string::npos);
        CHECK(std::count(text.begin(), text.end(), '\n') == 1 + long(j.at("segments").size()));
    }

    // The connection at the stair top is a zero-length roadmap edge: the path changes layer at a
    // corner (segments before it on the ground floor's layer, after it on the upper one).
    TEST_CASE("the path upstairs changes layer at the stair top and ends on the upper floor's surface") {
        const Baked& b = baked(sampleLevel("two_storey.obj"));
        const Floors f = twoStoreyFloors(b);
        const nlohmann::json j = upstairs(b, f);
        int changes = 0;
        for (size_t i = 1; i < j.at("segments").size(); ++i)
            changes += j.at("segments")[i].at("layer") != j.at("segments")[i - 1].at("layer");
        CHECK(j.at("segments").front().at("layer") == f.from_layer);
        CHECK(changes == 1);
        CHECK(j.at("segments").back().at("layer") == f.to_layer);
        CHECK(std::abs(vec(j.at("points").back()).y - f.to.y) < 1e-3);
        double highest = -INFINITY; // the stairs climb 3 m
        for (const auto& p : j.at("points"))
            highest = std::max(highest, vec(p).y);
        CHECK(highest > f.from.y + 2);
    }

    // tests/fuzz/seeds/roadmap/bridge-links.cwrm: the bridge with a ladder from the ground at
    // (15, 0, -8) onto the deck at (15, 4, -5) (link 0, tests/fuzz/README.md).
    TEST_CASE("an off-mesh link is its own segment in --json (type link, its index) and in the summary") {
        const std::string level =
            std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/roadmap/bridge-links.cwrm";
        const std::string command =
            tool("cw-query") + " " + level + " --from 16,0,-8 --to 16,4,-5 --radius 0.3";
        int code = 0;
        const nlohmann::json j = runJson(command + " --json", &code);
        REQUIRE(code == 0);
        REQUIRE(j.at("found").get<bool>());
        int links = 0;
        for (const auto& segment : j.at("segments")) {
            if (segment.at("type") != "link") continue;
            ++links;
            CHECK(segment.at("link") == 0);
            CHECK(std::abs(vec(segment.at("start")).x - 15) < 1e-4);
            CHECK(std::abs(vec(segment.at("start")).y) < 1e-3);
            CHECK(std::abs(vec(segment.at("end")).y - 4) < 1e-3);
            CHECK(std::abs(vec(segment.at("end")).z + 5) < 1e-4);
            CHECK(segment.at("length").get<double>() == doctest::Approx(5).epsilon(1e-6));
        }
        CHECK(links == 1);
        std::string text;
        REQUIRE(runTool(command, &text) == 0);
        CHECK(text.find(" link ") != std::string::npos);
    }

    TEST_CASE("--svg draws walls, roadmap, the path with its arcs, start and goal") {
        const Baked& b = baked(sampleLevel("box_room.obj"));
        const std::string svg = b.path + ".svg";
        std::string out;
        REQUIRE(runTool(tool("cw-query") + " " + b.path +
                            " --from -4,0,-4 --to 4,0,4 --clearance inf --svg " + svg,
                        &out) == 0);
        REQUIRE(fileExists(svg));
        const std::vector<uint8_t> bytes = test::readFile(svg);
        const std::string text(bytes.begin(), bytes.end());
        for (const char* part : {"<svg", "id=\"layer-0\"", "id=\"roadmap\"", "id=\"path\"", "id=\"start\"",
                                 "id=\"goal\"", "</svg>"})
            CHECK_MESSAGE(text.find(part) != std::string::npos, part);
        const size_t path_at = text.find("id=\"path\"");
        CHECK(text.find(" A", path_at) < text.find("/>", path_at)); // arcs are SVG arcs, not chords
    }

    TEST_CASE("no path is a result (found false, a reason, exit 0), not an error") {
        const Baked& b = baked(sampleLevel("box_room.obj"));
        int code = 0;
        const nlohmann::json j =
            runJson(tool("cw-query") + " " + b.path + " --from -4,0,-4 --to 4,0,4 --radius 20 --json", &code);
        CHECK(code == 0);
        REQUIRE(j.is_object());
        CHECK(j.at("found") == false);
        CHECK(j.at("segments").empty());
        CHECK(j.at("points").empty());
        CHECK(j.at("min_clearance").is_null());
        CHECK(j.at("reason").get<std::string>().find("closer than the radius") != std::string::npos);
        std::string text;
        CHECK(runTool(tool("cw-query") + " " + b.path + " --from -4,0,-4 --to 4,0,4 --radius 20", &text) ==
              0);
        CHECK(text.find("no path") != std::string::npos);
        // Start = goal is a path of length 0 with one point.
        const nlohmann::json same =
            runJson(tool("cw-query") + " " + b.path + " --from -4,0,-4 --to -4,0,-4 --json", &code);
        CHECK(code == 0);
        CHECK(same.at("found") == true);
        CHECK(same.at("length") == 0);
        CHECK(same.at("points").size() == 1);
    }

    TEST_CASE("bad input: exit 2 with the file and the problem named, an unwritable SVG: 4") {
        const Baked& b = baked(sampleLevel("box_room.obj"));
        const std::string dir = test::makeTempDir("cw-query-bad");
        const std::string q = tool("cw-query") + " ";
        const std::string ends = " --from -4,0,-4 --to 4,0,4";
        std::string out;
        CHECK(runTool(q + dir + "/missing.cwrm" + ends, &out) == 2);
        CHECK(out.find("missing.cwrm: no such file") != std::string::npos);
        const std::vector<uint8_t> bytes = test::readFile(b.path);
        test::writeFile(dir + "/truncated.cwrm",
                        std::string(bytes.begin(), bytes.begin() + bytes.size() / 2));
        CHECK(runTool(q + dir + "/truncated.cwrm" + ends, &out) == 2);
        CHECK(out.find("truncated.cwrm: not a valid roadmap asset") != std::string::npos);
        test::writeFile(dir + "/garbage.cwrm", "not a roadmap at all");
        CHECK(runTool(q + dir + "/garbage.cwrm" + ends, &out) == 2);
        CHECK(out.find("garbage.cwrm: not a valid roadmap asset") != std::string::npos);
        // A point outside every layer (the room is 20 m wide).
        CHECK(runTool(q + b.path + " --from -40,0,-4 --to 4,0,4", &out) == 2);
        CHECK(out.find("--from -40,0,-4 is not on the walkable area") != std::string::npos);
        CHECK(out.find(b.path) != std::string::npos);
        CHECK(runTool(q + b.path + " --from -4,0,-4 --to 4,0,400", &out) == 2);
        CHECK(out.find("--to 4,0,400 is not on the walkable area") != std::string::npos);
        // With --json the error is a JSON object on stdout too.
        int code = 0;
        const nlohmann::json j = runJson(q + b.path + " --from -40,0,-4 --to 4,0,4 --json", &code);
        CHECK(code == 2);
        REQUIRE(j.is_object());
        CHECK(j["error"]["exit_code"] == 2);
        CHECK(j["error"]["message"].get<std::string>().find("not on the walkable area") != std::string::npos);
        CHECK(runTool(q + "--help", &out) == 0);
        CHECK(out.find("No path is not an error") != std::string::npos);
        // Malformed values and options.
        CHECK(runTool(q + b.path + " --from -4,0 --to 4,0,4", &out) == 2);
        CHECK(out.find("--from '-4,0': expected x,y,z") != std::string::npos);
        CHECK(runTool(q + b.path + " --from -4,0,x --to 4,0,4", &out) == 2);
        CHECK(runTool(q + b.path + ends + " --radius -1", &out) == 2);
        CHECK(out.find("--radius must be a finite number > 0") != std::string::npos);
        CHECK(runTool(q + b.path + ends + " --step 0", &out) == 2);
        CHECK(runTool(q + b.path + ends + " --clearance wide", &out) == 2);
        CHECK(runTool(q + b.path + ends + " --no-such-flag", &out) == 2);
        CHECK(runTool(q + b.path, &out) == 2); // --from and --to are required
        // An SVG that cannot be written is an I/O error.
        CHECK(runTool(q + b.path + ends + " --svg " + dir + "/no-such-dir/q.svg", &out) == 4);
        CHECK(out.find("no-such-dir/q.svg") != std::string::npos);
    }
}

// cw-query's query filter options (runtime.md "Query filters").
TEST_SUITE("tools/query/filter") {
    TEST_CASE("--include-flags, --exclude-flags and --area-cost reach findPath, bad values exit 2") {
        const Baked& b = baked(sampleLevel("box_room.obj"));
        const std::string q = tool("cw-query") + " ";
        const std::string ends = " --from -4,0,-4 --to 4,0,4 --json";
        int code = 0;
        const nlohmann::json plain = runJson(q + b.path + ends, &code);
        REQUIRE(code == 0);
        REQUIRE(plain["found"] == true);
        // Doubling the ground's cost everywhere, or excluding a flag nothing carries, keeps the path.
        const nlohmann::json dearer =
            runJson(q + "--area-cost 0=2 --exclude-flags 0x8 --area-cost 7=0.5 " + b.path + ends, &code);
        CHECK(code == 0);
        CHECK(dearer["found"] == true);
        CHECK(dearer["length"].get<double>() == doctest::Approx(plain["length"].get<double>()).epsilon(1e-9));
        std::string out;
        for (const char* bad :
             {"--area-cost 0=nan", "--area-cost 0=inf", "--area-cost 0=0", "--area-cost 0=-2",
              "--area-cost 64=2", "--area-cost x=2", "--area-cost 3",
              "--area-cost 3=", "--exclude-flags 0x10000", "--include-flags -1", "--include-flags door"}) {
            CAPTURE(bad);
            CHECK(runTool(q + b.path + ends + " " + bad, &out) == 2);
            const std::string option(bad);
            const size_t space = option.find(' ');
            // The message names the option and the value as given: --area-cost '0=nan': ...
            CHECK(out.find(option.substr(0, space) + " '" + option.substr(space + 1) + "'") !=
                  std::string::npos);
        }
        CHECK(runTool(q + b.path + ends + " --area-cost 0=nan", &out) == 2);
        CHECK(out.find("the multiplier must be a finite number > 0") != std::string::npos);
    }
}

// cw-query --step: a step below a millimetre, or one giving more than 1,000,000 samples, is bad
// input (a tiny step once exhausted memory or converted a huge double to size_t).
TEST_SUITE("tools/query/step") {
    TEST_CASE("a step below 1 mm, 0, negative or NaN is refused, naming the option, the value and the limit") {
        const Baked& b = baked(sampleLevel("box_room.obj"));
        QueryRequest q;
        q.from = {-4, 0, -4}, q.to = {4, 0, 4};
        for (const double step : {1e-9, 1e-300, 0.0, -0.25, double(NAN), 9.99e-4}) {
            CAPTURE(step);
            q.step = step;
            QueryResult r;
            const Error e = queryRoadmapBytes(b.bytes.data(), b.size, b.path, q, &r);
            CHECK(e.code == ErrorCode::InvalidOption);
            CHECK(e.message.find("--step") != std::string::npos);
            CHECK(e.message.find(">= 0.001 m") != std::string::npos);
        }
        q.step = 1e-9;
        QueryResult r;
        CHECK(queryRoadmapBytes(b.bytes.data(), b.size, b.path, q, &r).message.find("(got 1e-09)") !=
              std::string::npos);
        q.step = 1e-300;
        CHECK(queryRoadmapBytes(b.bytes.data(), b.size, b.path, q, &r).message.find("(got 1e-300)") !=
              std::string::npos);
        // The tool exits 2 at once instead of aborting with std::bad_alloc.
        std::string out;
        CHECK(runTool(tool("cw-query") + " " + b.path + " --from -4,0,-4 --to 4,0,4 --step 1e-9 --json", &out) ==
              2);
        CHECK(out.find("--step must be a finite number >= 0.001 m") != std::string::npos);
        CHECK(runTool(tool("cw-query") + " " + b.path + " --from -4,0,-4 --to 4,0,4 --step 1e-300", &out) == 2);
    }

    TEST_CASE("a step giving exactly 1,000,000 samples is answered, a smaller one is refused with the least step") {
        // A straight 1.2 km corridor, 6 m wide (Y-up): long enough for a million samples 1.2 mm apart.
        const std::string dir = test::makeTempDir("cw-query-step");
        test::writeFile(dir + "/corridor.obj", "v 0 0 0\nv 0 0 6\nv 1200 0 6\nv 1200 0 0\nf 1 2 3\nf 1 3 4\n");
        const Baked& b = baked(dir + "/corridor.obj");
        QueryRequest q;
        q.from = {5, 0, 3}, q.to = {1195, 0, 3};
        q.step = 1;
        QueryResult r;
        REQUIRE(!queryRoadmapBytes(b.bytes.data(), b.size, b.path, q, &r));
        REQUIRE(r.found);
        const double length = r.length;
        REQUIRE(length > 1100);
        double step = length / 1e6;
        for (int i = 0; i < 4 && length / step > 1e6; ++i)
            step = std::nextafter(step, INFINITY);
        REQUIRE(length / step <= 1e6);
        CHECK(length / step > 1e6 - 1e-3);
        q.step = step;
        const Error e = queryRoadmapBytes(b.bytes.data(), b.size, b.path, q, &r);
        REQUIRE_MESSAGE(!e, e.message);
        CHECK(r.found);
        CHECK(r.points.size() >= 1000001);
        CHECK(r.points.size() <= 1000002);

        q.step = length / 1.1e6; // 1,100,000 samples, each step still above 1 mm
        REQUIRE(q.step >= 1e-3);
        const Error refused = queryRoadmapBytes(b.bytes.data(), b.size, b.path, q, &r);
        CHECK(refused.code == ErrorCode::InvalidOption);
        CHECK(refused.message.find("--step ") == 0);
        CHECK(refused.message.find(" gives 1100000 samples over ") != std::string::npos);
        CHECK(refused.message.find("; the limit is 1000000 (use --step >= ") != std::string::npos);
        // The suggested step is within the limit.
        const size_t at = refused.message.find(">= ");
        REQUIRE(at != std::string::npos);
        const double suggested = std::strtod(refused.message.c_str() + at + 3, nullptr);
        CHECK(suggested >= step);
        CHECK(length / suggested <= 1e6);
    }
}

TEST_SUITE("samples/game") {
    TEST_CASE("the game sample plans, flies a camera and walks a group of 50 to the goal on two_storey") {
        const Baked& b = baked(sampleLevel("two_storey.obj"));
        const std::string game = tool("sample-game");
        REQUIRE(fileExists(game));
        std::string out;
        REQUIRE_MESSAGE(runTool(game + " " + b.path, &out) == 0, out);
        CHECK(out.find("path: ") != std::string::npos);
        CHECK(out.find("layer 0 -> ") != std::string::npos);
        CHECK(out.find("camera: ") != std::string::npos);
        CHECK(out.find("group: all 50 arrived") != std::string::npos);
        // A corrupt asset is refused with a status, not a crash.
        const std::string dir = test::makeTempDir("cw-game-test");
        const std::vector<uint8_t> bytes = test::readFile(b.path);
        test::writeFile(dir + "/cut.cwrm", std::string(bytes.begin(), bytes.begin() + 100));
        CHECK(runTool(game + " " + dir + "/cut.cwrm", &out) == 2);
        CHECK(out.find("cut.cwrm") != std::string::npos);
    }
}
