// Buffers of the body contact passes (contact_*.comp), after sim_common.glsl
// included with SIM_NO_GATHER_OR_SURFACE (llvmpipe's 16 blocks per shader).
// The layout mirrors core/body_contacts.h and GpuSolver; the maths is
// contact_math.glsl's, included here.

#include "contact_math.glsl"

const uint CONTACTS_PER_VERTEX = 4u;  // kContactsPerVertex
const uint NO_CONTACT = CM_NO_TRIANGLE;  // kNoContact

layout(std430, binding = 12) readonly buffer Triangles { uint triangles[]; };  // 3 per triangle
// Per mesh vertex: xyz rest position, w its body (uintBitsToFloat).
layout(std430, binding = 19) readonly buffer ContactVertices { vec4 contact_vertices[]; };
// The spatial hash of the triangles by centroid, one buffer: bucket offsets
// [0, T], cursors [T + 1, 2T], then the triangles bucket by bucket (a
// triangle once per cell it touches), with T = u_contact_counts.x buckets.
layout(std430, binding = 20) buffer ContactHash { uint contact_hash[]; };
layout(std430, binding = 21) readonly buffer SurfaceVertices { uint surface_vertices[]; };
// CONTACTS_PER_VERTEX candidate triangles per surface vertex, nearest
// first, then the near lists: CM_NEAR_SLOTS triangles per surface vertex.
layout(std430, binding = 22) buffer ContactCandidates { uint contact_candidates[]; };
// Per mesh vertex: xyz the fixed-point sum of this iteration's contact
// corrections, w how many contacts moved it.
layout(std430, binding = 23) buffer ContactSums { int contact_sums[]; };
// The near lists' state, as the float bits of non-negative floats (which
// order as unsigned integers): the largest move of a surface vertex since
// the lists were searched (contact_moved.comp); the move the last search
// allows (cm_near_list_allowed_move, the least over the vertices: 0 before
// the first search); the same being gathered by a search under way, which
// contact_pick.comp then makes the allowed move. Then per surface vertex
// where its list was searched.
layout(std430, binding = 24) buffer ContactAnchors {
    uint contact_largest_move_bits;
    uint contact_allowed_move_bits;
    uint contact_next_allowed_move_bits;
    uint contact_anchors_padding;
    vec4 contact_anchors[];
};

// Whether the near lists still hold every vertex's picks
// (cm_near_lists_fresh); the search passes do nothing then.
bool near_lists_fresh()
{
    return cm_near_lists_fresh(uintBitsToFloat(contact_largest_move_bits),
                               uintBitsToFloat(contact_allowed_move_bits));
}

// Slot i of surface vertex s's near list in contact_candidates.
uint near_slot(uint s, uint i)
{
    return u_contact_counts.y * CONTACTS_PER_VERTEX + s * CM_NEAR_SLOTS + i;
}

uint triangle_corner(uint f, uint corner)
{
    return triangles[3u * f + corner];
}

// The cells triangle f is listed in (cm_triangle_cells), for the near lists'
// radius.
void triangle_cells(uint f, out ivec3 lo, out ivec3 hi)
{
    cm_triangle_cells(positions[triangle_corner(f, 0u)].xyz, positions[triangle_corner(f, 1u)].xyz,
                      positions[triangle_corner(f, 2u)].xyz, u_contact_hash.w, u_contact_hash.x,
                      lo, hi);
}

// The body's neighbourhood in the rest shape (ContactLayout::rest_exclusion_m).
float body_rest_exclusion(uint body)
{
    return u_body_exclusion[body / 4u][body % 4u];
}
