// The command line of `softbody`. Parsing is separate from running so that
// the tests can check every flag and every refusal without a process.
#pragma once

#include "app/body_view.h"
#include "app/drag_script.h"
#include "core/presets.h"
#include "core/result.h"
#include "core/simd/tet_block_kernel.h"
#include "core/sim_params.h"
#include "core/world.h"

#include <glm/glm.hpp>

#include <optional>
#include <string>
#include <vector>

struct Options {
    bool help = false;
    bool headless = false;
    bool bench = false;                 // --bench: time the solvers, print a table, exit
    // Default: cpu headless, auto in the window, both in --bench.
    std::optional<std::string> solver;
    std::string json_path;              // --json FILE: the benchmark's rows
    std::string bench_meshes = "all";   // --bench-meshes a,b,c
    bool bench_profile = false;         // --bench-profile: GPU time per program
    PresetId preset = PresetId::bunny;
    bool preset_given = false;        // --preset was on the command line
    std::string mesh_path;            // a file to simulate instead (positional or --mesh)
    std::string scene;                // --scene NAME or FILE.json: a world of bodies instead
    int mesh_resolution = kDefaultMeshResolution;  // --resolution: OBJ cells along the longest side
    std::optional<int> frames;          // default 300 headless; the window runs until closed
    std::optional<int> substeps;
    std::optional<int> iterations;
    std::optional<float> youngs_modulus_pa;
    std::optional<float> poisson_ratio;
    std::optional<float> damping_per_s;
    std::optional<float> material_damping_s;
    std::optional<float> wobble_damping_per_s;
    std::optional<SolverMethod> method;
    std::optional<int> threads;       // --threads: CPU solver threads (default: all)
    std::string simd;                 // --simd: the CPU's tet kernel by name (default: widest)
    std::string stats_path;           // --stats FILE.json
    std::string dump_positions_path;  // --dump-positions FILE
    std::string screenshot_path;      // --screenshot FILE.png
    BodyView view;                    // --view: what is drawn of the bodies
    bool view_given = false;
    glm::ivec2 size{1280, 720};       // --size WxH: window or offscreen image, pixels
    bool size_given = false;          // --size was on the command line
    std::vector<DragSpec> drags;      // --drag, repeatable
    float grab_stiffness_n_per_m = kDefaultGrabStiffness;  // --grab-stiffness

    // The window's "auto" becomes "cpu" where OpenGL draws on the CPU
    // (WindowApp::choose_defaults_for_the_renderer).
    std::string solver_or_default() const { return solver.value_or(headless ? "cpu" : "auto"); }
    int frames_or_default() const { return frames.value_or(300); }
    int threads_or_default() const;
    // The CPU solver's tet kernel: the one --simd names (checked by the
    // parser), else the widest this CPU runs.
    TetBlockKernelInfo tet_kernel_or_default() const;
};

// Parses argv[1..]. A failure names the flag and what is wrong with it.
Result<Options> parse_command_line(const std::vector<std::string>& args);

// The simulation parameters the options ask for: the preset's suggested
// stiffness unless --youngs overrides it, then the other overrides.
SimParams params_from_options(const Options& options);

// For a world: its own settings (apply_world_settings), then --youngs and
// --poisson for every body, over the scene's materials.
SimParams params_for_world(const Options& options, const World& world);

std::string usage_text();

// Every file the options ask to write (--stats, --dump-positions,
// --screenshot, --json) checked before anything runs: a missing folder or an
// unwritable file fails at once, naming the option and the path, instead of
// after the whole simulation.
Result<bool> check_output_paths(const Options& options);

// What the options run, for messages: "preset bunny, cpu solver, 300 frames"
// or "mesh 'a.obj' at resolution 12, gpu solver, window".
std::string describe_run(const Options& options);
