#version 430 core
// After a Gauss-Seidel iteration dispatched colour by colour: ground contact
// for every vertex (ground.glsl).
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "ground.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v < u_counts.x) {
        project_vertex_onto_ground(v);
    }
}
