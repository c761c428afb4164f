// Path evaluation (Pinter 2001 Listing 2): pose at an arc length along a findPath result, and sampling
// at a step. Public accessors only; no allocation.
#include <clearway/runtime.h>

#include <cmath>

namespace clearway {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Surface heights are looked up this far off the surface triangles at most: the footprint's
// boundary is simplified within the import epsilon (0.01 m by default) and snapped to the grid,
// so a path point inside the footprint can sit a little outside the triangles. 5x that epsilon
// plus two grid steps covers both without reaching a neighbouring surface of the same layer.
constexpr double kHeightToleranceBase = 0.05;

bool finite(double v) {
    return std::isfinite(v);
}

bool validSegment(const PathSegment& s) {
    if (!finite(s.start.x) || !finite(s.start.y) || !finite(s.end.x) || !finite(s.end.y)) return false;
    if (!finite(s.length) || s.length < 0.0) return false;
    if (s.type == PathSegmentType::Arc)
        return finite(s.center.x) && finite(s.center.y) && finite(s.radius) && s.radius > 0.0 &&
               finite(s.sweep);
    return s.type == PathSegmentType::Line || s.type == PathSegmentType::Link;
}

bool validPath(const PathSegment* segments, uint32_t count) {
    if (!segments || count == 0) return false;
    for (uint32_t i = 0; i < count; ++i)
        if (!validSegment(segments[i])) return false;
    return true;
}

double wrapAngle(double a) {
    a = std::remainder(a, 2.0 * kPi);
    return a <= -kPi ? a + 2.0 * kPi : a;
}

// The footprint heights come from, resolved once per call (not per pose).
struct Surface {
    FootprintView view;
    float tolerance = 0.0f;
    bool usable = false;

    RoadmapView roadmap;

    explicit Surface(const RoadmapView& view_in) : roadmap(view_in) {
        FootprintInfo info;
        if (roadmapFootprint(view_in, &view) != Status::Ok || footprintInfo(view, &info) != Status::Ok)
            return;
        const double spacing = finite(info.grid_spacing) && info.grid_spacing > 0.0 ? info.grid_spacing : 0.0;
        tolerance = float(kHeightToleranceBase + 2.0 * spacing);
        usable = true;
    }

    // 0 where the layer has no surface within the tolerance (the ground-plane pose stays exact).
    double height(uint32_t layer, double x, double y) const {
        float z = 0.0f;
        if (usable && footprintHeightAt(view, layer, float(x), float(y), tolerance, &z) == Status::Ok)
            return z;
        return 0.0;
    }

