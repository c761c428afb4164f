// cw-compare: clearway's findPath (on the medial-axis roadmap) next to every baseline planner of
// Mount's lecture on the same random queries of one level, with the shared path metrics.
#include <clearway/eval.h>
#include <clearway/preview/json_writer.h>
#include <clearway/preview/svg_writer.h>
#include <clearway/runtime.h>

#include "baselines_internal.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

namespace clearway::bake {

using geometry::dist;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// medial and medial-pc are both clearway's findPath: at preferred clearance = the radius (the only
// clearance every baseline guarantees, so like with like) and at the request's preferred clearance.
const char* const kMethods[] = {"medial", "visibility", "grid",      "quadtree",
                                "prm",    "rrt",        "potential", "medial-pc"};
constexpr size_t kMethodCount = sizeof(kMethods) / sizeof(kMethods[0]);
constexpr size_t kMedialPc = kMethodCount - 1;
constexpr uint32_t kMaxSegments = 16384;

struct LayerPlanners {
    VisibilityGraph visibility;
    GridPlanner grid;
    QuadtreePlanner quadtree;
    PrmPlanner prm;
    RrtPlanner rrt;
    PotentialPlanner potential;
};

struct Accumulator {
    std::vector<double> query_us;
    std::vector<double> ratios;
    std::vector<double> mean_clearances;
    std::vector<double> pair_clearance; // per pair, NaN where the method failed
    double min_clearance = INFINITY;
    size_t discontinuities = 0;
    double max_jump = 0, max_curvature = 0;
    uint32_t successes = 0, local_minima = 0;
    std::string worst; // the query with the largest length ratio, for -v
    double worst_ratio = 0;
};

// One query's paths for the SVG: per method, a polyline or nothing.
struct SvgQuery {
    uint32_t layer = 0;
    Vec2 start, goal;
    std::vector<std::vector<Vec2>> paths = std::vector<std::vector<Vec2>>(kMethodCount);
};

std::string num(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", v);
    return buffer;
}

std::string compareSvg(const Footprint& fp, const SvgQuery& q, double radius) {
    static const char* const colours[kMethodCount] = {"#1f77ff", "#111111", "#e08000", "#9a40c0",
                                                      "#20a040", "#d03030", "#00a0a0", "#80b0ff"};
    const FootprintLayer& layer = fp.layers[q.layer];
    Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
    for (const WallSegment& w : layerWalls(layer))
        for (Vec2 p : {w.a, w.b}) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
        }
    const double margin = 1, width = hi.x - lo.x + 2 * margin, height = hi.y - lo.y + 2 * margin;
    const double pixels = std::clamp(1200 / std::max(width, height), 2.0, 200.0);
    const double stroke = std::max(width, height) / 900;
    preview::SvgWriter svg(preview::NumberFormat{preview::NumberFormat::Fixed, 4}, true);
    svg.open(width * pixels, height * pixels, lo.x - margin, -hi.y - margin, width, height);
    svg.title(fp.source_name + ", layer " + std::to_string(q.layer) + ", radius " + num(radius) +
              ": one query, every method");
    svg.background("#f4f4f4");
    svg.group({{"fill", "#ffffff"}, {"fill-rule", "evenodd"}, {"stroke", "#303030"}, {"stroke-width", 2 * stroke}});
    for (const PolygonWithHoles& poly : layer.polygons) {
        preview::SvgPath d = svg.pathData();
        d.points(poly.outer.data(), poly.outer.size(), true);
        for (const Ring& h : poly.holes)
            d.points(h.data(), h.size(), true);
        svg.path(d);
    }
    svg.end();
    svg.group({{"fill", "none"}, {"stroke-linejoin", "round"}, {"stroke-width", 3 * stroke}});
    for (size_t m = 0; m < kMethodCount; ++m)
        if (!q.paths[m].empty())
            svg.polyline(q.paths[m].data(), q.paths[m].size(), {{"id", kMethods[m]}, {"stroke", colours[m]}});
    svg.end();
    for (Vec2 p : {q.start, q.goal})
        svg.circle(p.x, p.y, radius, {{"fill", "none"}, {"stroke", "#000"}, {"stroke-width", stroke}});
    // Legend in the top-left corner.
    const double size = std::max(width, height) / 40;
    for (size_t m = 0; m < kMethodCount; ++m)
        svg.text(lo.x - margin + size * 0.5, -hi.y - margin + size * (m + 1.2),
                 std::string(kMethods[m]) + (q.paths[m].empty() ? " (failed)" : ""),
                 {{"font-size", size}, {"font-family", "sans-serif"}, {"fill", colours[m]}});
    return svg.finish();
}

