// Buffers of the body contact passes (contact_*.comp), after sim_common.glsl
// included with SIM_NO_GATHER_OR_SURFACE (llvmpipe's 16 blocks per shader).
// The layout mirrors core/body_contacts.h and GpuSolver; the maths is
// contact_math.glsl's, included here.

#include "contact_math.glsl"

const uint CONTACTS_PER_VERTEX = 4u;  // kContactsPerVertex
const uint NO_CONTACT = CM_NO_TRIANGLE;  // kNoContact

// 3 per triangle, its corners; then 3 per triangle, the far corners of the
// faces beyond its edges (ContactLayout::triangle_far_corners).
layout(std430, binding = 12) readonly buffer Triangles { uint triangles[]; };
// Per mesh vertex: xyz rest position, w its body (uintBitsToFloat).
layout(std430, binding = 19) readonly buffer ContactVertices { vec4 contact_vertices[]; };
// The spatial hash, two tables in one buffer: the surface triangles' (a
// triangle in every cell its box grown by the lists' radius touches), then,
// in a world of several bodies, the tets' (in every cell their box
// touches). A table of B buckets at `base`: bucket offsets [base, base +
// B], cursors [base + B + 1, base + 2B], then its items bucket by bucket.
layout(std430, binding = 20) buffer ContactHash { uint contact_hash[]; };
layout(std430, binding = 21) readonly buffer SurfaceVertices { uint surface_vertices[]; };
// CONTACTS_PER_VERTEX candidate triangles per surface vertex, nearest
// first (a deep pair's marked with CM_DEEP_PAIR), then the near lists:
// CM_NEAR_SLOTS triangles per surface vertex, then each surface vertex's
// exit triangle if the search found it inside another body (or NO_CONTACT).
layout(std430, binding = 22) buffer ContactCandidates { uint contact_candidates[]; };
// Per mesh vertex: xyz the fixed-point sum of this iteration's contact
// corrections, w how many pairs are in contact with it (contact_count.comp).
layout(std430, binding = 23) buffer ContactSums { int contact_sums[]; };
// The near lists' state, as the float bits of non-negative floats (which
// order as unsigned integers): the largest move of a surface vertex since
// the lists were searched, plain, beside the bodies and beside the rigid
// motion (contact_moved.comp, cm_move_beside_bodies,
// cm_move_beside_rigid_motion); the move the last search allows
// (cm_near_list_allowed_move, the least over the vertices: 0 before the
// first search); the same being gathered by a search under way, which
// contact_pick.comp then makes the allowed move. In a world of one body,
// its rigid motion since the search (contact_rigid_motion.comp): the
// rotation's columns in xyz and the positions' centroid in w of the first
// three, the anchors' centroid in the fourth. Then per surface vertex: xyz
// where its list was searched, w its body's reference surface vertex
// (ContactLayout::surface_body_reference, uintBitsToFloat).
layout(std430, binding = 24) buffer ContactAnchors {
    uint contact_largest_move_bits;
    uint contact_largest_move_beside_bodies_bits;
    uint contact_largest_move_beside_rigid_motion_bits;
    uint contact_allowed_move_bits;
    uint contact_next_allowed_move_bits;
    uint contact_anchors_padding[3];
    vec4 contact_rigid_motion[4];
    vec4 contact_anchors[];
};
// Per mesh tet, its body's way out (ContactLayout::tet_exit_triangle):
// declared only where a pass says CONTACT_TET_EXITS (the search), since
// llvmpipe counts every declared block against its 16.
#ifdef CONTACT_TET_EXITS
layout(std430, binding = 25) readonly buffer TetExits { uint tet_exit_triangles[]; };
#endif

// A float's bits as an unsigned integer of the same order (negative floats
// below positive ones), so that atomicMax finds the largest float.
uint ordered_bits(float f)
{
    uint u = floatBitsToUint(f);
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}

float from_ordered_bits(uint u)
{
    return uintBitsToFloat((u & 0x80000000u) != 0u ? (u & 0x7fffffffu) : ~u);
}

uint world_bodies()
{
    return u_contact_tets.w;
}

// Where the tets are hashed, ContactHash ends with each body's box at the
// search (contact_body_boxes.comp): six ordered_bits per body, the low
// corner's x y z negated, then the high corner's, each the largest over the
// body's vertices; cleared to 0, below every float. (In the hash's buffer:
// a block of its own would pass llvmpipe's 16 per shader.)
uint body_box_slot(uint body, uint k)
{
    return u_contact_counts.w + 6u * body + k;
}

// After the boxes, each body's neighbours at the search, the bodies whose
// boxes meet its box (contact_body_neighbours.comp): a count, then up to
// MAX_BODY_NEIGHBOURS bodies; ALL_BODIES_NEAR for more (every body is then
// tried).
const uint MAX_BODY_NEIGHBOURS = 63u;  // kMaxBodyNeighbours
const uint ALL_BODIES_NEAR = 0xffffffffu;

uint body_neighbours_slot(uint body)
{
    return u_contact_counts.w + 6u * world_bodies() + (MAX_BODY_NEIGHBOURS + 1u) * body;
}

vec3 body_box_lo(uint b)
{
    return -vec3(from_ordered_bits(contact_hash[body_box_slot(b, 0u)]),
                 from_ordered_bits(contact_hash[body_box_slot(b, 1u)]),
                 from_ordered_bits(contact_hash[body_box_slot(b, 2u)]));
}

