#version 430 core
// The grab overlay: vertex 0 is the grabbed point of the deformed surface,
// read from the simulation's position buffer (a texture buffer, so this
// also works below GL 4.3), vertex 1 the target under the cursor.
uniform samplerBuffer u_positions;  // RGBA32F view of the position buffer
uniform mat4 u_view_projection;
uniform uvec3 u_vertices;
uniform vec3 u_weights;
uniform vec3 u_target;
uniform float u_point_size;

void main()
{
    vec3 p = u_target;
    if (gl_VertexID == 0) {
        p = u_weights.x * texelFetch(u_positions, int(u_vertices.x)).xyz +
            u_weights.y * texelFetch(u_positions, int(u_vertices.y)).xyz +
            u_weights.z * texelFetch(u_positions, int(u_vertices.z)).xyz;
    }
    gl_Position = u_view_projection * vec4(p, 1.0);
    gl_PointSize = u_point_size;
}
