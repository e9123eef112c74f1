// `--screenshot` in headless mode: the real renderer draws the solver's
// current state into an offscreen framebuffer, framed by the orbit camera
// as the window would be at start, and the picture is written as PNG.
#pragma once

#include "app/body_view.h"
#include "core/result.h"
#include "core/solver.h"

#include <glm/glm.hpp>

#include <string>

// Needs a current GL context (the caller's headless one). The bodies are
// drawn as the window draws them (DrawnBodies), from the CPU solver's
// state uploaded once or the GPU solver's buffers.
// `view` says what is drawn of the bodies; `params` gives their materials
// for the strain view.
Result<bool> render_offscreen_screenshot(const std::string& path, glm::ivec2 size,
                                         const Solver& solver, const BodyView& view,
                                         const SimParams& params);
