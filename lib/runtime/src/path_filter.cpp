// Query filters (Detour's dtQueryFilter): the checked filter, edges' area flags and types under it,
// the designer areas it avoids, and findPath with a filter.
#include "path_internal.h"

#include <cmath>

namespace clearway {

namespace detail {

namespace {

// Edge `edge`'s spans in the asset: *first .. *end; an empty range (or an asset without spans) is
// one span of type 0 with the walk flag.
void spanRange(const fb::Roadmap& rm, uint32_t edge, uint32_t* first, uint32_t* end) {
    const auto* starts = rm.edge_span_starts();
    *first = *end = 0;
    if (starts) *first = starts->Get(edge), *end = starts->Get(edge + 1);
}

} // namespace

const ActiveFilter* prepareFilter(const QueryFilter& filter, ActiveFilter* out) {
    out->include = filter.include_flags;
    out->exclude = filter.exclude_flags;
    out->plain_costs = true;
    out->heuristic_scale = 1.0;
    for (uint32_t t = 0; t < kAreaTypeCount; ++t) {
        out->cost[t] = double(filter.area_cost[t]);
        out->plain_costs = out->plain_costs && out->cost[t] == 1.0;
        out->heuristic_scale = minOf(out->heuristic_scale, out->cost[t]);
    }
    return out->plain_costs && out->include == 0xffffu && out->exclude == 0 ? nullptr : out;
}

bool edgePasses(const fb::Roadmap& rm, const ActiveFilter& f, uint32_t edge) {
    uint32_t k, end;
    spanRange(rm, edge, &k, &end);
    if (k == end) return flagsPass(f, kAreaFlagWalk);
    for (; k < end; ++k)
        if (!flagsPass(f, rm.edge_spans()->Get(k)->flags())) return false;
    return true;
}

double edgeCostFactor(const fb::Roadmap& rm, const ActiveFilter& f, uint32_t edge) {
    uint32_t k, end;
    spanRange(rm, edge, &k, &end);
    if (k == end) return f.cost[0];
    double baked = 0.0, filtered = 0.0;
    for (; k < end; ++k) {
        const fb::EdgeAreaSpan* span = rm.edge_spans()->Get(k);
        baked += double(span->cost());
        filtered += double(span->cost()) * f.cost[span->type()];
    }
    // A zero-length edge (a portal, say) costs nothing either way.
    return baked > 0.0 ? filtered / baked : f.cost[rm.edge_spans()->Get(end - 1)->type()];
}

void edgeAreaKind(const fb::Roadmap& rm, uint32_t edge, uint16_t* flags, uint8_t* type, uint8_t* mixed) {
    uint32_t k, end;
    spanRange(rm, edge, &k, &end);
    *flags = kAreaFlagWalk, *type = 0, *mixed = end - k > 1;
    if (end - k == 1) *flags = rm.edge_spans()->Get(k)->flags(), *type = rm.edge_spans()->Get(k)->type();
}

void prepareAreas(const fb::Roadmap& rm, PathScratch* s, const ActiveFilter* filter) {
    const auto* types = rm.area_types();
    const auto* flags = rm.area_flags();
    for (uint32_t i = 0; i < s->area_count; ++i) {
        const float weight = rm.areas()->Get(i)->weight();
        bool avoided = weight > 1.0f;
        if (filter) {
            const uint32_t type = types ? types->Get(i) : 0;
            avoided = double(weight) * filter->cost[type] > 1.0 ||
                      !flagsPass(*filter, flags ? flags->Get(i) : kAreaFlagWalk);
        }
        s->area_used[i] = avoided ? kAreaAvoided : 0;
    }
}

bool closedAreasAllow(const fb::Roadmap& rm, const ActiveFilter& filter, uint32_t layer, P end, P onto) {
    const auto* flags = rm.area_flags();
    for (uint32_t i = 0, n = sizeOf(rm.areas()); i < n; ++i) {
        const fb::WeightedArea& area = *rm.areas()->Get(i);
        if (area.layer() != layer || flagsPass(filter, flags ? flags->Get(i) : kAreaFlagWalk)) continue;
        if (touchesArea(rm, area, end, onto) && !touchesArea(rm, area, end, end)) return false;
    }
    return true;
}

} // namespace detail

QueryFilter defaultQueryFilter() {
    QueryFilter filter{};
    filter.include_flags = 0xffffu;
    filter.exclude_flags = 0;
    for (float& cost : filter.area_cost)
        cost = 1.0f;
    return filter;
}

Status checkQueryFilter(const QueryFilter& filter) {
    for (const float cost : filter.area_cost)
        if (!std::isfinite(cost) || !(cost > 0.0f)) return Status::InvalidArgument;
    return Status::Ok;
}

Status findPathFiltered(const RoadmapView& view, PathScratch* scratch, PathEndpoint start, PathEndpoint goal,
                        double radius, double preferred_clearance, const QueryFilter& filter,
                        PathSegment* out, uint32_t* out_count, uint32_t max_segments) {
    if (checkQueryFilter(filter) != Status::Ok) return Status::InvalidArgument;
    detail::ActiveFilter active;
    return detail::findPathWith(view, scratch, start, goal, radius, preferred_clearance, out, out_count,
                                max_segments, detail::prepareFilter(filter, &active));
}

} // namespace clearway
