// softbody --bench: times the solvers on the benchmark meshes at the chosen
// schedule (10 substeps x 8 iterations unless told otherwise) and prints a
// table; --json writes the rows. No assertion on speed anywhere: it reports.
#pragma once

#include "app/command_line.h"

// Returns the process exit code.
int run_benchmark(const Options& options);
