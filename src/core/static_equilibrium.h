// The exact static answer of the discrete problem the solvers simulate: the
// positions that minimise the tets' elastic energy (tet_elastic_energy.h)
// minus the work of gravity on the lumped vertex masses (rho * the mesh's
// lumped volumes, as the solvers weigh them), pinned vertices fixed, no
// ground. The rest shapes B and volumes V0 are recomputed in double from the
// mesh's rest positions, so that the rest state is free of stress. Found by Newton's method in double precision; independent of the
// XPBD iteration, so it measures how far a schedule is from the material it
// was given.
#pragma once

#include "core/result.h"
#include "core/tet_mesh.h"

#include <glm/glm.hpp>

#include <vector>

struct StaticLoad {
    double youngs_modulus_pa = 1.0e6;
    double poisson_ratio = 0.3;
    double density_kg_m3 = 1000.0;
    glm::dvec3 gravity_m_s2 = {0.0, -9.81, 0.0};
};

struct StaticSolveOptions {
    // Stop when the largest net force on a free vertex is this fraction of
    // the largest gravity load on one.
    double relative_tolerance = 1e-10;
    // Or when a full Newton step moves no vertex further than this: rounding
    // in the internal forces, which grow with E while the loads do not,
    // leaves a residual floor near 1e-10 at 2e7 Pa and 4e-8 at 1e10 Pa on
    // 0.1 m cells, and there the positions no longer change.
    double step_tolerance_m = 1e-13;
    int max_newton_iterations = 100;
};

struct StaticEquilibrium {
    std::vector<glm::dvec3> positions_m;  // simulation order, pinned ones at rest
    int newton_iterations = 0;
    double relative_residual = 0.0;  // max |net force| / max |m g|, free vertices
};

// Fails, saying why, on a material out of range (E <= 0, nu outside [0, 0.5),
// density <= 0), when the pins do not hold the body, or when Newton's method
// does not reach the tolerance.
Result<StaticEquilibrium> solve_static_equilibrium(const TetMesh& mesh, const StaticLoad& load,
                                                   const StaticSolveOptions& options = {});

// The minimised energy in joules, zero at rest: elastic energy minus the
// work of gravity, sum of m_v g . (x_v - X_v).
double static_energy_j(const TetMesh& mesh, const StaticLoad& load,
                       const std::vector<glm::dvec3>& positions_m);

// Its gradient in newtons (the net force, negated), every vertex, pinned
// ones included.
std::vector<glm::dvec3> static_energy_gradient_n(const TetMesh& mesh, const StaticLoad& load,
                                                 const std::vector<glm::dvec3>& positions_m);
