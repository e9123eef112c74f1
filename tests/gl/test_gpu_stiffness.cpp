// The stiffness goal on the GPU solver: Gauss-Seidel (the default) at the
// real-time schedule gives the converged cantilever deflection at 1 and
// 10 MPa, as on the CPU (tests/test_static_elasticity.cpp).
#include "gl_test_support.h"

#include "../cantilever.h"
#include "gpu/gpu_solver.h"

using GpuStiffness = GlTest;

TEST_F(GpuStiffness, GaussSeidelGivesTheConvergedDeflectionAtTenByEight)
{
    const Cantilever beam;
    Result<std::unique_ptr<GpuSolver>> gpu = GpuSolver::create(ShaderLibrary());
    ASSERT_TRUE(gpu.ok()) << gpu.error();
    for (const float e : {1.0e6f, 1.0e7f}) {
        SimParams p;
        p.youngs_modulus_pa = e;
        p.method = SolverMethod::gauss_seidel;
        p.ground_enabled = false;
        p.air_damping_per_s = Cantilever::settling_damping_per_s(e);
        p.iterations = 32;
        CpuSolver cpu;
        const float converged = beam.tip_deflection(cpu, p, 90);
        p.iterations = 8;
        const float realtime = beam.tip_deflection(*gpu.value(), p, 90);
        std::printf("GPU Gauss-Seidel 10x8, E %.0e: %.5f m, converged (CPU 10x32) %.5f m, "
                    "ratio %.4f\n",
                    e, realtime, converged, realtime / converged);
        EXPECT_NEAR(realtime / converged, 1.0f, 0.05f) << "E " << e;
    }
}
