// Wobble damping (core/wobble_damping.h): what a body moves besides its
// rigid motion loses its share, its momentum and angular momentum stay, and
// a pinned body loses the share of all its motion.
#include "test_support.h"

#include "core/presets.h"
#include "core/substep_math.h"
#include "core/wobble_damping.h"
#include "spin_scenario.h"

#include <random>

namespace {

struct Motion {
    glm::dvec3 momentum{0.0};
    glm::dvec3 angular_momentum{0.0};  // about the origin
    double kinetic_energy = 0.0;
};

Motion motion_of(const std::vector<float>& inverse_masses, const std::vector<glm::vec3>& x,
                 const std::vector<glm::vec3>& v)
{
    Motion m;
    for (size_t i = 0; i < x.size(); ++i) {
        const double mass = 1.0 / inverse_masses[i];
        const glm::dvec3 vi(v[i]);
        m.momentum += mass * vi;
        m.angular_momentum += mass * glm::cross(glm::dvec3(x[i]), vi);
        m.kinetic_energy += 0.5 * mass * glm::dot(vi, vi);
    }
    return m;
}

// The kinetic energy of the body's rigid motion alone: of its drift
// and of its spin, M |v_c|^2 / 2 + L_c . w / 2, w from the inertia about the
// centroid (as the damping fits it, in double here).
double rigid_kinetic_energy(const std::vector<float>& inverse_masses,
                            const std::vector<glm::vec3>& x, const std::vector<glm::vec3>& v)
{
    double mass = 0.0;
    glm::dvec3 centre(0.0), momentum(0.0);
    for (size_t i = 0; i < x.size(); ++i) {
        const double m = 1.0 / inverse_masses[i];
        mass += m;
        centre += m * glm::dvec3(x[i]);
        momentum += m * glm::dvec3(v[i]);
    }
    centre /= mass;
    const glm::dvec3 drift = momentum / mass;
    glm::dvec3 angular(0.0);
    glm::dmat3 inertia(0.0);
    for (size_t i = 0; i < x.size(); ++i) {
        const double m = 1.0 / inverse_masses[i];
        const glm::dvec3 r = glm::dvec3(x[i]) - centre;
        angular += m * glm::cross(r, glm::dvec3(v[i]) - drift);
        inertia += m * (glm::dot(r, r) * glm::dmat3(1.0) - glm::outerProduct(r, r));
    }
    const glm::dvec3 spin = glm::inverse(inertia) * angular;
    return 0.5 * mass * glm::dot(drift, drift) + 0.5 * glm::dot(angular, spin);
}

std::vector<glm::vec3> random_velocities(size_t count, std::mt19937& rng)
{
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<glm::vec3> v(count);
    for (glm::vec3& u : v) u = {normal(rng), normal(rng), normal(rng)};
    return v;
}

}  // namespace

TEST(WobbleDamping, KeepsMomentumAndAngularMomentumAndTakesTheShareOfTheRest)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::bunny);
    const std::shared_ptr<const World> world = single_body_world(mesh);
    const std::vector<float> w = inverse_masses(*mesh, 1000.0f);
    const std::vector<glm::vec3>& x = mesh->rest_positions;
    std::mt19937 rng(7);
    // A rigid motion, then the same with random wobble on top.
    const glm::vec3 drift(0.4f, -1.0f, 0.2f);
    const glm::vec3 spin(0.5f, 3.0f, -1.0f);
    std::vector<glm::vec3> rigid(x.size());
    for (size_t i = 0; i < x.size(); ++i) rigid[i] = drift + glm::cross(spin, x[i]);
    std::vector<glm::vec3> v = random_velocities(x.size(), rng);
    for (size_t i = 0; i < x.size(); ++i) v[i] += rigid[i];

    const float keep = 0.5f;
    const std::vector<glm::vec3> rigid_before = rigid;
    damp_wobble(*world, w, x, rigid, keep);
    EXPECT_LT(max_distance(rigid, rigid_before), 1e-5f) << "a rigid motion is left alone";

    const Motion before = motion_of(w, x, v);
    const double rigid_energy = rigid_kinetic_energy(w, x, v);
    damp_wobble(*world, w, x, v, keep);
    const Motion after = motion_of(w, x, v);
    std::printf("momentum %.6f -> %.6f, angular momentum %.6f -> %.6f, kinetic energy %.4f -> "
                "%.4f J (rigid %.4f J)\n",
                glm::length(before.momentum), glm::length(after.momentum),
                glm::length(before.angular_momentum), glm::length(after.angular_momentum),
                before.kinetic_energy, after.kinetic_energy, rigid_energy);
    EXPECT_LT(glm::length(after.momentum - before.momentum), 1e-5 * glm::length(before.momentum));
    EXPECT_LT(glm::length(after.angular_momentum - before.angular_momentum),
              1e-5 * glm::length(before.angular_momentum));
    // What is taken away is orthogonal to the rigid motion in the mass's
    // measure, so the energy beside it falls by keep^2.
    const double wobble_before = before.kinetic_energy - rigid_energy;
    const double wobble_after = after.kinetic_energy - rigid_energy;
    EXPECT_GT(wobble_before, 0.5 * before.kinetic_energy) << "the test's wobble is most of it";
    EXPECT_NEAR(wobble_after / wobble_before, keep * keep, 1e-4);
}

TEST(WobbleDamping, APinnedBodyLosesTheShareOfAllItsMotion)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::beam);
    const std::shared_ptr<const World> world = single_body_world(mesh);
    const std::vector<float> w = inverse_masses(*mesh, 1000.0f);
    std::mt19937 rng(11);
    std::vector<glm::vec3> v = random_velocities(mesh->vertex_count(), rng);
    size_t pinned = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (w[i] == 0.0f) {
            v[i] = glm::vec3(0.0f);
            ++pinned;
        }
    }
    ASSERT_GT(pinned, 0u);
    const std::vector<glm::vec3> before = v;
    const float keep = substep_math::sm_wobble_keep(3.0f, kFrameSeconds);
    damp_wobble(*world, w, mesh->rest_positions, v, keep);
    for (size_t i = 0; i < v.size(); ++i) {
        ASSERT_LT(glm::length(v[i] - keep * before[i]), 1e-6f) << i;
    }
}

// The cube released 30% long and spinning, in free space, at 1e5 Pa,
// without the material damping: it rings, and the wobble damping stills the
// ringing, not the spin.
TEST(WobbleDamping, StillsTheRingingOfASpinningCubeNotItsSpin)
{
    double excess[2] = {0.0, 0.0};
    for (int run = 0; run < 2; ++run) {
        SimParams params;
        params.youngs_modulus_pa = 1.0e5f;
        params.material_damping_s = 0.0f;
        params.wobble_damping_per_s = run == 0 ? 0.0f : 3.0f;
        excess[run] = spin_scenario::ringing_left_after_a_second(
            params, run == 0 ? "wobble damping 0 /s" : "wobble damping 3 /s");
    }
    EXPECT_GT(excess[0], 0.05);
    EXPECT_LT(excess[1], 0.1 * excess[0]);
}
