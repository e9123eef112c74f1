#version 430 core
// Body contact, once per substep, 3 of 6, when the near lists are stale:
// the counts become bucket offsets (an inclusive prefix sum over counts
// stored one bucket late), copied to the cursors the fill advances. One
// workgroup per table (the triangles', and the tets' if they are hashed):
// each lane sums a run of buckets, the lanes' totals are scanned in shared
// memory, then each lane rewrites its run.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

shared uint lane_totals[64];

void main()
{
    if (near_lists_fresh()) {
        return;
    }
    uint table = gl_WorkGroupID.x == 0u ? TRIANGLE_TABLE : TET_TABLE;
    uint lane = gl_LocalInvocationID.x;
    uint buckets = table_buckets(table);
    uint counts = bucket_offset_slot(table, 1u);  // bucket h's count at counts + h
    uint run = (buckets + 63u) / 64u;
    uint first = lane * run;
    uint end = min(first + run, buckets);
    uint total = 0u;
    for (uint h = first; h < end; ++h) {
        total += contact_hash[counts + h];
    }
    lane_totals[lane] = total;
    barrier();
    if (lane == 0u) {
        uint sum = 0u;
        for (uint i = 0u; i < 64u; ++i) {
            uint t = lane_totals[i];
            lane_totals[i] = sum;
            sum += t;
        }
    }
    barrier();
    uint offset = lane_totals[lane];
    for (uint h = first; h < end; ++h) {
        offset += contact_hash[counts + h];
        contact_hash[counts + h] = offset;
    }
    memoryBarrierBuffer();
    barrier();
    for (uint h = first; h < end; ++h) {
        contact_hash[bucket_cursor_slot(table, h)] = contact_hash[bucket_offset_slot(table, h)];
    }
}
