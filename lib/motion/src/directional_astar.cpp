// Directional A* (Pinter 2001) over (cell, heading in 8 directions, gear) on a clearance grid
// rasterised from a footprint layer.
//
// Moves come from a motion table built once at init: for every start heading, a straight step to
// the neighbouring cell; for turns of +-45 and +-90 degrees the cheapest cell offsets whose
// shortest Dubins path turns one way only (loops are sequences of moves); and the cheapest S-bends
// shifting sideways by one lattice step.
// Each move stores the cells its sweep passes with a slack, so checking it against the clearance
// grid is a few lookups. Everything lives in the caller's workspace; queries never allocate.
#include <clearway/motion.h>

#include <cmath>
#include <cstring>
#include <initializer_list>

namespace clearway {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kHeadingStep = kPi / 4.0;
constexpr uint32_t kHeadings = 8;
constexpr uint32_t kShapesPerTurn = 2; // cheapest offsets kept per (heading, turn)
constexpr uint32_t kNone = 0xFFFFFFFFu;
constexpr uint32_t kClosed = 0xFFFFFFFEu;
// Kinds of move: heading change in 45-degree steps, and for straight-on moves an optional sideways
// shift by the smallest lattice offset (an S-bend; 45-degree turns cannot shift by less than
// r * (2 - sqrt 2), which would leave a vehicle off a corridor's centre cells for good).
struct MoveKind {
    int turn, shift;
};
constexpr MoveKind kMoveKinds[] = {{0, 0}, {1, 0}, {-1, 0}, {2, 0}, {-2, 0}, {0, 1}, {0, -1}};
// Clearance is stored on a grid kSub times finer than the search grid: a sweep sample is checked
// against its nearest fine centre minus its distance to it, so the test gives away at most half a
// fine cell's diagonal. Odd, so every search-cell centre is a fine-cell centre.
constexpr uint32_t kSub = 3;

struct Primitive {
    int16_t dx, dy; // cell offset of the end
    uint8_t from_heading, to_heading;
    int8_t direction; // +1 forward, -1 reverse
    uint8_t word;     // DubinsWord of the path in the driving frame
    float length;     // m
    uint32_t first_sample, sample_count;
};

// A cell the sweep passes and how far from its centre the sweep may be there (plus the half gap
// between samples): the move is clear if clearance(cell) - slack >= vehicle radius.
struct Sample {
    int16_t dcx, dcy;
    float slack;
};

struct Node {
    float g;
    uint32_t parent;    // node index, or kNone
    uint32_t heap_slot; // index in the open heap, kNone (not queued) or kClosed
    uint16_t primitive; // move that reached this node
    uint16_t generation;
};

struct HeapEntry {
    float f;
    uint32_t node;
};

size_t alignUp(size_t v) {
    return (v + 7) & ~static_cast<size_t>(7);
}
bool finite(double v) {
    return std::isfinite(v);
}

bool validSettings(const DirectionalAStarSettings& s) {
    return finite(s.cell_size) && s.cell_size > 0.0 && finite(s.turning_radius) && s.turning_radius > 0.0 &&
           finite(s.vehicle_radius) && s.vehicle_radius >= 0.0 && finite(s.reverse_cost) &&
           s.reverse_cost >= 1.0 && finite(s.gear_change_cost) && s.gear_change_cost >= 0.0 &&
           s.turning_radius / s.cell_size <= 1000.0;
}

bool validGrid(const DirectionalGrid& g, const DirectionalAStarSettings& s) {
    return finite(g.origin_x) && finite(g.origin_y) && g.cell_size == s.cell_size && g.width > 0 &&
           g.height > 0 && g.width < 32768 && g.height < 32768;
}

double headingAngle(uint32_t h) {
    return h * kHeadingStep;
}
const int kStepX[kHeadings] = {1, 1, 0, -1, -1, -1, 0, 1};
const int kStepY[kHeadings] = {0, 1, 1, 1, 0, -1, -1, -1};

// A path of one direction (driving frame) from the origin; its turning must be `turn` steps of 45
// degrees, all one way.
bool turnsOneWay(const CurvePath& path, int turn) {
    double total = 0.0;
    for (uint32_t i = 0; i < path.count; ++i) {
        const double k = path.pieces[i].curvature;
        if (k == 0.0 || path.pieces[i].length == 0.0) continue;
        if ((k > 0.0) != (turn > 0)) return false;
        total += path.pieces[i].length * std::fabs(k);
    }
    return std::fabs(total - std::abs(turn) * kHeadingStep) < 1e-6;
}

// An S-bend: two opposite arcs of at most 45 degrees each, shifting sideways by `shift` times the
// smallest lateral lattice offset for the heading.
bool isShift(const CurvePath& path, uint32_t heading, int dx, int dy, int shift) {
    int arcs = 0;
    double previous = 0.0;
    for (uint32_t i = 0; i < path.count; ++i) {
        const double k = path.pieces[i].curvature;
        if (k == 0.0 || path.pieces[i].length == 0.0) continue;
        if (path.pieces[i].length * std::fabs(k) > kHeadingStep + 1e-9 ||
            (arcs > 0 && (k > 0.0) == (previous > 0.0)))
            return false;
        previous = k;
        ++arcs;
    }
    // Lateral offset in cells; diagonal headings have lattice points 1/sqrt(2) apart sideways.
    const double lateral = -dx * std::sin(headingAngle(heading)) + dy * std::cos(headingAngle(heading));
    const double unit = heading % 2 == 0 ? 1.0 : 0.7071067811865476;
    return arcs == 2 && std::fabs(lateral - shift * unit) < 1e-6;
}

// Driving-frame poses of a move: reversing from body heading h equals driving forward from h + 180.
Pose2d drivingPose(double x, double y, uint32_t heading, int direction) {
    return Pose2d{x, y, headingAngle(direction > 0 ? heading : (heading + 4) % kHeadings)};
}

// Builds (or, with null outputs, only counts) the motion table and its sweep samples.
void buildPrimitives(const DirectionalAStarSettings& s, Primitive* prims, Sample* samples,
                     uint32_t* prim_count, uint32_t* sample_count) {
    const double cs = s.cell_size, r = s.turning_radius;
    // A 90-degree turn from a diagonal heading ends r*sqrt(2) away along an axis.
    const int reach = static_cast<int>(std::ceil(r * 1.4142135623730951 / cs)) + 2;
    const double fine = cs / kSub;
    const double step = 0.5 * fine;
    uint32_t np = 0, ns = 0;
    for (int direction : {1, -1}) {
        if (direction < 0 && !s.allow_reverse) break;
        for (uint32_t h = 0; h < kHeadings; ++h) {
            for (const MoveKind& kind : kMoveKinds) {
                const int turn = kind.turn;
                const bool single_step = turn == 0 && kind.shift == 0;
                const uint32_t to_heading = (h + kHeadings + turn) % kHeadings;
                // Cheapest kShapesPerTurn offsets (ties: first found, the scan order is fixed).
                double best_len[kShapesPerTurn];
                int best_dx[kShapesPerTurn], best_dy[kShapesPerTurn];
                uint8_t best_word[kShapesPerTurn];
                uint32_t kept = 0;
                const Pose2d from = drivingPose(0.0, 0.0, h, direction);
                const int lo = single_step ? 0 : -reach, hi = single_step ? 0 : reach;
                for (int oy = lo; oy <= hi; ++oy) {
                    for (int ox = lo; ox <= hi; ++ox) {
                        // Straight moves: one step to the neighbouring cell along the heading.
                        const int dx = single_step ? direction * kStepX[h] : ox;
                        const int dy = single_step ? direction * kStepY[h] : oy;
                        if (dx == 0 && dy == 0) continue;
                        CurvePath path;
                        DubinsWord word;
                        const Pose2d to = drivingPose(dx * cs, dy * cs, to_heading, direction);
                        // Only one word can make each kind of move: left turns are LSL, right turns RSR,
                        // S-bends LSR / RSL (a straight step is a degenerate LSL).
                        word = turn > 0 || (turn == 0 && kind.shift == 0) ? DubinsWord::LSL
                               : turn < 0                                 ? DubinsWord::RSR
                               : kind.shift > 0                           ? DubinsWord::LSR
                                                                          : DubinsWord::RSL;
                        if (dubinsPath(from, to, r, word, &path) != Status::Ok) continue;
                        // Reversing keeps the sense of the turn: driving-frame headings are the body's + 180.
                        const uint32_t driving_heading =
                            static_cast<uint32_t>(std::lround(from.heading / kHeadingStep)) % kHeadings;
                        if (kind.shift != 0 ? !isShift(path, driving_heading, dx, dy, kind.shift)
                                            : !turnsOneWay(path, turn))
                            continue;
                        uint32_t slot = kept;
                        while (slot > 0 && best_len[slot - 1] > path.length)
                            --slot;
                        if (slot >= kShapesPerTurn) continue;
                        const uint32_t last = kept < kShapesPerTurn ? kept : kShapesPerTurn - 1;
                        for (uint32_t i = last; i > slot; --i) {
                            best_len[i] = best_len[i - 1];
                            best_dx[i] = best_dx[i - 1];
                            best_dy[i] = best_dy[i - 1];
                            best_word[i] = best_word[i - 1];
                        }
                        best_len[slot] = path.length;
                        best_dx[slot] = dx;
                        best_dy[slot] = dy;
                        best_word[slot] = static_cast<uint8_t>(word);
                        if (kept < kShapesPerTurn) ++kept;
                    }
                }
                for (uint32_t i = 0; i < kept; ++i) {
                    CurvePath path;
                    const Pose2d to = drivingPose(best_dx[i] * cs, best_dy[i] * cs, to_heading, direction);
                    dubinsPath(from, to, r, static_cast<DubinsWord>(best_word[i]), &path);
                    // Sweep samples every quarter cell, merged per cell (keeping the largest slack).
                    const uint32_t first = ns;
                    const uint32_t n = static_cast<uint32_t>(std::ceil(path.length / step)) + 1;
                    int last_cx = 0x7FFF, last_cy = 0x7FFF;
                    for (uint32_t k = 0; k < n; ++k) {
                        PathSample p;
                        pathSampleAtDistance(path.pieces, path.count, k + 1 == n ? path.length : k * step,
                                             &p);
                        const int cx = static_cast<int>(std::floor(p.x / fine + 0.5)); // fine cells
                        const int cy = static_cast<int>(std::floor(p.y / fine + 0.5));
                        const double slack = std::hypot(p.x - cx * fine, p.y - cy * fine) + 0.5 * step;
                        if (cx == last_cx && cy == last_cy) {
                            if (samples && slack > samples[ns - 1].slack)
                                samples[ns - 1].slack = static_cast<float>(slack);
                            continue;
                        }
                        if (samples)
                            samples[ns] = Sample{static_cast<int16_t>(cx), static_cast<int16_t>(cy),
                                                 static_cast<float>(slack)};
                        ++ns;
                        last_cx = cx;
                        last_cy = cy;
                    }
                    if (prims)
                        prims[np] = Primitive{static_cast<int16_t>(best_dx[i]),
                                              static_cast<int16_t>(best_dy[i]),
                                              static_cast<uint8_t>(h),
                                              static_cast<uint8_t>(to_heading),
                                              static_cast<int8_t>(direction),
                                              best_word[i],
                                              static_cast<float>(path.length),
                                              first,
                                              ns - first};
                    ++np;
                }
            }
        }
    }
    *prim_count = np;
    *sample_count = ns;
}

struct Layout {
    uint32_t gears, node_count, prim_count, sample_count;
    size_t clearance, primitives, samples, nodes, heap, total;
};

bool computeLayout(const DirectionalAStarSettings& s, const DirectionalGrid& g, Layout* out);

} // namespace

