#version 430 core
// After a Gauss-Seidel iteration dispatched colour by colour: ground contact
// and obstacle contact for every vertex (static_contact.glsl).
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_math.glsl"
#include "static_contact.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v < u_counts.x) {
        project_vertex_out_of_static(v);
    }
}
