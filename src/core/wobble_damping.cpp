#include "core/wobble_damping.h"

#include "core/substep_math.h"

#include <optional>

namespace {

struct RigidMotion {
    glm::vec3 centroid{0.0f};
    glm::vec3 drift{0.0f};
    glm::vec3 spin{0.0f};
};

// The body's mass-weighted rigid fit, summed in double (the compute shader
// sums in float, in another order: the two differ by rounding, and the
// wobble they take away by that times 1 - keep). Empty for a pinned body.
std::optional<RigidMotion> rigid_motion(const WorldBody& body,
                                        const std::vector<float>& inverse_masses,
                                        const std::vector<glm::vec3>& positions,
                                        const std::vector<glm::vec3>& velocities)
{
    const uint32_t first = body.first_vertex;
    const uint32_t end = body.first_vertex + body.vertex_count;
    double mass = 0.0;
    glm::dvec3 moment(0.0);
    glm::dvec3 momentum(0.0);
    for (uint32_t v = first; v < end; ++v) {
        if (inverse_masses[v] == 0.0f) {
            return std::nullopt;
        }
        const double m = 1.0 / inverse_masses[v];
        mass += m;
        moment += m * glm::dvec3(positions[v]);
        momentum += m * glm::dvec3(velocities[v]);
    }
    if (mass == 0.0) {
        return RigidMotion{};
    }
    const glm::dvec3 centroid = moment / mass;
    const glm::dvec3 drift = momentum / mass;
    glm::dvec3 angular_momentum(0.0);
    glm::dmat3 inertia(0.0);
    for (uint32_t v = first; v < end; ++v) {
        const double m = 1.0 / inverse_masses[v];
        const glm::dvec3 r = glm::dvec3(positions[v]) - centroid;
        angular_momentum += m * glm::cross(r, glm::dvec3(velocities[v]) - drift);
        inertia += m * (glm::dot(r, r) * glm::dmat3(1.0) - glm::outerProduct(r, r));
    }
    RigidMotion motion;
    motion.centroid = glm::vec3(centroid);
    motion.drift = glm::vec3(drift);
    motion.spin = substep_math::sm_body_spin(glm::vec3(angular_momentum), glm::mat3(inertia));
    return motion;
}

}  // namespace

void damp_wobble(const World& world, const std::vector<float>& inverse_masses,
                 const std::vector<glm::vec3>& positions, std::vector<glm::vec3>& velocities,
                 float keep)
{
    for (const WorldBody& body : world.bodies) {
        // Pinned: the world is the frame, its rigid motion none.
        const RigidMotion motion =
            rigid_motion(body, inverse_masses, positions, velocities).value_or(RigidMotion{});
        for (uint32_t v = body.first_vertex; v < body.first_vertex + body.vertex_count; ++v) {
            if (inverse_masses[v] != 0.0f) {
                velocities[v] = substep_math::sm_damp_wobble(
                    velocities[v], motion.drift, motion.spin, positions[v] - motion.centroid, keep);
            }
        }
    }
}
