// Writes the headless run's figures as a small JSON object.
#pragma once

#include "core/sim_params.h"
#include "core/sim_stats.h"

#include <optional>
#include <string>
#include <vector>

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
    std::vector<BodyStats> bodies;       // one per body of the world
    Momenta momenta;                     // the whole world's
    // The deepest any vertex lies inside another body or its own
    // (core/penetration.h), and inside another body; NaN when the
    // positions are not finite.
    double max_penetration_m = 0.0;
    double max_penetration_between_bodies_m = 0.0;
};

std::string report_to_json(const RunReport& report);
