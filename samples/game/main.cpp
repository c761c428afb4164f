// samples/game: what a game does with a baked level, using only clearway::runtime and
// clearway::motion (no bake library, no exceptions needed, no allocation inside queries).
//
//   sample-game LEVEL.cwrm [FROM_X,Y,Z TO_X,Y,Z]
//
// 1. load the level asset (zero-copy, verified), 2. plan a path between two points, 3. fly a
// camera along it, 4. walk a group of 50 along it, printing what happened. Points are in the
// mesh's own coordinates; without them the sample picks two far-apart wide spots of the level.
#include <clearway/motion.h>
#include <clearway/runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace clearway;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Everything a level needs at run time. The game owns every byte: the asset and the scratch are
// allocated once when the level loads, and no query allocates afterwards.
struct Level {
    std::vector<uint64_t> asset; // the file's bytes; uint64_t keeps them 8-byte aligned (the loader needs it)
    RoadmapView view;            // points into `asset`, no copy
    FootprintInfo frame;         // origin and axes: world (mesh) <-> local (asset) coordinates
    std::vector<uint8_t> scratch_memory;
    PathScratch* scratch = nullptr; // A* state and the wall grid; one per thread that queries
};

bool loadLevel(const char* path, Level* level) {
    // A game would mmap the file or read it from its pak; any 8-byte aligned memory works.
    FILE* file = std::fopen(path, "rb");
    if (!file) {
        std::fprintf(stderr, "sample-game: error: %s: cannot open file\n", path);
        return false;
    }
    std::fseek(file, 0, SEEK_END);
    const long size = std::ftell(file);
    std::fseek(file, 0, SEEK_SET);
    level->asset.assign(size > 0 ? size_t(size) / 8 + 1 : 1, 0);
    const size_t read = size > 0 ? std::fread(level->asset.data(), 1, size_t(size), file) : 0;
    std::fclose(file);

    // loadRoadmap verifies every byte before anything reads it: a truncated, modded or corrupted
    // file gives a status, never a crash. The view then reads the bytes in place.
    const Status status = loadRoadmap(level->asset.data(), read, &level->view);
    if (status != Status::Ok) {
        std::fprintf(stderr, "sample-game: error: %s: %s\n", path, statusString(status));
        return false;
    }
    // The roadmap embeds the level's footprint (walls, floors); its info holds the coordinate frame.
    FootprintView footprint;
    roadmapFootprint(level->view, &footprint);
    footprintInfo(footprint, &level->frame);

    // Path queries need scratch memory: size it once, hand it over, keep it for the level's life.
    size_t bytes = 0;
    pathScratchSize(level->view, &bytes);
    level->scratch_memory.resize(bytes);
    return pathScratchInit(level->view, level->scratch_memory.data(), bytes, &level->scratch) == Status::Ok;
}

// Local (asset) coordinates -> the mesh's own coordinates, for printing.
Vec3d toWorld(const Level& level, Vec3d local) {
    return footprintLocalToWorld(level.frame, local);
}

bool parsePoint(const char* text, Vec3d* out) {
    char* end = nullptr;
    out->x = std::strtod(text, &end);
    if (*end != ',') return false;
    out->y = std::strtod(end + 1, &end);
    if (*end != ',') return false;
    out->z = std::strtod(end + 1, &end);
    return *end == '\0' && std::isfinite(out->x) && std::isfinite(out->y) && std::isfinite(out->z);
}

