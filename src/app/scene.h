// What is being simulated: the current world (a preset alone, a loaded mesh
// alone, or a scene of many bodies and obstacles) and the solver running it,
// GPU or CPU. The window, the panel and the keys act on the scene; it never
// crashes on a failure, it reports and keeps going.
#pragma once

#include "app/background_steps.h"
#include "app/solver_trial.h"
#include "core/worker_team.h"
#include "core/presets.h"
#include "core/simd/tet_block_kernel.h"
#include "core/solver.h"
#include "core/surface_mesh.h"
#include "gpu/drawn_bodies.h"
#include "gpu/renderer.h"
#include "gpu/shader_library.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

enum class SolverKind { gpu, cpu };

class Scene {
public:
    // `compute_available`: the current GL context has compute shaders (4.3+).
    Scene(ShaderLibrary shaders, bool compute_available);

    // Builds and prepares the preset's mesh and starts it at its placed pose.
    // On failure the current body keeps running and the error says why. The
    // value is a note, empty unless something was worked around (no GPU
    // solver: the CPU one runs instead).
    Result<std::string> load_preset(PresetId id);
    // The same for a mesh file (.obj tetrahedralized at `resolution`,
    // .node/.ele, .tet), placed like the presets, loaded on this thread.
    Result<std::string> load_file(const std::string& path, int resolution);
    // A built-in scene by name (scenes.h), on this thread.
    Result<std::string> load_builtin_scene(const std::string& name);
    // The part of a load that needs the GL context: makes the solver and
    // buffers for a mesh prepared elsewhere (prepare_body_from_file, maybe
    // on another thread) and swaps the body in. On failure, `prepared`'s
    // included, the current body keeps running.
    Result<std::string> install_body(Result<TetMesh> prepared, std::optional<PresetId> preset);
    // The same for a whole world (a scene file loaded elsewhere, or a
    // built-in scene); `scene` names the built-in scene it is, if one.
    Result<std::string> install_world(Result<World> prepared, std::optional<PresetId> preset,
                                      std::optional<std::string> scene = std::nullopt);
    // Restarts the body from its placed pose; nothing without a body.
    void reset();
    // Whether the solver's convergence readout is not finite: a NaN or an
    // infinite position makes every residual it touches so. The readout
    // lags a frame on the GPU; reset() clears it.
    bool diverged();

    // Adds a body to the running world; the bodies already there keep
    // their positions and velocities. Reset then restarts the new world
    // from where every body was placed.
    Result<std::string> add_body(BodyDesc body);
    // Removes a body the same way; the last body cannot be removed.
    Result<std::string> remove_body(size_t body);
    // Replaces the world's obstacles (the arena walls on or off); the bodies
    // keep their positions and velocities. At most kMaxObstacles.
    Result<std::string> replace_obstacles(std::vector<Obstacle> obstacles);

    // Switching hands the current state over (one read-back, on request).
    // Asking for the GPU without compute shaders fails with the reason.
    Result<bool> set_solver(SolverKind kind);
    // Times a fresh solver of each kind on the world from its start, about
    // `seconds_each` each (time_solver_frames), leaving the running one
    // alone. Fails, saying why, where the GPU solver cannot be made.
    Result<SolverTrial> time_solvers(const SimParams& params, double seconds_each);
    // Recompiles the GPU passes; on failure the previous ones keep running.
    Result<bool> reload_shaders();

    void step_frame(const SimParams& params);
    // The CPU solver's frames, one per entry, on the background thread:
    // returns at once. Until they are done stepping() is true, the picture
    // and current_bounds() show the state they started from, and whatever
    // needs the solver waits for them. Only for the CPU solver.
    void start_steps(std::vector<SimParams> frames);
    bool stepping() const { return background_.busy(); }
    // Waits for the background frames, if any.
    void finish_steps() const { background_.wait(); }
    // The same for at most `seconds`; whether they are done.
    bool finish_steps_within(double seconds) const { return background_.wait_for(seconds); }
    // The wall time the latest background frames took, ms (once done).
    double background_steps_ms() const { return background_ms_; }

    // The mouse's grab, passed to the running solver (see Solver).
    std::optional<SurfaceHit> pick(const Ray& ray) const
    {
        finish_steps();
        return solver_->pick(ray);
    }
    void set_grab(const std::optional<Grab>& grab)
    {
        finish_steps();
        solver_->set_grab(grab);
    }
    // The grab of `hit` spread over the surface within `radius_fraction` of
    // its body's size (core/grab.h); the GPU solver reads positions back.
    Grab grab_patch(const SurfaceHit& hit, float radius_fraction, float stiffness_n_per_m) const;
    // Waits for the background frames: the solver is the caller's then.
    Solver& solver()
    {
        finish_steps();
        return *solver_;
    }
    // Its name and how it runs only while background frames run.
    const Solver& solver() const { return *solver_; }

