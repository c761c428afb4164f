// cw-inspect's summary and verification: the asset's kind from its file identifier, then that
// kind's runtime loader (what a game trusts); the schema is only read for the few fields the
// runtime API does not expose (import options, source name) after the loader has verified them.
#include "inspect_internal.h"

#include <clearway/schema/roadmap_generated.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace clearway::bake {

namespace fb = clearway::schema;
using inspect::num;
using preview::fixedDecimals;
using preview::jsonString;

namespace {

std::string hex64(uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(v));
    return text;
}

AssetKind kindOfIdentifier(const char id[4], bool* known) {
    *known = true;
    if (std::memcmp(id, "CWFP", 4) == 0) return AssetKind::Footprint;
    if (std::memcmp(id, "CWRM", 4) == 0) return AssetKind::Roadmap;
    if (std::memcmp(id, "CWTT", 4) == 0) return AssetKind::Trims;
    *known = false;
    return AssetKind::Footprint;
}

std::string printableIdentifier(const uint8_t* id) {
    std::string out;
    for (int i = 0; i < 4; ++i) {
        if (id[i] >= 0x20 && id[i] < 0x7f)
            out += char(id[i]);
        else {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\x%02x", id[i]);
            out += esc;
        }
    }
    return out;
}

// Footprint part of the summary (a roadmap's embedded footprint too).
void summariseFootprint(const FootprintView& view, const fb::Footprint* table, InspectSummary* s) {
    FootprintInfo info{};
    footprintInfo(view, &info);
    s->format_version = info.format_version;
    s->baker_version = info.baker_version;
    s->input_hash = info.input_hash;
    s->options_hash = info.options_hash;
    s->origin = {info.origin.x, info.origin.y, info.origin.z};
    s->grid_spacing = info.grid_spacing;
    s->connections = info.connection_count;
    s->import_options.up = info.up_axis == 1 ? UpAxis::Z : UpAxis::Y;
    s->import_options.scale = info.scale;
    if (table && table->options()) {
        const fb::ImportOptions* o = table->options();
        s->import_options.agent_height = o->agent_height();
        s->import_options.max_slope_deg = o->max_slope_deg();
        s->import_options.max_step = o->max_step();
        s->import_options.epsilon = o->epsilon();
    }
    if (table && table->source_name()) s->source_name = table->source_name()->str();
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    s->layers.assign(info.layer_count, InspectLayer{});
    for (uint32_t l = 0; l < info.layer_count; ++l) {
        FootprintLayerInfo layer{};
        footprintLayer(view, l, &layer);
        InspectLayer& out = s->layers[l];
        out.polygons = layer.polygon_count;
        out.holes = layer.ring_count - layer.polygon_count;
        out.walls = layer.boundary_vertex_count; // closed rings: one segment per vertex
        out.area = layer.area;
        out.height_min = layer.height_min;
        out.height_max = layer.height_max;
        s->walls += out.walls;
        for (uint32_t r = 0; r < layer.ring_count; ++r) {
            const Vec2f* ring = nullptr;
            uint32_t n = 0;
            footprintRing(view, l, r, &ring, &n);
            for (uint32_t i = 0; i < n; ++i) {
                lo[0] = std::min(lo[0], double(ring[i].x)), hi[0] = std::max(hi[0], double(ring[i].x));
                lo[1] = std::min(lo[1], double(ring[i].y)), hi[1] = std::max(hi[1], double(ring[i].y));
            }
        }
        if (layer.surface_vertex_count)
            lo[2] = std::min(lo[2], double(layer.height_min)),
            hi[2] = std::max(hi[2], double(layer.height_max));
    }
    for (int k = 0; k < 3; ++k)
        if (!(lo[k] <= hi[k])) lo[k] = hi[k] = 0;
    s->local_min = {lo[0], lo[1], lo[2]};
    s->local_max = {hi[0], hi[1], hi[2]};
    // World box: the corners through the asset's own transform (origin shift, up axis, scale).
    double wlo[3] = {INFINITY, INFINITY, INFINITY}, whi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int c = 0; c < 8; ++c) {
        const Vec3d local{c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]};
        const Vec3d w = footprintLocalToWorld(info, local);
        const double v[3] = {w.x, w.y, w.z};
        for (int k = 0; k < 3; ++k)
            wlo[k] = std::min(wlo[k], v[k]), whi[k] = std::max(whi[k], v[k]);
    }
    s->world_min = {wlo[0], wlo[1], wlo[2]};
    s->world_max = {whi[0], whi[1], whi[2]};
}

