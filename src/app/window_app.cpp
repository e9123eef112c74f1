#include "app/window_app.h"

#include "app/added_body.h"
#include "app/frame_clock.h"
#include "app/log.h"
#include "app/mouse_grab.h"
#include "app/orbit_camera.h"
#include "app/panel.h"
#include "app/scene.h"
#include "app/scene_file.h"
#include "app/screenshot.h"
#include "app/window_loads.h"
#include "app/window_platform.h"
#include "app/remembered_settings.h"
#include "core/arena.h"
#include "core/body_materials.h"
#include "core/lattice.h"
#include "core/file_output.h"
#include "core/material_ramp.h"
#include "gpu/gl_loader.h"
#include "gpu/gpu_time_check.h"
#include "gpu/gpu_timer.h"
#include "gpu/grab_overlay.h"
#include "gpu/offscreen_target.h"
#include "gpu/renderer.h"
#include "gpu/renderer_kind.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <chrono>
#include <cmath>
#include <filesystem>

namespace {

// How long a picture waits for frames running beside the window.
constexpr double kRedrawWhileSteppingS = 0.05;

// How long the window times each solver on its first world: a few frames
// of a preset, at least three of anything.
constexpr double kSolverTrialSeconds = 0.3;

// Mouse drags that started outside the panel move the camera.
class CameraMouse {
public:
    void update(GLFWwindow* window, OrbitCamera& camera, float viewport_height_px)
    {
        double x = 0.0;
        double y = 0.0;
        glfwGetCursorPos(window, &x, &y);
        const glm::vec2 cursor(static_cast<float>(x), static_cast<float>(y));
        const glm::vec2 drag = cursor - last_;
        last_ = cursor;
        const bool right = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
        const bool middle = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
        if (!right && !middle) {
            dragging_ = false;
            return;
        }
        if (!dragging_) {
            // A drag belongs to whatever it started on.
            dragging_ = !ImGui::GetIO().WantCaptureMouse;
            return;
        }
        if (right) camera.orbit(drag);
        if (middle) camera.pan(drag, viewport_height_px);
    }

private:
    glm::vec2 last_{0.0f};
    bool dragging_ = false;
};

// A failed write (full disk, read-only folder) is logged with its reason;
// the window goes on.
bool take_screenshot(const std::string& path, glm::ivec2 size)
{
    Result<bool> saved = save_framebuffer_png(path, size);
    if (saved) {
        spdlog::info("screenshot saved to {}", path);
    } else {
        spdlog::error("screenshot: {}", saved.error());
    }
    return saved.ok();
}

// The program with a window, one frame at a time: input, the requests the
// panel and the keys left, the simulation steps the clock asks for, the
// picture. Nothing here crashes on a failure: a bad file, a shader that does
// not compile or a solver that cannot run is reported in the panel and the
// log, and the running world goes on.
class WindowApp {
public:
    WindowApp(WindowPlatform& platform, const Options& options, std::string settings_directory,
              std::optional<WindowSettings> remembered)
        : platform_(platform),
          options_(options),
          settings_directory_(std::move(settings_directory)),
          remembered_(std::move(remembered)),
          scene_(shaders_, platform.gl_version() >= kMinimumComputeGlVersion),
          drags_(options.drags, options.grab_stiffness_n_per_m)
    {
    }

    // ImGui outlives this object (the platform owns it) and would save its
    // layout to a path freed with it, had an exception cut run() short.
    ~WindowApp() { ImGui::GetIO().IniFilename = nullptr; }
    WindowApp(const WindowApp&) = delete;
    WindowApp& operator=(const WindowApp&) = delete;

    // Returns the process exit code.
    int run()
    {
        start();
        while (exit_code_ == 0 && !platform_.should_close()) {
            if (!frame()) {
                break;
            }
        }
        loads_.cancel_and_wait();  // Esc or a closed window during a load
        log_display_rate();
        remember_settings();
        return exit_code_;
    }

private:
    // The first world: a preset or a built-in scene at once, a file in the
    // background (the window opens on an empty stage meanwhile).
    void start();
    // One displayed frame; false once the run is over (--frames).
    bool frame();
    void handle_key(int key);
    // The camera onto the selected body (or all bodies) as they are now.
    void frame_camera();
    // The panel's grab strength times the grabbed body's mass, N/m.
    float mouse_grab_stiffness() const;
    // Reset (R, the panel, or a diverged simulation): the world from its
    // start, the grab let go, the camera on it.
    void restart_world();
    // Follow mode: the camera's focus eases toward the selected body (or the
    // middle of all of them), about two thirds of the way in a quarter second.
    void follow_body(double elapsed_s);
    void read_input(const CameraView& view, glm::ivec2 window_size);
    void handle_requests();
    void step_simulation(double elapsed_s);
    // The panel's figures and the frame count once `steps` frames are done.
    void after_steps(int steps);
    // Takes the background frames' figures once they are done; false while
    // they still run.
    bool collect_background_steps();
    // Returns false when the run was for a picture that could not be saved.
    bool draw(const CameraView& view, glm::ivec2 framebuffer, glm::ivec2 window_size);
    // The panel's render settings into the renderer and the scene target; a
    // refusal (too big a shadow map, no multisampling) keeps what works and
    // says so. Binds the framebuffer the scene is drawn into.
    void prepare_scene_target(glm::ivec2 framebuffer);
    // A software renderer (llvmpipe) starts on the CPU solver, unless the
    // command line chose, and with a picture it can draw quickly; a GPU
    // times both solvers on the first world unless told which to run.
    void choose_defaults_for_the_renderer();
    // Runs the solver that the timing of both on this world finds faster.
    void choose_solver_by_timing();
    // The last run's settings where the command line did not say otherwise,
    // and the panel's layout file; then, on leaving, this run's.
    void start_from_remembered_settings();
    void remember_settings();
    // The panel's Defaults: what a first run starts with (the material stays).
    void restore_defaults();

