// Isosurface stuffing (Labelle and Shewchuk 2007, "Isosurface Stuffing: Fast
// Tetrahedral Meshes with Good Dihedral Angles"): fills a solid, given only
// an inside test and a way to find where a segment leaves it, with the
// tetrahedra of a body-centred cubic (BCC) lattice. Lattice vertices close to
// the surface are snapped onto it ("warping"); the lattice tets that the
// surface still crosses are cut by a fixed set of stencils. With the
// paper's parameters every dihedral angle lies in about [9, 162] degrees,
// whatever the surface.
#pragma once

#include "core/load_progress.h"
#include "core/tet_mesh.h"

#include <glm/glm.hpp>

#include <functional>
#include <vector>

// The solid to fill, as the stuffing asks about it.
struct ImplicitSolid {
    // Inside-or-not for many points at once (the lattice vertices).
    std::function<std::vector<bool>(const std::vector<glm::vec3>&)> inside;
    // A point where the segment from `inside_point` to `outside_point`
    // crosses the surface.
    std::function<glm::vec3(const glm::vec3& inside_point, const glm::vec3& outside_point)>
        crossing;
};

// The lattice: cubes of side cell_m from `origin`, cells.x * cells.y *
// cells.z of them. Its vertices are the cube corners and the cube centres;
// its tets are four around each segment joining two neighbouring centres.
// The outermost layer of vertices should lie outside the solid, so that the
// boundary is closed. The caller keeps the lattice to fewer than 2^31
// vertices (ids are 32-bit) with at least one cell a side.
struct BccLatticeSpec {
    glm::vec3 origin{0.0f};
    float cell_m = 1.0f;
    glm::ivec3 cells{1};
};

struct StuffingStats {
    size_t lattice_vertices = 0;
    size_t cut_points = 0;
    size_t warped_vertices = 0;
    size_t dropped_flat_tets = 0;  // tets too flat to keep (none in theory)
};

// The tets that fill the solid, each with positive volume; `name` names the
// mesh. Vertices are only those the tets use. With `progress`, the inside
// tests report as the winding-numbers stage (what the tetrahedralizer's
// inside test computes) and the rest as the stuffing stage; a cancelled run
// returns an empty mesh.
TetMeshDesc stuff_isosurface(const BccLatticeSpec& lattice, const ImplicitSolid& solid,
                             const std::string& name, StuffingStats* stats = nullptr,
                             LoadProgress* progress = nullptr);