double percentile99(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t k = size_t(std::ceil(0.99 * double(v.size()))) - 1;
    return v[std::min(k, v.size() - 1)];
}

// Everything one comparison shares: the level, clearway's roadmap as a game loads it, every
// baseline per layer, and what each method measured so far.
struct Comparison {
    Comparison(const Footprint& fp, const CompareRequest& request, LogContext& log)
        : fp(fp), request(request), log(log), path_memory(sizeof(PathSegment) * kMaxSegments) {}
    const Footprint& fp;
    const CompareRequest& request;
    LogContext& log;
    double radius = 0, preferred = 0;
    // clearway
    std::vector<uint64_t> roadmap_bytes; // 8-byte aligned for the loader
    RoadmapView view;
    std::vector<uint8_t> scratch_memory, path_memory;
    PathScratch* scratch = nullptr;
    // baselines and the walls paths are measured against, per layer
    std::vector<std::unique_ptr<LayerPlanners>> planners;
    std::vector<WallGrid> walls;
    std::vector<Accumulator> acc = std::vector<Accumulator>(kMethodCount);
    SvgQuery svg_query;
    bool have_svg = false;
    CompareResult out;
};

Error validateRequest(const CompareRequest& request) {
    const double radius = request.radius;
    if (!(radius > 0) || !std::isfinite(radius))
        return {ErrorCode::InvalidOption,
                "--radius must be a positive number (got " + std::to_string(radius) + ")"};
    if (request.pairs == 0) return {ErrorCode::InvalidOption, "--pairs must be at least 1"};
    if (std::isnan(request.preferred_clearance) || request.preferred_clearance < 0)
        return {ErrorCode::InvalidOption, "--preferred-clearance must be >= 0 (0: the radius)"};
    return {};
}

// clearway: the roadmap asset as a game loads it, and one path scratch.
Error bakeClearway(Comparison& c) {
    const Clock::time_point t0 = Clock::now();
    Roadmap roadmap;
    RoadmapStats stats;
    if (Error e = buildRoadmap(c.fp, defaultRoadmapOptions(), &roadmap, &stats, c.log)) return e;
    const std::vector<uint8_t> bytes = serializeRoadmap(roadmap);
    c.roadmap_bytes.assign((bytes.size() + 7) / 8, 0);
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(c.roadmap_bytes.data()));
    if (Status s = loadRoadmap(c.roadmap_bytes.data(), bytes.size(), &c.view); s != Status::Ok)
        return {ErrorCode::Internal, c.fp.source_name + ": baked roadmap does not load: " + statusString(s)};
    size_t scratch_bytes = 0;
    pathScratchSize(c.view, &scratch_bytes);
    c.scratch_memory.resize(scratch_bytes);
    if (Status s = pathScratchInit(c.view, c.scratch_memory.data(), scratch_bytes, &c.scratch); s != Status::Ok)
        return {ErrorCode::Internal, c.fp.source_name + ": path scratch: " + statusString(s)};
    for (size_t m : {size_t(0), kMedialPc}) {
        c.out.methods[m].build_seconds = secondsSince(t0);
        c.out.methods[m].bytes = bytes.size() + scratch_bytes;
    }
    return {};
}