    // Along a Link segment: from its start's height to its end's (the link's two vertices, in the
    // direction the segment crosses it); 0 when the link is not this asset's.
    double linkHeight(const PathSegment& seg, double f) const {
        RoadmapLinkInfo link;
        if (roadmapLink(roadmap, seg.link, &link) != Status::Ok) return 0.0;
        const bool forward =
            seg.start.x == link.start.x && seg.start.y == link.start.y && seg.layer == link.layer_a;
        const double z0 = forward ? link.start.z : link.end.z, z1 = forward ? link.end.z : link.start.z;
        return z0 + (z1 - z0) * f;
    }
};

// Pose at `t` metres into segment i (0 <= t <= length), whose start is at path arc length `base`.
void poseOnSegment(const Surface& surface, const PathSegment* segments, uint32_t count, uint32_t i, double t,
                   double base, PathPose* out) {
    const PathSegment& seg = segments[i];
    const double f = seg.length > 0.0 ? t / seg.length : 0.0;
    double x, y;
    if (seg.type == PathSegmentType::Arc) {
        const double a0 = std::atan2(seg.start.y - seg.center.y, seg.start.x - seg.center.x);
        const double theta = a0 + seg.sweep * f;
        // The segment's own end point at f = 1, so consecutive poses meet exactly at joins.
        if (f >= 1.0) {
            x = seg.end.x;
            y = seg.end.y;
        } else {
            x = seg.center.x + seg.radius * std::cos(theta);
            y = seg.center.y + seg.radius * std::sin(theta);
        }
        // The tangent is the radius turned a quarter in the sweep's sense.
        const double side = seg.sweep >= 0.0 ? 1.0 : -1.0;
        out->heading = wrapAngle(theta + side * 0.5 * kPi);
        out->curvature = seg.sweep == 0.0 ? 0.0 : side / seg.radius;
    } else {
        x = seg.start.x + (seg.end.x - seg.start.x) * f;
        y = seg.start.y + (seg.end.y - seg.start.y) * f;
        out->heading = std::atan2(seg.end.y - seg.start.y, seg.end.x - seg.start.x);
        out->curvature = 0.0;
    }
    double z;
    if (seg.type == PathSegmentType::Link) {
        z = surface.linkHeight(seg, f);
    } else if (seg.portal) {
        // A portal runs from this layer onto the next segment's: blend the two surfaces along it.
        const uint32_t to_layer = i + 1 < count ? segments[i + 1].layer : seg.layer;
        const double z0 = surface.height(seg.layer, seg.start.x, seg.start.y);
        const double z1 = surface.height(to_layer, seg.end.x, seg.end.y);
        z = z0 + (z1 - z0) * f;
    } else {
        z = surface.height(seg.layer, x, y);
    }
    out->position = Vec3d{x, y, z};
    out->s = base + t;
    out->layer = seg.layer;
    out->segment = i;
}

// Walks segments from (*index, *base) to the one holding s: base <= s < base + length, or the last
// segment for the path end. Monotone s lets pathSample walk once overall.
void locate(const PathSegment* segments, uint32_t count, double s, uint32_t* index, double* base) {
    uint32_t i = *index;
    double b = *base;
    while (i + 1 < count && s >= b + segments[i].length) {
        b += segments[i].length;
        ++i;
    }
    *index = i;
    *base = b;
}

} // namespace

double pathTotalLength(const PathSegment* segments, uint32_t count) {
    if (!segments) return 0.0;
    double total = 0.0;
    for (uint32_t i = 0; i < count; ++i)
        total += segments[i].length;
    return total;
}

Status pathPoseAt(const RoadmapView& view, const PathSegment* segments, uint32_t count, double s,
                  PathPose* out) {
    if (!out || !finite(s) || !validPath(segments, count)) return Status::InvalidArgument;
    const double total = pathTotalLength(segments, count);
    s = s < 0.0 ? 0.0 : (s > total ? total : s);
    uint32_t i = 0;
    double base = 0.0;
    locate(segments, count, s, &i, &base);
    double t = s - base;
    t = t < 0.0 ? 0.0 : (t > segments[i].length ? segments[i].length : t);
    poseOnSegment(Surface(view), segments, count, i, t, base, out);
    out->s = s;
    return Status::Ok;
}

Status pathSample(const RoadmapView& view, const PathSegment* segments, uint32_t count, double step,
                  PathPose* out, uint32_t* out_count, uint32_t max_out) {
    if (!out_count || (max_out > 0 && !out)) return Status::InvalidArgument;
    if (!finite(step) || !(step > 0.0) || !validPath(segments, count)) return Status::InvalidArgument;
    const double total = pathTotalLength(segments, count);
    // Interior samples k * step < total; one closer than a nanometre to the end would duplicate it.
    const double steps = std::ceil((total - 1e-9) / step);
    if (!(steps < 4294967294.0)) return Status::InvalidArgument; // step too small for a 32-bit count
    const uint32_t interior = steps > 0.0 ? uint32_t(steps) : 0;
    const uint32_t needed = interior + 1;
    *out_count = needed;

    const Surface surface(view);
    uint32_t i = 0;
    double base = 0.0;
    const uint32_t n = needed < max_out ? needed : max_out;
    for (uint32_t k = 0; k < n; ++k) {
        // k * step (not an accumulated sum) so every sample is independent of rounding history.
        const double s = k + 1 == needed ? total : k * step;
        locate(segments, count, s, &i, &base);
        double t = s - base;
        t = t < 0.0 ? 0.0 : (t > segments[i].length ? segments[i].length : t);
        poseOnSegment(surface, segments, count, i, t, base, &out[k]);
        out[k].s = s;
    }
    return needed > max_out ? Status::BufferTooSmall : Status::Ok;
}

} // namespace clearway
