// Graph colouring of the tets: no two tets of one colour share a vertex, so
// all tets of a colour can be solved at once and write straight into the
// positions (Gauss-Seidel between colours, parallel within one).
#pragma once

#include "core/tet_mesh.h"

#include <vector>

// Row c of the result lists the tets of colour c, in ascending order.
// Greedy, in tet order: each tet takes the lowest colour none of its
// vertices has yet.
Csr color_tets(const std::vector<glm::uvec4>& tets, size_t vertex_count);
