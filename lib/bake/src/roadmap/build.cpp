// buildRoadmap, footprint to roadmap: the per-layer medial axis and then the stages in order
// (canonical order, chain merging, layer joins, heights, blends); finishRoadmapGraph for tiles.
#include "core/parallel.h"
#include "roadmap/roadmap_internal.h"
#include "roadmap/roadmap_stages.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

namespace clearway::bake {

using namespace roadmap_detail;

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Medial axis and solid walls per layer, one task per layer into its own slot (each its own CGAL
// diagram). Appending the slots in layer order with offset indices gives exactly what building the
// layers one after another into one list gives. Counts the wall sites into stats->walls.
Error addLayerAxes(const Footprint& footprint, const RoadmapOptions& options, Roadmap* rm,
                   std::vector<Walls>* walls, RoadmapStats* stats) {
    const size_t layer_count = footprint.layers.size();
    struct LayerAxis {
        std::vector<RoadmapVertex> vertices;
        std::vector<RoadmapEdge> edges;
        std::vector<WallSegment> solid_walls;
        size_t sites = 0;
        Error error;
    };
    std::vector<LayerAxis> axes(layer_count);
    parallel::forEach(layer_count, options.threads, [&](size_t l) {
        LayerAxis& axis = axes[l];
        try {
            axis.error = medialAxisTakingWalls(layerWalls(footprint.layers[l]), footprint.layers[l].polygons,
                                               footprint.grid_spacing, options, uint32_t(l), &axis.vertices,
                                               &axis.edges, &axis.sites);
            if (!axis.error) axis.solid_walls = solidLayerWalls(footprint, uint32_t(l));
        } catch (const std::exception& e) {
            // The first failing layer is reported, whichever thread failed first.
            axis.error = {ErrorCode::Internal, std::string("geometry kernel failure: ") + e.what()};
        }
    });
    for (size_t l = 0; l < layer_count; ++l) {
        LayerAxis& axis = axes[l];
        if (axis.error) return {axis.error.code, footprint.source_name + ": " + axis.error.message};
        const uint32_t base = uint32_t(rm->vertices.size());
        for (RoadmapEdge& e : axis.edges)
            e.a += base, e.b += base;
        if (rm->edges.empty() && rm->vertices.empty()) {
            rm->vertices.swap(axis.vertices); // the first layer's lists as they are (no copy)
            rm->edges.swap(axis.edges);
        } else {
            rm->vertices.insert(rm->vertices.end(), axis.vertices.begin(), axis.vertices.end());
            rm->edges.insert(rm->edges.end(), std::make_move_iterator(axis.edges.begin()),
                             std::make_move_iterator(axis.edges.end()));
        }
        std::vector<RoadmapVertex>().swap(axis.vertices);
        std::vector<RoadmapEdge>().swap(axis.edges);
        stats->walls += axis.sites;
        walls->emplace_back(std::move(axis.solid_walls));
    }
    return {};
}

// The pages of the list's unused capacity go back to the system, the list staying where it is:
// shrink_to_fit would copy it (the edges after merging: 40 MiB at 100k walls) into pages faulted
// in afresh, beside the old list at the bake's peak. A later append writes into pages faulted in
// again (zeroed).
template <class T> void releaseUnusedCapacity(std::vector<T>& list) {
#ifdef __linux__
    const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    const uintptr_t used_end = reinterpret_cast<uintptr_t>(list.data() + list.size());
    const uintptr_t begin = (used_end + page - 1) & ~(page - 1);
    const uintptr_t end = reinterpret_cast<uintptr_t>(list.data() + list.capacity()) & ~(page - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
#else
    list.shrink_to_fit();
#endif
}

void countRoadmap(const Footprint& footprint, const Roadmap& rm, RoadmapStats* stats) {
    stats->layers = footprint.layers.size();
    stats->vertices = rm.vertices.size();
    stats->edges = rm.edges.size();
    for (const RoadmapEdge& e : rm.edges)
        stats->arcs += e.points.size() > 2;
    for (const Blend& b : rm.blends)
        stats->blends += b.radius > 0;
}

#ifdef __GLIBC__
// The edges' point lists were allocated by the medial axis among blocks the stages have freed
// since (merging freed many of the lists too): they pin pages that are mostly holes. Freed
// together and taken again in order, they fill the heap densely. `list`: points or sides.
template <class T> void repackEdgeLists(Roadmap& rm, std::vector<T> RoadmapEdge::*list) {
    std::vector<uint32_t> sizes(rm.edges.size());
    size_t count = 0;
    for (size_t e = 0; e < rm.edges.size(); ++e)
        sizes[e] = uint32_t((rm.edges[e].*list).size()), count += sizes[e];
    std::vector<T> all;
    all.reserve(count);
    for (RoadmapEdge& e : rm.edges) {
        all.insert(all.end(), (e.*list).begin(), (e.*list).end());
        std::vector<T>().swap(e.*list);
    }
    malloc_trim(0);
    const T* next = all.data();
    for (size_t e = 0; e < rm.edges.size(); ++e) {
        (rm.edges[e].*list).assign(next, next + sizes[e]);
        next += sizes[e];
    }
}
#endif

} // namespace

Error buildRoadmap(const Footprint& footprint, const RoadmapOptions& options, Roadmap* out,
                   RoadmapStats* stats, LogContext& log) {
    if (!(options.min_clearance >= 0) || !std::isfinite(options.min_clearance))
        return {ErrorCode::InvalidOption, "--min-clearance must be >= 0 metres"};
    if (!(options.epsilon > 0) || options.epsilon > 1)
        return {ErrorCode::InvalidOption, "--epsilon must be in (0, 1] metres"};
    try {
        Roadmap rm; // its footprint is copied last, into the holes the stages leave
        rm.options = options;
        RoadmapStats local;
        const auto voronoi_start = Clock::now();
        std::vector<Walls> walls;
        if (Error error = addLayerAxes(footprint, options, &rm, &walls, &local)) return error;
        local.seconds_voronoi = secondsSince(voronoi_start);
        const auto roadmap_start = Clock::now();
        // Per-step wall time, logged at debug level (cw-roadmap --verbose).
        auto step_start = roadmap_start;
        std::string timings;
        auto lap = [&](const char* step) {
            char text[64];
            std::snprintf(text, sizeof text, "%s %.3f s; ", step, secondsSince(step_start));
            timings += text;
            step_start = Clock::now();
        };
        // Canonical order before anything that visits vertices in order (chain merging).
        canonicalOrder(rm);
#ifdef __GLIBC__
        // The ordering's keys are freed: return their pages before merging allocates its own.
        malloc_trim(0);
#endif
        if (options.merge_chains) mergeChains(rm, walls);
#ifdef __GLIBC__
        // Hand the free pages the stages left in the heap back before the stages that follow
        // allocate their own.
        malloc_trim(0);
#endif
        // Merging leaves the medial axis's capacity behind (the vertices' also without merging).
        releaseUnusedCapacity(rm.edges);
        releaseUnusedCapacity(rm.vertices);
        lap("merge");
        joinLayers(rm, footprint, walls);
        lap("join");
        setSurfaceHeights(rm, footprint, options.threads);
        lap("heights");
        canonicalOrder(rm);
        addBlends(rm, walls);
        lap("blends");
        log.log(LogLevel::Debug, footprint.source_name + ": roadmap voronoi " +
                                     std::to_string(local.seconds_voronoi) + " s; " + timings);
        rm.options_hash = roadmapOptionsHash(footprint.options, options);
        local.seconds_roadmap = secondsSince(roadmap_start);
        countRoadmap(footprint, rm, &local);
        log.log(LogLevel::Debug, footprint.source_name + ": roadmap " + std::to_string(local.vertices) +
                                     " vertices, " + std::to_string(local.edges) + " edges, " +
                                     std::to_string(local.walls) + " walls");
#ifdef __GLIBC__
        repackEdgeLists(rm, &RoadmapEdge::points);
        repackEdgeLists(rm, &RoadmapEdge::sides);
#endif
        rm.footprint = footprint;
        *out = std::move(rm);
        if (stats) *stats = local;
#ifdef __GLIBC__
        // The stages' temporaries leave free pages inside the heap that glibc keeps resident;
        // return them, so whatever the caller builds next (the asset) does not stack on top.
        malloc_trim(0);
#endif
        return {};
    } catch (const std::exception& e) {
        return {ErrorCode::Internal, footprint.source_name + ": geometry kernel failure: " + e.what()};
    }
}

void finishRoadmapGraph(Roadmap& rm) {
    std::vector<Walls> walls;
    for (uint32_t l = 0; l < rm.footprint.layers.size(); ++l)
        walls.emplace_back(solidLayerWalls(rm.footprint, l));
    canonicalOrder(rm);
    if (rm.options.merge_chains) mergeChains(rm, walls);
    canonicalOrder(rm);
    rm.blends.clear();
    addBlends(rm, walls);
}

} // namespace clearway::bake