    // After a load: the outcome in the panel and the log, the new world's
    // settings and obstacles, the camera on it.
    void after_load(const Result<std::string>& loaded, float youngs_pa);
    void load_preset(PresetId id);
    void load_builtin_scene(const std::string& name);
    // Swaps in a world loaded in the background. Until the first world is
    // there, a file that fails is replaced by the command line's preset;
    // false when even that fails.
    bool install_loaded(Result<World> loaded);
    // --drag against the first world, whenever it is there.
    bool drags_fit_the_world();
    // Bodies into and out of the running world, from the panel and keys.
    void edit_world();
    // Whether it was added; a failure is logged and shown in the panel.
    bool add_body(BodyDesc body, const char* what);
    // A mesh file's body, loaded in the background, into the running world.
    void add_loaded(Result<World> loaded, const std::string& path);
    // The obstacles and the pinned bodies' walls and markers into the renderer.
    void show_scenery();
    // The arena walls into or out of the world, as the panel asks.
    void update_arena();
    // The figures a user (or the benchmark notes) wants at the end: how
    // fast the window answered and how fast the simulation went.
    void log_display_rate() const;

    WindowPlatform& platform_;
    const Options& options_;
    const std::string settings_directory_;  // empty: nothing is remembered
    const std::optional<WindowSettings> remembered_;
    std::string imgui_ini_path_;  // ImGui keeps a pointer to it
    MachineDefaults machine_;  // the picture and solver this machine starts with
    const ShaderLibrary shaders_;
    Scene scene_;
    PanelState panel_;
    OrbitCamera camera_;
    std::unique_ptr<Renderer> renderer_;
    std::unique_ptr<GrabOverlay> grab_overlay_;
    // The picture multisampled or at a lower resolution, copied into the
    // window's single-sampled framebuffer before the panel is drawn; none
    // when drawn straight into the window.
    std::unique_ptr<OffscreenTarget> scene_target_;
    WindowLoads loads_;
    MouseGrab mouse_grab_;
    bool left_was_down_ = false;
    DragScript drags_;
    bool start_on_cpu_ = false;
    // Time both solvers on the first world and run the faster (--solver
    // auto, the default where OpenGL draws on a GPU).
    bool time_solvers_on_first_world_ = false;
    GpuTimer gpu_timer_;
    bool timer_works_ = false;
    FrameClock clock_;
    MaterialRamp material_ramp_;  // stiffening takes effect gradually
    CameraMouse camera_mouse_;
    float free_aspect_ = 16.0f / 9.0f;  // of the part of the window the panel leaves
    std::vector<Obstacle> own_obstacles_;  // the world's, without the arena walls
    bool arena_in_world_ = false;
    int frames_simulated_ = 0;
    std::optional<SimParams> stepped_params_;  // the latest frame's, ramped
    int background_frames_ = 0;  // frames the CPU solver is running beside the window
    double unstepped_s_ = 0.0;   // wall time since the last frames started
    Ray cursor_ray_{};  // this frame's, for throwing
    std::chrono::steady_clock::time_point last_frame_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point first_frame_ = last_frame_;
    int frames_displayed_ = 0;
    double draw_ms_total_ = 0.0;
    int exit_code_ = 0;
};

void WindowApp::start()
{
    scene_.set_cpu_threads(options_.threads_or_default());
    scene_.set_cpu_kernel(options_.tet_kernel_or_default());
    panel_.gl_description = gl_context_description();
    choose_defaults_for_the_renderer();
    panel_.params = params_from_options(options_);
    panel_.view = options_.view;  // the remembered one replaces it unless --view was given
    start_from_remembered_settings();
    std::snprintf(panel_.mesh_path, sizeof panel_.mesh_path, "%s", options_.mesh_path.c_str());
    panel_.mesh_resolution = options_.mesh_resolution;
    if (!scene_.drawn_bodies().note().empty()) {
        spdlog::warn("{}", scene_.drawn_bodies().note());
    }
    if (Result<std::unique_ptr<Renderer>> created = Renderer::create(shaders_); created) {
        renderer_ = std::move(created).value();
    } else {
        spdlog::error("{}", created.error());
        panel_.solver_note = created.error();
    }
    if (Result<std::unique_ptr<GrabOverlay>> overlay = GrabOverlay::create(shaders_); overlay) {
        grab_overlay_ = std::move(overlay).value();
    } else {
        spdlog::error("{}", overlay.error());
    }

    if (!options_.mesh_path.empty() || names_scene_file(options_.scene)) {
        loads_.request(options_.mesh_path.empty() ? options_.scene : options_.mesh_path,
                       options_.mesh_resolution, LoadPurpose::replace_world, panel_);
    } else {
        if (options_.scene.empty()) {
            load_preset(options_.preset);
        } else {
            load_builtin_scene(options_.scene);
        }
        if (!scene_.loaded()) {
            exit_code_ = 1;
        }
        if (options_.youngs_modulus_pa) {
            panel_.params.youngs_modulus_pa = *options_.youngs_modulus_pa;
            for (BodyMaterial& m : panel_.params.body_materials) {
                m.youngs_modulus_pa = *options_.youngs_modulus_pa;
            }
        }
    }
    if (exit_code_ == 0 && start_on_cpu_) {
        scene_.set_solver(SolverKind::cpu);  // without a world yet, the first one starts on it
    }
    if (scene_.loaded() && !drags_fit_the_world()) {
        exit_code_ = 2;
    }
}

bool WindowApp::frame()
{
    // Frames that outlast the budget run beside the window: it draws at
    // most about 20 pictures a second meanwhile, so as to leave them the
    // cores, and its panel, camera and keys still answer; what needs the
    // solver (a grab, Reset, a load) waits for them.
    scene_.finish_steps_within(kRedrawWhileSteppingS);
    glfwPollEvents();
    const auto now = std::chrono::steady_clock::now();
    const double elapsed_s = std::chrono::duration<double>(now - last_frame_).count();
    last_frame_ = now;

    GLFWwindow* window = platform_.window();
    glm::ivec2 framebuffer(0);
    glfwGetFramebufferSize(window, &framebuffer.x, &framebuffer.y);
    if (framebuffer.x == 0 || framebuffer.y == 0) {
        // Minimised: nothing to draw; do not spin.
        glfwWaitEventsTimeout(0.1);
        clock_.clear();
        return true;
    }
    glm::ivec2 window_size(0);
    glfwGetWindowSize(window, &window_size.x, &window_size.y);
    InputEvents& events = platform_.events();
    for (; !events.keys.empty(); events.keys.pop_front()) {
        handle_key(events.keys.front());
    }
    camera_mouse_.update(window, camera_, static_cast<float>(framebuffer.y));
    // The panel's columns from its last drawing: the picture centres on the rest.
    const FreeArea free =
        free_area(glm::vec2(window_size), panel_.covered_x0_px, panel_.covered_x1_px);
    free_aspect_ = free.aspect;
    // Not while dragging: the grabbed point would chase the cursor's ray
    // as the camera chased the body.
    if (panel_.follow && scene_.loaded() && !mouse_grab_.active()) {
        follow_body(elapsed_s);
    }
    const CameraView view =
        camera_.view(static_cast<float>(framebuffer.x) / framebuffer.y, free.shift_ndc);
    read_input(view, window_size);
    handle_requests();
    if (exit_code_ != 0) {
        return false;
    }
    step_simulation(elapsed_s);
    panel_.frame_ms = elapsed_s * 1000.0;
    panel_.display_fps = ImGui::GetIO().Framerate;
    if (frames_displayed_ == 0) {
        first_frame_ = now;  // the rate counts from the first picture, not the loading
    }
    const auto draw_start = std::chrono::steady_clock::now();
    const bool go_on = draw(view, framebuffer, window_size);
    draw_ms_total_ += std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - draw_start)
                          .count();
    ++frames_displayed_;
    return go_on;
}

