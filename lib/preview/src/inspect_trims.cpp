// cw-inspect's trims drawing: one panel per initial control, every trajectory from it integrated
// by the runtime in top view, coloured by its final rate.
#include "inspect_internal.h"

#include <algorithm>
#include <cmath>

namespace clearway::bake {

using preview::fixedDecimals;
using inspect::kLegendHeight;
using inspect::kLegendWidth;
using inspect::kMargin;
using inspect::num;

namespace {

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
    std::string t = "yaw " + fixedDecimals(r[0], 2);
    if (m.dimension == 3)
        t += ", pitch " + fixedDecimals(r[1], 2) + (m.samples[2] > 1 ? ", roll " + fixedDecimals(r[2], 2) : "");
    return t;
}

} // namespace

namespace inspect {

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
    preview::SvgWriter svg = svgOpen(f);
    svg.raw("<g clip-path=\"url(#clip)\"><g id=\"view\"><g id=\"drawing\">\n");
    const int colour_axis = m.dimension == 3 ? trims::kPitch : trims::kYaw;
    const double max_rate = m.max_rate[colour_axis] > 0 ? m.max_rate[colour_axis] : 1;
    for (size_t p = 0; p < panels.size(); ++p) {
        const double px = kMargin + (p % columns) * (panel + 8), py = kMargin + (p / columns) * (panel + gap);
        const double tx = px + 4 - lo_x * s_px, ty = py + gap - 10 + 4 + hi_y * s_px;
        if (p == 0) f.tx = tx, f.ty = ty;
        svg.element("rect", {{"x", px}, {"y", py + gap - 10}, {"width", panel}, {"height", panel}, {"fill", "#ffffff"},
                             {"stroke", "#888"}});
        svg.text(px, py + gap - 16, "from " + rates(m, panels[p]));
        svg.group({{"class", "panel"},
                   {"fill", "none"},
                   {"stroke-width", "1.2"},
                   {"transform", "matrix(" + num(s_px) + " 0 0 " + num(-s_px) + " " + num(tx) + " " + num(ty) + ")"},
                   {"data-transform", num(s_px) + " " + num(tx) + " " + num(ty)}});
        for (uint32_t to = 0; to < view.control_count; ++to) {
            double r[3];
            trims::controlRates(m, to, r);
            // Final rate on the ramp: most negative red .. most positive blue.
            const uint32_t colour = clearanceColour(0.5 + 0.5 * r[colour_axis] / max_rate, 1.0);
            const std::vector<Vec2f>& c = curves[p][to];
            preview::SvgPath d = svg.pathData(true);
            svg.path(d.points(c.data(), c.size(), false), {{"stroke", preview::colourHex(colour)}});
        }
        svg.end();
    }
    svg.raw("</g></g></g>\n");
    const double x = f.width + kLegendX;
    double y = 42;
    legendOpen(svg, f, title);
    svg.text(x, y,
             (s.trims.vehicle.empty() ? std::string("trims") : s.trims.vehicle) + ", " +
                 std::to_string(s.trims.controls) + " controls, " + std::to_string(s.trims.trims) + " trims");
    y += 16;
    svg.text(x, y, "top view, x forward, " + num(m.speed) + " m/s for " + num(m.interval) + " s");
    y += 16;
    svg.text(x, y, "one panel per initial control");
    y += 24;
    svg.text(x, y, std::string("final ") + (colour_axis == trims::kPitch ? "pitch" : "yaw") + " rate (rad/s)");
    y += 8;
    rampBar(svg, x, y);
    y += 28;
    svg.text(x, y, fixedDecimals(-max_rate, 2));
    svg.text(x + 100, y, "0", {{"text-anchor", "middle"}});
    svg.text(x + 200, y, fixedDecimals(max_rate, 2), {{"text-anchor", "end"}});
    svg.end();
    *frame_out = f;
    return svg.finish();
}

} // namespace inspect

} // namespace clearway::bake
