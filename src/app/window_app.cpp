#include "app/window_app.h"

#include "app/frame_clock.h"
#include "app/log.h"
#include "app/mouse_grab.h"
#include "app/orbit_camera.h"
#include "app/panel.h"
#include "app/scene.h"
#include "app/scene_file.h"
#include "core/body_materials.h"
#include "app/screenshot.h"
#include "app/window_loads.h"
#include "gpu/gl_loader.h"
#include "gpu/gpu_timer.h"
#include "gpu/grab_overlay.h"
#include "gpu/renderer.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <chrono>
#include <deque>

namespace {

// What the GLFW callbacks collect between two frames.
struct InputEvents {
    std::deque<int> keys;       // pressed keys
    float scroll_steps = 0.0f;  // wheel
    std::deque<std::string> dropped_files;
};

InputEvents& events_of(GLFWwindow* window)
{
    return *static_cast<InputEvents*>(glfwGetWindowUserPointer(window));
}

// Creates the window with the newest core context the driver gives:
// 4.6, 4.5, 4.3 (compute shaders), and 3.3 as the last resort, where the
// CPU solver runs and uploads positions every frame.
GLFWwindow* create_window(glm::ivec2 size)
{
    // A refused version is expected here, not an error worth a warning.
    GLFWerrorfun previous = glfwSetErrorCallback(nullptr);
    GLFWwindow* window = nullptr;
    for (const int version : {46, 45, 43, 33}) {
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, version / 10);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, version % 10);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_SAMPLES, 4);
        glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_TRUE);
        glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
        window = glfwCreateWindow(size.x, size.y, "softbody: XPBD soft bodies", nullptr, nullptr);
        if (window != nullptr) {
            break;
        }
        spdlog::info("no OpenGL {}.{} core context, trying an older one", version / 10,
                     version % 10);
    }
    glfwSetErrorCallback(previous);
    return window;
}

void key_callback(GLFWwindow* window, int key, int, int action, int)
{
    if (action == GLFW_PRESS && !ImGui::GetIO().WantCaptureKeyboard) {
        events_of(window).keys.push_back(key);
    }
}

void scroll_callback(GLFWwindow* window, double, double y)
{
    if (!ImGui::GetIO().WantCaptureMouse) {
        events_of(window).scroll_steps += static_cast<float>(y);
    }
}

void drop_callback(GLFWwindow* window, int count, const char** paths)
{
    for (int i = 0; i < count; ++i) {
        events_of(window).dropped_files.emplace_back(paths[i]);
    }
}

void handle_key(int key, PanelState& panel, GLFWwindow* window)
{
    switch (key) {
    case GLFW_KEY_R: panel.reset_requested = true; break;
    case GLFW_KEY_SPACE: panel.paused = !panel.paused; break;
    case GLFW_KEY_N: panel.step_requested = true; break;
    case GLFW_KEY_W: panel.wireframe = !panel.wireframe; break;
    case GLFW_KEY_C: panel.params.body_contact = !panel.params.body_contact; break;
    case GLFW_KEY_F5: panel.reload_shaders_requested = true; break;
    case GLFW_KEY_F12: panel.screenshot_requested = true; break;
    case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(window, GLFW_TRUE); break;
    default:
        if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + static_cast<int>(all_presets().size())) {
            panel.preset_requested = all_presets()[static_cast<size_t>(key - GLFW_KEY_1)].id;
        }
    }
}

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

