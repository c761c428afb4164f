// The memory budget: a level whose overlapping pieces outgrow setMemoryBudget ends in an
// OutOfMemory error naming the file and the budget, not in the kernel's OOM killer.
#include "test_files.h"

#include <clearway/bake.h>

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace clearway;
using namespace clearway::bake;

uint64_t addressSpaceBytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
    return 0;
}

} // namespace

TEST_SUITE("memory budget") {
    TEST_CASE("a bake past the budget is an OutOfMemory error naming the file and the budget") {
        const std::string dir = test::makeTempDir("clearway-budget");
        // A 120 x 120 m floor of 1 m quads: a few MB of OBJ, tens of MB to import and bake.
        std::string obj;
        for (int i = 0; i <= 120; ++i)
            for (int j = 0; j <= 120; ++j)
                obj += "v " + std::to_string(i) + " 0 " + std::to_string(-j) + "\n";
        for (int i = 0; i < 120; ++i)
            for (int j = 0; j < 120; ++j) {
                const int a = i * 121 + j + 1, b = a + 121;
                obj += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(b + 1) + "\nf " +
                       std::to_string(a) + " " + std::to_string(b + 1) + " " + std::to_string(a + 1) + "\n";
            }
        const std::string mesh = dir + "/floor.obj";
        test::writeFile(mesh, obj);
        const pid_t child = fork();
        if (child == 0) { // the budget stays in the child
            const uint64_t budget = addressSpaceBytes() + (4ull << 20);
            if (setMemoryBudget(budget)) _exit(10);
            RoadmapRequest request;
            request.input_path = mesh;
            request.output_path = dir + "/floor.cwrm";
            request.import_options.threads = 1;
            RoadmapResult result;
            const Error e = bakeLevel(request, &result, silentLog());
            const bool named = e.message.rfind(mesh + ": out of memory (budget ", 0) == 0;
            if (!(e.code == ErrorCode::OutOfMemory && named && exitCodeFor(e) == 3))
                std::fprintf(stderr, "unexpected: %s\n", e.message.c_str());
            _exit(e.code == ErrorCode::OutOfMemory && named && exitCodeFor(e) == 3 ? 0 : 11);
        }
        int status = 0;
        REQUIRE(waitpid(child, &status, 0) == child);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
        CHECK(!test::fileExists(dir + "/floor.cwrm"));
        CHECK(setMemoryBudget(0).code == ErrorCode::None); // lifting the cap is always allowed
        CHECK(recommendedMemoryBudget() > 0);
    }
}
