// cw-inspect's pictures and page: the SVG of a verified asset, the self-contained HTML page around
// it (pan, zoom, layer toggles, a two-click path query in the page), and cw-inspect's file entry.
#include "inspect_internal.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/stat.h>

namespace clearway::bake {

using inspect::Frame;
using preview::xmlEscape;

namespace {

// Coordinates in the page's graph and layout: millimetres, trailing zeros dropped, as the drawing.
std::string mm(double v) {
    return preview::formatNumber(v, {preview::NumberFormat::Trimmed, 3});
}

std::string fileTitle(const std::string& name) {
    const size_t slash = name.find_last_of('/');
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

// Aligned copy for the loaders.
struct Aligned {
    std::vector<uint64_t> words;
    size_t size = 0;
};

bool readAligned(const std::string& path, Aligned* out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) return false;
    out->size = bytes.size();
    out->words.assign(bytes.size() / 8 + 1, 0);
    if (!bytes.empty()) std::memcpy(out->words.data(), bytes.data(), bytes.size());
    return true;
}

// Drawing + kind, for inspectSvg / inspectHtml.
struct Picture {
    std::string svg;
    Frame frame;
    InspectSummary summary;
    bool ok = false;
};

Picture picture(const void* data, size_t size, const std::string& title, const PreviewOptions& options) {
    Picture p;
    inspect::UsableMap usable;
    if (inspect::inspectBytes(data, size, title, options, &p.summary, &usable)) return p;
    p.ok = true;
    if (p.summary.kind == AssetKind::Trims) {
        trims::TableView view;
        trims::loadTable(data, size, &view);
        p.svg = inspect::trimsSvg(view, p.summary, title, &p.frame);
    } else if (p.summary.kind == AssetKind::Roadmap) {
        RoadmapView view;
        FootprintView fp;
        loadRoadmap(data, size, &view);
        roadmapFootprint(view, &fp);
        p.svg = inspect::levelSvg(fp, &view, p.summary, usable, title, &p.frame);
    } else {
        FootprintView fp;
        loadFootprint(data, size, &fp);
        p.svg = inspect::levelSvg(fp, nullptr, p.summary, usable, title, &p.frame);
    }
    return p;
}

// The asset inside the page (base64): the WebAssembly runtime loads it exactly as a game would.
std::string base64(const void* data, size_t size) {
    static const char* const kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const auto* b = static_cast<const uint8_t*>(data);
    std::string out;
    out.reserve((size + 2) / 3 * 4);
    for (size_t i = 0; i < size; i += 3) {
        const uint32_t n = uint32_t(b[i]) << 16 | (i + 1 < size ? uint32_t(b[i + 1]) << 8 : 0) |
                           (i + 2 < size ? uint32_t(b[i + 2]) : 0);
        out += kDigits[n >> 18 & 63];
        out += kDigits[n >> 12 & 63];
        out += i + 1 < size ? kDigits[n >> 6 & 63] : '=';
        out += i + 2 < size ? kDigits[n & 63] : '=';
    }
    return out;
}

// The page's script: pan, zoom (the drawing fits the window; "reset view" fits it again), layer
// toggles, and the path query through clearway's runtime compiled to WebAssembly (ClearwayRuntime,
// page_runtime.cpp): a click picks the floor under it, two clicks ask findPath through cw-query's
// own engine, so the page shows the length, status and reason cw-query prints. #out carries the
// answer in data attributes (status, length, from, to: world coordinates) for tests. A URL hash
// "#from=x,y&to=x,y&r=R&c=C" (local metres) runs one query at load, exactly as two clicks would.
const char* const kScript = R"JS(
const svg = document.querySelector('svg'), view = document.getElementById('view');
const route = document.getElementById('route');
const out = document.getElementById('out'), radiusInput = document.getElementById('radius');
const clearanceInput = document.getElementById('clearance');
let k = 1, panX = 0, panY = 0, drag = null, clicks = [], rt = null;
const visible = Array(LAYERS).fill(true);

function applyView() { view.setAttribute('transform', `translate(${panX} ${panY}) scale(${k})`); }
// Screen pixel -> drawing pixel (the SVG scales to the window) -> local metres.
function toDrawing(e) {
  const m = svg.getScreenCTM().inverse();
  return [m.a * e.clientX + m.c * e.clientY + m.e, m.b * e.clientX + m.d * e.clientY + m.f];
}
function toLocal(e) {
  const [S, TX, TY] = document.getElementById('drawing').dataset.transform.split(' ').map(Number);
  const [px, py] = toDrawing(e);
  return [((px - panX) / k - TX) / S, (TY - (py - panY) / k) / S];
}
svg.addEventListener('wheel', e => {
  e.preventDefault();
  const [mx, my] = toDrawing(e), f = Math.exp(-e.deltaY * 0.0015);
  panX = mx - (mx - panX) * f; panY = my - (my - panY) * f; k *= f; applyView();
}, {passive: false});
svg.addEventListener('mousedown', e => { drag = {x: e.clientX, y: e.clientY, panX, panY, moved: false}; });
window.addEventListener('mousemove', e => {
  if (!drag) return;
  const s = 1 / svg.getScreenCTM().a, dx = (e.clientX - drag.x) * s, dy = (e.clientY - drag.y) * s;
  if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
  panX = drag.panX + dx; panY = drag.panY + dy; applyView();
});
window.addEventListener('mouseup', e => {
  if (drag && !drag.moved && toDrawing(e)[0] < WIDTH) click(toLocal(e));
  drag = null;
});
document.getElementById('reset').onclick = () => { k = 1; panX = panY = 0; applyView(); };

// One checkbox per layer: hides its floor, walls, roadmap and connections (and its floor from clicks).
const boxes = document.getElementById('layers');
for (let l = 0; l < LAYERS; l++) {
  const label = document.createElement('label'), box = document.createElement('input');
  box.type = 'checkbox'; box.checked = true;
  box.onchange = () => {
    visible[l] = box.checked;
    document.querySelectorAll('.L' + l).forEach(el => el.style.display = box.checked ? '' : 'none');
  };
  label.append(box, ' layer ' + l); boxes.append(label, document.createElement('br'));
}

// ----- path query through the WebAssembly runtime -----
function say(status, text, extra) {
  out.textContent = text;
  out.dataset.status = status;
  for (const key of ['length', 'from', 'to', 'reason']) delete out.dataset[key];
  Object.assign(out.dataset, extra || {});
}
function call(name, ...args) { return JSON.parse(rt.UTF8ToString(rt['_cw_' + name](...args))); }
function shownLayers() { let m = 0; visible.forEach((v, l) => { if (v && l < 32) m |= 1 << l; }); return m >>> 0; }
const NS = 'http://www.w3.org/2000/svg';
function mark(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const a in attrs) el.setAttribute(a, attrs[a]);
  route.append(el); return el;
}
const [S0] = (document.getElementById('drawing').dataset.transform || '1').split(' ').map(Number);
function query(q0, q1, r, c) {
  route.replaceChildren();
  for (const q of [q0, q1]) mark('circle', {cx: q[0], cy: q[1], r: Math.max(r, 3 / S0), fill: '#00b4ff', 'fill-opacity': 0.5});
  if (!rt) { say('error', 'the path query needs the WebAssembly runtime, which did not load'); return; }
  const ends = [call('pick', q0[0], q0[1], shownLayers()), call('pick', q1[0], q1[1], shownLayers())];
  for (const [i, what] of [[0, 'start'], [1, 'goal']])
    if (!ends[i].ok) { say('error', `${what} (${[q0, q1][i].map(v => v.toFixed(2)).join(', ')}): ${ends[i].reason}`, {reason: ends[i].reason}); return; }
  const from = ends[0].world.join(','), to = ends[1].world.join(',');
  const answer = call('query', ...ends[0].world, ...ends[1].world, r, c);
  if (!answer.ok) { say('error', answer.reason, {reason: answer.reason, from, to}); return; }
  const a = answer.query;
  if (!a.found) { say('nopath', 'no path: ' + a.reason, {reason: a.reason, from, to}); return; }
  const p = answer.local, d = [];
  for (let i = 0; i + 1 < p.length; i += 2) d.push(p[i] + ' ' + p[i + 1]);
  mark('path', {d: 'M' + d.join('L'), fill: 'none', stroke: '#00b4ff', 'stroke-width': 5,
                'stroke-linejoin': 'round', 'stroke-linecap': 'round'});
  say('found', `path ${a.length.toFixed(3)} m, min clearance ${a.min_clearance.toFixed(3)} m, layer ${a.from_layer} to ${a.to_layer}`,
      {length: String(a.length), from, to});
}
function clearance() {
  const text = clearanceInput.value.trim();
  return text === '' ? -1 : text === 'inf' ? Infinity : Number(text);
}
function click(q) {
  clicks.push(q);
  if (clicks.length === 1) { route.replaceChildren(); mark('circle', {cx: q[0], cy: q[1], r: 4 / S0, fill: '#00b4ff'}); say('waiting', 'click the goal'); }
  else { query(clicks[0], clicks[1], Number(radiusInput.value) || 0, clearance()); clicks = []; }
}
async function start() {
  if (typeof ClearwayRuntime !== 'function') {
    say('error', RUNTIME_EMBEDDED ? 'the WebAssembly runtime failed to load: its script did not run'
                                  : 'this page was written without the WebAssembly runtime (clearway was built without emscripten): no path queries');
    return;
  }
  try {
    const M = await ClearwayRuntime();
    const bytes = Uint8Array.from(atob(ASSET), ch => ch.charCodeAt(0));
    const at = M._cw_alloc(bytes.length);
    M.HEAPU8.set(bytes, at);
    rt = M;
    const opened = call('open', at, bytes.length);
    if (!opened.ok) { rt = null; say('error', opened.reason, {reason: opened.reason}); return; }
  } catch (e) {
    rt = null; say('error', 'the WebAssembly runtime failed to load: ' + e, {reason: String(e)}); return;
  }
  say('ready', 'click two points for a path');
  const args = Object.fromEntries(location.hash.slice(1).split('&').filter(x => x).map(x => x.split('=')));
  if (args.r) radiusInput.value = args.r;
  if (args.c) clearanceInput.value = args.c;
  if (args.from && args.to) query(args.from.split(',').map(Number), args.to.split(',').map(Number), Number(radiusInput.value), clearance());
}
if (ASSET) start(); else document.getElementById('query').style.display = 'none';
)JS";