void summariseRoadmap(const RoadmapView& view, InspectSummary* s) {
    RoadmapInfo info{};
    roadmapInfo(view, &info);
    s->roadmap_options.min_clearance = info.min_clearance;
    s->roadmap_options.epsilon = info.epsilon;
    s->roadmap_options.merge_chains = info.merge_chains;
    s->input_hash = info.input_hash; // the roadmap's own stamp, not its embedded footprint's
    s->options_hash = info.options_hash;
    s->format_version = info.format_version;
    s->baker_version = info.baker_version;
    s->vertices = info.vertex_count;
    s->edges = info.edge_count;
    s->points = info.point_count;
    s->blends = info.blend_count;
    for (uint32_t v = 0; v < info.vertex_count; ++v) {
        RoadmapVertexInfo vertex{};
        roadmapVertex(view, v, &vertex);
        if (vertex.layer < s->layers.size()) ++s->layers[vertex.layer].vertices;
    }
    bool any = false;
    std::vector<bool> layer_any(s->layers.size(), false);
    for (uint32_t e = 0; e < info.edge_count; ++e) {
        RoadmapEdgeInfo edge{};
        roadmapEdge(view, e, &edge);
        if (edge.portal) {
            ++s->portal_edges;
            continue;
        }
        RoadmapVertexInfo a{};
        roadmapVertex(view, edge.a, &a);
        const double c = edge.min_clearance;
        s->clearance_min = any ? std::min(s->clearance_min, c) : c;
        s->clearance_max = any ? std::max(s->clearance_max, c) : c;
        any = true;
        if (a.layer < s->layers.size()) {
            InspectLayer& l = s->layers[a.layer];
            ++l.edges;
            l.clearance_min = layer_any[a.layer] ? std::min(l.clearance_min, c) : c;
            l.clearance_max = layer_any[a.layer] ? std::max(l.clearance_max, c) : c;
            layer_any[a.layer] = true;
        }
    }
    for (uint32_t b = 0; b < info.blend_count; ++b) {
        RoadmapBlend blend{};
        roadmapBlend(view, b, &blend);
        s->arcs += blend.radius > 0;
    }
}

void summariseTrims(const trims::TableView& view, InspectSummary* s) {
    trims::TableInfo info{};
    trims::tableInfo(view, &info);
    s->format_version = info.format_version;
    s->baker_version = info.baker_version;
    s->input_hash = info.input_hash;
    s->options_hash = info.options_hash;
    s->source_name = info.source_name;
    InspectTrims& t = s->trims;
    t.vehicle = info.name;
    t.dimension = view.model.dimension;
    t.controls = view.control_count;
    t.trims = view.trim_count;
    t.steps = view.model.steps;
    for (int k = 0; k < 3; ++k)
        t.samples[k] = view.model.samples[k], t.max_rate[k] = view.model.max_rate[k];
    t.interval = view.model.interval;
    t.speed = view.model.speed;
    t.symmetric = view.symmetric;
    t.max_chord_deviation = view.max_chord_deviation;
    for (uint32_t i = 0; i < view.trim_count; ++i) {
        const Vec3f p = view.trims[i].position;
        const double d = std::sqrt(double(p.x) * p.x + double(p.y) * p.y + double(p.z) * p.z);
        t.reach_min = i ? std::min(t.reach_min, d) : d;
        t.reach_max = i ? std::max(t.reach_max, d) : d;
    }
}

void summariseUsable(const FootprintView& fp, const PreviewOptions& options, InspectSummary* s,
                     inspect::UsableMap* map) {
    std::string source = "asked for (--radius)";
    const double radius = options.radius >= 0 ? options.radius : inspect::defaultPreviewRadius(*s, &source);
    s->usable = inspect::usableArea(fp, radius, options.cell, map);
    s->usable.radius_source = source;
}

