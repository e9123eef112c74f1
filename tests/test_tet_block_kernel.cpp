// The SIMD tet kernels against the scalar per-tet maths they vectorize
// (tm_solve_tet, tm_warm_start_tet, tm_keep_angular_momentum and
// tm_damp_strain_rate of shaders/tet_math.glsl), on every instruction set
// this CPU runs, and the CPU solver's results against each other kernel.
#include "core/flush_denormals.h"
#include "core/material.h"
#include "core/simd/tet_blocks.h"
#include "core/tet_math.h"
#include "test_support.h"

#include <algorithm>
#include <cstring>
#include <random>

namespace {

struct KernelCase {
    std::vector<glm::vec3> predicted;
    std::vector<glm::vec3> corrections;
    std::vector<glm::vec3> start;  // where the substep began
    std::vector<float> inverse_masses;
    std::vector<glm::vec4> start_and_masses;  // both, as TetBlockStep::start has them
    // What the warm start moved each vertex (the ground's hold discounts it).
    std::vector<glm::vec3> warm_start_moves;
};

// The cube squashed, stretched and twisted at random, a few corners pushed
// through their opposite faces (inverted tets), some vertices pinned, and
// non-zero corrections so that x = predicted + correction is exercised;
// one end left at rest, where only the multipliers move anything. The vertices began the substep elsewhere, moving at
// different velocities, so that the angular momentum step has work to do.
KernelCase deformed_cube(const TetMesh& mesh)
{
    std::mt19937 random(7);
    std::uniform_real_distribution<float> jitter(-0.04f, 0.04f);
    float min_x = mesh.rest_positions[0].x;
    for (const glm::vec3& r : mesh.rest_positions) min_x = std::min(min_x, r.x);
    KernelCase c;
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const glm::vec3 r = mesh.rest_positions[v];
        if (r.x < min_x + 0.2f) {
            c.predicted.push_back(r);
            c.corrections.push_back(glm::vec3(0.0f));
            c.start.push_back(r);
            c.inverse_masses.push_back(1.0f);
            continue;
        }
        const glm::vec3 squashed(1.2f * r.x + 0.3f * r.y, 0.7f * r.y, r.z - 0.2f * r.x);
        c.predicted.push_back(squashed + glm::vec3(jitter(random), jitter(random), jitter(random)));
        c.corrections.push_back(glm::vec3(jitter(random), jitter(random), jitter(random)) * 0.1f);
        c.start.push_back(c.predicted.back() -
                          glm::vec3(jitter(random), jitter(random), jitter(random)) * 0.5f);
        c.inverse_masses.push_back(v % 17 == 0 ? 0.0f : 1.0f + 0.5f * jitter(random) * 25.0f);
    }
    for (size_t t = 0; t < mesh.tet_count(); t += 29) {
        const glm::uvec4 tet = mesh.tets[t];
        if (mesh.rest_positions[tet.x].x >= min_x + 0.2f) {
            c.predicted[tet.x] = 2.0f * c.predicted[tet.y] - c.predicted[tet.x];  // flips it
        }
    }
    c.predicted.push_back(glm::vec3(0.0f));  // the dummy vertex of the padding
    c.corrections.push_back(glm::vec3(0.0f));
    c.start.push_back(glm::vec3(0.0f));
    c.inverse_masses.push_back(0.0f);
    for (size_t v = 0; v < c.start.size(); ++v) {
        c.start_and_masses.push_back(glm::vec4(c.start[v], c.inverse_masses[v]));
    }
    c.warm_start_moves.assign(c.start.size(), glm::vec3(0.0f));
    return c;
}

// A multiplier entry for the slot, as the scalar side makes it too.
float start_lambda_shape(size_t slot, int entry)
{
    return 1.0e-4f * static_cast<float>((slot + 2 * static_cast<size_t>(entry)) % 5) - 2.0e-4f;
}

glm::mat3 start_lambda_shape(size_t slot)
{
    glm::mat3 lambda;
    for (int entry = 0; entry < 9; ++entry) lambda[entry / 3][entry % 3] = start_lambda_shape(slot, entry);
    return lambda;
}

// Each tet's compliances at 2e5 Pa, nu = 0.3, every third tet without a
// volume term (as a body with nu = 0).
struct Compliances {
    std::vector<float> shape;
    std::vector<float> volume;  // -1: no volume term
};

Compliances one_material_compliances(const TetMesh& mesh)
{
    const LameParameters lame = lame_parameters(2.0e5f, 0.3f);
    Compliances c;
    for (size_t t = 0; t < mesh.tet_count(); ++t) {
        c.shape.push_back(arap_compliance(lame, mesh.rest_volumes_m3[t]));
        c.volume.push_back(t % 3 == 0 ? -1.0f : volume_compliance(lame, mesh.rest_volumes_m3[t]));
    }
    return c;
}

