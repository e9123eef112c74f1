// `softbody` with a window: GLFW, the renderer, the panel, mouse and keys.
#pragma once

#include "app/command_line.h"

// Returns the process exit code.
int run_window_app(const Options& options);
