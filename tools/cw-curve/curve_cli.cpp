#include "curve_cli.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace clearway::curve {

namespace {

// "x,y" or "x,y,heading" -> numbers; false on anything else (extra commas, junk, non-finite).
bool parseNumbers(const std::string& text, std::vector<double>* out) {
    out->clear();
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        char* end = nullptr;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || end == item.c_str() || *end != '\0' || !std::isfinite(v)) return false;
        out->push_back(v);
    }
    return !text.empty() && text.back() != ',';
}

const char* sideName(clearway::TurnSide side) {
    return side == clearway::TurnSide::Left ? "left" : "right";
}

void printPieces(const clearway::CurvePath& path) {
    for (uint32_t i = 0; i < path.count; ++i) {
        const clearway::PathPiece& p = path.pieces[i];
        if (p.curvature == 0.0)
            std::printf("    line %.6g m from (%.6g, %.6g) heading %.6g\n", p.length, p.start.x, p.start.y,
                        p.start.heading);
        else
            std::printf("    %s arc %.6g m (%.6g rad) from (%.6g, %.6g) heading %.6g\n",
                        p.curvature > 0 ? "left" : "right", p.length, p.length * std::fabs(p.curvature),
                        p.start.x, p.start.y, p.start.heading);
    }
}

// Empty string on success, else the error message.
std::string makePlanner(const AStarOptions& o, double radius, Planner* p) {
    using namespace clearway;
    std::ifstream file(o.footprint, std::ios::binary);
    if (!file) return o.footprint + ": cannot be read";
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    p->asset.assign((bytes.size() + 7) / 8, 0);
    if (!bytes.empty()) std::memcpy(p->asset.data(), bytes.data(), bytes.size());
    Status s = loadFootprint(p->asset.data(), bytes.size(), &p->view);
    if (s != Status::Ok) return o.footprint + ": " + statusString(s);
    p->settings = directionalAStarDefaults();
    p->settings.cell_size = o.cell;
    p->settings.turning_radius = radius;
    p->settings.vehicle_radius = o.vehicle_radius;
    p->settings.allow_reverse = o.reverse;
    p->settings.max_expansions = o.max_expansions;
    if ((s = directionalGridForLayer(p->view, o.layer, o.cell, &p->grid)) != Status::Ok)
        return o.footprint + ": layer " + std::to_string(o.layer) + ": " + statusString(s);
    size_t size = 0;
    if ((s = directionalAStarWorkspaceSize(p->settings, p->grid, &size)) != Status::Ok)
        return std::string("directional A* settings: ") + statusString(s);
    p->workspace.assign(size / 8 + 1, 0);
    const auto t0 = std::chrono::steady_clock::now();
    s = directionalAStarInit(p->settings, p->grid, p->view, o.layer, p->workspace.data(), size, &p->search);
    p->init_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (s != Status::Ok) return std::string("directional A* init: ") + statusString(s);
    return "";
}

bake::Error badInput(const std::string& message) {
    return {bake::ErrorCode::InvalidOption, message};
}

} // namespace