float start_lambda_volume(size_t slot) { return -2.0e-5f * static_cast<float>(slot % 3); }

void set_start_multipliers(TetBlocks& blocks)
{
    for (size_t slot = 0; slot < blocks.block_count * blocks.lanes; ++slot) {
        for (int entry = 0; entry < 9; ++entry) {
            blocks.lambda_shape[entry][slot] = start_lambda_shape(slot, entry);
        }
        blocks.lambda_volume[slot] = start_lambda_volume(slot);
    }
}

// Whether the kernel tests step tet t as a sliver (tm_sliver_shape_step),
// whatever its shape: the sliver's step then runs on every kind of tet, the
// inverted ones (every 29th) included, beside tets without it in a block.
float test_sliver(uint32_t t)
{
    return t % 29 == 0 || t % 4 == 1 ? 1.0f : 0.0f;
}

void set_test_slivers(TetBlocks& blocks, const std::vector<uint32_t>& slot_tets)
{
    for (size_t slot = 0; slot < blocks.block_count * blocks.lanes; ++slot) {
        if (slot_tets[slot] == kPaddingSlot) continue;
        const float v0 = std::abs(blocks.signed_rest_volume[slot]);
        blocks.signed_rest_volume[slot] = test_sliver(slot_tets[slot]) > 0.0f ? -v0 : v0;
    }
}

// Each tet's compliances as the test sets them, whatever its body.
void set_test_compliances(TetBlocks& blocks, const std::vector<uint32_t>& slot_tets,
                          const std::vector<float>& shape, const std::vector<float>& volume)
{
    for (size_t slot = 0; slot < blocks.block_count * blocks.lanes; ++slot) {
        if (slot_tets[slot] == kPaddingSlot) continue;
        blocks.shape_compliance[slot] = shape[slot_tets[slot]];
        blocks.volume_compliance[slot] = volume[slot_tets[slot]];
    }
}

}  // namespace