struct DirectionalAStar {
    DirectionalAStarSettings settings;
    DirectionalGrid grid;
    uint32_t gears;
    uint32_t node_count;
    float clearance_cap;
    float* clearance; // fine grid: width * kSub by height * kSub, row-major
    uint32_t fine_width, fine_height;
    Primitive* primitives;
    uint32_t primitive_count;
    uint32_t first_primitive[kHeadings]; // primitives of each start heading are contiguous ...
    uint32_t heading_primitives[kHeadings];
    Sample* samples;
    Node* nodes;
    HeapEntry* heap;
    uint32_t heap_size;
    uint16_t generation;
};

namespace {

bool computeLayout(const DirectionalAStarSettings& s, const DirectionalGrid& g, Layout* out) {
    const uint64_t gears = s.allow_reverse ? 2 : 1;
    const uint64_t cells = static_cast<uint64_t>(g.width) * g.height;
    const uint64_t nodes = cells * kHeadings * gears;
    if (nodes >= kClosed) return false;
    buildPrimitives(s, nullptr, nullptr, &out->prim_count, &out->sample_count);
    if (out->prim_count > 0xFFFF) return false;
    out->gears = static_cast<uint32_t>(gears);
    out->node_count = static_cast<uint32_t>(nodes);
    size_t at = alignUp(sizeof(DirectionalAStar));
    out->clearance = at;
    at = alignUp(at + cells * kSub * kSub * sizeof(float));
    out->primitives = at;
    at = alignUp(at + out->prim_count * sizeof(Primitive));
    out->samples = at;
    at = alignUp(at + out->sample_count * sizeof(Sample));
    out->nodes = at;
    at = alignUp(at + nodes * sizeof(Node));
    out->heap = at;
    at = alignUp(at + nodes * sizeof(HeapEntry));
    out->total = at;
    return true;
}

double pointSegmentDistance(double px, double py, double ax, double ay, double bx, double by) {
    const double dx = bx - ax, dy = by - ay;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return std::hypot(px - (ax + t * dx), py - (ay + t * dy));
}

// Inside/outside by even-odd scanlines through the cell centres, then the distance of every inside
// centre to the nearest boundary edge, computed only near each edge (farther is capped anyway).
Status rasterise(DirectionalAStar* a, const FootprintView& view, uint32_t layer) {
    FootprintLayerInfo info;
    Status st = footprintLayer(view, layer, &info);
    if (st != Status::Ok) return st;
    // The fine grid: same origin, kSub times the resolution.
    const DirectionalGrid g{a->grid.origin_x, a->grid.origin_y, a->grid.cell_size / kSub, a->fine_width,
                            a->fine_height};
    const double cs = g.cell_size;
    float* cl = a->clearance;
    std::memset(cl, 0, sizeof(float) * g.width * g.height);
    // Pass 1: each edge crossing a row's centre line flips the parity of the cells right of it.
    for (uint32_t ring = 0; ring < info.ring_count; ++ring) {
        const Vec2f* v;
        uint32_t n;
        if ((st = footprintRing(view, layer, ring, &v, &n)) != Status::Ok) return st;
        for (uint32_t i = 0; i < n; ++i) {
            const Vec2f p = v[i], q = v[(i + 1) % n];
            const double y0 = std::fmin(p.y, q.y), y1 = std::fmax(p.y, q.y);
            const double first = std::ceil((y0 - g.origin_y) / cs - 0.5);
            const double last = std::floor((y1 - g.origin_y) / cs - 0.5);
            for (double row = std::fmax(first, 0.0); row <= last && row < g.height; ++row) {
                const double yc = g.origin_y + (row + 0.5) * cs;
                if ((p.y > yc) == (q.y > yc)) continue; // half-open rule: vertices count once
                const double x =
                    p.x + (yc - p.y) * (static_cast<double>(q.x) - p.x) / (static_cast<double>(q.y) - p.y);
                double col = std::floor((x - g.origin_x) / cs - 0.5) + 1.0; // first centre right of x
                if (col < 0.0) col = 0.0;
                if (col >= g.width) continue;
                float& flip = cl[static_cast<size_t>(row) * g.width + static_cast<size_t>(col)];
                flip = flip == 0.0f ? 1.0f : 0.0f;
            }
        }
    }
    const float cap = a->clearance_cap;
    for (uint32_t y = 0; y < g.height; ++y) {
        bool inside = false;
        for (uint32_t x = 0; x < g.width; ++x) {
            float& c = cl[static_cast<size_t>(y) * g.width + x];
            if (c != 0.0f) inside = !inside;
            c = inside ? cap : -1.0f;
        }
    }
    // Pass 2: distance to the nearest edge within the cap.
    for (uint32_t ring = 0; ring < info.ring_count; ++ring) {
        const Vec2f* v;
        uint32_t n;
        footprintRing(view, layer, ring, &v, &n);
        for (uint32_t i = 0; i < n; ++i) {
            const Vec2f p = v[i], q = v[(i + 1) % n];
            const double x0 = std::fmin(p.x, q.x) - cap, x1 = std::fmax(p.x, q.x) + cap;
            const double y0 = std::fmin(p.y, q.y) - cap, y1 = std::fmax(p.y, q.y) + cap;
            const double cx0 = std::fmax(0.0, std::ceil((x0 - g.origin_x) / cs - 0.5));
            const double cx1 = std::fmin(g.width - 1.0, std::floor((x1 - g.origin_x) / cs - 0.5));
            const double cy0 = std::fmax(0.0, std::ceil((y0 - g.origin_y) / cs - 0.5));
            const double cy1 = std::fmin(g.height - 1.0, std::floor((y1 - g.origin_y) / cs - 0.5));
            for (double cy = cy0; cy <= cy1; ++cy) {
                for (double cx = cx0; cx <= cx1; ++cx) {
                    float& c = cl[static_cast<size_t>(cy) * g.width + static_cast<size_t>(cx)];
                    if (c <= 0.0f) continue;
                    const double d = pointSegmentDistance(g.origin_x + (cx + 0.5) * cs,
                                                          g.origin_y + (cy + 0.5) * cs, p.x, p.y, q.x, q.y);
                    if (d < c) c = static_cast<float>(d);
                }
            }
        }
    }
    return Status::Ok;
}

// Open list: a binary min-heap on f with positions stored in the nodes (decrease-key).
void heapSwap(DirectionalAStar* a, uint32_t i, uint32_t j) {
    const HeapEntry t = a->heap[i];
    a->heap[i] = a->heap[j];
    a->heap[j] = t;
    a->nodes[a->heap[i].node].heap_slot = i;
    a->nodes[a->heap[j].node].heap_slot = j;
}
void heapUp(DirectionalAStar* a, uint32_t i) {
    while (i > 0) {
        const uint32_t parent = (i - 1) / 2;
        if (!(a->heap[i].f < a->heap[parent].f)) break;
        heapSwap(a, i, parent);
        i = parent;
    }
}
void heapDown(DirectionalAStar* a, uint32_t i) {
    for (;;) {
        const uint32_t l = 2 * i + 1, r = l + 1;
        uint32_t m = i;
        if (l < a->heap_size && a->heap[l].f < a->heap[m].f) m = l;
        if (r < a->heap_size && a->heap[r].f < a->heap[m].f) m = r;
        if (m == i) return;
        heapSwap(a, i, m);
        i = m;
    }
}

Node& node(DirectionalAStar* a, uint32_t id) {
    Node& n = a->nodes[id];
    if (n.generation != a->generation) n = Node{INFINITY, kNone, kNone, 0, a->generation};
    return n;
}

bool cellOf(const DirectionalGrid& g, double x, double y, uint32_t* cx, uint32_t* cy) {
    const double fx = std::floor((x - g.origin_x) / g.cell_size),
                 fy = std::floor((y - g.origin_y) / g.cell_size);
    if (!(fx >= 0.0 && fy >= 0.0 && fx < g.width && fy < g.height)) return false;
    *cx = static_cast<uint32_t>(fx);
    *cy = static_cast<uint32_t>(fy);
    return true;
}

uint32_t snapHeading(double heading) {
    const double steps = std::nearbyint(heading / kHeadingStep);
    const double wrapped = steps - kHeadings * std::floor(steps / kHeadings);
    return static_cast<uint32_t>(wrapped) % kHeadings;
}

float centreClearance(const DirectionalAStar* a, uint32_t cx, uint32_t cy) {
    return a->clearance[static_cast<size_t>(cy * kSub + kSub / 2) * a->fine_width + cx * kSub + kSub / 2];
}

bool moveClear(const DirectionalAStar* a, const Primitive& p, int cx, int cy) {
    const float radius = static_cast<float>(a->settings.vehicle_radius);
    const int fx0 = cx * static_cast<int>(kSub) + static_cast<int>(kSub / 2);
    const int fy0 = cy * static_cast<int>(kSub) + static_cast<int>(kSub / 2);
    for (uint32_t i = 0; i < p.sample_count; ++i) {
        const Sample& s = a->samples[p.first_sample + i];
        const int x = fx0 + s.dcx, y = fy0 + s.dcy;
        if (x < 0 || y < 0 || x >= static_cast<int>(a->fine_width) || y >= static_cast<int>(a->fine_height))
            return false;
        if (a->clearance[static_cast<size_t>(y) * a->fine_width + x] - s.slack < radius) return false;
    }
    return true;
}

// The move's pieces in world coordinates; reverse moves are forward Dubins paths in the driving
// frame, turned into reversing pieces (body heading back by 180 degrees, curvature negated).
void movePieces(const DirectionalAStar* a, const Primitive& p, uint32_t cx, uint32_t cy, CurvePath* path) {
    const DirectionalGrid& g = a->grid;
    const double x0 = g.origin_x + (cx + 0.5) * g.cell_size, y0 = g.origin_y + (cy + 0.5) * g.cell_size;
    const Pose2d from = drivingPose(x0, y0, p.from_heading, p.direction);
    const Pose2d to =
        drivingPose(x0 + p.dx * g.cell_size, y0 + p.dy * g.cell_size, p.to_heading, p.direction);
    dubinsPath(from, to, a->settings.turning_radius, static_cast<DubinsWord>(p.word), path);
    if (p.direction > 0) return;
    for (uint32_t i = 0; i < path->count; ++i) {
        PathPiece& piece = path->pieces[i];
        piece.start.heading = std::remainder(piece.start.heading - kPi, 2.0 * kPi);
        piece.curvature = -piece.curvature;
        piece.direction = -1;
    }
}

// Appends a piece, merging it into the previous one when it continues the same line or arc.
void emit(const PathPiece& piece, PathPiece* out, uint32_t max_out, uint32_t* count, PathPiece* last) {
    if (piece.length <= 1e-9) return;
    if (*count > 0 && last->direction == piece.direction && last->curvature == piece.curvature) {
        last->length += piece.length;
        if (*count <= max_out) out[*count - 1].length = last->length;
        return;
    }
    *last = piece;
    if (*count < max_out) out[*count] = piece;
    ++*count;
}

} // namespace