// Every baseline on one layer, each build timed into its method's build_seconds.
Error buildLayerBaselines(Comparison& c, uint32_t l, LayerPlanners* p) {
    const FootprintLayer& layer = c.fp.layers[l];
    const double radius = c.radius;
    auto timed = [&](size_t method, auto&& build) -> Error {
        const Clock::time_point start = Clock::now();
        Error e = build();
        c.out.methods[method].build_seconds += secondsSince(start);
        return e;
    };
    Error e;
    if ((e = timed(1, [&] { return buildVisibilityGraph(layer, radius, {}, &p->visibility); })) ||
        (e = timed(2,
                   [&] {
                       GridOptions o;
                       o.smooth = c.request.grid_smooth;
                       return buildGrid(layer, radius, o, &p->grid);
                   })) ||
        (e = timed(3, [&] { return buildQuadtree(layer, radius, {}, &p->quadtree); })) ||
        (e = timed(4,
                   [&] {
                       PrmOptions o;
                       o.seed = c.request.seed;
                       o.samples = c.request.prm_samples;
                       return buildPrm(layer, radius, o, &p->prm);
                   })) ||
        (e = timed(5,
                   [&] {
                       RrtOptions o;
                       o.seed = c.request.seed;
                       o.iterations = c.request.rrt_iterations;
                       return buildRrt(layer, radius, o, &p->rrt);
                   })) ||
        (e = timed(6, [&] { return buildPotentialField(layer, radius, {}, &p->potential); })))
        return {e.code, c.fp.source_name + ", layer " + std::to_string(l) + ": " + e.message};
    return {};
}

void addBudget(const SamplingBudget& layer, SamplingBudget* sum) {
    sum->free_area += layer.free_area;
    sum->walls += layer.walls;
    sum->by_area += layer.by_area;
    sum->by_walls += layer.by_walls;
    sum->floor = layer.floor;
    sum->cap = layer.cap;
    sum->count += layer.count;
    sum->given = sum->given || layer.given;
    sum->capped = sum->capped || layer.capped;
}

Error buildBaselines(Comparison& c) {
    for (uint32_t l = 0; l < c.fp.layers.size(); ++l) {
        auto p = std::make_unique<LayerPlanners>();
        if (Error e = buildLayerBaselines(c, l, p.get())) return e;
        c.out.methods[1].bytes += bytesOf(p->visibility);
        c.out.methods[2].bytes += bytesOf(p->grid);
        c.out.methods[3].bytes += bytesOf(p->quadtree);
        c.out.methods[4].bytes += bytesOf(p->prm);
        c.out.methods[5].bytes += bytesOf(p->rrt);
        c.out.methods[6].bytes += bytesOf(p->potential);
        addBudget(p->prm.budget, &c.out.methods[4].budget);
        addBudget(p->rrt.budget, &c.out.methods[5].budget);
        c.log.log(LogLevel::Debug, "layer " + std::to_string(l) + ": visibility " +
                                       std::to_string(p->visibility.discs.size()) + " discs, " +
                                       std::to_string(p->visibility.nodes.size()) + " nodes, " +
                                       std::to_string(p->visibility.edges.size()) + " edges");
        c.planners.push_back(std::move(p));
        c.walls.emplace_back(solidLayerWalls(c.fp, l));
    }
    return {};
}

// One query: start and goal on one layer.
struct Pair {
    uint32_t layer = 0;
    Vec2 start, goal;
};

std::string where(const Pair& q) {
    char text[160];
    std::snprintf(text, sizeof text, "layer %u, (%.4f, %.4f) -> (%.4f, %.4f)", q.layer, q.start.x, q.start.y,
                  q.goal.x, q.goal.y);
    return text;
}

// A random pair: the layer chosen by area, start and goal free. False when no free point turned up.
bool drawRandomPair(const Comparison& c, std::mt19937_64& rng, double total_area, Pair* q) {
    double pick = baselines::unit(rng) * total_area;
    uint32_t l = 0;
    while (l + 1 < c.fp.layers.size() && pick >= std::max(0.0, c.fp.layers[l].area)) {
        pick -= std::max(0.0, c.fp.layers[l].area);
        ++l;
    }
    q->layer = l;
    const FreeSpace& space = c.planners[l]->visibility.space;
    auto draw = [&](Vec2* p) {
        for (int tries = 0; tries < 1000; ++tries) {
            *p = baselines::samplePoint(space, rng);
            if (pointFree(space, *p)) return true;
        }
        return false;
    };
    return draw(&q->start) && draw(&q->goal);
}

// One method's answer to a pair.
struct MethodRun {
    std::vector<Vec2> points;
    double length = 0, us = 0;
    bool ok = false;
};

