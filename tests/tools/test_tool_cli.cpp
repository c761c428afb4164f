// What every tool shares (clearway/tool_cli.h): exit codes, JSON errors, --version, --if-changed,
// and a progress bar only on a terminal. Runs the built tools as a build system would.
#include "test_files.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <sys/stat.h>

namespace {

using clearway::test::fileExists;
using clearway::test::makeTempDir;
using clearway::test::readFile;
using clearway::test::runTool;

std::string tool(const char* name) {
    return std::string(CLEARWAY_BIN_DIR) + "/" + name;
}
std::string level(const char* name) {
    return std::string(CLEARWAY_SAMPLES) + "/levels/" + name;
}

// stdout only (logs dropped), parsed; a discarded value when it is not one JSON object.
nlohmann::json jsonOf(const std::string& command, int* code) {
    std::string out;
    *code = runTool("(" + command + " 2>/dev/null)", &out);
    return nlohmann::json::parse(out, nullptr, false);
}

long long mtimeNs(const std::string& path) {
    struct stat info {};
    stat(path.c_str(), &info);
    return info.st_mtim.tv_sec * 1000000000LL + info.st_mtim.tv_nsec;
}

bool contains(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
}

} // namespace

TEST_SUITE("tools: exit codes and JSON errors") {
    TEST_CASE("an unknown or invalid option is bad input (2) in every tool, as text or JSON") {
        for (const char* name :
             {"cw-bake", "cw-import", "cw-roadmap", "cw-trims", "cw-curve", "cw-make-samples"}) {
            INFO(name);
            std::string out;
            CHECK(runTool(tool(name) + " --no-such-flag", &out) == 2);
            CHECK(contains(out, std::string(name) + ": error: "));
            int code = 0;
            const nlohmann::json j = jsonOf(tool(name) + " --no-such-flag --json", &code);
            CHECK(code == 2);
            REQUIRE(j.is_object());
            CHECK(j["error"]["code"] == "InvalidOption");
            CHECK(j["error"]["exit_code"] == 2);
            CHECK(runTool(tool(name) + " --version", &out) == 0);
            CHECK(contains(out, "clearway 0."));
            CHECK(runTool(tool(name) + " --help", &out) == 0);
            CHECK(contains(out, "Exit codes: 0 ok, 2 bad input, 3 bake failure, 4 I/O error."));
        }
        // Named: an unknown option, a missing one, a bad value (each was one of CLI11's own codes, 100+).
        std::string out;
        const std::string bake = tool("cw-bake") + " " + level("box_room.obj");
        CHECK(runTool(bake + " -o /tmp/x.cwrm --no-such-flag", &out) == 2);
        CHECK(contains(out, "cw-bake: error: The following argument was not expected: --no-such-flag"));
        CHECK(runTool(bake, &out) == 2);
        CHECK(contains(out, "cw-bake: error: --output is required"));
        CHECK(runTool(bake + " -o /tmp/x.cwrm --scale -1", &out) == 2);
        CHECK(contains(out, "--scale must be a positive number"));
        CHECK(runTool(bake + " -o /tmp/x.cwrm --up x", &out) == 2);
        CHECK(contains(out, "--up: x not in {y,z,Y,Z}"));
    }

    TEST_CASE("bad input is 2, an unwritable output 4, both named, as JSON with --json") {
        const std::string dir = makeTempDir("clearway-cli");
        int code = 0;
        nlohmann::json j =
            jsonOf(tool("cw-bake") + " " + dir + "/missing.obj -o " + dir + "/a.cwrm --json", &code);
        CHECK(code == 2);
        REQUIRE(j.is_object());
        CHECK(j["error"]["code"] == "FileNotFound");
        CHECK(contains(j["error"]["message"].get<std::string>(), "missing.obj"));
        j = jsonOf(tool("cw-bake") + " " + level("box_room.obj") + " -o " + dir +
                       "/no-such-dir/a.cwrm --json",
                   &code);
        CHECK(code == 4);
        REQUIRE(j.is_object());
        CHECK(j["error"]["code"] == "WriteFailed");
        CHECK(j["error"]["exit_code"] == 4);
        std::string out;
        CHECK(runTool(tool("cw-curve") + " --from 0,0 --to 1,1 --radius 1", &out) == 2);
        CHECK(contains(out, "--from '0,0': expected x,y,heading"));
        CHECK(clearway::test::filesIn(dir) == 0);
    }

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    // (Sanitizer builds leave the tools' crash report off: their own report is more useful there.)
    TEST_CASE("a file that crashes the mesh importer ends in one named error and exit 3, nothing written") {
        // A binary PLY from the importer fuzzer on which Debian's Assimp 5.2.5 reads out of
        // bounds (SIGSEGV inside its PLY parser). Whatever a later Assimp does with it, the tool
        // must answer with an error naming the file (2 when the importer rejects it, 3 when it
        // crashes) and leave no output.
        const std::string dir = makeTempDir("clearway-cli-crash");
        const std::string mesh =
            std::string(CLEARWAY_SAMPLES) + "/../tests/bake/data/assimp-crash-binary.ply";
        std::string out;
        const int code = runTool(tool("cw-import") + " " + mesh + " -o " + dir + "/a.cwfp", &out);
        CHECK((code == 2 || code == 3));
        CHECK(contains(out, "assimp-crash-binary.ply: "));
        int json_code = 0;
        const nlohmann::json j =
            jsonOf(tool("cw-bake") + " " + mesh + " -o " + dir + "/a.cwrm --json", &json_code);
        CHECK(json_code == code);
        REQUIRE(j.is_object());
        CHECK(j["error"]["exit_code"] == code);
        CHECK(contains(j["error"]["message"].get<std::string>(), "assimp-crash-binary.ply"));
        CHECK(clearway::test::filesIn(dir) == 0);
    }
#endif

    TEST_CASE("--max-memory below what a level needs ends in a named out-of-memory error (3), nothing written") {
        // The tools allocate with jemalloc where it is installed (tools/common): the address-space
        // cap must still end the bake in the tool's own error, not in the allocator's abort.
        const std::string dir = makeTempDir("clearway-cli-memory");
        const std::string mesh = std::string(CLEARWAY_PEER_MESHES) + "/dungeon.obj";
        std::string out;
        const int code = runTool(tool("cw-bake") + " " + mesh + " -o " + dir + "/d.cwrm --max-memory 16M", &out);
        CHECK(code == 3);
        CHECK(contains(out, "dungeon.obj: out of memory (budget"));
        CHECK(clearway::test::filesIn(dir) == 0);
        CHECK(runTool(tool("cw-bake") + " " + mesh + " -o " + dir + "/d.cwrm --max-memory 2G -q", &out) == 0);
        CHECK(fileExists(dir + "/d.cwrm"));
    }

    TEST_CASE("--quiet prints nothing on success, --json one object, cw-make-samples lists its files") {
        const std::string dir = makeTempDir("clearway-cli");
        std::string out;
        CHECK(runTool(tool("cw-bake") + " " + level("box_room.obj") + " -o " + dir + "/a.cwrm -q", &out) ==
              0);
        CHECK(out.empty());
        int code = 0;
        nlohmann::json j = jsonOf(tool("cw-make-samples") + " -o " + dir + " --json", &code);
        CHECK(code == 0);
        REQUIRE(j.is_object());
        CHECK(j["files"].size() >= 8);
        CHECK(fileExists(dir + "/box_room.obj"));
    }

    TEST_CASE("cw-curve --method: the shortest path to a point (the default) and arc-line") {
        // A point 0.5 m ahead and 3 m left at a 3 m turning radius: inside the left turning circle, so
        // arc-then-line goes round the right one (21.17 m); two opposite turns take 16.64 m.
        const std::string query = tool("cw-curve") + " --from 0,0,0 --to 0.5,3 --radius 3 --json";
        int code = 0;
        nlohmann::json j = jsonOf(query, &code);
        CHECK(code == 0);
        REQUIRE(j.is_object());
        CHECK(j["method"] == "shortest");
        CHECK(std::fabs(j["shortest"]["length"].get<double>() - 16.64) <= 0.01);
        j = jsonOf(query + " --method arc-line", &code);
        CHECK(code == 0);
        CHECK(j["method"] == "arc-line");
        CHECK(std::fabs(j["arc_line"]["length"].get<double>() - 21.17) <= 0.01);
        j = jsonOf(query + " --method shortest", &code);
        CHECK(code == 0);
        REQUIRE(j.is_object());
        CHECK(j["method"] == "shortest");
        CHECK(j["shortest"]["kind"] == "turn-turn");
        CHECK(std::fabs(j["shortest"]["length"].get<double>() - 16.64) <= 0.01);
        std::string out;
        CHECK(runTool(tool("cw-curve") + " --from 0,0,0 --to 0.5,3 --radius 3", &out) == 0);
        CHECK(contains(out, "shortest to the point: 16.6"));
        CHECK(runTool(tool("cw-curve") + " --from 0,0,0 --to 0.5,3 --radius 3 --method fastest", &out) == 2);
    }
}