DirectionalAStarSettings directionalAStarDefaults() {
    return DirectionalAStarSettings{0.5, 4.0, 1.0, false, 2.0, 4.0, 0};
}

Status directionalGridForLayer(const FootprintView& view, uint32_t layer, double cell_size,
                               DirectionalGrid* out) {
    if (!out || !finite(cell_size) || !(cell_size > 0.0)) return Status::InvalidArgument;
    FootprintLayerInfo info;
    const Status st = footprintLayer(view, layer, &info);
    if (st != Status::Ok) return st;
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (uint32_t ring = 0; ring < info.ring_count; ++ring) {
        const Vec2f* v;
        uint32_t n;
        footprintRing(view, layer, ring, &v, &n);
        for (uint32_t i = 0; i < n; ++i) {
            x0 = std::fmin(x0, v[i].x), y0 = std::fmin(y0, v[i].y);
            x1 = std::fmax(x1, v[i].x), y1 = std::fmax(y1, v[i].y);
        }
    }
    if (!(x0 <= x1)) return Status::NotFound; // a layer without rings
    const double ox = (std::floor(x0 / cell_size) - 1.0) * cell_size;
    const double oy = (std::floor(y0 / cell_size) - 1.0) * cell_size;
    const double w = std::ceil((x1 - ox) / cell_size) + 1.0, h = std::ceil((y1 - oy) / cell_size) + 1.0;
    if (w >= 32768.0 || h >= 32768.0) return Status::InvalidArgument;
    *out = DirectionalGrid{ox, oy, cell_size, static_cast<uint32_t>(w), static_cast<uint32_t>(h)};
    return Status::Ok;
}

