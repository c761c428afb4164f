// The JSON strings and numbers of clearway/preview/json_writer.h.
#include <clearway/preview/json_writer.h>

#include <cmath>
#include <cstdio>

namespace clearway::preview {

std::string jsonString(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\', out += c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(c));
            out += escaped;
        } else
            out += c;
    }
    return out + "\"";
}

std::string jsonNumber(double v, int significant) {
    if (!std::isfinite(v)) return "null";
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", significant, v == 0 ? 0.0 : v); // no "-0"
    return text;
}

std::string jsonTriple(double x, double y, double z, int significant) {
    return "[" + jsonNumber(x, significant) + ", " + jsonNumber(y, significant) + ", " +
           jsonNumber(z, significant) + "]";
}

} // namespace clearway::preview
