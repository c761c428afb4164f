// cw-compare: clearway's findPath (on the medial-axis roadmap) next to every baseline planner of
// Mount's lecture on the same random queries of one level, with the shared path metrics.
#include <clearway/eval.h>
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

const char* const kMethods[] = {"medial", "visibility", "grid", "quadtree", "prm", "rrt", "potential"};
constexpr size_t kMethodCount = sizeof(kMethods) / sizeof(kMethods[0]);
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
                                                      "#20a040", "#d03030", "#00a0a0"};
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
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width * pixels) +
                      "\" height=\"" + num(height * pixels) + "\" viewBox=\"" + num(lo.x - margin) + " " +
                      num(-hi.y - margin) + " " + num(width) + " " + num(height) + "\">\n";
    svg += "<title>" + fp.source_name + ", layer " + std::to_string(q.layer) + ", radius " + num(radius) +
           ": one query, every method</title>\n";
    svg += "<rect x=\"" + num(lo.x - margin) + "\" y=\"" + num(-hi.y - margin) + "\" width=\"" + num(width) +
           "\" height=\"" + num(height) + "\" fill=\"#f4f4f4\"/>\n";
    svg += "<g fill=\"#ffffff\" fill-rule=\"evenodd\" stroke=\"#303030\" stroke-width=\"" + num(2 * stroke) +
           "\">\n";
    for (const PolygonWithHoles& poly : layer.polygons) {
        std::string d;
        auto ring = [&](const Ring& r) {
            for (size_t i = 0; i < r.size(); ++i)
                d += (i ? "L" : "M") + num(r[i].x) + " " + num(-r[i].y) + " ";
            d += "Z ";
        };
        ring(poly.outer);
        for (const Ring& h : poly.holes)
            ring(h);
        svg += "<path d=\"" + d + "\"/>\n";
    }
    svg += "</g>\n<g fill=\"none\" stroke-linejoin=\"round\" stroke-width=\"" + num(3 * stroke) + "\">\n";
    for (size_t m = 0; m < kMethodCount; ++m) {
        if (q.paths[m].empty()) continue;
        std::string pts;
        for (Vec2 p : q.paths[m])
            pts += num(p.x) + "," + num(-p.y) + " ";
        svg += "<polyline id=\"" + std::string(kMethods[m]) + "\" stroke=\"" + colours[m] + "\" points=\"" +
               pts + "\"/>\n";
    }
    svg += "</g>\n";
    for (Vec2 p : {q.start, q.goal})
        svg += "<circle cx=\"" + num(p.x) + "\" cy=\"" + num(-p.y) + "\" r=\"" + num(radius) +
               "\" fill=\"none\" stroke=\"#000\" stroke-width=\"" + num(stroke) + "\"/>\n";
    // Legend in the top-left corner.
    const double size = std::max(width, height) / 40;
    for (size_t m = 0; m < kMethodCount; ++m)
        svg += "<text x=\"" + num(lo.x - margin + size * 0.5) + "\" y=\"" +
               num(-hi.y - margin + size * (m + 1.2)) + "\" font-size=\"" + num(size) +
               "\" font-family=\"sans-serif\" fill=\"" + colours[m] + "\">" + kMethods[m] +
               (q.paths[m].empty() ? " (failed)" : "") + "</text>\n";
    svg += "</svg>\n";
    return svg;
}

double percentile99(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t k = size_t(std::ceil(0.99 * double(v.size()))) - 1;
    return v[std::min(k, v.size() - 1)];
}

} // namespace

