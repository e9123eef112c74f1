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
        // A blend of the tet's corners only: a vertex beyond its tet
        // drops the negative weights (rescaled to sum 1), since extending
        // the stress as the position is extended would invent values,
        // negative ones too.
        vec4 inside = max(w, vec4(0.0f));
        inside /= inside.x + inside.y + inside.z + inside.w;
        stress = inside.x * vertex_stress[c.x] + inside.y * vertex_stress[c.y] +
                 inside.z * vertex_stress[c.z] + inside.w * vertex_stress[c.w];
    }
    drawn_positions[i] = vec4(p, stress);
}