void WindowApp::start_from_remembered_settings()
{
    if (!settings_directory_.empty()) {
        std::error_code error;
        std::filesystem::create_directories(settings_directory_, error);
        if (error) {
            spdlog::warn("settings: cannot make '{}': {}; nothing will be remembered",
                         settings_directory_, error.message());
        } else {
            imgui_ini_path_ = settings_directory_ + "/imgui.ini";
            ImGui::GetIO().IniFilename = imgui_ini_path_.c_str();
        }
    }
    if (remembered_) {
        if (const std::optional<SolverKind> solver =
                apply_remembered_settings(*remembered_, options_, machine_, panel_)) {
            start_on_cpu_ = *solver == SolverKind::cpu;
            time_solvers_on_first_world_ = false;  // the last run's choice stands
        }
    }
}

void WindowApp::remember_settings()
{
    if (imgui_ini_path_.empty()) {
        return;
    }
    if (frames_displayed_ == 0) {
        // ImGui reads its file in the first frame: saving now would empty it.
        ImGui::GetIO().IniFilename = nullptr;
        return;
    }
    ImGui::SaveIniSettingsToDisk(imgui_ini_path_.c_str());
    ImGui::GetIO().IniFilename = nullptr;  // the string goes with this object
    glm::ivec2 size(0);
    glfwGetWindowSize(platform_.window(), &size.x, &size.y);
#ifndef __APPLE__
    // GLFW_SCALE_TO_MONITOR multiplied the size asked for by the monitor's
    // scale: remember the size before that, or it grows every run.
    glm::vec2 scale(1.0f);
    glfwGetWindowContentScale(platform_.window(), &scale.x, &scale.y);
    if (scale.x > 0.0f && scale.y > 0.0f) {
        size = glm::ivec2(glm::round(glm::vec2(size) / scale));
    }
#endif
    const WindowSettings s = settings_to_remember(panel_, options_, remembered_,
                                                  scene_.solver_kind(), size, machine_);
    const std::string path = settings_directory_ + "/settings.json";
    if (Result<bool> written = write_whole_file(path, settings_to_json(s)); !written) {
        spdlog::warn("settings not remembered: {}", written.error());
    }
}

void WindowApp::restore_defaults()
{
    if (const std::optional<SolverKind> solver = restore_default_settings(
            panel_, options_, machine_, scene_.solver_kind())) {
        panel_.solver_requested = solver;
    } else if (!machine_.solver && options_.solver_or_default() == "auto" && scene_.loaded()) {
        choose_solver_by_timing();  // as a first run would
    }
    spdlog::info("settings back to the defaults");
}

float WindowApp::mouse_grab_stiffness() const
{
    const World& world = scene_.world();
    const size_t body = world.vertex_body[mouse_grab_.grab().vertices.x];
    const double mass_kg =
        body_mass_kg(world, body, panel_.params.body_material(body).density_kg_m3);
    return sanitized_grab_stiffness(
        static_cast<float>(panel_.grab_strength_per_kg * mass_kg));
}

