// Fixed simulation steps on a variable display rate: the simulation advances
// 1/60 s per step whatever the monitor does, as many steps as wall-clock time
// asks for, capped so that a slow machine slows the simulation down instead
// of freezing the window.
//
// Two caps: at most `max_steps_per_frame`, and no more steps than fit in a
// displayed frame's simulation budget at the measured cost of a step (at
// least one, so that the simulation always moves). A machine that needs
// 20 ms a step with a 30 ms budget shows one step per frame, in slow motion,
// at a steady frame rate, instead of four steps and a quarter of the rate.
#pragma once

#include <algorithm>
#include <cmath>

// Wall time a displayed frame gives the simulation, by default.
inline constexpr double kSimulationBudgetS = 0.030;

class FrameClock {
public:
    explicit FrameClock(double step_s = 1.0 / 60.0, int max_steps_per_frame = 4,
                        double simulation_budget_s = kSimulationBudgetS)
        : step_s_(step_s > 0.0 ? step_s : 1.0 / 60.0),
          max_steps_(std::max(max_steps_per_frame, 1)),
          budget_s_(std::max(simulation_budget_s, 0.0))
    {
    }

    // Adds the wall time since the last call; returns the steps to run now.
    int steps_due(double elapsed_s)
    {
        if (!(elapsed_s > 0.0)) {
            return 0;
        }
        pending_s_ += elapsed_s;
        // Clamped as doubles first: a long stall or a tiny cost must not
        // overflow the int.
        int steps = static_cast<int>(std::min(pending_s_ / step_s_, 1.0e6));
        int affordable = max_steps_;
        if (step_cost_s_ > 0.0) {
            affordable = static_cast<int>(
                std::clamp(budget_s_ / step_cost_s_, 1.0, static_cast<double>(max_steps_)));
        }
        if (steps > affordable) {
            steps = affordable;
            pending_s_ = 0.0;  // drop the backlog: slow down, do not spiral
        } else {
            pending_s_ -= steps * step_s_;
        }
        // Simulated over wall time, smoothed over about half a second.
        const double rate = steps * step_s_ / elapsed_s;
        const double weight = 1.0 - std::exp(-elapsed_s / kTimeScaleSmoothingS);
        time_scale_ += weight * (std::min(rate, 1.0) - time_scale_);
        return steps;
    }

    // The wall time the last frame's steps took, per step: the cost the
    // budget divides by. Smoothed, but a step that got much dearer (a finer
    // mesh, more iterations) counts at once.
    void record_step_cost(double seconds_per_step)
    {
        if (!(seconds_per_step > 0.0) || !std::isfinite(seconds_per_step)) {
            return;
        }
        step_cost_s_ = seconds_per_step > step_cost_s_
                           ? seconds_per_step
                           : step_cost_s_ + 0.2 * (seconds_per_step - step_cost_s_);
    }

    // A new world or a reset: no backlog. The cost estimate goes too, so
    // that a lighter world is not held back by the last one's.
    void clear()
    {
        pending_s_ = 0.0;
        step_cost_s_ = 0.0;
        time_scale_ = 1.0;
    }

    // Simulated seconds per wall second, recent: 1 in real time, 0.3 in
    // slow motion.
    double time_scale() const { return time_scale_; }

private:
    static constexpr double kTimeScaleSmoothingS = 0.5;
    double step_s_;
    int max_steps_;
    double budget_s_;
    double pending_s_ = 0.0;
    double step_cost_s_ = 0.0;  // 0: not measured yet
    double time_scale_ = 1.0;
};
