// The polyline shortening (Nieuwenhuisen et al. 2004 "Answering path queries"): findPath's
// fallback for routes the corridor funnel (path_corridor.cpp) does not take: assets without point
// sides, routes across layers, levels with designer areas. The A* route runs along the medial axis,
// so every corner of it has the most clearance its corridor offers; shortening keeps the same
// corridor and pulls the path taut against discs round the walls:
//   1. greedy string pulling: from each anchor the farthest route corner a clear segment reaches,
//      found by galloping then bisection (visibility along a route is nearly monotone);
//   2. relaxation: each corner slides towards the chord of its neighbours while both pieces stay
//      clear, so corners leave the medial axis and settle against the wall that blocks them;
//   3. pins: a corner that settled against a wall point W becomes an arc of the required
//      clearance round W (the exact shortest path with clearance wraps such discs), found as the
//      intersection of the tangents from its neighbours; a few sweeps make adjacent tangents
//      agree. Corners without a pin get the largest arc that keeps the hard clearance.
// Every segment and arc is checked exactly against the walls before it is kept.
#include "path_internal.h"

#include <cmath>
#include <cstring>

namespace clearway {
namespace detail {

namespace {

using Corner = PathCorner;

constexpr double kPi = 3.14159265358979323846;
// Added to the agent radius for every check: keeps dense-sample brute-force distances >= radius
// despite float walls and the rounding of tangent constructions.
constexpr double kHardMargin = 1e-5;
// One pass gets within 0.02 % of three on the peer meshes at 80 % of the cost.
constexpr int kRelaxPasses = 1;
constexpr int kRelaxSteps = 6;
constexpr int kPinSweeps = 6;
constexpr double kArcRoom = 0.02;
constexpr int kInsertRounds = 4;
constexpr double kMergeTurn = 0.75 * kPi;

P unitOf(P d) {
    const double n = norm(d);
    return n > 0.0 ? d * (1.0 / n) : P{0, 0};
}

P at(const Corner& c) {
    return P{c.x, c.y};
}

double signedTurn(P a, P b, P c) {
    const P u = unitOf(b - a), w = unitOf(c - b);
    return std::atan2(cross(u, w), dot(u, w));
}

struct Run {
    const fb::Roadmap& rm;
    PathScratch& s;
    uint32_t layer;
    double hard, preferred;

    // Remembered per query (PathScratch::seg_memo): the tangent rounds and the final check ask about
    // the same pieces again, and the second attempt repeats much of the first. The same inputs
    // give the same answer, so a remembered one is the exact test's.
    bool clear(P a, P b, double clearance) const {
        SegMemo& e = s.seg_memo[memoSlot(a, b, clearance)];
        if (e.round == s.seg_memo_round && e.layer == layer && e.ax == a.x && e.ay == a.y && e.bx == b.x &&
            e.by == b.y && e.clearance == clearance)
            return e.clear != 0;
        const bool clear = test(a, b, clearance);
        e = SegMemo{a.x, a.y, b.x, b.y, clearance, layer, s.seg_memo_round, clear ? 1u : 0u};
        return clear;
    }

    // The same test without the memo, for segments asked once: the string pulling's galloping
    // and bisections and the relaxation's steps (on dungeon 0.04 of their ~34 tests a query were
    // asked again; hashing them all costs more than that saves).
    bool test(P a, P b, double clearance) const {
        return wallsSegmentClear(rm, s, layer, a, b, clearance) && areasAllow(rm, s, layer, a, b);
    }

