// One tet's XPBD step on the simulation buffers, shared by the Jacobi pass
// (solve_tets.comp) and the Gauss-Seidel ones (solve_tets_colored*.comp,
// region_sweep.glsl), the Gauss-Seidel warm start and the material
// damping that walks the colours after a substep. Reads the tet's
// corners and rest data, updates its multipliers, returns the four
// corrections. Same expressions as CpuSolver::solve_tet and the SIMD kernel.

// Each tet's rotation from its last step (tm_tet_rotation's start), the
// quaternion x y z w as four 16-bit signed normalized numbers (8 bytes a
// tet, where 16 would take the GPU past 200 bytes a tet): a start 3e-5 rad
// off costs the Newton step nothing (its error squares), and R itself is
// always computed in full float from F.
layout(std430, binding = 26) buffer TetRotations { uvec2 tet_rotations[]; };

// Where vertex v began the substep: predict moved it by h times the
// velocity it left in Velocities, which the iterations do not change.
vec3 start_position(uint v)
{
    return predicted[v].xyz - u_gravity_h.w * velocities[v].xyz;
}

// Each tet's multipliers, ten floats: the shape term's 3 x 3 one,
// column-major, then the volume term's. Kept from substep to substep for
// the warm start (Gauss-Seidel); predict.comp clears them every substep
// for Jacobi.
layout(std430, binding = 27) buffer TetMultipliers { float tet_multipliers[]; };
#include "tet_pass_state.glsl"

void load_multipliers(uint t, out mat3 lambda_shape, out float lambda_volume)
{
    uint at = 10u * t;
    lambda_shape = mat3(tet_multipliers[at], tet_multipliers[at + 1u], tet_multipliers[at + 2u],
                        tet_multipliers[at + 3u], tet_multipliers[at + 4u],
                        tet_multipliers[at + 5u], tet_multipliers[at + 6u],
                        tet_multipliers[at + 7u], tet_multipliers[at + 8u]);
    lambda_volume = tet_multipliers[at + 9u];
}

void store_multipliers(uint t, mat3 lambda_shape, float lambda_volume)
{
    uint at = 10u * t;
    for (int column = 0; column < 3; ++column) {
        tet_multipliers[at + 3u * uint(column)] = lambda_shape[column].x;
        tet_multipliers[at + 3u * uint(column) + 1u] = lambda_shape[column].y;
        tet_multipliers[at + 3u * uint(column) + 2u] = lambda_shape[column].z;
    }
    tet_multipliers[at + 9u] = lambda_volume;
}

vec4 tet_inverse_masses(uvec4 tet)
{
    return vec4(inverse_mass(tet.x), inverse_mass(tet.y), inverse_mass(tet.z),
                inverse_mass(tet.w));
}

// The corners' positions at the start of the substep (start_position),
// which the step keeps the angular momentum about.
void load_start_positions(uvec4 tet, out vec3 starts[4])
{
    starts[0] = start_position(tet.x);
    starts[1] = start_position(tet.y);
    starts[2] = start_position(tet.z);
    starts[3] = start_position(tet.w);
}

// Steps tet t, whose corners are `tet` with inverse masses w: its
// corrections d0..d3 before tm_keep_angular_momentum, which the callers
// apply.
void solve_tet_at(uint t, uvec4 tet, float omega, out vec4 w, out vec3 d0, out vec3 d1,
                  out vec3 d2, out vec3 d3)
{
    TetRest rest = tet_rests[t];
    mat3 B = mat3(rest.b0.xyz, rest.b1.xyz, rest.b2.xyz);
    float rest_volume = rest.b0.w;
    w = tet_inverse_masses(tet);
    float alpha_arap = rest.b1.w * u_solver.w;
    bool volume_enabled = rest.b2.w >= 0.0f;
    float alpha_volume = volume_enabled ? rest.b2.w * u_solver.w : 0.0f;
    mat3 lambda_shape;
    float lambda_volume;
    load_multipliers(t, lambda_shape, lambda_volume);
    uvec2 packed_rotation = tet_rotations[t];
    vec4 rotation = normalize(vec4(unpackSnorm2x16(packed_rotation.x),
                                   unpackSnorm2x16(packed_rotation.y)));
    vec4 readout = lambdas[t];
    float sliver = readout.w;
    float residual;
    float shape_step;
    bool squeezed;
    tm_solve_tet(positions[tet.x].xyz, positions[tet.y].xyz, positions[tet.z].xyz,
                 positions[tet.w].xyz, w, B, rest_volume, sliver, alpha_arap, alpha_volume,
                 volume_enabled, volume_barrier_engaged != 0u, u_contact.z != 0.0f,
                 vec4(predicted[tet.x].w, predicted[tet.y].w, predicted[tet.z].w,
                      predicted[tet.w].w),
                 omega, lambda_shape, lambda_volume, rotation, d0, d1, d2, d3, residual, shape_step,
                 squeezed);
    if (squeezed) {
        volume_squeezed_seen = 1u;  // every writer writes the same value
    }
    tet_rotations[t] = uvec2(packSnorm2x16(vec2(rotation.x, rotation.y)),
                             packSnorm2x16(vec2(rotation.z, rotation.w)));
    store_multipliers(t, lambda_shape, lambda_volume);
    float first_step = readout.x;
    lambdas[t] = vec4(first_step < 0.0f ? shape_step : first_step, shape_step, residual,
                      sliver);
}

