// Wavefront OBJ read by clearway itself rather than Assimp: coordinates are parsed to the nearest
// double (Assimp's ai_real is float, which loses a level's precision far from the origin), the
// import is several times faster, and every malformed line is an error naming FILE:LINE.
#include "import/import_internal.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <locale.h>

namespace clearway::bake::detail {

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\0';
}

// One logical line: a physical line without its line end, joined with the next while it ends in
// '\' (the OBJ continuation). `number` is the first physical line's.
struct Line {
    const char* begin = nullptr;
    const char* end = nullptr;
    size_t number = 0;
};

class LineReader {
  public:
    LineReader(const char* data, size_t size) : at_(data), end_(data + size) {
        if (size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0) at_ += 3; // UTF-8 byte order mark
    }

    bool next(Line* out) {
        if (at_ >= end_) return false;
        out->number = ++count_;
        const char* begin = at_;
        const char* stop = physicalLine();
        const char* backslash = continuation(begin, stop);
        if (!backslash) {
            out->begin = begin, out->end = stop;
            return true;
        }
        joined_.assign(begin, backslash); // continuations are rare: only they copy
        while (backslash && at_ < end_) {
            ++count_;
            begin = at_;
            stop = physicalLine();
            backslash = continuation(begin, stop);
            joined_ += ' ';
            joined_.append(begin, backslash ? backslash : stop);
        }
        out->begin = joined_.data(), out->end = joined_.data() + joined_.size();
        return true;
    }

  private:
    // Moves past the next line and its '\n'; returns the line's end (a '\r' before it is a blank).
    const char* physicalLine() {
        const char* newline = static_cast<const char*>(std::memchr(at_, '\n', size_t(end_ - at_)));
        const char* stop = newline ? newline : end_;
        at_ = newline ? newline + 1 : end_;
        return stop;
    }
    // The '\' that ends the line (blanks may follow), unless a comment holds it; else null.
    static const char* continuation(const char* begin, const char* stop) {
        while (stop > begin && isBlank(stop[-1])) --stop;
        if (stop == begin || stop[-1] != '\\') return nullptr;
        return std::memchr(begin, '#', size_t(stop - begin)) ? nullptr : stop - 1;
    }

    const char* at_;
    const char* end_;
    size_t count_ = 0;
    std::string joined_;
};

// The words of one line, up to a '#' comment.
class Words {
  public:
    explicit Words(const Line& line) : at_(line.begin), end_(line.end) {
        if (const void* hash = std::memchr(at_, '#', size_t(end_ - at_))) end_ = static_cast<const char*>(hash);
    }
    bool next(const char** begin, const char** end) {
        while (at_ < end_ && isBlank(*at_)) ++at_;
        if (at_ == end_) return false;
        *begin = at_;
        while (at_ < end_ && !isBlank(*at_)) ++at_;
        *end = at_;
        return true;
    }

  private:
    const char* at_;
    const char* end_;
};

std::string quoted(const char* begin, const char* end) {
    constexpr size_t kShown = 40;
    std::string text = "'";
    for (const char* c = begin; c < end && c < begin + kShown; ++c)
        text += (*c >= 0x20 && *c < 0x7f) ? *c : '?';
    return text + (end - begin > ptrdiff_t(kShown) ? "...'" : "'");
}

// A number the way from_chars reads it (correctly rounded), and a leading '+' as well. Beyond
// double's range it is infinite (the caller refuses it) or, below it, rounds to 0 as strtod does.
bool parseDouble(const char* begin, const char* end, double* out) {
    if (end - begin > 1 && *begin == '+' && begin[1] != '-') ++begin;
    const auto [stop, error] = std::from_chars(begin, end, *out);
    if (stop != end) return false;
    if (error == std::errc::result_out_of_range) {
        static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", locale_t(0));
        const std::string text(begin, end);
        *out = strtod_l(text.c_str(), nullptr, c_locale);
        return true;
    }
    return error == std::errc();
}

// Faces collected while reading; triangulated once every vertex is known (a face may name a
// vertex defined further down, which Assimp accepted).
struct ObjData {
    std::vector<Vec3> vertices;
    std::vector<uint32_t> corners;     // 0-based vertex numbers, every face's in a row
    std::vector<uint32_t> face_ends;   // into corners: where each face's run ends
    std::vector<uint32_t> face_lines;  // line number of each face, for messages
    uint64_t largest_index = 0;        // the largest 1-based vertex number a face used
    size_t largest_index_line = 0;
};

// More than any face a level needs; keeps a face's corner numbers within int.
constexpr size_t kMaxFaceCorners = size_t(1) << 20;

class ObjParser {
  public:
    ObjParser(const std::string& name, ObjData* data) : name_(name), data_(data) {}