    static uint32_t memoSlot(P a, P b, double clearance) {
        const double key[5] = {a.x, a.y, b.x, b.y, clearance};
        uint64_t h = 1469598103934665603ull;
        for (const double v : key) {
            uint64_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            h = (h ^ bits) * 1099511628211ull;
            h ^= h >> 29;
        }
        return uint32_t(h & (kSegMemoSlots - 1));
    }
};

// Tangent from external point a to the circle (w, r), leaving a so that the circle lies on side
// `side` (+1 left, -1 right) of the direction of travel. False when a is inside the circle.
bool tangentFrom(P a, P w, double r, double side, P* dir, P* touch) {
    const P d = w - a;
    const double dist = norm(d);
    if (!(dist > r)) return false;
    const double alpha = std::asin(r / dist);
    const double phi = std::atan2(d.y, d.x) - side * alpha;
    *dir = P{std::cos(phi), std::sin(phi)};
    *touch = a + *dir * std::sqrt(dist * dist - r * r);
    return true;
}

// Intersection a + u t = b + v s; false for (near) parallel lines.
bool intersect(P a, P u, P b, P v, double* t, double* s) {
    const double den = cross(u, v);
    if (std::fabs(den) < 1e-12) return false;
    *t = cross(b - a, v) / den;
    *s = cross(b - a, u) / den;
    return true;
}

// Tangent sweeps: each pinned corner moves to where the tangents from its neighbours to its
// disc meet; a few sweeps make adjacent tangents agree. A pin that cannot hold (a neighbour inside
// its disc, tangents meeting behind) is dropped and the corner goes back to where it was.
void sweepPinnedCorners(Corner* c, uint32_t first, uint32_t last) {
    // Ticks order every computation: corner k is computed again only when a neighbour moved after
    // k's last computation (its inputs are the neighbours' positions and its own constant pin).
    uint32_t tick = 1;
    for (uint32_t k = first; k <= last; ++k)
        c[k].sweep_moved = 1, c[k].sweep_done = 0;
    for (int sweep = 0; sweep < kPinSweeps; ++sweep) {
        for (uint32_t k = first + 1; k < last; ++k) {
            if (!c[k].pinned) continue;
            if (c[k].sweep_done != 0 && c[k - 1].sweep_moved < c[k].sweep_done &&
                c[k + 1].sweep_moved < c[k].sweep_done)
                continue;
            c[k].sweep_done = ++tick;
            const double x = c[k].x, y = c[k].y;
            const P A = at(c[k - 1]), B = at(c[k + 1]), pin{c[k].pin_x, c[k].pin_y};
            const double side = c[k].pin_side;
            P ua, ta, ub, tb;
            double t_a, t_b;
            if (!tangentFrom(A, pin, c[k].pin_radius, side, &ua, &ta) ||
                !tangentFrom(B, pin, c[k].pin_radius, -side, &ub, &tb) ||
                !intersect(A, ua, B, ub, &t_a, &t_b) || t_a < norm(ta - A) || t_b < norm(tb - B)) {
                c[k].pinned = false;
                c[k].x = c[k].relaxed_x, c[k].y = c[k].relaxed_y;
            } else {
                const P corner = A + ua * t_a;
                c[k].x = corner.x, c[k].y = corner.y;
                c[k].trim = t_a - norm(ta - A);
            }
            if (!(c[k].x == x && c[k].y == y)) c[k].sweep_moved = tick;
        }
    }
}

// Wall distance at a route corner: stored for roadmap vertices, the distance to the edge's
// clearance site for its polyline points (they lie on the exact bisector), else measured.
double routeClearance(const fb::Roadmap& rm, const PathScratch& s, const Corner& c) {
    constexpr uint32_t kNone = 0xffffffffu;
    if (c.kind == Corner::Vertex && c.vertex != kNone) return rm.vertices()->Get(c.vertex)->clearance();
    if (c.kind == Corner::Interior && c.edge_in != kNone) {
        const fb::RoadmapEdge& e = *rm.edges()->Get(c.edge_in);
        const P site0{e.site_x0(), e.site_y0()}, site1{e.site_x1(), e.site_y1()};
        if (e.site() == fb::ClearanceSite::Point) return norm(at(c) - site0);
        if (e.site() == fb::ClearanceSite::Segment)
            return std::sqrt(pointSegment2(at(c), site0, site1, nullptr));
    }
    return wallsNearest(rm, s, c.layer, at(c), nullptr);
}

// The arc at a corner lies in the triangle of its tangent points and the corner, whose sides
// along the pieces were checked with them: the chord and the area vertices inside decide.
bool arcAreasAllow(const Run& run, P corner, P u, P w, double trim) {
    const uint32_t count = run.s.area_count;
    if (count == 0) return true;
    const P a = corner - u * trim, b = corner + w * trim;
    if (!areasAllow(run.rm, run.s, run.layer, a, b)) return false;
    const double sense = orient(a, corner, b) > 0 ? 1.0 : -1.0;
    for (uint32_t i = 0; i < count; ++i) {
        const fb::WeightedArea& area = *run.rm.areas()->Get(i);
        if (run.s.area_used[i] != kAreaAvoided || area.layer() != run.layer) continue;
        for (uint32_t k = 0; k < area.vertex_count(); ++k) {
            const P v = pt(run.rm.area_vertices()->Get(area.first_vertex() + k));
            if (sense * orient(a, corner, v) >= 0 && sense * orient(corner, b, v) >= 0 &&
                sense * orient(b, a, v) >= 0)
                return false;
        }
    }
    return true;
}

// Arcs for one run's corners [first, last]: pinned corners keep their tangent construction, the
// others get the largest arc that keeps the hard clearance. With `use_pins` false, or when a pin's
// arc or a line between arcs is not clear, returns false (the caller falls back).
bool finishRun(const Run& run, Corner* c, uint32_t first, uint32_t last, bool use_pins) {
    auto pieceLen = [&](uint32_t k) { return norm(at(c[k + 1]) - at(c[k])); };
    // Twins left on one spot by failed pins hide a sharp turn behind a piece too short for arcs,
    // and an added corner whose pin failed sits at a guess, not on the relaxed path: both fall back.
    if (use_pins)
        for (uint32_t k = first; k < last; ++k)
            if (!(pieceLen(k) >= 3 * kMinLine) || (k > first && c[k].inserted && !c[k].pinned)) return false;
    for (uint32_t k = first + 1; k < last; ++k) {
        const P A = at(c[k - 1]), Pk = at(c[k]), B = at(c[k + 1]);
        const double turn = signedTurn(A, Pk, B);
        const P u = unitOf(Pk - A);
        if (std::fabs(turn) < 1e-9 || std::fabs(turn) > kPi - 1e-6) {
            // Straight on needs no arc; turning back has none (the pins crossed over).
            if (use_pins && std::fabs(turn) >= 1e-9) return false;
            c[k].trim = 0.0;
            continue;
        }
        if (use_pins && c[k].pinned) {
            if (!(c[k].trim > 0.0)) return false;
            const CornerArc arc = cornerArc(Pk, u, turn, c[k].trim);
            if (!wallsArcClear(run.rm, run.s, run.layer, arc.center, arc.start, turn, run.hard)) return false;
            if (!arcAreasAllow(run, Pk, u, unitOf(B - Pk), c[k].trim)) return false;
            continue;
        }
        const double room = 0.5 * (pieceLen(k - 1) < pieceLen(k) ? pieceLen(k - 1) : pieceLen(k));
        c[k].trim = largestClearTrim(run.rm, run.s, run.layer, run.layer, Pk, u, turn, room, run.hard);
        // Smaller arcs stay nearer the corner, whose two pieces keep out of avoided areas.
        while (c[k].trim > 1e-6 && !arcAreasAllow(run, Pk, u, unitOf(B - Pk), c[k].trim))
            c[k].trim *= 0.5;
        if (!(c[k].trim > 1e-6)) c[k].trim = 0.0;
        if (use_pins && !(c[k].trim > 0.0)) return false;
    }
    if (!use_pins) return true; // pieces of the checked polyline, arcs checked one by one
    for (uint32_t k = first; k < last; ++k) {
        const P a = at(c[k]), b = at(c[k + 1]);
        const double len = norm(b - a);
        if (c[k].trim + c[k + 1].trim > len * (1.0 + 1e-12)) return false;
        const P u = unitOf(b - a);
        if (!run.clear(a + u * c[k].trim, b - u * c[k + 1].trim, run.hard)) return false;
    }
    return true;
}

// Length of a finished run: its pieces less the trims, plus the arcs (radius trim / tan(turn / 2)).
double runLength(const Corner* c, uint32_t first, uint32_t last) {
    double length = 0.0;
    for (uint32_t k = first; k < last; ++k)
        length += norm(at(c[k + 1]) - at(c[k]));
    for (uint32_t k = first + 1; k < last; ++k) {
        const double turn = std::fabs(signedTurn(at(c[k - 1]), at(c[k]), at(c[k + 1])));
        if (!(c[k].trim > 0.0) || !(turn > 1e-9)) continue;
        length += c[k].trim / std::tan(0.5 * turn) * turn - 2.0 * c[k].trim;
    }
    return length;
}

} // namespace

// Segment a-b (a point when a == b) touches area polygon `area`: an end inside, or a boundary
// edge meeting it. Boundary contact counts, so a route grazing an area marks it.
bool touchesArea(const fb::Roadmap& rm, const fb::WeightedArea& area, P a, P b) {
    const auto* v = rm.area_vertices();
    const uint32_t first = area.first_vertex(), count = area.vertex_count();
    bool inside = false;
    for (uint32_t i = 0, j = count - 1; i < count; j = i++) {
        const P p = pt(v->Get(first + i)), q = pt(v->Get(first + j));
        if (segmentsIntersect(a, b, p, q)) return true;
        if ((p.y > a.y) != (q.y > a.y) && a.x < (q.x - p.x) * (a.y - p.y) / (q.y - p.y) + p.x)
            inside = !inside;
    }
    return inside;
}

namespace {

// One run of the corner list (consecutive pieces on one layer, route corners i0..i1) being
// shortened into output slots first..last; the steps below are the file comment's 1-4.
struct RunShortening {
    const fb::Roadmap& rm;
    PathScratch& s;
    Corner* c;
    double* m; // route corners' clearances, then (output index k) output piece k's requirement
    const Run& run;
    uint32_t i0, i1;
    double hard, floor, preferred;
    uint32_t& w; // output cursor: never past an index still to be read
    uint32_t first = 0, last = 0, relaxed_last = 0;
    // required's running minimum: the anchor it starts at and how far it reaches.
    uint32_t min_anchor = 0xffffffffu, min_upto = 0;
    bool shared_pins = false; // the first pin attempt saw neighbours pinned to one wall point

