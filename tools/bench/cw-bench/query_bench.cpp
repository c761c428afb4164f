// cw-bench query, measured. Both engines get the same triangles in the same local frame (the OBJ
// shifted by clearway's origin before the float conversion). A pair counts when both its points
// have clearance >= radius on their layer and lie on Detour's mesh, and both engines find a
// complete path; every rejected draw is counted by reason. Paths are measured with
// bake::measurePath against the solid walls.
#include "query.h"
#include "recast_peer.h"
#include "surfaces.h"

#include <clearway/runtime.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <optional>
#include <utility>

namespace clearway::bench {

double sinceMicros(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(std::ceil(q * double(v.size())) - 1))];
}

double mean(const std::vector<double>& v) {
    return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

namespace {

constexpr uint32_t kMaxSegments = 4096;
// A sample counts as on Detour's navmesh when a polygon lies under it within this height: half the
// agent height, so never another storey, yet above Recast's height error on steep bumpy ground
// (undulating.obj: its detail mesh, sampled every 1.8 m, sits up to 0.7 m off the surface).
constexpr double kOnNavmeshHeight = 1.0;

volatile uint64_t g_sink = 0; // results of timed calls nothing else reads

struct Endpoint {
    bake::Vec3 p;
    uint32_t layer;
    float d[3]; // the same point in Detour's frame
};
using Pair = std::pair<Endpoint, Endpoint>;

// One mesh's queries: clearway's roadmap and Detour's navmesh of the same triangles, the walls
// and the surfaces the endpoints are drawn on.
class MeshQueries {
  public:
    MeshQueries(const QueryArgs& args, QueryMesh* out)
        : args_(args), out_(out), rng_{std::mt19937_64(args.seed)} {
        metric_options_.step = args.step;
    }
    bake::Error load(const std::string& mesh_path);
    std::vector<Pair> drawPairs();
    bake::PathMetrics detourMetrics(const Endpoint& a, const Endpoint& b);
    MonotoneCheck checkMonotone(const std::vector<Pair>& pairs);
    // The scratch for the longest route the passes used, and a check that it answers them alike.
    void sizeScratchForRoutes(const std::vector<Pair>& pairs);
    QueryPass runPass(double preferred, const std::vector<Pair>& pairs,
                      const std::vector<bake::PathMetrics>& dt_metrics);
    // raycast and moveAlongSurface next to Detour's, one ray from each pair's start.
    CharacterQueries characterQueries(const std::vector<Pair>& pairs);
    // Temporary obstacles next to Detour TileCache's on the same pairs.
    ObstacleQueries obstacleQueries(const std::vector<Pair>& pairs);

  private:
    bake::Error loadClearway(const std::string& mesh_path);
    bake::Error loadDetour(const std::string& mesh_path);
    void drawPoint(Endpoint* e);
    clearway::Status clearwayPath(const Endpoint& a, const Endpoint& b, double preferred);
    void timePass(const std::vector<Pair>& pairs, QueryPass* pass, std::vector<char>* ok);
    void measurePass(const std::vector<Pair>& pairs, const std::vector<bake::PathMetrics>& dt_metrics,
                     const std::vector<char>& ok, QueryPass* pass);

    const QueryArgs& args_;
    QueryMesh* out_;
    bake::RoadmapRequest request_;
    bake::RoadmapResult baked_;
    std::vector<uint64_t> asset_, shared_memory_, scratch_memory_;
    clearway::RoadmapView view_;
    clearway::PathShared* shared_ = nullptr;
    clearway::PathScratch* scratch_ = nullptr;
    Detour dt_;
    ObjMesh obj_; // Detour's triangles (local frame), kept for the TileCache build
    std::vector<bake::WallGrid> all_walls_, solid_walls_;
    std::optional<Surfaces> surfaces_;
    Rng rng_;
    bake::PathMetricsOptions metric_options_;
    std::vector<clearway::PathSegment> segments_ = std::vector<clearway::PathSegment>(kMaxSegments);
    uint32_t count_ = 0;
    std::vector<bake::Vec2> dense_; // detourMetrics' buffers
    std::vector<uint32_t> dense_layers_;
};

// clearway: the cw-bake pipeline in memory, max step = Recast's climb.
bake::Error MeshQueries::loadClearway(const std::string& mesh_path) {
    request_.input_path = mesh_path;
    request_.import_options.max_step = args_.max_step;
    if (bake::Error e = bake::bakeLevel(request_, &baked_, bake::silentLog())) return e;
    const bake::Footprint& fp = baked_.roadmap.footprint;
    out_->layers = fp.layers.size();
    for (const bake::FootprintLayer& l : fp.layers)
        out_->walkable_area += l.area;
    const std::vector<uint8_t> bytes = bake::serializeRoadmap(baked_.roadmap);
    asset_.resize((bytes.size() + 7) / 8); // 8-byte aligned, as the loader requires
    std::memcpy(asset_.data(), bytes.data(), bytes.size());
    if (clearway::loadRoadmap(asset_.data(), bytes.size(), &view_) != clearway::Status::Ok)
        return {bake::ErrorCode::Internal, mesh_path + ": the baked roadmap does not load"};
    // As a game sets up its query threads: the roadmap's shared path data, a scratch on it.
    clearway::pathSharedSize(view_, &out_->path_shared_bytes);
    shared_memory_.resize(out_->path_shared_bytes / 8 + 1);
    if (clearway::pathSharedInit(view_, shared_memory_.data(), out_->path_shared_bytes, &shared_) !=
        clearway::Status::Ok)
        return {bake::ErrorCode::Internal, mesh_path + ": pathSharedInit failed"};
    clearway::pathScratchSizeShared(shared_, &out_->path_scratch_bytes);
    scratch_memory_.resize(out_->path_scratch_bytes / 8 + 1);
    if (clearway::pathScratchInitShared(shared_, scratch_memory_.data(), out_->path_scratch_bytes, &scratch_) !=
        clearway::Status::Ok)
        return {bake::ErrorCode::Internal, mesh_path + ": pathScratchInitShared failed"};
    return {};
}

// Detour: the same triangles, shifted by clearway's origin (local coordinates, Y-up).
bake::Error MeshQueries::loadDetour(const std::string& mesh_path) {
    ObjMesh& obj = obj_;
    const bake::Vec3 origin = bake::internalToWorld(baked_.roadmap.footprint.origin, request_.import_options);
    if (bake::Error e = loadObj(mesh_path, &obj, origin)) return e;
    RecastSettings settings;
    settings.cell_size = float(args_.cell_size);
    settings.agent_radius = float(args_.radius);
    settings.agent_max_climb = float(args_.max_step);
    settings.detour = true;
    RecastResult rc;
    if (bake::Error e = buildRecast(obj, settings, &rc)) return {e.code, mesh_path + ": " + e.message};
    out_->detour_polys = size_t(rc.polys);
    dt_.nav = rc.navmesh;
    dt_.query.reset(dtAllocNavMeshQuery());
    if (!dt_.query || dtStatusFailed(dt_.query->init(dt_.nav.get(), kMaxNodes)))
        return {bake::ErrorCode::Internal, mesh_path + ": dtNavMeshQuery::init failed"};
    return {};
}

bake::Error MeshQueries::load(const std::string& mesh_path) {
    if (bake::Error e = loadClearway(mesh_path)) return e;
    if (bake::Error e = loadDetour(mesh_path)) return e;
    // Walls: every ring (portals included) for the start/goal test, as findPath checks them; the
    // solid walls (portals are walked through) for the path metrics.
    const bake::Footprint& fp = baked_.roadmap.footprint;
    for (uint32_t l = 0; l < fp.layers.size(); ++l) {
        all_walls_.emplace_back(bake::layerWalls(fp.layers[l]));
        solid_walls_.emplace_back(bake::solidLayerWalls(fp, l));
    }
    surfaces_.emplace(fp);
    if (surfaces_->empty()) return {bake::ErrorCode::NoWalkableSurface, mesh_path + ": no walkable surface"};
    return {};
}

// Draws, uniform by area over every layer's surface, until a point is kept: its clearance (every
// wall of its layer) is >= radius, locatePoint names the layer it was drawn on, and a Detour
// polygon lies under it within 1 m of its height (Recast erodes by radius + a cell, so a sample
// near a wall can fall outside Detour's mesh).
void MeshQueries::drawPoint(Endpoint* e) {
    for (;;) {
        ++out_->points_drawn;
        surfaces_->sample(rng_, &e->p, &e->layer);
        if (all_walls_[e->layer].distance({e->p.x, e->p.y}) < args_.radius) {
            ++out_->rejected_near_wall;
            continue;
        }
        clearway::PathEndpoint located{};
        if (clearway::locatePoint(view_, scratch_, {e->p.x, e->p.y, e->p.z}, args_.max_step, &located) !=
                clearway::Status::Ok ||
            located.layer != e->layer) {
            ++out_->rejected_locate;
            continue;
        }
        toDetour(e->p, e->d);
        dtPolyRef ref = 0;
        float nearest[3];
        bool over = false;
        dt_.query->findNearestPoly(e->d, kPickExtents, &dt_.filter, &ref, nearest, &over);
        if (!ref || !over || std::abs(double(nearest[1]) - double(e->d[1])) > kOnNavmeshHeight) {
            ++out_->rejected_off_detour;
            continue;
        }
        return;
    }
}

// Detour's path between the endpoints, measured. Its pieces are cut every `step` here, each point
// located on the layer whose surface is nearest its interpolated height: a straight piece can
// cross from one layer onto another anywhere (not only at its ends).
bake::PathMetrics MeshQueries::detourMetrics(const Endpoint& a, const Endpoint& b) {
    dense_.clear();
    dense_layers_.clear();
    dt_.path(a.d, b.d, 0, kMaxStraightAll);
    uint32_t layer = a.layer;
    for (int k = 0; k < dt_.nstraight; ++k) {
        const bake::Vec3 q = fromDetour(&dt_.straight[size_t(k) * 3]);
        const bake::Vec3 p = k > 0 ? fromDetour(&dt_.straight[size_t(k - 1) * 3]) : q;
        const int n = k > 0 ? std::max(1, int(std::ceil(std::hypot(q.x - p.x, q.y - p.y) / args_.step))) : 1;
        for (int j = k > 0 ? 1 : 0; j <= n; ++j) {
            const double t = double(j) / n;
            const bake::Vec3 r{p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t, p.z + (q.z - p.z) * t};
            surfaces_->locate(r, &layer); // keeps the previous layer where no surface lies under r
            dense_.push_back({r.x, r.y});
            dense_layers_.push_back(layer);
        }
    }
    return bake::measurePath(dense_, dense_layers_, solid_walls_, metric_options_);
}

// What a game does per query: the layer of each 3D point (locatePoint), then findPath.
clearway::Status MeshQueries::clearwayPath(const Endpoint& a, const Endpoint& b, double preferred) {
    clearway::PathEndpoint from{}, to{};
    if (clearway::locatePoint(view_, scratch_, {a.p.x, a.p.y, a.p.z}, args_.max_step, &from) !=
            clearway::Status::Ok ||
        clearway::locatePoint(view_, scratch_, {b.p.x, b.p.y, b.p.z}, args_.max_step, &to) !=
            clearway::Status::Ok)
        return clearway::Status::NotFound;
    return clearway::findPath(view_, scratch_, from, to, args_.radius, preferred, segments_.data(), &count_,
                              kMaxSegments);
}

// A pair is kept when both engines find a complete path between its points (most rejected pairs
// join parts no walk connects).
std::vector<Pair> MeshQueries::drawPairs() {
    std::vector<Pair> pairs;
    const size_t max_draws = args_.pairs * 50 + 1000;
    while (pairs.size() < args_.pairs && out_->pairs_drawn < max_draws) {
        Endpoint a, b;
        drawPoint(&a);
        drawPoint(&b);
        ++out_->pairs_drawn;
        const bool cw_ok = clearwayPath(a, b, args_.radius) == clearway::Status::Ok;
        const bool dt_ok = dt_.path(a.d, b.d, 0, kMaxStraight);
        if (cw_ok && dt_ok)
            pairs.emplace_back(a, b);
        else if (!cw_ok && !dt_ok)
            ++out_->rejected_both;
        else if (!cw_ok) {
            ++out_->rejected_clearway;
            const bake::PathMetrics dm = detourMetrics(a, b);
            out_->rejected_clearway_narrow += dm.min_clearance < args_.radius;
        } else
            ++out_->rejected_detour;
    }
    out_->pairs = pairs.size();
    if (pairs.size() < args_.pairs)
        spdlog::warn("{}: only {} of {} pairs after {} draws", out_->name, pairs.size(), args_.pairs,
                     out_->pairs_drawn);
    return pairs;
}

// Timed loops, one engine at a time over every pair (each gets its own warm caches), run `repeats`
// times; each query keeps its fastest run, so a time slice lost to another process on a shared
// machine does not land in either engine's tail.
void MeshQueries::timePass(const std::vector<Pair>& pairs, QueryPass* pass, std::vector<char>* ok) {
    ok->assign(pairs.size(), 0);
    pass->cw.micros.assign(pairs.size(), INFINITY);
    pass->dt.micros.assign(pairs.size(), INFINITY);
    std::vector<double> locate(pairs.size(), INFINITY);
    for (int r = 0; r < args_.repeats; ++r) {
        for (size_t i = 0; i < pairs.size(); ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const clearway::Status s = clearwayPath(pairs[i].first, pairs[i].second, pass->preferred);
            pass->cw.micros[i] = std::min(pass->cw.micros[i], sinceMicros(t0));
            (*ok)[i] = s == clearway::Status::Ok;
        }
        for (size_t i = 0; i < pairs.size(); ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            dt_.path(pairs[i].first.d, pairs[i].second.d, 0, kMaxStraight);
            pass->dt.micros[i] = std::min(pass->dt.micros[i], sinceMicros(t0));
        }
        // The locatePoint share of clearway's time.
        for (size_t i = 0; i < pairs.size(); ++i) {
            const Endpoint &a = pairs[i].first, &b = pairs[i].second;
            clearway::PathEndpoint e{};
            const auto t0 = std::chrono::steady_clock::now();
            clearway::locatePoint(view_, scratch_, {a.p.x, a.p.y, a.p.z}, args_.max_step, &e);
            g_sink = g_sink + e.layer;
            clearway::locatePoint(view_, scratch_, {b.p.x, b.p.y, b.p.z}, args_.max_step, &e);
            g_sink = g_sink + e.layer;
            locate[i] = std::min(locate[i], sinceMicros(t0));
        }
    }
    pass->cw_locate_mean_us = mean(locate);
    // findPath's phases: one more run with its clock on (it reads the clock between phases, so
    // these runs are not the timed ones above).
    clearway::pathPhaseTiming(true);
    clearway::pathPhaseTimesTake();
    for (const Pair& pair : pairs)
        clearwayPath(pair.first, pair.second, pass->preferred);
    pass->phases = clearway::pathPhaseTimesTake();
    clearway::pathPhaseTiming(false);
}

// Lengths at the radius against lengths at every larger preferred clearance, pair by pair.
MonotoneCheck MeshQueries::checkMonotone(const std::vector<Pair>& pairs) {
    MonotoneCheck check;
    for (const Pair& pair : pairs) {
        if (clearwayPath(pair.first, pair.second, args_.radius) != clearway::Status::Ok) continue;
        const double at_radius = clearway::pathTotalLength(segments_.data(), count_);
        for (const double factor : kMonotoneFactors) {
            if (clearwayPath(pair.first, pair.second, factor * args_.radius) != clearway::Status::Ok) continue;
            const double excess = at_radius - clearway::pathTotalLength(segments_.data(), count_);
            ++check.comparisons;
            if (excess > 1e-6 && check.violations < 3) {
                const bake::Vec3 &a = pair.first.p, &b = pair.second.p;
                spdlog::info("{}: at the radius {:.4f} m longer than at {}x: ({:.4f}, {:.4f}, {:.4f}) -> ({:.4f}, {:.4f}, "
                             "{:.4f}) (local coordinates)",
                             out_->name, excess, factor, a.x, a.y, a.z, b.x, b.y, b.z);
            }
            check.violations += excess > 1e-6;
            check.worst_excess = std::max(check.worst_excess, excess);
        }
    }
    return check;
}

// Untimed: clearway's paths again, measured, next to Detour's (measured once for every pass).
void MeshQueries::measurePass(const std::vector<Pair>& pairs,
                              const std::vector<bake::PathMetrics>& dt_metrics, const std::vector<char>& ok,
                              QueryPass* pass) {
    std::vector<double> ratios, cw_means, dt_means, cw_mins, dt_mins;
    std::vector<uint32_t> layers;
    pass->cw_min_clearance = pass->dt_min_clearance = INFINITY;
    size_t worst = SIZE_MAX; // pair with the largest length ratio, logged for a closer look
    double worst_ratio = 0, worst_cw = 0, worst_dt = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (!ok[i]) {
            ++pass->clearway_failures;
            continue;
        }
        clearwayPath(pairs[i].first, pairs[i].second, pass->preferred);
        const std::vector<bake::Vec2> pts =
            bake::pathPolyline(segments_.data(), count_, metric_options_, &layers);
        const bake::PathMetrics cm = bake::measurePath(pts, layers, solid_walls_, metric_options_);
        const bake::PathMetrics& dm = dt_metrics[i];
        if (dm.length > 0) {
            ratios.push_back(cm.length / dm.length);
            if (ratios.back() > worst_ratio)
                worst = i, worst_ratio = ratios.back(), worst_cw = cm.length, worst_dt = dm.length;
        }
        cw_means.push_back(cm.mean_clearance);
        dt_means.push_back(dm.mean_clearance);
        cw_mins.push_back(cm.min_clearance);
        dt_mins.push_back(dm.min_clearance);
        if (cm.min_clearance < pass->cw_min_clearance && cm.min_clearance < args_.radius - 1e-4) {
            const bake::Vec3 &a = pairs[i].first.p, &b = pairs[i].second.p;
            spdlog::info("{}: preferred {}: clearance {:.4f} below the radius, pair {}: ({:.4f}, {:.4f}, {:.4f}) -> "
                         "({:.4f}, {:.4f}, {:.4f}) (local coordinates), {} segments",
                         out_->name, pass->preferred, cm.min_clearance, i, a.x, a.y, a.z, b.x, b.y, b.z, count_);
        }
        pass->cw_min_clearance = std::min(pass->cw_min_clearance, cm.min_clearance);
        pass->dt_min_clearance = std::min(pass->dt_min_clearance, dm.min_clearance);
        if (cm.heading_discontinuities > 0 && pass->cw_paths_with_discontinuity < 3) {
            const bake::Vec3 &a = pairs[i].first.p, &b = pairs[i].second.p;
            spdlog::info("{}: preferred {}: {} heading discontinuities (largest {:.2f} deg), pair {}: ({:.4f}, {:.4f}, "
                         "{:.4f}) -> ({:.4f}, {:.4f}, {:.4f}) (local coordinates)",
                         out_->name, pass->preferred, cm.heading_discontinuities, cm.max_heading_jump_deg, i, a.x, a.y,
                         a.z, b.x, b.y, b.z);
        }
        pass->cw_discontinuities += cm.heading_discontinuities;
        pass->dt_discontinuities += dm.heading_discontinuities;
        pass->cw_paths_with_discontinuity += cm.heading_discontinuities > 0;
        pass->dt_paths_with_discontinuity += dm.heading_discontinuities > 0;
        pass->cw_max_jump_deg = std::max(pass->cw_max_jump_deg, cm.max_heading_jump_deg);
        pass->dt_max_jump_deg = std::max(pass->dt_max_jump_deg, dm.max_heading_jump_deg);
    }
    if (worst != SIZE_MAX) {
        const bake::Vec3 &a = pairs[worst].first.p, &b = pairs[worst].second.p;
        spdlog::info(
            "{}: preferred {}: worst length ratio {:.3f}, pair {}: ({:.3f}, {:.3f}, {:.3f}) layer {} -> "
            "({:.3f}, {:.3f}, {:.3f}) layer {} (local coordinates), clearway {:.2f} m, Detour {:.2f} m",
            out_->name, pass->preferred, worst_ratio, worst, a.x, a.y, a.z, pairs[worst].first.layer, b.x,
            b.y, b.z, pairs[worst].second.layer, worst_cw, worst_dt);
    }
    pass->cw_mean_us = mean(pass->cw.micros);
    pass->cw_p99_us = percentile(pass->cw.micros, 0.99);
    pass->dt_mean_us = mean(pass->dt.micros);
    pass->dt_p99_us = percentile(pass->dt.micros, 0.99);
    pass->time_ratio = pass->cw_mean_us / pass->dt_mean_us;
    pass->length_ratio_mean = mean(ratios);
    pass->length_ratio_p99 = percentile(ratios, 0.99);
    pass->length_ratio_max = ratios.empty() ? NAN : *std::max_element(ratios.begin(), ratios.end());
    pass->cw_mean_clearance = mean(cw_means);
    pass->dt_mean_clearance = mean(dt_means);
    pass->cw_mean_min_clearance = mean(cw_mins);
    pass->dt_mean_min_clearance = mean(dt_mins);
    pass->clearance_ratio = pass->cw_mean_clearance / pass->dt_mean_clearance;
    const bool wide = pass->preferred > args_.radius;
    pass->length_target = pass->medial ? NAN : wide ? kWideLengthTarget : kNearLengthTarget;
    pass->clearance_target = wide && !pass->medial;
}

void MeshQueries::sizeScratchForRoutes(const std::vector<Pair>& pairs) {
    clearway::pathScratchSizeForRoutes(shared_, out_->max_route_points, &out_->path_scratch_bytes_for_routes);
    std::vector<uint64_t> memory(out_->path_scratch_bytes_for_routes / 8 + 1);
    clearway::PathScratch* small = nullptr;
    if (clearway::pathScratchInitForRoutes(shared_, out_->max_route_points, memory.data(),
                                           out_->path_scratch_bytes_for_routes, &small) != clearway::Status::Ok)
        return;
    std::vector<clearway::PathSegment> other(kMaxSegments);
    for (const QueryPass& pass : out_->passes)
        for (const Pair& pair : pairs) {
            clearway::PathEndpoint from{}, to{};
            clearway::locatePoint(view_, scratch_, {pair.first.p.x, pair.first.p.y, pair.first.p.z}, args_.max_step,
                                  &from);
            clearway::locatePoint(view_, scratch_, {pair.second.p.x, pair.second.p.y, pair.second.p.z},
                                  args_.max_step, &to);
            uint32_t n = 0;
            const clearway::Status a = clearwayPath(pair.first, pair.second, pass.preferred);
            const clearway::Status b = clearway::findPath(view_, small, from, to, args_.radius, pass.preferred,
                                                          other.data(), &n, kMaxSegments);
            const bool same = a == b && n == count_ &&
                              (a != clearway::Status::Ok ||
                               std::memcmp(other.data(), segments_.data(), n * sizeof(clearway::PathSegment)) == 0);
            out_->scratch_for_routes_differences += !same;
        }
}

QueryPass MeshQueries::runPass(double preferred, const std::vector<Pair>& pairs,
                               const std::vector<bake::PathMetrics>& dt_metrics) {
    QueryPass pass;
    pass.preferred = preferred;
    pass.medial = std::isinf(preferred);
    std::vector<char> ok;
    timePass(pairs, &pass, &ok);
    measurePass(pairs, dt_metrics, ok, &pass);
    return pass;
}

CharacterQueries MeshQueries::characterQueries(const std::vector<Pair>& pairs) {
    std::vector<RayStart> starts(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
        starts[i].p = pairs[i].first.p;
        std::copy(pairs[i].first.d, pairs[i].first.d + 3, starts[i].d);
    }
    return runCharacterQueries(args_, view_, scratch_, dt_, starts);
}

ObstacleQueries MeshQueries::obstacleQueries(const std::vector<Pair>& pairs) {
    std::vector<QueryEnds> ends(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
        ends[i].from.p = pairs[i].first.p, ends[i].to.p = pairs[i].second.p;
        std::copy(pairs[i].first.d, pairs[i].first.d + 3, ends[i].from.d);
        std::copy(pairs[i].second.d, pairs[i].second.d + 3, ends[i].to.d);
    }
    return runObstacleQueries(args_, view_, scratch_, obj_, ends);
}

} // namespace

