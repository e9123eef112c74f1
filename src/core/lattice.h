// Structured tet meshes: a grid of hexahedral cells, each cut into six tets
// by the Kuhn (Freudenthal) split along its v000-v111 diagonal. Neighbouring
// cells then cut their shared face along the same diagonal, so the tets
// conform. The presets and the tests build their meshes with it.
#pragma once

#include "core/tet_mesh.h"

#include <functional>

struct LatticeSpec {
    int cells_i = 1;
    int cells_j = 1;
    int cells_k = 1;
    // Closes the k direction into a ring: cell k = cells_k - 1 connects to
    // k = 0 and there are cells_k (not cells_k + 1) vertex layers along k.
    bool periodic_k = false;
};

// Vertex (i, j, k) is at position(i, j, k) and has index
// i + (cells_i + 1) * (j + (cells_j + 1) * k).
TetMeshDesc kuhn_lattice(const LatticeSpec& spec,
                         const std::function<glm::vec3(int i, int j, int k)>& position);

// An axis-aligned box of size `size_m` from `min_corner_m`, cells_i x cells_j
// x cells_k cells.
TetMeshDesc box_lattice(glm::ivec3 cells, glm::vec3 min_corner_m, glm::vec3 size_m);