    // Required clearance of a piece replacing route corners a..b: the preferred clearance,
    // capped by the least the corridor offers along them, never below the radius.
    // Queried with one anchor a at a time: the running minimum from a is cached in the
    // corners' relax_slack (unused until the relaxation, and only at indices >= a).
    double required(uint32_t a, uint32_t b) {
        if (min_anchor != a) {
            min_anchor = min_upto = a;
            c[a].relax_slack = m[a];
        }
        for (; min_upto < b; ++min_upto)
            c[min_upto + 1].relax_slack = minOf(c[min_upto].relax_slack, m[min_upto + 1]);
        const double lo = c[b].relax_slack;
        const double q = lo < preferred ? lo : preferred;
        return q > floor ? q : floor;
    }

    // 1. Greedy string pulling. From here on m[k] for an output index k is the requirement
    // of output piece k (corner k to k + 1): written only once no read needs the old value.
    void pullString() {
        first = w;
        uint32_t a = i0;
        c[w] = c[a];
        while (a < i1) {
            uint32_t lo = a + 1, hi = i1 + 1;
            for (uint32_t step = 2; a + step <= i1; step *= 2) {
                const uint32_t j = a + step;
                if (!run.test(at(c[a]), at(c[j]), required(a, j))) {
                    hi = j;
                    break;
                }
                lo = j;
            }
            if (hi == i1 + 1 && lo < i1 && run.clear(at(c[a]), at(c[i1]), required(a, i1))) lo = i1;
            while (hi <= i1 && hi - lo > 1) {
                const uint32_t mid = lo + (hi - lo) / 2;
                (run.test(at(c[a]), at(c[mid]), required(a, mid)) ? lo : hi) = mid;
            }
            double q = required(a, lo);
            if (lo == a + 1 && !run.test(at(c[a]), at(c[lo]), q)) {
                // The route's own piece (clear at the radius by construction) dips below q: keep
                // the most clearance it has, to within 1/256 of the gap.
                double good = hard, bad = q;
                for (int it = 0; it < 8; ++it) {
                    const double mid = 0.5 * (good + bad);
                    (run.test(at(c[a]), at(c[lo]), mid) ? good : bad) = mid;
                }
                q = good;
            }
            m[w] = q;
            c[++w] = c[lo];
            a = lo;
        }
        last = w++; // the run's last corner stays fixed like its first
    }

