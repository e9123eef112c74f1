// The arena walls: four boxes around the stage that keep a thrown body on it.
#include "test_support.h"

#include "core/arena.h"

#include <algorithm>

TEST(Arena, WallsStandOnTheGroundAroundTheCentre)
{
    const std::vector<Obstacle> walls = arena_walls(glm::vec3(1.0f, 5.0f, -2.0f), 3.0f);
    ASSERT_EQ(walls.size(), 4u);
    for (const Obstacle& wall : walls) {
        EXPECT_EQ(wall.shape, ObstacleShape::box);
        EXPECT_NEAR(wall.a.y + wall.b.y, kArenaWallHeightM, 1e-6f);
        EXPECT_LT(wall.a.y - wall.b.y, -0.5f) << "sunk into the ground";
        // Each inner face lies 3 m from the centre.
        const glm::vec3 offset = wall.a - glm::vec3(1.0f, 0.0f, -2.0f);
        const float inner = std::max(std::abs(offset.x), std::abs(offset.z)) -
                            (std::abs(offset.x) > std::abs(offset.z) ? wall.b.x : wall.b.z);
        EXPECT_NEAR(inner, 3.0f, 1e-5f);
    }
    EXPECT_FLOAT_EQ(arena_half_size_m(glm::vec3(-0.3f), glm::vec3(0.3f)), 2.5f);  // at least
    EXPECT_FLOAT_EQ(arena_half_size_m(glm::vec3(-4.0f), glm::vec3(4.0f, 1.0f, 2.0f)), 5.0f);
    EXPECT_FLOAT_EQ(arena_half_size_m(glm::vec3(NAN), glm::vec3(1.0f)), 2.5f);
}

TEST(Arena, ACubeThrownAtAWallStaysInside)
{
    // A 0.5 m cube thrown at 8 m/s along +x from the middle of a 3 m arena.
    Result<TetMeshDesc> cube = make_preset_mesh(PresetId::cube, PresetPose::upright);
    ASSERT_TRUE(cube.ok()) << cube.error();
    WorldDesc desc;
    desc.name = "arena";
    BodyDesc body;
    body.mesh = std::move(cube).value();
    body.position_m = glm::vec3(0.0f, 0.3f, 0.0f);
    body.velocity_m_s = glm::vec3(8.0f, 0.0f, 0.0f);
    desc.bodies.push_back(std::move(body));
    desc.obstacles = arena_walls(glm::vec3(0.0f), 1.5f);
    Result<World> world = assemble_world(desc);
    ASSERT_TRUE(world.ok()) << world.error();
    CpuSolver solver;
    solver.load(std::make_shared<const World>(std::move(world).value()));
    SimParams params;
    params.youngs_modulus_pa = 2.0e5f;
    float farthest = 0.0f;
    for (int frame = 0; frame < 120; ++frame) {
        solver.step_frame(params);
        for (const glm::vec3& p : solver.positions()) {
            farthest = std::max({farthest, std::abs(p.x), std::abs(p.z)});
        }
    }
    std::printf("cube thrown at 8 m/s inside a 3 m arena: farthest vertex %.3f m from the middle\n",
                farthest);
    EXPECT_LT(farthest, 1.5f + 0.01f);
    EXPECT_GT(farthest, 1.4f) << "it reached the wall";
    const SimStats end = compute_stats(solver.mesh(), solver.positions(), solver.velocities());
    EXPECT_EQ(end.nan_count, 0u);
    EXPECT_EQ(end.inverted_tets, 0u);
}
