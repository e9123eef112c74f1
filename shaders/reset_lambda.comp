#version 430 core
// Pass 2 of a substep (DESIGN.md 4.2): once per substep, never per
// iteration, or XPBD degenerates into PBD.
#include "sim_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint t = gl_GlobalInvocationID.x;
    if (t <= u_counts.y) {  // the tets and the grab's entry after them
        lambdas[t].xy = vec2(0.0f);  // z, the residual, stays for the readout
    }
}
