// clearway motion: vehicles and cameras on top of the runtime's queries.
//
// Same rules as clearway/runtime.h: C++17, no exceptions, no RTTI, POD structs, no heap
// allocation inside queries (callers own every buffer), status codes from clearway::Status.
#pragma once

#include <clearway/runtime.h>

#include <cstddef>
#include <cstdint>

namespace clearway {

// ===== curves: turning radius, arc-then-line, Dubins, piecewise paths (seed 004) =====
// ===== end curves =====

// ===== follower: Bezier target speed, PI speed control, pure pursuit, stuck manager (seed 003) =====
// ===== end follower =====

// ===== trims: trim-trajectory tables and online trim search with steering behaviours (seed 001) =====
// ===== end trims =====

} // namespace clearway
