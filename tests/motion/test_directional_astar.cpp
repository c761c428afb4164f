// Directional A* (Pinter 2001) against plain 8-connected A* on the same clearance grid, on footprint
// assets built here: every returned move is re-validated against the exact walls.
#include <clearway/motion.h>
#include <clearway/schema/footprint_generated.h>

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <queue>
#include <string>
#include <vector>

using namespace clearway;
namespace fb = clearway::schema;

namespace {

constexpr double kPi = 3.14159265358979323846;

// A level drawn in 1 m blocks: everything is wall except the carved rectangles. The footprint is
// the map's rectangle with every horizontal run of wall blocks as a clockwise hole.
struct BlockMap {
    int width, height;
    std::vector<std::string> rows; // rows[y], y = 0 at the bottom; '#' wall, '.' free
    BlockMap(int w, int h) : width(w), height(h), rows(h, std::string(w, '#')) {}
    void carve(int x0, int y0, int x1, int y1) { // [x0, x1) x [y0, y1) metres
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x)
                rows[y][x] = '.';
    }
    std::vector<std::vector<Point2d>> rings() const {
        std::vector<std::vector<Point2d>> out;
        out.push_back({{0, 0}, {double(width), 0}, {double(width), double(height)}, {0, double(height)}});
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width;) {
                if (rows[y][x] != '#') {
                    ++x;
                    continue;
                }
                int end = x;
                while (end < width && rows[y][end] == '#')
                    ++end;
                out.push_back({{double(x), double(y)},
                               {double(x), double(y + 1)},
                               {double(end), double(y + 1)},
                               {double(end), double(y)}}); // clockwise
                x = end;
            }
        }
        return out;
    }
};

std::vector<uint8_t> buildFootprint(const std::vector<std::vector<Point2d>>& rings) {
    flatbuffers::FlatBufferBuilder b;
    std::vector<fb::Vec2> vertices;
    std::vector<fb::Ring> ring_records;
    for (const auto& ring : rings) {
        ring_records.emplace_back(uint32_t(vertices.size()), uint32_t(ring.size()));
        for (const Point2d& p : ring)
            vertices.emplace_back(float(p.x), float(p.y));
    }
    const std::vector<fb::Polygon> polygons = {fb::Polygon(0, uint32_t(rings.size()))};
    const std::vector<fb::Vec3> surface;
    const std::vector<fb::Triangle> triangles;
    auto layer = fb::CreateLayer(b, b.CreateVectorOfStructs(vertices), b.CreateVectorOfStructs(ring_records),
                                 b.CreateVectorOfStructs(polygons), b.CreateVectorOfStructs(surface),
                                 b.CreateVectorOfStructs(triangles), 0.0, 0.0f, 0.0f);
    auto layers = b.CreateVector(std::vector<flatbuffers::Offset<fb::Layer>>{layer});
    auto baker = b.CreateString("test");
    fb::FootprintBuilder fp(b);
    fp.add_format_version(kFootprintFormatVersion);
    fp.add_baker_version(baker);
    fp.add_grid_spacing(1.0 / 1024);
    fp.add_layers(layers);
    fb::FinishFootprintBuffer(b, fp.Finish());
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

// Exact check, independent of the grid: every 2 cm along the pieces the vehicle's centre is inside
// the walkable area and at least `radius` from every wall edge.
bool exactlyClear(const std::vector<std::vector<Point2d>>& rings, const PathPiece* pieces, uint32_t count,
                  double radius, double* min_clearance) {
    const double total = pathLength(pieces, count);
    *min_clearance = INFINITY;
    for (double s = 0; s <= total + 1e-9; s += 0.02) {
        PathSample p{};
        REQUIRE(pathSampleAtDistance(pieces, count, std::fmin(s, total), &p) == Status::Ok);
        bool inside = false;
        double nearest = INFINITY;
        for (const auto& ring : rings) {
            for (size_t i = 0; i < ring.size(); ++i) {
                const Point2d a = ring[i], b = ring[(i + 1) % ring.size()];
                if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y))
                    inside = !inside;
                const double dx = b.x - a.x, dy = b.y - a.y;
                const double t = std::fmax(
                    0.0, std::fmin(1.0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)));
                nearest = std::fmin(nearest, std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy));
            }
        }
        if (!inside) nearest = -nearest;
        *min_clearance = std::fmin(*min_clearance, nearest);
    }
    return *min_clearance >= radius - 1e-4;
}

