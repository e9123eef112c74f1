#version 430 core
// Pass 3a (DESIGN.md 4.3): one Jacobi iteration of every tet's shape and
// volume constraints. Each tet writes its four corrections to its own four
// slots: no atomics, no races, the same result on every run.
#include "sim_common.glsl"
#include "tet_math.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint t = gl_GlobalInvocationID.x;
    if (t >= u_counts.y) {
        return;
    }
    uvec4 tet = tets[t];
    TetRest rest = tet_rests[t];
    mat3 B = mat3(rest.b0.xyz, rest.b1.xyz, rest.b2.xyz);
    float rest_volume = rest.b0.w;
    vec4 w = vec4(inverse_mass(tet.x), inverse_mass(tet.y), inverse_mass(tet.z),
                  inverse_mass(tet.w));
    // Same expressions as the CPU solver (material.cpp, tet_mesh.cpp).
    float alpha_arap = (1.0f / (2.0f * u_material.x * rest_volume)) * u_material.z;
    bool volume_enabled = u_material.w != 0.0f;
    float alpha_volume =
        volume_enabled ? (1.0f / (u_material.y * rest_volume)) * u_material.z : 0.0f;
    float omega = clamp(u_solver.x / max(rest.b1.w, 1.0f), 0.08f, 0.5f);
    vec2 lambda = lambdas[t];
    vec3 d0;
    vec3 d1;
    vec3 d2;
    vec3 d3;
    tm_solve_tet(positions[tet.x].xyz, positions[tet.y].xyz, positions[tet.z].xyz,
                 positions[tet.w].xyz, w, B, rest_volume, alpha_arap, alpha_volume,
                 volume_enabled, omega, lambda.x, lambda.y, d0, d1, d2, d3);
    lambdas[t] = lambda;
    uint slot = t * 4u;
    deltas[slot] = vec4(d0, 0.0f);
    deltas[slot + 1u] = vec4(d1, 0.0f);
    deltas[slot + 2u] = vec4(d2, 0.0f);
    deltas[slot + 3u] = vec4(d3, 0.0f);
}
