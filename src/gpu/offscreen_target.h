// A framebuffer to render into away from the window's own: multisampled
// sRGB colour and depth, resolved and read back as RGBA8 for screenshots and
// tests, or copied into the window (whose own framebuffer then needs no
// samples, so that the window can change the sample count at will).
//
// Colour is GL_SRGB8_ALPHA8 so that the renderer's linear output is encoded
// by the hardware exactly as on an sRGB window; bind() enables
// GL_FRAMEBUFFER_SRGB for that reason (the Renderer sets it itself too).
#pragma once

#include "core/result.h"
#include "gpu/gl_objects.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <memory>
#include <vector>

class OffscreenTarget {
public:
    // Tries `samples`, then fewer (halving down to none) when the driver
    // refuses the multisampled framebuffer.
    static Result<std::unique_ptr<OffscreenTarget>> create(glm::ivec2 size, int samples = 4);

    // Binds the (multisampled) framebuffer for drawing and sets the viewport.
    void bind();
    // Resolves the samples and copies the picture, as stored, into
    // `framebuffer` (a window's default one: 0) of `size`, stretched
    // bilinearly when that is larger; binds that framebuffer for drawing with
    // its viewport. Dear ImGui then draws over it at the window's resolution.
    void present_to(GLuint framebuffer, glm::ivec2 size);
    // Resolves the samples and reads back RGBA8, top row first (as image
    // files store it). Waits for the GPU. Leaves this target bound for drawing.
    std::vector<uint8_t> read_rgba();

    glm::ivec2 size() const { return size_; }
    int samples() const { return samples_; }

private:
    OffscreenTarget() = default;
    // The samples into the single-sampled framebuffer.
    void resolve();
    glm::ivec2 size_{0};
    int samples_ = 0;
    GlRenderbuffer draw_color_;
    GlRenderbuffer draw_depth_;
    GlFramebuffer draw_framebuffer_;
    GlRenderbuffer resolve_color_;
    GlFramebuffer resolve_framebuffer_;
};
