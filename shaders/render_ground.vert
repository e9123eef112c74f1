#version 430 core
// The ground: a 100 x 100 m quad on y = 0 made from the vertex id (drawn as a
// 4-vertex triangle strip). It follows the camera, so that its edge is always
// at least 50 m away, where the fog has hidden it; the pattern on it is
// computed from world positions, so it stays put.
#include "render_common.glsl"

const float kGroundHalfSizeM = 50.0;

out vec3 v_world;

void main()
{
    vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;
    v_world = vec3(u_eye_position.x, 0.0, u_eye_position.z) +
              vec3(corner.x, 0.0, corner.y) * kGroundHalfSizeM;
    gl_Position = u_view_projection * vec4(v_world, 1.0);
}