struct Planner {
    std::vector<uint8_t> asset;
    FootprintView view;
    DirectionalAStarSettings settings;
    DirectionalGrid grid{};
    std::vector<uint64_t> memory; // 8-byte aligned workspace
    DirectionalAStar* search = nullptr;
    std::vector<std::vector<Point2d>> rings;

    Planner(const BlockMap& map, DirectionalAStarSettings s) : settings(s), rings(map.rings()) {
        asset = buildFootprint(rings);
        REQUIRE(loadFootprint(asset.data(), asset.size(), &view) == Status::Ok);
        REQUIRE(directionalGridForLayer(view, 0, s.cell_size, &grid) == Status::Ok);
        size_t bytes = 0;
        REQUIRE(directionalAStarWorkspaceSize(s, grid, &bytes) == Status::Ok);
        memory.resize((bytes + 7) / 8);
        REQUIRE(directionalAStarInit(s, grid, view, 0, memory.data(), bytes, &search) == Status::Ok);
    }
    bool free(int cx, int cy) const {
        if (cx < 0 || cy < 0 || cx >= int(grid.width) || cy >= int(grid.height)) return false;
        float c = 0;
        REQUIRE(directionalAStarCellClearance(search, uint32_t(cx), uint32_t(cy), &c) == Status::Ok);
        return c >= settings.vehicle_radius;
    }
    Point2d centre(int cx, int cy) const {
        return Point2d{grid.origin_x + (cx + 0.5) * grid.cell_size,
                       grid.origin_y + (cy + 0.5) * grid.cell_size};
    }
    int cellX(double x) const { return int(std::floor((x - grid.origin_x) / grid.cell_size)); }
    int cellY(double y) const { return int(std::floor((y - grid.origin_y) / grid.cell_size)); }

    // Plain 8-connected A* on the same free cells (no corner cutting), as cell centres.
    std::vector<Point2d> plainAStar(Point2d from, Point2d to) const {
        const int w = int(grid.width), h = int(grid.height);
        const int sx = cellX(from.x), sy = cellY(from.y), gx = cellX(to.x), gy = cellY(to.y);
        std::vector<double> g(size_t(w) * h, INFINITY);
        std::vector<int> parent(size_t(w) * h, -1);
        using Entry = std::pair<double, int>;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
        g[size_t(sy) * w + sx] = 0;
        open.push({0, sy * w + sx});
        while (!open.empty()) {
            const int id = open.top().second;
            open.pop();
            const int cx = id % w, cy = id / w;
            if (cx == gx && cy == gy) break;
            for (int dy = -1; dy <= 1; ++dy) {
                for (int dx = -1; dx <= 1; ++dx) {
                    if ((dx == 0 && dy == 0) || !free(cx + dx, cy + dy)) continue;
                    if (dx != 0 && dy != 0 && (!free(cx + dx, cy) || !free(cx, cy + dy))) continue;
                    const double ng = g[id] + std::hypot(dx, dy) * grid.cell_size;
                    const int nid = (cy + dy) * w + cx + dx;
                    if (ng >= g[nid]) continue;
                    g[nid] = ng;
                    parent[nid] = id;
                    open.push({ng + std::hypot(cx + dx - gx, cy + dy - gy) * grid.cell_size, nid});
                }
            }
        }
        std::vector<Point2d> path;
        for (int id = gy * w + gx; id != -1; id = parent[id])
            path.insert(path.begin(), centre(id % w, id / w));
        if (path.size() < 2 || cellX(path.front().x) != sx || cellY(path.front().y) != sy) path.clear();
        return path;
    }
};

