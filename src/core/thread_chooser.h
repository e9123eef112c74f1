// Whether the CPU solver's frames run on its whole team of threads or on
// one, chosen by timing both now and then. The colour-by-colour pass ends
// every colour in a barrier (dozens per iteration): on a machine whose other
// core is busy, a member waits at each one for its turn on the core, and
// two threads ran the bunny at 51 ms a frame where one took 30 ms. Results
// are the same bit for bit either way (the shares of a colour are
// independent), so the choice only changes the speed.
#pragma once

#include <algorithm>
#include <array>

class ThreadChooser {
public:
    // Frames timed for each choice (the first one of a trial, paying for
    // waking the workers, is left out), and frames the choice then holds
    // before both are timed again: 5 s of simulation.
    static constexpr int kTrialFrames = 5;
    static constexpr int kHoldFrames = 300;

    // Which to run the next frame on.
    bool team_next() const { return phase_ == Phase::holding ? team_chosen_ : phase_ == Phase::team; }
    // The choice the latest trials made (the team until they have).
    bool team_chosen() const { return team_chosen_; }

    // The wall time of the frame just run on team_next()'s choice.
    void record(double frame_seconds)
    {
        ++frames_;
        if (phase_ == Phase::holding) {
            if (frames_ >= kHoldFrames) start(Phase::team);
            return;
        }
        if (frames_ == 1) return;  // the warm-up frame
        times_[static_cast<size_t>(frames_ - 2)] = frame_seconds;
        if (frames_ < kTrialFrames + 1) return;
        const double median = median_of_times();
        if (phase_ == Phase::team) {
            team_median_s_ = median;
            start(Phase::one);
        } else {
            team_chosen_ = team_median_s_ <= median;
            start(Phase::holding);
        }
    }

    // Times both again from the next frame (a new mesh or team).
    void restart()
    {
        team_chosen_ = true;
        start(Phase::team);
    }

private:
    enum class Phase { team, one, holding };

    void start(Phase phase)
    {
        phase_ = phase;
        frames_ = 0;
    }

    double median_of_times()
    {
        std::array<double, kTrialFrames> sorted = times_;
        std::nth_element(sorted.begin(), sorted.begin() + kTrialFrames / 2, sorted.end());
        return sorted[kTrialFrames / 2];
    }

    Phase phase_ = Phase::team;
    int frames_ = 0;
    bool team_chosen_ = true;
    double team_median_s_ = 0.0;
    std::array<double, kTrialFrames> times_{};
};
