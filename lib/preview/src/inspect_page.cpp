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

Picture picture(const void* data, size_t size, const std::string& title) {
    Picture p;
    if (inspectAssetBytes(data, size, title, &p.summary)) return p;
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
        p.svg = inspect::levelSvg(fp, &view, p.summary, title, &p.frame);
    } else {
        FootprintView fp;
        loadFootprint(data, size, &fp);
        p.svg = inspect::levelSvg(fp, nullptr, p.summary, title, &p.frame);
    }
    return p;
}

// The roadmap graph for the page's path query: vertices [x, y, layer], edges [a, b, min clearance,
// portal, [x0, y0, x1, y1, ...]].
std::string graphJson(const void* data, size_t size) {
    RoadmapView view;
    if (loadRoadmap(data, size, &view) != Status::Ok) return "null";
    RoadmapInfo info{};
    roadmapInfo(view, &info);
    std::string out = "{\"v\":[";
    for (uint32_t v = 0; v < info.vertex_count; ++v) {
        RoadmapVertexInfo vertex{};
        roadmapVertex(view, v, &vertex);
        out += (v ? ",[" : "[") + mm(vertex.position.x) + "," + mm(vertex.position.y) + "," +
               std::to_string(vertex.layer) + "]";
    }
    out += "],\n\"e\":[";
    for (uint32_t e = 0; e < info.edge_count; ++e) {
        RoadmapEdgeInfo edge{};
        roadmapEdge(view, e, &edge);
        out += (e ? ",\n[" : "[") + std::to_string(edge.a) + "," + std::to_string(edge.b) + "," +
               mm(edge.min_clearance) + "," + (edge.portal ? "1" : "0") + ",[";
        for (uint32_t i = 0; i < edge.point_count; ++i)
            out += (i ? "," : "") + mm(edge.points[i].x) + "," + mm(edge.points[i].y);
        out += "]]";
    }
    return out + "]}";
}

// The page's script: pan, zoom, layer toggles, and the path query. G is the graph (null without a
// roadmap), LAYERS the layer count. A URL hash "#from=x,y&to=x,y&r=R" (local metres) runs one
// query at load, exactly as two clicks would (the render test uses it).
const char* const kScript = R"JS(
const svg = document.querySelector('svg'), view = document.getElementById('view');
const drawing = document.getElementById('drawing'), route = document.getElementById('route');
const out = document.getElementById('out'), radiusInput = document.getElementById('radius');
const [S, TX, TY] = (drawing.dataset.transform || '1 0 0').split(' ').map(Number);
let k = 1, panX = 0, panY = 0, drag = null, clicks = [];
const visible = Array(LAYERS).fill(true);

function applyView() { view.setAttribute('transform', `translate(${panX} ${panY}) scale(${k})`); }
// Screen pixel -> local metres (undo the pan/zoom, then the drawing's transform).
function toLocal(e) {
  const r = svg.getBoundingClientRect();
  const x = (e.clientX - r.left - panX) / k, y = (e.clientY - r.top - panY) / k;
  return [(x - TX) / S, (TY - y) / S];
}
svg.addEventListener('wheel', e => {
  e.preventDefault();
  const r = svg.getBoundingClientRect(), mx = e.clientX - r.left, my = e.clientY - r.top;
  const f = Math.exp(-e.deltaY * 0.0015);
  panX = mx - (mx - panX) * f; panY = my - (my - panY) * f; k *= f; applyView();
}, {passive: false});
svg.addEventListener('mousedown', e => { drag = {x: e.clientX, y: e.clientY, panX, panY, moved: false}; });
window.addEventListener('mousemove', e => {
  if (!drag) return;
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
  panX = drag.panX + dx; panY = drag.panY + dy; applyView();
});
window.addEventListener('mouseup', e => {
  if (drag && !drag.moved && G && e.clientX - svg.getBoundingClientRect().left < WIDTH) click(toLocal(e));
  drag = null;
});
document.getElementById('reset').onclick = () => { k = 1; panX = panY = 0; applyView(); };

// One checkbox per layer: hides its floor, walls, roadmap and connections.
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

// ----- path query: A* over the roadmap edges whose min clearance >= radius -----
const edges = G ? G.e.map(([a, b, c, portal, p]) => {
  const cum = [0];
  for (let i = 2; i < p.length; i += 2) cum.push(cum[cum.length - 1] + Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]));
  return {a, b, c, portal, p, cum, len: cum[cum.length - 1]};
}) : [];
const incident = G ? G.v.map(() => []) : [];
edges.forEach((e, i) => { incident[e.a].push(i); incident[e.b].push(i); });
const usable = (e, r) => e.c >= r && visible[G.v[e.a][2]] && visible[G.v[e.b][2]];

