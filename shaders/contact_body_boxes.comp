#version 430 core
// Body contact, once per substep where the tets are hashed, before the
// hash passes, when the near lists are stale: each body's box, from all of
// its vertices (body_box_slot, cleared by GpuSolver::find_contacts), so
// that the tets away from every other body stay out of the hash
// (meets_other_body), as BodyContacts::find_tet_boxes leaves them out.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    if (near_lists_fresh()) {
        return;
    }
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x) {
        return;
    }
    uint body = floatBitsToUint(contact_vertices[v].w);
    vec3 x = positions[v].xyz;
    for (uint k = 0u; k < 3u; ++k) {
        atomicMax(contact_hash[body_box_slot(body, k)], ordered_bits(-x[k]));
        atomicMax(contact_hash[body_box_slot(body, 3u + k)], ordered_bits(x[k]));
    }
}
