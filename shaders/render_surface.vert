#version 430 core
// The body's surface, straight from the simulation's vec4 buffers.
#include "render_common.glsl"

layout(location = 0) in vec3 a_position;  // metres
layout(location = 1) in vec3 a_normal;    // unit, outward

out vec3 v_world;
out vec3 v_normal;

void main()
{
    v_world = a_position;
    v_normal = a_normal;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