MethodRun runClearway(Comparison& c, const Pair& q, const PlannedPath& oracle, double preferred) {
    MethodRun run;
    PathSegment* segments = reinterpret_cast<PathSegment*>(c.path_memory.data());
    uint32_t count = 0;
    const Clock::time_point q0 = Clock::now();
    const Status s =
        findPath(c.view, c.scratch, {q.start.x, q.start.y, q.layer}, {q.goal.x, q.goal.y, q.layer}, c.radius,
                 preferred, segments, &count, kMaxSegments);
    run.us = secondsSince(q0) * 1e6;
    if (s == Status::Ok) {
        run.ok = true;
        run.length = pathTotalLength(segments, count);
        run.points = pathPolyline(segments, count, PathMetricsOptions{});
    } else {
        c.log.log(LogLevel::Info, c.fp.source_name + ": findPath: " + statusString(s) + " at " + where(q) +
                                      ", the visibility graph's path is " + num(oracle.length) + " m");
    }
    return run;
}

// Baseline m (1..6) on a pair; the visibility graph's path (m = 1) is the oracle already found.
MethodRun runBaseline(Comparison& c, size_t m, const Pair& q, const PlannedPath& oracle, double oracle_us) {
    const LayerPlanners& p = *c.planners[q.layer];
    PlannedPath path;
    double us = oracle_us;
    if (m == 1) {
        path = oracle;
    } else {
        const Clock::time_point q0 = Clock::now();
        switch (m) {
        case 2:
            path = gridPath(p.grid, q.start, q.goal);
            break;
        case 3:
            path = quadtreePath(p.quadtree, q.start, q.goal);
            break;
        case 4:
            path = prmPath(p.prm, q.start, q.goal);
            break;
        case 5:
            path = rrtPath(p.rrt, q.start, q.goal);
            break;
        default:
            path = potentialPath(p.potential, q.start, q.goal);
            break;
        }
        us = secondsSince(q0) * 1e6;
    }
    if (path.status == PlanStatus::LocalMinimum) ++c.acc[m].local_minima;
    MethodRun run;
    run.ok = path.status == PlanStatus::Ok;
    run.length = path.length;
    run.points = std::move(path.points);
    run.us = us;
    return run;
}

// The metrics of method m's path on a pair, and the warnings it earns.
void record(Comparison& c, size_t m, const Pair& q, const PlannedPath& oracle, MethodRun run, bool record_svg) {
    Accumulator& a = c.acc[m];
    a.query_us.push_back(run.us);
    a.pair_clearance.push_back(NAN);
    if (!run.ok) return;
    ++a.successes;
    const PathMetrics metrics = measurePath(run.points, c.walls[q.layer], PathMetricsOptions{});
    a.ratios.push_back(run.length / oracle.length);
    char lengths[120];
    if (a.ratios.back() > a.worst_ratio) {
        std::snprintf(lengths, sizeof lengths, ": %.4f m, shortest %.4f m", run.length, oracle.length);
        a.worst_ratio = a.ratios.back();
        a.worst = where(q) + lengths;
    }
    if (run.length < oracle.length * (1 - 1e-9)) {
        std::snprintf(lengths, sizeof lengths, ": %.9f m < %.9f m", run.length, oracle.length);
        c.log.log(LogLevel::Warn, c.fp.source_name + ": " + kMethods[m] +
                                      " is shorter than the visibility graph's exact shortest path at " + where(q) +
                                      lengths);
    }
    a.min_clearance = std::min(a.min_clearance, metrics.min_clearance);
    a.mean_clearances.push_back(metrics.mean_clearance);
    a.pair_clearance.back() = metrics.mean_clearance;
    a.discontinuities += metrics.heading_discontinuities;
    if ((m == 0 || m == kMedialPc) && metrics.heading_discontinuities > 0) {
        // findPath promises tangent-continuous paths: name the query that breaks it.
        std::snprintf(lengths, sizeof lengths, ": %zu, up to %.1f deg", metrics.heading_discontinuities,
                      metrics.max_heading_jump_deg);
        c.log.log(LogLevel::Warn, c.fp.source_name + ": findPath's path turns sharply at " + where(q) + lengths);
    }
    if ((m == 0 || m == kMedialPc) && metrics.min_clearance < c.radius - 1e-4) {
        // findPath promises the radius: name the query that breaks it.
        std::snprintf(lengths, sizeof lengths, ": %.4f m from a wall at radius %.4f m", metrics.min_clearance,
                      c.radius);
        c.log.log(LogLevel::Warn, c.fp.source_name + ": findPath's path comes closer than the radius at " +
                                      where(q) + lengths);
    }
    a.max_jump = std::max(a.max_jump, metrics.max_heading_jump_deg);
    a.max_curvature = std::max(a.max_curvature, metrics.max_curvature);
    if (record_svg) c.svg_query.paths[m] = std::move(run.points);
}

