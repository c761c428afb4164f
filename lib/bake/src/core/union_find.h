// Classes of indices 0..n-1 (union-find with path halving) for the bake stages that group
// vertices or pieces: joined classes keep the smaller root, so a class's root is its least index.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace clearway::bake {

struct UnionFind {
    std::vector<uint32_t> parent;
    explicit UnionFind(size_t count) : parent(count) { std::iota(parent.begin(), parent.end(), 0u); }
    uint32_t find(uint32_t v) {
        while (parent[v] != v)
            v = parent[v] = parent[parent[v]];
        return v;
    }
    void join(uint32_t a, uint32_t b) {
        a = find(a), b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
};

} // namespace clearway::bake
