// Summary figures of a body's state: what the headless runner reports and
// what the tests assert on.
#pragma once

#include "core/tet_mesh.h"
#include "core/world.h"

#include <glm/glm.hpp>

#include <vector>

// Where a body has a non-finite position or velocity, the figures that
// describe it as a whole (extent, centroid, speeds) are NaN: undefined, and
// written as null in JSON. The counts stay exact.
struct SimStats {
    float min_y_m = 0.0f;
    float max_y_m = 0.0f;
    glm::vec3 centroid_m{0.0f};     // mass-weighted (lumped volumes)
    size_t inverted_tets = 0;       // det F <= 0
    size_t nan_count = 0;           // vertices with a non-finite coordinate
    float max_speed_m_s = 0.0f;
    float centroid_speed_m_s = 0.0f;  // |mass-weighted mean velocity|
};

SimStats compute_stats(const TetMesh& mesh, const std::vector<glm::vec3>& positions,
                       const std::vector<glm::vec3>& velocities);

// Vectors with a NaN or infinite component: how a diverged run shows.
size_t count_non_finite(const std::vector<glm::vec3>& vectors);

// Signed volume of tet t at the given positions (m^3), positive when not
// inverted.
float tet_volume(const TetMesh& mesh, const std::vector<glm::vec3>& positions, size_t t);

// Total linear momentum sum m_v v_v (kg m/s) of the free vertices.
glm::dvec3 linear_momentum(const TetMesh& mesh, const std::vector<glm::vec3>& velocities,
                           float density_kg_m3);

// The whole world's momenta and kinetic energy, from each vertex's mass
// (1 / inverse mass; pinned vertices, inverse mass 0, are left out). The
// angular momentum is about the free vertices' centre of mass, so that a
// body flying without spin has none whatever its path.
struct Momenta {
    glm::dvec3 linear{0.0};    // kg m/s
    glm::dvec3 angular{0.0};   // kg m^2/s
    double kinetic_energy_j = 0.0;
};

Momenta compute_momenta(const std::vector<glm::vec3>& positions,
                        const std::vector<glm::vec3>& velocities,
                        const std::vector<float>& inverse_masses);

// One body of a world, for the stats' "bodies" list.
struct BodyStats {
    size_t vertices = 0;
    size_t tets = 0;
    glm::vec3 centroid_m{0.0f};  // volume-weighted; NaN where a vertex is not finite
    float min_y_m = 0.0f;
    size_t inverted_tets = 0;
};

std::vector<BodyStats> compute_body_stats(const World& world,
                                          const std::vector<glm::vec3>& positions);
