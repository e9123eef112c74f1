#version 430 core
// The warm start's fraction for the next substep (tm_warm_start_fraction):
// all of the multipliers where the sweeps keep up (u_warm_start), else from
// the sums of every tet's shape step in the last substep's first and last
// iteration (lambdas[t].x and .y), summed by one workgroup, the fraction
// written where the warm start reads it (tet_step.glsl). Runs before
// predict, which marks the first steps as not taken.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "tet_math.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 28) writeonly buffer WarmFraction { float warm_fraction; };

shared vec2 partial[256];

void main()
{
    uint i = gl_LocalInvocationID.x;
    vec2 sum = vec2(0.0f);
    for (uint t = i; t < u_counts.y; t += 256u) {
        sum += max(lambdas[t].xy, vec2(0.0f));
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
        warm_fraction = tm_warm_start_fraction(partial[0].x, partial[0].y, u_warm_start.x);
    }
}
