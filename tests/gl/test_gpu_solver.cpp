// The GPU solver against the CPU reference solver, and the DESIGN.md
// section 6 checks that are cheap enough for llvmpipe.
#include "gl_test_support.h"

#include "../material_scenarios.h"
#include "../sliver_meshes.h"
#include "../spin_scenario.h"
#include "../test_support.h"
#include "gpu_solver_test_support.h"

#include <cstring>
#include <set>

using GpuSolverTest = GlTest;

TEST_F(GpuSolverTest, AgreesWithTheCpuSolverOnEveryPreset)
{
    // Same arithmetic in the same order; what differs is the compiler's
    // freedom to fuse multiply-adds. Over 30 frames with ground contact that
    // stays far below a micrometre per metre travelled.
    const float tolerance_m = 1e-5f;
    for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi})
    for (PresetId id : {PresetId::bunny, PresetId::cube, PresetId::torus, PresetId::beam}) {
        std::shared_ptr<const TetMesh> mesh = preset_mesh(id);
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        CpuSolver cpu;
        gpu->load(mesh);
        cpu.load(mesh);
        SimParams params;
        params.youngs_modulus_pa = preset_info(id).suggested_youngs_pa;
        params.method = method;
        run_frames(*gpu, params, 30);
        run_frames(cpu, params, 30);
        const float difference = max_distance(positions_of(*gpu), cpu.positions());
        std::vector<glm::vec3> gpu_velocities;
        gpu->read_velocities(gpu_velocities);
        const float velocity_difference = max_distance(gpu_velocities, cpu.velocities());
        std::printf("%s, %s: GPU vs CPU after 30 frames: %.3e m, %.3e m/s\n",
                    mesh->name.c_str(), solver_method_name(method), difference,
                    velocity_difference);
        EXPECT_LT(difference, tolerance_m) << mesh->name;
        EXPECT_LT(velocity_difference, 100.0f * tolerance_m) << mesh->name;
        // And it did move: the comparison is not of two resting bodies.
        EXPECT_GT(max_distance(cpu.positions(), mesh->rest_positions), 0.05f) << mesh->name;
    }
}

TEST_F(GpuSolverTest, AgreesWithTheCpuSolverOnSlivers)
{
    // The sliver cube (tests/sliver_meshes.h): its slivers take shape
    // matching's step (tm_sliver_shape_step), dropped on the ground and,
    // pressed through itself in free space (every tet inverted), through
    // the reflection of inverted slivers. (A mirror is no test of this: its
    // tets' singular values are all equal, and which axis turns back is
    // rounding's choice; the plain cube mirrored differs by 0.3 m.) Under
    // both methods, with their last sweeps: set down anew, the GPU takes
    // all of them until a frame is read back, as the CPU takes as many as
    // it needs (from one, pressed through itself under Jacobi, 3.6 mm off).
    int slivers_made = 0;
    const std::shared_ptr<const TetMesh> mesh =
        prepare_or_fail(sliver_cube(1e-3, 0.05f, &slivers_made));
    size_t slivers = 0;
    for (size_t t = 0; t < mesh->tet_count(); ++t) slivers += is_sliver(*mesh, t);
    EXPECT_GE(slivers, 20u);
    glm::vec3 centre(0.0f);
    for (const glm::vec3& p : mesh->rest_positions) centre += p;
    centre /= static_cast<float>(mesh->vertex_count());
    std::vector<glm::vec3> squashed = mesh->rest_positions;
    for (glm::vec3& p : squashed) p.y = centre.y - 0.2f * (p.y - centre.y);
    const std::vector<glm::vec3> still(mesh->vertex_count(), glm::vec3(0.0f));
    for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi})
    for (const bool squash : {false, true}) {
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        CpuSolver cpu;
        gpu->load(mesh);
        cpu.load(mesh);
        SimParams params;
        if (squash) {
            params = free_space_params();
            params.body_contact = false;
            gpu->set_state(squashed, still);
            cpu.set_state(squashed, still);
        }
        params.method = method;
        const int frames = squash ? 10 : 30;
        run_frames(*gpu, params, frames);
        run_frames(cpu, params, frames);
        const float difference = max_distance(positions_of(*gpu), cpu.positions());
        const char* how = squash ? "pressed through itself" : "dropped";
        std::printf("sliver cube, %s, %s, %zu slivers: GPU vs CPU after %d frames: %.3e m\n",
                    how, solver_method_name(method), slivers, frames, difference);
        EXPECT_LT(difference, 1e-5f) << how << ", " << solver_method_name(method);
        EXPECT_GT(max_distance(cpu.positions(), squash ? squashed : mesh->rest_positions), 0.01f);
    }
}

