// The box tree answers exactly what testing every box answers.
#include "core/box_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace {

// Boxes of many sizes, some thin, some spanning most of the world, as the
// tets of a deformed world are.
std::vector<BoxD> random_boxes(std::mt19937& rng, size_t count)
{
    std::uniform_real_distribution<double> where(-1.0, 1.0), size_exp(-4.0, 0.0);
    std::vector<BoxD> boxes(count);
    for (BoxD& b : boxes) {
        const glm::dvec3 lo(where(rng), where(rng), where(rng));
        const glm::dvec3 size(std::pow(10.0, size_exp(rng)), std::pow(10.0, size_exp(rng)),
                              std::pow(10.0, size_exp(rng)));
        b.add(lo);
        b.add(lo + size);
    }
    return boxes;
}

}  // namespace

TEST(BoxTree, ContainingBoxesAreExactlyThoseThatHoldThePoint)
{
    std::mt19937 rng(7);
    const std::vector<BoxD> boxes = random_boxes(rng, 3000);
    const BoxTree tree(boxes);
    std::uniform_real_distribution<double> where(-1.0, 1.5);
    size_t hits = 0;
    for (int q = 0; q < 500; ++q) {
        // Half the queries on a box's corner: the boundary counts.
        const glm::dvec3 p = q % 2 ? glm::dvec3(where(rng), where(rng), where(rng))
                                   : boxes[static_cast<size_t>(q) * 5].hi;
        std::vector<uint32_t> expected, found;
        for (uint32_t i = 0; i < boxes.size(); ++i) {
            if (boxes[i].contains(p)) expected.push_back(i);
        }
        tree.for_each_containing(p, [&](uint32_t i) { found.push_back(i); });
        std::sort(found.begin(), found.end());
        EXPECT_EQ(found, expected) << "query " << q;
        hits += found.size();
    }
    EXPECT_GT(hits, 300u);  // the queries do land in boxes, each corner in its own at least
}

TEST(BoxTree, NearestIsTheSmallestDistanceOverAllItems)
{
    std::mt19937 rng(11);
    const std::vector<BoxD> boxes = random_boxes(rng, 2000);
    const BoxTree tree(boxes);
    // Distance to the box's centre, never below the distance to the box;
    // odd items left out.
    auto distance = [&](const glm::dvec3& p, uint32_t i) {
        if (i % 2) return std::numeric_limits<double>::infinity();
        return glm::length(p - 0.5 * (boxes[i].lo + boxes[i].hi));
    };
    std::uniform_real_distribution<double> where(-2.0, 2.0);
    for (int q = 0; q < 300; ++q) {
        const glm::dvec3 p(where(rng), where(rng), where(rng));
        double expected = std::numeric_limits<double>::infinity();
        for (uint32_t i = 0; i < boxes.size(); ++i) expected = std::min(expected, distance(p, i));
        EXPECT_EQ(tree.nearest(p, distance), expected) << "query " << q;
    }
}

TEST(BoxTree, EmptyTreeFindsNothing)
{
    const BoxTree tree(std::vector<BoxD>{});
    bool visited = false;
    tree.for_each_containing(glm::dvec3(0.0), [&](uint32_t) { visited = true; });
    EXPECT_FALSE(visited);
    EXPECT_EQ(tree.nearest(glm::dvec3(0.0), [](const glm::dvec3&, uint32_t) { return 0.0; }),
              std::numeric_limits<double>::infinity());
}