// Nearest point on a usable non-portal edge: {edge, s (arc length from its vertex a), x, y, d}.
function snap(q, r) {
  let best = null;
  edges.forEach((e, i) => {
    if (e.portal || !usable(e, r)) return;
    for (let j = 0; j + 3 < e.p.length; j += 2) {
      const ax = e.p[j], ay = e.p[j + 1], dx = e.p[j + 2] - ax, dy = e.p[j + 3] - ay, l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.max(0, Math.min(1, ((q[0] - ax) * dx + (q[1] - ay) * dy) / l2)) : 0;
      const x = ax + t * dx, y = ay + t * dy, d = Math.hypot(q[0] - x, q[1] - y);
      if (!best || d < best.d) best = {edge: i, s: e.cum[j / 2] + t * Math.sqrt(l2), x, y, d};
    }
  });
  return best;
}
// Point at arc length s along edge e, and the polyline between two arc lengths (either order).
function at(e, s) {
  let i = 0;
  while (i < e.cum.length - 2 && e.cum[i + 1] < s) i++;
  const l = e.cum[i + 1] - e.cum[i], t = l > 0 ? (s - e.cum[i]) / l : 0;
  return [e.p[2 * i] + t * (e.p[2 * i + 2] - e.p[2 * i]), e.p[2 * i + 1] + t * (e.p[2 * i + 3] - e.p[2 * i + 1])];
}
function along(e, s0, s1) {
  if (s0 > s1) return along(e, s1, s0).reverse();
  const pts = [at(e, s0)];
  for (let i = 1; i < e.cum.length - 1; i++) if (e.cum[i] > s0 && e.cum[i] < s1) pts.push([e.p[2 * i], e.p[2 * i + 1]]);
  pts.push(at(e, s1));
  return pts;
}

// A* from snap point A to snap point B. Nodes: roadmap vertices, plus 'goal'. The open list is a
// plain array (a few thousand vertices: a scan per step is fast enough and easy to read).
function findRoute(A, B, r) {
  const ea = edges[A.edge], eb = edges[B.edge], n = G.v.length, GOAL = n;
  const g = new Float64Array(n + 1).fill(Infinity), from = new Array(n + 1), done = new Uint8Array(n + 1);
  const h = v => v === GOAL ? 0 : Math.hypot(G.v[v][0] - B.x, G.v[v][1] - B.y);
  const open = [];
  const relax = (v, cost, how) => { if (cost < g[v]) { g[v] = cost; from[v] = how; open.push(v); } };
  relax(ea.a, A.s, {start: true, to: 0}); relax(ea.b, ea.len - A.s, {start: true, to: ea.len});
  if (A.edge === B.edge) relax(GOAL, Math.abs(B.s - A.s), {start: true, direct: true});
  while (open.length) {
    let bi = 0;
    for (let i = 1; i < open.length; i++) if (g[open[i]] + h(open[i]) < g[open[bi]] + h(open[bi])) bi = i;
    const u = open[bi]; open[bi] = open[open.length - 1]; open.pop();
    if (done[u]) continue;
    done[u] = 1;
    if (u === GOAL) break;
    if (u === eb.a) relax(GOAL, g[u] + B.s, {prev: u, edge: B.edge, s0: 0});
    if (u === eb.b) relax(GOAL, g[u] + eb.len - B.s, {prev: u, edge: B.edge, s0: eb.len});
    for (const i of incident[u]) {
      const e = edges[i];
      if (usable(e, r)) relax(e.a === u ? e.b : e.a, g[u] + e.len, {prev: u, edge: i});
    }
  }
  if (!isFinite(g[GOAL])) return null;
  // Walk back from the goal, collecting polyline pieces.
  const pieces = [];
  let v = GOAL;
  for (;;) {
    const how = from[v];
    if (how.direct) { pieces.push(along(ea, A.s, B.s)); break; }
    if (v === GOAL) pieces.push(along(eb, how.s0, B.s));
    else if (how.start) { pieces.push(along(ea, A.s, how.to)); break; }
    else { const e = edges[how.edge]; pieces.push(e.a === how.prev ? along(e, 0, e.len) : along(e, e.len, 0)); }
    v = how.prev;
  }
  return {length: g[GOAL], points: pieces.reverse().flat()};
}

