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