vec3 body_box_hi(uint b)
{
    return vec3(from_ordered_bits(contact_hash[body_box_slot(b, 3u)]),
                from_ordered_bits(contact_hash[body_box_slot(b, 4u)]),
                from_ordered_bits(contact_hash[body_box_slot(b, 5u)]));
}

// Whether two boxes share a point, boundary included (Bounds::overlaps).
bool boxes_meet(vec3 lo, vec3 hi, vec3 other_lo, vec3 other_hi)
{
    return all(greaterThanEqual(hi, other_lo)) && all(lessThanEqual(lo, other_hi));
}

// Whether the box meets the box of a body other than `body`. Only such a
// tet can hold another body's vertex, every vertex lying in its body's box;
// only the body's neighbours can have such a box.
bool meets_other_body(uint body, vec3 lo, vec3 hi)
{
    uint first = body_neighbours_slot(body);
    uint count = contact_hash[first];
    bool all_near = count == ALL_BODIES_NEAR;
    uint tries = all_near ? world_bodies() : count;
    for (uint i = 0u; i < tries; ++i) {
        uint b = all_near ? i : contact_hash[first + 1u + i];
        if (b != body && boxes_meet(lo, hi, body_box_lo(b), body_box_hi(b))) {
            return true;
        }
    }
    return false;
}

// Whether the near lists still hold every vertex's picks
// (cm_near_lists_fresh); the search passes do nothing then.
bool near_lists_fresh()
{
    return cm_near_lists_fresh(uintBitsToFloat(contact_largest_move_bits),
                               uintBitsToFloat(contact_largest_move_beside_bodies_bits),
                               uintBitsToFloat(contact_largest_move_beside_rigid_motion_bits),
                               uintBitsToFloat(contact_allowed_move_bits));
}

// Slot i of surface vertex s's near list in contact_candidates.
uint near_slot(uint s, uint i)
{
    return u_contact_counts.y * CONTACTS_PER_VERTEX + s * CM_NEAR_SLOTS + i;
}

// Surface vertex s's exit triangle in contact_candidates.
uint deep_slot(uint s)
{
    return u_contact_counts.y * (CONTACTS_PER_VERTEX + CM_NEAR_SLOTS) + s;
}

bool tets_hashed()
{
    return u_contact_tets.x > 0u;
}

// The hash's two tables.
const uint TRIANGLE_TABLE = 0u;
const uint TET_TABLE = 1u;

uint table_base(uint table)
{
    return table == TRIANGLE_TABLE ? 0u : u_contact_tets.y;
}

uint table_buckets(uint table)
{
    return table == TRIANGLE_TABLE ? u_contact_counts.x : u_contact_tets.x;
}

// Where bucket h's offset is (its count, before the scan, is one bucket
// later), its cursor, and a table's entry e.
uint bucket_offset_slot(uint table, uint h)
{
    return table_base(table) + h;
}

uint bucket_cursor_slot(uint table, uint h)
{
    return table_base(table) + table_buckets(table) + 1u + h;
}

uint table_entry_slot(uint table, uint e)
{
    return table_base(table) + 2u * table_buckets(table) + 1u + e;
}

uint triangle_corner(uint f, uint corner)
{
    return triangles[3u * f + corner];
}

// The third corner of the face beyond triangle f's edge opposite `corner`,
// or NO_CONTACT.
uint triangle_far_corner(uint f, uint corner)
{
    return triangles[3u * (u_counts.z + f) + corner];
}

// The hash passes' items: the surface triangles, then the tets if they are
// hashed.
uint hash_items()
{
    return u_counts.z + (tets_hashed() ? u_contact_tets.z : 0u);
}

// The table item i goes in and the cells it is listed in: a triangle's
// (cm_triangle_cells, for the near lists' radius) or a tet's box's.
uint item_cells(uint i, out ivec3 lo, out ivec3 hi)
{
    if (i < u_counts.z) {
        cm_triangle_cells(positions[triangle_corner(i, 0u)].xyz,
                          positions[triangle_corner(i, 1u)].xyz,
                          positions[triangle_corner(i, 2u)].xyz, u_contact_hash.w,
                          u_contact_hash.x, lo, hi);
        return TRIANGLE_TABLE;
    }
    uvec4 tet = tets[i - u_counts.z];
    vec3 box_lo;
    vec3 box_hi;
    cm_tet_box(positions[tet.x].xyz, positions[tet.y].xyz, positions[tet.z].xyz,
               positions[tet.w].xyz, box_lo, box_hi);
    if (!meets_other_body(floatBitsToUint(contact_vertices[tet.x].w), box_lo, box_hi)) {
        lo = ivec3(0);  // in no cell: away from the other bodies, as the CPU leaves it
        hi = ivec3(-1);
        return TET_TABLE;
    }
    cm_box_cells(box_lo, box_hi, u_contact_tet_cell.x, lo, hi);
    return TET_TABLE;
}

// Item i's index in its table: the triangle's, or the tet's.
uint item_index(uint i)
{
    return i < u_counts.z ? i : i - u_counts.z;
}

// The body's neighbourhood in the rest shape (ContactLayout::rest_exclusion_m).
float body_rest_exclusion(uint body)
{
    return u_body_exclusion[body / 4u][body % 4u];
}
