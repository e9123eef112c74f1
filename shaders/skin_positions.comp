#version 430 core
// The drawn surface, step 1: every drawn vertex where its tet's corners put
// it (barycentric weights), with their stress in w when the strain view is
// on. Same sums as skin_positions() in src/core/render_surface.cpp.
#include "skin_buffers.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_counts.x) {
        return;
    }
    uvec4 c = skin_corners[i];
    vec4 w = skin_weights[i];
    vec3 p = w.x * simulation_positions[c.x].xyz + w.y * simulation_positions[c.y].xyz +
             w.z * simulation_positions[c.z].xyz + w.w * simulation_positions[c.w].xyz;
    float stress = 0.0f;
    if (u_stress_on != 0u) {
        // Clamped: outside its tet a vertex extrapolates, and the stress may
        // not go below zero there.
        stress = max(w.x * vertex_stress[c.x] + w.y * vertex_stress[c.y] +
                     w.z * vertex_stress[c.z] + w.w * vertex_stress[c.w], 0.0f);
    }
    drawn_positions[i] = vec4(p, stress);
}