void WindowApp::frame_camera()
{
    if (const std::optional<Bounds> bounds = scene_.current_bounds(panel_.selected_body)) {
        camera_.frame(bounds->lo, bounds->hi, free_aspect_);
    }
}

void WindowApp::follow_body(double elapsed_s)
{
    if (const std::optional<Bounds> bounds = scene_.current_bounds(panel_.selected_body)) {
        const float fraction = 1.0f - std::exp(-static_cast<float>(elapsed_s) / 0.25f);
        camera_.follow(0.5f * (bounds->lo + bounds->hi), fraction);
    }
}

void WindowApp::choose_defaults_for_the_renderer()
{
    const std::string renderer = gl_renderer_name();
    start_on_cpu_ = options_.solver_or_default() == "cpu";
    // Without compute shaders (OpenGL before 4.3) only the CPU solver runs.
    time_solvers_on_first_world_ =
        options_.solver_or_default() == "auto" && scene_.compute_available();
    if (!scene_.compute_available()) {
        machine_.solver = SolverKind::cpu;
    }
    if (!is_software_renderer(renderer)) {
        return;
    }
    machine_ = MachineDefaults{true, SolverKind::cpu};
    // Timed only when asked for: llvmpipe computes on the cores the CPU
    // solver and the drawing use.
    time_solvers_on_first_world_ = options_.solver == "auto" && scene_.compute_available();
    panel_.render = cheap_render_settings();
    if (!options_.solver) {
        start_on_cpu_ = true;
    }
    panel_.render_note = fmt::format(
        "{} draws on the CPU: the window started with a cheaper picture{}; the Render "
        "section changes it.",
        renderer.substr(0, renderer.find(' ')),
        start_on_cpu_ && !options_.solver ? " and the CPU solver, faster here" : "");
    spdlog::info("{}", panel_.render_note);
}

void WindowApp::prepare_scene_target(glm::ivec2 framebuffer)
{
    RenderSettings& wanted = panel_.render;
    if (renderer_ && wanted.shadow_map_texels != renderer_->shadow_map_texels()) {
        if (Result<bool> made = renderer_->set_shadow_map_texels(wanted.shadow_map_texels);
            !made) {
            spdlog::warn("shadow map: {}", made.error());
            panel_.render_note = made.error();
            wanted.shadow_map_texels = renderer_->shadow_map_texels();
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, framebuffer.x, framebuffer.y);
    const glm::ivec2 size = scaled_picture_size(framebuffer, wanted.resolution_scale);
    if (wanted.msaa_samples <= 0 && size == framebuffer) {
        scene_target_.reset();  // straight into the window
        return;
    }
    if (!scene_target_ || scene_target_->size() != size ||
        scene_target_->samples() != wanted.msaa_samples) {
        scene_target_.reset();  // the old one's memory first
        Result<std::unique_ptr<OffscreenTarget>> target =
            OffscreenTarget::create(size, wanted.msaa_samples);
        if (!target) {
            spdlog::warn("drawing straight into the window: {}", target.error());
            panel_.render_note = "drawing straight into the window: " + target.error();
            wanted.msaa_samples = 0;
            wanted.resolution_scale = 1.0f;
            return;
        }
        scene_target_ = std::move(target).value();
        if (scene_target_->samples() != wanted.msaa_samples) {
            // The driver gave fewer samples: show what it gave.
            spdlog::info("anti-aliasing: {} samples asked, {} given", wanted.msaa_samples,
                         scene_target_->samples());
            wanted.msaa_samples = scene_target_->samples();
        }
    }
    scene_target_->bind();
}

void WindowApp::handle_key(int key)
{
    switch (key) {
    case GLFW_KEY_R: panel_.reset_requested = true; break;
    case GLFW_KEY_F: panel_.frame_requested = true; break;
    case GLFW_KEY_G: panel_.follow = !panel_.follow; break;
    case GLFW_KEY_SPACE: panel_.paused = !panel_.paused; break;
    case GLFW_KEY_N: panel_.step_requested = true; break;
    case GLFW_KEY_W: panel_.wireframe = !panel_.wireframe; break;
    case GLFW_KEY_V: panel_.view.strain = !panel_.view.strain; break;
    case GLFW_KEY_C: panel_.params.body_contact = !panel_.params.body_contact; break;
    case GLFW_KEY_T: panel_.throw_requested = true; break;
    case GLFW_KEY_DELETE: panel_.remove_requested = true; break;
    case GLFW_KEY_F1: panel_.show_help = !panel_.show_help; break;
    case GLFW_KEY_F5: panel_.reload_shaders_requested = true; break;
    case GLFW_KEY_F12: panel_.screenshot_requested = true; break;
    case GLFW_KEY_ESCAPE: platform_.request_close(); break;
    default:
        if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + static_cast<int>(all_presets().size())) {
            panel_.preset_requested = all_presets()[static_cast<size_t>(key - GLFW_KEY_1)].id;
        }
    }
}

