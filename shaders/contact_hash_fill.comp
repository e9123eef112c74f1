#version 430 core
// Body contact, once per substep, 4 of 6, when the near lists are stale:
// each surface triangle, and each tet if they are hashed, takes a place in
// the bucket of every cell it is counted in. The order within a bucket
// depends on the GPU's scheduling; the search (contact_search.comp) does
// not depend on it.
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
                uint place = atomicAdd(contact_hash[bucket_cursor_slot(table, h)], 1u);
                contact_hash[table_entry_slot(table, place)] = item_index(i);
            }
        }
    }
}
