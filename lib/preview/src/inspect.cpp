// cw-inspect: summary, verification and pictures of a baked asset. Everything is read through the
// runtime's verifying loaders (what a game trusts); the schema is only read for the few fields the
// runtime API does not expose (import options, source name) after the loader has verified them.
#include <clearway/preview.h>
#include <clearway/motion.h>
#include <clearway/runtime.h>
#include <clearway/schema/roadmap_generated.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/stat.h>

namespace clearway::bake {

namespace fb = clearway::schema;

namespace {

// Numbers in the summary and the JSON: 10 significant digits, the same text on every run.
std::string num(double v) {
    if (!std::isfinite(v)) return "null";
    char text[40];
    std::snprintf(text, sizeof text, "%.10g", v == 0 ? 0.0 : v); // no "-0"
    return text;
}

// Coordinates in the drawings: millimetres, trailing zeros dropped (keeps the HTML small).
std::string mm(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.3f", v);
    std::string t = text;
    while (t.back() == '0')
        t.pop_back();
    if (t.back() == '.') t.pop_back();
    return t == "-0" ? "0" : t;
}

std::string fixed(double v, int digits) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", digits, v);
    const std::string t = text;
    // "-0.00" (a tiny negative rounded away) reads as a different number than "0.00".
    return t.find_first_not_of("-0.") == std::string::npos && t[0] == '-' ? t.substr(1) : t;
}

std::string hex64(uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(v));
    return text;
}

std::string quote(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\', out += c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
        } else
            out += c;
    }
    return out + "\"";
}

std::string xmlEscape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else if (c == '"')
            out += "&quot;";
        else
            out += c;
    }
    return out;
}

std::string colourHex(uint32_t rgb) {
    char text[8];
    std::snprintf(text, sizeof text, "#%06x", rgb & 0xffffffu);
    return text;
}

// Ramp stops shared by clearanceColour and the legend's gradient, so both show the same colours.
constexpr uint32_t kRamp[5] = {0xd7191c, 0xf07c12, 0xc9b000, 0x1a9850, 0x2166ac};
// Floor tints per layer (cycled): light, so black walls and the ramp stay readable on them.
constexpr uint32_t kLayerTints[8] = {0xfff1c4, 0xcfe6ff, 0xd9f2cf, 0xf7d6ec,
                                     0xe4dcff, 0xffdcc8, 0xcff2ee, 0xececc0};
const char* const kWallColour = "#000000";
const char* const kPortalColour = "#ff00cc";
const char* const kBlendColour = "#8a4fd6";
const char* const kBackground = "#c4c4c4";

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

// ----- drawings -----

constexpr double kDrawingPixels = 1000; // longest side of the level
constexpr double kMargin = 24;
constexpr double kLegendWidth = 250;
constexpr double kLegendHeight = 470; // the HTML controls go below it

struct Frame {
    double s = 1, tx = 0, ty = 0;    // pixel = (tx + s x, ty - s y)
    double width = 0, height = 0;    // drawing area, pixels
    double total_w = 0, total_h = 0; // with the legend column
};

Frame frameFor(double lo_x, double lo_y, double hi_x, double hi_y) {
    Frame f;
    const double w = std::max(hi_x - lo_x, 1e-3), h = std::max(hi_y - lo_y, 1e-3);
    f.s = kDrawingPixels / std::max(w, h);
    f.width = std::ceil(w * f.s + 2 * kMargin);
    f.height = std::ceil(h * f.s + 2 * kMargin);
    f.tx = kMargin - lo_x * f.s;
    f.ty = kMargin + hi_y * f.s;
    f.total_w = f.width + kLegendWidth;
    f.total_h = std::max(f.height, kLegendHeight + 200);
    return f;
}

std::string svgOpen(const Frame& f) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + mm(f.total_w) + "\" height=\"" +
           mm(f.total_h) + "\" viewBox=\"0 0 " + mm(f.total_w) + " " + mm(f.total_h) +
           "\" font-family=\"sans-serif\" font-size=\"12\">\n"
           "<style>#drawing path,#drawing line,#drawing circle{vector-effect:non-scaling-stroke}</style>\n"
           "<defs><clipPath id=\"clip\"><rect width=\"" +
           mm(f.width) + "\" height=\"" + mm(f.total_h) + "\"/></clipPath>\n<linearGradient id=\"ramp\">" +
           [] {
               std::string stops;
               for (int i = 0; i < 5; ++i)
                   stops +=
                       "<stop offset=\"" + mm(i / 4.0) + "\" stop-color=\"" + colourHex(kRamp[i]) + "\"/>";
               return stops;
           }() +
           "</linearGradient></defs>\n<rect width=\"" + mm(f.total_w) + "\" height=\"" + mm(f.total_h) +
           "\" fill=\"" + kBackground + "\"/>\n<rect x=\"" + mm(f.width) + "\" width=\"" + mm(kLegendWidth) +
           "\" height=\"" + mm(f.total_h) + "\" fill=\"#f7f7f7\"/>\n";
}

std::string drawingOpen(const Frame& f) {
    return "<g clip-path=\"url(#clip)\"><g id=\"view\"><g id=\"drawing\" transform=\"matrix(" + num(f.s) +
           " 0 0 " + num(-f.s) + " " + num(f.tx) + " " + num(f.ty) + ")\" data-transform=\"" + num(f.s) +
           " " + num(f.tx) + " " + num(f.ty) + "\">\n";
}

