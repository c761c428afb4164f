// Float quaternion helpers shared by applyTrim (trims.cpp) and the search's node expansion
// (trims_search.cpp): both must compose trims identically. Internal to lib/motion.
#pragma once

#include <clearway/motion.h>

namespace clearway::trims::detail {

inline Quatf quatMul(const Quatf& a, const Quatf& b) {
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

// v + 2w (q x v) + 2 q x (q x v): rotates v by the unit quaternion q.
inline Vec3f quatRotate(const Quatf& q, const Vec3f& v) {
    const float tx = 2.0f * (q.y * v.z - q.z * v.y);
    const float ty = 2.0f * (q.z * v.x - q.x * v.z);
    const float tz = 2.0f * (q.x * v.y - q.y * v.x);
    return {v.x + q.w * tx + (q.y * tz - q.z * ty), v.y + q.w * ty + (q.z * tx - q.x * tz),
            v.z + q.w * tz + (q.x * ty - q.y * tx)};
}

} // namespace clearway::trims::detail
