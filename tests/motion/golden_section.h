// Golden-section search for the minimum of a unimodal function on [lo, hi]: the tests' numeric
// oracles refine a sampled minimum with it.
#pragma once

#include <cmath>

namespace motiontest {

struct Minimum {
    double x, value;
};

// Shrinks [lo, hi] until it is narrower than `tolerance`; returns the better of the last two probes.
template <typename F> Minimum goldenSectionMin(F f, double lo, double hi, double tolerance) {
    const double golden = 0.5 * (std::sqrt(5.0) - 1.0);
    double a = hi - golden * (hi - lo), b = lo + golden * (hi - lo), fa = f(a), fb = f(b);
    while (hi - lo > tolerance) {
        if (fa <= fb) {
            hi = b, b = a, fb = fa, a = hi - golden * (hi - lo), fa = f(a);
        } else {
            lo = a, a = b, fa = fb, b = lo + golden * (hi - lo), fb = f(b);
        }
    }
    return fa <= fb ? Minimum{a, fa} : Minimum{b, fb};
}

} // namespace motiontest
