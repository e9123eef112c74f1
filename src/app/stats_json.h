// Writes the headless run's figures as a small JSON object.
#pragma once

#include "core/sim_params.h"
#include "core/sim_stats.h"

#include <optional>
#include <string>

struct RunReport {
    std::string preset;
    std::string solver;
    size_t vertices = 0;
    size_t tets = 0;
    int frames = 0;
    SimParams params;
    double ms_per_frame = 0.0;  // solver wall time
    SimStats stats;
    std::optional<float> mean_residual;  // the solver's convergence readout
    bool diverged = false;               // a position became NaN or infinite; `frames` ran
};

std::string report_to_json(const RunReport& report);
