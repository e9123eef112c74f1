// Fixed 1/60 s simulation steps on a variable display rate.
#include "app/frame_clock.h"

#include <gtest/gtest.h>

TEST(FrameClock, RunsOneStepPerSixtiethOfASecond)
{
    FrameClock clock;
    int steps = 0;
    for (int i = 0; i < 144; ++i) {
        steps += clock.steps_due(1.0 / 144.0);  // a 144 Hz monitor, one second
    }
    EXPECT_NEAR(steps, 60, 1);
    steps = 0;
    for (int i = 0; i < 30; ++i) {
        steps += clock.steps_due(1.0 / 30.0);  // a 30 Hz one
    }
    EXPECT_NEAR(steps, 60, 1);
}

TEST(FrameClock, SlowMachineSlowsDownInsteadOfSpiralling)
{
    FrameClock clock(1.0 / 60.0, 4);
    EXPECT_EQ(clock.steps_due(0.5), 4);    // 30 steps due, 4 run
    EXPECT_EQ(clock.steps_due(1.0 / 60.0), 1);  // the backlog was dropped
    EXPECT_EQ(clock.steps_due(0.0), 0);
    EXPECT_EQ(clock.steps_due(-1.0), 0);   // a clock going backwards does nothing
}

TEST(FrameClock, StepsFitTheBudgetAtTheMeasuredCost)
{
    FrameClock clock(1.0 / 60.0, 4, 0.030);
    clock.record_step_cost(0.010);
    EXPECT_EQ(clock.steps_due(0.1), 3);  // 6 due, 3 fit in 30 ms
    clock.record_step_cost(0.050);       // dearer: counts at once
    EXPECT_EQ(clock.steps_due(0.1), 1);  // never fewer than one
    clock.clear();
    EXPECT_EQ(clock.steps_due(0.1), 4);  // a new world: not measured yet
}

TEST(FrameClock, TimeScaleShowsSlowMotion)
{
    FrameClock clock(1.0 / 60.0, 4, 0.030);
    for (int i = 0; i < 120; ++i) {
        clock.steps_due(1.0 / 60.0);
    }
    EXPECT_NEAR(clock.time_scale(), 1.0, 0.01);
    // 20 ms a step, 50 ms a displayed frame: one step each, a third of real time.
    clock.record_step_cost(0.020);
    for (int i = 0; i < 60; ++i) {
        EXPECT_EQ(clock.steps_due(0.050), 1);
    }
    EXPECT_NEAR(clock.time_scale(), (1.0 / 60.0) / 0.050, 0.01);
}

TEST(FrameClock, AbsurdTimesAndSettingsDoNotOverflow)
{
    FrameClock clock(1.0 / 60.0, 4, 0.030);
    clock.record_step_cost(1e-15);  // 3e13 steps would fit the budget
    EXPECT_EQ(clock.steps_due(1e30), 4);  // a clock that jumped a lifetime
    FrameClock nonsense(0.0, 0, -1.0);
    EXPECT_GE(nonsense.steps_due(1.0), 1);
}