TEST(TetBlockKernel, EveryKernelMatchesTheScalarStepTetByTet)
{
    const ScopedFlushDenormals flush_denormals;
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    const KernelCase cube = deformed_cube(*mesh);
    // The same cube lowered so that the ground cuts it at a third of its
    // height: corners deep below it, and some within the reach of the
    // ground's hold's ramp, for the steps with the ground on.
    KernelCase lowered = cube;
    {
        std::vector<float> heights;
        for (const glm::vec3& p : cube.predicted) heights.push_back(p.y);
        std::sort(heights.begin(), heights.end());
        const float cut = heights[heights.size() / 3];
        for (size_t v = 0; v + 1 < lowered.predicted.size(); ++v) {  // not the dummy vertex
            lowered.predicted[v].y -= cut;
            lowered.start[v].y -= cut;
            lowered.start_and_masses[v].y -= cut;
            // Half of the vertices sunk 4 or 8 mm by the warm start, a quarter
            // not at all and a quarter moved up, so that the hold discounts that.
            lowered.warm_start_moves[v] =
                glm::vec3(0.001f, 0.004f * (static_cast<float>(v % 4) - 2.0f), -0.001f);
        }
    }
    // Two bodies' materials, tet by tet; the second has no volume term.
    const LameParameters materials[2] = {lame_parameters(2.0e5f, 0.3f),
                                         lame_parameters(5.0e4f, 0.0f)};
    const auto lame_of = [&](size_t t) { return materials[t % 3 == 0 ? 1 : 0]; };
    std::vector<float> shape_compliances(mesh->tet_count());
    std::vector<float> volume_compliances(mesh->tet_count());
    for (size_t t = 0; t < mesh->tet_count(); ++t) {
        const LameParameters lame = lame_of(t);
        shape_compliances[t] = arap_compliance(lame, mesh->rest_volumes_m3[t]);
        volume_compliances[t] = volume_constraint_enabled(lame)
                                    ? volume_compliance(lame, mesh->rest_volumes_m3[t])
                                    : -1.0f;
    }
    const float inv_h2 = 600.0f * 600.0f;
    std::vector<TetBlockKernelInfo> kernels = available_tet_block_kernels();
    ASSERT_FALSE(kernels.empty());
    EXPECT_STREQ(kernels.back().name, "sse2");

    // With the volume barrier and without: the deformed cube's inverted and
    // squeezed tets take the barrier's both branches. With the ground on,
    // the lowered cube.
    for (const bool ground : {false, true})
    for (const bool barrier : {false, true})
    for (const TetBlockKernelInfo& kernel : kernels) {
        const KernelCase& input = ground ? lowered : cube;
        TetBlocks blocks = make_tet_blocks(*mesh, kernel.lanes);
        const std::vector<uint32_t> slot_tets = block_slot_tets(blocks, *mesh);
        set_test_compliances(blocks, slot_tets, shape_compliances, volume_compliances);
        set_start_multipliers(blocks);
        set_test_slivers(blocks, slot_tets);
        const size_t slots = blocks.block_count * blocks.lanes;
        TetBlocks before = make_tet_blocks(*mesh, kernel.lanes);  // the rotations it starts from
        // Where each tet's rotation search starts: a third at its rotation
        // turned by 2e-3 rad (the Newton step lands), a third turned by 0.3
        // rad and a third at the identity (the SVD takes over, the cube's
        // tets being turned too).
        for (size_t slot = 0; slot < slots; ++slot) {
            const uint32_t t = slot_tets[slot];
            if (t == kPaddingSlot) continue;
            const glm::uvec4 tet = mesh->tets[t];
            glm::vec3 x[4];
            for (int a = 0; a < 4; ++a) x[a] = input.predicted[tet[a]] + input.corrections[tet[a]];
            glm::mat3 U, V;
            glm::vec3 sigma;
            const glm::mat3 B = inv_rest_shape(*mesh, t);
            tet_math::tm_signed_svd(tet_math::tm_deformation_gradient(x[0], x[1], x[2], x[3], B),
                                    U, sigma, V);
            glm::vec4 q = tet_math::tm_quaternion_of_rotation(U * glm::transpose(V));
            const float turn = slot % 3 == 0 ? 2.0e-3f : 0.3f;
            q = glm::normalize(q + glm::vec4(0.6f, -0.48f, 0.64f, 0.0f) * (0.5f * turn));
            if (slot % 3 == 2) q = tet_math::TM_IDENTITY_ROTATION;
            for (int i = 0; i < 4; ++i) {
                before.rotation[i][slot] = q[i];
                blocks.rotation[i][slot] = q[i];
            }
        }
        std::vector<glm::vec3> corrections = input.corrections;
        std::vector<BlockSums> sums(blocks.block_count, BlockSums{0.0, 0.0, 0u, 0u});
        TetBlockStep step{&input.predicted[0].x, &corrections[0].x, &input.start_and_masses[0].x,
                          inv_h2, true, barrier};
        step.ground = ground;
        step.warm_start_moves = &input.warm_start_moves[0].x;
        // One colour: its tets share no vertex, so each tet's step is
        // independent and comparable with the scalar one on its own.
        const size_t color = 1;
        kernel.solve(block_arrays(blocks), step, blocks.color_blocks[color],
                     blocks.color_blocks[color + 1], sums.data());

        size_t compared = 0;
        size_t at_rest = 0;
        size_t slivers = 0;
        size_t inverted_slivers = 0;
        double worst = 0.0;
        std::vector<double> scalar_residuals(blocks.block_count, 0.0);
        std::vector<double> scalar_shape_steps(blocks.block_count, 0.0);
        std::vector<uint32_t> scalar_squeezed_tets(blocks.block_count, 0u);
        size_t squeezed = 0;  // J below the barrier's J_b before the step
        size_t held = 0;      // a corner within the ground's hold's reach
        for (size_t slot = blocks.color_blocks[color] * blocks.lanes;
             slot < blocks.color_blocks[color + 1] * blocks.lanes; ++slot) {
            const uint32_t t = slot_tets[slot];
            if (t == kPaddingSlot) {
                continue;
            }
            const glm::uvec4 tet = mesh->tets[t];
            glm::vec3 x[4];
            glm::vec4 w;
            glm::vec4 sink;
            for (int a = 0; a < 4; ++a) {
                x[a] = input.predicted[tet[a]] + input.corrections[tet[a]];
                w[a] = input.inverse_masses[tet[a]];
                sink[a] = std::max(-input.warm_start_moves[tet[a]].y, 0.0f);
            }
            const float v0 = mesh->rest_volumes_m3[t];
            glm::mat3 lambda_shape = start_lambda_shape(slot);
            float lambda_volume = start_lambda_volume(slot);
            glm::vec4 rotation(before.rotation[0][slot], before.rotation[1][slot],
                               before.rotation[2][slot], before.rotation[3][slot]);
            glm::vec3 d[4];
            float residual = 0.0f;
            float shape_step = 0.0f;
            bool tet_squeezed = false;
            const bool volume_on = volume_compliances[t] >= 0.0f;
            squeezed += volume_on &&
                        glm::determinant(tet_math::tm_deformation_gradient(
                            x[0], x[1], x[2], x[3], inv_rest_shape(*mesh, t))) <
                            tet_math::TM_VOLUME_BARRIER_J;
            tet_math::tm_solve_tet(x[0], x[1], x[2], x[3], w, inv_rest_shape(*mesh, t), v0,
                                   test_sliver(t), shape_compliances[t] * inv_h2,
                                   volume_on ? volume_compliances[t] * inv_h2 : 0.0f, volume_on,
                                   barrier, ground, sink, 1.0f, lambda_shape, lambda_volume,
                                   rotation,
                                   d[0], d[1], d[2], d[3], residual, shape_step, tet_squeezed);
            scalar_squeezed_tets[slot / blocks.lanes] += tet_squeezed ? 1u : 0u;
            tet_math::tm_keep_angular_momentum(input.start[tet.x], input.start[tet.y],
                                               input.start[tet.z], input.start[tet.w], w, d[0],
                                               d[1], d[2], d[3]);
            scalar_residuals[slot / blocks.lanes] += residual;
            scalar_shape_steps[slot / blocks.lanes] += shape_step;
            // At rest (the undeformed end): only the multipliers' alpha~ Lambda acts.
            glm::mat3 U, V;
            glm::vec3 sigma;
            tet_math::tm_signed_svd(tet_math::tm_deformation_gradient(
                                        x[0], x[1], x[2], x[3], inv_rest_shape(*mesh, t)),
                                    U, sigma, V);
            at_rest += glm::length(sigma - glm::vec3(1.0f)) <= 1.0e-6f;
            bool deep = false;
            for (int a = 0; a < 4; ++a) {
                deep = deep || x[a].y + sink[a] < -tet_math::TM_GROUND_HOLD_FROM_M;
            }
            held += ground && deep;
            slivers += test_sliver(t) > 0.0f;
            inverted_slivers += test_sliver(t) > 0.0f && sigma.z < 0.0f;
            float scale = 1e-6f;
            for (int a = 0; a < 4; ++a) scale = std::max(scale, glm::length(d[a]));
            for (int a = 0; a < 4; ++a) {
                const glm::vec3 moved = corrections[tet[a]] - input.corrections[tet[a]];
                const double error = glm::length(moved - d[a]) / scale;
                worst = std::max(worst, error);
                EXPECT_LT(error, 1e-4) << kernel.name << " tet " << t << " corner " << a;
            }
            for (int entry = 0; entry < 9; ++entry) {
                const float expected = lambda_shape[entry / 3][entry % 3];
                EXPECT_NEAR(blocks.lambda_shape[entry][slot], expected,
                            1e-4f * std::abs(expected) + 1e-9f)
                    << kernel.name << " tet " << t << " multiplier entry " << entry;
            }
            EXPECT_NEAR(blocks.lambda_volume[slot], lambda_volume,
                        1e-4f * std::abs(lambda_volume) + 1e-9f) << kernel.name << " tet " << t;
            for (int i = 0; i < 4; ++i) {
                EXPECT_NEAR(blocks.rotation[i][slot], rotation[i], 1e-5f)
                    << kernel.name << " tet " << t << " quaternion entry " << i;
            }
            ++compared;
        }
        std::printf("%s (%d lanes), volume barrier %s, ground %s: %zu tets (%zu at rest, %zu "
                    "as slivers, %zu of them inverted, %zu squeezed below J_b, %zu with a corner "
                    "held), worst correction error %.2e of the step\n",
                    kernel.name, kernel.lanes, barrier ? "on" : "off", ground ? "on" : "off",
                    compared, at_rest, slivers, inverted_slivers, squeezed, held, worst);
        if (ground) {
            EXPECT_GT(held, 10u) << kernel.name;
        }
        EXPECT_GE(squeezed, 5u) << kernel.name;
        EXPECT_GT(compared, 20u) << kernel.name;
        EXPECT_GT(at_rest, 0u) << kernel.name;
        EXPECT_GT(slivers, 10u) << kernel.name;
        EXPECT_GT(inverted_slivers, 0u) << kernel.name;
        for (size_t block = blocks.color_blocks[color]; block < blocks.color_blocks[color + 1];
             ++block) {
            EXPECT_NEAR(sums[block].residual, scalar_residuals[block],
                        1e-4 * scalar_residuals[block] + 1e-9)
                << kernel.name << " block " << block;
            EXPECT_NEAR(sums[block].shape_step, scalar_shape_steps[block],
                        1e-4 * scalar_shape_steps[block] + 1e-9)
                << kernel.name << " block " << block;
            EXPECT_GT(sums[block].shape_step, 0.0) << kernel.name << " block " << block;
            EXPECT_EQ(sums[block].squeezed, scalar_squeezed_tets[block])
                << kernel.name << " block " << block;
        }
        // The dummy vertex of the padding lanes never moves.
        EXPECT_EQ(corrections.back(), glm::vec3(0.0f)) << kernel.name;
    }
}

