// The wall grid's queries (the path scratch's cells, their occupancy bits and boxes) against a
// scan of every solid wall piece of the layer: the grid may pass over cells and walls, but never
// one that changes an answer. On the committed sample levels and on a long hand-made strip whose
// grid rows span two 32-bit occupancy words, with a portal cut into one wall.
#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include <doctest/doctest.h>

#include "test_files.h"

// The wall queries and the scratch layout they read.
#include "../../lib/runtime/src/path_internal.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::detail;

namespace {

const std::string kSeeds = std::string(CLEARWAY_SAMPLES) + "/../tests/fuzz/seeds/roadmap/";

// A 200 x 10 m strip with 40 pillars along its middle (squares and diamonds, so walls run in
// every direction), a portal on the bottom wall (50..54, 0) and a one-edge roadmap along the top.
std::vector<uint8_t> stripLevel() {
    namespace fb = schema;
    flatbuffers::FlatBufferBuilder b;
    std::vector<fb::Vec2> boundary = {{0, 0}, {200, 0}, {200, 10}, {0, 10}};
    std::vector<fb::Ring> rings = {{0, 4}};
    for (int k = 0; k < 40; ++k) {
        const float x = 3.0f + 5.0f * float(k), y = 5.0f;
        const uint32_t first = uint32_t(boundary.size());
        if (k % 2 == 0) // clockwise square (a hole)
            boundary.insert(boundary.end(), {{x, y}, {x, y + 1.5f}, {x + 1.5f, y + 1.5f}, {x + 1.5f, y}});
        else // clockwise diamond
            boundary.insert(boundary.end(), {{x, y - 1}, {x - 1, y}, {x, y + 1.25f}, {x + 1, y}});
        rings.push_back({first, 4});
    }
    const std::vector<fb::Polygon> polygons = {{0, uint32_t(rings.size())}};
    const std::vector<fb::Vec3> surface = {{0, 0, 0}, {200, 0, 0}, {200, 10, 0}, {0, 10, 0}};
    const std::vector<fb::Triangle> triangles = {{0, 1, 2}, {0, 2, 3}};
    auto layer = fb::CreateLayer(b, b.CreateVectorOfStructs(boundary), b.CreateVectorOfStructs(rings),
                                 b.CreateVectorOfStructs(polygons), b.CreateVectorOfStructs(surface),
                                 b.CreateVectorOfStructs(triangles), 1900.0, 0.0f, 0.0f);
    std::vector<flatbuffers::Offset<fb::Layer>> layers = {layer};
    const std::vector<fb::Connection> connections = {{0, 0, 50, 0, 54, 0, 0, 0, 0, 0}};
    const fb::Vec3d origin(0, 0, 0);
    auto footprint =
        fb::CreateFootprint(b, kFootprintFormatVersion, b.CreateString("strip"), 1, 2, 0, &origin, 0.25,
                            b.CreateVector(layers), b.CreateVectorOfStructs(connections));
    const std::vector<fb::RoadmapVertex> vertices = {{1, 9, 0, 1, 0}, {199, 9, 0, 1, 0}};
    const std::vector<fb::Vec2> points = {{1, 9}, {199, 9}};
    const std::vector<fb::RoadmapEdge> edges = {fb::RoadmapEdge(0, 1, 0, 2, 1.0f, fb::ClearanceSite::Walls,
                                                                false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)};
    const std::vector<uint32_t> cell_start = {0, 1}, cell_edges = {0};
    auto grid =
        fb::CreateEdgeGrid(b, 0, 0, 200, 1, 1, b.CreateVector(cell_start), b.CreateVector(cell_edges));
    auto options = fb::CreateRoadmapOptions(b, 0.0, 0.01, true);
    auto root = fb::CreateRoadmap(b, kRoadmapFormatVersion, b.CreateString("0.1.0"), 1, 2, options, footprint,
                                  b.CreateVectorOfStructs(vertices), b.CreateVectorOfStructs(edges),
                                  b.CreateVectorOfStructs(points),
                                  b.CreateVectorOfStructs(std::vector<fb::Blend>{}), grid);
    b.Finish(root, "CWRM");
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

// Every solid piece of the layer, as the grid lists them (a piece listed in several cells comes
// several times: a scan's answer does not mind).
std::vector<WallSeg> allSolid(const PathScratch& s, uint32_t layer) {
    const WallGrid& g = s.wall_grids[layer];
    const uint32_t* start = s.wall_solid_start + g.first_cell;
    return std::vector<WallSeg>(s.wall_solid_segs + start[0], s.wall_solid_segs + start[g.nx * g.ny]);
}

bool scanSegmentClear(const std::vector<WallSeg>& walls, P a, P b, double clearance) {
    for (const WallSeg& w : walls) {
        const double d2 = segmentSegment2(a, b, w.c, w.d);
        if (!(d2 > 0.0 && d2 >= clearance * clearance)) return false;
    }
    return true;
}

double scanNearest(const std::vector<WallSeg>& walls, P p) {
    double best2 = kInf;
    for (const WallSeg& w : walls)
        best2 = std::fmin(best2, pointSegment2(p, w.c, w.d, nullptr));
    return std::sqrt(best2);
}

// wallsNearestToSegment's candidates (wall ends and the wall points nearest to a and b), scanned.
double scanNearestToSegment(const std::vector<WallSeg>& walls, P a, P b, double reach, double side) {
    double best2 = reach * reach;
    for (const WallSeg& w : walls) {
        double t;
        const double d_a = pointSegment2(a, w.c, w.d, &t);
        const P on_a = w.c + (w.d - w.c) * t;
        const double d_b = pointSegment2(b, w.c, w.d, &t);
        const P on_b = w.c + (w.d - w.c) * t;
        const P candidates[4] = {w.c, w.d, on_a, on_b};
        const double dist2[4] = {pointSegment2(w.c, a, b, nullptr), pointSegment2(w.d, a, b, nullptr), d_a,
                                 d_b};
        for (int k = 0; k < 4; ++k)
            if (dist2[k] < best2 && cross(b - a, candidates[k] - a) * side > 0.0) best2 = dist2[k];
    }
    return best2;
}

// wallsMostIntruding's rule for one vertex (its intrusion, 0 when it does not count), scanned.
double scanMostIntruding(const std::vector<WallSeg>& walls, P a, P b, double clearance, double side,
                         const P region[4]) {
    const double len = norm(b - a);
    const P u = (b - a) * (1.0 / len);
    auto inTriangle = [](P p, P t0, P t1, P t2) {
        const double o0 = orient(t0, t1, p), o1 = orient(t1, t2, p), o2 = orient(t2, t0, p);
        return (o0 >= 0 && o1 >= 0 && o2 >= 0) || (o0 <= 0 && o1 <= 0 && o2 <= 0);
    };
    double best = 0.0;
    for (const WallSeg& w : walls)
        for (const P v : {w.c, w.d}) {
            const double along = dot(v - a, u);
            if (along < 0.0 || along > len) continue;
            const double across = cross(u, v - a);
            if (std::fabs(across) > clearance && !inTriangle(v, region[0], region[1], region[2]) &&
                !inTriangle(v, region[0], region[2], region[3]))
                continue;
            best = std::fmax(best, clearance - side * across);
        }
    return best;
}

double scanRay(const std::vector<WallSeg>& walls, P p, P dir, double max_reach) {
    double best = max_reach;
    for (const WallSeg& w : walls) {
        const P e = w.d - w.c;
        const double den = cross(dir, e);
        if (den == 0.0) {
            if (orient(w.c, w.d, p) != 0.0) continue;
            for (const P x : {w.c, w.d}) {
                const double t = dot(x - p, dir);
                if (t >= 0.0 && t < best) best = t;
            }
            continue;
        }
        const double t = cross(w.c - p, e) / den, v = cross(w.c - p, dir) / den;
        if (t >= 0.0 && v >= 0.0 && v <= 1.0 && t < best) best = t;
    }
    return best;
}

// The least wall distance over points every 1 cm along the arc: an upper bound of the arc's
// distance, at most 5 mm above it.
double sampledArcDistance(const std::vector<WallSeg>& walls, P center, P start, double sweep) {
    const double radius = norm(start - center), a0 = std::atan2(start.y - center.y, start.x - center.x);
    const int n = 2 + int(radius * std::fabs(sweep) / 1e-2);
    double best = kInf;
    for (int k = 0; k <= n; ++k) {
        const double a = a0 + sweep * double(k) / n;
        best = std::fmin(
            best, scanNearest(walls, P{center.x + radius * std::cos(a), center.y + radius * std::sin(a)}));
    }
    return best;
}

struct Counts {
    int clear = 0, blocked = 0, arcs_decided = 0, vertex_arcs_decided = 0, intruded = 0, found = 0;
    int centres_known = 0, centres_unknown = 0;
};

// The inside test (answered from the cell's centre where it can) against the scan of every ring
// edge, where the centre's answer is tried hardest: each cell's centre, corners and border
// points, and points 0 to 1 mm from wall vertices and wall middles in eight directions.
void checkInsideTest(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer,
                     const std::vector<WallSeg>& walls, Counts* counts) {
    const WallGrid& g = s.wall_grids[layer];
    auto check = [&](P p) {
        CAPTURE(p.x);
        CAPTURE(p.y);
        CHECK(wallsInside(rm, s, layer, p) == insideLayer(*layerOf(rm, layer), p));
    };
    for (uint32_t j = 0; j < g.ny; ++j)
        for (uint32_t i = 0; i < g.nx; ++i) {
            const uint8_t centre = s.wall_centre_inside[g.first_cell + j * g.nx + i];
            counts->centres_known += centre != kCentreUnknown;
            counts->centres_unknown += centre == kCentreUnknown;
            const double x = g.min_x + double(i) * g.cell, y = g.min_y + double(j) * g.cell;
            for (const double fx : {0.0, 1e-7, 0.25, 0.5, 0.999999})
                for (const double fy : {0.0, 0.5, 0.75, 0.9999999})
                    check(P{x + fx * g.cell, y + fy * g.cell});
        }
    for (const WallSeg& w : walls)
        for (const P v : {w.c, (w.c + w.d) * 0.5})
            for (const double d : {0.0, 1e-12, 1e-9, 1e-6, 1e-3})
                for (int k = 0; k < 8; ++k)
                    check(v + P{std::cos(0.785398 * k), std::sin(0.785398 * k)} * d);
}

void compareOnLevel(const RoadmapView& view, Counts* counts) {
    size_t bytes = 0;
    REQUIRE(pathScratchSize(view, &bytes) == Status::Ok);
    std::vector<uint64_t> memory(bytes / 8 + 1);
    PathScratch* s = nullptr;
    REQUIRE(pathScratchInit(view, memory.data(), bytes, &s) == Status::Ok);
    const fb::Roadmap& rm = *root(view);
    std::mt19937_64 rng(20261122), arc_rng(20261128);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (uint32_t layer = 0; layer < s->layer_count; ++layer) {
        CAPTURE(layer);
        const std::vector<WallSeg> walls = allSolid(*s, layer);
        REQUIRE(!walls.empty());
        double x0 = kInf, y0 = kInf, x1 = -kInf, y1 = -kInf;
        for (const WallSeg& w : walls)
            x0 = std::fmin(x0, w.x0), y0 = std::fmin(y0, w.y0), x1 = std::fmax(x1, w.x1),
            y1 = std::fmax(y1, w.y1);
        // An arc's answer against the sampled distance, where that is clear-cut.
        auto checkArc = [&](P center, P start, double sweep, double clearance, int* decided) {
            const double sampled = sampledArcDistance(walls, center, start, sweep);
            const bool arc_clear = wallsArcClear(rm, *s, layer, center, start, sweep, clearance);
            if (sampled < clearance - 1e-6) {
                CHECK(!arc_clear);
                ++*decided;
            }
            if (sampled - 6e-3 > clearance) {
                CHECK(arc_clear);
                ++*decided;
            }
        };
        // Points over the layer's box and a little beyond, wall vertices among them (exactly on
        // walls, and on cell borders where the walls are).
        auto point = [&]() {
            if (rng() % 5 == 0) {
                const WallSeg& w = walls[rng() % walls.size()];
                return rng() % 2 ? w.c : w.d;
            }
            return P{x0 - 1 + (x1 - x0 + 2) * unit(rng), y0 - 1 + (y1 - y0 + 2) * unit(rng)};
        };
        for (int i = 0; i < 3000; ++i) {
            const P a = point();
            // Long and short segments, axis-aligned ones too.
            P b = i % 3 == 0 ? a + P{(unit(rng) - 0.5) * 8, (unit(rng) - 0.5) * 8} : point();
            if (i % 7 == 1) b.y = a.y;
            if (i % 7 == 2) b.x = a.x;
            const double clearance = i % 5 == 0 ? 0.0 : 0.05 + 2.5 * unit(rng);
            CAPTURE(a.x);
            CAPTURE(a.y);
            CAPTURE(b.x);
            CAPTURE(b.y);
            CAPTURE(clearance);
            const bool clear = wallsSegmentClear(rm, *s, layer, a, b, clearance);
            CHECK(clear == scanSegmentClear(walls, a, b, clearance));
            (clear ? counts->clear : counts->blocked) += 1;

            CHECK(wallsNearest(rm, *s, layer, a, nullptr) == scanNearest(walls, a));

            const double side = i % 2 ? 1.0 : -1.0, reach = 0.5 + 4.0 * unit(rng);
            P nearest{0, 0};
            const double best2 = scanNearestToSegment(walls, a, b, reach, side);
            const bool found = wallsNearestToSegment(rm, *s, layer, a, b, reach, side, &nearest);
            CHECK(found == (best2 < reach * reach));
            // Ties between candidates may pick another point at the same distance.
            if (found) CHECK(std::sqrt(pointSegment2(nearest, a, b, nullptr)) <= std::sqrt(best2) + 1e-9);
            counts->found += found;

            if (norm(b - a) > 0.0) {
                // A region like the shortening's: the segment swept sideways.
                const P n = P{-(b - a).y, (b - a).x} * (side * unit(rng) / norm(b - a) * 3.0);
                const P region[4] = {a, b, b + n, a + n * unit(rng)};
                P vertex{0, 0};
                const double most = scanMostIntruding(walls, a, b, clearance, side, region);
                const bool intrudes =
                    wallsMostIntruding(rm, *s, layer, a, b, clearance, side, region, &vertex);
                CHECK(intrudes == (most > 0.0));
                if (intrudes) {
                    const P u = (b - a) * (1.0 / norm(b - a));
                    CHECK(clearance - side * cross(u, vertex - a) == most);
                }
                counts->intruded += intrudes;
            }

            const double angle = 6.283185307179586 * unit(rng), reach_ray = 20.0 * unit(rng);
            const P dir{std::cos(angle), std::sin(angle)};
            CHECK(wallsRay(rm, *s, layer, a, dir, reach_ray) == scanRay(walls, a, dir, reach_ray));

            CHECK(wallsInside(rm, *s, layer, a) == insideLayer(*layerOf(rm, layer), a));

            if (i % 16 == 0) {
                // An arc round a point near a, decided by the sampled distance where it is clear-cut.
                const P center = a + P{(unit(rng) - 0.5) * 4, (unit(rng) - 0.5) * 4};
                const double sweep = (unit(rng) - 0.5) * 2.0 * (i % 8 == 0 ? 6.0 : 3.0);
                checkArc(center, a, sweep, clearance, &counts->arcs_decided);
            }
            if (i % 4 == 2) {
                // An arc round a wall vertex, as a path wraps one (its own random numbers, so the
                // cases above stay as they were): the vertex's own walls are passed over without
                // the exact distance where the arc stays behind them.
                const WallSeg& w = walls[arc_rng() % walls.size()];
                const P center = arc_rng() % 2 ? w.c : w.d;
                const double radius = 0.2 + 1.5 * unit(arc_rng), angle = 6.283185307179586 * unit(arc_rng);
                const P start = center + P{std::cos(angle), std::sin(angle)} * radius;
                const double sweep = (unit(arc_rng) - 0.5) * 6.0, arc_clearance = 0.9 * radius;
                CAPTURE(center.x);
                CAPTURE(center.y);
                CAPTURE(angle);
                CAPTURE(sweep);
                checkArc(center, start, sweep, arc_clearance, &counts->vertex_arcs_decided);
            }
        }
        checkInsideTest(rm, *s, layer, walls, counts);
    }
}

} // namespace

TEST_SUITE("runtime/wall grid") {
    TEST_CASE("grid wall queries equal a scan of every wall, rows of two occupancy words included, and "
              "the inside test from cell centres on cell borders and next to walls") {
        const std::vector<uint8_t> strip = stripLevel();
        RoadmapView view;
        REQUIRE(loadRoadmap(strip.data(), strip.size(), &view) == Status::Ok);
        {
            size_t bytes = 0;
            REQUIRE(pathScratchSize(view, &bytes) == Status::Ok);
            std::vector<uint64_t> memory(bytes / 8 + 1);
            PathScratch* s = nullptr;
            REQUIRE(pathScratchInit(view, memory.data(), bytes, &s) == Status::Ok);
            CHECK(s->wall_grids[0].nx > 32); // two words per row
        }
        Counts counts;
        compareOnLevel(view, &counts);
        for (const char* name : {"box_room", "two_storey", "bridge", "low_overhang", "step_box"}) {
            const std::string level = name;
            CAPTURE(level);
            const std::vector<uint8_t> bytes = test::readFile(kSeeds + level + ".cwrm");
            REQUIRE(!bytes.empty());
            RoadmapView seed;
            REQUIRE(loadRoadmap(bytes.data(), bytes.size(), &seed) == Status::Ok);
            compareOnLevel(seed, &counts);
        }
        // Both answers often enough to mean something.
        CHECK(counts.clear > 1000);
        CHECK(counts.blocked > 1000);
        CHECK(counts.found > 1000);
        CHECK(counts.intruded > 1000);
        CHECK(counts.arcs_decided > 500);
        CHECK(counts.vertex_arcs_decided > 1000);
        // Nearly every cell's centre answers the inside test for the points of its cell.
        CHECK(counts.centres_known > 200);
        CHECK(counts.centres_unknown * 100 < counts.centres_known);
    }
}
