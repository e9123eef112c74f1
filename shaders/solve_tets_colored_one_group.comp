#version 430 core
// Gauss-Seidel in a single workgroup (one_group.glsl) for a GPU of few,
// wide cores, as llvmpipe: one SIMD row (8 lanes of 256 bits). In a single
// group nothing runs in parallel there anyway, and every extra lane past
// the end of a colour would run the whole tet step masked off (measured:
// 8 < 16 < 32 < 64).
#define ONE_GROUP_SIZE 8
#include "one_group.glsl"
