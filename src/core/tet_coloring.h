// Graph colouring of the tets: no two tets of one colour share a vertex, so
// all tets of a colour can be solved at once and write straight into the
// positions (Gauss-Seidel between colours, parallel within one).
#pragma once

#include "core/result.h"
#include "core/tet_mesh.h"

#include <cstddef>
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

// Meshes of at least this many tets are coloured by region. Below it every
// colour of a well-shaped mesh fits a GPU workgroup's walk of all colours
// (GpuSolver's one-group pass), and region sweeps would only add colours.
inline constexpr size_t kRegionSweepMinTets = 32768;
// Tets a region holds on average: a few rounds of a workgroup per colour.
inline constexpr double kTetsPerRegion = 1024.0;
// Tets a group of neighbouring regions holds, about, where a few wide cores
// run the sweeps (the CPU's SIMD blocks, llvmpipe): enough a colour to fill
// the SIMD lanes, few enough vertices to stay in cache through the colours.
inline constexpr size_t kTetsPerRegionGroup = 4096;

// How many consecutive regions of `sweep` make a group of about
// kTetsPerRegionGroup tets (at least one).
size_t regions_per_group(const RegionSweep& sweep);

struct TetColoring {
    Csr colors;
    std::vector<RegionSweep> sweeps;  // in colour order, from colour 0
};

// Colours the tets in up to four region sweeps (tet_mesh.h), then the tets
// no sweep took, greedily in tet order as color_tets() does. Sweep k cuts
// space into cubes of side region_side_m shifted by 0, 1/2, 1/4 and 3/4 of
// a side along each axis: tets that straddle one sweep's cube faces lie
// mostly inside the next sweep's cubes, and on a lattice none is left after
// the four. Within a sweep each cube's tets are coloured greedily in tet
// order, and each colour lists them cube by cube, in tet order within one.
// Fails as color_tets() does when more than `max_colors` would be needed.
Result<TetColoring> color_tets_by_region(const std::vector<glm::uvec4>& tets,
                                         const std::vector<glm::vec3>& rest_positions,
                                         float region_side_m,
                                         uint32_t max_colors = kMaxTetColors);

// The side of a cube that holds `tets_per_region` tets of the mesh's mean
// rest volume per tet.
float region_side_for(double total_rest_volume_m3, size_t tets, double tets_per_region);
