// Detour TileCache as the obstacle benchmark's peer: RecastDemo's Sample_TempObstacles build
// (tiled heightfield layers kept in a dtTileCache, navmesh tiles rebuilt round obstacles) on the
// same triangles and settings as the solo-mesh peer (recast_peer.h).
#pragma once

#include "recast_peer.h"

#include <DetourTileCache.h>

#include <memory>

namespace clearway::bench {

struct TileCacheResult {
    std::shared_ptr<dtNavMesh> navmesh;
    std::shared_ptr<dtTileCache> cache;
    std::shared_ptr<void> keep; // the allocator, compressor and mesh process the cache points at
    int tiles = 0, layers = 0;
    double seconds = 0;
};

// RecastDemo's temp-obstacles sample: 48-cell tiles, every tile's layers added to the cache (no
// compression: the comparison is about the update, not the memory), then every navmesh tile built.
bake::Error buildTileCache(const ObjMesh& mesh, const RecastSettings& s, int max_obstacles,
                           TileCacheResult* out);

} // namespace clearway::bench