TEST(TetBlockKernel, EveryKernelWarmStartsAsTheScalarWarmStart)
{
    const ScopedFlushDenormals flush_denormals;
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    const KernelCase input = deformed_cube(*mesh);
    const Compliances compliances = one_material_compliances(*mesh);
    const std::vector<float>& shape_compliances = compliances.shape;
    const std::vector<float>& volume_compliances = compliances.volume;
    const float fraction = 0.75f;
    // With the volume barrier the squeezed tets start their volume
    // multiplier from zero.
    for (const bool barrier : {false, true})
    for (const TetBlockKernelInfo& kernel : available_tet_block_kernels()) {
        TetBlocks blocks = make_tet_blocks(*mesh, kernel.lanes);
        const std::vector<uint32_t> slot_tets = block_slot_tets(blocks, *mesh);
        set_test_compliances(blocks, slot_tets, shape_compliances, volume_compliances);
        set_start_multipliers(blocks);
        set_test_slivers(blocks, slot_tets);
        std::vector<glm::vec3> corrections = input.corrections;
        TetBlockStep step{&input.predicted[0].x, &corrections[0].x, &input.start_and_masses[0].x,
                          600.0f * 600.0f, true, barrier};
        step.warm_start = true;
        step.warm_fraction = fraction;
        const size_t color = 2;
        kernel.solve(block_arrays(blocks), step, blocks.color_blocks[color],
                     blocks.color_blocks[color + 1], nullptr);
        size_t compared = 0;
        size_t slivers = 0;
        size_t dropped = 0;  // volume multipliers the barrier started from zero
        for (size_t slot = blocks.color_blocks[color] * blocks.lanes;
             slot < blocks.color_blocks[color + 1] * blocks.lanes; ++slot) {
            const uint32_t t = slot_tets[slot];
            if (t == kPaddingSlot) continue;
            const glm::uvec4 tet = mesh->tets[t];
            glm::vec4 w;
            for (int a = 0; a < 4; ++a) w[a] = input.inverse_masses[tet[a]];
            // A sliver starts cold (tet_step.glsl).
            const bool sliver = test_sliver(t) > 0.0f;
            const float tet_fraction = sliver ? 0.0f : fraction;
            const glm::mat3 lambda_shape = start_lambda_shape(slot) * tet_fraction;
            float lambda_volume = start_lambda_volume(slot) * tet_fraction;
            const bool kept = lambda_volume != 0.0f;
            glm::vec3 d[4];
            tet_math::tm_warm_start_tet(input.predicted[tet.x], input.predicted[tet.y],
                                        input.predicted[tet.z], input.predicted[tet.w],
                                        input.start[tet.x], input.start[tet.y],
                                        input.start[tet.z], input.start[tet.w], w,
                                        inv_rest_shape(*mesh, t), mesh->rest_volumes_m3[t],
                                        volume_compliances[t] >= 0.0f, barrier, lambda_shape,
                                        lambda_volume, d[0], d[1], d[2], d[3]);
            dropped += kept && lambda_volume == 0.0f;
            tet_math::tm_keep_angular_momentum(input.start[tet.x], input.start[tet.y],
                                               input.start[tet.z], input.start[tet.w], w, d[0],
                                               d[1], d[2], d[3]);
            float scale = 1e-9f;
            for (int a = 0; a < 4; ++a) scale = std::max(scale, glm::length(d[a]));
            for (int a = 0; a < 4; ++a) {
                const glm::vec3 moved = corrections[tet[a]] - input.corrections[tet[a]];
                EXPECT_LT(glm::length(moved - d[a]) / scale, 1e-5)
                    << kernel.name << " tet " << t << " corner " << a;
            }
            // The multipliers are kept scaled: the substep goes on from them.
            for (int entry = 0; entry < 9; ++entry) {
                EXPECT_FLOAT_EQ(blocks.lambda_shape[entry][slot],
                                lambda_shape[entry / 3][entry % 3]);
            }
            EXPECT_FLOAT_EQ(blocks.lambda_volume[slot], lambda_volume);
            if (!sliver) {
                EXPECT_GT(scale, 1e-7f) << kernel.name << " tet " << t;  // something moved
            }
            compared += sliver ? 0 : 1;
            slivers += sliver ? 1 : 0;
        }
        EXPECT_GT(compared, 20u) << kernel.name;
        EXPECT_GT(slivers, 10u) << kernel.name;
        if (barrier) {
            EXPECT_GT(dropped, 0u) << kernel.name;
        } else {
            EXPECT_EQ(dropped, 0u) << kernel.name;
        }
        EXPECT_EQ(corrections.back(), glm::vec3(0.0f)) << kernel.name;
    }
}