// The page around a picture of `data`.
std::string pageOf(const Picture& p, const void* data, size_t size, const std::string& title) {
    if (!p.ok) return "";
    const bool roadmap = p.summary.kind == AssetKind::Roadmap;
    // The drawing scales to the window (its viewBox); the controls sit over the legend column.
    std::string html =
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + xmlEscape(fileTitle(title)) +
        "</title>\n<style>body{margin:0;font:13px sans-serif;overflow:hidden}svg{display:block;width:100vw;"
        "height:100vh;cursor:grab;user-select:none}#ui{position:absolute;right:14px;top:" +
        mm(inspect::kLegendHeight) +
        "px;width:220px}#ui input[type=number],#ui input[type=text]{width:5em}#out{margin-top:6px}</style>\n"
        "</head><body>\n" +
        p.svg +
        "<div id=\"ui\"><div id=\"layers\"></div><div id=\"query\">radius (m) <input "
        "id=\"radius\" type=\"number\" min=\"0\" step=\"0.1\" value=\"" +
        (p.summary.kind == AssetKind::Trims ? std::string("0.5") : inspect::num(p.summary.usable.radius)) +
        "\"><br>clearance (m) <input "
        "id=\"clearance\" type=\"text\" placeholder=\"radius\" title=\"preferred clearance: empty = the "
        "radius (shortest), inf = the middle of every corridor\"><div id=\"out\" data-status=\"loading\">"
        "loading the runtime</div></div><button id=\"reset\">reset view</button>"
        "<div>drag: pan, wheel: zoom</div></div>\n<script>\n" +
        (roadmap ? std::string(inspect::pageRuntimeScript()) : std::string()) +
        "\n</script>\n<script>\nconst ASSET = \"" + (roadmap ? base64(data, size) : std::string()) +
        "\";\nconst RUNTIME_EMBEDDED = " + (*inspect::pageRuntimeScript() ? "true" : "false") +
        ";\nconst LAYERS = " +
        std::to_string(p.summary.kind == AssetKind::Trims ? 0 : p.summary.layers.size()) +
        ", WIDTH = " + mm(p.frame.width) + ";\n" + kScript + "</script>\n</body></html>\n";
    return html;
}

} // namespace

