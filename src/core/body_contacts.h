// Contact between bodies, and of a body with itself, on the CPU: the same
// passes as the compute shaders contact_*.comp, over the maths of
// shaders/contact_math.glsl. A spatial hash over the surface triangles finds,
// for each surface vertex, its nearest triangles within the search radius
// plus a skin; every substep the few nearest within the search radius are
// picked from that list, which is searched again only once some vertex has
// moved half the skin. Every iteration each picked pair in contact is
// stepped (cm_vertex_triangle_contact, cm_vertex_triangle_push), each
// vertex's inverse mass split among its pairs, and the corrections are
// summed per vertex in fixed point. docs/algorithm.md, section 5.
#pragma once

#include "core/cell_table.h"
#include "core/contact_math.h"
#include "core/surface_mesh.h"
#include "core/worker_team.h"
#include "core/world.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

// Vertices keep this far from other surfaces: thin enough not to show,
// thick enough that float rounding on metre coordinates never reaches it.
inline constexpr float kContactThicknessM = 0.004f;
// Triangles nearer than this to a vertex after the substep's prediction are
// its candidates. It bounds how far a vertex may go in a substep and still
// be caught: (0.04 - 0.004) m in 1/600 s is 21 m/s at the default 10
// substeps. At 0.025 m the pile scene's bodies, meeting at up to 18 m/s,
// went 11 cm into each other.
inline constexpr float kContactSearchRadiusM = 0.04f;
// A pair found closer than the thickness separates at most this fast
// (cm_vertex_triangle_contact): faster, a heap's contacts kick each other apart.
inline constexpr float kContactRecoverySpeedMS = 0.25f;
// The near lists reach this much farther than the search radius, and are
// searched again once some vertex has moved half of it (a vertex and a
// triangle then came at most the skin nearer), or less where more than
// kNearTrianglesPerVertex triangles crowd near a vertex
// (cm_near_list_allowed_move). A resting heap searches rarely instead of
// every substep; a falling body still makes nearly every substep search.
inline constexpr float kContactSkinM = 0.01f;

// Candidate triangles kept per surface vertex each substep, nearest first.
inline constexpr uint32_t kContactsPerVertex = 4;
// Triangles a near list holds (CM_NEAR_SLOTS).
inline constexpr uint32_t kNearTrianglesPerVertex = 16;
inline constexpr uint32_t kNoContact = 0xffffffffu;
// How far the near lists reach.
inline constexpr float kContactListRadiusM = kContactSearchRadiusM + kContactSkinM;
// Cells a triangle, or a tet, may be listed in (CM_MAX_CELLS_PER_AXIS
// cubed, asserted in body_contacts.cpp).
inline constexpr uint32_t kMaxCellsPerTriangle = 64;
inline constexpr uint32_t kMaxCellsPerTet = 64;

// The hash's fixed layout for a world: which vertices and triangles take
// part, the cell size and the table size. Both solvers build it at load.
struct ContactLayout {
    std::vector<uint32_t> surface_vertices;  // mesh vertices on the surface, ascending
    // Per surface vertex, its body's reference for the moves beside the
    // bodies (cm_move_beside_bodies): the body's first surface vertex.
    std::vector<uint32_t> surface_body_reference;
    std::vector<uint32_t> triangle_body;     // per surface triangle
    // Per surface triangle, per edge (the edge opposite corner k), the third
    // corner of the face beyond it, kNoContact where not exactly one face
    // lies beyond (cm_vertex_in_valley_contact).
    std::vector<glm::uvec3> triangle_far_corners;
    float cell_size_m = 1.0f;                // a grown rest triangle spans <= 4 per axis
    uint32_t table_size = 1;                 // hash buckets, a power of two
    // Per body: a vertex and a triangle of its own body with a corner
    // nearer than this in the rest shape are neighbours, not contacts: two
    // of the body's longest surface edges (at least two search radii), so
    // that a squashed body does not push its own nearby surface apart.
    std::vector<float> rest_exclusion_m;
    // Deep penetration, in a world of several bodies (empty, and the tets
    // not hashed, in a world of one): per mesh tet, the surface triangle of
    // its body nearest to the tet's centre in the rest shape, the way out
    // for a vertex of another body found inside the tet (cm_add_deep_pair).
    // The tets are hashed in cells of half the largest rest tet's box side,
    // so that a tet spans at most 4 per axis until it is stretched past 1.5
    // times its rest size (then it is listed partly).
    std::vector<uint32_t> tet_exit_triangle;
    float tet_cell_size_m = 1.0f;
    uint32_t tet_table_size = 0;  // hash buckets, a power of two; 0: not hashed

    bool tets_hashed() const { return tet_table_size > 0; }

    static ContactLayout make(const World& world);
};

class BodyContacts {
public:
    void load(const World& world);

    // Once per substep, on the predicted positions: the candidate pairs,
    // from the near lists, which are searched again first if they are
    // stale. The team shares the vertices' work; the result does not depend
    // on its size.
    void find(const std::vector<glm::vec3>& positions, WorkerTeam& team);

    // Once per iteration: steps every candidate pair in contact on the
    // current positions (the team shares the pairs) and adds the summed
    // corrections to `corrections`, moving `positions` = predicted +
    // corrections. `velocities` (at the substep's start) and h give each
    // vertex's displacement this substep, for the friction of coefficients
    // mu_static and mu_dynamic.
    void solve(std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& predicted,
               std::vector<glm::vec3>& corrections, const std::vector<glm::vec3>& velocities,
               const std::vector<float>& inverse_masses, float h, float mu_static,
               float mu_dynamic, WorkerTeam& team);

    // The vertices the latest solve() moved.
    const std::vector<uint32_t>& moved_vertices() const { return touched_; }

