#version 430 core
// Pass 4 of a substep (DESIGN.md 4.4): v = (x - x_prev) / h from its exact
// parts, then Coulomb friction against the ground.
#include "sim_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x) {
        return;
    }
    vec4 correction = corrections[v];
    vec3 velocity = velocities[v].xyz + correction.xyz * u_solver.z;
    float push = correction.w;
    if (push > 0.0f) {
        vec3 tangential = vec3(velocity.x, 0.0f, velocity.z);
        float slide = length(tangential) * u_gravity_h.w;
        if (slide < u_contact.x * push) {
            tangential = vec3(0.0f);
        } else {
            tangential *= max(0.0f, 1.0f - u_contact.y * push / slide);
        }
        velocity.x = tangential.x;
        velocity.z = tangential.z;
    }
    velocities[v] = vec4(velocity, 0.0f);
}
