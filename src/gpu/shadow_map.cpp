#include "gpu/shadow_map.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace {

// The window grows in steps of this size, so that a body that squashes or
// moves a little does not change the texel size every frame.
constexpr float kExtentStepM = 0.25f;

float round_up(float value, float step) { return std::ceil(value / step) * step; }

}  // namespace

SunFrustum fit_sun_frustum(glm::vec3 to_sun, glm::vec3 bounds_min, glm::vec3 bounds_max,
                           int map_size_texels, float filter_margin_m)
{
    // Bounds may be a frame or two stale: pad by a fixed amount and a share of the size.
    const glm::vec3 pad = glm::vec3(0.1f) + 0.15f * (bounds_max - bounds_min);
    const glm::vec3 lo = bounds_min - pad;
    const glm::vec3 hi = bounds_max + pad;

    // The box's corners and their shadows on the ground, along -to_sun.
    std::array<glm::vec3, 16> points;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
        points[i] = corner;
        const float height_m = std::max(corner.y, 0.0f);
        points[8 + i] = corner - to_sun * (height_m / to_sun.y);
        points[8 + i].y = 0.0f;
    }

    const glm::vec3 centre = 0.5f * (lo + hi);
    // lookAt needs an up vector that is not parallel to the view direction.
    const glm::vec3 up = std::abs(to_sun.y) > 0.99f ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
    const glm::mat4 view = glm::lookAt(centre + to_sun, centre, up);

    glm::vec3 view_min(INFINITY);
    glm::vec3 view_max(-INFINITY);
    for (const glm::vec3& p : points) {
        const glm::vec3 q = glm::vec3(view * glm::vec4(p, 1.0f));
        view_min = glm::min(view_min, q);
        view_max = glm::max(view_max, q);
    }

    // Soft-shadow taps reach filter_margin_m beyond a receiver; keep them in the map.
    const glm::vec2 size_m(round_up(view_max.x - view_min.x + 2.0f * filter_margin_m, kExtentStepM),
                           round_up(view_max.y - view_min.y + 2.0f * filter_margin_m, kExtentStepM));
    const glm::vec2 texel_m = size_m / static_cast<float>(map_size_texels);
    glm::vec2 middle = 0.5f * (glm::vec2(view_min) + glm::vec2(view_max));
    middle = glm::floor(middle / texel_m) * texel_m;

    // View space looks down -z: near and far are distances, with a margin so
    // that nothing sits exactly on a clip plane.
    const float near_m = -view_max.z - 0.5f;
    const float far_m = -view_min.z + 0.5f;
    const glm::mat4 projection =
        glm::ortho(middle.x - 0.5f * size_m.x, middle.x + 0.5f * size_m.x,
                   middle.y - 0.5f * size_m.y, middle.y + 0.5f * size_m.y, near_m, far_m);
    return {projection * view, size_m, far_m - near_m};
}

Result<std::unique_ptr<ShadowMap>> ShadowMap::create(int size_texels)
{
    using R = Result<std::unique_ptr<ShadowMap>>;
    GLint max_texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texels);
    if (size_texels < 1 || size_texels > max_texels) {
        return R::failure("a shadow map of " + std::to_string(size_texels) +
                          " texels is outside this driver's 1 .. " + std::to_string(max_texels));
    }
    std::unique_ptr<ShadowMap> map(new ShadowMap());
    map->size_texels_ = size_texels;

    GLuint name = 0;
    glGenTextures(1, &name);
    map->depth_texture_ = GlTexture(name);
    glBindTexture(GL_TEXTURE_2D, name);
    if (glTexStorage2D != nullptr) {
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT24, size_texels, size_texels);
    } else {
        // GL 3.3 without ARB_texture_storage (the CPU solver's fallback).
        glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size_texels, size_texels, 0,
                     GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
    }
    // Linear filtering with comparison gives 2x2 bilinear PCF per tap for free.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    // Outside the map nothing casts: depth 1 there means "lit".
    const float far_depth[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
    glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, far_depth);
    glBindTexture(GL_TEXTURE_2D, 0);

    // The same texture read as plain depth values: a sampler object overrides
    // the texture's comparison mode on the unit it is bound to.
    glGenSamplers(1, &name);
    map->raw_depth_sampler_ = GlSampler(name);
    glSamplerParameteri(name, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(name, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glSamplerParameteri(name, GL_TEXTURE_COMPARE_MODE, GL_NONE);
    glSamplerParameteri(name, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
    glSamplerParameteri(name, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
    glSamplerParameterfv(name, GL_TEXTURE_BORDER_COLOR, far_depth);

    glGenFramebuffers(1, &name);
    map->framebuffer_ = GlFramebuffer(name);
    GLint previous = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, name);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D,
                           map->depth_texture_.get(), 0);
    glDrawBuffer(GL_NONE);
    const GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous));
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        return R::failure("the shadow map framebuffer is incomplete (status " +
                          std::to_string(status) + ")");
    }
    return R(std::move(map));
}

void ShadowMap::bind_for_drawing() const
{
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer_.get());
    glViewport(0, 0, size_texels_, size_texels_);
}

void ShadowMap::bind_for_sampling(GLuint compare_unit, GLuint depth_unit) const
{
    glActiveTexture(GL_TEXTURE0 + compare_unit);
    glBindTexture(GL_TEXTURE_2D, depth_texture_.get());
    glBindSampler(compare_unit, 0);
    glActiveTexture(GL_TEXTURE0 + depth_unit);
    glBindTexture(GL_TEXTURE_2D, depth_texture_.get());
    glBindSampler(depth_unit, raw_depth_sampler_.get());
    glActiveTexture(GL_TEXTURE0);
}

void ShadowMap::unbind_from_sampling(GLuint compare_unit, GLuint depth_unit) const
{
    glBindSampler(depth_unit, 0);
    glActiveTexture(GL_TEXTURE0 + depth_unit);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0 + compare_unit);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
}
