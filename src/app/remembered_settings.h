// The window's remembered settings (window_settings.h) against the panel:
// what a run starts from, what it leaves for the next one, and the panel's
// Defaults button. The rules: the command line wins for its run and is not
// remembered unless the panel changed it since; what the machine would
// choose by itself (the solver, the picture on a software renderer) is not
// remembered, so that a choice made for llvmpipe does not follow the user
// to a machine with a GPU; the material is never remembered.
#pragma once

#include "app/command_line.h"
#include "app/panel.h"
#include "app/window_settings.h"

#include <glm/glm.hpp>

#include <optional>
#include <string>

// The settings the last run left in `directory`, if any. A file that is not
// JSON, or keys that are not what they should be, are logged and left out.
std::optional<WindowSettings> read_remembered_settings(const std::string& directory);

// What this machine starts with by itself: the cheaper picture where
// OpenGL draws on the CPU (llvmpipe), and the solver: the CPU's there and
// without compute shaders, elsewhere the one timed faster on the first
// world (solver_trial.h); unknown where this run did not time them (a
// solver remembered or named on the command line). Choices that equal these
// are not remembered; with the solver unknown, the one running is.
struct MachineDefaults {
    bool software_renderer = false;
    std::optional<SolverKind> solver;
};

// The remembered settings into the panel where the command line did not say
// otherwise. Returns the solver to start on when the settings name one and
// the command line does not.
std::optional<SolverKind> apply_remembered_settings(const WindowSettings& remembered,
                                                    const Options& options,
                                                    const MachineDefaults& machine,
                                                    PanelState& panel);

// What to leave for the next run: the panel as it is now, less the
// command line's values the panel left alone (`before`'s are kept) and the
// machine's own choices. `window_size` in unscaled screen units.
WindowSettings settings_to_remember(const PanelState& panel, const Options& options,
                                    const std::optional<WindowSettings>& before,
                                    SolverKind solver, std::optional<glm::ivec2> window_size,
                                    const MachineDefaults& machine);

// The panel's Defaults: what a first run starts with, the material aside.
// Returns the solver to switch to, if another: the machine's own, else the
// command line's; none where neither is known (the caller times them).
std::optional<SolverKind> restore_default_settings(PanelState& panel, const Options& options,
                                                   const MachineDefaults& machine,
                                                   SolverKind current);
