// The one SVG builder clearway's drawings use (cw-inspect, cw-query, cw-import/cw-roadmap --svg,
// cw-compare): the document with its viewBox, elements with attributes in a given order, path
// data, legend entries, and the number formats they are written in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace clearway::preview {

// How a drawing writes its numbers.
struct NumberFormat {
    enum Style : uint8_t {
        Significant, // printf "%.Ng"
        Fixed,       // printf "%.Nf"
        Trimmed,     // "%.Nf" without trailing zeros, "-0" as "0": short coordinates
    };
    Style style = Significant;
    int digits = 6;
};
std::string formatNumber(double v, NumberFormat format);
// "%.Nf", a negative zero ("-0.00": a tiny negative rounded away) printed as "0.00".
std::string fixedDecimals(double v, int digits);

// Text for XML content and attribute values: < > & " escaped.
std::string xmlEscape(const std::string& text);
// 0xRRGGBB -> "#rrggbb".
std::string colourHex(uint32_t rgb);

// One attribute: text (escaped when written), or a number written in the drawing's format. Pass
// 0.0, not 0, for a zero number (0 is also a null pointer).
struct SvgAttribute {
    SvgAttribute(const char* name, std::string text) : name(name), text(std::move(text)) {}
    SvgAttribute(const char* name, const char* text) : name(name), text(text) {}
    SvgAttribute(const char* name, double number) : name(name), number(number), is_number(true) {}
    const char* name;
    std::string text;
    double number = 0;
    bool is_number = false;
};
using SvgAttributes = std::initializer_list<SvgAttribute>;

// Path data. `flip_y` negates every y (a y-up ground plane in SVG's y-down frame; arcs' sweep
// flags flip with it). Spaced: "M1 2 L3 4 Z "; compact: "M1 2L3 4Z".
class SvgPath {
public:
    SvgPath(NumberFormat format, bool flip_y, bool compact);
    SvgPath& moveTo(double x, double y);
    SvgPath& lineTo(double x, double y);
    // A circular arc of `radius` to (x, y); `ccw`: counter-clockwise with y up (before the flip).
    SvgPath& arcTo(double radius, bool large, bool ccw, double x, double y);
    SvgPath& close();
    // p[0] .. p[n-1] as one sub-path (any point type with x and y), closed when asked.
    template <class Point>
    SvgPath& points(const Point* p, size_t n, bool closed) {
        for (size_t i = 0; i < n; ++i)
            i ? lineTo(p[i].x, p[i].y) : moveTo(p[i].x, p[i].y);
        return closed ? close() : *this;
    }
    const std::string& str() const { return d_; }
    bool empty() const { return d_.empty(); }

private:
    void point(char command, double x, double y);
    NumberFormat format_;
    bool flip_y_, compact_;
    std::string d_;
};

// A document under construction. Ground-plane points (paths, polylines, circles) go through the
// y flip; text, rectangles and legends are placed in the drawing's own (SVG) coordinates.
class SvgWriter {
public:
    explicit SvgWriter(NumberFormat format = {}, bool flip_y = false);
    std::string num(double v) const { return formatNumber(v, format_); }
    double y(double ground_y) const { return flip_y_ ? -ground_y : ground_y; }
    SvgPath pathData(bool compact = false) const { return SvgPath(format_, flip_y_, compact); }

    // <svg xmlns=... width height viewBox="x y w h" extra...>
    void open(double width, double height, double view_x, double view_y, double view_w, double view_h,
              SvgAttributes extra = {});
    // A drawing of the ground-plane box lo..hi (y up, so the viewBox starts at -hi_y), `pixels`
    // per unit; background() fills that box.
    void openGroundPlane(double lo_x, double lo_y, double hi_x, double hi_y, double pixels);
    void background(const std::string& fill);
    void title(const std::string& text);
    // <tag a="v" .../> in the order given.
    void element(const char* tag, SvgAttributes attributes);
    void group(SvgAttributes attributes); // <g ...>, closed by end()
    void end(const char* tag = "g");
    // <path attributes... d="..."/>
    void path(const SvgPath& d, SvgAttributes attributes = {});
    // <polyline attributes... points="x,y x,y "/> of n points with x and y.
    template <class Point>
    void polyline(const Point* p, size_t n, SvgAttributes attributes) {
        std::string list;
        for (size_t i = 0; i < n; ++i)
            list += num(p[i].x) + "," + num(y(p[i].y)) + " ";
        element("polyline", attributes, "points", list);
    }
    // <circle cx cy r attributes.../> at a ground-plane point.
    void circle(double cx, double cy, double r, SvgAttributes attributes = {});
    // <text x y attributes...>text</text>
    void text(double x, double y, const std::string& content, SvgAttributes attributes = {});
    // Legend entries with their label 36 units right of x: a 28-unit line (stroke, width, dash
    // pattern or "") or a filled 28 x 13 swatch.
    void legendLine(double x, double y, const std::string& stroke, double width, const char* dash,
                    const std::string& label);
    void legendSwatch(double x, double y, const std::string& fill, const std::string& label);
    void raw(const std::string& markup) { svg_ += markup; }
    // Closes the document and hands it over.
    std::string finish();

private:
    void attributes(SvgAttributes list);
    void element(const char* tag, SvgAttributes list, const char* last_name, const std::string& last);
    NumberFormat format_;
    bool flip_y_;
    double view_[4] = {0, 0, 0, 0};
    std::string svg_;
};

} // namespace clearway::preview
