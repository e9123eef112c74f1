#version 430 core
// The body's surface, straight from the simulation's vec4 buffers.
#include "render_common.glsl"

layout(location = 0) in vec4 a_position;  // xyz metres, w the stress in Pa (drawn surface) or 1
layout(location = 1) in vec3 a_normal;    // unit, outward
// Linear albedo per vertex (each body its own), or, with no array bound,
// the renderer's constant value: the body colour or the obstacles' grey.
layout(location = 2) in vec3 a_albedo;

out vec3 v_world;
out vec3 v_normal;
out vec3 v_albedo;
out float v_stress_pa;

void main()
{
    v_world = a_position.xyz;
    v_stress_pa = a_position.w;
    v_normal = a_normal;
    v_albedo = a_albedo;
    gl_Position = u_view_projection * vec4(a_position.xyz, 1.0);
}
