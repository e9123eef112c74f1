// A sphere about a surface triangle's rest corners, for the contact
// search's own-body neighbourhood test (cm_rest_neighbours: some corner
// nearer than the exclusion radius in the rest shape). Most of the
// triangles whose boxes hold a surface vertex are its own neighbours, and
// the sphere tells without reading a corner wherever it lies wholly within
// or wholly beyond the exclusion radius.
#pragma once

#include <glm/glm.hpp>

// Centre (xyz) and radius (w) of a sphere holding corners a, b and c, the
// radius grown by `margin`: at least a hundred times the float rounding of
// the distances compared (BodyContacts uses 1e-5 of the body's largest
// coordinate and exclusion radius), so that wherever the sphere decides, it
// decides as cm_rest_neighbours would.
glm::vec4 rest_sphere(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                      double margin);

enum class SphereSays { neighbours, not_neighbours, undecided };

// What the sphere alone says of a vertex at rest position `rest`.
inline SphereSays rest_neighbours_by_sphere(const glm::vec4& sphere, const glm::vec3& rest,
                                            float exclusion)
{
    const glm::vec3 to_centre = glm::vec3(sphere) - rest;
    const float d2 = glm::dot(to_centre, to_centre);
    const float all_within = exclusion - sphere.w;  // every corner nearer than the exclusion
    if (all_within > 0.0f && d2 < all_within * all_within) {
        return SphereSays::neighbours;
    }
    const float none_within = exclusion + sphere.w;
    return d2 > none_within * none_within ? SphereSays::not_neighbours : SphereSays::undecided;
}
