#include "suite.h"

#include "scenes.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

namespace clearway::drive {

namespace {

// Planned multi-point turn (Pinter, "Toward More Realistic Pathfinding", 2001: "Backing up"): a Directional
// A* route with reverse moves from the start pose to the goal, as a polyline with one gear per segment. Tries
// a margin first (turning radius x 1.1, vehicle radius + 0.3 m) so the follower has room for tracking error,
// then less. False when no route exists at any margin.
bool planGearTurns(const Level& level, uint32_t layer, const VehicleSpec& v, const Pose2d& start, Vec2f goal,
                   Track* out, uint32_t* gear_changes) {
    const double turning_radius = v.wheelbase / std::tan(v.max_steer);
    const double margins[][2] = {{1.1, 0.3}, {1.05, 0.15}, {1.0, 0.0}};
    std::vector<PathPiece> pieces(4096);
    for (const auto& m : margins) {
        DirectionalAStarSettings s = directionalAStarDefaults();
        s.turning_radius = turning_radius * m[0];
        s.vehicle_radius = v.radius + m[1];
        s.allow_reverse = true;
        s.max_expansions = 2000000;
        DirectionalGrid grid;
        size_t bytes = 0;
        if (directionalGridForLayer(level.footprint, layer, s.cell_size, &grid) != Status::Ok ||
            directionalAStarWorkspaceSize(s, grid, &bytes) != Status::Ok)
            return false;
        std::vector<uint64_t> memory((bytes + 7) / 8);
        DirectionalAStar* search = nullptr;
        if (directionalAStarInit(s, grid, level.footprint, layer, memory.data(), bytes, &search) !=
            Status::Ok)
            return false;
        DirectionalAStarResult result{};
        const Status st = directionalAStarFindPath(search, {start, goal.x, goal.y, 0.0, false}, pieces.data(),
                                                   uint32_t(pieces.size()), &result);
        if (st != Status::Ok) continue;
        // Each piece sampled every <= 0.25 m, its end included, so every cusp is a polyline vertex.
        Track t;
        t.points.push_back(Vec2f{float(pieces[0].start.x), float(pieces[0].start.y)});
        for (uint32_t i = 0; i < result.piece_count; ++i) {
            const PathPiece& p = pieces[i];
            const int n = std::max(1, int(std::ceil(p.length / 0.25)));
            for (int k = 1; k <= n; ++k) {
                PathSample q;
                pathSampleAtDistance(&p, 1, p.length * k / n, &q);
                const Vec2f v2{float(q.x), float(q.y)};
                if (std::hypot(v2.x - t.points.back().x, v2.y - t.points.back().y) <= 1e-3) continue;
                t.points.push_back(v2);
                t.gears.push_back(int8_t(p.direction < 0 ? -1 : 1));
            }
        }
        if (t.points.size() < 2) continue;
        t.layers.assign(t.points.size(), layer);
        finishTrack(level.walls, v.radius, &t);
        *out = std::move(t);
        *gear_changes = result.gear_changes;
        return true;
    }
    return false;
}

// A generated box level (samples/scenes: randomBoxesFootprint) scaled up 4x, so that its gaps
// (>= 0.2 m, 3 m box cells) become >= 0.8 m in 12 m cells and vehicles fit between the boxes. Spec
// "boxes:<count>:<seed>"; false when `spec` is not of that form.
bool generatedBoxes(const std::string& spec, bake::Footprint* out) {
    unsigned long count = 0, seed = 0;
    char tail = 0;
    if (std::sscanf(spec.c_str(), "boxes:%lu:%lu%c", &count, &seed, &tail) != 2 || count == 0) return false;
    bake::Footprint fp = scenes::randomBoxesFootprint(4 * count + 4, seed);
    scenes::scaleFootprint(&fp, 4.0); // a power of two: vertices stay on the import grid
    *out = std::move(fp);
    return true;
}

// Bakes the level (or builds the generated one) and loads the asset as a game would.
bake::Error loadLevel(const std::string& path, Level* L, cli::SpdlogContext& log) {
    L->name = std::filesystem::path(path).stem().string();
    bake::RoadmapResult result;
    bake::Footprint generated;
    if (generatedBoxes(path, &generated)) {
        L->name = "boxes-" + path.substr(6);
        std::replace(L->name.begin(), L->name.end(), ':', '-');
        bake::Footprint stored; // continue from what an asset stores, as bakeLevel does
        if (bake::Error e = bake::readFootprintBytes(bake::serializeFootprint(generated), path, &stored)) return e;
        if (bake::Error e = bake::buildRoadmap(stored, {}, &result.roadmap, &result.stats, log)) return e;
    } else {
        bake::RoadmapRequest request;
        request.input_path = path;
        if (bake::Error error = bake::bakeLevel(request, &result, log)) return error;
    }
    const std::vector<uint8_t> bytes = bake::serializeRoadmap(result.roadmap);
    L->bytes.assign((bytes.size() + 7) / 8, 0);
    std::memcpy(L->bytes.data(), bytes.data(), bytes.size());
    size_t scratch_bytes = 0;
    if (loadRoadmap(L->bytes.data(), bytes.size(), &L->view) != Status::Ok ||
        pathScratchSize(L->view, &scratch_bytes) != Status::Ok)
        return {bake::ErrorCode::Internal, path + ": the baked roadmap does not load"};
    L->scratch_memory.resize(scratch_bytes);
    if (pathScratchInit(L->view, L->scratch_memory.data(), scratch_bytes, &L->scratch) != Status::Ok ||
        roadmapFootprint(L->view, &L->footprint) != Status::Ok)
        return {bake::ErrorCode::Internal, path + ": the baked roadmap has no path scratch or footprint"};
    for (uint32_t layer = 0; layer < result.roadmap.footprint.layers.size(); ++layer) {
        L->walls.emplace_back();
        L->walls.back().build(bake::solidLayerWalls(result.roadmap.footprint, layer));
    }
    return {};
}

// Each vehicle's tracks from `a` to `b` (findPath at its radius) into `route`. Single-layer routes
// (`cross_layer` false) keep to a's layer without a portal, for every vehicle; cross-layer routes change
// layer (along a portal segment, or where two segments of different layers meet), for the vehicles
// that fit (the others: no_route). False when the route is not of the kind
// asked for or a vehicle that must have one has none.
bool routeTracks(const Level& L, const RoadmapVertexInfo& a, const RoadmapVertexInfo& b, bool cross_layer,
                 std::vector<PathSegment>& segs, Route* route) {
    bool ok = true, crossed = false;
    for (size_t vi = 0; vi < kVehicleCount && ok; ++vi) {
        uint32_t count = 0;
        ok = findPath(L.view, L.scratch, {a.position.x, a.position.y, a.layer}, {b.position.x, b.position.y, b.layer},
                      kVehicles[vi].radius, INFINITY, segs.data(), &count, uint32_t(segs.size())) == Status::Ok;
        if (!ok && cross_layer) {
            ok = route->no_route[vi] = true;
            continue;
        }
        for (uint32_t k = 0; ok && k < count; ++k) {
            crossed = crossed || segs[k].portal || segs[k].layer != segs[0].layer;
            ok = cross_layer || (!segs[k].portal && segs[k].layer == a.layer);
        }
        if (!ok) break;
        tracksFromSegments(segs.data(), count, b.layer, &route->smooth[vi], &route->raw[vi]);
        ok = route->smooth[vi].points.size() >= 2 && route->raw[vi].points.size() >= 2;
        if (!ok) break;
        finishTrack(L.walls, kVehicles[vi].radius, &route->smooth[vi]);
        finishTrack(L.walls, kVehicles[vi].radius, &route->raw[vi]);
    }
    return ok && crossed == cross_layer;
}

// Length of the longest vehicle track of the route (0 when no vehicle has one).
double routeLength(const Route& route) {
    double length = 0;
    for (size_t vi = 0; vi < kVehicleCount; ++vi)
        if (!route.no_route[vi]) length = std::max(length, route.smooth[vi].cumulative.back());
    return length;
}

// The route's group, and which vehicles can climb it (all of them without `slopes`: planar vehicles).
void classifyRoute(const Level& L, bool slopes, Route* route) {
    bool sloped = false;
    for (size_t vi = 0; vi < kVehicleCount; ++vi) {
        if (route->no_route[vi]) continue;
        const std::vector<double> heights = trackHeights(route->smooth[vi], L.footprint);
        double low = INFINITY, high = -INFINITY;
        for (double h : heights)
            if (std::isfinite(h)) low = std::min(low, h), high = std::max(high, h);
        sloped = sloped || high - low >= kFlatHeight;
        route->unclimbable[vi] = slopes && steepestClimb(route->smooth[vi], heights, kVehicles[vi].wheelbase) >
                                               climbableSine(kVehicles[vi]);
    }
    route->group = route->group == kCrossLayerRoutes ? kCrossLayerRoutes : sloped ? kSlopeRoutes : kFlatRoutes;
}

// Up to `count` routes between random roadmap vertices of level `li`, one track per vehicle each; the
// draws continue `rng` from the previous level. Single-layer routes join two vertices of one layer;
// cross-layer routes (drawn only on levels with more than one layer) any two whose route crosses a portal.
void findRoutes(const DriveOptions& options, const std::vector<Level>& levels, size_t li, bool cross_layer,
                uint32_t count, std::mt19937_64& rng, std::vector<Route>* routes, cli::SpdlogContext& log) {
    const Level& L = levels[li];
    if (cross_layer && L.walls.size() < 2) return;
    double max_radius = 0;
    for (const auto& v : kVehicles)
        max_radius = std::max(max_radius, v.radius);
    std::vector<PathSegment> segs(4096);
    // Walkable start/goal candidates: roadmap vertices with room for the widest vehicle.
    RoadmapInfo info;
    roadmapInfo(L.view, &info);
    std::vector<RoadmapVertexInfo> candidates;
    for (uint32_t i = 0; i < info.vertex_count; ++i) {
        RoadmapVertexInfo vi;
        if (roadmapVertex(L.view, i, &vi) == Status::Ok && vi.clearance >= max_radius + 0.1)
            candidates.push_back(vi);
    }
    uint32_t found = 0;
    for (int attempt = 0; attempt < 400 && found < count && candidates.size() >= 2; ++attempt) {
        const auto& a = candidates[rng() % candidates.size()];
        const auto& b = candidates[rng() % candidates.size()];
        if ((!cross_layer && a.layer != b.layer) ||
            std::hypot(a.position.x - b.position.x, a.position.y - b.position.y) < 8.0)
            continue;
        Route route;
        route.level = li;
        route.layer = a.layer;
        if (!routeTracks(L, a, b, cross_layer, segs, &route)) continue;
        route.length = routeLength(route);
        if (route.length < 10.0) continue;
        route.group = cross_layer ? kCrossLayerRoutes : kFlatRoutes;
        classifyRoute(L, options.slopes, &route);
        routes->push_back(std::move(route));
        ++found;
    }
    log.logger().info("{}: {} {}routes", L.name, found, cross_layer ? "cross-layer " : "");
}

// Appends one --trials line.
void listTrial(const std::string& level, TableI* table, size_t ri, size_t vi, const char* controller,
               const Trial& t) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "seed %-4llu %-16s route %2zu %-10s %-14s %s stuck %u teleports %u backoffs %u time %.2f",
                  (unsigned long long)table->seed, level.c_str(), ri, kVehicles[vi].name, controller,
                  t.arrived ? "arrived" : "LIMIT  ", t.stuck, t.teleports, t.backoffs, t.time);
    std::string s = line;
    if (t.first_stuck_time >= 0) {
        std::snprintf(line, sizeof line, " first stuck %.2f s at (%.1f, %.1f)", t.first_stuck_time,
                      t.first_stuck_at.x, t.first_stuck_at.y);
        s += line;
    }
    table->trial_lines.push_back(s);
}