std::string inspectSvg(const void* data, size_t size, const std::string& title,
                       const PreviewOptions& options) {
    return picture(data, size, fileTitle(title), options).svg;
}

std::string inspectHtml(const void* data, size_t size, const std::string& title,
                        const PreviewOptions& options) {
    return pageOf(picture(data, size, fileTitle(title), options), data, size, title);
}

Error inspectFile(const InspectRequest& request, InspectSummary* out, LogContext& log) {
    struct stat info {};
    if (stat(request.path.c_str(), &info) != 0)
        return {ErrorCode::FileNotFound, request.path + ": no such file"};
    Aligned bytes;
    if (!readAligned(request.path, &bytes)) return {ErrorCode::ReadFailed, request.path + ": cannot be read"};
    if (Error e = inspectAssetBytes(bytes.words.data(), bytes.size, request.path, out, request.preview))
        return e;
    log.log(LogLevel::Debug, request.path + ": " + assetKindName(out->kind) + " asset verified");
    if (request.svg_path.empty() && request.html_path.empty()) return {};
    const Picture p = picture(bytes.words.data(), bytes.size, fileTitle(request.path), request.preview);
    if (!request.svg_path.empty()) {
        if (Error e = writeFileAtomic(request.svg_path, p.svg)) return e;
        log.log(LogLevel::Debug, "wrote " + request.svg_path);
    }
    if (!request.html_path.empty()) {
        if (Error e =
                writeFileAtomic(request.html_path, pageOf(p, bytes.words.data(), bytes.size, request.path)))
            return e;
        log.log(LogLevel::Debug, "wrote " + request.html_path);
    }
    return {};
}

} // namespace clearway::bake
