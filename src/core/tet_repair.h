// Clean-ups of tet meshes: repeated tets, in any mesh; and, after isosurface
// stuffing, where thin parts of a surface, finer than the lattice, leave
// crumbs and pinches: pieces joined only at a vertex or an edge, whose
// boundary is not a manifold, and pieces too small to simulate.
#pragma once

#include "core/tet_mesh.h"

// Drops every piece (tets connected through shared faces) whose volume is
// below `min_fraction` of the largest piece's. Returns how many tets went.
size_t drop_small_pieces(TetMeshDesc& mesh, double min_fraction);

// Gives each vertex one copy per group of its tets that are connected
// through faces containing it: two pieces that touch only at the vertex (or
// along an edge through it) no longer share it, so their boundaries are
// separate manifolds. Returns how many vertices were added.
size_t split_pinched_vertices(TetMeshDesc& mesh);

// Marks every tet whose four vertices, in any order, an earlier tet already
// has (1), the first of each such group staying unmarked (0). A repeated
// tet is a mesh error: it doubles the mass and stiffness there, and all
// copies share four vertices, so each needs a colour of its own. Sorting,
// so n log n: 100,000 copies of one tet take milliseconds.
std::vector<uint8_t> repeated_tets(const std::vector<glm::uvec4>& tets);

// Drops the vertices that no tet uses, renumbering the rest in order.
void drop_unused_vertices(TetMeshDesc& mesh);
