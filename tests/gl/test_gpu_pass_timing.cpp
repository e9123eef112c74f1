// The GPU solver's per-pass timing (Solver::set_pass_timing), and the
// Gauss-Seidel dispatch per colour that large meshes use instead of the
// one-workgroup pass (their smallest colours sharing one).
#include "gl_test_support.h"

#include "core/tet_coloring.h"

#include "../test_support.h"
#include "gpu_solver_test_support.h"

#include <algorithm>
#include <chrono>

using GpuPassTiming = GlTest;

TEST_F(GpuPassTiming, OffByDefaultAndEveryPassMeasuredWhenOn)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    for (const SolverMethod method : {SolverMethod::gauss_seidel, SolverMethod::jacobi}) {
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        gpu->load(mesh);
        SimParams params;
        params.method = method;
        gpu->step_frame(params);
        EXPECT_FALSE(gpu->last_pass_times().has_value());

        gpu->set_pass_timing(true);
        for (int frame = 0; frame < 3; ++frame) {  // the first one also probes the clock
            glFinish();
            const auto start = std::chrono::steady_clock::now();
            gpu->step_frame(params);
            glFinish();
            const double wall_ms = std::chrono::duration<double, std::milli>(
                                       std::chrono::steady_clock::now() - start)
                                       .count();
            const std::optional<PassTimes> times = gpu->last_pass_times();
            ASSERT_TRUE(times.has_value());
            std::printf("%s frame %d, %s: predict %.2f solve %.2f apply %.2f grab %.2f "
                        "velocity %.2f normals %.2f other %.2f = %.2f ms of %.2f ms\n",
                        solver_method_name(method), frame, times->clock.c_str(),
                        times->predict_ms, times->solve_ms, times->apply_ms, times->grab_ms,
                        times->velocity_ms, times->normals_ms, times->other_ms,
                        times->total_ms(), wall_ms);
            EXPECT_TRUE(times->clock == "GL timer queries" ||
                        times->clock == "fenced wall clock")
                << times->clock;
            EXPECT_GT(times->predict_ms, 0.0);
            EXPECT_GT(times->solve_ms, 0.0);
            EXPECT_GT(times->velocity_ms, 0.0);
            EXPECT_GT(times->normals_ms, 0.0);
            EXPECT_EQ(times->grab_ms, 0.0);  // nothing grabbed
            if (method == SolverMethod::jacobi) {
                EXPECT_GT(times->apply_ms, 0.0);
            }
            // The passes add up to the frame, less what the test's own waits add.
            EXPECT_LE(times->total_ms(), wall_ms * 1.05 + 0.5);
            EXPECT_GE(times->total_ms(), wall_ms * 0.5);
        }
        gpu->set_pass_timing(false);
        EXPECT_FALSE(gpu->last_pass_times().has_value());
    }
}

TEST_F(GpuPassTiming, TimingDoesNotChangeTheResult)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::torus);
    std::vector<glm::vec3> result[2];
    for (int timed = 0; timed < 2; ++timed) {
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        gpu->load(mesh);
        gpu->set_pass_timing(timed == 1);
        run_frames(*gpu, SimParams(), 10);
        result[timed] = positions_of(*gpu);
    }
    EXPECT_EQ(result[0], result[1]);
}

TEST_F(GpuPassTiming, TheProfileChargesEveryDispatchToItsProgramAndChangesNothing)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::torus);
    std::vector<glm::vec3> result[2];
    for (int profiled = 0; profiled < 2; ++profiled) {
        std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
        ASSERT_TRUE(gpu);
        gpu->load(mesh);
        SimParams params;
        params.method = SolverMethod::jacobi;  // with its multipliers cleared by predict
        // Past the frames that take every last sweep, until the first one
        // is read back: the profile's frames all dispatch the same.
        run_frames(*gpu, params, 2);
        gpu->set_dispatch_profile(profiled == 1);
        constexpr int kFrames = 3;
        run_frames(*gpu, params, kFrames);
        result[profiled] = positions_of(*gpu);
        const std::vector<ProgramTime> profile = gpu->dispatch_profile();
        if (profiled == 0) {
            EXPECT_TRUE(profile.empty());
            continue;
        }
        ASSERT_FALSE(profile.empty()) << "llvmpipe's timestamps are usable";
        double dispatches = 0.0;
        const ProgramTime* predict = nullptr;
        for (const ProgramTime& p : profile) {
            std::printf("%-34s %8.3f ms (%g)\n", p.program.c_str(), p.ms_per_frame,
                        p.dispatches_per_frame);
            EXPECT_GE(p.ms_per_frame, 0.0) << p.program;
            EXPECT_EQ(p.program.find("program "), std::string::npos) << "every program named";
            dispatches += p.dispatches_per_frame;
            predict = p.program == "predict" ? &p : predict;
        }
        EXPECT_TRUE(std::is_sorted(profile.begin(), profile.end(),
                                   [](const ProgramTime& a, const ProgramTime& b) {
                                       return a.ms_per_frame > b.ms_per_frame;
                                   }));
        ASSERT_NE(predict, nullptr);
        EXPECT_EQ(predict->dispatches_per_frame, params.substeps);
        EXPECT_EQ(dispatches, static_cast<double>(gpu->dispatches_last_frame()))
            << "a stamp after every dispatch, charged once";
    }
    EXPECT_EQ(result[0], result[1]);
}

TEST_F(GpuPassTiming, LargeColoursAreDispatchedOneByOneAndAgreeWithTheCpu)
{
    // 20^3 cells, 48,000 tets: colours of well over a thousand tets, too
    // large for the one-workgroup Gauss-Seidel pass. Coloured plainly, in
    // tet order, instead of by region (test_gpu_solver.cpp tests the sweeps).
    auto plain = std::make_shared<TetMesh>(*prepare_or_fail(
        box_lattice(glm::ivec3(20), glm::vec3(0.0f, 0.1f, 0.0f), glm::vec3(1.0f))));
    plain->tet_colors = color_tets(plain->tets, plain->vertex_count()).value();
    plain->region_sweeps.clear();
    std::shared_ptr<const TetMesh> mesh = plain;
    size_t largest_color = 0;
    for (size_t c = 0; c < mesh->tet_colors.rows(); ++c) {
        largest_color =
            std::max<size_t>(largest_color, mesh->tet_colors.end(c) - mesh->tet_colors.begin(c));
    }
    ASSERT_GT(largest_color, GpuSolver::kOneGroupLargestColor);
    std::unique_ptr<GpuSolver> gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    CpuSolver cpu;
    gpu->load(mesh);
    cpu.load(mesh);
    // Its last colours (57 and 6 tets) share one dispatch of the
    // one-workgroup pass, in the same order.
    EXPECT_EQ(gpu->colors_sharing_a_dispatch(), 2u);
    SimParams params;
    params.substeps = 2;
    params.iterations = 2;
    run_frames(*gpu, params, 4);
    run_frames(cpu, params, 4);
    const float difference = max_distance(positions_of(*gpu), cpu.positions());
    std::printf("48k-tet box, %zu colours up to %zu tets: GPU vs CPU %.3e m\n",
                mesh->tet_colors.rows(), largest_color, difference);
    EXPECT_LT(difference, 1e-5f);
    EXPECT_GT(max_distance(cpu.positions(), mesh->rest_positions), 0.01f);
}
