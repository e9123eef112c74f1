// How the window's picture is drawn (the panel's Render section), and the
// cheaper choice a software renderer starts with.
#pragma once

#include "gpu/renderer.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <array>
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

// The values the panel offers for each setting, with their names; the
// settings file accepts these alone.
template <typename T>
struct RenderChoice {
    T value;
    const char* name;
};
inline constexpr std::array<RenderChoice<int>, 4> kMsaaChoices = {
    {{0, "off"}, {2, "2x"}, {4, "4x"}, {8, "8x"}}};
inline constexpr std::array<RenderChoice<int>, 4> kShadowMapChoices = {
    {{512, "512"}, {1024, "1024"}, {2048, "2048"}, {4096, "4096"}}};
inline constexpr std::array<RenderChoice<float>, 3> kResolutionChoices = {
    {{0.5f, "50%"}, {0.75f, "75%"}, {1.0f, "100%"}}};

template <typename T, size_t N>
bool is_offered(T value, const std::array<RenderChoice<T>, N>& choices)
{
    return std::any_of(choices.begin(), choices.end(),
                       [&](const RenderChoice<T>& c) { return c.value == value; });
}

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
