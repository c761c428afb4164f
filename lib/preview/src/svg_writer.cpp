// The SVG builder and number formats of clearway/preview/svg_writer.h.
#include <clearway/preview/svg_writer.h>

#include <cstdio>

namespace clearway::preview {

std::string formatNumber(double v, NumberFormat format) {
    char text[64];
    if (format.style == NumberFormat::Significant) {
        std::snprintf(text, sizeof text, "%.*g", format.digits, v);
        return text;
    }
    std::snprintf(text, sizeof text, "%.*f", format.digits, v);
    std::string t = text;
    if (format.style == NumberFormat::Fixed) return t;
    if (t.find('.') != std::string::npos) {
        while (t.back() == '0')
            t.pop_back();
        if (t.back() == '.') t.pop_back();
    }
    return t == "-0" ? "0" : t;
}

std::string fixedDecimals(double v, int digits) {
    const std::string t = formatNumber(v, {NumberFormat::Fixed, digits});
    return t.find_first_not_of("-0.") == std::string::npos && t[0] == '-' ? t.substr(1) : t;
}

std::string xmlEscape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else if (c == '"')
            out += "&quot;";
        else
            out += c;
    }
    return out;
}

std::string colourHex(uint32_t rgb) {
    char text[8];
    std::snprintf(text, sizeof text, "#%06x", rgb & 0xffffffu);
    return text;
}

// ----- path data -----

SvgPath::SvgPath(NumberFormat format, bool flip_y, bool compact)
    : format_(format), flip_y_(flip_y), compact_(compact) {}

void SvgPath::point(char command, double x, double y) {
    d_ += command;
    d_ += formatNumber(x, format_) + " " + formatNumber(flip_y_ ? -y : y, format_);
    if (!compact_) d_ += ' ';
}

SvgPath& SvgPath::moveTo(double x, double y) {
    point('M', x, y);
    return *this;
}

SvgPath& SvgPath::lineTo(double x, double y) {
    point('L', x, y);
    return *this;
}

SvgPath& SvgPath::arcTo(double radius, bool large, bool ccw, double x, double y) {
    const std::string r = formatNumber(radius, format_);
    // SVG's sweep flag 1 is clockwise on screen (y down): counter-clockwise in a y-up frame.
    d_ += "A" + r + " " + r + " 0 " + (large ? "1 " : "0 ") + (ccw != flip_y_ ? "1 " : "0 ") +
          formatNumber(x, format_) + " " + formatNumber(flip_y_ ? -y : y, format_);
    if (!compact_) d_ += ' ';
    return *this;
}

SvgPath& SvgPath::close() {
    d_ += compact_ ? "Z" : "Z ";
    return *this;
}

// ----- the document -----

SvgWriter::SvgWriter(NumberFormat format, bool flip_y) : format_(format), flip_y_(flip_y) {}

void SvgWriter::open(double width, double height, double view_x, double view_y, double view_w,
                     double view_h, SvgAttributes extra) {
    view_[0] = view_x, view_[1] = view_y, view_[2] = view_w, view_[3] = view_h;
    svg_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height) +
            "\" viewBox=\"" + num(view_x) + " " + num(view_y) + " " + num(view_w) + " " + num(view_h) + "\"";
    attributes(extra);
    svg_ += ">\n";
}

void SvgWriter::openGroundPlane(double lo_x, double lo_y, double hi_x, double hi_y, double pixels) {
    const double w = hi_x - lo_x, h = hi_y - lo_y;
    open(w * pixels, h * pixels, lo_x, -hi_y, w, h);
}

void SvgWriter::background(const std::string& fill) {
    element("rect", {{"x", view_[0]}, {"y", view_[1]}, {"width", view_[2]}, {"height", view_[3]}, {"fill", fill}});
}

void SvgWriter::title(const std::string& text) {
    svg_ += "<title>" + xmlEscape(text) + "</title>\n";
}

void SvgWriter::attributes(SvgAttributes list) {
    for (const SvgAttribute& a : list)
        svg_ += std::string(" ") + a.name + "=\"" + (a.is_number ? num(a.number) : xmlEscape(a.text)) + "\"";
}

void SvgWriter::element(const char* tag, SvgAttributes list) {
    svg_ += std::string("<") + tag;
    attributes(list);
    svg_ += "/>\n";
}

void SvgWriter::element(const char* tag, SvgAttributes list, const char* last_name, const std::string& last) {
    svg_ += std::string("<") + tag;
    attributes(list);
    svg_ += std::string(" ") + last_name + "=\"" + last + "\"/>\n";
}

void SvgWriter::group(SvgAttributes list) {
    svg_ += "<g";
    attributes(list);
    svg_ += ">\n";
}

void SvgWriter::end(const char* tag) {
    svg_ += std::string("</") + tag + ">\n";
}

void SvgWriter::path(const SvgPath& d, SvgAttributes list) {
    element("path", list, "d", d.str());
}

void SvgWriter::circle(double cx, double cy, double r, SvgAttributes list) {
    svg_ += "<circle cx=\"" + num(cx) + "\" cy=\"" + num(y(cy)) + "\" r=\"" + num(r) + "\"";
    attributes(list);
    svg_ += "/>\n";
}

void SvgWriter::text(double x, double y, const std::string& content, SvgAttributes list) {
    svg_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"";
    attributes(list);
    svg_ += ">" + xmlEscape(content) + "</text>\n";
}

void SvgWriter::legendLine(double x, double y, const std::string& stroke, double width, const char* dash,
                           const std::string& label) {
    if (*dash)
        element("line", {{"x1", x}, {"y1", y - 4}, {"x2", x + 28}, {"y2", y - 4}, {"stroke", stroke},
                         {"stroke-width", width}, {"stroke-dasharray", dash}});
    else
        element("line", {{"x1", x}, {"y1", y - 4}, {"x2", x + 28}, {"y2", y - 4}, {"stroke", stroke},
                         {"stroke-width", width}});
    text(x + 36, y, label);
}

void SvgWriter::legendSwatch(double x, double y, const std::string& fill, const std::string& label) {
    element("rect", {{"x", x}, {"y", y - 11}, {"width", 28.0}, {"height", 13.0}, {"fill", fill}, {"stroke", "#888"}});
    text(x + 36, y, label);
}

std::string SvgWriter::finish() {
    svg_ += "</svg>\n";
    return std::move(svg_);
}

} // namespace clearway::preview
