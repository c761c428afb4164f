// Steering behaviours: hand-computed goodness values, range and monotonicity, linear prediction,
// and the sphere hash against a brute-force test of every sphere.
#include <clearway/motion.h>

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace clearway;
using namespace clearway::trims;

namespace {

// A straight segment from p0 to p1 at 10 m/s facing `facing` at the end, over [time, time + 1].
Segment segment(Vec3f p0, Vec3f p1, Vec3f facing, float time = 0.0f) {
    Segment s{};
    s.time = time;
    s.duration = 1.0f;
    s.p0 = p0;
    s.p1 = p1;
    s.d0 = {facing.x * 10, facing.y * 10, facing.z * 10};
    s.d1 = s.d0;
    s.q0 = s.q1 = {0, 0, 0, 1};
    return s;
}

Segment randomSegment(std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-50.0f, 50.0f);
    Vec3f f{u(rng), u(rng), u(rng)};
    const float n = std::sqrt(f.x * f.x + f.y * f.y + f.z * f.z);
    f = {f.x / n, f.y / n, f.z / n};
    const Vec3f p0{u(rng), u(rng), u(rng)};
    return segment(p0, {p0.x + u(rng) / 5, p0.y + u(rng) / 5, p0.z + u(rng) / 5}, f,
                   u(rng) > 0 ? 3.0f : 0.0f);
}

struct Memory {
    std::vector<uint64_t> words;
    SphereHash hash;
    Memory(const std::vector<Sphere>& spheres, const SphereHashSettings& s) {
        const size_t bytes = sphereHashMemorySize(spheres.data(), uint32_t(spheres.size()), s);
        REQUIRE(bytes > 0);
        words.assign((bytes + 7) / 8, 0);
        REQUIRE(buildSphereHash(spheres.data(), uint32_t(spheres.size()), s, words.data(), bytes, &hash) ==
                Status::Ok);
    }
};

// Closest approach over the segment's time window, in double, for every sphere (no hash).
// Returns 1 hit, 0 miss, -1 too close to call (within 1 mm of touching).
int bruteHit(const std::vector<Sphere>& spheres, Vec3f p0, Vec3f p1, float t0, float t1, float radius) {
    bool close = false;
    for (const Sphere& s : spheres) {
        const double r0[3] = {double(p0.x) - (s.center.x + double(s.velocity.x) * t0),
                              double(p0.y) - (s.center.y + double(s.velocity.y) * t0),
                              double(p0.z) - (s.center.z + double(s.velocity.z) * t0)};
        const double e[3] = {double(p1.x) - p0.x - double(s.velocity.x) * (t1 - t0),
                             double(p1.y) - p0.y - double(s.velocity.y) * (t1 - t0),
                             double(p1.z) - p0.z - double(s.velocity.z) * (t1 - t0)};
        const double reach0 = double(s.radius) + radius;
        const double start = std::sqrt(r0[0] * r0[0] + r0[1] * r0[1] + r0[2] * r0[2]);
        if (std::fabs(start - reach0) < 1e-3) {
            close = true;
            continue;
        }
        if (start < reach0) { // overlapping at the start: only moving deeper hits
            const double inward = r0[0] * e[0] + r0[1] * e[1] + r0[2] * e[2];
            if (std::fabs(inward) < 1e-6)
                close = true;
            else if (inward < 0)
                return 1;
            continue;
        }
        const double ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
        double a = ee > 0 ? -(r0[0] * e[0] + r0[1] * e[1] + r0[2] * e[2]) / ee : 0.0;
        a = std::min(1.0, std::max(0.0, a));
        const double d = std::sqrt(std::pow(r0[0] + a * e[0], 2) + std::pow(r0[1] + a * e[1], 2) +
                                   std::pow(r0[2] + a * e[2], 2));
        const double reach = double(s.radius) + radius;
        if (std::fabs(d - reach) < 1e-3)
            close = true;
        else if (d < reach)
            return 1;
    }
    return close ? -1 : 0;
}

} // namespace

