#include "core/simd/tet_blocks.h"

#include "core/tet_coloring.h"
#include "core/tet_math.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace {

// Each sweep a phase of groups of neighbouring regions (numbered in the
// order their first tet comes), then the colours after the sweeps.
void lay_out_region_sweeps(const TetMesh& mesh, TetBlocks& blocks,
                           std::vector<std::vector<uint32_t>>& runs,
                           std::vector<size_t>& run_share)
{
    const Csr& colors = mesh.tet_colors;
    for (const RegionSweep& sweep : mesh.region_sweeps) {
        const size_t sweep_colors = sweep.color_end - sweep.first_color;
        const size_t per_group = regions_per_group(sweep);
        const size_t groups = (sweep.regions + per_group - 1) / per_group;
        blocks.phases.push_back({runs.size(), groups, sweep_colors});
        for (size_t g = 0; g < groups; ++g) {
            const size_t first_region = g * per_group;
            const size_t region_end = std::min<size_t>(sweep.regions, first_region + per_group);
            for (size_t c = 0; c < sweep_colors; ++c) {
                const uint32_t* starts = &sweep.region_starts[c * sweep.regions];
                std::vector<uint32_t>& run = runs.emplace_back(
                    colors.entries.begin() + starts[first_region],
                    colors.entries.begin() + starts[region_end]);
                // In tet order: the tets of a colour share no vertex, so their
                // order changes no result, and in tet order the blocks walk
                // the vertex arrays from one end towards the other.
                std::sort(run.begin(), run.end());
                run_share.push_back(g);
            }
        }
    }
    const size_t first_free = mesh.region_sweeps.back().color_end;
    blocks.phases.push_back({runs.size(), 1, colors.rows() - first_free});
    for (size_t c = first_free; c < colors.rows(); ++c) {
        runs.emplace_back(colors.entries.begin() + colors.begin(c),
                          colors.entries.begin() + colors.end(c));
        run_share.push_back(0);
    }
}

}  // namespace

TetBlocks make_tet_blocks(const TetMesh& mesh, int lanes, const std::vector<uint32_t>& tet_share,
                          size_t shares)
{
    assert(lanes > 0 && "make_tet_blocks: lanes must be positive");
    assert(shares >= 1 && (tet_share.empty() ? shares == 1 : tet_share.size() == mesh.tet_count()));
    TetBlocks blocks;
    blocks.lanes = lanes;
    blocks.dummy_vertex = static_cast<uint32_t>(mesh.vertex_count());
    blocks.shares = shares;
    const Csr& colors = mesh.tet_colors;
    blocks.colors = colors.rows();
    // The tets of each segment, and the share each pads onto.
    std::vector<std::vector<uint32_t>> runs;
    std::vector<size_t> run_share;
    if (shares > 1 || mesh.region_sweeps.empty()) {
        // Share by share, in colour order within a share.
        runs.resize(shares * blocks.colors);
        for (size_t c = 0; c < colors.rows(); ++c) {
            for (uint32_t e = colors.begin(c); e < colors.end(c); ++e) {
                const uint32_t t = colors.entries[e];
                const size_t share = tet_share.empty() ? 0 : tet_share[t];
                runs[share * blocks.colors + c].push_back(t);
            }
        }
        for (size_t r = 0; r < runs.size(); ++r) {
            run_share.push_back(r / std::max<size_t>(blocks.colors, 1));
        }
        blocks.phases.push_back({0, shares, blocks.colors});
    } else {
        lay_out_region_sweeps(mesh, blocks, runs, run_share);
    }
    for (const BlockPhase& phase : blocks.phases) {
        blocks.most_shares = std::max(blocks.most_shares, phase.shares);
    }
    blocks.color_blocks.push_back(0);
    for (const std::vector<uint32_t>& run : runs) {
        const size_t tets = run.size();
        const size_t run_block_count = (tets + lanes - 1) / lanes;
        for (size_t b = 0; b < run_block_count; ++b) {
            const size_t remaining = tets - b * lanes;
            blocks.block_tet_count.push_back(
                static_cast<uint32_t>(remaining < static_cast<size_t>(lanes) ? remaining : lanes));
        }
        blocks.block_count += run_block_count;
        blocks.color_blocks.push_back(static_cast<uint32_t>(blocks.block_count));
    }

    const size_t slots = blocks.block_count * lanes;
    for (auto& corner : blocks.corner) corner = AlignedArray<int32_t>(slots);
    for (auto& column : blocks.b) column = AlignedArray<float>(slots);
    blocks.signed_rest_volume = AlignedArray<float>(slots);
    blocks.shape_compliance = AlignedArray<float>(slots);
    blocks.volume_compliance = AlignedArray<float>(slots);
    for (auto& entry : blocks.lambda_shape) entry = AlignedArray<float>(slots);
    blocks.lambda_volume = AlignedArray<float>(slots);
    for (AlignedArray<float>& entry : blocks.rotation) entry = AlignedArray<float>(slots);
    set_block_rotations_to_identity(blocks);

    for (size_t r = 0; r < runs.size(); ++r) {
        size_t slot = static_cast<size_t>(blocks.color_blocks[r]) * lanes;
        const size_t run_end = static_cast<size_t>(blocks.color_blocks[r + 1]) * lanes;
        for (const uint32_t t : runs[r]) {
            for (int a = 0; a < 4; ++a) {
                blocks.corner[a][slot] = static_cast<int32_t>(mesh.tets[t][a]);
            }
            const glm::mat3 B = inv_rest_shape(mesh, t);
            for (int column = 0; column < 3; ++column) {
                for (int row = 0; row < 3; ++row) {
                    blocks.b[3 * column + row][slot] = B[column][row];
                }
            }
            const float v0 = mesh.rest_volumes_m3[t];
            blocks.signed_rest_volume[slot] = is_sliver(mesh, t) ? -v0 : v0;
            ++slot;
        }
        // Padding: a unit tet collapsed on the share's dummy vertex, with no
        // mass and no volume term: collapsed, it would count as inside out
        // and take the barrier's further steps at every visit.
        const uint32_t dummy = blocks.dummy_vertex + static_cast<uint32_t>(run_share[r]);
        for (; slot < run_end; ++slot) {
            for (int a = 0; a < 4; ++a) {
                blocks.corner[a][slot] = static_cast<int32_t>(dummy);
            }
            for (int i = 0; i < 9; ++i) {
                blocks.b[i][slot] = (i % 4 == 0) ? 1.0f : 0.0f;
            }
            blocks.signed_rest_volume[slot] = 1.0f;
            blocks.shape_compliance[slot] = 1.0f;
            blocks.volume_compliance[slot] = -1.0f;
        }
    }
    return blocks;
}

