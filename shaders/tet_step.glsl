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
// the warm start (Gauss-Seidel); GpuSolver clears them every substep for
// Jacobi.
layout(std430, binding = 27) buffer TetMultipliers { float tet_multipliers[]; };
// The fraction of its multipliers every tet starts the substep from
// (warm_fraction.comp).
layout(std430, binding = 28) readonly buffer WarmFraction { float warm_fraction; };

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

void solve_tet_at(uint t, float omega, out uvec4 tet, out vec3 d0, out vec3 d1, out vec3 d2,
                  out vec3 d3)
{
    tet = tets[t];
    TetRest rest = tet_rests[t];
    mat3 B = mat3(rest.b0.xyz, rest.b1.xyz, rest.b2.xyz);
    float rest_volume = rest.b0.w;
    vec4 w = tet_inverse_masses(tet);
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
    tm_solve_tet(positions[tet.x].xyz, positions[tet.y].xyz, positions[tet.z].xyz,
                 positions[tet.w].xyz, w, B, rest_volume, sliver, alpha_arap, alpha_volume,
                 volume_enabled, omega, lambda_shape, lambda_volume, rotation, d0, d1, d2, d3,
                 residual, shape_step);
    tet_rotations[t] = uvec2(packSnorm2x16(vec2(rotation.x, rotation.y)),
                             packSnorm2x16(vec2(rotation.z, rotation.w)));
    tm_keep_angular_momentum(start_position(tet.x), start_position(tet.y),
                             start_position(tet.z), start_position(tet.w), w, d0, d1, d2, d3);
    store_multipliers(t, lambda_shape, lambda_volume);
    float first_step = readout.x;
    lambdas[t] = vec4(first_step < 0.0f ? shape_step : first_step, shape_step, residual,
                      sliver);
}

// Adds d to vertex v's correction and moves the vertex accordingly.
void add_correction(uint v, vec3 d)
{
    vec4 correction = corrections[v];
    correction.xyz += d;
    corrections[v] = correction;
    positions[v] = vec4(predicted[v].xyz + correction.xyz, 0.0f);
}

// Gauss-Seidel: solves tet t with omega = 1 and writes its corrections
// straight into its corners. The callers run a colour at a time, so no other
// invocation touches these corners meanwhile.
void solve_tet_in_place(uint t)
{
    uvec4 tet;
    vec3 d0;
    vec3 d1;
    vec3 d2;
    vec3 d3;
    solve_tet_at(t, 1.0f, tet, d0, d1, d2, d3);
    add_correction(tet.x, d0);
    add_correction(tet.y, d1);
    add_correction(tet.z, d2);
    add_correction(tet.w, d3);
}

// The warm start of tet t (tm_warm_start_tet): its multipliers scaled by
// the substep's fraction and kept so, their corrections at the predicted
// positions written into its corners. A sliver starts cold: its multiplier
// is tm_sliver_shape_step's, whose corrections tm_warm_start_tet does not
// make. Run colour by colour, as the steps.
void warm_start_tet_in_place(uint t)
{
    uvec4 tet = tets[t];
    TetRest rest = tet_rests[t];
    mat3 B = mat3(rest.b0.xyz, rest.b1.xyz, rest.b2.xyz);
    vec4 w = tet_inverse_masses(tet);
    mat3 lambda_shape;
    float lambda_volume;
    load_multipliers(t, lambda_shape, lambda_volume);
    float fraction = lambdas[t].w > 0.0f ? 0.0f : warm_fraction;
    lambda_shape *= fraction;
    lambda_volume *= fraction;
    store_multipliers(t, lambda_shape, lambda_volume);
    vec3 d0;
    vec3 d1;
    vec3 d2;
    vec3 d3;
    tm_warm_start_tet(predicted[tet.x].xyz, predicted[tet.y].xyz, predicted[tet.z].xyz,
                      predicted[tet.w].xyz, w, B, rest.b0.w, rest.b2.w >= 0.0f, lambda_shape,
                      lambda_volume, d0, d1, d2, d3);
    tm_keep_angular_momentum(start_position(tet.x), start_position(tet.y),
                             start_position(tet.z), start_position(tet.w), w, d0, d1, d2, d3);
    add_correction(tet.x, d0);
    add_correction(tet.y, d1);
    add_correction(tet.z, d2);
    add_correction(tet.w, d3);
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

// What a Gauss-Seidel pass does to each tet of its colours (a uniform of
// the pass): a step, the substep's warm start, or the material damping.
const uint TET_PASS_STEP = 0u;
const uint TET_PASS_WARM_START = 1u;
const uint TET_PASS_DAMP = 2u;

void run_tet_pass_in_place(uint t, uint tet_pass)
{
    if (tet_pass == TET_PASS_WARM_START) {
        warm_start_tet_in_place(t);
    } else if (tet_pass == TET_PASS_DAMP) {
        damp_tet_in_place(t);
    } else {
        solve_tet_in_place(t);
    }
}
