#version 430 core
// Body contact, once per substep, 0 of 4: zeroes the bucket counts.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i <= u_contact_counts.x) {
        contact_hash[i] = 0u;
    }
}
