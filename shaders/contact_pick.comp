#version 430 core
// Body contact, once per substep, 6 of 6: each surface vertex's candidates
// are the nearest triangles of its near list within the search radius, at
// most one face per other body it lies behind (cm_pair_behind_may_touch),
// and its deep pair if the search found it inside a body. As
// BodyContacts::pick_for_vertex.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s == 0u) {
        // This substep's search, if there was one, is done (no pick reads it).
        contact_allowed_move_bits = contact_next_allowed_move_bits;
    }
    if (s >= u_contact_counts.y) {
        return;
    }
    uint v = surface_vertices[s];
    vec3 x = positions[v].xyz;
    uint vertex_body = floatBitsToUint(contact_vertices[v].w);
    float radius = u_contact_hash.z;
    CmNearest picked;
    cm_nearest_clear(picked);
    for (uint i = 0u; i < CM_NEAR_SLOTS; ++i) {
        uint f = contact_candidates[near_slot(s, i)];
        if (f == NO_CONTACT) {
            break;
        }
        vec3 a = positions[triangle_corner(f, 0u)].xyz;
        vec3 b = positions[triangle_corner(f, 1u)].xyz;
        vec3 c = positions[triangle_corner(f, 2u)].xyz;
        if (!cm_near_triangle_box(x, a, b, c, radius)) {
            continue;
        }
        float d = cm_point_triangle_distance(x, a, b, c);
        if (d < radius) {
            uint body = floatBitsToUint(contact_vertices[triangle_corner(f, 0u)].w);
            bool behind = cm_behind_triangle(x, a, b, c);
            if (behind && !cm_pair_behind_may_touch(vertex_body, body)) {
                continue;
            }
            cm_nearest_insert(picked, CONTACTS_PER_VERTEX, f, d, 2u * body + (behind ? 1u : 0u));
        }
    }
    cm_nearest_keep_one_behind_per_body(picked, CONTACTS_PER_VERTEX);
    uint exit = contact_candidates[deep_slot(s)];
    if (exit != NO_CONTACT) {
        cm_add_deep_pair(picked, CONTACTS_PER_VERTEX, exit,
                         floatBitsToUint(contact_vertices[triangle_corner(exit, 0u)].w),
                         cm_behind_triangle(x, positions[triangle_corner(exit, 0u)].xyz,
                                            positions[triangle_corner(exit, 1u)].xyz,
                                            positions[triangle_corner(exit, 2u)].xyz));
    }
    for (uint i = 0u; i < CONTACTS_PER_VERTEX; ++i) {
        contact_candidates[s * CONTACTS_PER_VERTEX + i] = picked.triangle[i];
    }
}
