// Small helpers shared by the solver tests.
#pragma once

#include "core/cpu_solver.h"
#include "core/lattice.h"
#include "core/presets.h"
#include "core/sim_stats.h"
#include "core/tet_math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

// One XPBD step of a random tet, for the per-tet properties: the unit rest
// tet (B = I, V0 = 1/6) with each corner moved by up to 0.4 in each
// coordinate, corner masses from 0.2 to 5, compliances 1e-3 / h^2, weight
// omega.
struct RandomTetStep {
    glm::vec3 x[4];  // the corners stepped from
    glm::vec4 m;     // their masses
    glm::vec4 w;     // 1 / m
    glm::vec3 d[4];  // the step's corrections
};

// sliver: 1 takes the tet's step as a sliver's (tm_sliver_shape_step),
// whatever its shape.
inline RandomTetStep step_random_tet(std::mt19937& rng, float omega, float sliver = 0.0f)
{
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_real_distribution<float> mass(0.2f, 5.0f);
    const glm::vec3 rest[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    RandomTetStep step;
    for (int a = 0; a < 4; ++a) step.x[a] = rest[a] + 0.4f * glm::vec3(u(rng), u(rng), u(rng));
    step.m = glm::vec4(mass(rng), mass(rng), mass(rng), mass(rng));
    step.w = 1.0f / step.m;
    glm::mat3 lambda_shape(0.0f);
    float lambda_volume = 0.0f;
    glm::vec4 rotation = tet_math::TM_IDENTITY_ROTATION;  // a first step: the SVD's rotation
    float residual = 0.0f;
    float shape_step = 0.0f;
    bool squeezed = false;
    tet_math::tm_solve_tet(step.x[0], step.x[1], step.x[2], step.x[3], step.w, glm::mat3(1.0f),
                           1.0f / 6.0f, sliver, 1e-3f, 1e-3f, true, false, false, glm::vec4(0.0f),
                           omega, lambda_shape, lambda_volume, rotation, step.d[0], step.d[1],
                           step.d[2], step.d[3], residual, shape_step, squeezed);
    return step;
}

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

// The positions of a solver state that once misbehaved
// (regressions/states/README.md), `count` of them; empty, with a failure,
// where the file is missing or short.
inline std::vector<glm::vec3> read_regression_state(const char* name, size_t count)
{
    const std::string path = std::string(SOFTBODY_STATE_REGRESSION_DIR) + "/" + name;
    std::vector<glm::vec3> positions(count);
    FILE* file = std::fopen(path.c_str(), "r");
    size_t read = 0;
    if (file != nullptr) {
        for (glm::vec3& p : positions) {
            read += std::fscanf(file, "%f %f %f", &p.x, &p.y, &p.z) == 3;
        }
        std::fclose(file);
    }
    EXPECT_EQ(read, count) << path;
    if (read != count) positions.clear();
    return positions;
}

// The cube preset's state in `cube-folded-corner.xyz`, where a corner
// flipped every substep for good (VolumeBarrier.AFoldedCornerUnfoldsAndRests),
// and the free space it was found in.
inline SimParams folded_corner_params()
{
    SimParams params = free_space_params();
    params.air_damping_per_s = 2.0f;
    params.body_contact = false;  // as the mirrored cube it came from
    return params;
}

// The largest |V / V0 - 1| over the tets at `positions`.
inline float farthest_from_rest_volume(const TetMesh& mesh,
                                       const std::vector<glm::vec3>& positions)
{
    float farthest = 0.0f;
    for (size_t t = 0; t < mesh.tet_count(); ++t) {
        const float ratio = tet_volume(mesh, positions, t) / mesh.rest_volumes_m3[t];
        farthest = std::max(farthest, std::abs(ratio - 1.0f));
    }
    return farthest;
}

inline float max_distance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b)
{
    float worst = 0.0f;
    for (size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, glm::length(a[i] - b[i]));
    }
    return worst;
}
