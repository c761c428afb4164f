// Potential-field navigation (Mount's lecture): a marble rolling down attraction to the goal plus
// repulsion from the walls, by gradient descent. The lecture's 1/d^2 per obstacle is used in
// Khatib's bounded form, (1/d - 1/influence)^2 per wall within reach, with d measured from the
// agent's disc (clearance - radius), so the field is infinite exactly where the agent would touch
// a wall and a far wall does not bend the path.
#include "baselines_internal.h"

#include <algorithm>
#include <cmath>

namespace clearway::bake {

using geometry::closestOnSegment;
using geometry::dist;

namespace {

struct FieldSample {
    double value = 0;
    Vec2 gradient;
};

FieldSample field(const PotentialPlanner& f, Vec2 p, Vec2 goal, std::vector<uint32_t>& scratch) {
    const PotentialOptions& o = f.options;
    const FreeSpace& s = f.space;
    FieldSample out;
    const double rho = dist(p, goal), dstar = o.conic_distance;
    if (rho <= dstar) {
        out.value = 0.5 * o.attraction * rho * rho;
        out.gradient = {o.attraction * (p.x - goal.x), o.attraction * (p.y - goal.y)};
    } else {
        out.value = o.attraction * (dstar * rho - 0.5 * dstar * dstar);
        out.gradient = {o.attraction * dstar * (p.x - goal.x) / rho,
                        o.attraction * dstar * (p.y - goal.y) / rho};
    }
    scratch.clear();
    baselines::forEachCellOnCapsule(s, p, p, s.radius + o.influence, [&](uint32_t x, uint32_t y) {
        const uint32_t c = y * s.nx + x;
        scratch.insert(scratch.end(), s.cell_walls.begin() + s.cell_start[c],
                       s.cell_walls.begin() + s.cell_start[c + 1]);
        return true;
    });
    std::sort(scratch.begin(), scratch.end());
    scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
    double value = 0;
    Vec2 gradient{0, 0};
    for (uint32_t w : scratch) {
        const Vec2 q = closestOnSegment(p, s.walls[w].a, s.walls[w].b);
        const double c = dist(p, q), d = c - s.radius;
        if (d >= o.influence) continue;
        if (d <= 0) return {INFINITY, {0, 0}};
        const double k = 1 / d - 1 / o.influence;
        value += 0.5 * o.repulsion * k * k;
        // d/dp of 0.5 k^2 = -k / d^2 * (p - q) / c
        const double g = -o.repulsion * k / (d * d) / c;
        gradient.x += g * (p.x - q.x);
        gradient.y += g * (p.y - q.y);
    }
    // Within `influence` of the goal the repulsion fades as (rho / influence)^2, so the goal stays
    // the minimum when it lies near a wall (Ge and Cui's fix for goals near obstacles).
    if (rho < o.influence) {
        const double f = rho * rho / (o.influence * o.influence), df = 2 / (o.influence * o.influence);
        gradient = {f * gradient.x + value * df * (p.x - goal.x),
                    f * gradient.y + value * df * (p.y - goal.y)};
        value *= f;
    }
    out.value += value;
    out.gradient.x += gradient.x;
    out.gradient.y += gradient.y;
    return out;
}

} // namespace

Error buildPotentialField(const FootprintLayer& layer, double radius, const PotentialOptions& options,
                          PotentialPlanner* out) {
    if (Error e = baselines::checkRadius(radius, "potential field")) return e;
    if (!(options.attraction > 0) || !(options.repulsion >= 0) || !(options.influence > 0) ||
        !(options.conic_distance > 0) || options.step < 0 || options.max_steps == 0)
        return {ErrorCode::InvalidOption,
                "potential field: gains, influence and conic distance must be positive"};
    PotentialPlanner f;
    f.space = buildFreeSpace(layer, radius);
    f.options = options;
    if (!(f.options.step > 0)) f.options.step = radius / 4;
    *out = std::move(f);
    return {};
}

PlannedPath potentialPath(const PotentialPlanner& f, Vec2 start, Vec2 goal) {
    if (PlanStatus st = baselines::checkEndpoints(f.space, start, goal); st != PlanStatus::Ok)
        return baselines::failedPath(st);
    const double step = f.options.step;
    constexpr uint32_t kWindow = 100; // steps: moving less than one step in this many is a standstill
    std::vector<uint32_t> scratch;
    std::vector<Vec2> points{start};
    Vec2 p = start;
    FieldSample here = field(f, p, goal, scratch);
    for (uint32_t it = 0; it < f.options.max_steps; ++it) {
        if (dist(p, goal) <= step && segmentFree(f.space, p, goal)) {
            points.push_back(goal);
            return baselines::okPath(std::move(points));
        }
        const double norm = std::hypot(here.gradient.x, here.gradient.y);
        if (!(norm > 0)) return baselines::failedPath(PlanStatus::LocalMinimum);
        const Vec2 dir{-here.gradient.x / norm, -here.gradient.y / norm};
        // Step rule: the full step if it lowers the potential and stays clear, else halve it.
        bool moved = false;
        for (double alpha = step; alpha >= step / 1024; alpha *= 0.5) {
            const Vec2 q{p.x + alpha * dir.x, p.y + alpha * dir.y};
            const FieldSample there = field(f, q, goal, scratch);
            if (there.value < here.value && segmentFree(f.space, p, q)) {
                p = q;
                here = there;
                moved = true;
                break;
            }
        }
        if (!moved) return baselines::failedPath(PlanStatus::LocalMinimum);
        points.push_back(p);
        if (points.size() > kWindow && dist(points[points.size() - 1 - kWindow], p) < step)
            return baselines::failedPath(PlanStatus::LocalMinimum);
    }
    return baselines::failedPath(PlanStatus::StepLimit);
}

size_t bytesOf(const PotentialPlanner& f) {
    return bytesOf(f.space) + sizeof(PotentialOptions);
}

} // namespace clearway::bake
