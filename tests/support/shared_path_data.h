// Test helpers for the path data split into a shared part and per-thread scratches: their memory,
// a batch of findPath answers (one thread, or several threads on one PathShared) and a bit-for-bit
// comparison of answers. Header-only, used by the runtime and bake test executables.
#pragma once

#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace clearway::test {

// One PathShared for a roadmap, in memory the struct owns.
struct SharedPathData {
    std::vector<uint8_t> memory;
    PathShared* shared = nullptr;
    explicit SharedPathData(const RoadmapView& view) {
        size_t bytes = 0;
        REQUIRE(pathSharedSize(view, &bytes) == Status::Ok);
        memory.resize(bytes);
        REQUIRE(pathSharedInit(view, memory.data(), bytes, &shared) == Status::Ok);
    }
};

// A thread's scratch: on shared data, or standalone (pathScratchInit's one block) without it.
struct OwnScratch {
    std::vector<uint8_t> memory;
    PathScratch* scratch = nullptr;
    explicit OwnScratch(const PathShared* shared) {
        size_t bytes = 0;
        REQUIRE(pathScratchSizeShared(shared, &bytes) == Status::Ok);
        memory.resize(bytes);
        REQUIRE(pathScratchInitShared(shared, memory.data(), bytes, &scratch) == Status::Ok);
    }
    explicit OwnScratch(const RoadmapView& view) {
        size_t bytes = 0;
        REQUIRE(pathScratchSize(view, &bytes) == Status::Ok);
        memory.resize(bytes);
        REQUIRE(pathScratchInit(view, memory.data(), bytes, &scratch) == Status::Ok);
    }
};

struct PathQuery {
    PathEndpoint from, to;
    double radius, preferred;
};

struct PathAnswer {
    Status status;
    std::vector<PathSegment> segments;
};

// findPath's answer to each query in turn, on one scratch (findPathFiltered's with a filter). No
// REQUIRE: threads call it.
inline std::vector<PathAnswer> answersOf(const RoadmapView& view, PathScratch* scratch,
                                         const std::vector<PathQuery>& queries,
                                         const QueryFilter* filter = nullptr) {
    std::vector<PathAnswer> answers;
    std::vector<PathSegment> out(4096);
    for (const PathQuery& q : queries) {
        uint32_t count = 0;
        const Status status = filter ? findPathFiltered(view, scratch, q.from, q.to, q.radius, q.preferred,
                                                        *filter, out.data(), &count, uint32_t(out.size()))
                                     : findPath(view, scratch, q.from, q.to, q.radius, q.preferred,
                                                out.data(), &count, uint32_t(out.size()));
        answers.push_back({status, std::vector<PathSegment>(out.begin(), out.begin() + (status == Status::Ok ? count : 0))});
    }
    return answers;
}

// The answers of `threads` threads running every query at once, each on its own scratch on `shared`.
inline std::vector<std::vector<PathAnswer>> threadedAnswers(const RoadmapView& view, const PathShared* shared,
                                                            const std::vector<PathQuery>& queries, int threads) {
    std::vector<OwnScratch> scratches;
    scratches.reserve(threads);
    for (int t = 0; t < threads; ++t)
        scratches.emplace_back(shared);
    std::vector<std::vector<PathAnswer>> answers(threads);
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t)
        running.emplace_back([&, t] { answers[t] = answersOf(view, scratches[t].scratch, queries); });
    for (std::thread& th : running)
        th.join();
    return answers;
}

inline bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Every field of every segment, bit for bit (signed zeros too).
inline bool sameBits(const PathAnswer& a, const PathAnswer& b) {
    if (a.status != b.status || a.segments.size() != b.segments.size()) return false;
    for (size_t i = 0; i < a.segments.size(); ++i) {
        const PathSegment &s = a.segments[i], &t = b.segments[i];
        const double ds[] = {s.start.x, s.start.y, s.end.x, s.end.y, s.center.x, s.center.y, s.radius, s.sweep, s.length};
        const double dt[] = {t.start.x, t.start.y, t.end.x, t.end.y, t.center.x, t.center.y, t.radius, t.sweep, t.length};
        if (s.type != t.type || s.portal != t.portal || s.layer != t.layer) return false;
        for (size_t k = 0; k < sizeof ds / sizeof ds[0]; ++k)
            if (!sameBits(ds[k], dt[k])) return false;
    }
    return true;
}

// How many answers differ between two runs of the same queries.
inline int differing(const std::vector<PathAnswer>& a, const std::vector<PathAnswer>& b) {
    if (a.size() != b.size()) return int(a.size() > b.size() ? a.size() : b.size());
    int n = 0;
    for (size_t i = 0; i < a.size(); ++i)
        n += !sameBits(a[i], b[i]);
    return n;
}

} // namespace clearway::test