TEST_SUITE("tools: --if-changed") {
    TEST_CASE("cw-bake skips when input, options and baker version match, and rebakes when one changes") {
        const std::string dir = makeTempDir("clearway-cli");
        const std::string mesh = dir + "/room.obj", out = dir + "/room.cwrm";
        const std::vector<uint8_t> source = readFile(level("box_room.obj"));
        clearway::test::writeFile(mesh, std::string(source.begin(), source.end()));
        const std::string bake = tool("cw-bake") + " " + mesh + " -o " + out + " --if-changed";
        std::string text;
        REQUIRE(runTool(bake, &text) == 0);
        CHECK(contains(text, "no output yet, baking"));
        CHECK(contains(text, "vertices"));
        const std::vector<uint8_t> first = readFile(out);
        const long long first_mtime = mtimeNs(out);

        CHECK(runTool(bake, &text) == 0);
        CHECK(contains(text, "up to date (same input, options and baker version), skipped"));
        CHECK(mtimeNs(out) == first_mtime); // not rewritten
        int code = 0;
        nlohmann::json j = jsonOf(bake + " --json", &code);
        CHECK(code == 0);
        REQUIRE(j.is_object());
        CHECK(j["skipped"] == true);
        CHECK(runTool(bake + " -q", &text) == 0);
        CHECK(text.empty());

        // An option: rebaked; the same option again: skipped.
        CHECK(runTool(bake + " --max-step 0.3", &text) == 0);
        CHECK(contains(text, "the options changed, baking"));
        CHECK(runTool(bake + " --max-step 0.3", &text) == 0);
        CHECK(contains(text, "skipped"));
        CHECK(runTool(bake + " --max-step 0.3 --min-clearance 0.2", &text) == 0);
        CHECK(contains(text, "the options changed, baking"));
        // Back to the defaults: byte-identical to the first bake.
        CHECK(runTool(bake, &text) == 0);
        CHECK(contains(text, "the options changed, baking"));
        CHECK(readFile(out) == first);

        // The input: one more comment line changes the bytes, not the level.
        clearway::test::writeFile(mesh, std::string(source.begin(), source.end()) + "# edited\n");
        CHECK(runTool(bake, &text) == 0);
        CHECK(contains(text, "the input changed, baking"));
        CHECK(runTool(bake, &text) == 0);
        CHECK(contains(text, "skipped"));

        // A requested preview that is missing, and an output that is not an asset.
        CHECK(runTool(bake + " --svg " + dir + "/room.svg", &text) == 0);
        CHECK(contains(text, "room.svg is missing, baking"));
        CHECK(fileExists(dir + "/room.svg"));
        CHECK(runTool(bake + " --svg " + dir + "/room.svg", &text) == 0);
        CHECK(contains(text, "skipped"));
        clearway::test::writeFile(out, "not an asset");
        CHECK(runTool(bake, &text) == 0);
        CHECK(contains(text, "does not load as an asset, baking"));

        // An unreadable input is still the bake's own error.
        CHECK(runTool(tool("cw-bake") + " " + dir + "/missing.obj -o " + out + " --if-changed", &text) == 2);
        CHECK(contains(text, "missing.obj: no such file"));
    }

    TEST_CASE("cw-import, cw-roadmap and cw-trims skip the same way") {
        const std::string dir = makeTempDir("clearway-cli");
        const std::string fp = dir + "/a.cwfp", rm = dir + "/a.cwrm", tt = dir + "/a.cwtt";
        const std::string import =
            tool("cw-import") + " " + level("step_box.obj") + " -o " + fp + " --if-changed";
        const std::string roadmap = tool("cw-roadmap") + " " + fp + " -o " + rm + " --if-changed";
        const std::string trims = tool("cw-trims") + " " + std::string(CLEARWAY_SAMPLES) +
                                  "/vehicles/boat.json -o " + tt + " --if-changed";
        std::string text;
        for (const std::string& command : {import, roadmap, trims}) {
            INFO(command);
            CHECK(runTool(command, &text) == 0);
            CHECK(contains(text, "no output yet, baking"));
            CHECK(runTool(command, &text) == 0);
            CHECK(contains(text, "skipped"));
        }
        CHECK(runTool(import + " --epsilon 0.02", &text) == 0);
        CHECK(contains(text, "the options changed, baking"));
        CHECK(runTool(roadmap + " --arc-epsilon 0.02", &text) == 0);
        CHECK(contains(text, "the options changed, baking"));
        CHECK(runTool(roadmap + " --arc-epsilon 0.02", &text) == 0);
        CHECK(contains(text, "skipped"));
        // A roadmap records its footprint's import options: re-importing with others makes it stale.
        CHECK(runTool(import, &text) == 0);
        CHECK(runTool(roadmap + " --arc-epsilon 0.02", &text) == 0);
        CHECK(contains(text, "the options changed, baking"));
    }
}

