// One run of one scenario with one search strategy: every ship decides (timed, allocations
// counted), then everyone moves at once.
#include "trims_bench.h"

#include <clearway/preview/svg_writer.h>

#include <algorithm>
#include <chrono>

namespace clearway::trims_bench {

std::string svgOf(const World& w, const char* title) {
    // Ground-plane (x, y) projection; 3D fields are drawn from above.
    float lo_x = 1e30f, lo_y = 1e30f, hi_x = -1e30f, hi_y = -1e30f;
    auto grow = [&](Vec3f p, float r) {
        lo_x = std::min(lo_x, p.x - r), hi_x = std::max(hi_x, p.x + r);
        lo_y = std::min(lo_y, p.y - r), hi_y = std::max(hi_y, p.y + r);
    };
    for (const Sphere& s : w.asteroids)
        grow(s.center, s.radius);
    for (const Ship& s : w.ships)
        for (const Vec3f& p : s.trail)
            grow(p, 5);
    const float pad = 10;
    preview::SvgWriter svg({}, true); // "%g"; y up
    // viewBox before a width and no height: the picture's aspect is the world's.
    svg.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"" + svg.num(lo_x - pad) + " " +
            svg.num(-(hi_y + pad)) + " " + svg.num(hi_x - lo_x + 2 * pad) + " " +
            svg.num(hi_y - lo_y + 2 * pad) + "\" width=\"1200\">\n");
    svg.title(title);
    for (const Sphere& s : w.asteroids)
        svg.circle(s.center.x, s.center.y, s.radius, {{"fill", "#bbb"}});
    const char* colours[] = {"#1f5fbf", "#c0392b", "#d35400", "#8e44ad", "#16a085", "#7f8c8d"};
    for (size_t i = 0; i < w.ships.size(); ++i)
        svg.polyline(w.ships[i].trail.data(), w.ships[i].trail.size(),
                     {{"fill", "none"}, {"stroke-width", "1.5"}, {"stroke", colours[i % 6]}});
    return svg.finish();
}

World fly(const Scenario& sc, const TableView& table, SearchWorkspace* ws, bool warm, uint32_t run_seed,
          Stats* stats) {
    std::mt19937 rng(run_seed);
    World w = sc.make(rng, table);
    const float interval = float(table.model.interval);
    const float ship_radius = 2.0f;
    SphereHashSettings hs = defaultSphereHashSettings();
    hs.planar = !sc.spatial;
    hs.min_cell = sc.spatial ? 8.0f : 4.0f;
    hs.horizon = float(ws->settings.max_depth + 1) * interval;
    std::vector<uint64_t> hash_memory;
    std::vector<uint32_t> plan(ws->settings.max_depth + 1);
    for (Ship& s : w.ships) {
        s.trail.push_back(s.state.position);
        s.plan.assign(ws->settings.max_depth + 1, 0);
    }

    for (int step = 0; step < sc.decisions; ++step) {
        SphereHash hash;
        const size_t bytes = sphereHashMemorySize(w.asteroids.data(), uint32_t(w.asteroids.size()), hs);
        if (hash_memory.size() * 8 < bytes) hash_memory.resize(bytes / 8 + 1);
        buildSphereHash(w.asteroids.data(), uint32_t(w.asteroids.size()), hs, hash_memory.data(), bytes,
                        &hash);

        std::vector<uint32_t> controls(w.ships.size());
        for (size_t i = 0; i < w.ships.size(); ++i) {
            Ship& s = w.ships[i];
            if (!s.active) continue;
            const float speed = s.state.speed;
            AvoidCollision avoid{&hash, ship_radius,
                                 table.max_chord_deviation * float(speed / table.model.speed)};
            Seek seek{s.target};
            Pursue pursue{};
            if (s.goal == Goal::Pursue) {
                const Ship& prey = w.ships[size_t(s.prey)];
                pursue = {prey.state.position, mul(facingOf(prey.state.orientation), prey.state.speed)};
            }
            const Behaviour parts[2] = {s.goal == Goal::Seek ? behaviour(&seek) : behaviour(&pursue),
                                        behaviour(&avoid)};
            Composite composite{parts, 2};
            SearchResult r{};
            const uint64_t before = allocationCount();
            const auto t0 = std::chrono::steady_clock::now();
            const uint32_t* warm_plan = warm && s.plan_length > 1 ? s.plan.data() + 1 : nullptr;
            search(ws, s.state, behaviour(&composite), plan.data(), uint32_t(plan.size()), &r, warm_plan,
                   warm_plan ? s.plan_length - 1 : 0);
            const auto t1 = std::chrono::steady_clock::now();
            stats->allocations += allocationCount() - before;
            stats->decision_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            stats->expansions += r.expanded;
            stats->visited += r.visited;
            if (r.stop == SearchStop::NodeBudget) ++stats->node_budget_stops;
            s.goodness_sum += r.first_goodness;
            ++s.decisions;
            {
                const Vec3f goal = s.goal == Goal::Pursue ? w.ships[size_t(s.prey)].state.position : s.target;
                const Vec3f to = sub(goal, s.state.position);
                const float distance = norm(to);
                const Vec3f facing = facingOf(s.state.orientation);
                const float c =
                    distance > 0 ? (facing.x * to.x + facing.y * to.y + facing.z * to.z) / distance : 1;
                Stats::Step& p = stats->step(s.role, step);
                p.goodness += r.first_goodness;
                p.distance += distance;
                p.off_angle += std::acos(std::max(-1.0f, std::min(1.0f, c))) * 57.29578f;
                ++p.count;
            }
            controls[i] = r.first_control;
            std::copy(plan.begin(), plan.begin() + r.plan_length, s.plan.begin());
            s.plan_length = r.plan_length;
        }
        // Everyone moves at once; collisions are judged on the flown chord against moving asteroids.
        for (size_t i = 0; i < w.ships.size(); ++i) {
            Ship& s = w.ships[i];
            if (!s.active) continue;
            VehicleState next;
            applyTrim(table, s.state, controls[i], &next);
            {
                const Vec3f f0 = facingOf(s.state.orientation), f1 = facingOf(next.orientation);
                const float c = f0.x * f1.x + f0.y * f1.y + f0.z * f1.z;
                stats->step(s.role, step).turn += std::acos(std::max(-1.0f, std::min(1.0f, c))) * 57.29578f;
            }
            if (sphereHashHitsSegment(hash, s.state.position, next.position, 0, interval, ship_radius))
                ++s.collisions;
            s.state = next;
            s.trail.push_back(next.position);
            if (w.arrive_ends && s.goal == Goal::Seek &&
                norm(sub(next.position, s.target)) < w.arrive_radius) {
                s.active = false;
                ++stats->arrivals;
            }
        }
        for (Sphere& a : w.asteroids)
            a.center = add(a.center, mul(a.velocity, interval));
        bool any = false;
        for (const Ship& s : w.ships)
            any = any || s.active;
        if (!any) break;
    }
    for (const Ship& s : w.ships) {
        if (s.decisions) stats->addGoodness(s.role, s.goodness_sum / s.decisions);
        stats->collisions += s.collisions;
    }
    ++stats->runs;
    return w;
}

} // namespace clearway::trims_bench
