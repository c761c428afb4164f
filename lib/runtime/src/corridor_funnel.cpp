// The shortest path with clearance inside an A* route's corridor, after the Explicit Corridor Map
// (Geraerts, "Planning short paths with clearance using explicit corridors", 2010). Every route
// point carries its nearest wall points on the left and right (Roadmap.point_sides); a portal
// joins them, each end moved towards the route point by the clearance kept there, so the portals
// cut the corridor shrunk by the clearance into cells, and between two portals each side stays on
// one wall feature (a vertex: an arc of the shrunk boundary; a wall: a straight offset line).
//   1. The funnel over the portals' ends (Lee and Preparata's, in Mononen's "simple stupid"
//      form) gives the shortest polyline through them: the wall vertices it bends at.
//   2. Tightening: the path becomes lines tangent to discs of the clearance round those vertices
//      and arcs round them. A disc the taut path no longer touches (it would wrap it backwards)
//      leaves; a boundary piece a line comes too close to joins, at its point nearest the line.
//      Both look only at the portals between the line's two discs, so the work stays linear in
//      the corridor: no wall-grid queries.
// The result wraps every disc it touches forwards and keeps the clearance from every boundary
// piece: a locally shortest path in a simple polygon, hence the shortest.
#include "path_internal.h"

#include <cmath>

namespace clearway {
namespace detail {

namespace {

// Rounds of tightening before giving up: on the peer meshes 99.99 % of the runs that settle do so
// within 6 rounds (the most seen: 11); the rest keep adding and dropping one disc where preferred
// radii conflict, and are better handed to the next, smaller radii early.
constexpr uint32_t kTightenRounds = 12;
constexpr double kTouchSlack = 1e-9; // metres: closer than the clearance by more is a violation
constexpr double kWrapSlack = 1e-9;  // radians: a wrap this far backwards is not a wrap

// An angle's stand-in for ordering turns without atan2: the same sign, increasing with the angle
// over (-pi, pi], about the angle itself near 0. (sine, cosine) of the turn.
double pseudoAngle(double sine, double cosine) {
    const double sum = std::fabs(sine) + std::fabs(cosine);
    if (!(sum > 0.0)) return 0.0;
    const double x = sine / sum;
    return cosine >= 0.0 ? x : (sine >= 0.0 ? 2.0 - x : -2.0 - x);
}

bool samePoint(P a, P b) {
    return a.x == b.x && a.y == b.y;
}

// The funnel over the portals' ends: each bend as (portal, side) into wraps (+1 left, -1 right).
uint32_t pointFunnel(const CorridorPortal* portals, uint32_t count, P start, P goal, CorridorWrap* wraps,
                     uint32_t capacity) {
    uint32_t n = 0;
    P apex = start, left = start, right = start;
    uint32_t apex_i = kNone, left_i = kNone, right_i = kNone;
    for (uint32_t i = apex_i + 1; i <= count; ++i) {
        const P pl = i == count ? goal : portals[i].left_end;
        const P pr = i == count ? goal : portals[i].right_end;
        // The cheap, usually deciding, cross product first; the same tests as pure conjunctions.
        if (cross(right - apex, pr - apex) >= 0.0 && !samePoint(pr, apex)) {
            if (cross(left - apex, pr - apex) < 0.0 || samePoint(left, apex) || samePoint(pr, left)) {
                right = pr, right_i = i;
            } else { // the right side crossed the left: the path bends at the left end
                if (n == capacity) return kNone;
                wraps[n++] =
                    CorridorWrap{portals[left_i].left, portals[left_i].left_radius, left_i, 1, false};
                apex = left, apex_i = left_i;
                right = left = apex, right_i = left_i = apex_i;
                i = apex_i;
                continue;
            }
        }
        if (cross(left - apex, pl - apex) <= 0.0 && !samePoint(pl, apex)) {
            if (cross(right - apex, pl - apex) > 0.0 || samePoint(right, apex) || samePoint(pl, right)) {
                left = pl, left_i = i;
            } else {
                if (n == capacity) return kNone;
                wraps[n++] =
                    CorridorWrap{portals[right_i].right, portals[right_i].right_radius, right_i, -1, false};
                apex = right, apex_i = right_i;
                right = left = apex, right_i = left_i = apex_i;
                i = apex_i;
                continue;
            }
        }
    }
    return n;
}

// Unit direction of the line that leaves disc a with a on its side and reaches disc b with b on
// its side. The touch points are c - n * (r * side), n the line's left normal, so the line
// satisfies n . (cb - ca) = kb - ka. Discs too close for such a line get the limit.
P tangentDirection(const CorridorWrap& a, const CorridorWrap& b) {
    const P d = b.c - a.c;
    const double l2 = dot(d, d);
    if (!(l2 > 0.0)) return P{0, 0};
    const double k = b.r * double(b.side) - a.r * double(a.side);
    const double along = l2 > k * k ? std::sqrt(l2 - k * k) : 0.0;
    const P perp{-d.y, d.x};
    const P u = (d * along - perp * k) * (1.0 / l2);
    const double length = norm(u);
    return length > 0.0 ? u * (1.0 / length) : P{0, 0};
}

P touchPoint(const CorridorWrap& a, P u) {
    return a.c - P{-u.y, u.x} * (a.r * double(a.side));
}

// Closest points of segments a-b and c-d (a segment c-d of length 0 is a point): *on_cd.
double segmentGap(P a, P b, P c, P d, P* on_cd) {
    double best = kInf;
    auto consider = [&](P p, P seg0, P seg1, bool p_on_ab) {
        double t = 0.0;
        const double d2 = pointSegment2(p, seg0, seg1, &t);
        if (d2 < best) {
            best = d2;
            *on_cd = p_on_ab ? seg0 + (seg1 - seg0) * t : p;
        }
    };
    if (segmentsIntersect(a, b, c, d)) {
        // A line across a wall must go round one of its ends: the one nearer the line.
        const P u = b - a;
        const double lu = norm(u);
        const double dc = lu > 0.0 ? std::fabs(cross(u, c - a)) / lu : 0.0;
        const double dd = lu > 0.0 ? std::fabs(cross(u, d - a)) / lu : 0.0;
        *on_cd = dc <= dd ? c : d;
        return 0.0;
    }
    consider(a, c, d, true);
    consider(b, c, d, true);
    consider(c, a, b, false);
    consider(d, a, b, false);
    return std::sqrt(best);
}

struct Tightening {
    const CorridorPortal* portals;
    uint32_t count;
    CorridorWrap start, goal;
    CorridorWrap* w; // wraps[0..n)
    uint32_t n, capacity;
    bool goal_clean; // the line arriving at the goal, as CorridorWrap::clean