TEST_F(GpuSolverTest, SumsOverManyWorkgroupsAgreeWithTheCpu)
{
    // A slab of 7,203 vertices, 5,000 of them on its surface and 27,648
    // tets: every sum the GPU spreads over workgroups of 4,096 items
    // (shaders/chunk_sums.glsl) takes several chunks here, where the
    // presets take one (the warm start's fraction, the readout, the contact
    // hash's scan, the lone body's rigid motion, and the wobble damping,
    // strong here). It spins and drifts, squashed, in free space.
    std::shared_ptr<const TetMesh> mesh = prepare_or_fail(box_lattice(
        glm::ivec3(48, 2, 48), glm::vec3(-0.6f, 0.5f, -0.6f), glm::vec3(1.2f, 0.05f, 1.2f)));
    std::set<uint32_t> surface;
    for (const glm::uvec3& f : mesh->surface_triangles) {
        surface.insert({f.x, f.y, f.z});
    }
    ASSERT_GT(surface.size(), 4096u);
    std::vector<glm::vec3> start = mesh->rest_positions;
    std::vector<glm::vec3> velocities(start.size());
    const glm::vec3 centre(0.0f, 0.525f, 0.0f);
    for (size_t v = 0; v < start.size(); ++v) {
        start[v].y = centre.y + 0.6f * (start[v].y - centre.y);
        velocities[v] = glm::vec3(0.3f, 0.0f, -0.2f) + glm::cross(glm::vec3(0.2f, 1.5f, 0.4f),
                                                                   start[v] - centre);
    }
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    CpuSolver cpu;
    gpu->load(mesh);
    cpu.load(mesh);
    gpu->set_state(start, velocities);
    cpu.set_state(start, velocities);
    SimParams params = free_space_params();
    params.wobble_damping_per_s = 30.0f;
    params.substeps = 2;
    params.iterations = 4;
    run_frames(*gpu, params, 3);
    run_frames(cpu, params, 3);
    const float difference = max_distance(positions_of(*gpu), cpu.positions());
    std::vector<glm::vec3> gpu_velocities;
    gpu->read_velocities(gpu_velocities);
    const float velocity_difference = max_distance(gpu_velocities, cpu.velocities());
    std::printf("spinning slab, 3 frames of 2 x 4: GPU vs CPU %.3e m, %.3e m/s\n", difference,
                velocity_difference);
    EXPECT_LT(difference, 1e-5f);
    EXPECT_LT(velocity_difference, 1e-3f);
    EXPECT_GT(max_distance(cpu.positions(), start), 0.02f) << "it moved";
    // The readout, a mean over the tets of a residual well above rounding
    // at 2 x 4 (see ResidualReadoutMatchesTheCpu).
    glFinish();
    const std::optional<float> on_gpu = gpu->latest_mean_residual();
    ASSERT_TRUE(on_gpu.has_value());
    const float on_cpu = cpu.latest_mean_residual().value();
    std::printf("residual: GPU %.4e, CPU %.4e\n", *on_gpu, on_cpu);
    EXPECT_NEAR(*on_gpu / on_cpu, 1.0f, 0.1f);
}