bake::Error runQueryMesh(const QueryArgs& args, const std::string& mesh_path, QueryMesh* out) {
    out->name = baseName(mesh_path);
    MeshQueries queries(args, out);
    if (bake::Error e = queries.load(mesh_path)) return e;
    const std::vector<Pair> pairs = queries.drawPairs();
    // Detour's paths do not depend on the preferred clearance: measured once.
    std::vector<bake::PathMetrics> dt_metrics(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i)
        dt_metrics[i] = queries.detourMetrics(pairs[i].first, pairs[i].second);
    // The two target passes, then the medial-axis path itself (preferred = +inf, no shortening):
    // not a target row, but the most clearance any path along the roadmap offers, so it shows how
    // far the clearance target is reachable at all.
    for (const double preferred : {args.radius, 2 * args.radius, double(INFINITY)}) {
        out->passes.push_back(queries.runPass(preferred, pairs, dt_metrics));
        out->max_route_points = std::max(out->max_route_points, out->passes.back().phases.max_route_points);
    }
    queries.sizeScratchForRoutes(pairs);
    out->monotone = queries.checkMonotone(pairs);
    out->character = queries.characterQueries(pairs);
    out->obstacles = queries.obstacleQueries(pairs);
    return {};
}

} // namespace clearway::bench