TEST_SUITE("tools: progress bar") {
        // The bar shows after CLEARWAY_PROGRESS_DELAY seconds (default 1): 0 here, so the test does not
    // depend on how long dungeon takes to bake on this machine.
    TEST_CASE("a running bake draws a progress bar on a terminal after its delay, never when piped") {
        const std::string mesh = std::string(CLEARWAY_PEER_MESHES) + "/dungeon.obj";
        if (!fileExists(mesh) || !fileExists("/usr/bin/script")) return;
        const std::string dir = makeTempDir("clearway-cli");
                const std::string bake =
            "CLEARWAY_PROGRESS_DELAY=0 " + tool("cw-bake") + " " + mesh + " -o " + dir + "/d.cwrm";
        std::string piped;
        REQUIRE(runTool(bake, &piped) == 0);
        CHECK_FALSE(contains(piped, "\r"));
        CHECK_FALSE(contains(piped, "\033[K"));
        // script(1) gives the tool a pseudo-terminal.
        std::string terminal;
        REQUIRE(runTool("script -qec '" + bake + "' /dev/null", &terminal) == 0);
        CHECK(contains(terminal, "\r\033[Kcw-bake: dungeon.obj ["));
        CHECK(contains(terminal, "======"));
        CHECK(contains(terminal, "vertices")); // the summary still follows
    }
}