TEST_F(GpuSolverTest, RegionSweepsAgreeWithTheCpusColourOrder)
{
    // A slab large enough to be coloured by region (33,600 tets): the GPU
    // runs each sweep's colours in one dispatch, a workgroup per region, the
    // CPU colour after colour. Stretched by a third along x and let go.
    std::shared_ptr<const TetMesh> mesh = prepare_or_fail(box_lattice(
        glm::ivec3(20, 14, 20), glm::vec3(-0.5f, 0.1f, -0.5f), glm::vec3(1.0f, 0.7f, 1.0f)));
    ASSERT_FALSE(mesh->region_sweeps.empty());
    std::vector<glm::vec3> stretched = mesh->rest_positions;
    for (glm::vec3& p : stretched) p.x *= 1.3f;
    const std::vector<glm::vec3> still(stretched.size(), glm::vec3(0.0f));
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    CpuSolver cpu;
    gpu->load(mesh);
    gpu->set_sweep_mode(GpuSolver::SweepMode::wide);  // whichever load() found faster here
    ASSERT_EQ(gpu->sweep_mode(), GpuSolver::SweepMode::wide);
    cpu.load(mesh);
    gpu->set_state(stretched, still);
    cpu.set_state(stretched, still);
    SimParams params = free_space_params();
    params.substeps = 2;
    params.iterations = 4;
    run_frames(*gpu, params, 3);
    run_frames(cpu, params, 3);
    const float difference = max_distance(positions_of(*gpu), cpu.positions());
    std::printf("GPU vs CPU after 3 frames of 2 x 4: %.3e m\n", difference);
    EXPECT_LT(difference, 1e-5f);
    EXPECT_GT(max_distance(cpu.positions(), stretched), 0.01f) << "it snapped back";

    // Narrow groups of regions, or colour by colour: the same tets see the
    // same corners, so the same bits.
    const std::vector<glm::vec3> wide = positions_of(*gpu);
    using Mode = GpuSolver::SweepMode;
    for (const Mode mode : {Mode::narrow, Mode::off}) {
        std::unique_ptr<GpuSolver> other = make_gpu_solver();
        ASSERT_TRUE(other);
        other->load(mesh);
        other->set_sweep_mode(mode);
        other->set_state(stretched, still);
        run_frames(*other, params, 3);
        const std::vector<glm::vec3> positions = positions_of(*other);
        ASSERT_EQ(positions.size(), wide.size());
        EXPECT_EQ(std::memcmp(positions.data(), wide.data(), wide.size() * sizeof(glm::vec3)), 0)
            << (mode == Mode::off ? "colour by colour" : "narrow");
    }

    // Dispatches per iteration: one a sweep, then the colours after them
    // (the last, small ones sharing one), and the static projection; not
    // one a colour.
    params.body_contact = false;  // its steps are two more an iteration
    const auto dispatches = [&](int iterations) {
        params.substeps = 1;
        params.iterations = iterations;
        gpu->step_frame(params);
        return static_cast<long>(gpu->dispatches_last_frame());
    };
    const long per_iteration = (dispatches(4) - dispatches(2)) / 2;
    const long swept_colors = mesh->region_sweeps.back().color_end;
    const long colors = static_cast<long>(mesh->tet_colors.rows());
    std::printf("%ld colours, %zu sweeps of %ld: %ld dispatches an iteration\n", colors,
                mesh->region_sweeps.size(), swept_colors, per_iteration);
    EXPECT_LE(per_iteration, static_cast<long>(mesh->region_sweeps.size()) +
                                 (colors - swept_colors) + 1);
    EXPECT_LT(per_iteration, colors / 4);
}