    Error readLine(const Line& line) {
        line_ = line.number;
        Words words(line);
        const char *begin, *end;
        if (!words.next(&begin, &end)) return {};
        const size_t length = size_t(end - begin);
        if (length == 1 && *begin == 'v') return vertex(words);
        if (length == 1 && *begin == 'f') return face(words);
        return {}; // vt, vn, g, o, s, usemtl, mtllib, l, p, ...: nothing the walkable surface needs
    }

  private:
    Error fail(ErrorCode code, const std::string& problem) const {
        return {code, name_ + ":" + std::to_string(line_) + ": " + problem};
    }

    // v x y z, v x y z w (homogeneous: divided by w, as Assimp did) or v x y z r g b (a colour).
    Error vertex(Words& words) {
        double values[7];
        int count = 0;
        const char *begin, *end;
        while (words.next(&begin, &end)) {
            if (count == 7) return fail(ErrorCode::ReadFailed, "vertex has more than 6 numbers");
            if (!parseDouble(begin, end, &values[count]))
                return fail(ErrorCode::ReadFailed, "bad number " + quoted(begin, end) + " in vertex");
            if (!std::isfinite(values[count]))
                return fail(ErrorCode::NonFiniteVertex,
                            "vertex coordinate " + quoted(begin, end) + " is not a finite number");
            ++count;
        }
        if (count != 3 && count != 4 && count != 6)
            return fail(ErrorCode::ReadFailed, "vertex has " + std::to_string(count) +
                                                   " numbers: x y z, x y z w or x y z r g b expected");
        Vec3 p{values[0], values[1], values[2]};
        if (count == 4) {
            if (values[3] == 0) return fail(ErrorCode::ReadFailed, "vertex has w = 0 (x / w is undefined)");
            p = {p.x / values[3], p.y / values[3], p.z / values[3]};
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
                return fail(ErrorCode::NonFiniteVertex, "vertex x / w is not a finite number");
        }
        if (data_->vertices.size() >= UINT32_MAX - 1) return fail(ErrorCode::ReadFailed, "too many vertices");
        data_->vertices.push_back(p);
        return {};
    }

    // f v1 v2 v3 ...: each corner v, v/vt, v//vn or v/vt/vn; a negative v counts back from the
    // last vertex defined so far.
    Error face(Words& words) {
        const size_t first = data_->corners.size();
        const char *begin, *end;
        while (words.next(&begin, &end)) {
            const char* slash = static_cast<const char*>(std::memchr(begin, '/', size_t(end - begin)));
            const char* number_end = slash ? slash : end;
            int64_t index = 0;
            const auto [stop, error] = std::from_chars(begin, number_end, index);
            if (error != std::errc() || stop != number_end)
                return fail(ErrorCode::ReadFailed, "bad vertex index " + quoted(begin, end) + " in face");
            const uint64_t defined = data_->vertices.size();
            uint64_t resolved = 0; // 1-based
            if (index == 0) return fail(ErrorCode::ReadFailed, "vertex index 0 in face (OBJ counts from 1)");
            if (index < 0) {
                if (uint64_t(-(index + 1)) >= defined)
                    return fail(ErrorCode::ReadFailed, "relative vertex index " + std::to_string(index) +
                                                           " out of range: " + std::to_string(defined) +
                                                           " vertices defined before this line");
                resolved = defined - uint64_t(-(index + 1));
            } else {
                resolved = uint64_t(index);
                if (resolved >= UINT32_MAX)
                    return fail(ErrorCode::ReadFailed, "vertex index " + std::to_string(index) + " out of range");
                if (resolved > data_->largest_index) data_->largest_index = resolved, data_->largest_index_line = line_;
            }
            if (data_->corners.size() >= UINT32_MAX - 1) return fail(ErrorCode::ReadFailed, "too many face corners");
            data_->corners.push_back(uint32_t(resolved - 1));
        }
        const size_t count = data_->corners.size() - first;
        if (count > kMaxFaceCorners)
            return fail(ErrorCode::ReadFailed, "face has " + std::to_string(count) + " vertices, more than " +
                                                   std::to_string(kMaxFaceCorners) + " (split it on export)");
        if (count < 3)
            return fail(ErrorCode::ReadFailed,
                        "face has " + std::to_string(count) + " vertices: at least 3 needed");
        data_->face_ends.push_back(uint32_t(data_->corners.size()));
        data_->face_lines.push_back(uint32_t(std::min<size_t>(line_, UINT32_MAX)));
        return {};
    }

