#include "core/grab.h"

#include "core/grab_math.h"

#include <algorithm>
#include <cmath>

Grab grab_vertex(uint32_t vertex, glm::vec3 target_m, float stiffness_n_per_m)
{
    return {glm::uvec3(vertex), glm::vec3(1.0f, 0.0f, 0.0f), target_m, stiffness_n_per_m};
}

Grab grab_hit(const SurfaceHit& hit, float stiffness_n_per_m)
{
    return {hit.vertices, hit.barycentric, hit.point_m, stiffness_n_per_m};
}

std::optional<SurfaceHit> pick_surface(const TetMesh& mesh,
                                       const std::vector<glm::vec3>& positions, const Ray& ray)
{
    std::optional<SurfaceHit> nearest;
    for (uint32_t f = 0; f < mesh.surface_triangles.size(); ++f) {
        const glm::uvec3& tri = mesh.surface_triangles[f];
        glm::vec3 barycentric;
        const float t = grab_math::tm_ray_triangle(ray.origin_m, ray.direction, positions[tri.x],
                                                   positions[tri.y], positions[tri.z],
                                                   barycentric);
        // Strictly nearer: on a tie the lower triangle index wins, as on the GPU.
        if (t > 0.0f && (!nearest || t < nearest->distance_m)) {
            nearest = SurfaceHit{f, tri, barycentric, t, ray.origin_m + t * ray.direction};
        }
    }
    return nearest;
}

float sanitized_grab_stiffness(float stiffness_n_per_m)
{
    if (!std::isfinite(stiffness_n_per_m)) {
        return kDefaultGrabStiffness;
    }
    return std::clamp(stiffness_n_per_m, 1.0f, 1.0e9f);
}

glm::vec3 speed_limited_target(const glm::vec3& previous, const glm::vec3& wanted,
                               float seconds)
{
    // In double: a far target's length must not overflow float.
    const glm::dvec3 move = glm::dvec3(wanted) - glm::dvec3(previous);
    const double distance = glm::length(move);
    const double reach = static_cast<double>(kGrabMaxTargetSpeed_m_s) * seconds;
    if (distance <= reach) {
        return wanted;
    }
    if (!std::isfinite(distance)) {
        return previous;  // nowhere sensible to head for
    }
    return glm::vec3(glm::dvec3(previous) + move * (reach / distance));
}

float grab_max_step_m(const TetMesh& mesh)
{
    double sum = 0.0;
    size_t count = 0;
    for (const glm::uvec3& f : mesh.surface_triangles) {
        for (int a = 0; a < 3; ++a) {
            sum += glm::length(mesh.rest_positions[f[a]] - mesh.rest_positions[f[(a + 1) % 3]]);
            ++count;
        }
    }
    return count > 0 ? static_cast<float>(0.5 * sum / count) : 0.05f;
}
