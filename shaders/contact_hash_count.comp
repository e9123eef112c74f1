#version 430 core
// Body contact, once per substep, 1 of 4: counts the surface triangles in
// each bucket of the spatial hash, by the cell of their centroid (the
// buckets were zeroed by contact_hash_clear).
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_math.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint f = gl_GlobalInvocationID.x;
    if (f < u_counts.z) {
        uint h = cm_cell_hash(cm_cell_of(triangle_centroid(f), u_contact_hash.x),
                              u_contact_counts.x);
        atomicAdd(contact_hash[h + 1u], 1u);
    }
}
