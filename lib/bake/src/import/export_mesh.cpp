// Triangle soup -> any Assimp export format: sample levels and importer round-trip tests.
#include <clearway/bake.h>

#include <assimp/Exporter.hpp>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace clearway::bake {

namespace {

namespace fs = std::filesystem;

// One mesh under the root node with one default material (glTF and FBX need a material).
std::unique_ptr<aiScene> makeScene(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices) {
    auto scene = std::make_unique<aiScene>();
    // Vertices are shared between faces: exporters that need one vertex per corner expand them.
    scene->mFlags = AI_SCENE_FLAGS_NON_VERBOSE_FORMAT;

    scene->mNumMaterials = 1;
    scene->mMaterials = new aiMaterial*[1];
    scene->mMaterials[0] = new aiMaterial();
    const aiString material_name("default");
    scene->mMaterials[0]->AddProperty(&material_name, AI_MATKEY_NAME);
    const aiColor3D grey(0.6f, 0.6f, 0.6f);
    scene->mMaterials[0]->AddProperty(&grey, 1, AI_MATKEY_COLOR_DIFFUSE);

    scene->mNumMeshes = 1;
    scene->mMeshes = new aiMesh*[1];
    aiMesh* mesh = scene->mMeshes[0] = new aiMesh();
    mesh->mName = "level";
    mesh->mMaterialIndex = 0;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = static_cast<unsigned>(positions.size());
    mesh->mVertices = new aiVector3D[positions.size()];
    for (size_t i = 0; i < positions.size(); ++i)
        mesh->mVertices[i] =
            aiVector3D(static_cast<ai_real>(positions[i].x), static_cast<ai_real>(positions[i].y),
                       static_cast<ai_real>(positions[i].z));
    mesh->mNumFaces = static_cast<unsigned>(indices.size() / 3);
    mesh->mFaces = new aiFace[mesh->mNumFaces];
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        aiFace& face = mesh->mFaces[f];
        face.mNumIndices = 3;
        face.mIndices = new unsigned[3];
        for (unsigned k = 0; k < 3; ++k)
            face.mIndices[k] = indices[3 * f + k];
    }

    scene->mRootNode = new aiNode("root");
    scene->mRootNode->mNumMeshes = 1;
    scene->mRootNode->mMeshes = new unsigned[1]{0};
    return scene;
}

// FBX files say what they are in (GlobalSettings), and loadMesh reads it: Assimp's exporter writes
// the scene's metadata there (else 1 cm per unit, Y up). Front and coordinate axes as 3ds Max
// writes a Z-up file (x right, -y front) or Blender a Y-up one (x right, z front).
void declareFbxUnits(aiScene* scene, UpAxis up, double scale) {
    const bool z_up = up == UpAxis::Z;
    scene->mMetaData = aiMetadata::Alloc(7);
    scene->mMetaData->Set(0, "UnitScaleFactor", scale * 100); // centimetres per unit
    scene->mMetaData->Set(1, "UpAxis", int32_t(z_up ? 2 : 1));
    scene->mMetaData->Set(2, "UpAxisSign", int32_t(1));
    scene->mMetaData->Set(3, "FrontAxis", int32_t(z_up ? 1 : 2));
    scene->mMetaData->Set(4, "FrontAxisSign", int32_t(z_up ? -1 : 1));
    scene->mMetaData->Set(5, "CoordAxis", int32_t(0));
    scene->mMetaData->Set(6, "CoordAxisSign", int32_t(1));
}

bool formatKnown(const Assimp::Exporter& exporter, const std::string& id, std::string* known) {
    bool found = false;
    for (size_t i = 0; i < exporter.GetExportFormatCount(); ++i) {
        const aiExportFormatDesc* desc = exporter.GetExportFormatDescription(i);
        if (!desc) continue;
        if (id == desc->id) found = true;
        *known += (known->empty() ? "" : ", ") + std::string(desc->id);
    }
    return found;
}

} // namespace

Error exportTriangles(const std::vector<Vec3>& world_positions, const std::vector<uint32_t>& indices,
                      const std::string& format_id, const std::string& path, UpAxis up, double scale) {
    const std::string what = path + " (" + format_id + ")";
    if (indices.size() < 3 || indices.size() % 3 != 0)
        return {ErrorCode::EmptyMesh,
                what + ": nothing to export: the index count is not a positive multiple of 3"};
    for (uint32_t index : indices)
        if (index >= world_positions.size())
            return {ErrorCode::ReadFailed,
                    what + ": triangle index " + std::to_string(index) + " out of range"};
    for (const Vec3& p : world_positions)
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            return {ErrorCode::NonFiniteVertex, what + ": a vertex is not a finite number"};

    fs::path staging;
    try {
        Assimp::Exporter exporter;
        std::string known;
        if (!formatKnown(exporter, format_id, &known))
            return {ErrorCode::InvalidOption, what + ": unknown export format; Assimp knows: " + known};

        // Export into a private folder next to the target, then rename each file into place:
        // readers never see a partial file, and a failure leaves nothing behind. Companion files
        // (.mtl, .bin) keep the target's base name, so references between them stay valid.
        const fs::path target(path);
        const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
        if (!fs::is_directory(folder)) return {ErrorCode::WriteFailed, what + ": folder does not exist"};
        std::string pattern = (folder / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
        if (!mkdtemp(pattern.data()))
            return {ErrorCode::WriteFailed, what + ": cannot create a temporary folder"};
        staging = pattern;

        const std::unique_ptr<aiScene> scene = makeScene(world_positions, indices);
        if (format_id == "fbx" || format_id == "fbxa") declareFbxUnits(scene.get(), up, scale);
        const fs::path staged = staging / target.filename();
        if (exporter.Export(scene.get(), format_id, staged.string()) != aiReturn_SUCCESS) {
            const std::string why = exporter.GetErrorString();
            fs::remove_all(staging);
            return {ErrorCode::WriteFailed,
                    what + ": Assimp export failed: " + (why.empty() ? "no reason given" : why)};
        }
        if (!fs::exists(staged)) {
            fs::remove_all(staging);
            return {ErrorCode::WriteFailed, what + ": Assimp reported success but wrote no file"};
        }
        for (const fs::directory_entry& entry : fs::directory_iterator(staging))
            fs::rename(entry.path(), folder / entry.path().filename());
        fs::remove(staging);
        return {};
    } catch (const std::exception& e) {
        std::error_code ignored;
        if (!staging.empty()) fs::remove_all(staging, ignored);
        return {ErrorCode::WriteFailed, what + ": " + e.what()};
    } catch (...) {
        std::error_code ignored;
        if (!staging.empty()) fs::remove_all(staging, ignored);
        return {ErrorCode::WriteFailed, what + ": unknown exception during export"};
    }
}

} // namespace clearway::bake