void addCurveOptions(CLI::App& app, CurveRequest& request) {
    app.add_option("--from", request.from_text,
                   "Start pose x,y,heading: metres in the ground plane, heading in radians counter-clockwise "
                   "from +x (required)")
        ->required();
    app.add_option("--to", request.to_text,
                   "Goal x,y (metres) or x,y,heading (heading in radians, counter-clockwise from +x); with a "
                   "heading the Dubins path is printed too (required)")
        ->required();
    app.add_option("--radius", request.radius, "Turning radius, metres, > 0 (required)")->required();
    app.add_option("--method", request.method,
                   "Path to the point --to x,y: shortest (the shortest forward path: turn then line, or two "
                   "opposite turns; Bui, Boissonnat, Soueres and Laumond 1994) or arc-line (an arc then a "
                   "line, Pinter 2001, which goes round the far side for points inside a turning circle)")
        ->capture_default_str()
        ->check(CLI::IsMember({"arc-line", "shortest"}));
    app.add_option(
        "--footprint", request.astar.footprint,
        "Footprint asset (.cwfp): also plan a drivable path from --from to --to with Directional A* "
        "(Pinter 2001) on it, in the asset's local coordinates (metres)");
    app.add_option("--layer", request.astar.layer, "Footprint layer to plan on")->capture_default_str();
    app.add_option("--cell", request.astar.cell, "Directional A* grid cell size, metres, > 0")
        ->capture_default_str();
    app.add_option("--vehicle-radius", request.astar.vehicle_radius,
                   "Metres the vehicle keeps from every wall along its swept path")
        ->capture_default_str();
    app.add_flag(
        "--reverse", request.astar.reverse,
        "Allow reverse moves (three-point turns); reversing costs 2x per metre plus 4 m per gear change");
    app.add_option("--max-expansions", request.astar.max_expansions,
                   "Give up after this many expanded search nodes [default: 0 = no limit]");
    app.add_option("--bench", request.bench_queries,
                   "Instead: time this many random queries and print the cost per query: arc-then-line and "
                   "Dubins between poses in a 100 m square, then follower frames (up to 200,000); or with "
                   "--footprint Directional A* between random "
                   "clear cells (fixed seeds); --from/--to are still required but unused [default: 0 = off]");
}

bake::Error prepareCurves(const CurveRequest& request, Curves* curves, cli::SpdlogContext& log) {
    std::vector<double> from;
    if (!parseNumbers(request.from_text, &from) || from.size() != 3)
        return badInput(
            fmt::format("--from '{}': expected x,y,heading (three finite numbers)", request.from_text));
    if (!parseNumbers(request.to_text, &curves->to) || (curves->to.size() != 2 && curves->to.size() != 3))
        return badInput(
            fmt::format("--to '{}': expected x,y or x,y,heading (finite numbers)", request.to_text));
    if (!std::isfinite(request.radius) || !(request.radius > 0.0))
        return badInput(fmt::format("--radius {}: must be a finite number > 0", request.radius));
    curves->start = Pose2d{from[0], from[1], from[2]};
    curves->radius = request.radius;
    curves->method = request.method == "arc-line" ? PointPathMethod::ArcLine : PointPathMethod::Shortest;
    const AStarOptions& astar = request.astar;
    if (astar.footprint.empty()) return {};
    if (!(astar.cell > 0.0) || !(astar.vehicle_radius >= 0.0))
        return badInput("--cell must be > 0 and --vehicle-radius >= 0");
    Planner& planner = curves->planner;
    const std::string error = makePlanner(astar, request.radius, &planner);
    if (!error.empty()) return {bake::ErrorCode::ReadFailed, error};
    log.logger().debug("directional A*: grid {}x{} cells, workspace {} bytes, init {:.1f} ms",
                       planner.grid.width, planner.grid.height, planner.workspace.size() * 8,
                       planner.init_ms);
    return {};
}

bake::Error solveCurves(Curves* c, cli::SpdlogContext& log) {
    const std::vector<double>& to = c->to;
    log.logger().debug("from ({}, {}, {}) to ({}, {}) radius {}", c->start.x, c->start.y, c->start.heading,
                       to[0], to[1], c->radius);
    c->arc_status = c->shortest() ? shortestPathToPoint(c->start, to[0], to[1], c->radius, &c->arc, &c->kind)
                                  : shortestArcLine(c->start, to[0], to[1], c->radius, &c->arc, &c->side);
    if (c->arc_status == Status::InvalidArgument)
        return badInput(
            fmt::format("{}: {}", c->shortest() ? "shortest" : "arc-then-line", statusString(c->arc_status)));
    if (c->hasHeading()) {
        const Status s =
            shortestDubins(c->start, Pose2d{to[0], to[1], to[2]}, c->radius, &c->dubins, &c->word);
        if (s != Status::Ok) return badInput(fmt::format("dubins: {}", statusString(s)));
    }
    if (!c->planner.search) return {};
    c->route.resize(1 << 14);
    const DirectionalAStarQuery q{c->start, to[0], to[1], c->hasHeading() ? to[2] : 0.0, c->hasHeading()};
    const auto t0 = std::chrono::steady_clock::now();
    c->route_status = directionalAStarFindPath(c->planner.search, q, c->route.data(),
                                               uint32_t(c->route.size()), &c->route_result);
    c->route_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (c->route_status == Status::InvalidArgument || c->route_status == Status::BufferTooSmall)
        return badInput(fmt::format("directional A*: {}", statusString(c->route_status)));
    return {};
}