    const CorridorWrap& at(uint32_t j) const { // j = 0: start, 1..n: wraps, n + 1: goal
        return j == 0 ? start : j == n + 1 ? goal : w[j - 1];
    }

    // The wrap turned most backwards (its disc left behind), if any.
    bool dropBackwardWrap() {
        double worst = -kWrapSlack;
        uint32_t drop = kNone;
        P u_in = tangentDirection(at(0), at(1));
        for (uint32_t j = 1; j <= n; ++j) {
            const P u_out = tangentDirection(at(j), at(j + 1));
            const double turn = pseudoAngle(cross(u_in, u_out), dot(u_in, u_out)) * double(w[j - 1].side);
            if (turn < worst) worst = turn, drop = j - 1;
            u_in = u_out;
        }
        if (drop == kNone) return false;
        for (uint32_t k = drop; k + 1 < n; ++k)
            w[k] = w[k + 1];
        --n;
        markChanged(drop); // the line from the wrap before the dropped one to the one after
        return true;
    }

    // The line arriving at at(j + 1) is new: check it again.
    void markChanged(uint32_t j) {
        if (j < n)
            w[j].clean = false;
        else
            goal_clean = false;
    }

    // How far along the portals a line touching disc w may reach: the same wall point is often
    // the side of several portals in a row (and a disc the tightening added sits on the piece
    // before the first of them), and a line tangent to it may end (start) anywhere along them.
    uint32_t reachAhead(const CorridorWrap& w) const {
        uint32_t k = w.portal;
        while (k + 1 < count && samePoint(w.side > 0 ? portals[k + 1].left : portals[k + 1].right, w.c))
            ++k;
        return k;
    }
    uint32_t reachBack(const CorridorWrap& w) const {
        uint32_t k = w.portal;
        while (k > 0 && samePoint(w.side > 0 ? portals[k - 1].left : portals[k - 1].right, w.c))
            --k;
        return k;
    }

