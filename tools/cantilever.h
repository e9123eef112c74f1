// The cantilever the stiffness tools measure: L x L/3 x L/3, left face
// pinned, nu = 0.3, rho = 1000, no ground; its tip deflection (the mean over
// the free end face) against the exact static answer of the same discrete
// problem (core/static_equilibrium.h).
#pragma once

#include "core/lattice.h"
#include "core/static_equilibrium.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

struct Cantilever {
    std::shared_ptr<const TetMesh> mesh;
    std::vector<uint32_t> tip;  // the free end face's vertices
    float length_m;
};

inline Cantilever make_cantilever(glm::ivec3 cells, float length_m)
{
    const glm::vec3 size(length_m, length_m / 3.0f, length_m / 3.0f);
    TetMeshDesc desc = box_lattice(cells, {0.0f, 2.0f, 0.0f}, size);
    desc.name = "cantilever";
    for (uint32_t v = 0; v < desc.positions.size(); ++v) {
        if (desc.positions[v].x < 1e-5f) desc.pinned_vertices.push_back(v);
    }
    Result<TetMesh> prepared = prepare_tet_mesh(desc);
    if (!prepared) {
        std::fprintf(stderr, "%s\n", prepared.error().c_str());
        std::exit(1);
    }
    Cantilever beam{std::make_shared<const TetMesh>(std::move(prepared).value()), {}, length_m};
    for (uint32_t v = 0; v < beam.mesh->vertex_count(); ++v) {
        if (beam.mesh->rest_positions[v].x > length_m - 1e-4f) beam.tip.push_back(v);
    }
    return beam;
}

// First bending frequency (rad/s), for a damping that settles it quickly.
inline float first_mode_rad_s(const Cantilever& beam, float youngs_pa)
{
    const float side = beam.length_m / 3.0f;
    const float inertia = side * side * side * side / 12.0f;
    const float area = side * side;
    return 3.516f / (beam.length_m * beam.length_m) *
           std::sqrt(youngs_pa * inertia / (1000.0f * area));
}

// Air damping near critical for the first mode: what lets a run settle to
// its static deflection within a few seconds.
inline float settling_damping_per_s(const Cantilever& beam, float youngs_pa)
{
    return std::min(2.0f * first_mode_rad_s(beam, youngs_pa), 60.0f);
}

// Mean downward displacement of the tip face (m).
template <typename Vec3>
double tip_deflection_m(const Cantilever& beam, const std::vector<Vec3>& positions)
{
    double sum = 0.0;
    for (uint32_t v : beam.tip) sum += beam.mesh->rest_positions[v].y - positions[v].y;
    return sum / beam.tip.size();
}

// The exact static equilibrium under gravity; exits saying why if the solve
// fails.
inline StaticEquilibrium exact_equilibrium(const Cantilever& beam, float youngs_pa)
{
    StaticLoad load;
    load.youngs_modulus_pa = youngs_pa;
    load.poisson_ratio = 0.3;
    load.density_kg_m3 = 1000.0;
    Result<StaticEquilibrium> exact = solve_static_equilibrium(*beam.mesh, load);
    if (!exact) {
        std::fprintf(stderr, "%s\n", exact.error().c_str());
        std::exit(1);
    }
    return std::move(exact).value();
}
