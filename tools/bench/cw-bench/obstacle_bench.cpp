// cw-bench query's temporary obstacles: clearway's obstacle set and findPathAvoiding next to Detour
// TileCache's obstacles (RecastDemo's temp-obstacles sample) on the same triangles and pairs.
#include "query.h"
#include "tilecache_peer.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace clearway::bench {

namespace {

constexpr uint32_t kMaxSegments = 4096;

volatile uint64_t g_sink = 0; // results of timed calls nothing else reads

struct Disc {
    clearway::Vec2d centre;
    uint32_t layer;
    float d[3]; // the cylinder's foot in Detour's frame
};

class ObstacleBench {
  public:
    ObstacleBench(const QueryArgs& args, const clearway::RoadmapView& view, clearway::PathScratch* scratch,
                  const std::vector<QueryEnds>& pairs)
        : args_(args), view_(view), scratch_(scratch), pairs_(pairs) {}
    bake::Error buildPeer(const ObjMesh& mesh, ObstacleQueries* out);
    // The discs: the middle of findPath's path for the first kBenchObstacles pairs, so they sit on
    // routes the queries take.
    void placeDiscs();
    void timeAdds(ObstacleQueries* out);
    void timeQueries(ObstacleQueries* out);

  private:
    clearway::Status path(const QueryEnds& e, const clearway::ObstacleSet* set, clearway::PathSegment* out,
                          uint32_t* count) const {
        clearway::PathEndpoint a{}, b{};
        clearway::locatePoint(view_, scratch_, {e.from.p.x, e.from.p.y, e.from.p.z}, args_.max_step, &a);
        clearway::locatePoint(view_, scratch_, {e.to.p.x, e.to.p.y, e.to.p.z}, args_.max_step, &b);
        return clearway::findPathAvoiding(view_, scratch_, a, b, args_.radius, args_.radius, nullptr, set,
                                          out, count, kMaxSegments);
    }
    void addAll(clearway::ObstacleSet* set, std::vector<uint32_t>* ids) const {
        ids->resize(discs_.size());
        for (size_t k = 0; k < discs_.size(); ++k)
            clearway::obstacleAddDisc(set, discs_[k].layer, discs_[k].centre, kBenchObstacleRadius,
                                      &(*ids)[k]);
    }
    void updateUntilDone() {
        bool done = false;
        while (!done)
            cache_->update(0, nav_.nav.get(), &done);
    }