// "  usable at radius R m (why), raster C m: A m2, reachable B m2, N unreachable islands (I m2)" and
// a line per island (the first ten).
std::string usableText(const UsableArea& u) {
    double islands = 0;
    for (const UsablePart& i : u.islands)
        islands += i.area;
    std::string t = "  usable at radius " + num(u.radius) + " m (" + u.radius_source + "), raster " +
                    num(u.cell) + " m: " + fixedDecimals(u.area, 2) + " m2, reachable " +
                    fixedDecimals(u.reachable.area, 2) + " m2, " + inspect::unreachableIslands(u.islands.size()) + " (" + fixedDecimals(islands, 2) + " m2)\n";
    auto part = [](const char* what, const UsablePart& i) {
        return std::string("    ") + what + " on layer " + std::to_string(i.layer) + ": " +
               fixedDecimals(i.area, 2) + " m2 at local " + fixedDecimals(i.point.x, 2) + ", " +
               fixedDecimals(i.point.y, 2) + ", " + fixedDecimals(i.point.z, 2) + " (world " +
               fixedDecimals(i.world.x, 2) + ", " + fixedDecimals(i.world.y, 2) + ", " +
               fixedDecimals(i.world.z, 2) + ")\n";
    };
    if (u.islands.empty()) return t;
    t += part("reachable", u.reachable);
    for (size_t k = 0; k < u.islands.size() && k < 10; ++k)
        t += part("island", u.islands[k]);
    if (u.islands.size() > 10)
        t += "    ... " + std::to_string(u.islands.size() - 10) + " more (--json lists all)\n";
    return t;
}

std::string usableJson(const UsableArea& u) {
    auto vec = [](const Vec3& v) { return preview::jsonTriple(v.x, v.y, v.z); };
    auto part = [&](const UsablePart& i) {
        return "{\"layer\": " + std::to_string(i.layer) + ", \"area\": " + num(i.area) +
               ", \"point\": " + vec(i.point) + ", \"world\": " + vec(i.world) + "}";
    };
    std::string j = "{\"radius\": " + num(u.radius) + ", \"radius_source\": " + jsonString(u.radius_source) +
                    ", \"cell\": " + num(u.cell) + ", \"area\": " + num(u.area) + ", \"layers\": [";
    for (size_t l = 0; l < u.layer_area.size(); ++l)
        j += (l ? ", " : "") + num(u.layer_area[l]);
    j += "], \"reachable\": " + part(u.reachable) + ", \"islands\": [";
    for (size_t k = 0; k < u.islands.size(); ++k)
        j += (k ? ", " : "") + part(u.islands[k]);
    return j + "]}";
}

} // namespace

const char* assetKindName(AssetKind kind) {
    switch (kind) {
    case AssetKind::Footprint:
        return "footprint";
    case AssetKind::Roadmap:
        return "roadmap";
    case AssetKind::Trims:
        return "trims";
    }
    return "unknown";
}

Error inspectAssetBytes(const void* data, size_t size, const std::string& name, InspectSummary* out,
                        const PreviewOptions& options) {
    inspect::UsableMap map;
    return inspect::inspectBytes(data, size, name, options, out, &map);
}

