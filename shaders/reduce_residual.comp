#version 430 core
// The convergence readout: the mean of every tet's residual from the latest
// iteration (lambdas[t].z), written to a 4-byte result that the CPU reads a
// frame or a few later, once its fence has passed
// (GpuSolver::latest_mean_residual). Summed as chunk_sums.glsl says: phase
// 0 a workgroup per chunk of tets and of vertices, which finishes alone
// where it is the only one dispatched; else phase 1, one workgroup adding
// the chunks' sums.
// A non-finite position makes it NaN whatever the residuals say: GLSL does
// not promise that arithmetic on a NaN gives a NaN, so the positions' bits
// are tested.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "chunk_sums.glsl"
layout(local_size_x = CHUNK_GROUP) in;

layout(std430, binding = 16) writeonly buffer ResidualResult { float mean_residual; };
uniform uint u_phase;

bool has_non_finite(vec3 v)
{
    const uvec3 exponent = floatBitsToUint(v) & uvec3(0x7f800000u);
    return any(equal(exponent, uvec3(0x7f800000u)));
}

void main()
{
    uint lane = gl_LocalInvocationID.x;
    uint chunks = (max(u_counts.x, u_counts.y) + CHUNK_ITEMS - 1u) / CHUNK_ITEMS;
    if (u_phase == 0u) {
        // x: the residuals' sum; y: 1 where a position is not finite.
        uint chunk = gl_WorkGroupID.x;
        uint first = chunk * CHUNK_ITEMS + lane;
        uint end = (chunk + 1u) * CHUNK_ITEMS;
        float sum = 0.0f;
        for (uint t = first; t < min(end, u_counts.y); t += CHUNK_GROUP) {
            sum += lambdas[t].z;
        }
        bool seen = false;
        for (uint v = first; v < min(end, u_counts.x); v += CHUNK_GROUP) {
            seen = seen || has_non_finite(positions[v].xyz);
        }
        sum_a[lane] = vec4(sum, seen ? 1.0f : 0.0f, 0.0f, 0.0f);
        sum_b[lane] = vec4(0.0f);
        sum_c[lane] = vec4(0.0f);
        store_chunk_sums(chunk, lane);
        if (gl_NumWorkGroups.x > 1u) {
            return;  // phase 1 adds the chunks
        }
    } else {
        add_chunk_sums(0u, chunks, lane);
    }
    if (lane == 0u) {
        mean_residual = sum_a[0].y != 0.0f ? uintBitsToFloat(0x7fc00000u)
                                           : sum_a[0].x / float(max(u_counts.y, 1u));
    }
}
