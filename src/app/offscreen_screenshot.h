// `--screenshot` in headless mode: the real renderer draws the solver's
// current state into an offscreen framebuffer, framed by the orbit camera
// as the window would be at start, and the picture is written as PNG.
#pragma once

#include "core/result.h"
#include "core/solver.h"

#include <glm/glm.hpp>

#include <string>

// Needs a current GL context (the caller's headless one). For a CPU solver
// the state is uploaded once; a GPU solver's buffers are drawn directly.
Result<bool> render_offscreen_screenshot(const std::string& path, glm::ivec2 size,
                                         const Solver& solver);