// Seed 004's "simple solution" for a plain path: from each waypoint drive the shortest
// arc-then-line to the next one (arriving heading = next starting heading). Pieces appended.
std::vector<PathPiece> arcLinePostprocess(const std::vector<Point2d>& waypoints, double start_heading,
                                          double radius) {
    std::vector<PathPiece> pieces;
    Pose2d pose{waypoints[0].x, waypoints[0].y, start_heading};
    for (size_t i = 1; i < waypoints.size(); ++i) {
        CurvePath path{};
        REQUIRE(shortestArcLine(pose, waypoints[i].x, waypoints[i].y, radius, &path, nullptr) == Status::Ok);
        for (uint32_t k = 0; k < path.count; ++k)
            pieces.push_back(path.pieces[k]);
        PathSample end{};
        REQUIRE(pathSampleAtDistance(path.pieces, path.count, path.length, &end) == Status::Ok);
        pose = Pose2d{end.x, end.y, end.heading};
    }
    return pieces;
}

// Largest heading change between consecutive segments of a polyline, radians.
double sharpestCorner(const std::vector<Point2d>& p) {
    double sharpest = 0;
    for (size_t i = 1; i + 1 < p.size(); ++i) {
        const double a = std::atan2(p[i].y - p[i - 1].y, p[i].x - p[i - 1].x);
        const double b = std::atan2(p[i + 1].y - p[i].y, p[i + 1].x - p[i].x);
        sharpest = std::fmax(sharpest, std::fabs(std::remainder(b - a, 2 * kPi)));
    }
    return sharpest;
}

struct Found {
    Status status;
    DirectionalAStarResult result;
    std::vector<PathPiece> pieces;
    double milliseconds;
};

Found find(Planner& planner, const DirectionalAStarQuery& q) {
    Found f{};
    f.pieces.resize(512);
    const auto t0 = std::chrono::steady_clock::now();
    f.status =
        directionalAStarFindPath(planner.search, q, f.pieces.data(), uint32_t(f.pieces.size()), &f.result);
    f.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    f.pieces.resize(f.status == Status::Ok ? f.result.piece_count : 0);
    return f;
}

// The returned path is drivable: continuous, curvature within the turning radius, ends in the goal
// cell, every move clear on the grid and (independently) against the exact walls.
void checkDrivable(const Planner& planner, const Found& f, Pose2d start, Point2d goal) {
    REQUIRE(!f.pieces.empty());
    const double r = planner.settings.turning_radius;
    for (size_t i = 0; i < f.pieces.size(); ++i) {
        CHECK(std::fabs(f.pieces[i].curvature) <= 1 / r + 1e-12);
        if (i == 0) continue;
        PathSample end{};
        REQUIRE(pathSampleAtDistance(&f.pieces[i - 1], 1, f.pieces[i - 1].length, &end) == Status::Ok);
        CHECK(std::hypot(end.x - f.pieces[i].start.x, end.y - f.pieces[i].start.y) < 1e-6);
        CHECK(std::fabs(std::remainder(end.heading - f.pieces[i].start.heading, 2 * kPi)) < 1e-6);
    }
    const Point2d c0 = planner.centre(planner.cellX(start.x), planner.cellY(start.y));
    CHECK(f.pieces[0].start.x == doctest::Approx(c0.x));
    CHECK(f.pieces[0].start.y == doctest::Approx(c0.y));
    PathSample end{};
    REQUIRE(pathSampleAtDistance(f.pieces.data(), uint32_t(f.pieces.size()), 1e9, &end) == Status::Ok);
    CHECK(planner.cellX(end.x) == planner.cellX(goal.x));
    CHECK(planner.cellY(end.y) == planner.cellY(goal.y));
    CHECK(pathLength(f.pieces.data(), uint32_t(f.pieces.size())) ==
          doctest::Approx(f.result.length).epsilon(1e-9));
    bool grid_clear = false;
    REQUIRE(directionalAStarPiecesClear(planner.search, f.pieces.data(), uint32_t(f.pieces.size()),
                                        &grid_clear) == Status::Ok);
    CHECK(grid_clear);
    double min_clearance = 0;
    CHECK(exactlyClear(planner.rings, f.pieces.data(), uint32_t(f.pieces.size()),
                       planner.settings.vehicle_radius, &min_clearance));
}