void WindowApp::read_input(const CameraView& view, glm::ivec2 window_size)
{
    GLFWwindow* window = platform_.window();
    double cursor_x = 0.0;
    double cursor_y = 0.0;
    glfwGetCursorPos(window, &cursor_x, &cursor_y);
    const Ray ray = cursor_ray(view, glm::vec2(cursor_x, cursor_y), glm::vec2(window_size));
    cursor_ray_ = ray;
    const bool left_down = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    if (left_down && !left_was_down_ && !ImGui::GetIO().WantCaptureMouse && scene_.loaded() &&
        mouse_grab_.begin(scene_, ray, view, panel_.grab_radius_fraction)) {
        const glm::vec3 at = mouse_grab_.grab().target_m;
        // Grabbing a body selects it: the material sliders edit it.
        const size_t body = scene_.world().vertex_body[mouse_grab_.grab().vertices.x];
        if (scene_.world().body_count() > 1) {
            panel_.selected_body = body;
        }
        spdlog::info("grabbed the body {} ({}) at ({:.3f}, {:.3f}, {:.3f}) m", body + 1,
                     scene_.world().bodies[body].name, at.x, at.y, at.z);
        if (panel_.paused) {
            // Like the best demos: grabbing a paused body starts it.
            panel_.paused = false;
            spdlog::info("grabbing starts the simulation");
        }
    } else if (!left_down && left_was_down_ && mouse_grab_.active()) {
        mouse_grab_.end(scene_);
        spdlog::info("released");
    }
    left_was_down_ = left_down;
    mouse_grab_.drag(ray);
    const float wheel = std::exchange(platform_.events().scroll_steps, 0.0f);
    if (mouse_grab_.active()) {
        mouse_grab_.push(-wheel, view);  // wheel up pulls the body nearer
    } else {
        camera_.zoom(wheel);
    }
}

void WindowApp::handle_requests()
{
    if (panel_.preset_requested) {
        mouse_grab_.end(scene_);
        load_preset(*std::exchange(panel_.preset_requested, std::nullopt));
        clock_.clear();
    }
    if (panel_.scene_requested) {
        mouse_grab_.end(scene_);
        load_builtin_scene(*std::exchange(panel_.scene_requested, std::nullopt));
        clock_.clear();
    }
    InputEvents& events = platform_.events();
    for (; !events.dropped_files.empty(); events.dropped_files.pop_front()) {
        panel_.file_requested = events.dropped_files.front();
        std::snprintf(panel_.mesh_path, sizeof panel_.mesh_path, "%s",
                      panel_.file_requested->c_str());
    }
    if (panel_.file_requested) {
        loads_.request(*std::exchange(panel_.file_requested, std::nullopt),
                       panel_.mesh_resolution, LoadPurpose::replace_world, panel_);
    }
    if (panel_.file_add_requested) {
        loads_.request(*std::exchange(panel_.file_add_requested, std::nullopt),
                       panel_.mesh_resolution, LoadPurpose::add_to_world, panel_);
    }
    if (std::exchange(panel_.cancel_load_requested, false)) {
        loads_.cancel();
    }
    std::optional<Result<World>> finished = loads_.poll(panel_);
    if (finished && loads_.purpose() == LoadPurpose::add_to_world && scene_.loaded()) {
        add_loaded(std::move(*finished), loads_.path());
    } else if (finished) {
        const bool first_world = !scene_.loaded();
        if (!install_loaded(std::move(*finished))) {
            exit_code_ = 1;
            return;
        }
        if (first_world && !drags_fit_the_world()) {
            exit_code_ = 2;
            return;
        }
        clock_.clear();
    }
    if (scene_.loaded()) {
        edit_world();
        update_arena();
    }
    if (std::exchange(panel_.reset_requested, false)) {
        restart_world();
    }
    if (std::exchange(panel_.frame_requested, false)) {
        frame_camera();
    }
    if (std::exchange(panel_.defaults_requested, false)) {
        restore_defaults();
    }
    if (panel_.solver_requested) {
        Result<bool> switched =
            scene_.set_solver(*std::exchange(panel_.solver_requested, std::nullopt));
        panel_.solver_note = switched ? "" : switched.error();
        if (!switched) spdlog::warn("{}", switched.error());
    }
    if (std::exchange(panel_.reload_shaders_requested, false)) {
        Result<bool> reloaded = scene_.reload_shaders();
        if (reloaded) {
            spdlog::info("shaders reloaded");
            panel_.solver_note.clear();
        } else {
            spdlog::error("{} (keeping the previous shaders)", reloaded.error());
            panel_.solver_note = "shader reload failed, previous shaders kept: see the log";
        }
    }
}

void WindowApp::restart_world()
{
    mouse_grab_.end(scene_);
    scene_.reset();
    clock_.clear();
    material_ramp_.reset();  // back at rest: the material applies at once
    if (scene_.loaded()) {
        camera_.frame(scene_.initial_min(), scene_.initial_max(), free_aspect_);
    }
}

