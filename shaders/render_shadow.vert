#version 430 core
// Depth from the sun for the shadow map.
#include "render_common.glsl"

layout(location = 0) in vec3 a_position;  // metres

void main()
{
    gl_Position = u_light_view_projection * vec4(a_position, 1.0);
}