DirectionalAStarSettings vehicle() {
    DirectionalAStarSettings s = directionalAStarDefaults();
    s.cell_size = 0.5;
    s.turning_radius = 3.0;
    s.vehicle_radius = 0.5;
    return s;
}

} // namespace

TEST_CASE(
    "directional A*: goal behind the vehicle in a narrow corridor, only a loop in the room reaches it") {
    // A 2 m corridor (y 7..9) opens east into a 12 x 14 m room. The vehicle faces east at x = 14;
    // the goal is 11 m behind it. Plain A* drives straight west (a U-turn on the spot); with a 3 m
    // turning radius the only drivable route (Pinter 2001 Figure 8) is into the room, round a loop
    // and back: much longer, and entirely different.
    BlockMap map(30, 16);
    map.carve(1, 7, 17, 9);
    map.carve(17, 1, 29, 15);
    Planner planner(map, vehicle());
    const Pose2d start{14.25, 8.25, 0.0};
    const Point2d goal{3.25, 8.25};

    const std::vector<Point2d> plain = planner.plainAStar(Point2d{start.x, start.y}, goal);
    REQUIRE(plain.size() > 2);
    // Its first step points west, against the heading: not drivable. Driving it the seed's simple
    // way (arc-then-line between waypoints) sweeps the walls.
    CHECK(std::fabs(std::remainder(
              std::atan2(plain[1].y - plain[0].y, plain[1].x - plain[0].x) - start.heading, 2 * kPi)) > 3.0);
    const auto naive = arcLinePostprocess(plain, start.heading, planner.settings.turning_radius);
    double naive_clearance = 0;
    CHECK_FALSE(exactlyClear(planner.rings, naive.data(), uint32_t(naive.size()),
                             planner.settings.vehicle_radius, &naive_clearance));

    const Found f = find(planner, DirectionalAStarQuery{start, goal.x, goal.y, 0, false});
    REQUIRE(f.status == Status::Ok);
    checkDrivable(planner, f, start, goal);
    // It went into the room (x > 17) and turned all the way round.
    double max_x = 0, turned = 0;
    for (const PathPiece& p : f.pieces) {
        max_x = std::fmax(max_x, p.start.x);
        turned += p.length * p.curvature;
    }
    CHECK(max_x > 17.0);
    CHECK(std::fabs(turned) == doctest::Approx(kPi).epsilon(1e-6));
    CHECK(f.result.length > 2 * 11.0);
    CHECK(f.result.gear_changes == 0u);
    MESSAGE("loop route: " << f.result.length << " m (plain A* " << (plain.size() - 1) * 0.5 << "+ m), "
                           << f.result.moves << " moves, " << f.result.piece_count << " pieces, "
                           << f.result.expansions << " expansions, " << f.milliseconds
                           << " ms; naive arc-line clearance " << naive_clearance << " m");
}

