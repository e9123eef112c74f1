// Grabbing on the CPU solver: scripted drags (the --drag path), the yank
// limit, pinned vertices, picking; and the --drag parser.
#include "grab_scenarios.h"

TEST(CpuGrab, LiftAndRelease)
{
    CpuSolver solver;
    grab_scenarios::lift_and_release(solver);
}

TEST(CpuGrab, YankDoesNotExplodeOrInvert)
{
    CpuSolver solver;
    grab_scenarios::yank(solver);
}

TEST(CpuGrab, DragFasterThanAHandIsFollowedAtTheTopSpeed)
{
    CpuSolver solver;
    grab_scenarios::drag_faster_than_a_hand(solver);
}

TEST(CpuGrab, PullingTheBunnyByItsTopLiftsIt)
{
    CpuSolver solver;
    grab_scenarios::grab_lifts_the_bunny(solver);
}

TEST(GrabTarget, FollowsAtMostAtTheTopSpeed)
{
    const glm::vec3 from(1.0f, 2.0f, 3.0f);
    const float frame = 1.0f / 60.0f;
    const glm::vec3 near = from + glm::vec3(0.1f, 0.0f, 0.0f);
    EXPECT_EQ(speed_limited_target(from, near, frame), near) << "within reach: exactly there";
    const glm::vec3 far = from + glm::vec3(0.0f, 50.0f, 0.0f);
    const glm::vec3 got = speed_limited_target(from, far, frame);
    EXPECT_NEAR(glm::length(got - from), kGrabMaxTargetSpeed_m_s * frame, 1e-5f);
    EXPECT_NEAR(got.x, from.x, 1e-6f);
    // Beyond float's reach the direction still holds; nothing becomes NaN.
    const glm::vec3 huge = speed_limited_target(from, glm::vec3(3.0e38f), frame);
    EXPECT_TRUE(std::isfinite(huge.x) && std::isfinite(huge.y) && std::isfinite(huge.z));
    EXPECT_GT(huge.x, from.x);
    EXPECT_EQ(speed_limited_target(from, glm::vec3(INFINITY), frame), from);
}

TEST(CpuGrab, PinnedVertexStaysInPlace)
{
    CpuSolver solver;
    grab_scenarios::pinned_vertex_stays(solver);
}

TEST(CpuGrab, PickingHitsTheRightTriangleAndWeights)
{
    CpuSolver solver;
    grab_scenarios::picking(solver);
}

TEST(DragSpec, ParsesAndRefuses)
{
    Result<DragSpec> d = parse_drag("10:70:48:0.5,-1,2e-1");
    ASSERT_TRUE(d.ok()) << d.error();
    EXPECT_EQ(d.value().start_frame, 10);
    EXPECT_EQ(d.value().end_frame, 70);
    EXPECT_EQ(d.value().vertex, 48u);
    EXPECT_EQ(d.value().offset_m, glm::vec3(0.5f, -1.0f, 0.2f));
    for (const char* bad : {"", "1:2:3", "5:5:1:0,0,0", "7:3:1:0,0,0", "1:2:-4:0,0,0",
                            "1:2:3:0,0", "1:2:3:0,0,0x", "a:b:c:d,e,f", "1:2:3:nan,0,0"}) {
        Result<DragSpec> r = parse_drag(bad);
        EXPECT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().find("--drag"), std::string::npos) << r.error();
    }
    DragScript script({DragSpec{0, 5, 999999, glm::vec3(0.0f)}}, kDefaultGrabStiffness);
    EXPECT_FALSE(script.validate(*preset_mesh(PresetId::cube)).ok());
}

TEST(DragSpec, OverlappingDragTakesOverFromItsOwnStart)
{
    // The second drag starts while the first holds; when the first ends, the
    // second pulls from where its vertex was at its start, not from (0,0,0).
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    CpuSolver solver;
    solver.load(mesh);
    const uint32_t a = 0;
    const uint32_t b = static_cast<uint32_t>(mesh->vertex_count() - 1);
    DragScript script({DragSpec{0, 10, a, glm::vec3(0.0f, 0.2f, 0.0f)},
                       DragSpec{5, 20, b, glm::vec3(0.0f, 0.2f, 0.0f)}},
                      kDefaultGrabStiffness);
    for (int frame = 0; frame <= 10; ++frame) {
        script.before_frame(frame, solver);
        if (frame < 10) solver.step_frame(SimParams());
    }
    ASSERT_TRUE(script.current().has_value());
    EXPECT_EQ(script.current()->vertices.x, b);
    EXPECT_LT(glm::length(script.current()->target_m - mesh->rest_positions[b]), 0.5f);

    // A drag whose vertex the body lacks (another body loaded since) is skipped.
    DragScript stale({DragSpec{0, 5, 999999, glm::vec3(0.0f)}}, kDefaultGrabStiffness);
    stale.before_frame(0, solver);
    EXPECT_FALSE(stale.current().has_value());
}

TEST(GrabStrength, TheMouseGrabScalesWithTheBodysMass)
{
    // The mouse's grab is kDefaultGrabStrengthPerKg times the body's mass:
    // the 0.5 m cube is 125 kg at 1000 kg/m^3.
    const std::shared_ptr<const World> world = single_body_world(preset_mesh(PresetId::cube));
    EXPECT_NEAR(body_mass_kg(*world, 0, 1000.0f), 125.0, 1e-3);
    EXPECT_NEAR(body_mass_kg(*world, 0, 500.0f), 62.5, 1e-3);
    const std::shared_ptr<const World> bunny = single_body_world(preset_mesh(PresetId::bunny));
    const double bunny_kg = body_mass_kg(*bunny, 0, 1000.0f);
    std::printf("bunny: %.1f kg, grabbed at %.3g N/m by default\n", bunny_kg,
                bunny_kg * kDefaultGrabStrengthPerKg);
    EXPECT_GT(bunny_kg, 10.0);
}

TEST(DragScriptWorld, ADragEndsWhenTheWorldIsReplaced)
{
    // A drag's patch is made of the vertices of the world it began in; in
    // another world (a preset chosen in the window) they mean nothing.
    CpuSolver solver;
    solver.load(preset_mesh(PresetId::bunny));
    DragScript script({DragSpec{0, 60, 10, glm::vec3(0.0f, 0.5f, 0.0f)}}, kDefaultGrabStiffness);
    grab_scenarios::run_with_drags(solver, script, SimParams(), 0, 5);
    ASSERT_TRUE(script.current());
    EXPECT_GT(script.current()->anchors.size(), 3u);
    solver.load(preset_mesh(PresetId::cube));
    grab_scenarios::run_with_drags(solver, script, SimParams(), 5, 5);
    EXPECT_FALSE(script.current());
}
