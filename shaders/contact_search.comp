#version 430 core
// Body contact, once per substep, 5 of 6, when the near lists are stale:
// each surface vertex keeps its nearest surface triangles within the lists'
// radius among those listed in its cell, and where it was. As
// BodyContacts::search_for_vertex.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= u_contact_counts.y || near_lists_fresh()) {
        return;
    }
    uint v = surface_vertices[s];
    vec3 x = positions[v].xyz;
    contact_anchors[s] = vec4(x, 0.0f);
    CmNearest nearest;
    cm_nearest_clear(nearest);
    vec4 rest_v = contact_vertices[v];
    uint body = floatBitsToUint(rest_v.w);
    uint buckets = u_contact_counts.x;
    float radius = u_contact_hash.w;
    // A NaN position finds nothing (as the CPU's, which does not look).
    uint h = cm_cell_hash(cm_cell_of(x, u_contact_hash.x), buckets);
    for (uint e = contact_hash[h]; e < contact_hash[h + 1u]; ++e) {
        uint f = contact_hash[2u * buckets + 1u + e];
        uint a = triangle_corner(f, 0u);
        uint b = triangle_corner(f, 1u);
        uint c = triangle_corner(f, 2u);
        if (floatBitsToUint(contact_vertices[a].w) == body &&
            cm_rest_neighbours(rest_v.xyz, contact_vertices[a].xyz, contact_vertices[b].xyz,
                               contact_vertices[c].xyz, body_rest_exclusion(body))) {
            continue;  // its own corners among them
        }
        if (!cm_near_triangle_box(x, positions[a].xyz, positions[b].xyz, positions[c].xyz,
                                  radius)) {
            continue;
        }
        float d = cm_point_triangle_distance(x, positions[a].xyz, positions[b].xyz,
                                             positions[c].xyz);
        if (d < radius) {
            cm_nearest_insert(nearest, CM_NEAR_SLOTS, f, d, 0u);
        }
    }
    for (uint i = 0u; i < CM_NEAR_SLOTS; ++i) {
        contact_candidates[near_slot(s, i)] = nearest.triangle[i];
    }
    atomicMin(contact_next_allowed_move_bits,
              floatBitsToUint(cm_near_list_allowed_move(nearest, u_contact_hash.z,
                                                        u_contact_hash.w)));
}
