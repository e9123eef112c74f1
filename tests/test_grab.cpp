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
