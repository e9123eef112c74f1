#version 430 core
// Flat colour for the grab line and its markers; round points.
uniform vec4 u_color;  // sRGB, straight to the framebuffer
uniform bool u_round;
out vec4 frag_color;

void main()
{
    if (u_round && length(gl_PointCoord - vec2(0.5)) > 0.5) {
        discard;
    }
    frag_color = u_color;
}