// Every method on one pair, when the visibility graph connects it (so success is measured where
// a path exists). False when it does not.
bool comparePair(Comparison& c, const Pair& q) {
    const Clock::time_point q0 = Clock::now();
    const PlannedPath oracle = visibilityPath(c.planners[q.layer]->visibility, q.start, q.goal);
    const double oracle_us = secondsSince(q0) * 1e6;
    if (oracle.status != PlanStatus::Ok) return false;
    const bool record_svg = !c.have_svg;
    if (record_svg) {
        c.svg_query.layer = q.layer;
        c.svg_query.start = q.start;
        c.svg_query.goal = q.goal;
        c.have_svg = true;
    }
    for (size_t m = 0; m < kMethodCount; ++m)
        record(c, m, q, oracle,
               m == 0           ? runClearway(c, q, oracle, c.radius)
               : m == kMedialPc ? runClearway(c, q, oracle, c.preferred)
                                : runBaseline(c, m, q, oracle, oracle_us),
               record_svg);
    return true;
}

// Queries: the given ones, or random pairs until `pairs` are connected (at most 20 draws each).
Error runPairs(Comparison& c) {
    const CompareRequest& request = c.request;
    for (const CompareQuery& q : request.queries)
        if (q.layer >= c.fp.layers.size())
            return {ErrorCode::InvalidOption, c.fp.source_name + ": a query names layer " + std::to_string(q.layer) +
                                                  " of " + std::to_string(c.fp.layers.size())};
    std::mt19937_64 rng(request.seed);
    double total_area = 0;
    for (const FootprintLayer& layer : c.fp.layers)
        total_area += std::max(0.0, layer.area);
    const bool given = !request.queries.empty();
    const uint64_t wanted = given ? request.queries.size() : request.pairs;
    const uint64_t max_draws = given ? request.queries.size() : 20ull * request.pairs + 100;
    CompareResult& out = c.out;
    while (out.pairs < wanted && out.pairs_drawn < max_draws) {
        ++out.pairs_drawn;
        Pair q;
        if (given) {
            const CompareQuery& g = request.queries[out.pairs_drawn - 1];
            q = {g.layer, g.start, g.goal};
        } else if (!drawRandomPair(c, rng, total_area, &q)) {
            continue;
        }
        if (comparePair(c, q)) ++out.pairs;
    }
    if (out.pairs < wanted)
        c.log.log(LogLevel::Warn, c.fp.source_name + ": only " + std::to_string(out.pairs) + " of " +
                                      std::to_string(out.pairs_drawn) + (given ? " given" : " random") +
                                      " pairs are connected at radius " + num(c.radius));
    return {};
}

// Each method's own mean covers only the pairs it solved: a planner failing the hard pairs (the
// potential field's local minima) is averaged over easy ones. This mean compares all methods on
// the same paths.
void commonPairMeans(Comparison& c) {
    std::vector<double> common_sum(kMethodCount, 0.0);
    for (uint32_t q = 0; q < c.out.pairs; ++q) {
        bool all = true;
        for (size_t m = 0; m < kMethodCount; ++m)
            all = all && !std::isnan(c.acc[m].pair_clearance[q]);
        if (!all) continue;
        ++c.out.pairs_common;
        for (size_t m = 0; m < kMethodCount; ++m)
            common_sum[m] += c.acc[m].pair_clearance[q];
    }
    if (c.out.pairs_common)
        for (size_t m = 0; m < kMethodCount; ++m)
            c.out.methods[m].mean_clearance_common = common_sum[m] / double(c.out.pairs_common);
}