// Every controller's trials of vehicle `vi` on route `ri`, added to Table I's columns.
void driveRoute(const DriveOptions& options, const std::vector<Level>& levels, size_t ri, size_t vi,
                TableI* table) {
    const Route& r = table->routes[ri];
    const Level& level = levels[r.level];
    if (r.no_route[vi] || r.unclimbable[vi]) {
        ++(r.no_route[vi] ? table->no_route : table->unclimbable)[r.group];
        return;
    }
    const WallGrid& walls = level.walls[r.layer];
    Ground ground;
    ground.walls = &level.walls;
    ground.surfaces = options.slopes ? &level.footprint : nullptr;
    const FollowerSettings baseline = followerBaselineDefaults();
    // The clearway follower knows the vehicle's steering geometry (as pure pursuit needs the
    // wheelbase), hence its turning radius; the baseline is the paper's and knows neither.
    FollowerSettings clearway = followerDefaults();
    clearway.turning_radius = kVehicles[vi].wheelbase / std::tan(kVehicles[vi].max_steer);
    // Paper column 3 ("vehicle-tuned"): a_lat from the vehicle's traction. The Bezier estimate through
    // 6 m chords is about half the arc's curvature, so a_lat = traction / 2 is the true lateral limit.
    FollowerSettings tuned = clearway;
    tuned.target_speed.lateral_accel = 0.5 * kVehicles[vi].traction;
    tuned.initial_lateral_accel = 0.0; // it knows the grip: no cautious start
    SimOptions sim_b = options.sim, sim_c = options.sim;
    sim_b.trace = options.trace == "baseline";
    sim_c.trace = options.trace == "clearway";
    const Track& route = r.smooth[vi];
    const Pose2d start{
        route.points[0].x, route.points[0].y,
        std::atan2(route.points[1].y - route.points[0].y, route.points[1].x - route.points[0].x)};
    // The clearway columns drive a planned multi-point turn where the route bends tighter than
    // the vehicle can turn; so does the baseline with --baseline-gear-turns on (the same route
    // planning for both: the follower drives the gears, whatever its settings).
    const Track* smooth = &route;
    const Track* raw_track = &r.raw[vi];
    Track planned;
    uint32_t planned_changes = 0;
    // Directional A* plans on one layer: cross-layer routes are driven as findPath gives them.
    if (options.gear_turns != "off" && r.group != kCrossLayerRoutes && route.min_radius < clearway.turning_radius &&
        planGearTurns(level, r.layer, kVehicles[vi], start, route.points.back(), &planned, &planned_changes) &&
        (options.gear_turns == "tight" || planned_changes > 0)) {
        smooth = raw_track = &planned;
        ++table->planned_routes;
        // Drivable by construction: the 0.75-radius look-ahead floor (for routes tighter than the
        // vehicle) would cut the planned turns' insides by ~0.6 m; 0.5 follows them.
        clearway.turning_lookahead = tuned.turning_lookahead = kPlannedTurningLookahead;
    }
    const bool gears = smooth == &planned, baseline_gears = gears && options.baseline_gear_turns;
    const Trial b = drive(kVehicles[vi], start, baseline_gears ? planned : route, ground, baseline, sim_b);
    const Trial c = drive(kVehicles[vi], start, *smooth, ground, clearway, sim_c);
    if (options.list_trials) {
        listTrial(level.name, table, ri, vi, baseline_gears ? "baseline+gears" : "baseline", b);
        listTrial(level.name, table, ri, vi, gears ? "clearway+gears" : "clearway", c);
    }
    table->cols[0].add(vi, b);
    table->cols[1].add(vi, c);
    table->groups[r.group][0].add(vi, b);
    table->groups[r.group][1].add(vi, c);
    table->cols[2].add(vi, drive(kVehicles[vi], start, *smooth, ground, tuned, options.sim));
    if (options.raw) {
        // The raw polyline's first segment may leave at another angle than the route's arc.
        const Track& rt = r.raw[vi];
        const Pose2d raw_start{rt.points[0].x, rt.points[0].y,
                               std::atan2(rt.points[1].y - rt.points[0].y, rt.points[1].x - rt.points[0].x)};
        table->cols[3].add(vi, baseline_gears ? drive(kVehicles[vi], start, planned, ground, baseline, options.sim)
                                              : drive(kVehicles[vi], raw_start, rt, ground, baseline, options.sim));
        table->cols[4].add(vi, drive(kVehicles[vi], raw_track == &planned ? start : raw_start, *raw_track,
                                     ground, clearway, options.sim));
    }
    if (!options.svg_dir.empty()) {
        const std::string seed = options.seeds.size() > 1 ? "s" + std::to_string(table->seed) + "_" : "";
        writeSvg(options.svg_dir + "/" + seed + level.name + "_route" + std::to_string(ri) + "_" +
                     kVehicles[vi].name + ".svg",
                 walls, r.smooth[vi], gears ? &planned : nullptr, b, c);
    }
}

} // namespace

