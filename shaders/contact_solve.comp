#version 430 core
// Body contact, every iteration, 1 of 2: steps each candidate pair on the
// positions as the iteration left them (cm_vertex_triangle_step) and adds
// the corrections to the four vertices' fixed-point sums. Integer adds do
// not depend on their order, so the result is the same on every run and the
// same as BodyContacts::solve.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
layout(local_size_x = 64) in;

void gather(uint v, vec3 d)
{
    ivec3 fixed_point = cm_to_fixed(d);
    atomicAdd(contact_sums[4u * v], fixed_point.x);
    atomicAdd(contact_sums[4u * v + 1u], fixed_point.y);
    atomicAdd(contact_sums[4u * v + 2u], fixed_point.z);
    atomicAdd(contact_sums[4u * v + 3u], 1);
}

// The vertex's displacement since the substep began: h v + correction.
vec3 displacement(uint v)
{
    return u_gravity_h.w * velocities[v].xyz + corrections[v].xyz;
}

void main()
{
    uint slot = gl_GlobalInvocationID.x;
    if (slot >= u_contact_counts.y * CONTACTS_PER_VERTEX) {
        return;
    }
    uint pair = contact_candidates[slot];
    if (pair == NO_CONTACT) {
        return;
    }
    bool deep = (pair & CM_DEEP_PAIR) != 0u;
    uint f = pair & ~CM_DEEP_PAIR;
    uint v = surface_vertices[slot / CONTACTS_PER_VERTEX];
    uint a = triangle_corner(f, 0u);
    uint b = triangle_corner(f, 1u);
    uint c = triangle_corner(f, 2u);
    vec4 w = vec4(inverse_mass(v), inverse_mass(a), inverse_mass(b), inverse_mass(c));
    vec3 d_v;
    vec3 d_a;
    vec3 d_b;
    vec3 d_c;
    if (cm_vertex_triangle_step(positions[v].xyz, positions[a].xyz, positions[b].xyz,
                                positions[c].xyz, w, deep, u_contact_hash.y,
                                u_contact.w * u_gravity_h.w, displacement(v),
                                displacement(a), displacement(b), displacement(c), u_contact.x,
                                u_contact.y, d_v, d_a, d_b, d_c)) {
        gather(v, d_v);
        gather(a, d_a);
        gather(b, d_b);
        gather(c, d_c);
    }
}
