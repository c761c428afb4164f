// Online trim search (Go et al. 2004, algorithm 1): best-first over the visited states V, expanding the
// best state of V - E until V = E or a budget runs out. Every byte comes from the caller's
// workspace, so a decision allocates nothing.
#include <clearway/motion.h>

#include "quat_math.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

namespace clearway {
namespace trims {
namespace {

struct Node {
    Vec3f position;
    Quatf orientation;
    Vec3f facing;
    float value;    // v(s)
    float eval;     // ev(s)
    float goodness; // g of the segment parent -> s
    uint32_t parent;
    uint16_t control; // target control of the segment into s (the root: the vehicle's control)
    uint8_t depth;
    uint8_t on_warm; // the path to this state follows the warm-start plan
};

struct HeapEntry {
    float eval;
    uint32_t node;
};

constexpr uint32_t kMaxDepth = 64;
constexpr uint32_t kMaxNodes = 1u << 24;
constexpr size_t kAlign = 8;

size_t alignUp(size_t n) {
    return (n + kAlign - 1) & ~(kAlign - 1);
}

// Workspace layout; one function so the size query and init can never disagree.
struct Layout {
    size_t nodes, heap, allowed, permutation, chosen, powers, turn, want, is_allowed, total;
};
Layout layoutFor(uint32_t controls, const SearchSettings& s) {
    Layout l{};
    size_t at = 0;
    l.nodes = at, at += alignUp(sizeof(Node) * size_t(s.max_nodes));
    l.heap = at, at += alignUp(sizeof(HeapEntry) * size_t(s.max_nodes));
    l.allowed = at, at += alignUp(sizeof(uint16_t) * controls);
    l.permutation = at, at += alignUp(sizeof(uint16_t) * controls);
    l.chosen = at, at += alignUp(sizeof(uint16_t) * controls);
    l.powers = at, at += alignUp(sizeof(float) * 2 * (kMaxDepth + 2));
    l.turn = at, at += alignUp(sizeof(float) * controls);
    l.want = at, at += alignUp(sizeof(uint32_t) * (kMaxDepth + 1));
    l.is_allowed = at, at += alignUp(controls);
    l.total = at;
    return l;
}

bool validSettings(const SearchSettings& s) {
    if (s.strategy != SearchStrategy::SingleStep && s.strategy != SearchStrategy::Uniform &&
        s.strategy != SearchStrategy::Adaptive)
        return false;
    if (s.max_depth < 1 || s.max_depth > kMaxDepth || s.min_leaf_depth > s.max_depth) return false;
    if (!(s.discount > 0.0f && s.discount < 1.0f)) return false;
    if (!(s.optimism >= -1.0f && s.optimism <= 1.0f)) return false;
    if (s.max_nodes < 2 || s.max_nodes > kMaxNodes) return false;
    if (!(std::isfinite(s.time_budget_ms) && s.time_budget_ms >= 0.0f)) return false;
    if (s.skip < 1) return false;
    if (!(s.collapse > 0.0f && s.collapse <= 1.0f)) return false;
    if (!(s.damping >= 0.0f && s.damping < 1.0f)) return false;
    for (float r : s.max_rate)
        if (std::isnan(r)) return false;
    return true;
}

// Deterministic on every platform (std distributions are not).
uint32_t nextRandom(uint64_t* state) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t x = uint32_t(((*state >> 18) ^ *state) >> 27);
    const uint32_t rot = uint32_t(*state >> 59);
    return (x >> rot) | (x << ((32 - rot) & 31));
}

using detail::quatMul;
using detail::quatRotate;

// Max-heap on eval; ties go to the older node so the order never depends on heap internals.
bool above(const HeapEntry& a, const HeapEntry& b) {
    return a.eval > b.eval || (a.eval == b.eval && a.node < b.node);
}

void heapPush(HeapEntry* heap, uint32_t* size, HeapEntry e) {
    uint32_t i = (*size)++;
    while (i > 0) {
        const uint32_t parent = (i - 1) / 2;
        if (!above(e, heap[parent])) break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = e;
}

HeapEntry heapPop(HeapEntry* heap, uint32_t* size) {
    const HeapEntry top = heap[0];
    const HeapEntry last = heap[--*size];
    uint32_t i = 0;
    const uint32_t n = *size;
    while (true) {
        uint32_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && above(heap[child + 1], heap[child])) ++child;
        if (!above(heap[child], last)) break;
        heap[i] = heap[child];
        i = child;
    }
    if (n > 0) heap[i] = last;
    return top;
}

bool finiteState(const VehicleState& s) {
    const float v[8] = {s.position.x,    s.position.y,    s.position.z,    s.orientation.x,
                        s.orientation.y, s.orientation.z, s.orientation.w, s.speed};
    for (float x : v)
        if (!std::isfinite(x)) return false;
    return s.speed >= 0.0f;
}

} // namespace

SearchSettings defaultSearchSettings() {
    SearchSettings s{};
    s.strategy = SearchStrategy::Adaptive;
    s.max_depth = 16;
    s.min_leaf_depth = 4;
    s.discount = 0.9f;
    // The paper's f is "an estimation of the average steering behavior values for paths as they
    // grow to infinity" (section 3.3); away from the 3D meet orbit its scenarios average 0.9-1.0.
    // 0.5 underrated every unexplored tail, so best-first dived down its first line instead of
    // comparing siblings (cw-bench-trims, 60 runs: uniform / adaptive averages 0.834 / 0.838 at
    // 0.5, 0.843 / 0.845 at 0.75, 0.851 / 0.850 at 0.9 with the damping below).
    s.optimism = 0.9f;
    s.max_nodes = 2048;
    s.max_expansions = 0;
    s.time_budget_ms = 0.0f;
    s.skip = 1;
    s.collapse = 0.5f;
    s.seed = 1;
    // The paper's second path-aliasing fix, "a slight bias to paths that were straighter" (no value
    // given): 0.03 was the best of 0.03 / 0.05 / 0.08 / 0.15 over the 60-run table.
    s.damping = 0.03f;
    s.max_rate[0] = s.max_rate[1] = s.max_rate[2] = -1.0f;
    s.prune_zero = false;
    return s;
}

size_t searchWorkspaceSize(const TableView& table, const SearchSettings& settings) {
    if (!validSettings(settings) || table.control_count == 0) return 0;
    return layoutFor(table.control_count, settings).total;
}

Status initSearchWorkspace(const TableView& table, const SearchSettings& settings, void* memory, size_t bytes,
                           SearchWorkspace* out) {
    if (!out) return Status::InvalidArgument;
    *out = SearchWorkspace{};
    if (!table.trims || table.control_count == 0 || table.control_count > kMaxControls)
        return Status::InvalidArgument;
    if (!validSettings(settings) || !memory || reinterpret_cast<uintptr_t>(memory) % kAlign != 0)
        return Status::InvalidArgument;
    const uint32_t C = table.control_count;
    const Layout l = layoutFor(C, settings);
    if (bytes < l.total) return Status::BufferTooSmall;
    auto* base = static_cast<uint8_t*>(memory);

    SearchWorkspace w{};
    w.settings = settings;
    w.table = &table;
    w.nodes = base + l.nodes;
    w.heap = base + l.heap;
    w.allowed = reinterpret_cast<uint16_t*>(base + l.allowed);
    w.permutation = reinterpret_cast<uint16_t*>(base + l.permutation);
    w.chosen = reinterpret_cast<uint16_t*>(base + l.chosen);
    w.node_capacity = settings.max_nodes;

    // The angular-bound rule: a vehicle may use a table baked for larger bounds, never smaller.
    const Model& m = table.model;
    const uint32_t straight = straightControl(m);
    auto* turn = reinterpret_cast<float*>(base + l.turn);
    auto* is_allowed = base + l.is_allowed;
    uint32_t n = 0;
    for (uint32_t c = 0; c < C; ++c) {
        double rates[3];
        controlRates(m, c, rates);
        bool ok = true;
        float turn_share = 0.0f;
        for (int a = 0; a < 3; ++a) {
            const double bound = settings.max_rate[a] < 0.0f ? m.max_rate[a] : double(settings.max_rate[a]);
            if (std::fabs(rates[a]) > bound * (1.0 + 1e-9)) ok = false;
            if (m.max_rate[a] > 0.0) {
                const float share = float(std::fabs(rates[a]) / m.max_rate[a]);
                if (share > turn_share) turn_share = share;
            }
        }
        turn[c] = turn_share;
        is_allowed[c] = ok || c == straight;
        if (is_allowed[c]) w.allowed[n++] = uint16_t(c);
    }
    w.allowed_count = n;
    // A search must at least expand the current state.
    if (settings.max_nodes < 1 + n) return Status::InvalidArgument;

    // Adaptive: N_v c^d successors at depth d, N_v = allowed / skip, at least one.
    auto* want = reinterpret_cast<uint32_t*>(base + l.want);
    for (uint32_t d = 0; d <= kMaxDepth; ++d) {
        const double v = double(n) / double(settings.skip) * std::pow(double(settings.collapse), double(d));
        want[d] = v < 1.0 ? 1u : uint32_t(std::lround(v));
    }

    // Monte Carlo permutation of the allowed controls (Fisher-Yates, seeded).
    std::memcpy(w.permutation, w.allowed, sizeof(uint16_t) * n);
    uint64_t state = uint64_t(settings.seed) * 2654435761ull + 0x9e3779b97f4a7c15ull;
    for (uint32_t i = n; i > 1; --i) {
        const uint32_t j = nextRandom(&state) % i;
        const uint16_t t = w.permutation[i - 1];
        w.permutation[i - 1] = w.permutation[j];
        w.permutation[j] = t;
    }

    // powers[k] = d^k, tails[k] = f d^k / (1 - d): the optimistic bound of everything after depth k.
    auto* powers = reinterpret_cast<float*>(base + l.powers);
    float* tails = powers + (kMaxDepth + 2);
    double p = 1.0;
    for (uint32_t k = 0; k < kMaxDepth + 2; ++k) {
        powers[k] = float(p);
        tails[k] = float(double(settings.optimism) * p / (1.0 - double(settings.discount)));
        p *= double(settings.discount);
    }
    *out = w;
    return Status::Ok;
}

namespace {

// Successors of s_m into w.chosen (single-step: all; uniform: every skip-th allowed control, in
// phase with the straight one at straight_at; adaptive: `want` of them); returns their count.
uint32_t chooseControls(const SearchWorkspace& w, const SearchSettings& s, bool single, uint32_t straight,
                        uint32_t straight_at, uint32_t want, uint32_t* cursor) {
    uint32_t count = 0;
    uint16_t* chosen = w.chosen;
    if (single) {
        for (uint32_t i = 0; i < w.allowed_count; ++i)
            chosen[count++] = w.allowed[i];
    } else if (s.strategy == SearchStrategy::Uniform) {
        for (uint32_t i = 0; i < w.allowed_count; ++i)
            if ((i + s.skip - straight_at % s.skip) % s.skip == 0) chosen[count++] = w.allowed[i];
    } else {
        if (want >= w.allowed_count) {
            for (uint32_t i = 0; i < w.allowed_count; ++i)
                chosen[count++] = w.allowed[i];
        } else {
            // The straight trajectory is always a candidate (the paper's path-aliasing fix).
            chosen[count++] = uint16_t(straight);
            while (count < want) {
                const uint16_t c = w.permutation[*cursor];
                *cursor = *cursor + 1 == w.allowed_count ? 0 : *cursor + 1;
                if (c != straight) chosen[count++] = c;
            }
        }
    }
    return count;
}

// Warm start: the last decision's plan stays a candidate along its own path, so a plan found
// once is not lost to sampling (it can only be beaten). Returns its control at this depth
// (UINT32_MAX: none), added to `chosen` when missing.
uint32_t keepWarmControl(uint16_t* chosen, uint32_t* count, bool on_warm, uint32_t depth,
                         const uint32_t* warm_plan, uint32_t warm_length, uint32_t control_count,
                         const uint8_t* is_allowed) {
    if (!(on_warm && depth < warm_length && warm_plan[depth] < control_count && is_allowed[warm_plan[depth]]))
        return UINT32_MAX;
    const uint32_t warm = warm_plan[depth];
    bool present = false;
    for (uint32_t i = 0; i < *count && !present; ++i)
        present = chosen[i] == warm;
    if (!present) chosen[(*count)++] = uint16_t(warm);
    return warm;
}

// The search's result for the chosen state, and its plan retraced to the root.
Status reportChoice(const Node* nodes, uint32_t chosen_index, uint32_t current_control, uint32_t expanded,
                    uint32_t visited, uint32_t deepest, SearchStop stop, uint32_t* plan,
                    uint32_t plan_capacity, SearchResult* out) {
    const Node& chosen_node = nodes[chosen_index];
    SearchResult r{};
    r.plan_length = chosen_node.depth;
    r.value = chosen_node.value;
    r.effective_value = chosen_node.eval;
    r.expanded = expanded;
    r.visited = visited;
    r.deepest = deepest;
    r.stop = stop;
    r.first_control = current_control; // nothing expanded: keep turning as now
    Status status = Status::Ok;
    // Retrace the chosen state to the root; the plan is written back to front.
    uint32_t at = chosen_index;
    for (uint32_t k = chosen_node.depth; k > 0; --k) {
        const Node& n = nodes[at];
        if (k == 1) {
            r.first_control = n.control;
            r.first_goodness = n.goodness;
        }
        if (plan) {
            if (k - 1 < plan_capacity)
                plan[k - 1] = n.control;
            else
                status = Status::BufferTooSmall;
        }
        at = n.parent;
    }
    *out = r;
    return status;
}

} // namespace

Status search(SearchWorkspace* w, const VehicleState& state, const Behaviour& behaviour, uint32_t* plan,
              uint32_t plan_capacity, SearchResult* out, const uint32_t* warm_plan, uint32_t warm_length) {
    if (!w || !w->table || !w->nodes || !out || !behaviour.evaluate) return Status::InvalidArgument;
    const TableView& table = *w->table;
    if (state.control >= table.control_count || !finiteState(state)) return Status::InvalidArgument;
    const SearchSettings& s = w->settings;
    const Model& model = table.model;
    const uint32_t C = table.control_count;
    const Layout l = layoutFor(C, s);
    const auto* base = static_cast<const uint8_t*>(w->nodes) - l.nodes;
    const auto* powers = reinterpret_cast<const float*>(base + l.powers);
    const float* tails = powers + (kMaxDepth + 2);
    const auto* turn = reinterpret_cast<const float*>(base + l.turn);
    const auto* want_at = reinterpret_cast<const uint32_t*>(base + l.want);
    const uint8_t* is_allowed = base + l.is_allowed;
    if (!warm_plan) warm_length = 0;
    auto* nodes = static_cast<Node*>(w->nodes);
    auto* heap = static_cast<HeapEntry*>(w->heap);

    const bool single = s.strategy == SearchStrategy::SingleStep;
    const uint32_t max_depth = single ? 1u : s.max_depth;
    const uint32_t min_leaf = single ? 1u : (s.min_leaf_depth > 0 ? s.min_leaf_depth : 1u);
    const uint32_t straight = straightControl(model);
    const float scale = float(double(state.speed) / model.speed);
    const float interval = float(model.interval);
    const float speed = state.speed;

    // Uniform sampling keeps every skip-th allowed control, in phase with the straight one.
    uint32_t straight_at = 0;
    for (uint32_t i = 0; i < w->allowed_count; ++i)
        if (w->allowed[i] == straight) straight_at = i;

    const auto start = std::chrono::steady_clock::now();
    const bool timed = s.time_budget_ms > 0.0f;

    Node& root = nodes[0];
    root.position = state.position;
    root.orientation = state.orientation;
    root.facing = facingOf(state.orientation);
    root.value = 0.0f;
    root.eval = tails[0];
    root.goodness = 0.0f;
    root.parent = 0;
    root.control = uint16_t(state.control);
    root.depth = 0;
    root.on_warm = 1;
    uint32_t visited = 1, heap_size = 0, expanded = 0, cursor = 0, deepest = 0;
    heapPush(heap, &heap_size, HeapEntry{root.eval, 0});

    // Best state at or below the minimum depth, and the fallback when none is that deep. With
    // prune_zero a dead end is only chosen when every path dies, then the one that dies last.
    uint32_t best = UINT32_MAX, fallback = 0, best_dead = UINT32_MAX;
    SearchStop stop = SearchStop::Exhausted;

    while (heap_size > 0) {
        if (s.max_expansions && expanded >= s.max_expansions) {
            stop = SearchStop::ExpansionBudget;
            break;
        }
        if (timed && (expanded & 7) == 0) {
            const std::chrono::duration<float, std::milli> spent = std::chrono::steady_clock::now() - start;
            if (spent.count() >= s.time_budget_ms) {
                stop = SearchStop::TimeBudget;
                break;
            }
        }
        const uint32_t m_index = heap[0].node;
        const uint32_t depth = nodes[m_index].depth;

        uint16_t* chosen = w->chosen;
        uint32_t count = chooseControls(*w, s, single, straight, straight_at, want_at[depth], &cursor);
        const uint32_t warm =
            keepWarmControl(chosen, &count, nodes[m_index].on_warm, depth, warm_plan, warm_length, C, is_allowed);
        if (visited + count > w->node_capacity) {
            stop = SearchStop::NodeBudget;
            break;
        }
        heapPop(heap, &heap_size);
        ++expanded;

        const Node parent = nodes[m_index];
        const uint32_t k = depth + 1;
        const float weight = powers[k - 1];
        Segment seg;
        seg.time = float(depth) * interval;
        seg.duration = interval;
        seg.p0 = parent.position;
        seg.d0 = {parent.facing.x * speed, parent.facing.y * speed, parent.facing.z * speed};
        seg.q0 = parent.orientation;
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t c = chosen[i];
            bool mirrored = false;
            const uint64_t slot = trimSlot(model, table.symmetric, parent.control, c, &mirrored);
            const Trim trim = mirrored ? mirrorTrim(table.trims[slot]) : table.trims[slot];
            Node& child = nodes[visited];
            const Vec3f d = quatRotate(parent.orientation, trim.position);
            child.position = {parent.position.x + scale * d.x, parent.position.y + scale * d.y,
                              parent.position.z + scale * d.z};
            child.orientation = quatMul(parent.orientation, trim.orientation);
            child.facing = quatRotate(parent.orientation, trim.facing);
            seg.p1 = child.position;
            seg.d1 = {child.facing.x * speed, child.facing.y * speed, child.facing.z * speed};
            seg.q1 = child.orientation;
            float g = behaviour.evaluate(behaviour.context, seg);
            if (!(g > 0.0f)) g = 0.0f; // also NaN
            if (g > 1.0f) g = 1.0f;
            // Damping biases the search only; the plan reports the behaviours' own goodness.
            child.goodness = g;
            if (s.damping > 0.0f) g *= 1.0f - s.damping * turn[c];
            child.value = parent.value + g * weight;
            const bool dead = s.prune_zero && g <= 0.0f;
            child.eval = dead ? child.value : child.value + tails[k];
            child.parent = m_index;
            child.control = uint16_t(c);
            child.depth = uint8_t(k);
            child.on_warm = parent.on_warm && c == warm;
            const uint32_t index = visited++;
            // The warm path is expanded first (its key outranks every ev), so the old plan is always
            // re-scored to its end before the budget runs out.
            const float key = child.on_warm ? std::numeric_limits<float>::infinity() : child.eval;
            if (k < max_depth && !dead) heapPush(heap, &heap_size, HeapEntry{key, index});
            if (k > deepest) deepest = k;
            if (dead) {
                if (best_dead == UINT32_MAX || child.value > nodes[best_dead].value) best_dead = index;
                continue;
            }
            if (k >= min_leaf) {
                if (best == UINT32_MAX || child.eval > nodes[best].eval) best = index;
            }
            const Node& f = nodes[fallback];
            if (k > f.depth || (k == f.depth && child.eval > f.eval)) fallback = index;
        }
    }

    const uint32_t chosen_index =
        best != UINT32_MAX ? best : (fallback != 0 || best_dead == UINT32_MAX ? fallback : best_dead);
    return reportChoice(nodes, chosen_index, state.control, expanded, visited, deepest, stop, plan,
                        plan_capacity, out);
}

} // namespace trims
} // namespace clearway