std::string text(double x, double y, const std::string& t, const char* extra = "") {
    return "<text x=\"" + mm(x) + "\" y=\"" + mm(y) + "\"" + extra + ">" + xmlEscape(t) + "</text>\n";
}

std::string polyline(const Vec2f* p, uint32_t n, bool close) {
    std::string d;
    for (uint32_t i = 0; i < n; ++i)
        d += (i ? "L" : "M") + mm(p[i].x) + " " + mm(p[i].y);
    return close ? d + "Z" : d;
}

// Every boundary ring of one layer as one SVG path (closed sub-paths).
std::string layerRingsPath(const FootprintView& fp, uint32_t l) {
    FootprintLayerInfo layer{};
    footprintLayer(fp, l, &layer);
    std::string d;
    for (uint32_t r = 0; r < layer.ring_count; ++r) {
        const Vec2f* ring = nullptr;
        uint32_t n = 0;
        footprintRing(fp, l, r, &ring, &n);
        d += polyline(ring, n, true);
    }
    return d;
}

std::string fileTitle(const std::string& name) {
    const size_t slash = name.find_last_of('/');
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

// Floors, walls, connections and (for roadmaps) roadmap and blends of a verified level.
std::string levelSvg(const FootprintView& fp, const RoadmapView* rm, const InspectSummary& s,
                     const std::string& title, Frame* frame_out) {
    const Frame f = frameFor(s.local_min.x, s.local_min.y, s.local_max.x, s.local_max.y);
    *frame_out = f;
    const double max_clearance = std::max(0.1, s.clearance_max);
    const uint32_t layers = uint32_t(s.layers.size());
    std::string svg = svgOpen(f) + drawingOpen(f);
    // Floors, one tint per layer (stacked layers blend where they overlap in the projection).
    svg += "<g id=\"floors\" fill-rule=\"evenodd\" stroke=\"none\" fill-opacity=\"0.75\">\n";
    for (uint32_t l = 0; l < layers; ++l) {
        const std::string d = layerRingsPath(fp, l);
        svg += "<path class=\"L" + std::to_string(l) + "\" fill=\"" + colourHex(kLayerTints[l % 8]) +
               "\" d=\"" + d + "\"/>\n";
    }
    svg += "</g>\n";
    if (rm) {
        RoadmapInfo info{};
        roadmapInfo(*rm, &info);
        std::vector<uint32_t> vertex_layer(info.vertex_count, 0);
        for (uint32_t v = 0; v < info.vertex_count; ++v) {
            RoadmapVertexInfo vertex{};
            roadmapVertex(*rm, v, &vertex);
            vertex_layer[v] = vertex.layer;
        }
        // Blends under the edges: they show where they leave an edge, never hide its colour.
        svg += "<g id=\"blends\" fill=\"none\" stroke=\"" + std::string(kBlendColour) +
               "\" stroke-width=\"1.2\">\n";
        for (uint32_t b = 0; b < info.blend_count; ++b) {
            RoadmapBlend blend{};
            roadmapBlend(*rm, b, &blend);
            if (!(blend.radius > 0)) continue;
            // Local frame is y-up inside the flipping transform: sweep 1 = counter-clockwise.
            svg += "<path class=\"L" + std::to_string(vertex_layer[blend.vertex]) + "\" d=\"M" +
                   mm(blend.p_in.x) + " " + mm(blend.p_in.y) + "A" + mm(blend.radius) + " " +
                   mm(blend.radius) + " 0 0 " + (blend.ccw ? "1 " : "0 ") + mm(blend.p_out.x) + " " +
                   mm(blend.p_out.y) + "\"/>\n";
        }
        svg += "</g>\n<g id=\"roadmap\" fill=\"none\" stroke-width=\"2.5\" stroke-linecap=\"round\" "
               "stroke-linejoin=\"round\">\n";
        for (uint32_t e = 0; e < info.edge_count; ++e) {
            RoadmapEdgeInfo edge{};
            roadmapEdge(*rm, e, &edge);
            const uint32_t la = vertex_layer[edge.a], lb = vertex_layer[edge.b];
            std::string cls = "L" + std::to_string(la);
            if (lb != la) cls += " L" + std::to_string(lb);
            svg += "<path class=\"" + cls + "\" stroke=\"" +
                   (edge.portal ? std::string(kPortalColour) + "\" stroke-dasharray=\"4 3"
                                : colourHex(clearanceColour(edge.min_clearance, max_clearance))) +
                   "\" d=\"" + polyline(edge.points, edge.point_count, false) + "\"/>\n";
        }
        svg += "</g>\n";
    }
    // Walls on top: the boundary rings, black.
    svg += "<g id=\"walls\" fill=\"none\" stroke=\"" + std::string(kWallColour) +
           "\" stroke-width=\"2\" stroke-linejoin=\"round\">\n";
    for (uint32_t l = 0; l < layers; ++l) {
        const std::string d = layerRingsPath(fp, l);
        svg += "<path class=\"L" + std::to_string(l) + "\" d=\"" + d + "\"/>\n";
    }
    svg += "</g>\n<g id=\"connections\" stroke=\"" + std::string(kPortalColour) +
           "\" stroke-width=\"4\" stroke-linecap=\"round\">\n";
    for (uint32_t c = 0; c < s.connections; ++c) {
        FootprintConnection con{};
        footprintConnection(fp, c, &con);
        svg += "<path class=\"L" + std::to_string(con.layer_a) + " L" + std::to_string(con.layer_b) +
               "\" d=\"M" + mm(con.p0.x) + " " + mm(con.p0.y) + "L" + mm(con.p1.x) + " " + mm(con.p1.y) +
               "\"/>\n";
    }
    svg += "</g>\n<g id=\"route\"></g>\n</g></g></g>\n";

    // Legend column (fixed: pan and zoom move only the drawing).
    const double x = f.width + 16;
    double y = 24;
    svg += "<g id=\"legend\">\n" + text(x, y, title, " font-weight=\"bold\" font-size=\"14\"");
    y += 18;
    svg += text(x, y,
                std::string(assetKindName(s.kind)) + ", " + std::to_string(layers) + " layers, " +
                    std::to_string(s.connections) + " connections");
    y += 16;
    svg +=
        text(x, y,
             std::to_string(s.walls) + " walls" +
                 (rm ? ", " + std::to_string(s.vertices) + " vertices, " + std::to_string(s.edges) + " edges"
                     : std::string()));
    y += 26;
    if (rm) {
        svg += text(x, y, "roadmap clearance (m)");
        y += 8;
        svg += "<rect x=\"" + mm(x) + "\" y=\"" + mm(y) +
               "\" width=\"200\" height=\"14\" fill=\"url(#ramp)\"/>\n";
        y += 28;
        for (int i = 0; i <= 2; ++i)
            svg += text(x + 100 * i, y, fixed(max_clearance * i / 2, max_clearance < 10 ? 2 : 1),
                        i == 0 ? "" : (i == 2 ? " text-anchor=\"end\"" : " text-anchor=\"middle\""));
        y += 24;
    }
    struct Key {
        const char* colour;
        const char* what;
        const char* dash;
        double width;
    };
    std::vector<Key> keys = {{kWallColour, "walls", "", 2}, {kPortalColour, "connections (portals)", "", 4}};
    if (rm) {
        keys.push_back({kPortalColour, "portal edges", " stroke-dasharray=\"4 3\"", 2.5});
        keys.push_back({kBlendColour, "blends (stored arcs)", "", 1.5});
    }
    for (const Key& k : keys) {
        svg += "<line x1=\"" + mm(x) + "\" y1=\"" + mm(y - 4) + "\" x2=\"" + mm(x + 28) + "\" y2=\"" +
               mm(y - 4) + "\" stroke=\"" + k.colour + "\" stroke-width=\"" + mm(k.width) + "\"" + k.dash +
               "/>\n";
        svg += text(x + 36, y, k.what);
        y += 18;
    }
    y += 6;
    for (uint32_t l = 0; l < layers && y < kLegendHeight - 40; ++l) {
        svg += "<rect x=\"" + mm(x) + "\" y=\"" + mm(y - 11) + "\" width=\"28\" height=\"13\" fill=\"" +
               colourHex(kLayerTints[l % 8]) + "\" stroke=\"#888\"/>\n";
        svg += text(x + 36, y,
                    "layer " + std::to_string(l) + ": " + fixed(s.layers[l].area, 1) + " m², z " +
                        fixed(s.layers[l].height_min, 1) + ".." + fixed(s.layers[l].height_max, 1));
        y += 18;
    }
    // Scale bar: a round length near 150 px.
    double bar = 1;
    while (bar * f.s < 60)
        bar *= 10;
    while (bar * f.s > 300)
        bar /= 10;
    if (bar * 5 * f.s <= 200)
        bar *= 5;
    else if (bar * 2 * f.s <= 200)
        bar *= 2;
    y += 10;
    svg += "<path d=\"M" + mm(x) + " " + mm(y) + "h" + mm(bar * f.s) +
           "\" stroke=\"#000\" stroke-width=\"3\"/>\n";
    svg += text(x, y + 16, num(bar) + " m");
    svg += "</g>\n</svg>\n";
    return svg;
}

// Initial controls that get a panel: all of them up to 25, else every combination of {min, 0,
// max} of the first two axes that vary (the others at 0): 9 panels.
std::vector<uint32_t> trimPanels(const trims::TableView& view) {
    std::vector<uint32_t> out;
    const trims::Model& m = view.model;
    if (view.control_count <= 25) {
        for (uint32_t c = 0; c < view.control_count; ++c)
            out.push_back(c);
        return out;
    }
    // Index of a control from per-axis sample indices: c = yaw + Y * roll + Y * R * pitch.
    auto control = [&](const uint32_t idx[3]) {
        return idx[trims::kYaw] + m.samples[trims::kYaw] * idx[trims::kRoll] +
               m.samples[trims::kYaw] * m.samples[trims::kRoll] * idx[trims::kPitch];
    };
    std::vector<int> axes;
    for (int a : {int(trims::kYaw), int(trims::kPitch), int(trims::kRoll)})
        if (m.samples[a] > 1 && axes.size() < 2) axes.push_back(a);
    const int counts[2] = {3, axes.size() > 1 ? 3 : 1};
    for (int j = 0; j < counts[1]; ++j)
        for (int i = 0; i < counts[0]; ++i) {
            uint32_t idx[3] = {m.samples[0] / 2, m.samples[1] / 2, m.samples[2] / 2};
            const int pick[2] = {i, j};
            for (size_t k = 0; k < axes.size(); ++k)
                idx[axes[k]] =
                    pick[k] == 0 ? 0 : (pick[k] == 1 ? m.samples[axes[k]] / 2 : m.samples[axes[k]] - 1);
            out.push_back(control(idx));
        }
    return out;
}

std::string rates(const trims::Model& m, uint32_t control) {
    double r[3];
    trims::controlRates(m, control, r);
    std::string t = "yaw " + fixed(r[0], 2);
    if (m.dimension == 3)
        t += ", pitch " + fixed(r[1], 2) + (m.samples[2] > 1 ? ", roll " + fixed(r[2], 2) : "");
    return t;
}

std::string trimsSvg(const trims::TableView& view, const InspectSummary& s, const std::string& title,
                     Frame* frame_out) {
    const trims::Model& m = view.model;
    const std::vector<uint32_t> panels = trimPanels(view);
    // Every trajectory of every panel, integrated step by step (the runtime's integrator).
    std::vector<std::vector<std::vector<Vec2f>>> curves(panels.size());
    double lo_x = 0, lo_y = 0, hi_x = 0, hi_y = 0;
    for (size_t p = 0; p < panels.size(); ++p)
        for (uint32_t to = 0; to < view.control_count; ++to) {
            trims::PoseD pose = trims::identityPose();
            std::vector<Vec2f> curve = {{0, 0}};
            for (uint32_t k = 0; k < m.steps; ++k) {
                trims::integrateTrim(m, panels[p], to, m.speed, k, 1, &pose);
                curve.push_back({float(pose.position[0]), float(pose.position[1])});
                lo_x = std::min(lo_x, pose.position[0]), hi_x = std::max(hi_x, pose.position[0]);
                lo_y = std::min(lo_y, pose.position[1]), hi_y = std::max(hi_y, pose.position[1]);
            }
            curves[p].push_back(std::move(curve));
        }
    const double pad = 0.05 * std::max(hi_x - lo_x, hi_y - lo_y) + 1e-3;
    lo_x -= pad, lo_y -= pad, hi_x += pad, hi_y += pad;
    const int columns = int(std::ceil(std::sqrt(double(panels.size()))));
    const int rows = int((panels.size() + columns - 1) / columns);
    const double panel = std::min(320.0, 1000.0 / columns), gap = 34;
    const double s_px = (panel - 8) / std::max(hi_x - lo_x, hi_y - lo_y);
    Frame f;
    f.s = s_px;
    f.width = kMargin * 2 + columns * (panel + 8);
    f.height = kMargin * 2 + rows * (panel + gap);
    f.total_w = f.width + kLegendWidth;
    f.total_h = std::max(f.height, kLegendHeight + 200);
    std::string svg = svgOpen(f) + "<g clip-path=\"url(#clip)\"><g id=\"view\"><g id=\"drawing\">\n";
    const int colour_axis = m.dimension == 3 ? trims::kPitch : trims::kYaw;
    const double max_rate = m.max_rate[colour_axis] > 0 ? m.max_rate[colour_axis] : 1;
    for (size_t p = 0; p < panels.size(); ++p) {
        const double px = kMargin + (p % columns) * (panel + 8), py = kMargin + (p / columns) * (panel + gap);
        const double tx = px + 4 - lo_x * s_px, ty = py + gap - 10 + 4 + hi_y * s_px;
        if (p == 0) f.tx = tx, f.ty = ty;
        svg += "<rect x=\"" + mm(px) + "\" y=\"" + mm(py + gap - 10) + "\" width=\"" + mm(panel) +
               "\" height=\"" + mm(panel) + "\" fill=\"#ffffff\" stroke=\"#888\"/>\n";
        svg += text(px, py + gap - 16, "from " + rates(m, panels[p]));
        svg += "<g class=\"panel\" fill=\"none\" stroke-width=\"1.2\" transform=\"matrix(" + num(s_px) +
               " 0 0 " + num(-s_px) + " " + num(tx) + " " + num(ty) + ")\" data-transform=\"" + num(s_px) +
               " " + num(tx) + " " + num(ty) + "\">\n";
        for (uint32_t to = 0; to < view.control_count; ++to) {
            double r[3];
            trims::controlRates(m, to, r);
            // Final rate on the ramp: most negative red .. most positive blue.
            const uint32_t colour = clearanceColour(0.5 + 0.5 * r[colour_axis] / max_rate, 1.0);
            const std::vector<Vec2f>& c = curves[p][to];
            svg += "<path stroke=\"" + colourHex(colour) + "\" d=\"" +
                   polyline(c.data(), uint32_t(c.size()), false) + "\"/>\n";
        }
        svg += "</g>\n";
    }
    svg += "</g></g></g>\n";
    const double x = f.width + 16;
    double y = 24;
    svg += "<g id=\"legend\">\n" + text(x, y, title, " font-weight=\"bold\" font-size=\"14\"");
    y += 18;
    svg +=
        text(x, y,
             (s.trims.vehicle.empty() ? std::string("trims") : s.trims.vehicle) + ", " +
                 std::to_string(s.trims.controls) + " controls, " + std::to_string(s.trims.trims) + " trims");
    y += 16;
    svg += text(x, y, "top view, x forward, " + num(m.speed) + " m/s for " + num(m.interval) + " s");
    y += 16;
    svg += text(x, y, "one panel per initial control");
    y += 24;
    svg += text(x, y,
                std::string("final ") + (colour_axis == trims::kPitch ? "pitch" : "yaw") + " rate (rad/s)");
    y += 8;
    svg +=
        "<rect x=\"" + mm(x) + "\" y=\"" + mm(y) + "\" width=\"200\" height=\"14\" fill=\"url(#ramp)\"/>\n";
    y += 28;
    svg += text(x, y, fixed(-max_rate, 2)) + text(x + 100, y, "0", " text-anchor=\"middle\"") +
           text(x + 200, y, fixed(max_rate, 2), " text-anchor=\"end\"");
    svg += "</g>\n</svg>\n";
    *frame_out = f;
    return svg;
}

// Aligned copy for the loaders.
struct Aligned {
    std::vector<uint64_t> words;
    size_t size = 0;
};

bool readAligned(const std::string& path, Aligned* out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) return false;
    out->size = bytes.size();
    out->words.assign(bytes.size() / 8 + 1, 0);
    if (!bytes.empty()) std::memcpy(out->words.data(), bytes.data(), bytes.size());
    return true;
}

