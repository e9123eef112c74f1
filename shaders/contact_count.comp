#version 430 core
// Body contact, every iteration, 1 of 3: counts, for every vertex, the
// candidate pairs in contact on the positions as the iteration left them
// (cm_vertex_triangle_contact), into the fourth int of its sums. The step
// (contact_solve.comp) splits each vertex's inverse mass among that many
// pairs, as BodyContacts::solve does.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
#include "contact_pairs.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint slot = gl_GlobalInvocationID.x;
    CandidatePair pair;
    CmContact contact;
    if (!candidate_in_contact(slot, pair, contact)) {
        return;
    }
    atomicAdd(contact_sums[4u * pair.v + 3u], 1);
    atomicAdd(contact_sums[4u * pair.a + 3u], 1);
    atomicAdd(contact_sums[4u * pair.b + 3u], 1);
    atomicAdd(contact_sums[4u * pair.c + 3u], 1);
}
