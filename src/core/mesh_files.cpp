#include "core/mesh_files.h"

#include "core/surface_mesh.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

namespace {

std::string lowercase_extension(const std::string& path)
{
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

}  // namespace

Result<TetMeshDesc> read_mesh_file(const std::string& path, const TetrahedralizeOptions& options)
{
    const std::string ext = lowercase_extension(path);
    enter_stage(options.progress, kReadingStage);
    if (ext == ".obj") {
        Result<SurfaceMesh> surface = load_obj_surface(path);
        if (!surface) {
            return Result<TetMeshDesc>::failure(surface.error());
        }
        report_progress(options.progress, 1.0);
        if (load_cancelled(options.progress)) {
            return Result<TetMeshDesc>::failure(load_cancelled_message(path));
        }
        return tetrahedralize(surface.value(), options, path);
    }
    if (ext == ".node" || ext == ".ele") {
        return load_tetgen_files(path);
    }
    if (ext == ".tet") {
        return load_tet_file(path);
    }
    return Result<TetMeshDesc>::failure("'" + path + "': unknown kind of file '" + ext +
                                        "' (expected .obj, .node/.ele or .tet)");
}

Result<TetMeshDesc> load_mesh_file(const std::string& path, const TetrahedralizeOptions& options)
{
    Result<TetMeshDesc> loaded = read_mesh_file(path, options);
    if (!loaded) {
        return loaded;
    }
    // The checks the solvers will make, now, while the file can be named.
    const Result<TetMesh> prepared = prepare_tet_mesh(loaded.value(), options.progress);
    if (!prepared) {
        return Result<TetMeshDesc>::failure(prepared.error());
    }
    return loaded;
}

void place_above_ground(TetMeshDesc& mesh, float target_size_m, float lowest_y_m, float tilt_rad)
{
    if (mesh.positions.empty()) {
        return;
    }
    glm::vec3 lo = mesh.positions[0], hi = mesh.positions[0];
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const glm::vec3 size = hi - lo;
    const float longest = std::max(size.x, std::max(size.y, size.z));
    const float scale = longest > 0.0f ? target_size_m / longest : 1.0f;
    const glm::vec3 centre = 0.5f * (lo + hi);
    // A tilt about an axis between x and z, so that a symmetric body lands
    // on an edge and tumbles instead of settling flat at once.
    const glm::mat3 rotation(
        glm::rotate(glm::mat4(1.0f), tilt_rad, glm::normalize(glm::vec3(1.0f, 0.0f, 0.6f))));
    float lowest = INFINITY;
    for (glm::vec3& p : mesh.positions) {
        p = rotation * ((p - centre) * scale);
        lowest = std::min(lowest, p.y);
    }
    for (glm::vec3& p : mesh.positions) {
        p.y += lowest_y_m - lowest;
    }
}