Error compareFootprint(const Footprint& fp, const CompareRequest& request, CompareResult* result,
                       LogContext& log, std::string* svg) {
    const double radius = request.radius;
    if (!(radius > 0) || !std::isfinite(radius))
        return {ErrorCode::InvalidOption,
                "--radius must be a positive number (got " + std::to_string(radius) + ")"};
    if (request.pairs == 0) return {ErrorCode::InvalidOption, "--pairs must be at least 1"};
    if (std::isnan(request.preferred_clearance) || request.preferred_clearance < 0)
        return {ErrorCode::InvalidOption, "--preferred-clearance must be >= 0 (0: the radius)"};
    const double preferred = request.preferred_clearance > 0 ? request.preferred_clearance : radius;
    if (fp.layers.empty())
        return {ErrorCode::NoWalkableSurface, fp.source_name + ": the footprint has no layers"};
    CompareResult out;
    out.level = fp.source_name;
    out.radius = radius;
    out.layers = uint32_t(fp.layers.size());
    out.methods.resize(kMethodCount);
    for (size_t m = 0; m < kMethodCount; ++m)
        out.methods[m].name = kMethods[m];

    // clearway: the roadmap asset as a game loads it, and one path scratch.
    Clock::time_point t0 = Clock::now();
    Roadmap roadmap;
    RoadmapStats stats;
    if (Error e = buildRoadmap(fp, defaultRoadmapOptions(), &roadmap, &stats, log)) return e;
    const std::vector<uint8_t> bytes = serializeRoadmap(roadmap);
    std::vector<uint64_t> aligned((bytes.size() + 7) / 8);
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(aligned.data()));
    RoadmapView view;
    if (Status s = loadRoadmap(aligned.data(), bytes.size(), &view); s != Status::Ok)
        return {ErrorCode::Internal, fp.source_name + ": baked roadmap does not load: " + statusString(s)};
    size_t scratch_bytes = 0;
    pathScratchSize(view, &scratch_bytes);
    std::vector<uint8_t> scratch_memory(scratch_bytes);
    PathScratch* scratch = nullptr;
    if (Status s = pathScratchInit(view, scratch_memory.data(), scratch_bytes, &scratch); s != Status::Ok)
        return {ErrorCode::Internal, fp.source_name + ": path scratch: " + statusString(s)};
    out.methods[0].build_seconds = secondsSince(t0);
    out.methods[0].bytes = bytes.size() + scratch_bytes;

    // Every baseline, per layer.
    std::vector<std::unique_ptr<LayerPlanners>> planners;
    std::vector<WallGrid> walls;
    for (uint32_t l = 0; l < fp.layers.size(); ++l) {
        const FootprintLayer& layer = fp.layers[l];
        auto p = std::make_unique<LayerPlanners>();
        auto timed = [&](size_t method, auto&& build) -> Error {
            const Clock::time_point start = Clock::now();
            Error e = build();
            out.methods[method].build_seconds += secondsSince(start);
            return e;
        };
        Error e;
        if ((e = timed(1, [&] { return buildVisibilityGraph(layer, radius, {}, &p->visibility); })) ||
            (e = timed(2,
                       [&] {
                           GridOptions o;
                           o.smooth = request.grid_smooth;
                           return buildGrid(layer, radius, o, &p->grid);
                       })) ||
            (e = timed(3, [&] { return buildQuadtree(layer, radius, {}, &p->quadtree); })) ||
            (e = timed(4,
                       [&] {
                           PrmOptions o;
                           o.seed = request.seed;
                           return buildPrm(layer, radius, o, &p->prm);
                       })) ||
            (e = timed(5,
                       [&] {
                           RrtOptions o;
                           o.seed = request.seed;
                           return buildRrt(layer, radius, o, &p->rrt);
                       })) ||
            (e = timed(6, [&] { return buildPotentialField(layer, radius, {}, &p->potential); })))
            return {e.code, fp.source_name + ", layer " + std::to_string(l) + ": " + e.message};
        out.methods[1].bytes += bytesOf(p->visibility);
        out.methods[2].bytes += bytesOf(p->grid);
        out.methods[3].bytes += bytesOf(p->quadtree);
        out.methods[4].bytes += bytesOf(p->prm);
        out.methods[5].bytes += bytesOf(p->rrt);
        out.methods[6].bytes += bytesOf(p->potential);
        log.log(LogLevel::Debug, "layer " + std::to_string(l) + ": visibility " +
                                     std::to_string(p->visibility.discs.size()) + " discs, " +
                                     std::to_string(p->visibility.nodes.size()) + " nodes, " +
                                     std::to_string(p->visibility.edges.size()) + " edges");
        planners.push_back(std::move(p));
        walls.emplace_back(solidLayerWalls(fp, l));
    }

    // Queries: start and goal on one layer (chosen by area), both free; kept when the visibility
    // graph connects them, so success is measured where a path exists.
    std::mt19937_64 rng(request.seed);
    double total_area = 0;
    for (const FootprintLayer& layer : fp.layers)
        total_area += std::max(0.0, layer.area);
    std::vector<Accumulator> acc(kMethodCount);
    std::vector<uint8_t> path_memory(sizeof(PathSegment) * kMaxSegments);
    PathSegment* segments = reinterpret_cast<PathSegment*>(path_memory.data());
    SvgQuery svg_query;
    bool have_svg = false;
    const PathMetricsOptions metrics_options;
    const bool given = !request.queries.empty();
    const uint64_t wanted = given ? request.queries.size() : request.pairs;
    const uint64_t max_draws = given ? request.queries.size() : 20ull * request.pairs + 100;
    for (const CompareQuery& q : request.queries)
        if (q.layer >= fp.layers.size())
            return {ErrorCode::InvalidOption, fp.source_name + ": a query names layer " +
                                                  std::to_string(q.layer) + " of " +
                                                  std::to_string(fp.layers.size())};
    while (out.pairs < wanted && out.pairs_drawn < max_draws) {
        ++out.pairs_drawn;
        uint32_t l = 0;
        Vec2 start, goal;
        if (given) {
            const CompareQuery& q = request.queries[out.pairs_drawn - 1];
            l = q.layer, start = q.start, goal = q.goal;
        } else {
            double pick = baselines::unit(rng) * total_area;
            while (l + 1 < fp.layers.size() && pick >= std::max(0.0, fp.layers[l].area)) {
                pick -= std::max(0.0, fp.layers[l].area);
                ++l;
            }
            const FreeSpace& space = planners[l]->visibility.space;
            auto draw = [&](Vec2* q) {
                for (int tries = 0; tries < 1000; ++tries) {
                    *q = baselines::samplePoint(space, rng);
                    if (pointFree(space, *q)) return true;
                }
                return false;
            };
            if (!draw(&start) || !draw(&goal)) continue;
        }
        const LayerPlanners& p = *planners[l];
        Clock::time_point q0 = Clock::now();
        const PlannedPath oracle = visibilityPath(p.visibility, start, goal);
        const double oracle_us = secondsSince(q0) * 1e6;
        if (oracle.status != PlanStatus::Ok) continue;
        ++out.pairs;
        const bool record_svg = !have_svg;
        if (record_svg) {
            svg_query.layer = l;
            svg_query.start = start;
            svg_query.goal = goal;
            have_svg = true;
        }
        for (size_t m = 0; m < kMethodCount; ++m) {
            std::vector<Vec2> points;
            double length = 0;
            bool ok = false;
            double us = 0;
            if (m == 0) {
                uint32_t count = 0;
                q0 = Clock::now();
                const Status s = findPath(view, scratch, {start.x, start.y, l}, {goal.x, goal.y, l}, radius,
                                          preferred, segments, &count, kMaxSegments);
                us = secondsSince(q0) * 1e6;
                if (s == Status::Ok) {
                    ok = true;
                    length = pathTotalLength(segments, count);
                    points = pathPolyline(segments, count, metrics_options);
                } else {
                    char where[160];
                    std::snprintf(where, sizeof where, "layer %u, (%.4f, %.4f) -> (%.4f, %.4f)", l, start.x,
                                  start.y, goal.x, goal.y);
                    log.log(LogLevel::Info, fp.source_name + ": findPath: " + statusString(s) + " at " +
                                                where + ", the visibility graph's path is " +
                                                num(oracle.length) + " m");
                }
            } else {
                PlannedPath path;
                if (m == 1) {
                    path = oracle;
                    us = oracle_us;
                } else {
                    q0 = Clock::now();
                    switch (m) {
                    case 2:
                        path = gridPath(p.grid, start, goal);
                        break;
                    case 3:
                        path = quadtreePath(p.quadtree, start, goal);
                        break;
                    case 4:
                        path = prmPath(p.prm, start, goal);
                        break;
                    case 5:
                        path = rrtPath(p.rrt, start, goal);
                        break;
                    default:
                        path = potentialPath(p.potential, start, goal);
                        break;
                    }
                    us = secondsSince(q0) * 1e6;
                }
                ok = path.status == PlanStatus::Ok;
                if (path.status == PlanStatus::LocalMinimum) ++acc[m].local_minima;
                length = path.length;
                points = std::move(path.points);
            }
            Accumulator& a = acc[m];
            a.query_us.push_back(us);
            a.pair_clearance.push_back(NAN);
            if (!ok) continue;
            ++a.successes;
            const PathMetrics metrics = measurePath(points, walls[l], metrics_options);
            a.ratios.push_back(length / oracle.length);
            if (a.ratios.back() > a.worst_ratio) {
                char where[200];
                std::snprintf(where, sizeof where,
                              "layer %u, (%.4f, %.4f) -> (%.4f, %.4f): %.4f m, shortest %.4f m", l, start.x,
                              start.y, goal.x, goal.y, length, oracle.length);
                a.worst_ratio = a.ratios.back();
                a.worst = where;
            }
            if (length < oracle.length * (1 - 1e-9)) {
                char where[200];
                std::snprintf(where, sizeof where, "layer %u, (%.4f, %.4f) -> (%.4f, %.4f): %.9f m < %.9f m",
                              l, start.x, start.y, goal.x, goal.y, length, oracle.length);
                log.log(LogLevel::Warn,
                        fp.source_name + ": " + kMethods[m] +
                            " is shorter than the visibility graph's exact shortest path at " + where);
            }
            a.min_clearance = std::min(a.min_clearance, metrics.min_clearance);
            a.mean_clearances.push_back(metrics.mean_clearance);
            a.pair_clearance.back() = metrics.mean_clearance;
            a.discontinuities += metrics.heading_discontinuities;
            if (m == 0 && metrics.heading_discontinuities > 0) {
                // findPath promises tangent-continuous paths: name the query that breaks it.
                char where[200];
                std::snprintf(where, sizeof where,
                              "layer %u, (%.4f, %.4f) -> (%.4f, %.4f): %zu, up to %.1f deg", l, start.x,
                              start.y, goal.x, goal.y, metrics.heading_discontinuities,
                              metrics.max_heading_jump_deg);
                log.log(LogLevel::Warn, fp.source_name + ": findPath's path turns sharply at " + where);
            }
            a.max_jump = std::max(a.max_jump, metrics.max_heading_jump_deg);
            a.max_curvature = std::max(a.max_curvature, metrics.max_curvature);
            if (record_svg) svg_query.paths[m] = std::move(points);
        }
    }
    // Each method's own mean covers only the pairs it solved: a planner failing the hard pairs
    // (the potential field's local minima) is averaged over easy ones. This mean compares all
    // methods on the same paths.
    std::vector<double> common_sum(kMethodCount, 0.0);
    for (uint32_t q = 0; q < out.pairs; ++q) {
        bool all = true;
        for (size_t m = 0; m < kMethodCount; ++m)
            all = all && !std::isnan(acc[m].pair_clearance[q]);
        if (!all) continue;
        ++out.pairs_common;
        for (size_t m = 0; m < kMethodCount; ++m)
            common_sum[m] += acc[m].pair_clearance[q];
    }
    for (size_t m = 0; m < kMethodCount; ++m) {
        MethodStats& s = out.methods[m];
        const Accumulator& a = acc[m];
        if (out.pairs_common) s.mean_clearance_common = common_sum[m] / double(out.pairs_common);
        if (a.worst_ratio > 0)
            log.log(LogLevel::Debug, fp.source_name + ": " + kMethods[m] +
                                         "'s longest path against the shortest (" +
                                         std::to_string(a.worst_ratio) + "x): " + a.worst);
        s.queries = out.pairs;
        s.successes = a.successes;
        s.local_minima = a.local_minima;
        s.success_rate = out.pairs ? double(a.successes) / out.pairs : 0;
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
            for (double c : a.mean_clearances)
                clearance_sum += c;
            s.length_ratio_mean = ratio_sum / double(a.ratios.size());
            s.mean_clearance = clearance_sum / double(a.mean_clearances.size());
            s.min_clearance = a.min_clearance;
        }
        s.heading_discontinuities = a.discontinuities;
        s.max_heading_jump_deg = a.max_jump;
        s.max_curvature = a.max_curvature;
    }
    if (out.pairs < wanted)
        log.log(LogLevel::Warn, fp.source_name + ": only " + std::to_string(out.pairs) + " of " +
                                    std::to_string(out.pairs_drawn) + (given ? " given" : " random") +
                                    " pairs are connected at radius " + num(radius));
    if (svg && have_svg) *svg = compareSvg(fp, svg_query, radius);
    *result = std::move(out);
    return {};
}

