// Coulomb friction against the ground, against the rigid-block answer: a
// flat box on the ground with gravity tilted by theta is a box on a slope
// of angle theta. Above the static coefficient's angle (tan theta > mu_s) it
// slides down with the acceleration g (sin theta - mu_k cos theta). Below
// it, it should stay put, and does not quite: at tan 0.3 it creeps down at
// about 1 cm/s, because the static friction stops the velocity after each
// substep but keeps the slide the substep made (README, "Not done yet";
// docs/algorithm.md, 5).
#include "contact_worlds.h"
#include "test_support.h"

#include <cmath>
#include <cstdio>

using namespace contact_worlds;

namespace {

constexpr float kGravity = 9.81f;

// A 0.4 x 0.1 x 0.4 m box, four times wider than high so that it slides
// rather than tips, resting on the ground at the start.
WorldDesc box_on_slope(float tan_theta)
{
    const float theta = std::atan(tan_theta);
    WorldDesc desc;
    desc.name = "box on a slope";
    desc.gravity_m_s2 =
        glm::vec3(kGravity * std::sin(theta), -kGravity * std::cos(theta), 0.0f);
    desc.bodies.push_back(
        lattice_box("box", {0.4f, 0.1f, 0.4f}, {4, 1, 4}, {0.0f, 0.05f, 0.0f}, 1.0e6f));
    return desc;
}

float centroid_x(const World& world, const CpuSolver& solver)
{
    return compute_body_stats(world, solver.positions())[0].centroid_m.x;
}

}  // namespace

TEST(GroundFriction, BoxAboveTheStaticAngleSlidesWithTheKineticAcceleration)
{
    const float tan_theta = 0.8f;  // a box 4 times wider than high tips beyond 4
    const std::shared_ptr<const World> world = assembled(box_on_slope(tan_theta));
    ASSERT_TRUE(world);
    SimParams params = world_params(*world);
    params.air_damping_per_s = 0.0f;  // the rigid block's answer has none
    ASSERT_LT(params.static_friction, tan_theta);
    const float theta = std::atan(tan_theta);
    const float expected =
        kGravity * (std::sin(theta) - params.dynamic_friction * std::cos(theta));
    CpuSolver solver;
    solver.load(world);
    // From 0.25 s (the settling onto the ground over) to 1.25 s, by the centroid's
    // travel: x(t) = x0 + v0 t + a t^2 / 2 over three equally spaced times.
    run_frames(solver, params, 15);
    const float x0 = centroid_x(*world, solver);
    run_frames(solver, params, 30);
    const float x1 = centroid_x(*world, solver);
    run_frames(solver, params, 30);
    const float x2 = centroid_x(*world, solver);
    const float dt = 0.5f;
    const float measured = (x2 - 2.0f * x1 + x0) / (dt * dt);
    std::printf("box on a slope of tan 0.8: acceleration %.4f m/s^2, rigid block %.4f m/s^2\n",
                measured, expected);
    EXPECT_NEAR(measured, expected, 0.01f * expected);  // measured within 3e-5
}
