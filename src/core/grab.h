// Grabbing the body with the mouse (or --drag): what was hit, and the
// attachment that pulls the hit point toward a target.
#pragma once

#include "core/tet_mesh.h"

#include <glm/glm.hpp>

#include <optional>
#include <vector>

struct Ray {
    glm::vec3 origin_m;
    glm::vec3 direction;  // unit
};

// A point on the deformed surface: triangle, its corners, and the weights
// that place the point among them.
struct SurfaceHit {
    uint32_t triangle = 0;
    glm::uvec3 vertices{0};
    glm::vec3 barycentric{0.0f};
    float distance_m = 0.0f;  // along the ray
    glm::vec3 point_m{0.0f};
};

// The point sum_i weights_i x_{vertices_i} is pulled toward target_m by an
// XPBD attachment of the given stiffness, solved every iteration after the
// tets. One vertex is vertices (v, v, v) with weights (1, 0, 0).
struct Grab {
    glm::uvec3 vertices{0};
    glm::vec3 weights{1.0f, 0.0f, 0.0f};
    glm::vec3 target_m{0.0f};
    float stiffness_n_per_m = 5.0e4f;
};

inline constexpr float kDefaultGrabStiffness = 5.0e4f;  // N/m

// The fastest a grab's target moves, m/s, whatever the mouse or a --drag
// asks for: a hard throw. A --drag of 50 m in two frames asked for 1,500
// m/s, the grabbed vertex followed and left at 2,000 m/s, and a 100 Pa cube
// was still moving at 27 m/s 15 s later; the target now catches up at this
// speed instead.
inline constexpr float kGrabMaxTargetSpeed_m_s = 20.0f;

// From `previous` toward `wanted`, at most kGrabMaxTargetSpeed_m_s * seconds.
glm::vec3 speed_limited_target(const glm::vec3& previous, const glm::vec3& wanted,
                               float seconds);

Grab grab_vertex(uint32_t vertex, glm::vec3 target_m, float stiffness_n_per_m);
Grab grab_hit(const SurfaceHit& hit, float stiffness_n_per_m);

// The nearest hit of the ray on the surface at the given positions (CPU).
std::optional<SurfaceHit> pick_surface(const TetMesh& mesh,
                                       const std::vector<glm::vec3>& positions, const Ray& ray);

// The stiffness clamped to 1 .. 1e9 N/m (non-finite: the default), so that a
// typed-in value cannot make the attachment's compliance infinite or negative.
float sanitized_grab_stiffness(float stiffness_n_per_m);

// Largest move of a grabbed vertex per iteration: half the mesh's mean edge,
// so one iteration cannot fold the tets around the grabbed point.
float grab_max_step_m(const TetMesh& mesh);