namespace {

const char* kindName(PointPathKind kind) {
    return kind == PointPathKind::TurnTurn ? "turn-turn" : "turn-straight";
}

void printJson(const Curves& c) {
    std::string json = c.shortest() ? "{\"method\": \"shortest\", \"shortest\": "
                                    : "{\"method\": \"arc-line\", \"arc_line\": ";
    char buffer[256];
    if (c.arc_status == Status::Ok && c.shortest()) {
        std::snprintf(buffer, sizeof buffer, "{\"length\": %.12g, \"kind\": \"%s\"}", c.arc.length,
                      kindName(c.kind));
        json += buffer;
    } else if (c.arc_status == Status::Ok) {
        std::snprintf(buffer, sizeof buffer, "{\"length\": %.12g, \"side\": \"%s\"}", c.arc.length,
                      sideName(c.side));
        json += buffer;
    } else {
        json += "null";
    }
    if (c.hasHeading()) {
        std::snprintf(buffer, sizeof buffer, ", \"dubins\": {\"length\": %.12g, \"word\": \"%s\"}",
                      c.dubins.length, dubinsWordName(c.word));
        json += buffer;
    }
    if (c.planner.search) {
        if (c.route_status == Status::Ok)
            std::snprintf(buffer, sizeof buffer,
                          ", \"directional_astar\": {\"length\": %.12g, \"moves\": %u, \"pieces\": %u, "
                          "\"gear_changes\": %u, \"expansions\": %u, \"ms\": %.3f}",
                          c.route_result.length, c.route_result.moves, c.route_result.piece_count,
                          c.route_result.gear_changes, c.route_result.expansions, c.route_ms);
        else
            std::snprintf(buffer, sizeof buffer,
                          ", \"directional_astar\": {\"length\": null, \"expansions\": %u, \"ms\": %.3f}",
                          c.route_result.expansions, c.route_ms);
        json += buffer;
    }
    std::printf("%s}\n", json.c_str());
}

void printText(const Curves& c) {
    if (c.arc_status == Status::Ok && c.shortest()) {
        std::printf("shortest to the point: %.6g m, %s\n", c.arc.length, kindName(c.kind));
        printPieces(c.arc);
    } else if (c.arc_status == Status::Ok) {
        std::printf("arc-then-line: %.6g m, turning %s\n", c.arc.length, sideName(c.side));
        printPieces(c.arc);
    } else {
        std::printf("arc-then-line: unreachable (the point is inside both turning circles)\n");
    }
    if (c.hasHeading()) {
        std::printf("dubins: %.6g m, %s\n", c.dubins.length, dubinsWordName(c.word));
        printPieces(c.dubins);
    }
    if (c.planner.search && c.route_status == Status::Ok) {
        std::printf("directional A*: %.6g m, %u moves, %u gear changes, %u expansions, %.3f ms\n",
                    c.route_result.length, c.route_result.moves, c.route_result.gear_changes,
                    c.route_result.expansions, c.route_ms);
        for (uint32_t i = 0; i < c.route_result.piece_count; ++i) {
            const PathPiece& p = c.route[i];
            std::printf("    %s%s %.6g m from (%.6g, %.6g) heading %.6g\n", p.direction < 0 ? "reverse " : "",
                        p.curvature == 0.0 ? "line" : (p.curvature > 0 ? "left arc" : "right arc"), p.length,
                        p.start.x, p.start.y, p.start.heading);
        }
    } else if (c.planner.search) {
        std::printf("directional A*: no drivable path (%s, %u expansions)\n", statusString(c.route_status),
                    c.route_result.expansions);
    }
}

} // namespace

void printCurves(const Curves& curves, const cli::CommonFlags& flags) {
    if (flags.json)
        printJson(curves);
    else if (!flags.quiet)
        printText(curves);
}

} // namespace clearway::curve
