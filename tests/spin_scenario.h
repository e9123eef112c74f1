// A spinning cube released stretched, in free space: the angular momentum
// scenario run on both solvers (tests/test_angular_momentum.cpp for the CPU,
// tests/gl/test_gpu_solver.cpp for the GPU).
#pragma once

#include "test_support.h"

#include "core/body_materials.h"

#include <algorithm>
#include <cmath>

namespace spin_scenario {

struct SpinRun {
    double worst_ratio_deviation = 0.0;  // max over frames of | |L| / |L0| - 1 |
    double final_ratio = 1.0;            // |L| / |L0| at the last frame
    double kinetic_energy_ratio = 0.0;   // KE at the last frame / KE at the start
    // The kinetic energy of the cube turning rigidly at its rest shape with
    // the start's angular momentum, L . I^-1 L / 2, over the start's: where
    // the energy settles once the ringing has died away.
    double rest_spin_energy_ratio = 0.0;
};

// The cube preset stretched by 30% along x about its centre of mass and
// spinning at (0.3, 2, 0.5) rad/s, with no gravity, ground or air damping, run
// for `frames` frames at `params`' material and schedule: at 1e7 Pa it
// snaps back within the first frame and rings.
inline SpinRun run_stretched_spinning_cube(Solver& solver, SimParams params, int frames)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    solver.load(mesh);
    params.gravity_m_s2 = glm::vec3(0.0f);
    params.ground_enabled = false;
    params.air_damping_per_s = 0.0f;
    std::vector<BodyMaterial> materials;
    update_body_materials(solver.world(), params, materials);
    const std::vector<float> inverse_masses =
        material_arrays(solver.world(), materials).inverse_masses;

    std::vector<glm::vec3> positions = mesh->rest_positions;
    std::vector<glm::vec3> velocities(positions.size());
    glm::dvec3 centre(0.0);
    double mass = 0.0;
    for (size_t v = 0; v < positions.size(); ++v) {
        centre += glm::dvec3(positions[v]) / double(inverse_masses[v]);
        mass += 1.0 / double(inverse_masses[v]);
    }
    centre /= mass;
    glm::dmat3 rest_inertia(0.0);
    for (size_t v = 0; v < positions.size(); ++v) {
        const glm::dvec3 r = glm::dvec3(positions[v]) - centre;
        rest_inertia += (glm::dot(r, r) * glm::dmat3(1.0) - glm::outerProduct(r, r)) /
                        double(inverse_masses[v]);
    }
    const glm::vec3 spin(0.3f, 2.0f, 0.5f);
    for (size_t v = 0; v < positions.size(); ++v) {
        glm::vec3 r = positions[v] - glm::vec3(centre);
        r.x *= 1.3f;
        positions[v] = glm::vec3(centre) + r;
        velocities[v] = glm::cross(spin, r);
    }
    solver.set_state(positions, velocities);
    const Momenta start = compute_momenta(positions, velocities, inverse_masses);
    SpinRun run;
    const double l0 = glm::length(start.angular);
    run.rest_spin_energy_ratio =
        0.5 * glm::dot(start.angular, glm::inverse(rest_inertia) * start.angular) /
        start.kinetic_energy_j;

    for (int frame = 0; frame < frames; ++frame) {
        solver.step_frame(params);
        solver.read_positions(positions);
        solver.read_velocities(velocities);
        const Momenta now = compute_momenta(positions, velocities, inverse_masses);
        run.final_ratio = glm::length(now.angular) / l0;
        run.worst_ratio_deviation = std::max(run.worst_ratio_deviation,
                                             std::abs(run.final_ratio - 1.0));
        run.kinetic_energy_ratio = now.kinetic_energy_j / start.kinetic_energy_j;
    }
    return run;
}

// The scenario for 1 s on the CPU at `params`, its spin checked (|L| kept to
// 2e-3, the energy not below the rigid spin's) and printed after `label`:
// what is left of its ringing, the kinetic energy above the rigid spin's
// as a share of the start's.
inline double ringing_left_after_a_second(const SimParams& params, const char* label)
{
    CpuSolver solver;
    const SpinRun spin = run_stretched_spinning_cube(solver, params, 60);
    std::printf("%s: after 1 s |L| / |L0| worst %.2e off, kinetic energy %.4f of the start, a "
                "rigid spin %.4f\n",
                label, spin.worst_ratio_deviation, spin.kinetic_energy_ratio,
                spin.rest_spin_energy_ratio);
    EXPECT_LT(spin.worst_ratio_deviation, 2e-3) << label;
    EXPECT_GT(spin.kinetic_energy_ratio, 0.995 * spin.rest_spin_energy_ratio) << label;
    return spin.kinetic_energy_ratio - spin.rest_spin_energy_ratio;
}

}  // namespace spin_scenario
