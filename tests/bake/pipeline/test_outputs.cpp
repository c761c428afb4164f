// Output safety (OutputSet, the pipelines' writes): outputs that would replace an input, each
// other, a directory or a device are refused; links are written through, modes kept; a failed or
// killed run leaves every old file and no temporaries behind.
#include "test_files.h"

#include <clearway/bake.h>

#include <doctest/doctest.h>

#include <cerrno>
#include <csignal>
#include <dirent.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace clearway;
using namespace clearway::bake;
using test::fileExists;
using test::filesIn;
using test::readFile;
using test::writeFile;

std::string sample(const char* name) {
    return std::string(CLEARWAY_SAMPLES) + "/" + name;
}

std::string copyOf(const std::string& from, const std::string& to) {
    const std::vector<uint8_t> bytes = readFile(from);
    writeFile(to, std::string(bytes.begin(), bytes.end()));
    return to;
}

std::string text(const std::string& path) {
    const std::vector<uint8_t> bytes = readFile(path);
    return {bytes.begin(), bytes.end()};
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

std::string drawNothing(const Roadmap&) {
    return "<svg/>";
}

// Every entry of a folder, dot files too: temporaries must not survive.
size_t entriesIn(const std::string& dir) {
    size_t n = 0;
    if (DIR* d = opendir(dir.c_str())) {
        while (const dirent* e = readdir(d))
            n += std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0;
        closedir(d);
    }
    return n;
}

bool endsWith(const char* text, const char* end) {
    const size_t n = std::strlen(text), m = std::strlen(end);
    return n >= m && std::strcmp(text + n - m, end) == 0;
}

// Renames as std::rename does, except into a file named c.svg (the third output below) and, when
// `g_fail_restore` is set, the second time onto a.cwrm (the rollback's): a folder gone read-only
// or a full quota between two renames (root ignores read-only folders, so the test injects it).
bool g_fail_restore = false;
int g_renames_onto_a = 0;
int renameFailing(const char* from, const char* to) {
    if (endsWith(to, "/a.cwrm")) ++g_renames_onto_a;
    if (endsWith(to, "/c.svg") || (g_fail_restore && endsWith(to, "/a.cwrm") && g_renames_onto_a == 2)) {
        errno = EACCES;
        return -1;
    }
    return std::rename(from, to);
}

RoadmapRequest bakeRequest(const std::string& mesh, const std::string& out) {
    RoadmapRequest request;
    request.input_path = mesh;
    request.output_path = out;
    request.roadmap_svg = drawNothing;
    return request;
}

} // namespace

