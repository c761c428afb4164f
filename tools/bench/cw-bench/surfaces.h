// The walkable surface of a baked level, for drawing query endpoints: area-weighted random points
// on every layer, and the layer a 3D point stands on.
#pragma once

#include <clearway/bake.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace clearway::bench {

// Uniform [0, 1) from 53 bits of mt19937_64, whose sequence the standard fixes (unlike
// std::uniform_real_distribution's): the same seed draws the same pairs everywhere.
struct Rng {
    std::mt19937_64 engine;
    double uniform() { return double(engine() >> 11) * 0x1.0p-53; }
};

// The walkable surface of every layer (local frame): area-weighted random points, and the layer a
// 3D point stands on (the surface triangle under it whose height is closest).
class Surfaces {
  public:
    explicit Surfaces(const bake::Footprint& fp);
    bool empty() const { return tris_.empty(); }
    void sample(Rng& rng, bake::Vec3* p, uint32_t* layer) const;
    bool locate(bake::Vec3 p, uint32_t* layer) const;

  private:
    struct Tri {
        bake::Vec3 a, b, c;
        uint32_t layer;
    };
    int cellX(double x) const { return std::clamp(int((x - x0_) / cell_), 0, nx_ - 1); }
    int cellY(double y) const { return std::clamp(int((y - y0_) / cell_), 0, ny_ - 1); }
    std::vector<Tri> tris_;
    std::vector<double> cumulative_;
    double x0_ = 0, y0_ = 0, cell_ = 1;
    int nx_ = 1, ny_ = 1;
    std::vector<std::vector<uint32_t>> cells_;
};

} // namespace clearway::bench