void Column::merge(const Column& o) {
    trials += o.trials;
    stuck_trials += o.stuck_trials;
    stuck += o.stuck;
    teleports += o.teleports;
    backoffs += o.backoffs;
    arrived += o.arrived;
    clean_arrivals += o.clean_arrivals;
    gear_changes += o.gear_changes;
    for (size_t vi = 0; vi < kVehicleCount; ++vi)
        stuck_by_vehicle[vi] += o.stuck_by_vehicle[vi];
    cte_sum += o.cte_sum;
    time_sum += o.time_sum;
    speed_sum += o.speed_sum;
    steps += o.steps;
    inside += o.inside;
}

bake::Error runSuite(const DriveOptions& options, Suite* suite, cli::SpdlogContext& log) {
    suite->levels.resize(options.levels.size());
    for (size_t li = 0; li < options.levels.size(); ++li)
        if (bake::Error e = loadLevel(options.levels[li], &suite->levels[li], log)) return e;
    if (!options.svg_dir.empty()) std::filesystem::create_directories(options.svg_dir);
    for (uint64_t seed : options.seeds) {
        TableI& table = suite->tables.emplace_back();
        table.seed = seed;
        std::mt19937_64 rng(seed);
        for (size_t li = 0; li < suite->levels.size(); ++li)
            findRoutes(options, suite->levels, li, false, options.routes_per_level, rng, &table.routes, log);
        // Cross-layer routes draw from their own generator: the single-layer routes stay as they were.
        std::mt19937_64 cross_rng(seed ^ 0x9e3779b97f4a7c15ull);
        for (size_t li = 0; li < suite->levels.size() && options.cross_layer_routes > 0; ++li)
            findRoutes(options, suite->levels, li, true, options.cross_layer_routes, cross_rng, &table.routes, log);
        if (table.routes.empty())
            return {bake::ErrorCode::Internal, "seed " + std::to_string(seed) + ": no route found on any level"};
        for (size_t ri = 0; ri < table.routes.size(); ++ri) {
            if (options.only_route >= 0 && size_t(options.only_route) != ri) continue;
            for (size_t vi = 0; vi < kVehicleCount; ++vi)
                if (options.only_vehicle.empty() || options.only_vehicle == kVehicles[vi].name)
                    driveRoute(options, suite->levels, ri, vi, &table);
        }
        for (size_t ci = 0; ci < 5; ++ci)
            suite->pooled.cols[ci].merge(table.cols[ci]);
        for (const Route& r : table.routes)
            ++table.group_routes[r.group];
        for (size_t gi = 0; gi < kRouteGroupCount; ++gi) {
            suite->pooled.groups[gi][0].merge(table.groups[gi][0]);
            suite->pooled.groups[gi][1].merge(table.groups[gi][1]);
            suite->pooled.group_routes[gi] += table.group_routes[gi];
            suite->pooled.no_route[gi] += table.no_route[gi];
            suite->pooled.unclimbable[gi] += table.unclimbable[gi];
        }
        suite->pooled.planned_routes += table.planned_routes;
        suite->pooled.trial_lines.insert(suite->pooled.trial_lines.end(), table.trial_lines.begin(),
                                         table.trial_lines.end());
    }
    return {};
}

} // namespace clearway::drive

