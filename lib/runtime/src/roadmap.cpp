// Roadmap asset loader: verify once in loadRoadmap (schema, indices, numbers, the embedded
// footprint), then accessors read the buffer directly (zero-copy, no allocation).
#include <clearway/runtime.h>

#include <clearway/schema/roadmap_generated.h>

#include "asset_load.h"

#include <cmath>

namespace clearway {

namespace detail {
// footprint.cpp: the footprint's semantic checks, shared so both loaders apply the same rules.
Status checkFootprintSemantics(const schema::Footprint& footprint);
// roadmap_links.cpp: the off-mesh links' checks.
bool checkLinks(const schema::Roadmap& rm);
} // namespace detail

namespace {

namespace fb = ::clearway::schema;

static_assert(sizeof(Vec2f) == sizeof(fb::Vec2) && alignof(Vec2f) == alignof(fb::Vec2),
              "Vec2f must match schema Vec2 for zero-copy polylines");
static_assert(sizeof(RoadmapPointSides) == sizeof(fb::PointSides) &&
                  alignof(RoadmapPointSides) == alignof(fb::PointSides),
              "RoadmapPointSides must match schema PointSides for zero-copy sides");
static_assert(sizeof(RoadmapCorridorPoint) == sizeof(fb::CorridorPoint) &&
                  alignof(RoadmapCorridorPoint) == alignof(fb::CorridorPoint),
              "RoadmapCorridorPoint mirrors the asset's CorridorPoint struct");
static_assert(FLATBUFFERS_LITTLEENDIAN, "zero-copy accessors assume a little-endian host");

using detail::finite;
using detail::localCoordinate;
using detail::rangeWithin;
using detail::sizeOf;

bool checkEdge(const fb::RoadmapEdge& e, uint32_t vertex_count, uint32_t point_count) {
    if (e.a() >= vertex_count || e.b() >= vertex_count) return false;
    if (e.point_count() < 2 || !rangeWithin(e.first_point(), e.point_count(), point_count)) return false;
    if (uint8_t(e.site()) > uint8_t(fb::ClearanceSite::Walls)) return false;
    const float numbers[] = {e.min_clearance(), e.site_x0(),  e.site_y0(),  e.site_x1(),  e.site_y1(),
                             e.left_ax(),       e.left_ay(),  e.right_ax(), e.right_ay(), e.left_bx(),
                             e.left_by(),       e.right_bx(), e.right_by()};
    for (float v : numbers)
        if (!finite(v)) return false;
    return e.min_clearance() >= 0.0f;
}

bool checkBlend(const fb::Blend& b, uint32_t vertex_count, uint32_t edge_count) {
    if (b.vertex() >= vertex_count || b.edge_in() >= edge_count || b.edge_out() >= edge_count) return false;
    const float numbers[] = {b.center_x(), b.center_y(), b.radius(), b.in_x(),
                             b.in_y(),     b.out_x(),    b.out_y(),  b.min_clearance()};
    for (float v : numbers)
        if (!finite(v)) return false;
    return b.radius() >= 0.0f;
}

bool checkGrid(const fb::EdgeGrid& g, uint32_t edge_count) {
    if (!finite(g.min_x()) || !finite(g.min_y()) || !finite(g.cell_size()) || !(g.cell_size() > 0.0f))
        return false;
    if (g.cells_x() == 0 || g.cells_y() == 0) return false;
    const auto* start = g.cell_start();
    const auto* edges = g.cell_edges();
    // 64-bit: cells_x * cells_y must not wrap to a small number.
    if (uint64_t(g.cells_x()) * uint64_t(g.cells_y()) + 1 != uint64_t(sizeOf(start))) return false;
    if (start->Get(0) != 0) return false;
    for (uint32_t i = 1, n = start->size(); i < n; ++i)
        if (start->Get(i) < start->Get(i - 1)) return false;
    if (start->Get(start->size() - 1) != sizeOf(edges)) return false;
    for (uint32_t i = 0, n = sizeOf(edges); i < n; ++i)
        if (edges->Get(i) >= edge_count) return false;
    return true;
}

// Designer areas: edge weights finite and > 0 (one per edge, or none: A* costs must stay positive
// and finite), each area a ring of >= 3 finite vertices on an existing layer with a finite weight > 0.
bool checkAreas(const fb::Roadmap& rm, uint32_t edge_count, uint32_t layer_count) {
    const auto* weights = rm.edge_weights();
    if (sizeOf(weights) != 0 && sizeOf(weights) != edge_count) return false;
    for (uint32_t i = 0, n = sizeOf(weights); i < n; ++i)
        if (!finite(weights->Get(i)) || !(weights->Get(i) > 0.0f)) return false;
    const auto* vertices = rm.area_vertices();
    const uint32_t vertex_count = sizeOf(vertices);
    for (uint32_t i = 0; i < vertex_count; ++i)
        if (!localCoordinate(vertices->Get(i)->x()) || !localCoordinate(vertices->Get(i)->y())) return false;
    const auto* areas = rm.areas();
    for (uint32_t i = 0, n = sizeOf(areas); i < n; ++i) {
        const fb::WeightedArea* a = areas->Get(i);
        if (a->layer() >= layer_count || !finite(a->weight()) || !(a->weight() > 0.0f)) return false;
        if (a->vertex_count() < 3 || !rangeWithin(a->first_vertex(), a->vertex_count(), vertex_count))
            return false;
    }
    return true;
}

// Area types and flags for query filters: one each per area (or none), types < kAreaTypeCount,
// flags non-zero; edge spans: a start per edge plus one, rising from 0 to the span count, each span
// with a type < kAreaTypeCount, non-zero flags and a finite cost >= 0. Spans only with areas.
bool checkAreaKinds(const fb::Roadmap& rm, uint32_t edge_count) {
    const uint32_t area_count = sizeOf(rm.areas());
    const auto* types = rm.area_types();
    const auto* flags = rm.area_flags();
    if ((types && types->size() != area_count) || (flags && flags->size() != area_count)) return false;
    for (uint32_t i = 0, n = sizeOf(types); i < n; ++i)
        if (types->Get(i) >= kAreaTypeCount) return false;
    for (uint32_t i = 0, n = sizeOf(flags); i < n; ++i)
        if (flags->Get(i) == 0) return false;
    const auto* starts = rm.edge_span_starts();
    const auto* spans = rm.edge_spans();
    if (!starts && !spans) return true;
    if (!starts || !spans || area_count == 0 || starts->size() != edge_count + 1 || starts->Get(0) != 0 ||
        starts->Get(edge_count) != spans->size())
        return false;
    for (uint32_t i = 0; i < edge_count; ++i)
        if (starts->Get(i + 1) < starts->Get(i)) return false;
    for (uint32_t i = 0, n = spans->size(); i < n; ++i) {
        const fb::EdgeAreaSpan* span = spans->Get(i);
        if (span->type() >= kAreaTypeCount || span->flags() == 0 || !finite(span->cost()) ||
            !(span->cost() >= 0.0f))
            return false;
    }
    return true;
}

// Corridor kinds and merged chains' corridors: all three fields or none (older assets), with the
// point sides; a kind per edge, a start per edge plus one, and only Chain edges own samples (>= 2).
bool checkCorridors(const fb::Roadmap& rm, uint32_t edge_count) {
    const auto* kinds = rm.edge_corridor();
    const auto* starts = rm.corridor_starts();
    const auto* samples = rm.corridor_points();
    if (!kinds && !starts && !samples) return true;
    if (!kinds || !starts || !samples || !rm.point_sides()) return false;
    if (kinds->size() != edge_count || starts->size() != edge_count + 1 || starts->Get(0) != 0) return false;
    if (starts->Get(edge_count) != samples->size()) return false;
    for (uint32_t i = 0; i < edge_count; ++i) {
        const auto kind = kinds->Get(i);
        if (kind > fb::EdgeCorridor::MAX || starts->Get(i + 1) < starts->Get(i)) return false;
        const uint32_t count = starts->Get(i + 1) - starts->Get(i);
        if (kind == fb::EdgeCorridor::Chain ? count < 2 : count != 0) return false;
    }
    for (const fb::CorridorPoint* c : *samples)
        if (!localCoordinate(c->x()) || !localCoordinate(c->y()) || !localCoordinate(c->left_x()) ||
            !localCoordinate(c->left_y()) || !localCoordinate(c->right_x()) || !localCoordinate(c->right_y()))
            return false;
    return true;
}

Status checkSemantics(const fb::Roadmap& rm) {
    const uint32_t version = rm.format_version();
    if (version == 0) return Status::CorruptAsset;
    if (version > kRoadmapFormatVersion) return Status::UnsupportedVersion;
    if (!rm.baker_version() || !rm.footprint() || !rm.grid()) return Status::CorruptAsset;

    const Status footprint = detail::checkFootprintSemantics(*rm.footprint());
    if (footprint != Status::Ok)
        return footprint == Status::UnsupportedVersion ? footprint : Status::CorruptAsset;
    const uint32_t layer_count = sizeOf(rm.footprint()->layers());

    if (const fb::RoadmapOptions* o = rm.options()) {
        if (!finite(o->min_clearance()) || !finite(o->epsilon())) return Status::CorruptAsset;
    }

    const auto* vertices = rm.vertices();
    const uint32_t vertex_count = sizeOf(vertices);
    for (uint32_t i = 0; i < vertex_count; ++i) {
        const fb::RoadmapVertex* v = vertices->Get(i);
        if (!localCoordinate(v->x()) || !localCoordinate(v->y()) || !localCoordinate(v->z()) ||
            !finite(v->clearance()))
            return Status::CorruptAsset;
        if (v->layer() >= layer_count) return Status::CorruptAsset;
    }

    const auto* points = rm.points();
    const uint32_t point_count = sizeOf(points);
    for (uint32_t i = 0; i < point_count; ++i) {
        const fb::Vec2* p = points->Get(i);
        if (!localCoordinate(p->x()) || !localCoordinate(p->y())) return Status::CorruptAsset;
    }

    // Wall sides: optional (older assets), else one finite entry per point.
    if (const auto* sides = rm.point_sides()) {
        if (sides->size() != point_count) return Status::CorruptAsset;
        for (const fb::PointSides* s : *sides)
            if (!localCoordinate(s->left_x()) || !localCoordinate(s->left_y()) ||
                !localCoordinate(s->right_x()) || !localCoordinate(s->right_y()))
                return Status::CorruptAsset;
    }

    const auto* edges = rm.edges();
    const uint32_t edge_count = sizeOf(edges);
    for (uint32_t i = 0; i < edge_count; ++i)
        if (!checkEdge(*edges->Get(i), vertex_count, point_count)) return Status::CorruptAsset;

    const auto* blends = rm.blends();
    for (uint32_t i = 0, n = sizeOf(blends); i < n; ++i)
        if (!checkBlend(*blends->Get(i), vertex_count, edge_count)) return Status::CorruptAsset;

    if (!checkGrid(*rm.grid(), edge_count)) return Status::CorruptAsset;
    if (!checkAreas(rm, edge_count, layer_count) || !checkAreaKinds(rm, edge_count))
        return Status::CorruptAsset;
    if (!checkCorridors(rm, edge_count)) return Status::CorruptAsset;
    if (!detail::checkLinks(rm)) return Status::CorruptAsset;
    return Status::Ok;
}

const fb::Roadmap* root(const RoadmapView& view) {
    return view.data ? fb::GetRoadmap(view.data) : nullptr;
}

Vec2f vec(float x, float y) {
    return Vec2f{x, y};
}

} // namespace

Status loadRoadmap(const void* data, size_t size, RoadmapView* out) {
    return detail::loadAsset(
        data, size, fb::RoadmapIdentifier(),
        [](flatbuffers::Verifier& v) { return fb::VerifyRoadmapBuffer(v); },
        [](const uint8_t* bytes) { return checkSemantics(*fb::GetRoadmap(bytes)); }, out);
}

Status roadmapInfo(const RoadmapView& view, RoadmapInfo* out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !out) return Status::InvalidArgument;
    RoadmapInfo info{};
    info.format_version = rm->format_version();
    info.vertex_count = sizeOf(rm->vertices());
    info.edge_count = sizeOf(rm->edges());
    info.point_count = sizeOf(rm->points());
    info.blend_count = sizeOf(rm->blends());
    info.layer_count = sizeOf(rm->footprint()->layers());
    info.input_hash = rm->input_hash();
    info.options_hash = rm->options_hash();
    // A missing options table means the schema defaults.
    const fb::RoadmapOptions* o = rm->options();
    info.min_clearance = o ? o->min_clearance() : 0.0;
    info.epsilon = o ? o->epsilon() : 0.01;
    info.merge_chains = o ? o->merge_chains() : true;
    info.grid_cells_x = rm->grid()->cells_x();
    info.grid_cells_y = rm->grid()->cells_y();
    info.grid_cell_size = rm->grid()->cell_size();
    info.baker_version = rm->baker_version()->c_str();
    *out = info;
    return Status::Ok;
}