// The last sweep (tm_recover_tet): the tets inside out take their volume
// steps as the scalar step does, the others are left exactly as they were.
TEST(TetBlockKernel, EveryKernelRecoversAsTheScalarRecovery)
{
    const ScopedFlushDenormals flush_denormals;
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    const KernelCase input = deformed_cube(*mesh);
    const Compliances compliances = one_material_compliances(*mesh);
    const float inv_h2 = 600.0f * 600.0f;
    for (const bool barrier : {false, true})
    for (const TetBlockKernelInfo& kernel : available_tet_block_kernels()) {
        TetBlocks blocks = make_tet_blocks(*mesh, kernel.lanes);
        const std::vector<uint32_t> slot_tets = block_slot_tets(blocks, *mesh);
        set_test_compliances(blocks, slot_tets, compliances.shape, compliances.volume);
        set_start_multipliers(blocks);
        set_test_slivers(blocks, slot_tets);
        std::vector<glm::vec3> corrections = input.corrections;
        TetBlockStep step{&input.predicted[0].x, &corrections[0].x, &input.start_and_masses[0].x,
                          inv_h2, true, barrier};
        step.recover = true;
        std::vector<BlockSums> sums(blocks.block_count, BlockSums{0.0, 0.0, 0u, 0u});
        size_t recovered = 0;
        size_t left = 0;
        for (size_t color = 0; color + 1 < blocks.color_blocks.size(); ++color) {
            const std::vector<glm::vec3> before = corrections;
            const size_t recovered_before = recovered;
            kernel.solve(block_arrays(blocks), step, blocks.color_blocks[color],
                         blocks.color_blocks[color + 1], sums.data());
            for (size_t slot = blocks.color_blocks[color] * blocks.lanes;
                 slot < blocks.color_blocks[color + 1] * blocks.lanes; ++slot) {
                const uint32_t t = slot_tets[slot];
                if (t == kPaddingSlot) continue;
                const glm::uvec4 tet = mesh->tets[t];
                glm::vec3 x[4];
                glm::vec4 w;
                for (int a = 0; a < 4; ++a) {
                    x[a] = input.predicted[tet[a]] + before[tet[a]];
                    w[a] = input.inverse_masses[tet[a]];
                }
                const bool volume_enabled = compliances.volume[t] >= 0.0f;
                float lambda_volume = start_lambda_volume(slot);
                glm::vec3 d[4];
                const bool stepped = tet_math::tm_recover_tet(
                    x[0], x[1], x[2], x[3], w, mesh->rest_volumes_m3[t],
                    volume_enabled ? compliances.volume[t] * inv_h2 : 0.0f, volume_enabled,
                    barrier, false, glm::vec4(0.0f), 1.0f, lambda_volume, d[0], d[1], d[2], d[3]);
                for (int entry = 0; entry < 9; ++entry) {
                    EXPECT_EQ(blocks.lambda_shape[entry][slot], start_lambda_shape(slot, entry));
                }
                if (!stepped) {
                    ++left;
                    EXPECT_EQ(blocks.lambda_volume[slot], start_lambda_volume(slot));
                    for (int a = 0; a < 4; ++a) {
                        EXPECT_EQ(corrections[tet[a]], before[tet[a]])
                            << kernel.name << " tet " << t << " corner " << a;
                    }
                    continue;
                }
                ++recovered;
                tet_math::tm_keep_angular_momentum(input.start[tet.x], input.start[tet.y],
                                                   input.start[tet.z], input.start[tet.w], w,
                                                   d[0], d[1], d[2], d[3]);
                float scale = 1e-9f;
                for (int a = 0; a < 4; ++a) scale = std::max(scale, glm::length(d[a]));
                EXPECT_GT(scale, 1e-6f) << kernel.name << " tet " << t;  // it moved
                for (int a = 0; a < 4; ++a) {
                    const glm::vec3 moved = corrections[tet[a]] - before[tet[a]];
                    // Float rounding, grown by the barrier's slope (up to
                    // 256) on tets inside out.
                    EXPECT_LT(glm::length(moved - d[a]) / scale, 1e-4)
                        << kernel.name << " tet " << t << " corner " << a;
                }
                EXPECT_NEAR(blocks.lambda_volume[slot], lambda_volume,
                            1e-3f * std::abs(lambda_volume))
                    << kernel.name << " tet " << t;
            }
            // The blocks count the tets that stepped, which the solver's
            // further sweeps go on by.
            size_t counted = 0;
            for (size_t block = blocks.color_blocks[color]; block < blocks.color_blocks[color + 1];
                 ++block) {
                counted += sums[block].recovered;
            }
            EXPECT_EQ(counted, recovered - recovered_before) << kernel.name << " colour " << color;
        }
        EXPECT_GE(recovered, 10u) << kernel.name;
        EXPECT_GT(left, 500u) << kernel.name;
        EXPECT_EQ(corrections.back(), glm::vec3(0.0f)) << kernel.name;
    }
}

