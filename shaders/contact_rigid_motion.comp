#version 430 core
// Body contact, once per substep in a world of one body, before
// contact_moved.comp: the rotation and shift that best carry the surface
// vertices' anchors onto their positions (cm_rigid_rotation), as
// BodyContacts::largest_move_beside_rigid_motion fits them. One workgroup:
// each invocation sums a stride of the vertices, then a tree in shared
// memory adds the invocations' sums in a fixed order, so that reruns give
// the same bits.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
#include "tet_math.glsl"

layout(local_size_x = 64) in;
const uint GROUP = 64u;  // the local size

shared vec3 sum_a[GROUP];
shared vec3 sum_b[GROUP];
shared vec3 sum_c[GROUP];

// Adds the invocations' partial sums into entry 0 of each array.
void add_up(uint i)
{
    for (uint half_size = GROUP / 2u; half_size > 0u; half_size /= 2u) {
        barrier();
        if (i < half_size) {
            sum_a[i] += sum_a[i + half_size];
            sum_b[i] += sum_b[i + half_size];
            sum_c[i] += sum_c[i + half_size];
        }
    }
    barrier();
}

void main()
{
    uint i = gl_LocalInvocationID.x;
    uint count = u_contact_counts.y;
    // The centroids of the anchors and of the positions.
    vec3 anchors = vec3(0.0f);
    vec3 points = vec3(0.0f);
    for (uint s = i; s < count; s += GROUP) {
        anchors += contact_anchors[s].xyz;
        points += positions[surface_vertices[s]].xyz;
    }
    sum_a[i] = anchors;
    sum_b[i] = points;
    sum_c[i] = vec3(0.0f);
    add_up(i);
    float inv_count = 1.0f / float(max(count, 1u));
    vec3 anchor_centroid = sum_a[0] * inv_count;
    vec3 position_centroid = sum_b[0] * inv_count;
    barrier();  // every invocation has read the centroids
    // Their covariance, sum of (a - a0) (p - p0)^T, column by column.
    vec3 column[3] = vec3[3](vec3(0.0f), vec3(0.0f), vec3(0.0f));
    for (uint s = i; s < count; s += GROUP) {
        vec3 a = contact_anchors[s].xyz - anchor_centroid;
        vec3 p = positions[surface_vertices[s]].xyz - position_centroid;
        column[0] += a * p.x;
        column[1] += a * p.y;
        column[2] += a * p.z;
    }
    sum_a[i] = column[0];
    sum_b[i] = column[1];
    sum_c[i] = column[2];
    add_up(i);
    if (i == 0u) {
        mat3 U;
        vec3 sigma;
        mat3 V;
        tm_signed_svd(mat3(sum_a[0], sum_b[0], sum_c[0]), U, sigma, V);
        mat3 rotation = cm_rigid_rotation(U, V);
        contact_rigid_motion[0] = vec4(rotation[0], position_centroid.x);
        contact_rigid_motion[1] = vec4(rotation[1], position_centroid.y);
        contact_rigid_motion[2] = vec4(rotation[2], position_centroid.z);
        contact_rigid_motion[3] = vec4(anchor_centroid, 0.0f);
    }
}
