// Off-mesh links of a roadmap asset (Detour's off-mesh connections): the loader's checks of the
// link records and their zero-copy accessors.
#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include "asset_load.h"

#include <cmath>

namespace clearway {

namespace fb = ::clearway::schema;

namespace detail {

// Every link joins two distinct existing vertices, with a finite cost >= 0, a max radius > 0 (not
// NaN; +infinity allowed), flags != 0, an area type < kAreaTypeCount and a known kind.
bool checkLinks(const fb::Roadmap& rm) {
    const auto* links = rm.links();
    const uint32_t vertex_count = sizeOf(rm.vertices());
    for (uint32_t i = 0, n = sizeOf(links); i < n; ++i) {
        const fb::RoadmapLink& l = *links->Get(i);
        if (l.a() >= vertex_count || l.b() >= vertex_count || l.a() == l.b()) return false;
        if (!finite(l.cost()) || !(l.cost() >= 0.0f) || !(l.max_radius() > 0.0f)) return false;
        if (l.flags() == 0 || l.type() >= kAreaTypeCount || uint8_t(l.kind()) > uint8_t(fb::LinkKind::MAX))
            return false;
    }
    return true;
}

} // namespace detail

uint32_t roadmapLinkCount(const RoadmapView& view) {
    return view.data ? detail::sizeOf(fb::GetRoadmap(view.data)->links()) : 0;
}

Status roadmapLink(const RoadmapView& view, uint32_t index, RoadmapLinkInfo* out) {
    if (!view.data || !out || index >= roadmapLinkCount(view)) return Status::InvalidArgument;
    const fb::Roadmap& rm = *fb::GetRoadmap(view.data);
    const fb::RoadmapLink& l = *rm.links()->Get(index);
    const fb::RoadmapVertex& a = *rm.vertices()->Get(l.a());
    const fb::RoadmapVertex& b = *rm.vertices()->Get(l.b());
    RoadmapLinkInfo info{};
    info.a = l.a();
    info.b = l.b();
    info.start = Vec3f{a.x(), a.y(), a.z()};
    info.end = Vec3f{b.x(), b.y(), b.z()};
    info.layer_a = a.layer();
    info.layer_b = b.layer();
    info.cost = l.cost();
    info.max_radius = l.max_radius();
    info.flags = l.flags();
    info.area_type = l.type();
    info.kind = LinkKind(l.kind());
    info.bidirectional = l.bidirectional();
    const double dx = double(b.x()) - a.x(), dy = double(b.y()) - a.y(), dz = double(b.z()) - a.z();
    info.length = std::sqrt(dx * dx + dy * dy + dz * dz);
    *out = info;
    return Status::Ok;
}

} // namespace clearway
