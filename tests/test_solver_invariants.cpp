// Properties of the CPU solver that hold exactly or to float precision
// (DESIGN.md section 6): rest stays at rest, momentum is conserved,
// inverted tets recover, and the ground holds.
#include "test_support.h"

#include "core/tet_math.h"

#include <algorithm>
#include <cmath>
#include <random>

TEST(CpuSolver, RestPoseWithoutGravityDoesNotMove)
{
    // A transposed B or a wrong gradient makes the rest pose drift at once.
    for (PresetId id : {PresetId::cube, PresetId::torus}) {
        std::shared_ptr<const TetMesh> mesh = preset_mesh(id);
        CpuSolver solver;
        solver.load(mesh);
        run_frames(solver, free_space_params(), 60);  // 1 s
        const float drift = max_distance(solver.positions(), mesh->rest_positions);
        EXPECT_LT(drift, 1e-5f) << mesh->name;
    }
}

TEST(CpuSolver, FreeFlightConservesLinearMomentum)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    CpuSolver solver;
    solver.load(mesh);
    SimParams params = free_space_params();
    params.youngs_modulus_pa = 1.0e6f;

    // Centred on the origin (with no ground, where the body is does not
    // matter, and small coordinates keep float rounding small), moving as a
    // whole plus a random velocity per vertex that sets it ringing.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    double mass = 0.0;
    glm::dvec3 centroid(0.0);
    for (size_t v = 0; v < mesh->vertex_count(); ++v) {
        const double m = params.density_kg_m3 * mesh->lumped_volumes_m3[v];
        mass += m;
        centroid += m * glm::dvec3(mesh->rest_positions[v]);
    }
    centroid /= mass;
    std::vector<glm::vec3> positions = mesh->rest_positions;
    std::vector<glm::vec3> velocities(mesh->vertex_count());
    for (size_t v = 0; v < positions.size(); ++v) {
        positions[v] -= glm::vec3(centroid);
        velocities[v] = glm::vec3(0.5f, 0.2f, -0.3f) + glm::vec3(u(rng), u(rng), u(rng));
    }
    solver.set_state(positions, velocities);
    const glm::dvec3 before = linear_momentum(*mesh, velocities, params.density_kg_m3);
    const int frames = 30;
    run_frames(solver, params, frames);
    const glm::dvec3 after = linear_momentum(*mesh, solver.velocities(), params.density_kg_m3);

    // Each tet step conserves momentum up to rounding (see
    // TetStepConservesMomentum), and velocities are built from the summed
    // corrections rather than from differences of float coordinates, so
    // 300 substeps drift by ~5e-8 of the total. A systematic error (a corner
    // with its own weight, a mass mismatch) is orders of magnitude larger.
    glm::dvec3 moved(0.0);
    for (size_t v = 0; v < positions.size(); ++v) {
        moved += double(params.density_kg_m3 * mesh->lumped_volumes_m3[v]) *
                 glm::dvec3(solver.positions()[v]);
    }
    const double drift = glm::length(after - before) / glm::length(before);
    std::printf("momentum %.4f kg m/s, relative drift after %d substeps %.2e\n",
                glm::length(before), frames * params.substeps, drift);
    EXPECT_LT(drift, 1e-6);

    // The centre of mass moves in a straight line at P / M.
    const glm::dvec3 expected_centroid = before / mass * double(frames * kFrameSeconds);
    EXPECT_LT(glm::length(moved / mass - expected_centroid), 1e-5);
}

