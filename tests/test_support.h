// Small helpers shared by the solver tests.
#pragma once

#include "core/cpu_solver.h"
#include "core/lattice.h"
#include "core/presets.h"
#include "core/sim_stats.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

inline std::shared_ptr<const TetMesh> prepare_or_fail(const TetMeshDesc& desc)
{
    Result<TetMesh> mesh = prepare_tet_mesh(desc);
    EXPECT_TRUE(mesh.ok()) << mesh.error();
    return std::make_shared<const TetMesh>(std::move(mesh).value());
}

inline std::shared_ptr<const TetMesh> preset_mesh(PresetId id)
{
    Result<TetMeshDesc> desc = make_preset_mesh(id);
    EXPECT_TRUE(desc.ok()) << desc.error();
    return prepare_or_fail(desc.value());
}

// Parameters with nothing but the material: no gravity, no damping, no ground.
inline SimParams free_space_params()
{
    SimParams p;
    p.gravity_m_s2 = glm::vec3(0.0f);
    p.air_damping_per_s = 0.0f;
    p.ground_enabled = false;
    return p;
}

inline void run_frames(Solver& solver, const SimParams& params, int frames)
{
    for (int f = 0; f < frames; ++f) {
        solver.step_frame(params);
    }
}

inline float max_distance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b)
{
    float worst = 0.0f;
    for (size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, glm::length(a[i] - b[i]));
    }
    return worst;
}
