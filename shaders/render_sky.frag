#version 430 core
// The sky behind everything: the view ray through each pixel, coloured.
#include "render_common.glsl"

in vec2 v_ndc;
out vec4 out_color;

void main()
{
    vec4 near_point = u_inverse_view_projection * vec4(v_ndc, -1.0, 1.0);
    vec4 far_point = u_inverse_view_projection * vec4(v_ndc, 1.0, 1.0);
    vec3 direction = normalize(far_point.xyz / far_point.w - near_point.xyz / near_point.w);
    out_color = finish_color(sky_radiance(direction));
}