void WindowApp::step_simulation(double elapsed_s)
{
    // While the CPU's frames run in the background the window only draws
    // (the state they started from) and answers; the wall time waits for
    // the next batch.
    unstepped_s_ += elapsed_s;
    if (!collect_background_steps()) {
        return;
    }
    elapsed_s = std::exchange(unstepped_s_, 0.0);
    if (!scene_.loaded()) {
        clock_.clear();  // nothing to simulate until the first world is there
    }
    int steps = panel_.paused || !scene_.loaded() ? 0 : clock_.steps_due(elapsed_s);
    panel_.time_scale = clock_.time_scale();
    if (std::exchange(panel_.step_requested, false) && scene_.loaded()) {
        steps = 1;
    }
    if (options_.frames) {
        steps = std::min(steps, *options_.frames - frames_simulated_);  // quit after N
    }
    if (steps <= 0) {
        return;
    }
    std::string note;
    const SimParams params = sanitized(panel_.params, &note);
    if (!note.empty()) {
        spdlog::warn("parameters clamped to their limits: {}", note);
        panel_.params = params;  // show the clamped values
    }
    if (mouse_grab_.active()) {
        mouse_grab_.apply(scene_, mouse_grab_stiffness(), steps * kFrameSeconds);
    }
    std::vector<SimParams> frames;
    for (int i = 0; i < steps; ++i) {
        frames.push_back(material_ramp_.next(params, kFrameSeconds));
    }
    panel_.material_ramping = material_ramp_.ramping();
    stepped_params_ = frames.back();
    // Jacobi starts every substep from zero: the warning is Gauss-Seidel's.
    panel_.sweeps_keep_up = frames.back().method == SolverMethod::jacobi ||
                            scene_.sweeps_keep_up(frames.back());
    const bool on_gpu = scene_.solver_kind() == SolverKind::gpu;
    // A scripted drag picks its frame exactly, so it steps here.
    if (!on_gpu && !drags_.any()) {
        scene_.start_steps(std::move(frames));
        background_frames_ = steps;
        // Frames that fit the budget are done before this picture is drawn,
        // as if stepped here: drawing beside them would slow them down
        // (llvmpipe draws on the same cores).
        scene_.finish_steps_within(kSimulationBudgetS);
        collect_background_steps();
        return;
    }
    // GPU time from timer queries once they have shown a sane value; until
    // then (or where they never do) wall time around a fenced step.
    const bool use_timer = on_gpu && timer_works_;
    const auto start = std::chrono::steady_clock::now();
    if (on_gpu) gpu_timer_.begin();
    for (int i = 0; i < steps; ++i) {
        drags_.before_frame(frames_simulated_ + i, scene_.solver());
        scene_.step_frame(frames[static_cast<size_t>(i)]);
    }
    if (on_gpu) gpu_timer_.end(steps);
    if (on_gpu && !use_timer) glFinish();
    const double wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    // -1 without a query result. Until the queries are trusted every step
    // is fenced, and a query result (a few frames old) must agree with the
    // fenced time of this one.
    const double gpu_ms = on_gpu ? gpu_timer_.latest_ms().value_or(-1.0) : -1.0;
    timer_works_ = timer_works_ || (!use_timer && gpu_time_trustworthy(gpu_ms, wall_ms / steps));
    if (use_timer && gpu_ms >= 0.0) {
        panel_.simulation_ms = gpu_ms;
        panel_.simulation_timing = "GPU timer query";
    } else {
        panel_.simulation_ms = wall_ms / steps;
        panel_.simulation_timing = on_gpu ? "wall time, fenced" : "CPU wall time";
    }
    after_steps(steps);
}

bool WindowApp::collect_background_steps()
{
    if (scene_.stepping()) {
        return false;
    }
    if (background_frames_ > 0) {
        const int done = std::exchange(background_frames_, 0);
        panel_.simulation_ms = scene_.background_steps_ms() / done;
        panel_.simulation_timing = "CPU wall time";
        after_steps(done);
    }
    return true;
}

void WindowApp::after_steps(int steps)
{
    clock_.record_step_cost(panel_.simulation_ms / 1000.0);
    push_history(panel_.simulation_ms_history, static_cast<float>(panel_.simulation_ms));
    if (scene_.diverged()) {
        const std::string message = "the simulation of '" + scene_.body_name() +
                                    "' diverged (a position became NaN or infinite): "
                                    "restarted from its start";
        spdlog::error("{}", message);
        panel_.solver_note = message;
        restart_world();
    }
    panel_.residual = scene_.solver().latest_mean_residual();
    if (panel_.residual) {
        push_history(panel_.residual_history, *panel_.residual);
    }
    frames_simulated_ += steps;
}

bool WindowApp::draw(const CameraView& view, glm::ivec2 framebuffer, glm::ivec2 window_size)
{
    prepare_scene_target(framebuffer);
    const glm::ivec2 picture = scene_target_ ? scene_target_->size() : framebuffer;
    if (scene_.loaded()) {
        scene_.set_highlighted_body(panel_.selected_body);
    }
    if (renderer_) {
        RenderOptions render_options;
        render_options.wireframe = panel_.wireframe;
        render_options.soft_shadows = panel_.render.soft_shadows;
        scene_.set_drawn_surface(panel_.view.surface);
        std::vector<LameParameters> stress_lame;
        if (panel_.view.strain && scene_.loaded() && scene_.drawn_bodies().has_drawn_surface()) {
            // The materials the bodies were last stepped with: a stiffening
            // ramps in (MaterialRamp), and so does its stress.
            stress_lame = body_lame_parameters(stepped_params_.value_or(panel_.params),
                                               scene_.world());
            render_options.stress_full_scale_pa = strain_full_scale_pa(panel_, scene_);
        }
        const BodyDrawData body = scene_.draw_data(stress_lame);
        renderer_->draw(body, view, picture, render_options);
        const float pixel_scale = static_cast<float>(picture.y) / window_size.y;
        if (grab_overlay_ && mouse_grab_.active()) {
            grab_overlay_->draw(body.simulation_positions, mouse_grab_.grab(), view, pixel_scale);
        } else if (grab_overlay_ && drags_.current()) {
            grab_overlay_->draw(body.simulation_positions, *drags_.current(), view, pixel_scale);
        }
    } else {
        glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }
    if (scene_target_) {
        scene_target_->present_to(0, framebuffer);
    }
    platform_.begin_ui_frame();
    draw_panel(panel_, scene_);
    platform_.end_ui_frame();
    if (std::exchange(panel_.screenshot_requested, false)) {
        take_screenshot(timestamped_screenshot_name(), framebuffer);
    }
    const bool finishing = options_.frames && frames_simulated_ >= *options_.frames &&
                           !scene_.stepping();
    if (finishing && !options_.screenshot_path.empty() &&
        !take_screenshot(options_.screenshot_path, framebuffer)) {
        exit_code_ = 1;  // the run was for this picture
    }
    platform_.swap_buffers();
    return !finishing;
}

