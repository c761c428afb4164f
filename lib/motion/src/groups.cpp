// Group motion along a backbone path (Nieuwenhuisen et al. 2004 "Path planning for groups", Kamphuis & Overmars
// 2004): a corridor of wall-free capsules along the path, attraction points on the backbone,
// repulsion, and a bound on the longitudinal dispersion.
//
// The force step alone cannot promise anything (forces balance in crowds, a big push overshoots a
// wall), so every move is followed by a hard projection that keeps the invariants exactly; see
// groupStep. Entities move one after another, furthest along first (Gauss-Seidel), which makes the
// update deterministic and lets each move be checked against the others' actual positions.
#include <clearway/motion.h>

#include <cmath>

namespace clearway {
namespace {

bool finite(double v) {
    return std::isfinite(v);
}
double clampTo(double v, double lo, double hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

bool validSettings(const GroupSettings& g) {
    const double all[] = {
        g.group_width,     g.max_longitudinal, g.max_speed,     g.max_accel, g.attraction_gain,
        g.repulsion_range, g.repulsion_speed,  g.corridor_step, g.dt,        g.arrive_distance};
    for (double v : all)
        if (!finite(v)) return false;
    return g.group_width > 0.0 && g.max_longitudinal >= 0.0 && g.max_speed > 0.0 && g.max_accel > 0.0 &&
           g.attraction_gain > 0.0 && g.repulsion_range >= 0.0 && g.repulsion_speed >= 0.0 &&
           g.corridor_step > 0.0 && g.dt > 0.0 && g.arrive_distance >= 0.0;
}

bool validCorridor(const GroupCorridor& c) {
    return c.points && c.count >= 2 && finite(c.step) && c.step > 0.0 && finite(c.length);
}

double dist2(Vec2d a, Vec2d b) {
    const double dx = a.x - b.x, dy = a.y - b.y;
    return dx * dx + dy * dy;
}

// Everything one step needs about the corridor and the group's bounds.
struct Frame {
    const GroupCorridor& corridor;
    const GroupSettings& settings;
    GroupEntity* entities;
    uint32_t count;
    uint32_t window; // capsules searched either side of an entity's last one
    double lo, hi;   // allowed progress: [least advanced, least advanced + max_longitudinal]
};

// The most advanced chord point within (capsule radius - r) of a point.
struct Hit {
    uint32_t segment;
    double s;
    Vec2d point;
};

void windowRange(const GroupCorridor& c, uint32_t window, uint32_t around, uint32_t* first, uint32_t* last) {
    const uint32_t top = c.count - 2; // capsules 0 .. count - 2
    around = around < top ? around : top;
    *first = around > window ? around - window : 0;
    *last = top - around > window ? around + window : top;
}

// Searches the capsules within `window` of `around`, most advanced first. The window keeps the
// search local (a stretch of path further on that passes close by is not a shortcut the entity
// could see) and cheap.
bool farthest(const GroupCorridor& c, uint32_t window, uint32_t around, Vec2d x, double r, Hit* out) {
    uint32_t first, last;
    windowRange(c, window, around, &first, &last);
    for (uint32_t k = last + 1; k-- > first;) {
        const GroupCorridorPoint &a = c.points[k], &b = c.points[k + 1];
        const double rho = a.radius - r;
        if (rho < 0.0) continue;
        const double dx = b.position.x - a.position.x, dy = b.position.y - a.position.y;
        const double len = std::sqrt(dx * dx + dy * dy);
        const double px = x.x - a.position.x, py = x.y - a.position.y;
        if (!(len > 0.0)) {
            if (px * px + py * py > rho * rho) continue;
            *out = Hit{k, a.s, a.position};
            return true;
        }
        const double ux = dx / len, uy = dy / len;
        const double along = px * ux + py * uy;
        const double across = px * uy - py * ux;
        if (std::fabs(across) > rho) continue;
        const double half = std::sqrt(rho * rho - across * across);
        if (along + half < 0.0 || along - half > len) continue;
        const double t = along + half < len ? along + half : len;
        *out = Hit{k, a.s + (b.s - a.s) * (t / len), Vec2d{a.position.x + ux * t, a.position.y + uy * t}};
        return true;
    }
    return false;
}

// Chord point at arc length s (clamped to the corridor).
Vec2d pointAt(const GroupCorridor& c, double s) {
    s = clampTo(s, 0.0, c.length);
    uint32_t k = uint32_t(clampTo(std::floor(s / c.step), 0.0, double(c.count - 2)));
    while (k + 2 < c.count && c.points[k + 1].s <= s)
        ++k;
    while (k > 0 && c.points[k].s > s)
        --k;
    const GroupCorridorPoint &a = c.points[k], &b = c.points[k + 1];
    const double f = b.s > a.s ? (s - a.s) / (b.s - a.s) : 0.0;
    return Vec2d{a.position.x + (b.position.x - a.position.x) * f,
                 a.position.y + (b.position.y - a.position.y) * f};
}

// The invariants for entity i at p (others where they are now).
bool feasible(const Frame& f, uint32_t i, uint32_t around, Vec2d p) {
    const double r = f.entities[i].radius;
    Hit hit;
    if (!farthest(f.corridor, f.window, around, p, r, &hit) || hit.s < f.lo || hit.s > f.hi) return false;
    for (uint32_t j = 0; j < f.count; ++j) {
        if (j == i) continue;
        const double d = r + f.entities[j].radius;
        if (dist2(p, f.entities[j].position) < d * d) return false;
    }
    return true;
}

// Nearest point to p inside a capsule (shrunk by the radius) of the window whose progress range
// meets the allowed one; p itself if it is inside one.
Vec2d projectToCorridor(const Frame& f, uint32_t around, Vec2d p, double r) {
    const GroupCorridor& c = f.corridor;
    uint32_t first, last;
    windowRange(c, f.window, around, &first, &last);
    double best = INFINITY;
    Vec2d out = p;
    for (uint32_t k = first; k <= last; ++k) {
        const GroupCorridorPoint &a = c.points[k], &b = c.points[k + 1];
        const double rho = a.radius - r;
        if (rho < 0.0 || b.s < f.lo || a.s > f.hi) continue;
        const double dx = b.position.x - a.position.x, dy = b.position.y - a.position.y;
        const double len2 = dx * dx + dy * dy;
        const double t =
            len2 > 0.0 ? clampTo(((p.x - a.position.x) * dx + (p.y - a.position.y) * dy) / len2, 0.0, 1.0)
                       : 0.0;
        const Vec2d m{a.position.x + dx * t, a.position.y + dy * t};
        const double d = std::sqrt(dist2(p, m));
        if (d <= rho) return p;
        if (d - rho < best) {
            best = d - rho;
            // Aim a hair inside so rounding cannot leave the point just outside the capsule.
            const double scale = rho * (1.0 - 1e-12) / d;
            out = Vec2d{m.x + (p.x - m.x) * scale, m.y + (p.y - m.y) * scale};
        }
    }
    return out;
}

// Moves p out of every disc it overlaps (minimum translation, in index order).
Vec2d pushOutOfOthers(const Frame& f, uint32_t i, Vec2d p) {
    const double r = f.entities[i].radius;
    for (uint32_t j = 0; j < f.count; ++j) {
        if (j == i) continue;
        const Vec2d q = f.entities[j].position;
        const double need = (r + f.entities[j].radius) * (1.0 + 1e-9);
        const double d2 = dist2(p, q);
        if (d2 >= need * need) continue;
        const double d = std::sqrt(d2);
        if (d > 0.0) {
            p = Vec2d{q.x + (p.x - q.x) * need / d, q.y + (p.y - q.y) * need / d};
        } else { // coincident: out along the entity's own position offset (deterministic)
            const Vec2d o = f.entities[i].position;
            const double od = std::sqrt(dist2(o, q));
            if (od > 0.0) p = Vec2d{q.x + (o.x - q.x) * need / od, q.y + (o.y - q.y) * need / od};
        }
    }
    return p;
}

// A wall-free radius around the chord a-b, given the (capped) clearances ca, cb at its ends. A
// chord point at distance t from a has clearance >= ca - t and >= cb - (len - t) (the distance to
// the walls, and its cap, are 1-Lipschitz), so >= (ca + cb - len) / 2 everywhere. That loses up to
// len / 2 against the true clearance, which in a passage just wide enough for the group stops it
// (a single-file corridor of 0.375 m clearance would shrink to 0.25); so the chord is halved at
// its midpoint (one wallDistance) up to `depth` times, until the bound is within 2 mm of the ends'.
constexpr int kCapsuleDepth = 4;

Status capsuleRadius(const RoadmapView& view, const PathScratch* scratch, uint32_t layer, Vec2d a, Vec2d b,
                     double ca, double cb, double cap, int depth, double* out) {
    const double len = std::sqrt(dist2(a, b));
    const double bound = 0.5 * (ca + cb - len);
    const double ends = ca < cb ? ca : cb;
    if (depth == 0 || bound >= ends - 0.002) {
        *out = bound > 0.0 ? bound : 0.0;
        return Status::Ok;
    }
    const Vec2d m{0.5 * (a.x + b.x), 0.5 * (a.y + b.y)};
    double cm;
    const Status st = wallDistance(view, scratch, layer, m.x, m.y, &cm, nullptr);
    if (st != Status::Ok) return st;
    cm = cm < cap ? cm : cap;
    double left, right;
    if (const Status s1 = capsuleRadius(view, scratch, layer, a, m, ca, cm, cap, depth - 1, &left);
        s1 != Status::Ok)
        return s1;
    if (const Status s2 = capsuleRadius(view, scratch, layer, m, b, cm, cb, cap, depth - 1, &right);
        s2 != Status::Ok)
        return s2;
    *out = left < right ? left : right;
    return Status::Ok;
}

constexpr uint32_t kNoEntity = 0xffffffffu;

// Update order: j goes before i when it is further along the backbone (ties: lower index first).
bool before(const GroupEntity* e, uint32_t j, uint32_t i) {
    return e[j].along > e[i].along || (e[j].along == e[i].along && j < i);
}

// Arc length of the backbone point nearest to p among the capsules in the window (ties: the
// further one): where the entity physically is along the path, unlike its attraction point,
// which lags for entities off the axis.
double alongOf(const GroupCorridor& c, uint32_t window, uint32_t around, Vec2d p) {
    uint32_t first, last;
    windowRange(c, window, around, &first, &last);
    double best = INFINITY, s = c.points[around < c.count ? around : c.count - 1].s;
    for (uint32_t k = first; k <= last; ++k) {
        const GroupCorridorPoint &a = c.points[k], &b = c.points[k + 1];
        const double dx = b.position.x - a.position.x, dy = b.position.y - a.position.y;
        const double len2 = dx * dx + dy * dy;
        const double t =
            len2 > 0.0 ? clampTo(((p.x - a.position.x) * dx + (p.y - a.position.y) * dy) / len2, 0.0, 1.0)
                       : 0.0;
        const double d = dist2(p, Vec2d{a.position.x + dx * t, a.position.y + dy * t});
        if (d <= best) {
            best = d;
            s = a.s + (b.s - a.s) * t;
        }
    }
    return s;
}

uint32_t windowOf(const GroupCorridor& c, const GroupSettings& g) {
    // A capsule holding the entity has its chord within group_width of it, so every candidate is
    // within about 2 group widths (plus a step's move) of the one found last time.
    const double reach = 4.0 * g.group_width + 2.0 * g.max_speed * g.dt + 1.0;
    const double w = std::ceil(reach / c.step) + 2.0;
    return w < double(c.count) ? uint32_t(w) : c.count;
}

// The velocity entity i asks for this step. Attraction: the most advanced point whose capsule
// holds the entity (*target), no further than the bound (leaders wait); full speed until the end
// (goal_s) or the bound comes near. Then following, repulsion and the speed and turn limits.
Vec2d desiredVelocity(const Frame& f, uint32_t i, double goal_s, Vec2d* target_out) {
    const GroupCorridor& corridor = f.corridor;
    const GroupSettings& settings = f.settings;
    const GroupEntity* entities = f.entities;
    const uint32_t count = f.count;
    const GroupEntity& e = entities[i];
    const double dt = settings.dt, vmax = settings.max_speed, dv_max = settings.max_accel * dt;
    double s_a = e.progress;
    Vec2d target = e.attraction;
    if (s_a > f.hi) {
        s_a = f.hi;
        target = pointAt(corridor, s_a);
    }
    const double dx = target.x - e.position.x, dy = target.y - e.position.y;
    const double d = std::sqrt(dx * dx + dy * dy);
    Vec2d want{0.0, 0.0};
    if (d > 0.0) {
        const double ahead = goal_s > s_a ? goal_s - s_a : 0.0;
        const double speed = std::fmin(vmax, settings.attraction_gain * (d + ahead));
        want = Vec2d{dx / d * speed, dy / d * speed};
    }
    // Follow, do not push: towards an entity further along the backbone (it moved already in
    // this step) within repulsion range, go no faster than it goes that way. A crowd pressing
    // into a bottleneck otherwise wedges the ones ahead into an arch that the hard projection
    // holds forever; in free flow the one ahead moves as fast, so nothing changes.
    for (uint32_t j = 0; j < count; ++j) {
        if (j == i || !before(entities, j, i)) continue;
        const double nx = entities[j].position.x - e.position.x,
                     ny = entities[j].position.y - e.position.y;
        const double nd = std::sqrt(nx * nx + ny * ny);
        if (nd <= 0.0 || nd - e.radius - entities[j].radius >= settings.repulsion_range) continue;
        const double ux = nx / nd, uy = ny / nd;
        const double theirs = entities[j].velocity.x * ux + entities[j].velocity.y * uy;
        const double excess = want.x * ux + want.y * uy - (theirs > 0.0 ? theirs : 0.0);
        if (excess > 0.0) want = Vec2d{want.x - excess * ux, want.y - excess * uy};
    }
    // Repulsion from every disc closer than repulsion_range (O(N) per entity: groups are tens
    // to a few hundred, where a grid would cost more than it saves).
    for (uint32_t j = 0; j < count; ++j) {
        if (j == i) continue;
        const Vec2d q = entities[j].position;
        const double cx = e.position.x - q.x, cy = e.position.y - q.y;
        const double cd = std::sqrt(cx * cx + cy * cy);
        const double gap = cd - e.radius - entities[j].radius;
        if (gap >= settings.repulsion_range || cd <= 0.0) continue;
        const double push =
            settings.repulsion_speed *
            (settings.repulsion_range > 0.0
                 ? 1.0 - clampTo(gap, 0.0, settings.repulsion_range) / settings.repulsion_range
                 : 1.0);
        want.x += cx / cd * push;
        want.y += cy / cd * push;
    }
    const double wn = std::sqrt(want.x * want.x + want.y * want.y);
    if (wn > vmax) want = Vec2d{want.x / wn * vmax, want.y / wn * vmax};
    // Bounded change of velocity: smooth motion instead of instant turns.
    double ddx = want.x - e.velocity.x, ddy = want.y - e.velocity.y;
    const double dn = std::sqrt(ddx * ddx + ddy * ddy);
    if (dn > dv_max) ddx *= dv_max / dn, ddy *= dv_max / dn;
    Vec2d v{e.velocity.x + ddx, e.velocity.y + ddy};
    const double vn = std::sqrt(v.x * v.x + v.y * v.y);
    if (vn > vmax) v = Vec2d{v.x / vn * vmax, v.y / vn * vmax};
    *target_out = target;
    return v;
}

// Moves entity i by velocity v for one step under the hard projection; false when it stays put.
bool moveProjected(const Frame& f, uint32_t i, uint32_t around, Vec2d v, Vec2d target) {
    GroupEntity& e = f.entities[i];
    const double dt = f.settings.dt;
    // Hard projection. Why not trust the forces: they only keep entities apart on average and
    // know nothing of the corridor's boundary. The proposal is slid out of the others and
    // back into the allowed corridor twice (cheap, usually enough); if it still breaks an
    // invariant, the move is halved until it does not, and staying put always satisfies them
    // (the bounds come from the state before the step, every entity met them there, and the
    // entities that moved earlier in this step were checked against this one's position).
    // So the invariants hold exactly after every step, by induction from groupPlace.
    const Vec2d from = e.position;
    Vec2d p{from.x + v.x * dt, from.y + v.y * dt};
    for (int pass = 0; pass < 2; ++pass) {
        p = pushOutOfOthers(f, i, p);
        p = projectToCorridor(f, around, p, e.radius);
    }
    Vec2d to = from;
    bool moved = false;
    double frac = 1.0;
    for (int attempt = 0; attempt < 12; ++attempt, frac *= 0.5) {
        const Vec2d q{from.x + (p.x - from.x) * frac, from.y + (p.y - from.y) * frac};
        if (feasible(f, i, around, q)) {
            to = q;
            moved = true;
            break;
        }
    }
    e.position = to;
    e.velocity = Vec2d{(to.x - from.x) / dt, (to.y - from.y) / dt};
    e.attraction = target;
    return moved;
}

} // namespace

GroupSettings groupDefaults() {
    GroupSettings g{};
    g.group_width = 2.0;
    g.max_longitudinal = 12.0;
    g.max_speed = 1.4; // walking pace
    g.max_accel = 4.0;
    g.attraction_gain = 2.0;
    g.repulsion_range = 0.3;
    g.repulsion_speed = 1.0;
    g.corridor_step = 0.25;
    g.dt = 0.05;
    g.arrive_distance = 4.0;
    return g;
}

uint32_t groupCorridorPointCount(double path_length, double corridor_step) {
    if (!finite(path_length) || path_length < 0.0 || !finite(corridor_step) || !(corridor_step > 0.0))
        return 0;
    const double n = std::ceil(path_length / corridor_step) + 1.0;
    if (!(n < 4294967295.0)) return 0;
    return n < 2.0 ? 2u : uint32_t(n);
}

Status buildGroupCorridor(const RoadmapView& view, const PathScratch* scratch, const PathSegment* segments,
                          uint32_t count, const GroupSettings& settings, GroupCorridorPoint* points,
                          uint32_t max_points, GroupCorridor* out) {
    if (!out || !points || !validSettings(settings) || !segments || count == 0)
        return Status::InvalidArgument;
    const double length = pathTotalLength(segments, count);
    const uint32_t n = groupCorridorPointCount(length, settings.corridor_step);
    if (n == 0) return Status::InvalidArgument;
    if (max_points < n) return Status::BufferTooSmall;
    for (uint32_t k = 0; k < n; ++k) {
        // Uniform in s, the last sample exactly at the end.
        const double s = k + 1 == n ? length : length * double(k) / double(n - 1);
        CorridorSample c;
        const Status st = pathCorridorAt(view, scratch, segments, count, s, settings.group_width, &c);
        if (st != Status::Ok) return st;
        points[k].s = s;
        points[k].position = c.position;
        points[k].heading = std::atan2(-c.left_normal.x, c.left_normal.y);
        points[k].clearance = c.clearance < settings.group_width ? c.clearance : settings.group_width;
        points[k].radius = 0.0;
        points[k].layer = c.layer;
    }
    for (uint32_t k = 0; k + 1 < n; ++k) {
        const Status st = capsuleRadius(view, scratch, points[k].layer, points[k].position,
                                        points[k + 1].position, points[k].clearance, points[k + 1].clearance,
                                        settings.group_width, kCapsuleDepth, &points[k].radius);
        if (st != Status::Ok) return st;
    }
    out->points = points;
    out->count = n;
    out->step = length / double(n - 1);
    out->length = length;
    if (!(out->step > 0.0)) out->step = settings.corridor_step; // a zero-length path: one place
    return Status::Ok;
}

Status groupPlace(const GroupCorridor& corridor, const GroupSettings& settings, GroupEntity* entities,
                  uint32_t count) {
    if (!validCorridor(corridor) || !validSettings(settings) || (count > 0 && !entities))
        return Status::InvalidArgument;
    double r_max = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        if (!finite(entities[i].radius) || !(entities[i].radius > 0.0)) return Status::InvalidArgument;
        r_max = entities[i].radius > r_max ? entities[i].radius : r_max;
    }
    const uint32_t window = windowOf(corridor, settings);
    // Only the first max_longitudinal of corridor: the placed group must already be coherent.
    Frame f{corridor, settings, entities, 0, window, 0.0, settings.max_longitudinal};
    // Candidates: across each sample's normal at a spacing a little over one diameter, centre
    // first, then alternately left and right; samples from the start onwards. A cursor resumes
    // where the previous entity went, so placing N entities costs O(N * candidates tried).
    const double spacing = 2.0 * r_max * 1.05;
    uint32_t k = 0;
    int32_t slot = 0;
    for (uint32_t i = 0; i < count; ++i) {
        GroupEntity& e = entities[i];
        e.velocity = Vec2d{0.0, 0.0};
        bool placed = false;
        f.count = i; // only the ones placed so far exist
        while (!placed && k < corridor.count && corridor.points[k].s <= f.hi) {
            const GroupCorridorPoint& c = corridor.points[k];
            const double offset = (slot % 2 == 0 ? 1.0 : -1.0) * double((slot + 1) / 2) * spacing;
            if (std::fabs(offset) > c.clearance - e.radius) { // this row is full
                ++k;
                slot = 0;
                continue;
            }
            const Vec2d p{c.position.x - std::sin(c.heading) * offset,
                          c.position.y + std::cos(c.heading) * offset};
            Hit hit;
            if (feasible(f, i, k, p) && farthest(corridor, window, k, p, e.radius, &hit)) {
                e.position = p;
                e.progress = hit.s;
                e.segment = hit.segment;
                e.attraction = hit.point;
                e.along = alongOf(corridor, window, hit.segment, p);
                e.layer = corridor.points[hit.segment].layer;
                placed = true;
            }
            ++slot;
        }
        if (!placed) return Status::NotFound;
    }
    return Status::Ok;
}

Status groupStep(const GroupCorridor& corridor, const GroupSettings& settings, GroupEntity* entities,
                 uint32_t count, GroupStepInfo* info) {
    if (!validCorridor(corridor) || !validSettings(settings) || (count > 0 && !entities))
        return Status::InvalidArgument;
    const uint32_t window = windowOf(corridor, settings);
    // Progress of everyone first: the bounds for this step come from the state before it.
    double least = INFINITY;
    for (uint32_t i = 0; i < count; ++i) {
        GroupEntity& e = entities[i];
        if (!finite(e.position.x) || !finite(e.position.y) || !finite(e.velocity.x) ||
            !finite(e.velocity.y) || !finite(e.radius) || !(e.radius > 0.0) || e.segment >= corridor.count)
            return Status::InvalidArgument;
        Hit hit;
        if (!farthest(corridor, window, e.segment, e.position, e.radius, &hit))
            return Status::InvalidArgument;
        e.progress = hit.s;
        e.segment = hit.segment;
        e.attraction = hit.point;
        e.along = alongOf(corridor, window, hit.segment, e.position);
        least = hit.s < least ? hit.s : least;
    }
    const Frame f{corridor, settings, entities, count, window, least, least + settings.max_longitudinal};
    // Where the group may go this step: the path end, or the bound the least advanced sets.
    const double goal_s = f.hi < corridor.length ? f.hi : corridor.length;
    uint32_t blocked = 0;

    // Furthest along first (ties by index), by position before the step: at a bottleneck the front
    // entity moves on before the ones behind try to follow, so a queue streams through instead of
    // locking into an arch. Selection by scanning (O(N^2), like the repulsion) needs no buffer.
    uint32_t prev = kNoEntity;
    for (uint32_t n_done = 0; n_done < count; ++n_done) {
        uint32_t i = kNoEntity;
        for (uint32_t j = 0; j < count; ++j) {
            if (prev != kNoEntity && !before(entities, prev, j)) continue; // moved already
            if (i == kNoEntity || before(entities, j, i)) i = j;
        }
        prev = i;
        const uint32_t around = entities[i].segment;
        Vec2d target;
        const Vec2d v = desiredVelocity(f, i, goal_s, &target);
        if (!moveProjected(f, i, around, v, target)) ++blocked;
    }
    // Progress after the moves (kept out of the loop above, which orders by the progress before).
    for (uint32_t i = 0; i < count; ++i) {
        GroupEntity& e = entities[i];
        Hit hit;
        if (farthest(corridor, window, e.segment, e.position, e.radius, &hit)) { // else it stayed put
            e.progress = hit.s;
            e.segment = hit.segment;
        }
        e.along = alongOf(corridor, window, e.segment, e.position);
        e.layer = corridor.points[e.segment].layer;
    }

    if (info) {
        GroupStepInfo out{};
        out.min_progress = count ? INFINITY : 0.0;
        out.max_progress = count ? -INFINITY : 0.0;
        const double arrive_s = corridor.length - settings.arrive_distance;
        for (uint32_t i = 0; i < count; ++i) {
            const double s = entities[i].progress;
            out.min_progress = s < out.min_progress ? s : out.min_progress;
            out.max_progress = s > out.max_progress ? s : out.max_progress;
            out.arrived += s >= arrive_s ? 1u : 0u;
        }
        out.blocked = blocked;
        *info = out;
    }
    return Status::Ok;
}

} // namespace clearway