TEST(CpuSolver, TetStepConservesMomentum)
{
    // sum_a m_a d_a = dlambda * sum_a g_a = 0: one weight omega for all four
    // corners and g_0 = -(g_1 + g_2 + g_3) make it exact, whatever the tet;
    // as for a sliver's step (every other one here, tm_sliver_shape_step).
    std::mt19937 rng(3);
    for (int i = 0; i < 2000; ++i) {
        const RandomTetStep step = step_random_tet(rng, 0.3f, i % 2 == 0 ? 0.0f : 1.0f);
        glm::dvec3 momentum(0.0);
        double scale = 0.0;
        for (int a = 0; a < 4; ++a) {
            momentum += double(step.m[a]) * glm::dvec3(step.d[a]);
            scale += step.m[a] * glm::length(step.d[a]);
        }
        EXPECT_LT(glm::length(momentum), 1e-6 * scale + 1e-12) << "tet " << i;
    }
}

TEST(CpuSolver, MirroredMeshRecoversToPositiveVolumes)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    CpuSolver solver;
    solver.load(mesh);
    // Mirror every vertex through the plane x = centre: every tet inverted.
    glm::vec3 centre(0.0f);
    for (const glm::vec3& p : mesh->rest_positions) centre += p;
    centre /= static_cast<float>(mesh->vertex_count());
    std::vector<glm::vec3> mirrored = mesh->rest_positions;
    for (glm::vec3& p : mirrored) p.x = 2.0f * centre.x - p.x;
    solver.set_state(mirrored, std::vector<glm::vec3>(mesh->vertex_count(), glm::vec3(0.0f)));
    ASSERT_EQ(compute_stats(*mesh, mirrored, {}).inverted_tets, mesh->tet_count());

    SimParams params = free_space_params();
    params.air_damping_per_s = 2.0f;
    // Turning back out of the mirror image takes the body through itself,
    // which self-contact rightly forbids: this tests the elastic maths alone.
    params.body_contact = false;
    run_frames(solver, params, 120);
    const SimStats stats = compute_stats(*mesh, solver.positions(), solver.velocities());
    EXPECT_EQ(stats.nan_count, 0u);
    EXPECT_EQ(stats.inverted_tets, 0u);
    // And it is the rest shape again, up to a rigid motion: volumes match.
    for (size_t t = 0; t < mesh->tet_count(); ++t) {
        EXPECT_NEAR(tet_volume(*mesh, solver.positions(), t), mesh->rest_volumes_m3[t],
                    0.05f * mesh->rest_volumes_m3[t]);
    }
}

TEST(CpuSolver, DroppedPresetsStayAboveTheGround)
{
    for (PresetId id : {PresetId::cube, PresetId::torus, PresetId::beam}) {
        std::shared_ptr<const TetMesh> mesh = preset_mesh(id);
        CpuSolver solver;
        solver.load(mesh);
        SimParams params;
        params.youngs_modulus_pa = preset_info(id).suggested_youngs_pa;
        float lowest = INFINITY;
        for (int frame = 0; frame < 120; ++frame) {
            solver.step_frame(params);
            const SimStats stats = compute_stats(*mesh, solver.positions(), solver.velocities());
            lowest = std::min(lowest, stats.min_y_m);
            ASSERT_EQ(stats.nan_count, 0u) << mesh->name << " frame " << frame;
        }
        EXPECT_GE(lowest, 0.0f) << mesh->name;
        const SimStats end = compute_stats(*mesh, solver.positions(), solver.velocities());
        EXPECT_EQ(end.inverted_tets, 0u) << mesh->name;
        if (id != PresetId::beam) {
            // It reached the ground (the beam is pinned in the air).
            EXPECT_LT(lowest, 1e-3f) << mesh->name;
        }
    }
}

