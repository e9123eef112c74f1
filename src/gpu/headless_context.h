// An OpenGL context with no window and no display server: EGL on a GPU
// device (EGL_EXT_platform_device, as NVIDIA's driver offers), else on
// Mesa's surfaceless platform (llvmpipe, Mesa's GPU drivers). The headless
// mode, the GPU tests and the offscreen screenshot run on it. The
// environment variable SOFTBODY_EGL_PLATFORM=device or =surfaceless takes
// that one alone (device then includes Mesa's software device).
#pragma once

#include "core/result.h"

#include <memory>
#include <string>

class HeadlessGlContext {
public:
    // Tries OpenGL 4.6, then 4.5, then 4.3 core, and loads the GL functions.
    static Result<std::unique_ptr<HeadlessGlContext>> create();
    ~HeadlessGlContext();
    HeadlessGlContext(const HeadlessGlContext&) = delete;
    HeadlessGlContext& operator=(const HeadlessGlContext&) = delete;

    // e.g. "4.5 (Core Profile) Mesa 22.3.6, llvmpipe (...) (EGL surfaceless)".
    const std::string& description() const { return description_; }

private:
    HeadlessGlContext() = default;
    void* display_ = nullptr;
    void* context_ = nullptr;
    std::string description_;
};
