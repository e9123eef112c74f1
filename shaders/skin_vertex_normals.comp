#version 430 core
// The drawn surface, step 3: every drawn vertex sums its triangles' normals
// (a vertex split at a crease has only the triangles of its side).
#include "skin_buffers.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x) {
        return;
    }
    vec3 sum = vec3(0.0f);
    for (uint s = drawn_face_offsets[v]; s < drawn_face_offsets[v + 1u]; ++s) {
        sum += drawn_face_normals[drawn_face_entries[s]].xyz;
    }
    float len = length(sum);
    drawn_normals[v] = vec4(len > 0.0f ? sum / len : vec3(0.0f, 1.0f, 0.0f), 0.0f);
}
