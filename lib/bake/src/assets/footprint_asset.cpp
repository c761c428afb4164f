// Footprint <-> FlatBuffers. The runtime's loader verifies what this writes.
#include <clearway/bake.h>
#include <clearway/runtime.h>
#include "assets/asset_internal.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sys/stat.h>

namespace clearway::bake {

namespace fb = clearway::schema;

namespace {

// The layer's surface triangles by grid cell (schemas/footprint.fbs, SurfaceGrid), from the float
// coordinates the asset stores. Cells about the mean triangle size, at most ~4 per triangle.
flatbuffers::Offset<fb::SurfaceGrid> writeSurfaceGrid(flatbuffers::FlatBufferBuilder& builder,
                                                      const std::vector<fb::Vec3>& vertices,
                                                      const std::vector<fb::Triangle>& triangles) {
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (const fb::Vec3& v : vertices)
        x0 = std::min(x0, double(v.x())), y0 = std::min(y0, double(v.y())), x1 = std::max(x1, double(v.x())),
        y1 = std::max(y1, double(v.y()));
    if (triangles.empty() || !(x1 >= x0) || !(y1 >= y0)) return 0;
    const double w = x1 - x0, h = y1 - y0;
    double cell = std::max(std::sqrt(std::max(w * h, 1e-6) / double(triangles.size())), 1e-3);
    while ((std::floor(w / cell) + 1) * (std::floor(h / cell) + 1) > 4.0 * double(triangles.size()) + 64)
        cell *= 1.25;
    const uint32_t nx = uint32_t(std::floor(w / cell)) + 1, ny = uint32_t(std::floor(h / cell)) + 1;
    auto cellOf = [cell](double v, double lo, uint32_t n) {
        const double f = std::floor((v - lo) / cell);
        return f <= 0 ? 0u : (f >= double(n - 1) ? n - 1 : uint32_t(f));
    };
    // A hair wider than each bounding box, so the runtime's own floor() can only find a triangle
    // in a cell that lists it.
    const double pad = 1e-9 * std::max(1.0, std::max(w, h));
    std::vector<std::vector<uint32_t>> cells(size_t(nx) * ny);
    for (uint32_t t = 0; t < triangles.size(); ++t) {
        const fb::Vec3* corner[3] = {&vertices[triangles[t].a()], &vertices[triangles[t].b()],
                                     &vertices[triangles[t].c()]};
        double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
        for (const fb::Vec3* v : corner)
            bx0 = std::min(bx0, double(v->x())), by0 = std::min(by0, double(v->y())),
            bx1 = std::max(bx1, double(v->x())), by1 = std::max(by1, double(v->y()));
        for (uint32_t j = cellOf(by0 - pad, y0, ny); j <= cellOf(by1 + pad, y0, ny); ++j)
            for (uint32_t i = cellOf(bx0 - pad, x0, nx); i <= cellOf(bx1 + pad, x0, nx); ++i)
                cells[size_t(j) * nx + i].push_back(t);
    }
    std::vector<uint32_t> start{0}, items;
    for (const auto& c : cells) {
        items.insert(items.end(), c.begin(), c.end());
        start.push_back(uint32_t(items.size()));
    }
    return fb::CreateSurfaceGrid(builder, x0, y0, cell, nx, ny, builder.CreateVector(start),
                                 builder.CreateVector(items));
}

} // namespace

flatbuffers::Offset<fb::Footprint> writeFootprintTable(flatbuffers::FlatBufferBuilder& builder,
                                                       const Footprint& footprint) {
    std::vector<flatbuffers::Offset<fb::Layer>> layers;
    for (const FootprintLayer& layer : footprint.layers) {
        std::vector<fb::Vec2> vertices;
        std::vector<fb::Ring> rings;
        std::vector<fb::Polygon> polygons;
        auto addRing = [&](const Ring& ring) {
            rings.emplace_back(uint32_t(vertices.size()), uint32_t(ring.size()));
            for (const Vec2& p : ring)
                vertices.emplace_back(float(p.x), float(p.y));
        };
        for (const PolygonWithHoles& polygon : layer.polygons) {
            polygons.emplace_back(uint32_t(rings.size()), uint32_t(1 + polygon.holes.size()));
            addRing(polygon.outer);
            for (const Ring& hole : polygon.holes)
                addRing(hole);
        }
        std::vector<fb::Vec3> surface;
        for (const Vec3& v : layer.surface_vertices)
            surface.emplace_back(float(v.x), float(v.y), float(v.z));
        std::vector<fb::Triangle> triangles;
        for (const SurfaceTriangle& t : layer.surface_triangles)
            triangles.emplace_back(t.a, t.b, t.c);
        const auto grid = writeSurfaceGrid(builder, surface, triangles);
        layers.push_back(
            fb::CreateLayer(builder, builder.CreateVectorOfStructs(vertices),
                            builder.CreateVectorOfStructs(rings), builder.CreateVectorOfStructs(polygons),
                            builder.CreateVectorOfStructs(surface), builder.CreateVectorOfStructs(triangles),
                            layer.area, float(layer.height_min), float(layer.height_max), grid));
    }
    std::vector<fb::Connection> connections;
    for (const Connection& c : footprint.connections)
        connections.emplace_back(c.layer_a, c.layer_b, float(c.p0.x), float(c.p0.y), float(c.p1.x),
                                 float(c.p1.y), float(c.z_a0), float(c.z_a1), float(c.z_b0), float(c.z_b1));
    const ImportOptions& o = footprint.options;
    const auto options =
        fb::CreateImportOptions(builder, o.up == UpAxis::Y ? fb::UpAxis::Y : fb::UpAxis::Z, o.scale,
                                o.agent_height, o.max_slope_deg, o.max_step, o.epsilon);
    const fb::Vec3d origin(footprint.origin.x, footprint.origin.y, footprint.origin.z);
    const auto root = fb::CreateFootprint(
        builder, kFootprintFormatVersion, builder.CreateString(bakerVersion()), footprint.input_hash,
        footprint.options_hash, options, &origin, footprint.grid_spacing, builder.CreateVector(layers),
        builder.CreateVectorOfStructs(connections), builder.CreateString(footprint.source_name));
    return root;
}

size_t footprintTableSize(const Footprint& footprint) {
    flatbuffers::FlatBufferBuilder builder(1 << 16);
    builder.ForceDefaults(true);
    writeFootprintTable(builder, footprint);
    return builder.GetSize();
}

std::vector<uint8_t> serializeFootprint(const Footprint& footprint) {
    flatbuffers::FlatBufferBuilder builder(1 << 16);
    // Explicit values for every field: a reader never depends on schema defaults changing.
    builder.ForceDefaults(true);
    const auto root = writeFootprintTable(builder, footprint);
    fb::FinishFootprintBuffer(builder, root);
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

Error readAssetFile(const std::string& path, std::vector<uint8_t>* out) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return {ErrorCode::FileNotFound, path + ": no such file"};
    std::ifstream stream(path, std::ios::binary);
    if (!stream) return {ErrorCode::ReadFailed, path + ": cannot open file for reading"};
    out->assign(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
    return {};
}

Error readFootprintFile(const std::string& path, Footprint* out) {
    std::vector<uint8_t> bytes;
    if (Error e = readAssetFile(path, &bytes)) return e;
    return readFootprintBytes(bytes, path, out);
}

Error readFootprintBytes(const std::vector<uint8_t>& bytes, const std::string& name, Footprint* out) {
    FootprintView view;
    const Status status = loadFootprint(bytes.data(), bytes.size(), &view);
    if (status != Status::Ok)
        return {ErrorCode::ReadFailed, name + ": not a valid footprint asset: " + statusString(status)};
    readFootprintTable(fb::GetFootprint(bytes.data()), out);
    return {};
}

void readFootprintTable(const fb::Footprint* root, Footprint* out) {
    Footprint fp;
    if (const fb::ImportOptions* o = root->options()) {
        fp.options.up = o->up_axis() == fb::UpAxis::Y ? UpAxis::Y : UpAxis::Z;
        fp.options.scale = o->scale();
        fp.options.agent_height = o->agent_height();
        fp.options.max_slope_deg = o->max_slope_deg();
        fp.options.max_step = o->max_step();
        fp.options.epsilon = o->epsilon();
    }
    if (root->origin()) fp.origin = {root->origin()->x(), root->origin()->y(), root->origin()->z()};
    fp.grid_spacing = root->grid_spacing();
    fp.input_hash = root->input_hash();
    fp.options_hash = root->options_hash();
    if (root->source_name()) fp.source_name = root->source_name()->str();
    if (root->layers())
        for (const fb::Layer* layer : *root->layers()) {
            FootprintLayer out_layer;
            out_layer.area = layer->area();
            out_layer.height_min = layer->height_min();
            out_layer.height_max = layer->height_max();
            auto ring = [&](uint32_t r) {
                const fb::Ring* ref = layer->rings()->Get(r);
                Ring points;
                for (uint32_t v = 0; v < ref->vertex_count(); ++v) {
                    const fb::Vec2* p = layer->boundary_vertices()->Get(ref->first_vertex() + v);
                    points.push_back({p->x(), p->y()});
                }
                return points;
            };
            if (layer->polygons())
                for (const fb::Polygon* polygon : *layer->polygons()) {
                    PolygonWithHoles pwh;
                    pwh.outer = ring(polygon->first_ring());
                    for (uint32_t h = 1; h < polygon->ring_count(); ++h)
                        pwh.holes.push_back(ring(polygon->first_ring() + h));
                    out_layer.polygons.push_back(std::move(pwh));
                }
            if (layer->surface_vertices())
                for (const fb::Vec3* v : *layer->surface_vertices())
                    out_layer.surface_vertices.push_back({v->x(), v->y(), v->z()});
            if (layer->surface_triangles())
                for (const fb::Triangle* t : *layer->surface_triangles())
                    out_layer.surface_triangles.push_back({t->a(), t->b(), t->c()});
            fp.layers.push_back(std::move(out_layer));
        }
    if (root->connections())
        for (const fb::Connection* c : *root->connections()) {
            Connection conn;
            conn.layer_a = c->layer_a();
            conn.layer_b = c->layer_b();
            conn.p0 = {c->x0(), c->y0()};
            conn.p1 = {c->x1(), c->y1()};
            conn.z_a0 = c->z_a0(), conn.z_a1 = c->z_a1(), conn.z_b0 = c->z_b0(), conn.z_b1 = c->z_b1();
            fp.connections.push_back(conn);
        }
    *out = std::move(fp);
}

} // namespace clearway::bake
