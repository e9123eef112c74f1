#version 430 core
// Body contact, once per substep, 0 of 6: the largest move of a surface
// vertex since its near list was searched (the float bits of non-negative
// floats order as unsigned integers; a NaN's are above every number's, so a
// diverged vertex makes the lists stale where NaNs are kept). GpuSolver
// zeroes it first.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= u_contact_counts.y) {
        return;
    }
    float move = length(positions[surface_vertices[s]].xyz - contact_anchors[s].xyz);
    atomicMax(contact_largest_move_bits, floatBitsToUint(move));
}
