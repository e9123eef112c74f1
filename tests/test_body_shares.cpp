// The bodies of a world shared out among the CPU solver's threads: whole
// bodies, near even, the same split every time; none where no even split
// exists. That the shared-out pass gives the same bits as one thread is
// BodyContact.RunsAreBitIdenticalWhateverTheThreadCount.
#include "contact_worlds.h"
#include "test_support.h"

#include "core/body_shares.h"
#include "core/scenes.h"
#include "core/simd/tet_blocks.h"

using namespace contact_worlds;

TEST(BodyShares, ThePileSplitsIntoTwoNearEvenSharesOfWholeBodies)
{
    Result<WorldDesc> desc = make_builtin_scene("pile");
    ASSERT_TRUE(desc.ok()) << desc.error();
    const std::shared_ptr<const World> world = assembled(desc.value());
    ASSERT_TRUE(world);
    const std::vector<uint32_t> share = share_bodies_among(*world, 2);
    ASSERT_EQ(share.size(), world->mesh->tet_count());
    size_t tets[2] = {0, 0};
    for (const WorldBody& body : world->bodies) {
        const uint32_t s = share[body.first_tet];
        ASSERT_LT(s, 2u);
        for (uint32_t t = body.first_tet; t < body.first_tet + body.tet_count; ++t) {
            EXPECT_EQ(share[t], s) << "a body is not split";
        }
        tets[s] += body.tet_count;
    }
    std::printf("pile: %zu and %zu tets\n", tets[0], tets[1]);
    EXPECT_LE(std::max(tets[0], tets[1]) * 2.0, kMaxShareImbalance * world->mesh->tet_count());
    EXPECT_EQ(share_bodies_among(*world, 2), share) << "the same split every time";

    // Laid out share by share, colour by colour: each (share, colour) run
    // holds exactly that share's tets of that colour, padded onto the
    // share's own dummy vertex.
    const TetBlocks blocks = make_tet_blocks(*world->mesh, 8, share, 2);
    ASSERT_EQ(blocks.color_blocks.size(), 2 * blocks.colors + 1);
    std::vector<uint32_t> tet_color(world->mesh->tet_count());
    for (uint32_t c = 0; c < world->mesh->tet_colors.rows(); ++c) {
        for (uint32_t e = world->mesh->tet_colors.begin(c); e < world->mesh->tet_colors.end(c); ++e) {
            tet_color[world->mesh->tet_colors.entries[e]] = c;
        }
    }
    const std::vector<uint32_t> slot_tets = block_slot_tets(blocks, *world->mesh);
    size_t laid_out = 0;
    for (size_t run = 0; run + 1 < blocks.color_blocks.size(); ++run) {
        for (size_t slot = blocks.color_blocks[run] * 8; slot < blocks.color_blocks[run + 1] * 8;
             ++slot) {
            const uint32_t t = slot_tets[slot];
            if (t == kPaddingSlot) {
                EXPECT_EQ(static_cast<uint32_t>(blocks.corner[0][slot]),
                          blocks.dummy_vertex + run / blocks.colors);
                continue;
            }
            EXPECT_EQ(share[t], run / blocks.colors);
            EXPECT_EQ(tet_color[t], run % blocks.colors);
            ++laid_out;
        }
    }
    EXPECT_EQ(laid_out, world->mesh->tet_count());
}

TEST(BodyShares, NoneWithoutAnEvenSplit)
{
    // Two equal cubes split; not on one thread, nor on more threads than
    // bodies, nor when the cubes are too small to be worth a thread.
    const std::shared_ptr<const World> two = assembled(cube_dropped_on_cube(8));
    ASSERT_TRUE(two);
    EXPECT_FALSE(share_bodies_among(*two, 2).empty()) << "two equal cubes split evenly";
    EXPECT_TRUE(share_bodies_among(*two, 1).empty());
    EXPECT_TRUE(share_bodies_among(*two, 3).empty()) << "fewer bodies than threads";
    const std::shared_ptr<const World> small = assembled(cube_dropped_on_cube(4));
    ASSERT_TRUE(small);
    EXPECT_LT(small->bodies[0].tet_count, kMinTetsPerShare);
    EXPECT_TRUE(share_bodies_among(*small, 2).empty());

    // A large cube beside a small one.
    WorldDesc uneven = cube_dropped_on_cube(4);
    uneven.bodies[0] = lattice_cube(0.3f, 12, {0.0f, 0.15f, 0.0f});
    const std::shared_ptr<const World> lopsided = assembled(uneven);
    ASSERT_TRUE(lopsided);
    EXPECT_TRUE(share_bodies_among(*lopsided, 2).empty());
}