// A FootprintView's accessors read the root as data + offset-at-data: pointing data at the
// roadmap's own offset field to the footprint table makes that read land on the embedded table.
Status roadmapFootprint(const RoadmapView& view, FootprintView* out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !out) return Status::InvalidArgument;
    // Table lookup by hand (Roadmap hides flatbuffers::Table); the verifier checked the vtable
    // and loadRoadmap that the footprint field is present.
    const auto* table = reinterpret_cast<const uint8_t*>(rm);
    const uint8_t* vtable = table - flatbuffers::ReadScalar<flatbuffers::soffset_t>(table);
    const uint8_t* field =
        table + flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable + fb::Roadmap::VT_FOOTPRINT);
    out->data = field;
    out->size = view.size - size_t(field - view.data);
    return Status::Ok;
}

Status roadmapVertex(const RoadmapView& view, uint32_t index, RoadmapVertexInfo* out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !out || index >= sizeOf(rm->vertices())) return Status::InvalidArgument;
    const fb::RoadmapVertex* v = rm->vertices()->Get(index);
    out->position = Vec3f{v->x(), v->y(), v->z()};
    out->clearance = v->clearance();
    out->layer = v->layer();
    return Status::Ok;
}

Status roadmapEdge(const RoadmapView& view, uint32_t index, RoadmapEdgeInfo* out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !out || index >= sizeOf(rm->edges())) return Status::InvalidArgument;
    const fb::RoadmapEdge* e = rm->edges()->Get(index);
    out->a = e->a();
    out->b = e->b();
    // Range checked at load, so points exists and holds the whole polyline.
    out->points = reinterpret_cast<const Vec2f*>(rm->points()->Get(e->first_point()));
    out->point_count = e->point_count();
    out->min_clearance = e->min_clearance();
    out->site = static_cast<ClearanceSite>(e->site());
    out->portal = e->portal();
    out->site_p0 = vec(e->site_x0(), e->site_y0());
    out->site_p1 = vec(e->site_x1(), e->site_y1());
    out->left_a = vec(e->left_ax(), e->left_ay());
    out->right_a = vec(e->right_ax(), e->right_ay());
    out->left_b = vec(e->left_bx(), e->left_by());
    out->right_b = vec(e->right_bx(), e->right_by());
    return Status::Ok;
}

