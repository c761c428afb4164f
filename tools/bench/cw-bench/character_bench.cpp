// cw-bench query's character queries: clearway's raycast and moveAlongSurface next to Detour's on
// the same rays. clearway sweeps the agent's disc against the exact walls; Detour casts a line on
// its navmesh, which Recast eroded by the same radius, so the two differ where the erosion does.
#include "query.h"
#include "surfaces.h"

#include <algorithm>
#include <cmath>

namespace clearway::bench {

namespace {

// Layers one clearway ray may cross (each crossing: locatePoint beyond the portal, a new raycast).
constexpr int kMaxRayLegs = 8;
// How far past a portal line the next layer is looked up, metres.
constexpr double kPortalNudge = 1e-4;

volatile uint64_t g_sink = 0; // results of timed calls nothing else reads

struct Ray {
    bake::Vec3 start;
    double end_x, end_y;
    float d_start[3], d_end[3]; // Detour's frame
    double length;
};

struct RayOutcome {
    clearway::Status status = clearway::Status::NotFound; // of the last raycast
    bool hit = false;
    double distance = 0;   // ground plane, from the start
    int portals = 0;       // crossed
    clearway::Vec2d end{}; // moveAlongSurface's result
};

// One engine's answers and times, per ray.
struct Answers {
    std::vector<RayOutcome> outcomes;
    std::vector<double> micros;
};

class CharacterBench {
  public:
    CharacterBench(const QueryArgs& args, const clearway::RoadmapView& view,
                   const clearway::PathScratch* scratch, Detour& dt)
        : args_(args), view_(view), scratch_(scratch), dt_(dt) {
        clearway::roadmapFootprint(view, &footprint_);
    }
    void drawRays(const std::vector<RayStart>& starts);
    CharacterQueries run();

  private:
    bool locateStart(const Ray& ray, clearway::PathEndpoint* at) const {
        return clearway::locatePoint(view_, scratch_, {ray.start.x, ray.start.y, ray.start.z}, args_.max_step,
                                     at) == clearway::Status::Ok;
    }
    RayOutcome clearwayRay(const Ray& ray) const;
    RayOutcome detourRay(const Ray& ray) const;
    RayOutcome clearwayMove(const Ray& ray) const;
    RayOutcome detourMove(const Ray& ray) const;
    template <class Query> Answers timed(Query query) const;
    void compareRays(const Answers& cw, const Answers& dt, CharacterQueries* out) const;
    void compareMoves(const Answers& cw, const Answers& dt, CharacterQueries* out) const;