Status directionalAStarWorkspaceSize(const DirectionalAStarSettings& settings, const DirectionalGrid& grid,
                                     size_t* bytes) {
    if (!bytes || !validSettings(settings) || !validGrid(grid, settings)) return Status::InvalidArgument;
    Layout layout;
    if (!computeLayout(settings, grid, &layout)) return Status::BufferTooSmall;
    *bytes = layout.total;
    return Status::Ok;
}

Status directionalAStarInit(const DirectionalAStarSettings& settings, const DirectionalGrid& grid,
                            const FootprintView& view, uint32_t layer, void* memory, size_t bytes,
                            DirectionalAStar** out) {
    if (!out || !memory || reinterpret_cast<uintptr_t>(memory) % 8 != 0 || !validSettings(settings) ||
        !validGrid(grid, settings))
        return Status::InvalidArgument;
    Layout layout;
    if (!computeLayout(settings, grid, &layout)) return Status::BufferTooSmall;
    if (bytes < layout.total) return Status::BufferTooSmall;
    uint8_t* base = static_cast<uint8_t*>(memory);
    DirectionalAStar* a = reinterpret_cast<DirectionalAStar*>(base);
    *a = DirectionalAStar{};
    a->settings = settings;
    a->grid = grid;
    a->gears = layout.gears;
    a->node_count = layout.node_count;
    a->clearance_cap = static_cast<float>(settings.vehicle_radius + 2.0 * settings.cell_size);
    a->clearance = reinterpret_cast<float*>(base + layout.clearance);
    a->fine_width = grid.width * kSub;
    a->fine_height = grid.height * kSub;
    a->primitives = reinterpret_cast<Primitive*>(base + layout.primitives);
    a->samples = reinterpret_cast<Sample*>(base + layout.samples);
    a->nodes = reinterpret_cast<Node*>(base + layout.nodes);
    a->heap = reinterpret_cast<HeapEntry*>(base + layout.heap);
    uint32_t prims = 0, samples = 0;
    buildPrimitives(settings, a->primitives, a->samples, &prims, &samples);
    a->primitive_count = prims;
    // Group by start heading (the table is built heading-major per gear; index both gears).
    uint32_t sorted = 0;
    for (uint32_t h = 0; h < kHeadings; ++h) {
        a->first_primitive[h] = sorted;
        for (uint32_t i = sorted; i < prims; ++i) {
            if (a->primitives[i].from_heading != h) continue;
            const Primitive t = a->primitives[i];
            for (uint32_t j = i; j > sorted; --j)
                a->primitives[j] = a->primitives[j - 1]; // stable
            a->primitives[sorted++] = t;
        }
        a->heading_primitives[h] = sorted - a->first_primitive[h];
    }
    for (uint32_t i = 0; i < layout.node_count; ++i)
        a->nodes[i].generation = 0;
    a->generation = 0;
    const Status st = rasterise(a, view, layer);
    if (st != Status::Ok) return st;
    *out = a;
    return Status::Ok;
}

