#version 430 core
// Body contact, once per substep, 5 of 6, when the near lists are stale:
// each surface vertex keeps its nearest surface triangles within the lists'
// radius among those listed in its cell, and where it was; and, if the tets
// are hashed, the exit triangle of a tet of another body that holds it. As
// BodyContacts::search_for_vertex.
#define SIM_NO_GATHER_OR_SURFACE
#define CONTACT_TET_EXITS
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

// The least exit triangle over the tets listed in x's cell that hold x and
// are another body's (whatever order the fill listed them in); NO_CONTACT
// if none. As BodyContacts::deep_triangle_for_vertex.
uint deep_triangle(vec3 x, uint body)
{
    uint h = cm_cell_hash(cm_cell_of(x, u_contact_tet_cell.x), table_buckets(TET_TABLE));
    uint exit = NO_CONTACT;
    for (uint e = contact_hash[bucket_offset_slot(TET_TABLE, h)];
         e < contact_hash[bucket_offset_slot(TET_TABLE, h + 1u)]; ++e) {
        uint t = contact_hash[table_entry_slot(TET_TABLE, e)];
        uvec4 tet = tets[t];
        if (floatBitsToUint(contact_vertices[tet.x].w) == body || tet_exit_triangles[t] >= exit) {
            continue;
        }
        vec3 a = positions[tet.x].xyz;
        vec3 b = positions[tet.y].xyz;
        vec3 c = positions[tet.z].xyz;
        vec3 d = positions[tet.w].xyz;
        vec3 lo;
        vec3 hi;
        cm_tet_box(a, b, c, d, lo, hi);
        if (!cm_in_box(x, lo, hi)) {
            continue;
        }
        if (cm_inside_tet(x, a, b, c, d)) {
            exit = tet_exit_triangles[t];
        }
    }
    return exit;
}

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= u_contact_counts.y || near_lists_fresh()) {
        return;
    }
    uint v = surface_vertices[s];
    vec3 x = positions[v].xyz;
    contact_anchors[s].xyz = x;
    CmNearest nearest;
    cm_nearest_clear(nearest);
    vec4 rest_v = contact_vertices[v];
    uint body = floatBitsToUint(rest_v.w);
    float radius = u_contact_hash.w;
    // A NaN position finds nothing (as the CPU's, which does not look).
    uint h = cm_cell_hash(cm_cell_of(x, u_contact_hash.x), table_buckets(TRIANGLE_TABLE));
    for (uint e = contact_hash[bucket_offset_slot(TRIANGLE_TABLE, h)];
         e < contact_hash[bucket_offset_slot(TRIANGLE_TABLE, h + 1u)]; ++e) {
        uint f = contact_hash[table_entry_slot(TRIANGLE_TABLE, e)];
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
    bool finite = x == x;  // all three not NaN (an infinite one finds no tet)
    contact_candidates[deep_slot(s)] =
        tets_hashed() && finite ? deep_triangle(x, body) : NO_CONTACT;
    atomicMin(contact_next_allowed_move_bits,
              floatBitsToUint(cm_near_list_allowed_move(nearest, u_contact_hash.z,
                                                        u_contact_hash.w)));
}
