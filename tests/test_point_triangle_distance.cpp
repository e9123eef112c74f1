// Point-triangle distance: each Voronoi region against a known answer, and
// random triangles against a dense sampling of the triangle.
#include "core/point_triangle_distance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace {

const glm::dvec3 kA(0.0, 0.0, 0.0), kB(2.0, 0.0, 0.0), kC(0.0, 2.0, 0.0);

double to_abc(const glm::dvec3& p) { return point_triangle_distance(p, kA, kB, kC); }

}  // namespace

TEST(PointTriangleDistance, EachRegionOfARightTriangle)
{
    EXPECT_DOUBLE_EQ(to_abc({0.5, 0.5, 3.0}), 3.0);                      // face, above
    EXPECT_DOUBLE_EQ(to_abc({0.5, 0.5, -0.25}), 0.25);                   // face, below
    EXPECT_DOUBLE_EQ(to_abc({-3.0, -4.0, 0.0}), 5.0);                    // vertex a
    EXPECT_DOUBLE_EQ(to_abc({5.0, -4.0, 0.0}), 5.0);                     // vertex b
    EXPECT_DOUBLE_EQ(to_abc({0.0, 5.0, 4.0}), 5.0);                      // vertex c
    EXPECT_DOUBLE_EQ(to_abc({1.0, -3.0, 4.0}), 5.0);                     // edge ab
    EXPECT_DOUBLE_EQ(to_abc({-3.0, 1.0, 4.0}), 5.0);                     // edge ca
    EXPECT_DOUBLE_EQ(to_abc({2.0, 2.0, 0.0}), std::sqrt(2.0));          // edge bc
    EXPECT_DOUBLE_EQ(to_abc({0.5, 0.5, 0.0}), 0.0);                      // on the face
}

TEST(PointTriangleDistance, DegenerateTrianglesAreTheirEdges)
{
    // Three points on a line, and one point three times.
    EXPECT_DOUBLE_EQ(point_triangle_distance({1.0, 1.0, 0.0}, kA, kB, {1.0, 0.0, 0.0}), 1.0);
    EXPECT_DOUBLE_EQ(point_triangle_distance({3.0, 4.0, 0.0}, kA, kA, kA), 5.0);
}

TEST(PointTriangleDistance, NeverFartherThanTheNearestSampleNorMuchNearer)
{
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    constexpr int kSteps = 200;  // samples on a grid of the barycentric triangle
    for (int trial = 0; trial < 50; ++trial) {
        const glm::dvec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)),
            c(u(rng), u(rng), u(rng)), p(2.0 * u(rng), 2.0 * u(rng), 2.0 * u(rng));
        double sampled = std::numeric_limits<double>::infinity();
        for (int i = 0; i <= kSteps; ++i) {
            for (int j = 0; i + j <= kSteps; ++j) {
                const double s = double(i) / kSteps, t = double(j) / kSteps;
                sampled = std::min(sampled, glm::length(p - (a + s * (b - a) + t * (c - a))));
            }
        }
        const double exact = point_triangle_distance(p, a, b, c);
        // Every point of the triangle lies in a sampled sub-triangle, within
        // that sub-triangle's longest edge of a sample.
        const double spacing =
            std::max({glm::length(b - a), glm::length(c - a), glm::length(c - b)}) / kSteps;
        EXPECT_LE(exact, sampled + 1e-12) << "trial " << trial;
        EXPECT_GE(exact, sampled - spacing) << "trial " << trial;
    }
}
