// Buffers of the drawn surface's passes (src/gpu/surface_skin.cpp): binding
// numbers change together there. Their own numbering: these passes run
// between frames, and the solver binds its buffers again before each step.

// x drawn vertices, y drawn triangles, z simulation vertices, w tets.
layout(location = 0) uniform uvec4 u_counts;
// x: 1 when the stress is shown (its passes ran), else 0.
layout(location = 1) uniform uint u_stress_on;

layout(std430, binding = 0) readonly buffer SimulationPositions { vec4 simulation_positions[]; };
layout(std430, binding = 1) readonly buffer SkinCorners { uvec4 skin_corners[]; };
layout(std430, binding = 2) readonly buffer SkinWeights { vec4 skin_weights[]; };
layout(std430, binding = 3) buffer DrawnPositions { vec4 drawn_positions[]; };  // w: stress, Pa
layout(std430, binding = 4) buffer DrawnNormals { vec4 drawn_normals[]; };
layout(std430, binding = 5) readonly buffer DrawnTriangles { uint drawn_triangles[]; };
layout(std430, binding = 6) buffer DrawnFaceNormals { vec4 drawn_face_normals[]; };
layout(std430, binding = 7) readonly buffer DrawnFaceOffsets { uint drawn_face_offsets[]; };
layout(std430, binding = 8) readonly buffer DrawnFaceEntries { uint drawn_face_entries[]; };
layout(std430, binding = 9) buffer VertexStress { float vertex_stress[]; };  // per simulation vertex, Pa
