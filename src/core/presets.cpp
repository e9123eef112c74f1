#include "core/presets.h"

#include "core/bunny.h"
#include "core/lattice.h"
#include "core/mesh_files.h"

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>

namespace {

// Rotates every vertex about `axis` through the mesh's centroid, then lifts
// the mesh so that its lowest point is at `lowest_y_m`.
void tilt_and_lift(TetMeshDesc& desc, float angle_rad, glm::vec3 axis, float lowest_y_m)
{
    glm::vec3 centroid(0.0f);
    for (const glm::vec3& p : desc.positions) {
        centroid += p;
    }
    centroid /= static_cast<float>(desc.positions.size());
    const glm::mat3 rotation(glm::rotate(glm::mat4(1.0f), angle_rad, glm::normalize(axis)));
    float lowest = INFINITY;
    for (glm::vec3& p : desc.positions) {
        p = centroid + rotation * (p - centroid);
        lowest = std::min(lowest, p.y);
    }
    for (glm::vec3& p : desc.positions) {
        p.y += lowest_y_m - lowest;
    }
    desc.skin = moved_surface(desc.skin, [&](const glm::vec3& p) {
        glm::vec3 q = centroid + rotation * (p - centroid);
        q.y += lowest_y_m - lowest;
        return q;
    });
}

// Shirley & Chiu 1997 concentric map from the square [-1,1]^2 to the unit
// disk: keeps the grid's cells close to equal area and free of slivers.
glm::vec2 square_to_disk(float a, float b)
{
    if (a == 0.0f && b == 0.0f) {
        return {0.0f, 0.0f};
    }
    const float quarter_pi = glm::quarter_pi<float>();
    float r;
    float phi;
    if (std::abs(a) > std::abs(b)) {
        r = a;
        phi = quarter_pi * (b / a);
    } else {
        r = b;
        phi = glm::half_pi<float>() - quarter_pi * (a / b);
    }
    return {r * std::cos(phi), r * std::sin(phi)};
}

// 6x6x6 cells, 0.5 m, dropped on a corner-ish tilt.
TetMeshDesc make_cube(bool upright)
{
    const float side_m = 0.5f;
    TetMeshDesc desc = box_lattice({6, 6, 6}, glm::vec3(-0.5f * side_m), glm::vec3(side_m));
    tilt_and_lift(desc, upright ? 0.0f : glm::radians(35.0f), {1.0f, 0.0f, 0.6f}, 0.5f);
    return desc;
}

// 24 segments of a 4x4-cell square grid mapped onto a disk: a ring of major
// radius 0.35 m and tube radius 0.15 m, lying nearly flat.
TetMeshDesc make_torus(bool upright)
{
    const int grid_cells = 4;
    const int segments = 24;
    const float major_radius_m = 0.35f;
    const float tube_radius_m = 0.15f;
    TetMeshDesc desc = kuhn_lattice(
        {grid_cells, grid_cells, segments, true}, [&](int i, int j, int k) {
            const float a = 2.0f * static_cast<float>(i) / grid_cells - 1.0f;
            const float b = 2.0f * static_cast<float>(j) / grid_cells - 1.0f;
            const glm::vec2 disk = square_to_disk(a, b) * tube_radius_m;
            const float theta = glm::two_pi<float>() * static_cast<float>(k) / segments;
            const float radius = major_radius_m + disk.x;
            return glm::vec3(radius * std::cos(theta), disk.y, radius * std::sin(theta));
        });
    tilt_and_lift(desc, upright ? 0.0f : glm::radians(25.0f), {1.0f, 0.0f, 0.3f}, 0.8f);
    return desc;
}

// 12x4x4 cells, 1.2 x 0.4 x 0.4 m, its left face (x = -0.6 m) pinned: a
// cantilever sagging under its own weight.
TetMeshDesc make_beam()
{
    const glm::ivec3 cells(12, 4, 4);
    const glm::vec3 size_m(1.2f, 0.4f, 0.4f);
    TetMeshDesc desc = box_lattice(cells, {-0.6f, 1.0f, -0.2f}, size_m);
    for (uint32_t v = 0; v < desc.positions.size(); ++v) {
        if (v % (cells.x + 1) == 0) {
            desc.pinned_vertices.push_back(v);
        }
    }
    return desc;
}

}  // namespace

const std::vector<Preset>& all_presets()
{
    static const std::vector<Preset> presets = {
        {PresetId::bunny, "bunny", "Stanford bunny, 1,192 vertices, 4,787 tets", 5.0e5f},
        {PresetId::cube, "cube", "343 vertices, 1,296 tets, dropped tilted", 2.0e5f},
        {PresetId::torus, "torus", "600 vertices, 2,304 tets, large rotations", 1.0e5f},
        {PresetId::beam, "beam", "325 vertices, 1,152 tets, left face pinned", 1.0e6f},
    };
    return presets;
}

const Preset& preset_info(PresetId id)
{
    for (const Preset& p : all_presets()) {
        if (p.id == id) {
            return p;
        }
    }
    return all_presets().front();
}

std::optional<PresetId> preset_from_name(std::string_view name)
{
    for (const Preset& p : all_presets()) {
        if (name == p.name) {
            return p.id;
        }
    }
    return std::nullopt;
}

Result<TetMeshDesc> make_preset_mesh(PresetId id, PresetPose pose)
{
    const bool upright = pose == PresetPose::upright;
    TetMeshDesc desc;
    switch (id) {
    case PresetId::bunny: {
        Result<TetMeshDesc> bunny = make_bunny_mesh(upright);
        if (!bunny) {
            return bunny;
        }
        desc = std::move(bunny).value();
        break;
    }
    case PresetId::cube: desc = make_cube(upright); break;
    case PresetId::torus: desc = make_torus(upright); break;
    case PresetId::beam: desc = make_beam(); break;
    }
    desc.name = preset_info(id).name;
    return desc;
}

Result<TetMeshDesc> make_body_from_file(const std::string& path, int resolution,
                                        LoadProgress* progress)
{
    TetrahedralizeOptions options;
    options.cells_along_longest_side = resolution;
    options.progress = progress;
    Result<TetMeshDesc> loaded = read_mesh_file(path, options);
    if (!loaded) {
        return loaded;
    }
    TetMeshDesc desc = std::move(loaded).value();
    const Result<bool> placed = place_above_ground(desc, 0.6f, 0.4f, glm::radians(15.0f));
    if (!placed) {
        return Result<TetMeshDesc>::failure(placed.error());
    }
    return desc;
}

Result<TetMesh> prepare_body_from_file(const std::string& path, int resolution,
                                       LoadProgress* progress)
{
    Result<TetMeshDesc> desc = make_body_from_file(path, resolution, progress);
    if (!desc) {
        return Result<TetMesh>::failure(desc.error());
    }
    return prepare_tet_mesh(desc.value(), progress);
}