Status directionalAStarFindPath(DirectionalAStar* a, const DirectionalAStarQuery& q, PathPiece* out,
                                uint32_t max_out, DirectionalAStarResult* result) {
    if (!a || (max_out > 0 && !out) || !finite(q.start.x) || !finite(q.start.y) || !finite(q.start.heading) ||
        !finite(q.goal_x) || !finite(q.goal_y) || (q.goal_heading_given && !finite(q.goal_heading)))
        return Status::InvalidArgument;
    DirectionalAStarResult res{};
    if (result) *result = res;
    const DirectionalGrid& g = a->grid;
    const float radius = static_cast<float>(a->settings.vehicle_radius);
    uint32_t sx, sy, gx, gy;
    if (!cellOf(g, q.start.x, q.start.y, &sx, &sy) || !cellOf(g, q.goal_x, q.goal_y, &gx, &gy))
        return Status::NotFound;
    if (centreClearance(a, sx, sy) < radius || centreClearance(a, gx, gy) < radius) return Status::NotFound;
    const uint32_t start_heading = snapHeading(q.start.heading);
    const uint32_t goal_heading = q.goal_heading_given ? snapHeading(q.goal_heading) : kHeadings;
    const uint32_t gears = a->gears;

    if (++a->generation == 0) { // wrapped: forget every stamp once
        for (uint32_t i = 0; i < a->node_count; ++i)
            a->nodes[i].generation = 0;
        a->generation = 1;
    }
    a->heap_size = 0;
    const double gxm = g.origin_x + (gx + 0.5) * g.cell_size, gym = g.origin_y + (gy + 0.5) * g.cell_size;
    auto heuristic = [&](uint32_t cx, uint32_t cy) {
        return static_cast<float>(std::hypot(g.origin_x + (cx + 0.5) * g.cell_size - gxm,
                                             g.origin_y + (cy + 0.5) * g.cell_size - gym));
    };
    // Start in either gear: the first move pays no gear change.
    for (uint32_t gear = 0; gear < gears; ++gear) {
        const uint32_t id = ((sy * g.width + sx) * kHeadings + start_heading) * gears + gear;
        Node& n = node(a, id);
        n.g = 0.0f;
        n.heap_slot = a->heap_size;
        a->heap[a->heap_size++] = HeapEntry{heuristic(sx, sy), id};
        heapUp(a, n.heap_slot);
    }
    uint32_t goal = kNone;
    uint32_t expansions = 0;
    while (a->heap_size > 0) {
        const uint32_t id = a->heap[0].node;
        heapSwap(a, 0, --a->heap_size);
        heapDown(a, 0);
        Node& cur = a->nodes[id];
        cur.heap_slot = kClosed;
        const uint32_t gear = id % gears, heading = (id / gears) % kHeadings, cell = id / gears / kHeadings;
        const uint32_t cx = cell % g.width, cy = cell / g.width;
        if (cx == gx && cy == gy && (goal_heading == kHeadings || heading == goal_heading)) {
            goal = id;
            break;
        }
        ++expansions;
        if (a->settings.max_expansions && expansions > a->settings.max_expansions) break;
        const float g_cur = cur.g;
        for (uint32_t i = 0; i < a->heading_primitives[heading]; ++i) {
            const uint32_t pi = a->first_primitive[heading] + i;
            const Primitive& p = a->primitives[pi];
            const int nx = static_cast<int>(cx) + p.dx, ny = static_cast<int>(cy) + p.dy;
            if (nx < 0 || ny < 0 || nx >= static_cast<int>(g.width) || ny >= static_cast<int>(g.height))
                continue;
            const uint32_t next_gear = p.direction < 0 ? 1 : 0;
            const uint32_t nid =
                ((static_cast<uint32_t>(ny) * g.width + nx) * kHeadings + p.to_heading) * gears + next_gear;
            Node& next = node(a, nid);
            if (next.heap_slot == kClosed) continue;
            float cost = p.length * static_cast<float>(p.direction < 0 ? a->settings.reverse_cost : 1.0);
            if (next_gear != gear) cost += static_cast<float>(a->settings.gear_change_cost);
            const float g_new = g_cur + cost;
            if (!(g_new < next.g)) continue;
            if (!moveClear(a, p, static_cast<int>(cx), static_cast<int>(cy))) continue;
            next.g = g_new;
            next.parent = id;
            next.primitive = static_cast<uint16_t>(pi);
            const float f = g_new + heuristic(static_cast<uint32_t>(nx), static_cast<uint32_t>(ny));
            if (next.heap_slot == kNone) {
                next.heap_slot = a->heap_size;
                a->heap[a->heap_size++] = HeapEntry{f, nid};
            } else {
                a->heap[next.heap_slot].f = f;
            }
            heapUp(a, next.heap_slot);
        }
    }
    res.expansions = expansions;
    if (goal == kNone) {
        if (result) *result = res;
        return Status::NotFound;
    }
    res.cost = a->nodes[goal].g;
    // Reverse the parent chain in place so the pieces come out start first.
    uint32_t prev = kNone, at = goal;
    while (at != kNone) {
        const uint32_t next = a->nodes[at].parent;
        a->nodes[at].parent = prev;
        prev = at;
        at = next;
    }
    uint32_t count = 0;
    PathPiece last{};
    int last_direction = 0;
    for (uint32_t from = prev; a->nodes[from].parent != kNone; from = a->nodes[from].parent) {
        const uint32_t to = a->nodes[from].parent;
        const Primitive& p = a->primitives[a->nodes[to].primitive];
        const uint32_t cell = from / gears / kHeadings;
        CurvePath path;
        movePieces(a, p, cell % g.width, cell / g.width, &path);
        for (uint32_t i = 0; i < path.count; ++i)
            emit(path.pieces[i], out, max_out, &count, &last);
        res.length += path.length;
        ++res.moves;
        if (last_direction != 0 && p.direction != last_direction) ++res.gear_changes;
        last_direction = p.direction;
    }
    res.piece_count = count;
    if (result) *result = res;
    return count > max_out ? Status::BufferTooSmall : Status::Ok;
}

