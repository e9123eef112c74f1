#version 430 core
// The warm start's fraction for the next substep (tm_warm_start_fraction):
// all of the multipliers where the sweeps keep up (u_warm_start), else from
// the sums of every tet's shape step in the last substep's first and last
// iteration (lambdas[t].x and .y), the fraction written where the warm
// start reads it (tet_step.glsl). Summed as chunk_sums.glsl says: phase 0
// a workgroup per chunk of tets, which finishes alone where it is the only
// one dispatched; else phase 1, one workgroup adding the chunks' sums. Runs before
// predict, which marks the first steps as not taken.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "tet_math.glsl"
#include "chunk_sums.glsl"
layout(local_size_x = CHUNK_GROUP) in;

#include "tet_pass_state.glsl"
uniform uint u_phase;

void main()
{
    uint lane = gl_LocalInvocationID.x;
    uint tets = u_counts.y;
    uint chunks = (tets + CHUNK_ITEMS - 1u) / CHUNK_ITEMS;
    if (u_phase == 0u) {
        uint chunk = gl_WorkGroupID.x;
        uint end = min(tets, (chunk + 1u) * CHUNK_ITEMS);
        vec2 sum = vec2(0.0f);
        for (uint t = chunk * CHUNK_ITEMS + lane; t < end; t += CHUNK_GROUP) {
            sum += max(lambdas[t].xy, vec2(0.0f));
        }
        sum_a[lane] = vec4(sum, 0.0f, 0.0f);
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
        warm_fraction = tm_warm_start_fraction(sum_a[0].x, sum_a[0].y, u_warm_start.x);
    }
}
