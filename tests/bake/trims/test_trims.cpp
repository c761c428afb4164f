// cw-trims: model spec validation (each error names the file, the field and the problem), the
// baked table against the runtime loader, mirrored vs full tables, determinism, the CLI contract.
#include <clearway/bake.h>
#include <clearway/motion.h>

#include <doctest/doctest.h>

#include "test_files.h"

#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace clearway;
using namespace clearway::bake;

namespace {

const char* kBoat = R"({
  // comments are allowed
  "name": "boat", "dimension": 2,
  "yaw": {"max_rate": 0.8, "samples": 17},
  "interval": 1.0, "steps": 20, "speed": 8.0
})";

using test::filesIn;
using test::readFile;
using test::runTool;
using test::writeFile;
std::string trimsTempDir() {
    return test::makeTempDir("cw-trims-test");
}

// Parses `json` and returns the error message ("" when it is accepted).
std::string problem(const std::string& json) {
    VehicleModel m;
    const Error e = parseVehicleModel(json, "v.json", &m);
    return e ? e.message : "";
}

std::vector<uint8_t> bakeBytes(const VehicleModel& m) {
    TrimTable t;
    const Error e = bakeTrims(m, &t, silentLog());
    REQUIRE_MESSAGE(!e, e.message);
    return serializeTrims(t);
}

} // namespace