    // Corner k goes; the piece from k - 1 to k + 1 must keep q.
    void dropCorner(uint32_t k, double q) {
        m[k - 1] = q;
        for (uint32_t j = k; j < last; ++j) {
            c[j] = c[j + 1];
            if (j + 1 < last) m[j] = m[j + 1];
        }
        --last;
        --w;
    }

    // 2. Relaxation towards the neighbours' chord.
    void relax() {
        for (int pass = 0; pass < kRelaxPasses; ++pass) {
            for (uint32_t k = first + 1; k < last; ++k) {
                const P A = at(c[k - 1]), B = at(c[k + 1]), Pk = at(c[k]);
                const double q = m[k - 1] > m[k] ? m[k - 1] : m[k];
                if (run.clear(A, B, q)) {
                    // Drop the corner: one piece keeping the stricter of the two requirements.
                    dropCorner(k--, q);
                    continue;
                }
                double t;
                pointSegment2(Pk, A, B, &t);
                const P target = A + (B - A) * t;
                c[k].relax_slack = norm(target - Pk) * std::ldexp(1.0, -kRelaxSteps);
                double good = 0.0, bad = 1.0;
                bool b_first = false; // ask first the piece that failed last (the same answer)
                for (int step = 0; step < kRelaxSteps; ++step) {
                    const double mid = 0.5 * (good + bad);
                    const P p = Pk + (target - Pk) * mid;
                    bool ok;
                    if (b_first) {
                        ok = run.test(p, B, m[k]);
                        if (ok) ok = run.test(A, p, m[k - 1]), b_first = ok;
                    } else {
                        ok = run.test(A, p, m[k - 1]);
                        if (ok) ok = run.test(p, B, m[k]), b_first = !ok;
                    }
                    (ok ? good : bad) = mid;
                }
                if (good > 0.0) {
                    const P p = Pk + (target - Pk) * good;
                    c[k].x = p.x, c[k].y = p.y;
                }
            }
        }
    }