// Drawing + kind, for inspectSvg / inspectHtml.
struct Picture {
    std::string svg;
    Frame frame;
    InspectSummary summary;
    bool ok = false;
};

Picture picture(const void* data, size_t size, const std::string& title) {
    Picture p;
    if (inspectAssetBytes(data, size, title, &p.summary)) return p;
    p.ok = true;
    if (p.summary.kind == AssetKind::Trims) {
        trims::TableView view;
        trims::loadTable(data, size, &view);
        p.svg = trimsSvg(view, p.summary, title, &p.frame);
    } else if (p.summary.kind == AssetKind::Roadmap) {
        RoadmapView view;
        FootprintView fp;
        loadRoadmap(data, size, &view);
        roadmapFootprint(view, &fp);
        p.svg = levelSvg(fp, &view, p.summary, title, &p.frame);
    } else {
        FootprintView fp;
        loadFootprint(data, size, &fp);
        p.svg = levelSvg(fp, nullptr, p.summary, title, &p.frame);
    }
    return p;
}

// The roadmap graph for the page's path query: vertices [x, y, layer], edges [a, b, min clearance,
// portal, [x0, y0, x1, y1, ...]].
std::string graphJson(const void* data, size_t size) {
    RoadmapView view;
    if (loadRoadmap(data, size, &view) != Status::Ok) return "null";
    RoadmapInfo info{};
    roadmapInfo(view, &info);
    std::string out = "{\"v\":[";
    for (uint32_t v = 0; v < info.vertex_count; ++v) {
        RoadmapVertexInfo vertex{};
        roadmapVertex(view, v, &vertex);
        out += (v ? ",[" : "[") + mm(vertex.position.x) + "," + mm(vertex.position.y) + "," +
               std::to_string(vertex.layer) + "]";
    }
    out += "],\n\"e\":[";
    for (uint32_t e = 0; e < info.edge_count; ++e) {
        RoadmapEdgeInfo edge{};
        roadmapEdge(view, e, &edge);
        out += (e ? ",\n[" : "[") + std::to_string(edge.a) + "," + std::to_string(edge.b) + "," +
               mm(edge.min_clearance) + "," + (edge.portal ? "1" : "0") + ",[";
        for (uint32_t i = 0; i < edge.point_count; ++i)
            out += (i ? "," : "") + mm(edge.points[i].x) + "," + mm(edge.points[i].y);
        out += "]]";
    }
    return out + "]}";
}

