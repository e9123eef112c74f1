#version 430 core
// Body contact, once per substep where the tets are hashed, after
// contact_body_boxes.comp, when the near lists are stale: each body's
// neighbours, the bodies whose boxes meet its box (body_neighbours_slot),
// which are all a tet of it need be tried against (meets_other_body).
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    if (near_lists_fresh()) {
        return;
    }
    uint body = gl_GlobalInvocationID.x;
    if (body >= world_bodies()) {
        return;
    }
    vec3 lo = body_box_lo(body);
    vec3 hi = body_box_hi(body);
    uint first = body_neighbours_slot(body);
    uint count = 0u;
    for (uint b = 0u; b < world_bodies(); ++b) {
        if (b == body || !boxes_meet(lo, hi, body_box_lo(b), body_box_hi(b))) {
            continue;
        }
        if (count == MAX_BODY_NEIGHBOURS) {
            count = ALL_BODIES_NEAR;
            break;
        }
        contact_hash[first + 1u + count] = b;
        ++count;
    }
    contact_hash[first] = count;
}
