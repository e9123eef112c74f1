#include "core/mesh_files.h"

#include "core/number_text.h"
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
        Result<TetMeshDesc> tets = tetrahedralize(surface.value(), options, path);
        if (tets) {
            tets.value().skin = std::make_shared<const SurfaceMesh>(std::move(surface).value());
        }
        return tets;
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

Result<bool> place_above_ground(TetMeshDesc& mesh, float target_size_m, float lowest_y_m,
                                float tilt_rad)
{
    if (mesh.positions.empty()) {
        return true;
    }
    const std::string name =
        "mesh '" + (mesh.name.empty() ? std::string("unnamed") : mesh.name) + "': ";
    // In double: in float, 0.6 m / 1e-40 overflows to infinity and a box
    // from -3e38 to 3e38 has an infinite size.
    glm::dvec3 lo(mesh.positions[0]), hi = lo;
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, glm::dvec3(p));
        hi = glm::max(hi, glm::dvec3(p));
    }
    const glm::dvec3 size = hi - lo;
    const double longest = std::max(size.x, std::max(size.y, size.z));
    if (!(longest > 0.0)) {
        return Result<bool>::failure(name + "all vertices are at one point: nothing to scale to " +
                                     short_number(target_size_m) + " m");
    }
    const double scale = static_cast<double>(target_size_m) / longest;
    const glm::dvec3 centre = 0.5 * (lo + hi);
    // A tilt about an axis between x and z, so that a symmetric body lands
    // on an edge and tumbles instead of settling flat at once.
    const glm::dmat3 rotation(glm::rotate(glm::dmat4(1.0), static_cast<double>(tilt_rad),
                                          glm::normalize(glm::dvec3(1.0, 0.0, 0.6))));
    std::vector<glm::dvec3> placed(mesh.positions.size());
    double lowest = INFINITY;
    for (size_t v = 0; v < placed.size(); ++v) {
        placed[v] = rotation * ((glm::dvec3(mesh.positions[v]) - centre) * scale);
        lowest = std::min(lowest, placed[v].y);
    }
    const double lift = static_cast<double>(lowest_y_m) - lowest;
    for (glm::dvec3& p : placed) {
        p.y += lift;
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            return Result<bool>::failure(name + "its extent of " + short_number(longest) +
                                         " cannot be scaled to " + short_number(target_size_m) +
                                         " m: the placed coordinates are not finite");
        }
    }
    for (size_t v = 0; v < placed.size(); ++v) {
        mesh.positions[v] = glm::vec3(placed[v]);
    }
    // The drawn surface goes where the tets go. It lies within the tets'
    // bounds give or take a cell, so it stays finite where they do.
    mesh.skin = moved_surface(mesh.skin, [&](const glm::vec3& p) {
        glm::dvec3 q = rotation * ((glm::dvec3(p) - centre) * scale);
        q.y += lift;
        return glm::vec3(q);
    });
    return true;
}