TEST_SUITE("tools: one preview") {
    TEST_CASE("cw-bake --svg draws exactly cw-inspect's picture of the asset, and --html its page") {
        const std::string dir = makeTempDir("cw-preview-one");
        const std::string level = std::string(CLEARWAY_SAMPLES) + "/levels/two_storey.obj";
        REQUIRE(runTool(tool("cw-bake") + " -q " + level + " -o " + dir + "/l.cwrm --svg " + dir + "/bake.svg --html " +
                        dir + "/bake.html") == 0);
        REQUIRE(runTool(tool("cw-inspect") + " -q " + dir + "/l.cwrm --svg " + dir + "/inspect.svg") == 0);
        // The same renderer (legend, scale bar, layer tints); only the title differs: the level
        // for cw-bake, the asset file for cw-inspect.
        const std::vector<uint8_t> a = readFile(dir + "/bake.svg"), b = readFile(dir + "/inspect.svg");
        std::string baked(a.begin(), a.end()), inspected(b.begin(), b.end());
        CHECK(baked.find(">two_storey.obj</text>") != std::string::npos);
        CHECK(inspected.find(">l.cwrm</text>") != std::string::npos);
        const std::string level_title = ">two_storey.obj</text>";
        baked.replace(baked.find(level_title), level_title.size(), ">l.cwrm</text>");
        CHECK(baked == inspected);
        const std::vector<uint8_t> page = readFile(dir + "/bake.html");
        const std::string html(page.begin(), page.end());
        CHECK(html.find("const ASSET = \"") != std::string::npos);
        CHECK(html.find("var ClearwayRuntime") != std::string::npos);
        // --html is an output like the others: never the asset's own path.
        CHECK(runTool(tool("cw-bake") + " -q " + level + " -o " + dir + "/l.cwrm --html " + dir + "/l.cwrm") == 2);
        runTool("rm -rf " + dir);
    }
}
