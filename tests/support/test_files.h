// File and process helpers for tests that run tools and check what they leave on disk.
// Header-only, used by several test executables.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace clearway::test {

// A fresh empty folder under /tmp (throws if it cannot be made: the test cannot run).
inline std::string makeTempDir(const char* prefix = "clearway-test") {
    std::string pattern = std::string("/tmp/") + prefix + "-XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    return pattern;
}

inline bool fileExists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

// Entries in a folder (hidden ones excluded): "no temp file left behind" checks.
inline size_t filesIn(const std::string& dir) {
    size_t n = 0;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            n += e->d_name[0] != '.';
        closedir(d);
    }
    return n;
}

inline void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

inline std::vector<uint8_t> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs a shell command; returns its exit code and, if asked, what it printed (stdout + stderr).
inline int runTool(const std::string& command, std::string* output = nullptr) {
    const std::string file = "/tmp/clearway-test-output-" + std::to_string(getpid());
    const int status = std::system((command + " >" + file + " 2>&1").c_str());
    if (output) {
        const std::vector<uint8_t> bytes = readFile(file);
        output->assign(bytes.begin(), bytes.end());
    }
    std::remove(file.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A file's name and bytes.
struct NamedFile {
    std::string name;
    std::vector<uint8_t> bytes;
};

// Every file of a folder (dot files skipped), sorted by name so tests run in a fixed order; none
// when the folder is missing.
inline std::vector<NamedFile> readFilesIn(const std::string& dir) {
    std::vector<NamedFile> files;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') files.push_back({e->d_name, readFile(dir + "/" + e->d_name)});
        closedir(d);
    }
    std::sort(files.begin(), files.end(),
              [](const NamedFile& a, const NamedFile& b) { return a.name < b.name; });
    return files;
}

} // namespace clearway::test