TEST_F(GpuSolverTest, OneGroupOfEitherWidthGivesTheSameBits)
{
    // The cube (28 colours, the last 24 small enough to share a dispatch)
    // dropped onto the ground: colour by colour with those 24 in one group,
    // or every colour in one group, the group 8 or 256 lanes wide. Each
    // colour's tets share no corner, so every way gives the same bits.
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    const SimParams params;
    std::vector<glm::vec3> first;
    for (const bool in_one_group : {false, true}) {
        for (const bool wide : {false, true}) {
            std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
            ASSERT_TRUE(gpu);
            gpu->load(mesh);
            ASSERT_GT(gpu->colors_sharing_a_dispatch(), 1u);
            gpu->set_colors_in_one_group(in_one_group);
            gpu->set_one_group_wide(wide);
            ASSERT_EQ(gpu->colors_in_one_group(), in_one_group);
            run_frames(*gpu, params, 20);
            const std::vector<glm::vec3> positions = positions_of(*gpu);
            if (first.empty()) {
                first = positions;
                EXPECT_LT(compute_stats(*mesh, first, {}).min_y_m, 0.01f) << "it reached the ground";
                continue;
            }
            ASSERT_EQ(positions.size(), first.size());
            EXPECT_EQ(std::memcmp(positions.data(), first.data(), first.size() * sizeof(glm::vec3)), 0)
                << (in_one_group ? "every colour" : "the small colours") << " in one group of "
                << (wide ? 256 : 8) << " lanes";
        }
    }
}

TEST_F(GpuSolverTest, ResidualReadoutMatchesTheCpu)
{
    // The cube in its first bounce, at few iterations: a residual well above
    // float rounding (a converged Gauss-Seidel readout, ~1e-7, is rounding
    // noise that differs between any two compilers).
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi}) {
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        CpuSolver cpu;
        gpu->load(mesh);
        cpu.load(mesh);
        SimParams params;
        params.method = method;
        params.iterations = 2;
        run_frames(*gpu, params, 24);
        run_frames(cpu, params, 24);
        glFinish();  // the readout arrives once the GPU is done; here, at once
        const std::optional<float> on_gpu = gpu->latest_mean_residual();
        ASSERT_TRUE(on_gpu.has_value());
        const float on_cpu = cpu.latest_mean_residual().value();
        std::printf("%s residual: GPU %.4e, CPU %.4e\n", solver_method_name(method), *on_gpu,
                    on_cpu);
        EXPECT_NEAR(*on_gpu / on_cpu, 1.0f, 0.1f);
    }
}

TEST_F(GpuSolverTest, TwoRunsAreBitIdentical)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::torus);
    std::vector<glm::vec3> runs[2];
    for (std::vector<glm::vec3>& result : runs) {
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        gpu->load(mesh);
        run_frames(*gpu, SimParams(), 40);
        result = positions_of(*gpu);
    }
    ASSERT_EQ(runs[0].size(), runs[1].size());
    EXPECT_EQ(std::memcmp(runs[0].data(), runs[1].data(), runs[0].size() * sizeof(glm::vec3)), 0);
}

TEST_F(GpuSolverTest, RestPoseWithoutGravityDoesNotMove)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    gpu->load(mesh);
    run_frames(*gpu, free_space_params(), 60);
    EXPECT_LT(max_distance(positions_of(*gpu), mesh->rest_positions), 1e-5f);
}

TEST_F(GpuSolverTest, MirroredMeshRecovers)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    gpu->load(mesh);
    std::vector<glm::vec3> mirrored = mesh->rest_positions;
    for (glm::vec3& p : mirrored) p.x = -p.x;
    gpu->set_state(mirrored, std::vector<glm::vec3>(mirrored.size(), glm::vec3(0.0f)));
    ASSERT_EQ(compute_stats(*mesh, positions_of(*gpu), {}).inverted_tets, mesh->tet_count());
    SimParams params = free_space_params();
    params.air_damping_per_s = 2.0f;
    params.body_contact = false;  // turning back out of the mirror passes through itself
    run_frames(*gpu, params, 120);
    const SimStats stats = compute_stats(*mesh, positions_of(*gpu), {});
    EXPECT_EQ(stats.nan_count, 0u);
    EXPECT_EQ(stats.inverted_tets, 0u);
}