void summarise(Comparison& c) {
    commonPairMeans(c);
    for (size_t m = 0; m < kMethodCount; ++m) {
        MethodStats& s = c.out.methods[m];
        const Accumulator& a = c.acc[m];
        if (a.worst_ratio > 0)
            c.log.log(LogLevel::Debug, c.fp.source_name + ": " + kMethods[m] +
                                           "'s longest path against the shortest (" +
                                           std::to_string(a.worst_ratio) + "x): " + a.worst);
        s.queries = c.out.pairs;
        s.successes = a.successes;
        s.local_minima = a.local_minima;
        s.success_rate = c.out.pairs ? double(a.successes) / c.out.pairs : 0;
        double sum = 0;
        for (double us : a.query_us)
            sum += us;
        s.query_us_mean = a.query_us.empty() ? 0 : sum / double(a.query_us.size());
        s.query_us_p99 = percentile99(a.query_us);
        if (a.successes) {
            double ratio_sum = 0, clearance_sum = 0;
            for (double r : a.ratios) {
                ratio_sum += r;
                s.length_ratio_max = std::max(s.length_ratio_max, r);
            }
            for (double cl : a.mean_clearances)
                clearance_sum += cl;
            s.length_ratio_mean = ratio_sum / double(a.ratios.size());
            s.mean_clearance = clearance_sum / double(a.mean_clearances.size());
            s.min_clearance = a.min_clearance;
        }
        s.heading_discontinuities = a.discontinuities;
        s.max_heading_jump_deg = a.max_jump;
        s.max_curvature = a.max_curvature;
    }
}

} // namespace

Error compareFootprint(const Footprint& fp, const CompareRequest& request, CompareResult* result,
                       LogContext& log, std::string* svg) {
    if (Error e = validateRequest(request)) return e;
    if (fp.layers.empty())
        return {ErrorCode::NoWalkableSurface, fp.source_name + ": the footprint has no layers"};
    Comparison c(fp, request, log);
    c.radius = request.radius;
    c.preferred = request.preferred_clearance > 0 ? request.preferred_clearance : request.radius;
    c.out.level = fp.source_name;
    c.out.radius = request.radius;
    c.out.preferred_clearance = c.preferred;
    c.out.layers = uint32_t(fp.layers.size());
    c.out.methods.resize(kMethodCount);
    for (size_t m = 0; m < kMethodCount; ++m)
        c.out.methods[m].name = kMethods[m];
    if (Error e = bakeClearway(c)) return e;
    if (Error e = buildBaselines(c)) return e;
    if (Error e = runPairs(c)) return e;
    summarise(c);
    if (svg && c.have_svg) *svg = compareSvg(fp, c.svg_query, c.radius);
    *result = std::move(c.out);
    return {};
}

Error compareMethods(const CompareRequest& request, CompareResult* result, LogContext& log) {
    Footprint fp;
    const std::string& path = request.input_path;
    const bool is_footprint = path.size() >= 5 && path.compare(path.size() - 5, 5, ".cwfp") == 0;
    if (request.footprint) {
        fp = *request.footprint;
    } else if (is_footprint) {
        if (Error e = readFootprintFile(path, &fp)) return e;
    } else {
        if (Error e = validate(request.import_options)) return e;
        Mesh mesh;
        if (Error e = loadMesh(path, request.import_options, &mesh, log)) return e;
        if (Error e = buildFootprint(mesh, optionsUsed(mesh, request.import_options), &fp, log)) return e;
    }
    std::string svg;
    if (Error e = compareFootprint(fp, request, result, log, request.svg_path.empty() ? nullptr : &svg))
        return e;
    if (!request.svg_path.empty()) {
        if (svg.empty()) return {ErrorCode::InvalidOption, path + ": no connected query to draw"};
        if (Error e = writeFileAtomic(request.svg_path, svg)) return e;
    }
    return {};
}

namespace {

std::string jsonPreferred(double v) {
    return std::isfinite(v) ? preview::jsonNumber(v, 6) : "\"inf\"";
}

std::string jsonBudget(const SamplingBudget& b) {
    auto n = [](double v) { return preview::jsonNumber(v, 6); };
    return "{\"count\": " + std::to_string(b.count) + ", \"given\": " + (b.given ? "true" : "false") +
           ", \"free_area\": " + n(b.free_area) + ", \"walls\": " + std::to_string(b.walls) +
           ", \"by_area\": " + std::to_string(b.by_area) + ", \"by_walls\": " + std::to_string(b.by_walls) +
           ", \"floor\": " + std::to_string(b.floor) + ", \"cap\": " + std::to_string(b.cap) +
           ", \"capped\": " + (b.capped ? "true" : "false") + "}";
}

} // namespace