    const std::string& name_;
    ObjData* data_;
    size_t line_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Polygons split into triangles the way Assimp 5.2's Triangulate step split OBJ faces, in double:
// the same triangles, corners in the same order. A quad is fanned from its concave corner (corner 0
// if convex); a larger polygon is projected along its Newell normal and its ears are cut, which
// for a strictly convex one is a fan from the last corner, computed directly.

struct Point2 {
    double x, y;
    bool operator==(const Point2& o) const { return x == o.x && y == o.y; }
};

// Twice the signed area of (a, b, c): positive when counter-clockwise.
double orientation(const Point2& a, const Point2& b, const Point2& c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

bool strictlyInside(const Point2& a, const Point2& b, const Point2& c, const Point2& p) {
    return orientation(a, b, p) > 0 && orientation(b, c, p) > 0 && orientation(c, a, p) > 0;
}

Vec3 minus(const Vec3& a, const Vec3& b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}

Vec3 normalized(const Vec3& v) {
    const double length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    return {v.x / length, v.y / length, v.z / length};
}

double dot(const Vec3& a, const Vec3& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Corner (0..3) where the quad is concave (the angles at it, split by its diagonal, add up to more
// than pi), else 0.
int quadFanCorner(const Vec3* p) {
    constexpr double kPi = 3.14159265358979323846;
    for (int i = 0; i < 4; ++i) {
        const Vec3 left = normalized(minus(p[(i + 3) % 4], p[i]));
        const Vec3 diagonal = normalized(minus(p[(i + 2) % 4], p[i]));
        const Vec3 right = normalized(minus(p[(i + 1) % 4], p[i]));
        if (std::acos(dot(left, diagonal)) + std::acos(dot(right, diagonal)) > kPi) return i;
    }
    return 0;
}

// The polygon projected onto the coordinate plane its Newell normal is most upright to, oriented
// so that it winds counter-clockwise when seen along the normal.
void projectPolygon(const Vec3* p, int n, std::vector<Point2>* out) {
    Vec3 normal;
    for (int i = 0; i < n; ++i) {
        const Vec3 &here = p[(i + 1) % n], &before = p[i], &after = p[(i + 2) % n];
        normal.x += here.y * (after.z - before.z);
        normal.y += here.z * (after.x - before.x);
        normal.z += here.x * (after.y - before.y);
    }
    const double ax = std::abs(normal.x), ay = std::abs(normal.y), az = std::abs(normal.z);
    int a = 0, b = 1; // drop z
    double sign = normal.z;
    if (ax > ay) {
        if (ax > az) a = 1, b = 2, sign = normal.x;
    } else if (ay > az) {
        a = 2, b = 0, sign = normal.y;
    }
    if (sign < 0) std::swap(a, b);
    out->resize(size_t(n));
    for (int i = 0; i < n; ++i) {
        const double c[3] = {p[i].x, p[i].y, p[i].z};
        (*out)[size_t(i)] = {c[a], c[b]};
    }
}

// Every turn strictly to the left and the boundary winds once around.
bool strictlyConvex(const std::vector<Point2>& q) {
    const size_t n = q.size();
    double turning = 0;
    for (size_t i = 0; i < n; ++i) {
        const Point2 &a = q[(i + n - 1) % n], &b = q[i], &c = q[(i + 1) % n];
        const double cross = orientation(a, b, c);
        if (!(cross > 0)) return false;
        turning += std::atan2(cross, (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y));
    }
    return turning < 3 * 3.14159265358979323846;
}

// Assimp's ear cutting on the projected polygon `q`: corner triples appended to `out`. Spends one
// unit of *budget per point-in-ear test; false when it runs out (a huge non-convex face).
bool cutEars(const std::vector<Point2>& q, std::vector<int>* out, uint64_t* budget) {
    const int max = int(q.size());
    std::vector<char> done(q.size(), 0);
    int num = max, ear = 0, prev = max - 1, next = 0;
    while (num > 3) {
        int num_found = 0;
        for (ear = next;; prev = ear, ear = next) {
            for (next = ear + 1; done[size_t(next >= max ? next = 0 : next)]; ++next) {}
            if (next < ear && ++num_found == 2) break;
            const Point2 &p0 = q[size_t(prev)], &p1 = q[size_t(ear)], &p2 = q[size_t(next)];
            if (orientation(p0, p1, p2) < 0) continue; // a reflex corner is no ear
            if (*budget < uint64_t(max)) return false;
            *budget -= uint64_t(max);
            int other = 0;
            for (; other < max; ++other) {
                const Point2& v = q[size_t(other)];
                if (!(v == p0) && !(v == p1) && !(v == p2) && strictlyInside(p0, p1, p2, v)) break;
            }
            if (other == max) break;
        }
        // No ear (not a simple polygon): Assimp kept the triangles cut so far and dropped the rest.
        if (num_found == 2) return true;
        out->insert(out->end(), {prev, ear, next});
        done[size_t(ear)] = 1;
        --num;
    }
    for (int k = 0; k < max; ++k)
        if (!done[size_t(k)]) out->push_back(k);
    return true;
}

// Assimp's NGON encoding rotates a triangle whose first corner is the previous one's, so that
// consecutive triangles of one polygon do not read as one n-gon.
void rotateLikeNgonEncoding(std::vector<int>* corners) {
    int last_first = -1;
    for (size_t t = 0; t + 2 < corners->size(); t += 3) {
        int* c = corners->data() + t;
        if (c[0] == last_first) std::swap(c[0], c[2]), std::swap(c[1], c[2]);
        last_first = c[0];
    }
}


// Point-in-ear tests the ear cutting may spend on one file: about a second. Convex faces cost
// none; a level's non-convex faces take a few hundred each.
constexpr uint64_t kEarTestBudget = uint64_t(1) << 28;

class Triangulator {
  public:
    Triangulator(const ObjData& data, const std::string& name, std::vector<Vec3>* positions,
                 std::vector<uint32_t>* indices)
        : data_(data), name_(name), positions_(positions), indices_(indices),
          numbering_(data.vertices.size(), UINT32_MAX) {}

    Error face(size_t f) {
        const uint32_t* corner = data_.corners.data() + (f == 0 ? 0 : data_.face_ends[f - 1]);
        const int n = int(data_.face_ends[f] - (f == 0 ? 0 : data_.face_ends[f - 1]));
        points_.resize(size_t(n));
        for (int k = 0; k < n; ++k)
            points_[size_t(k)] = data_.vertices[corner[k]];
        triangle_corners_.clear();
        if (n == 3) {
            triangle_corners_ = {0, 1, 2};
        } else if (n == 4) {
            const int s = quadFanCorner(points_.data());
            triangle_corners_ = {s, (s + 1) % 4, (s + 2) % 4, s, (s + 2) % 4, (s + 3) % 4};
        } else {
            projectPolygon(points_.data(), n, &projected_);
            if (strictlyConvex(projected_)) {
                for (int k = 0; k + 3 < n; ++k)
                    triangle_corners_.insert(triangle_corners_.end(), {n - 1, k, k + 1});
                triangle_corners_.insert(triangle_corners_.end(), {n - 3, n - 2, n - 1});
            } else if (!cutEars(projected_, &triangle_corners_, &budget_)) {
                return {ErrorCode::ReadFailed,
                        name_ + ":" + std::to_string(data_.face_lines[f]) + ": face of " + std::to_string(n) +
                            " vertices is not convex, and the file's non-convex faces are too large to "
                            "triangulate: triangulate them on export"};
            }
            rotateLikeNgonEncoding(&triangle_corners_);
        }
        for (int k : triangle_corners_)
            indices_->push_back(number(corner[k]));
        return {};
    }

  private:
    // Vertices are numbered in the order faces first use them, as Assimp's vertex joining did;
    // vertices no face uses are left out.
    uint32_t number(uint32_t vertex) {
        uint32_t& n = numbering_[vertex];
        if (n == UINT32_MAX) n = uint32_t(positions_->size()), positions_->push_back(data_.vertices[vertex]);
        return n;
    }

    const ObjData& data_;
    const std::string& name_;
    std::vector<Vec3>* positions_;
    std::vector<uint32_t>* indices_;
    std::vector<uint32_t> numbering_;
    std::vector<Vec3> points_;
    std::vector<Point2> projected_;
    std::vector<int> triangle_corners_;
    uint64_t budget_ = kEarTestBudget;
};

} // namespace

Error readObj(const char* bytes, size_t size, const std::string& name, std::vector<Vec3>* positions,
              std::vector<uint32_t>* indices) {
    ObjData data;
    ObjParser parser(name, &data);
    LineReader lines(bytes, size);
    Line line;
    while (lines.next(&line))
        if (Error e = parser.readLine(line)) return e;
    if (data.largest_index > data.vertices.size())
        return {ErrorCode::ReadFailed, name + ":" + std::to_string(data.largest_index_line) + ": vertex index " +
                                           std::to_string(data.largest_index) + " out of range: the file has " +
                                           std::to_string(data.vertices.size()) + " vertices"};
    positions->clear();
    indices->clear();
    indices->reserve(3 * (data.corners.size() - 2 * data.face_ends.size()));
    Triangulator triangulator(data, name, positions, indices);
    for (size_t f = 0; f < data.face_ends.size(); ++f)
        if (Error e = triangulator.face(f)) return e;
    return {};
}

} // namespace clearway::bake::detail