    // 2b. A piece shorter than 3 kMinLine holds no arcs, so both its corners would stay sharp.
    // Relaxation squeezes two corners that close where the piece between them must keep a
    // split medial-axis vertex's clearance and the pieces beyond keep theirs only along axes
    // that float noise set apart (a room's centre at a large preferred clearance). One corner
    // does: drop one when the piece replacing both keeps the lower of their requirements (the
    // least clearance of the route corners it replaces).
    void dropSqueezedCorners() {
        for (uint32_t k = first + 1; k < last; ++k) {
            if (!(norm(at(c[k]) - at(c[k - 1])) < 3 * kMinLine) &&
                !(norm(at(c[k + 1]) - at(c[k])) < 3 * kMinLine))
                continue;
            const double q = m[k - 1] < m[k] ? m[k - 1] : m[k];
            if (run.clear(at(c[k - 1]), at(c[k + 1]), q)) dropCorner(k--, q);
        }
    }

    // The relaxed run is clear at every piece's requirement: the fallback if the pins fail.
    void saveRelaxed() {
        relaxed_last = last;
        for (uint32_t k = first; k <= last; ++k) {
            s.relaxed_run[k - first] = c[k];
            s.relaxed_requirement[k - first] = m[k];
        }
    }
    void restoreRelaxed() {
        for (uint32_t k = first; k <= relaxed_last; ++k) {
            c[k] = s.relaxed_run[k - first];
            m[k] = s.relaxed_requirement[k - first];
        }
        w = w - last + relaxed_last;
        last = relaxed_last;
    }

