// `--drag START:END:VERTEX:DX,DY,DZ`: scripted grabs for tests and
// benchmarks. Each one grabs VERTEX at frame START and moves the target
// linearly from where the vertex is then to its rest position + (DX,DY,DZ)
// by frame END, where it lets go. It drives the same Solver::set_grab as
// the mouse: same constraint, same solver passes, the same patch of surface
// around the vertex pulled with it (`radius_fraction` of the body's size).
#pragma once

#include "core/result.h"
#include "core/solver.h"

#include <glm/glm.hpp>

#include <optional>
#include <string>
#include <vector>

struct DragSpec {
    int start_frame = 0;
    int end_frame = 0;
    uint32_t vertex = 0;
    glm::vec3 offset_m{0.0f};  // from the vertex's rest position
};

// Parses "START:END:VERTEX:DX,DY,DZ".
Result<DragSpec> parse_drag(const std::string& text);

class DragScript {
public:
    DragScript(std::vector<DragSpec> drags, float stiffness_n_per_m,
               float radius_fraction = kDefaultGrabRadiusFraction);

    // Fails naming the first drag whose vertex the mesh does not have.
    Result<bool> validate(const TetMesh& mesh) const;

    // Call before stepping frame `frame` (0-based): sets or clears the grab.
    // When drags overlap, the earliest listed one holds; a later one takes
    // over, from where its vertex was at its own start, when that ends.
    void before_frame(int frame, Solver& solver);

    // The grab the script holds now, if any (for drawing it).
    const std::optional<Grab>& current() const { return current_; }
    // Whether there is any drag to play.
    bool any() const { return !drags_.empty(); }

private:
    std::vector<DragSpec> drags_;
    // Per drag, its patch as the body lay when it started (the target there).
    std::vector<Grab> start_grabs_;
    std::vector<const World*> start_worlds_;  // per drag, the world that patch is in
    std::vector<glm::vec3> positions_;        // read back when a drag starts
    float stiffness_n_per_m_;
    float radius_fraction_;
    std::optional<Grab> current_;
};
