// Footprint <-> FlatBuffers. The runtime's loader verifies what this writes.
#include <clearway/bake.h>
#include <clearway/runtime.h>
#include "asset_internal.h"

#include <fstream>
#include <iterator>
#include <sys/stat.h>

namespace clearway::bake {

namespace fb = clearway::schema;

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
        layers.push_back(
            fb::CreateLayer(builder, builder.CreateVectorOfStructs(vertices),
                            builder.CreateVectorOfStructs(rings), builder.CreateVectorOfStructs(polygons),
                            builder.CreateVectorOfStructs(surface), builder.CreateVectorOfStructs(triangles),
                            layer.area, float(layer.height_min), float(layer.height_max)));
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

std::vector<uint8_t> serializeFootprint(const Footprint& footprint) {
    flatbuffers::FlatBufferBuilder builder(1 << 16);
    // Explicit values for every field: a reader never depends on schema defaults changing.
    builder.ForceDefaults(true);
    const auto root = writeFootprintTable(builder, footprint);
    fb::FinishFootprintBuffer(builder, root);
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

Error readFootprintFile(const std::string& path, Footprint* out) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return {ErrorCode::FileNotFound, path + ": no such file"};
    std::ifstream stream(path, std::ios::binary);
    if (!stream) return {ErrorCode::ReadFailed, path + ": cannot open file for reading"};
    // std::vector<uint8_t> storage is suitably aligned for the verifier (operator new alignment).
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(stream)),
                                     std::istreambuf_iterator<char>());
    return readFootprintBytes(bytes, path, out);
}

Error readFootprintBytes(const std::vector<uint8_t>& bytes, const std::string& name, Footprint* out) {
    FootprintView view;
    const Status status = loadFootprint(bytes.data(), bytes.size(), &view);
    if (status != Status::Ok)
        return {ErrorCode::ReadFailed, name + ": not a valid footprint asset: " + statusString(status)};
    const fb::Footprint* root = fb::GetFootprint(bytes.data());
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
    return {};
}

} // namespace clearway::bake
