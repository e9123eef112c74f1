// The obstacles' columns: a vertex is offered every obstacle whose box holds
// it, in index order, and far fewer than all of them where boxes are apart.
#include "core/contact_math.h"
#include "core/obstacle_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

TEST(ObstacleGrid, OffersEveryObstacleWhoseBoxHoldsTheVertexInIndexOrder)
{
    std::mt19937 rng(20261203);
    std::uniform_real_distribution<float> place(-20.0f, 20.0f);
    std::uniform_real_distribution<float> size(0.01f, 3.0f);
    std::vector<glm::vec3> boxes;
    for (int o = 0; o < 40; ++o) {
        const glm::vec3 centre(place(rng), place(rng) * 0.1f, place(rng));
        const glm::vec3 half(size(rng), size(rng), size(rng));
        boxes.push_back(centre - half);
        boxes.push_back(centre + half);
    }
    // Thin walls, as around a bin, and one box whose corner the grid's far
    // edge runs through exactly.
    boxes.push_back({-25.0f, 0.0f, -1.0f});
    boxes.push_back({-24.95f, 0.7f, 1.0f});
    boxes.push_back({24.0f, 0.0f, 24.0f});
    boxes.push_back({25.0f, 1.0f, 25.0f});
    const size_t obstacles = boxes.size() / 2;
    ObstacleGrid grid;
    grid.build(boxes);

    size_t offered = 0;
    size_t points = 0;
    std::uniform_real_distribution<float> anywhere(-27.0f, 27.0f);
    const auto check = [&](const glm::vec3& x) {
        const std::span<const uint32_t> near = grid.near(x);
        ASSERT_TRUE(std::is_sorted(near.begin(), near.end()));
        for (size_t o = 0; o < obstacles; ++o) {
            if (contact_math::cm_in_box(x, boxes[2 * o], boxes[2 * o + 1])) {
                EXPECT_TRUE(std::find(near.begin(), near.end(), o) != near.end())
                    << "obstacle " << o << " holds (" << x.x << ", " << x.y << ", " << x.z
                    << ") but is not offered";
            }
        }
        offered += near.size();
        ++points;
    };
    for (int i = 0; i < 100000; ++i) {
        check({anywhere(rng), anywhere(rng) * 0.1f, anywhere(rng)});
    }
    // The boxes' own corners and edges, where a column boundary may fall.
    for (size_t o = 0; o < obstacles; ++o) {
        const glm::vec3 lo = boxes[2 * o];
        const glm::vec3 hi = boxes[2 * o + 1];
        for (int corner = 0; corner < 8; ++corner) {
            check({corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z});
        }
    }
    const double mean = static_cast<double>(offered) / static_cast<double>(points);
    std::printf("%zu obstacles: %.2f offered on average\n", obstacles, mean);
    EXPECT_LT(mean, 0.25 * static_cast<double>(obstacles)) << "the columns leave most out";
}

TEST(ObstacleGrid, ABoxWithoutBoundsIsOfferedEverywhere)
{
    const std::vector<glm::vec3> boxes = {{-1.0f, 0.0f, -1.0f},
                                          {1.0f, 1.0f, 1.0f},
                                          {-INFINITY, -INFINITY, -INFINITY},
                                          {INFINITY, 0.0f, INFINITY}};
    ObstacleGrid grid;
    grid.build(boxes);
    const std::span<const uint32_t> near = grid.near({1e6f, -5.0f, -1e6f});
    EXPECT_EQ(near.size(), 2u);
    EXPECT_TRUE(grid.near({0.0f, 0.0f, 0.0f}).size() == 2u);
}

TEST(ObstacleGrid, NoObstaclesOfferNone)
{
    ObstacleGrid grid;
    grid.build({});
    EXPECT_TRUE(grid.near({0.0f, 0.0f, 0.0f}).empty());
}
