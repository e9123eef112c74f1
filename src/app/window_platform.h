// The window's platform: GLFW with the newest OpenGL core context the
// driver gives, the GL loader, Dear ImGui, and the input the callbacks
// collect between two frames. One object owns them all and takes them down
// in order.
#pragma once

#include "core/result.h"

#include <glm/glm.hpp>

#include <deque>
#include <memory>
#include <string>

struct GLFWwindow;

// What the GLFW callbacks collect between two frames.
struct InputEvents {
    std::deque<int> keys;       // pressed keys the panel did not take
    float scroll_steps = 0.0f;  // wheel, outside the panel
    std::deque<std::string> dropped_files;
};

class WindowPlatform {
public:
    // Opens the window (4.6, 4.5, 4.3, then 3.3 core), loads GL, starts
    // ImGui. Fails, saying why (no display, no context).
    static Result<std::unique_ptr<WindowPlatform>> open(glm::ivec2 size);
    ~WindowPlatform();
    WindowPlatform(const WindowPlatform&) = delete;
    WindowPlatform& operator=(const WindowPlatform&) = delete;

    GLFWwindow* window() const { return window_; }
    InputEvents& events() { return events_; }
    int gl_version() const { return gl_version_; }

    bool should_close() const;
    void request_close();
    // ImGui's frame begins and ends around the panel.
    void begin_ui_frame();
    void end_ui_frame();
    void swap_buffers();

private:
    WindowPlatform() = default;
    GLFWwindow* window_ = nullptr;
    InputEvents events_;
    int gl_version_ = 0;
    bool imgui_started_ = false;
};
