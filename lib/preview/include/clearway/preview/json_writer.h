// The JSON pieces clearway's summaries are written with (cw-inspect, cw-query, cw-import,
// cw-compare --json): escaped strings and deterministic numbers.
#pragma once

#include <string>

namespace clearway::preview {

// A JSON string literal: quotes, backslashes and control characters escaped.
std::string jsonString(const std::string& text);
// "%.Ng" with `significant` digits, the same text on every run; null for NaN and infinities (JSON
// has neither), and never "-0".
std::string jsonNumber(double v, int significant = 10);
// [x, y, z]
std::string jsonTriple(double x, double y, double z, int significant = 10);

} // namespace clearway::preview
