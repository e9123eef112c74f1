#version 430 core
// Body contact, every iteration, 2 of 3: steps each candidate pair in
// contact (cm_vertex_triangle_push, each vertex's inverse mass split among
// the pairs contact_count.comp counted) and adds the corrections to the four
// vertices' fixed-point sums. Integer adds do not depend on their order, so
// the result is the same on every run and the same as BodyContacts::solve.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
#include "contact_pairs.glsl"
layout(local_size_x = 64) in;

void gather(uint v, vec3 d)
{
    ivec3 fixed_point = cm_to_fixed(d);
    atomicAdd(contact_sums[4u * v], fixed_point.x);
    atomicAdd(contact_sums[4u * v + 1u], fixed_point.y);
    atomicAdd(contact_sums[4u * v + 2u], fixed_point.z);
}

float pairs_of(uint v)
{
    return float(contact_sums[4u * v + 3u]);
}

void main()
{
    uint slot = gl_GlobalInvocationID.x;
    CandidatePair pair;
    CmContact contact;
    if (!candidate_in_contact(slot, pair, contact)) {
        return;
    }
    vec3 d_v;
    vec3 d_a;
    vec3 d_b;
    vec3 d_c;
    cm_vertex_triangle_push(contact, pair.w,
                            vec4(pairs_of(pair.v), pairs_of(pair.a), pairs_of(pair.b),
                                 pairs_of(pair.c)),
                            displacement(pair.v), displacement(pair.a), displacement(pair.b),
                            displacement(pair.c), u_contact.x, u_contact.y, d_v, d_a, d_b, d_c);
    gather(pair.v, d_v);
    gather(pair.a, d_a);
    gather(pair.b, d_b);
    gather(pair.c, d_c);
}
