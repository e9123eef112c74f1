// Exact distance from a point to a triangle in double precision: the
// closest point by Voronoi regions of the vertices, edges and face
// (Ericson, Real-Time Collision Detection, 2005, section 5.1.5).
#pragma once

#include <glm/glm.hpp>

// The point of triangle (a, b, c) nearest to p. A degenerate triangle (a
// segment or a point) is measured as its nearest edge.
glm::dvec3 closest_point_on_triangle(const glm::dvec3& p, const glm::dvec3& a,
                                     const glm::dvec3& b, const glm::dvec3& c);

// The point of segment [a, b] nearest to p; a when a == b.
glm::dvec3 closest_point_on_segment(const glm::dvec3& p, const glm::dvec3& a,
                                    const glm::dvec3& b);

inline double point_triangle_distance(const glm::dvec3& p, const glm::dvec3& a,
                                      const glm::dvec3& b, const glm::dvec3& c)
{
    return glm::length(p - closest_point_on_triangle(p, a, b, c));
}
