// consumer LEVEL.cwrm: loads a baked roadmap with the installed runtime and prints the length of
// a path between the two roadmap vertices of layer 0 farthest apart (clearance >= 0.3 m).
#include <clearway/motion.h>
#include <clearway/runtime.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
    using namespace clearway;
    if (argc != 2) {
        std::fprintf(stderr, "usage: consumer LEVEL.cwrm\n");
        return 2;
    }
    std::ifstream file(argv[1], std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<uint64_t> aligned((bytes.size() + 7) / 8); // loaders read doubles in place
    std::memcpy(aligned.data(), bytes.data(), bytes.size());
    RoadmapView view;
    if (const Status s = loadRoadmap(aligned.data(), bytes.size(), &view); s != Status::Ok) {
        std::fprintf(stderr, "%s: %s\n", argv[1], statusString(s));
        return 1;
    }
    RoadmapInfo info;
    roadmapInfo(view, &info);
    const double radius = 0.3;
    std::vector<RoadmapVertexInfo> vertices;
    for (uint32_t i = 0; i < info.vertex_count; ++i) {
        RoadmapVertexInfo v;
        roadmapVertex(view, i, &v);
        if (v.layer == 0 && v.clearance >= radius) vertices.push_back(v);
    }
    double best = -1;
    RoadmapVertexInfo a{}, b{};
    for (const RoadmapVertexInfo& p : vertices)
        for (const RoadmapVertexInfo& q : vertices) {
            const double dx = p.position.x - q.position.x, dy = p.position.y - q.position.y;
            if (dx * dx + dy * dy > best) best = dx * dx + dy * dy, a = p, b = q;
        }
    size_t scratch_bytes = 0;
    pathScratchSize(view, &scratch_bytes);
    std::vector<unsigned char> memory(scratch_bytes);
    PathScratch* scratch = nullptr;
    pathScratchInit(view, memory.data(), memory.size(), &scratch);
    PathSegment segments[256];
    uint32_t count = 0;
    const Status s = findPath(view, scratch, {a.position.x, a.position.y, 0}, {b.position.x, b.position.y, 0},
                              radius, 0.0, segments, &count, 256);
    if (s != Status::Ok) {
        std::fprintf(stderr, "%s: findPath: %s\n", argv[1], statusString(s));
        return 1;
    }
    CurvePath turn{};
    shortestDubins(Pose2d{0, 0, 0}, Pose2d{0, 10, 3.14159265358979}, 5.0, &turn, nullptr); // motion links
    std::printf("%s: %u vertices, path of %u segments, length %.3f m (dubins U-turn %.3f m)\n", argv[1],
                info.vertex_count, count, pathTotalLength(segments, count), turn.length);
    return 0;
}