// What a Gauss-Seidel pass reads from a tet's corners besides their
// positions: loaded before its step (see solve_tet_in_place).
struct CornerData {
    vec3 predicted[4];
    vec4 correction[4];
    vec3 start[4];  // start_position
};

CornerData load_corner_data(uvec4 tet)
{
    CornerData corners;
    corners.predicted = vec3[4](predicted[tet.x].xyz, predicted[tet.y].xyz,
                                predicted[tet.z].xyz, predicted[tet.w].xyz);
    corners.correction = vec4[4](corrections[tet.x], corrections[tet.y], corrections[tet.z],
                                 corrections[tet.w]);
    load_start_positions(tet, corners.start);
    return corners;
}

// Adds d to a corner's correction and moves the vertex to its predicted
// position plus the correction.
void write_correction(uint v, vec3 predicted_x, vec4 correction, vec3 d)
{
    correction.xyz += d;
    corrections[v] = correction;
    positions[v] = vec4(predicted_x + correction.xyz, 0.0f);
}

// The step's corrections, made torque-free about the start positions
// (tm_keep_angular_momentum), written into the corners.
void write_corrections(uvec4 tet, CornerData corners, vec4 w, vec3 d0, vec3 d1, vec3 d2,
                       vec3 d3)
{
    tm_keep_angular_momentum(corners.start[0], corners.start[1], corners.start[2],
                             corners.start[3], w, d0, d1, d2, d3);
    write_correction(tet.x, corners.predicted[0], corners.correction[0], d0);
    write_correction(tet.y, corners.predicted[1], corners.correction[1], d1);
    write_correction(tet.z, corners.predicted[2], corners.correction[2], d2);
    write_correction(tet.w, corners.predicted[3], corners.correction[3], d3);
}

// Gauss-Seidel: solves tet t with omega = 1 and writes its corrections
// straight into its corners. The callers run a colour at a time, so no other
// invocation touches these corners meanwhile, and everything the step reads
// from them besides their positions is loaded before it: on a GPU a colour
// waits for its tets' chains of dependent loads and arithmetic, and these
// loads, issued after the step, added two round trips to memory to each
// link (the positions, the predicted positions, the velocities and the
// corrections are read as before: the same bits). The Jacobi pass, limited
// by throughput rather than a chain, loads them after its step: kept live
// through it they cost registers, and a million tets' pass 50% more time
// on an NVIDIA H200.
void solve_tet_in_place(uint t)
{
    uvec4 tet = tets[t];
    CornerData corners = load_corner_data(tet);
    vec3 d0;
    vec3 d1;
    vec3 d2;
    vec3 d3;
    vec4 w;
    solve_tet_at(t, tet, 1.0f, w, d0, d1, d2, d3);
    write_corrections(tet, corners, w, d0, d1, d2, d3);
}

// How far the warm start has moved vertex v down so far, kept in
// predicted[v].w for the ground's hold (tm_ground_held_mass): its correction
// is the warm start's alone until the first iteration.
void record_sink(uint v)
{
    predicted[v].w = max(-corrections[v].y, 0.0f);
}

// The warm start of tet t (tm_warm_start_tet): its multipliers scaled by
// the substep's fraction and kept so, their corrections at the predicted
// positions written into its corners. A sliver starts cold: its multiplier
// is tm_sliver_shape_step's, whose corrections tm_warm_start_tet does not
// make. Run colour by colour, as the steps.
void warm_start_tet_in_place(uint t)
{
    uvec4 tet = tets[t];
    CornerData corners = load_corner_data(tet);  // before the step, as in solve_tet_in_place
    TetRest rest = tet_rests[t];
    mat3 B = mat3(rest.b0.xyz, rest.b1.xyz, rest.b2.xyz);
    vec4 w = tet_inverse_masses(tet);
    mat3 lambda_shape;
    float lambda_volume;
    load_multipliers(t, lambda_shape, lambda_volume);
    float fraction = lambdas[t].w > 0.0f ? 0.0f : warm_fraction;
    lambda_shape *= fraction;
    lambda_volume *= fraction;
    vec3 d0;
    vec3 d1;
    vec3 d2;
    vec3 d3;
    tm_warm_start_tet(corners.predicted[0], corners.predicted[1], corners.predicted[2],
                      corners.predicted[3], corners.start[0], corners.start[1],
                      corners.start[2], corners.start[3], w, B, rest.b0.w, rest.b2.w >= 0.0f,
                      volume_barrier_engaged != 0u, lambda_shape, lambda_volume, d0, d1, d2,
                      d3);
    store_multipliers(t, lambda_shape, lambda_volume);
    write_corrections(tet, corners, w, d0, d1, d2, d3);
    // Each corner's sink so far (predicted.w, zeroed by predict.comp; the
    // ground's hold reads it): what the warm start has moved it down, the
    // tets of earlier colours included.
    if (u_warm_start.y != 0.0f) {
        record_sink(tet.x);
        record_sink(tet.y);
        record_sink(tet.z);
        record_sink(tet.w);
    }
}

