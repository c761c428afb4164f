// Footprint stage 4a: links, the boundary segments two free pieces share in the ground plane,
// walkable where the height jump across them is at most the agent's step.
#include "footprint/footprint_internal.h"

#include "core/parallel.h"

namespace clearway::bake::footprint_internal {

namespace {

struct EdgeRef {
    uint32_t piece;
    Vec2 p, q;
};

// Every edge of every piece, in piece order, without holding them all: a whole piece's three come
// from its corners (a fine level has millions), a cut piece's are kept.
class PieceEdges {
  public:
    explicit PieceEdges(const std::vector<Piece>& pieces) : pieces_(pieces) {
        for (uint32_t i = 0; i < pieces.size(); ++i) {
            if (pieces[i].whole) {
                for (uint32_t k = 0; k < 3; ++k)
                    refs_.push_back({i, k});
                continue;
            }
            pieces[i].forEachEdge([&](const Vec2& p, const Vec2& q) {
                refs_.push_back({i, uint32_t(cut_edges_.size())});
                cut_edges_.push_back({i, p, q});
            });
        }
    }
    uint32_t size() const { return uint32_t(refs_.size()); }
    uint32_t pieceOf(uint32_t e) const { return refs_[e].piece; }
    EdgeRef operator[](uint32_t e) const {
        const Ref& ref = refs_[e];
        const Piece& piece = pieces_[ref.piece];
        if (!piece.whole) return cut_edges_[ref.at];
        const std::array<Vec2, 3> ring = piece.ring();
        return {ref.piece, ring[ref.at], ring[(ref.at + 1) % 3]};
    }

  private:
    struct Ref {
        uint32_t piece;
        uint32_t at; // whole: the ring corner it starts at; cut: its index in cut_edges_
    };
    const std::vector<Piece>& pieces_;
    std::vector<Ref> refs_;
    std::vector<EdgeRef> cut_edges_;
};

} // namespace

namespace {

// The links from edge e of a piece to the edges of later pieces, appended to `links` in the
// grid's candidate order.
void linksOfEdge(uint32_t e, const PieceEdges& edges, const Grid& grid, const std::vector<Piece>& pieces,
                 const std::vector<Plane>& planes, double step, std::vector<uint32_t>& candidates,
                 std::vector<Link>& links) {
    const EdgeRef r = edges[e];
    const double dx = r.q.x - r.p.x, dy = r.q.y - r.p.y;
    const double len = std::hypot(dx, dy);
    if (len < kEdgeTolerance) return;
    const double ux = dx / len, uy = dy / len;
    grid.query(std::min(r.p.x, r.q.x) - kEdgeTolerance, std::min(r.p.y, r.q.y) - kEdgeTolerance,
               std::max(r.p.x, r.q.x) + kEdgeTolerance, std::max(r.p.y, r.q.y) + kEdgeTolerance, candidates);
    for (uint32_t f : candidates) {
        if (edges.pieceOf(f) <= r.piece) continue;
        const EdgeRef s = edges[f];
        // Opposite directions: the two pieces lie on either side of the shared edge.
        const double sx = s.q.x - s.p.x, sy = s.q.y - s.p.y;
        if (sx * ux + sy * uy >= 0) continue;
        const double dp = (s.p.x - r.p.x) * uy - (s.p.y - r.p.y) * ux;
        const double dq = (s.q.x - r.p.x) * uy - (s.q.y - r.p.y) * ux;
        if (std::abs(dp) > kEdgeTolerance || std::abs(dq) > kEdgeTolerance) continue;
        const double tp = (s.p.x - r.p.x) * ux + (s.p.y - r.p.y) * uy;
        const double tq = (s.q.x - r.p.x) * ux + (s.q.y - r.p.y) * uy;
        const double t0 = std::max(0.0, std::min(tp, tq)), t1 = std::min(len, std::max(tp, tq));
        if (t1 - t0 < kEdgeTolerance) continue;
        Link link;
        link.a = r.piece;
        link.b = s.piece;
        link.p0 = {r.p.x + ux * t0, r.p.y + uy * t0};
        link.p1 = {r.p.x + ux * t1, r.p.y + uy * t1};
        const Plane& pa = planes[pieces[link.a].tri];
        const Plane& pb = planes[pieces[link.b].tri];
        const double j0 = std::abs(pa.at(link.p0.x, link.p0.y) - pb.at(link.p0.x, link.p0.y));
        const double j1 = std::abs(pa.at(link.p1.x, link.p1.y) - pb.at(link.p1.x, link.p1.y));
        // Float-rounded meshes put a 0.4 m stair at 0.40000000596 m: tolerate float noise.
        link.walkable = j0 <= step + kHeightTolerance && j1 <= step + kHeightTolerance;
        links.push_back(link);
    }
}

} // namespace

namespace {

// The links in blocks of edges, found in parallel, each block in edge order. The edges and their
// grid are gone when this returns, before the blocks are joined (a fine level's peak).
std::vector<std::vector<Link>> linkBlocks(const std::vector<Piece>& pieces, const std::vector<Plane>& planes,
                                          double step, Grid grid, unsigned threads) {
    const PieceEdges edges(pieces);
    for (uint32_t e = 0; e < edges.size(); ++e) {
        const EdgeRef r = edges[e];
        grid.insert(e, std::min(r.p.x, r.q.x) - kEdgeTolerance, std::min(r.p.y, r.q.y) - kEdgeTolerance,
                    std::max(r.p.x, r.q.x) + kEdgeTolerance, std::max(r.p.y, r.q.y) + kEdgeTolerance);
    }
    constexpr uint32_t kBlock = 1 << 15;
    std::vector<std::vector<Link>> blocks((edges.size() + kBlock - 1) / kBlock);
    parallel::forEach(blocks.size(), threads, [&](size_t b) {
        std::vector<uint32_t> candidates;
        const uint32_t end = std::min<uint32_t>(edges.size(), uint32_t((b + 1) * kBlock));
        for (uint32_t e = uint32_t(b * kBlock); e < end; ++e)
            linksOfEdge(e, edges, grid, pieces, planes, step, candidates, blocks[b]);
    });
    return blocks;
}

} // namespace

std::vector<Link> findLinks(const std::vector<Piece>& pieces, const std::vector<Plane>& planes, double step,
                            Grid grid, unsigned threads) {
    // Blocks joined in edge order: the same links in the same order for any thread count.
    std::vector<std::vector<Link>> blocks = linkBlocks(pieces, planes, step, std::move(grid), threads);
    size_t count = 0;
    for (const std::vector<Link>& block : blocks)
        count += block.size();
    std::vector<Link> links;
    links.reserve(count);
    for (std::vector<Link>& block : blocks) {
        links.insert(links.end(), block.begin(), block.end());
        std::vector<Link>().swap(block);
    }
    return links;
}

} // namespace clearway::bake::footprint_internal
