// The stiffness goal on the GPU solver: Gauss-Seidel (the default) at the
// real-time schedule gives the converged cantilever deflection at 1 and
// 10 MPa, as on the CPU (tests/test_static_elasticity.cpp).
#include "gl_test_support.h"

#include "../test_support.h"
#include "gpu/gpu_solver.h"

#include <algorithm>
#include <cmath>

namespace {

// Cantilever 0.6 x 0.2 x 0.2 m, 6 x 2 x 2 cells, left face pinned.
std::shared_ptr<const TetMesh> cantilever()
{
    TetMeshDesc desc = box_lattice({6, 2, 2}, {0.0f, 1.0f, 0.0f}, {0.6f, 0.2f, 0.2f});
    desc.name = "cantilever";
    for (uint32_t v = 0; v < desc.positions.size(); ++v) {
        if (desc.positions[v].x < 1e-4f) desc.pinned_vertices.push_back(v);
    }
    return prepare_or_fail(desc);
}

float tip_deflection(Solver& solver, const std::shared_ptr<const TetMesh>& mesh, float youngs,
                     int substeps, int iterations)
{
    SimParams p;
    p.youngs_modulus_pa = youngs;
    p.substeps = substeps;
    p.iterations = iterations;
    p.method = SolverMethod::gauss_seidel;
    p.ground_enabled = false;
    const float first_mode =
        3.516f / 0.36f * std::sqrt(youngs * 0.2f * 0.2f / 12.0f / 1000.0f);  // rad/s
    p.air_damping_per_s = std::min(2.0f * first_mode, 60.0f);
    solver.load(mesh);
    run_frames(solver, p, 90);
    std::vector<glm::vec3> x;
    solver.read_positions(x);
    double sum = 0.0;
    int n = 0;
    for (uint32_t v = 0; v < mesh->vertex_count(); ++v) {
        if (mesh->rest_positions[v].x > 0.6f - 1e-4f) {
            sum += mesh->rest_positions[v].y - x[v].y;
            ++n;
        }
    }
    return static_cast<float>(sum / n);
}

}  // namespace

using GpuStiffness = GlTest;

TEST_F(GpuStiffness, GaussSeidelGivesTheConvergedDeflectionAtTenByEight)
{
    std::shared_ptr<const TetMesh> mesh = cantilever();
    Result<std::unique_ptr<GpuSolver>> gpu = GpuSolver::create(ShaderLibrary());
    ASSERT_TRUE(gpu.ok()) << gpu.error();
    for (const float e : {1.0e6f, 1.0e7f}) {
        CpuSolver cpu;
        const float converged = tip_deflection(cpu, mesh, e, 10, 32);
        const float realtime = tip_deflection(*gpu.value(), mesh, e, 10, 8);
        std::printf("GPU Gauss-Seidel 10x8, E %.0e: %.5f m, converged (CPU 10x32) %.5f m, "
                    "ratio %.4f\n",
                    e, realtime, converged, realtime / converged);
        EXPECT_NEAR(realtime / converged, 1.0f, 0.05f) << "E " << e;
    }
}