// The page's script: pan, zoom, layer toggles, and the path query. G is the graph (null without a
// roadmap), LAYERS the layer count. A URL hash "#from=x,y&to=x,y&r=R" (local metres) runs one
// query at load, exactly as two clicks would (the render test uses it).
const char* const kScript = R"JS(
const svg = document.querySelector('svg'), view = document.getElementById('view');
const drawing = document.getElementById('drawing'), route = document.getElementById('route');
const out = document.getElementById('out'), radiusInput = document.getElementById('radius');
const [S, TX, TY] = (drawing.dataset.transform || '1 0 0').split(' ').map(Number);
let k = 1, panX = 0, panY = 0, drag = null, clicks = [];
const visible = Array(LAYERS).fill(true);

function applyView() { view.setAttribute('transform', `translate(${panX} ${panY}) scale(${k})`); }
// Screen pixel -> local metres (undo the pan/zoom, then the drawing's transform).
function toLocal(e) {
  const r = svg.getBoundingClientRect();
  const x = (e.clientX - r.left - panX) / k, y = (e.clientY - r.top - panY) / k;
  return [(x - TX) / S, (TY - y) / S];
}
svg.addEventListener('wheel', e => {
  e.preventDefault();
  const r = svg.getBoundingClientRect(), mx = e.clientX - r.left, my = e.clientY - r.top;
  const f = Math.exp(-e.deltaY * 0.0015);
  panX = mx - (mx - panX) * f; panY = my - (my - panY) * f; k *= f; applyView();
}, {passive: false});
svg.addEventListener('mousedown', e => { drag = {x: e.clientX, y: e.clientY, panX, panY, moved: false}; });
window.addEventListener('mousemove', e => {
  if (!drag) return;
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
  panX = drag.panX + dx; panY = drag.panY + dy; applyView();
});
window.addEventListener('mouseup', e => {
  if (drag && !drag.moved && G && e.clientX - svg.getBoundingClientRect().left < WIDTH) click(toLocal(e));
  drag = null;
});
document.getElementById('reset').onclick = () => { k = 1; panX = panY = 0; applyView(); };

