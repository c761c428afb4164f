// Shared by loadMesh (files) and loadMeshFromMemory (bytes): one importer setup, one scene walk.
#pragma once

#include <clearway/bake.h>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

namespace clearway::bake::detail {

// Sets the importer properties and returns the post-processing flags both loaders use.
unsigned configureImporter(Assimp::Importer& importer);

// Every triangle of every mesh of `scene` (node transforms already applied), validated and moved
// into the internal frame by meshFromTriangles. `name` is used in messages.
Error meshFromScene(const aiScene& scene, const ImportOptions& options, const std::string& name, Mesh* out);

} // namespace clearway::bake::detail