std::string compareJson(const CompareResult& r) {
    auto n = [](double v) { return preview::jsonNumber(v, 6); };
    std::string json = "{\"level\": " + preview::jsonString(r.level) + ", \"radius\": " + n(r.radius) +
                       ", \"layers\": " + std::to_string(r.layers) +
                       ", \"pairs\": " + std::to_string(r.pairs) +
                       ", \"pairs_drawn\": " + std::to_string(r.pairs_drawn) +
                       ", \"pairs_common\": " + std::to_string(r.pairs_common) +
                       ", \"preferred_clearance\": " + jsonPreferred(r.preferred_clearance) + ", \"methods\": [";
    for (size_t m = 0; m < r.methods.size(); ++m) {
        const MethodStats& s = r.methods[m];
        json += std::string(m ? ", " : "") + "{\"name\": " + preview::jsonString(s.name) +
                ", \"build_seconds\": " + n(s.build_seconds) + ", \"bytes\": " + std::to_string(s.bytes) +
                ", \"query_us_mean\": " + n(s.query_us_mean) + ", \"query_us_p99\": " + n(s.query_us_p99) +
                ", \"success_rate\": " + n(s.success_rate) +
                ", \"length_ratio_mean\": " + n(s.length_ratio_mean) +
                ", \"length_ratio_max\": " + n(s.length_ratio_max) +
                ", \"min_clearance\": " + n(s.min_clearance) +
                ", \"mean_clearance\": " + n(s.mean_clearance) +
                ", \"mean_clearance_common\": " + n(s.mean_clearance_common) +
                ", \"heading_discontinuities\": " + std::to_string(s.heading_discontinuities) +
                ", \"max_heading_jump_deg\": " + n(s.max_heading_jump_deg) +
                ", \"max_curvature\": " + n(s.max_curvature) +
                ", \"local_minima\": " + std::to_string(s.local_minima) +
                (s.budget.count ? ", \"budget\": " + jsonBudget(s.budget) : std::string()) + "}";
    }
    return json + "]}";
}

std::string compareTable(const CompareResult& r) {
    std::string t =
        "| method | build s | KiB | query µs mean | p99 | success | length ratio mean | max | "
        "min clearance | mean clearance | on common pairs | heading disc. | max jump ° | max curvature |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    char line[512];
    for (const MethodStats& s : r.methods) {
        std::snprintf(line, sizeof line,
                      "| %s | %.3f | %.0f | %.0f | %.0f | %.0f %% | %.3f | %.3f | %.3f | %.3f | %.3f | %zu | "
                      "%.0f | %.2f |\n",
                      s.name.c_str(), s.build_seconds, double(s.bytes) / 1024, s.query_us_mean,
                      s.query_us_p99, 100 * s.success_rate, s.length_ratio_mean, s.length_ratio_max,
                      s.min_clearance, s.mean_clearance, s.mean_clearance_common, s.heading_discontinuities,
                      s.max_heading_jump_deg, s.max_curvature);
        t += line;
    }
    return t;
}

namespace {

std::string budgetNote(const char* name, const char* unit, const SamplingBudget& b, uint32_t layers) {
    char line[400];
    if (b.given) {
        std::snprintf(line, sizeof line, "%s: %u %s (given)\n", name, b.count, unit);
    } else {
        std::snprintf(line, sizeof line,
                      "%s: %u %s = %s of max(free area term, walls term) clamped to [%u, %u]; terms: free area "
                      "%.0f m^2 -> %u, %u walls -> %u%s\n",
                      name, b.count, unit, layers > 1 ? "the sum over the layers" : "the layer's", b.floor, b.cap,
                      b.free_area, b.by_area, b.walls, b.by_walls,
                      b.capped ? " (capped: the formula asked for more)" : "");
    }
    return line;
}

} // namespace

std::string compareNotes(const CompareResult& r) {
    char line[400];
    std::snprintf(line, sizeof line,
                  "operating points: every baseline guarantees clearance %g m (the radius) and takes no preferred one; "
                  "medial = findPath at preferred clearance %g m (the radius: like with like), medial-pc = at "
                  "preferred clearance %g m\n",
                  r.radius, r.radius, r.preferred_clearance);
    std::string notes = line;
    for (const MethodStats& s : r.methods) {
        if (s.name == "prm") notes += budgetNote("prm", "samples", s.budget, r.layers);
        if (s.name == "rrt") notes += budgetNote("rrt", "iterations", s.budget, r.layers);
    }
    return notes;
}

} // namespace clearway::bake
