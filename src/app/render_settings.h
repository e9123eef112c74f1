// How the window's picture is drawn (the panel's Render section), and the
// cheaper choice a software renderer starts with.
#pragma once

#include "gpu/renderer.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>

struct RenderSettings {
    int msaa_samples = 4;  // 0: none
    int shadow_map_texels = kDefaultShadowMapTexels;
    bool soft_shadows = true;
    // The scene's pixels per window pixel along each side (the panel stays
    // sharp): below 1 the picture is drawn smaller and stretched.
    float resolution_scale = 1.0f;

    bool operator==(const RenderSettings&) const = default;
};

// For Mesa's llvmpipe and its kind, where every shaded pixel costs CPU time.
// Measured on a 2-core machine under Xvfb at 1280 x 720 (README, "Window on
// a software renderer"): the full settings took about 160 ms a frame to draw
// the bunny, these about 25 ms.
inline RenderSettings cheap_render_settings()
{
    RenderSettings cheap;
    cheap.msaa_samples = 0;
    cheap.shadow_map_texels = 1024;
    cheap.soft_shadows = false;
    cheap.resolution_scale = 0.75f;
    return cheap;
}

// The scene's size in pixels for a window framebuffer of `framebuffer`.
inline glm::ivec2 scaled_picture_size(glm::ivec2 framebuffer, float scale)
{
    const float s = std::clamp(std::isfinite(scale) ? scale : 1.0f, 0.25f, 1.0f);
    return glm::max(glm::ivec2(1), glm::ivec2(glm::round(glm::vec2(framebuffer) * s)));
}
