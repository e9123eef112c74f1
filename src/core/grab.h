// Grabbing the body with the mouse (or --drag): what was hit, and the
// attachment that pulls the hit point toward a target.
#pragma once

#include "core/tet_mesh.h"
#include "core/world.h"

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

// One vertex a grab pulls: toward the grab's target plus `offset_m`, where
// it lay from the grabbed point when grabbed, with `share` of the grab's
// stiffness (the shares of a grab add up to 1).
struct GrabAnchor {
    uint32_t vertex = 0;
    float share = 1.0f;
    glm::vec3 offset_m{0.0f};
};

// The most vertices one grab pulls (the nearest, when more lie in reach).
inline constexpr size_t kMaxGrabAnchors = 256;

// A grab: the patch of surface around the grabbed point moves with the
// target, each anchor by an XPBD attachment solved every iteration after
// the tets, all together as stiff as `stiffness_n_per_m`. Pulling a patch,
// not one triangle, is what lifts a soft body by its ear instead of drawing
// the ear out into a spike.
struct Grab {
    // The grabbed point, sum_i weights_i x_{vertices_i}: where the grab is
    // drawn from and which body it holds. One vertex is (v, v, v), (1, 0, 0).
    glm::uvec3 vertices{0};
    glm::vec3 weights{1.0f, 0.0f, 0.0f};
    glm::vec3 target_m{0.0f};
    float stiffness_n_per_m = 5.0e4f;
    std::vector<GrabAnchor> anchors;  // what is pulled; at least one
};

inline constexpr float kDefaultGrabStiffness = 5.0e4f;  // N/m, --drag's

// The mouse's grab is as stiff as this times the grabbed body's mass, so
// that a heavy body follows as well as a light one: at 1000 N/m per kg a
// body hanging from the cursor sags g / 1000 = 1 cm below it (the 43 kg
// bunny is then held at 4.3e4 N/m, the 125 kg cube at 1.25e5).
inline constexpr float kDefaultGrabStrengthPerKg = 1000.0f;  // N/m per kg

// The reach of a grab by default: this fraction of the grabbed body's
// largest side (about 12 cm on the 0.6 m bunny).
inline constexpr float kDefaultGrabRadiusFraction = 0.2f;

// The fastest a grab's target moves, m/s, whatever the mouse or a --drag
// asks for: a hard throw. A --drag of 50 m in two frames asked for 1,500
// m/s, the grabbed vertex followed and left at 2,000 m/s, and a 100 Pa cube
// was still moving at 27 m/s 15 s later; the target now catches up at this
// speed instead.
inline constexpr float kGrabMaxTargetSpeed_m_s = 20.0f;

// From `previous` toward `wanted`, at most kGrabMaxTargetSpeed_m_s * seconds.
glm::vec3 speed_limited_target(const glm::vec3& previous, const glm::vec3& wanted,
                               float seconds);

// One vertex alone (radius 0), or the hit triangle's corners by their
// weights: no patch. Tests and the smallest grab.
Grab grab_vertex(uint32_t vertex, glm::vec3 target_m, float stiffness_n_per_m);
Grab grab_hit(const SurfaceHit& hit, const std::vector<glm::vec3>& positions,
              float stiffness_n_per_m);

// The grab of the point `hit` spread over the surface vertices of the same
// body within `radius_m` of it (at `positions`, the deformed state), each
// weighted (1 - (d / r)^2)^2 by its distance d; the hit's corners alone,
// by their weights, when fewer than three vertices lie in reach.
Grab spread_grab(const World& world, const std::vector<glm::vec3>& positions,
                 const SurfaceHit& hit, float radius_m, float stiffness_n_per_m);
// The same around one vertex (--drag).
Grab spread_grab_at_vertex(const World& world, const std::vector<glm::vec3>& positions,
                           uint32_t vertex, float radius_m, float stiffness_n_per_m);

// `fraction` of the largest side of the body's rest bounds, in metres.
float grab_radius_m(const World& world, size_t body, float fraction);

// The nearest hit of the ray on the surface at the given positions (CPU).
std::optional<SurfaceHit> pick_surface(const TetMesh& mesh,
                                       const std::vector<glm::vec3>& positions, const Ray& ray);

// The stiffness clamped to 1 .. 1e9 N/m (non-finite: the default), so that a
// typed-in value cannot make the attachment's compliance infinite or negative.
float sanitized_grab_stiffness(float stiffness_n_per_m);

// Largest move of a grabbed vertex per iteration: half the mesh's mean edge,
// so one iteration cannot fold the tets around the grabbed point.
float grab_max_step_m(const TetMesh& mesh);
