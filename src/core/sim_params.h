// Everything the user can change while the simulation runs. The solvers read
// it every frame; changing it never needs a reset.
#pragma once

#include "core/material.h"
#include "core/param_limits.h"

#include <glm/glm.hpp>

#include <string>
#include <vector>

// How the tets of a substep are iterated (docs/algorithm.md, 4.3).
enum class SolverMethod {
    // DESIGN.md's reference: all tets at once, corrections gathered per vertex
    // with the per-tet weight omega.
    jacobi,
    // Colour by colour (no two tets of a colour share a vertex): each colour
    // sees the corrections of the ones before; full steps, no omega.
    gauss_seidel,
};

const char* solver_method_name(SolverMethod method);

struct SimParams {
    // Material: every body's, unless body_materials gives each its own.
    float youngs_modulus_pa = 1.0e5f;
    float poisson_ratio = 0.3f;
    float density_kg_m3 = 1000.0f;
    // One entry per body of the world, in its order, when not empty.
    std::vector<BodyMaterial> body_materials;

    BodyMaterial material() const { return {youngs_modulus_pa, poisson_ratio, density_kg_m3}; }
    BodyMaterial body_material(size_t body) const
    {
        return body < body_materials.size() ? body_materials[body] : material();
    }

    // Schedule: one frame is 1/60 s, cut into substeps, each with
    // `iterations` Jacobi sweeps over all tets (DESIGN.md section 4).
    int substeps = 10;
    int iterations = 8;
    float jacobi_k = 1.8f;  // omega_t = clamp(k / max valence, 0.08, 0.5)
    SolverMethod method = SolverMethod::gauss_seidel;

    // Environment.
    glm::vec3 gravity_m_s2 = {0.0f, -9.81f, 0.0f};
    float air_damping_per_s = 0.1f;
    // Material damping (docs/algorithm.md 2): a damping force tau K v
    // proportional to the stiffness, tau in seconds; 0: none. A mode of
    // angular frequency w loses w^2 tau / 2 of its amplitude per second:
    // the ringing of a jelly dies within a second or two, its bounce stays.
    float material_damping_s = 0.003f;
    // Wobble damping (core/wobble_damping.h), per second: the share of its
    // motion besides its rigid motion a body loses, every wobble alike
    // (amplitude at half this rate), where the material damping leaves the
    // slow ones; 0: none. At 3 the pinned beam's swing is still by 5 s.
    float wobble_damping_per_s = 3.0f;
    float static_friction = 0.6f;   // mu_s against the ground y = 0
    float dynamic_friction = 0.4f;  // mu_k against the ground y = 0
    bool ground_enabled = true;
    // Bodies collide with each other and with themselves (body_contacts.h).
    bool body_contact = true;
};

// Simulated time per frame, independent of the display rate.
inline constexpr float kFrameSeconds = 1.0f / 60.0f;

// The parameters clamped into ParamLimits (non-finite values take the
// default): what keeps a typed-in absurd value from blowing the simulation
// up. `note` receives a description of every change, empty if none.
SimParams sanitized(const SimParams& params, std::string* note = nullptr);
// The same into `out`, reusing its storage (the solvers' per-frame copy).
void sanitize_into(const SimParams& params, SimParams& out, std::string* note = nullptr);
