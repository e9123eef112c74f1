#version 430 core
// Body contact, once per substep, 1 of 6, when the near lists are stale:
// zeroes the bucket counts of both tables.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    if (near_lists_fresh()) {
        return;
    }
    uint i = gl_GlobalInvocationID.x;
    if (i == 0u) {
        contact_next_allowed_move_bits = floatBitsToUint(3.0e38f);  // the search's minimum starts high
    }
    if (i <= table_buckets(TRIANGLE_TABLE)) {
        contact_hash[bucket_offset_slot(TRIANGLE_TABLE, i)] = 0u;
    }
    if (tets_hashed() && i <= table_buckets(TET_TABLE)) {
        contact_hash[bucket_offset_slot(TET_TABLE, i)] = 0u;
    }
}
