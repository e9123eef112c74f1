#version 430 core
// Triangle edges over the shaded body: a dark shade of the body colour, so
// that the mesh reads without shouting.
#include "render_common.glsl"

in vec3 v_world;
in vec3 v_normal;
in vec3 v_albedo;
out vec4 out_color;

void main()
{
    out_color = finish_color(apply_fog(v_albedo * 0.12, v_world));
}
