#version 430 core
// Picking on the GPU, where the positions live: the nearest surface triangle
// on a ray, in three dispatches of this shader (u_stage):
//   0: every triangle lowers the nearest distance (atomicMin on the float's
//      bits, which order like the floats for t > 0);
//   1: the triangles at that distance lower the triangle index (ties: the
//      lowest index wins, as on the CPU);
//   2: one invocation writes the hit's corners and weights.
// Only this 32-byte result is read back, once per click.
#include "grab_math.glsl"
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 12) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = 16) buffer PickResult {
    uint distance_bits;  // floatBitsToUint(t), 0xffffffff: no hit
    uint triangle;
    uint corner[3];
    float weight[3];
} result;

uniform int u_stage;
uniform uint u_triangle_count;
uniform vec3 u_ray_origin;
uniform vec3 u_ray_direction;

float hit_distance(uint f, out vec3 barycentric)
{
    return tm_ray_triangle(u_ray_origin, u_ray_direction,
                           positions[triangles[3u * f]].xyz,
                           positions[triangles[3u * f + 1u]].xyz,
                           positions[triangles[3u * f + 2u]].xyz, barycentric);
}

void main()
{
    uint f = gl_GlobalInvocationID.x;
    if (u_stage == 2) {
        if (f == 0u && result.triangle != 0xffffffffu) {
            vec3 barycentric;
            hit_distance(result.triangle, barycentric);
            for (int i = 0; i < 3; ++i) {
                result.corner[i] = triangles[3u * result.triangle + uint(i)];
                result.weight[i] = barycentric[i];
            }
        }
        return;
    }
    if (f >= u_triangle_count) {
        return;
    }
    vec3 barycentric;
    float t = hit_distance(f, barycentric);
    if (!(t > 0.0f)) {  // a miss, or NaN after a blow-up: as on the CPU
        return;
    }
    if (u_stage == 0) {
        atomicMin(result.distance_bits, floatBitsToUint(t));
    } else if (floatBitsToUint(t) == result.distance_bits) {
        atomicMin(result.triangle, f);
    }
}