    // 3. Pins: the wall points the two pieces at each corner settled against (one point when
    // both touch the same one, else the corner splits in two), the arcs of the pieces'
    // clearance round them, and corners where the tangents from the neighbours meet.
    void pinCorners(uint32_t room_end) {
        for (uint32_t k = first + 1; k < last; ++k) {
            c[k].relaxed_x = c[k].x, c[k].relaxed_y = c[k].y;
            const P A = at(c[k - 1]), Pk = at(c[k]), B = at(c[k + 1]);
            const double turn = signedTurn(A, Pk, B);
            if (std::fabs(turn) < 1e-6 || std::fabs(turn) > kPi - 1e-3) continue;
            const double side = turn > 0 ? 1.0 : -1.0;
            const double radius_k = m[k - 1] < m[k] ? m[k - 1] : m[k];
            // Relaxation stops up to its last step short of the blocking wall: reach past that.
            const double reach = (m[k - 1] > m[k] ? m[k - 1] : m[k]) + c[k].relax_slack + 1e-3;
            P wa, wb;
            const bool has_a = wallsNearestToSegment(rm, s, run.layer, A, Pk, reach, side, &wa);
            const bool has_b = wallsNearestToSegment(rm, s, run.layer, Pk, B, reach, side, &wb);
            if (!has_a && !has_b) continue;
            c[k].pinned = true;
            c[k].pin_side = side;
            c[k].pin_radius = radius_k;
            const P first_pin = has_a ? wa : wb;
            c[k].pin_x = first_pin.x, c[k].pin_y = first_pin.y;
            // Two different wall points: a second corner right after this one, if the slot after
            // the run is free (it never is when nothing was shortened; then one pin it is).
            if (!has_a || !has_b || norm(wa - wb) < 1e-6 || last + 1 >= room_end) continue;
            for (uint32_t j = last + 1; j > k + 1; --j)
                c[j] = c[j - 1];
            for (uint32_t j = last; j > k; --j)
                m[j] = m[j - 1];
            m[k] = m[k - 1] > m[k + 1] ? m[k - 1] : m[k + 1]; // the new piece between the two
            c[k + 1] = c[k];
            c[k + 1].inserted = true;
            c[k + 1].pin_x = wb.x, c[k + 1].pin_y = wb.y;
            // Start the twins where each piece passes its wall point, so the tangent sweeps
            // begin from a corner that already cuts the turn between them.
            double t;
            pointSegment2(wa, A, Pk, &t);
            const P on_a = A + (Pk - A) * t;
            pointSegment2(wb, Pk, B, &t);
            const P on_b = Pk + (B - Pk) * t;
            c[k].x = on_a.x, c[k].y = on_a.y;
            c[k + 1].x = on_b.x, c[k + 1].y = on_b.y;
            ++last;
            ++w;
            ++k;
        }
    }

    // Neighbours pinned to one wall point from the same side wrap one disc, so one corner
    // does: relaxation stalls both against the first wall they meet, short of the next one,
    // which the tangent rounds below then find and pin (a taut path round two pillar corners).
    // Only notes such neighbours (shared_pins) unless `merge`; true when it merged any.
    bool mergeSharedPins(bool merge) {
        bool merged = false;
        for (uint32_t k = first + 2; k < last; ++k) {
            if (!c[k].pinned || !c[k - 1].pinned || c[k].pin_side != c[k - 1].pin_side ||
                norm(P{c[k].pin_x - c[k - 1].pin_x, c[k].pin_y - c[k - 1].pin_y}) > 1e-9)
                continue;
            // Twins whose neighbours turn more than kMergeTurn round the wall point wrap its
            // disc too far for one corner's tangents (and merging them costs a second attempt).
            const double wrap = signedTurn(at(c[k - 2]), P{c[k].pin_x, c[k].pin_y}, at(c[k + 1]));
            if (std::fabs(wrap) > kMergeTurn) continue;
            shared_pins = true;
            if (!merge) break;
            m[k - 1] = m[k - 1] > m[k] ? m[k - 1] : m[k];
            c[k - 1].pin_radius = m[k - 2] < m[k - 1] ? m[k - 2] : m[k - 1];
            for (uint32_t j = k; j < last; ++j) {
                c[j] = c[j + 1];
                m[j] = m[j + 1];
            }
            --last;
            --w;
            --k;
            merged = true;
        }
        return merged;
    }

    // An added corner whose pin failed stays unpinned (sweeps never pin again, rounds only
    // add corners), and finishRun rejects it: no use looking for more walls.
    bool lostAddedPin() const {
        for (uint32_t k = first + 1; k < last; ++k)
            if (c[k].inserted && !c[k].pinned) return true;
        return false;
    }

