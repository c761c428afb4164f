// Memory budget: an address-space cap (setrlimit RLIMIT_AS) so a hostile or huge level fails
// with OutOfMemory instead of swapping the machine to a halt.
#include <clearway/bake.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <sys/resource.h>
#include <unistd.h>

namespace clearway::bake {

namespace {
std::atomic<uint64_t> g_budget{0};

std::string gigabytes(uint64_t bytes) {
    char text[32];
    if (bytes < 1000000000)
        std::snprintf(text, sizeof text, "%.0f MB", double(bytes) / 1e6);
    else
        std::snprintf(text, sizeof text, "%.2f GB", double(bytes) / 1e9);
    return text;
}
} // namespace

Error setMemoryBudget(uint64_t bytes) {
    rlimit limit {};
    if (getrlimit(RLIMIT_AS, &limit) != 0)
        return {ErrorCode::Internal, std::string("cannot read the memory limit: ") + std::strerror(errno)};
    if (bytes != 0 && limit.rlim_max != RLIM_INFINITY && bytes > limit.rlim_max)
        return {ErrorCode::InvalidOption, "--max-memory " + gigabytes(bytes) + " is above the hard limit " +
                                              gigabytes(limit.rlim_max) + " (ulimit -Hv)"};
    limit.rlim_cur = bytes == 0 ? limit.rlim_max : rlim_t(bytes);
    if (setrlimit(RLIMIT_AS, &limit) != 0)
        return {ErrorCode::InvalidOption,
                "--max-memory " + gigabytes(bytes) + ": cannot set the limit: " + std::strerror(errno)};
    g_budget.store(bytes);
    return {};
}

uint64_t memoryBudget() {
    return g_budget.load();
}

uint64_t recommendedMemoryBudget() {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return 0;
    return uint64_t(pages) * uint64_t(page_size) / 5 * 4;
}

Error outOfMemoryError(const std::string& file) {
    const uint64_t budget = memoryBudget();
    return {ErrorCode::OutOfMemory,
            file + ": out of memory" +
                (budget ? " (budget " + gigabytes(budget) + ", --max-memory)" : std::string(" (no budget set)")) +
                "; nothing was written. Raise --max-memory, bake the level in tiles (--tile-size), or check "
                "the mesh for huge numbers of overlapping triangles"};
}

Error outOfMemoryIfExhausted(const std::string& file, Error error) {
    const std::string what = std::bad_alloc().what();
    const std::string& m = error.message;
    if (error && m.size() >= what.size() &&
        m.compare(m.size() - what.size(), what.size(), what) == 0)
        return outOfMemoryError(file);
    return error;
}

} // namespace clearway::bake
