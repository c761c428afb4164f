// Refuses glTF and binary glTF inputs with a strip, loop or fan primitive of too few vertices to
// make one element, before Assimp reads them: Assimp 5.2 subtracts from the vertex count without
// checking it (a triangle strip of 0 vertices asks for 2^32 - 2 faces, a 64 GB allocation).
// Reads the JSON only.
#include "import/import_internal.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>

namespace clearway::bake::detail {

namespace {

using nlohmann::json;

// The fewest vertices a primitive of this mode needs to make one element (0: any count is safe).
int fewestVertices(int mode) {
    switch (mode) {
    case 2: // LINE_LOOP
    case 3: // LINE_STRIP
        return 2;
    case 5: // TRIANGLE_STRIP
    case 6: // TRIANGLE_FAN
        return 3;
    default:
        return 0;
    }
}

const char* modeName(int mode) {
    switch (mode) {
    case 2: return "line loop";
    case 3: return "line strip";
    case 5: return "triangle strip";
    default: return "triangle fan";
    }
}

// The count of accessor `index`, or 0 when there is no such accessor or count.
uint64_t accessorCount(const json& gltf, const json& index) {
    if (!index.is_number_unsigned()) return 0;
    const json& accessors = gltf.contains("accessors") ? gltf["accessors"] : json();
    const uint64_t i = index.get<uint64_t>();
    if (!accessors.is_array() || i >= accessors.size()) return 0;
    const json& count = accessors[i].is_object() && accessors[i].contains("count") ? accessors[i]["count"] : json();
    return count.is_number_unsigned() ? count.get<uint64_t>() : 0;
}

Error checkJson(const char* text, size_t size, const std::string& name) {
    // Assimp's JSON reader does not validate UTF-8: neither may this one, or a name with a stray
    // byte would hide the primitives from the check. Such bytes only matter inside strings.
    std::string ascii(text, size);
    for (char& c : ascii)
        if (static_cast<unsigned char>(c) >= 0x80) c = '?';
    const json gltf = json::parse(ascii, nullptr, false);
    if (!gltf.is_object() || !gltf.contains("meshes") || !gltf["meshes"].is_array()) return {}; // Assimp's to judge
    const json& meshes = gltf["meshes"];
    for (size_t m = 0; m < meshes.size(); ++m) {
        if (!meshes[m].is_object() || !meshes[m].contains("primitives") || !meshes[m]["primitives"].is_array())
            continue;
        const json& primitives = meshes[m]["primitives"];
        for (size_t p = 0; p < primitives.size(); ++p) {
            const json& primitive = primitives[p];
            if (!primitive.is_object() || !primitive.contains("mode") || !primitive["mode"].is_number_integer())
                continue;
            const int mode = primitive["mode"].get<int>();
            const int fewest = fewestVertices(mode);
            if (fewest == 0) continue;
            // Indices when there are any, else the positions: what Assimp counts the elements from.
            uint64_t count = 0;
            if (primitive.contains("indices"))
                count = accessorCount(gltf, primitive["indices"]);
            else if (primitive.contains("attributes") && primitive["attributes"].is_object() &&
                     primitive["attributes"].contains("POSITION"))
                count = accessorCount(gltf, primitive["attributes"]["POSITION"]);
            if (count < uint64_t(fewest))
                return {ErrorCode::ReadFailed, name + ": cannot import mesh: mesh " + std::to_string(m) +
                                                   ", primitive " + std::to_string(p) + " is a " + modeName(mode) +
                                                   " of " + std::to_string(count) + " vertices (at least " +
                                                   std::to_string(fewest) + " make one element)"};
        }
    }
    return {};
}

} // namespace

Error checkGltfPrimitives(const std::string& file_name, const char* data, size_t size, const std::string& name) {
    const size_t dot = file_name.rfind('.');
    std::string extension = dot == std::string::npos ? std::string() : file_name.substr(dot + 1);
    for (char& c : extension)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (size >= 20 && std::memcmp(data, "glTF", 4) == 0) {
        // Binary glTF: the JSON is the first chunk (its length was checked against the file).
        uint32_t length = 0;
        std::memcpy(&length, data + 12, sizeof length);
        if (std::memcmp(data + 16, "JSON", 4) != 0 || length > size - 20) return {};
        return checkJson(data + 20, length, name);
    }
    if (extension == "gltf") return checkJson(data, size, name);
    return {};
}

} // namespace clearway::bake::detail
