#include "core/rest_sphere.h"

#include <algorithm>
#include <cmath>

glm::vec4 rest_sphere(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                      double margin)
{
    const glm::dvec3 centre = (a + b + c) / 3.0;
    const double radius =
        std::sqrt(std::max({glm::dot(a - centre, a - centre), glm::dot(b - centre, b - centre),
                            glm::dot(c - centre, c - centre)}));
    return glm::vec4(glm::vec3(centre), static_cast<float>(radius + margin));
}
