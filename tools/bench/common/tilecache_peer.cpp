// Detour TileCache built as RecastDemo's Sample_TempObstacles does (rasterizeTileLayers, a linear
// allocator, walkable polygons marked "ground" / "walk"), with a copying compressor.
#include "tilecache_peer.h"

#include <DetourAlloc.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace clearway::bench {

namespace {

constexpr int kTileSize = 48, kMaxLayersPerTile = 32;

struct CopyCompressor : dtTileCacheCompressor {
    int maxCompressedSize(const int size) override { return size; }
    dtStatus compress(const unsigned char* in, const int size, unsigned char* out, const int,
                      int* out_size) override {
        std::memcpy(out, in, size_t(size));
        *out_size = size;
        return DT_SUCCESS;
    }
    dtStatus decompress(const unsigned char* in, const int size, unsigned char* out, const int max_size,
                        int* out_size) override {
        if (size > max_size) return DT_FAILURE;
        std::memcpy(out, in, size_t(size));
        *out_size = size;
        return DT_SUCCESS;
    }
};

// RecastDemo's LinearAllocator: one block, reset before each tile build.
struct LinearAllocator : dtTileCacheAlloc {
    std::vector<unsigned char> buffer = std::vector<unsigned char>(32 << 20);
    size_t top = 0;
    void reset() override { top = 0; }
    void* alloc(const size_t size) override {
        const size_t at = (top + 15) & ~size_t(15);
        if (at + size > buffer.size()) return nullptr;
        top = at + size;
        return buffer.data() + at;
    }
    void free(void*) override {}
};

struct GroundProcess : dtTileCacheMeshProcess {
    void process(dtNavMeshCreateParams* params, unsigned char* areas, unsigned short* flags) override {
        for (int i = 0; i < params->polyCount; ++i)
            if (areas[i] == DT_TILECACHE_WALKABLE_AREA) areas[i] = 0, flags[i] = 1;
    }
};

struct Helpers {
    CopyCompressor comp;
    LinearAllocator alloc;
    GroundProcess process;
};

bake::Error failed(const char* step) {
    return bake::Error{bake::ErrorCode::Internal, std::string("tilecache: ") + step + " failed"};
}

// The triangles whose XZ bounds meet [x0, x1] x [z0, z1].
std::vector<int> trianglesIn(const ObjMesh& mesh, float x0, float z0, float x1, float z1) {
    std::vector<int> tris;
    for (int t = 0; t < mesh.triangleCount(); ++t) {
        float lo_x = INFINITY, lo_z = INFINITY, hi_x = -INFINITY, hi_z = -INFINITY;
        for (int k = 0; k < 3; ++k) {
            const float* v = &mesh.verts[size_t(mesh.tris[size_t(t) * 3 + k]) * 3];
            lo_x = std::min(lo_x, v[0]), hi_x = std::max(hi_x, v[0]);
            lo_z = std::min(lo_z, v[2]), hi_z = std::max(hi_z, v[2]);
        }
        if (hi_x >= x0 && lo_x <= x1 && hi_z >= z0 && lo_z <= z1)
            tris.insert(tris.end(), &mesh.tris[size_t(t) * 3], &mesh.tris[size_t(t) * 3] + 3);
    }
    return tris;
}

// One tile's heightfield layers, each added to the cache (rasterizeTileLayers).
bool addTileLayers(const ObjMesh& mesh, const rcConfig& base, int tx, int ty, Helpers& h, dtTileCache& cache,
                   int* layers) {
    rcContext ctx(false);
    rcConfig cfg = base;
    const float tcs = float(kTileSize) * cfg.cs;
    cfg.bmin[0] = base.bmin[0] + float(tx) * tcs - float(cfg.borderSize) * cfg.cs;
    cfg.bmin[2] = base.bmin[2] + float(ty) * tcs - float(cfg.borderSize) * cfg.cs;
    cfg.bmax[0] = base.bmin[0] + float(tx + 1) * tcs + float(cfg.borderSize) * cfg.cs;
    cfg.bmax[2] = base.bmin[2] + float(ty + 1) * tcs + float(cfg.borderSize) * cfg.cs;
    rcHeightfield* solid = rcAllocHeightfield();
    rcCompactHeightfield* chf = rcAllocCompactHeightfield();
    rcHeightfieldLayerSet* lset = rcAllocHeightfieldLayerSet();
    bool ok = solid && chf && lset &&
              rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch);
    const std::vector<int> tris = trianglesIn(mesh, cfg.bmin[0], cfg.bmin[2], cfg.bmax[0], cfg.bmax[2]);
    const int nt = int(tris.size() / 3);
    std::vector<unsigned char> areas(size_t(nt), 0);
    if (ok && nt > 0) {
        rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, mesh.verts.data(), mesh.vertexCount(),
                                tris.data(), nt, areas.data());
        ok = rcRasterizeTriangles(&ctx, mesh.verts.data(), mesh.vertexCount(), tris.data(), areas.data(), nt,
                                  *solid, cfg.walkableClimb);
    }
    if (ok && nt > 0) {
        rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
        rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
        rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);
        ok = rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf) &&
             rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf) &&
             rcBuildHeightfieldLayers(&ctx, *chf, cfg.borderSize, cfg.walkableHeight, *lset);
        for (int i = 0; ok && i < std::min(lset->nlayers, kMaxLayersPerTile); ++i) {
            const rcHeightfieldLayer& layer = lset->layers[i];
            dtTileCacheLayerHeader header{};
            header.magic = DT_TILECACHE_MAGIC;
            header.version = DT_TILECACHE_VERSION;
            header.tx = tx, header.ty = ty, header.tlayer = i;
            std::copy(layer.bmin, layer.bmin + 3, header.bmin);
            std::copy(layer.bmax, layer.bmax + 3, header.bmax);
            header.width = (unsigned char)layer.width, header.height = (unsigned char)layer.height;
            header.minx = (unsigned char)layer.minx, header.maxx = (unsigned char)layer.maxx;
            header.miny = (unsigned char)layer.miny, header.maxy = (unsigned char)layer.maxy;
            header.hmin = (unsigned short)layer.hmin, header.hmax = (unsigned short)layer.hmax;
            unsigned char* data = nullptr;
            int size = 0;
            ok = dtStatusSucceed(dtBuildTileCacheLayer(&h.comp, &header, layer.heights, layer.areas,
                                                       layer.cons, &data, &size)) &&
                 dtStatusSucceed(cache.addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr));
            *layers += ok;
        }
    }
    rcFreeHeightField(solid);
    rcFreeCompactHeightfield(chf);
    rcFreeHeightfieldLayerSet(lset);
    return ok;
}

} // namespace

