// `softbody --headless`: simulate a number of frames without a window and
// report what happened, for tests, benchmarks and scripts.
#pragma once

#include "app/command_line.h"

// Returns the process exit code: 0 on success, 2 for a value that does not fit
// the mesh (a --drag vertex it lacks), 1 when a file could not be written or
// the mesh or the GL context could not be prepared.
int run_headless(const Options& options);