TEST(CpuSolver, TiltedCubeComesToRestOnAFace)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    CpuSolver solver;
    solver.load(mesh);
    SimParams params;
    params.youngs_modulus_pa = preset_info(PresetId::cube).suggested_youngs_pa;
    run_frames(solver, params, 480);  // 8 s
    const SimStats stats = compute_stats(*mesh, solver.positions(), solver.velocities());
    std::printf("cube after 8 s: max speed %.4f m/s, centroid speed %.4f m/s, centroid y %.4f m\n",
                stats.max_speed_m_s, stats.centroid_speed_m_s, stats.centroid_m.y);
    EXPECT_LT(stats.max_speed_m_s, 0.05f);
    EXPECT_LT(stats.centroid_speed_m_s, 0.01f);
    // A 0.5 m cube resting on a face has its centroid at 0.25 m, a little
    // lower as it sags; on an edge it would be at ~0.35 m.
    EXPECT_GT(stats.centroid_m.y, 0.2f);
    EXPECT_LT(stats.centroid_m.y, 0.26f);
    EXPECT_GE(stats.min_y_m, 0.0f);
}

TEST(CpuSolver, ParametersChangeBetweenFramesWithoutReset)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::beam);
    CpuSolver a;
    CpuSolver b;
    a.load(mesh);
    b.load(mesh);
    SimParams soft;
    soft.youngs_modulus_pa = 2.0e5f;
    SimParams stiff = soft;
    stiff.youngs_modulus_pa = 5.0e6f;
    stiff.density_kg_m3 = 500.0f;
    run_frames(a, soft, 10);
    run_frames(b, soft, 10);
    EXPECT_EQ(max_distance(a.positions(), b.positions()), 0.0f) << "deterministic";
    run_frames(a, stiff, 10);
    run_frames(b, soft, 10);
    EXPECT_GT(max_distance(a.positions(), b.positions()), 1e-3f) << "new parameters took effect";
}

TEST(CpuSolver, DroppedCubeBouncesOnBothMethods)
{
    // Converging harder must not turn the jelly into putty: after the first
    // impact the centroid rises again.
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi}) {
        CpuSolver solver;
        solver.load(mesh);
        SimParams params;
        params.youngs_modulus_pa = preset_info(PresetId::cube).suggested_youngs_pa;
        params.method = method;
        float lowest = INFINITY;
        float rebound = 0.0f;
        bool touched = false;
        for (int frame = 0; frame < 90; ++frame) {
            solver.step_frame(params);
            const SimStats s = compute_stats(*mesh, solver.positions(), solver.velocities());
            touched = touched || s.min_y_m < 1e-3f;
            if (touched) {
                lowest = std::min(lowest, s.centroid_m.y);
                rebound = std::max(rebound, s.centroid_m.y - lowest);
            }
        }
        std::printf("%s: centroid rebounds %.3f m after the first impact\n",
                    solver_method_name(method), rebound);
        EXPECT_TRUE(touched);
        EXPECT_GT(rebound, 0.02f) << solver_method_name(method);
    }
}

TEST(CpuSolver, ResidualReadoutShowsWhetherTheIterationKeepsUp)
{
    // The mean |C + alpha~ lambda| of the last iteration: large when the
    // solver leaves the substep unsolved, falling with more iterations, and
    // far lower for Gauss-Seidel than for Jacobi at the same cost.
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::beam);
    auto residual = [&](SolverMethod method, int iterations) {
        CpuSolver solver;
        solver.load(mesh);
        EXPECT_FALSE(solver.latest_mean_residual().has_value());
        SimParams params;
        params.method = method;
        params.iterations = iterations;
        run_frames(solver, params, 30);
        return solver.latest_mean_residual().value_or(-1.0f);
    };
    const float jacobi8 = residual(SolverMethod::jacobi, 8);
    const float jacobi32 = residual(SolverMethod::jacobi, 32);
    const float gauss_seidel8 = residual(SolverMethod::gauss_seidel, 8);
    std::printf("mean residual after 30 frames: Jacobi 10x8 %.3e, 10x32 %.3e, "
                "Gauss-Seidel 10x8 %.3e\n",
                jacobi8, jacobi32, gauss_seidel8);
    EXPECT_GT(gauss_seidel8, 0.0f);
    EXPECT_LT(jacobi32, 0.2f * jacobi8);
    EXPECT_LT(gauss_seidel8, 0.01f * jacobi8);
}
