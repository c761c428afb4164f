// cw-query: one findPath query on a roadmap asset, through the runtime's public API only (what a
// game does), reported in the mesh's own coordinates as JSON, text and an SVG preview.
#include <clearway/preview.h>
#include <clearway/preview/json_writer.h>
#include <clearway/preview/svg_writer.h>
#include <clearway/runtime.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <sstream>
#include <sys/stat.h>

namespace clearway::bake {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string num(double v) {
    return preview::jsonNumber(v);
}

std::string fixed(double v, int digits = 3) {
    return preview::fixedDecimals(v, digits);
}

std::string point3(const Vec3& p) {
    return preview::jsonTriple(p.x, p.y, p.z);
}

std::string tuple(const Vec3& p) {
    return "(" + fixed(p.x) + ", " + fixed(p.y) + ", " + fixed(p.z) + ")";
}

Vec3 toWorld(const FootprintInfo& info, double x, double y, double z) {
    const Vec3d w = footprintLocalToWorld(info, Vec3d{x, y, z});
    return {w.x, w.y, w.z};
}

// An option value as the user typed it, near enough ("nan", "-1").
std::string shown(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

Error invalid(const std::string& message) {
    return {ErrorCode::InvalidOption, message};
}

// The query's SVG, in local ground-plane coordinates (y flipped, as the bake's other previews):
// every layer's walls (the path's layers darker), the roadmap faint, the path with true arcs, and
// start / goal as discs of the agent radius.
std::string querySvg(const RoadmapView& view, const FootprintView& footprint, const PathSegment* segments,
                     uint32_t count, PathEndpoint start, PathEndpoint goal, double radius) {
    FootprintInfo info{};
    footprintInfo(footprint, &info);
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
    for (uint32_t l = 0; l < info.layer_count; ++l) {
        FootprintLayerInfo layer{};
        if (footprintLayer(footprint, l, &layer) != Status::Ok) continue;
        for (uint32_t r = 0; r < layer.ring_count; ++r) {
            const Vec2f* ring = nullptr;
            uint32_t n = 0;
            if (footprintRing(footprint, l, r, &ring, &n) != Status::Ok) continue;
            for (uint32_t i = 0; i < n; ++i) {
                lo_x = std::min(lo_x, double(ring[i].x)), hi_x = std::max(hi_x, double(ring[i].x));
                lo_y = std::min(lo_y, double(ring[i].y)), hi_y = std::max(hi_y, double(ring[i].y));
            }
        }
    }
    if (!std::isfinite(lo_x)) lo_x = lo_y = 0, hi_x = hi_y = 1;
    const double margin = 0.02 * std::max(hi_x - lo_x, hi_y - lo_y) + 0.5;
    lo_x -= margin, lo_y -= margin, hi_x += margin, hi_y += margin;
    const double w = hi_x - lo_x, h = hi_y - lo_y, stroke = 1.2 / (1200.0 / std::max(w, h));
    preview::SvgWriter svg(preview::NumberFormat{preview::NumberFormat::Significant, 6}, true);
    svg.openGroundPlane(lo_x, lo_y, hi_x, hi_y, 1200.0 / std::max(w, h));
    svg.background("#f4f4f4");
    std::vector<bool> on_path(info.layer_count, false);
    for (uint32_t i = 0; i < count; ++i)
        if (segments[i].layer < info.layer_count) on_path[segments[i].layer] = true;
    for (PathEndpoint e : {start, goal})
        if (e.layer < info.layer_count) on_path[e.layer] = true;
    // Other layers first, so the path's own walls are drawn on top.
    for (int pass = 0; pass < 2; ++pass)
        for (uint32_t l = 0; l < info.layer_count; ++l) {
            if (on_path[l] != (pass == 1)) continue;
            FootprintLayerInfo layer{};
            if (footprintLayer(footprint, l, &layer) != Status::Ok) continue;
            svg.group({{"id", "layer-" + std::to_string(l)},
                       {"fill", pass ? "#ffffff" : "none"},
                       {"fill-opacity", "0.8"},
                       {"fill-rule", "evenodd"},
                       {"stroke", pass ? "#303030" : "#c0c0c0"},
                       {"stroke-width", (pass ? 2 : 1) * stroke}});
            for (uint32_t p = 0; p < layer.polygon_count; ++p) {
                uint32_t first = 0, rings = 0;
                if (footprintPolygon(footprint, l, p, &first, &rings) != Status::Ok) continue;
                preview::SvgPath d = svg.pathData();
                for (uint32_t r = first; r < first + rings; ++r) {
                    const Vec2f* ring = nullptr;
                    uint32_t k = 0;
                    if (footprintRing(footprint, l, r, &ring, &k) != Status::Ok) continue;
                    d.points(ring, k, true);
                }
                svg.path(d);
            }
            svg.end();
        }
    RoadmapInfo rm{};
    roadmapInfo(view, &rm);
    svg.group({{"id", "roadmap"}, {"fill", "none"}, {"stroke", "#9fb8d8"}, {"stroke-width", stroke}});
    for (uint32_t e = 0; e < rm.edge_count; ++e) {
        RoadmapEdgeInfo edge{};
        if (roadmapEdge(view, e, &edge) != Status::Ok) continue;
        svg.path(svg.pathData().points(edge.points, edge.point_count, false));
    }
    svg.end();
    if (count) {
        // One path element; arcs as SVG arcs.
        preview::SvgPath d = svg.pathData();
        d.moveTo(segments[0].start.x, segments[0].start.y);
        for (uint32_t i = 0; i < count; ++i) {
            const PathSegment& s = segments[i];
            if (s.type == PathSegmentType::Arc)
                d.arcTo(s.radius, std::abs(s.sweep) > kPi, s.sweep > 0, s.end.x, s.end.y);
            else
                d.lineTo(s.end.x, s.end.y);
        }
        svg.path(d, {{"id", "path"},
                     {"fill", "none"},
                     {"stroke", "#1f5fff"},
                     {"stroke-linejoin", "round"},
                     {"stroke-width", 3 * stroke}});
    }
    const PathEndpoint ends[2] = {start, goal};
    const char *const names[2] = {"start", "goal"}, *const colours[2] = {"#20a040", "#d03030"};
    for (int k = 0; k < 2; ++k)
        svg.element("circle", {{"id", names[k]},
                               {"cx", ends[k].x},
                               {"cy", svg.y(ends[k].y)},
                               {"r", radius},
                               {"fill", colours[k]},
                               {"fill-opacity", "0.5"}});
    return svg.finish();
}

// Sampling limits: a step below a millimetre means nothing on a walkable surface, and more than a
// million samples (tens of megabytes of JSON) is no preview anyone reads; without them a tiny
// --step exhausts memory.
constexpr double kMinStep = 1e-3;
constexpr uint32_t kMaxSamples = 1000000;

Error validateRequest(const QueryRequest& request) {
    const double radius = request.radius;
    if (!std::isfinite(radius) || !(radius > 0))
        return invalid("--radius must be a finite number > 0 metres (got " + shown(radius) + ")");
    if (std::isnan(request.preferred_clearance))
        return invalid("--clearance must be >= 0 metres or inf (got NaN)");
    if (!std::isfinite(request.step) || !(request.step >= kMinStep))
        return invalid("--step must be a finite number >= " + shown(kMinStep) + " m (1 mm) (got " +
                       shown(request.step) + ")");
    if (!std::isfinite(request.step_up) || !(request.step_up >= 0))
        return invalid("--step-up must be a finite number >= 0 metres (got " + shown(request.step_up) + ")");
    return {};
}

// The request's query filter; *used: any option was given (else findPath runs without one).
Error parseFilter(const QueryRequest& request, QueryFilter* filter, bool* used) {
    *filter = defaultQueryFilter();
    *used = !request.include_flags.empty() || !request.exclude_flags.empty() || !request.area_costs.empty();
    auto flags = [](const std::string& text, const char* option, uint16_t* out) -> Error {
        if (text.empty()) return {};
        char* end = nullptr;
        errno = 0;
        const unsigned long v = std::strtoul(text.c_str(), &end, 0);
        if (text[0] == '-' || *end != '\0' || errno != 0 || v > 0xffff)
            return invalid(std::string(option) + " '" + text +
                           "': expected flags 0 .. 65535 (decimal or 0x hex)");
        *out = uint16_t(v);
        return {};
    };
    if (Error e = flags(request.include_flags, "--include-flags", &filter->include_flags)) return e;
    if (Error e = flags(request.exclude_flags, "--exclude-flags", &filter->exclude_flags)) return e;
    for (const std::string& cost : request.area_costs) {
        const size_t eq = cost.find('=');
        char* end = nullptr;
        const unsigned long type =
            eq == std::string::npos ? kAreaTypeCount : std::strtoul(cost.c_str(), &end, 10);
        if (eq == 0 || eq == std::string::npos || end != cost.c_str() + eq || type >= kAreaTypeCount)
            return invalid("--area-cost '" + cost + "': expected TYPE=MULTIPLIER with TYPE 0 .. " +
                           std::to_string(kAreaTypeCount - 1));
        const double multiplier = std::strtod(cost.c_str() + eq + 1, &end);
        if (eq + 1 == cost.size() || *end != '\0' || !std::isfinite(multiplier) || !(multiplier > 0) ||
            !std::isfinite(float(multiplier)) || !(float(multiplier) > 0))
            return invalid("--area-cost '" + cost + "': the multiplier must be a finite number > 0");
        filter->area_cost[type] = float(multiplier);
    }
    return {};
}

// Samples along `length` every `step`, counted in double before anything is sized from it.
Error checkSampleCount(double length, double step) {
    const double samples = length / step;
    if (samples <= double(kMaxSamples)) return {};
    // The smallest step within the limit, rounded up to two significant digits.
    const double least = length / double(kMaxSamples);
    const double unit = std::pow(10.0, std::floor(std::log10(least)) - 1);
    double suggested = std::ceil(least / unit * (1 - 1e-12)) * unit;
    if (length / suggested > double(kMaxSamples)) suggested += unit;
    char count[40];
    std::snprintf(count, sizeof count, "%.0f", samples);
    return invalid("--step " + shown(step) + " m gives " + count + " samples over " + shown(length) +
                   " m; the limit is " + std::to_string(kMaxSamples) + " (use --step >= " +
                   shown(std::max(kMinStep, suggested)) + ")");
}

// The asset through the runtime's verifying loader, and one path scratch for it.
struct LoadedRoadmap {
    RoadmapView view;
    FootprintView footprint;
    FootprintInfo info{};
    std::vector<uint8_t> scratch_memory;
    PathScratch* scratch = nullptr;
};

Error loadForQuery(const void* data, size_t size, const std::string& name, LoadedRoadmap* out) {
    if (const Status s = loadRoadmap(data, size, &out->view); s != Status::Ok)
        return {ErrorCode::ReadFailed, name + ": not a valid roadmap asset: " + statusString(s)};
    if (roadmapFootprint(out->view, &out->footprint) != Status::Ok ||
        footprintInfo(out->footprint, &out->info) != Status::Ok)
        return {ErrorCode::ReadFailed, name + ": not a valid roadmap asset: no footprint"};
    size_t scratch_bytes = 0;
    pathScratchSize(out->view, &scratch_bytes);
    out->scratch_memory.resize(scratch_bytes);
    if (const Status s = pathScratchInit(out->view, out->scratch_memory.data(), scratch_bytes, &out->scratch);
        s != Status::Ok)
        return {ErrorCode::ReadFailed, name + ": cannot build the path scratch: " + statusString(s)};
    return {};
}

// Which layer each point stands on (the floor under it), in local coordinates.
Error locateEnds(const LoadedRoadmap& rm, const std::string& name, const QueryRequest& request,
                 PathEndpoint ends[2]) {
    const Vec3* world[2] = {&request.from, &request.to};
    const char* what[2] = {"--from", "--to"};
    for (int i = 0; i < 2; ++i) {
        const Vec3d local = footprintWorldToLocal(rm.info, Vec3d{world[i]->x, world[i]->y, world[i]->z});
        const Status s = locatePoint(rm.view, rm.scratch, local, request.step_up, &ends[i]);
        if (s == Status::NotFound)
            return invalid(name + ": " + what[i] + " " + num(world[i]->x) + "," + num(world[i]->y) + "," +
                           num(world[i]->z) + " is not on the walkable area (no layer of the level contains it)");
        if (s != Status::Ok) return invalid(name + ": " + what[i] + ": " + statusString(s));
    }
    return {};
}

// findPath does not say which part failed; the walls at both ends usually do.
std::string noPathReason(const LoadedRoadmap& rm, const PathEndpoint ends[2], double radius) {
    for (int i = 0; i < 2; ++i) {
        double d = 0;
        wallDistance(rm.view, rm.scratch, ends[i].layer, ends[i].x, ends[i].y, &d, nullptr);
        if (d < radius)
            return std::string(i ? "goal" : "start") + " is " + fixed(d) + " m from a wall, closer than the radius " +
                   fixed(radius);
    }
    return "no route at radius " + fixed(radius) +
           ": start and goal are not joined by corridors that wide (or one end sees no usable roadmap)";
}

// Samples every step (the exact end included), their clearance against their layer's walls.
Error samplePath(const LoadedRoadmap& rm, const std::string& name, const std::vector<PathSegment>& path,
                 PathEndpoint start, double step, QueryResult* r) {
    std::vector<PathPose> poses;
    uint32_t n = 0;
    if (path.empty()) { // start == goal
        PathPose p{};
        p.position = {start.x, start.y, 0};
        float z = 0;
        if (footprintHeightAt(rm.footprint, start.layer, float(start.x), float(start.y), 0.05f, &z) == Status::Ok)
            p.position.z = z;
        p.layer = start.layer;
        poses.assign(1, p);
        n = 1;
    } else {
        const uint32_t count = uint32_t(path.size());
        poses.resize(size_t(r->length / step) + 2); // checkSampleCount bounds it
        Status s = pathSample(rm.view, path.data(), count, step, poses.data(), &n, uint32_t(poses.size()));
        if (s == Status::BufferTooSmall) {
            poses.resize(n);
            s = pathSample(rm.view, path.data(), count, step, poses.data(), &n, uint32_t(poses.size()));
        }
        if (s != Status::Ok) return {ErrorCode::Internal, name + ": pathSample failed: " + statusString(s)};
    }
    r->min_clearance = INFINITY;
    r->points.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
        const PathPose& p = poses[i];
        double d = INFINITY;
        if (wallDistance(rm.view, rm.scratch, p.layer, p.position.x, p.position.y, &d, nullptr) == Status::Ok)
            r->min_clearance = std::min(r->min_clearance, d);
        r->points.push_back(toWorld(rm.info, p.position.x, p.position.y, p.position.z));
    }
    return {};
}

// Segments: exact ground-plane ends, heights from the surface at their arc lengths.
void worldSegments(const LoadedRoadmap& rm, const std::vector<PathSegment>& path, QueryResult* r) {
    const uint32_t count = uint32_t(path.size());
    double s0 = 0;
    for (const PathSegment& g : path) {
        PathPose a{}, b{};
        pathPoseAt(rm.view, path.data(), count, s0, &a);
        pathPoseAt(rm.view, path.data(), count, s0 + g.length, &b);
        s0 += g.length;
        QuerySegment q;
        q.arc = g.type == PathSegmentType::Arc;
        q.link = g.type == PathSegmentType::Link;
        q.link_index = g.link;
        q.portal = g.portal;
        q.layer = g.layer;
        q.start = toWorld(rm.info, g.start.x, g.start.y, a.position.z);
        q.end = toWorld(rm.info, g.end.x, g.end.y, b.position.z);
        if (q.arc) {
            q.center = toWorld(rm.info, g.center.x, g.center.y, a.position.z);
            q.radius = g.radius;
            q.sweep = g.sweep;
        }
        q.length = g.length;
        r->segments.push_back(q);
    }
}

Error runQuery(const void* data, size_t size, const std::string& name, const QueryRequest& request,
               QueryResult* result, std::string* svg) {
    if (Error e = validateRequest(request)) return e;
    QueryFilter filter;
    bool filtered = false;
    if (Error e = parseFilter(request, &filter, &filtered)) return e;
    const double radius = request.radius;
    const double preferred = request.preferred_clearance < 0 ? radius : request.preferred_clearance;
    LoadedRoadmap rm;
    if (Error e = loadForQuery(data, size, name, &rm)) return e;
    PathEndpoint ends[2];
    if (Error e = locateEnds(rm, name, request, ends)) return e;

    QueryResult r;
    r.from_layer = ends[0].layer;
    r.to_layer = ends[1].layer;
    r.radius = radius;
    r.preferred_clearance = preferred;
    r.step = request.step;
    std::vector<PathSegment> path(256);
    uint32_t count = 0;
    auto find = [&] {
        return filtered ? findPathFiltered(rm.view, rm.scratch, ends[0], ends[1], radius, preferred, filter,
                                           path.data(), &count, uint32_t(path.size()))
                        : findPath(rm.view, rm.scratch, ends[0], ends[1], radius, preferred, path.data(),
                                   &count, uint32_t(path.size()));
    };
    Status s = find();
    if (s == Status::BufferTooSmall) {
        path.resize(count);
        s = find();
    }
    if (s == Status::NotFound) {
        r.reason = noPathReason(rm, ends, radius);
        path.clear();
    } else if (s != Status::Ok) {
        return {ErrorCode::Internal, name + ": findPath failed: " + statusString(s)};
    } else {
        r.found = true;
        path.resize(count);
        r.length = pathTotalLength(path.data(), count);
        if (Error e = checkSampleCount(r.length, request.step)) return e;
        if (Error e = samplePath(rm, name, path, ends[0], request.step, &r)) return e;
        worldSegments(rm, path, &r);
    }
    if (svg)
        *svg = querySvg(rm.view, rm.footprint, path.data(), uint32_t(path.size()), ends[0], ends[1], radius);
    *result = std::move(r);
    return {};
}

Error outOfMemory(const std::string& name) {
    return {ErrorCode::Internal, name + ": out of memory answering the query"};
}

} // namespace

