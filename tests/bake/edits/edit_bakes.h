// Test helpers for designer edits: a sidecar that must fail (its FILE:LINE: message), and a roadmap
// baked in memory the way cw-bake does it (footprint edits, roadmap, roadmap edits, asset bytes)
// with a path scratch for queries.
#pragma once

#include <clearway/bake.h>
#include <clearway/runtime.h>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

namespace clearway::test {

// parseEdits must fail; returns the message after checking code, exit code and the FILE:LINE: prefix.
inline std::string parseError(const std::string& text, uint32_t line) {
    bake::LevelEdits edits;
    const bake::Error error = bake::parseEdits(text, "level.cwedit", &edits);
    REQUIRE(error);
    CHECK(error.code == bake::ErrorCode::ReadFailed);
    CHECK(bake::exitCodeFor(error) == 2);
    const std::string prefix = "level.cwedit:" + std::to_string(line) + ": ";
    CHECK_MESSAGE(error.message.rfind(prefix, 0) == 0, error.message);
    return error.message;
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A roadmap asset baked in memory the way cw-bake does it: footprint edits, roadmap, roadmap
// edits, asset bytes; with a path scratch for queries.
struct Baked {
    bake::Roadmap roadmap;
    std::vector<uint8_t> bytes;
    clearway::RoadmapView view;
    std::vector<uint8_t> scratch_memory;
    clearway::PathScratch* scratch = nullptr;
};

inline std::unique_ptr<Baked> bakeEdited(bake::Footprint fp, const std::string& text,
                                         bake::RoadmapOptions options = {}) {
    auto baked = std::make_unique<Baked>();
    bake::LevelEdits edits;
    if (!text.empty()) {
        const bake::Error parsed = bake::parseEdits(text, "test.cwedit", &edits);
        REQUIRE_MESSAGE(!parsed, parsed.message);
    }
    const bake::Error cut = bake::applyFootprintEdits(edits, &fp, bake::silentLog());
    REQUIRE_MESSAGE(!cut, cut.message);
    const bake::Error built = bake::buildRoadmap(fp, options, &baked->roadmap, nullptr, bake::silentLog());
    REQUIRE_MESSAGE(!built, built.message);
    const bake::Error added = bake::applyRoadmapEdits(edits, &baked->roadmap, bake::silentLog());
    REQUIRE_MESSAGE(!added, added.message);
    baked->bytes = bake::serializeRoadmap(baked->roadmap);
    REQUIRE(clearway::loadRoadmap(baked->bytes.data(), baked->bytes.size(), &baked->view) ==
            clearway::Status::Ok);
    size_t size = 0;
    REQUIRE(clearway::pathScratchSize(baked->view, &size) == clearway::Status::Ok);
    baked->scratch_memory.resize(size);
    REQUIRE(clearway::pathScratchInit(baked->view, baked->scratch_memory.data(), size, &baked->scratch) ==
            clearway::Status::Ok);
    return baked;
}

} // namespace clearway::test
