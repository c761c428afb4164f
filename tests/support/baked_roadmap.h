// Test helper: a roadmap baked from a footprint in memory, serialised, loaded, with its path scratch,
// and findPath's length on it (the eval suites compare it with the lecture's planners and oracle).
#pragma once

#include <clearway/bake.h>
#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace clearway::test {

struct BakedRoadmap {
    std::vector<uint8_t> bytes;
    RoadmapView view;
    std::vector<uint8_t> scratch_memory;
    PathScratch* scratch = nullptr;

    explicit BakedRoadmap(const bake::Footprint& fp) {
        bake::Roadmap roadmap;
        bake::RoadmapStats stats;
        REQUIRE_FALSE(bake::buildRoadmap(fp, bake::defaultRoadmapOptions(), &roadmap, &stats, bake::silentLog()));
        bytes = bake::serializeRoadmap(roadmap);
        REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &view) == Status::Ok);
        size_t size = 0;
        REQUIRE(pathScratchSize(view, &size) == Status::Ok);
        scratch_memory.resize(size);
        REQUIRE(pathScratchInit(view, scratch_memory.data(), size, &scratch) == Status::Ok);
    }
    // findPath on layer 0; *length_out = its length when Ok.
    Status find(bake::Vec2 s, bake::Vec2 g, double radius, double preferred, double* length_out) {
        std::vector<PathSegment> out(4096);
        uint32_t count = 0;
        const Status st =
            findPath(view, scratch, {s.x, s.y, 0}, {g.x, g.y, 0}, radius, preferred, out.data(), &count, 4096);
        if (st == Status::Ok) *length_out = pathTotalLength(out.data(), count);
        return st;
    }
    // Length of findPath's answer, NAN when it gives none.
    double length(bake::Vec2 s, bake::Vec2 g, double radius, double preferred) {
        double l = NAN;
        return find(s, g, radius, preferred, &l) == Status::Ok ? l : NAN;
    }
};

} // namespace clearway::test
