#version 430 core
// Pass 3a, Gauss-Seidel, for meshes with large colours: the tets of one
// colour (no two share a vertex), each with a full step written straight into
// its corners (or its warm start, or its material damping). Dispatched once
// per colour, in order, so every colour sees the corrections of the ones
// before: what the CPU solver does, in the same order.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "tet_math.glsl"
#include "tet_step.glsl"
layout(local_size_x = 64) in;

layout(std430, binding = 17) readonly buffer ColorTets { uint color_tets[]; };
uniform uint u_color_begin;  // first entry of this colour in color_tets
uniform uint u_color_size;   // tets in this colour
uniform uint u_tet_pass;     // what each tet gets: TET_PASS_* (tet_step.glsl)

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < u_color_size) {
        run_tet_pass_in_place(color_tets[u_color_begin + i], u_tet_pass);
    }
}