Status roadmapEdgeSides(const RoadmapView& view, uint32_t index, const RoadmapPointSides** sides,
                        uint32_t* count) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !sides || !count || index >= sizeOf(rm->edges())) return Status::InvalidArgument;
    if (!rm->point_sides()) return Status::NotFound;
    const fb::RoadmapEdge* e = rm->edges()->Get(index);
    // One per point (checked at load), so the edge's range lies inside the list.
    *sides = reinterpret_cast<const RoadmapPointSides*>(rm->point_sides()->Get(e->first_point()));
    *count = e->point_count();
    return Status::Ok;
}

Status roadmapEdgeCorridor(const RoadmapView& view, uint32_t index, EdgeCorridorKind* kind,
                           const RoadmapCorridorPoint** points, uint32_t* count) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !kind || !points || !count || index >= sizeOf(rm->edges())) return Status::InvalidArgument;
    *kind = EdgeCorridorKind::Unchecked, *points = nullptr, *count = 0;
    if (!rm->edge_corridor()) return Status::Ok;
    *kind = static_cast<EdgeCorridorKind>(rm->edge_corridor()->Get(index));
    // Checked at load: the range lies inside the list.
    const uint32_t first = rm->corridor_starts()->Get(index);
    *count = rm->corridor_starts()->Get(index + 1) - first;
    if (*count > 0)
        *points = reinterpret_cast<const RoadmapCorridorPoint*>(rm->corridor_points()->Get(first));
    return Status::Ok;
}

Status roadmapBlend(const RoadmapView& view, uint32_t index, RoadmapBlend* out) {
    const fb::Roadmap* rm = root(view);
    if (!rm || !out || index >= sizeOf(rm->blends())) return Status::InvalidArgument;
    const fb::Blend* b = rm->blends()->Get(index);
    out->vertex = b->vertex();
    out->edge_in = b->edge_in();
    out->edge_out = b->edge_out();
    out->center = vec(b->center_x(), b->center_y());
    out->radius = b->radius();
    out->p_in = vec(b->in_x(), b->in_y());
    out->p_out = vec(b->out_x(), b->out_y());
    out->ccw = b->ccw();
    out->min_clearance = b->min_clearance();
    return Status::Ok;
}

} // namespace clearway
