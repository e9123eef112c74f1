// Contact between bodies, and of a body with itself, on the CPU: the same
// passes as the compute shaders contact_*.comp, over the maths of
// shaders/contact_math.glsl. Every substep a spatial hash over the surface
// triangles finds, for each surface vertex, the nearest few triangles within
// reach; every iteration each such pair is stepped (cm_vertex_triangle_step)
// and the corrections are gathered per vertex as fixed-point sums and
// averaged. docs/algorithm.md, section 5.
#pragma once

#include "core/worker_team.h"
#include "core/world.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

// Vertices keep this far from other surfaces: thin enough not to show,
// thick enough that float rounding on metre coordinates never reaches it.
inline constexpr float kContactThicknessM = 0.004f;
// Triangles nearer than this to a vertex at the start of a substep are its
// candidates. It bounds how far a vertex may go between two searches and
// still be caught: (0.04 - 0.004) m in 1/600 s is 21 m/s at the default 10
// substeps. At 0.025 m the pile scene's bodies, meeting at up to 18 m/s,
// went 11 cm into each other.
inline constexpr float kContactSearchRadiusM = 0.04f;
// A pair found closer than the thickness separates at most this fast
// (cm_vertex_triangle_step): faster, a heap's contacts kick each other apart.
inline constexpr float kContactRecoverySpeedMS = 0.25f;

// Candidate triangles kept per surface vertex, nearest first.
inline constexpr uint32_t kContactsPerVertex = 4;
inline constexpr uint32_t kNoContact = 0xffffffffu;
// Cells a triangle may be listed in (CM_MAX_CELLS_PER_AXIS cubed).
inline constexpr uint32_t kMaxCellsPerTriangle = 27;

// The hash's fixed layout for a world: which vertices and triangles take
// part, the cell size and the table size. Both solvers build it at load.
struct ContactLayout {
    std::vector<uint32_t> surface_vertices;  // mesh vertices on the surface, ascending
    float cell_size_m = 1.0f;                // >= the largest triangle reach + search radius
    uint32_t table_size = 1;                 // hash buckets, a power of two
    // Per body: a vertex and a triangle of its own body with a corner
    // nearer than this in the rest shape are neighbours, not contacts: two
    // of the body's longest surface edges (at least two search radii), so
    // that a squashed body does not push its own nearby surface apart.
    std::vector<float> rest_exclusion_m;

    static ContactLayout make(const World& world, float search_radius_m);
};

class BodyContacts {
public:
    void load(const World& world);

    // Once per substep, on the positions at its start: the candidate pairs.
    // The team shares the vertices' searches; the result does not depend on
    // its size.
    void find(const std::vector<glm::vec3>& positions, WorkerTeam& team);

    // Once per iteration: steps every candidate pair on the current
    // positions and adds the averaged corrections to `corrections`, moving
    // `positions` = predicted + corrections. `substep_start_velocity` and
    // h give each vertex's displacement this substep, for the friction of
    // coefficients mu_static and mu_dynamic.
    void solve(std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& predicted,
               std::vector<glm::vec3>& corrections, const std::vector<glm::vec3>& velocities,
               const std::vector<float>& inverse_masses, float h, float mu_static,
               float mu_dynamic);

    // The vertices the latest solve() moved.
    const std::vector<uint32_t>& moved_vertices() const { return touched_; }

    // The pairs found at the latest find(): kContactsPerVertex per surface
    // vertex, kNoContact where there is none. For the tests.
    const std::vector<uint32_t>& candidate_triangles() const { return candidates_; }
    const ContactLayout& layout() const { return layout_; }
    size_t candidate_count() const;

private:
    // Surface vertex s's nearest triangles, into its candidate slots.
    void find_for_vertex(size_t s, const std::vector<glm::vec3>& positions, float inv_cell);

    const World* world_ = nullptr;
    ContactLayout layout_;
    std::vector<uint32_t> bucket_offsets_;  // table_size + 1
    std::vector<uint32_t> bucket_entries_;  // triangles, bucket by bucket
    std::vector<uint32_t> bucket_cursor_;
    std::vector<uint32_t> candidates_;      // per surface vertex, kContactsPerVertex
    std::vector<glm::ivec3> sums_;          // per mesh vertex, fixed point
    std::vector<int32_t> counts_;           // per mesh vertex
    std::vector<uint32_t> touched_;         // vertices with a count this iteration
};