TEST_CASE("directional A*: both find the L-corner, plain A* turns tighter than the radius") {
    // 6 m wide corridors: east along y 1..7, then north along x 13..19.
    BlockMap map(21, 27);
    map.carve(1, 1, 19, 7);
    map.carve(13, 1, 19, 26);
    Planner planner(map, vehicle());
    const Pose2d start{3.25, 4.25, 0.0};
    const Point2d goal{16.25, 23.25};

    const std::vector<Point2d> plain = planner.plainAStar(Point2d{start.x, start.y}, goal);
    REQUIRE(plain.size() > 2);
    // Plain A* hugs the inner corner and changes direction at single cells: a turn of radius 0.
    CHECK(sharpestCorner(plain) >= kPi / 4 - 1e-9);

    const Found f = find(planner, DirectionalAStarQuery{start, goal.x, goal.y, 0, false});
    REQUIRE(f.status == Status::Ok);
    checkDrivable(planner, f, start, goal);
    double turned = 0;
    for (const PathPiece& p : f.pieces)
        turned += p.length * p.curvature;
    // One left turn, no loop: 90 degrees, or 45 when it reaches the goal cell heading north-east.
    CHECK(turned >= kPi / 4 - 1e-6);
    CHECK(turned <= kPi / 2 + 1e-6);
    double plain_length = 0;
    for (size_t i = 1; i < plain.size(); ++i)
        plain_length += std::hypot(plain[i].x - plain[i - 1].x, plain[i].y - plain[i - 1].y);
    // Not longer than the grid path: it is not bound to 45-degree zig-zags, the corner costs little.
    CHECK(f.result.length <= plain_length);
    MESSAGE("L-corner: directional " << f.result.length << " m, plain " << plain_length
                                     << " m (sharpest corner " << sharpestCorner(plain) * 180 / kPi
                                     << " deg), " << f.result.expansions << " expansions, " << f.milliseconds
                                     << " ms");

    SUBCASE("a goal heading is honoured") {
        const Found g = find(planner, DirectionalAStarQuery{start, goal.x, goal.y, kPi / 2, true});
        REQUIRE(g.status == Status::Ok);
        PathSample end{};
        REQUIRE(pathSampleAtDistance(g.pieces.data(), uint32_t(g.pieces.size()), 1e9, &end) == Status::Ok);
        CHECK(std::fabs(std::remainder(end.heading - kPi / 2, 2 * kPi)) < 1e-6);
    }
    SUBCASE("too small a buffer reports the pieces needed") {
        PathPiece few[2];
        DirectionalAStarResult r{};
        CHECK(directionalAStarFindPath(planner.search, DirectionalAStarQuery{start, goal.x, goal.y, 0, false},
                                       few, 2, &r) == Status::BufferTooSmall);
        CHECK(r.piece_count == f.result.piece_count);
    }
    SUBCASE("blocked goal or start outside the grid: NotFound") {
        CHECK(find(planner, DirectionalAStarQuery{start, 5.0, 20.0, 0, false}).status == Status::NotFound);
        CHECK(find(planner, DirectionalAStarQuery{Pose2d{-50, 0, 0}, goal.x, goal.y, 0, false}).status ==
              Status::NotFound);
    }
}

TEST_CASE("directional A*: backing out of a dead end needs reverse moves") {
    // A 2 m corridor closed at the east end; the vehicle faces the dead end, the goal is behind it.
    BlockMap map(24, 6);
    map.carve(1, 2, 22, 4);
    const Pose2d start{19.25, 3.25, 0.0};
    const Point2d goal{3.25, 3.25};
    {
        Planner forward_only(map, vehicle());
        const Found f = find(forward_only, DirectionalAStarQuery{start, goal.x, goal.y, 0, false});
        CHECK(f.status == Status::NotFound);
        CHECK(f.result.expansions > 0u);
    }
    DirectionalAStarSettings s = vehicle();
    s.allow_reverse = true;
    Planner planner(map, s);
    const Found f = find(planner, DirectionalAStarQuery{start, goal.x, goal.y, 0, false});
    REQUIRE(f.status == Status::Ok);
    checkDrivable(planner, f, start, goal);
    bool reverses = false;
    for (const PathPiece& p : f.pieces)
        reverses = reverses || p.direction < 0;
    CHECK(reverses);
    CHECK(f.result.cost == doctest::Approx(f.result.length * s.reverse_cost).epsilon(1e-5));
    // A reversing piece moves against the body heading.
    PathSample a{}, b{};
    REQUIRE(pathSampleAtDistance(f.pieces.data(), uint32_t(f.pieces.size()), 0, &a) == Status::Ok);
    REQUIRE(pathSampleAtDistance(f.pieces.data(), uint32_t(f.pieces.size()), 1, &b) == Status::Ok);
    CHECK(b.x < a.x);
    CHECK(a.heading == doctest::Approx(0));
}