// Shows the outcome of loading a body or a scene and frames it; on failure
// the running world is untouched and the panel and log say why. A new world
// starts with the default gravity and ground unless it sets its own, and
// with its bodies' own materials.
void after_load(const Result<std::string>& loaded, Scene& scene, PanelState& panel,
                OrbitCamera& camera, Renderer* renderer, float youngs_pa)
{
    if (!loaded) {
        spdlog::error("{}", loaded.error());
        panel.solver_note = loaded.error();
        return;
    }
    panel.solver_note = loaded.value();
    if (!loaded.value().empty()) {
        spdlog::warn("{}", loaded.value());
    }
    panel.params.youngs_modulus_pa = youngs_pa;
    panel.params.gravity_m_s2 = SimParams().gravity_m_s2;
    panel.params.ground_enabled = true;
    apply_world_settings(scene.world(), panel.params);
    panel.selected_body.reset();
    if (renderer) {
        renderer->set_obstacles(scene.world().obstacles);
    }
    camera.frame(scene.initial_min(), scene.initial_max());
    spdlog::info("{}: {} vertices, {} tets{}", scene.body_name(), scene.mesh().vertex_count(),
                 scene.mesh().tet_count(),
                 scene.world().body_count() == 1 && scene.world().obstacles.empty()
                     ? ""
                     : fmt::format(", {} bodies, {} obstacles", scene.world().body_count(),
                                   scene.world().obstacles.size()));
}

void apply_preset(Scene& scene, PresetId id, PanelState& panel, OrbitCamera& camera,
                  Renderer* renderer)
{
    after_load(scene.load_preset(id), scene, panel, camera, renderer,
               preset_info(id).suggested_youngs_pa);
}

void apply_builtin_scene(Scene& scene, const std::string& name, PanelState& panel,
                         OrbitCamera& camera, Renderer* renderer)
{
    after_load(scene.load_builtin_scene(name), scene, panel, camera, renderer,
               panel.params.youngs_modulus_pa);
}

// Swaps in a body loaded in the background (on this thread: the solver and
// buffers need the GL context). Until the first body is there, a file that
// fails is replaced by the preset of the command line, as the program has
// always started; returns false when even that fails.
bool install_loaded_file(Result<World> loaded, Scene& scene, PanelState& panel,
                         OrbitCamera& camera, Renderer* renderer, MouseGrab& mouse_grab,
                         const Options& options)
{
    const bool first_body = !scene.loaded();
    if (loaded) {
        if (!first_body) {
            mouse_grab.end(scene);
        }
        // The first body keeps the material of the command line.
        const float youngs_pa =
            first_body ? panel.params.youngs_modulus_pa : kLoadedBodyYoungsPa;
        Result<std::string> installed = scene.install_world(std::move(loaded), std::nullopt);
        if (installed) {
            after_load(installed, scene, panel, camera, renderer, youngs_pa);
            return true;
        }
        // The mesh was fine; its solver was not (too large for the GPU).
        spdlog::error("{}", installed.error());
        panel.load_error = installed.error();
        panel.show_mesh_file_section = true;
    }
    // A failed or cancelled load was logged and shown when it ended.
    if (!first_body) {
        return true;  // the running body is untouched
    }
    spdlog::info("starting on the {} preset instead", preset_info(options.preset).name);
    apply_preset(scene, options.preset, panel, camera, renderer);
    if (options.youngs_modulus_pa) {
        panel.params.youngs_modulus_pa = *options.youngs_modulus_pa;
    }
    return scene.loaded();
}

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

}  // namespace