// The folded corner of VolumeBarrier.AFoldedCornerUnfoldsAndRests, on the GPU:
// it flipped from side to side every substep at 1.5 m/s there too, and the
// fold now undoes itself.
TEST_F(GpuSolverTest, AFoldedCornerUnfoldsAndRests)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    const std::vector<glm::vec3> folded =
        read_regression_state("cube-folded-corner.xyz", mesh->vertex_count());
    ASSERT_FALSE(folded.empty());
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    gpu->load(mesh);
    gpu->set_state(folded, std::vector<glm::vec3>(folded.size(), glm::vec3(0.0f)));
    run_frames(*gpu, folded_corner_params(), 90);
    std::vector<glm::vec3> velocities;
    gpu->read_velocities(velocities);
    const std::vector<glm::vec3> positions = positions_of(*gpu);
    const SimStats stats = compute_stats(*mesh, positions, velocities);
    const float worst_volume = farthest_from_rest_volume(*mesh, positions);
    std::printf("folded corner on the GPU: fastest vertex at 1.5 s %.3g m/s, volumes within "
                "%.2g of rest\n",
                stats.max_speed_m_s, worst_volume);
    EXPECT_LT(stats.max_speed_m_s, 1.0e-3f);
    EXPECT_EQ(stats.inverted_tets, 0u);
    EXPECT_LT(worst_volume, 0.05f) << "the fold is undone";
}

TEST_F(GpuSolverTest, ASoftCubeFlattensWithEveryTetTheRightWayOut)
{
    // The 0.5 m cube at 300 Pa, far softer than its weight, dropped as the
    // preset drops it: the volume barrier (tm_volume_constraint, engaged by
    // tet_pass_state.glsl's latch) holds every tet the right way out as it
    // flattens, on the GPU as on the CPU (before it, 700 of its 1,296 tets
    // ended inside out). Body contact on: no vertex is pushed out through its
    // own body (cm_pair_behind_may_touch).
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    CpuSolver cpu;
    gpu->load(mesh);
    cpu.load(mesh);
    SimParams params;
    params.youngs_modulus_pa = 300.0f;
    run_frames(*gpu, params, 150);
    run_frames(cpu, params, 150);
    const SimStats g = compute_stats(*mesh, positions_of(*gpu), {});
    const SimStats c = compute_stats(*mesh, cpu.positions(), {});
    std::printf("after 2.5 s: GPU %.4f m high, %zu tets inside out; CPU %.4f m, %zu\n",
                g.max_y_m - g.min_y_m, g.inverted_tets, c.max_y_m - c.min_y_m, c.inverted_tets);
    EXPECT_EQ(g.nan_count, 0u);
    EXPECT_EQ(g.inverted_tets, 0u);
    EXPECT_EQ(c.inverted_tets, 0u);
    EXPECT_LT(g.max_y_m - g.min_y_m, 0.2f) << "it flattened";
    EXPECT_NEAR(g.max_y_m - g.min_y_m, c.max_y_m - c.min_y_m, 0.01f);
}

TEST_F(GpuSolverTest, TheBunnyLandingAtOneSubstepKeepsItsTetsTheRightWayOut)
{
    // The ground's hold (tm_ground_held_mass) and the last sweeps on the
    // GPU: the bunny dropped at 1 substep and 1 iteration a frame, 10 s.
    // Before the hold the CPU left 400 and 372 tets inside out at 1e6 and
    // 1e10 Pa, flat on the ground; with it 2 and 9 (test_ground_hold.cpp),
    // the GPU on llvmpipe 2 and 4; with the last sweeps as well none.
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::bunny);
    for (const float youngs_pa : {1e6f, 1e10f}) {
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        gpu->load(mesh);
        SimParams params;
        params.youngs_modulus_pa = youngs_pa;
        params.substeps = 1;
        params.iterations = 1;
        run_frames(*gpu, params, 600);
        const SimStats s = compute_stats(*mesh, positions_of(*gpu), {});
        std::printf("GPU, %.0e Pa, 1 x 1, 10 s: %zu tets inside out\n", youngs_pa,
                    s.inverted_tets);
        EXPECT_EQ(s.nan_count, 0u);
        EXPECT_EQ(s.inverted_tets, 0u) << youngs_pa;
    }
}

