// Refuses OFF, PLY, binary STL and binary glTF inputs whose header declares more vertices, faces,
// facets or chunk bytes than the bytes after it can hold, before Assimp allocates for the declared
// counts. Reads the header only.
#include "import/import_internal.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <strings.h>
#include <sstream>
#include <vector>

namespace clearway::bake::detail {

namespace {

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t saturatingMultiply(uint64_t a, uint64_t b) {
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

// The leading decimal digits of `text` (0 when there are none), saturating where Assimp's
// strtoul10 wraps: a count that wrapped still declares more than any file holds.
uint64_t leadingNumber(const char* text, const char* end, const char** after = nullptr) {
    uint64_t value = 0;
    for (; text < end && *text >= '0' && *text <= '9'; ++text)
        value = saturatingAdd(saturatingMultiply(value, 10), uint64_t(*text - '0'));
    if (after) *after = text;
    return value;
}

// One kind of element a header declares and the fewest bytes one of them can take.
struct DeclaredElements {
    std::string what; // "vertices", "element vertex", ...
    uint64_t count = 0;
    uint64_t min_bytes = 0;
};

// What a header declares: the elements and the byte offset where their data starts. Empty when the
// header is not one this check reads (another format, cut off, or malformed: Assimp decides then).
struct DeclaredLayout {
    std::vector<DeclaredElements> elements;
    uint64_t data_offset = 0;
    // Text formats: the last line needs no line end, so one byte less.
    bool text = false;
    // A PLY header without its end_header line in the bytes read: Assimp 5.2 never returns from it
    // (the import fuzzer; a 60-byte file hangs cw-import).
    bool unterminated = false;
};

// ---------------------------------------------------------------------------------------------
// OFF, read the way Assimp 5.2's OFFImporter reads it: an optional [ST][C][N][4][n]OFF keyword
// (it may be missing), the dimension for nOFF, then "vertices faces edges"; '#' starts a comment.

bool isOffBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

const char* nextOffToken(const char* p, const char* end) {
    for (;;) {
        while (p < end && isOffBlank(*p))
            ++p;
        if (p == end || *p != '#') return p;
        while (p < end && *p != '\n' && *p != '\r')
            ++p;
    }
}

bool startsWith(const char* p, const char* end, const char* prefix) {
    const size_t n = std::strlen(prefix);
    return size_t(end - p) >= n && std::memcmp(p, prefix, n) == 0;
}

DeclaredLayout offLayout(const char* head, const char* end) {
    const char* p = nextOffToken(head, end);
    // Numbers on each vertex line: coordinates, homogeneous w, normal, colour (at least one
    // channel), texture coordinates.
    uint64_t numbers = 3;
    bool homogeneous = false, has_dimension = false;
    if (startsWith(p, end, "ST")) numbers += 2, p += 2;
    if (startsWith(p, end, "C")) numbers += 1, p += 1;
    if (startsWith(p, end, "N")) numbers += 3, p += 1;
    if (startsWith(p, end, "4")) homogeneous = true, p += 1;
    if (startsWith(p, end, "n")) has_dimension = true, p += 1;
    if (startsWith(p, end, "OFF")) {
        p = nextOffToken(p + 3, end);
    } else {
        homogeneous = false; // a header-less file: those characters were numbers
        p = nextOffToken(p, end);
    }
    if (has_dimension) {
        const uint64_t dimensions = leadingNumber(p, end, &p);
        if (dimensions > 3) return {}; // Assimp refuses it
        numbers = numbers - 3 + dimensions;
        p = nextOffToken(p, end);
    }
    if (homogeneous) numbers += 1;
    if (p == end || !std::isdigit(static_cast<unsigned char>(*p))) return {};
    const uint64_t vertices = leadingNumber(p, end, &p);
    p = nextOffToken(p, end);
    if (p == end) return {}; // the header goes on past the bytes read
    const uint64_t faces = leadingNumber(p, end, &p);
    // A vertex line holds each number and a separator; a face line at least its vertex count and
    // one index ("1 0\n").
    return {{{"vertices", vertices, std::max<uint64_t>(2 * numbers, 2)}, {"faces", faces, 4}},
            uint64_t(p - head),
            true};
}

// ---------------------------------------------------------------------------------------------
// PLY: "element <name> <count>" lines, each followed by its "property <type> <name>" and
// "property list <count type> <item type> <name>" lines, up to "end_header".

// Bytes of one value of a PLY scalar type; 0 for a type Assimp does not know (it ignores that
// property and every later one of the element).
uint64_t plyTypeBytes(const std::string& type) {
    static const std::pair<const char*, uint64_t> kTypes[] = {
        {"char", 1},   {"int8", 1},    {"uchar", 1},  {"uint8", 1},   {"short", 2},   {"int16", 2},
        {"ushort", 2}, {"uint16", 2},  {"int", 4},    {"int32", 4},   {"uint", 4},    {"uint32", 4},
        {"float", 4},  {"float32", 4}, {"double", 8}, {"float64", 8}, {"double64", 8}};
    for (const auto& [name, bytes] : kTypes)
        if (type == name) return bytes;
    return 0;
}

// The fewest bytes one element takes given its property line (`words` after "property"), added
// to *min_bytes. False for a type Assimp does not know.
bool addPlyProperty(const std::vector<std::string>& words, bool binary, uint64_t* min_bytes) {
    const bool list = !words.empty() && words[0] == "list";
    // A list holds at least its count (an empty list); in text every value is a digit and a separator.
    const uint64_t bytes = plyTypeBytes(words.size() > size_t(list) ? words[list] : std::string());
    if (bytes == 0 || (list && (words.size() < 3 || plyTypeBytes(words[2]) == 0))) return false;
    *min_bytes += binary ? bytes : 2;
    return true;
}

std::vector<std::string> wordsOf(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string word; in >> word;)
        words.push_back(word);
    return words;
}

// A "comment" line between property lines ends the element's property list in Assimp 5.2 (later
// properties are dropped), so it is kept as an element without instances.
uint64_t plyElementCount(const std::vector<std::string>& words) {
    if (words[0] != "element" || words.size() < 3) return 0;
    return leadingNumber(words[2].data(), words[2].data() + words[2].size());
}

DeclaredLayout plyLayout(const char* head, const char* end) {
    DeclaredLayout layout;
    bool binary = false, format_known = false, properties_known = false;
    DeclaredLayout unterminated;
    unterminated.unterminated = true;
    for (const char* p = head; p < end;) {
        const char* line_end = std::find(p, end, '\n');
        if (line_end == end) return unterminated; // the header goes on past the bytes read
        const std::vector<std::string> words = wordsOf(std::string(p, line_end));
        p = line_end + 1;
        if (words.empty()) continue;
        if (words[0] == "format" && words.size() > 1) {
            format_known =
                words[1] == "ascii" || words[1] == "binary_little_endian" || words[1] == "binary_big_endian";
            binary = words[1] != "ascii";
        } else if (words[0] == "element" || words[0] == "comment") {
            layout.elements.push_back(
                {(words.size() > 1 ? words[1] : "") + " elements", plyElementCount(words), 0});
            properties_known = true;
        } else if (words[0] == "property" && !layout.elements.empty() && properties_known) {
            properties_known =
                addPlyProperty({words.begin() + 1, words.end()}, binary, &layout.elements.back().min_bytes);
        } else if (words[0] == "end_header") {
            if (!format_known) return {};
            // Even an element without properties costs Assimp memory per instance (and a line in text).
            for (DeclaredElements& elements : layout.elements)
                elements.min_bytes = std::max<uint64_t>(elements.min_bytes, 1);
            layout.data_offset = uint64_t(p - head);
            layout.text = !binary;
            return layout;
        }
    }
    return unterminated;
}

// ---------------------------------------------------------------------------------------------
// Binary STL: an 80-byte header, a uint32 facet count, 50 bytes per facet. Assimp 5.2 takes the
// file as binary when 84 + 50 * count equals the size in 32-bit arithmetic, so a count that wraps
// around passes its own size check; a file that starts with "solid" and does not match is ASCII.
DeclaredLayout stlLayout(const char* head, size_t head_size, uint64_t size) {
    if (size < 84 || head_size < 84) return {};
    uint32_t facets = 0;
    std::memcpy(&facets, head + 80, sizeof facets); // little endian, as the format and the machine
    const bool assimp_reads_binary = uint32_t(facets * 50u + 84u) == size;
    const char* text = head;
    while (text < head + head_size && isOffBlank(*text))
        ++text;
    if (!assimp_reads_binary && startsWith(text, head + head_size, "solid")) return {};
    return {{{"facets", facets, 50}}, 84, false};
}

// Binary glTF (GLB): a 12-byte header ("glTF", version, total length), then chunks, each an 8-byte
// header (length, type) and its bytes. Assimp 5.2 allocates the declared lengths before reading
// them: a mutated length asks for gigabytes (the import fuzzer, 2 KB files).
DeclaredLayout glbLayout(const char* head, size_t head_size) {
    if (head_size < 20 || std::memcmp(head, "glTF", 4) != 0) return {};
    uint32_t total = 0, first_chunk = 0; // little endian, as the format and the machine
    std::memcpy(&total, head + 8, sizeof total);
    std::memcpy(&first_chunk, head + 12, sizeof first_chunk);
    const uint64_t after_headers = std::max<uint64_t>(first_chunk, total > 20 ? total - 20 : 0);
    return {{{"bytes after its headers", after_headers, 1}}, 20, false};
}

std::string extensionOf(const std::string& file_name) {
    const size_t slash = file_name.find_last_of("/\\");
    const size_t dot = file_name.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string extension = file_name.substr(dot + 1);
    for (char& c : extension)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return extension;
}

// The layout of the formats this check reads, picked as Assimp picks its importer: by extension,
// and by signature when Assimp knows no importer for the extension.
DeclaredLayout declaredLayout(const Assimp::Importer& importer, const std::string& file_name,
                              const char* head, size_t head_size, uint64_t size) {
    const std::string extension = extensionOf(file_name);
    const char* end = head + head_size;
    const bool by_signature = extension.empty() || !importer.IsExtensionSupported(extension.c_str());
    if (extension == "off" || (by_signature && head_size >= 3 && strncasecmp(head, "off", 3) == 0))
        return offLayout(head, end);
    if (extension == "ply" || (by_signature && startsWith(head, end, "ply") && head_size > 3 &&
                               (head[3] == '\n' || head[3] == '\r' || head[3] == ' ')))
        return plyLayout(head, end);
    if (extension == "stl") return stlLayout(head, head_size, size);
    if (extension == "glb" || extension == "gltf" || by_signature) return glbLayout(head, head_size);
    return {};
}

} // namespace

Error checkDeclaredCounts(const Assimp::Importer& importer, const std::string& file_name, const char* head,
                          size_t head_size, uint64_t size, const std::string& name) {
    const DeclaredLayout layout = declaredLayout(importer, file_name, head, head_size, size);
    if (layout.unterminated)
        return {
            ErrorCode::ReadFailed,
            name + ": cannot import mesh: the PLY header has no end_header line" +
                (head_size < size ? " in its first " + std::to_string(head_size) + " bytes" : std::string())};
    if (layout.elements.empty() || layout.data_offset > size) return {};
    uint64_t needed = 0;
    std::string declared;
    for (const DeclaredElements& elements : layout.elements) {
        if (elements.count == 0) continue;
        needed = saturatingAdd(needed, saturatingMultiply(elements.count, elements.min_bytes));
        declared += (declared.empty() ? "" : ", ") + std::to_string(elements.count) + " " + elements.what;
    }
    if (layout.text && needed > 0) needed -= 1;
    const uint64_t available = size - layout.data_offset;
    if (needed <= available) return {};
    return {ErrorCode::ReadFailed, name + ": cannot import mesh: the header declares " + declared +
                                       ", at least " + std::to_string(needed) + " bytes, but only " +
                                       std::to_string(available) + " bytes follow it"};
}

Error checkDeclaredCountsOfFile(const Assimp::Importer& importer, const std::string& path,
                                std::istream& stream, uint64_t size) {
    std::vector<char> head(size_t(std::min<uint64_t>(size, kDeclaredCountsHeadBytes)));
    stream.read(head.data(), std::streamsize(head.size()));
    const size_t head_size = size_t(stream.gcount());
    stream.clear();
    stream.seekg(0);
    return checkDeclaredCounts(importer, path, head.data(), head_size, size, path);
}

} // namespace clearway::bake::detail
