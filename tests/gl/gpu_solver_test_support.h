// What the GPU solver tests share: making a solver (failing the test, not
// crashing, when its shaders do not build) and reading its positions back.
#pragma once

#include "gpu/gpu_solver.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

inline std::unique_ptr<GpuSolver> make_gpu_solver()
{
    Result<std::unique_ptr<GpuSolver>> solver = GpuSolver::create(ShaderLibrary());
    EXPECT_TRUE(solver.ok()) << solver.error();
    return solver.ok() ? std::move(solver).value() : nullptr;
}

inline std::vector<glm::vec3> positions_of(const Solver& solver)
{
    std::vector<glm::vec3> out;
    solver.read_positions(out);
    return out;
}