bake::Error buildTileCache(const ObjMesh& mesh, const RecastSettings& s, int max_obstacles,
                           TileCacheResult* out) {
    const auto start = std::chrono::steady_clock::now();
    rcConfig cfg = recastConfig(mesh, s); // the whole mesh's grid, then one tile's
    const int tw = (cfg.width + kTileSize - 1) / kTileSize, th = (cfg.height + kTileSize - 1) / kTileSize;
    cfg.tileSize = kTileSize;
    cfg.borderSize = cfg.walkableRadius + 3;
    cfg.width = cfg.height = kTileSize + 2 * cfg.borderSize;

    auto helpers = std::make_shared<Helpers>();
    dtTileCacheParams tcp{};
    std::copy(cfg.bmin, cfg.bmin + 3, tcp.orig);
    tcp.cs = cfg.cs, tcp.ch = cfg.ch;
    tcp.width = tcp.height = kTileSize;
    tcp.walkableHeight = s.agent_height, tcp.walkableRadius = s.agent_radius,
    tcp.walkableClimb = s.agent_max_climb;
    tcp.maxSimplificationError = s.edge_max_error;
    tcp.maxTiles = tw * th * kMaxLayersPerTile;
    tcp.maxObstacles = max_obstacles;
    out->cache.reset(dtAllocTileCache(), dtFreeTileCache);
    if (!out->cache ||
        dtStatusFailed(out->cache->init(&tcp, &helpers->alloc, &helpers->comp, &helpers->process)))
        return failed("dtTileCache::init");
    dtNavMeshParams np{};
    std::copy(cfg.bmin, cfg.bmin + 3, np.orig);
    np.tileWidth = np.tileHeight = float(kTileSize) * cfg.cs;
    int tile_bits = 1;
    while ((1 << tile_bits) < tcp.maxTiles)
        ++tile_bits;
    tile_bits = std::min(tile_bits, 14);
    np.maxTiles = 1 << tile_bits;
    np.maxPolys = 1 << (22 - tile_bits);
    out->navmesh.reset(dtAllocNavMesh(), dtFreeNavMesh);
    if (!out->navmesh || dtStatusFailed(out->navmesh->init(&np))) return failed("dtNavMesh::init");
    for (int y = 0; y < th; ++y)
        for (int x = 0; x < tw; ++x)
            if (!addTileLayers(mesh, cfg, x, y, *helpers, *out->cache, &out->layers))
                return failed("tile layers");
    for (int y = 0; y < th; ++y)
        for (int x = 0; x < tw; ++x)
            if (dtStatusFailed(out->cache->buildNavMeshTilesAt(x, y, out->navmesh.get())))
                return failed("buildNavMeshTilesAt");
    out->tiles = tw * th;
    out->keep = helpers;
    out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {};
}

} // namespace clearway::bench
