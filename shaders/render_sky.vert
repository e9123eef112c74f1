#version 430 core
// A triangle that covers the screen, from the vertex id alone, on the far
// plane: drawn last with a less-or-equal depth test, it shades only the
// pixels nothing else covered.

out vec2 v_ndc;

void main()
{
    vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);  // (0,0) (2,0) (0,2)
    v_ndc = corner * 2.0 - 1.0;
    gl_Position = vec4(v_ndc, 1.0, 1.0);
}
