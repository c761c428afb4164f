// Internal to lib/runtime: the temporary obstacle set's layout and its exact distances to path
// pieces (obstacles.cpp), and what one findPathAvoiding query closes (obstacles_route.cpp).
#pragma once

#include "path_internal.h"

namespace clearway {
namespace detail {

// One slot of a set. id 0: free. A box's corners run counter-clockwise.
struct Obstacle {
    uint32_t id;
    uint32_t layer;
    bool box;
    P centre;
    double radius; // disc
    P half, u, v;  // box: half extents, its unit axes
    P corners[4];  // box
    double bound;  // radius of the circle round the centre holding the whole obstacle
};

// Obstacles closer than this to the required clearance still pass: the ways round them are built
// at exactly the clearance, and their own rounding must not fail them.
constexpr double kObstacleSlop = 1e-9;

// Distance from the obstacle to segment a-b (0 when they meet; a disc's may be negative: its
// centre distance minus its radius) and to the arc from `start` round `center` by `sweep`.
double obstacleSegmentDistance(const Obstacle& o, P a, P b);
double obstacleArcDistance(const Obstacle& o, P center, double radius, P start, double sweep);
double obstaclePointDistance(const Obstacle& o, P p);

// The obstacles a rerouted query closes the roadmap round (findPathAvoiding's later rounds).
constexpr uint32_t kMaxForcedObstacles = 16;
struct ObstacleRoute {
    const ObstacleSet* set;
    const fb::Roadmap* rm;
    const PathScratch* s;
    double radius;
    const Obstacle* forced[kMaxForcedObstacles];
    uint32_t forced_count;
};
// A* hooks (path.cpp): an edge whose polyline comes within the radius of a forced obstacle is
// closed; a stretch of the snapped ends' edges likewise (from polyline point `piece` + t towards
// vertex b when `towards_b`, else towards a; `until_*`: stop there instead of at the vertex);
// a straight line must keep the radius from every obstacle of its layer.
bool obstacleClosesEdge(const ObstacleRoute& o, uint32_t edge);
bool obstacleStretchClosed(const ObstacleRoute& o, const RoadmapPoint& from, bool towards_b,
                           const RoadmapPoint* until);
bool obstacleLineClear(const ObstacleRoute& o, uint32_t layer, P a, P b);

// The set's slots (obstacles.cpp); `capacity` of them, free ones with id 0.
const Obstacle* obstacleSlots(const ObstacleSet* set, uint32_t* capacity);

} // namespace detail
} // namespace clearway
