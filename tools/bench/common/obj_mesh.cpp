#include "obj_mesh.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace clearway::bench {

bake::Error loadObj(const std::string& path, ObjMesh* out, bake::Vec3 offset) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {bake::ErrorCode::FileNotFound, path + ": cannot open"};
    std::string line;
    size_t line_no = 0;
    std::vector<int> face;
    while (std::getline(in, line)) {
        ++line_no;
        std::istringstream ss(line);
        std::string tag;
        if (!(ss >> tag)) continue;
        if (tag == "v") {
            double x, y, z;
            if (!(ss >> x >> y >> z))
                return {bake::ErrorCode::ReadFailed, path + ":" + std::to_string(line_no) + ": bad vertex"};
            if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z))
                return {bake::ErrorCode::NonFiniteVertex,
                        path + ":" + std::to_string(line_no) + ": non-finite vertex"};
            out->verts.insert(out->verts.end(),
                              {float(x - offset.x), float(y - offset.y), float(z - offset.z)});
        } else if (tag == "f") {
            face.clear();
            std::string token;
            while (ss >> token) {
                // Only the position index matters: it ends at the first '/'.
                char* end = nullptr;
                const long idx = std::strtol(token.c_str(), &end, 10);
                const long n = out->vertexCount();
                const long resolved = idx < 0 ? n + idx : idx - 1;
                if (end == token.c_str() || idx == 0 || resolved < 0 || resolved >= n)
                    return {bake::ErrorCode::ReadFailed,
                            path + ":" + std::to_string(line_no) + ": bad face index '" + token + "'"};
                face.push_back(static_cast<int>(resolved));
            }
            if (face.size() < 3)
                return {bake::ErrorCode::ReadFailed,
                        path + ":" + std::to_string(line_no) + ": face with < 3 vertices"};
            for (size_t i = 1; i + 1 < face.size(); ++i)
                out->tris.insert(out->tris.end(), {face[0], face[i], face[i + 1]});
        }
    }
    if (in.bad()) return {bake::ErrorCode::ReadFailed, path + ": read error"};
    if (out->tris.empty()) return {bake::ErrorCode::EmptyMesh, path + ": no faces"};
    return {};
}

} // namespace clearway::bench
