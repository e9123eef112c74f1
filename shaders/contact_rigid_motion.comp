#version 430 core
// Body contact, once per substep in a world of one body, before
// contact_moved.comp: the rotation and shift that best carry the surface
// vertices' anchors onto their positions (cm_rigid_rotation), as
// BodyContacts::largest_move_beside_rigid_motion fits them. The sums give
// the same bits on every run (chunk_sums.glsl). Where the surface vertices
// fit one chunk, one workgroup does it all (u_phase 4); otherwise four
// dispatches:
//   0. a workgroup per chunk of the surface vertices: the anchors' and the
//      positions' sums;
//   1. one workgroup: those added, the two centroids to the state;
//   2. per chunk: the covariance, sum of (a - a0) (p - p0)^T, by column;
//   3. one workgroup: that added, its rotation and the centroids written.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
#include "tet_math.glsl"
#include "chunk_sums.glsl"

layout(local_size_x = CHUNK_GROUP) in;
uniform uint u_phase;
const uint ONE_CHUNK = 4u;

void centroid_sums(uint first, uint end, uint lane)
{
    vec3 anchors = vec3(0.0f);
    vec3 points = vec3(0.0f);
    for (uint s = first + lane; s < end; s += CHUNK_GROUP) {
        anchors += contact_anchors[s].xyz;
        points += positions[surface_vertices[s]].xyz;
    }
    sum_a[lane] = vec4(anchors, 0.0f);
    sum_b[lane] = vec4(points, 0.0f);
    sum_c[lane] = vec4(0.0f);
}

void covariance_sums(uint first, uint end, uint lane, vec3 anchor_centroid,
                     vec3 position_centroid)
{
    vec3 column[3] = vec3[3](vec3(0.0f), vec3(0.0f), vec3(0.0f));
    for (uint s = first + lane; s < end; s += CHUNK_GROUP) {
        vec3 a = contact_anchors[s].xyz - anchor_centroid;
        vec3 p = positions[surface_vertices[s]].xyz - position_centroid;
        column[0] += a * p.x;
        column[1] += a * p.y;
        column[2] += a * p.z;
    }
    sum_a[lane] = vec4(column[0], 0.0f);
    sum_b[lane] = vec4(column[1], 0.0f);
    sum_c[lane] = vec4(column[2], 0.0f);
}

// From the added covariance sums.
void write_rigid_motion(vec3 anchor_centroid, vec3 position_centroid)
{
    mat3 U;
    vec3 sigma;
    mat3 V;
    tm_signed_svd(mat3(sum_a[0].xyz, sum_b[0].xyz, sum_c[0].xyz), U, sigma, V);
    mat3 rotation = cm_rigid_rotation(U, V);
    contact_rigid_motion[0] = vec4(rotation[0], position_centroid.x);
    contact_rigid_motion[1] = vec4(rotation[1], position_centroid.y);
    contact_rigid_motion[2] = vec4(rotation[2], position_centroid.z);
    contact_rigid_motion[3] = vec4(anchor_centroid, 0.0f);
}

void main()
{
    uint lane = gl_LocalInvocationID.x;
    uint count = u_contact_counts.y;
    float inv_count = 1.0f / float(max(count, 1u));
    uint chunks = (count + CHUNK_ITEMS - 1u) / CHUNK_ITEMS;
    uint chunk = gl_WorkGroupID.x;
    uint first = chunk * CHUNK_ITEMS;
    uint end = min(count, first + CHUNK_ITEMS);
    if (u_phase == ONE_CHUNK) {
        centroid_sums(0u, count, lane);
        add_up(lane);
        vec3 anchor_centroid = sum_a[0].xyz * inv_count;
        vec3 position_centroid = sum_b[0].xyz * inv_count;
        barrier();  // every lane has read the sums
        covariance_sums(0u, count, lane, anchor_centroid, position_centroid);
        add_up(lane);
        if (lane == 0u) {
            write_rigid_motion(anchor_centroid, position_centroid);
        }
    } else if (u_phase == 0u) {
        centroid_sums(first, end, lane);
        store_chunk_sums(chunk, lane);
    } else if (u_phase == 2u) {
        covariance_sums(first, end, lane, partial_sums[u_state_base].xyz,
                        partial_sums[u_state_base + 1u].xyz);
        store_chunk_sums(chunk, lane);
    } else {
        add_chunk_sums(0u, chunks, lane);
        if (lane != 0u) {
            return;
        }
        if (u_phase == 1u) {
            partial_sums[u_state_base] = vec4(sum_a[0].xyz * inv_count, 0.0f);
            partial_sums[u_state_base + 1u] = vec4(sum_b[0].xyz * inv_count, 0.0f);
        } else {
            write_rigid_motion(partial_sums[u_state_base].xyz,
                               partial_sums[u_state_base + 1u].xyz);
        }
    }
}
