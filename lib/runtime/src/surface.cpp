// Character queries on a layer's walls: raycast (a disc swept along a line), moveAlongSurface
// (sliding along walls) and nearestValidPosition (a free spot near a point), on the wall grid.
#include "path_internal.h"

#include <cfloat>
#include <cmath>

namespace clearway {

namespace {

using namespace ::clearway::detail;

// Contacts moveAlongSurface slides along before it stops.
constexpr int kMaxContacts = 4;
// Pushes away from the nearest wall nearestValidPosition makes (a corner takes two or three).
constexpr int kMaxPushes = 16;

// How close to touching counts as touching: far above the rounding of a stop at the radius.
double slopAt(P p, double radius) {
    return 1e-9 * (1.0 + std::fabs(p.x) + std::fabs(p.y) + radius);
}

bool validLayerQuery(const fb::Roadmap* rm, const RoadmapView& view, const PathScratch* scratch,
                     uint32_t layer, double radius) {
    return rm && scratch && scratch->data == view.data && layer < scratch->layer_count && radius >= 0.0 &&
           finiteD(radius);
}

bool finitePoint(Vec2d p) {
    return finiteD(p.x) && finiteD(p.y);
}

// How far from p the disc can still touch a wall of the layer: its wall grid holds them all.
double wallReach(const PathScratch& s, uint32_t layer, P p, double radius) {
    const WallGrid& g = s.wall_grids[layer];
    const double max_x = g.min_x + double(g.nx) * g.cell, max_y = g.min_y + double(g.ny) * g.cell;
    return maxOf(std::fabs(p.x - g.min_x), std::fabs(max_x - p.x)) +
           maxOf(std::fabs(p.y - g.min_y), std::fabs(max_y - p.y)) + radius + 1.0;
}

// Unit direction of q - p, also when that difference overflows.
P directionTo(P p, P q) {
    const P half = q * 0.5 - p * 0.5;
    const double largest = maxOf(std::fabs(half.x), std::fabs(half.y));
    const P scaled = half * (1.0 / largest);
    return scaled * (1.0 / norm(scaled));
}

// raycast on validated input.
Status castDisc(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P p, P q, double radius,
                RaycastHit* hit) {
    const P v = q - p;
    const double speed = norm(v), slop = slopAt(p, radius);
    *hit = RaycastHit{0.0, 0.0, Vec2d{p.x, p.y}, Vec2d{p.x, p.y}, Vec2d{0, 0}, false};
    // A start on a portal line (where a previous motion stopped) is inside when it moves in.
    const P probe = speed > 1e-6 ? (speed < kInf ? p + v * (1e-6 / speed) : p + directionTo(p, q) * 1e-6) : q;
    if (!wallsInside(rm, s, layer, p) && !wallsInside(rm, s, layer, probe)) return Status::NotFound;
    P wall;
    const double clearance = wallsNearest(rm, s, layer, p, &wall);
    if (clearance < radius - slop) {
        const P away = clearance > 0.0 ? (p - wall) * (1.0 / clearance) : P{0, 0};
        hit->wall = Vec2d{wall.x, wall.y};
        hit->normal = Vec2d{away.x, away.y};
        hit->hit = true;
        return Status::Blocked;
    }
    // A motion longer than the walls' reach is swept only that far (every wall or portal that can
    // stop it lies before): an end 1e300 m off overflowed the sweep's squared lengths, so the
    // disc missed corners and the distance came out infinite.
    const double reach = wallReach(s, layer, p, radius);
    const bool cut = !(speed <= reach);
    const P swept = cut ? directionTo(p, q) * reach : v;
    const double swept_speed = cut ? reach : speed;
    SweepContact contact;
    wallsSweep(rm, s, layer, p, swept, radius, slop, &contact);
    // t along the whole motion (rounds to 0 for a cut one ending far off).
    auto alongMotion = [&](double swept_t) { return cut ? swept_t * reach / speed : swept_t; };
    if (contact.portal_t <= 1.0 && contact.portal_t < contact.t) {
        const P at = p + swept * contact.portal_t;
        *hit = RaycastHit{contact.portal_t * swept_speed,
                          alongMotion(contact.portal_t),
                          Vec2d{at.x, at.y},
                          Vec2d{at.x, at.y},
                          Vec2d{0, 0},
                          false};
        return Status::PortalReached;
    }
    if (!(contact.t <= 1.0)) {
        *hit = RaycastHit{minOf(speed, DBL_MAX), 1.0, Vec2d{q.x, q.y}, Vec2d{q.x, q.y}, Vec2d{0, 0}, false};
        return Status::Ok;
    }
    const P at = p + swept * contact.t;
    *hit = RaycastHit{contact.t * swept_speed,
                      alongMotion(contact.t),
                      Vec2d{at.x, at.y},
                      Vec2d{contact.wall.x, contact.wall.y},
                      Vec2d{contact.normal.x, contact.normal.y},
                      true};
    return Status::Ok;
}

// A spot with clearance >= radius on `layer` near p: p itself when it has it; else onto the layer
// (a point outside moves through its nearest wall point) and away from the nearest wall point
// until it is `radius` from it, repeated while another wall is closer (corners).
bool freeSpotOn(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P p, double radius, P* out) {
    P q = p;
    for (int push = 0; push <= kMaxPushes; ++push) {
        P wall, direction;
        const double clearance = wallsNearest(rm, s, layer, q, &wall, &direction);
        if (!(clearance < kInf)) return false; // a layer without walls has no inside
        const bool inside = wallsInside(rm, s, layer, q);
        // The slop where the spot is, not where the point was: one 1.5e13 m off the level gave a
        // slop of 15 km, and a spot inside the radius of a wall passed the test (roadmap fuzzer).
        if (inside && clearance >= radius - slopAt(q, radius)) {
            *out = q;
            return true;
        }
        if (push == kMaxPushes) break;
        // A zero radius still leaves the boundary.
        const double step = radius > 0.0 ? radius : slopAt(wall, radius);
        P into; // unit, from the wall point into the layer
        if (clearance > 0.0) {
            into = (inside ? q - wall : wall - q) * (1.0 / clearance);
        } else {
            const double len = norm(direction);
            if (!(len > 0.0)) return false;
            into = P{-direction.y, direction.x} * (1.0 / len); // the layer lies left of its walls
        }
        q = wall + into * step;
    }
    return false;
}

// The cost nearestValidPosition ranks layers by: the 3D distance from the point to the spot on the
// layer's surface, with step_up free upwards.
double spotCost(const FootprintView& footprint, uint32_t layer, Vec3d point, P spot, double step_up) {
    float h;
    const double dxy = norm(spot - P{point.x, point.y});
    if (footprintHeightAt(footprint, layer, float(spot.x), float(spot.y), 0.05f, &h) != Status::Ok)
        return dxy;
    const double dz = double(h) > point.z + step_up ? double(h) - point.z - step_up
                                                    : (double(h) < point.z ? point.z - double(h) : 0.0);
    return std::sqrt(dxy * dxy + dz * dz);
}

} // namespace

Status raycast(const RoadmapView& view, const PathScratch* scratch, uint32_t layer, Vec2d start, Vec2d end,
               double radius, RaycastHit* hit) {
    const fb::Roadmap* rm = root(view);
    if (!validLayerQuery(rm, view, scratch, layer, radius) || !hit || !finitePoint(start) ||
        !finitePoint(end))
        return Status::InvalidArgument;
    return castDisc(*rm, *scratch, layer, P{start.x, start.y}, P{end.x, end.y}, radius, hit);
}

Status moveAlongSurface(const RoadmapView& view, const PathScratch* scratch, uint32_t layer, Vec2d start,
                        Vec2d end, double radius, Vec2d* result) {
    const fb::Roadmap* rm = root(view);
    if (!validLayerQuery(rm, view, scratch, layer, radius) || !result || !finitePoint(start) ||
        !finitePoint(end))
        return Status::InvalidArgument;
    P cur{start.x, start.y}, target{end.x, end.y}, previous_normal{0, 0};
    for (int contact = 0; contact <= kMaxContacts; ++contact) {
        RaycastHit hit;
        const Status status = castDisc(*rm, *scratch, layer, cur, target, radius, &hit);
        if (status == Status::Blocked || status == Status::NotFound) {
            *result = Vec2d{cur.x, cur.y}; // later contacts start touching, never inside
            return contact == 0 ? status : Status::Ok;
        }
        cur = P{hit.position.x, hit.position.y};
        if (status == Status::PortalReached) {
            *result = hit.position;
            return status;
        }
        if (!hit.hit || contact == kMaxContacts) break;
        // Slide: the rest of the motion without its part into the wall. Worked out scaled by a
        // power of two (exact), as a target near DBL_MAX away overflowed the dot products.
        const P n{hit.normal.x, hit.normal.y};
        const P whole = target - cur;
        int exponent = 0;
        std::frexp(maxOf(std::fabs(whole.x), std::fabs(whole.y)), &exponent);
        P rest{std::ldexp(whole.x, -exponent), std::ldexp(whole.y, -exponent)};
        const double into = dot(rest, n);
        if (into < 0.0) rest = rest - n * into;
        // In a corner the slide along this wall presses into the previous one: stop there.
        if (dot(rest, previous_normal) < 0.0) break;
        const P scaled = rest;
        rest = P{std::ldexp(rest.x, exponent), std::ldexp(rest.y, exponent)};
        if (!(norm(rest) > 0.0)) break;
        target = cur + rest;
        // Beyond a double's range: as far the same way as a double goes (still far past every
        // wall, so the slides after this one keep their share of the motion).
        if (!finitePoint(Vec2d{target.x, target.y})) target = cur + scaled * (0x1p1020 / norm(scaled));
        if (!finitePoint(Vec2d{target.x, target.y})) break;
        previous_normal = n;
    }
    *result = Vec2d{cur.x, cur.y};
    return Status::Ok;
}

Status nearestValidPosition(const RoadmapView& view, const PathScratch* scratch, Vec3d point, double radius,
                            double step_up, PathEndpoint* out) {
    const fb::Roadmap* rm = root(view);
    if (!validLayerQuery(rm, view, scratch, 0, radius) || !out || !finiteD(point.x) || !finiteD(point.y) ||
        !finiteD(point.z) || !(step_up >= 0.0) || !finiteD(step_up))
        return Status::InvalidArgument;
    const P p{point.x, point.y};
    P spot;
    PathEndpoint located;
    if (locatePoint(view, scratch, point, step_up, &located) == Status::Ok &&
        freeSpotOn(*rm, *scratch, located.layer, p, radius, &spot)) {
        *out = PathEndpoint{spot.x, spot.y, located.layer};
        return Status::Ok;
    }
    FootprintView footprint;
    if (roadmapFootprint(view, &footprint) != Status::Ok) return Status::InvalidArgument;
    double best_cost = kInf;
    for (uint32_t layer = 0; layer < scratch->layer_count; ++layer) {
        if (!freeSpotOn(*rm, *scratch, layer, p, radius, &spot)) continue;
        const double cost = spotCost(footprint, layer, point, spot, step_up);
        if (cost < best_cost) best_cost = cost, *out = PathEndpoint{spot.x, spot.y, layer};
    }
    return best_cost < kInf ? Status::Ok : Status::NotFound;
}

} // namespace clearway
