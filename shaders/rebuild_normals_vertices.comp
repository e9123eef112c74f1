#version 430 core
// Normals, step 2: every vertex sums its triangles' normals in CSR order.
#include "sim_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x) {
        return;
    }
    vec3 sum = vec3(0.0f);
    for (uint s = face_offsets[v]; s < face_offsets[v + 1u]; ++s) {
        sum += face_normals[face_entries[s]].xyz;
    }
    float len = length(sum);
    normals[v] = vec4(len > 0.0f ? sum / len : vec3(0.0f, 1.0f, 0.0f), 0.0f);
}
