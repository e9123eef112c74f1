// The stiffening scenario run on both solvers (tests/test_material_ramp.cpp
// for the CPU, tests/gl/test_gpu_solver.cpp for the GPU).
#pragma once

#include "test_support.h"

#include "core/material_ramp.h"

#include <algorithm>

namespace material_scenarios {

// The bunny crushed flat at 2 kPa for 2 s, then asked for 10 MPa: how far
// its centroid rises over the next 3 s above where it lay crushed.
inline float rise_after_stiffening(Solver& solver, bool ramped, float& body_height_m)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::bunny);
    const auto [lo, hi] = std::minmax_element(
        mesh->rest_positions.begin(), mesh->rest_positions.end(),
        [](const glm::vec3& a, const glm::vec3& b) { return a.y < b.y; });
    body_height_m = hi->y - lo->y;
    solver.load(mesh);
    MaterialRamp ramp;
    SimParams params;
    params.youngs_modulus_pa = 2.0e3f;
    for (int frame = 0; frame < 120; ++frame) {
        solver.step_frame(ramp.next(params, kFrameSeconds));
    }
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> velocities;
    solver.read_positions(positions);
    solver.read_velocities(velocities);
    const float crushed_y = compute_stats(*mesh, positions, velocities).centroid_m.y;
    params.youngs_modulus_pa = 1.0e7f;
    float highest_y = crushed_y;
    for (int frame = 0; frame < 180; ++frame) {
        solver.step_frame(ramped ? ramp.next(params, kFrameSeconds) : params);
        solver.read_positions(positions);
        solver.read_velocities(velocities);
        const SimStats stats = compute_stats(*mesh, positions, velocities);
        EXPECT_EQ(stats.nan_count, 0u);
        highest_y = std::max(highest_y, stats.centroid_m.y);
    }
    solver.read_positions(positions);
    EXPECT_EQ(compute_stats(*mesh, positions, velocities).inverted_tets, 0u)
        << "the stiff bunny recovered its shape";
    return highest_y - crushed_y;
}

}  // namespace material_scenarios