Error inspect::inspectBytes(const void* data, size_t size, const std::string& name,
                            const PreviewOptions& options, InspectSummary* out, UsableMap* map) {
    if (std::isnan(options.radius) || std::isinf(options.radius))
        return {ErrorCode::InvalidOption, "--radius: the agent radius must be a finite number of metres"};
    if (!std::isfinite(options.cell) || options.cell < 0)
        return {ErrorCode::InvalidOption, "the usable-area raster cell must be a finite size >= 0 (metres)"};
    InspectSummary s;
    s.file = name;
    s.bytes = size;
    if (!data || size < 8)
        return {ErrorCode::ReadFailed, name + ": not a clearway asset (" + std::to_string(size) +
                                           " bytes, too short for a FlatBuffers header)"};
    const auto* bytes = static_cast<const uint8_t*>(data);
    bool known = false;
    s.kind = kindOfIdentifier(reinterpret_cast<const char*>(bytes + 4), &known);
    if (!known)
        return {ErrorCode::ReadFailed, name + ": not a clearway asset (file identifier '" +
                                           printableIdentifier(bytes + 4) +
                                           "', expected CWFP, CWRM or CWTT)"};
    const std::string what = std::string(assetKindName(s.kind)) + " asset";
    auto failed = [&](Status st) {
        return Error{ErrorCode::ReadFailed, name + ": " + what + " does not verify: " + statusString(st)};
    };
    if (s.kind == AssetKind::Footprint) {
        FootprintView view;
        if (const Status st = loadFootprint(data, size, &view); st != Status::Ok) return failed(st);
        summariseFootprint(view, fb::GetFootprint(data), &s);
        summariseUsable(view, options, &s, map);
    } else if (s.kind == AssetKind::Roadmap) {
        RoadmapView view;
        if (const Status st = loadRoadmap(data, size, &view); st != Status::Ok) return failed(st);
        FootprintView fp;
        roadmapFootprint(view, &fp);
        summariseFootprint(fp, fb::GetRoadmap(data)->footprint(), &s);
        summariseRoadmap(view, &s);
        summariseUsable(fp, options, &s, map);
    } else {
        trims::TableView view;
        if (const Status st = trims::loadTable(data, size, &view); st != Status::Ok) return failed(st);
        summariseTrims(view, &s);
    }
    *out = std::move(s);
    return {};
}

std::string inspectVerifyText(const InspectSummary& s) {
    return s.file + ": " + assetKindName(s.kind) + " asset, " + std::to_string(s.bytes) +
           " bytes, verified (" + s.status + ")\n";
}

std::string inspectVerifyJson(const InspectSummary& s) {
    return "{\"file\": " + jsonString(s.file) + ", \"kind\": \"" + assetKindName(s.kind) +
           "\", \"bytes\": " + std::to_string(s.bytes) + ", \"status\": " + jsonString(s.status) + "}";
}

