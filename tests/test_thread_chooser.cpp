// The CPU solver's choice between its team of threads and one thread.
#include "core/thread_chooser.h"

#include <gtest/gtest.h>

namespace {

// Runs `frames` frames, each taking `team_s` on the team and `one_s` on
// one thread; returns how many ran on the team.
int run(ThreadChooser& chooser, int frames, double team_s, double one_s)
{
    int on_team = 0;
    for (int f = 0; f < frames; ++f) {
        const bool team = chooser.team_next();
        on_team += team ? 1 : 0;
        chooser.record(team ? team_s : one_s);
    }
    return on_team;
}

}  // namespace

TEST(ThreadChooser, KeepsTheTeamWhereItIsFaster)
{
    ThreadChooser chooser;
    const int frames = 2 * (ThreadChooser::kTrialFrames + 1) + ThreadChooser::kHoldFrames;
    const int on_team = run(chooser, frames, 0.020, 0.025);
    EXPECT_TRUE(chooser.team_chosen());
    EXPECT_EQ(on_team, frames - (ThreadChooser::kTrialFrames + 1));  // one trial on one thread
}

TEST(ThreadChooser, TakesOneThreadWhereTheTeamLoses)
{
    // A busy machine: the bunny took 51 ms a frame on two threads, 30 ms on one.
    ThreadChooser chooser;
    run(chooser, 2 * (ThreadChooser::kTrialFrames + 1), 0.051, 0.030);
    EXPECT_FALSE(chooser.team_chosen());
    EXPECT_EQ(run(chooser, ThreadChooser::kHoldFrames - 1, 0.051, 0.030), 0);
    // Then both are timed again: the load has gone, the team wins back.
    run(chooser, 1 + 2 * (ThreadChooser::kTrialFrames + 1), 0.020, 0.025);
    EXPECT_TRUE(chooser.team_chosen());
}

TEST(ThreadChooser, OneSlowFrameDoesNotDecide)
{
    // The median of each trial: a single hiccup (a page fault, a context
    // switch) on the team's frames does not send the solver to one thread.
    ThreadChooser chooser;
    for (int f = 0; f < 2 * (ThreadChooser::kTrialFrames + 1); ++f) {
        const bool team = chooser.team_next();
        chooser.record(team ? (f == 3 ? 0.5 : 0.020) : 0.025);
    }
    EXPECT_TRUE(chooser.team_chosen());
}