void set_block_compliances(TetBlocks& blocks, const std::vector<uint32_t>& vertex_body,
                           const std::vector<LameParameters>& body_lame)
{
    for (size_t block = 0; block < blocks.block_count; ++block) {
        const size_t first = block * blocks.lanes;
        for (size_t slot = first; slot < first + blocks.block_tet_count[block]; ++slot) {
            const float signed_v0 = blocks.signed_rest_volume[slot];
            const uint32_t body = vertex_body[static_cast<uint32_t>(blocks.corner[0][slot])];
            const TetCompliances c =
                tet_compliances(body_lame[body], std::abs(signed_v0), signed_v0 < 0.0f);
            blocks.shape_compliance[slot] = c.shape;
            blocks.volume_compliance[slot] = c.volume;
        }
    }
}

std::vector<uint32_t> block_slot_tets(const TetBlocks& blocks, const TetMesh& mesh)
{
    const Csr corners = vertex_tet_corners(mesh);
    std::vector<uint32_t> slot_tets(blocks.block_count * blocks.lanes, kPaddingSlot);
    for (size_t block = 0; block < blocks.block_count; ++block) {
        const size_t first = block * blocks.lanes;
        for (size_t slot = first; slot < first + blocks.block_tet_count[block]; ++slot) {
            glm::uvec4 tet;
            for (int a = 0; a < 4; ++a) tet[a] = static_cast<uint32_t>(blocks.corner[a][slot]);
            // A mesh holds no two tets of the same four corners (prepare_tet_mesh).
            for (uint32_t e = corners.begin(tet.x); e < corners.end(tet.x); ++e) {
                const uint32_t t = corners.entries[e] / 4;
                if (mesh.tets[t] == tet) {
                    slot_tets[slot] = t;
                    break;
                }
            }
        }
    }
    return slot_tets;
}

void set_block_multipliers_to_zero(TetBlocks& blocks)
{
    const size_t slots = blocks.block_count * static_cast<size_t>(blocks.lanes);
    for (AlignedArray<float>& entry : blocks.lambda_shape) std::fill_n(entry.data(), slots, 0.0f);
    std::fill_n(blocks.lambda_volume.data(), slots, 0.0f);
}

void set_block_rotations_to_identity(TetBlocks& blocks)
{
    const size_t slots = blocks.block_count * static_cast<size_t>(blocks.lanes);
    for (int i = 0; i < 4; ++i) {
        std::fill_n(blocks.rotation[i].data(), slots, tet_math::TM_IDENTITY_ROTATION[i]);
    }
}

TetBlockArrays block_arrays(TetBlocks& blocks)
{
    TetBlockArrays arrays;
    arrays.lanes = blocks.lanes;
    arrays.block_tet_count = blocks.block_tet_count.data();
    for (int a = 0; a < 4; ++a) arrays.corner[a] = blocks.corner[a].data();
    for (int i = 0; i < 9; ++i) {
        arrays.b[i] = blocks.b[i].data();
    }
    arrays.signed_rest_volume = blocks.signed_rest_volume.data();
    arrays.shape_compliance = blocks.shape_compliance.data();
    arrays.volume_compliance = blocks.volume_compliance.data();
    for (int i = 0; i < 9; ++i) arrays.lambda_shape[i] = blocks.lambda_shape[i].data();
    arrays.lambda_volume = blocks.lambda_volume.data();
    for (int i = 0; i < 4; ++i) arrays.rotation[i] = blocks.rotation[i].data();
    return arrays;
}