std::string inspectText(const InspectSummary& s) {
    std::string t = inspectVerifyText(s);
    t += "  format " + std::to_string(s.format_version) + ", baked by clearway " + s.baker_version +
         ", input hash " + hex64(s.input_hash) + ", options hash " + hex64(s.options_hash) + "\n";
    if (!s.source_name.empty()) t += "  source " + s.source_name + "\n";
    if (s.kind == AssetKind::Trims) {
        const InspectTrims& r = s.trims;
        t += "  vehicle " + (r.vehicle.empty() ? std::string("(unnamed)") : r.vehicle) + ", " +
             std::to_string(r.dimension) + "D, " + std::to_string(r.controls) + " controls, " +
             std::to_string(r.trims) + " trims stored" + (r.symmetric ? " (symmetric: half, mirrored)" : "") +
             "\n";
        t += "  rates yaw " + std::to_string(r.samples[0]) + " x +-" + num(r.max_rate[0]) + " rad/s, pitch " +
             std::to_string(r.samples[1]) + " x +-" + num(r.max_rate[1]) + ", roll " +
             std::to_string(r.samples[2]) + " x +-" + num(r.max_rate[2]) + "\n";
        t += "  " + num(r.speed) + " m/s, interval " + num(r.interval) + " s in " + std::to_string(r.steps) +
             " steps; one trim reaches " + fixedDecimals(r.reach_min, 3) + " .. " + fixedDecimals(r.reach_max, 3) +
             " m, max chord deviation " + fixedDecimals(r.max_chord_deviation, 4) + " m\n";
        return t;
    }
    const ImportOptions& o = s.import_options;
    t += std::string("  import: up ") + (o.up == UpAxis::Y ? "y" : "z") + ", scale " + num(o.scale) +
         ", agent height " + num(o.agent_height) + " m, max slope " + num(o.max_slope_deg) +
         " deg, max step " + num(o.max_step) + " m, epsilon " + num(o.epsilon) + " m\n";
    if (s.kind == AssetKind::Roadmap)
        t += "  roadmap: min clearance " + num(s.roadmap_options.min_clearance) + " m, arc epsilon " +
             num(s.roadmap_options.epsilon) + " m, merge chains " +
             (s.roadmap_options.merge_chains ? "on" : "off") + "\n";
    t += "  origin (internal frame) " + fixedDecimals(s.origin.x, 3) + ", " + fixedDecimals(s.origin.y, 3) + ", " +
         fixedDecimals(s.origin.z, 3) + "; grid spacing " + num(s.grid_spacing) + " m\n";
    t += "  bounds local x " + fixedDecimals(s.local_min.x, 2) + " .. " + fixedDecimals(s.local_max.x, 2) + ", y " +
         fixedDecimals(s.local_min.y, 2) + " .. " + fixedDecimals(s.local_max.y, 2) + ", z " + fixedDecimals(s.local_min.z, 2) +
         " .. " + fixedDecimals(s.local_max.z, 2) + "\n";
    t += "  bounds world x " + fixedDecimals(s.world_min.x, 2) + " .. " + fixedDecimals(s.world_max.x, 2) + ", y " +
         fixedDecimals(s.world_min.y, 2) + " .. " + fixedDecimals(s.world_max.y, 2) + ", z " + fixedDecimals(s.world_min.z, 2) +
         " .. " + fixedDecimals(s.world_max.z, 2) + "\n";
    double area = 0;
    for (const InspectLayer& l : s.layers)
        area += l.area;
    t += "  " + std::to_string(s.layers.size()) + " layers, " + std::to_string(s.connections) +
         " connections, " + std::to_string(s.walls) + " walls, " + fixedDecimals(area, 2) + " m2 walkable\n";
    for (size_t i = 0; i < s.layers.size(); ++i) {
        const InspectLayer& l = s.layers[i];
        t += "  layer " + std::to_string(i) + ": " + std::to_string(l.polygons) + " polygons, " +
             std::to_string(l.holes) + " holes, " + std::to_string(l.walls) + " walls, " + fixedDecimals(l.area, 2) +
             " m2, z " + fixedDecimals(l.height_min, 2) + " .. " + fixedDecimals(l.height_max, 2);
        if (s.kind == AssetKind::Roadmap)
            t += "; " + std::to_string(l.vertices) + " vertices, " + std::to_string(l.edges) +
                 " edges, clearance " + fixedDecimals(l.clearance_min, 3) + " .. " + fixedDecimals(l.clearance_max, 3) + " m";
        if (i < s.usable.layer_area.size())
            t += "; usable " + fixedDecimals(s.usable.layer_area[i], 2) + " m2";
        t += "\n";
    }
    t += usableText(s.usable);
    if (s.kind == AssetKind::Roadmap)
        t += "  roadmap: " + std::to_string(s.vertices) + " vertices, " + std::to_string(s.edges) +
             " edges (" + std::to_string(s.portal_edges) + " portal), " + std::to_string(s.points) +
             " polyline points, " + std::to_string(s.blends) + " blends (" + std::to_string(s.arcs) +
             " arcs), clearance " + fixedDecimals(s.clearance_min, 3) + " .. " + fixedDecimals(s.clearance_max, 3) + " m\n";
    return t;
}

