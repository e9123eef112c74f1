// The Gauss-Seidel tet pass in the layout SIMD wants: the tets of each
// colour in blocks of `lanes` tets (4, 8 or 16, one per SIMD lane), every
// per-tet value stored lane by lane (structure of arrays within a block), so
// that a block's rest data is a handful of aligned vector loads. A colour's
// last block (of each share, below) is padded with tets on a dummy vertex
// that have no mass and so move nothing.
//
// The tets may also be split into shares that share no vertex (whole bodies
// of a world): then the blocks are laid out share by share, each colour by
// colour, and a thread can run all the colours of its share without waiting
// for the others between colours. Each share pads onto its own dummy vertex.
// A mesh with region sweeps (RegionSweep, core/tet_mesh.h) is laid out the
// same way sweep by sweep, a share being a group of neighbouring regions:
// the group's vertices then stay in cache through all the sweep's colours,
// where a colour over the whole mesh walks all its vertices again.
#pragma once

#include "core/material.h"
#include "core/simd/aligned_array.h"
#include "core/simd/tet_block_kernel.h"
#include "core/tet_mesh.h"

#include <cstdint>
#include <vector>

// A run of colours whose shares run side by side, each share its colours in
// turn; the phases run one after another.
struct BlockPhase {
    size_t first_segment = 0;  // colour c of share s: segment first_segment + s * colors + c
    size_t shares = 1;
    size_t colors = 0;
};

struct TetBlocks {
    int lanes = 0;
    size_t block_count = 0;
    // Share s's padding lanes' vertex is dummy_vertex + s (the first is the
    // vertex count).
    uint32_t dummy_vertex = 0;
    size_t shares = 1;
    size_t colors = 0;

    // Colour c of share s owns blocks color_blocks[i] .. color_blocks[i + 1]
    // - 1, with i = s * colors + c; with region sweeps, segment i of the
    // phases instead.
    std::vector<uint32_t> color_blocks;
    std::vector<BlockPhase> phases;
    size_t most_shares = 1;  // in any phase: the dummy vertices the padding needs
    // Real tets in each block (the rest of its lanes are padding).
    std::vector<uint32_t> block_tet_count;

    // Lane-major arrays, entry [block * lanes + lane]. Nothing here is kept
    // that the kernels can read elsewhere as cheaply: the corners' inverse
    // masses are gathered per vertex (TetBlockStep), a slot's tet index and
    // body follow from its corners (tet_body, block_slot_tets).
    AlignedArray<int32_t> corner[4];   // vertex indices
    AlignedArray<float> b[9];          // B = Dm^-1, column-major: b[3 * column + row]
    // V0 in m^3, negated for a sliver (is_sliver); 1 for padding.
    AlignedArray<float> signed_rest_volume;
    AlignedArray<float> shape_compliance;   // 1 / (2 mu V0) of the tet's body
    AlignedArray<float> volume_compliance;  // 1 / (lambda V0), or -1 without volume term
    // XPBD multipliers: the shape term's 3 x 3 one column-major
    // ([3 * column + row]) and the volume term's; kept from substep to
    // substep for the warm start.
    AlignedArray<float> lambda_shape[9];
    AlignedArray<float> lambda_volume;
    // Each tet's rotation from its last step, a unit quaternion (x, y, z, w)
    // where the next step's starts (tm_tet_rotation; identity at first).
    AlignedArray<float> rotation[4];
};

// Lays out the mesh's tet_colors for `lanes`-wide SIMD; with `tet_share`
// (per tet, 0 .. shares - 1; tets of different shares must share no vertex)
// share by share.
TetBlocks make_tet_blocks(const TetMesh& mesh, int lanes,
                          const std::vector<uint32_t>& tet_share = {}, size_t shares = 1);

// Every multiplier back to zero (a cold start).
void set_block_multipliers_to_zero(TetBlocks& blocks);

// Every tet's rotation back to the identity (where its next step starts).
void set_block_rotations_to_identity(TetBlocks& blocks);

// The pointers the kernels take; valid until `blocks` changes.
TetBlockArrays block_arrays(TetBlocks& blocks);

// Fills the compliances (tet_compliances) from each body's Lame parameters,
// a slot's body being its first corner's.
void set_block_compliances(TetBlocks& blocks, const std::vector<uint32_t>& vertex_body,
                           const std::vector<LameParameters>& body_lame);

// Per slot, the mesh tet it holds (found from its corners), or
// kPaddingSlot for padding: for checks, the blocks do not keep it.
inline constexpr uint32_t kPaddingSlot = 0xffffffffu;
std::vector<uint32_t> block_slot_tets(const TetBlocks& blocks, const TetMesh& mesh);
