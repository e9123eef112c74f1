#version 430 core
// The convergence readout: the mean of every tet's residual from the latest
// iteration (lambdas[t].z), summed by one workgroup, written to a 4-byte
// result that the CPU reads a frame or a few later, once its fence has
// passed (GpuSolver::latest_mean_residual).
// A non-finite position makes it NaN whatever the residuals say: GLSL does
// not promise that arithmetic on a NaN gives a NaN, so the positions' bits
// are tested.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 16) writeonly buffer ResidualResult { float mean_residual; };

shared float partial[256];
shared bool non_finite;

bool has_non_finite(vec3 v)
{
    const uvec3 exponent = floatBitsToUint(v) & uvec3(0x7f800000u);
    return any(equal(exponent, uvec3(0x7f800000u)));
}

void main()
{
    uint i = gl_LocalInvocationID.x;
    if (i == 0u) {
        non_finite = false;
    }
    barrier();
    float sum = 0.0f;
    for (uint t = i; t < u_counts.y; t += 256u) {
        sum += lambdas[t].z;
    }
    partial[i] = sum;
    bool seen = false;
    for (uint v = i; v < u_counts.x; v += 256u) {
        seen = seen || has_non_finite(positions[v].xyz);
    }
    if (seen) {
        non_finite = true;
    }
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1u) {
        if (i < stride) {
            partial[i] += partial[i + stride];
        }
        barrier();
    }
    if (i == 0u) {
        mean_residual = non_finite ? uintBitsToFloat(0x7fc00000u)
                                   : partial[0] / float(max(u_counts.y, 1u));
    }
}
