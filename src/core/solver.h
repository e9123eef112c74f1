// The one interface the program talks to. The CPU reference solver and the
// GPU compute solver implement it; the headless runner, the tests and the
// application hold a Solver and do not care which.
#pragma once

#include "core/grab.h"
#include "core/pass_times.h"
#include "core/result.h"
#include "core/sim_params.h"
#include "core/tet_mesh.h"
#include "core/world.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// Where a solver's deformed surface lives, for drawing: the GPU solver's own
// buffers (GL buffer names: vec4 positions and normals, uint32 triangles),
// or the CPU solver's arrays, which the caller uploads.
struct SurfaceSource {
    uint32_t position_buffer = 0;  // 0: none, use the arrays
    uint32_t normal_buffer = 0;
    uint32_t triangle_buffer = 0;
    const std::vector<glm::vec3>* positions = nullptr;
    const std::vector<glm::vec3>* normals = nullptr;
};

class Solver {
public:
    virtual ~Solver() = default;

    virtual const char* name() const = 0;

    // Whether its frames run on the GPU: their time is then measured behind a
    // fence or with timer queries, not by the CPU's clock alone.
    virtual bool runs_on_gpu() const { return false; }

    virtual SurfaceSource surface_source() const = 0;

    // Recompiles the solver's shaders from their files; on failure the
    // running ones stay and the error says why. A solver without shaders
    // says so.
    virtual Result<bool> reload_shaders() { return Result<bool>::failure(std::string(name()) + " solver runs no shaders"); }

    // How it runs, for the panel (e.g. the CPU's instruction set and
    // threads); empty when there is nothing to add to the name.
    virtual std::string how_it_runs() const { return {}; }

    // Starts the world: its bodies at their rest positions, with their
    // initial velocities. The world is shared, never copied or changed.
    virtual void load(std::shared_ptr<const World> world) = 0;
    // A world of this one body, at rest.
    void load(std::shared_ptr<const TetMesh> mesh) { load(single_body_world(std::move(mesh))); }

    // Replaces the state (same vertex count as the mesh). Tests and restarts.
    // The tets' rotations (where each tet's rotation search starts) restart
    // from the identity too, so that the state is the positions and
    // velocities alone: two solvers given the same state step to the same
    // bits.
    virtual void set_state(const std::vector<glm::vec3>& positions,
                           const std::vector<glm::vec3>& velocities) = 0;

    // Advances one frame of kFrameSeconds with the parameters as they are now.
    virtual void step_frame(const SimParams& params) = 0;

    // Copies the state out. The GPU solver reads back here, so the frame loop
    // must not call these every frame.
    virtual void read_positions(std::vector<glm::vec3>& out) const = 0;
    virtual void read_velocities(std::vector<glm::vec3>& out) const = 0;

    // The world's mesh: every body's vertices and tets, body after body.
    virtual const TetMesh& mesh() const = 0;
    virtual const World& world() const = 0;

    // The mouse's hold on the body: from the next step on, every iteration
    // pulls the grabbed point toward the target. nullopt releases it; the
    // vertices keep their velocity, so a flick throws the body.
    virtual void set_grab(const std::optional<Grab>& grab) = 0;

    // The nearest point of the deformed surface on the ray. The GPU solver
    // searches on the GPU and reads back only the hit.
    virtual std::optional<SurfaceHit> pick(const Ray& ray) const = 0;

    // One vertex's position: a small read-back, for starting a drag.
    virtual glm::vec3 read_position(uint32_t vertex) const = 0;

    // Convergence readout: the mean over the tets of |C + alpha~ lambda| (shape
    // plus volume) in the last iteration of the latest frame, i.e. how far the
    // iteration was from solving its substep. The GPU solver's value arrives
    // a frame or so late (no stall); nullopt until there is one.
    virtual std::optional<float> latest_mean_residual() = 0;

    // Benchmark support: while on, step_frame records each pass's time and
    // last_pass_times() returns the latest frame's. Off by default, because
    // the GPU solver must wait on every pass to measure it.
    virtual void set_pass_timing(bool enabled) = 0;
    virtual std::optional<PassTimes> last_pass_times() const = 0;
};
