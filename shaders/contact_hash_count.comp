#version 430 core
// Body contact, once per substep, 2 of 6, when the near lists are stale:
// counts the surface triangles in each bucket of the spatial hash, once per
// cell the triangle's grown box touches (the buckets were zeroed by
// contact_hash_clear).
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    if (near_lists_fresh()) {
        return;
    }
    uint f = gl_GlobalInvocationID.x;
    if (f >= u_counts.z) {
        return;
    }
    ivec3 lo;
    ivec3 hi;
    triangle_cells(f, lo, hi);
    for (int z = lo.z; z <= hi.z; ++z) {
        for (int y = lo.y; y <= hi.y; ++y) {
            for (int x = lo.x; x <= hi.x; ++x) {
                uint h = cm_cell_hash(ivec3(x, y, z), u_contact_counts.x);
                atomicAdd(contact_hash[h + 1u], 1u);
            }
        }
    }
}
