#version 430 core
// Region sweeps (region_sweep.glsl) for a GPU: a warp a workgroup, one region
// of about a thousand tets (25-30 colours: a round or two of the group a
// colour) per workgroup.
#define SWEEP_GROUP_SIZE 32
#include "region_sweep.glsl"
