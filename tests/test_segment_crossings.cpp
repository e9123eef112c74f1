// The tree of triangle boxes finds exactly the first crossing that testing
// every triangle finds, on the bunny, for segments as short as lattice
// edges and for long ones.
#include "core/bunny.h"
#include "core/segment_crossings.h"
#include "core/surface_mesh.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>

namespace {

std::optional<double> first_hit_of_every_triangle(const SurfaceMesh& s, const glm::vec3& from,
                                                  const glm::vec3& to)
{
    std::optional<double> best;
    for (const glm::uvec3& t : s.triangles) {
        const std::optional<double> hit =
            segment_hits_triangle(from, to, s.positions[t.x], s.positions[t.y], s.positions[t.z]);
        if (hit && (!best || *hit < *best)) best = hit;
    }
    return best;
}

}  // namespace

TEST(SegmentCrossings, SameFirstHitAsEveryTriangleOnTheBunny)
{
    Result<SurfaceMesh> bunny = load_obj_surface(asset_directory() + "/bunny.obj");
    ASSERT_TRUE(bunny.ok()) << bunny.error();
    const SurfaceMesh& s = bunny.value();
    const SegmentCrossings crossings(s);
    const Bounds box = surface_bounds(s);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    size_t hits = 0;
    double tree_s = 0.0;
    for (const float length : {0.3f, 3.0f, 20.0f}) {  // the bunny is about 10 across
        for (int i = 0; i < 2000; ++i) {
            const glm::vec3 from =
                box.lo + glm::vec3(unit(rng), unit(rng), unit(rng)) * box.size();
            const glm::vec3 dir =
                glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng)) - 0.5f);
            const glm::vec3 to = from + length * dir;
            const auto start = std::chrono::steady_clock::now();
            const std::optional<double> fast = crossings.first_hit(from, to);
            tree_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const std::optional<double> exact = first_hit_of_every_triangle(s, from, to);
            ASSERT_EQ(fast.has_value(), exact.has_value()) << "segment " << i;
            if (exact) {
                ASSERT_EQ(*fast, *exact) << "segment " << i;
                ++hits;
            }
        }
    }
    std::printf("[ bunny        ] %zu of 6000 segments hit, %.2f us a query\n", hits,
                tree_s / 6000 * 1e6);
    EXPECT_GT(hits, 1000u);
    EXPECT_FALSE(SegmentCrossings(SurfaceMesh{}).first_hit({0, 0, 0}, {1, 1, 1}).has_value());
}