    // A line between two arcs may now pass a wall no relaxed piece touched (wrapping one pin
    // opens the view past the next): pin that wall as well. True when it added a corner.
    bool pinExposedWalls(uint32_t room_end) {
        bool more = false;
        for (uint32_t k = first; k < last && last + 1 < room_end; ++k) {
            const P a = at(c[k]), b = at(c[k + 1]);
            const P u = unitOf(b - a);
            const P from = a + u * (c[k].pinned ? c[k].trim : 0.0);
            const P to = b - u * (c[k + 1].pinned ? c[k + 1].trim : 0.0);
            if (!(norm(to - from) > 0.0) || run.clear(from, to, hard)) continue;
            // The new wall wraps the same way as the turn whose tangent exposed it.
            const double side = c[k].pinned       ? c[k].pin_side
                                : c[k + 1].pinned ? c[k + 1].pin_side
                                                  : 0.0;
            // Walls it meets lie between it and the clear polyline it replaced.
            const P region[4] = {from, c[k].pinned ? P{c[k].relaxed_x, c[k].relaxed_y} : a,
                                 c[k + 1].pinned ? P{c[k + 1].relaxed_x, c[k + 1].relaxed_y} : b, to};
            P wall;
            if (side == 0.0 || !wallsMostIntruding(rm, s, run.layer, from, to, m[k], side, region, &wall))
                continue;
            const bool use_left = side > 0.0;
            for (uint32_t j = last + 1; j > k + 1; --j)
                c[j] = c[j - 1];
            for (uint32_t j = last; j > k; --j)
                m[j] = m[j - 1];
            Corner& added = c[k + 1];
            added = c[k];
            added.kind = Corner::Interior;
            added.pinned = added.inserted = true;
            added.pin_x = wall.x, added.pin_y = wall.y;
            added.pin_radius = m[k];
            added.pin_side = use_left ? 1.0 : -1.0;
            added.trim = 0.0;
            // Start just outside its circle, beside the wall point, so the neighbours'
            // tangents see it on the right side.
            const P left_normal{-u.y, u.x};
            const P start = wall - left_normal * (side * 1.5 * m[k]);
            added.x = added.relaxed_x = start.x, added.y = added.relaxed_y = start.y;
            ++last;
            ++w;
            ++k;
            more = true;
        }
        return more;
    }

    // Steps 3 and 4 with pins. `merge_shared_pins`: the second attempt, after the first fell back
    // (see shorten). It may also fill the run's last free slot, which the first leaves alone.
    bool pinRun(bool merge_shared_pins) {
        const uint32_t room_end = merge_shared_pins ? i1 + 1 : i1;
        pinCorners(room_end);
        const bool merged = mergeSharedPins(merge_shared_pins);
        if (merge_shared_pins && !merged) return false; // it would repeat the first attempt
        sweepPinnedCorners(c, first, last);
        if (lostAddedPin()) return false;
        // Pin newly exposed walls and sweep again.
        for (int round = 0; round < kInsertRounds; ++round) {
            if (!pinExposedWalls(room_end)) break;
            sweepPinnedCorners(c, first, last);
            if (lostAddedPin()) return false;
        }
        return finishRun(run, c, first, last, true);
    }

