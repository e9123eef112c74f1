// `softbody --headless`: simulate a number of frames without a window and
// report what happened, for tests, benchmarks and scripts.
#pragma once

#include "app/command_line.h"

// Returns the process exit code: 0 on success, 1 when a file could not be
// written or the mesh could not be prepared.
int run_headless(const Options& options);
