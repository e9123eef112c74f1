#version 430 core
// Wobble damping, once a frame after the substeps (core/wobble_damping.h,
// sm_damp_wobble): the share 1 - keep (u_material_damping.y) of every
// vertex's motion besides its body's rigid motion is taken away. A body
// with a pinned vertex is held by the world: it loses the share of all its
// motion. The sums give the same bits on every run (chunk_sums.glsl). A
// world whose bodies each fit one chunk takes one dispatch, a workgroup a
// body (u_phase 5); otherwise five:
//   0. a workgroup per chunk of a body's vertices: its mass-weighted
//      positions and mass, its momentum and its pinned vertices;
//   1. a workgroup per body: its chunks' sums added, its centroid and
//      drift (zero for a body held by a pinned vertex) to the body's state;
//   2. per chunk: angular momentum and inertia about the centroid;
//   3. per body: those added, the body's spin to its state;
//   4. per chunk: the velocities damped.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "substep_math.glsl"
#include "chunk_sums.glsl"

layout(local_size_x = CHUNK_GROUP) in;

// The bodies, then the chunks (GpuSolver's body_chunks): entry b <
// u_bodies is body b's (first vertex, vertex count, first chunk, chunk
// count), entry u_bodies + k chunk k's (body, first vertex, end vertex, 0).
layout(std430, binding = 29) readonly buffer BodyChunks { uvec4 body_chunks[]; };
uniform uint u_phase;
uniform uint u_bodies;
const uint WHOLE_BODIES = 5u;

// A body's rigid motion: centroid, drift and spin; free is false for a
// body held by a pinned vertex (all three zero then).
struct BodyMotion {
    vec3 centre;
    vec3 drift;
    vec3 spin;
    bool free_body;
};

// Lane sums over vertices first..end - 1: the mass-weighted positions (xyz)
// and mass (w); the momentum (xyz) and pinned vertices (w).
void moment_sums(uint first, uint end, uint lane)
{
    vec4 moment = vec4(0.0f);
    vec4 momentum = vec4(0.0f);
    for (uint v = first + lane; v < end; v += CHUNK_GROUP) {
        float w = inverse_mass(v);
        if (w == 0.0f) {
            momentum.w += 1.0f;
        } else {
            float m = 1.0f / w;
            moment += vec4(m * positions[v].xyz, m);
            momentum.xyz += m * velocities[v].xyz;
        }
    }
    sum_a[lane] = moment;
    sum_b[lane] = momentum;
    sum_c[lane] = vec4(0.0f);
}

// From the added moment sums (entry 0 of sum_a and sum_b).
BodyMotion motion_from_moments()
{
    float mass = sum_a[0].w;
    BodyMotion motion;
    motion.free_body = sum_b[0].w == 0.0f && mass > 0.0f;
    motion.centre = motion.free_body ? sum_a[0].xyz / mass : vec3(0.0f);
    motion.drift = motion.free_body ? sum_b[0].xyz / mass : vec3(0.0f);
    motion.spin = vec3(0.0f);
    return motion;
}

// Lane sums about the centroid: angular momentum, and the inertia tensor's
// diagonal and off-diagonal (xy, xz, yz).
void spin_sums(uint first, uint end, uint lane, BodyMotion motion)
{
    vec3 angular_momentum = vec3(0.0f);
    vec3 diagonal = vec3(0.0f);
    vec3 off_diagonal = vec3(0.0f);
    if (motion.free_body) {
        for (uint v = first + lane; v < end; v += CHUNK_GROUP) {
            float m = 1.0f / inverse_mass(v);
            vec3 r = positions[v].xyz - motion.centre;
            angular_momentum += m * cross(r, velocities[v].xyz - motion.drift);
            diagonal += m * (vec3(dot(r, r)) - r * r);
            off_diagonal -= m * vec3(r.x * r.y, r.x * r.z, r.y * r.z);
        }
    }
    sum_a[lane] = vec4(angular_momentum, 0.0f);
    sum_b[lane] = vec4(diagonal, 0.0f);
    sum_c[lane] = vec4(off_diagonal, 0.0f);
}

// From the added spin sums.
vec3 spin_from_sums(BodyMotion motion)
{
    vec3 d = sum_b[0].xyz;
    vec3 o = sum_c[0].xyz;
    mat3 inertia = mat3(d.x, o.x, o.y,
                        o.x, d.y, o.z,
                        o.y, o.z, d.z);
    return motion.free_body ? sm_body_spin(sum_a[0].xyz, inertia) : vec3(0.0f);
}

void damp(uint first, uint end, uint lane, BodyMotion motion)
{
    float keep = u_material_damping.y;
    for (uint v = first + lane; v < end; v += CHUNK_GROUP) {
        if (inverse_mass(v) != 0.0f) {
            velocities[v].xyz = sm_damp_wobble(velocities[v].xyz, motion.drift, motion.spin,
                                               positions[v].xyz - motion.centre, keep);
        }
    }
}

// Body b's motion in partial_sums: centroid (w 1 where free), drift, spin.
uint state_slot(uint body) { return u_state_base + 3u * body; }

BodyMotion stored_motion(uint body)
{
    uint state = state_slot(body);
    BodyMotion motion;
    motion.centre = partial_sums[state].xyz;
    motion.free_body = partial_sums[state].w != 0.0f;
    motion.drift = partial_sums[state + 1u].xyz;
    motion.spin = partial_sums[state + 2u].xyz;
    return motion;
}

void main()
{
    uint lane = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    if (u_phase == WHOLE_BODIES) {
        uvec4 body = body_chunks[g];
        uint end = body.x + body.y;
        moment_sums(body.x, end, lane);
        add_up(lane);
        BodyMotion motion = motion_from_moments();
        barrier();  // every lane has read the sums
        spin_sums(body.x, end, lane, motion);
        add_up(lane);
        motion.spin = spin_from_sums(motion);
        damp(body.x, end, lane, motion);
    } else if (u_phase == 1u || u_phase == 3u) {  // a workgroup per body
        uvec4 body = body_chunks[g];
        add_chunk_sums(body.z, body.w, lane);
        if (lane != 0u) {
            return;
        }
        uint state = state_slot(g);
        if (u_phase == 1u) {
            BodyMotion motion = motion_from_moments();
            partial_sums[state] = vec4(motion.centre, motion.free_body ? 1.0f : 0.0f);
            partial_sums[state + 1u] = vec4(motion.drift, 0.0f);
        } else {
            partial_sums[state + 2u] = vec4(spin_from_sums(stored_motion(g)), 0.0f);
        }
    } else {
        uvec4 chunk = body_chunks[u_bodies + g];  // a workgroup per chunk
        if (u_phase == 0u) {
            moment_sums(chunk.y, chunk.z, lane);
            store_chunk_sums(g, lane);
        } else if (u_phase == 2u) {
            spin_sums(chunk.y, chunk.z, lane, stored_motion(chunk.x));
            store_chunk_sums(g, lane);
        } else {
            damp(chunk.y, chunk.z, lane, stored_motion(chunk.x));
        }
    }
}