// A 2 m corridor running east, with a 3 m wide bay to the north at x 10..13, and a vehicle
// that may reverse: the three-point-turn scene of the two tests below.
BlockMap bayMap() {
    BlockMap map(24, 10);
    map.carve(1, 2, 22, 4);
    map.carve(10, 4, 13, 8);
    return map;
}

DirectionalAStarSettings bayVehicle() {
    DirectionalAStarSettings s = vehicle();
    s.turning_radius = 2.0;
    s.allow_reverse = true;
    s.reverse_cost = 1.5;
    return s;
}

TEST_CASE("directional A*: a three-point turn where the corridor is too narrow for a loop") {
    // 2 m corridor running east, with a 3 m wide bay to the north at x 10..13. Facing east, the
    // goal is west: drive forward into nothing, but reverse into the bay and come out facing west.
    const BlockMap map = bayMap();
    const DirectionalAStarSettings s = bayVehicle();
    Planner planner(map, s);
    const Pose2d start{5.25, 3.25, 0.0};
    const Point2d goal{2.25, 3.25};
    const Found f = find(planner, DirectionalAStarQuery{start, goal.x, goal.y, kPi, true});
    REQUIRE(f.status == Status::Ok);
    checkDrivable(planner, f, start, goal);
    // Forward into the bay, back out facing west, forward: the classic three-point turn.
    CHECK(f.result.gear_changes == 2u);
    MESSAGE("three-point turn: " << f.result.length << " m, " << f.result.gear_changes << " gear changes, "
                                 << f.result.piece_count << " pieces, " << f.result.expansions
                                 << " expansions");
}

TEST_CASE("directional A*: the follower drives the three-point turn through both cusps") {
    // The bay of the test above; the plan is handed to the follower as a polyline with one gear per
    // segment, and a kinematic bicycle (turning radius 1.2 / tan(0.7) = 1.42 m, steering by
    // curvature at 1.5 rad/s) drives it: forward into the bay, reverse out, forward west.
    const BlockMap map = bayMap();
    const DirectionalAStarSettings s = bayVehicle();
    Planner planner(map, s);
    const Pose2d start{5.25, 3.25, 0.0};
    const Found f = find(planner, DirectionalAStarQuery{start, 2.25, 3.25, kPi, true});
    REQUIRE(f.status == Status::Ok);
    REQUIRE(f.result.gear_changes == 2u);
    std::vector<Vec2f> path{Vec2f{float(f.pieces[0].start.x), float(f.pieces[0].start.y)}};
    std::vector<int8_t> gears;
    for (const PathPiece& piece : f.pieces) {
        const int n = std::max(1, int(std::ceil(piece.length / 0.1)));
        for (int k = 1; k <= n; ++k) {
            PathSample q{};
            REQUIRE(pathSampleAtDistance(&piece, 1, piece.length * k / n, &q) == Status::Ok);
            path.push_back(Vec2f{float(q.x), float(q.y)});
            gears.push_back(int8_t(piece.direction));
        }
    }
    const uint32_t n = uint32_t(path.size());
    FollowerSettings settings = followerDefaults();
    const double wheelbase = 1.2, max_steer = 0.7;
    settings.steering.wheelbase = wheelbase;
    settings.steering.max_steer = max_steer;
    settings.steering.min_lookahead = 1.0; // a 2 m corridor: a small vehicle looks close
    settings.turning_radius = wheelbase / std::tan(max_steer);
    settings.turning_lookahead = 0.5;
    FollowerState state{};
    REQUIRE(followerStartGears(path.data(), gears.data(), n, &state) == Status::Ok);
    // The vehicle starts on the route's true start, not the plan's snapped cell centre (here the same).
    double x = start.x, y = start.y, heading = start.heading, speed = 0, steer = 0, t = 0;
    double min_clearance = INFINITY;
    FollowerCommand cmd{};
    const double dt = 0.02;
    for (; t < 60; t += dt) {
        REQUIRE(followerStepGears(settings, path.data(), gears.data(), n,
                                  FollowerVehicle{x, y, heading, speed}, dt, &state, &cmd) == Status::Ok);
        if (cmd.arrived && std::fabs(speed) < 0.05) break;
        const double wanted =
            std::fmax(-max_steer, std::fmin(max_steer, std::atan(cmd.curvature * wheelbase)));
        steer += std::fmax(-1.5 * dt, std::fmin(1.5 * dt, wanted - steer));
        const double a = cmd.throttle * ((cmd.throttle >= 0) == (speed >= 0) ? 3.0 : 6.0);
        speed = std::fmax(-2.0, std::fmin(4.0, speed + a * dt));
        x += speed * std::cos(heading) * dt;
        y += speed * std::sin(heading) * dt;
        heading += speed * std::tan(steer) / wheelbase * dt;
        const PathPiece here{Pose2d{x, y, heading}, 0.0, 0.0, 1};
        double c = 0;
        exactlyClear(planner.rings, &here, 1, 0.0, &c);
        min_clearance = std::fmin(min_clearance, c);
    }
    MESSAGE("three-point turn driven in " << t << " s, closest wall " << min_clearance << " m (plan keeps "
                                          << s.vehicle_radius << " m), end " << x << ", " << y);
    CHECK(cmd.arrived);
    CHECK(state.gear_changes == 2u);
    CHECK(state.stuck_events == 0u);
    CHECK(state.backoff_events == 0u);
    CHECK(min_clearance > 0.3); // never closer than 0.2 m inside the plan's 0.5 m clearance
    CHECK(std::hypot(x - path.back().x, y - path.back().y) < settings.arrive_distance + 0.2);
    CHECK(std::cos(heading) < -0.9); // facing west
}

