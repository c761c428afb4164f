// Test helper: two findPath answers' segments compared field by field, exactly (== on doubles:
// bit for bit but for signed zeros).
#pragma once

#include <clearway/runtime.h>

#include <vector>

namespace clearway::test {

inline bool sameSegments(const std::vector<PathSegment>& a, const std::vector<PathSegment>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        const PathSegment &s = a[i], &t = b[i];
        if (s.type != t.type || s.portal != t.portal || s.layer != t.layer || s.start.x != t.start.x ||
            s.start.y != t.start.y || s.end.x != t.end.x || s.end.y != t.end.y || s.center.x != t.center.x ||
            s.center.y != t.center.y || s.radius != t.radius || s.sweep != t.sweep || s.length != t.length)
            return false;
    }
    return true;
}

} // namespace clearway::test
