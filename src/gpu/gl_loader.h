// The one place that includes the generated OpenGL loader, so the rest of
// the gpu layer includes this header and never GLFW's or the system's GL.
#pragma once

#include <glad/gl.h>

#include <string>

// Version of the current context as major * 10 + minor (e.g. 45), or 0.
int gl_context_version();

// "4.5 (Core Profile) Mesa 22.3.6, llvmpipe (LLVM 15.0.6, 256 bits)".
std::string gl_context_description();

// glGetString(GL_RENDERER): "llvmpipe (LLVM 15.0.6, 256 bits)".
std::string gl_renderer_name();

// Compute shaders need 4.3.
inline constexpr int kMinimumComputeGlVersion = 43;
