// The Gauss-Seidel tet pass in the layout SIMD wants: the tets of each
// colour in blocks of `lanes` tets (4, 8 or 16, one per SIMD lane), every
// per-tet value stored lane by lane (structure of arrays within a block), so
// that a block's rest data is a handful of aligned vector loads. A colour's
// last block is padded with tets on a dummy vertex that have no mass and so
// move nothing.
#pragma once

#include "core/simd/aligned_array.h"
#include "core/simd/tet_block_kernel.h"
#include "core/tet_mesh.h"

#include <cstdint>
#include <vector>

struct TetBlocks {
    int lanes = 0;
    size_t block_count = 0;
    uint32_t dummy_vertex = 0;  // index of the padding lanes' vertex: the vertex count

    // Colour c owns blocks color_blocks[c] .. color_blocks[c + 1] - 1.
    std::vector<uint32_t> color_blocks;
    // Real tets in each block (the rest of its lanes are padding).
    std::vector<uint32_t> block_tet_count;

    // Lane-major arrays, entry [block * lanes + lane].
    AlignedArray<uint32_t> tet;        // index in the mesh; kPaddingTet for padding
    AlignedArray<int32_t> corner[4];   // vertex indices
    AlignedArray<float> b[9];          // B = Dm^-1, column-major: b[3 * column + row]
    AlignedArray<float> inv_rest_volume;  // 1 / V0, m^-3 (1 for padding)
    AlignedArray<float> shape_compliance;   // 1 / (2 mu V0) of the tet's body
    AlignedArray<float> volume_compliance;  // 1 / (lambda V0), or -1 without volume term
    AlignedArray<float> inverse_mass[4];  // per corner; 0 for pinned and padding
    AlignedArray<float> lambda_shape;     // XPBD multipliers, reset every substep
    AlignedArray<float> lambda_volume;

    static constexpr uint32_t kPaddingTet = 0xffffffffu;
};

// Lays out the mesh's tet_colors for `lanes`-wide SIMD.
TetBlocks make_tet_blocks(const TetMesh& mesh, int lanes);

// The pointers the kernels take; valid until `blocks` changes.
TetBlockArrays block_arrays(TetBlocks& blocks);

// Fills the per-corner inverse masses from per-vertex ones.
void set_block_inverse_masses(TetBlocks& blocks, const std::vector<float>& inverse_masses);

// Fills the compliances from per-tet ones (volume: -1 where it is off).
void set_block_compliances(TetBlocks& blocks, const std::vector<float>& shape_compliance,
                           const std::vector<float>& volume_compliance);