void WindowApp::after_load(const Result<std::string>& loaded, float youngs_pa)
{
    if (!loaded) {
        spdlog::error("{}", loaded.error());
        panel_.solver_note = loaded.error();
        return;
    }
    panel_.solver_note = loaded.value();
    if (!loaded.value().empty()) {
        spdlog::warn("{}", loaded.value());
    }
    // A new world starts with the default gravity and ground unless it sets
    // its own, and with its bodies' own materials; every material field is
    // set, not only the stiffness (the Poisson ratio of the command line).
    panel_.params.youngs_modulus_pa = youngs_pa;
    panel_.params.poisson_ratio = options_.poisson_ratio.value_or(SimParams().poisson_ratio);
    panel_.params.density_kg_m3 = SimParams().density_kg_m3;
    material_ramp_.reset();
    panel_.params.gravity_m_s2 = SimParams().gravity_m_s2;
    panel_.params.ground_enabled = true;
    apply_world_settings(scene_.world(), panel_.params);
    own_obstacles_ = scene_.world().obstacles;
    arena_in_world_ = false;  // update_arena adds the walls again if wanted
    panel_.selected_body.reset();
    show_scenery();
    camera_.frame(scene_.initial_min(), scene_.initial_max(), free_aspect_);
    const World& world = scene_.world();
    spdlog::info("{}: {} vertices, {} tets{}", scene_.body_name(), scene_.mesh().vertex_count(),
                 scene_.mesh().tet_count(),
                 world.body_count() == 1 && world.obstacles.empty()
                     ? ""
                     : fmt::format(", {} bodies, {} obstacles", world.body_count(),
                                   world.obstacles.size()));
    if (std::exchange(time_solvers_on_first_world_, false)) {
        choose_solver_by_timing();
    }
}

void WindowApp::choose_solver_by_timing()
{
    spdlog::info("timing both solvers on {} ...", scene_.body_name());
    const Result<SolverTrial> trial = scene_.time_solvers(panel_.params, kSolverTrialSeconds);
    if (!trial) {
        spdlog::warn("the solvers were not timed: {}", trial.error());
        return;
    }
    const SolverTrial& timed = trial.value();
    const SolverKind faster = timed.cpu_faster() ? SolverKind::cpu : SolverKind::gpu;
    machine_.solver = faster;
    panel_.solver_timing = timed.describe();
    spdlog::info("running the {} solver, the faster here ({}; {} and {} frames)",
                 timed.cpu_faster() ? "CPU" : "GPU", timed.describe(), timed.cpu.frames,
                 timed.gpu.frames);
    if (const Result<bool> switched = scene_.set_solver(faster); !switched) {
        spdlog::warn("{}", switched.error());
        panel_.solver_note = switched.error();
    }
}

void WindowApp::load_preset(PresetId id)
{
    after_load(scene_.load_preset(id), preset_info(id).suggested_youngs_pa);
}

void WindowApp::load_builtin_scene(const std::string& name)
{
    after_load(scene_.load_builtin_scene(name), panel_.params.youngs_modulus_pa);
}

bool WindowApp::install_loaded(Result<World> loaded)
{
    const bool first_world = !scene_.loaded();
    if (loaded) {
        if (!first_world) {
            mouse_grab_.end(scene_);
        }
        // The first world keeps the material of the command line.
        const float youngs_pa = first_world ? panel_.params.youngs_modulus_pa : kLoadedBodyYoungsPa;
        Result<std::string> installed = scene_.install_world(std::move(loaded), std::nullopt);
        if (installed) {
            after_load(installed, youngs_pa);
            return true;
        }
        // The mesh was fine; its solver was not (too large for the GPU).
        spdlog::error("{}", installed.error());
        panel_.load_error = installed.error();
        panel_.show_mesh_file_section = true;
    }
    // A failed or cancelled load was logged and shown when it ended.
    if (!first_world) {
        return true;  // the running world is untouched
    }
    spdlog::info("starting on the {} preset instead", preset_info(options_.preset).name);
    load_preset(options_.preset);
    if (options_.youngs_modulus_pa) {
        panel_.params.youngs_modulus_pa = *options_.youngs_modulus_pa;
    }
    return scene_.loaded();
}

void WindowApp::show_scenery()
{
    if (renderer_ && scene_.loaded()) {
        renderer_->set_obstacles(scene_.world().obstacles,
                                 pinned_fixtures(scene_.world(), panel_.params.ground_enabled));
    }
}

void WindowApp::update_arena()
{
    if (panel_.arena == arena_in_world_) {
        return;
    }
    std::vector<Obstacle> obstacles = own_obstacles_;
    if (panel_.arena) {
        const glm::vec3 lo = scene_.initial_min();
        const glm::vec3 hi = scene_.initial_max();
        const std::vector<Obstacle> walls =
            arena_walls(0.5f * (lo + hi), arena_half_size_m(lo, hi));
        obstacles.insert(obstacles.end(), walls.begin(), walls.end());
    }
    mouse_grab_.end(scene_);
    Result<std::string> replaced = scene_.replace_obstacles(std::move(obstacles));
    if (!replaced) {
        spdlog::warn("arena walls: {}", replaced.error());
        panel_.solver_note = "arena walls: " + replaced.error();
        panel_.arena = arena_in_world_;
        return;
    }
    arena_in_world_ = panel_.arena;
    show_scenery();
    spdlog::info("arena walls {}", arena_in_world_ ? "up" : "down");
}

