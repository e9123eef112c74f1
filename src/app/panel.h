// The Dear ImGui control panel: presets, run controls, material, solver,
// statistics and recent messages. It edits PanelState; the application
// acts on the requests it leaves there.
#pragma once

#include "app/body_view.h"
#include "app/render_settings.h"
#include "app/scene.h"
#include "core/sim_params.h"

#include <optional>
#include <string>
#include <vector>

struct PanelState {
    // Edited live.
    SimParams params;
    // The body whose material the sliders edit (selected by grabbing it),
    // or none: all bodies together.
    std::optional<size_t> selected_body;
    bool paused = false;
    bool wireframe = false;
    bool follow = false;
    bool show_help = false;  // F1: the keys, over the picture
    bool arena = false;      // walls around the stage keep thrown bodies on it  // the camera follows the selected body (or all of them)
    RenderSettings render;
    BodyView view;  // own surface or tets, strain colours (V)
    std::string render_note;  // why the settings are what they are (a software renderer)
    float grab_strength_per_kg = kDefaultGrabStrengthPerKg;  // N/m per kg of the grabbed body
    float grab_radius_fraction = kDefaultGrabRadiusFraction;

    // Requests, cleared by the application once handled.
    bool step_requested = false;
    bool reset_requested = false;
    bool frame_requested = false;  // the camera onto the selected body, or all
    bool defaults_requested = false;  // the remembered settings back to the defaults
    bool reload_shaders_requested = false;
    bool screenshot_requested = false;
    std::optional<PresetId> preset_requested;
    std::optional<std::string> scene_requested;  // a built-in scene by name
    std::optional<PresetId> add_requested;       // a preset into the running world
    bool remove_requested = false;               // the selected body out of it
    bool throw_requested = false;                // a small cube along the cursor's ray
    std::optional<std::string> file_requested;  // from the path field or a dropped file
    std::optional<std::string> file_add_requested;  // the path field's mesh into the world
    bool cancel_load_requested = false;

    // A file loading in the background: a progress bar and a Cancel button
    // by the Load button while it runs.
    struct LoadingView {
        std::string path;
        std::string stage;   // "winding numbers"
        float fraction = 0.0f;
        double elapsed_s = 0.0;
        bool cancelling = false;
    };
    std::optional<LoadingView> loading;
    std::string load_error;  // why the last load failed or was refused, by the Load button
    bool show_mesh_file_section = false;  // opens it once (a load started or failed)

    // The mesh file field.
    char mesh_path[1024] = "";
    int mesh_resolution = kDefaultMeshResolution;
    std::optional<SolverKind> solver_requested;

    // The window columns the panel covered when last drawn (none when
    // collapsed): the picture centres on the rest.
    float covered_x0_px = 0.0f;
    float covered_x1_px = 0.0f;

    // Shown.
    double display_fps = 0.0;
    double frame_ms = 0.0;
    // Simulated time over wall time, smoothed: below 1 when the machine
    // cannot keep up and the simulation runs in slow motion.
    double time_scale = 1.0;
    bool material_ramping = false;  // a stiffening still taking effect (MaterialRamp)
    // Gauss-Seidel's sweeps keep up with the materials at this schedule
    // (Scene::sweeps_keep_up): else the bodies sag more than the material
    // set says. Always true under Jacobi.
    bool sweeps_keep_up = true;
    double simulation_ms = 0.0;           // per simulated frame
    const char* simulation_timing = "";   // how it was measured
    std::vector<float> simulation_ms_history;
    std::optional<float> residual;       // the solver's convergence readout
    std::vector<float> residual_history;
    std::string gl_description;
    std::string solver_note;  // why a choice was not possible, if so
    std::string solver_timing;  // how fast each solver ran the first world, if timed
};

void draw_panel(PanelState& state, const Scene& scene);

// The stress at the top of the strain view's colour scale, Pa: the panel's
// own value, or the automatic one for the selected body (body_view.h).
float strain_full_scale_pa(const PanelState& state, const Scene& scene);

// Adds a sample to a bounded history for the scrolling plot.
void push_history(std::vector<float>& history, float value, size_t capacity = 240);
