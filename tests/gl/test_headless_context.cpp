// The headless context on each EGL platform it knows: the device platform
// (NVIDIA's way, and Mesa's software device here) and Mesa's surfaceless
// one, each running the GPU solver as the CPU does.
#include "../test_support.h"
#include "gpu/gl_loader.h"
#include "gpu/gpu_solver.h"
#include "gpu/headless_context.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

// The cube, 10 frames on the GPU solver in a context made on `platform`,
// against the CPU solver; skips where the platform is not offered.
void runs_on_platform(const char* platform, const char* named)
{
    setenv("SOFTBODY_EGL_PLATFORM", platform, 1);
    Result<std::unique_ptr<HeadlessGlContext>> context = HeadlessGlContext::create();
    unsetenv("SOFTBODY_EGL_PLATFORM");
    if (!context) {
        GTEST_SKIP() << platform << ": " << context.error();
    }
    std::printf("%s: OpenGL %s\n", platform, context.value()->description().c_str());
    EXPECT_NE(context.value()->description().find(named), std::string::npos);
    if (gl_context_version() < kMinimumComputeGlVersion) {
        GTEST_SKIP() << "no compute shaders on " << platform;
    }
    Result<std::unique_ptr<GpuSolver>> gpu = GpuSolver::create(ShaderLibrary());
    ASSERT_TRUE(gpu.ok()) << gpu.error();
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    gpu.value()->load(mesh);
    CpuSolver cpu;
    cpu.load(mesh);
    run_frames(*gpu.value(), SimParams(), 10);
    run_frames(cpu, SimParams(), 10);
    std::vector<glm::vec3> positions;
    gpu.value()->read_positions(positions);
    EXPECT_LT(max_distance(positions, cpu.positions()), 1e-4f);
}

}  // namespace

TEST(HeadlessContext, RunsOnTheEglDevicePlatform)
{
    runs_on_platform("device", "EGL device");
}

TEST(HeadlessContext, RunsOnTheSurfacelessPlatform)
{
    runs_on_platform("surfaceless", "EGL surfaceless");
}
