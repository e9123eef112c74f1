#version 430 core
// The drawn surface, step 2: every drawn triangle's area-weighted normal.
#include "skin_buffers.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint f = gl_GlobalInvocationID.x;
    if (f >= u_counts.y) {
        return;
    }
    vec3 a = drawn_positions[drawn_triangles[3u * f]].xyz;
    vec3 b = drawn_positions[drawn_triangles[3u * f + 1u]].xyz;
    vec3 c = drawn_positions[drawn_triangles[3u * f + 2u]].xyz;
    drawn_face_normals[f] = vec4(cross(b - a, c - a), 0.0f);
}
