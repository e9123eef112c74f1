// The material damping (tm_damp_strain_rate, docs/algorithm.md 2): one
// tet's step against what an implicit damping step must do, and a body
// ringing in free space with it and without.
#include "spin_scenario.h"
#include "test_support.h"

#include "core/tet_math.h"

#include <random>

namespace {

struct TetState {
    glm::vec3 x[4];
    glm::vec3 v[4];
    glm::vec4 w;
    glm::mat3 B;  // Dm^-1 of the rest shape
    float rest_volume;
};

// A tet of random rest shape, stretched, sheared and turned at random,
// its corners moving at random.
TetState random_tet(std::mt19937& random)
{
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    TetState s;
    glm::vec3 rest[4] = {{0, 0, 0}, {0.1f, 0, 0}, {0, 0.1f, 0}, {0, 0, 0.1f}};
    for (glm::vec3& r : rest) r += 0.03f * glm::vec3(unit(random), unit(random), unit(random));
    const glm::mat3 Dm(rest[1] - rest[0], rest[2] - rest[0], rest[3] - rest[0]);
    s.B = glm::inverse(Dm);
    s.rest_volume = glm::determinant(Dm) / 6.0f;
    glm::mat3 deformation(1.0f);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) deformation[i][j] += 0.4f * unit(random);
    for (int a = 0; a < 4; ++a) {
        s.x[a] = deformation * rest[a] + glm::vec3(1.0f, 2.0f, 3.0f);
        s.v[a] = glm::vec3(unit(random), unit(random), unit(random));
    }
    s.w = glm::vec4(1.0f + unit(random) * 0.5f, 2.0f, 0.7f, 1.0f + unit(random) * 0.5f) * 100.0f;
    return s;
}

struct Damped {
    glm::vec3 dv[4];
};

Damped damp(const TetState& s, float alpha_shape, float alpha_volume)
{
    Damped d;
    tet_math::tm_damp_strain_rate(s.x[0], s.x[1], s.x[2], s.x[3], s.v[0], s.v[1], s.v[2],
                                  s.v[3], s.w, s.B, s.rest_volume, alpha_shape, alpha_volume,
                                  true, d.dv[0], d.dv[1], d.dv[2], d.dv[3]);
    return d;
}

double kinetic_energy(const TetState& s, const glm::vec3* dv)
{
    double energy = 0.0;
    for (int a = 0; a < 4; ++a) {
        const glm::dvec3 v = glm::dvec3(s.v[a]) + (dv ? glm::dvec3(dv[a]) : glm::dvec3(0.0));
        energy += 0.5 * glm::dot(v, v) / double(s.w[a]);
    }
    return energy;
}

}  // namespace

// Momentum and angular momentum unchanged, kinetic energy never gained, at
// compliances from stiff to soft, tets strained and turned at random.
TEST(MaterialDamping, TetStepKeepsMomentaAndNeverAddsEnergy)
{
    std::mt19937 random(11);
    int damped = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const TetState s = random_tet(random);
        const float alpha = std::pow(10.0f, -2.0f + 6.0f * float(trial % 7) / 6.0f);
        const Damped d = damp(s, alpha, 3.0f * alpha);
        glm::dvec3 momentum(0.0), angular(0.0);
        double scale = 0.0;
        for (int a = 0; a < 4; ++a) {
            const glm::dvec3 p = glm::dvec3(d.dv[a]) / double(s.w[a]);
            momentum += p;
            angular += glm::cross(glm::dvec3(s.x[a]), p);
            scale += glm::length(glm::dvec3(s.v[a])) / double(s.w[a]);
        }
        ASSERT_LT(glm::length(momentum), 1e-5 * scale) << trial;
        ASSERT_LT(glm::length(angular), 1e-5 * scale * 4.0) << trial;  // |x| < 4 m
        const double before = kinetic_energy(s, nullptr);
        const double after = kinetic_energy(s, d.dv);
        ASSERT_LE(after, before * (1.0 + 1e-5)) << trial;
        damped += after < 0.99 * before;
    }
    EXPECT_GT(damped, 1000);  // and it does damp
}

// A tet moving rigidly (a translation and a spin), however strained, is
// left alone: only strain rates are damped.
TEST(MaterialDamping, RigidMotionOfAStrainedTetIsLeftAlone)
{
    std::mt19937 random(5);
    for (int trial = 0; trial < 500; ++trial) {
        TetState s = random_tet(random);
        const glm::vec3 drift(0.3f, -1.0f, 2.0f);
        const glm::vec3 spin(3.0f, -2.0f, 1.0f);
        float speed = 0.0f;
        for (int a = 0; a < 4; ++a) {
            s.v[a] = drift + glm::cross(spin, s.x[a]);
            speed = std::max(speed, glm::length(s.v[a]));
        }
        const Damped d = damp(s, 0.01f, 0.03f);
        for (int a = 0; a < 4; ++a) ASSERT_LT(glm::length(d.dv[a]), 1e-4f * speed) << trial;
    }
}

// The cube released 30% long and spinning, in free space, at 1e5 Pa: it
// rings, and the material damping stills the ringing, not the spin.
TEST(MaterialDamping, StillsTheRingingOfASpinningCubeNotItsSpin)
{
    double excess[2] = {0.0, 0.0};
    for (int run = 0; run < 2; ++run) {
        SimParams params;
        params.youngs_modulus_pa = 1.0e5f;
        params.material_damping_s = run == 0 ? 0.0f : 0.003f;
        params.wobble_damping_per_s = 0.0f;  // the material damping alone
        excess[run] = spin_scenario::ringing_left_after_a_second(
            params, run == 0 ? "material damping 0 s" : "material damping 0.003 s");
    }
    EXPECT_GT(excess[0], 0.05);
    EXPECT_LT(excess[1], 0.1 * excess[0]);
}
