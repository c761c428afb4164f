// cw-bench: clearway's benchmarks, next to Recast where Recast does the same job.
//
//   cw-bench recast-area MESH.obj --footprint MESH.cwfp [--cell-size 0.1] [--radius 0.6] [--json]
//   cw-bench bake [MESH...] [--boxes 1000,10000,100000] [--seed S] [--runs N] [--cell-size 0.3]
//                 [--max-step 0.9] [--json]
//   cw-bench query MESH... [--pairs 10000] [--seed 1] [--radius 0.6] [--cell-size 0.3] [--max-step 0.9]
//                  [--step 0.05] [--repeats 3] [--ray-length 20] [--json]
//
// recast-area: the walkable area clearway reports, eroded by the agent radius, next to the area of
// a Recast navmesh built for the same mesh and agent. Recast runs RecastDemo's "Solo Mesh"
// pipeline with its default settings except the cell size. Its area is measured on the detail mesh
// (triangles projected onto XZ) and on the polygon mesh. Why the numbers differ (the residue is
// what the comparison is for):
//  - Recast voxelises: a cell counts when a walkable triangle overlaps it, so open edges can gain
//    up to a cell; its climb is floor(0.9 / cellHeight 0.2) = 4 cells = 0.8 m.
//  - Before eroding, Recast removes the cells next to drops deeper than the climb (ledges) and a
//    wall's own cells, so axis-aligned edges erode by radius + one cell.
//  - It erodes by ceil(radius / cs) cells with a 2-3 chamfer distance, which overestimates
//    diagonal distances (by up to 6%): 45-degree walls erode by less than the radius.
//  - It drops regions under regionMinSize^2 cells and simplifies contours by up to edgeMaxError
//    cells; clearway keeps every piece, exact to its epsilon.
// The radius-0 Recast build separates the voxelisation/filter part from the erosion part.
//
// bake: CPU time (getrusage user + sys) of the whole bake, per stage, and asset bytes.
//  - Per mesh: clearway's cw-bake pipeline (bake::bakeLevel: mesh -> footprint -> roadmap ->
//    bytes; no file written) next to Recast's solo-mesh bake of the same OBJ (load + RecastDemo's
//    handleBuild with its defaults, Detour navmesh data included). Target: <= 0.5x Recast.
//  - Per generated box level (scenes::randomBoxesFootprint): buildRoadmap + serializeRoadmap next
//    to CGAL's bare Segment_Delaunay_graph_2 build on the same walls, and peak memory. Targets:
//    <= 1.3x the bare build, <= 1.5 KiB per wall segment.
// Every measurement runs in a fresh process (this executable re-run with the hidden `child`
// subcommand), so its peak RSS (ru_maxrss from wait4) is its own and no run warms the next.
// The library's stage clocks are wall time, which a busy machine inflates: stage CPU times come
// from a second pass through the same public steps (the total is pass 1, the real pipeline).
//
// query: clearway's findPath next to Detour on the same random start/goal pairs, at preferred
// clearance = radius and = 2x radius (the query benchmark). Both engines get the same triangles in
// the same local frame (the OBJ shifted by clearway's origin before the float conversion). A pair
// counts when both its points have clearance >= radius on their layer and lie on Detour's mesh,
// and both engines find a complete path; every rejected draw is counted by reason. Paths are
// measured with bake::measurePath against the solid walls (see runQueryMesh). Then raycast and
// moveAlongSurface next to Detour's raycast and moveAlongSurface, one ray from each pair's start
// (character_bench.cpp).
//
// Exit codes: 0 ok, 2 bad input, 3 Recast or a bake failed, 4 I/O (as clearway::bake::exitCodeFor).
// A missed target is reported ("miss"), not an error.
#include "cw_bench.h"

#include <algorithm>

int main(int argc, char** argv) {
    using namespace clearway::bench;
    CLI::App app{"clearway benchmarks, next to Recast where Recast does the same job.\n"
                 "Exit codes: 0 ok, 2 bad input, 3 Recast or bake failure, 4 I/O error."};
    app.require_subcommand(1);
    AreaArgs area;
    BenchArgs bench;
    QueryArgs query;
    ChildArgs child;
    CLI::App* area_cmd = addRecastAreaCommand(app, area);
    addBakeCommand(app, bench);
    CLI::App* query_cmd = addQueryCommand(app, query);
    CLI::App* child_cmd = addChildCommand(app, child);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }
    setupLogger();
    if (area_cmd->parsed()) return runRecastArea(area);
    if (child_cmd->parsed()) return runChild(child);
    if (query_cmd->parsed()) return runQuery(query);
    bench.boxes.erase(std::remove(bench.boxes.begin(), bench.boxes.end(), size_t(0)), bench.boxes.end());
    return runBake(bench);
}