namespace clearway::drive {

bool parseSeeds(const std::string& text, uint64_t first, std::vector<uint64_t>* seeds) {
    seeds->clear();
    unsigned long long a = 0, b = 0;
    int used = 0;
    if (std::sscanf(text.c_str(), "%llu-%llu%n", &a, &b, &used) == 2 && size_t(used) == text.size()) {
        if (b < a || b - a >= 100000) return false;
        for (unsigned long long s = a; s <= b; ++s)
            seeds->push_back(s);
        return true;
    }
    if (text.find(',') != std::string::npos) {
        size_t begin = 0;
        while (begin <= text.size()) {
            const size_t end = std::min(text.find(',', begin), text.size());
            char* stop = nullptr;
            const std::string item = text.substr(begin, end - begin);
            const unsigned long long s = std::strtoull(item.c_str(), &stop, 10);
            if (item.empty() || *stop != 0) return false;
            seeds->push_back(s);
            begin = end + 1;
        }
        return true;
    }
    if (std::sscanf(text.c_str(), "%llu%n", &a, &used) != 1 || size_t(used) != text.size() || a == 0 ||
        a > 100000)
        return false;
    for (unsigned long long i = 0; i < a; ++i)
        seeds->push_back(first + i);
    return true;
}

} // namespace clearway::drive
