// clearway's runtime in the browser: cw-inspect's page compiles this file, lib/runtime and cw-query's
// engine (query.cpp) to WebAssembly, so a click on the page gives exactly the path, length and
// status findPath gives a game (and cw-query prints), with cw-query's reason when there is none.
//
// The page talks to it through a few C functions over JSON strings: open the embedded asset, pick
// the floor under a click, run a query. Each returned string stays valid until the next call.
#include <clearway/preview.h>
#include <clearway/preview/json_writer.h>
#include <clearway/runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace clearway;

namespace {

struct Page {
    std::vector<uint64_t> asset; // 8-byte aligned copy for the loaders
    size_t size = 0;
    RoadmapView view{};
    FootprintView footprint{};
    FootprintInfo info{};
    bool open = false;
    std::string reply;
};
Page page;

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", v);
    return text;
}

const char* error(const std::string& message) {
    page.reply = "{\"ok\": false, \"reason\": " + preview::jsonString(message) + "}";
    return page.reply.c_str();
}

} // namespace

extern "C" {

// Memory for the page to copy the asset into (freed by cw_open).
uint8_t* cw_alloc(size_t bytes) {
    return static_cast<uint8_t*>(std::malloc(bytes ? bytes : 1));
}

// Takes the asset bytes (from cw_alloc) and verifies them with the runtime's loader.
const char* cw_open(uint8_t* bytes, size_t size) {
    page = Page{};
    page.asset.assign(size / 8 + 1, 0);
    std::copy(bytes, bytes + size, reinterpret_cast<uint8_t*>(page.asset.data()));
    std::free(bytes);
    page.size = size;
    if (const Status s = loadRoadmap(page.asset.data(), size, &page.view); s != Status::Ok)
        return error(std::string("the page's roadmap asset does not load: ") + statusString(s));
    if (roadmapFootprint(page.view, &page.footprint) != Status::Ok ||
        footprintInfo(page.footprint, &page.info) != Status::Ok)
        return error("the page's roadmap asset has no footprint");
    page.open = true;
    page.reply = "{\"ok\": true, \"layers\": " + std::to_string(page.info.layer_count) + "}";
    return page.reply.c_str();
}

// The floor under a click at local ground point (x, y): the highest layer shown (bit l of
// `shown_layers`) whose surface covers it, in world (mesh) coordinates as cw-query takes them.
const char* cw_pick(double x, double y, uint32_t shown_layers) {
    if (!page.open) return error("no asset is open");
    bool found = false;
    float best = 0;
    uint32_t best_layer = 0;
    for (uint32_t l = 0; l < page.info.layer_count && l < 32; ++l) {
        float z = 0;
        if (!(shown_layers >> l & 1u)) continue;
        if (footprintHeightAt(page.footprint, l, float(x), float(y), 0.0f, &z) != Status::Ok) continue;
        if (!found || z > best) found = true, best = z, best_layer = l;
    }
    if (!found) return error("not on the walkable area of any shown layer");
    const Vec3d world = footprintLocalToWorld(page.info, Vec3d{x, y, double(best)});
    page.reply = "{\"ok\": true, \"layer\": " + std::to_string(best_layer) + ", \"world\": [" +
                 number(world.x) + ", " + number(world.y) + ", " + number(world.z) + "]}";
    return page.reply.c_str();
}

// cw-query's answer for two world points: {"ok": true, "query": <cw-query --json>, "local": [x, y,
// ...]} (the sampled points in the drawing's local frame), or {"ok": false, "reason"} for what
// cw-query reports as an error (a point on no layer, a bad radius).
const char* cw_query(double fx, double fy, double fz, double tx, double ty, double tz, double radius,
                     double clearance) {
    if (!page.open) return error("no asset is open");
    bake::QueryRequest request;
    request.from = {fx, fy, fz};
    request.to = {tx, ty, tz};
    request.radius = radius;
    request.preferred_clearance = clearance;
    bake::QueryResult result;
    if (bake::Error e = bake::queryRoadmapBytes(page.asset.data(), page.size, "page", request, &result))
        return error(e.message);
    std::string local;
    for (const bake::Vec3& p : result.points) {
        const Vec3d q = footprintWorldToLocal(page.info, Vec3d{p.x, p.y, p.z});
        local += (local.empty() ? "" : ", ") + number(q.x) + ", " + number(q.y);
    }
    page.reply = "{\"ok\": true, \"query\": " + bake::queryJson(result) + ", \"local\": [" + local + "]}";
    return page.reply.c_str();
}

} // extern "C"
