#version 430 core
// Body contact, every iteration, 3 of 3: a vertex in contact takes the sum
// of its pairs' corrections (their steps split its inverse mass among them,
// cm_vertex_triangle_push) and is projected out of the static world again;
// its sums and count are zeroed for the next iteration.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
#include "static_contact.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x) {
        return;
    }
    int count = contact_sums[4u * v + 3u];
    ivec3 sum = ivec3(contact_sums[4u * v], contact_sums[4u * v + 1u], contact_sums[4u * v + 2u]);
    // A vertex with corrections but no count (the count pass deciding a
    // pair otherwise than the step, which the same maths should never do)
    // still takes them, so that nothing is left for the next iteration.
    if (count == 0 && sum == ivec3(0)) {
        return;
    }
    vec4 correction = corrections[v];
    correction.xyz += cm_from_fixed(sum);
    vec3 x = predicted[v].xyz + correction.xyz;
    // The static world has the last word: the contact may have pushed the
    // vertex into the ground or an obstacle.
    if (inverse_mass(v) != 0.0f) {
        project_out_of_static(x, correction);
    }
    corrections[v] = correction;
    positions[v] = vec4(x, 0.0f);
    contact_sums[4u * v] = 0;
    contact_sums[4u * v + 1u] = 0;
    contact_sums[4u * v + 2u] = 0;
    contact_sums[4u * v + 3u] = 0;
}