TEST_SUITE("outputs") {
    TEST_CASE("an output that is the input is refused and the input is untouched") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        const std::string mesh = copyOf(sample("levels/box_room.obj"), dir + "/box_room.obj");
        const std::string before = text(mesh);
        RoadmapResult result;
        Error e = bakeLevel(bakeRequest(mesh, mesh), &result, silentLog());
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(contains(e.message, "-o " + mesh + ": is the input"));
        // Through a symbolic link, and as the SVG preview, too.
        REQUIRE(symlink(mesh.c_str(), (dir + "/link.cwrm").c_str()) == 0);
        CHECK(bakeLevel(bakeRequest(mesh, dir + "/link.cwrm"), &result, silentLog()).code == ErrorCode::InvalidOption);
        RoadmapRequest svg = bakeRequest(mesh, dir + "/out.cwrm");
        svg.svg_path = mesh;
        e = bakeLevel(svg, &result, silentLog());
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(contains(e.message, "--svg " + mesh));
        // cw-import, cw-roadmap and cw-trims go through the same check.
        ImportRequest import;
        import.mesh_path = mesh;
        import.output_path = mesh;
        ImportResult imported;
        CHECK(importLevel(import, &imported, silentLog()).code == ErrorCode::InvalidOption);
        const std::string model = copyOf(sample("vehicles/boat.json"), dir + "/boat.json");
        TrimsRequest trims{model, model};
        TrimsResult trimmed;
        e = bakeTrimsFile(trims, &trimmed, silentLog());
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(contains(e.message, "refusing to overwrite an input"));
        CHECK(text(model) == text(sample("vehicles/boat.json")));
        CHECK(text(mesh) == before);
        CHECK(!fileExists(dir + "/out.cwrm"));
        CHECK(entriesIn(dir) == 3); // mesh, link, model
    }

    TEST_CASE("the designer-edits sidecar is an input too") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        const std::string mesh = copyOf(sample("levels/bridge.obj"), dir + "/bridge.obj");
        const std::string edits = copyOf(sample("levels/bridge.cwedit"), dir + "/bridge.cwedit");
        ImportRequest import;
        import.mesh_path = mesh;
        import.output_path = edits;
        ImportResult imported;
        const Error e = importLevel(import, &imported, silentLog());
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(contains(e.message, "is the input " + edits));
        CHECK(text(edits) == text(sample("levels/bridge.cwedit")));
    }

    TEST_CASE("the preview and the asset must be different files") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        RoadmapRequest request = bakeRequest(sample("levels/box_room.obj"), dir + "/out.cwrm");
        request.svg_path = dir + "/./out.cwrm";
        RoadmapResult result;
        const Error e = bakeLevel(request, &result, silentLog());
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(contains(e.message, "is the same file as -o " + dir + "/out.cwrm"));
        CHECK(filesIn(dir) == 0);
    }

    TEST_CASE("empty, directory and device outputs are refused") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        auto refusal = [](const std::string& path) {
            const std::string bytes = "bytes";
            OutputSet outputs;
            outputs.add(path, bytes, "-o");
            return outputs.write();
        };
        Error e = refusal("");
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(e.message == "-o: the output path is empty");
        e = refusal(dir);
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(e.message == "-o " + dir + ": is a directory; give a file name");
        // A FIFO stands in for /dev/null: a tool run as root must not replace a device node.
        const std::string fifo = dir + "/fifo";
        REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
        e = refusal(fifo);
        CHECK(e.code == ErrorCode::InvalidOption);
        CHECK(contains(e.message, fifo + ": exists and is not a regular file"));
        struct stat info {};
        REQUIRE(lstat(fifo.c_str(), &info) == 0);
        CHECK(S_ISFIFO(info.st_mode));
        CHECK(entriesIn(dir) == 1);
    }

    TEST_CASE("a symbolic link is written through and stays a link") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        REQUIRE(mkdir((dir + "/assets").c_str(), 0755) == 0);
        writeFile(dir + "/assets/level.cwrm", "old");
        REQUIRE(symlink("assets/level.cwrm", (dir + "/current.cwrm").c_str()) == 0);
        REQUIRE(!writeFileAtomic(dir + "/current.cwrm", std::string("new")));
        struct stat info {};
        REQUIRE(lstat((dir + "/current.cwrm").c_str(), &info) == 0);
        CHECK(S_ISLNK(info.st_mode));
        CHECK(text(dir + "/assets/level.cwrm") == "new");
        // A dangling link creates its target.
        REQUIRE(symlink("assets/next.cwrm", (dir + "/next.cwrm").c_str()) == 0);
        REQUIRE(!writeFileAtomic(dir + "/next.cwrm", std::string("next")));
        CHECK(text(dir + "/assets/next.cwrm") == "next");
        CHECK(entriesIn(dir + "/assets") == 2);
    }

    TEST_CASE("a replaced file keeps its mode") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        const std::string path = dir + "/level.cwrm";
        writeFile(path, "old");
        REQUIRE(chmod(path.c_str(), 0640) == 0);
        REQUIRE(!writeFileAtomic(path, std::string("new")));
        struct stat info {};
        REQUIRE(stat(path.c_str(), &info) == 0);
        CHECK((info.st_mode & 07777) == 0640);
        CHECK(text(path) == "new");
    }

    TEST_CASE("a preview that cannot be written leaves the old asset and no temporaries") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        const std::string asset = dir + "/level.cwrm";
        writeFile(asset, "old");
        // A missing folder is found before the bake.
        RoadmapRequest request = bakeRequest(sample("levels/box_room.obj"), asset);
        request.svg_path = dir + "/missing/level.svg";
        RoadmapResult result;
        Error e = bakeLevel(request, &result, silentLog());
        CHECK(e.code == ErrorCode::WriteFailed);
        CHECK(contains(e.message, "--svg " + request.svg_path + ": folder " + dir + "/missing does not exist"));
        // A name that fits but whose temporary does not (NAME_MAX) fails after the asset's
        // temporary was written: that one is removed too.
        request.svg_path = dir + "/" + std::string(250, 's');
        e = bakeLevel(request, &result, silentLog());
        CHECK(e.code == ErrorCode::WriteFailed);
        CHECK(contains(e.message, "cannot create file"));
        CHECK(text(asset) == "old");
        CHECK(entriesIn(dir) == 1);
    }

    TEST_CASE("temporaries of a killed run are removed by the next write") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        const pid_t dead = fork();
        if (dead == 0) _exit(0);
        REQUIRE(waitpid(dead, nullptr, 0) == dead);
        const std::string stale = dir + "/level.cwrm.tmp-" + std::to_string(dead) + "-0badf00d";
        const std::string alive = dir + "/level.cwrm.tmp-" + std::to_string(getppid()) + "-0badf00d";
        const std::string other = dir + "/other.cwrm.tmp-" + std::to_string(dead) + "-0badf00d";
        for (const std::string& path : {stale, alive, other})
            writeFile(path, "partial");
        REQUIRE(!writeFileAtomic(dir + "/level.cwrm", std::string("new")));
        CHECK(!fileExists(stale));
        CHECK(fileExists(alive)); // its writer may still be running
        CHECK(fileExists(other)); // another output's
    }

    TEST_CASE("SIGTERM during a write removes the temporaries") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        bool killed_mid_write = false;
        for (size_t megabytes = 256; megabytes <= 1024 && !killed_mid_write; megabytes *= 2) {
            const pid_t child = fork();
            if (child == 0) {
                signal(SIGTERM, SIG_DFL); // a plain tool's, not the test framework's handler
                const std::vector<char> bytes(megabytes << 20, 'x');
                OutputSet outputs;
                outputs.add(dir + "/big.cwrm", bytes.data(), bytes.size(), "-o");
                _exit(outputs.write() ? 1 : 0);
            }
            // Wait for the temporary to appear, then stop the writer.
            for (int tries = 0; tries < 20000; ++tries) {
                if (entriesIn(dir) != 0) {
                    kill(child, SIGTERM);
                    break;
                }
                usleep(100);
            }
            int status = 0;
            REQUIRE(waitpid(child, &status, 0) == child);
            // Renamed before the signal came: too fast, try a bigger file.
            const bool finished = std::remove((dir + "/big.cwrm").c_str()) == 0;
            killed_mid_write = !finished && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM;
            CHECK(entriesIn(dir) == 0);
        }
        CHECK(killed_mid_write);
    }

    TEST_CASE("a rename failing after earlier ones puts their old files back and leaves no temporaries") {
        const std::string dir = test::makeTempDir("clearway-outputs");
        const std::string a = dir + "/a.cwrm", b = dir + "/b.html", c = dir + "/c.svg";
        writeFile(a, "old a");
        REQUIRE(chmod(a.c_str(), 0640) == 0);
        writeFile(c, "old c");
        struct stat before {};
        REQUIRE(stat(a.c_str(), &before) == 0);
        const std::string new_a = "new a", new_b = "new b", new_c = "new c";
        OutputSet outputs;
        outputs.add(a, new_a, "-o");
        outputs.add(b, new_b, "--html"); // new to this run: removed again
        outputs.add(c, new_c, "--svg");  // its rename fails after a's and b's succeeded
        setOutputRenameForTesting(renameFailing);
        Error e = outputs.write();
        CHECK(e.code == ErrorCode::WriteFailed);
        CHECK(e.message == "--svg " + c + ": cannot rename temp file into place: " + std::strerror(EACCES));
        CHECK(text(a) == "old a");
        CHECK(text(c) == "old c");
        CHECK(!fileExists(b));
        struct stat after {};
        REQUIRE(stat(a.c_str(), &after) == 0);
        CHECK(after.st_ino == before.st_ino); // the old file itself, not a copy
        CHECK((after.st_mode & 07777) == 0640);
        CHECK(entriesIn(dir) == 2);

        // A rollback that cannot put a file back says so and keeps the old bytes under the
        // backup's name.
        g_fail_restore = true;
        g_renames_onto_a = 0;
        e = outputs.write();
        g_fail_restore = false;
        CHECK(e.code == ErrorCode::WriteFailed);
        CHECK(contains(e.message, "; cannot put back -o " + a + ": " + std::strerror(EACCES) +
                                      " (the old file is " + a + ".tmp-"));
        CHECK(text(a) == "new a");
        CHECK(entriesIn(dir) == 3); // a (new), its backup, c
        setOutputRenameForTesting(nullptr);

        // Without the failure every output is replaced and no backup is left.
        writeFile(a, "old a");
        REQUIRE(!outputs.write());
        CHECK(text(a) == "new a");
        CHECK(text(b) == "new b");
        CHECK(text(c) == "new c");
        CHECK(entriesIn(dir) == 4); // a, b, c and the earlier backup, left for the user
    }
}
