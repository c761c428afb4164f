// Reads a roadmap asset (tile or world) back into the bake's Roadmap: cw-stitch reads its tiles
// with it, and cw-bake --if-changed the asset it would rewrite.
#include <clearway/bake.h>
#include <clearway/runtime.h>
#include <clearway/schema/roadmap_generated.h>

#include "assets/asset_internal.h"

namespace clearway::bake {

namespace fb = clearway::schema;

namespace {

// Edge `index`'s corridor kind and chain (loadRoadmap checked the fields' sizes and ranges);
// Unchecked in older assets.
void readCorridor(const fb::Roadmap& root, uint32_t index, RoadmapEdge* out) {
    if (!root.edge_corridor()) return;
    out->corridor = static_cast<EdgeCorridor>(root.edge_corridor()->Get(index));
    for (uint32_t k = root.corridor_starts()->Get(index); k < root.corridor_starts()->Get(index + 1); ++k) {
        const fb::CorridorPoint* c = root.corridor_points()->Get(k);
        out->chain.push_back({{c->x(), c->y()}, {{c->left_x(), c->left_y()}, {c->right_x(), c->right_y()}}});
    }
}

} // namespace

Error readRoadmapBytes(const std::vector<uint8_t>& bytes, const std::string& name, Roadmap* out) {
    RoadmapView view;
    const Status status = loadRoadmap(bytes.data(), bytes.size(), &view);
    if (status != Status::Ok)
        return {ErrorCode::ReadFailed, name + ": not a valid roadmap asset: " + statusString(status)};
    const fb::Roadmap* root = fb::GetRoadmap(bytes.data());
    Roadmap rm;
    readFootprintTable(root->footprint(), &rm.footprint);
    if (const fb::RoadmapOptions* o = root->options()) {
        rm.options.min_clearance = o->min_clearance();
        rm.options.epsilon = o->epsilon();
        rm.options.merge_chains = o->merge_chains();
    }
    rm.options_hash = root->options_hash();
    rm.footprint.input_hash = root->input_hash();
    if (root->vertices())
        for (const fb::RoadmapVertex* v : *root->vertices()) {
            RoadmapVertex x;
            x.position = {v->x(), v->y(), v->z()};
            x.clearance = v->clearance();
            x.layer = v->layer();
            rm.vertices.push_back(x);
        }
    const auto* sides = root->point_sides(); // absent in older assets (loadRoadmap checked its size)
    if (root->edges())
        for (const fb::RoadmapEdge* e : *root->edges()) {
            RoadmapEdge x;
            x.a = e->a(), x.b = e->b();
            for (uint32_t k = 0; k < e->point_count(); ++k) {
                const fb::Vec2* p = root->points()->Get(e->first_point() + k);
                x.points.push_back({p->x(), p->y()});
                if (!sides) continue;
                const fb::PointSides* s = sides->Get(e->first_point() + k);
                x.sides.push_back({{s->left_x(), s->left_y()}, {s->right_x(), s->right_y()}});
            }
            x.min_clearance = e->min_clearance();
            x.site = static_cast<ClearanceSite>(e->site());
            x.portal = e->portal();
            x.site_p0 = {e->site_x0(), e->site_y0()}, x.site_p1 = {e->site_x1(), e->site_y1()};
            x.left_a = {e->left_ax(), e->left_ay()}, x.right_a = {e->right_ax(), e->right_ay()};
            x.left_b = {e->left_bx(), e->left_by()}, x.right_b = {e->right_bx(), e->right_by()};
            readCorridor(*root, uint32_t(rm.edges.size()), &x);
            rm.edges.push_back(std::move(x));
        }
    if (root->blends())
        for (const fb::Blend* b : *root->blends()) {
            Blend x;
            x.vertex = b->vertex(), x.edge_in = b->edge_in(), x.edge_out = b->edge_out();
            x.center = {b->center_x(), b->center_y()};
            x.radius = b->radius();
            x.p_in = {b->in_x(), b->in_y()}, x.p_out = {b->out_x(), b->out_y()};
            x.ccw = b->ccw();
            x.min_clearance = b->min_clearance();
            rm.blends.push_back(x);
        }
    if (const fb::RoadmapTile* t = root->tile()) {
        rm.tile.size = t->size(), rm.tile.margin = t->margin(), rm.tile.i = t->i(), rm.tile.j = t->j();
        if (t->border_vertices())
            rm.tile.border_vertices.assign(t->border_vertices()->begin(), t->border_vertices()->end());
        rm.tile.margin_reached = t->margin_reached();
        for (uint32_t v : rm.tile.border_vertices)
            if (v >= rm.vertices.size())
                return {ErrorCode::ReadFailed, name + ": tile border vertex out of range"};
    }
    *out = std::move(rm);
    return {};
}

Error readRoadmapFile(const std::string& path, Roadmap* out) {
    std::vector<uint8_t> bytes;
    if (Error e = readAssetFile(path, &bytes)) return e;
    return readRoadmapBytes(bytes, path, out);
}

} // namespace clearway::bake
