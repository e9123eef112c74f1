#version 430 core
// Pass 3c, only while grabbing: after the tets' Jacobi pass, one XPBD step
// of the attachment that pulls the grabbed point toward the cursor. One
// invocation: it moves at most three vertices.
#include "sim_common.glsl"
#include "grab_math.glsl"
layout(local_size_x = 1) in;

void main()
{
    uvec3 v = u_grab_vertices.xyz;
    vec3 w = vec3(inverse_mass(v.x), inverse_mass(v.y), inverse_mass(v.z));
    float lambda = lambdas[u_counts.y].x;
    vec3 d0;
    vec3 d1;
    vec3 d2;
    tm_attachment_step(positions[v.x].xyz, positions[v.y].xyz, positions[v.z].xyz, w,
                       u_grab_weights.xyz, u_grab_target.xyz, u_grab_weights.w,
                       u_grab_target.w, lambda, d0, d1, d2);
    lambdas[u_counts.y].x = lambda;
    // In sequence: a vertex listed twice (one-vertex grabs) adds up.
    vec3 d[3] = vec3[3](d0, d1, d2);
    for (int i = 0; i < 3; ++i) {
        uint vi = v[i];
        corrections[vi].xyz += d[i];
        positions[vi] = vec4(predicted[vi].xyz + corrections[vi].xyz, 0.0f);
    }
}
