// The drawn wall and markers that show a body's pinned vertices.
#include "test_support.h"

#include "core/pinned_fixtures.h"

#include <algorithm>
#include <cmath>

TEST(PinnedFixtures, TheBeamHangsFromAWallOnTheGround)
{
    const std::shared_ptr<const World> beam = single_body_world(preset_mesh(PresetId::beam));
    const size_t pinned =
        static_cast<size_t>(std::count(beam->mesh->pinned.begin(), beam->mesh->pinned.end(), 1));
    ASSERT_GT(pinned, 0u);
    const PinnedFixtures fixtures = pinned_fixtures(*beam, true);
    EXPECT_EQ(fixtures.markers.size(), pinned);
    ASSERT_EQ(fixtures.walls.size(), 1u);
    const Obstacle& wall = fixtures.walls[0];
    // The beam is pinned at its left face, x = -0.6 m, and reaches +x: the
    // wall's right face is that face, the wall behind it, standing on y = 0.
    EXPECT_NEAR(wall.a.x + wall.b.x, -0.6f, 1e-5f);
    EXPECT_LT(wall.a.x - wall.b.x, -0.6f);
    EXPECT_NEAR(wall.a.y - wall.b.y, 0.0f, 1e-5f);
    for (const Obstacle& marker : fixtures.markers) {
        EXPECT_NEAR(marker.a.x, -0.6f, 1e-5f);
        EXPECT_GT(marker.radius_m, 0.0f);
    }
    // Without the ground the wall ends just below the face.
    EXPECT_GT(pinned_fixtures(*beam, false).walls[0].a.y - pinned_fixtures(*beam, false).walls[0].b.y,
              0.5f);
}

TEST(PinnedFixtures, AFreeBodyHasNone)
{
    const PinnedFixtures fixtures =
        pinned_fixtures(*single_body_world(preset_mesh(PresetId::cube)), true);
    EXPECT_TRUE(fixtures.walls.empty());
    EXPECT_TRUE(fixtures.markers.empty());
}

TEST(PinnedFixtures, APointOrALineGetsMarkersButNoWall)
{
    // The cube with one corner pinned, then one edge.
    Result<TetMeshDesc> cube = make_preset_mesh(PresetId::cube, PresetPose::upright);
    ASSERT_TRUE(cube.ok()) << cube.error();
    TetMeshDesc one = cube.value();
    one.pinned_vertices = {0};
    PinnedFixtures fixtures = pinned_fixtures(*single_body_world(prepare_or_fail(one)), true);
    EXPECT_EQ(fixtures.markers.size(), 1u);
    EXPECT_TRUE(fixtures.walls.empty());
    TetMeshDesc edge = cube.value();
    const glm::vec3 corner = edge.positions[0];
    for (uint32_t v = 0; v < edge.positions.size(); ++v) {
        const glm::vec3 d = edge.positions[v] - corner;
        if (std::abs(d.y) < 1e-5f && std::abs(d.z) < 1e-5f) edge.pinned_vertices.push_back(v);
    }
    ASSERT_GT(edge.pinned_vertices.size(), 2u);
    fixtures = pinned_fixtures(*single_body_world(prepare_or_fail(edge)), true);
    EXPECT_EQ(fixtures.markers.size(), edge.pinned_vertices.size());
    EXPECT_TRUE(fixtures.walls.empty());
}