    const QueryArgs& args_;
    const clearway::RoadmapView& view_;
    const clearway::PathScratch* scratch_;
    Detour& dt_;
    clearway::FootprintView footprint_;
    std::vector<Ray> rays_;
};

// A random direction and a length uniform in [0, ray_length) from each start, on a generator of
// their own (the pairs' draws stay as they were).
void CharacterBench::drawRays(const std::vector<RayStart>& starts) {
    Rng rng{std::mt19937_64(args_.seed ^ 0x5261796361737473ull)};
    for (const RayStart& s : starts) {
        Ray r;
        r.start = s.p;
        const double angle = 2 * std::acos(-1.0) * rng.uniform();
        r.length = args_.ray_length * rng.uniform();
        r.end_x = s.p.x + r.length * std::cos(angle);
        r.end_y = s.p.y + r.length * std::sin(angle);
        std::copy(s.d, s.d + 3, r.d_start);
        toDetour({r.end_x, r.end_y, s.p.z}, r.d_end);
        rays_.push_back(r);
    }
}

// What a game does: the layer of the start (locatePoint), raycast at the radius, and on each portal
// the layer beyond it (locatePoint just past the line, at the height of the layer left) and on.
RayOutcome CharacterBench::clearwayRay(const Ray& ray) const {
    RayOutcome out;
    clearway::PathEndpoint at{};
    if (!locateStart(ray, &at)) return out;
    const clearway::Vec2d start{ray.start.x, ray.start.y}, end{ray.end_x, ray.end_y};
    clearway::Vec2d from = start;
    for (int leg = 0; leg < kMaxRayLegs; ++leg) {
        clearway::RaycastHit hit;
        out.status = clearway::raycast(view_, scratch_, at.layer, from, end, args_.radius, &hit);
        out.hit = hit.hit;
        out.distance = std::hypot(hit.position.x - start.x, hit.position.y - start.y);
        if (out.status != clearway::Status::PortalReached || ray.length <= 0) return out;
        float height = float(ray.start.z);
        clearway::footprintHeightAt(footprint_, at.layer, float(hit.position.x), float(hit.position.y), 0.05f,
                                    &height);
        const double nudge = kPortalNudge / ray.length;
        const clearway::Vec3d beyond{hit.position.x + (end.x - start.x) * nudge,
                                     hit.position.y + (end.y - start.y) * nudge, double(height)};
        const uint32_t left = at.layer;
        if (clearway::locatePoint(view_, scratch_, beyond, args_.max_step, &at) != clearway::Status::Ok ||
            at.layer == left)
            return out;
        ++out.portals;
        from = hit.position;
    }
    return out;
}

// RecastDemo's raycast: findNearestPoly, then dtNavMeshQuery::raycast (no visited-polygon list).
RayOutcome CharacterBench::detourRay(const Ray& ray) const {
    RayOutcome out;
    dtPolyRef ref = 0;
    float nearest[3];
    dt_.query->findNearestPoly(ray.d_start, kPickExtents, &dt_.filter, &ref, nearest);
    if (!ref) return out;
    dtRaycastHit hit{};
    if (dtStatusFailed(dt_.query->raycast(ref, ray.d_start, ray.d_end, &dt_.filter, 0, &hit))) return out;
    out.status = clearway::Status::Ok;
    out.hit = hit.t <= 1.0f;
    out.distance = ray.length * (out.hit ? double(hit.t) : 1.0);
    return out;
}

// One layer: a portal stops the move (a game goes on next frame).
RayOutcome CharacterBench::clearwayMove(const Ray& ray) const {
    RayOutcome out;
    clearway::PathEndpoint at{};
    if (!locateStart(ray, &at)) return out;
    out.status = clearway::moveAlongSurface(view_, scratch_, at.layer, {ray.start.x, ray.start.y},
                                            {ray.end_x, ray.end_y}, args_.radius, &out.end);
    return out;
}

RayOutcome CharacterBench::detourMove(const Ray& ray) const {
    RayOutcome out;
    dtPolyRef ref = 0;
    float nearest[3], result[3];
    dt_.query->findNearestPoly(ray.d_start, kPickExtents, &dt_.filter, &ref, nearest);
    if (!ref) return out;
    int visited = 0;
    if (dtStatusFailed(dt_.query->moveAlongSurface(ref, ray.d_start, ray.d_end, &dt_.filter, result,
                                                   dt_.polys, &visited, kMaxPolys)))
        return out;
    out.status = clearway::Status::Ok;
    const bake::Vec3 local = fromDetour(result);
    out.end = {local.x, local.y};
    return out;
}

// Every ray `repeats` times, the query's fastest run kept (as the path passes time theirs).
template <class Query> Answers CharacterBench::timed(Query query) const {
    Answers a;
    a.outcomes.resize(rays_.size());
    a.micros.assign(rays_.size(), INFINITY);
    for (int r = 0; r < args_.repeats; ++r)
        for (size_t i = 0; i < rays_.size(); ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            a.outcomes[i] = query(rays_[i]);
            a.micros[i] = std::min(a.micros[i], sinceMicros(t0));
            g_sink = g_sink + uint64_t(a.outcomes[i].hit);
        }
    return a;
}

void CharacterBench::compareRays(const Answers& cw, const Answers& dt, CharacterQueries* out) const {
    std::vector<double> diffs, cw_distances, dt_distances;
    for (size_t i = 0; i < rays_.size(); ++i) {
        const RayOutcome &c = cw.outcomes[i], &d = dt.outcomes[i];
        out->cw_portals_crossed += size_t(c.portals);
        const bool cw_answered = c.status == clearway::Status::Ok;
        out->cw_hits += cw_answered && c.hit;
        out->cw_free += cw_answered && !c.hit;
        out->cw_blocked += c.status == clearway::Status::Blocked;
        out->cw_stopped_at_portal += c.status == clearway::Status::PortalReached;
        const bool dt_answered = d.status == clearway::Status::Ok;
        out->dt_hits += dt_answered && d.hit;
        out->dt_free += dt_answered && !d.hit;
        out->dt_failed += !dt_answered;
        if (!cw_answered || !dt_answered) continue;
        ++out->compared;
        out->agreed += c.hit == d.hit;
        diffs.push_back(std::fabs(c.distance - d.distance));
        cw_distances.push_back(c.distance);
        dt_distances.push_back(d.distance);
    }
    out->distance_diff_median = percentile(diffs, 0.5);
    out->distance_diff_p90 = percentile(diffs, 0.9);
    out->cw_mean_distance = mean(cw_distances);
    out->dt_mean_distance = mean(dt_distances);
    out->cw_ray_mean_us = mean(cw.micros);
    out->cw_ray_p99_us = percentile(cw.micros, 0.99);
    out->dt_ray_mean_us = mean(dt.micros);
    out->dt_ray_p99_us = percentile(dt.micros, 0.99);
    out->ray_time_ratio = out->cw_ray_mean_us / out->dt_ray_mean_us;
}

void CharacterBench::compareMoves(const Answers& cw, const Answers& dt, CharacterQueries* out) const {
    std::vector<double> diffs;
    for (size_t i = 0; i < rays_.size(); ++i) {
        const RayOutcome &c = cw.outcomes[i], &d = dt.outcomes[i];
        out->cw_moves_ok += c.status == clearway::Status::Ok;
        out->cw_moves_portal += c.status == clearway::Status::PortalReached;
        out->cw_moves_other +=
            c.status != clearway::Status::Ok && c.status != clearway::Status::PortalReached;
        out->dt_moves_ok += d.status == clearway::Status::Ok;
        if (c.status != clearway::Status::Ok || d.status != clearway::Status::Ok) continue;
        ++out->moves_compared;
        diffs.push_back(std::hypot(c.end.x - d.end.x, c.end.y - d.end.y));
    }
    out->move_diff_median = percentile(diffs, 0.5);
    out->move_diff_p90 = percentile(diffs, 0.9);
    out->cw_move_mean_us = mean(cw.micros);
    out->cw_move_p99_us = percentile(cw.micros, 0.99);
    out->dt_move_mean_us = mean(dt.micros);
    out->dt_move_p99_us = percentile(dt.micros, 0.99);
    out->move_time_ratio = out->cw_move_mean_us / out->dt_move_mean_us;
}

CharacterQueries CharacterBench::run() {
    CharacterQueries out;
    out.rays = rays_.size();
    // One engine at a time over every ray, each with its own warm caches.
    const Answers cw_rays = timed([&](const Ray& r) { return clearwayRay(r); });
    const Answers dt_rays = timed([&](const Ray& r) { return detourRay(r); });
    compareRays(cw_rays, dt_rays, &out);
    const Answers cw_moves = timed([&](const Ray& r) { return clearwayMove(r); });
    const Answers dt_moves = timed([&](const Ray& r) { return detourMove(r); });
    compareMoves(cw_moves, dt_moves, &out);
    return out;
}

} // namespace

CharacterQueries runCharacterQueries(const QueryArgs& args, const clearway::RoadmapView& view,
                                     const clearway::PathScratch* scratch, Detour& dt,
                                     const std::vector<RayStart>& starts) {
    CharacterBench bench(args, view, scratch, dt);
    bench.drawRays(starts);
    return bench.run();
}

} // namespace clearway::bench
