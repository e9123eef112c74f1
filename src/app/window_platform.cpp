#include "app/window_platform.h"

#include "app/log.h"
#include "gpu/gl_loader.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

namespace {

InputEvents& events_of(GLFWwindow* window)
{
    return *static_cast<InputEvents*>(glfwGetWindowUserPointer(window));
}

// The newest core context the driver gives: 4.6, 4.5, 4.3 (compute
// shaders), and 3.3 as the last resort, where the CPU solver runs and
// uploads positions every frame.
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
        // No samples here: the scene is drawn multisampled into a target
        // of the application's, whose sample count the panel can change.
        glfwWindowHint(GLFW_SAMPLES, 0);
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

}  // namespace

Result<std::unique_ptr<WindowPlatform>> WindowPlatform::open(glm::ivec2 size)
{
    using R = Result<std::unique_ptr<WindowPlatform>>;
    glfwSetErrorCallback([](int code, const char* text) {
        spdlog::warn("GLFW error {}: {}", code, text);
    });
    if (!glfwInit()) {
        return R::failure("cannot initialise GLFW: no display? (try --headless)");
    }
    std::unique_ptr<WindowPlatform> platform(new WindowPlatform());
    platform->window_ = create_window(size);
    if (platform->window_ == nullptr) {
        return R::failure("cannot create a window with an OpenGL 3.3 or newer core context");
    }
    glfwMakeContextCurrent(platform->window_);
    if (gladLoadGL(glfwGetProcAddress) == 0) {
        return R::failure("cannot load the OpenGL functions");
    }
    glfwSwapInterval(1);
    platform->gl_version_ = gl_context_version();
    spdlog::info("OpenGL {}", gl_context_description());

    GLFWwindow* window = platform->window_;
    glfwSetWindowUserPointer(window, &platform->events_);
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
    ImGui_ImplOpenGL3_Init(platform->gl_version_ >= 43 ? "#version 430 core"
                                                       : "#version 330 core");
    platform->imgui_started_ = true;
    return R(std::move(platform));
}

WindowPlatform::~WindowPlatform()
{
    if (imgui_started_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    if (window_ != nullptr) {
        glfwDestroyWindow(window_);
    }
    glfwTerminate();
}

bool WindowPlatform::should_close() const
{
    return glfwWindowShouldClose(window_) != 0;
}

void WindowPlatform::request_close()
{
    glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

void WindowPlatform::begin_ui_frame()
{
    glDisable(GL_FRAMEBUFFER_SRGB);  // ImGui's colours are already sRGB
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void WindowPlatform::end_ui_frame()
{
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void WindowPlatform::swap_buffers()
{
    glfwSwapBuffers(window_);
}