TEST_F(GpuSolverTest, PuddlesCrushedAtOneSubstepEndTheRightWayOut)
{
    // The last sweeps, repeated while one turned a tet (tm_recover_tet,
    // TM_LAST_SWEEPS_MAX), on the GPU, whose count of them follows the
    // frames read back: the cube and the beam at 100 Pa, crushed flat by
    // their own weight at 1 x 1. One last sweep a substep left 73 and 23
    // tets inside out after 10 s on the CPU (test_ground_hold.cpp), 40 and
    // 20 here. Under Jacobi too, as a Jacobi iteration.
    for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi})
    for (const PresetId id : {PresetId::cube, PresetId::beam}) {
        std::shared_ptr<const TetMesh> mesh = preset_mesh(id);
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        gpu->load(mesh);
        SimParams params;
        params.youngs_modulus_pa = 100.0f;
        params.substeps = 1;
        params.iterations = 1;
        params.method = method;
        run_frames(*gpu, params, 600);
        const SimStats s = compute_stats(*mesh, positions_of(*gpu), {});
        const char* name = solver_method_name(method);
        std::printf("GPU, %s at 100 Pa, 1 x 1, %s, 10 s: %zu tets inside out\n",
                    mesh->name.c_str(), name, s.inverted_tets);
        EXPECT_EQ(s.nan_count, 0u) << mesh->name << ", " << name;
        EXPECT_EQ(s.inverted_tets, 0u) << mesh->name << ", " << name;
    }
}

TEST_F(GpuSolverTest, DispatchesOneLastSweepOnceAFrameReadBackTurnedNone)
{
    // Set down anew, a body takes every last sweep until its first frame is
    // read back; the cube dropped the right way out then needs none past
    // the first. Read back as the window and the headless run read it,
    // through the residual, every frame.
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    gpu->load(mesh);
    const SimParams params;
    std::vector<uint64_t> dispatches;
    for (int frame = 0; frame < 6; ++frame) {
        gpu->step_frame(params);
        dispatches.push_back(gpu->dispatches_last_frame());
        glFinish();  // the readout arrives once the GPU is done: a real one runs behind
        gpu->latest_mean_residual();
    }
    std::printf("cube dropped, dispatches a frame:");
    for (const uint64_t d : dispatches) std::printf(" %llu", static_cast<unsigned long long>(d));
    std::printf("\n");
    // Each of the 31 further sweeps a substep is a colour walk and a
    // projection: at least two dispatches.
    EXPECT_GE(dispatches.front(), dispatches.back() + 10u * 31u * 2u);
    EXPECT_EQ(dispatches[dispatches.size() - 2], dispatches.back());
}

TEST_F(GpuSolverTest, DroppedBodiesStayAboveTheGround)
{
    for (PresetId id : {PresetId::cube, PresetId::torus}) {
        std::shared_ptr<const TetMesh> mesh = preset_mesh(id);
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        gpu->load(mesh);
        SimParams params;
        params.youngs_modulus_pa = preset_info(id).suggested_youngs_pa;
        float lowest = INFINITY;
        for (int frame = 0; frame < 90; ++frame) {
            gpu->step_frame(params);
            if (frame % 10 == 9) {
                lowest = std::min(lowest, compute_stats(*mesh, positions_of(*gpu), {}).min_y_m);
            }
        }
        // Rounding of predicted + correction may leave a grounded vertex
        // a few 1e-11 m below (the cube: 1.5e-11 m).
        EXPECT_GE(lowest, -1e-9f) << mesh->name;
        EXPECT_LT(lowest, 1e-3f) << mesh->name << " reached the ground";
    }
}