Status directionalAStarGrid(const DirectionalAStar* a, DirectionalGrid* out) {
    if (!a || !out) return Status::InvalidArgument;
    *out = a->grid;
    return Status::Ok;
}

Status directionalAStarCellClearance(const DirectionalAStar* a, uint32_t cell_x, uint32_t cell_y,
                                     float* clearance) {
    if (!a || !clearance || cell_x >= a->grid.width || cell_y >= a->grid.height)
        return Status::InvalidArgument;
    *clearance = centreClearance(a, cell_x, cell_y);
    return Status::Ok;
}

Status directionalAStarPiecesClear(const DirectionalAStar* a, const PathPiece* pieces, uint32_t count,
                                   bool* clear) {
    if (!a || !pieces || count == 0 || !clear) return Status::InvalidArgument;
    const double fine = a->grid.cell_size / kSub;
    const double step = 0.25 * fine;
    const double total = pathLength(pieces, count);
    if (!finite(total)) return Status::InvalidArgument;
    const double n = std::ceil(total / step);
    *clear = true;
    for (double k = 0; k <= n; ++k) {
        PathSample p;
        const Status st = pathSampleAtDistance(pieces, count, k == n ? total : k * step, &p);
        if (st != Status::Ok) return st;
        // Every fine centre gives a lower bound on the wall distance (clearance minus the distance
        // to it); the best of the 3x3 around the sample is tighter than the search's nearest one.
        const double fx = std::floor((p.x - a->grid.origin_x) / fine),
                     fy = std::floor((p.y - a->grid.origin_y) / fine);
        double best = -INFINITY;
        for (double y = fy - 1; y <= fy + 1; ++y) {
            for (double x = fx - 1; x <= fx + 1; ++x) {
                if (x < 0 || y < 0 || x >= a->fine_width || y >= a->fine_height) continue;
                const double c =
                    a->clearance[static_cast<size_t>(y) * a->fine_width + static_cast<size_t>(x)];
                if (c < 0.0) continue; // outside: no bound
                const double d = std::hypot(p.x - (a->grid.origin_x + (x + 0.5) * fine),
                                            p.y - (a->grid.origin_y + (y + 0.5) * fine));
                if (d < c) best = std::fmax(best, c - d);
            }
        }
        if (best - 0.5 * step < a->settings.vehicle_radius) {
            *clear = false;
            return Status::Ok;
        }
    }
    return Status::Ok;
}

} // namespace clearway
