#include "core/sim_stats.h"

#include <algorithm>
#include <cmath>

float tet_volume(const TetMesh& mesh, const std::vector<glm::vec3>& positions, size_t t)
{
    const glm::uvec4& tet = mesh.tets[t];
    const glm::vec3 x0 = positions[tet.x];
    return glm::dot(positions[tet.y] - x0,
                    glm::cross(positions[tet.z] - x0, positions[tet.w] - x0)) / 6.0f;
}

namespace {

bool is_finite(const glm::vec3& v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace

size_t count_non_finite(const std::vector<glm::vec3>& vectors)
{
    return static_cast<size_t>(std::count_if(vectors.begin(), vectors.end(),
                                             [](const glm::vec3& v) { return !is_finite(v); }));
}

SimStats compute_stats(const TetMesh& mesh, const std::vector<glm::vec3>& positions,
                       const std::vector<glm::vec3>& velocities)
{
    SimStats stats;
    stats.nan_count = count_non_finite(positions);
    for (size_t t = 0; t < mesh.tet_count(); ++t) {
        if (!(tet_volume(mesh, positions, t) > 0.0f)) {
            ++stats.inverted_tets;  // NaN volumes included
        }
    }
    // A diverged body (or one with a non-finite velocity, which diverges in
    // the next substep) has no extent, centroid or speed: averaging only its
    // finite vertices would report a calm body that is not there.
    const bool velocities_finite = count_non_finite(velocities) == 0;
    if (stats.nan_count > 0 || positions.empty() || !velocities_finite) {
        stats.min_y_m = stats.max_y_m = NAN;
        stats.centroid_m = glm::vec3(NAN);
        stats.max_speed_m_s = stats.centroid_speed_m_s = NAN;
        return stats;
    }
    stats.min_y_m = INFINITY;
    stats.max_y_m = -INFINITY;
    glm::dvec3 weighted(0.0);
    glm::dvec3 weighted_velocity(0.0);
    double total_weight = 0.0;
    for (size_t v = 0; v < positions.size(); ++v) {
        const glm::vec3& p = positions[v];
        stats.min_y_m = std::min(stats.min_y_m, p.y);
        stats.max_y_m = std::max(stats.max_y_m, p.y);
        weighted += glm::dvec3(p) * static_cast<double>(mesh.lumped_volumes_m3[v]);
        total_weight += mesh.lumped_volumes_m3[v];
        if (v < velocities.size()) {
            stats.max_speed_m_s = std::max(stats.max_speed_m_s, glm::length(velocities[v]));
            weighted_velocity +=
                glm::dvec3(velocities[v]) * static_cast<double>(mesh.lumped_volumes_m3[v]);
        }
    }
    if (total_weight > 0.0) {
        stats.centroid_m = glm::vec3(weighted / total_weight);
        stats.centroid_speed_m_s = static_cast<float>(glm::length(weighted_velocity / total_weight));
    }
    return stats;
}

glm::dvec3 linear_momentum(const TetMesh& mesh, const std::vector<glm::vec3>& velocities,
                           float density_kg_m3)
{
    glm::dvec3 p(0.0);
    for (size_t v = 0; v < velocities.size(); ++v) {
        if (!mesh.pinned[v]) {
            p += glm::dvec3(velocities[v]) * (double(density_kg_m3) * mesh.lumped_volumes_m3[v]);
        }
    }
    return p;
}

Momenta compute_momenta(const std::vector<glm::vec3>& positions,
                        const std::vector<glm::vec3>& velocities,
                        const std::vector<float>& inverse_masses)
{
    Momenta momenta;
    glm::dvec3 weighted_position(0.0);
    double mass = 0.0;
    for (size_t v = 0; v < positions.size(); ++v) {
        if (inverse_masses[v] > 0.0f) {
            const double m = 1.0 / double(inverse_masses[v]);
            const glm::dvec3 velocity(velocities[v]);
            weighted_position += m * glm::dvec3(positions[v]);
            mass += m;
            momenta.linear += m * velocity;
            momenta.kinetic_energy_j += 0.5 * m * glm::dot(velocity, velocity);
        }
    }
    if (mass == 0.0) {
        return momenta;
    }
    const glm::dvec3 centre = weighted_position / mass;
    for (size_t v = 0; v < positions.size(); ++v) {
        if (inverse_masses[v] > 0.0f) {
            momenta.angular += glm::cross(glm::dvec3(positions[v]) - centre,
                                          glm::dvec3(velocities[v])) /
                               double(inverse_masses[v]);
        }
    }
    return momenta;
}

std::vector<BodyStats> compute_body_stats(const World& world,
                                          const std::vector<glm::vec3>& positions)
{
    const TetMesh& mesh = *world.mesh;
    std::vector<BodyStats> bodies(world.body_count());
    for (size_t b = 0; b < bodies.size(); ++b) {
        const WorldBody& body = world.bodies[b];
        BodyStats& stats = bodies[b];
        stats.vertices = body.vertex_count;
        stats.tets = body.tet_count;
        for (uint32_t t = body.first_tet; t < body.first_tet + body.tet_count; ++t) {
            if (!(tet_volume(mesh, positions, t) > 0.0f)) {
                ++stats.inverted_tets;
            }
        }
        glm::dvec3 weighted(0.0);
        double total = 0.0;
        stats.min_y_m = INFINITY;
        for (uint32_t v = body.first_vertex; v < body.first_vertex + body.vertex_count; ++v) {
            weighted += glm::dvec3(positions[v]) * static_cast<double>(mesh.lumped_volumes_m3[v]);
            total += mesh.lumped_volumes_m3[v];
            stats.min_y_m = std::min(stats.min_y_m, positions[v].y);  // NaN stays out here...
            if (!is_finite(positions[v])) {
                stats.min_y_m = NAN;  // ...so it is put in
                weighted = glm::dvec3(NAN);
                break;
            }
        }
        stats.centroid_m = glm::vec3(weighted / total);
    }
    return bodies;
}
