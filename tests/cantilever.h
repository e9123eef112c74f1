// The test cantilever: 0.6 x 0.2 x 0.2 m, 6 x 2 x 2 cells, left face pinned,
// its static tip deflection on any solver, and the exact one (Newton on the
// same discrete energy, core/static_equilibrium.h) that both are measured
// against. Shared by the CPU and GPU stiffness tests.
#pragma once

#include "test_support.h"

#include "core/static_equilibrium.h"

#include <algorithm>
#include <cmath>
#include <limits>

struct Cantilever {
    static constexpr float length_m = 0.6f;
    static constexpr float side_m = 0.2f;
    static constexpr float density_kg_m3 = 1000.0f;
    std::shared_ptr<const TetMesh> mesh;
    std::vector<uint32_t> tip;

    Cantilever()
    {
        TetMeshDesc desc = box_lattice({6, 2, 2}, {0.0f, 1.0f, 0.0f}, {length_m, side_m, side_m});
        desc.name = "cantilever";
        for (uint32_t v = 0; v < desc.positions.size(); ++v) {
            if (desc.positions[v].x < 1e-4f) desc.pinned_vertices.push_back(v);
        }
        mesh = prepare_or_fail(desc);
        for (uint32_t v = 0; v < mesh->vertex_count(); ++v) {
            if (mesh->rest_positions[v].x > length_m - 1e-4f) tip.push_back(v);
        }
    }

    // Air damping near the critical value of the first bending mode, so that
    // a run settles within about 2 s whatever the stiffness.
    static float settling_damping_per_s(float youngs_pa)
    {
        const float first_mode_rad_s = 3.516f / (length_m * length_m) *
                                       std::sqrt(youngs_pa * side_m * side_m / 12.0f /
                                                 density_kg_m3);
        return std::min(2.0f * first_mode_rad_s, 60.0f);
    }

    // Mean downward displacement of the free end after `frames` frames.
    float tip_deflection(Solver& solver, const SimParams& params, int frames) const
    {
        solver.load(mesh);
        run_frames(solver, params, frames);
        std::vector<glm::vec3> x;
        solver.read_positions(x);
        double sum = 0.0;
        for (uint32_t v : tip) sum += mesh->rest_positions[v].y - x[v].y;
        return static_cast<float>(sum / tip.size());
    }

    // The exact static tip deflection (m) under gravity, NaN (and a test
    // failure) if Newton's method fails.
    double exact_tip_deflection(float youngs_pa, float poisson_ratio) const
    {
        StaticLoad load;
        load.youngs_modulus_pa = youngs_pa;
        load.poisson_ratio = poisson_ratio;
        load.density_kg_m3 = density_kg_m3;
        const Result<StaticEquilibrium> exact = solve_static_equilibrium(*mesh, load);
        EXPECT_TRUE(exact.ok()) << exact.error();
        if (!exact) return std::numeric_limits<double>::quiet_NaN();
        double sum = 0.0;
        for (uint32_t v : tip) sum += mesh->rest_positions[v].y - exact.value().positions_m[v].y;
        return sum / tip.size();
    }
};
