// Deterministic parallel loops for the bake stages (oneTBB). Internal to lib/bake.
//
// The rule that keeps assets byte-identical for any thread count: body(i) writes only slot i of
// a result vector the caller sized beforehand, and the caller combines the slots in index order
// afterwards. No shared container is appended from a task, and nothing takes its order from
// timing, hash maps or pointers. CGAL objects a task builds stay with that task until the loop
// ends (lazy exact values refine themselves when read, so sharing them would make low bits
// depend on timing).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace clearway::bake::parallel {

// Calls body(i) for every i in [0, n) on at most `threads` threads (0: every core the process
// may use; 1: a plain loop on the calling thread). An exception from body(i) is rethrown once
// the loop is done: the one of the lowest i, as a serial loop would, so the error a bake reports
// does not depend on the thread count either.
template <class Body> void forEach(size_t n, unsigned threads, const Body& body) {
    if (n == 0) return;
    if (threads == 1 || n == 1) {
        for (size_t i = 0; i < n; ++i)
            body(i);
        return;
    }
    std::vector<std::exception_ptr> errors(n);
    auto run = [&](size_t i) {
        try {
            body(i);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    };
#if defined(__SANITIZE_THREAD__)
    // ThreadSanitizer cannot see the synchronisation inside the (uninstrumented) oneTBB library
    // and would report every slot as a race: sanitizer builds run the same loop on plain threads.
    const size_t count =
        std::min<size_t>(n, threads ? threads : std::max(2u, std::thread::hardware_concurrency()));
    std::atomic<size_t> next{0};
    std::vector<std::thread> workers;
    for (size_t t = 0; t < count; ++t)
        workers.emplace_back([&] {
            for (size_t i = next++; i < n; i = next++)
                run(i);
        });
    for (std::thread& worker : workers)
        worker.join();
#else
    tbb::task_arena arena(threads == 0 ? tbb::task_arena::automatic : int(threads));
    arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<size_t>(0, n), [&](const tbb::blocked_range<size_t>& range) {
            for (size_t i = range.begin(); i != range.end(); ++i)
                run(i);
        });
    });
#endif
    for (const std::exception_ptr& error : errors)
        if (error) std::rethrow_exception(error);
}

} // namespace clearway::bake::parallel
