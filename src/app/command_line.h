// The command line of `softbody`. Parsing is separate from running so that
// the tests can check every flag and every refusal without a process.
#pragma once

#include "core/presets.h"
#include "core/result.h"
#include "core/sim_params.h"

#include <optional>
#include <string>
#include <vector>

struct Options {
    bool help = false;
    bool headless = false;
    std::string solver = "cpu";
    PresetId preset = PresetId::cube;
    int frames = 300;
    std::optional<int> substeps;
    std::optional<int> iterations;
    std::optional<float> youngs_modulus_pa;
    std::optional<float> poisson_ratio;
    std::optional<float> damping_per_s;
    std::string stats_path;           // --stats FILE.json
    std::string dump_positions_path;  // --dump-positions FILE
};

// Parses argv[1..]. A failure names the flag and what is wrong with it.
Result<Options> parse_command_line(const std::vector<std::string>& args);

// The simulation parameters the options ask for: the preset's suggested
// stiffness unless --youngs overrides it, then the other overrides.
SimParams params_from_options(const Options& options);

std::string usage_text();
