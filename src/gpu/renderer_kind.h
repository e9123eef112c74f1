// Whether the OpenGL renderer draws on the CPU (Mesa's llvmpipe, softpipe,
// a virtual machine's software driver): there a frame's shading costs tens of
// milliseconds, so the window starts with a cheaper picture and the CPU
// solver. Plain text matching, so that it can be tested without a context.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>

// `gl_renderer` is glGetString(GL_RENDERER), e.g.
// "llvmpipe (LLVM 15.0.6, 256 bits)" or "NVIDIA GeForce RTX 4090/PCIe/SSE2".
inline bool is_software_renderer(std::string_view gl_renderer)
{
    std::string lower(gl_renderer);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    constexpr std::array<std::string_view, 6> kSoftware = {
        "llvmpipe", "softpipe", "swrast", "software rasterizer", "swiftshader",
        "basic render driver"};
    return std::any_of(kSoftware.begin(), kSoftware.end(), [&](std::string_view name) {
        return lower.find(name) != std::string::npos;
    });
}