    // The corridor's boundary on one side (0 left) between portals i and next: the wall piece
    // between their wall points when both lie on one wall (each end's way to the route point is
    // square to it); where the side changes walls (at a roadmap vertex, a branch pruned into a
    // concave corner) the chord between the two wall points, which a taut path never crosses.
    // False for a chord: only its ends are wall points.
    bool boundaryPiece(uint32_t i, uint32_t next, int side, P* c, P* d, double* r) const {
        const CorridorPortal &p = portals[i], &q = portals[next];
        *c = side == 0 ? p.left : p.right;
        *d = side == 0 ? q.left : q.right;
        *r = minOf(side == 0 ? p.left_radius : p.right_radius, side == 0 ? q.left_radius : q.right_radius);
        const P along = *d - *c;
        const double length = norm(along);
        if (!(length > 0.0)) return true;
        const P to_p = (side == 0 ? p.left_end : p.right_end) - *c;
        const P to_q = (side == 0 ? q.left_end : q.right_end) - *d;
        const double square = 1e-6 * length;
        return std::fabs(dot(to_p, along)) <= square * norm(to_p) &&
               std::fabs(dot(to_q, along)) <= square * norm(to_q);
    }

    // Whether line j ends beyond the chord on `side` of the end cell i (between portals i and
    // i + 1): the start inside the first cell, or the goal inside the last, on the walls' side
    // of its chord (where a branch pruned into a concave corner leaves free floor). A taut path
    // to that end crosses the chord; the check after the tightening measures that whole line
    // against the walls (the end lies within the cell, short of the portal it would cross).
    bool endBeyondChord(uint32_t j, uint32_t i, int side, P c, P d) const {
        const bool goal_cell = j == n && i + 2 == count, start_cell = j == 0 && i == 0 && count > 1;
        if (!goal_cell && !start_cell) return false;
        const P end = goal_cell ? goal.c : start.c;
        const CorridorPortal& end_portal = portals[goal_cell ? count - 1 : 0];
        const double inside = cross(end_portal.right - end_portal.left, end - end_portal.left);
        if (goal_cell ? !(inside < 0.0) : !(inside > 0.0)) return false;
        const double beyond = cross(d - c, end - c);
        return side == 0 ? beyond > 0.0 : beyond < 0.0;
    }

    // The boundary piece line j (from at(j) to at(j + 1)) comes closest to, below its clearance.
    bool deepestViolation(uint32_t j, CorridorWrap* out) const {
        const P u = tangentDirection(at(j), at(j + 1));
        const P a = touchPoint(at(j), u), b = touchPoint(at(j + 1), u);
        const uint32_t first = j == 0 ? 0 : reachBack(at(j));
        const uint32_t last = j == n ? count - 1 : reachAhead(at(j + 1));
        double depth = kTouchSlack;
        bool found = false;
        for (uint32_t i = first; i <= last && i < count; ++i) {
            const CorridorPortal &p = portals[i], &q = portals[i < last ? i + 1 : i];
            if (i < last && q.open_before) continue; // nothing known between them
            for (int side = 0; side < 2; ++side) {
                // A piece whose two ends lie on their side of the line, at least the clearance
                // away from it, is that far from the whole line: most pieces end here.
                const double sign = side == 0 ? 1.0 : -1.0;
                const double r_max = maxOf(side == 0 ? p.left_radius : p.right_radius,
                                           side == 0 ? q.left_radius : q.right_radius);
                if (sign * cross(u, (side == 0 ? p.left : p.right) - a) >= r_max - depth &&
                    sign * cross(u, (side == 0 ? q.left : q.right) - a) >= r_max - depth)
                    continue;
                P c, d;
                double r;
                const bool wall = boundaryPiece(i, i < last ? i + 1 : i, side, &c, &d, &r);
                P nearest;
                double gap = segmentGap(a, b, c, d, &nearest);
                if (!wall && (gap > 0.0 || endBeyondChord(j, i, side, c, d))) {
                    // Near a chord only its ends count (the wall points); across it, the line
                    // must go round the nearer end, unless its end lies beyond the chord.
                    const double gc = std::sqrt(pointSegment2(c, a, b, nullptr));
                    const double gd = std::sqrt(pointSegment2(d, a, b, nullptr));
                    gap = minOf(gc, gd);
                    nearest = gc <= gd ? c : d;
                }
                if (r - gap > depth) {
                    depth = r - gap, found = true;
                    *out = CorridorWrap{nearest, r, i, int8_t(side == 0 ? 1 : -1), false};
                }
            }
        }
        return found;
    }