// No points given: from the widest roadmap vertex to the wide vertex (clearance >= 1 m, up to 256
// of them tried) whose path is longest, so the demo crosses the level, up stairs if there are any.
bool pickEnds(const Level& level, double radius, PathEndpoint* start, PathEndpoint* goal, PathSegment* path,
              uint32_t max_segments) {
    RoadmapInfo info;
    roadmapInfo(level.view, &info);
    RoadmapVertexInfo best{}, v{};
    std::vector<uint32_t> wide;
    for (uint32_t i = 0; i < info.vertex_count; ++i) {
        if (roadmapVertex(level.view, i, &v) != Status::Ok) continue;
        if (v.clearance > best.clearance) best = v;
        if (v.clearance >= 1.0) wide.push_back(i);
    }
    *start = {best.position.x, best.position.y, best.layer};
    double longest = 0;
    const size_t stride = wide.size() / 256 + 1;
    for (size_t k = 0; k < wide.size(); k += stride) {
        roadmapVertex(level.view, wide[k], &v);
        const PathEndpoint candidate{v.position.x, v.position.y, v.layer};
        uint32_t count = 0;
        if (findPath(level.view, level.scratch, *start, candidate, radius, INFINITY, path, &count,
                     max_segments) != Status::Ok)
            continue;
        const double length = pathTotalLength(path, count);
        if (length > longest) longest = length, *goal = candidate;
    }
    return longest > 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2 && argc != 4) {
        std::fprintf(stderr, "usage: sample-game LEVEL.cwrm [FROM_X,Y,Z TO_X,Y,Z]\n");
        return 2;
    }
    // ---- 1. Load once per level: the asset bytes, a view into them, the path scratch.
    Level level;
    if (!loadLevel(argv[1], &level)) return 2;
    RoadmapInfo info;
    roadmapInfo(level.view, &info);
    std::printf("level %s: %u layers, %u roadmap vertices, %u edges, scratch %zu bytes\n", argv[1],
                info.layer_count, info.vertex_count, info.edge_count, level.scratch_memory.size());

    // ---- 2. A path. The group's backbone is planned for twice a member's radius (room to pass); with
    // preferred clearance +infinity findPath keeps to the middle of every corridor (the medial
    // axis, blended), the most room a group or a camera can get. A lone agent would pass its own
    // radius as the preferred clearance and get the shortest smooth path instead.
    const double radius = 0.5;
    std::vector<PathSegment> path(4096); // output buffer: findPath never allocates
    uint32_t count = 0;
    PathEndpoint start{}, goal{};
    if (argc == 4) {
        Vec3d from, to;
        if (!parsePoint(argv[2], &from) || !parsePoint(argv[3], &to)) {
            std::fprintf(stderr, "sample-game: error: points are x,y,z (three numbers)\n");
            return 2;
        }
        // World -> local, then locatePoint finds the floor (layer) under each point: a floor up to
        // 0.4 m above the point (a step's height) still counts as the one it stands on.
        if (locatePoint(level.view, level.scratch, footprintWorldToLocal(level.frame, from), 0.4, &start) !=
                Status::Ok ||
            locatePoint(level.view, level.scratch, footprintWorldToLocal(level.frame, to), 0.4, &goal) !=
                Status::Ok) {
            std::fprintf(stderr, "sample-game: error: a point is not on the walkable area\n");
            return 2;
        }
    } else if (!pickEnds(level, radius, &start, &goal, path.data(), uint32_t(path.size()))) {
        std::fprintf(stderr, "sample-game: error: %s: no two wide spots are connected\n", argv[1]);
        return 1;
    }
    const Status found = findPath(level.view, level.scratch, start, goal, radius, INFINITY, path.data(),
                                  &count, uint32_t(path.size()));
    if (found != Status::Ok) { // NotFound: no way at this radius; BufferTooSmall: count says how many
        std::printf("no path: %s\n", statusString(found));
        return 1;
    }
    const double length = pathTotalLength(path.data(), count);
    uint32_t arcs = 0;
    for (uint32_t i = 0; i < count; ++i)
        arcs += path[i].type == PathSegmentType::Arc;
    // pathPoseAt gives the 3D point (height from the floor under it), heading and curvature at
    // any arc length: what an agent following the path samples every frame.
    PathPose a, b;
    pathPoseAt(level.view, path.data(), count, 0, &a);
    pathPoseAt(level.view, path.data(), count, length, &b);
    const Vec3d wa = toWorld(level, a.position), wb = toWorld(level, b.position);
    std::printf(
        "path: (%.2f, %.2f, %.2f) layer %u -> (%.2f, %.2f, %.2f) layer %u, %.2f m, %u segments (%u lines, "
        "%u arcs, tangent-continuous), radius %.2f\n",
        wa.x, wa.y, wa.z, start.layer, wb.x, wb.y, wb.z, goal.layer, length, count, count - arcs, arcs,
        radius);
    // The corridor: free space left and right of the path (what a steering or a crowd system uses).
    CorridorSample mid;
    pathCorridorAt(level.view, level.scratch, path.data(), count, length / 2, 50.0, &mid);
    std::printf("halfway: %.2f m free on the left, %.2f m on the right, clearance %.2f m\n", mid.left,
                mid.right, mid.clearance);

    // ---- 3. A camera move (Nieuwenhuisen et al. 2004 "Planning camera motions"). The speed diagram caps the speed
    // on every arc (sqrt(lateral accel * radius): tight turns are slow so nothing sweeps through
    // the view) and keeps acceleration and braking within bounds; built once per path into a
    // caller buffer. cameraPoseAt then gives the pose for any time, looking ~1 s ahead so the
    // view turns before the path does.
    const CameraSettings camera = cameraDefaults();
    std::vector<SpeedKnot> knots(speedDiagramMaxKnots(count));
    SpeedDiagram diagram;
    if (buildSpeedDiagram(path.data(), count, camera, knots.data(), uint32_t(knots.size()), &diagram) !=
        Status::Ok) {
        std::fprintf(stderr, "sample-game: error: speed diagram\n");
        return 1;
    }
    std::printf("camera: %.1f s for %.2f m (top speed %.1f m/s, %u speed knots)\n", diagram.duration,
                diagram.length, camera.max_speed, diagram.count);
    for (int k = 0; k <= 4; ++k) { // a game calls this every frame with its clock
        CameraPose pose;
        cameraPoseAt(level.view, path.data(), count, diagram, camera, diagram.duration * k / 4, &pose);
        const Vec3d eye = toWorld(level, pose.position);
        std::printf(
            "  t %5.1f s  s %6.2f m  %4.2f m/s  eye (%.2f, %.2f, %.2f)  yaw %6.1f deg  pitch %5.1f deg\n",
            pose.time, pose.s, pose.speed, eye.x, eye.y, eye.z, pose.yaw * 180 / kPi, pose.pitch * 180 / kPi);
    }

    // ---- 4. A group of 50 (Nieuwenhuisen et al. 2004 "Path planning for groups"). The corridor is sampled once per
    // path (clearance discs capped at the group width); each fixed step then moves every member
    // towards its attraction point, pushes members apart and makes leaders wait, without touching
    // the walls again and without allocating.
    GroupSettings group = groupDefaults();
    std::vector<GroupCorridorPoint> samples(groupCorridorPointCount(length, group.corridor_step));
    GroupCorridor corridor;
    if (buildGroupCorridor(level.view, level.scratch, path.data(), count, group, samples.data(),
                           uint32_t(samples.size()), &corridor) != Status::Ok) {
        std::fprintf(stderr, "sample-game: error: group corridor\n");
        return 1;
    }
    const uint32_t n = 50;
    const double r = 0.25;
    // The longitudinal spread bound must hold the whole group in the narrowest passage (members
    // abreast a diameter apart), else the leaders would wait for a tail that cannot come.
    double narrowest = INFINITY;
    for (uint32_t k = 0; k + 1 < corridor.count; ++k)
        narrowest = std::min(narrowest, corridor.points[k].radius);
    const double abreast = std::max(1.0, std::floor((narrowest - r) / r) + 1);
    group.max_longitudinal =
        std::max(group.max_longitudinal, std::ceil(n / abreast) * 2 * r * 1.2 + 2 * group.group_width);
    // Arrived: the whole group within its own length (the spread bound) of the goal; it cannot all
    // stand on the goal, and the tail of a crowd of 50 queues behind the members already there.
    group.arrive_distance = group.max_longitudinal;
    std::vector<GroupEntity> members(n, GroupEntity{});
    for (GroupEntity& e : members)
        e.radius = r;
    if (groupPlace(corridor, group, members.data(), n) != Status::Ok) {
        std::printf("group: 50 members of radius %.2f do not fit at the start\n", r);
        return 1;
    }
    std::printf(
        "group: %u members, radius %.2f m, corridor %u samples, width cap %.1f m, spread bound %.1f m\n", n,
        r, corridor.count, group.group_width, group.max_longitudinal);
    GroupStepInfo step_info{};
    double t = 0, widest_spread = 0;
    const double limit = 60 + 10 * length / group.max_speed; // generous: a crowd queues at doors
    bool all_arrived = false;
    for (uint32_t step = 1; t < limit; ++step) {
        groupStep(corridor, group, members.data(), n, &step_info); // one fixed dt for the whole group
        t = step * group.dt;
        widest_spread = std::max(widest_spread, step_info.max_progress - step_info.min_progress);
        if (step % uint32_t(10 / group.dt) == 0)
            std::printf("  t %5.1f s  progress %6.2f .. %6.2f m  arrived %u/%u\n", t, step_info.min_progress,
                        step_info.max_progress, step_info.arrived, n);
        if (step_info.arrived == n) {
            all_arrived = true;
            break;
        }
    }
    // How far the members stray from the backbone: distance to its corridor sample at their "along".
    double lateral = 0;
    for (const GroupEntity& e : members) {
        const uint32_t k = std::min(corridor.count - 1, uint32_t(std::lround(e.along / corridor.step)));
        lateral = std::max(lateral, std::hypot(e.position.x - corridor.points[k].position.x,
                                               e.position.y - corridor.points[k].position.y));
    }
    if (all_arrived)
        std::printf("group: all %u arrived (within %.1f m of the goal) after %.1f s; longitudinal spread at "
                    "most %.2f m (bound %.1f), "
                    "at most %.2f m from the backbone at the end\n",
                    n, group.arrive_distance, t, widest_spread, group.max_longitudinal, lateral);
    else
        std::printf("group: %u of %u arrived within %.0f s\n", step_info.arrived, n, limit);
    return all_arrived ? 0 : 1;
}
