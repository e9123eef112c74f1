#include "app/solver_trial.h"

#include "gpu/gl_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <vector>

SolverFrames time_solver_frames(Solver& solver, const SimParams& params, double seconds)
{
    using Clock = std::chrono::steady_clock;
    const bool gpu = solver.runs_on_gpu();
    const auto step = [&] {
        const Clock::time_point start = Clock::now();
        solver.step_frame(params);
        if (gpu) {
            glFinish();
        }
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    };
    step();  // the warm-up
    std::vector<double> ms;
    double total_ms = 0.0;
    while (static_cast<int>(ms.size()) < kMaxTrialFrames &&
           (static_cast<int>(ms.size()) < kMinTrialFrames || total_ms < 1000.0 * seconds)) {
        ms.push_back(step());
        total_ms += ms.back();
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], static_cast<int>(ms.size())};
}

std::string SolverTrial::describe() const
{
    return fmt::format("timed at load: CPU {:.1f} ms a frame, GPU {:.1f}", cpu.median_ms,
                       gpu.median_ms);
}
