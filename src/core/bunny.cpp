#include "core/bunny.h"

#include "core/mesh_files.h"

#include <cstdlib>

namespace {

// assets/bunny.tet is assets/bunny.obj tetrahedralized once, by
//   softbody-tetrahedralize assets/bunny.obj --resolution 12 --out assets/bunny.tet
// (kBunnyTetResolution; 1,192 vertices, 4,787 tets). Loading it takes a
// few milliseconds where tetrahedralizing takes a quarter to half a second
// on the 2-core development machine; a test checks that it still matches
// what the tetrahedralizer makes.
constexpr const char* kBunnyTetFile = "bunny.tet";
constexpr const char* kBunnySurfaceFile = "bunny.obj";
constexpr float kBunnyLongestSide_m = 0.6f;  // its length, nose to tail; 0.58 m tall
constexpr float kBunnyDropHeight_m = 0.25f;
constexpr float kBunnyTilt_rad = 0.12f;      // about 7 degrees: it lands and stays upright

}  // namespace

std::string asset_directory()
{
    if (const char* dir = std::getenv("SOFTBODY_ASSET_DIR"); dir && *dir) {
        return dir;
    }
    return SOFTBODY_ASSET_DIR;
}

Result<TetMeshDesc> make_bunny_mesh(bool upright, int resolution)
{
    // Read only: every preset is prepared once it is placed.
    TetrahedralizeOptions options;
    options.cells_along_longest_side = resolution;
    Result<TetMeshDesc> mesh =
        resolution == kBunnyTetResolution
            ? read_mesh_file(asset_directory() + "/" + kBunnyTetFile, {})
            : read_mesh_file(asset_directory() + "/" + kBunnySurfaceFile, options);
    if (!mesh) {
        return mesh;
    }
    mesh.value().name = "bunny";
    // The scanned surface the tets were made from, drawn in their place.
    Result<SurfaceMesh> surface = load_obj_surface(asset_directory() + "/" + kBunnySurfaceFile);
    if (!surface) {
        return Result<TetMeshDesc>::failure(surface.error());
    }
    mesh.value().skin = std::make_shared<const SurfaceMesh>(std::move(surface).value());
    const Result<bool> placed =
        place_above_ground(mesh.value(), kBunnyLongestSide_m, kBunnyDropHeight_m,
                           upright ? 0.0f : kBunnyTilt_rad);
    if (!placed) {
        return Result<TetMeshDesc>::failure(placed.error());
    }
    return mesh;
}
