// When Gauss-Seidel's warm start may take all of the last substep's
// multipliers (docs/algorithm.md 4, "Sweeps that keep up").
//
// At a static equilibrium a substep started from the last one's multipliers
// is already solved, whatever the iteration count: the stiffness is then
// exact. Elsewhere a kept multiplier is a force the sweeps must correct;
// where they cannot keep up with the material, what they leave feeds the
// next substep's start and grows (a body at rest turned NaN within a
// second). Whether they keep up depends on the schedule and the material,
// not on the motion. A simple model fits what was measured: the slowest
// error of a substep falls by about exp(-K / q^2) in K sweeps, q being how
// many small tets the material's shear wave crosses in a substep. Measured on the beam's cantilever, the bunny and the torus, a
// body at rest taking the whole warm start went unstable at K / q^2 of
// 0.113 or less and stayed stable at 0.14 or more, at 1 to 16 iterations;
// the solvers take it whole from 0.2 up, and otherwise as much as the last
// substep's sweeps converged (at most 0.4 of it). Above nu = 0.3 the volume
// term's pressure wave, whose modulus is then more than 7/2 of the shear
// modulus, decides instead.
#pragma once

#include "core/material.h"
#include "core/world.h"

#include <vector>

// Per body, the length of its small tets: the cube root of the rest volume
// that 5% of its tets are smaller than (a few slivers do not decide it).
std::vector<float> small_tet_sizes_m(const World& world);

// How many of its small tets a body's shear wave, sqrt(mu / rho), crosses
// in a substep of h seconds.
float shear_crossings_per_substep(const BodyMaterial& material, float small_tet_size_m, float h);

// The same for the pressure wave, sqrt((lambda + 2 mu) / rho), which the
// volume term carries: it decides where nu > 0.3.
float pressure_crossings_per_substep(const BodyMaterial& material, float small_tet_size_m,
                                    float h);

// Whether `iterations` sweeps a substep keep up with every body's material:
// K / q^2 >= 0.2 for each (materials and sizes per body), and K / p^2 >=
// 0.2 * 2 / 7 for its pressure wave (the two agree at nu = 0.3).
bool sweeps_keep_up(const std::vector<BodyMaterial>& materials,
                    const std::vector<float>& small_tet_sizes_m, float h, int iterations);
