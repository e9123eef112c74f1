// Grabbing on the GPU solver: the same scenarios as the CPU's, through the
// same DragScript and Solver::set_grab; picking runs in pick.comp.
#include "gl_test_support.h"

#include "../grab_scenarios.h"
#include "gpu_solver_test_support.h"

using GpuGrab = GlTest;

TEST_F(GpuGrab, LiftAndRelease)
{
    auto solver = make_gpu_solver();
    ASSERT_TRUE(solver);
    grab_scenarios::lift_and_release(*solver);
}

TEST_F(GpuGrab, YankDoesNotExplodeOrInvert)
{
    auto solver = make_gpu_solver();
    ASSERT_TRUE(solver);
    grab_scenarios::yank(*solver);
}

TEST_F(GpuGrab, DragFasterThanAHandIsFollowedAtTheTopSpeed)
{
    auto solver = make_gpu_solver();
    ASSERT_TRUE(solver);
    grab_scenarios::drag_faster_than_a_hand(*solver);
}

TEST_F(GpuGrab, PullingTheJellyBunnyByItsTopLiftsIt)
{
    // The CPU's test (tests/test_grab.cpp) also lifts a stiffer bunny and
    // checks that the scenario tells a patch from a point. Here the softest
    // lift alone, the one a patch is for: each lift is 3 s of the bunny, about
    // two minutes on llvmpipe beside another test.
    auto solver = make_gpu_solver();
    ASSERT_TRUE(solver);
    EXPECT_GE(grab_scenarios::bunny_lift(*solver, 2.0e4f, kDefaultGrabRadiusFraction), 0.2f);
}

TEST_F(GpuGrab, PinnedVertexStaysInPlace)
{
    auto solver = make_gpu_solver();
    ASSERT_TRUE(solver);
    grab_scenarios::pinned_vertex_stays(*solver);
}

TEST_F(GpuGrab, PickingHitsTheRightTriangleAndWeights)
{
    auto solver = make_gpu_solver();
    ASSERT_TRUE(solver);
    grab_scenarios::picking(*solver);
}

TEST_F(GpuGrab, GrabbedRunsMatchTheCpu)
{
    // The grab pass is the same maths in the same order on both solvers.
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    auto gpu = make_gpu_solver();
    ASSERT_TRUE(gpu);
    CpuSolver cpu;
    gpu->load(mesh);
    cpu.load(mesh);
    const uint32_t top = grab_scenarios::highest_vertex(mesh->rest_positions);
    DragScript gpu_script({DragSpec{0, 20, top, glm::vec3(0.3f, 0.4f, 0.0f)}},
                          kDefaultGrabStiffness);
    DragScript cpu_script = gpu_script;
    grab_scenarios::run_with_drags(*gpu, gpu_script, SimParams(), 0, 20);
    grab_scenarios::run_with_drags(cpu, cpu_script, SimParams(), 0, 20);
    std::vector<glm::vec3> gpu_positions;
    gpu->read_positions(gpu_positions);
    const float difference = max_distance(gpu_positions, cpu.positions());
    std::printf("grabbed cube, GPU vs CPU after 20 frames: %.3e m\n", difference);
    EXPECT_LT(difference, 1e-4f);
}
