// Counts heap allocations made inside a measured region, on the measuring thread only (doctest and
// other threads stay out of the count). Include in exactly one .cpp of a test binary with
// CLEARWAY_DEFINE_COUNTING_NEW defined first: that file then replaces the global operator new /
// delete for the whole binary (every form, so nothing slips past through new[], nothrow or
// aligned new); every other file includes it without the macro to use the counter.
#pragma once

#include <cstddef>

namespace clearway::test {

struct AllocationCount {
    bool counting = false;
    long allocations = 0;
};
// This thread's counter.
AllocationCount& allocationCount();

// Allocations `f` makes on this thread. Check results after it returns: assertion macros may
// allocate themselves.
template <class F> long allocationsDuring(F&& f) {
    AllocationCount& c = allocationCount();
    const long before = c.allocations;
    c.counting = true;
    f();
    c.counting = false;
    return c.allocations - before;
}

} // namespace clearway::test

#ifdef CLEARWAY_DEFINE_COUNTING_NEW
#include <cstdlib>
#include <new>

namespace clearway::test {
AllocationCount& allocationCount() {
    thread_local AllocationCount count;
    return count;
}
} // namespace clearway::test

namespace {
void* countedAlloc(std::size_t size, std::size_t alignment) {
    clearway::test::AllocationCount& c = clearway::test::allocationCount();
    if (c.counting) ++c.allocations;
    if (size == 0) size = 1;
    void* p = alignment > alignof(std::max_align_t)
                  ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
                  : std::malloc(size);
    if (!p) throw std::bad_alloc();
    return p;
}
} // namespace

void* operator new(std::size_t size) {
    return countedAlloc(size, 0);
}
void* operator new[](std::size_t size) {
    return countedAlloc(size, 0);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return countedAlloc(size, 0);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return countedAlloc(size, 0);
    } catch (...) {
        return nullptr;
    }
}
void* operator new(std::size_t size, std::align_val_t alignment) {
    return countedAlloc(size, std::size_t(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
    return countedAlloc(size, std::size_t(alignment));
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
#endif
