// Where a frame's time goes, pass by pass, for the benchmark. A solver fills
// it only while pass timing is on, because measuring can itself cost time
// (the GPU solver brackets every pass with queries or waits).
#pragma once

#include <array>
#include <string>

struct PassTimes {
    double predict_ms = 0.0;   // predict + reset of the multipliers
    double solve_ms = 0.0;     // the tet passes (every colour, or the Jacobi pass)
    double apply_ms = 0.0;     // Jacobi gather, ground and obstacles, or their projection
    double contact_find_ms = 0.0;   // the body contacts' spatial hash and search, per substep
    double contact_solve_ms = 0.0;  // the body contacts' steps, per iteration
    double grab_ms = 0.0;      // the mouse attachment, when grabbing
    double velocity_ms = 0.0;  // velocity update with friction
    double normals_ms = 0.0;   // once per frame
    double other_ms = 0.0;     // parameter upload, residual reduction, ...
    std::string clock;         // how it was measured, e.g. "wall", "GL timer queries"

    // Every figure above, for code that treats them alike (sums, means).
    static constexpr size_t kPasses = 9;
    std::array<double*, kPasses> passes()
    {
        return {&predict_ms,       &solve_ms,    &apply_ms,   &contact_find_ms, &contact_solve_ms,
                &grab_ms,          &velocity_ms, &normals_ms, &other_ms};
    }

    double total_ms() const
    {
        return predict_ms + solve_ms + apply_ms + contact_find_ms + contact_solve_ms + grab_ms +
               velocity_ms + normals_ms + other_ms;
    }
};

// One program's share of a GPU frame (GpuSolver::dispatch_profile).
struct ProgramTime {
    std::string program;  // the compute shader's file, or the command stamped
    double ms_per_frame = 0.0;
    double dispatches_per_frame = 0.0;  // 0 for a command that is no dispatch (a clear)
};
