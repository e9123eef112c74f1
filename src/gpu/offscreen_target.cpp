#include "gpu/offscreen_target.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace {

GlRenderbuffer make_renderbuffer(GLenum format, glm::ivec2 size, int samples)
{
    GLuint name = 0;
    glGenRenderbuffers(1, &name);
    glBindRenderbuffer(GL_RENDERBUFFER, name);
    if (samples > 0) {
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, size.x, size.y);
    } else {
        glRenderbufferStorage(GL_RENDERBUFFER, format, size.x, size.y);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    return GlRenderbuffer(name);
}

// A framebuffer with the given attachments, or an empty name when the
// driver says it is incomplete (or the storage could not be made).
GlFramebuffer make_framebuffer(GLuint color, GLuint depth)
{
    GLuint name = 0;
    glGenFramebuffers(1, &name);
    GlFramebuffer framebuffer(name);
    glBindFramebuffer(GL_FRAMEBUFFER, name);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    if (depth != 0) {
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                  depth);
    }
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!complete) {
        framebuffer.reset();
    }
    return framebuffer;
}

}  // namespace

Result<std::unique_ptr<OffscreenTarget>> OffscreenTarget::create(glm::ivec2 size, int samples)
{
    using R = Result<std::unique_ptr<OffscreenTarget>>;
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    if (size.x <= 0 || size.y <= 0 || size.x > max_size || size.y > max_size) {
        return R::failure("offscreen size " + std::to_string(size.x) + " x " +
                          std::to_string(size.y) + " is outside 1 .. " + std::to_string(max_size));
    }
    GLint max_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);

    std::unique_ptr<OffscreenTarget> target(new OffscreenTarget());
    target->size_ = size;
    target->resolve_color_ = make_renderbuffer(GL_SRGB8_ALPHA8, size, 0);
    target->resolve_framebuffer_ = make_framebuffer(target->resolve_color_.get(), 0);
    if (!target->resolve_framebuffer_) {
        return R::failure("cannot make an sRGB RGBA8 framebuffer of " + std::to_string(size.x) +
                          " x " + std::to_string(size.y));
    }

    // Halve the sample count until the driver accepts it; 0 = single-sampled.
    for (int tried = std::clamp(samples, 0, static_cast<int>(max_samples)); tried >= 0;
         tried = tried > 1 ? tried / 2 : tried - 1) {
        target->draw_color_ = make_renderbuffer(GL_SRGB8_ALPHA8, size, tried);
        target->draw_depth_ = make_renderbuffer(GL_DEPTH24_STENCIL8, size, tried);
        target->draw_framebuffer_ =
            make_framebuffer(target->draw_color_.get(), target->draw_depth_.get());
        if (target->draw_framebuffer_) {
            target->samples_ = tried;
            return R(std::move(target));
        }
    }
    return R::failure("cannot make an offscreen framebuffer of " + std::to_string(size.x) +
                      " x " + std::to_string(size.y) + " with any sample count");
}

void OffscreenTarget::bind()
{
    glBindFramebuffer(GL_FRAMEBUFFER, draw_framebuffer_.get());
    glViewport(0, 0, size_.x, size_.y);
    glEnable(GL_FRAMEBUFFER_SRGB);
}

void OffscreenTarget::resolve()
{
    // Both ends are sRGB, so the blit averages the samples as stored.
    glBindFramebuffer(GL_READ_FRAMEBUFFER, draw_framebuffer_.get());
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_framebuffer_.get());
    glBlitFramebuffer(0, 0, size_.x, size_.y, 0, 0, size_.x, size_.y, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
}

void OffscreenTarget::present_to(GLuint framebuffer, glm::ivec2 size)
{
    resolve();
    // With GL_FRAMEBUFFER_SRGB off a blit neither decodes nor encodes: the
    // encoded bytes land as they are, which is what an sRGB window shows.
    // (Stretching filters the encoded values: a slight darkening at edges
    // that a lower resolution's blur hides.)
    glDisable(GL_FRAMEBUFFER_SRGB);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_framebuffer_.get());
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer);
    glBlitFramebuffer(0, 0, size_.x, size_.y, 0, 0, size.x, size.y, GL_COLOR_BUFFER_BIT,
                      size == size_ ? GL_NEAREST : GL_LINEAR);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, size.x, size.y);
}

std::vector<uint8_t> OffscreenTarget::read_rgba()
{
    resolve();

    const size_t row_bytes = static_cast<size_t>(size_.x) * 4;
    std::vector<uint8_t> bottom_first(row_bytes * static_cast<size_t>(size_.y));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_framebuffer_.get());
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    GLint previous_alignment = 4;
    glGetIntegerv(GL_PACK_ALIGNMENT, &previous_alignment);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glReadPixels(0, 0, size_.x, size_.y, GL_RGBA, GL_UNSIGNED_BYTE, bottom_first.data());
    glPixelStorei(GL_PACK_ALIGNMENT, previous_alignment);
    bind();

    // OpenGL's rows start at the bottom; images start at the top.
    std::vector<uint8_t> top_first(bottom_first.size());
    for (int y = 0; y < size_.y; ++y) {
        std::memcpy(top_first.data() + static_cast<size_t>(y) * row_bytes,
                    bottom_first.data() + static_cast<size_t>(size_.y - 1 - y) * row_bytes,
                    row_bytes);
    }
    return top_first;
}
