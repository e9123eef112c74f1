// The window's background thread: one job at a time, waited for on demand.
#include "app/background_steps.h"

#include <gtest/gtest.h>

#include <future>

TEST(BackgroundSteps, RunsTheJobAndShowsItsWritesOnceDone)
{
    BackgroundSteps steps;
    EXPECT_FALSE(steps.busy());
    int written = 0;
    steps.start([&] { written = 42; });
    steps.wait();
    EXPECT_FALSE(steps.busy());
    EXPECT_EQ(written, 42);
    steps.start([&] { written = 43; });  // the thread takes the next job
    steps.wait();
    EXPECT_EQ(written, 43);
}

TEST(BackgroundSteps, IsBusyUntilTheJobEndsAndWaitingCanGiveUp)
{
    BackgroundSteps steps;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    steps.start([released] { released.wait(); });
    EXPECT_TRUE(steps.busy());
    EXPECT_FALSE(steps.wait_for(0.02));  // still held
    EXPECT_TRUE(steps.busy());
    release.set_value();
    EXPECT_TRUE(steps.wait_for(60.0));
    EXPECT_FALSE(steps.busy());
}

TEST(BackgroundSteps, EndingWaitsForTheRunningJob)
{
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    bool finished = false;
    std::thread releaser;
    {
        BackgroundSteps steps;
        steps.start([released, &finished] {
            released.wait();
            finished = true;
        });
        releaser = std::thread([&release] { release.set_value(); });
    }  // the destructor waits here
    EXPECT_TRUE(finished);
    releaser.join();
}
