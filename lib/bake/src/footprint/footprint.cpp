// Exact walkable footprint of a triangle mesh: buildFootprint drives the stages, one file each.
//
// Stages (each a function over plain structs, declared in footprint_internal.h):
//  1. classify triangles (classify.cpp): walkable (up-facing, slope <= max) or obstacle
//     (everything else);
//  2. per walkable triangle T, blockers (blockers.cpp): the parts of proj(T) where some geometry
//     lies in the clearance slab above T. A walkable surface above T within agent height covers T
//     exactly (exact arithmetic, so a box top and the floor around it share their edge exactly);
//     an obstacle blocks where it enters the slab (step, height), inflated by kWallHalfWidth so
//     that zero-thickness walls still separate the two sides;
//  3. free piece = proj(T) minus blockers (pieces.cpp); components enclosed by a closed solid
//     (floor inside a thick wall) are dropped;
//  4. pieces adjacent in the ground plane with a height jump <= max step are linked (links.cpp);
//     pieces whose projections overlap conflict; layers grow greedily over links without
//     conflicts (layers.cpp);
//  5. per layer (boundaries.cpp): exact union, topology-preserving simplification within
//     epsilon, rounding onto a float-exact grid, and an exact check that no two boundary
//     segments cross;
//  6. links between layers become connections (portals) (connections.cpp).
#include "footprint/footprint_internal.h"

#include <chrono>
#include <cstdio>

namespace clearway::bake {

namespace {

using namespace footprint_internal;

// Per-stage wall time, logged at debug level (cw-import --verbose).
class StageTimer {
  public:
    void lap(const char* stage) {
        const auto now = std::chrono::steady_clock::now();
        char text[64];
        std::snprintf(text, sizeof text, "%s %.3f s; ", stage,
                      std::chrono::duration<double>(now - stage_start_).count());
        timings_ += text;
        stage_start_ = now;
    }
    const std::string& timings() const { return timings_; }

  private:
    std::chrono::steady_clock::time_point stage_start_ = std::chrono::steady_clock::now();
    std::string timings_;
};

// The footprint's identity: options, frame and source.
Footprint emptyFootprint(const Mesh& mesh, const ImportOptions& options, const MeshFrame& frame) {
    Footprint footprint;
    footprint.options = options;
    footprint.origin = frame.origin;
    footprint.grid_spacing = frame.grid_spacing;
    footprint.source_name = mesh.source_name;
    footprint.input_hash = mesh.source_hash;
    const std::string canonical = canonicalString(options);
    footprint.options_hash = fnv1a64(canonical.data(), canonical.size());
    return footprint;
}

Error runStages(const Mesh& mesh, const ImportOptions& options, const std::string& name, LogContext& log,
                Footprint* out) {
    MeshFrame frame;
    if (Error e = meshFrame(mesh, options, name, &frame)) return e;
    StageTimer timer;
    ClassifiedMesh classified;
    if (Error e = classifyTriangles(mesh, options, frame, name, log, &classified)) return e;
    std::vector<Piece> pieces;
    {
        const Grid tri_grid = triangleGrid(frame, classified); // the clearance stage's alone
        timer.lap("classify");
        if (Error e = freePieces(classified, tri_grid, options, name, log, &pieces)) return e;
    }
    timer.lap("clearance");
    const std::vector<Link> links = findLinks(pieces, classified.planes, options.max_step,
                                              groundGrid(frame, classified.cell), options.threads);
    timer.lap("links");
    Layering layering;
    {
        const std::vector<std::vector<PieceOverlap>> overlaps =
            findOverlaps(pieces, classified, groundGrid(frame, classified.cell), options, name, log);
        timer.lap("overlaps");
        layering = buildLayers(pieces, links, overlaps, classified.tris, name, log);
        timer.lap("layers");
    }
    // The later stages read planes, not triangles: a fine level's triangles are a good part of
    // its peak memory.
    std::vector<Tri>().swap(classified.tris);
    Footprint footprint = emptyFootprint(mesh, options, frame);
    if (Error e = layerBoundaries(pieces, links, layering, classified.planes, options, frame.grid_spacing,
                                  name, log, &footprint.layers))
        return e;
    timer.lap("boundaries");
    footprint.connections = buildConnections(pieces, links, layering.layer_of, classified.planes);
    timer.lap("connections");
    log.log(LogLevel::Debug, name + ": stage times: " + timer.timings());
    *out = std::move(footprint);
    return {};
}

} // namespace

Error buildFootprint(const Mesh& mesh, const ImportOptions& options, Footprint* out, LogContext& log) {
    if (Error e = validate(options)) return e;
    const std::string& name = mesh.source_name.empty() ? std::string("mesh") : mesh.source_name;
    if (mesh.triangleCount() == 0) return {ErrorCode::EmptyMesh, name + ": mesh has no triangles"};
    try {
        return runStages(mesh, options, name, log, out);
    } catch (const std::exception& e) {
        return {ErrorCode::Internal, name + ": geometry kernel failure: " + e.what()};
    }
}

FootprintStats statsOf(const Footprint& footprint) {
    FootprintStats s;
    s.layers = footprint.layers.size();
    s.connections = footprint.connections.size();
    for (const FootprintLayer& layer : footprint.layers) {
        s.polygons += layer.polygons.size();
        for (const PolygonWithHoles& p : layer.polygons) {
            s.holes += p.holes.size();
            s.vertices += p.outer.size();
            for (const Ring& h : p.holes)
                s.vertices += h.size();
        }
        s.walkable_area += layer.area;
    }
    return s;
}

} // namespace clearway::bake
