#version 430 core
// Passes 1 and 2 of a substep (DESIGN.md 4.1, 4.2) in one dispatch over
// max(vertices, tets + grab anchors) items: predict the vertex (damp, add
// gravity, move, start the substep's correction at zero) and mark the tet's
// first step as not taken yet (or reset the grab anchor's multiplier).
// The two touch disjoint data, so fusing them only saves a launch. With
// Jacobi it also sets the tet's multipliers to zero (a kernel's stores: a
// buffer clear of the driver's ran at PCIe speed on NVIDIA's, 1.3 ms a
// substep for a million tets). Its first invocation steps the volume
// barrier's latch.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "substep_math.glsl"
layout(local_size_x = 64) in;

// tet_step.glsl's multipliers, ten floats a tet.
layout(std430, binding = 27) writeonly buffer TetMultipliers { float tet_multipliers[]; };
uniform uint u_clear_tet_multipliers;  // 1: Jacobi, every substep from zero
#include "tet_pass_state.glsl"

void predict_vertex(uint v)
{
    vec3 x = positions[v].xyz;
    if (inverse_masses[v] != 0.0f) {
        vec3 velocity = velocities[v].xyz;
        sm_predict(x, velocity, u_solver.y, u_gravity_h.xyz, u_gravity_h.w);
        velocities[v] = vec4(velocity, 0.0f);
        positions[v] = vec4(x, 0.0f);
    }
    predicted[v] = vec4(x, 0.0f);
    corrections[v] = vec4(0.0f);
}

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i == 0u) {
        // The volume barrier's latch (tet_pass_state.glsl).
        if (volume_squeezed_seen == 0u) {
            volume_barrier_engaged = 1u;
        }
        volume_squeezed_seen = 0u;
    }
    if (i < u_counts.x) {
        predict_vertex(i);
    }
    // Once per substep, never per iteration, or XPBD degenerates into PBD:
    // the warm start scales the tets' multipliers (Gauss-Seidel), or they
    // start from zero (Jacobi).
    if (i < u_counts.y) {
        lambdas[i].x = -1.0f;  // no first step yet; z, the residual, stays for the readout
        if (u_clear_tet_multipliers != 0u) {
            for (uint k = 0u; k < 10u; ++k) {
                tet_multipliers[10u * i + k] = 0.0f;
            }
        }
    } else if (i < u_counts.y + u_grab.x) {  // the grab's anchors after the tets
        lambdas[i].x = 0.0f;
    }
}
