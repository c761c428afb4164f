// cw-inspect's level drawing: floors tinted per layer, black walls, magenta connections, roadmap
// edges coloured by clearance, blends, and the legend column beside them.
#include "inspect_internal.h"

#include <algorithm>
#include <cmath>

namespace clearway::bake {

using preview::colourHex;
using preview::fixedDecimals;
using preview::formatNumber;
using preview::NumberFormat;
using preview::SvgWriter;

namespace {

// Ramp stops shared by clearanceColour and the legend's gradient, so both show the same colours.
constexpr uint32_t kRamp[5] = {0xd7191c, 0xf07c12, 0xc9b000, 0x1a9850, 0x2166ac};
// Floor tints per layer (cycled): light, so black walls and the ramp stay readable on them.
constexpr uint32_t kLayerTints[8] = {0xfff1c4, 0xcfe6ff, 0xd9f2cf, 0xf7d6ec,
                                     0xe4dcff, 0xffdcc8, 0xcff2ee, 0xececc0};
const char* const kWallColour = "#000000";
const char* const kPortalColour = "#ff00cc";
const char* const kBlendColour = "#8a4fd6";
const char* const kBackground = "#c4c4c4";
// Usable area: teal over the floor tints; unreachable islands: a red hatch, each ringed in red.
const char* const kUsableColour = "#0f8b8d";
const char* const kIslandColour = "#e00000";
constexpr double kHatchPixels = 6; // hatch period on screen at zoom 1

using inspect::Frame;
using inspect::kLegendHeight;
using inspect::kLegendWidth;
using inspect::kMargin;
using inspect::num;

Frame frameFor(double lo_x, double lo_y, double hi_x, double hi_y) {
    Frame f;
    const double w = std::max(hi_x - lo_x, 1e-3), h = std::max(hi_y - lo_y, 1e-3);
    f.s = inspect::kDrawingPixels / std::max(w, h);
    f.width = std::ceil(w * f.s + 2 * kMargin);
    f.height = std::ceil(h * f.s + 2 * kMargin);
    f.tx = kMargin - lo_x * f.s;
    f.ty = kMargin + hi_y * f.s;
    f.total_w = f.width + kLegendWidth;
    f.total_h = std::max(f.height, kLegendHeight + 200);
    return f;
}

// The pan/zoom groups and the drawing in local metres (y up): matrix(s 0 0 -s tx ty).
void drawingOpen(SvgWriter& svg, const Frame& f) {
    svg.raw("<g clip-path=\"url(#clip)\"><g id=\"view\">");
    svg.group({{"id", "drawing"},
               {"transform", "matrix(" + num(f.s) + " 0 0 " + num(-f.s) + " " + num(f.tx) + " " + num(f.ty) + ")"},
               {"data-transform", num(f.s) + " " + num(f.tx) + " " + num(f.ty)}});
}

// Every boundary ring of one layer as one SVG path (closed sub-paths).
preview::SvgPath layerRingsPath(const SvgWriter& svg, const FootprintView& fp, uint32_t l) {
    FootprintLayerInfo layer{};
    footprintLayer(fp, l, &layer);
    preview::SvgPath d = svg.pathData(true);
    for (uint32_t r = 0; r < layer.ring_count; ++r) {
        const Vec2f* ring = nullptr;
        uint32_t n = 0;
        footprintRing(fp, l, r, &ring, &n);
        d.points(ring, n, true);
    }
    return d;
}

std::string layerClass(uint32_t l) {
    return "L" + std::to_string(l);
}

void drawRoadmap(SvgWriter& svg, const RoadmapView& rm, double max_clearance) {
    RoadmapInfo info{};
    roadmapInfo(rm, &info);
    std::vector<uint32_t> vertex_layer(info.vertex_count, 0);
    for (uint32_t v = 0; v < info.vertex_count; ++v) {
        RoadmapVertexInfo vertex{};
        roadmapVertex(rm, v, &vertex);
        vertex_layer[v] = vertex.layer;
    }
    // Blends under the edges: they show where they leave an edge, never hide its colour.
    svg.group({{"id", "blends"}, {"fill", "none"}, {"stroke", kBlendColour}, {"stroke-width", 1.2}});
    for (uint32_t b = 0; b < info.blend_count; ++b) {
        RoadmapBlend blend{};
        roadmapBlend(rm, b, &blend);
        if (!(blend.radius > 0)) continue;
        // Local frame is y-up inside the flipping transform: sweep 1 = counter-clockwise.
        preview::SvgPath d = svg.pathData(true);
        d.moveTo(blend.p_in.x, blend.p_in.y).arcTo(blend.radius, false, blend.ccw, blend.p_out.x, blend.p_out.y);
        svg.path(d, {{"class", layerClass(vertex_layer[blend.vertex])}});
    }
    svg.end();
    svg.group({{"id", "roadmap"}, {"fill", "none"}, {"stroke-width", 2.5}, {"stroke-linecap", "round"},
               {"stroke-linejoin", "round"}});
    for (uint32_t e = 0; e < info.edge_count; ++e) {
        RoadmapEdgeInfo edge{};
        roadmapEdge(rm, e, &edge);
        const uint32_t la = vertex_layer[edge.a], lb = vertex_layer[edge.b];
        const std::string cls = layerClass(la) + (lb != la ? " " + layerClass(lb) : "");
        preview::SvgPath d = svg.pathData(true);
        d.points(edge.points, edge.point_count, false);
        if (edge.portal)
            svg.path(d, {{"class", cls}, {"stroke", kPortalColour}, {"stroke-dasharray", "4 3"}});
        else
            svg.path(d, {{"class", cls}, {"stroke", colourHex(clearanceColour(edge.min_clearance, max_clearance))}});
    }
    svg.end();
}

// The cells of one state as rectangles: runs along each row, a run continued while the rows below
// repeat it exactly (a rectangular room is one rectangle). Path data "Mx yhWvHh-Wz" (relative sides:
// the overlay is the bulk of a big level's drawing).
std::string cellRectangles(const SvgWriter& svg, const inspect::UsableGrid& g, uint8_t state) {
    std::string d;
    struct Open {
        uint32_t i0, i1, j0;
        bool seen;
    };
    std::vector<Open> open;
    auto emit = [&](const Open& r, uint32_t j1) {
        const double x0 = g.x0 + r.i0 * g.cell, x1 = g.x0 + r.i1 * g.cell;
        const double y0 = g.y0 + r.j0 * g.cell, y1 = g.y0 + j1 * g.cell;
        d += "M" + svg.num(x0) + " " + svg.num(y0) + "h" + svg.num(x1 - x0) + "v" + svg.num(y1 - y0) + "h" +
             svg.num(x0 - x1) + "z";
    };
    for (uint32_t j = 0; j <= g.ny; ++j) {
        for (Open& r : open)
            r.seen = false;
        std::vector<Open> started;
        for (uint32_t i = 0; j < g.ny && i < g.nx;) {
            if (g.state[size_t(j) * g.nx + i] != state) {
                ++i;
                continue;
            }
            const uint32_t i0 = i;
            while (i < g.nx && g.state[size_t(j) * g.nx + i] == state)
                ++i;
            auto same = std::find_if(open.begin(), open.end(),
                                     [&](const Open& r) { return r.i0 == i0 && r.i1 == i; });
            if (same != open.end())
                same->seen = true;
            else
                started.push_back({i0, i, j, true});
        }
        for (const Open& r : open)
            if (!r.seen) emit(r, j);
        open.erase(std::remove_if(open.begin(), open.end(), [](const Open& r) { return !r.seen; }),
                   open.end());
        open.insert(open.end(), started.begin(), started.end());
    }
    return d;
}

// The usable area of every layer, its islands hatched and ringed (a ring of 10 px at zoom 1 around
// each island's point, so even a small one shows).
void drawUsable(SvgWriter& svg, const inspect::UsableMap& map, const UsableArea& u, double pixels) {
    svg.group({{"id", "usable"}, {"stroke", "none"}});
    for (uint32_t l = 0; l < map.layers.size(); ++l) {
        const std::string usable = cellRectangles(svg, map.layers[l], inspect::UsableGrid::Usable);
        if (!usable.empty())
            svg.element("path",
                        {{"fill", kUsableColour}, {"fill-opacity", "0.45"}, {"class", layerClass(l)}, {"d", usable}});
        const std::string islands = cellRectangles(svg, map.layers[l], inspect::UsableGrid::Island);
        if (!islands.empty())
            svg.element("path",
                        {{"class", layerClass(l) + " island"}, {"fill", "url(#island-hatch)"}, {"d", islands}});
    }
    svg.end();
    svg.group({{"id", "islands"}, {"fill", "none"}, {"stroke", kIslandColour}, {"stroke-width", "2"}});
    for (const UsablePart& i : u.islands)
        svg.circle(i.point.x, i.point.y, 10 / pixels, {{"class", layerClass(i.layer)}});
    svg.end();
}

// A round length near 150 px, for the scale bar.
double scaleBarLength(double pixels_per_metre) {
    double bar = 1;
    while (bar * pixels_per_metre < 60)
        bar *= 10;
    while (bar * pixels_per_metre > 300)
        bar /= 10;
    if (bar * 5 * pixels_per_metre <= 200)
        bar *= 5;
    else if (bar * 2 * pixels_per_metre <= 200)
        bar *= 2;
    return bar;
}

// Legend column (fixed: pan and zoom move only the drawing).
void levelLegend(SvgWriter& svg, const Frame& f, const InspectSummary& s, bool roadmap, double max_clearance,
                 const std::string& title) {
    const uint32_t layers = uint32_t(s.layers.size());
    const double x = f.width + inspect::kLegendX;
    double y = 42;
    inspect::legendOpen(svg, f, title);
    svg.text(x, y,
             std::string(assetKindName(s.kind)) + ", " + std::to_string(layers) + " layers, " +
                 std::to_string(s.connections) + " connections");
    y += 16;
    svg.text(x, y,
             std::to_string(s.walls) + " walls" +
                 (roadmap ? ", " + std::to_string(s.vertices) + " vertices, " + std::to_string(s.edges) + " edges"
                          : std::string()));
    y += 26;
    if (roadmap) {
        svg.text(x, y, "roadmap clearance (m)");
        y += 8;
        inspect::rampBar(svg, x, y);
        y += 28;
        for (int i = 0; i <= 2; ++i) {
            const std::string value = fixedDecimals(max_clearance * i / 2, max_clearance < 10 ? 2 : 1);
            if (i == 0)
                svg.text(x, y, value);
            else
                svg.text(x + 100 * i, y, value, {{"text-anchor", i == 2 ? "end" : "middle"}});
        }
        y += 24;
    }
    svg.legendLine(x, y, kWallColour, 2, "", "walls");
    y += 18;
    svg.legendLine(x, y, kPortalColour, 4, "", "connections (portals)");
    y += 18;
    if (roadmap) {
        svg.legendLine(x, y, kPortalColour, 2.5, "4 3", "portal edges");
        y += 18;
        svg.legendLine(x, y, kBlendColour, 1.5, "", "blends (stored arcs)");
        y += 18;
    }
    const UsableArea& u = s.usable;
    double islands = 0;
    for (const UsablePart& i : u.islands)
        islands += i.area;
    svg.legendSwatch(x, y, kUsableColour,
                     "usable at r = " + num(u.radius) + " m: " + fixedDecimals(u.area, 1) + " m²");
    y += 18;
    // Short enough for the legend column with thousands of square metres: "43 unreachable: 2841.4 m²".
    svg.legendSwatch(x, y, "url(#island-hatch-legend)",
                     std::to_string(u.islands.size()) + " unreachable: " + fixedDecimals(islands, 1) + " m²");
    y += 24;
    for (uint32_t l = 0; l < layers && y < kLegendHeight - 40; ++l) {
        svg.legendSwatch(x, y, colourHex(kLayerTints[l % 8]),
                         "layer " + std::to_string(l) + ": " + fixedDecimals(s.layers[l].area, 1) + " m², z " +
                             fixedDecimals(s.layers[l].height_min, 1) + ".." +
                             fixedDecimals(s.layers[l].height_max, 1));
        y += 18;
    }
    const double bar = scaleBarLength(f.s);
    y += 10;
    svg.element("path", {{"d", "M" + svg.num(x) + " " + svg.num(y) + "h" + svg.num(bar * f.s)},
                         {"stroke", "#000"},
                         {"stroke-width", "3"}});
    svg.text(x, y + 16, num(bar) + " m");
    svg.end();
}

// Diagonal red lines `period` apart (in the user units of the element filled with it).
std::string hatch(const char* id, double period) {
    const std::string p = formatNumber(period, {NumberFormat::Trimmed, 4});
    return std::string("<pattern id=\"") + id + "\" patternUnits=\"userSpaceOnUse\" width=\"" + p +
           "\" height=\"" + p + "\" patternTransform=\"rotate(45)\"><path d=\"M0 0V" + p + "\" stroke=\"" +
           kIslandColour + "\" stroke-width=\"" + formatNumber(period * 0.4, {NumberFormat::Trimmed, 4}) +
           "\" vector-effect=\"none\"/></pattern>";
}

} // namespace

namespace inspect {

SvgWriter svgOpen(const Frame& f) {
    SvgWriter svg(NumberFormat{NumberFormat::Trimmed, 3});
    svg.open(f.total_w, f.total_h, 0.0, 0.0, f.total_w, f.total_h, {{"font-family", "sans-serif"}, {"font-size", "12"}});
    std::string stops;
    for (int i = 0; i < 5; ++i)
        stops += "<stop offset=\"" + svg.num(i / 4.0) + "\" stop-color=\"" + colourHex(kRamp[i]) + "\"/>";
    svg.raw("<style>#drawing path,#drawing line,#drawing circle{vector-effect:non-scaling-stroke}</style>\n"
            "<defs><clipPath id=\"clip\"><rect width=\"" +
            svg.num(f.width) + "\" height=\"" + svg.num(f.total_h) +
            "\"/></clipPath>\n<linearGradient id=\"ramp\">" + stops + "</linearGradient>" +
            hatch("island-hatch", kHatchPixels / f.s) + hatch("island-hatch-legend", kHatchPixels) +
            "</defs>\n");
    svg.element("rect", {{"width", f.total_w}, {"height", f.total_h}, {"fill", kBackground}});
    svg.element("rect", {{"x", f.width}, {"width", kLegendWidth}, {"height", f.total_h}, {"fill", "#f7f7f7"}});
    return svg;
}

void legendOpen(SvgWriter& svg, const Frame& f, const std::string& title) {
    svg.group({{"id", "legend"}});
    svg.text(f.width + kLegendX, 24, title, {{"font-weight", "bold"}, {"font-size", "14"}});
}

void rampBar(SvgWriter& svg, double x, double y) {
    svg.element("rect", {{"x", x}, {"y", y}, {"width", "200"}, {"height", "14"}, {"fill", "url(#ramp)"}});
}

std::string levelSvg(const FootprintView& fp, const RoadmapView* rm, const InspectSummary& s,
                     const UsableMap& usable, const std::string& title, Frame* frame_out) {
    const Frame f = frameFor(s.local_min.x, s.local_min.y, s.local_max.x, s.local_max.y);
    *frame_out = f;
    const double max_clearance = std::max(0.1, s.clearance_max);
    const uint32_t layers = uint32_t(s.layers.size());
    SvgWriter svg = svgOpen(f);
    drawingOpen(svg, f);
    // Floors, one tint per layer (stacked layers blend where they overlap in the projection).
    svg.group({{"id", "floors"}, {"fill-rule", "evenodd"}, {"stroke", "none"}, {"fill-opacity", "0.75"}});
    for (uint32_t l = 0; l < layers; ++l)
        svg.path(layerRingsPath(svg, fp, l), {{"class", layerClass(l)}, {"fill", colourHex(kLayerTints[l % 8])}});
    svg.end();
    drawUsable(svg, usable, s.usable, f.s);
    if (rm) drawRoadmap(svg, *rm, max_clearance);
    // Walls on top: the boundary rings, black.
    svg.group({{"id", "walls"}, {"fill", "none"}, {"stroke", kWallColour}, {"stroke-width", "2"},
               {"stroke-linejoin", "round"}});
    for (uint32_t l = 0; l < layers; ++l)
        svg.path(layerRingsPath(svg, fp, l), {{"class", layerClass(l)}});
    svg.end();
    svg.group({{"id", "connections"}, {"stroke", kPortalColour}, {"stroke-width", "4"}, {"stroke-linecap", "round"}});
    for (uint32_t c = 0; c < s.connections; ++c) {
        FootprintConnection con{};
        footprintConnection(fp, c, &con);
        preview::SvgPath d = svg.pathData(true);
        d.moveTo(con.p0.x, con.p0.y).lineTo(con.p1.x, con.p1.y);
        svg.path(d, {{"class", layerClass(con.layer_a) + " " + layerClass(con.layer_b)}});
    }
    svg.end();
    svg.raw("<g id=\"route\"></g>\n</g></g></g>\n");
    levelLegend(svg, f, s, rm != nullptr, max_clearance, title);
    return svg.finish();
}

} // namespace inspect

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

} // namespace clearway::bake