int run_window_app(const Options& options)
{
    glfwSetErrorCallback([](int code, const char* text) {
        spdlog::warn("GLFW error {}: {}", code, text);
    });
    if (!glfwInit()) {
        spdlog::error("cannot initialise GLFW: no display? (try --headless)");
        return 1;
    }
    GLFWwindow* window = create_window(options.size);
    if (window == nullptr) {
        spdlog::error("cannot create a window with an OpenGL 3.3 or newer core context");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    if (gladLoadGL(glfwGetProcAddress) == 0) {
        spdlog::error("cannot load the OpenGL functions");
        glfwDestroyWindow(window);
        glfwTerminate();
        return 1;
    }
    glfwSwapInterval(1);
    const int gl_version = gl_context_version();
    spdlog::info("OpenGL {}", gl_context_description());

    InputEvents events;
    glfwSetWindowUserPointer(window, &events);
    glfwSetKeyCallback(window, key_callback);
    glfwSetScrollCallback(window, scroll_callback);
    glfwSetDropCallback(window, drop_callback);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::StyleColorsDark();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left in the working directory
    float scale_x = 1.0f;
    float scale_y = 1.0f;
    glfwGetWindowContentScale(window, &scale_x, &scale_y);
    ImGui::GetIO().FontGlobalScale = scale_y;
    ImGui_ImplGlfw_InitForOpenGL(window, true);  // chains to the callbacks above
    ImGui_ImplOpenGL3_Init(gl_version >= 43 ? "#version 430 core" : "#version 330 core");

    int exit_code = 0;
    {
        const ShaderLibrary shaders;
        Scene scene(shaders, gl_version >= kMinimumComputeGlVersion);
        scene.set_cpu_threads(options.threads_or_default());
        PanelState panel;
        panel.grab_stiffness_n_per_m = options.grab_stiffness_n_per_m;
        panel.gl_description = gl_context_description();
        panel.params = params_from_options(options);
        OrbitCamera camera;
        std::snprintf(panel.mesh_path, sizeof panel.mesh_path, "%s", options.mesh_path.c_str());
        panel.mesh_resolution = options.mesh_resolution;
        Result<std::unique_ptr<Renderer>> created = Renderer::create(shaders);
        std::unique_ptr<Renderer> renderer;
        if (created) {
            renderer = std::move(created).value();
        } else {
            spdlog::error("{}", created.error());
            panel.solver_note = created.error();
        }
        WindowLoads loads;
        if (!options.mesh_path.empty() || names_scene_file(options.scene)) {
            // In the background like any other file: the window opens at
            // once and draws the empty stage until this first world is there.
            loads.request(options.mesh_path.empty() ? options.scene : options.mesh_path,
                          options.mesh_resolution, panel);
        } else {
            if (options.scene.empty()) {
                apply_preset(scene, options.preset, panel, camera, renderer.get());
            } else {
                apply_builtin_scene(scene, options.scene, panel, camera, renderer.get());
            }
            if (!scene.loaded()) {
                exit_code = 1;
            }
            if (options.youngs_modulus_pa) {
                panel.params.youngs_modulus_pa = *options.youngs_modulus_pa;
                for (BodyMaterial& m : panel.params.body_materials) {
                    m.youngs_modulus_pa = *options.youngs_modulus_pa;
                }
            }
        }
        if (exit_code == 0 && options.solver_or_default() == "cpu") {
            scene.set_solver(SolverKind::cpu);  // without a body yet, the first one starts on it
        }

        Result<std::unique_ptr<GrabOverlay>> overlay_created = GrabOverlay::create(shaders);
        std::unique_ptr<GrabOverlay> grab_overlay;
        if (overlay_created) {
            grab_overlay = std::move(overlay_created).value();
        } else {
            spdlog::error("{}", overlay_created.error());
        }
        MouseGrab mouse_grab;
        bool left_was_down = false;
        DragScript drags(options.drags, options.grab_stiffness_n_per_m);
        // Checked against the first body, whenever it is there.
        const auto drags_fit_the_body = [&] {
            Result<bool> valid = drags.validate(scene.mesh());
            if (!valid) spdlog::error("{}", valid.error());
            return valid.ok();
        };
        if (scene.loaded() && !drags_fit_the_body()) {
            exit_code = 2;
        }


        GpuTimer gpu_timer;
        bool timer_works = false;
        FrameClock clock;
        CameraMouse mouse;
        int frames_simulated = 0;
        auto last = std::chrono::steady_clock::now();
        while (exit_code == 0 && !glfwWindowShouldClose(window)) {
            glfwPollEvents();
            const auto now = std::chrono::steady_clock::now();
            const double elapsed_s = std::chrono::duration<double>(now - last).count();
            last = now;

            glm::ivec2 framebuffer(0);
            glfwGetFramebufferSize(window, &framebuffer.x, &framebuffer.y);
            if (framebuffer.x == 0 || framebuffer.y == 0) {
                // Minimised: nothing to draw; do not spin.
                glfwWaitEventsTimeout(0.1);
                clock.clear();
                continue;
            }

            for (; !events.keys.empty(); events.keys.pop_front()) {
                handle_key(events.keys.front(), panel, window);
            }
            mouse.update(window, camera, static_cast<float>(framebuffer.y));
            const float aspect = static_cast<float>(framebuffer.x) / framebuffer.y;
            const CameraView view = camera.view(aspect);
            glm::ivec2 window_size(0);
            glfwGetWindowSize(window, &window_size.x, &window_size.y);
            double cursor_x = 0.0;
            double cursor_y = 0.0;
            glfwGetCursorPos(window, &cursor_x, &cursor_y);
            const Ray ray = cursor_ray(view, glm::vec2(cursor_x, cursor_y), glm::vec2(window_size));
            const bool left_down =
                glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
            if (left_down && !left_was_down && !ImGui::GetIO().WantCaptureMouse && scene.loaded() &&
                mouse_grab.begin(scene, ray, view, panel.grab_stiffness_n_per_m)) {
                const glm::vec3 at = mouse_grab.grab().target_m;
                // Grabbing a body selects it: the material sliders edit it.
                const size_t body = scene.world().vertex_body[mouse_grab.grab().vertices.x];
                if (scene.world().body_count() > 1) {
                    panel.selected_body = body;
                }
                spdlog::info("grabbed the body {} ({}) at ({:.3f}, {:.3f}, {:.3f}) m", body + 1,
                             scene.world().bodies[body].name, at.x, at.y, at.z);
                if (panel.paused) {
                    // Like the best demos: grabbing a paused body starts it.
                    panel.paused = false;
                    spdlog::info("grabbing starts the simulation");
                }
            } else if (!left_down && left_was_down && mouse_grab.active()) {
                mouse_grab.end(scene);
                spdlog::info("released");
            }
            left_was_down = left_down;
            mouse_grab.drag(ray);
            const float wheel = std::exchange(events.scroll_steps, 0.0f);
            if (mouse_grab.active()) {
                mouse_grab.push(-wheel, view);  // wheel up pulls the body nearer
            } else {
                camera.zoom(wheel);
            }

            if (panel.preset_requested) {
                mouse_grab.end(scene);
                apply_preset(scene, *std::exchange(panel.preset_requested, std::nullopt), panel,
                             camera, renderer.get());
                clock.clear();
            }
            if (panel.scene_requested) {
                mouse_grab.end(scene);
                apply_builtin_scene(scene, *std::exchange(panel.scene_requested, std::nullopt),
                                    panel, camera, renderer.get());
                clock.clear();
            }
            for (; !events.dropped_files.empty(); events.dropped_files.pop_front()) {
                panel.file_requested = events.dropped_files.front();
                std::snprintf(panel.mesh_path, sizeof panel.mesh_path, "%s",
                              panel.file_requested->c_str());
            }
            if (panel.file_requested) {
                loads.request(*std::exchange(panel.file_requested, std::nullopt),
                              panel.mesh_resolution, panel);
            }
            if (std::exchange(panel.cancel_load_requested, false)) {
                loads.cancel();
            }
            if (std::optional<Result<World>> finished = loads.poll(panel)) {
                const bool first_body = !scene.loaded();
                if (!install_loaded_file(std::move(*finished), scene, panel, camera,
                                         renderer.get(), mouse_grab, options)) {
                    exit_code = 1;
                    break;
                }
                if (first_body && !drags_fit_the_body()) {
                    exit_code = 2;
                    break;
                }
                clock.clear();
            }
            if (std::exchange(panel.reset_requested, false)) {
                mouse_grab.end(scene);
                scene.reset();
                clock.clear();
            }
            if (panel.solver_requested) {
                Result<bool> switched =
                    scene.set_solver(*std::exchange(panel.solver_requested, std::nullopt));
                panel.solver_note = switched ? "" : switched.error();
                if (!switched) spdlog::warn("{}", switched.error());
            }
            if (std::exchange(panel.reload_shaders_requested, false)) {
                Result<bool> reloaded = scene.reload_shaders();
                if (reloaded) {
                    spdlog::info("shaders reloaded");
                    panel.solver_note.clear();
                } else {
                    spdlog::error("{} (keeping the previous shaders)", reloaded.error());
                    panel.solver_note = "shader reload failed, previous shaders kept: see the log";
                }
            }

            if (!scene.loaded()) {
                clock.clear();  // nothing to simulate until the first body is there
            }
            int steps = panel.paused || !scene.loaded() ? 0 : clock.steps_due(elapsed_s);
            if (std::exchange(panel.step_requested, false) && scene.loaded()) {
                steps = 1;
            }
            if (options.frames) {
                steps = std::min(steps, *options.frames - frames_simulated);  // quit after N
            }
            if (steps > 0) {
                std::string note;
                const SimParams params = sanitized(panel.params, &note);
                if (!note.empty()) {
                    spdlog::warn("parameters clamped to their limits: {}", note);
                    panel.params = params;  // show the clamped values
                }
                // GPU time from timer queries once they have shown a sane value;
                // until then (or where they never do) wall time around a
                // fenced step.
                mouse_grab.apply(scene, panel.grab_stiffness_n_per_m, steps * kFrameSeconds);
                const bool on_gpu = scene.solver_kind() == SolverKind::gpu;
                const bool use_timer = on_gpu && timer_works;
                const auto start = std::chrono::steady_clock::now();
                if (on_gpu) gpu_timer.begin();
                for (int i = 0; i < steps; ++i) {
                    drags.before_frame(frames_simulated + i, scene.solver());
                    scene.step_frame(params);
                }
                if (on_gpu) gpu_timer.end(steps);
                if (on_gpu && !use_timer) glFinish();
                const double wall_ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                              start).count();
                const std::optional<double> gpu_ms = on_gpu ? gpu_timer.latest_ms() : std::nullopt;
                timer_works = timer_works || (gpu_ms && *gpu_ms > 0.0 && *gpu_ms < 10000.0);
                if (use_timer && gpu_ms) {
                    panel.simulation_ms = *gpu_ms;
                    panel.simulation_timing = "GPU timer query";
                } else {
                    panel.simulation_ms = wall_ms / steps;
                    panel.simulation_timing = on_gpu ? "wall time, fenced" : "CPU wall time";
                }
                push_history(panel.simulation_ms_history, static_cast<float>(panel.simulation_ms));
                panel.residual = scene.solver().latest_mean_residual();
                if (panel.residual) {
                    push_history(panel.residual_history, *panel.residual);
                }
                frames_simulated += steps;
            }
            panel.frame_ms = elapsed_s * 1000.0;
            panel.display_fps = ImGui::GetIO().Framerate;

            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            glViewport(0, 0, framebuffer.x, framebuffer.y);
            if (scene.loaded()) {
                scene.set_highlighted_body(panel.selected_body);
            }
            if (renderer) {
                RenderOptions render_options;
                render_options.wireframe = panel.wireframe;
                const BodyDrawData body = scene.draw_data();
                renderer->draw(body, view, framebuffer, render_options);
                const float pixel_scale = static_cast<float>(framebuffer.y) / window_size.y;
                if (grab_overlay && mouse_grab.active()) {
                    grab_overlay->draw(body.position_buffer, mouse_grab.grab(), view, pixel_scale);
                } else if (grab_overlay && drags.current()) {
                    grab_overlay->draw(body.position_buffer, *drags.current(), view, pixel_scale);
                }
            } else {
                glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
                glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
            }
            glDisable(GL_FRAMEBUFFER_SRGB);  // ImGui's colours are already sRGB

            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            draw_panel(panel, scene);
            ImGui::Render();
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            if (std::exchange(panel.screenshot_requested, false)) {
                take_screenshot(timestamped_screenshot_name(), framebuffer);
            }
            const bool finishing = options.frames && frames_simulated >= *options.frames;
            if (finishing && !options.screenshot_path.empty() &&
                !take_screenshot(options.screenshot_path, framebuffer)) {
                exit_code = 1;  // the run was for this picture
            }
            glfwSwapBuffers(window);
            if (finishing) {
                break;
            }
        }
        loads.cancel_and_wait();  // Esc or a closed window during a load
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}