TEST_SUITE("trims bake") {
    TEST_CASE("a valid model parses with defaults for what it leaves out") {
        VehicleModel m;
        REQUIRE(!parseVehicleModel(kBoat, "boat.json", &m));
        CHECK(m.name == "boat");
        CHECK(m.dimension == 2);
        CHECK(m.yaw.samples == 17);
        CHECK(m.yaw.max_rate == 0.8);
        CHECK(m.symmetric);
        VehicleModel d;
        REQUIRE(!parseVehicleModel(R"({"dimension": 3, "yaw": {"max_rate": 1, "samples": 3},
                                       "pitch": {"max_rate": 1, "samples": 3}})",
                                   "d.json", &d));
        CHECK(d.interval == 1.0);
        CHECK(d.steps == 20);
        CHECK(d.speed == 1.0);
        CHECK(d.roll.samples == 1);
    }

    TEST_CASE("bad models: each message names the file, the field and the problem") {
        const std::string axis = R"("yaw": {"max_rate": 0.8, "samples": 17})";
        CHECK(problem(R"({"dimension": 2, "yaw": {"max_rate": -0.8, "samples": 17}})") ==
              "v.json: yaw.max_rate must be >= 0 rad/s (got -0.80000000000000004)");
        CHECK(problem(R"({"dimension": 2, "yaw": {"max_rate": 0.8, "samples": 0}})") ==
              "v.json: yaw.samples must be >= 1 (got 0)");
        CHECK(problem(R"({"dimension": 2, "yaw": {"max_rate": 0.8, "samples": 4}})") ==
              "v.json: yaw.samples must be odd so that 0 rad/s (straight) is a sample (got 4)");
        CHECK(problem(R"({"dimension": 2, "yaw": {"max_rate": 0.8, "samples": -3}})") ==
              "v.json: yaw.samples must be a whole number >= 0 (got -3)");
        CHECK(problem(R"({"dimension": 2, "yaw": {"max_rate": 0.8, "samples": 1}})") ==
              "v.json: yaw.samples must be >= 3 for a vehicle that turns (got 1)");
        CHECK(problem(R"({"dimension": 2, "yaw": {"max_rate": "fast", "samples": 3}})") ==
              "v.json: yaw.max_rate must be a number (got string)");
        CHECK(problem(R"({"dimension": 4, )" + axis + "}") ==
              "v.json: unknown dimension 4 (2: yaw only; 3: yaw and pitch, optional roll)");
        CHECK(problem(R"({"dimension": "2d", )" + axis + "}") ==
              "v.json: unknown dimension \"2d\" (2: yaw only; 3: yaw and pitch, optional roll)");
        CHECK(problem("{" + axis + "}") ==
              "v.json: dimension is missing (2: yaw only; 3: yaw and pitch, optional roll)");
        CHECK(problem(R"({"dimension": 2})") ==
              "v.json: yaw is missing: {\"max_rate\": rad/s, \"samples\": odd count}");
        CHECK(problem(R"({"dimension": 2, "pitch": {"max_rate": 1, "samples": 3}, )" + axis + "}") ==
              "v.json: pitch is given but dimension is 2 (yaw only)");
        CHECK(problem(R"({"dimension": 3, )" + axis + "}") ==
              "v.json: pitch is missing (dimension 3 needs yaw and pitch)");
        CHECK(problem(R"({"dimension": 2, "sped": 3, )" + axis + "}")
                  .rfind("v.json: unknown field \"sped\"", 0) == 0);
        CHECK(problem(R"({"dimension": 2, "yaw": {"max_rate": 1, "samples": 3, "min": 0}})")
                  .rfind("v.json: unknown field \"yaw.min\"", 0) == 0);
        CHECK(problem(R"({"dimension": 2, "yaw": {"samples": 3}})") ==
              "v.json: yaw.max_rate is missing (rad/s)");
        CHECK(problem(R"({"dimension": 2, "steps": 0, )" + axis + "}") ==
              "v.json: steps must be in [1, 100000] (got 0)");
        CHECK(problem(R"({"dimension": 2, "steps": 2.5, )" + axis + "}") ==
              "v.json: steps must be a whole number (got number 2.5)");
        CHECK(problem(R"({"dimension": 2, "speed": 0, )" + axis + "}") ==
              "v.json: speed must be in (0, 100000] m/s (got 0)");
        CHECK(problem(R"({"dimension": 2, "interval": -1, )" + axis + "}") ==
              "v.json: interval must be in (0, 3600] seconds (got -1)");
        CHECK(problem(R"({"dimension": 2, "symmetric": "yes", )" + axis + "}") ==
              "v.json: symmetric must be true or false");
        CHECK(problem(R"({"dimension": 3, "yaw": {"max_rate": 1, "samples": 33},
                          "pitch": {"max_rate": 1, "samples": 33}})")
                  .rfind("v.json: yaw.samples x pitch.samples x roll.samples = 1089 controls; at most 1024",
                         0) == 0);
        CHECK(problem("[1, 2]") == "v.json: the model must be a JSON object");
        CHECK(problem(R"({"dimension": 2,)").rfind("v.json: not valid JSON: parse error at line 1", 0) == 0);
        // A number beyond double is nlohmann's out_of_range, not a parse_error: once uncaught (fuzzing).
        CHECK(problem(R"({"dimension": 2, "speed": 1e400})") ==
              "v.json: not valid JSON: number overflow parsing '1e400'");
    }

    TEST_CASE("the baked table loads in the runtime, 40 bytes per trim, hashes and model recorded") {
        VehicleModel m;
        REQUIRE(!parseVehicleModel(kBoat, "boat.json", &m));
        TrimTable t;
        REQUIRE(!bakeTrims(m, &t, silentLog()));
        t.input_hash = 42;
        const std::vector<uint8_t> bytes = serializeTrims(t);
        trims::TableView view;
        REQUIRE(trims::loadTable(bytes.data(), bytes.size(), &view) == Status::Ok);
        CHECK(view.trim_count == 145);
        CHECK(view.control_count == 17);
        CHECK(view.model.speed == 8.0);
        CHECK(view.model.max_rate[trims::kYaw] == 0.8);
        // 145 trims x 40 B plus a header of a few hundred bytes.
        CHECK(bytes.size() >= 145 * 40);
        CHECK(bytes.size() < 145 * 40 + 400);
        trims::TableInfo info;
        REQUIRE(trims::tableInfo(view, &info) == Status::Ok);
        CHECK(std::string(info.baker_version) == bakerVersion());
        CHECK(std::string(info.name) == "boat");
        CHECK(info.input_hash == 42);
        CHECK(info.options_hash == fnv1a64(canonicalString(m).data(), canonicalString(m).size()));
        // The chord bound of the sharpest trim, full left to full right at 8 m/s: under a metre.
        CHECK(view.max_chord_deviation > 0.1f);
        CHECK(view.max_chord_deviation < 1.0f);
        // Each trim equals the shared integrator's result at the bake speed.
        for (uint32_t a = 0; a < 17; ++a)
            for (uint32_t b = 0; b < 17; ++b) {
                trims::Trim trim;
                REQUIRE(trims::tableTrim(view, a, b, &trim) == Status::Ok);
                trims::PoseD pose = trims::identityPose();
                trims::integrateTrim(view.model, a, b, 8.0, 0, view.model.steps, &pose);
                CHECK(trim.position.x == float(pose.position[0]));
                CHECK(trim.position.y == float(pose.position[1]));
                CHECK(trim.orientation.z == float(pose.orientation[2]));
            }
    }

    TEST_CASE("the mirrored half table reproduces the full table, for the sample vehicles") {
        for (const char* name : {"boat", "spacecraft", "plane"}) {
            VehicleModel m;
            uint64_t hash = 0;
            const Error e =
                loadVehicleModel(std::string(CLEARWAY_SAMPLES) + "/vehicles/" + name + ".json", &m, &hash);
            REQUIRE_MESSAGE(!e, e.message);
            CHECK(hash != 0);
            m.symmetric = true;
            const auto half_bytes = bakeBytes(m);
            m.symmetric = false;
            const auto full_bytes = bakeBytes(m);
            trims::TableView half, full;
            REQUIRE(trims::loadTable(half_bytes.data(), half_bytes.size(), &half) == Status::Ok);
            REQUIRE(trims::loadTable(full_bytes.data(), full_bytes.size(), &full) == Status::Ok);
            CHECK(half.max_chord_deviation == full.max_chord_deviation);
            uint64_t differing = 0;
            for (uint32_t a = 0; a < full.control_count; ++a)
                for (uint32_t b = 0; b < full.control_count; ++b) {
                    trims::Trim x, y;
                    trims::tableTrim(full, a, b, &x);
                    trims::tableTrim(half, a, b, &y);
                    const bool same =
                        x.position.x == y.position.x && x.position.y == y.position.y &&
                        x.position.z == y.position.z && x.facing.x == y.facing.x &&
                        x.facing.y == y.facing.y && x.facing.z == y.facing.z &&
                        x.orientation.x == y.orientation.x && x.orientation.y == y.orientation.y &&
                        x.orientation.z == y.orientation.z && x.orientation.w == y.orientation.w;
                    differing += !same;
                }
            CHECK(differing == 0);
            MESSAGE(std::string(name), ": ", full.control_count, " controls, ", full.trim_count,
                    " trims full, ", half.trim_count, " stored (", half_bytes.size(), " vs ",
                    full_bytes.size(), " bytes), all equal");
        }
    }

    TEST_CASE("same model, same bytes, another model, another options hash") {
        VehicleModel m;
        REQUIRE(!parseVehicleModel(kBoat, "boat.json", &m));
        CHECK(bakeBytes(m) == bakeBytes(m));
        VehicleModel n = m;
        n.steps = 21;
        CHECK(canonicalString(n) != canonicalString(m));
        CHECK(bakeBytes(n) != bakeBytes(m));
    }

    TEST_CASE("cw-trims: exit codes, no file on error, --json, deterministic output") {
        const std::string dir = trimsTempDir();
        const std::string tool = std::string(CLEARWAY_BIN_DIR) + "/cw-trims";
        const std::string in = dir + "/in";
        const std::string out = dir + "/out";
        REQUIRE(mkdir(in.c_str(), 0755) == 0);
        REQUIRE(mkdir(out.c_str(), 0755) == 0);
        writeFile(in + "/boat.json", kBoat);
        writeFile(in + "/negative.json", R"({"dimension": 2, "yaw": {"max_rate": -1, "samples": 3}})");
        writeFile(in + "/zero.json", R"({"dimension": 2, "yaw": {"max_rate": 1, "samples": 0}})");
        writeFile(in + "/dimension.json", R"({"dimension": 5, "yaw": {"max_rate": 1, "samples": 3}})");
        writeFile(in + "/garbage.json", "this is not json");
        std::string text;
        CHECK(runTool(tool + " " + in + "/negative.json -o " + out + "/x.cwtt", &text) == 2);
        CHECK(text.find("negative.json: yaw.max_rate must be >= 0 rad/s") != std::string::npos);
        CHECK(runTool(tool + " " + in + "/zero.json -o " + out + "/x.cwtt", &text) == 2);
        CHECK(text.find("zero.json: yaw.samples must be >= 1 (got 0)") != std::string::npos);
        CHECK(runTool(tool + " " + in + "/dimension.json -o " + out + "/x.cwtt", &text) == 2);
        CHECK(text.find("dimension.json: unknown dimension 5") != std::string::npos);
        CHECK(runTool(tool + " " + in + "/garbage.json -o " + out + "/x.cwtt", &text) == 2);
        CHECK(text.find("garbage.json: not valid JSON") != std::string::npos);
        CHECK(runTool(tool + " " + in + "/missing.json -o " + out + "/x.cwtt", &text) == 2);
        CHECK(text.find("missing.json: no such file") != std::string::npos);
        CHECK(runTool(tool + " " + in + "/boat.json -o " + dir + "/no-such-dir/x.cwtt") == 4);
        CHECK(filesIn(out) == 0);

        CHECK(runTool(tool + " " + in + "/boat.json -o " + out + "/a.cwtt --json", &text) == 0);
        CHECK(text.find("\"trims\":145") != std::string::npos);
        CHECK(text.find("\"bytes_per_trim\":40") != std::string::npos);
        CHECK(runTool(tool + " " + in + "/boat.json -o " + out + "/b.cwtt -q") == 0);
        CHECK(filesIn(out) == 2);
        const auto a = readFile(out + "/a.cwtt"), b = readFile(out + "/b.cwtt");
        CHECK(a == b);
        trims::TableView view;
        CHECK(trims::loadTable(a.data(), a.size(), &view) == Status::Ok);
        CHECK(runTool(tool + " --help", &text) == 0);
        CHECK(text.find("max_rate") != std::string::npos);
    }
}
