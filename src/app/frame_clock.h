// Fixed simulation steps on a variable display rate: the simulation advances
// 1/60 s per step whatever the monitor does, as many steps as wall-clock time
// asks for, capped so that a slow machine slows the simulation down instead
// of falling further behind every frame.
#pragma once

class FrameClock {
public:
    explicit FrameClock(double step_s = 1.0 / 60.0, int max_steps_per_frame = 4)
        : step_s_(step_s), max_steps_(max_steps_per_frame) {}

    // Adds the wall time since the last call; returns the steps to run now.
    int steps_due(double elapsed_s)
    {
        if (!(elapsed_s > 0.0)) {
            return 0;
        }
        pending_s_ += elapsed_s;
        int steps = static_cast<int>(pending_s_ / step_s_);
        if (steps > max_steps_) {
            steps = max_steps_;
            pending_s_ = 0.0;  // drop the backlog: slow down, do not spiral
        } else {
            pending_s_ -= steps * step_s_;
        }
        return steps;
    }

    void clear() { pending_s_ = 0.0; }

private:
    double step_s_;
    int max_steps_;
    double pending_s_ = 0.0;
};
