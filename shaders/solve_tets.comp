#version 430 core
// Pass 3a (DESIGN.md 4.3), Jacobi: one iteration of every tet's shape and
// volume constraints, or (u_tet_pass TET_PASS_RECOVER) one of the last
// sweeps after them (tm_recover_tet). Each tet writes its four corrections
// to its own four slots: no atomics, no races, the same result on every
// run.
#define SIM_NO_SURFACE  // room for the tet rotations' block (16 on llvmpipe)
#include "sim_common.glsl"
#include "tet_math.glsl"
#include "tet_step.glsl"
layout(local_size_x = 64) in;

uniform uint u_tet_pass;  // TET_PASS_STEP or TET_PASS_RECOVER

// How many tets vertex v belongs to: its corner slots.
uint valence(uint v)
{
    return slot_offsets[v + 1u] - slot_offsets[v];
}

// The Jacobi weight of tet t (DESIGN.md 1.7), as jacobi_weight() in C++ with
// the tet's largest corner valence (TetMesh::max_corner_valence).
float jacobi_omega(uint t)
{
    uvec4 tet = tets[t];
    uint largest = max(max(valence(tet.x), valence(tet.y)), max(valence(tet.z), valence(tet.w)));
    return clamp(u_solver.x / max(float(largest), 1.0f), 0.08f, 0.5f);
}

void main()
{
    uint t = gl_GlobalInvocationID.x;
    if (t >= u_counts.y) {
        return;
    }
    uvec4 tet = tets[t];
    vec3 d0 = vec3(0.0f);
    vec3 d1 = vec3(0.0f);
    vec3 d2 = vec3(0.0f);
    vec3 d3 = vec3(0.0f);
    vec4 w;
    bool stepped = true;
    if (u_tet_pass == TET_PASS_RECOVER) {
        // Every tet writes its slots, zero where it took no step: they
        // hold the last iteration's corrections, which apply_deltas.comp
        // would add again. No warm start under Jacobi: nothing sunk.
        uint sweep;
        w = tet_inverse_masses(tet);
        stepped = last_sweep_runs(sweep) &&
                  recover_tet_at(t, tet, w, vec4(0.0f), jacobi_omega(t), sweep, d0, d1, d2, d3);
    } else {
        solve_tet_at(t, tet, jacobi_omega(t), w, d0, d1, d2, d3);
    }
    if (stepped) {
        vec3 starts[4];
        load_start_positions(tet, starts);
        tm_keep_angular_momentum(starts[0], starts[1], starts[2], starts[3], w, d0, d1, d2, d3);
    }
    uint slot = t * 4u;
    deltas[slot] = vec4(d0, 0.0f);
    deltas[slot + 1u] = vec4(d1, 0.0f);
    deltas[slot + 2u] = vec4(d2, 0.0f);
    deltas[slot + 3u] = vec4(d3, 0.0f);
}