// One checkbox per layer: hides its floor, walls, roadmap and connections.
const boxes = document.getElementById('layers');
for (let l = 0; l < LAYERS; l++) {
  const label = document.createElement('label'), box = document.createElement('input');
  box.type = 'checkbox'; box.checked = true;
  box.onchange = () => {
    visible[l] = box.checked;
    document.querySelectorAll('.L' + l).forEach(el => el.style.display = box.checked ? '' : 'none');
  };
  label.append(box, ' layer ' + l); boxes.append(label, document.createElement('br'));
}

// ----- path query: A* over the roadmap edges whose min clearance >= radius -----
const edges = G ? G.e.map(([a, b, c, portal, p]) => {
  const cum = [0];
  for (let i = 2; i < p.length; i += 2) cum.push(cum[cum.length - 1] + Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]));
  return {a, b, c, portal, p, cum, len: cum[cum.length - 1]};
}) : [];
const incident = G ? G.v.map(() => []) : [];
edges.forEach((e, i) => { incident[e.a].push(i); incident[e.b].push(i); });
const usable = (e, r) => e.c >= r && visible[G.v[e.a][2]] && visible[G.v[e.b][2]];

// Nearest point on a usable non-portal edge: {edge, s (arc length from its vertex a), x, y, d}.
function snap(q, r) {
  let best = null;
  edges.forEach((e, i) => {
    if (e.portal || !usable(e, r)) return;
    for (let j = 0; j + 3 < e.p.length; j += 2) {
      const ax = e.p[j], ay = e.p[j + 1], dx = e.p[j + 2] - ax, dy = e.p[j + 3] - ay, l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.max(0, Math.min(1, ((q[0] - ax) * dx + (q[1] - ay) * dy) / l2)) : 0;
      const x = ax + t * dx, y = ay + t * dy, d = Math.hypot(q[0] - x, q[1] - y);
      if (!best || d < best.d) best = {edge: i, s: e.cum[j / 2] + t * Math.sqrt(l2), x, y, d};
    }
  });
  return best;
}
// Point at arc length s along edge e, and the polyline between two arc lengths (either order).
function at(e, s) {
  let i = 0;
  while (i < e.cum.length - 2 && e.cum[i + 1] < s) i++;
  const l = e.cum[i + 1] - e.cum[i], t = l > 0 ? (s - e.cum[i]) / l : 0;
  return [e.p[2 * i] + t * (e.p[2 * i + 2] - e.p[2 * i]), e.p[2 * i + 1] + t * (e.p[2 * i + 3] - e.p[2 * i + 1])];
}
function along(e, s0, s1) {
  if (s0 > s1) return along(e, s1, s0).reverse();
  const pts = [at(e, s0)];
  for (let i = 1; i < e.cum.length - 1; i++) if (e.cum[i] > s0 && e.cum[i] < s1) pts.push([e.p[2 * i], e.p[2 * i + 1]]);
  pts.push(at(e, s1));
  return pts;
}

