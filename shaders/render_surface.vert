#version 430 core
// The body's surface, straight from the simulation's vec4 buffers.
#include "render_common.glsl"

layout(location = 0) in vec3 a_position;  // metres
layout(location = 1) in vec3 a_normal;    // unit, outward
// Linear albedo per vertex (each body its own), or, with no array bound,
// the renderer's constant value: the body colour or the obstacles' grey.
layout(location = 2) in vec3 a_albedo;

out vec3 v_world;
out vec3 v_normal;
out vec3 v_albedo;

void main()
{
    v_world = a_position;
    v_normal = a_normal;
    v_albedo = a_albedo;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
