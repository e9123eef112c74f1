#version 430 core
// The strain view, step 1: every tet's von Mises stress (stress_math.glsl)
// from its body's Lame parameters.
#include "skin_buffers.glsl"
#include "stress_buffers.glsl"
#include "tet_math.glsl"
#include "stress_math.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint t = gl_GlobalInvocationID.x;
    if (t >= u_counts.w) {
        return;
    }
    StressTet tet = stress_tets[t];
    mat3 B = mat3(tet.b0.xyz, tet.b1.xyz, tet.b2.xyz);
    mat3 F = tm_deformation_gradient(simulation_positions[tet.corners.x].xyz,
                                     simulation_positions[tet.corners.y].xyz,
                                     simulation_positions[tet.corners.z].xyz,
                                     simulation_positions[tet.corners.w].xyz, B);
    vec2 lame = body_lame[uint(tet.b1.w)];
    tet_stress[t] = tm_von_mises_pa(F, lame.x, lame.y);
}