// A* from snap point A to snap point B. Nodes: roadmap vertices, plus 'goal'. The open list is a
// plain array (a few thousand vertices: a scan per step is fast enough and easy to read).
function findRoute(A, B, r) {
  const ea = edges[A.edge], eb = edges[B.edge], n = G.v.length, GOAL = n;
  const g = new Float64Array(n + 1).fill(Infinity), from = new Array(n + 1), done = new Uint8Array(n + 1);
  const h = v => v === GOAL ? 0 : Math.hypot(G.v[v][0] - B.x, G.v[v][1] - B.y);
  const open = [];
  const relax = (v, cost, how) => { if (cost < g[v]) { g[v] = cost; from[v] = how; open.push(v); } };
  relax(ea.a, A.s, {start: true, to: 0}); relax(ea.b, ea.len - A.s, {start: true, to: ea.len});
  if (A.edge === B.edge) relax(GOAL, Math.abs(B.s - A.s), {start: true, direct: true});
  while (open.length) {
    let bi = 0;
    for (let i = 1; i < open.length; i++) if (g[open[i]] + h(open[i]) < g[open[bi]] + h(open[bi])) bi = i;
    const u = open[bi]; open[bi] = open[open.length - 1]; open.pop();
    if (done[u]) continue;
    done[u] = 1;
    if (u === GOAL) break;
    if (u === eb.a) relax(GOAL, g[u] + B.s, {prev: u, edge: B.edge, s0: 0});
    if (u === eb.b) relax(GOAL, g[u] + eb.len - B.s, {prev: u, edge: B.edge, s0: eb.len});
    for (const i of incident[u]) {
      const e = edges[i];
      if (usable(e, r)) relax(e.a === u ? e.b : e.a, g[u] + e.len, {prev: u, edge: i});
    }
  }
  if (!isFinite(g[GOAL])) return null;
  // Walk back from the goal, collecting polyline pieces.
  const pieces = [];
  let v = GOAL;
  for (;;) {
    const how = from[v];
    if (how.direct) { pieces.push(along(ea, A.s, B.s)); break; }
    if (v === GOAL) pieces.push(along(eb, how.s0, B.s));
    else if (how.start) { pieces.push(along(ea, A.s, how.to)); break; }
    else { const e = edges[how.edge]; pieces.push(e.a === how.prev ? along(e, 0, e.len) : along(e, e.len, 0)); }
    v = how.prev;
  }
  return {length: g[GOAL], points: pieces.reverse().flat()};
}

