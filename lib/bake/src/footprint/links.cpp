// Footprint stage 4a: links, the boundary segments two free pieces share in the ground plane,
// walkable where the height jump across them is at most the agent's step.
#include "footprint/footprint_internal.h"

#include "core/flat_buckets.h"
#include "core/parallel.h"

#include <algorithm>
#include <cmath>
#include <iterator>

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

// Every edge in the buckets along it, grown by kEdgeTolerance: a flat list per bucket, counted
// first, ids ascending. Buckets are twice the median edge, not the mesh grid's twice the mean
// triangle: where detail crowds, as in dungeon, those held hundreds of edges each, and a long
// diagonal edge's bounding box covers every bucket of the area around it.
class EdgeBuckets {
  public:
    EdgeBuckets(const Grid& grid, const PieceEdges& edges) {
        // The median of at most 65,536 evenly spaced edges: a fine level has millions.
        const uint32_t stride = std::max<uint32_t>(1, edges.size() / 65536);
        std::vector<double> lengths;
        for (uint32_t e = 0; e < edges.size(); e += stride) {
            const EdgeRef r = edges[e];
            lengths.push_back(std::hypot(r.q.x - r.p.x, r.q.y - r.p.y));
        }
        double cell = 1.0;
        if (!lengths.empty()) {
            std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
            cell = std::clamp(2.0 * lengths[lengths.size() / 2], 0.01, 50.0);
        }
        double x0, y0, x1, y1;
        grid.area(&x0, &y0, &x1, &y1);
        min_ = {x0, y0};
        if (std::isfinite(x1 - x0) && std::isfinite(y1 - y0)) {
            // At most as many buckets as the mesh grid may have.
            constexpr double kMaxBuckets = 1 << 20;
            while ((std::ceil((x1 - x0) / cell) + 1) * (std::ceil((y1 - y0) / cell) + 1) > kMaxBuckets)
                cell *= 2;
            cell_ = cell;
            nx_ = std::max(1, int(std::ceil((x1 - x0) / cell_)) + 1);
            ny_ = std::max(1, int(std::ceil((y1 - y0) / cell_)) + 1);
        }
        fillBuckets(
            size_t(nx_) * ny_, edges.size(), [&](uint32_t e, auto&& f) { forBuckets(edges[e], f); }, &start_, &ids_);
    }
    // The edges sharing a bucket with r, sorted and unique.
    void near(const EdgeRef& r, std::vector<uint32_t>& out, std::vector<uint32_t>& merged) const {
        out.clear();
        size_t count = 0;
        forBuckets(r, [&](size_t b) {
            // A few buckets (most edges): merge their sorted lists, linear; many: sort at the end.
            if (++count <= 4) {
                merged.clear();
                std::merge(out.begin(), out.end(), ids_.begin() + start_[b], ids_.begin() + start_[b + 1],
                           std::back_inserter(merged));
                out.swap(merged);
            } else {
                out.insert(out.end(), ids_.begin() + start_[b], ids_.begin() + start_[b + 1]);
            }
        });
        if (count > 4) std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }

  private:
    // Every bucket holding a point within kEdgeTolerance of the edge (and a few more): the
    // buckets of its bounding box when they are few, else per row the part of the edge inside
    // the row's band grown by the tolerance, grown along the row.
    template <class F> void forBuckets(const EdgeRef& r, F&& f) const {
        const Vec2 p = r.p, q = r.q;
        // Rounding in the bands and the interpolation is far below the extra micrometre.
        const double pad = kEdgeTolerance + 1e-9 * (1.0 + std::abs(p.x) + std::abs(p.y) + std::abs(q.x) + std::abs(q.y));
        const int j0 = row(std::min(p.y, q.y) - pad), j1 = row(std::max(p.y, q.y) + pad);
        const int c0 = column(std::min(p.x, q.x) - pad), c1 = column(std::max(p.x, q.x) + pad);
        if ((j1 - j0 + 1) * (c1 - c0 + 1) <= 4) {
            for (int j = j0; j <= j1; ++j)
                for (int i = c0; i <= c1; ++i)
                    f(size_t(j) * nx_ + i);
            return;
        }
        const double dy = q.y - p.y;
        for (int j = j0; j <= j1; ++j) {
            // The first and last rows also hold what clamping sends there.
            const double lo = j == 0 ? -INFINITY : min_.y + j * cell_ - pad;
            const double hi = j == ny_ - 1 ? INFINITY : min_.y + (j + 1) * cell_ + pad;
            double t0 = 0.0, t1 = 1.0;
            if (dy != 0.0) {
                const double a = (lo - p.y) / dy, b = (hi - p.y) / dy;
                t0 = std::max(0.0, std::min(a, b));
                t1 = std::min(1.0, std::max(a, b));
                if (!(t0 <= t1)) continue;
            }
            const double xa = p.x + (q.x - p.x) * t0, xb = p.x + (q.x - p.x) * t1;
            const int i1 = column(std::max(xa, xb) + pad);
            for (int i = column(std::min(xa, xb) - pad); i <= i1; ++i)
                f(size_t(j) * nx_ + i);
        }
    }
    int column(double x) const { return clampedIndex((x - min_.x) / cell_, nx_); }
    int row(double y) const { return clampedIndex((y - min_.y) / cell_, ny_); }
    // Clamped in double before the conversion: a far coordinate must not overflow an int.
    static int clampedIndex(double f, int n) {
        f = std::floor(f);
        return f > 0.0 ? int(std::min(f, double(n - 1))) : 0;
    }
    Vec2 min_{0, 0};
    double cell_ = INFINITY;
    int nx_ = 1, ny_ = 1;
    std::vector<uint32_t> start_, ids_;
};

} // namespace

namespace {

// The links from edge e of a piece to the edges of later pieces, appended to `links` in the
// grid's candidate order.
void linksOfEdge(uint32_t e, const PieceEdges& edges, const EdgeBuckets& buckets, const std::vector<Piece>& pieces,
                 const std::vector<Plane>& planes, double step, std::vector<uint32_t>& candidates,
                 std::vector<uint32_t>& merged,
                 std::vector<Link>& links) {
    const EdgeRef r = edges[e];
    const double dx = r.q.x - r.p.x, dy = r.q.y - r.p.y;
    const double len = std::hypot(dx, dy);
    if (len < kEdgeTolerance) return;
    const double ux = dx / len, uy = dy / len;
    buckets.near(r, candidates, merged);
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
                                          double step, const Grid& grid, unsigned threads) {
    const PieceEdges edges(pieces);
    const EdgeBuckets buckets(grid, edges);
    constexpr uint32_t kBlock = 1 << 15;
    std::vector<std::vector<Link>> blocks((edges.size() + kBlock - 1) / kBlock);
    parallel::forEach(blocks.size(), threads, [&](size_t b) {
        std::vector<uint32_t> candidates, merged;
        const uint32_t end = std::min<uint32_t>(edges.size(), uint32_t((b + 1) * kBlock));
        for (uint32_t e = uint32_t(b * kBlock); e < end; ++e)
            linksOfEdge(e, edges, buckets, pieces, planes, step, candidates, merged, blocks[b]);
    });
    return blocks;
}

} // namespace

std::vector<Link> findLinks(const std::vector<Piece>& pieces, const std::vector<Plane>& planes, double step,
                            Grid grid, unsigned threads) {
    // Blocks joined in edge order: the same links in the same order for any thread count.
    std::vector<std::vector<Link>> blocks = linkBlocks(pieces, planes, step, grid, threads);
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
