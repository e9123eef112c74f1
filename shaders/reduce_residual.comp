#version 430 core
// The convergence readout: the mean of every tet's residual from the latest
// iteration (lambdas[t].z), summed by one workgroup, written to a 4-byte
// result that the CPU reads a frame later (GpuSolver::latest_mean_residual).
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 16) writeonly buffer ResidualResult { float mean_residual; };

shared float partial[256];

void main()
{
    uint i = gl_LocalInvocationID.x;
    float sum = 0.0f;
    for (uint t = i; t < u_counts.y; t += 256u) {
        sum += lambdas[t].z;
    }
    partial[i] = sum;
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1u) {
        if (i < stride) {
            partial[i] += partial[i + stride];
        }
        barrier();
    }
    if (i == 0u) {
        mean_residual = partial[0] / float(max(u_counts.y, 1u));
    }
}