const NS = 'http://www.w3.org/2000/svg';
function mark(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const a in attrs) el.setAttribute(a, attrs[a]);
  route.append(el); return el;
}
function query(q0, q1, r) {
  route.replaceChildren();
  for (const q of [q0, q1]) mark('circle', {cx: q[0], cy: q[1], r: Math.max(r, 3 / S), fill: '#00b4ff', 'fill-opacity': 0.5});
  const A = snap(q0, r), B = snap(q1, r);
  if (!A || !B) { out.textContent = `no roadmap edge keeps ${r} m of clearance`; return; }
  const found = findRoute(A, B, r);
  if (!found) { out.textContent = `no path at radius ${r} m`; return; }
  const pts = [q0, ...found.points, q1];
  mark('path', {d: 'M' + pts.map(p => p[0] + ' ' + p[1]).join('L'), fill: 'none', stroke: '#00b4ff',
                'stroke-width': 5, 'stroke-linejoin': 'round', 'stroke-linecap': 'round'});
  const total = found.length + A.d + B.d;
  out.textContent = `path ${total.toFixed(2)} m (roadmap ${found.length.toFixed(2)} m; ` +
                    `snapped ${A.d.toFixed(2)} m and ${B.d.toFixed(2)} m from the clicks)`;
}
function click(q) {
  clicks.push(q);
  if (clicks.length === 1) { route.replaceChildren(); mark('circle', {cx: q[0], cy: q[1], r: 4 / S, fill: '#00b4ff'}); out.textContent = 'click the goal'; }
  else { query(clicks[0], clicks[1], Number(radiusInput.value) || 0); clicks = []; }
}
if (G) {
  const args = Object.fromEntries(location.hash.slice(1).split('&').filter(x => x).map(x => x.split('=')));
  if (args.r) radiusInput.value = args.r;
  if (args.from && args.to) query(args.from.split(',').map(Number), args.to.split(',').map(Number), Number(radiusInput.value));
} else {
  document.getElementById('query').style.display = 'none';
}
)JS";

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

uint32_t clearanceColour(double clearance, double max_clearance) {
    double t = max_clearance > 0 ? clearance / max_clearance : 0;
    t = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
    const double x = t * 4;
    const int i = std::min(3, int(x));
    const double f = x - i;
    uint32_t rgb = 0;
    for (int shift = 16; shift >= 0; shift -= 8) {
        const double a = (kRamp[i] >> shift) & 0xff, b = (kRamp[i + 1] >> shift) & 0xff;
        rgb |= uint32_t(std::lround(a + (b - a) * f)) << shift;
    }
    return rgb;
}

Error inspectAssetBytes(const void* data, size_t size, const std::string& name, InspectSummary* out) {
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
    } else if (s.kind == AssetKind::Roadmap) {
        RoadmapView view;
        if (const Status st = loadRoadmap(data, size, &view); st != Status::Ok) return failed(st);
        FootprintView fp;
        roadmapFootprint(view, &fp);
        summariseFootprint(fp, fb::GetRoadmap(data)->footprint(), &s);
        summariseRoadmap(view, &s);
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
    return "{\"file\": " + quote(s.file) + ", \"kind\": \"" + assetKindName(s.kind) +
           "\", \"bytes\": " + std::to_string(s.bytes) + ", \"status\": " + quote(s.status) + "}";
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
             " steps; one trim reaches " + fixed(r.reach_min, 3) + " .. " + fixed(r.reach_max, 3) +
             " m, max chord deviation " + fixed(r.max_chord_deviation, 4) + " m\n";
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
    t += "  origin (internal frame) " + fixed(s.origin.x, 3) + ", " + fixed(s.origin.y, 3) + ", " +
         fixed(s.origin.z, 3) + "; grid spacing " + num(s.grid_spacing) + " m\n";
    t += "  bounds local x " + fixed(s.local_min.x, 2) + " .. " + fixed(s.local_max.x, 2) + ", y " +
         fixed(s.local_min.y, 2) + " .. " + fixed(s.local_max.y, 2) + ", z " + fixed(s.local_min.z, 2) +
         " .. " + fixed(s.local_max.z, 2) + "\n";
    t += "  bounds world x " + fixed(s.world_min.x, 2) + " .. " + fixed(s.world_max.x, 2) + ", y " +
         fixed(s.world_min.y, 2) + " .. " + fixed(s.world_max.y, 2) + ", z " + fixed(s.world_min.z, 2) +
         " .. " + fixed(s.world_max.z, 2) + "\n";
    double area = 0;
    for (const InspectLayer& l : s.layers)
        area += l.area;
    t += "  " + std::to_string(s.layers.size()) + " layers, " + std::to_string(s.connections) +
         " connections, " + std::to_string(s.walls) + " walls, " + fixed(area, 2) + " m2 walkable\n";
    for (size_t i = 0; i < s.layers.size(); ++i) {
        const InspectLayer& l = s.layers[i];
        t += "  layer " + std::to_string(i) + ": " + std::to_string(l.polygons) + " polygons, " +
             std::to_string(l.holes) + " holes, " + std::to_string(l.walls) + " walls, " + fixed(l.area, 2) +
             " m2, z " + fixed(l.height_min, 2) + " .. " + fixed(l.height_max, 2);
        if (s.kind == AssetKind::Roadmap)
            t += "; " + std::to_string(l.vertices) + " vertices, " + std::to_string(l.edges) +
                 " edges, clearance " + fixed(l.clearance_min, 3) + " .. " + fixed(l.clearance_max, 3) + " m";
        t += "\n";
    }
    if (s.kind == AssetKind::Roadmap)
        t += "  roadmap: " + std::to_string(s.vertices) + " vertices, " + std::to_string(s.edges) +
             " edges (" + std::to_string(s.portal_edges) + " portal), " + std::to_string(s.points) +
             " polyline points, " + std::to_string(s.blends) + " blends (" + std::to_string(s.arcs) +
             " arcs), clearance " + fixed(s.clearance_min, 3) + " .. " + fixed(s.clearance_max, 3) + " m\n";
    return t;
}

