#version 430 core
// Pass 4 of a substep (DESIGN.md 4.4): v = (x - x_prev) / h from its exact
// parts, then Coulomb friction against the ground and the obstacles.
#include "sim_common.glsl"
#include "contact_math.glsl"
#include "substep_math.glsl"
#include "static_contact.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x) {
        return;
    }
    vec4 correction = corrections[v];
    vec3 velocity = sm_velocity_after_substep(velocities[v].xyz, correction.xyz, u_solver.z);
    float push = correction.w;
    if (push > 0.0f) {
        velocity = cm_apply_friction(velocity, static_surface_normal(positions[v].xyz), push,
                                     u_gravity_h.w, u_contact.x, u_contact.y);
    }
    velocities[v] = vec4(velocity, 0.0f);
}
