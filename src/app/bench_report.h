// The benchmark's results: one row per (mesh, solver), printed as a table
// and written as JSON.
#pragma once

#include "core/pass_times.h"

#include <optional>
#include <string>
#include <vector>

struct BenchRow {
    std::string mesh;
    std::string solver;  // "cpu" or "gpu"
    std::string method;  // "gauss-seidel" or "jacobi"
    int threads = 1;     // CPU solver threads (1 for the GPU)
    // The team timed slower than one thread (a busy machine), and the
    // frames ran on one (ThreadChooser).
    bool ran_on_one_thread = false;
    std::string simd;    // the CPU tet kernel's instruction set; "-" on the GPU
    size_t vertices = 0;
    size_t tets = 0;
    int substeps = 0;
    int iterations = 0;
    int frames = 0;              // timed frames
    double ms_per_frame = 0.0;   // median
    double ms_p10 = 0.0;         // spread: 10th and 90th percentile
    double ms_p90 = 0.0;
    std::string frame_clock;     // how frames were timed
    std::optional<PassTimes> passes;  // mean per frame over a few extra frames
    // Memory per tet: on the CPU the heap the world and the solver hold
    // (mesh, solver arrays, contact tables), on the GPU the solver's buffers.
    double bytes_per_tet = 0.0;
    std::optional<uint64_t> dispatches_per_frame;  // GPU rows
    // GPU rows: how load() laid out the Gauss-Seidel tet pass, with what it
    // timed (GpuSolver::tet_pass_layout); a Jacobi row walks the colours so
    // only in its material damping.
    std::string tet_pass;
    // GPU rows with --bench-profile: the frame's time per program, the most
    // first (GpuSolver::dispatch_profile).
    std::vector<ProgramTime> profile;

    // tets x substeps x iterations per second of the median frame.
    double tet_solves_per_s() const;
};

// Header line, one line per row, and a legend naming the clocks.
std::string bench_table(const std::vector<BenchRow>& rows);

// A JSON list of row objects.
std::string bench_json(const std::vector<BenchRow>& rows, const std::string& machine);
