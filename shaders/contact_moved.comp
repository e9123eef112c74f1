#version 430 core
// Body contact, once per substep, 0 of 6: the largest move of a surface
// vertex since its near list was searched, plain, beside the bodies
// (cm_move_beside_bodies) and, in a world of one body, beside its rigid
// motion (cm_move_beside_rigid_motion, fitted by contact_rigid_motion.comp
// just before). The float bits of non-negative floats order as unsigned
// integers; a NaN's are above every number's, so a diverged vertex makes the
// lists stale where NaNs are kept. GpuSolver zeroes the three first.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= u_contact_counts.y) {
        return;
    }
    vec4 anchor = contact_anchors[s];
    vec3 position = positions[surface_vertices[s]].xyz;
    vec3 moved = position - anchor.xyz;
    uint reference = floatBitsToUint(anchor.w);
    vec3 body_moved = positions[surface_vertices[reference]].xyz - contact_anchors[reference].xyz;
    vec3 world_moved = positions[surface_vertices[0]].xyz - contact_anchors[0].xyz;
    atomicMax(contact_largest_move_bits, floatBitsToUint(length(moved)));
    atomicMax(contact_largest_move_beside_bodies_bits,
              floatBitsToUint(cm_move_beside_bodies(moved, body_moved, world_moved)));
    float beside_rigid_motion = CM_NO_MOVE_BOUND;
    if (!tets_hashed()) {  // a world of one body (ContactLayout::make)
        mat3 rotation = mat3(contact_rigid_motion[0].xyz, contact_rigid_motion[1].xyz,
                             contact_rigid_motion[2].xyz);
        vec3 position_centroid = vec3(contact_rigid_motion[0].w, contact_rigid_motion[1].w,
                                      contact_rigid_motion[2].w);
        beside_rigid_motion = cm_move_beside_rigid_motion(
            position, anchor.xyz, rotation, contact_rigid_motion[3].xyz, position_centroid);
    }
    atomicMax(contact_largest_move_beside_rigid_motion_bits, floatBitsToUint(beside_rigid_motion));
}
