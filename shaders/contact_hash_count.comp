#version 430 core
// Body contact, once per substep, 2 of 6, when the near lists are stale:
// counts the surface triangles, and the tets if they are hashed, in each
// bucket of their table, once per cell the item's box touches (the buckets
// were zeroed by contact_hash_clear).
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
    if (i >= hash_items()) {
        return;
    }
    ivec3 lo;
    ivec3 hi;
    uint table = item_cells(i, lo, hi);
    uint buckets = table_buckets(table);
    for (int z = lo.z; z <= hi.z; ++z) {
        for (int y = lo.y; y <= hi.y; ++y) {
            for (int x = lo.x; x <= hi.x; ++x) {
                uint h = cm_cell_hash(ivec3(x, y, z), buckets);
                atomicAdd(contact_hash[bucket_offset_slot(table, h) + 1u], 1u);
            }
        }
    }
}
