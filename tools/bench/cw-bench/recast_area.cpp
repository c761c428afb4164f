// cw-bench recast-area: the walkable area clearway reports, eroded by the agent radius, next to
// the area of a Recast navmesh built for the same mesh and agent (why they differ: main.cpp).
#include "cw_bench.h"
#include "recast_peer.h"

#include <clearway/preview/json_writer.h>
#include <clearway/tool_cli.h>

#include <chrono>
#include <cmath>
#include <cstdio>

namespace clearway::bench {

int runRecastArea(const AreaArgs& args) {
    RecastSettings settings;
    settings.cell_size = static_cast<float>(args.cell_size);
    settings.agent_radius = static_cast<float>(args.radius);
    const double cell_size = args.cell_size, radius = args.radius;
    const std::string& mesh_path = args.mesh_path;
    const std::string& footprint_path = args.footprint_path;

    ObjMesh mesh;
    if (bake::Error err = loadObj(mesh_path, &mesh)) {
        spdlog::error("{}", err.message);
        return bake::exitCodeFor(err);
    }

    // Load the footprint first: a bad asset should fail before the slow Recast build.
    std::optional<double> cw_area, cw_eroded, cw_seconds;
    size_t cw_layers = 0;
    if (!footprint_path.empty()) {
        bake::Footprint fp;
        if (bake::Error err = bake::readFootprintFile(footprint_path, &fp)) {
            spdlog::error("{}", err.message);
            return bake::exitCodeFor(err);
        }
        double area = 0;
        for (const bake::FootprintLayer& layer : fp.layers)
            area += layer.area;
        cw_area = area;
        cw_layers = fp.layers.size();
        const auto start = std::chrono::steady_clock::now();
        cw_eroded = bake::erodedArea(fp, radius);
        cw_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!std::isfinite(*cw_eroded)) spdlog::warn("{}: erosion failed (NaN)", footprint_path);
    }

    RecastResult rc, rc0;
    if (bake::Error err = buildRecast(mesh, settings, &rc)) {
        spdlog::error("{}: {}", mesh_path, err.message);
        return bake::exitCodeFor(err);
    }
    // Radius 0 separates the voxelisation/filter part of the difference from the erosion part.
    RecastSettings unEroded = settings;
    unEroded.agent_radius = 0;
    if (bake::Error err = buildRecast(mesh, unEroded, &rc0)) {
        spdlog::error("{}: {}", mesh_path, err.message);
        return bake::exitCodeFor(err);
    }

    std::optional<double> diff;
    if (cw_eroded && std::isfinite(*cw_eroded) && *cw_eroded > 0)
        diff = (rc.detail_area - *cw_eroded) / *cw_eroded * 100.0;

    if (args.json) {
        auto n = [](std::optional<double> v) { return cli::jsonFixed(v, 6); };
        std::printf(
            "{\"mesh\":%s,\"triangles\":%d,\"cell_size\":%s,\"radius\":%s,\"walkable_radius_cells\":%d,"
            "\"recast_detail_area\":%s,\"recast_poly_area\":%s,\"recast_polys\":%d,\"recast_seconds\":%s,"
            "\"recast_uneroded_area\":%s,"
            "\"clearway_layers\":%zu,\"clearway_area\":%s,\"clearway_eroded_area\":%s,"
            "\"clearway_erode_seconds\":%s,\"difference_percent\":%s}\n",
            preview::jsonString(mesh_path).c_str(), mesh.triangleCount(), n(cell_size).c_str(),
            n(radius).c_str(), rc.walkable_radius_cells, n(rc.detail_area).c_str(), n(rc.poly_area).c_str(),
            rc.polys, n(rc.seconds).c_str(), n(rc0.detail_area).c_str(), cw_layers, n(cw_area).c_str(),
            n(cw_eroded).c_str(), n(cw_seconds).c_str(), n(diff).c_str());
        return 0;
    }
    std::printf("mesh                     %s (%d triangles)\n", mesh_path.c_str(), mesh.triangleCount());
    std::printf("agent radius             %.3f m (Recast: %d cells of %.3f m)\n", radius,
                rc.walkable_radius_cells, cell_size);
    std::printf("recast detail area       %s m^2 (%d triangles)\n", show(rc.detail_area).c_str(),
                rc.detail_tris);
    std::printf("recast polymesh area     %s m^2 (%d polygons)\n", show(rc.poly_area).c_str(), rc.polys);
    std::printf("recast build             %s s (grid %d x %d)\n", show(rc.seconds).c_str(), rc.grid_w,
                rc.grid_h);
    std::printf("recast area, radius 0    %s m^2\n", show(rc0.detail_area).c_str());
    std::printf("clearway walkable area   %s m^2 (%zu layers)\n", show(cw_area).c_str(), cw_layers);
    std::printf("clearway eroded area     %s m^2\n", show(cw_eroded).c_str());
    std::printf("clearway erosion         %s s\n", show(cw_seconds).c_str());
    std::printf("recast vs eroded         %s %%\n", show(diff, "%+.2f").c_str());
    return 0;
}

} // namespace clearway::bench
