// What the window remembers between runs: its size, the solver and its
// schedule, friction, the grab, the render settings and the view toggles,
// in settings.json under $XDG_CONFIG_HOME/softbody (~/.config/softbody);
// Dear ImGui keeps the panel's place and size beside it in imgui.ini. The
// material is not remembered: each preset and scene brings its own. The
// command line wins over what was remembered.
#pragma once

#include "app/render_settings.h"
#include "core/grab.h"
#include "core/result.h"
#include "core/sim_params.h"

#include <glm/glm.hpp>

#include <optional>
#include <string>
#include <vector>

struct WindowSettings {
    std::optional<glm::ivec2> window_size;
    // Unset: this machine's own choice (the CPU solver and a cheap picture on
    // a software renderer), so that a choice made for llvmpipe does not
    // follow the user to a machine with a GPU.
    std::optional<std::string> solver;  // "gpu" or "cpu"
    std::optional<RenderSettings> render;
    // Only the schedule, friction, damping and contact of these; the
    // material and gravity belong to the world.
    SimParams params;
    float grab_strength_per_kg = kDefaultGrabStrengthPerKg;
    float grab_radius_fraction = kDefaultGrabRadiusFraction;
    bool wireframe = false;
    bool follow = false;
    bool arena = false;
    bool tet_boundary = false;  // the tets' boundary drawn instead of each body's own surface
    bool strain_view = false;
};

// The folder: $XDG_CONFIG_HOME/softbody, else $HOME/.config/softbody; empty
// when neither variable is set (nothing is then remembered).
std::string settings_directory();

// The settings as JSON, and back. Reading takes what it can: a key that is
// missing keeps `defaults`' value, one of the wrong type or out of range is
// skipped and named in `skipped`; values are clamped to ParamLimits. Fails
// only on text that is not a JSON object.
std::string settings_to_json(const WindowSettings& settings);
Result<WindowSettings> settings_from_json(const std::string& text, const WindowSettings& defaults,
                                          std::vector<std::string>& skipped);