Error compareMethods(const CompareRequest& request, CompareResult* result, LogContext& log) {
    Footprint fp;
    const std::string& path = request.input_path;
    const bool is_footprint = path.size() >= 5 && path.compare(path.size() - 5, 5, ".cwfp") == 0;
    if (is_footprint) {
        if (Error e = readFootprintFile(path, &fp)) return e;
    } else {
        if (Error e = validate(request.import_options)) return e;
        Mesh mesh;
        if (Error e = loadMesh(path, request.import_options, &mesh, log)) return e;
        if (Error e = buildFootprint(mesh, request.import_options, &fp, log)) return e;
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

std::string compareJson(const CompareResult& r) {
    auto n = [](double v) {
        if (!std::isfinite(v)) return std::string("null");
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.6g", v);
        return std::string(buffer);
    };
    std::string json = "{\"level\": \"" + r.level + "\", \"radius\": " + n(r.radius) +
                       ", \"layers\": " + std::to_string(r.layers) +
                       ", \"pairs\": " + std::to_string(r.pairs) +
                       ", \"pairs_drawn\": " + std::to_string(r.pairs_drawn) +
                       ", \"pairs_common\": " + std::to_string(r.pairs_common) + ", \"methods\": [";
    for (size_t m = 0; m < r.methods.size(); ++m) {
        const MethodStats& s = r.methods[m];
        json += std::string(m ? ", " : "") + "{\"name\": \"" + s.name +
                "\", \"build_seconds\": " + n(s.build_seconds) + ", \"bytes\": " + std::to_string(s.bytes) +
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
                ", \"local_minima\": " + std::to_string(s.local_minima) + "}";
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

} // namespace clearway::bake