TEST_F(GpuSolverTest, CrushedBunnyStiffenedUnfoldsWhereItLies)
{
    // The CPU test (test_material_ramp.cpp) also checks that the scenario
    // launches the bunny without the ramp; here the ramped run alone.
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    float height_m = 0.0f;
    const float rise = material_scenarios::rise_after_stiffening(*gpu, true, height_m);
    std::printf("GPU: crushed bunny stiffened with the ramp: centroid rose %.3f m (height %.3f m)\n",
                rise, height_m);
    EXPECT_LT(rise, height_m);
}

TEST_F(GpuSolverTest, StretchedSpinningCubeKeepsItsAngularMomentum)
{
    // The CPU's test (tests/test_angular_momentum.cpp), shorter: the
    // snap-back is over within the first frame.
    for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi}) {
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        SimParams params;
        params.youngs_modulus_pa = 1.0e7f;
        params.method = method;
        const spin_scenario::SpinRun run =
            spin_scenario::run_stretched_spinning_cube(*gpu, params, 20);
        std::printf("GPU %s: |L| / |L0| worst %.2e off over 20 frames\n",
                    solver_method_name(method), run.worst_ratio_deviation);
        EXPECT_LT(run.worst_ratio_deviation, 2e-3) << solver_method_name(method);
    }
}

TEST_F(GpuSolverTest, CountsItsBuffersAndDispatches)
{
    // The figures the benchmark prints as bytes_per_tet and
    // dispatches_per_frame, on a lattice of 10,368 tets.
    std::shared_ptr<const TetMesh> mesh =
        prepare_or_fail(box_lattice(glm::ivec3(12), glm::vec3(-0.5f, 0.25f, -0.5f), glm::vec3(1.0f)));
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    gpu->load(mesh);
    const double tets = static_cast<double>(mesh->tet_count());
    SimParams params;
    params.substeps = 1;
    params.iterations = 2;
    gpu->step_frame(params);
    const size_t gauss_seidel_bytes = gpu->buffer_bytes();
    std::printf("Gauss-Seidel: %.1f bytes per tet, %llu dispatches a frame at 1 x 2\n",
                gauss_seidel_bytes / tets,
                static_cast<unsigned long long>(gpu->dispatches_last_frame()));
    // The goal, 200 bytes a tet, is for the large lattices (measured 193 on
    // lattice-50k, 178 on lattice-200k); this small one carries a larger
    // share of surface and contact tables (measured 220, of which 56 are the
    // multipliers and what the warm start reads).
    EXPECT_LT(gauss_seidel_bytes / tets, 225.0);
    EXPECT_GT(gauss_seidel_bytes / tets, 48.0 + 16.0 + 40.0 + 16.0)
        << "rest shape, corners, multipliers, step sizes";

    // Jacobi's corrections per tet corner and each vertex's corner slots
    // are made when it first runs.
    params.method = SolverMethod::jacobi;
    const auto dispatches = [&](int substeps, int iterations) {
        // The frame before read back, as llvmpipe has it at once: the last
        // sweeps a substep takes follow it (all of them after the load).
        glFinish();
        params.substeps = substeps;
        params.iterations = iterations;
        gpu->step_frame(params);
        return static_cast<long>(gpu->dispatches_last_frame());
    };
    const long one_by_two = dispatches(1, 2);
    const size_t jacobi_extra = mesh->tet_count() * 4 * (16 + 4) +  // deltas, corner slots
                                (mesh->vertex_count() + 1) * 4 - 3 * 16;  // slot offsets
    EXPECT_EQ(gpu->buffer_bytes(), gauss_seidel_bytes + jacobi_extra);
    // A fixed part per frame, one per substep, one per iteration of each
    // substep: d(S, K) = a + S (b + K c), with c at least the tet pass and
    // the pass that sums its corrections.
    const long one_by_four = dispatches(1, 4);
    const long two_by_two = dispatches(2, 2);
    const long two_by_four = dispatches(2, 4);
    EXPECT_GE(one_by_four - one_by_two, 2 * 2);
    EXPECT_EQ(two_by_four - two_by_two, 2 * (one_by_four - one_by_two));
    EXPECT_GT(two_by_two, one_by_two);
}
