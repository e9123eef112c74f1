// The Gauss-Seidel tet step over blocks of tets, one tet per SIMD lane: the
// same maths as tm_solve_tet, tm_warm_start_tet and tm_damp_strain_rate
// (shaders/tet_math.glsl)
// with every branch made a per-lane select. One kernel is compiled per instruction set (AVX-512,
// AVX2 + FMA, SSE2) and the widest this CPU runs is chosen at start-up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// TetBlocks (tet_blocks.h) as the kernels see them: plain pointers. The
// kernels are compiled for wider instruction sets than the rest of the
// program, so they must not call any inline library function (a vector's or
// a unique_ptr's accessor): an unoptimised build would emit an AVX-512 copy
// of it under the same name as everyone else's, and the linker might keep
// that one for the whole program.
struct TetBlockArrays {
    int lanes;
    const uint32_t* block_tet_count;  // per block
    const int32_t* corner[4];         // the rest per slot (block * lanes + lane)
    const float* b[9];
    const float* signed_rest_volume;  // V0, negated for a sliver (tm_is_sliver)
    // The tet's compliances 1 / (2 mu V0) and 1 / (lambda V0) for its body's
    // material; the volume one is negative where lambda = 0 (no volume term).
    const float* shape_compliance;
    const float* volume_compliance;
    float* lambda_shape[9];  // 3 x 3, column-major: [3 * column + row]
    float* lambda_volume;
    float* rotation[4];  // the tet's last rotation, quaternion x y z w
};

struct TetBlockStep {
    const float* predicted;  // x y z per vertex, the dummy vertex included
    float* corrections;      // x y z per vertex; the step adds its corrections here
    // x y z w per vertex: where the substep began, and its inverse mass (the
    // step reads both with one load a corner).
    const float* start;
    float inv_h2;         // alpha~ = compliance / h^2
    bool volume_enabled;  // false: no tet has a volume term, skip it
    // The volume term's barrier is engaged (tm_volume_constraint).
    bool volume_barrier = false;
    // The ground y = 0 is on: its hold (tm_ground_held_mass), which reads
    // what the warm start moved each corner (x y z per vertex, as
    // corrections; null: none discounted, tm_hold_discounts_sink).
    bool ground = false;
    const float* warm_start_moves = nullptr;
    // false: count only the tets found inside out, not the sums of the
    // residuals and multiplier steps (block_sums' doubles are left alone;
    // the solver reads them after the first and the last iteration only).
    bool sums = true;
    // true: instead of a step, scale every multiplier by warm_fraction and
    // add the corrections they stand for (tm_warm_start_tet).
    bool warm_start = false;
    float warm_fraction = 0.0f;
    // true: instead of a step, damp the velocities after a substep
    // (tm_damp_strain_rate) with compliances times damping_inv_h_tau = 1 /
    // (h tau); the positions are read where they ended.
    bool damp = false;
    // true: instead of a step, the last sweep's (tm_recover_tet): the tets
    // inside out or flat take their volume steps, the others nothing.
    bool recover = false;
    // x y z w per vertex: where it ended the substep, and its inverse mass.
    const float* positions = nullptr;
    float* velocities = nullptr;       // x y z per vertex; the damping adds to them
    float damping_inv_h_tau = 0.0f;
};

// A block's sums over its real tets, from its latest step (residual and
// shape_step from the latest with step.sums).
struct BlockSums {
    double residual;    // |C + alpha~ lambda| before the step
    double shape_step;  // |dLambda| of the shape multipliers
    uint32_t squeezed;  // tets the volume step found within the barrier's reach (J < J_b)
    uint32_t recovered;  // with step.recover: tets that took the last sweep's steps
};

// Steps blocks [first_block, end_block), which must not share a vertex (one
// colour, or part of one), and stores each block's sums in
// block_sums[block]; with step.warm_start, applies their warm start instead,
// with step.damp their material damping, and stores nothing; with
// step.recover, the last sweep's steps, and stores each block's `recovered`.
using TetBlockKernel = void (*)(const TetBlockArrays& blocks, const TetBlockStep& step,
                                size_t first_block, size_t end_block, BlockSums* block_sums);

struct TetBlockKernelInfo {
    const char* name;  // "avx512", "avx2", "sse2"
    int lanes;
    TetBlockKernel solve;
};

// The kernels this CPU can run, widest first (SSE2 always).
std::vector<TetBlockKernelInfo> available_tet_block_kernels();

// The kernel of that name ("avx512", "avx2", "sse2") if this CPU runs it.
std::optional<TetBlockKernelInfo> tet_block_kernel_named(const std::string& name);

// The names of available_tet_block_kernels(), "avx512, avx2 or sse2".
std::string available_tet_block_kernel_names();

// The kernels, one per instruction set; call only those the CPU supports.
void solve_tet_blocks_avx512(const TetBlockArrays&, const TetBlockStep&, size_t, size_t, BlockSums*);
void solve_tet_blocks_avx2(const TetBlockArrays&, const TetBlockStep&, size_t, size_t, BlockSums*);
void solve_tet_blocks_sse2(const TetBlockArrays&, const TetBlockStep&, size_t, size_t, BlockSums*);