const NS = 'http://www.w3.org/2000/svg';
function mark(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const a in attrs) el.setAttribute(a, attrs[a]);
  route.append(el); return el;
}
function query(q0, q1, r) {
  route.replaceChildren();
  for (const q of [q0, q1]) mark('circle', {cx: q[0], cy: q[1], r: Math.max(r, 3 / S), fill: '#00b4ff', 'fill-opacity': 0.5});
  const A = snap(q0, r), B = snap(q1, r);
  if (!A || !B) { out.textContent = `no roadmap edge keeps ${r} m of clearance`; return; }
  const found = findRoute(A, B, r);
  if (!found) { out.textContent = `no path at radius ${r} m`; return; }
  const pts = [q0, ...found.points, q1];
  mark('path', {d: 'M' + pts.map(p => p[0] + ' ' + p[1]).join('L'), fill: 'none', stroke: '#00b4ff',
                'stroke-width': 5, 'stroke-linejoin': 'round', 'stroke-linecap': 'round'});
  const total = found.length + A.d + B.d;
  out.textContent = `path ${total.toFixed(2)} m (roadmap ${found.length.toFixed(2)} m; ` +
                    `snapped ${A.d.toFixed(2)} m and ${B.d.toFixed(2)} m from the clicks)`;
}
function click(q) {
  clicks.push(q);
  if (clicks.length === 1) { route.replaceChildren(); mark('circle', {cx: q[0], cy: q[1], r: 4 / S, fill: '#00b4ff'}); out.textContent = 'click the goal'; }
  else { query(clicks[0], clicks[1], Number(radiusInput.value) || 0); clicks = []; }
}
if (G) {
  const args = Object.fromEntries(location.hash.slice(1).split('&').filter(x => x).map(x => x.split('=')));
  if (args.r) radiusInput.value = args.r;
  if (args.from && args.to) query(args.from.split(',').map(Number), args.to.split(',').map(Number), Number(radiusInput.value));
} else {
  document.getElementById('query').style.display = 'none';
}
)JS";

} // namespace

std::string inspectSvg(const void* data, size_t size) {
    return picture(data, size, "asset").svg;
}

std::string inspectHtml(const void* data, size_t size, const std::string& title) {
    const Picture p = picture(data, size, fileTitle(title));
    if (!p.ok) return "";
    const bool roadmap = p.summary.kind == AssetKind::Roadmap;
    std::string html =
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + xmlEscape(fileTitle(title)) +
        "</title>\n<style>body{margin:0;font:13px sans-serif;overflow:hidden}svg{display:block;"
        "cursor:grab;user-select:none}#ui{position:absolute;left:" +
        mm(p.frame.width + 16) + "px;top:" + mm(inspect::kLegendHeight) +
        "px;width:220px}#ui input[type=number]{width:5em}#out{margin-top:6px}</style>\n"
        "</head><body>\n" +
        p.svg +
        "<div id=\"ui\"><div id=\"layers\"></div><div id=\"query\">radius (m) <input "
        "id=\"radius\" type=\"number\" min=\"0\" step=\"0.1\" value=\"0.5\"><div id=\"out\">"
        "click two points for a path</div></div><button id=\"reset\">reset view</button>"
        "<div>drag: pan, wheel: zoom</div></div>\n<script>\nconst G = " +
        (roadmap ? graphJson(data, size) : std::string("null")) + ";\nconst LAYERS = " +
        std::to_string(p.summary.kind == AssetKind::Trims ? 0 : p.summary.layers.size()) +
        ", WIDTH = " + mm(p.frame.width) + ";\n" + kScript + "</script>\n</body></html>\n";
    return html;
}

Error inspectFile(const InspectRequest& request, InspectSummary* out, LogContext& log) {
    struct stat info {};
    if (stat(request.path.c_str(), &info) != 0)
        return {ErrorCode::FileNotFound, request.path + ": no such file"};
    Aligned bytes;
    if (!readAligned(request.path, &bytes)) return {ErrorCode::ReadFailed, request.path + ": cannot be read"};
    if (Error e = inspectAssetBytes(bytes.words.data(), bytes.size, request.path, out)) return e;
    log.log(LogLevel::Debug, request.path + ": " + assetKindName(out->kind) + " asset verified");
    if (!request.svg_path.empty()) {
        const Picture p = picture(bytes.words.data(), bytes.size, fileTitle(request.path));
        if (Error e = writeFileAtomic(request.svg_path, p.svg)) return e;
        log.log(LogLevel::Debug, "wrote " + request.svg_path);
    }
    if (!request.html_path.empty()) {
        if (Error e =
                writeFileAtomic(request.html_path, inspectHtml(bytes.words.data(), bytes.size, request.path)))
            return e;
        log.log(LogLevel::Debug, "wrote " + request.html_path);
    }
    return {};
}

} // namespace clearway::bake