    // The pairs found at the latest find(): kContactsPerVertex per surface
    // vertex, kNoContact where there is none, a deep pair's triangle marked
    // with CM_DEEP_PAIR. For the tests.
    const std::vector<uint32_t>& candidate_triangles() const { return candidates_; }
    const ContactLayout& layout() const { return layout_; }
    size_t candidate_count() const;
    // How many times the near lists were searched since load().
    uint64_t search_count() const { return search_count_; }
    // Surface vertices found inside another body at the latest search.
    size_t deep_vertex_count() const;

private:
    // A candidate slot's pair: the surface vertex, then the triangle's
    // corners, with their inverse masses and displacements this substep.
    struct CandidatePair {
        glm::uvec4 v;
        glm::vec4 w;
        glm::vec3 dx[4];
    };
    // Candidate slot `slot`'s pair (not kNoContact).
    CandidatePair candidate_pair(size_t slot, const std::vector<glm::vec3>& corrections,
                                 const std::vector<glm::vec3>& velocities,
                                 const std::vector<float>& inverse_masses, float h) const;
    // Whether candidate pair `pair` (of candidate slot value `candidate`)
    // is in contact on the current positions: cm_vertex_triangle_contact,
    // or cm_vertex_in_valley_contact for a plain pair behind and beside its
    // triangle.
    bool pair_in_contact(uint32_t candidate, const CandidatePair& pair,
                         const std::vector<glm::vec3>& positions, float h,
                         contact_math::CmContact& contact) const;
    // A pair in contact (cm_vertex_triangle_contact) at its candidate slot.
    struct InContact {
        uint32_t slot;
        contact_math::CmContact contact;
    };
    // Whether some surface vertex moved the allowed move since the last
    // search.
    bool near_lists_stale(const std::vector<glm::vec3>& positions) const;
    // In a world of one body: the largest move of a surface vertex since the
    // search beside the body's rigid motion (cm_move_beside_rigid_motion).
    float largest_move_beside_rigid_motion(const std::vector<glm::vec3>& positions) const;
    // The hashes, then every surface vertex's near list and deep pair.
    void search(const std::vector<glm::vec3>& positions, WorkerTeam& team);
    // Every tet's box, and whether it is listed.
    void find_tet_boxes(const std::vector<glm::vec3>& positions, WorkerTeam& team);
    // The triangles' table and, when the layout hashes tets, the tets',
    // from the boxes.
    void build_tables(WorkerTeam& team);
    // Every body's box (over all its vertices) and, per body, the others
    // whose boxes meet it.
    void find_body_neighbours(const std::vector<glm::vec3>& positions);
    // Whether `box` meets the box of a body whose box meets `body`'s.
    bool overlaps_neighbour_body(uint32_t body, const Bounds& box) const;
    void search_for_vertex(size_t s, const std::vector<glm::vec3>& positions, float inv_cell);
    // cm_rest_neighbours for the vertex at rest position `rest` and triangle
    // f of its body, from f's rest sphere where the sphere decides.
    bool rest_neighbours(const glm::vec3& rest, uint32_t f, float exclusion) const;
    // The exit triangle of a tet of another body that holds surface vertex
    // s, the least such over the tets (whatever order the hash lists them
    // in); kNoContact if none does.
    uint32_t deep_triangle_for_vertex(size_t s, const std::vector<glm::vec3>& positions) const;
    // Surface vertex s's candidates, from its near list.
    void pick_for_vertex(size_t s, const std::vector<glm::vec3>& positions);

    const World* world_ = nullptr;
    ContactLayout layout_;
    CellTable triangle_table_;
    std::vector<Bounds> triangle_boxes_;     // per triangle, grown by the list radius
    // Per triangle, a sphere about its rest corners, grown by a margin over
    // float rounding: most of the triangles whose boxes hold a vertex are its
    // own body's neighbours, and the sphere tells without reading a corner.
    std::vector<glm::vec4> triangle_rest_spheres_;
    CellTable tet_table_;                    // when the layout hashes tets
    std::vector<Bounds> tet_boxes_;          // per tet
    std::vector<uint8_t> tet_listed_;        // per tet: whether another body is near
    std::vector<Bounds> body_boxes_;         // per body, when the layout hashes tets
    std::vector<uint32_t> body_neighbour_offsets_;  // per body, into body_neighbours_; + 1
    std::vector<uint32_t> body_neighbours_;  // the bodies whose boxes meet each body's
    std::vector<uint32_t> near_;            // per surface vertex, kNearTrianglesPerVertex
    std::vector<uint32_t> deep_;            // per surface vertex, its exit triangle or kNoContact
    std::vector<glm::vec3> anchors_;        // per surface vertex, where its list was searched
    std::vector<float> allowed_moves_;      // per surface vertex, at the last search
    float allowed_move_ = 0.0f;             // the least of them: 0 before the first search
    uint64_t search_count_ = 0;
    std::vector<uint32_t> candidates_;      // per surface vertex, kContactsPerVertex
    // Per team member, per mesh vertex: xyz the fixed-point sum of the
    // iteration's corrections, w its count of pairs in contact.
    std::vector<std::vector<glm::ivec4>> member_sums_;
    // Per team member, the pairs in contact it found this iteration: it
    // steps them. They grow to what the busiest iteration has needed, as
    // the hash's listings do: room for every candidate from the start (32
    // bytes a candidate slot, four slots a surface vertex) would weigh on
    // the memory a tet of the large meshes, whose self-contact runs too.
    std::vector<std::vector<InContact>> member_contacts_;
    std::vector<uint32_t> pair_counts_;     // per mesh vertex, this iteration's
    std::vector<uint32_t> touched_;         // vertices with a count this iteration, ascending
};
