#version 430 core
// Gauss-Seidel in a single workgroup (one_group.glsl) for a GPU of many
// cores: a lane a tet of colours up to 256 tets (the presets' largest is
// 225), where 8 lanes walk a colour in up to 29 rounds. On an NVIDIA H200
// an iteration of the bunny's 34 colours took 0.23 ms in 256 lanes, 1.71
// in 8 and 0.33 as a dispatch a colour (the beam's 28: 0.13, 0.45, 0.15).
#define ONE_GROUP_SIZE 256
#include "one_group.glsl"
