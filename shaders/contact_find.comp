#version 430 core
// Body contact, once per substep, 4 of 4: each surface vertex keeps its
// nearest surface triangles within the search radius, ordered by (distance,
// triangle), among those listed in its cell. As BodyContacts::find.
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
    uint v = surface_vertices[s];
    uint best[CONTACTS_PER_VERTEX];
    float best_distance[CONTACTS_PER_VERTEX];
    for (uint i = 0u; i < CONTACTS_PER_VERTEX; ++i) {
        best[i] = NO_CONTACT;
        best_distance[i] = 1.0e30f;
    }
    vec3 x = positions[v].xyz;
    vec4 rest_v = contact_vertices[v];
    uint body = floatBitsToUint(rest_v.w);
    uint buckets = u_contact_counts.x;
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
        if (!cm_near_triangle_box(x, positions[a].xyz, positions[b].xyz,
                                  positions[c].xyz, u_contact_hash.z)) {
            continue;
        }
        float d = cm_point_triangle_distance(x, positions[a].xyz, positions[b].xyz,
                                             positions[c].xyz);
        if (!(d < u_contact_hash.z)) {
            continue;
        }
        int at = int(CONTACTS_PER_VERTEX);
        bool seen = false;
        for (int i = int(CONTACTS_PER_VERTEX) - 1; i >= 0; --i) {
            if (best[i] == f) {
                seen = true;
                break;
            }
            if (d < best_distance[i] || (d == best_distance[i] && f < best[i])) {
                at = i;
            }
        }
        if (seen || at == int(CONTACTS_PER_VERTEX)) {
            continue;
        }
        for (int i = int(CONTACTS_PER_VERTEX) - 1; i > at; --i) {
            best[i] = best[i - 1];
            best_distance[i] = best_distance[i - 1];
        }
        best[at] = f;
        best_distance[at] = d;
    }
    // Only the nearest face of a body behind which the vertex lies acts (as
    // BodyContacts::find_for_vertex: pushing out across the body too would
    // fight it).
    uint kept = 0u;
    for (uint i = 0u; i < CONTACTS_PER_VERTEX; ++i) {
        if (best[i] == NO_CONTACT) {
            break;
        }
        uint f = best[i];
        bool drop = false;
        if (cm_behind_triangle(x, positions[triangle_corner(f, 0u)].xyz,
                               positions[triangle_corner(f, 1u)].xyz,
                               positions[triangle_corner(f, 2u)].xyz)) {
            for (uint j = 0u; j < kept && !drop; ++j) {
                uint g = best[j];
                drop = floatBitsToUint(contact_vertices[triangle_corner(g, 0u)].w) ==
                           floatBitsToUint(contact_vertices[triangle_corner(f, 0u)].w) &&
                       cm_behind_triangle(x, positions[triangle_corner(g, 0u)].xyz,
                                          positions[triangle_corner(g, 1u)].xyz,
                                          positions[triangle_corner(g, 2u)].xyz);
            }
        }
        if (!drop) {
            best[kept] = f;
            kept += 1u;
        }
    }
    for (uint i = 0u; i < CONTACTS_PER_VERTEX; ++i) {
        contact_candidates[s * CONTACTS_PER_VERTEX + i] = i < kept ? best[i] : NO_CONTACT;
    }
}