TEST_CASE("directional A*: workspace contract") {
    BlockMap map(8, 8);
    map.carve(1, 1, 7, 7);
    const auto rings = map.rings();
    const auto asset = buildFootprint(rings);
    FootprintView view;
    REQUIRE(loadFootprint(asset.data(), asset.size(), &view) == Status::Ok);
    DirectionalAStarSettings s = vehicle();
    DirectionalGrid grid{};
    REQUIRE(directionalGridForLayer(view, 0, s.cell_size, &grid) == Status::Ok);
    CHECK(grid.width == 18u); // 8 m / 0.5 + one cell each side
    CHECK(directionalGridForLayer(view, 1, s.cell_size, &grid) == Status::InvalidArgument);
    REQUIRE(directionalGridForLayer(view, 0, s.cell_size, &grid) == Status::Ok);
    size_t bytes = 0;
    REQUIRE(directionalAStarWorkspaceSize(s, grid, &bytes) == Status::Ok);
    std::vector<uint64_t> memory(bytes / 8 + 2);
    DirectionalAStar* search = nullptr;
    CHECK(directionalAStarInit(s, grid, view, 0, memory.data(), bytes - 8, &search) ==
          Status::BufferTooSmall);
    CHECK(directionalAStarInit(s, grid, view, 0, reinterpret_cast<uint8_t*>(memory.data()) + 4, bytes,
                               &search) == Status::InvalidArgument);
    DirectionalAStarSettings bad = s;
    bad.turning_radius = 0;
    CHECK(directionalAStarWorkspaceSize(bad, grid, &bytes) == Status::InvalidArgument);
    REQUIRE(directionalAStarInit(s, grid, view, 0, memory.data(), bytes, &search) == Status::Ok);
    // Clearance of the room's centre cell: 3 m to the walls, capped at radius + 2 cells = 1.5 m.
    float c = 0;
    REQUIRE(directionalAStarCellClearance(search, 9, 9, &c) == Status::Ok);
    CHECK(c == doctest::Approx(1.5));
    REQUIRE(directionalAStarCellClearance(search, 3, 9, &c) == Status::Ok); // centre 1.25 m from x = 0 ...
    CHECK(c == doctest::Approx(0.25)); // ... 0.25 m from the wall block at x < 1
    REQUIRE(directionalAStarCellClearance(search, 0, 0, &c) == Status::Ok);
    CHECK(c < 0); // outside the footprint
    CHECK(directionalAStarCellClearance(search, 99, 0, &c) == Status::InvalidArgument);
}