// The material damping of tet t (tm_damp_strain_rate): its corners'
// velocities after the substep, at the positions where it ended. Run
// colour by colour, as the steps.
void damp_tet_in_place(uint t)
{
    uvec4 tet = tets[t];
    TetRest rest = tet_rests[t];
    mat3 B = mat3(rest.b0.xyz, rest.b1.xyz, rest.b2.xyz);
    vec4 w = tet_inverse_masses(tet);
    float inv_h_tau = u_material_damping.x;
    bool volume_enabled = rest.b2.w >= 0.0f;
    vec3 dv0;
    vec3 dv1;
    vec3 dv2;
    vec3 dv3;
    tm_damp_strain_rate(positions[tet.x].xyz, positions[tet.y].xyz, positions[tet.z].xyz,
                        positions[tet.w].xyz, velocities[tet.x].xyz, velocities[tet.y].xyz,
                        velocities[tet.z].xyz, velocities[tet.w].xyz, w, B, rest.b0.w,
                        rest.b1.w * inv_h_tau, volume_enabled ? rest.b2.w * inv_h_tau : 0.0f,
                        volume_enabled, dv0, dv1, dv2, dv3);
    velocities[tet.x].xyz += dv0;
    velocities[tet.y].xyz += dv1;
    velocities[tet.z].xyz += dv2;
    velocities[tet.w].xyz += dv3;
}

// Whether the last sweep now running (TetPassState's last_sweep) takes
// steps: not after one that turned no tet, which leaves it none to find.
bool last_sweep_runs(out uint sweep)
{
    sweep = last_sweep;
    return sweep == 0u || last_sweep_turned[sweep - 1u] != 0u;
}

// The last sweep's step of tet t (tm_recover_tet) with weight omega and the
// corners sunk that far by the warm start: false, and no step, for a tet
// the right way out. Its multiplier is stored, and the sweep marked as one
// that turned a tet.
bool recover_tet_at(uint t, uvec4 tet, vec4 w, vec4 sink, float omega, uint sweep,
                    out vec3 d0, out vec3 d1, out vec3 d2, out vec3 d3)
{
    TetRest rest = tet_rests[t];
    bool volume_enabled = rest.b2.w >= 0.0f;
    float lambda_volume = tet_multipliers[10u * t + 9u];
    if (!tm_recover_tet(positions[tet.x].xyz, positions[tet.y].xyz, positions[tet.z].xyz,
                        positions[tet.w].xyz, w, rest.b0.w,
                        volume_enabled ? rest.b2.w * u_solver.w : 0.0f, volume_enabled,
                        volume_barrier_engaged != 0u, u_contact.z != 0.0f, sink, omega,
                        lambda_volume, d0, d1, d2, d3)) {
        return false;
    }
    tet_multipliers[10u * t + 9u] = lambda_volume;
    last_sweep_turned[sweep] = 1u;  // every writer writes the same value
    atomicMax(last_sweeps_deepest, sweep + 1u);
    return true;
}

// The last sweep's step of tet t after a substep's Gauss-Seidel iterations:
// a tet they left inside out or flat takes its volume steps. Run colour by
// colour, as the steps.
void recover_tet_in_place(uint t)
{
    uint sweep;
    if (!last_sweep_runs(sweep)) {
        return;
    }
    uvec4 tet = tets[t];
    vec4 w = tet_inverse_masses(tet);
    vec3 d0;
    vec3 d1;
    vec3 d2;
    vec3 d3;
    if (!recover_tet_at(t, tet, w,
                        vec4(predicted[tet.x].w, predicted[tet.y].w, predicted[tet.z].w,
                             predicted[tet.w].w),
                        1.0f, sweep, d0, d1, d2, d3)) {
        return;
    }
    // The corners' other data only for the few tets that stepped: the
    // pass finds nearly every tet the right way out.
    write_corrections(tet, load_corner_data(tet), w, d0, d1, d2, d3);
}

// What a Gauss-Seidel pass does to each tet of its colours (a uniform of
// the pass): a step, the substep's warm start, the material damping, or the
// last sweep's step.
const uint TET_PASS_STEP = 0u;
const uint TET_PASS_WARM_START = 1u;
const uint TET_PASS_DAMP = 2u;
const uint TET_PASS_RECOVER = 3u;

void run_tet_pass_in_place(uint t, uint tet_pass)
{
    if (tet_pass == TET_PASS_WARM_START) {
        warm_start_tet_in_place(t);
    } else if (tet_pass == TET_PASS_DAMP) {
        damp_tet_in_place(t);
    } else if (tet_pass == TET_PASS_RECOVER) {
        recover_tet_in_place(t);
    } else {
        solve_tet_in_place(t);
    }
}
