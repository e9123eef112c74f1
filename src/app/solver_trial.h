// Which solver runs a world faster on this machine, found by running both
// for a moment: a CPU's few cores beside a desktop GPU, or a data-centre
// GPU beside a small preset, can go either way (the bunny took 9-16 ms a
// frame on two cores of a 2-vCPU AMD EPYC and 23 ms on an NVIDIA H200).
// The window times both on its first world unless told which to run.
#pragma once

#include "core/sim_params.h"
#include "core/solver.h"

#include <string>

struct SolverFrames {
    double median_ms = 0.0;  // wall clock, the GPU's work finished (glFinish)
    int frames = 0;
};

// Steps `solver` (loaded, at the state it should start from) for about
// `seconds`: one frame to warm up (a GL driver compiles on first use), then
// at least kMinTrialFrames and at most kMaxTrialFrames. On the GPU each
// frame waits for its work to finish, as a window's frame does. Leaves the
// solver where the frames took it.
inline constexpr int kMinTrialFrames = 3;
inline constexpr int kMaxTrialFrames = 30;
SolverFrames time_solver_frames(Solver& solver, const SimParams& params, double seconds);

struct SolverTrial {
    SolverFrames cpu;
    SolverFrames gpu;

    bool cpu_faster() const { return cpu.median_ms < gpu.median_ms; }
    // "timed at load: CPU 9.8 ms a frame, GPU 23.1".
    std::string describe() const;
};