TEST(TetBlockKernel, EveryKernelDampsAsTheScalarDamping)
{
    const ScopedFlushDenormals flush_denormals;
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    const KernelCase input = deformed_cube(*mesh);
    // Positions where the substep ended, velocities from where it began.
    std::vector<glm::vec3> positions(input.predicted.size());
    std::vector<glm::vec3> velocities(input.predicted.size());
    for (size_t v = 0; v < positions.size(); ++v) {
        positions[v] = input.predicted[v] + input.corrections[v];
        velocities[v] = (positions[v] - input.start[v]) * 60.0f;
    }
    positions.back() = velocities.back() = glm::vec3(0.0f);  // the padding's dummy
    // As the kernel reads them: x y z and the inverse mass.
    std::vector<glm::vec4> positions_and_masses(positions.size());
    for (size_t v = 0; v < positions.size(); ++v) {
        positions_and_masses[v] = glm::vec4(positions[v], input.inverse_masses[v]);
    }
    const Compliances compliances = one_material_compliances(*mesh);
    const std::vector<float>& shape_compliances = compliances.shape;
    const std::vector<float>& volume_compliances = compliances.volume;
    const float inv_h_tau = 1.0f / (1.0f / 600.0f * 0.003f);
    for (const TetBlockKernelInfo& kernel : available_tet_block_kernels()) {
        TetBlocks blocks = make_tet_blocks(*mesh, kernel.lanes);
        const std::vector<uint32_t> slot_tets = block_slot_tets(blocks, *mesh);
        set_test_compliances(blocks, slot_tets, shape_compliances, volume_compliances);
        std::vector<glm::vec3> damped = velocities;
        TetBlockStep step{&input.predicted[0].x, nullptr, &input.start_and_masses[0].x,
                          600.0f * 600.0f, true};
        step.damp = true;
        step.positions = &positions_and_masses[0].x;
        step.velocities = &damped[0].x;
        step.damping_inv_h_tau = inv_h_tau;
        const size_t color = 2;
        kernel.solve(block_arrays(blocks), step, blocks.color_blocks[color],
                     blocks.color_blocks[color + 1], nullptr);
        size_t damped_tets = 0;
        for (size_t slot = blocks.color_blocks[color] * blocks.lanes;
             slot < blocks.color_blocks[color + 1] * blocks.lanes; ++slot) {
            const uint32_t t = slot_tets[slot];
            if (t == kPaddingSlot) continue;
            const glm::uvec4 tet = mesh->tets[t];
            glm::vec4 w;
            for (int a = 0; a < 4; ++a) w[a] = input.inverse_masses[tet[a]];
            const bool volume_on = volume_compliances[t] >= 0.0f;
            glm::vec3 dv[4];
            tet_math::tm_damp_strain_rate(
                positions[tet.x], positions[tet.y], positions[tet.z], positions[tet.w],
                velocities[tet.x], velocities[tet.y], velocities[tet.z], velocities[tet.w], w,
                inv_rest_shape(*mesh, t), mesh->rest_volumes_m3[t],
                shape_compliances[t] * inv_h_tau,
                volume_on ? volume_compliances[t] * inv_h_tau : 0.0f, volume_on, dv[0], dv[1], dv[2], dv[3]);
            float scale = 1e-9f;
            for (int a = 0; a < 4; ++a) scale = std::max(scale, glm::length(dv[a]));
            for (int a = 0; a < 4; ++a) {
                const glm::vec3 changed = damped[tet[a]] - velocities[tet[a]];
                EXPECT_LT(glm::length(changed - dv[a]) / scale, 1e-4)
                    << kernel.name << " tet " << t << " corner " << a;
            }
            damped_tets += scale > 1e-4f;  // the cube's end at rest has nothing to damp
        }
        EXPECT_GT(damped_tets, 20u) << kernel.name;
        EXPECT_EQ(damped.back(), glm::vec3(0.0f)) << kernel.name;
    }
}

