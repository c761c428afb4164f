// The up axis and scale a mesh file declares (Assimp's scene metadata, the formats' own rules), and
// which of them, the options or the defaults an import uses.
#include <clearway/bake.h>

#include "import/import_internal.h"

#include <assimp/commonMetaData.h>
#include <assimp/scene.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace clearway::bake {

namespace {

// What a file says about its frame; has_up / has_scale false: nothing.
struct Declared {
    bool has_up = false, has_scale = false;
    UpAxis up = UpAxis::Y;
    double scale = 1;
    std::string up_why, scale_why;
};

// The shortest decimal that reads back as `value`'s float (Assimp stores FBX numbers as floats:
// 2.54f prints as 2.54, not 2.53999996).
double shortestDecimal(double value, std::string* text) {
    char buffer[40];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
        if (float(std::strtod(buffer, nullptr)) == float(value)) break;
    }
    *text = buffer;
    return std::strtod(buffer, nullptr);
}

bool metadataNumber(const aiMetadata& meta, const char* key, double* out) {
    const aiMetadataEntry* entry = nullptr;
    for (unsigned i = 0; i < meta.mNumProperties && !entry; ++i)
        if (std::strcmp(meta.mKeys[i].C_Str(), key) == 0) entry = &meta.mValues[i];
    if (!entry || !entry->mData) return false;
    switch (entry->mType) {
    case AI_INT32:
        *out = *static_cast<const int32_t*>(entry->mData);
        return true;
    case AI_FLOAT:
        *out = *static_cast<const float*>(entry->mData);
        return true;
    case AI_DOUBLE:
        *out = *static_cast<const double*>(entry->mData);
        return true;
    default:
        return false;
    }
}

// FBX's GlobalSettings, which Assimp 5.2 reports and does not apply (vertices stay in file units,
// in the file's axes; AI_CONFIG_FBX_CONVERT_TO_M is off). Only the up axis matters to clearway:
// the front and coordinate axes only say how the file's own x and y are named, and clearway keeps
// the file's coordinates as the world's.
Declared fbxDeclaration(const aiMetadata& meta, const std::string& name, LogContext& log) {
    Declared d;
    double axis = -1, sign = 1, factor = 0;
    if (metadataNumber(meta, "UpAxis", &axis)) {
        metadataNumber(meta, "UpAxisSign", &sign);
        if ((axis == 1 || axis == 2) && sign == 1) {
            d.has_up = true;
            d.up = axis == 1 ? UpAxis::Y : UpAxis::Z;
            d.up_why = "the file's UpAxis";
        } else {
            const char* axis_name = axis == 0 ? "x" : axis == 1 ? "y" : axis == 2 ? "z" : "unknown";
            log.log(LogLevel::Warn, name + ": the file declares its up axis as " + (sign < 0 ? "-" : "") +
                                        axis_name + ", which clearway cannot use (only +y or +z): pass --up");
        }
    }
    if (metadataNumber(meta, "UnitScaleFactor", &factor)) {
        if (std::isfinite(factor) && factor > 0) {
            std::string text;
            d.has_scale = true;
            d.scale = shortestDecimal(factor, &text) / 100; // centimetres per unit -> metres per unit
            d.scale_why = "the file's UnitScaleFactor: " + text + " cm per unit";
        } else {
            log.log(LogLevel::Warn, name + ": the file's UnitScaleFactor is not a positive number; ignored");
        }
    }
    return d;
}

Declared declarationOf(const aiScene* scene, const std::string& name, LogContext& log) {
    aiString format;
    if (!scene || !scene->mMetaData || !scene->mMetaData->Get(std::string(AI_METADATA_SOURCE_FORMAT), format))
        return {};
    const std::string reader = format.C_Str();
    if (reader.rfind("Autodesk FBX", 0) == 0) return fbxDeclaration(*scene->mMetaData, name, log);
    Declared d;
    d.has_up = d.has_scale = true; // Y up, 1 m per unit
    if (reader.rfind("glTF", 0) == 0) {
        d.up_why = "glTF is Y up";
        d.scale_why = "glTF is in metres";
    } else if (reader.rfind("Collada", 0) == 0) {
        // Assimp turns <up_axis> Z_UP into Y up and scales by <unit meter> in the root transform.
        d.up_why = "the file's <up_axis>, made Y up by Assimp";
        d.scale_why = "the file's <unit>, applied by Assimp";
    } else {
        return {};
    }
    return d;
}

} // namespace

namespace detail {

ImportUnits unitsFor(const aiScene* scene, const ImportOptions& options, const std::string& name,
                     LogContext& log) {
    const Declared declared = declarationOf(scene, name, log);
    ImportUnits units;
    if (options.up_given) {
        units.up = options.up, units.up_source = UnitsSource::Option, units.up_why = "--up";
    } else if (declared.has_up) {
        units.up = declared.up, units.up_source = UnitsSource::File, units.up_why = declared.up_why;
    } else {
        units.up = options.up, units.up_source = UnitsSource::Default, units.up_why = "default";
    }
    if (options.scale_given) {
        units.scale = options.scale, units.scale_source = UnitsSource::Option, units.scale_why = "--scale";
    } else if (declared.has_scale) {
        units.scale = declared.scale, units.scale_source = UnitsSource::File,
        units.scale_why = declared.scale_why;
    } else {
        units.scale = options.scale, units.scale_source = UnitsSource::Default, units.scale_why = "default";
    }
    return units;
}

} // namespace detail

ImportOptions optionsUsed(const Mesh& mesh, ImportOptions options) {
    options.up = mesh.units.up;
    options.scale = mesh.units.scale;
    options.up_given = options.scale_given = true;
    return options;
}

std::string unitsText(const ImportUnits& units) {
    char scale[32];
    std::snprintf(scale, sizeof scale, "%.10g", units.scale);
    return std::string("up ") + (units.up == UpAxis::Y ? "y" : "z") + " (" + units.up_why + "), scale " +
           scale + " m per unit (" + units.scale_why + ")";
}

} // namespace clearway::bake
