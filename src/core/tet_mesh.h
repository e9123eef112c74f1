// Tetrahedral mesh preparation (DESIGN.md section 1): validation,
// orientation, rest data, lumped volumes, the boundary surface and the CSR
// adjacency the race-free Jacobi gather needs. The result is immutable and
// shared by the solvers and the renderer.
#pragma once

#include "core/load_progress.h"
#include "core/result.h"
#include "core/surface_mesh.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// A mesh as it comes from a preset or a file, before any checking.
struct TetMeshDesc {
    std::string name;                        // names the source in messages
    std::vector<glm::vec3> positions;        // metres
    std::vector<glm::uvec4> tets;            // indices into positions
    std::vector<uint32_t> pinned_vertices;   // indices into positions
    // The surface the tets were made from (an OBJ's own triangles), in the
    // same frame as `positions` and moved with them; null when there is none
    // (a lattice preset, a TetGen or .tet file). The window draws it.
    std::shared_ptr<const SurfaceMesh> skin;
};

// Compressed sparse rows: the entries of row r are
// entries[offsets[r]] .. entries[offsets[r + 1] - 1], in a fixed order.
struct Csr {
    std::vector<uint32_t> offsets;
    std::vector<uint32_t> entries;

    size_t rows() const { return offsets.empty() ? 0 : offsets.size() - 1; }
    uint32_t begin(size_t row) const { return offsets[row]; }
    uint32_t end(size_t row) const { return offsets[row + 1]; }
};

// The rows of entries 0 .. n-1 given each entry's row, every row's entries
// in ascending order.
Csr build_csr(size_t rows, const std::vector<uint32_t>& row_of_entry);

// A run of colours whose tets are listed region by region: the rest
// positions are cut into cubes, and each colour of the run lists the tets of
// one cube, then the next; a tet belongs to a cube when its four vertices do.
// Tets of two cubes share no vertex, so a GPU workgroup can own a cube and
// walk every colour of the run on its own, between barriers of its own: one
// dispatch for the run instead of one per colour (tet_coloring.h).
struct RegionSweep {
    uint32_t first_color = 0;
    uint32_t color_end = 0;  // colours first_color .. color_end - 1
    uint32_t regions = 0;
    // Region r's tets of colour first_color + c are the colour entries
    // region_starts[c * regions + r] .. region_starts[c * regions + r + 1] - 1.
    std::vector<uint32_t> region_starts;
};

struct TetMesh {
    std::string name;

    // Per vertex.
    std::vector<glm::vec3> rest_positions;   // metres
    std::vector<float> lumped_volumes_m3;    // sum of V0/4 over adjacent tets
    std::vector<uint8_t> pinned;             // 1: inverse mass 0, never moves
    std::vector<uint32_t> source_vertex;     // index in the TetMeshDesc

    // Per tet, every one with positive rest volume. Each tet's B = Dm^-1 and
    // each vertex's list of tet corners are not kept (36 and 16 bytes a
    // tet): the solvers keep what they step with in layouts of their own,
    // and make them with inv_rest_shape() and vertex_tet_corners().
    std::vector<glm::uvec4> tets;
    std::vector<float> rest_volumes_m3;      // V0 = det(Dm) / 6 > 0

    // Boundary, counter-clockwise seen from outside, in simulation indices.
    std::vector<glm::uvec3> surface_triangles;
    std::shared_ptr<const SurfaceMesh> skin;  // TetMeshDesc::skin, unchanged

    Csr vertex_triangles;    // vertex -> surface triangles
    Csr tet_colors;          // colour -> tets; no two tets of a colour share a vertex
    // Large meshes: the first colours, in runs laid out by region; the
    // colours after the last run are listed in tet order (tet_coloring.h).
    std::vector<RegionSweep> region_sweeps;

    size_t dropped_degenerate_tets = 0;
    size_t dropped_duplicate_tets = 0;   // same four vertices as an earlier tet

    size_t vertex_count() const { return rest_positions.size(); }
    size_t tet_count() const { return tets.size(); }
    double total_rest_volume_m3() const;
    // The mean rest length of the edges of surface triangles first ..
    // first + count - 1 (each edge once per triangle that has it); 0 for none.
    double mean_surface_edge_m(size_t first_triangle, size_t triangle_count) const;
};

// Checks and prepares a mesh. Drops, counting them, tets without volume and
// tets that repeat an earlier one's four vertices. Fails, with a message that
// names the mesh and the reason, on an empty mesh, an index out of range, a
// tet that repeats a vertex, a non-finite coordinate, when no tet has volume,
// or when so many tets share a vertex that they need more than
// kMaxTetColors colours (tet_coloring.h). With `progress`, it reports as the
// preparing stage between its steps and stops with "loading NAME cancelled"
// when asked to.
Result<TetMesh> prepare_tet_mesh(const TetMeshDesc& desc, LoadProgress* progress = nullptr);

// What preparation dropped, as a warning for the user ("mesh 'x': dropped
// 3 repeated tets (...)"), or empty when nothing was.
std::string dropped_tets_warning(const TetMesh& mesh);

// The boundary faces, counter-clockwise seen from outside, for tets of
// positive volume (DESIGN.md 1.5): the faces that exactly one tet has.
std::vector<glm::uvec3> boundary_triangles(const std::vector<glm::uvec4>& tets);

// Tet t's B = Dm^-1, Dm its rest edges from corner 0 (computed in double
// from the rest positions: the same bits on every call).
glm::mat3 inv_rest_shape(const TetMesh& mesh, size_t t);

// Whether tet t is a sliver, whose shape step is shape matching's
// (tm_is_sliver, shaders/tet_math.glsl).
bool is_sliver(const TetMesh& mesh, size_t t);

// Each vertex's tet corners: row v lists the slots tet * 4 + corner whose
// vertex is v, ascending.
Csr vertex_tet_corners(const TetMesh& mesh);

// The most tets any corner of `tet` belongs to, from vertex_tet_corners().
float max_corner_valence(const Csr& corners, const glm::uvec4& tet);

// Jacobi relaxation weight of a tet (DESIGN.md 1.7): one scalar for all four
// corners, so each tet's correction conserves momentum.
float jacobi_weight(float k, float max_corner_valence);

// Per-vertex inverse masses for a density: 1 / (rho * lumped volume), or 0
// for pinned vertices.
std::vector<float> inverse_masses(const TetMesh& mesh, float density_kg_m3);
// The same with a density per vertex (each body its own).
std::vector<float> inverse_masses(const TetMesh& mesh, const std::vector<float>& densities_kg_m3);