TEST(TetBlockKernel, SolverRunsAreBitIdenticalAcrossKernels)
{
    // The AVX-512 and AVX2 kernels fuse the same multiply-adds
    // (CMakeLists.txt), so every lane of either width rounds each operation
    // alike: the same bits on an AVX-512 and an AVX2 machine, self-contact
    // included. SSE2 has no fused multiply-add and rounds each product: it
    // parts from them in the last bits only (1.6e-7 m on the bunny).
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::bunny);
    std::vector<glm::vec3> reference;
    const char* reference_name = "";
    for (const TetBlockKernelInfo& kernel : available_tet_block_kernels()) {
        CpuSolver solver;
        solver.set_tet_kernel(kernel);
        solver.load(mesh);
        run_frames(solver, SimParams(), 40);  // falls, lands and bounces
        if (reference.empty()) {
            reference = solver.positions();
            reference_name = kernel.name;
            EXPECT_GT(max_distance(reference, mesh->rest_positions), 0.1f);
            continue;
        }
        const float difference = max_distance(solver.positions(), reference);
        std::printf("%s: %.2e m from %s after 40 frames\n", kernel.name, difference,
                    reference_name);
        if (std::strcmp(kernel.name, "sse2") == 0) {  // never the reference: the last
            EXPECT_LT(difference, 1.0e-5f);
            continue;
        }
        EXPECT_EQ(std::memcmp(solver.positions().data(), reference.data(),
                              reference.size() * sizeof(glm::vec3)),
                  0)
            << kernel.name;
    }
}

