// The one interface the program talks to. The CPU reference solver and the
// GPU compute solver implement it; the headless runner, the tests and the
// application hold a Solver and do not care which.
#pragma once

#include "core/sim_params.h"
#include "core/tet_mesh.h"

#include <glm/glm.hpp>

#include <memory>
#include <vector>

class Solver {
public:
    virtual ~Solver() = default;

    virtual const char* name() const = 0;

    // Starts a new body at the mesh's rest positions, at rest. The mesh is
    // shared, never copied or changed.
    virtual void load(std::shared_ptr<const TetMesh> mesh) = 0;

    // Replaces the state (same vertex count as the mesh). Tests and restarts.
    virtual void set_state(const std::vector<glm::vec3>& positions,
                           const std::vector<glm::vec3>& velocities) = 0;

    // Advances one frame of kFrameSeconds with the parameters as they are now.
    virtual void step_frame(const SimParams& params) = 0;

    // Copies the state out. The GPU solver reads back here, so the frame loop
    // must not call these every frame.
    virtual void read_positions(std::vector<glm::vec3>& out) const = 0;
    virtual void read_velocities(std::vector<glm::vec3>& out) const = 0;

    virtual const TetMesh& mesh() const = 0;
};