Error parseQueryPoint(const std::string& text, const std::string& option, Vec3* out) {
    double v[3];
    int count = 0;
    std::stringstream stream(text);
    std::string item;
    bool ok = !text.empty() && text.back() != ',';
    while (ok && std::getline(stream, item, ',')) {
        char* end = nullptr;
        const double x = std::strtod(item.c_str(), &end);
        ok = !item.empty() && end != item.c_str() && *end == '\0' && std::isfinite(x) && count < 3;
        if (ok) v[count++] = x;
    }
    if (!ok || count != 3) return invalid(option + " '" + text + "': expected x,y,z (three finite numbers)");
    *out = {v[0], v[1], v[2]};
    return {};
}

Error queryRoadmapBytes(const void* data, size_t size, const std::string& name, const QueryRequest& request,
                        QueryResult* result, std::string* svg) {
    try {
        return runQuery(data, size, name, request, result, svg);
    } catch (const std::bad_alloc&) {
        return outOfMemory(name);
    }
}

Error queryPath(const QueryRequest& request, QueryResult* result, LogContext& log) {
    const std::string& path = request.roadmap_path;
    try {
        struct stat info {};
        if (stat(path.c_str(), &info) != 0) return {ErrorCode::FileNotFound, path + ": no such file"};
        if (!S_ISREG(info.st_mode)) return {ErrorCode::ReadFailed, path + ": not a regular file"};
        std::ifstream stream(path, std::ios::binary);
        if (!stream) return {ErrorCode::ReadFailed, path + ": cannot open file for reading"};
        const std::vector<char> raw((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
        std::vector<uint64_t> bytes(raw.size() / 8 + 1); // 8-byte aligned: the loader reads doubles in place
        if (!raw.empty()) std::memcpy(bytes.data(), raw.data(), raw.size());
        std::string svg;
        if (Error e = queryRoadmapBytes(bytes.data(), raw.size(), path, request, result,
                                        request.svg_path.empty() ? nullptr : &svg))
            return e;
        log.log(LogLevel::Debug, path + ": " + (result->found ? "path found" : "no path: " + result->reason));
        if (!request.svg_path.empty())
            if (Error e = writeFileAtomic(request.svg_path, svg)) return e;
        return {};
    } catch (const std::bad_alloc&) {
        return outOfMemory(path);
    }
}

std::string queryJson(const QueryResult& r) {
    std::string j =
        std::string("{\"found\": ") + (r.found ? "true" : "false") + ", \"length\": " + num(r.length) +
        ", \"min_clearance\": " + (r.found ? num(r.min_clearance) : "null") +
        ", \"from_layer\": " + std::to_string(r.from_layer) + ", \"to_layer\": " + std::to_string(r.to_layer);
    if (!r.found) j += ", \"reason\": " + preview::jsonString(r.reason);
    j += ", \"segments\": [";
    for (size_t i = 0; i < r.segments.size(); ++i) {
        const QuerySegment& s = r.segments[i];
        j += std::string(i ? ", " : "") + "{\"type\": \"" +
             (s.arc    ? "arc"
              : s.link ? "link"
                       : "line") +
             "\", \"layer\": " + std::to_string(s.layer) + ", \"start\": " + point3(s.start) +
             ", \"end\": " + point3(s.end) + ", \"length\": " + num(s.length);
        if (s.arc)
            j += ", \"center\": " + point3(s.center) + ", \"radius\": " + num(s.radius) +
                 ", \"sweep\": " + num(s.sweep);
        if (s.portal) j += ", \"portal\": true";
        if (s.link) j += ", \"link\": " + std::to_string(s.link_index);
        j += "}";
    }
    j += "], \"points\": [";
    for (size_t i = 0; i < r.points.size(); ++i)
        j += (i ? ", " : "") + point3(r.points[i]);
    return j + "]}";
}

std::string queryText(const QueryResult& r, const std::string& level) {
    if (!r.found) return level + ": no path: " + r.reason + "\n";
    size_t arcs = 0;
    for (const QuerySegment& s : r.segments)
        arcs += s.arc;
    std::string t = level + ": path " + fixed(r.length) + " m, " + std::to_string(r.segments.size()) +
                    " segments (" + std::to_string(r.segments.size() - arcs) + " lines, " +
                    std::to_string(arcs) + " arcs), layer " + std::to_string(r.from_layer) + " -> " +
                    std::to_string(r.to_layer) + ", radius " + fixed(r.radius, 2) + ", min clearance " +
                    fixed(r.min_clearance) + " m over " + std::to_string(r.points.size()) +
                    " samples every " + fixed(r.step, 2) + " m\n";
    for (size_t i = 0; i < r.segments.size(); ++i) {
        const QuerySegment& s = r.segments[i];
        char head[32];
        std::snprintf(head, sizeof head, "%4zu %-4s ", i, s.arc ? "arc" : s.link ? "link" : "line");
        t += head + tuple(s.start) + " -> " + tuple(s.end) + "  " + fixed(s.length) + " m, layer " +
             std::to_string(s.layer);
        if (s.arc)
            t += ", centre " + tuple(s.center) + " radius " + fixed(s.radius) + " sweep " +
                 fixed(s.sweep * 180 / kPi, 1) + " deg";
        if (s.portal) t += ", portal";
        t += "\n";
    }
    return t;
}

} // namespace clearway::bake