    void shorten() {
        pullString();
        relax();
        dropSqueezedCorners();
        saveRelaxed();
        // 4. Arcs and the final check; on any failure the relaxed polyline with plain arcs. Two
        // neighbours pinned to one disc usually wrap it by a wide angle, which one tangent corner
        // cannot; when they instead stalled short of the next wall, only merging them lets the
        // tangent rounds reach it (a taut path round both corners of a pillar), so that is tried
        // second and kept when it is shorter than the fallback.
        if (!pinRun(false)) {
            restoreRelaxed();
            finishRun(run, c, first, last, false);
            if (shared_pins) {
                const double fallback_length = runLength(c, first, last);
                for (uint32_t k = first; k <= last; ++k)
                    s.relaxed_run[k - first] = c[k]; // the finished fallback, restored as it is
                if (!(pinRun(true) && runLength(c, first, last) < fallback_length)) restoreRelaxed();
            }
        }
    }
};

// Wall distance at every corner (m), and the shortening's per-corner state reset; the avoided
// areas the route enters marked.
void startCorners(const fb::Roadmap& rm, PathScratch& s, uint32_t n, const KnownClearance known[2]) {
    Corner* c = s.corners;
    double* m = s.corner_clearance;
    // Avoided areas the route enters may be crossed by its shortcuts; no others (README).
    clearAreaMarks(&s);
    for (uint32_t k = 0; k + 1 < n; ++k)
        markAreas(rm, &s, c[k].layer, at(c[k]), at(c[k + 1]));
    for (uint32_t k = 0; k < n; ++k) {
        // An endpoint findPath measured (the same point and layer: the same number).
        const KnownClearance* same = nullptr;
        for (int e = 0; e < 2; ++e)
            if (c[k].kind == Corner::Endpoint && known[e].layer == c[k].layer && known[e].p.x == c[k].x &&
                known[e].p.y == c[k].y)
                same = &known[e];
        m[k] = same ? same->distance : routeClearance(rm, s, c[k]);
        c[k].trim = 0.0;
        c[k].pinned = c[k].inserted = false;
        c[k].relax_slack = 0.0;
    }
}

} // namespace

void clearAreaMarks(PathScratch* s) {
    for (uint32_t i = 0; i < s->area_count; ++i)
        s->area_used[i] &= uint8_t(~kAreaEntered);
}

// Avoided and not entered: the areas a made-up line must keep out of.
void markAreas(const fb::Roadmap& rm, PathScratch* s, uint32_t layer, P a, P b) {
    for (uint32_t i = 0; i < s->area_count; ++i) {
        const fb::WeightedArea& area = *rm.areas()->Get(i);
        if (s->area_used[i] == kAreaAvoided && area.layer() == layer && touchesArea(rm, area, a, b))
            s->area_used[i] |= kAreaEntered;
    }
}

bool areasAllow(const fb::Roadmap& rm, const PathScratch& s, uint32_t layer, P a, P b) {
    for (uint32_t i = 0; i < s.area_count; ++i) {
        const fb::WeightedArea& area = *rm.areas()->Get(i);
        if (s.area_used[i] == kAreaAvoided && area.layer() == layer && touchesArea(rm, area, a, b))
            return false;
    }
    return true;
}

void shortenCorners(const fb::Roadmap& rm, PathScratch* scratch, uint32_t* count, double radius,
                    double preferred_clearance, const KnownClearance known[2]) {
    PathScratch& s = *scratch;
    if (++s.seg_memo_round == 0) { // wrapped: forget every remembered test
        for (uint32_t i = 0; i < kSegMemoSlots; ++i)
            s.seg_memo[i].round = 0;
        s.seg_memo_round = 1;
    }
    Corner* c = s.corners;
    const uint32_t n = *count;
    const double hard = radius + kHardMargin;
    // Pieces keep a little more than the radius where they can, so an arc that keeps the radius
    // always fits at a corner even when its pin fails.
    const double floor = hard + kArcRoom * radius;
    const double preferred = preferred_clearance > floor ? preferred_clearance : floor;
    startCorners(rm, s, n, known);

    uint32_t w = 0; // output cursor: never past an index still to be read
    uint32_t i0 = 0;
    while (i0 < n) {
        // A run: consecutive pieces on one layer. It ends before a portal piece (kept as it is)
        // or at the corner where the layer changes: a zero-length connection edge collapses into
        // one corner on both layers, which ends this run and starts the next.
        uint32_t i1 = i0;
        while (i1 + 1 < n && !c[i1].portal) {
            ++i1;
            if (c[i1].layer != c[i0].layer) break;
        }
        const Run run{rm, s, c[i0].layer, hard, preferred};
        RunShortening shortening{rm, s, c, s.corner_clearance, run, i0, i1, hard, floor, preferred, w};
        shortening.shorten();
        if (i1 + 1 >= n) break;
        if (c[i1].portal) {
            i0 = i1 + 1;
        } else {
            i0 = i1; // the shared corner: the next run writes it again in the same slot
            w = shortening.last;
        }
    }
    *count = w;
}

} // namespace detail
} // namespace clearway
