// Graph colouring of the tets: no two tets of one colour share a vertex, so
// all tets of a colour can be solved at once and write straight into the
// positions (Gauss-Seidel between colours, parallel within one).
#pragma once

#include "core/result.h"
#include "core/tet_mesh.h"

#include <cstdint>
#include <vector>

// Most colours a mesh may need. Every colour is one pass after another in
// each iteration (a dispatch and a barrier on the GPU, a wait for the
// threads on the CPU), and a vertex shared by k tets needs k colours. A
// 2,000-tet fan around one edge (2,000 colours) costs about 0.1 CPU-s a
// frame on the CPU solver at 10 x 8, measured, 0.6 us a colour pass; 4,096
// colours cost twice that, the most worth waiting for. Well-shaped meshes
// need 20 to 40 (the presets 28 to 34). The cap also bounds the colouring:
// at most 64 words of bits a corner to scan.
constexpr uint32_t kMaxTetColors = 4096;

// Row c of the result lists the tets of colour c, in ascending order.
// Greedy, in tet order: each tet takes the lowest colour none of its
// vertices has yet. Linear in the tets: the colours used around each vertex
// are a bit set of 64-bit words, and a tet looks for the first word of its
// corners' union with a zero bit. Fails, saying how many colours were
// needed, when more than `max_colors` would be.
Result<Csr> color_tets(const std::vector<glm::uvec4>& tets, size_t vertex_count,
                       uint32_t max_colors = kMaxTetColors);
