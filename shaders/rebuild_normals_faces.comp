#version 430 core
// Normals, step 1: area-weighted normal of every surface triangle.
#include "sim_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint f = gl_GlobalInvocationID.x;
    if (f >= u_counts.z) {
        return;
    }
    vec3 a = positions[triangles[3u * f]].xyz;
    vec3 b = positions[triangles[3u * f + 1u]].xyz;
    vec3 c = positions[triangles[3u * f + 2u]].xyz;
    face_normals[f] = vec4(cross(b - a, c - a), 0.0f);
}
