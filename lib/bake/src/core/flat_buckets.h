// Items sorted into buckets as one flat list, counted first: no vector per bucket, so a grid of a
// million buckets costs two arrays, not a million allocations. Internal to lib/bake.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace clearway::bake {

// Bucket b holds ids[start[b] .. start[b + 1]), ascending. `each(i, f)` calls f(bucket) for every
// bucket item i goes in; it is called twice per item (count, then fill), so it must give the same
// buckets both times.
template <class Each>
void fillBuckets(size_t bucket_count, uint32_t item_count, Each&& each, std::vector<uint32_t>* start,
                 std::vector<uint32_t>* ids) {
    start->assign(bucket_count + 1, 0);
    for (uint32_t i = 0; i < item_count; ++i)
        each(i, [&](size_t b) { ++(*start)[b + 1]; });
    for (size_t b = 0; b < bucket_count; ++b)
        (*start)[b + 1] += (*start)[b];
    ids->resize(start->back());
    std::vector<uint32_t> fill(start->begin(), start->end() - 1);
    for (uint32_t i = 0; i < item_count; ++i)
        each(i, [&](size_t b) { (*ids)[fill[b]++] = i; });
}

} // namespace clearway::bake