std::string inspectJson(const InspectSummary& s) {
    auto vec = [](const Vec3& v) { return preview::jsonTriple(v.x, v.y, v.z); };
    std::string j = "{\"file\": " + jsonString(s.file) + ", \"kind\": \"" + assetKindName(s.kind) +
                    "\", \"bytes\": " + std::to_string(s.bytes) + ", \"status\": " + jsonString(s.status) +
                    ", \"format_version\": " + std::to_string(s.format_version) +
                    ", \"baker_version\": " + jsonString(s.baker_version) +
                    ", \"source_name\": " + jsonString(s.source_name) + ", \"input_hash\": \"" +
                    hex64(s.input_hash) + "\", \"options_hash\": \"" + hex64(s.options_hash) + "\"";
    if (s.kind == AssetKind::Trims) {
        const InspectTrims& r = s.trims;
        j += ", \"trims\": {\"vehicle\": " + jsonString(r.vehicle) +
             ", \"dimension\": " + std::to_string(r.dimension) +
             ", \"controls\": " + std::to_string(r.controls) + ", \"trims\": " + std::to_string(r.trims) +
             ", \"symmetric\": " + (r.symmetric ? "true" : "false") + ", \"samples\": [" +
             std::to_string(r.samples[0]) + ", " + std::to_string(r.samples[1]) + ", " +
             std::to_string(r.samples[2]) + "], \"max_rate\": [" + num(r.max_rate[0]) + ", " +
             num(r.max_rate[1]) + ", " + num(r.max_rate[2]) + "], \"interval\": " + num(r.interval) +
             ", \"steps\": " + std::to_string(r.steps) + ", \"speed\": " + num(r.speed) +
             ", \"max_chord_deviation\": " + num(r.max_chord_deviation) +
             ", \"reach_min\": " + num(r.reach_min) + ", \"reach_max\": " + num(r.reach_max) + "}}";
        return j;
    }
    const ImportOptions& o = s.import_options;
    j += std::string(", \"import_options\": {\"up\": \"") + (o.up == UpAxis::Y ? "y" : "z") +
         "\", \"scale\": " + num(o.scale) + ", \"agent_height\": " + num(o.agent_height) +
         ", \"max_slope_deg\": " + num(o.max_slope_deg) + ", \"max_step\": " + num(o.max_step) +
         ", \"epsilon\": " + num(o.epsilon) + "}";
    if (s.kind == AssetKind::Roadmap)
        j += ", \"roadmap_options\": {\"min_clearance\": " + num(s.roadmap_options.min_clearance) +
             ", \"epsilon\": " + num(s.roadmap_options.epsilon) +
             ", \"merge_chains\": " + (s.roadmap_options.merge_chains ? "true" : "false") + "}";
    double area = 0;
    for (const InspectLayer& l : s.layers)
        area += l.area;
    j += ", \"origin\": " + vec(s.origin) + ", \"grid_spacing\": " + num(s.grid_spacing) +
         ", \"bounds\": {\"local\": {\"min\": " + vec(s.local_min) + ", \"max\": " + vec(s.local_max) +
         "}, \"world\": {\"min\": " + vec(s.world_min) + ", \"max\": " + vec(s.world_max) + "}}" +
         ", \"layer_count\": " + std::to_string(s.layers.size()) +
         ", \"connections\": " + std::to_string(s.connections) + ", \"walls\": " + std::to_string(s.walls) +
         ", \"walkable_area\": " + num(area) + ", \"layers\": [";
    for (size_t i = 0; i < s.layers.size(); ++i) {
        const InspectLayer& l = s.layers[i];
        j += std::string(i ? ", " : "") + "{\"polygons\": " + std::to_string(l.polygons) +
             ", \"holes\": " + std::to_string(l.holes) + ", \"walls\": " + std::to_string(l.walls) +
             ", \"area\": " + num(l.area) + ", \"height_min\": " + num(l.height_min) +
             ", \"height_max\": " + num(l.height_max);
        if (s.kind == AssetKind::Roadmap)
            j += ", \"vertices\": " + std::to_string(l.vertices) + ", \"edges\": " + std::to_string(l.edges) +
                 ", \"clearance_min\": " + num(l.clearance_min) +
                 ", \"clearance_max\": " + num(l.clearance_max);
        if (i < s.usable.layer_area.size()) j += ", \"usable_area\": " + num(s.usable.layer_area[i]);
        j += "}";
    }
    j += "], \"usable\": " + usableJson(s.usable);
    if (s.kind == AssetKind::Roadmap)
        j += ", \"roadmap\": {\"vertices\": " + std::to_string(s.vertices) +
             ", \"edges\": " + std::to_string(s.edges) +
             ", \"portal_edges\": " + std::to_string(s.portal_edges) +
             ", \"points\": " + std::to_string(s.points) + ", \"blends\": " + std::to_string(s.blends) +
             ", \"arcs\": " + std::to_string(s.arcs) + ", \"clearance_min\": " + num(s.clearance_min) +
             ", \"clearance_max\": " + num(s.clearance_max) + "}";
    return j + "}";
}

} // namespace clearway::bake
