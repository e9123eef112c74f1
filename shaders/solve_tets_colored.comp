#version 430 core
// Pass 3a, Gauss-Seidel: the tets of one colour (no two share a vertex), each
// with a full step written straight into its corners' corrections and
// positions. Dispatched once per colour, in order, so every colour sees the
// corrections of the ones before: what the CPU solver does, in the same order.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "tet_math.glsl"
#include "tet_step.glsl"
layout(local_size_x = 64) in;

layout(std430, binding = 17) readonly buffer ColorTets { uint color_tets[]; };
uniform uint u_color_begin;  // first entry of this colour in color_tets
uniform uint u_color_size;   // tets in this colour

void add_correction(uint v, vec3 d)
{
    vec4 correction = corrections[v];
    correction.xyz += d;
    corrections[v] = correction;
    positions[v] = vec4(predicted[v].xyz + correction.xyz, 0.0f);
}

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_color_size) {
        return;
    }
    uvec4 tet;
    vec3 d0;
    vec3 d1;
    vec3 d2;
    vec3 d3;
    solve_tet_at(color_tets[u_color_begin + i], 1.0f, tet, d0, d1, d2, d3);
    add_correction(tet.x, d0);
    add_correction(tet.y, d1);
    add_correction(tet.z, d2);
    add_correction(tet.w, d3);
}