std::string inspectJson(const InspectSummary& s) {
    auto vec = [](const Vec3& v) { return "[" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + "]"; };
    std::string j = "{\"file\": " + quote(s.file) + ", \"kind\": \"" + assetKindName(s.kind) +
                    "\", \"bytes\": " + std::to_string(s.bytes) + ", \"status\": " + quote(s.status) +
                    ", \"format_version\": " + std::to_string(s.format_version) +
                    ", \"baker_version\": " + quote(s.baker_version) +
                    ", \"source_name\": " + quote(s.source_name) + ", \"input_hash\": \"" +
                    hex64(s.input_hash) + "\", \"options_hash\": \"" + hex64(s.options_hash) + "\"";
    if (s.kind == AssetKind::Trims) {
        const InspectTrims& r = s.trims;
        j += ", \"trims\": {\"vehicle\": " + quote(r.vehicle) +
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
        j += "}";
    }
    j += "]";
    if (s.kind == AssetKind::Roadmap)
        j += ", \"roadmap\": {\"vertices\": " + std::to_string(s.vertices) +
             ", \"edges\": " + std::to_string(s.edges) +
             ", \"portal_edges\": " + std::to_string(s.portal_edges) +
             ", \"points\": " + std::to_string(s.points) + ", \"blends\": " + std::to_string(s.blends) +
             ", \"arcs\": " + std::to_string(s.arcs) + ", \"clearance_min\": " + num(s.clearance_min) +
             ", \"clearance_max\": " + num(s.clearance_max) + "}";
    return j + "}";
}

std::string inspectSvg(const void* data, size_t size) {
    return picture(data, size, "asset").svg;
}

std::string inspectHtml(const void* data, size_t size, const std::string& title) {
    const Picture p = picture(data, size, fileTitle(title));
    if (!p.ok) return "";
    const bool roadmap = p.summary.kind == AssetKind::Roadmap;
    std::string html =
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + xmlEscape(fileTitle(title)) +
        "</title>\n<style>body{margin:0;font:13px sans-serif;overflow:hidden}svg{display:block;"
        "cursor:grab;user-select:none}#ui{position:absolute;left:" +
        mm(p.frame.width + 16) + "px;top:" + mm(kLegendHeight) +
        "px;width:220px}#ui input[type=number]{width:5em}#out{margin-top:6px}</style>\n"
        "</head><body>\n" +
        p.svg +
        "<div id=\"ui\"><div id=\"layers\"></div><div id=\"query\">radius (m) <input "
        "id=\"radius\" type=\"number\" min=\"0\" step=\"0.1\" value=\"0.5\"><div id=\"out\">"
        "click two points for a path</div></div><button id=\"reset\">reset view</button>"
        "<div>drag: pan, wheel: zoom</div></div>\n<script>\nconst G = " +
        (roadmap ? graphJson(data, size) : std::string("null")) + ";\nconst LAYERS = " +
        std::to_string(p.summary.kind == AssetKind::Trims ? 0 : p.summary.layers.size()) +
        ", WIDTH = " + mm(p.frame.width) + ";\n" + kScript + "</script>\n</body></html>\n";
    return html;
}

Error inspectFile(const InspectRequest& request, InspectSummary* out, LogContext& log) {
    struct stat info {};
    if (stat(request.path.c_str(), &info) != 0)
        return {ErrorCode::FileNotFound, request.path + ": no such file"};
    Aligned bytes;
    if (!readAligned(request.path, &bytes)) return {ErrorCode::ReadFailed, request.path + ": cannot be read"};
    if (Error e = inspectAssetBytes(bytes.words.data(), bytes.size, request.path, out)) return e;
    log.log(LogLevel::Debug, request.path + ": " + assetKindName(out->kind) + " asset verified");
    if (!request.svg_path.empty()) {
        const Picture p = picture(bytes.words.data(), bytes.size, fileTitle(request.path));
        if (Error e = writeFileAtomic(request.svg_path, p.svg)) return e;
        log.log(LogLevel::Debug, "wrote " + request.svg_path);
    }
    if (!request.html_path.empty()) {
        if (Error e =
                writeFileAtomic(request.html_path, inspectHtml(bytes.words.data(), bytes.size, request.path)))
            return e;
        log.log(LogLevel::Debug, "wrote " + request.html_path);
    }
    return {};
}

} // namespace clearway::bake