TEST_SUITE("trims behaviours") {
    TEST_CASE("seek: the paper's formula on hand-computed cases") {
        const Segment s = segment({0, 0, 0}, {10, 0, 0}, {1, 0, 0});
        CHECK(seekGoodness(Seek{{20, 0, 0}}, s) == doctest::Approx(1.0));   // ahead, moving at it
        CHECK(seekGoodness(Seek{{-10, 0, 0}}, s) == doctest::Approx(0.0));  // straight behind
        CHECK(seekGoodness(Seek{{10, 10, 0}}, s) == doctest::Approx(0.25)); // abeam: (1 + 0)(1 + 0) / 4
        // Facing 45 degrees left, moving along +x, target straight left of the end point:
        // (1 + cos 45)(1 + 0) / 4 = 0.4268.
        const float h = std::sqrt(0.5f);
        const Segment diag = segment({0, 0, 0}, {10, 0, 0}, {h, h, 0});
        CHECK(seekGoodness(Seek{{10, 10, 0}}, diag) == doctest::Approx(0.25 * (1 + std::sqrt(0.5))));
        // Target at the end point: arrived.
        CHECK(seekGoodness(Seek{{10, 0, 0}}, s) == 1.0f);
    }

    TEST_CASE("seek decreases monotonically as the target moves round from ahead to behind") {
        const Segment s = segment({0, 0, 0}, {10, 0, 0}, {1, 0, 0});
        float last = 2.0f;
        for (int deg = 0; deg <= 180; deg += 5) {
            const float a = float(deg) * 3.14159265f / 180.0f;
            const float g = seekGoodness(Seek{{10 + 30 * std::cos(a), 30 * std::sin(a), 0}}, s);
            CHECK(g <= last + 1e-6f);
            last = g;
        }
        CHECK(last == doctest::Approx(0.0).epsilon(1e-6));
    }

    TEST_CASE("flee mirrors seek, and is 1 beyond the safe distance") {
        const Segment s = segment({0, 0, 0}, {10, 0, 0}, {1, 0, 0});
        CHECK(fleeGoodness(Flee{{-10, 0, 0}, 0}, s) == doctest::Approx(1.0)); // running away
        CHECK(fleeGoodness(Flee{{30, 0, 0}, 0}, s) == doctest::Approx(0.0));  // running into it
        CHECK(fleeGoodness(Flee{{10, 10, 0}, 0}, s) == doctest::Approx(0.25));
        CHECK(fleeGoodness(Flee{{30, 0, 0}, 15.0f}, s) == 1.0f);                 // 20 m away: safe
        CHECK(fleeGoodness(Flee{{30, 0, 0}, 25.0f}, s) == doctest::Approx(0.0)); // 20 m: not yet
    }

    TEST_CASE("pursue and avoid use the target's linear prediction at the segment's end time") {
        // Target at (0, 20) moving +x at 10 m/s; segment [3 s, 4 s]: predicted at (40, 20).
        const Segment s = segment({0, 0, 0}, {10, 0, 0}, {1, 0, 0}, 3.0f);
        const Pursue p{{0, 20, 0}, {10, 0, 0}};
        CHECK(pursueGoodness(p, s) == seekGoodness(Seek{{40, 20, 0}}, s));
        const Avoid a{{0, 20, 0}, {10, 0, 0}, 0};
        CHECK(avoidGoodness(a, s) == fleeGoodness(Flee{{40, 20, 0}, 0}, s));
        // A static target degenerates to Seek / Flee.
        CHECK(pursueGoodness(Pursue{{50, 5, 0}, {0, 0, 0}}, s) == seekGoodness(Seek{{50, 5, 0}}, s));
        // A target that will be behind us is worse to pursue than one that will be ahead.
        CHECK(pursueGoodness(Pursue{{0, 10, 0}, {-5, 0, 0}}, s) <
              pursueGoodness(Pursue{{0, 10, 0}, {20, 0, 0}}, s));
    }

    TEST_CASE("pursue: a tail chase round a shared circle scores below 1/4 (the 3D meet's orbit)") {
        // Two ships at 20 m/s turning at 1 rad/s on one 20 m circle, diametrically opposite. Over one
        // second A moves from (20, 0) to 20 (cos 1, sin 1) and ends facing (-sin 1, cos 1); B is at
        // (-20, 0) flying (0, -20). Linear prediction puts B at (-20, -20) when the segment ends:
        // g = 0.17851 (hand-computed); against B's true position on the circle, 20 (-cos 1, -sin 1),
        // g = 0.13014. Either way far below the approach's ~1: why the meet rows fall with time.
        const float c = std::cos(1.0f), s = std::sin(1.0f);
        const Segment a = segment({20, 0, 0}, {20 * c, 20 * s, 0}, {-s, c, 0});
        CHECK(pursueGoodness(Pursue{{-20, 0, 0}, {0, -20, 0}}, a) == doctest::Approx(0.17851).epsilon(1e-4));
        CHECK(seekGoodness(Seek{{-20 * c, -20 * s, 0}}, a) == doctest::Approx(0.13014).epsilon(1e-4));
        // Head-on before the meet (B 300 m ahead, flying at A): 1.
        const Segment head_on = segment({0, 0, 0}, {20, 0, 0}, {1, 0, 0});
        CHECK(pursueGoodness(Pursue{{300, 0, 0}, {-20, 0, 0}}, head_on) == doctest::Approx(1.0));
    }

    TEST_CASE("composite is the product, every behaviour stays in [0, 1] on random segments") {
        Seek seek{{5, 7, -3}};
        Flee flee{{-20, 4, 1}, 0};
        Pursue pursue{{3, 3, 3}, {1, -2, 0.5f}};
        Avoid avoid{{-3, 8, 0}, {0, 1, 0}, 25.0f};
        const Behaviour parts[2] = {behaviour(&seek), behaviour(&flee)};
        Composite both{parts, 2}, none{nullptr, 0};
        std::mt19937 rng(3);
        for (int i = 0; i < 5000; ++i) {
            const Segment s = randomSegment(rng);
            const float g[5] = {seekGoodness(seek, s), fleeGoodness(flee, s), pursueGoodness(pursue, s),
                                avoidGoodness(avoid, s), compositeGoodness(both, s)};
            for (float v : g) {
                CHECK(v >= 0.0f);
                CHECK(v <= 1.0f);
            }
            CHECK(g[4] == doctest::Approx(g[0] * g[1]));
            CHECK(compositeGoodness(none, s) == 1.0f);
            CHECK(behaviour(&seek).evaluate(&seek, s) == g[0]);
        }
    }

    TEST_CASE("weighted composite: weights are exponents, gains scale before the clamp, all ones is the plain product") {
        Seek seek{{5, 7, -3}};
        Flee flee{{-20, 4, 1}, 0};
        const Behaviour parts[2] = {behaviour(&seek), behaviour(&flee)};
        const BehaviourWeight ones[2] = {behaviourWeightDefaults(), behaviourWeightDefaults()};
        const BehaviourWeight weighted_parts[2] = {{2.0f, 1.5f}, {0.5f, 0.8f}}, off[2] = {{0, 1}, {1, 1}};
        const Composite plain{parts, 2}, unit{parts, 2, ones}, weighted{parts, 2, weighted_parts},
            seek_off{parts, 2, off};
        CHECK(ones[0].weight == 1.0f);
        CHECK(ones[0].gain == 1.0f);
        std::mt19937 rng(11);
        for (int i = 0; i < 2000; ++i) {
            const Segment s = randomSegment(rng);
            const float a = seekGoodness(seek, s), b = fleeGoodness(flee, s);
            CHECK(compositeGoodness(unit, s) == compositeGoodness(plain, s)); // bit for bit
            const double expected = std::pow(std::fmin(1.0, 1.5 * a), 2.0) * std::pow(std::fmin(1.0, 0.8 * b), 0.5);
            CHECK(compositeGoodness(weighted, s) == doctest::Approx(expected).epsilon(1e-5));
            CHECK(compositeGoodness(seek_off, s) == b); // weight 0 leaves seek out
        }
    }

    TEST_CASE("weighted composite: the paper's pursue-and-avoid example, and weights decide a seek/flee trade-off") {
        // Go et al. 2004: s2.Behavior = new Composite(new Pursue(s1), new AvoidCollision()). A
        // colliding segment is 0 whatever the weights; a clear one keeps pursue's goodness.
        std::vector<Sphere> spheres = {{{50, 0, 0}, 5, {0, 0, 0}}};
        Memory m(spheres, defaultSphereHashSettings());
        Pursue pursue{{100, 0, 0}, {0, 0, 0}};
        AvoidCollision avoid{&m.hash, 1.0f, 0.0f};
        const Behaviour parts[2] = {behaviour(&pursue), behaviour(&avoid)};
        const BehaviourWeight weights[2] = {{3.0f, 1.0f}, {0.25f, 1.0f}};
        const Composite paper{parts, 2}, weighted{parts, 2, weights};
        const Segment through = segment({40, 0, 0}, {60, 0, 0}, {1, 0, 0});
        const Segment beside = segment({40, 10, 0}, {60, 10, 0}, {1, 0, 0});
        CHECK(compositeGoodness(paper, through) == 0.0f);
        CHECK(compositeGoodness(weighted, through) == 0.0f);
        CHECK(compositeGoodness(paper, beside) == pursueGoodness(pursue, beside));
        CHECK(compositeGoodness(weighted, beside) ==
              doctest::Approx(std::pow(pursueGoodness(pursue, beside), 3.0)).epsilon(1e-5));

        // A vehicle between a target (+x) and a threat (+y side): moving towards the target passes
        // the threat, moving away from the threat leaves the target behind. Weighting seek or flee
        // picks the segment the designer wants.
        Seek seek{{100, 0, 0}};
        Flee flee{{20, 5, 0}, 60.0f};
        const Behaviour sf[2] = {behaviour(&seek), behaviour(&flee)};
        const Segment toward = segment({0, 0, 0}, {20, 0, 0}, {1, 0, 0});
        const Segment away = segment({0, 0, 0}, {-14, -14, 0}, {-0.7071f, -0.7071f, 0});
        const BehaviourWeight seek_heavy[2] = {{4.0f, 1.0f}, {0.25f, 1.0f}};
        const BehaviourWeight flee_heavy[2] = {{0.25f, 1.0f}, {4.0f, 1.0f}};
        const Composite eager{sf, 2, seek_heavy}, careful{sf, 2, flee_heavy};
        CHECK(compositeGoodness(eager, toward) > compositeGoodness(eager, away));
        CHECK(compositeGoodness(careful, away) > compositeGoodness(careful, toward));
    }

    TEST_CASE("sphere hash: a segment through a sphere hits, one beside it misses, tangency is the edge") {
        std::vector<Sphere> spheres = {{{50, 0, 0}, 5, {0, 0, 0}}};
        Memory m(spheres, defaultSphereHashSettings());
        CHECK(sphereHashHitsSegment(m.hash, {40, 0, 0}, {60, 0, 0}, 0, 1, 0));
        CHECK(!sphereHashHitsSegment(m.hash, {40, 7, 0}, {60, 7, 0}, 0, 1, 1.5f)); // 7 > 5 + 1.5
        CHECK(sphereHashHitsSegment(m.hash, {40, 7, 0}, {60, 7, 0}, 0, 1, 2.5f));  // 7 < 5 + 2.5
        CHECK(!sphereHashHitsSegment(m.hash, {0, 0, 0}, {40, 0, 0}, 0, 1, 4.0f));  // stops 10 m short
        // Starting inside the inflated sphere: backing out is free, going deeper is a hit.
        CHECK(!sphereHashHitsSegment(m.hash, {44, 0, 0}, {30, 0, 0}, 0, 1, 2.0f));
        CHECK(sphereHashHitsSegment(m.hash, {44, 0, 0}, {46, 0, 0}, 0, 1, 2.0f));
        CHECK(sphereHashHitsSegment(m.hash, {0, 0, 0}, {40, 0, 0}, 0, 1, 5.5f));
        AvoidCollision avoid{&m.hash, 1.0f, 0.5f};
        CHECK(avoidCollisionGoodness(avoid, segment({40, 0, 0}, {60, 0, 0}, {1, 0, 0})) == 0.0f);
        CHECK(avoidCollisionGoodness(avoid, segment({40, 7, 0}, {60, 7, 0}, {1, 0, 0})) == 1.0f);
        CHECK(avoidCollisionGoodness(AvoidCollision{nullptr, 1, 0},
                                     segment({0, 0, 0}, {1, 0, 0}, {1, 0, 0})) == 1.0f);
    }

    TEST_CASE("sphere hash: moving spheres are hit only when they are there") {
        // A sphere crossing the x axis at x = 50: it sits at y = -20 at t = 0 and moves +y at 10 m/s,
        // so it is on the axis at t = 2 s.
        std::vector<Sphere> spheres = {{{50, -20, 0}, 3, {0, 10, 0}}};
        Memory m(spheres, defaultSphereHashSettings());
        CHECK(sphereHashHitsSegment(m.hash, {40, 0, 0}, {60, 0, 0}, 1.5f, 2.5f, 0.5f));
        CHECK(!sphereHashHitsSegment(m.hash, {40, 0, 0}, {60, 0, 0}, 0.0f, 1.0f, 0.5f));
        CHECK(!sphereHashHitsSegment(m.hash, {40, 0, 0}, {60, 0, 0}, 4.0f, 5.0f, 0.5f));
    }

    TEST_CASE("sphere hash matches brute force for mixed sizes, moving spheres, 3D and planar") {
        for (bool planar : {false, true}) {
            std::mt19937 rng(planar ? 11 : 12);
            std::uniform_real_distribution<float> pos(-300, 300), vel(-6, 6), unit(0, 1);
            std::vector<Sphere> spheres;
            for (int i = 0; i < (planar ? 400 : 2000); ++i) {
                // Radii from 0.3 m to 60 m, mostly small: several hash levels.
                const float r = 0.3f * std::pow(200.0f, unit(rng) * unit(rng));
                const bool moving = unit(rng) < 0.4f;
                spheres.push_back(
                    {{pos(rng), pos(rng), planar ? 0.0f : pos(rng) / 4},
                     r,
                     {moving ? vel(rng) : 0, moving ? vel(rng) : 0, moving && !planar ? vel(rng) : 0}});
            }
            SphereHashSettings s = defaultSphereHashSettings();
            s.planar = planar;
            s.min_cell = 2.0f;
            s.levels = 10;
            Memory m(spheres, s);
            int hits = 0;
            for (int q = 0; q < 1500; ++q) {
                const Vec3f p0{pos(rng), pos(rng), planar ? 0.0f : pos(rng) / 4};
                const Vec3f p1{p0.x + vel(rng) * 3, p0.y + vel(rng) * 3, planar ? 0.0f : p0.z + vel(rng)};
                const float t0 = unit(rng) * 15, radius = unit(rng) * 3;
                const bool fast = sphereHashHitsSegment(m.hash, p0, p1, t0, t0 + 1, radius);
                const int brute = bruteHit(spheres, p0, p1, t0, t0 + 1, radius);
                if (brute >= 0) CHECK(fast == (brute == 1));
                hits += fast;
            }
            const std::string kind = planar ? "planar" : "3D";
            MESSAGE(kind, ": ", hits, " of 1500 queries hit");
            CHECK(hits > 50);
            CHECK(hits < 1450);
        }
    }

    TEST_CASE("sphere hash rejects bad spheres and settings, and reports short buffers") {
        std::vector<uint64_t> mem(1024);
        SphereHash h;
        const SphereHashSettings s = defaultSphereHashSettings();
        Sphere bad[1] = {{{NAN, 0, 0}, 1, {0, 0, 0}}};
        CHECK(sphereHashMemorySize(bad, 1, s) == 0);
        CHECK(buildSphereHash(bad, 1, s, mem.data(), 8192, &h) == Status::InvalidArgument);
        bad[0] = {{0, 0, 0}, -1, {0, 0, 0}};
        CHECK(buildSphereHash(bad, 1, s, mem.data(), 8192, &h) == Status::InvalidArgument);
        const Sphere good[1] = {{{0, 0, 0}, 1, {0, 0, 0}}};
        SphereHashSettings zero = s;
        zero.min_cell = 0;
        CHECK(buildSphereHash(good, 1, zero, mem.data(), 8192, &h) == Status::InvalidArgument);
        const size_t need = sphereHashMemorySize(good, 1, s);
        CHECK(buildSphereHash(good, 1, s, mem.data(), need - 1, &h) == Status::BufferTooSmall);
        CHECK(buildSphereHash(good, 1, s, mem.data(), need, &h) == Status::Ok);
        // An empty scene: nothing to hit.
        CHECK(buildSphereHash(nullptr, 0, s, mem.data(), 8192, &h) == Status::Ok);
        CHECK(!sphereHashHitsSegment(h, {0, 0, 0}, {10, 0, 0}, 0, 1, 1));
    }
}