    const QueryArgs& args_;
    const clearway::RoadmapView& view_;
    clearway::PathScratch* scratch_;
    const std::vector<QueryEnds>& pairs_;
    std::vector<Disc> discs_;
    std::shared_ptr<dtTileCache> cache_;
    std::shared_ptr<void> keep_;
    Detour nav_;
    std::vector<uint8_t> set_memory_ = std::vector<uint8_t>(clearway::obstacleSetBytes(kBenchObstacles));
    clearway::ObstacleSet* set_ = nullptr;
    std::vector<dtObstacleRef> refs_;
};

bake::Error ObstacleBench::buildPeer(const ObjMesh& mesh, ObstacleQueries* out) {
    RecastSettings settings;
    settings.cell_size = float(args_.cell_size);
    settings.agent_radius = float(args_.radius);
    settings.agent_max_climb = float(args_.max_step);
    TileCacheResult tc;
    if (bake::Error e = buildTileCache(mesh, settings, kBenchObstacles, &tc)) return e;
    out->tiles = tc.tiles, out->tile_layers = tc.layers, out->tilecache_build_s = tc.seconds;
    cache_ = tc.cache, keep_ = tc.keep;
    nav_.nav = tc.navmesh;
    nav_.query.reset(dtAllocNavMeshQuery());
    if (!nav_.query || dtStatusFailed(nav_.query->init(nav_.nav.get(), kMaxNodes)))
        return {bake::ErrorCode::Internal, "TileCache navmesh: dtNavMeshQuery::init failed"};
    clearway::obstacleSetInit(set_memory_.data(), set_memory_.size(), kBenchObstacles, &set_);
    return {};
}

void ObstacleBench::placeDiscs() {
    std::vector<clearway::PathSegment> segments(kMaxSegments);
    for (size_t i = 0; i < pairs_.size() && discs_.size() < size_t(kBenchObstacles); ++i) {
        uint32_t count = 0;
        if (path(pairs_[i], nullptr, segments.data(), &count) != clearway::Status::Ok || count == 0) continue;
        clearway::PathPose pose;
        const double length = clearway::pathTotalLength(segments.data(), count);
        if (clearway::pathPoseAt(view_, segments.data(), count, 0.5 * length, &pose) != clearway::Status::Ok)
            continue;
        Disc d{{pose.position.x, pose.position.y}, pose.layer, {}};
        toDetour({pose.position.x, pose.position.y, pose.position.z - 0.5}, d.d);
        discs_.push_back(d);
    }
}

// Adding and removing every disc, `repeats` times, the fastest run of each kept; the discs stay in
// both engines afterwards for the queries.
void ObstacleBench::timeAdds(ObstacleQueries* out) {
    out->obstacles = discs_.size();
    if (discs_.empty()) return;
    const double n = double(discs_.size());
    const float grown = float(kBenchObstacleRadius + args_.radius);
    double cw_add = INFINITY, cw_remove = INFINITY, dt_add = INFINITY, dt_remove = INFINITY;
    std::vector<uint32_t> ids;
    refs_.assign(discs_.size(), 0);
    for (int r = 0; r < args_.repeats; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        addAll(set_, &ids);
        cw_add = std::min(cw_add, sinceMicros(t0));
        t0 = std::chrono::steady_clock::now();
        for (const uint32_t id : ids)
            clearway::obstacleRemove(set_, id);
        cw_remove = std::min(cw_remove, sinceMicros(t0));
        t0 = std::chrono::steady_clock::now();
        for (size_t k = 0; k < discs_.size(); ++k)
            cache_->addObstacle(discs_[k].d, grown, 3.0f, &refs_[k]);
        updateUntilDone();
        dt_add = std::min(dt_add, sinceMicros(t0));
        t0 = std::chrono::steady_clock::now();
        for (const dtObstacleRef ref : refs_)
            cache_->removeObstacle(ref);
        updateUntilDone();
        dt_remove = std::min(dt_remove, sinceMicros(t0));
    }
    out->cw_add_us = cw_add / n, out->cw_remove_us = cw_remove / n;
    out->dt_add_us = dt_add / n, out->dt_remove_us = dt_remove / n;
    out->add_ratio = out->cw_add_us / out->dt_add_us;
    addAll(set_, &ids);
    for (size_t k = 0; k < discs_.size(); ++k)
        cache_->addObstacle(discs_[k].d, grown, 3.0f, &refs_[k]);
    updateUntilDone();
}

void ObstacleBench::timeQueries(ObstacleQueries* out) {
    const size_t n = pairs_.size();
    out->pairs = n;
    std::vector<double> cw(n, INFINITY), dt(n, INFINITY), plain(n, INFINITY);
    std::vector<clearway::PathSegment> with(kMaxSegments), without(kMaxSegments);
    std::vector<char> cw_ok(n, 0), dt_ok(n, 0);
    for (int r = 0; r < args_.repeats; ++r) {
        for (size_t i = 0; i < n; ++i) {
            uint32_t count = 0;
            const auto t0 = std::chrono::steady_clock::now();
            cw_ok[i] = path(pairs_[i], set_, with.data(), &count) == clearway::Status::Ok;
            cw[i] = std::min(cw[i], sinceMicros(t0));
        }
        for (size_t i = 0; i < n; ++i) {
            uint32_t count = 0;
            const auto t0 = std::chrono::steady_clock::now();
            g_sink = g_sink + uint64_t(path(pairs_[i], nullptr, without.data(), &count));
            plain[i] = std::min(plain[i], sinceMicros(t0));
        }
        for (size_t i = 0; i < n; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            dt_ok[i] = nav_.path(pairs_[i].from.d, pairs_[i].to.d, 0, kMaxStraight);
            dt[i] = std::min(dt[i], sinceMicros(t0));
        }
    }
    for (size_t i = 0; i < n; ++i) { // untimed: which paths the obstacles changed
        uint32_t a = 0, b = 0;
        const clearway::Status sa = path(pairs_[i], set_, with.data(), &a);
        const clearway::Status sb = path(pairs_[i], nullptr, without.data(), &b);
        out->cw_changed +=
            sa != sb || a != b ||
            std::memcmp(with.data(), without.data(), std::min(a, kMaxSegments) * sizeof(with[0])) != 0;
        out->cw_ok += cw_ok[i], out->dt_ok += dt_ok[i];
    }
    out->cw_mean_us = mean(cw), out->cw_p99_us = percentile(cw, 0.99);
    out->dt_mean_us = mean(dt), out->dt_p99_us = percentile(dt, 0.99);
    out->cw_plain_mean_us = mean(plain);
    out->time_ratio = out->cw_mean_us / out->dt_mean_us;
}

} // namespace

ObstacleQueries runObstacleQueries(const QueryArgs& args, const clearway::RoadmapView& view,
                                   clearway::PathScratch* scratch, const ObjMesh& mesh,
                                   const std::vector<QueryEnds>& pairs) {
    ObstacleQueries out;
    ObstacleBench bench(args, view, scratch, pairs);
    if (bake::Error e = bench.buildPeer(mesh, &out)) {
        spdlog::warn("obstacles: {} (no TileCache comparison)", e.message);
        return out;
    }
    bench.placeDiscs();
    bench.timeAdds(&out);
    bench.timeQueries(&out);
    return out;
}

} // namespace clearway::bench