    // One round: a backward wrap leaves, else every line's deepest violation joins. False when
    // the path is taut and clear, or out of room.
    bool round(bool* overflow) {
        if (dropBackwardWrap()) return true;
        bool changed = false;
        for (uint32_t j = n + 1; j-- > 0;) { // from the goal back, so indices below stay valid
            bool& clean = j < n ? w[j].clean : goal_clean;
            if (clean) continue;
            CorridorWrap add;
            clean = true;
            if (!deepestViolation(j, &add)) continue;
            // The same wall vertex as a neighbour (a larger preferred radius elsewhere): one disc.
            CorridorWrap* twin = j > 0 && samePoint(w[j - 1].c, add.c) && w[j - 1].side == add.side
                                     ? &w[j - 1]
                                 : j < n && samePoint(w[j].c, add.c) && w[j].side == add.side ? &w[j]
                                                                                              : nullptr;
            // A line tangent to its own end disc, measured a rounding closer: nothing to add.
            if (twin && twin->r >= add.r) continue;
            clean = false;
            changed = true;
            if (twin) {
                twin->r = maxOf(twin->r, add.r);
                const uint32_t k = uint32_t(twin - w); // both lines at the twin change
                markChanged(k);
                markChanged(k + 1);
                continue;
            }
            if (n == capacity) {
                *overflow = true;
                return false;
            }
            for (uint32_t k = n; k > j; --k)
                w[k] = w[k - 1];
            w[j] = add;
            ++n;
            markChanged(j + 1); // the line out of the new disc; the one into it is not clean
        }
        return changed;
    }
};

} // namespace

uint32_t corridorFunnel(const CorridorPortal* portals, uint32_t count, P start, P goal, CorridorWrap* wraps,
                        uint32_t capacity) {
    uint32_t n = pointFunnel(portals, count, start, goal, wraps, capacity);
    if (n == kNone) return kNone;
    // Consecutive bends at one wall vertex are one disc.
    uint32_t kept = 0;
    for (uint32_t j = 0; j < n; ++j)
        if (kept == 0 || !samePoint(wraps[kept - 1].c, wraps[j].c) || wraps[kept - 1].side != wraps[j].side)
            wraps[kept++] = wraps[j];
    return corridorTighten(portals, count, start, goal, wraps, kept, capacity);
}

uint32_t corridorTighten(const CorridorPortal* portals, uint32_t count, P start, P goal, CorridorWrap* wraps,
                         uint32_t n, uint32_t capacity) {
    Tightening t{portals,
                 count,
                 CorridorWrap{start, 0.0, kNone, 0, true},
                 CorridorWrap{goal, 0.0, kNone, 0, true},
                 wraps,
                 n,
                 capacity,
                 false};
    bool overflow = false;
    uint32_t rounds = 0;
    while (t.round(&overflow))
        if (++rounds == kTightenRounds) return kNone;
    if (overflow) return kNone;
    // Discs that overlap too much for a tangent line (preferred radii across a narrow stretch)
    // would leave a kink: no path at these radii.
    for (uint32_t j = 0; j <= t.n; ++j) {
        const CorridorWrap &a = t.at(j), &b = t.at(j + 1);
        const P d = b.c - a.c;
        const double k = b.r * double(b.side) - a.r * double(a.side);
        if (!(dot(d, d) > k * k)) return kNone;
    }
    return t.n;
}

CorridorTangent corridorTangent(const CorridorWrap& from, const CorridorWrap& to) {
    const P u = tangentDirection(from, to);
    return CorridorTangent{touchPoint(from, u), touchPoint(to, u), u};
}

} // namespace detail
} // namespace clearway