TEST(TetBlockKernel, ThreadsGiveBitIdenticalResults)
{
    // Big enough colours (about 25 blocks each) that two threads share them.
    std::shared_ptr<const TetMesh> mesh =
        prepare_or_fail(box_lattice(glm::ivec3(12), glm::vec3(-0.5f, 0.1f, -0.5f), glm::vec3(1.0f)));
    std::vector<glm::vec3> runs[2];
    std::optional<float> residuals[2];
    for (int threads = 1; threads <= 2; ++threads) {
        CpuSolver solver;
        solver.set_threads(threads);
        solver.load(mesh);
        EXPECT_EQ(solver.threads_in_use(), threads);
        SimParams params;
        params.youngs_modulus_pa = 1.0e5f;
        run_frames(solver, params, 12);  // falls 0.1 m and lands
        runs[threads - 1] = solver.positions();
        residuals[threads - 1] = solver.latest_mean_residual();
    }
    EXPECT_GT(max_distance(runs[0], mesh->rest_positions), 0.05f);
    ASSERT_EQ(runs[0].size(), runs[1].size());
    EXPECT_EQ(std::memcmp(runs[0].data(), runs[1].data(), runs[0].size() * sizeof(glm::vec3)), 0);
    EXPECT_EQ(residuals[0], residuals[1]);
}

TEST(TetBlockKernel, RegionGroupsGiveTheColourOrdersBits)
{
    // A slab coloured by region (33,600 tets). The blocks run sweep by
    // sweep, each group of regions all its colours in turn, the groups
    // shared among the threads: the same bits as the colours one after
    // another over the whole mesh (the same mesh without its sweeps), on one
    // thread or two.
    const TetMeshDesc slab = box_lattice(glm::ivec3(20, 14, 20), glm::vec3(-0.5f, 0.1f, -0.5f),
                                         glm::vec3(1.0f, 0.7f, 1.0f));
    std::shared_ptr<const TetMesh> swept = prepare_or_fail(slab);
    ASSERT_FALSE(swept->region_sweeps.empty());
    auto colour_by_colour = std::make_shared<TetMesh>(*swept);
    colour_by_colour->region_sweeps.clear();

    const TetBlocks blocks = make_tet_blocks(*swept, 16);
    ASSERT_EQ(blocks.phases.size(), swept->region_sweeps.size() + 1);
    for (size_t p = 0; p + 1 < blocks.phases.size(); ++p) {
        std::printf("sweep %zu: %zu colours, %zu groups of regions\n", p, blocks.phases[p].colors,
                    blocks.phases[p].shares);
    }
    EXPECT_GT(blocks.phases[0].shares, 2u) << "the first sweep holds most of the tets";

    std::vector<glm::vec3> stretched = swept->rest_positions;
    for (glm::vec3& x : stretched) x.x *= 1.3f;
    const std::vector<glm::vec3> still(stretched.size(), glm::vec3(0.0f));
    const auto run = [&](const std::shared_ptr<const TetMesh>& mesh, int threads) {
        CpuSolver solver;
        solver.set_threads(threads);
        solver.load(mesh);
        EXPECT_EQ(solver.threads_in_use(), threads);
        solver.set_state(stretched, still);
        SimParams params = free_space_params();
        params.substeps = 2;
        params.iterations = 4;
        run_frames(solver, params, 3);
        return solver.positions();
    };
    const std::vector<glm::vec3> reference = run(colour_by_colour, 1);
    EXPECT_GT(max_distance(reference, stretched), 0.01f) << "it snapped back";
    for (int threads = 1; threads <= 2; ++threads) {
        const std::vector<glm::vec3> positions = run(swept, threads);
        ASSERT_EQ(positions.size(), reference.size());
        EXPECT_EQ(std::memcmp(positions.data(), reference.data(),
                              reference.size() * sizeof(glm::vec3)),
                  0)
            << threads << " threads";
    }
}

TEST(TetBlockKernel, SmallColoursStayOnOneThread)
{
    CpuSolver solver;
    solver.set_threads(8);
    solver.load(preset_mesh(PresetId::cube));  // about 3 blocks per colour
    EXPECT_EQ(solver.threads_in_use(), 1);
}
