#version 430 core
// Region sweeps (region_sweep.glsl) for a GPU of few, wide cores, as
// llvmpipe: one SIMD row (8 lanes of 256 bits) a workgroup, each owning
// several regions. Measured on llvmpipe (2-vCPU AMD EPYC, lattice-50k):
// groups of 8 lanes and 16 regions 700 ms a frame, of 64 lanes 836, one
// region a group of 8 lanes 984, of 64 lanes 2,954.
#define SWEEP_GROUP_SIZE 8
#include "region_sweep.glsl"