    // The buffers to draw (DrawnBodies). For the CPU solver this uploads its
    // state. `stress_lame`, one pair per body, asks for the strain view's
    // stress. Without a body (the first file still loading): nothing.
    BodyDrawData draw_data(const std::vector<LameParameters>& stress_lame = {});
    // Each body's own surface, or the tets' boundary (rebuilt at once).
    void set_drawn_surface(DrawnSurface choice);
    DrawnSurface drawn_surface() const { return drawn_surface_; }
    const DrawnBodies& drawn_bodies() const { return *drawn_; }

    // Whether there is a body. Until the first load ends there is none, and
    // only loaded(), draw_data(), set_solver() and the loads may be called.
    bool loaded() const { return solver_ != nullptr; }
    // The preset running alone, or nullopt for a file or a scene.
    std::optional<PresetId> preset() const { return preset_; }
    // The built-in scene running, if one.
    const std::optional<std::string>& builtin_scene() const { return builtin_scene_; }
    const std::string& body_name() const { return world_->name; }
    SolverKind solver_kind() const { return kind_; }
    const TetMesh& mesh() const { return *world_->mesh; }
    const World& world() const { return *world_; }
    // Whether Gauss-Seidel's sweeps keep up with every body's material at
    // `params`' schedule, so that the body rests at the stiffness set
    // (core/warm_start.h). Needs a world.
    bool sweeps_keep_up(const SimParams& params) const;

    // Where a body (or, without one, the whole world) is now: its vertices'
    // bounds. The GPU solver reads the positions back for this (a stall), so
    // callers ask once a displayed frame at most. Nothing without a world,
    // for a body not in it, or once a position is not finite.
    std::optional<Bounds> current_bounds(std::optional<size_t> body) const;

    // Which body is drawn highlighted (the selected one), or none.
    void set_highlighted_body(std::optional<size_t> body);
    bool compute_available() const { return compute_available_; }

    // Threads of the CPU solver, from the next time one is made (--threads).
    void set_cpu_threads(int threads) { cpu_threads_ = threads; }
    // The CPU solver's tet kernel, from the next time one is made (--simd).
    void set_cpu_kernel(const TetBlockKernelInfo& kernel) { cpu_kernel_ = kernel; }
    // World bounds of the placed body at load, metres.
    glm::vec3 initial_min() const { return initial_min_; }
    glm::vec3 initial_max() const { return initial_max_; }

private:
    Result<std::unique_ptr<Solver>> make_solver(SolverKind kind);
    // Every vertex's position now: the CPU solver's own array, or the GPU
    // solver's read back (a stall) into read_back_.
    const std::vector<glm::vec3>& current_positions() const;
    // Installs a world made of `bodies` in this one's surroundings, carrying
    // over the state of the old bodies `kept` (indices, in the new order)
    // and giving the others their start.
    Result<std::string> rebuild_world(std::vector<BodyDesc> bodies,
                                      const std::vector<size_t>& kept,
                                      std::optional<std::vector<Obstacle>> obstacles = {});

    ShaderLibrary shaders_;
    bool compute_available_;
    int cpu_threads_ = default_thread_count();
    TetBlockKernelInfo cpu_kernel_ = available_tet_block_kernels().front();
    std::optional<PresetId> preset_;
    std::optional<std::string> builtin_scene_;
    SolverKind kind_ = SolverKind::cpu;
    std::shared_ptr<const World> world_;
    std::vector<float> small_tet_sizes_m_;  // per body of world_ (core/warm_start.h)
    std::unique_ptr<Solver> solver_;
    DrawnSurface drawn_surface_ = DrawnSurface::own;
    std::unique_ptr<DrawnBodies> drawn_;  // what the renderer gets of the bodies
    glm::vec3 initial_min_{0.0f};
    glm::vec3 initial_max_{0.0f};
    mutable std::vector<glm::vec3> read_back_;  // current_positions on the GPU solver
    // The CPU solver's state when the background frames started: what is
    // drawn while they run (the solver's own arrays are theirs then).
    std::vector<glm::vec3> shown_positions_;
    std::vector<glm::vec3> shown_normals_;
    double background_ms_ = 0.0;  // written by the job, read once it is done
    // Last: destroyed first, so that a running job finishes while the
    // solver it steps still exists.
    mutable BackgroundSteps background_;
};