bool WindowApp::add_body(BodyDesc body, const char* what)
{
    mouse_grab_.end(scene_);
    const BodyMaterial material = body.material.value_or(panel_.params.material());
    Result<std::string> added = scene_.add_body(std::move(body));
    if (!added) {
        spdlog::error("cannot add {}: {}", what, added.error());
        panel_.solver_note = added.error();
        return false;
    }
    // The bodies that had their own materials keep them; the new one too.
    if (!panel_.params.body_materials.empty() || !(material == panel_.params.material())) {
        panel_.params.body_materials.resize(scene_.world().body_count() - 1,
                                            panel_.params.material());
        panel_.params.body_materials.push_back(material);
    }
    show_scenery();
    spdlog::info("added {}: {} bodies, {} tets", what, scene_.world().body_count(),
                 scene_.mesh().tet_count());
    return true;
}

void WindowApp::add_loaded(Result<World> loaded, const std::string& path)
{
    if (!loaded) {
        return;  // logged and shown by the Load button when it ended
    }
    const BodyMaterial material{kLoadedBodyYoungsPa, 0.3f, 1000.0f};
    Result<BodyDesc> body = body_to_add(loaded.value(), camera_.focus(), material);
    std::string why;
    if (!body) {
        why = body.error();
        spdlog::error("cannot add {}: {}", path, why);
    } else if (!add_body(std::move(body).value(), path.c_str())) {
        why = panel_.solver_note;  // add_body logged it
    }
    if (!why.empty()) {
        // By the Load button, where the file was asked for.
        panel_.load_error = "cannot add " + path + ": " + why;
        panel_.show_mesh_file_section = true;
    }
}

void WindowApp::edit_world()
{
    if (const std::optional<PresetId> id = std::exchange(panel_.add_requested, std::nullopt)) {
        Result<TetMeshDesc> mesh = make_preset_mesh(*id, PresetPose::upright);
        if (!mesh) {
            spdlog::error("{}", mesh.error());
            return;
        }
        BodyDesc body;
        body.mesh = std::move(mesh).value();
        body.preset = id;
        // Above the camera's focus, high enough to clear what is there.
        const glm::vec3 focus = camera_.focus();
        body.position_m = glm::vec3(focus.x, std::max(focus.y, 0.0f) + 1.5f, focus.z);
        body.material = BodyMaterial{preset_info(*id).suggested_youngs_pa, 0.3f, 1000.0f};
        add_body(std::move(body), preset_info(*id).name);
    }
    if (std::exchange(panel_.throw_requested, false)) {
        // A 0.25 m jelly cube from just in front of the camera, at 8 m/s.
        BodyDesc body;
        body.mesh = box_lattice(glm::ivec3(4), glm::vec3(-0.125f), glm::vec3(0.25f));
        body.mesh.name = "thrown cube";
        body.position_m = cursor_ray_.origin_m + 0.6f * cursor_ray_.direction;
        body.velocity_m_s = 8.0f * cursor_ray_.direction;
        body.material = BodyMaterial{3.0e5f, 0.3f, 1000.0f};
        add_body(std::move(body), "a thrown cube");
    }
    if (std::exchange(panel_.remove_requested, false)) {
        if (!panel_.selected_body) {
            spdlog::warn("nothing selected to delete: grab a body first");
            return;
        }
        const size_t body = *panel_.selected_body;
        mouse_grab_.end(scene_);
        Result<std::string> removed = scene_.remove_body(body);
        if (!removed) {
            spdlog::warn("cannot delete body {}: {}", body + 1, removed.error());
            panel_.solver_note = removed.error();
            return;
        }
        if (body < panel_.params.body_materials.size()) {
            panel_.params.body_materials.erase(panel_.params.body_materials.begin() +
                                               static_cast<std::ptrdiff_t>(body));
        }
        material_ramp_.remove_body(body);
        panel_.selected_body.reset();
        show_scenery();
        spdlog::info("deleted body {}: {} bodies left", body + 1, scene_.world().body_count());
    }
}

void WindowApp::log_display_rate() const
{
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - first_frame_).count();
    if (frames_displayed_ < 2 || !(seconds > 0.0)) {
        return;
    }
    spdlog::info("{} frames displayed in {:.1f} s: {:.1f} fps, {:.1f} ms each drawing; {} "
                 "frames of 1/60 s simulated: {:.2f}x real time",
                 frames_displayed_, seconds, frames_displayed_ / seconds,
                 draw_ms_total_ / frames_displayed_, frames_simulated_,
                 frames_simulated_ * kFrameSeconds / seconds);
}

bool WindowApp::drags_fit_the_world()
{
    Result<bool> valid = drags_.validate(scene_.mesh());
    if (!valid) spdlog::error("{}", valid.error());
    return valid.ok();
}

}  // namespace

int run_window_app(const Options& options)
{
    // A scripted run (--frames) neither reads nor changes what is remembered.
    const std::string remembered_in = options.frames ? std::string() : settings_directory();
    std::optional<WindowSettings> remembered = read_remembered_settings(remembered_in);
    glm::ivec2 size = options.size;
    if (!options.size_given && remembered && remembered->window_size) {
        size = *remembered->window_size;
    }
    Result<std::unique_ptr<WindowPlatform>> platform = WindowPlatform::open(size);
    if (!platform) {
        spdlog::error("{}", platform.error());
        return 1;
    }
    // The application (and every GL object it owns) goes before the platform
    // takes the context down.
    int exit_code = 0;
    {
        WindowApp app(*platform.value(), options, remembered_in, std::move(remembered));
        exit_code = app.run();
    }
    return exit_code;
}
