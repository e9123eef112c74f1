#version 430 core
// After a Gauss-Seidel iteration: ground contact, y < 0 projects to y = 0,
// recorded as normal correction for friction (as apply_deltas does for
// the Jacobi iteration).
#include "sim_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x || inverse_volumes[v] == 0.0f || u_contact.z == 0.0f) {
        return;
    }
    vec3 x = positions[v].xyz;
    if (x.y < 0.0f) {
        vec4 correction = corrections[v];
        correction.w += -x.y;
        correction.y -= x.y;
        corrections[v] = correction;
        positions[v] = vec4(x.x, 0.0f, x.z, 0.0f);
    }
}
