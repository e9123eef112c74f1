// Buffers of the stress passes (src/gpu/surface_skin.cpp), numbered after
// skin_buffers.glsl's, which a stress pass includes first.

struct StressTet {
    uvec4 corners;
    vec4 b0;  // xyz column 0 of B = Dm^-1
    vec4 b1;  // xyz column 1, w the tet's body (its value, exact as a float)
    vec4 b2;
};
layout(std430, binding = 10) readonly buffer StressTets { StressTet stress_tets[]; };
layout(std430, binding = 11) readonly buffer BodyLame { vec2 body_lame[]; };  // mu, lambda (Pa)
layout(std430, binding = 12) buffer TetStress { float tet_stress[]; };        // von Mises, Pa
layout(std430, binding = 13) readonly buffer CornerOffsets { uint corner_offsets[]; };  // CSR, NV + 1
layout(std430, binding = 14) readonly buffer CornerEntries { uint corner_entries[]; };  // tet * 4 + corner
