// The CPU Gauss-Seidel pass's layout (tet_blocks.h): every tet in exactly
// one lane with its own rest data, and the compliances each lane takes from
// its body the very numbers the solvers' per-tet arrays hold.
#include "contact_worlds.h"
#include "sliver_meshes.h"
#include "test_support.h"

#include "core/body_materials.h"
#include "core/simd/tet_blocks.h"

#include <cmath>

using namespace contact_worlds;

namespace {

// Two bodies of other materials: a cube with slivers and, above it, a
// lattice cube with nu = 0 (no volume term but its slivers').
std::shared_ptr<const World> sliver_cube_under_cube()
{
    WorldDesc desc;
    desc.name = "slivers under a cube";
    int slivers = 0;
    BodyDesc slivered;
    slivered.mesh = sliver_cube(1.0e-3, 0.0f, &slivers);
    slivered.material = BodyMaterial{2.0e5f, 0.3f, 1000.0f};
    EXPECT_GT(slivers, 10);
    desc.bodies.push_back(slivered);
    BodyDesc plain = lattice_cube(0.3f, 4, {0.0f, 1.0f, 0.0f});
    plain.material = BodyMaterial{5.0e4f, 0.0f, 500.0f};
    desc.bodies.push_back(plain);
    return assembled(desc);
}

}  // namespace

TEST(TetBlocks, EveryTetInOneLaneWithItsRestVolumeAndBodysCompliances)
{
    const std::shared_ptr<const World> world = sliver_cube_under_cube();
    ASSERT_TRUE(world);
    const TetMesh& mesh = *world->mesh;
    std::vector<BodyMaterial> materials;
    std::vector<LameParameters> body_lame;
    for (const WorldBody& body : world->bodies) {
        materials.push_back(*body.material);
        body_lame.push_back(lame_parameters(body.material->youngs_modulus_pa,
                                            body.material->poisson_ratio));
    }
    const MaterialArrays per_tet = material_arrays(*world, materials);

    for (const int lanes : {4, 16}) {
        for (const size_t shares : {size_t{1}, size_t{2}}) {
            // Two shares: a body each (bodies share no vertex).
            std::vector<uint32_t> tet_share;
            for (size_t t = 0; shares == 2 && t < mesh.tet_count(); ++t) {
                tet_share.push_back(tet_body(*world, t));
            }
            TetBlocks blocks = make_tet_blocks(mesh, lanes, tet_share, shares);
            set_block_compliances(blocks, world->vertex_body, body_lame);
            const std::vector<uint32_t> slot_tets = block_slot_tets(blocks, mesh);
            std::vector<int> lanes_of_tet(mesh.tet_count(), 0);
            size_t slivers = 0;
            size_t without_volume_term = 0;
            for (size_t slot = 0; slot < slot_tets.size(); ++slot) {
                const uint32_t t = slot_tets[slot];
                if (t == kPaddingSlot) {
                    EXPECT_GE(static_cast<uint32_t>(blocks.corner[0][slot]), blocks.dummy_vertex);
                    EXPECT_LT(blocks.volume_compliance[slot], 0.0f)
                        << "padding, collapsed, takes no volume step";
                    continue;
                }
                ++lanes_of_tet[t];
                const float v0 = mesh.rest_volumes_m3[t];
                EXPECT_EQ(blocks.signed_rest_volume[slot], is_sliver(mesh, t) ? -v0 : v0)
                    << "tet " << t;
                EXPECT_EQ(blocks.shape_compliance[slot], per_tet.shape_compliance[t])
                    << "tet " << t;
                EXPECT_EQ(blocks.volume_compliance[slot], per_tet.volume_compliance[t])
                    << "tet " << t;
                slivers += is_sliver(mesh, t);
                without_volume_term += blocks.volume_compliance[slot] < 0.0f;
            }
            for (size_t t = 0; t < mesh.tet_count(); ++t) {
                EXPECT_EQ(lanes_of_tet[t], 1) << "tet " << t << ", " << lanes << " lanes";
            }
            EXPECT_GT(slivers, 10u);
            EXPECT_EQ(without_volume_term, world->bodies[1].tet_count)
                << "the nu = 0 cube's tets have none";
        }
    }
}
