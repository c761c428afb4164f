// Roadmap structs -> FlatBuffers bytes (schemas/roadmap.fbs): vertices, edges, blends, areas,
// the edge grid and the embedded footprint table. Deterministic: the same roadmap, the same bytes.
#include <clearway/bake/assets.h>
#include <clearway/schema/roadmap_generated.h>

#include "assets/asset_internal.h"

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace clearway::bake {

namespace fb = clearway::schema;

uint64_t roadmapOptionsHash(const ImportOptions& import_options, const RoadmapOptions& options) {
    const std::string canonical = canonicalString(import_options) +
                                  ";min_clearance=" + std::to_string(options.min_clearance) +
                                  ";roadmap_epsilon=" + std::to_string(options.epsilon) +
                                  ";merge=" + (options.merge_chains ? "1" : "0");
    return fnv1a64(canonical.data(), canonical.size());
}

namespace {

// The asset's builder, which can claim a whole vector's bytes at once (PushBytes claims them one
// struct at a time).
class AssetBuilder : public flatbuffers::FlatBufferBuilder {
  public:
    using flatbuffers::FlatBufferBuilder::FlatBufferBuilder;
    uint8_t* claim(size_t bytes) { return buf_.make_space(bytes); }
};

// builder.CreateVectorOfStructs(v) for v[i] = make(i), i < n, without building v: the same
// StartVector and EndVector calls and the bytes n PushBytes calls would claim, claimed at once and
// filled from the back (make is called for n - 1 down to 0), so the same bytes.
template <class T, class Make>
flatbuffers::Offset<flatbuffers::Vector<const T*>> structVector(AssetBuilder& builder, size_t n,
                                                                Make&& make) {
    builder.StartVector(n * sizeof(T) / flatbuffers::AlignOf<T>(), flatbuffers::AlignOf<T>());
    uint8_t* bytes = builder.claim(n * sizeof(T));
    for (size_t i = n; i-- > 0;) {
        const T value = make(i);
        std::memcpy(bytes + i * sizeof(T), &value, sizeof(T));
    }
    return flatbuffers::Offset<flatbuffers::Vector<const T*>>(builder.EndVector(n));
}

// One struct per entry of every edge's `list` (points, sides or corridor chain), in edge order
// (point_count entries in all).
template <class T, class L, class Make>
flatbuffers::Offset<flatbuffers::Vector<const T*>>
pointVector(AssetBuilder& builder, const Roadmap& rm, size_t point_count, std::vector<L> RoadmapEdge::*list,
            Make&& make) {
    size_t edge = rm.edges.size(), k = 0; // walks the points backwards
    return structVector<T>(builder, point_count, [&](size_t) {
        while (k == 0) {
            k = (rm.edges[--edge].*list).size();
            // Each edge's list is its own block on the heap: fetched a few edges early.
            if (edge >= 8 && !(rm.edges[edge - 8].*list).empty())
                __builtin_prefetch((rm.edges[edge - 8].*list).data());
        }
        return make((rm.edges[edge].*list)[--k]);
    });
}

// The builder's memory as std::vector blocks, so the finished buffer becomes the returned vector
// without a copy of the whole asset.
class VectorAllocator : public flatbuffers::Allocator {
  public:
    uint8_t* allocate(size_t size) override {
        blocks_.emplace_back(size);
        return blocks_.back().data();
    }
    void deallocate(uint8_t* p, size_t) override {
        for (size_t i = 0; i < blocks_.size(); ++i)
            if (!blocks_[i].empty() && blocks_[i].data() == p) {
                blocks_.erase(blocks_.begin() + ptrdiff_t(i));
                return;
            }
    }
    // The block holding [data, data + size), with those bytes moved to its front.
    std::vector<uint8_t> take(const uint8_t* data, size_t size) {
        for (std::vector<uint8_t>& block : blocks_)
            if (!block.empty() && data >= block.data() && data + size <= block.data() + block.size()) {
                std::vector<uint8_t> out = std::move(block);
                block.clear();
                std::memmove(out.data(), data, size);
                out.resize(size);
                return out;
            }
        return {data, data + size};
    }

  private:
    std::vector<std::vector<uint8_t>> blocks_;
};

// The asset's edge grid (EdgeGrid): about four edges per cell; each cell lists the edges whose
// polyline boxes touch it, ascending. Counted out first, so no (cell, edge) pairs are held.
struct EdgeGridLists {
    Vec2 lo;
    double cell = 1;
    uint32_t nx = 1, ny = 1;
    std::vector<uint32_t> cell_start, cell_edges;
};

EdgeGridLists edgeGridOf(const Roadmap& rm) {
    Vec2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
    for (const Vec2& p : rm.edges.empty() ? std::vector<Vec2>{{0, 0}} : std::vector<Vec2>{})
        lo = hi = p;
    for (size_t i = 0; i < rm.edges.size(); ++i) {
        // Each edge's points are their own block on the heap: fetched a few edges early.
        if (i + 8 < rm.edges.size() && !rm.edges[i + 8].points.empty())
            __builtin_prefetch(rm.edges[i + 8].points.data());
        for (const Vec2& p : rm.edges[i].points)
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
    }
    const double cell = std::max(
        std::sqrt(std::max((hi.x - lo.x) * (hi.y - lo.y), 1.0) / std::max<double>(1, rm.edges.size() / 4.0)),
        0.5);
    const uint32_t nx = uint32_t((hi.x - lo.x) / cell) + 1, ny = uint32_t((hi.y - lo.y) / cell) + 1;
    // Each edge's cells (ascending, once each), then the edges counted into cells in edge order.
    EdgeGridLists g;
    std::vector<uint32_t>& cell_start = g.cell_start;
    std::vector<uint32_t>& cell_edges = g.cell_edges;
    cell_start.assign(size_t(nx) * ny + 1, 0);
    {
        // f(cell) for each of the edge's cells, ascending and once each. A chord's cells (most
        // edges are one) are a rectangle, visited in that order as they are listed.
        std::vector<uint32_t> mine;
        auto chordCells = [&](Vec2 a, Vec2 b, auto&& f) {
            const uint32_t i0 = uint32_t((std::min(a.x, b.x) - lo.x) / cell),
                           i1 = uint32_t((std::max(a.x, b.x) - lo.x) / cell);
            const uint32_t j0 = uint32_t((std::min(a.y, b.y) - lo.y) / cell),
                           j1 = uint32_t((std::max(a.y, b.y) - lo.y) / cell);
            for (uint32_t j = j0; j <= std::min(j1, ny - 1); ++j)
                for (uint32_t i = i0; i <= std::min(i1, nx - 1); ++i)
                    f(j * nx + i);
        };
        auto forEachCell = [&](const RoadmapEdge& edge, auto&& f) {
            if (edge.points.size() <= 2) {
                chordCells(edge.points.front(), edge.points.back(), f);
                return;
            }
            mine.clear();
            for (size_t k = 0; k + 1 < edge.points.size(); ++k)
                chordCells(edge.points[k], edge.points[k + 1], [&](uint32_t c) { mine.push_back(c); });
            std::sort(mine.begin(), mine.end());
            mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
            for (uint32_t c : mine)
                f(c);
        };
        for (size_t e = 0; e < rm.edges.size(); ++e) {
            if (e + 8 < rm.edges.size() && !rm.edges[e + 8].points.empty())
                __builtin_prefetch(rm.edges[e + 8].points.data());
            forEachCell(rm.edges[e], [&](uint32_t c) { ++cell_start[c + 1]; });
        }
        for (size_t c = 0; c + 1 < cell_start.size(); ++c)
            cell_start[c + 1] += cell_start[c];
        cell_edges.resize(cell_start.back());
        std::vector<uint32_t> fill(cell_start.begin(), cell_start.end() - 1);
        for (uint32_t e = 0; e < rm.edges.size(); ++e) { // edge order: each cell's edges ascend
            if (e + 8 < rm.edges.size() && !rm.edges[e + 8].points.empty())
                __builtin_prefetch(rm.edges[e + 8].points.data());
            forEachCell(rm.edges[e], [&](uint32_t c) { cell_edges[fill[c]++] = e; });
        }
    }
    g.lo = lo, g.cell = cell, g.nx = nx, g.ny = ny;
    return g;
}

} // namespace

namespace {

// How each edge's corridor is known, and the merged chains' corridors (Geraerts 2010).
struct CorridorVectors {
    flatbuffers::Offset<flatbuffers::Vector<fb::EdgeCorridor>> kinds;
    flatbuffers::Offset<flatbuffers::Vector<uint32_t>> starts;
    flatbuffers::Offset<flatbuffers::Vector<const fb::CorridorPoint*>> points;
};
CorridorVectors writeCorridors(AssetBuilder& builder, const Roadmap& rm, size_t chain_points) {
    std::vector<fb::EdgeCorridor> kinds(rm.edges.size());
    std::vector<uint32_t> starts(rm.edges.size() + 1);
    uint32_t start = 0;
    for (size_t e = 0; e < rm.edges.size(); ++e) {
        kinds[e] = static_cast<fb::EdgeCorridor>(rm.edges[e].corridor);
        starts[e] = start;
        start += uint32_t(rm.edges[e].chain.size());
    }
    starts.back() = start;
    CorridorVectors out;
    out.kinds = builder.CreateVector(kinds);
    out.starts = builder.CreateVector(starts);
    out.points = pointVector<fb::CorridorPoint>(
        builder, rm, chain_points, &RoadmapEdge::chain, [](const CorridorPoint& c) {
            return fb::CorridorPoint(float(c.at.x), float(c.at.y), float(c.sides.left.x),
                                     float(c.sides.left.y), float(c.sides.right.x), float(c.sides.right.y));
        });
    return out;
}

// Designer areas (edits.cpp) with their types and flags and each edge's spans; all absent without
// areas, so assets without them keep their bytes, and the types, flags and spans absent while every
// area has the defaults (type 0, the walk flag), which is what their absence says.
struct AreaVectors {
    flatbuffers::Offset<flatbuffers::Vector<float>> edge_weights;
    flatbuffers::Offset<flatbuffers::Vector<const fb::WeightedArea*>> areas;
    flatbuffers::Offset<flatbuffers::Vector<const fb::Vec2*>> vertices;
    flatbuffers::Offset<flatbuffers::Vector<uint8_t>> types;
    flatbuffers::Offset<flatbuffers::Vector<uint16_t>> flags;
    flatbuffers::Offset<flatbuffers::Vector<uint32_t>> span_starts;
    flatbuffers::Offset<flatbuffers::Vector<const fb::EdgeAreaSpan*>> spans;
};
AreaVectors writeAreas(flatbuffers::FlatBufferBuilder& builder, const Roadmap& rm) {
    AreaVectors out;
    if (rm.areas.empty()) return out;
    std::vector<fb::WeightedArea> areas;
    std::vector<fb::Vec2> points;
    std::vector<uint8_t> types;
    std::vector<uint16_t> flags;
    for (const RoadmapArea& a : rm.areas) {
        areas.emplace_back(a.layer, float(a.weight), uint32_t(points.size()), uint32_t(a.polygon.size()));
        for (const Vec2& p : a.polygon)
            points.emplace_back(float(p.x), float(p.y));
        types.push_back(a.type);
        flags.push_back(a.flags);
    }
    std::vector<fb::EdgeAreaSpan> spans;
    for (const EdgeAreaSpan& span : rm.edge_spans)
        spans.emplace_back(float(span.cost), span.flags, span.type);
    const std::vector<float> weights(rm.edge_weights.begin(), rm.edge_weights.end());
    out.edge_weights = builder.CreateVector(weights);
    out.areas = builder.CreateVectorOfStructs(areas);
    out.vertices = builder.CreateVectorOfStructs(points);
    const bool kinds = std::any_of(rm.areas.begin(), rm.areas.end(),
                                   [](const RoadmapArea& a) { return a.type != 0 || a.flags != 1; });
    if (!kinds) return out;
    out.types = builder.CreateVector(types);
    out.flags = builder.CreateVector(flags);
    out.span_starts = builder.CreateVector(rm.edge_span_starts);
    out.spans = builder.CreateVectorOfStructs(spans);
    return out;
}

} // namespace

std::vector<uint8_t> serializeRoadmap(const Roadmap& rm) {
    size_t point_count = 0;
    for (const RoadmapEdge& e : rm.edges)
        point_count += e.points.size();
    // The edge grid's lists are counted out before the asset's block is taken, so no working list
    // is left freed beside the asset.
    EdgeGridLists grid_lists = edgeGridOf(rm);
    const Vec2 lo = grid_lists.lo;
    const double cell = grid_lists.cell;
    const uint32_t nx = grid_lists.nx, ny = grid_lists.ny;
    std::vector<uint32_t>& cell_start = grid_lists.cell_start;
    std::vector<uint32_t>& cell_edges = grid_lists.cell_edges;
    // The block holds the whole asset and little more: the finished buffer sits at the block's
    // end and is moved to its front, so every byte of slack would be memory beside the roadmap.
    // The footprint table's size comes from writing it once on its own (it is written first, so
    // it takes the same bytes here); the rest is counted, with room for tables and padding.
    size_t bound = footprintTableSize(rm.footprint) + 2048 + 2 * std::strlen(bakerVersion());
    auto vector_bytes = [&](size_t n, size_t size) { bound += 16 + n * size; }; // length, padding
    vector_bytes(rm.vertices.size(), sizeof(fb::RoadmapVertex));
    vector_bytes(rm.edges.size(), sizeof(fb::RoadmapEdge));
    vector_bytes(point_count, sizeof(fb::Vec2));
    // Wall sides (Geraerts 2010): absent when an edge does not track them (read from an older asset).
    const bool with_sides = std::all_of(rm.edges.begin(), rm.edges.end(), [](const RoadmapEdge& e) {
        return e.sides.size() == e.points.size();
    });
    size_t chain_points = 0;
    for (const RoadmapEdge& e : rm.edges)
        chain_points += e.chain.size();
    if (with_sides) {
        vector_bytes(point_count, sizeof(fb::PointSides));
        vector_bytes(rm.edges.size(), 1);
        vector_bytes(rm.edges.size() + 1, sizeof(uint32_t));
        vector_bytes(chain_points, sizeof(fb::CorridorPoint));
    }
    vector_bytes(rm.blends.size(), sizeof(fb::Blend));
    vector_bytes(cell_start.size(), sizeof(uint32_t));
    vector_bytes(cell_edges.size(), sizeof(uint32_t));
    vector_bytes(rm.edge_weights.size(), sizeof(float));
    vector_bytes(rm.areas.size(), sizeof(fb::WeightedArea));
    for (const RoadmapArea& a : rm.areas)
        vector_bytes(a.polygon.size(), sizeof(fb::Vec2));
    if (!rm.areas.empty()) {
        vector_bytes(rm.areas.size(), sizeof(uint8_t));
        vector_bytes(rm.areas.size(), sizeof(uint16_t));
        vector_bytes(rm.edge_span_starts.size(), sizeof(uint32_t));
        vector_bytes(rm.edge_spans.size(), sizeof(fb::EdgeAreaSpan));
    }
    vector_bytes(rm.tile.border_vertices.size(), sizeof(uint32_t));
    vector_bytes(rm.links.size(), sizeof(fb::RoadmapLink));
#ifdef __GLIBC__
    // The size pass and the grid's working lists are freed: return their pages before the block.
    malloc_trim(0);
#endif
    VectorAllocator allocator;
    AssetBuilder builder(bound, &allocator);
    builder.ForceDefaults(true);
    const auto footprint = writeFootprintTable(builder, rm.footprint);
    const auto grid = fb::CreateEdgeGrid(builder, float(lo.x), float(lo.y), float(cell), nx, ny,
                                         builder.CreateVector(cell_start), builder.CreateVector(cell_edges));
    std::vector<uint32_t>().swap(cell_start);
    std::vector<uint32_t>().swap(cell_edges);
    const auto options = fb::CreateRoadmapOptions(builder, rm.options.min_clearance, rm.options.epsilon,
                                                  rm.options.merge_chains);
    const AreaVectors area_vectors = writeAreas(builder, rm);
    flatbuffers::Offset<fb::RoadmapTile> tile = 0;
    if (rm.tile.size > 0)
        tile = fb::CreateRoadmapTile(builder, rm.tile.size, rm.tile.margin, rm.tile.i, rm.tile.j,
                                     builder.CreateVector(rm.tile.border_vertices), rm.tile.margin_reached);
    // The big arrays go straight into the builder.
    auto vertices = [&] {
        return structVector<fb::RoadmapVertex>(builder, rm.vertices.size(), [&](size_t i) {
            const RoadmapVertex& v = rm.vertices[i];
            return fb::RoadmapVertex(float(v.position.x), float(v.position.y), float(v.position.z),
                                     float(v.clearance), v.layer);
        });
    };
    auto edges = [&] {
        uint32_t first = uint32_t(point_count); // points before edge i, walking back from the end
        return structVector<fb::RoadmapEdge>(builder, rm.edges.size(), [&](size_t i) {
            const RoadmapEdge& e = rm.edges[i];
            first -= uint32_t(e.points.size());
            return fb::RoadmapEdge(e.a, e.b, first, uint32_t(e.points.size()), float(e.min_clearance),
                                   static_cast<fb::ClearanceSite>(e.site), e.portal, float(e.site_p0.x),
                                   float(e.site_p0.y), float(e.site_p1.x), float(e.site_p1.y),
                                   float(e.left_a.x), float(e.left_a.y), float(e.right_a.x),
                                   float(e.right_a.y), float(e.left_b.x), float(e.left_b.y),
                                   float(e.right_b.x), float(e.right_b.y));
        });
    };
    auto points = [&] {
        return pointVector<fb::Vec2>(builder, rm, point_count, &RoadmapEdge::points,
                                     [](const Vec2& p) { return fb::Vec2(float(p.x), float(p.y)); });
    };
    auto point_sides = [&]() -> flatbuffers::Offset<flatbuffers::Vector<const fb::PointSides*>> {
        if (!with_sides) return 0;
        return pointVector<fb::PointSides>(
            builder, rm, point_count, &RoadmapEdge::sides, [](const WallSides& s) {
                return fb::PointSides(float(s.left.x), float(s.left.y), float(s.right.x), float(s.right.y));
            });
    };
    auto blends = [&] {
        return structVector<fb::Blend>(builder, rm.blends.size(), [&](size_t i) {
            const Blend& b = rm.blends[i];
            return fb::Blend(b.vertex, b.edge_in, b.edge_out, float(b.center.x), float(b.center.y),
                             float(b.radius), float(b.p_in.x), float(b.p_in.y), float(b.p_out.x),
                             float(b.p_out.y), b.ccw, float(b.min_clearance));
        });
    };
    // Off-mesh links: absent without any, so other assets keep their bytes.
    flatbuffers::Offset<flatbuffers::Vector<const fb::RoadmapLink*>> link_list = 0;
    if (!rm.links.empty())
        link_list = structVector<fb::RoadmapLink>(builder, rm.links.size(), [&](size_t i) {
            const RoadmapLink& l = rm.links[i];
            return fb::RoadmapLink(l.a, l.b, float(l.cost), float(l.max_radius), l.flags, l.type,
                                   static_cast<fb::LinkKind>(l.kind), l.bidirectional);
        });
    // Written last to first (the order the single call's arguments were evaluated in before).
    const CorridorVectors corridors =
        with_sides ? writeCorridors(builder, rm, chain_points) : CorridorVectors{};
    const auto side_list = point_sides();
    const auto blend_list = blends();
    const auto point_list = points();
    const auto edge_list = edges();
    const auto vertex_list = vertices();
    const auto root =
        fb::CreateRoadmap(builder, 1, builder.CreateString(bakerVersion()), rm.footprint.input_hash,
                          rm.options_hash, options, footprint, vertex_list, edge_list, point_list, blend_list,
                          grid, area_vectors.edge_weights, area_vectors.areas, area_vectors.vertices, tile,
                          side_list, corridors.kinds, corridors.starts, corridors.points, area_vectors.types,
                          area_vectors.flags, area_vectors.span_starts, area_vectors.spans, link_list);
    fb::FinishRoadmapBuffer(builder, root);
    return allocator.take(builder.GetBufferPointer(), builder.GetSize());
}

} // namespace clearway::bake
