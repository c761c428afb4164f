// Analytic scenes. Geometry is built in the baker's internal frame (X, Y ground, Z up, metres),
// which is what the expected values are written in, then rotated to WORLD Y-up:
// internal (X, Y, Z) -> world (X, Z, -Y), the inverse of bake::worldToInternal. A rotation keeps
// the counter-clockwise-from-outside winding.
//
// Conventions shared by every scene (and assumed by the expected values):
//  - floors are slabs 0.2 thick with their top at Z = 0, emitted first (the baker seeds its
//    first layer from the first walkable triangle);
//  - tops that an agent could only reach by flying (wall copings, pillar tops) are steep caps
//    (60 degrees), the "anti-perch" bevel level designers use, so they add no area or layers;
//  - an unreachable flat top (low_overhang's low slab) IS walkable: nothing is above it;
//  - layers: walkable regions are grouped so that no two regions of one layer overlap in the
//    ground plane, in as few layers as that allows; a region overlapping nothing (a stair, an
//    unreachable island) needs no layer of its own;
//  - zero-thickness walls are two-sided quads (both windings), so the mesh stays closed;
//  - positions are rounded to float, so every file format stores them exactly.
#include "scenes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace clearway::scenes {

namespace {

constexpr double kPi = 3.14159265358979323846;

double deg(double d) {
    return d * kPi / 180.0;
}

Vec3 add(Vec3 a, Vec3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3 scaled(Vec3 a, double s) {
    return {a.x * s, a.y * s, a.z * s};
}
Vec3 sub(Vec3 a, Vec3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

double cross2(Vec2 o, Vec2 a, Vec2 b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

double signedArea(const std::vector<Vec2>& poly) {
    double twice = 0;
    for (size_t i = 0; i < poly.size(); ++i) {
        const Vec2& a = poly[i];
        const Vec2& b = poly[(i + 1) % poly.size()];
        twice += a.x * b.y - b.x * a.y;
    }
    return twice / 2;
}

// Ear clipping of a simple polygon: triangles as indices into `poly`, counter-clockwise.
std::vector<std::array<size_t, 3>> triangulate(const std::vector<Vec2>& poly) {
    std::vector<size_t> ring(poly.size());
    std::iota(ring.begin(), ring.end(), size_t{0});
    if (signedArea(poly) < 0) std::reverse(ring.begin(), ring.end());
    std::vector<std::array<size_t, 3>> out;
    while (ring.size() > 3) {
        bool clipped = false;
        for (size_t i = 0; i < ring.size() && !clipped; ++i) {
            const size_t a = ring[(i + ring.size() - 1) % ring.size()], b = ring[i],
                         c = ring[(i + 1) % ring.size()];
            if (cross2(poly[a], poly[b], poly[c]) <= 0) continue; // reflex or flat corner
            bool empty = true;
            for (size_t k : ring) {
                if (k == a || k == b || k == c) continue;
                const Vec2& p = poly[k];
                if (cross2(poly[a], poly[b], p) >= 0 && cross2(poly[b], poly[c], p) >= 0 &&
                    cross2(poly[c], poly[a], p) >= 0)
                    empty = false;
            }
            if (!empty) continue;
            out.push_back({a, b, c});
            ring.erase(ring.begin() + static_cast<long>(i));
            clipped = true;
        }
        if (!clipped) throw std::logic_error("scenes: profile is not a simple polygon");
    }
    out.push_back({ring[0], ring[1], ring[2]});
    return out;
}

// Collects solids in the internal frame. Each solid is flipped as a whole if its signed volume
// comes out negative, so a profile may be given in either orientation.
class Builder {
  public:
    // Closed solid: `profile` (2D) swept from s0 to s1; a profile point p at sweep s sits at
    // o + p.x * u + p.y * v + s * w.
    void extrude(const std::vector<Vec2>& profile, Vec3 o, Vec3 u, Vec3 v, Vec3 w, double s0, double s1) {
        begin();
        const size_t n = profile.size();
        const uint32_t a0 = static_cast<uint32_t>(positions_.size());
        for (double s : {s0, s1})
            for (const Vec2& p : profile)
                positions_.push_back(add(add(o, add(scaled(u, p.x), scaled(v, p.y))), scaled(w, s)));
        const uint32_t b0 = a0 + static_cast<uint32_t>(n);
        std::vector<std::array<size_t, 3>> caps = triangulate(profile);
        // Same cyclic direction as the cap triangles, so the side quads match their edges.
        const bool ccw = signedArea(profile) > 0;
        for (const auto& t : caps) {
            tri(a0 + t[0], a0 + t[1], a0 + t[2]);
            tri(b0 + t[0], b0 + t[2], b0 + t[1]);
        }
        for (size_t i = 0; i < n; ++i) {
            uint32_t p = static_cast<uint32_t>(i), q = static_cast<uint32_t>((i + 1) % n);
            if (!ccw) std::swap(p, q);
            quad(a0 + q, a0 + p, b0 + p, b0 + q);
        }
        end();
    }

    // Vertical prism over a ground polygon, Z from z0 to z1.
    void prism(const std::vector<Vec2>& ring, double z0, double z1) {
        extrude(ring, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, z0, z1);
    }

    void box(double x0, double y0, double z0, double x1, double y1, double z1) {
        prism({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, z0, z1);
    }

    // Vertical prism whose top is a pyramid (or cone) rising to apex_z over the ring's centroid.
    void cappedPrism(const std::vector<Vec2>& ring, double z0, double z1, double apex_z) {
        begin();
        const size_t n = ring.size();
        const uint32_t b0 = static_cast<uint32_t>(positions_.size());
        Vec2 c{0, 0};
        for (const Vec2& p : ring) {
            positions_.push_back({p.x, p.y, z0});
            c.x += p.x / double(n), c.y += p.y / double(n);
        }
        const uint32_t t0 = static_cast<uint32_t>(positions_.size());
        for (const Vec2& p : ring)
            positions_.push_back({p.x, p.y, z1});
        const uint32_t apex = static_cast<uint32_t>(positions_.size());
        positions_.push_back({c.x, c.y, apex_z});
        for (const auto& t : triangulate(ring))
            tri(b0 + t[0], b0 + t[2], b0 + t[1]);
        const bool ccw = signedArea(ring) > 0;
        for (size_t i = 0; i < n; ++i) {
            uint32_t p = static_cast<uint32_t>(i), q = static_cast<uint32_t>((i + 1) % n);
            if (!ccw) std::swap(p, q);
            quad(b0 + p, b0 + q, t0 + q, t0 + p);
            tri(t0 + p, t0 + q, apex);
        }
        end();
    }

    // Zero-thickness wall: the quad a b c d with both windings (closed, no volume).
    void thinWall(Vec3 a, Vec3 b, Vec3 c, Vec3 d) {
        const uint32_t i = static_cast<uint32_t>(positions_.size());
        positions_.insert(positions_.end(), {a, b, c, d});
        quad(i, i + 1, i + 2, i + 3);
        quad(i, i + 3, i + 2, i + 1);
    }

    // Straight wall of thickness `thick` from ground point p to q, Z from z0 to z1, topped by a
    // ridge whose faces slope 60 degrees (not walkable).
    void ridgeWall(Vec2 p, Vec2 q, double thick, double z0, double z1) {
        const double len = std::hypot(q.x - p.x, q.y - p.y);
        const Vec3 along{(q.x - p.x) / len, (q.y - p.y) / len, 0};
        const Vec3 across{-along.y, along.x, 0};
        const double h = thick / 2, rise = h * std::tan(deg(60));
        extrude({{-h, z0}, {h, z0}, {h, z1}, {0, z1 + rise}, {-h, z1}}, {p.x, p.y, 0}, across, {0, 0, 1},
                along, 0, len);
    }

    Scene finish(std::string name) const {
        Scene scene;
        scene.name = std::move(name);
        for (const Vec3& p : positions_) {
            // internal (X, Y, Z) -> world (X, Z, -Y), float-exact; rounding noise such as
            // cos(90 deg) = 6e-17 and -0 are written as 0. (GCC 12 -O3 folds
            // "double(float(v)) + 0.0" back to v, hence the explicit test.)
            auto snap = [](double v) {
                const float f = static_cast<float>(v);
                return std::abs(f) < 1e-9f ? 0.0 : static_cast<double>(f);
            };
            scene.positions.push_back({snap(p.x), snap(p.z), snap(-p.y)});
        }
        scene.indices = indices_;
        return scene;
    }

  private:
    void tri(uint32_t a, uint32_t b, uint32_t c) { indices_.insert(indices_.end(), {a, b, c}); }
    void quad(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
        tri(a, b, c);
        tri(a, c, d);
    }
    void begin() { solid_start_ = indices_.size(); }
    void end() {
        double volume = 0;
        for (size_t i = solid_start_; i < indices_.size(); i += 3)
            volume +=
                dot(positions_[indices_[i]], cross(positions_[indices_[i + 1]], positions_[indices_[i + 2]]));
        if (volume < 0)
            for (size_t i = solid_start_; i < indices_.size(); i += 3)
                std::swap(indices_[i + 1], indices_[i + 2]);
    }

    std::vector<Vec3> positions_;
    std::vector<uint32_t> indices_;
    size_t solid_start_ = 0;
};

using Segment = std::pair<Vec2, Vec2>;

// The four edges of an axis-aligned rectangle.
std::vector<Segment> rectangle(double x0, double y0, double x1, double y1) {
    return {{{x0, y0}, {x1, y0}}, {{x1, y0}, {x1, y1}}, {{x1, y1}, {x0, y1}}, {{x0, y1}, {x0, y0}}};
}

std::vector<Segment> ringEdges(const std::vector<Vec2>& ring) {
    std::vector<Segment> out;
    for (size_t i = 0; i < ring.size(); ++i)
        out.push_back({ring[i], ring[(i + 1) % ring.size()]});
    return out;
}

void append(std::vector<Segment>& to, const std::vector<Segment>& more) {
    to.insert(to.end(), more.begin(), more.end());
}

} // namespace

// box_room: floor slab [-10, 10]^2; four ridge-capped walls 0.4 thick, 3 m high, standing
// OUTSIDE the floor (inner faces on the floor edges), so the room floor is exactly 20 x 20.
// A 2 x 2 pillar rotated 30 degrees stands on the floor at the centre, 3 m high with a 60 degree
// pyramid cap (apex 3 + tan 60 = 4.73 m).
//   floor: 20 * 20 = 400; under the pillar the clearance segment (0.4 .. 2.0) lies inside a
//   closed solid, so that 2 * 2 = 4 is not walkable; wall and pillar caps are 60 deg > 45.
//   area = 400 - 4 = 396; 1 layer; 0 connections.
Scene boxRoom() {
    Builder b;
    b.box(-10, -10, -0.2, 10, 10, 0);
    b.ridgeWall({-10.4, -10.2}, {10.4, -10.2}, 0.4, -0.2, 3); // south, full outer width
    b.ridgeWall({-10.4, 10.2}, {10.4, 10.2}, 0.4, -0.2, 3);   // north
    b.ridgeWall({10.2, -10}, {10.2, 10}, 0.4, -0.2, 3);       // east, between them
    b.ridgeWall({-10.2, -10}, {-10.2, 10}, 0.4, -0.2, 3);     // west
    std::vector<Vec2> pillar;
    for (Vec2 c : {Vec2{1, 1}, Vec2{-1, 1}, Vec2{-1, -1}, Vec2{1, -1}}) {
        const double a = deg(30);
        pillar.push_back({c.x * std::cos(a) - c.y * std::sin(a), c.x * std::sin(a) + c.y * std::cos(a)});
    }
    b.cappedPrism(pillar, 0, 3, 3 + std::tan(deg(60)));
    Scene s = b.finish("box_room");
    s.expected_area = 400 - 4;
    s.expected_layers = 1;
    s.expected_connections = 0;
    s.expected_walls = rectangle(-10, -10, 10, 10);
    append(s.expected_walls, ringEdges(pillar));
    s.notes =
        "Walls stand outside the 20x20 floor; the pillar stands on it, so the floor under the pillar is "
        "excluded because it lies inside a closed solid. Wall and pillar tops are 60-degree caps: not "
        "walkable.";
    return s;
}

// cylinder_column: floor slab [-10, 10]^2 enclosed by ZERO-THICKNESS walls (two-sided quads,
// 3 m high) on its edges; a column of circumradius 1.5 (vertices on the circle), 32 sides,
// centred at (3, -2), 3 m high with a conical cap rising 2.6 m (faces at
// atan(2.6 / (1.5 cos(pi/32))) = 60.1 deg > 45, not walkable).
//   32-gon area = n/2 r^2 sin(2 pi / n) = 16 * 2.25 * sin(pi/16) = 36 * 0.1950903 = 7.0232516
//   area = 400 - 7.0232516 = 392.9767484; 1 layer; 0 connections.
Scene cylinderColumn() {
    Builder b;
    b.box(-10, -10, -0.2, 10, 10, 0);
    const Vec2 corners[4] = {{-10, -10}, {10, -10}, {10, 10}, {-10, 10}};
    for (int i = 0; i < 4; ++i) {
        const Vec2 p = corners[i], q = corners[(i + 1) % 4];
        b.thinWall({p.x, p.y, 0}, {q.x, q.y, 0}, {q.x, q.y, 3}, {p.x, p.y, 3});
    }
    const int n = 32;
    const double r = 1.5;
    std::vector<Vec2> column;
    for (int k = 0; k < n; ++k)
        column.push_back({3 + r * std::cos(2 * kPi * k / n), -2 + r * std::sin(2 * kPi * k / n)});
    b.cappedPrism(column, 0, 3, 3 + 2.6);
    Scene s = b.finish("cylinder_column");
    s.expected_area = 400 - 0.5 * n * r * r * std::sin(2 * kPi / n);
    s.expected_layers = 1;
    s.expected_connections = 0;
    s.expected_walls = rectangle(-10, -10, 10, 10);
    append(s.expected_walls, ringEdges(column));
    s.notes = "Room walls have zero thickness (two-sided quads). The column stands on the floor (diameter 3 "
              "m): the "
              "floor under it lies inside a closed solid. Its conical cap is steeper than 45 degrees.";
    return s;
}

// ramp: floor slab X [0, 24] x Y [0, 14]. A platform box X [10, 14] x Y [0, 10], 1 m high.
// A 20 degree wedge climbs to it from the west: X [10 - L1, 10], L1 = 1 / tan 20 = 2.7474774.
// A 50 degree wedge drops from its east edge: X [14, 14 + L2], L2 = 1 / tan 50 = 0.8390996.
// A corridor Y [10, 14] joins the floor in front of and behind the platform.
//   platform top (1 m) and 20-deg ramp are walkable and cover the floor under them (within agent
//   height), so that part of the ground plane counts once. The 50-deg face is not walkable; it
//   blocks the floor under it where it is higher than the step (0.4 m) and below 2 m:
//   height = (14 + L2 - X) tan 50 > 0.4  <=>  X < 14 + 0.6 / tan 50 = 14.5034598. The strip
//   X [14.5034598, 14 + L2] (face under 0.4 m, stepped over) stays walkable floor.
//   area = 24 * 14 - 10 * 0.6 / tan 50 = 336 - 5.0345978 = 330.9654022.
//   One walk-connected region with no overlap: 1 layer, 0 connections.
Scene ramp() {
    Builder b;
    const double l1 = 1 / std::tan(deg(20)), l2 = 1 / std::tan(deg(50));
    b.box(0, 0, -0.2, 24, 14, 0);
    b.box(10, 0, 0, 14, 10, 1);
    // Wedges: profile in (X, Z), swept along Y.
    b.extrude({{10 - l1, 0}, {10, 0}, {10, 1}}, {0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, 0, 10);
    b.extrude({{14, 0}, {14 + l2, 0}, {14, 1}}, {0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, 0, 10);
    Scene s = b.finish("ramp");
    const double edge = 14 + 0.6 / std::tan(deg(50));
    s.expected_area = 24 * 14 - 10 * 0.6 / std::tan(deg(50));
    s.expected_layers = 1;
    s.expected_connections = 0;
    s.expected_walls = {
        {{0, 0}, {0, 14}},      {{0, 14}, {24, 14}},  {{24, 14}, {24, 0}},     {{0, 0}, {14, 0}},
        {{edge, 0}, {24, 0}},   {{14, 0}, {14, 10}},  {{edge, 0}, {edge, 10}}, // 50-deg face, both sides
        {{14, 10}, {edge, 10}}, {{10, 10}, {14, 10}}, // platform: 1 m cliff above the corridor
    };
    s.notes =
        "The 50-degree face blocks the floor only where it is above the 0.4 m step; the 20-degree ramp and "
        "the 1 m platform cover the floor under them. Ramp side edges are not listed as walls: they are "
        "steppable where the ramp is under 0.4 m.";
    return s;
}

// bridge: floor slab X [0, 30] x Y [0, 10]. One closed structure across Y [4, 6]: a 30 degree
// ramp plate (0.3 thick, measured vertically) from X = 1 up to 4 m at X = 1 + L, a deck 0.3 thick
// with its top at 4 m, and a ramp plate back down to X = 29; L = 4 / tan 30 = 6.9282032.
// Zero-thickness rails (two-sided quads, Z 0 .. 2) line both ramp sides from the foot to where
// the ramp is 1 m high, so the only way on is across the foot of each ramp.
//   Elevated surface: 28 * 2 = 56, all walkable.
//   Floor under the structure at ramp height z: covered while z <= 2 (walkable surface within
//   agent height), blocked by the underside (z - 0.3 in the clearance 0.4 .. 2) up to z = 2.3,
//   free above (deck underside 3.7): the floor is walkable under X [1 + 2.3/tan 30, 29 - 2.3/tan 30]
//   = [4.9837169, 25.0162831], which overlaps the ramps and deck.
//   area = 300 + 2 * (28 - 2 * 2.3 / tan 30) = 300 + 2 * 20.0325663 = 340.0651326.
//   Floor and structure overlap: 2 layers; an agent crosses between them only at the two ramp
//   feet (the rails close the sides where the ramp is under the step): 2 connections.
Scene bridge() {
    Builder b;
    const double t = std::tan(deg(30)), l = 4 / t, foot = 0.3 / t;
    b.box(0, 0, -0.2, 30, 10, 0);
    // Profile (X, Z), swept along Y.
    b.extrude({{1, 0},
               {1 + l, 4},
               {29 - l, 4},
               {29, 0},
               {29 - foot, 0},
               {29 - l, 3.7},
               {1 + l, 3.7},
               {1 + foot, 0}},
              {0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, 4, 6);
    const double rail = 1 / t; // where the ramp is 1 m high
    for (double y : {4.0, 6.0}) {
        b.thinWall({1, y, 0}, {1 + rail, y, 0}, {1 + rail, y, 2}, {1, y, 2});
        b.thinWall({29 - rail, y, 0}, {29, y, 0}, {29, y, 2}, {29 - rail, y, 2});
    }
    Scene s = b.finish("bridge");
    const double free0 = 1 + 2.3 / t, free1 = 29 - 2.3 / t;
    s.expected_area = 300 + 2 * (28 - 2 * 2.3 / t);
    s.expected_layers = 2;
    s.expected_connections = 2;
    s.expected_walls = rectangle(0, 0, 30, 10);
    append(s.expected_walls, {{{1, 4}, {29, 4}},
                              {{1, 6}, {29, 6}}, // structure sides: rails, cliffs, drops
                              {{free0, 4}, {free0, 6}},
                              {{free1, 4}, {free1, 6}}}); // floor emerging from under the ramps
    s.notes =
        "Ramps are plates, not solid wedges, so the floor under their high part is walkable. The floor is "
        "walkable where the ramp top is above 2.3 m (underside above 2 m). Rails stop agents stepping "
        "sideways onto the ramp foot, so each ramp foot is one portal.";
    return s;
}

// two_storey: ground slab X [0, 20] x Y [0, 10]; upper slab X [10, 20] x Y [0, 10], top at 3 m,
// 0.3 thick (underside 2.7 > 2: the ground floor under it keeps its clearance). A straight stair
// along the south edge, Y [0, 1.5]: 15 risers of 0.2 (0 -> 3 m), 14 treads 0.3 deep at
// Z = 0.2 i over X [5.8 + 0.3 (i - 1), 5.8 + 0.3 i], i = 1..14; the last riser is the upper slab
// edge at X = 10. Its underside is a soffit from (X 5.8, Z 0) to (X 10, Z 2): under treads above
// 2 m the soffit is within the clearance, under lower treads the treads cover the floor, so no
// floor is walkable under the stair.
//   ground plane: 20 * 10 = 200 (floor, with the stair footprint counted once as treads)
//   upper floor: 10 * 10 = 100; area = 300.
//   Layers: the upper floor overlaps the ground floor, the stair overlaps nothing and is entered
//   from the ground (risers 0.2 <= 0.4), so ground + stair = layer 0, upper floor = layer 1:
//   2 layers. The only walkable crossing is the last riser (2.8 -> 3.0) at X = 10, Y [0, 1.5]:
//   1 connection. (Elsewhere the upper edge is a 3 m drop.)
Scene twoStorey() {
    Builder b;
    b.box(0, 0, -0.2, 20, 10, 0);
    b.box(10, 0, 2.7, 20, 10, 3);
    // Integer arithmetic first, so adjacent treads share their riser coordinates exactly.
    auto nosing = [](int k) { return (58 + 3 * k) / 10.0; }; // X of riser k: 5.8 + 0.3 k
    std::vector<Vec2> profile{{nosing(0), 0}};
    for (int i = 1; i <= 14; ++i) {
        profile.push_back({nosing(i - 1), i / 5.0});
        profile.push_back({nosing(i), i / 5.0});
    }
    profile.push_back({10, 2});
    b.extrude(profile, {0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, 0, 1.5);
    Scene s = b.finish("two_storey");
    s.expected_area = 200 + 100;
    s.expected_layers = 2;
    s.expected_connections = 1;
    s.expected_walls = rectangle(0, 0, 20, 10);
    append(s.expected_walls, {{{10, 1.5}, {10, 10}},     // upper floor edge over the ground floor
                              {{6.4, 1.5}, {10, 1.5}}}); // stair side, treads 0.6 m and higher
    s.notes =
        "Stairs join the layer of the ground floor they start from; the upper floor is the second layer. "
        "The slabs float (no walls or columns) so that nothing else adds area.";
    return s;
}

// low_overhang: floor slab [0, 10]^2. Slab A: X [1, 5] x Y [1, 5], Z [1.5, 1.8]. Slab B:
// X [6, 9] x Y [6, 9], Z [2.5, 2.8]. Both float (no supports).
//   Floor under A: its underside (1.5) is inside the clearance 0.4 .. 2 -> not walkable (-16).
//   A's top (1.8, nothing above) is walkable (+16) but unreachable; it overlaps nothing.
//   Floor under B: underside 2.5 > 2 -> walkable. B's top (2.8) walkable (+9), overlapping it.
//   area = 100 - 16 + 16 + 9 = 109.
//   Layers: B's top overlaps the floor -> 2 (A's top fits in either layer). 0 connections: both
//   tops are more than a step up.
Scene lowOverhang() {
    Builder b;
    b.box(0, 0, -0.2, 10, 10, 0);
    b.box(1, 1, 1.5, 5, 5, 1.8);
    b.box(6, 6, 2.5, 9, 9, 2.8);
    Scene s = b.finish("low_overhang");
    s.expected_area = 100 - 16 + 16 + 9;
    s.expected_layers = 2;
    s.expected_connections = 0;
    s.expected_walls = rectangle(0, 0, 10, 10);
    append(s.expected_walls, rectangle(1, 1, 5, 5));
    append(s.expected_walls, rectangle(6, 6, 9, 9));
    s.notes =
        "Slab tops count as walkable: nothing is above them. Slab A's top cannot be walked to but overlaps "
        "nothing, so it needs no layer of its own: 2 layers (3 if unreachable islands were kept apart).";
    return s;
}

// step_box: floor slab [0, 10]^2 and a box X [3, 6] x Y [4, 5.5], 0.3 high (under the 0.4 step).
//   The box top covers the floor under it (walkable, within agent height): floor 100 - 4.5,
//   box top + 4.5; area = 100. Box top and floor are joined by a 0.3 step: 1 layer, 0 connections.
Scene stepBox() {
    Builder b;
    b.box(0, 0, -0.2, 10, 10, 0);
    b.box(3, 4, 0, 6, 5.5, 0.3);
    Scene s = b.finish("step_box");
    s.expected_area = 100;
    s.expected_layers = 1;
    s.expected_connections = 0;
    s.expected_walls = rectangle(0, 0, 10, 10);
    s.notes = "A box lower than the step is part of the floor: its sides are not walls.";
    return s;
}

std::vector<Scene> allScenes() {
    return {boxRoom(), cylinderColumn(), ramp(), bridge(), twoStorey(), lowOverhang(), stepBox()};
}

void writeObj(const Scene& scene, const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) throw std::runtime_error(path + ": cannot open for writing");
    std::fprintf(file, "# clearway analytic scene '%s' (world coordinates, Y up)\n", scene.name.c_str());
    std::fprintf(file, "# expected with default options: %.7f m2 walkable, %d layers, %d connections\n",
                 scene.expected_area, scene.expected_layers, scene.expected_connections);
    std::fprintf(file, "o %s\n", scene.name.c_str());
    for (const Vec3& p : scene.positions)
        std::fprintf(file, "v %.9g %.9g %.9g\n", p.x, p.y, p.z);
    for (size_t i = 0; i + 2 < scene.indices.size(); i += 3)
        std::fprintf(file, "f %u %u %u\n", scene.indices[i] + 1, scene.indices[i + 1] + 1,
                     scene.indices[i + 2] + 1);
    const bool failed = std::ferror(file) != 0;
    if (std::fclose(file) != 0 || failed) throw std::runtime_error(path + ": write failed");
}

} // namespace clearway::scenes
