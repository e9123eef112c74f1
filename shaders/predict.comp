#version 430 core
// Pass 1 of a substep (DESIGN.md 4.1): damp, add gravity, move; start the
// substep's correction at zero.
#include "sim_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x) {
        return;
    }
    vec3 x = positions[v].xyz;
    if (inverse_volumes[v] != 0.0f) {
        // Damping before gravity, so that it does not weaken the static load.
        vec3 velocity = u_solver.y * velocities[v].xyz + u_gravity_h.w * u_gravity_h.xyz;
        velocities[v] = vec4(velocity, 0.0f);
        x += u_gravity_h.w * velocity;
        positions[v] = vec4(x, 0.0f);
    }
    predicted[v] = vec4(x, 0.0f);
    corrections[v] = vec4(0.0f);
}
