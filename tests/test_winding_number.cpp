// The fast winding number (a tree of multipole expansions) against the
// exact sum over every triangle, on the bunny and on an 80,000-triangle
// sphere, and at coordinates near the ends of the float range.
#include "mesh_shapes.h"

#include "core/bunny.h"
#include "core/surface_mesh.h"
#include "core/winding_number.h"

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>

#include <chrono>
#include <cstdio>
#include <random>

namespace {

// The exact field, written out again here so that the test does not trust
// the code under test: the sum of signed solid angles over all triangles
// (Van Oosterom and Strackee 1983), in double.
double brute_force_winding_number(const SurfaceMesh& s, const glm::dvec3& p)
{
    double sum = 0.0;
    for (const glm::uvec3& t : s.triangles) {
        const glm::dvec3 a = glm::dvec3(s.positions[t.x]) - p;
        const glm::dvec3 b = glm::dvec3(s.positions[t.y]) - p;
        const glm::dvec3 c = glm::dvec3(s.positions[t.z]) - p;
        const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
        sum += 2.0 * std::atan2(glm::dot(a, glm::cross(b, c)),
                                la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la +
                                    glm::dot(c, a) * lb);
    }
    return sum / (4.0 * glm::pi<double>());
}

SurfaceMesh surface_of(const ObjShape& shape)
{
    return SurfaceMesh{shape.v, shape.f};
}

// Random points in the surface's bounding box grown by a quarter on every
// side, so that some are outside.
std::vector<glm::vec3> random_points(const SurfaceMesh& s, size_t count, unsigned seed)
{
    glm::vec3 lo = s.positions[0], hi = lo;
    for (const glm::vec3& p : s.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const glm::vec3 margin = 0.25f * (hi - lo);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<glm::vec3> points(count);
    for (glm::vec3& p : points) {
        p = lo - margin + glm::vec3(unit(rng), unit(rng), unit(rng)) * (hi - lo + 2.0f * margin);
    }
    return points;
}

// Distance from p to the nearest triangle corner or centroid: an upper
// bound on the distance to the surface, tight enough on a fine mesh to
// tell points near it from points away from it.
double distance_to_samples(const SurfaceMesh& s, const glm::vec3& p)
{
    double best = INFINITY;
    for (const glm::uvec3& t : s.triangles) {
        const glm::vec3 centroid =
            (s.positions[t.x] + s.positions[t.y] + s.positions[t.z]) / 3.0f;
        for (const glm::vec3& q : {s.positions[t.x], centroid}) {
            best = std::min(best, static_cast<double>(glm::length(q - p)));
        }
    }
    return best;
}

struct Comparison {
    double max_error_away = 0.0;  // at points farther than `near` from the surface
    double max_error = 0.0;       // at all points
    size_t away = 0;
    double tree_us = 0.0, brute_us = 0.0;  // per point
};

Comparison compare_with_brute_force(const SurfaceMesh& s, const std::vector<glm::vec3>& points,
                                    double near)
{
    const WindingNumberField field(s);
    Comparison c;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<double> fast(points.size());
    for (size_t i = 0; i < points.size(); ++i) fast[i] = field.at(points[i]);
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<double> exact(points.size());
    for (size_t i = 0; i < points.size(); ++i) exact[i] = brute_force_winding_number(s, points[i]);
    const auto t2 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < points.size(); ++i) {
        const double error = std::abs(fast[i] - exact[i]);
        c.max_error = std::max(c.max_error, error);
        if (distance_to_samples(s, points[i]) > near) {
            c.max_error_away = std::max(c.max_error_away, error);
            ++c.away;
        }
    }
    c.tree_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / points.size();
    c.brute_us = std::chrono::duration<double, std::micro>(t2 - t1).count() / points.size();
    return c;
}

}  // namespace

TEST(WindingNumber, TreeMatchesTheExactSumOnTheBunny)
{
    Result<SurfaceMesh> bunny = load_obj_surface(asset_directory() + "/bunny.obj");
    ASSERT_TRUE(bunny.ok()) << bunny.error();
    const std::vector<glm::vec3> points = random_points(bunny.value(), 2000, 1);
    // The bunny is about 10 units across; its triangles about 0.2.
    const Comparison c = compare_with_brute_force(bunny.value(), points, 0.1);
    std::printf("[ bunny        ] %zu of %zu points away from the surface: max |error| %.2e "
                "(%.2e at all), %.1f us a point (exact sum %.1f us)\n",
                c.away, points.size(), c.max_error_away, c.max_error, c.tree_us, c.brute_us);
    EXPECT_GT(c.away, points.size() / 2);
    EXPECT_LT(c.max_error_away, 0.01);
}

TEST(WindingNumber, TreeMatchesTheExactSumOnEightyThousandTriangles)
{
    const SurfaceMesh sphere = surface_of(icosphere(6));
    ASSERT_EQ(sphere.triangles.size(), 81920u);
    const std::vector<glm::vec3> points = random_points(sphere, 100, 2);
    const Comparison c = compare_with_brute_force(sphere, points, 0.02);
    // Inside a sphere the surface curves around the point and every far
    // node errs the same way: the worst case of the expansion, 1.9e-2
    // measured, still far from moving w across 1/2.
    constexpr double kSphereTolerance = 0.025;
    std::printf("[ 81,920 tris  ] %zu of %zu points away from the surface: max |error| %.2e "
                "(%.2e at all), %.1f us a point (exact sum %.1f us)\n",
                c.away, points.size(), c.max_error_away, c.max_error, c.tree_us, c.brute_us);
    EXPECT_GT(c.away, points.size() / 2);
    EXPECT_LT(c.max_error_away, kSphereTolerance);
    // Inside is inside: the winding number of a sphere is its indicator.
    const WindingNumberField field(sphere);
    for (const glm::vec3& p : points) {
        const float r = glm::length(p);
        if (std::abs(r - 1.0f) > 0.02f) {
            EXPECT_NEAR(field.at(p), r < 1.0f ? 1.0 : 0.0, kSphereTolerance) << "at radius " << r;
        }
    }
}

TEST(WindingNumber, FiniteAndRightAtTheEndsOfTheFloatRange)
{
    // Squares and cubes of these overflow or underflow a float.
    for (const float scale : {3.0e38f, 1.0e-30f}) {
        ObjShape shape = icosphere(2);
        for (glm::vec3& v : shape.v) v *= scale;
        const WindingNumberField field(surface_of(shape));
        const std::vector<glm::vec3> points = {glm::vec3(0.0f), glm::vec3(0.5f * scale, 0, 0),
                                               glm::vec3(0, 0.9f * scale, 0),
                                               glm::vec3(0, 0, 1.1f * scale),
                                               glm::vec3(-1.0f * scale, 1.0f * scale, 0),
                                               shape.v[0]};
        const std::vector<double> w = field.at_points(points);
        for (size_t i = 0; i < points.size(); ++i) {
            SCOPED_TRACE("scale " + std::to_string(scale) + ", point " + std::to_string(i));
            ASSERT_TRUE(std::isfinite(w[i]));
            if (i < 3) {
                EXPECT_NEAR(w[i], 1.0, 0.01);
            } else if (i < 5) {
                EXPECT_NEAR(w[i], 0.0, 0.01);
            }
        }
    }
}
