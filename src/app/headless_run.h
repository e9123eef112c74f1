// `softbody --headless`: simulate a number of frames without a window and
// report what happened, for tests, benchmarks and scripts.
#pragma once

#include "app/command_line.h"
#include "app/drag_script.h"
#include "core/solver.h"

#include <glm/glm.hpp>

#include <memory>
#include <vector>

struct FramesRun {
    int frames = 0;         // frames stepped
    bool diverged = false;  // a position became NaN or infinite
};

// Steps up to `frames` frames with the scripted drags, looking for
// non-finite positions once per simulated second and after the last frame;
// stops at the first check that finds one. `positions` holds the last read.
FramesRun run_frames_checked(Solver& solver, DragScript& drags, const SimParams& params, int frames,
                     std::vector<glm::vec3>& positions);

// What the options simulate: the scene's world, or the preset or mesh file
// alone in one, prepared.
Result<std::shared_ptr<const World>> load_world(const Options& options);

// Exit code of a run whose positions became NaN or infinite.
inline constexpr int kExitDiverged = 3;

// Returns the process exit code: 0 on success, 2 for a value that does not fit
// the mesh (a --drag vertex it lacks), 1 when a file could not be written or
// the mesh or the GL context could not be prepared, kExitDiverged when a
// position became non-finite (checked once per simulated second and at the
// end; the run stops at the first check that sees it, and still writes its
// figures: the NaN count, null where a figure is undefined).
int run_headless(const Options& options);
