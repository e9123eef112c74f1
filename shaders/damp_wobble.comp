#version 430 core
// Wobble damping, once a frame after the substeps (core/wobble_damping.h,
// sm_damp_wobble): one workgroup a body. It sums the body's mass, centroid
// and momentum, then its angular momentum and inertia about the centroid,
// each invocation a stride of the body's vertices and a tree in shared
// memory adding their sums in a fixed order (reruns give the same bits),
// and takes the share 1 - keep (u_material_damping.y) of every vertex's
// motion besides the body's rigid motion away. A body with a pinned vertex
// is held by the world: it loses the share of all its motion.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "substep_math.glsl"

layout(local_size_x = 64) in;
const uint GROUP = 64u;  // the local size

// Per body: x its first vertex, y its vertex count (core/world.h's WorldBody).
layout(std430, binding = 29) readonly buffer BodyVertexRanges { uvec2 body_vertex_ranges[]; };

shared vec4 sum_a[GROUP];
shared vec4 sum_b[GROUP];
shared vec4 sum_c[GROUP];

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
    uvec2 range = body_vertex_ranges[gl_WorkGroupID.x];
    uint end = range.x + range.y;
    // Mass-weighted sums of the positions (xyz) and the mass (w); of the
    // velocities (xyz) and the pinned vertices (w).
    vec4 moment = vec4(0.0f);
    vec4 momentum = vec4(0.0f);
    for (uint v = range.x + i; v < end; v += GROUP) {
        float w = inverse_mass(v);
        if (w == 0.0f) {
            momentum.w += 1.0f;
        } else {
            float m = 1.0f / w;
            moment += vec4(m * positions[v].xyz, m);
            momentum.xyz += m * velocities[v].xyz;
        }
    }
    sum_a[i] = moment;
    sum_b[i] = momentum;
    sum_c[i] = vec4(0.0f);
    add_up(i);
    bool pinned = sum_b[0].w > 0.0f;
    float mass = sum_a[0].w;
    vec3 mass_centre = vec3(0.0f);
    vec3 drift = vec3(0.0f);
    vec3 spin = vec3(0.0f);
    if (!pinned && mass > 0.0f) {
        mass_centre = sum_a[0].xyz / mass;
        drift = sum_b[0].xyz / mass;
        barrier();  // every invocation has read the sums
        // The angular momentum, and the inertia tensor's diagonal and its
        // off-diagonal (xy, xz, yz), about the centroid.
        vec3 angular_momentum = vec3(0.0f);
        vec3 diagonal = vec3(0.0f);
        vec3 off_diagonal = vec3(0.0f);
        for (uint v = range.x + i; v < end; v += GROUP) {
            float m = 1.0f / inverse_mass(v);
            vec3 r = positions[v].xyz - mass_centre;
            angular_momentum += m * cross(r, velocities[v].xyz - drift);
            diagonal += m * (vec3(dot(r, r)) - r * r);
            off_diagonal -= m * vec3(r.x * r.y, r.x * r.z, r.y * r.z);
        }
        sum_a[i] = vec4(angular_momentum, 0.0f);
        sum_b[i] = vec4(diagonal, 0.0f);
        sum_c[i] = vec4(off_diagonal, 0.0f);
        add_up(i);
        vec3 d = sum_b[0].xyz;
        vec3 o = sum_c[0].xyz;
        mat3 inertia = mat3(d.x, o.x, o.y,
                            o.x, d.y, o.z,
                            o.y, o.z, d.z);
        spin = sm_body_spin(sum_a[0].xyz, inertia);
    }
    float keep = u_material_damping.y;
    for (uint v = range.x + i; v < end; v += GROUP) {
        if (inverse_mass(v) != 0.0f) {
            velocities[v].xyz = sm_damp_wobble(velocities[v].xyz, drift, spin,
                                               positions[v].xyz - mass_centre, keep);
        }
    }
}
