// The rest sphere's shortcut for the contact search's own-body
// neighbourhood: wherever it decides, it decides as cm_rest_neighbours does,
// over random triangles of many sizes, far from the origin or near it, and
// vertices about the exclusion radius; and it decides most of them.
#include "core/contact_math.h"
#include "core/rest_sphere.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

TEST(RestSphere, DecidesAsTheCornersDoWhereverItDecides)
{
    std::mt19937 rng(20261202);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_real_distribution<float> fraction(0.0f, 1.0f);
    const auto direction = [&] {
        glm::vec3 d(unit(rng), unit(rng), unit(rng));
        return glm::length(d) > 1e-3f ? glm::normalize(d) : glm::vec3(1.0f, 0.0f, 0.0f);
    };
    size_t decided = 0, neighbours = 0, strangers = 0, disagreements = 0;
    const size_t samples = 200000;
    for (size_t i = 0; i < samples; ++i) {
        const float size = std::pow(10.0f, -3.0f + 3.0f * fraction(rng));    // 1 mm .. 1 m
        const float offset = std::pow(10.0f, -1.0f + 4.0f * fraction(rng));  // 0.1 m .. 1 km
        const glm::vec3 a = offset * direction();
        const glm::vec3 b = a + size * direction();
        const glm::vec3 c = a + size * fraction(rng) * direction();
        const float exclusion = size * (0.5f + 2.5f * fraction(rng));
        // A vertex about the exclusion radius from one of the corners.
        const glm::vec3 corner = i % 3 == 0 ? a : i % 3 == 1 ? b : c;
        const glm::vec3 rest = corner + 2.0f * exclusion * fraction(rng) * direction();
        const float reach = std::max({std::abs(a.x), std::abs(a.y), std::abs(a.z),
                                      std::abs(rest.x), std::abs(rest.y), std::abs(rest.z)});
        const glm::vec4 sphere = rest_sphere(a, b, c, 1e-5 * (reach + exclusion) + 1e-30);
        const SphereSays says = rest_neighbours_by_sphere(sphere, rest, exclusion);
        if (says == SphereSays::undecided) {
            continue;
        }
        ++decided;
        const bool corners_say = contact_math::cm_rest_neighbours(rest, a, b, c, exclusion);
        (corners_say ? neighbours : strangers) += 1;
        disagreements += (says == SphereSays::neighbours) != corners_say ? 1 : 0;
    }
    std::printf("%zu of %zu decided by the sphere (%zu neighbours, %zu not), %zu otherwise than "
                "the corners\n",
                decided, samples, neighbours, strangers, disagreements);
    EXPECT_EQ(disagreements, 0u);
    EXPECT_GT(decided, samples / 3);  // measured: 47%, vertices chosen about the radius
    EXPECT_GT(neighbours, samples / 10);
    EXPECT_GT(strangers, samples / 10);
}
