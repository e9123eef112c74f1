#version 430 core
// Pass 3c, only while grabbing: after the tets' pass, one XPBD step of each
// grab anchor's attachment, pulling its vertex toward the target plus the
// anchor's offset with its share of the grab's stiffness. One invocation per
// anchor; the anchors are distinct vertices, so they run at once without
// conflict (CpuSolver::solve_grab runs them in order, to the same result).
#define SIM_NO_GATHER_OR_SURFACE  // room for the anchors' block (16 at most on llvmpipe)
#include "sim_common.glsl"
#include "grab_math.glsl"
layout(local_size_x = 64) in;

struct GrabAnchor {
    vec4 offset_share;  // xyz offset from the grabbed point (m), w share of the stiffness
    uvec4 vertex;       // x vertex
};
// Bound at the pick result's point, free while the solver steps.
layout(std430, binding = 16) readonly buffer GrabAnchors { GrabAnchor anchors[]; };

void main()
{
    uint a = gl_GlobalInvocationID.x;
    if (a >= u_grab.x) {
        return;
    }
    GrabAnchor anchor = anchors[a];
    uint v = anchor.vertex.x;
    vec3 x = positions[v].xyz;
    uint slot = u_counts.y + a;
    float lambda = lambdas[slot].x;
    vec3 d0;
    vec3 d1;
    vec3 d2;
    tm_attachment_step(x, x, x, vec3(inverse_mass(v), 0.0f, 0.0f), vec3(1.0f, 0.0f, 0.0f),
                       u_grab_target.xyz + anchor.offset_share.xyz,
                       u_grab_compliance.x / anchor.offset_share.w, u_grab_target.w, lambda,
                       d0, d1, d2);
    lambdas[slot].x = lambda;
    corrections[v].xyz += d0;
    positions[v] = vec4(predicted[v].xyz + corrections[v].xyz, 0.0f);
}
